"""V2-17 in a real browser, beyond the walkthrough every lab gets (tests/e2e/test_walkthrough.py): full
walkthrough from an empty ledger; the radar and the defaults come from the ledger; the context
chosen before the lock decides what the radar counts."""

from __future__ import annotations

import json

import pytest

from pylabs import ledger
from pylabs.framework.render import record
from pylabs.labs import get
from pylabs.labs.vol2 import v2_17 as lab
from tests.e2e.driver import close
from tests.labs.helpers import answered

pytestmark = pytest.mark.e2e
FEASIBLE = {"a2_arch": "moe", "a2_weights": "fp8", "a2_regions": "r2m1", "a2_noise": 1.2, "a2_fair": "single",
            "a2_cfe": 0.9}


def test_full_walkthrough_from_an_empty_ledger(lab_page):
    page = lab_page.open("v2_17")
    assert not page.act_unlocked(2) and not page.has_metric("a1_labs")

    page.lock("a1_predict", "D")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_labs"), 0) and not page.has_metric("a1_accuracy")
    assert "no data" in page.page.inner_text('[data-chart="a1_radar"]')
    page.chart_drawn("a1_radar")
    page.chart_drawn("a1_draft")
    page.lock("a1_reflect", "C")
    assert page.verdict("a1_reflect") == "correct"

    page.lock("a2_pick", "D")
    assert page.verdict("a2_pick") == "correct"
    assert close(page.metric("a2_ttft"), lab.DRAFT.ttft) and close(page.metric("a2_passed"), 3)
    for name in ("a2_serving", "a2_ttft", "a2_availability", "a2_privacy", "a2_fairness", "a2_carbon", "a2_budget"):
        assert page.failure_visible(name)
    page.chart_drawn("a2_checks")
    for name, value in FEASIBLE.items():
        page.set_control(name, value)
    assert not any(page.failure_visible(f"a2_{k}") for k in lab.CHECK_TITLES)
    assert close(page.metric("a2_passed"), 10)
    page.set_control("a2_sharding", "tp8pp8")
    assert page.failure_visible("a2_memory")
    page.set_control("a2_sharding", "tp8pp16")
    page.set_control("a2_gpus", "32768")
    assert page.failure_visible("a2_goodput")
    page.set_control("a2_gpus", "16384")
    assert not page.failure_visible("a2_goodput")
    page.lock("a2_reflect", "A")

    page.wait_saved("v2_17", "a2_reflect")
    (attempt,) = page.attempts("v2_17")
    assert attempt["complete"] and attempt["results"]["system_valid"] == 1.0
    assert {"a2_serving", "a2_memory", "a2_goodput", "a2_budget"} <= set(attempt["failures_hit"])


def seeded_ledger() -> str:
    """A ledger in which V2-16 was completed with one threshold in the EU and its Act I prediction
    wrong, whichever letter V2-16's key has today."""
    v2_16 = get("v2_16")
    wrong = next(x for x in "ABCD" if x != v2_16.question("a1_predict").answer())
    state = answered(v2_16, {"a1_predict": wrong}, through="a2_reflect", controls={"a2_eu_rule": "single"})
    doc = ledger.commit(ledger.empty(), "v2_16-seeded01", record(v2_16, state), "2026-11-01T10:00:00Z")
    return ledger.dumps(doc)


def test_the_radar_and_the_defaults_come_from_the_ledger(lab_page):
    page = lab_page.open("v2_17")
    page.page.evaluate("(raw) => localStorage.setItem('mlsys-labs:ledger:/labs/', raw)", seeded_ledger())
    page.reload()
    page.lock("a1_predict", "B")
    page.page.wait_for_function("() => (document.querySelector('[data-chart=\"a1_radar\"]') || {}).innerText"
                                "?.includes('your lowest is')")  # the ledger's records are read after the lock
    assert close(page.metric("a1_labs"), 1)
    radar = page.page.inner_text('[data-chart="a1_radar"]')
    assert "your lowest is Ethics at 50 %" in radar
    page.set_control("a1_volumes", "1")
    assert "every axis reads no data" in page.page.inner_text('[data-chart="a1_radar"]')
    page.lock("a1_reflect", "C")
    page.lock("a2_pick", "D")
    # V2-16's decision (one threshold) is this attempt's fairness rule: no error-rate gap.
    assert page.page.eval_on_selector('input[data-control="a2_fair"]:checked', "e => e.value") == "single"
    assert close(page.metric("a2_fair_gap"), 0.0) and not page.failure_visible("a2_fairness")
    assert json.loads(seeded_ledger())["attempts"]  # the seeded attempt is still there
    assert page.attempts("v2_16")


def test_the_context_chosen_before_the_lock_decides_what_the_radar_counts(lab_page):
    """The context (what the radar counts) is chosen before the first lock: with reflections counted,
    V2-16's seeded attempt is 3 right of 4 (its Act I prediction was wrong), not 1 of 2."""
    page = lab_page.open("v2_17")
    page.page.evaluate("(raw) => localStorage.setItem('mlsys-labs:ledger:/labs/', raw)", seeded_ledger())
    page.reload()
    page.set_control("context", "all")
    assert page.page.eval_on_selector('input[data-control="context"]:checked', "e => e.value") == "all"
    page.lock("a1_predict", "B")
    page.page.wait_for_function("() => (document.querySelector('[data-chart=\"a1_radar\"]') || {}).innerText"
                                "?.includes('your lowest is')")
    assert "your lowest is Ethics at 75 %" in page.page.inner_text('[data-chart="a1_radar"]')
    assert close(page.metric("a1_answers"), 4) and close(page.metric("a1_accuracy"), 0.75)
