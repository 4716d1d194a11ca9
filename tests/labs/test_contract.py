"""What every lab promises, tested from what it declares: its controls, contexts, presets and the
witnesses of its failures (``FailureSpec.reach``/``leave``). A lab's own test file keeps only its
physics; anything true of every lab is tested here, for all 34, under one name.

Each property is written once: a failure is reached by its ``reach`` settings and left by its
``leave`` settings in every context it names, and the page shows its hook exactly while it is
active; it stays quiet until its act's instruments open; every control at each end, in every
context, renders numbers that make sense (never NaN; negative or unbounded only on the cards listed
below) and a record the ledger accepts; every option of every question, in every context, earns
the context's verdict and filled-in feedback that quotes a number; every control moves something
the student reads; presets set what they say. The protocol (gating, locks, the context
fixed by the first lock) is in test_protocol.py; the questions in test_question_form.py and
test_questions_in_context.py; number formats in test_numbers_read.py; charts in test_figures.py."""

from __future__ import annotations

import math
import re
from typing import Any

import pytest

from pylabs import ledger
from pylabs.framework.controls import Choice, Control, MultiChoice, Number, Slider, Toggle
from pylabs.framework.lab import Lab
from pylabs.framework.render import record, render_lab
from pylabs.framework.state import State
from pylabs.labs import all_labs
from tests.labs.helpers import LOCKED_AT
from tests.labs.states import locked, moved, start

LABS = all_labs()
CONTEXTS = [(lab, c) for lab in LABS for c in lab.context.values]
WITNESSED = [(lab, f, c) for lab in LABS for f in lab.failures for c in (f.contexts or lab.context.values)]
HOOK = re.compile(r'data-failure="(\w+)"')
VALUE = re.compile(r'data-value="([^"]*)"')


def by_lab(cases):
    return pytest.mark.parametrize("lab", cases, ids=lambda lab: lab.id)


def by_context(cases):
    return pytest.mark.parametrize("lab,context", cases, ids=[f"{lab.id}-{c}" for lab, c in cases])


BY_WITNESS = pytest.mark.parametrize("lab,spec,context", WITNESSED, ids=[f"{lab.id}-{f.name}-{c}" for lab, f, c in WITNESSED])


def hooks(lab: Lab, state: State) -> set[str]:
    return set(HOOK.findall(str(render_lab(lab, state))))


def ends(control: Control) -> list[Any]:
    """The values at a control's ends: a range's bounds, every option, both states of a switch,
    the fewest and the most options a multi-choice takes."""
    if isinstance(control, (Slider, Number)):
        return [control.min, control.max]
    if isinstance(control, Choice):
        return list(control.values)
    if isinstance(control, Toggle):
        return [False, True]
    if isinstance(control, MultiChoice):
        top = len(control.values) if control.max_selected is None else control.max_selected
        return [list(control.values[:control.min_selected]), list(control.values[:top])]
    raise TypeError(f"no ends for {control!r}")


def instruments(lab: Lab) -> list[Control]:
    return [c for c in lab.controls if c is not lab.context]


# ---- failures: reached and left by their witnesses -------------------------------------------


@by_lab(LABS)
def test_every_failure_says_how_to_leave_it(lab):
    assert all(f.leave for f in lab.failures), \
        f"{lab.id}: declare leave= on {[f.name for f in lab.failures if not f.leave]}"


@BY_WITNESS
def test_each_failure_is_reached_and_left_by_its_witnesses(lab, spec, context):
    reached = moved(lab, start(lab, context), spec.reach)
    state = locked(lab, reached)
    assert spec.name in lab.failures_now(state), f"reach {spec.reach} does not reach {spec.name}"
    assert hooks(lab, state) == set(lab.failures_now(state)), "the page shows other failures than are active"
    left = locked(lab, moved(lab, reached, spec.leave))
    assert spec.name not in lab.failures_now(left), f"leave {spec.leave} does not leave {spec.name}"
    assert hooks(lab, left) == set(lab.failures_now(left)), "the page shows other failures than are active"
    assert set(lab.failures_now(state)) <= {f.name for f in lab.failures}


@BY_WITNESS
def test_witnesses_move_only_controls_the_student_can_move(lab, spec, context):
    """A student (and the walkthrough) cannot set a control the state disables."""
    controls = start(lab, context)
    for part in (spec.reach, spec.leave):
        state = locked(lab, controls)
        disabled = {name for act in lab.acts for name in act.overridden(state)}
        assert not set(part) & disabled, f"{spec.name} moves {sorted(set(part) & disabled)}, disabled here"
        controls = moved(lab, controls, part)


@BY_WITNESS
def test_a_failure_is_quiet_until_its_act_opens(lab, spec, context):
    reached = moved(lab, start(lab, context), spec.reach)
    before = lab.questions.index(lab.acts[spec.act - 1].prediction)
    state = locked(lab, reached, upto=before)
    assert spec.name not in lab.failures_now(state)
    assert spec.name not in hooks(lab, state)


# ---- every setting renders ---------------------------------------------------------------------


def extremes(lab: Lab, context: str) -> list[dict[str, Any]]:
    """Every control at each of its ends alone, and all at their low and at their high ends."""
    base = start(lab, context)
    alone = [moved(lab, base, {c.name: v}) for c in instruments(lab) for v in ends(c)]
    low = moved(lab, base, {c.name: ends(c)[0] for c in instruments(lab)})
    high = moved(lab, base, {c.name: ends(c)[-1] for c in instruments(lab)})
    return alone + [low, high]


CARD = re.compile(r'data-metric="(\w+)" data-value="([^"]*)"><span class="pl-metric__label">[^<]*</span>'
                  r'<span class="pl-metric__value">([^<]*)<')

# Metric cards that may read below zero (a net gain that turns into a loss) or unbounded (a queue
# that never drains, a break-even never reached) somewhere on the controls; every other card stays
# finite and non-negative at every end of every control.
SIGNED = {"v1_07": {"a2_net_gpu_s"}, "v1_09": {"a1_saved"}, "v1_14": {"a2_extra"}, "v1_15": {"a2_cutoff_gap"},
          "v2_15": {"a1_net_change"}}
UNBOUNDED = {"v1_03": {"a2_crossover", "a2_small_to_target"}, "v1_07": {"a2_breakeven", "a2_breakeven_time_s"},
             "v1_09": {"a2_cost_to_bar", "a2_other_cost"}, "v1_11": {"a1_m_star"},
             "v1_13": {"a2_drain_s", "a2_min_replicas", "a2_p99_s"}, "v1_14": {"a1_alarm", "a1_crossing"},
             "v1_16": {"a1_tier"}, "v2_07": {"a2_time_lost"},
             "v2_08": {"a2_interactive_rho", "a2_search_wait_s", "a2_training_rho"}, "v2_09": {"a2_roi"},
             "v2_10": {"a2_ttft"}}


def misread(lab: Lab, html: str) -> list[str]:
    """Cards whose number is NaN yet printed as a number (a card with nothing to count says so in
    words), negative where the quantity cannot be, or infinite where it cannot be."""
    wrong = []
    for name, raw, text in CARD.findall(html):
        value = float(raw)
        if math.isnan(value) and re.search(r"\d", text):
            wrong.append(f"{name}: NaN shown as {text!r}")
        if value < 0 and name not in SIGNED.get(lab.id, ()):
            wrong.append(f"{name}: negative, {text!r}")
        if math.isinf(value) and name not in UNBOUNDED.get(lab.id, ()):
            wrong.append(f"{name}: unbounded, {text!r}")
    return wrong


def no_nan(values) -> bool:
    return not any(isinstance(v, float) and math.isnan(v) for v in values)


@by_context(CONTEXTS)
def test_extremes_render_sensible_numbers_and_a_record_the_ledger_keeps(lab, context):
    for controls in extremes(lab, context):
        state = locked(lab, controls)
        html = str(render_lab(lab, state))
        assert VALUE.findall(html), f"{lab.id} {controls}: no number on the page"
        assert not misread(lab, html), f"{lab.id} {controls}: {misread(lab, html)}"
        assert no_nan(lab.results(state).values()), f"{lab.id} {controls}: a NaN in the results"
        kept = ledger.commit(ledger.empty(), f"{lab.id}-test-attempt", record(lab, state), LOCKED_AT)
        assert kept["attempts"][f"{lab.id}-test-attempt"]["complete"] is True


@by_context(CONTEXTS)
def test_default_and_complete_pages_render_in_every_context(lab, context):
    fresh = lab.parse({"controls": start(lab, context)})
    assert lab.failures_now(fresh) == frozenset() and not hooks(lab, fresh)
    done = locked(lab, start(lab, context))
    rec = record(lab, done)
    assert rec["context"] == context and rec["complete"] is True
    assert set(rec["answers"]) == {q.id for q in lab.questions}
    assert all(name == name.lower() for name in rec["results"])
    kept = ledger.commit(ledger.empty(), f"{lab.id}-test-attempt", rec, LOCKED_AT)["attempts"][f"{lab.id}-test-attempt"]
    assert set(kept["results"]) == set(rec["results"]), "the ledger keeps every result the lab records"


# ---- every answer is explained ----------------------------------------------------------------


def feedback_text(html: str, qid: str) -> tuple[str, str]:
    """A question's verdict and its feedback as text."""
    box = html.split(f'data-feedback="{qid}"')[1].split("</div>")[0]
    verdict = re.match(r' data-verdict="(\w+)"', box)
    return (verdict.group(1) if verdict else ""), re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", box.split(">", 1)[1]))


@by_context(CONTEXTS)
def test_every_option_s_feedback_is_filled_and_quotes_a_number_in_every_context(lab, context):
    """Every option of every question, locked in ``context`` with the earlier questions at their
    keys: the verdict is that of the context's key, and the feedback is a filled-in explanation
    (no ``{fact}`` left, a computed number quoted, more than a line long)."""
    controls = start(lab, context)
    for i, q in enumerate(lab.questions):
        for letter in "ABCD":
            answers = {p.id: {"choice": p.answer(context), "locked_at": LOCKED_AT} for p in lab.questions[:i]}
            answers[q.id] = {"choice": letter, "locked_at": LOCKED_AT}
            html = str(render_lab(lab, lab.parse({"answers": answers, "controls": controls})))
            verdict, said = feedback_text(html, q.id)
            assert verdict == ("correct" if letter == q.answer(context) else "incorrect"), f"{q.id} {letter}"
            assert "{" not in said and re.search(r"\d", said) and len(said) > 80, f"{q.id} {letter}: {said!r}"


# ---- every control matters -------------------------------------------------------------------


def what_the_student_reads(lab: Lab, state: State) -> str:
    """The instruments, equations and results of a state (not the controls themselves)."""
    shown = [str(list(act.instruments(state))) + str(act.math_peek(state)) for act in lab.acts]
    return "".join(shown) + repr(sorted(lab.results(state).items(), key=lambda kv: kv[0]))


def earlier_done(lab: Lab) -> dict[str, Any]:
    """The ledger of a student who finished every lab this one reads, at its keys."""
    from pylabs.labs import get
    return {lab_id: record(get(lab_id), locked(get(lab_id), {})) for lab_id in lab.reads}


def starting_points(lab: Lab) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Where a student may stand when moving a control, as (controls, earlier labs): each context's
    start, with and without the labs it reads done; every option of a choice or switch picked;
    every control at its low or its high end; each failure reached."""
    points = []
    for context in lab.context.values:
        base = start(lab, context)
        points += [(base, {}), (base, earlier_done(lab))]
        points += [(moved(lab, base, {c.name: v}), {}) for c in instruments(lab)
                   if isinstance(c, (Choice, Toggle)) for v in ends(c)]
        points += [(moved(lab, base, {c.name: ends(c)[0] for c in instruments(lab)}), {}),
                   (moved(lab, base, {c.name: ends(c)[-1] for c in instruments(lab)}), {})]
        points += [(moved(lab, base, f.reach), {}) for f in lab.failures if context in (f.contexts or (context,))]
    return points


def changes_something(lab: Lab, control: Control, points) -> bool:
    return any(what_the_student_reads(lab, locked(lab, moved(lab, point, {control.name: value}), earlier=earlier))
               != what_the_student_reads(lab, locked(lab, point, earlier=earlier))
               for point, earlier in points for value in ends(control))


@by_lab(LABS)
def test_every_control_changes_something_the_student_reads(lab):
    """From some place a student can stand, some end of every instrument control changes the
    instruments, the equations or the results."""
    points = starting_points(lab)
    idle = [c.name for c in instruments(lab) if not changes_something(lab, c, points)]
    assert not idle, f"{lab.id}: moving {idle} changes nothing"


# ---- presets ---------------------------------------------------------------------------------


@by_lab([lab for lab in LABS if lab.presets])
def test_presets_set_what_they_say(lab):
    for source, targets in lab.presets.items():
        for option, values in targets.items():
            state = lab.parse({"controls": {source: option}}, changed=source)
            for name, value in values.items():
                assert state[name] == lab.control(name).parse(value) and state[name] is not None
                taken = lab.control(name).parse(value)
                assert taken == value or (isinstance(taken, tuple) and list(taken) == list(value)), \
                    f"{lab.id}: preset {source}={option} sets {name}={value!r}, the control takes {taken!r}"
