"""What the guide says of a lab, computed from its module: each question's key in every context
with the physics that proves it, every option's feedback (the misconceptions to expect), the
failure states and settings that reach them, the Act II design space and what meets it."""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field

from pylabs.course.aggregate import miss_amount
from pylabs.course.class_labs import miss_shown
from pylabs.course.describe import control_text
from pylabs.framework.components import FailureSpec
from pylabs.framework.controls import Choice, Control, MultiChoice, Number, Slider, Toggle
from pylabs.framework.formats import fmt
from pylabs.framework.lab import Act, Lab
from pylabs.framework.questions import Pick, Prediction, Question, Reflection, fill, in_context, worded
from pylabs.framework.state import State

SEARCH_BUDGET = 2500   # states tried per failure state
DESIGN_SAMPLES = 60    # Act II designs tried for the design space


@dataclass(frozen=True)
class Option:
    letter: str
    text: str
    feedback: str
    key: bool
    miss: str = ""       # for a wrong numeric prediction: how far the physics is from its range


@dataclass(frozen=True)
class Answer:
    """A question in one context: its key and the physics that proves it."""

    context: str
    context_label: str
    prompt: str
    key: str
    proof: str
    options: tuple[Option, ...]


@dataclass(frozen=True)
class Reached:
    failure: FailureSpec
    settings: tuple[tuple[str, str], ...] | None   # (control label, value) changed from the defaults


@dataclass
class Design:
    controls: tuple[tuple[str, str], ...]   # every Act II control: (label, range or options)
    tried: int = 0
    met: int = 0
    examples: list = field(default_factory=list)  # designs that meet it: ((label, value), ...)


def locked_state(lab: Lab, context: str, controls: dict | None = None) -> State:
    """Every question locked with its key in ``context``: both acts open."""
    answers = {q.id: {"choice": q.answer(context), "locked_at": "2026-09-01T09:00:00Z"} for q in lab.questions}
    return lab.parse({"controls": {**(controls or {}), lab.context.name: context}, "answers": answers})


def proof(lab: Lab, q: Question, context: str, facts: dict) -> str:
    key = q.answer(context)
    if isinstance(q, Prediction):
        option = q.option(key)
        return (f"The physics gives **{fmt(q.value_in(context), q.unit_fmt)}** ({q.quantity}) at the scenario's "
                f"inputs, inside {key}'s range ({option.range_text(q.unit_fmt)}).")
    if isinstance(q, Pick):
        return f"Run against the scenario's constraints, the physics picks {key}: " + fill(q.option(key).feedback, facts)
    return fill(q.option(key).feedback, facts)


def answer_in(lab: Lab, q: Question, context: str) -> Answer:
    act = next(a for a in lab.acts if a.number == q.act)
    facts = dict(in_context(act.facts, context))
    terms = lab.terms(context)
    key = q.answer(context)
    options = []
    for o in q.options:
        miss = ""
        if isinstance(q, Prediction) and o.letter != key:
            kind, amount = miss_amount(o, q.value_in(context), q.unit_fmt)
            miss = miss_shown(kind, amount, q.unit_fmt)
        options.append(Option(o.letter, q.text_of(o.letter, terms), fill(o.feedback, facts) if o.feedback else "",
                              o.letter == key, miss))
    return Answer(context, lab.context.label_of(context), worded(q.prompt, terms), key, proof(lab, q, context, facts),
                  tuple(options))


def answers(lab: Lab, q: Question) -> list[Answer]:
    return [answer_in(lab, q, c) for c in lab.context.values]


def candidates(control: Control) -> list:
    """Values the search tries for a control: both ends and a few places between, every option."""
    if isinstance(control, Slider):
        return sorted({control.parse(control.at(f)) for f in (0, 1, 0.5, 0.25, 0.75, 0.1, 0.9)})
    if isinstance(control, Number):
        return [control.min, control.max, (control.min + control.max) / 2]
    if isinstance(control, Choice):
        return list(control.values)
    if isinstance(control, Toggle):
        return [True, False]
    if isinstance(control, MultiChoice):
        return [control.default]
    return []


def _moves(lab: Lab, act: Act) -> list[tuple[Control, object]]:
    own = [(c, v) for c in act.controls for v in candidates(c) if v != c.default]
    others = [(c, v) for a in lab.acts if a is not act for c in a.controls for v in candidates(c) if v != c.default]
    return own + others


def _tries(lab: Lab, act: Act):
    """(context, changes) to try, fewest changes first: none, one, then two controls moved."""
    moves = _moves(lab, act)
    for size in (0, 1, 2):
        for context, combo in itertools.product(lab.context.values, itertools.combinations(moves, size)):
            if len({c.name for c, _ in combo}) == size:
                yield context, combo


def reach(lab: Lab, spec: FailureSpec) -> Reached:
    """The fewest changes from the defaults (none, one, else two) that make ``spec`` active, in any context."""
    act = next(a for a in lab.acts if a.number == spec.act)
    for context, combo in itertools.islice(_tries(lab, act), SEARCH_BUDGET):
        if spec.name in lab.failures_now(locked_state(lab, context, {c.name: v for c, v in combo})):
            shown = [(lab.context.label, lab.context.label_of(context))] if context != lab.context.default else []
            return Reached(spec, tuple(shown + [(c.label, control_text(c, v)) for c, v in combo]))
    return Reached(spec, None)


def _range(control: Control) -> str:
    if isinstance(control, (Slider, Number)):
        return f"{fmt(control.min, control.fmt)} to {fmt(control.max, control.fmt)}"
    if isinstance(control, (Choice, MultiChoice)):
        return "; ".join(o.label for o in control.options)
    return "on or off"


def design_space(lab: Lab, seed: int = 0) -> Design | None:
    """Act II's controls, and a sample of designs (every control at its candidate values) judged
    by the lab's own failure states: a design meets the constraints when no Act II failure is active."""
    act = next((a for a in lab.acts if a.number == 2), None)
    if act is None or not act.controls:
        return None
    design = Design(tuple((c.label, _range(c)) for c in act.controls))
    values_of = [candidates(c) or [c.default] for c in act.controls]
    rng = random.Random(seed)
    chosen = [tuple(c.default for c in act.controls)]
    chosen += [tuple(rng.choice(values) for values in values_of) for _ in range(DESIGN_SAMPLES)]
    act2 = {f.name for f in lab.failures if f.act == 2}
    for values in chosen:
        controls = {c.name: v for c, v in zip(act.controls, values)}
        design.tried += 1
        if not act2 & lab.failures_now(locked_state(lab, lab.context.default, controls)):
            design.met += 1
            shown = tuple((c.label, control_text(c, v)) for c, v in zip(act.controls, values))
            if shown not in design.examples and len(design.examples) < 4:
                design.examples.append(shown)
    return design


def discussion(lab: Lab, q: Reflection) -> str:
    act = next(a for a in lab.acts if a.number == q.act)
    return (f"{worded(q.prompt, lab.terms(lab.context.default))} Put the four claims to the class and have "
            f"each defended with what Act {'I' * q.act}'s instruments ({act.instruments_title.lower()}) showed; "
            f"a claim that cannot point at a number on the page is the misconception.")
