"""V2-12 The SLO Composition Trap: golden vectors (VOL2_03-17 §V2-12 §4), answer keys proven by
the physics, feedback for every option, failure states reached and left (the cascade too), the
context, edges and the ledger record (§3)."""

from __future__ import annotations

import importlib
import math
import re
import time
from dataclasses import replace

import pytest

from pylabs.framework.render import record, render_lab
from pylabs.labs.vol2 import v2_12 as lab
from pylabs.labs.vol2 import v2_12_model as model
from pylabs.physics import constants as C
from pylabs.physics import latency as L
from tests.labs.helpers import answered, assert_key_proven, rendered

LAB = lab.LAB


def all_open(**controls):
    return answered(LAB, {}, through="a2_reflect", controls=controls)


# ---- §4 golden vectors through the lab's own models ---------------------------------------------


def test_section4_fanout_5_and_100_by_1pct():
    assert lab.composition(all_open()).violation == pytest.approx(0.049010, abs=5e-7)
    assert lab.composition(all_open(a1_services=100)).violation == pytest.approx(0.6340, abs=5e-5)


def test_section4_budget_and_per_hop_p998():
    assert lab.results(all_open())["per_svc_budget"] == pytest.approx(0.0020080, abs=5e-8)
    assert model.HOPS["lognormal"].sigma == pytest.approx(0.39388, abs=5e-6)
    assert lab.act1_facts()["budget_ms"] == "124 ms"


def test_section4_serial_sum_of_five_hops():
    chain = lab.composition(all_open(a1_topology="serial"))
    assert chain.slo_s == pytest.approx(0.5, rel=1e-12)
    assert chain.p99_curve(5) == pytest.approx(0.3244, abs=5e-5)
    assert chain.violation == pytest.approx(1.26e-6, abs=5e-9)
    assert chain.sampled().quantile(0.99) == pytest.approx(0.3244, rel=0.01)


def test_section4_storm_at_defaults():
    st = lab.storm(all_open())
    assert st.t_collapse_s == pytest.approx(4.0) and st.amplification == 16.0
    assert st.load(model.HPA_LAG_S) == pytest.approx(24.0) and st.goodput_frac(model.HPA_LAG_S) == 0.0
    assert model.HPA_LAG_S == pytest.approx(35.0) and not st.rescued(model.HPA_LAG_S)


def test_section4_mild_overload_collapses_at_20s():
    assert lab.storm(all_open(a2_overload=1.1)).t_collapse_s == pytest.approx(20.0, rel=1e-9)


def test_section4_circuit_breaker_on():
    st = lab.storm(all_open(a2_shedding=True))
    assert st.goodput_frac(model.HPA_LAG_S) == pytest.approx(0.667, abs=5e-4) and st.load(model.HPA_LAG_S) == pytest.approx(1.65)


# ---- answer keys ---------------------------------------------------------------------------------


def test_act1_key_is_proven_by_the_physics():
    assert model.act1_truth() == pytest.approx(1 - 0.99 ** 5, rel=1e-12)
    assert_key_proven(lab.ACT1_PREDICTION, "B")


def test_act1_reflection_budget_is_the_inverse_of_the_fanout():
    budget = L.per_service_budget(model.S.page_target, model.S.shards)
    assert L.fanout_slow_fraction(budget, model.S.shards) == pytest.approx(model.S.page_target, rel=1e-12)
    assert lab.ACT1_REFLECTION.answer() == "B"


def test_act2_pick_is_proven_by_the_physics():
    goodputs = {k: model.fix_goodput(k) for k in "ABCD"}
    assert goodputs["B"] == pytest.approx(1 / 1.5) and all(goodputs[k] == 0.0 for k in "ACD")
    assert model.FIXES["D"][1] > model.SCENARIO_STORM.t_collapse_s  # the autoscaler comes after the collapse
    assert lab.ACT2_PICK.answer() == "B"


def test_act2_reflection_amplification_multiplies():
    assert model.SCENARIO_STORM.amplification == (1 + model.S.retries) ** model.S.layers
    assert model.SCENARIO_STORM.amplification > 1 + model.S.retries * model.S.layers
    assert lab.ACT2_REFLECTION.answer() == "A"


# ---- feedback for every option ---------------------------------------------------------------------


@pytest.mark.parametrize("qid", ["a1_predict", "a1_reflect", "a2_pick", "a2_reflect"])
@pytest.mark.parametrize("letter", "ABCD")
def test_every_option_has_feedback_with_numbers(qid, letter):
    html = rendered(LAB, answered(LAB, {qid: letter}, through=qid))
    feedback = html.split(f'data-feedback="{qid}"')[1].split("</div>")[0]
    assert "{" not in feedback and any(ch.isdigit() for ch in feedback)


def test_wrong_act1_prediction_says_by_how_much():
    html = rendered(LAB, answered(LAB, {"a1_predict": "A"}, through="a1_predict"))
    assert "4.9 %" in html and "above the top of your range" in html


def test_act2_pick_feedback_quotes_each_fix():
    html = rendered(LAB, answered(LAB, {"a2_pick": "D"}, through="a2_pick"))
    feedback = html.split('data-feedback="a2_pick"')[1].split("</div>")[0]
    assert "35 s" in feedback and "4 s" in feedback and "The physics picks B" in feedback


# ---- nothing given away before its question is locked ----------------------------------------------


def test_default_page_gives_no_answer_away():
    html = rendered(LAB, LAB.default_state())
    for secret in ("4.9 %", "0.201 %", "324 ms", "63.4 %"):
        assert secret not in html, secret


def test_act2_question_states_no_goodput_or_collapse_time():
    html = rendered(LAB, answered(LAB, {}, through="a1_reflect"))
    question = html.split('data-question="a2_pick"')[1].split("</section>")[0]
    assert "66.7 %" not in question and "4 s" not in question


def test_act1_reflection_option_c_follows_the_scenario_quantile(monkeypatch):
    """Option C's "P95" and the share of slow pages it gives both read S.reflect_quantile."""
    assert lab.ACT1_REFLECTION.text_of("C").startswith("P95 ≤ 100 ms")
    assert lab.act1_facts()["reflect_fan"] == lab.fmt(1 - 0.95 ** model.S.shards, "pct")
    try:
        monkeypatch.setattr(model, "S", replace(model.S, reflect_quantile=0.9))
        ninety = importlib.reload(lab)
        assert ninety.ACT1_REFLECTION.text_of("C").startswith("P90 ≤ 100 ms")
        assert "At P90 per shard" in ninety.ACT1_REFLECTION.option("C").feedback
        assert ninety.act1_facts()["reflect_fan"] == lab.fmt(1 - 0.9 ** model.S.shards, "pct")
    finally:
        monkeypatch.undo()
        importlib.reload(lab)


def test_sources_quote_the_registry(monkeypatch):
    """The math peeks' source notes read the tail-at-scale, retry-budget and HPA constants."""
    state = all_open()
    act1, act2 = str(lab.act1_math(state)), str(lab.act2_math(state))
    assert "fan-out of 100 leaves, each slow 1 % of the time: 63 % of requests slow" in act1
    assert "3 attempts per request and 10 % per client" in act2 and "15 s sync period" in act2
    for name, value in (("TAIL_AT_SCALE_LEAVES", 200.0), ("TAIL_AT_SCALE_LEAF_SLOW", 0.02),
                        ("TAIL_AT_SCALE_SLOW_REQUESTS", 0.98), ("SRE_RETRY_ATTEMPTS_PER_REQUEST", 4.0),
                        ("SRE_RETRY_BUDGET_RATIO", 0.2), ("K8S_HPA_SYNC_PERIOD", 30.0)):
        monkeypatch.setattr(C, name, value)
    act1, act2 = str(lab.act1_math(state)), str(lab.act2_math(state))
    assert "fan-out of 200 leaves, each slow 2 % of the time: 98 % of requests slow" in act1
    assert "4 attempts per request and 20 % per client" in act2 and "30 s sync period" in act2


# ---- failure states ------------------------------------------------------------------------------------


def test_act1_tail_is_typical_reached_and_left():
    assert "a1_tail_is_typical" in LAB.failures_now(all_open(a1_services=100))
    assert "a1_tail_is_typical" not in LAB.failures_now(all_open(a1_services=5))
    assert "a1_tail_is_typical" not in LAB.failures_now(all_open(a1_services=100, a1_topology="serial"))


def test_act1_tail_is_typical_follows_the_scenario_threshold(monkeypatch):
    """"Most requests miss the SLO" is S.typical_violation: the card, the callout and the ledger agree."""
    state = all_open(a1_services=100)  # 63 % of requests over the SLO
    monkeypatch.setattr(lab, "S", replace(lab.S, typical_violation=0.7))
    assert "a1_tail_is_typical" not in LAB.failures_now(state)
    assert 'data-failure="a1_tail_is_typical"' not in rendered(LAB, state)
    monkeypatch.setattr(lab, "S", replace(lab.S, typical_violation=0.6))
    assert "a1_tail_is_typical" in LAB.failures_now(state)
    assert 'data-failure="a1_tail_is_typical"' in rendered(LAB, state)


def test_cascade_reached_at_defaults_and_left_by_shedding():
    assert "a2_cascade" in LAB.failures_now(all_open())
    assert "a2_cascade" not in LAB.failures_now(all_open(a2_shedding=True))
    assert "a2_cascade" not in LAB.failures_now(all_open(a2_shedding=True, a2_overload=2.0))  # exactly half


def test_cascade_left_when_the_autoscaler_beats_the_collapse():
    """A mild overload with a long timeout collapses after the autoscaler's 35 s: it arrives in time."""
    state = all_open(a2_overload=1.1, a2_timeout_s=5)
    assert lab.storm(state).t_collapse_s == pytest.approx(50.0) and "a2_cascade" not in LAB.failures_now(state)
    assert "a2_cascade" in LAB.failures_now(all_open(a2_overload=1.1, a2_timeout_s=3))


def test_cascade_is_danger_and_tail_a_warning():
    html = rendered(LAB, all_open(a1_services=100))
    tail = html.split('data-failure="a1_tail_is_typical"')[0].rsplit("<div", 1)[1]
    cascade = html.split('data-failure="a2_cascade"')[0].rsplit("<div", 1)[1]
    assert "pl-callout--warn" in tail and "pl-callout--danger" in cascade


def test_failure_callouts_render_only_while_active():
    assert 'data-failure="a2_cascade"' in str(render_lab(LAB, all_open()))
    assert 'data-failure="a2_cascade"' not in str(render_lab(LAB, all_open(a2_shedding=True)))


# ---- context: the hop's shape --------------------------------------------------------------------------


def test_context_changes_latencies_but_not_the_fanout_share():
    logn = lab.composition(all_open())
    state = LAB.parse({"controls": {"context": "exponential"}, "answers": {}})
    expo = lab.composition(state)
    assert expo.violation == pytest.approx(logn.violation, rel=1e-12)
    assert expo.sampled().quantile(0.99) > logn.sampled().quantile(0.99)
    assert expo.threshold_s == pytest.approx(logn.threshold_s, rel=1e-9)  # both P99 = 100 ms
    chain = model.Composition(model.HOPS["exponential"], "serial", 5, 0.01, 0.0)
    lam = model.HOPS["exponential"].rate_per_s
    assert chain.sampled().quantile(0.99) == pytest.approx(L.erlang_quantile_s(0.99, 5, lam), rel=0.03)


# ---- edges and speed -------------------------------------------------------------------------------------


EXTREMES = [
    {"a1_services": 100, "a1_p_svc": 0.05, "a1_common": 1.0, "a1_topology": "serial"},
    {"a1_services": 100, "a1_p_svc": 0.001, "a1_common": 0.0, "a1_topology": "fanout"},
    {"a1_services": 2, "a1_p_svc": 0.001, "a1_common": 0.5, "a1_topology": "serial", "context": "exponential"},
    {"a2_overload": 2.0, "a2_timeout_s": 30, "a2_retries": 5, "a2_layers": 3},
    {"a2_overload": 1.1, "a2_timeout_s": 0.5, "a2_retries": 0, "a2_layers": 1, "a2_shedding": True,
     "a2_budget": 0.5},
]


@pytest.mark.parametrize("controls", EXTREMES)
def test_extremes_show_finite_non_negative_numbers(controls):
    html = rendered(LAB, all_open(**controls))
    values = [float(v.split('"')[0]) for v in html.split('data-value="')[1:]]
    assert values and all(math.isfinite(v) and v >= 0 for v in values)
    assert "∞" not in html and not re.search(r"\bnan\b", html, re.IGNORECASE)


def test_a_slider_move_costs_a_few_milliseconds_of_sampling():
    lab.composition(all_open(a1_services=37)).sampled()  # warm the per-seed streams
    for topology in ("fanout", "serial"):
        start = time.perf_counter()
        lab.composition(all_open(a1_services=38, a1_topology=topology)).sampled()
        assert time.perf_counter() - start < 0.1


# ---- the ledger record --------------------------------------------------------------------------------------


def test_record_holds_the_spec_ledger_fields():
    """§3 ledger v2_12: topology, n_services, p_svc, e2e_violation, per_svc_budget, overload, retries,
    layers, shedding, goodput_frac, t_collapse_s, act1_prediction, act1_correct, act2_decision,
    constraint_hit."""
    rec = record(LAB, answered(LAB, {"a1_predict": "A", "a2_pick": "B"}, through="a2_reflect"))
    res = rec["results"]
    assert res["topology"] == "fanout" and res["n_services"] == 5 and res["p_svc"] == pytest.approx(0.01)
    assert res["e2e_violation"] == pytest.approx(0.049010, abs=5e-7)
    assert res["per_svc_budget"] == pytest.approx(0.0020080, abs=5e-8)
    assert (res["overload"], res["retries"], res["layers"], res["shedding"]) == (1.5, 3, 2, False)
    assert res["goodput_frac"] == 0.0 and res["t_collapse_s"] == pytest.approx(4.0)
    assert rec["answers"]["a1_predict"]["choice"] == "A" and rec["answers"]["a1_predict"]["correct"] is False
    assert rec["answers"]["a2_pick"]["choice"] == "B" and rec["answers"]["a2_pick"]["correct"] is True
    assert rec["failures_active"] == ["a2_cascade"]
    shed = record(LAB, all_open(a2_shedding=True))["results"]
    assert shed["t_collapse_s"] is None and shed["goodput_frac"] == pytest.approx(1 / 1.5)


def test_the_per_shard_share_of_the_page_budget_follows_the_shard_count(relabelled):
    """Reflection B's "about 1/N of the page's budget" is 1 − (1 − p)^(1/N) over p, for the scenario's N."""
    claim = lambda module: module.LAB.question("a1_reflect").option("B").text  # noqa: E731
    assert "about 1/5 of the page's budget" in claim(lab)
    p, n = model.S.page_target, model.S.shards
    assert math.isclose((1 - (1 - p) ** (1 / n)) / p, 1 / n, rel_tol=0.01)
    assert "about 1/4 of the page's budget" in claim(relabelled(shards=4))
