"""V2-11 The Federation Paradox: golden vectors (VOL2 §V2-11 §4), answer keys proven by the
physics, feedback for every option, every failure reached and left, the ledger record (§3)."""

from __future__ import annotations

import importlib
import math
import re

import pytest

from pylabs import ledger
from pylabs.framework.render import record, render_lab
from pylabs.labs.vol2 import v2_11 as lab
from pylabs.labs.vol2 import v2_11_model as model
from pylabs.physics import constants as C
from pylabs.physics import privacy
from tests.labs.helpers import LOCKED_AT, answered, assert_key_proven, rendered

LAB = lab.LAB
S = model.S


def all_open(**controls):
    return answered(LAB, {}, through="a2_reflect", controls=controls)


def reloaded_with_orders(monkeypatch, orders):
    """The lab re-imported while the accountant searches ``orders``; the caller restores it."""
    monkeypatch.setattr(privacy, "ORDERS", orders)
    return importlib.reload(lab)


def restore(monkeypatch):
    monkeypatch.undo()
    importlib.reload(lab)
    for cached in vars(privacy).values():  # nothing computed with the patched orders may stay cached
        if hasattr(cached, "cache_clear"):
            cached.cache_clear()


# ---- golden vectors: VOL2 §V2-11 §4 ---------------------------------------------------


@pytest.mark.parametrize("clients, compression, tb, ratio", [
    ("10000", 1, 48.0, 96.0), ("10000", 10, 26.4, 52.8), ("1000", 1, 4.8, 9.6), ("100000", 1, 480.0, 960.0),
])
def test_spec_4_act1_traffic_rows(clients, compression, tb, ratio):
    t = lab.traffic(all_open(a1_clients=clients, a1_compression=compression))
    assert t.per_day == pytest.approx(tb * 1e12, rel=1e-12)
    assert model.ratio(t.per_day) == pytest.approx(ratio, rel=1e-12)


def test_spec_4_gboard_row_is_the_gboard_context():
    state = LAB.parse({"controls": {"context": "gboard"}}, changed="context")
    t = lab.traffic(state)
    assert t.params == C.GBOARD_CIFG_PARAMS and t.bytes_per_param == 4.0
    assert t.per_day == pytest.approx(2.688e12, rel=1e-12)
    assert model.ratio(t.per_day) == pytest.approx(5.376, rel=1e-12)


@pytest.mark.parametrize("clients, z, eps, acc_pp", [
    (1e3, 1.0, 0.9427, 8.0), (1e4, 1.0, 1.2197, 0.8), (1e4, 1.09, 1.013, None), (1e5, 1.0, 1.7513, None),
])
def test_spec_4_act2_rows(clients, z, eps, acc_pp):
    d = model.Deployment(clients, z)
    assert d.epsilon == pytest.approx(eps, abs=6e-4)
    if acc_pp is not None:
        assert d.acc_drop * 100 == pytest.approx(acc_pp, rel=1e-12)


def test_spec_4_noise_needed_for_epsilon_one_at_ten_thousand_clients():
    assert model.Deployment(1e4, 1.0).z_needed == pytest.approx(1.092, abs=5e-4)


# ---- answer keys -------------------------------------------------------------------


def test_act1_answer_is_proven_by_the_physics():
    assert model.act1_truth() == pytest.approx(96.0, rel=1e-12)
    assert_key_proven(lab.ACT1_PREDICTION, "C")


def test_act2_answer_is_the_only_deployment_within_the_policy():
    within = [k for k, eps in model.CANDIDATE_EPS.items() if eps() <= S.eps_target]
    assert within == ["C"] == [lab.ACT2_PREDICTION.answer()]
    assert model.TEAM.epsilon == pytest.approx(0.9427, abs=6e-4)


def test_act2_team_setting_meets_privacy_but_not_utility():
    assert model.TEAM.epsilon <= S.eps_target and model.TEAM.acc_drop > S.acc_limit


def test_a_setting_meets_every_act2_limit():
    state = all_open(a2_clients="10000", a2_z=1.1)
    assert LAB.failures_now(state) == frozenset()


def test_tight_conversion_is_below_classic_and_named_on_the_page():
    classic, tight = model.Deployment(1e4, 1.0), model.Deployment(1e4, 1.0, "tight")
    assert tight.epsilon < S.eps_target < classic.epsilon
    html = rendered(LAB, all_open(a2_conversion="tight"))
    assert "Balle et al. 2020" in html and "Mironov 2017" in html


def test_act1_sources_quote_the_registry(monkeypatch):
    """The FedAvg round reduction and Gboard's model size in the sources are registry constants."""
    before = str(lab.act1_math(all_open()))
    assert "10–100× fewer rounds" in before and "1.4M parameters, trained" in before
    monkeypatch.setattr(C, "FEDAVG_ROUND_REDUCTION_HIGH", 1000.0)
    monkeypatch.setattr(C, "GBOARD_CIFG_PARAMS", 2.8e6)
    after = str(lab.act1_math(all_open()))
    assert "10–1,000× fewer rounds" in after and "2.8M parameters, trained" in after


def test_act2_math_names_the_accountants_orders_and_conversion(monkeypatch):
    html = str(lab.act2_math(all_open(a2_conversion="tight")))
    assert "α = 2…256" in html and "<strong>Balle et al. 2020</strong> conversion" in html
    monkeypatch.setitem(privacy.CONVERSION_NAMES, "tight", "Canonne et al. 2020")
    assert "<strong>Canonne et al. 2020</strong> conversion" in str(lab.act2_math(all_open(a2_conversion="tight")))
    try:
        assert reloaded_with_orders(monkeypatch, tuple(range(2, 129))).ORDER_RANGE == "2…128"
    finally:
        restore(monkeypatch)


def test_act1_reflection_facts_are_computed():
    facts = lab.act1_facts()
    assert facts["ratio_r10"] == lab.fmt(52.8, "x") and facts["download_share"] == lab.fmt(0.5, "pct")


def test_act2_reflection_facts_are_computed():
    facts = lab.act2_facts()
    assert facts["mi_target"] == lab.fmt(privacy.membership_advantage_bound(1.0, 1e-9), "pct") == "73.1 %"


# ---- feedback for every option ------------------------------------------------------


@pytest.mark.parametrize("qid", ["a1_predict", "a1_reflect", "a2_predict", "a2_reflect"])
@pytest.mark.parametrize("letter", "ABCD")
def test_every_option_has_filled_feedback(qid, letter):
    html = rendered(LAB, answered(LAB, {qid: letter}, through=qid))
    feedback = html.split(f'data-feedback="{qid}"')[1].split("</div>")[0]
    assert "{" not in feedback
    assert re.search(r"\d", feedback), "feedback quotes no computed number"


def test_wrong_act1_prediction_says_by_how_much():
    html = rendered(LAB, answered(LAB, {"a1_predict": "D"}, through="a1_predict"))
    assert "96×" in html and "below the bottom of your range" in html


# ---- nothing given away before its question is locked ------------------------------------


def before_takeaways(html: str) -> str:
    """The page without its takeaways (the framework shows those only once the lab is complete)."""
    return html.split('data-block="takeaways"')[0]


def test_default_page_does_not_state_the_act1_answer():
    html = before_takeaways(rendered(LAB, LAB.default_state()))
    assert lab.fmt(model.act1_truth(), "x") not in html


def test_act2_page_before_its_prediction_does_not_state_the_team_epsilon():
    html = before_takeaways(rendered(LAB, answered(LAB, {}, through="a1_reflect")))
    assert lab.fmt(model.TEAM.epsilon, "num") not in html.split('data-act="2"')[1]


# ---- failure states -------------------------------------------------------------------


@pytest.mark.parametrize("name, reach, leave", [
    ("a2_utility", {"a2_clients": "1000"}, {"a2_clients": "10000", "a2_z": 1.1}),
    ("a2_privacy", {"a2_clients": "10000", "a2_z": 1.0}, {"a2_clients": "10000", "a2_z": 1.1}),
    ("a2_bandwidth", {"a2_clients": "100000"}, {"a2_clients": "10000"}),
])
def test_each_failure_is_reached_and_left(name, reach, leave):
    assert name in LAB.failures_now(all_open(**reach))
    assert name not in LAB.failures_now(all_open(**leave))
    assert f'data-failure="{name}"' in rendered(LAB, all_open(**reach))
    assert f'data-failure="{name}"' not in rendered(LAB, all_open(**leave))


def test_bandwidth_failure_is_a_warning_and_follows_the_context():
    html = rendered(LAB, all_open(a2_clients="100000"))
    assert 'pl-callout--warn" data-failure="a2_bandwidth"' in html
    assert "a2_bandwidth" not in LAB.failures_now(all_open(context="gboard", a2_clients="100000"))


def test_failures_are_quiet_before_act2_instruments_unlock():
    assert LAB.failures_now(answered(LAB, {}, through="a1_reflect")) == frozenset()


# ---- edges and the context -------------------------------------------------------------


@pytest.mark.parametrize("controls", [
    {"a1_clients": "100", "a1_rounds": 1, "a1_params": "gboard", "a1_bytes": "1", "a1_compression": 100},
    {"a1_clients": "1000000", "a1_rounds": 100, "a1_params": "1b", "a1_bytes": "4", "a1_compression": 1},
    {"a2_clients": "1000000", "a2_z": 0.5}, {"a2_clients": "100", "a2_z": 3.0, "a2_conversion": "tight"},
])
def test_extremes_render_finite_numbers(controls):
    state = all_open(**controls)
    html = rendered(LAB, state)
    values = [float(v) for v in re.findall(r'data-value="([^"]+)"', html)]
    assert values and all(math.isfinite(v) and v >= 0 for v in values)
    assert all(math.isfinite(v) for v in lab.results(state).values())


def test_context_preset_sets_the_model_and_precision():
    state = LAB.parse({"controls": {"context": "gboard"}}, changed="context")
    assert state["a1_params"] == "gboard" and state["a1_bytes"] == "4"
    state = LAB.parse({"controls": {"context": "server", "a1_params": "1b"}}, changed="context")
    assert state["a1_params"] == "50m" and state["a1_bytes"] == "2"


def test_context_changes_act2_traffic():
    server = all_open(a2_clients="10000")
    gboard = all_open(a2_clients="10000", context="gboard")
    assert lab.act2_bytes(server, 1e4) == pytest.approx(48e12)
    assert lab.act2_bytes(gboard, 1e4) == pytest.approx(2.688e12)


# ---- the ledger record --------------------------------------------------------------


SPEC_RESULTS = {"k", "rounds_per_day", "model_params", "compression", "fl_tb_per_day", "ratio_vs_central",
                "dp_clients", "dp_z", "dp_eps", "dp_delta", "acc_drop_pp"}


def test_record_holds_the_spec_ledger_fields():
    rec = record(LAB, all_open(a2_clients="10000", a2_z=1.0))
    assert set(rec["results"]) == SPEC_RESULTS
    assert rec["results"]["fl_tb_per_day"] == pytest.approx(48.0)
    assert rec["results"]["ratio_vs_central"] == pytest.approx(96.0)
    assert rec["results"]["dp_eps"] == pytest.approx(1.2197, abs=6e-4)
    assert rec["results"]["acc_drop_pp"] == pytest.approx(0.8)
    assert rec["answers"]["a1_predict"] == {"choice": "C", "locked_at": rec["answers"]["a1_predict"]["locked_at"],
                                            "correct": True}                      # act1_prediction, act1_correct
    assert rec["answers"]["a2_predict"]["choice"] == "C"                          # act2_decision
    assert rec["failures_active"] == ["a2_privacy"]                               # constraint_hit
    assert rec["complete"] is True


def test_record_is_accepted_by_the_ledger():
    """Spec §3 names K and fl_TB_per_day; the ledger only keeps lower-case names, so they are k and fl_tb_per_day."""
    doc = ledger.commit(ledger.empty(), "v2_11-test-attempt", record(LAB, all_open()), LOCKED_AT)
    assert set(doc["attempts"]["v2_11-test-attempt"]["results"]) == SPEC_RESULTS


def test_page_renders_complete():
    html = str(render_lab(LAB, all_open()))
    assert 'data-chart="a1_traffic"' in html and 'data-chart="a2_epsilon"' in html and 'data-chart="a2_tradeoff"' in html
