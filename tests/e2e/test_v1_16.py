"""V1-16 in a real browser, beyond the walkthrough every lab gets (tests/e2e/test_walkthrough.py): full
walkthrough from an empty ledger; the radar and the context come from the ledger."""

from __future__ import annotations

import pytest

from pylabs import ledger
from pylabs.framework.render import record
from pylabs.labs import get
from pylabs.labs.vol1 import audit
from pylabs.labs.vol1 import v1_16 as lab
from tests.e2e.driver import close
from tests.labs.helpers import answered

pytestmark = pytest.mark.e2e
FEASIBLE = {"a2_cloud": "int4", "a2_batch": 256, "a2_load": 0.5, "a2_mobile": "ternary", "a2_tiny": "kws"}


def test_full_walkthrough_from_an_empty_ledger(lab_page):
    page = lab_page.open("v1_16")
    assert not page.act_unlocked(2) and not page.has_metric("a1_answer")

    page.lock("a1_predict", "C")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_rate"), lab.act1_truth())
    assert close(page.metric("a1_answer"), audit.S.output_tokens / lab.act1_truth())
    assert close(page.metric("a1_labs"), 0)
    assert "no data" in page.page.inner_text('[data-chart="a1_radar"]')
    page.set_control("a1_gpus", "8")
    page.set_control("a1_precision", "int4")
    assert close(page.metric("a1_answer"), audit.S.output_tokens * audit.answer_step_s("cloud", "int4", 8))
    page.chart_drawn("a1_answer")
    page.chart_drawn("a1_radar")
    page.lock("a1_reflect", "B")

    page.lock("a2_pick", "C")
    assert page.verdict("a2_pick") == "correct"
    for name in ("a2_cloud_ttft", "a2_mobile_memory", "a2_mobile_tpot", "a2_tiny_flash", "a2_tiny_ram"):
        assert page.failure_visible(name)
    page.chart_drawn("a2_checks")
    for name, value in FEASIBLE.items():
        page.set_control(name, value)
    assert not any(page.failure_visible(f"a2_{k}") for k in audit.CHECK_TITLES)
    assert close(page.metric("a2_failing"), 0)
    page.set_control("a2_edge", "bf16")
    assert page.failure_visible("a2_edge_memory") and page.failure_visible("a2_edge_tpot")
    page.set_control("a2_edge", "int4")
    page.set_control("a2_batch", 1)
    page.set_control("a2_load", 0.1)
    assert page.failure_visible("a2_cloud_cost")
    page.set_control("a2_load", 0.5)
    page.set_control("a2_batch", 4096)
    assert page.failure_visible("a2_cloud_memory")
    page.set_control("a2_batch", 256)
    assert not page.failure_visible("a2_cloud_memory") and not page.failure_visible("a2_cloud_cost")
    page.lock("a2_reflect", "D")

    page.wait_saved("v1_16", "a2_reflect")
    (attempt,) = page.attempts("v1_16")
    assert attempt["complete"] and attempt["results"]["system_valid"] is True
    assert attempt["results"]["graded"] is False
    assert {"a2_cloud_cost", "a2_cloud_memory", "a2_tiny_flash"} <= set(attempt["failures_hit"])


def seeded_ledger() -> str:
    """V1-00 completed on the TinyML track, and V1-13 with both predictions wrong."""
    doc = ledger.empty()
    v1_00 = get("v1_00")
    state = answered(v1_00, {}, through=v1_00.questions[-1].id, controls={"track": "tiny"})
    doc = ledger.commit(doc, "v1_00-seeded01", record(v1_00, state), "2026-11-01T10:00:00Z")
    doc = ledger.commit(doc, "v1_13-seeded01", {
        "lab": "v1_13", "complete": True, "controls": {}, "results": {},
        "answers": {q: {"choice": "A", "locked_at": "2026-11-01T10:00:00Z", "correct": c}
                    for q, c in (("a1_predict", False), ("a1_reflect", True), ("a2_predict", False),
                                 ("a2_reflect", True))}}, "2026-11-02T10:00:00Z")
    return ledger.dumps(doc)


def test_the_radar_and_the_context_come_from_the_ledger(lab_page):
    page = lab_page.open("v1_16")
    page.page.evaluate("(raw) => localStorage.setItem('mlsys-labs:ledger:/labs/', raw)", seeded_ledger())
    page.reload()
    assert page.page.eval_on_selector('input[data-control="context"]:checked', "e => e.value") == "tiny"
    page.lock("a1_predict", "A")
    assert page.verdict("a1_predict") == "correct"
    assert close(page.metric("a1_labs"), 1) and close(page.metric("a1_answers"), 2)
    assert "Your weakest family: Queuing" in page.page.inner_text('[data-act="1"]')
    page.set_control("a1_count", "all")
    assert close(page.metric("a1_answers"), 4)
    assert page.attempts("v1_13")
