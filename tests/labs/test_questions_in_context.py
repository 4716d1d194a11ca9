"""One context per question: the prompt, the key and the feedback are computed in the
context the student locks in, and every number the feedback quotes is the number a card shows.

For every lab, every context and every prediction: the key, locked in that context at the
scenario's inputs (its presets applied), earns "correct"; the card named by ``shown_by`` shows
the physics' value; every fact named after a metric reads as that metric's card; a question whose
answer changes with the context says which context it is about. Volume I labs offer every track of
V1-00 or say which they use instead."""

from __future__ import annotations

import html as entities
import math
import re

import pytest

from pylabs.framework.questions import Prediction, in_context, worded
from pylabs.labs import all_labs
from pylabs.labs.vol1.contexts import CONTEXTS, TRACK
from tests.labs.helpers import rendered
from tests.labs.pending import per_lab

LABS = all_labs()
CARD = re.compile(r'data-metric="([a-z0-9_]+)" data-value="([^"]*)"><span class="pl-metric__label">[^<]*</span>'
                  r'<span class="pl-metric__value">([^<]*)</span>')


def cards(html: str) -> dict[str, tuple[float, str]]:
    return {name: (float(value), entities.unescape(text)) for name, value, text in CARD.findall(html)}


def locked_through(lab, act, context):
    """The scenario in ``context`` (presets applied), every question up to this act's prediction
    locked with its key in that context."""
    answers = {}
    for q in lab.questions:
        answers[q.id] = {"choice": q.answer(context), "locked_at": "2026-01-01T00:00:00Z"}
        if q.id == act.prediction.id:
            break
    return lab.parse({"answers": answers, "controls": {lab.context.name: context}}, lab.context.name)


@pytest.mark.parametrize("lab", per_lab(LABS))
def test_each_key_and_its_feedback_are_those_of_the_context_locked_in(lab):
    problems = []
    for context in lab.context.values:
        for act in lab.acts:
            state = locked_through(lab, act, context)
            html = rendered(lab, state)
            p = act.prediction
            if f'data-feedback="{p.id}" data-verdict="correct"' not in html:
                problems.append(f"{context}: the key of {p.id} is not 'correct' when locked there")
            shown = cards(html)
            if isinstance(p, Prediction):
                if not p.shown_by:
                    problems.append(f"{p.id}: name the card that shows the answer (shown_by)")
                elif p.shown_by not in shown:
                    problems.append(f"{context}: {p.id}'s card {p.shown_by} is not on the page")
                elif not math.isclose(shown[p.shown_by][0], p.value_in(context), rel_tol=1e-6):
                    problems.append(f"{context}: {p.id} says {p.value_in(context)}, its card {p.shown_by} "
                                    f"shows {shown[p.shown_by][0]}")
            for name, text in in_context(act.facts, context).items():
                if name in shown and shown[name][1] != text:
                    problems.append(f"{context}: fact {name} reads {text!r}, its card {shown[name][1]!r}")
    assert not problems, f"{lab.id}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("lab", per_lab(LABS))
def test_a_question_whose_answer_moves_with_the_context_says_which_it_is_about(lab):
    for p in (act.prediction for act in lab.acts):
        keys = {c: (p.value_in(c) if isinstance(p, Prediction) else p.answer(c)) for c in lab.context.values}
        if len(set(keys.values())) > 1:
            prompts = {worded(p.prompt, lab.terms(c)) for c in lab.context.values}
            assert len(prompts) == len(lab.context.values), (
                f"{lab.id} {p.id}: the answer depends on the context ({keys}) but the prompt does not name it")


VOLUME_1 = [lab for lab in LABS if lab.volume == 1 and lab.context_from == TRACK]


@pytest.mark.parametrize("lab", per_lab(VOLUME_1))
def test_every_track_of_v1_00_is_offered_or_its_absence_explained(lab):
    missing = [t for t in CONTEXTS if t not in lab.context.values]
    unexplained = [t for t in missing if not lab.track_notes.get(t)]
    assert not unexplained, f"{lab.id}: tracks {unexplained} are neither offered nor explained (track_notes)"
    assert set(lab.track_notes) <= set(missing), f"{lab.id}: notes for tracks it offers"
