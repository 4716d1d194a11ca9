"""Shared helpers for lab controller tests."""

from __future__ import annotations

from pylabs.framework.lab import Lab
from pylabs.framework.questions import Prediction
from pylabs.framework.render import render_lab
from pylabs.framework.state import State
from pylabs.labs import links

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
