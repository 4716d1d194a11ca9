"""Every chart of every lab, in a spread of states, is a figure Plotly accepts.

The figures are plain dicts built without plotly.py (the browser runtime has only the standard
library). Here, in CPython, plotly.py's own schema validates them: a misspelt property, a wrong
value type or a trace type the vendored bundle cannot draw fails the test, not a student's page.
"""

from __future__ import annotations

import json
import random
import re

import plotly.graph_objects as go
import pytest

from build_scripts.plotly_bundle import bundle_traces
from pylabs.labs import all_labs
from tests.labs.helpers import answered, rendered
from tests.labs.states import random_controls

BUNDLE_TRACES = set(bundle_traces())  # what the vendored bundle draws: build_scripts/plotly_bundle.json
SPEC = re.compile(r'<script type="application/json" class="pl-chart__spec">(.*?)</script>', re.S)
TOKEN = re.compile(r'"token:[a-z0-9]+"')


def figures(html: str) -> list[dict]:
    return [json.loads(TOKEN.sub('"#888888"', m.replace("<\\/", "</"))) for m in SPEC.findall(html)]


@pytest.mark.parametrize("lab", all_labs(), ids=lambda lab: lab.id)
def test_every_figure_passes_plotly_validation(lab):
    rng = random.Random(lab.id)
    last = lab.questions[-1].id
    states = [answered(lab, {}, through=last)]
    states += [answered(lab, {}, through=last, controls=random_controls(lab, rng)) for _ in range(12)]
    seen = 0
    for state in states:
        for figure in figures(rendered(lab, state)):
            types = {trace.get("type", "scatter") for trace in figure["data"]}
            assert types <= BUNDLE_TRACES, f"{lab.id}: trace types {types - BUNDLE_TRACES} are not in the bundle"
            go.Figure(figure)  # raises ValueError naming the bad property
            seen += 1
    assert seen, f"{lab.id} drew no chart"
