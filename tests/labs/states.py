"""States a student can put a lab in: random instrument settings and locked answers, for tests
that must hold wherever the student goes (charts Plotly accepts, numbers that read well)."""

from __future__ import annotations

import random
from typing import Any, Mapping

from pylabs.framework.controls import Choice, MultiChoice, Number, Slider, Toggle
from pylabs.framework.lab import Lab
from pylabs.framework.state import State
from tests.labs.helpers import LOCKED_AT


def random_controls(lab: Lab, rng: random.Random) -> dict:
    """Every control at an end, its default or anywhere between (sliders on their own scale)."""
    values = {}
    for c in lab.controls:
        if isinstance(c, Slider):
            values[c.name] = rng.choice([c.min, c.max, c.default, c.at(rng.random())])
        elif isinstance(c, Number):
            values[c.name] = rng.choice([c.min, c.max, c.default, rng.uniform(c.min, c.max)])
        elif isinstance(c, Choice):
            values[c.name] = rng.choice(c.values)
        elif isinstance(c, Toggle):
            values[c.name] = rng.choice([True, False])
        elif isinstance(c, MultiChoice):
            top = len(c.values) if c.max_selected is None else c.max_selected
            picked = rng.sample(c.values, rng.randint(c.min_selected, top))
            values[c.name] = [v for v in c.values if v in picked]
    return values


def random_state(lab: Lab, rng: random.Random) -> State:
    """Random settings with every question locked at a random letter: every feedback, every act's
    instruments and the takeaways are on the page."""
    answers = {q.id: {"choice": rng.choice("ABCD"), "locked_at": LOCKED_AT} for q in lab.questions}
    return lab.parse({"answers": answers, "controls": random_controls(lab, rng)})


# ---- states as a student makes them, move by move (failure witnesses are written so) ---------


def start(lab: Lab, context: str) -> dict[str, Any]:
    """A fresh attempt's controls in ``context``: picking it applies its presets."""
    return moved(lab, {}, {lab.context.name: context})


def moved(lab: Lab, controls: Mapping[str, Any], moves: Mapping[str, Any]) -> dict[str, Any]:
    """``controls`` after the student moves each control of ``moves`` in turn (presets apply)."""
    now = dict(controls)
    for name, value in moves.items():
        now = dict(lab.parse({"controls": {**now, name: value}}, changed=name).controls)
    return now


def locked(lab: Lab, controls: Mapping[str, Any], upto: int | None = None, earlier=None) -> State:
    """Every question locked (only the first ``upto`` when given), at its key; ``earlier``: the
    ledger's latest attempts of the labs this one reads."""
    questions = lab.questions if upto is None else lab.questions[:upto]
    answers = {q.id: {"choice": q.answer(), "locked_at": LOCKED_AT} for q in questions}
    return lab.parse({"answers": answers, "controls": dict(controls), "earlier": earlier or {}})
