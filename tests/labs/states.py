"""States a student can put a lab in: random instrument settings and locked answers, for tests
that must hold wherever the student goes (charts Plotly accepts, numbers that read well)."""

from __future__ import annotations

import random

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
