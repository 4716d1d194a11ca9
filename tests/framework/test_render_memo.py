"""The runtime keeps a memo between updates (pylabs.bridge) so that a slider move re-renders only
what it can change. Whatever the order of moves, locks and choices, the memo must give exactly
the blocks a fresh render gives."""

from __future__ import annotations

import random

import pytest

from pylabs.framework.render import ACT_RENDERS_KEPT, act_inputs, render_act, render_blocks
from pylabs.labs import all_labs
from tests.labs.test_figures import random_controls

LOCKED_AT = "2026-01-01T00:00:00Z"


def walk(lab, rng: random.Random, steps: int):
    """States a student could pass through: controls moved, options chosen, questions locked in order."""
    answers, pending, controls = {}, {}, {}
    for step in range(steps):
        move = rng.random()
        open_questions = [q for q in lab.questions if q.id not in answers]
        if move < 0.5:
            controls = random_controls(lab, rng)
        elif open_questions and move < 0.75:
            pending[open_questions[0].id] = rng.choice([o.letter for o in open_questions[0].options])
        elif open_questions:
            q = open_questions[0]
            answers[q.id] = {"choice": pending.pop(q.id, None) or rng.choice([o.letter for o in q.options]),
                             "locked_at": LOCKED_AT.replace("00:00", f"{step:02d}:00")}
        yield lab.parse({"answers": dict(answers), "pending": dict(pending), "controls": dict(controls)})


@pytest.mark.parametrize("lab", all_labs(), ids=lambda lab: lab.id)
def test_memo_gives_what_a_fresh_render_gives(lab):
    rng, memo = random.Random(lab.id), {}
    for state in walk(lab, rng, 30):
        assert render_blocks(lab, state, memo) == render_blocks(lab, state)


@pytest.mark.parametrize("lab", all_labs(), ids=lambda lab: lab.id)
def test_states_revisited_give_what_a_fresh_render_gives(lab):
    """A student who drags back and forth returns to states the memo still keeps (ACT_RENDERS_KEPT
    renders per act): a kept render is what a fresh one gives, and the memo keeps no more."""
    rng, memo = random.Random(f"{lab.id} again"), {}
    states = list(walk(lab, rng, 12))
    for state in states + rng.sample(states, len(states)) + states[::-1]:
        assert render_blocks(lab, state, memo) == render_blocks(lab, state)
    assert all(len(memo[act.number]) <= ACT_RENDERS_KEPT for act in lab.acts)


@pytest.mark.parametrize("lab", all_labs(), ids=lambda lab: lab.id)
def test_an_act_reads_nothing_its_memo_key_leaves_out(lab):
    """The memo hands back a render made several moves ago whenever act_inputs match, so an act's
    HTML must not depend on anything act_inputs leaves out: other acts' controls (and what was
    typed into them) or the failure states reached. Changed at random states, they change nothing."""
    rng = random.Random(f"{lab.id} hidden")
    everything_failed = sorted(f.name for f in lab.failures)
    for state in walk(lab, rng, 10):
        raw = {"answers": {k: {"choice": a.choice, "locked_at": a.locked_at} for k, a in state.answers.items()},
               "pending": dict(state.pending), "controls": dict(state.controls)}
        for act in lab.acts:
            own = {c.name for c in act.controls} | {lab.context.name}
            others = {k: v for k, v in random_controls(lab, rng).items() if k not in own}
            variant = lab.parse({**raw, "controls": {**raw["controls"], **others},
                                 "failures_hit": everything_failed})
            if act_inputs(lab, act, variant) == act_inputs(lab, act, state):
                assert render_act(lab, act, variant) == render_act(lab, act, state), act.number
