"""V1-13 The Tail Latency Trap: golden vectors (VOL1_09-16 §V1-13 §4) through the lab's own
models, answer keys proven by the physics, sampled percentiles against closed forms, feedback,
failure states reached and left, the mobile context, edges, and the ledger record."""

from __future__ import annotations

import math
import re

import pytest

from pylabs.framework import charts as ch
from pylabs.framework.render import record
from pylabs.labs.vol1 import v1_13 as lab
from pylabs.labs.vol1 import v1_13_model as model
from pylabs.physics import queueing as q
from tests.labs.helpers import answered, assert_key_proven, rendered

LAB = lab.LAB


def all_open(**controls):
    return answered(LAB, {}, through="a2_reflect", controls=controls)


def metric(html: str, name: str) -> float:
    return float(re.search(rf'data-metric="{name}" data-value="([^"]+)"', html).group(1))


# ---- §4 golden vectors ---------------------------------------------------------------------------


def test_section4_act1_scenario_mm1():
    """§4: M/M/1 λ = 78, μ = 100: W 45.455 ms; P99 209.33 ms; L 3.545; P(T > 100 ms) 0.1108."""
    srv = model.SCENARIO
    assert srv.arrival_per_s == pytest.approx(78, rel=1e-12)
    assert srv.mean_s * 1e3 == pytest.approx(45.455, abs=5e-4)
    assert srv.percentile_s(0.99) * 1e3 == pytest.approx(209.33, abs=5e-3)
    assert q.mean_queue_length(srv.arrival_per_s, srv.mean_s) == pytest.approx(3.545, abs=5e-4)
    assert srv.exceed(0.1) == pytest.approx(0.1108, abs=5e-5)


def test_section4_act2_spike_backlog_wait_drain():
    """§4: c0 = 30, lag 60 s, λ = 10,000: backlog 528,000; wait 440 s; drain at c = 300: 264 s."""
    assert model.SPIKE.backlog == pytest.approx(528_000)
    assert model.SPIKE.lag_end_wait_s == pytest.approx(220)
    state = all_open(a2_replicas=300)
    assert lab.spike(state).drain_s == pytest.approx(264)


def test_section4_minimum_replicas_251_and_26():
    assert model.min_replicas(0.025, 10_000, 0.2) == 251
    assert model.min_replicas(0.025, 1000, 0.2) == 26


@pytest.mark.parametrize("replicas,p99_ms", [(251, 164.00), (260, 116.27), (300, 115.13)])
def test_section4_p99_once_scaled(replicas, p99_ms):
    html = rendered(LAB, all_open(a2_replicas=replicas))
    assert metric(html, "a2_p99_s") * 1e3 == pytest.approx(p99_ms, abs=5e-3)


def test_section4_250_replicas_are_unstable():
    state = all_open(a2_replicas=250)
    assert lab.spike(state).rho_after == pytest.approx(1.0)
    assert "a2_unstable" in LAB.failures_now(state)


# ---- sampled draws against the closed forms --------------------------------------------------------


@pytest.mark.parametrize("service,rho", [(0.01, 0.78), (0.001, 0.05), (0.1, 0.99), (0.025, 0.5)])
def test_histogram_percentiles_match_the_closed_form(service, rho):
    srv = model.Server(service, rho)
    samples = srv.sample_ms()
    assert len(samples) == model.S.draws // model.S.thin
    for k in (50, 90, 99):
        assert ch.percentile(samples, k) / 1e3 == pytest.approx(srv.percentile_s(k / 100), rel=0.03)


def test_sampled_p99_metric_is_the_histogram_line():
    html = rendered(LAB, all_open())
    line = re.search(r"P99 (?:·|\\u00b7) ([\d.]+) ms", html).group(1)
    assert lab.fmt(metric(html, "a1_p99_sampled"), "ms") == f"{line} ms"


# ---- answer keys ---------------------------------------------------------------------------------


def test_act1_key_is_proven_by_the_physics():
    assert model.act1_truth() == pytest.approx(math.log(100) * model.SCENARIO.mean_s, rel=1e-12)
    assert_key_proven(lab.ACT1_PREDICTION, "C")


def test_act2_key_is_proven_by_the_physics():
    assert model.act2_truth() == pytest.approx(220)
    assert_key_proven(lab.ACT2_PREDICTION, "D")


def test_doubling_the_fleet_is_still_unstable():
    """Spec option C ("2× replicas suffices") is wrong: 60 replicas at 10,000 req/s carry ρ = 4.2."""
    assert model.SPIKE.rho_after == pytest.approx(10_000 * 0.025 / 60)
    assert math.isinf(model.SPIKE.drain_s) and math.isinf(model.SPIKE.p99_after_s())


# ---- feedback ------------------------------------------------------------------------------------


@pytest.mark.parametrize("qid", ["a1_predict", "a1_reflect", "a2_predict", "a2_reflect"])
@pytest.mark.parametrize("letter", "ABCD")
def test_every_option_has_feedback(qid, letter):
    html = rendered(LAB, answered(LAB, {qid: letter}, through=qid))
    feedback = html.split(f'data-feedback="{qid}"')[1].split("</div>")[0]
    assert "{" not in feedback and len(feedback) > 80


def test_wrong_act1_prediction_says_by_how_much():
    html = rendered(LAB, answered(LAB, {"a1_predict": "A"}, through="a1_predict"))
    feedback = html.split('data-feedback="a1_predict"')[1].split("</div>")[0]
    assert "209 ms" in feedback and "above the top of your range" in feedback


# ---- nothing given away before its question is locked ---------------------------------------------


def test_default_page_states_no_act1_or_act2_answer():
    text = re.sub(r"<[^>]+>", " ", rendered(LAB, LAB.default_state()))
    for secret in ("209 ms", "11.1 %", "7.33 min", "528,000", "251"):
        assert secret not in text, secret


def test_act2_question_page_states_no_act2_answer():
    text = re.sub(r"<[^>]+>", " ", rendered(LAB, answered(LAB, {}, through="a1_reflect")))
    for secret in ("7.33 min", "528,000", "440 s"):
        assert secret not in text, secret


# ---- failure states --------------------------------------------------------------------------------


def test_act1_slo_missed_reached_at_the_scenario_and_left_with_less_load():
    assert "a1_slo_missed" in LAB.failures_now(all_open())
    assert "a1_slo_missed" not in LAB.failures_now(all_open(a1_rho=0.5))
    assert "a1_slo_missed" not in LAB.failures_now(all_open(a1_slo_s=0.25))


def test_act2_unstable_reached_and_left_with_replicas_or_admission():
    assert "a2_unstable" in LAB.failures_now(all_open())
    assert "a2_unstable" not in LAB.failures_now(all_open(a2_replicas=251))
    assert "a2_unstable" not in LAB.failures_now(all_open(a2_admission=True))


def test_act2_slo_violated_reached_with_slow_service_and_left():
    slow = all_open(a2_replicas=600, a2_service_s=0.05)
    assert lab.spike(slow).rho_after < 1
    assert "a2_slo_violated" in LAB.failures_now(slow)
    assert "a2_slo_violated" not in LAB.failures_now(all_open(a2_replicas=600, a2_service_s=0.025))


def test_act2_spike_backlog_reached_and_left():
    assert "a2_spike_backlog" in LAB.failures_now(all_open(a2_replicas=300))
    assert "a2_spike_backlog" not in LAB.failures_now(all_open(a2_replicas=300, a2_lag_s=0))
    assert "a2_spike_backlog" not in LAB.failures_now(all_open(a2_replicas=300, a2_admission=True))


def test_backlog_is_a_warning_and_instability_danger():
    html = rendered(LAB, all_open())
    backlog = html.split('data-failure="a2_spike_backlog"')[0].rsplit("<div", 1)[1]
    unstable = html.split('data-failure="a2_unstable"')[0].rsplit("<div", 1)[1]
    assert "pl-callout--warn" in backlog and "pl-callout--danger" in unstable


# ---- the mobile context --------------------------------------------------------------------------------


def test_mobile_context_presets_and_disables_fleet_controls():
    state = LAB.parse({"controls": {"context": "mobile"}}, changed="context")
    assert state["a1_service_s"] == lab.S.npu_service_s and state["a2_spike_rps"] == lab.S.npu_spike_rps
    html = rendered(LAB, answered(LAB, {}, through="a2_reflect",
                                  controls={"context": "mobile", "a2_spike_rps": 60}))
    assert "Not used on a phone" in html
    assert 'data-chart="a2_service_curve"' in html and 'data-chart="a2_replicas_curve"' not in html


def test_mobile_npu_is_one_server_and_faster_service_stabilises_it():
    slow = all_open(context="mobile", a2_spike_rps=60, a2_service_s=0.025)
    sp = lab.spike(slow)
    assert (sp.servers_before, sp.servers_after, sp.lag_s) == (1, 1, 0.0)
    assert "a2_unstable" in LAB.failures_now(slow)
    fast = all_open(context="mobile", a2_spike_rps=60, a2_service_s=0.01)
    assert lab.spike(fast).p99_after_s() == pytest.approx(q.mm1_sojourn_percentile_s(0.99, 60, 0.01))
    assert not {"a2_unstable", "a2_slo_violated"} & LAB.failures_now(fast)


# ---- edges ----------------------------------------------------------------------------------------------


EXTREMES = [
    {"a1_service_s": 0.001, "a1_rho": 0.05, "a1_slo_s": 0.02},
    {"a1_service_s": 0.1, "a1_rho": 0.99, "a1_slo_s": 0.5},
    {"a2_replicas": 1, "a2_spike_rps": 20_000, "a2_lag_s": 300, "a2_service_s": 0.05},
    {"a2_replicas": 600, "a2_spike_rps": 10, "a2_lag_s": 0, "a2_service_s": 0.005},
    {"a2_replicas": 600, "a2_spike_rps": 20_000, "a2_lag_s": 300, "a2_service_s": 0.005, "a2_admission": True},
    {"context": "mobile", "a2_spike_rps": 20_000, "a2_service_s": 0.05},
    {"context": "mobile", "a2_spike_rps": 10, "a2_service_s": 0.005, "a2_admission": True},
]


@pytest.mark.parametrize("controls", EXTREMES)
def test_extremes_show_no_nan_and_no_negative_numbers(controls):
    html = rendered(LAB, all_open(**controls))
    values = [float(v.split('"')[0]) for v in html.split('data-value="')[1:]]
    assert values and all(not math.isnan(v) and v >= 0 for v in values)
    assert not re.search(r"\bnan\b", html, re.IGNORECASE)


def test_unstable_p99_reads_infinite_with_its_reason():
    html = rendered(LAB, all_open())
    assert metric(html, "a2_p99_s") == math.inf and "unstable: the queue grows without end" in html


# ---- the ledger record --------------------------------------------------------------------------------


def test_record_holds_the_spec_ledger_fields():
    """Spec §3 ledger: lambda_rps, mu_rps, rho, p99_ms, replicas, autoscale_lag_s, backlog_req, slo_met."""
    rec = record(LAB, answered(LAB, {"a1_predict": "A"}, through="a2_reflect",
                               controls={"a2_replicas": 300, "a2_lag_s": 0}))
    r = rec["results"]
    assert r["lambda_rps"] == 10_000 and r["mu_rps"] == pytest.approx(40) and r["replicas"] == 300
    assert r["rho"] == pytest.approx(10_000 * 0.025 / 300)
    assert r["p99_ms"] == pytest.approx(115.13, abs=5e-3) and r["autoscale_lag_s"] == 0
    assert r["backlog_req"] == 0 and r["slo_met"] is True
    assert r["a1_p99_ms"] == pytest.approx(209.33, abs=5e-3)
    assert rec["answers"]["a1_predict"]["correct"] is False
    unstable = record(LAB, all_open())["results"]
    assert unstable["p99_ms"] is None and unstable["slo_met"] is False and unstable["backlog_req"] == 528_000


def test_mobile_shows_the_slowest_service_that_meets_the_slo():
    """The M/M/1 percentile (not Little's law, spec error 13): μ ≥ λ + ln 100 / SLO."""
    html = rendered(LAB, all_open(context="mobile", a2_spike_rps=60))
    slowest = metric(html, "a2_max_service_s")
    assert q.mm1_sojourn_percentile_s(0.99, 60, slowest) == pytest.approx(lab.S.act2_slo_s, rel=1e-12)
    assert 'data-metric="a2_min_replicas"' not in html
