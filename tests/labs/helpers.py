"""Shared helpers for lab controller tests."""

from __future__ import annotations

import re

from pylabs.framework.lab import Lab
from pylabs.framework.questions import Prediction
from pylabs.framework.render import render_lab
from pylabs.framework.state import State
from pylabs.labs import links
from tests.labs.reading import page_text

LOCKED_AT = "2026-01-01T00:00:00Z"


def answered(lab: Lab, choices: dict[str, str], through: str, controls: dict | None = None) -> State:
    """A state where every question up to ``through`` is locked, with ``choices`` where given
    and the right answer elsewhere."""
    answers = {}
    for q in lab.questions:
        answers[q.id] = {"choice": choices.get(q.id, q.answer()), "locked_at": LOCKED_AT}
        if q.id == through:
            break
    return lab.parse({"answers": answers, "controls": controls or {}})


def rendered(lab: Lab, state: State) -> str:
    """The lab as its page shows it, connections linked to the labs that exist."""
    return str(render_lab(lab, state, links(lab)))


def assert_key_proven(prediction: Prediction, expected: str, context: str | None = None) -> None:
    """The physics value in ``context`` (the lab's default when None) lies in the expected option's
    range and in no other."""
    value = prediction.value_in(context)
    holding = [o.letter for o in prediction.options if o.holds(value)]
    assert holding == [expected], f"{prediction.id} in {context}: {value} falls in {holding}, expected [{expected}]"
    assert prediction.answer(context) == expected


def assert_reached_and_left(lab: Lab, name: str, reached: State, left: State) -> None:
    """Failure ``name`` is active, its callout on the page, in ``reached``, and neither in ``left``."""
    assert name in lab.failures_now(reached) and f'data-failure="{name}"' in rendered(lab, reached)
    assert name not in lab.failures_now(left) and f'data-failure="{name}"' not in rendered(lab, left)


# ---- reading a rendered page -----------------------------------------------------------------


def metric(html: str, name: str) -> float:
    """A metric card's number, as its data-value holds it."""
    return float(re.search(rf'data-metric="{name}" data-value="([^"]+)"', html).group(1))


def card(html: str, name: str) -> str:
    """A metric card's value as the student reads it."""
    return re.search(rf'data-metric="{name}" data-value="[^"]*"><span class="pl-metric__label">[^<]*</span>'
                     r'<span class="pl-metric__value">([^<]*)</span>', html).group(1)


def feedback(html: str, qid: str) -> str:
    """A question's feedback as text."""
    return page_text(html.split(f'data-feedback="{qid}"')[1].split("</div>")[0])
