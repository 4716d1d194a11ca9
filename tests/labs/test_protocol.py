"""The protocol every lab shares, checked for every lab in the registry: each option of each
question earns a verdict (wrong predictions say how far off), nothing unlocks before its
prediction, locked radios are disabled, and failure states stay quiet until their act opens."""

from __future__ import annotations

import re

import pytest

from pylabs.framework.formats import fmt
from pylabs.framework.questions import Prediction
from pylabs.labs import all_labs
from tests.labs.helpers import answered, rendered

LABS = all_labs()
QUESTIONS = [(lab, q) for lab in LABS for q in lab.questions]


@pytest.mark.parametrize("letter", "ABCD")
@pytest.mark.parametrize("lab,q", QUESTIONS, ids=lambda x: getattr(x, "id", ""))
def test_every_option_earns_a_verdict(lab, q, letter):
    html = rendered(lab, answered(lab, {q.id: letter}, through=q.id))
    verdict = "correct" if letter == q.answer() else "incorrect"
    assert f'data-feedback="{q.id}" data-verdict="{verdict}"' in html
    feedback = html.split(f'data-feedback="{q.id}"')[1].split("</div>")[0]
    assert "{" not in feedback, "feedback has an unfilled {fact}"
    if isinstance(q, Prediction):
        assert fmt(q.value, q.unit_fmt) in feedback
        if verdict == "incorrect":
            assert "of your range (" in feedback, "a miss says how far outside the student's range"
            guess = fmt(q.option(letter).guess, q.unit_fmt)
            assert f"about {guess}" not in feedback, "quote the student's range, not an invented point"


def before_question(lab, qid):
    """The state a student is in just before locking ``qid``: every earlier question locked."""
    ids = [q.id for q in lab.questions]
    index = ids.index(qid)
    return lab.default_state() if index == 0 else answered(lab, {}, through=ids[index - 1])


@pytest.mark.parametrize("lab,q", [(lab, q) for lab, q in QUESTIONS if isinstance(q, Prediction)],
                         ids=lambda x: getattr(x, "id", ""))
def test_no_prediction_is_answered_before_it_is_locked(lab, q):
    """Takeaways, captions, callouts and the HUD keep a prediction's computed answer, as the page
    formats it, off the page until the student has locked it (with every earlier question locked
    and the settings at their defaults)."""
    text = re.sub(r"<[^>]+>", " ", rendered(lab, before_question(lab, q.id)))
    answer = fmt(q.value, q.unit_fmt)
    # As a number a student reads: not part of a longer number ("40" is not in "640 GB").
    shown = re.compile(rf"(?<![\d.,]){re.escape(answer)}(?![\d]|[.,]\d)")
    assert not shown.search(text), f"{q.id}'s answer {answer} is on the page before it is locked"


@pytest.mark.parametrize("lab", LABS, ids=lambda x: x.id)
def test_takeaways_wait_for_the_last_lock(lab):
    last = lab.questions[-1].id
    almost = before_question(lab, last)
    assert "pl-takeaways--waiting" in rendered(lab, almost)
    done = rendered(lab, answered(lab, {}, through=last))
    assert "pl-takeaways--waiting" not in done and "Key takeaways" in done


@pytest.mark.parametrize("lab", LABS, ids=lambda x: x.id)
def test_the_context_is_fixed_by_the_first_lock(lab):
    name = lab.context.name
    free = rendered(lab, lab.default_state())
    assert all(" disabled" not in part.split(">")[0] for part in free.split(f'data-control="{name}"')[1:])
    fixed = rendered(lab, answered(lab, {}, through=lab.questions[0].id))
    assert all(" disabled" in part.split(">")[0] for part in fixed.split(f'data-control="{name}"')[1:])
    assert 'data-context-fixed="">Fixed for this attempt' in fixed
    assert 'data-context-fixed="" hidden>Fixed for this attempt' in free  # in the page, for an early lock to show


@pytest.mark.parametrize("lab", LABS, ids=lambda x: x.id)
def test_nothing_unlocks_before_its_prediction(lab):
    html = rendered(lab, lab.default_state())
    assert 'data-instruments="1" data-unlocked="false"' in html
    assert 'data-act="2" data-unlocked="false"' in html
    assert "data-metric=" not in html and "data-chart=" not in html
    assert f'data-question="{lab.acts[0].reflection.id}"' not in html
    assert lab.failures_now(lab.default_state()) == frozenset()


@pytest.mark.parametrize("lab", LABS, ids=lambda x: x.id)
def test_act2_opens_only_after_act1_reflection(lab):
    first = lab.acts[0]
    predicted = rendered(lab, answered(lab, {}, through=first.prediction.id))
    assert 'data-instruments="1" data-unlocked="true"' in predicted
    assert 'data-act="2" data-unlocked="false"' in predicted
    reflected = rendered(lab, answered(lab, {}, through=first.reflection.id))
    assert 'data-act="2" data-unlocked="true"' in reflected
    assert 'data-instruments="2" data-unlocked="false"' in reflected


@pytest.mark.parametrize("lab", LABS, ids=lambda x: x.id)
def test_locked_questions_disable_their_radios(lab):
    q = lab.acts[0].prediction
    html = rendered(lab, answered(lab, {}, through=q.id))
    section = html.split(f'data-question="{q.id}"')[1].split("</section>")[0]
    assert section.count(" disabled") == 4


def other_value(control, value):
    """A different valid value of ``control`` (for sliders the far end of the range)."""
    if hasattr(control, "options"):
        return next(v for v in control.values if v != value)
    if hasattr(control, "max"):
        return control.min if value != control.min else control.max
    return not value


@pytest.mark.parametrize("lab", LABS, ids=lambda x: x.id)
def test_an_act_depends_only_on_its_own_controls_the_context_and_the_answers(lab):
    """What lets the runtime re-render only the act whose instrument moved."""
    from pylabs.framework.render import render_act
    base = answered(lab, {}, through=lab.questions[-1].id)
    for act in lab.acts:
        before = str(render_act(lab, act, base))
        own = {c.name for c in act.controls} | {lab.context.name}
        for control in lab.controls:
            if control.name in own:
                continue
            moved = lab.parse({"answers": {k: vars(v) for k, v in base.answers.items()},
                               "controls": {**base.controls, control.name: other_value(control, base[control.name])}})
            assert str(render_act(lab, act, moved)) == before, f"act {act.number} reads {control.name}"
