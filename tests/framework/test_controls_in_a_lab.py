"""The log slider, number field and multi-select inside a real lab's act, in CPython.

No lab uses them yet and no test lab may join the registry, so these tests add them to a copy of
V2-02's first act (``dataclasses.replace``) and run the same paths a page does: state parsing,
rendering, the ledger record, shared links and the bridge's ``update``."""

from __future__ import annotations

import dataclasses
import json

import pytest

from pylabs import bridge, ledger
from pylabs.framework.controls import MultiChoice, Number, Option, Slider
from pylabs.framework.lab import Lab
from pylabs.framework.render import record, render_lab
from pylabs.labs import get

LOG = Slider("x_latency", "Per-hop latency", "s", 1e-6, 1e-2, 1, 1e-4, fmt="num", scale="log")
NUMBER = Number("x_bandwidth", "Link bandwidth", "GB/s", 1, 400, 0.5, 50)
MULTI = MultiChoice("x_faults", "Failures to model",
                    (Option("gpu", "GPU"), Option("nic", "NIC"), Option("psu", "Power supply")),
                    default=("gpu",), min_selected=1, max_selected=2)
NEW = (LOG, NUMBER, MULTI)
LOCKED = {"choice": "A", "locked_at": "2026-01-01T00:00:00Z"}


def lab_with_new_controls() -> Lab:
    """V2-02 with the three controls appended to Act I (not registered anywhere)."""
    lab = get("v2_02")
    first = dataclasses.replace(lab.acts[0], controls=lab.acts[0].controls + NEW)
    return dataclasses.replace(lab, acts=(first, *lab.acts[1:]))


def unlocked(controls: dict) -> dict:
    lab = lab_with_new_controls()
    return {"controls": controls, "answers": {lab.acts[0].prediction.id: LOCKED}}


def test_the_state_keeps_parsed_values_and_what_was_refused():
    lab = lab_with_new_controls()
    state = lab.parse(unlocked({"x_latency": 0.00123456, "x_bandwidth": "500", "x_faults": ["nic", "gpu", "psu"]}))
    assert state["x_latency"] == 0.0012 and state["x_bandwidth"] == 400.0 and state["x_faults"] == ("gpu",)
    assert state.entered == {"x_bandwidth": "500", "x_faults": ("gpu", "nic", "psu")}


def test_the_page_shows_the_refused_entries_with_their_messages():
    lab = lab_with_new_controls()
    html = str(render_lab(lab, lab.parse(unlocked({"x_bandwidth": "abc", "x_faults": []}))))
    assert 'value="abc"' in html and "“abc” is not a number" in html
    assert "Pick at least 1 (you picked 0). The lab uses the default: GPU." in html
    clean = str(render_lab(lab, lab.parse(unlocked({"x_bandwidth": "60", "x_faults": ["nic"]}))))
    assert "pl-control__problem" not in clean and 'value="60"' in clean


def test_the_ledger_record_keeps_flat_values_that_the_ledger_accepts():
    lab = lab_with_new_controls()
    rec = record(lab, lab.parse(unlocked({"x_faults": ["psu", "nic"], "x_bandwidth": "500"})))
    assert rec["controls"]["x_faults"] == "nic,psu" and rec["controls"]["x_bandwidth"] == 400.0
    assert ledger._flat(rec["controls"], "controls") == rec["controls"]
    # the attempt restored from the ledger sends the comma list back: the same selection
    assert lab.parse({"controls": rec["controls"]})["x_faults"] == ("nic", "psu")


@pytest.mark.parametrize("params,kept,ignored", [
    ({"x_latency": "0.0012", "x_bandwidth": "42", "x_faults": "psu,gpu"},
     {"x_latency": 0.0012, "x_bandwidth": 42.0, "x_faults": ("gpu", "psu")}, []),
    ({"x_latency": "0.00123", "x_bandwidth": "500", "x_faults": "gpu,nic,psu"}, {},
     ["x_latency", "x_bandwidth", "x_faults"]),
    ({"x_bandwidth": "nan", "x_faults": "gpu,evil"}, {}, ["x_bandwidth", "x_faults"]),
    ({"x_faults": ""}, {}, ["x_faults"]),
])
def test_shared_links_carry_the_new_controls(params, kept, ignored):
    assert lab_with_new_controls().link_settings(params) == (kept, ignored)


def test_the_bridge_returns_lists_and_keeps_what_the_student_typed(monkeypatch):
    lab = lab_with_new_controls()
    monkeypatch.setattr(bridge, "get", lambda lab_id: lab)
    state = unlocked({"x_bandwidth": "500", "x_faults": ["nic", "psu"], "x_latency": 3e-5})
    view = json.loads(bridge.update("v2_02", json.dumps(state), "x_bandwidth", True))
    # the browser's state keeps the student's text, so the message stays until they change it
    assert view["controls"]["x_bandwidth"] == "500" and view["controls"]["x_faults"] == ["nic", "psu"]
    assert view["record"]["controls"]["x_bandwidth"] == 400.0
    assert view["record"]["controls"]["x_faults"] == "nic,psu"
    links = json.loads(bridge.link_settings("v2_02", json.dumps({"x_faults": "nic"})))
    assert links == {"controls": {"x_faults": ["nic"]}, "ignored": []}


def test_the_manifest_lists_the_new_kinds():
    entries = {c["name"]: c for c in lab_with_new_controls().manifest()["controls"]}
    assert entries["x_latency"]["scale"] == "log" and entries["x_bandwidth"]["kind"] == "number"
    assert entries["x_faults"]["kind"] == "multi" and entries["x_faults"]["default"] == ["gpu"]
    for entry in (entries[c.name] for c in NEW):
        assert {"name", "kind", "unit", "min", "max", "step", "default", "options"} <= set(entry)
    json.dumps(entries, allow_nan=False)

