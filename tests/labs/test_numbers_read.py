"""Every number a student reads is formatted as a textbook prints it, wherever the
student takes the lab: 200 random states per lab (settings anywhere in their ranges, every
question locked at a random letter, every context), scanned for the rules in ``reading.py``; and
the Design Ledger page shows each lab's results with a label, an act and a unit, never a record
key or a raw float."""

from __future__ import annotations

import random
import re

import pytest

from pylabs import ledger
from pylabs.framework.components import MetricSpec
from pylabs.framework.render import record, render_lab
from pylabs.labs import all_labs
from pylabs.ledger_view import render as ledger_page
from tests.labs.pending import per_lab
from tests.labs.reading import RULES, page_text, problems
from tests.labs.states import random_state

STATES = 200
LABS = all_labs()
MEANING = {name: meaning for name, _, meaning in RULES}


def report(found: dict[str, set[str]]) -> str:
    return "\n".join(f"{rule} ({MEANING[rule]}):\n    " + "\n    ".join(sorted(excerpts)[:6])
                     for rule, excerpts in sorted(found.items()))


@pytest.mark.parametrize("lab", per_lab(LABS))
def test_every_number_on_the_page_reads_like_a_textbook_s(lab):
    rng = random.Random(f"read-{lab.id}")
    found: dict[str, set[str]] = {}
    states = [random_state(lab, rng) for _ in range(STATES)]
    for state in states:
        for rule, excerpts in problems(page_text(str(render_lab(lab, state)))).items():
            found.setdefault(rule, set()).update(excerpts)
    assert not found, f"{lab.id}:\n{report(found)}"


def result_specs(lab) -> dict[str, MetricSpec]:
    return {m.name: m for m in lab.metrics + lab.record_metrics}


@pytest.mark.parametrize("lab", per_lab(LABS))
def test_every_result_the_ledger_keeps_has_a_label_and_a_unit(lab):
    """A result with no metric card is declared in ``record_metrics`` (label, unit, format), and no
    two results share a label on the ledger page."""
    keys = set(lab.results(lab.default_state()))
    specs = result_specs(lab)
    assert keys <= set(specs), f"{lab.id}: results without a label: {sorted(keys - set(specs))}"
    from pylabs.course.describe import result_label
    labels = [result_label(k, specs[k].label) for k in sorted(keys)]
    assert len(labels) == len(set(labels)), f"{lab.id}: two results share a label: {labels}"


RECORD_KEY = re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b")


@pytest.mark.parametrize("lab", per_lab(LABS))
def test_the_ledger_page_shows_people_labels_and_formatted_numbers(lab):
    rng = random.Random(f"ledger-{lab.id}")
    found: dict[str, set[str]] = {}
    for n in range(20):
        state = random_state(lab, rng)
        doc = ledger.commit(ledger.empty(), f"{lab.id}-read{n:04d}", record(lab, state), "2026-11-27T10:00:00Z")
        text = page_text(ledger_page(ledger.dumps(doc)))
        for rule, excerpts in problems(text).items():
            found.setdefault(rule, set()).update(excerpts)
        keys = set(RECORD_KEY.findall(text)) - {lab.id}
        if keys:
            found.setdefault("record key", set()).update(keys)
    assert not found, f"{lab.id}:\n" + "\n".join(f"{k}: {sorted(v)[:6]}" for k, v in found.items())
