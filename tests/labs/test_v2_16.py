"""V2-16 The Fairness Impossibility: golden vectors (VOL2 §V2-16 §4), answer keys proven by the
physics, feedback for every option, every failure reached and left, the ledger record (§3)."""

from __future__ import annotations

import math
import re

import pytest

from pylabs import ledger
from pylabs.framework.render import record, render_lab
from pylabs.labs.vol2 import v2_16 as lab
from pylabs.labs.vol2 import v2_16_model as model
from pylabs.physics import constants as C
from tests.labs.helpers import LOCKED_AT, answered, assert_key_proven, rendered

LAB = lab.LAB
S = model.S


def all_open(**controls):
    return answered(LAB, {}, through="a2_reflect", controls=controls)


# ---- golden vectors: VOL2 §V2-16 §4 ---------------------------------------------------


def test_spec_4_demographic_parity_at_six_percent():
    g = model.SCENARIO_DP
    assert (g.a.fpr, g.a.tpr, g.a.ppv) == pytest.approx((0.0457, 0.7617, 0.2539), abs=5e-5)
    assert (g.b.fpr, g.b.tpr, g.b.ppv) == pytest.approx((0.0092, 0.5171, 0.8619), abs=5e-5)
    assert g.a.selection_rate == pytest.approx(0.06) and g.b.selection_rate == pytest.approx(0.06)
    assert g.fpr_ratio == pytest.approx(4.96, abs=5e-3)


def test_spec_4_single_threshold_is_act2_design_a():
    g = model.DESIGNS["A"].us
    assert g.t_a == g.t_b == S.threshold
    assert g.a.fpr == g.b.fpr == pytest.approx(0.0359, abs=5e-5)
    assert (g.a.selection_rate, g.b.selection_rate) == pytest.approx((0.0497, 0.1049), abs=5e-5)
    assert (g.a.ppv, g.b.ppv) == pytest.approx((0.2919, 0.6918), abs=5e-5)
    assert g.impact == pytest.approx(0.474, abs=5e-4)


def test_spec_4_four_fifths_fix_is_act2_design_b_in_the_us():
    g = model.DESIGNS["B"].us
    assert g.a.selection_rate == pytest.approx(0.0839, abs=5e-5)
    assert g.impact == pytest.approx(C.UGESP_FOUR_FIFTHS, rel=1e-9)
    assert g.a.fpr == pytest.approx(0.0689, abs=5e-5)
    assert g.fpr_gap == pytest.approx(0.0330, abs=5e-5)


def test_spec_4_scale_is_five_million_screens_a_day():
    assert S.evaluations_per_day == 5e6
    d = model.DESIGNS["A"]
    fnr = d.us.a.fnr
    expected = S.evaluations_per_day * fnr * (S.base_a + S.base_b) * S.group_share
    assert d.rejected_per_day == pytest.approx(expected, rel=1e-12)


# ---- answer keys -------------------------------------------------------------------


def test_act1_answer_is_proven_by_the_physics():
    assert model.act1_truth() == pytest.approx(4.96, abs=5e-3)
    assert_key_proven(lab.ACT1_PREDICTION, "C")


def test_act2_answer_is_the_only_design_passing_both_checks():
    passing = [k for k, d in model.DESIGNS.items() if d.us_ok and d.eu_ok]
    assert passing == ["B"] == [lab.ACT2_PREDICTION.answer()]
    assert not model.DESIGNS["A"].us_ok and model.DESIGNS["A"].eu_ok          # one threshold: US fails
    assert model.DESIGNS["C"].us_ok and not model.DESIGNS["C"].eu_ok          # parity everywhere: EU fails
    assert not model.DESIGNS["D"].us_ok and not model.DESIGNS["D"].eu_ok      # PPV parity: both fail


def test_no_single_rule_passes_both_checks_at_the_scenario_threshold():
    """The point of design B: the four-fifths fix opens a gap over the EU tolerance."""
    for rule in lab.RULES:
        d = model.Deployment(rule, rule)
        assert not (d.us_ok and d.eu_ok), rule


def test_equal_base_rates_let_one_threshold_meet_every_criterion():
    g = model.act1_pair("single", S.base_equal, S.base_equal, S.flag_rate)
    assert g.a.fpr == g.b.fpr and g.a.ppv == g.b.ppv and g.a.selection_rate == g.b.selection_rate


def test_predictive_parity_equalises_ppv_and_splits_fpr():
    g = model.act1_pair("ppv", S.base_a, S.base_b, S.flag_rate)
    assert g.a.ppv == pytest.approx(g.b.ppv, rel=1e-9) and g.a.tpr < g.b.tpr
    assert not lab.held(g.a.fpr, g.b.fpr)


def test_reflection_facts_are_computed():
    f1, f2 = lab.act1_facts(), lab.act2_facts()
    assert f1["ratio"] == "4.96×" and f1["fpr_a"] == "4.57 %"
    assert f2["ir_single"] == "0.474" and f2["gap_fix"] == "3.3 pp"
    assert f2["fine_hr"] == "15" and f2["fine_hr_pct"] == "3 %" and f2["fine_pp"] == "35" and f2["fine_pp_pct"] == "7 %"


# ---- feedback for every option ------------------------------------------------------


@pytest.mark.parametrize("qid", ["a1_predict", "a1_reflect", "a2_predict", "a2_reflect"])
@pytest.mark.parametrize("letter", "ABCD")
def test_every_option_has_filled_feedback(qid, letter):
    html = rendered(LAB, answered(LAB, {qid: letter}, through=qid))
    feedback = html.split(f'data-feedback="{qid}"')[1].split("</div>")[0]
    assert "{" not in feedback
    assert re.search(r"\d", feedback), "feedback quotes no computed number"


def test_wrong_act1_prediction_says_by_how_much():
    html = rendered(LAB, answered(LAB, {"a1_predict": "A"}, through="a1_predict"))
    assert "4.96×" in html and "above the top of your range" in html


# ---- nothing given away before its question is locked ------------------------------------


def test_default_page_does_not_state_the_act1_answer():
    html = rendered(LAB, LAB.default_state()).split('data-block="takeaways"')[0]
    for fact in ("4.96×", "4.57 %", "0.921 %"):
        assert fact not in html


def test_act2_page_before_its_pick_does_not_state_the_check_results():
    html = rendered(LAB, answered(LAB, {}, through="a1_reflect")).split('data-act="2"')[1]
    for fact in ("0.474", "3.3 pp", "5.37 pp"):
        assert fact not in html.split('data-block="takeaways"')[0]


# ---- failure states -------------------------------------------------------------------


@pytest.mark.parametrize("name, reach, leave", [
    ("a2_us_adverse_impact", {"a2_us_rule": "single"}, {"a2_us_rule": "fourfifths"}),
    ("a2_eu_error_gap", {"a2_eu_rule": "fourfifths"}, {"a2_eu_rule": "single"}),
    ("a2_eu_error_gap", {"a2_eu_rule": "fourfifths", "a2_tolerance": 0.02}, {"a2_eu_rule": "fourfifths", "a2_tolerance": 0.04}),
    ("a2_harm", {"a2_threshold": 2.2}, {"a2_threshold": 1.8}),
    ("a2_harm", {"a2_evals": 1e7}, {"a2_evals": 5e6}),
])
def test_each_failure_is_reached_and_left(name, reach, leave):
    assert name in LAB.failures_now(all_open(**reach))
    assert name not in LAB.failures_now(all_open(**leave))
    assert f'data-failure="{name}"' in rendered(LAB, all_open(**reach))
    assert f'data-failure="{name}"' not in rendered(LAB, all_open(**leave))


def test_harm_failure_is_a_warning():
    html = rendered(LAB, all_open(a2_threshold=2.2))
    assert 'pl-callout--warn" data-failure="a2_harm"' in html


def test_the_answer_clears_every_failure():
    assert LAB.failures_now(all_open(a2_us_rule="fourfifths", a2_eu_rule="single")) == frozenset()


def test_failures_are_quiet_before_act2_instruments_unlock():
    assert LAB.failures_now(answered(LAB, {}, through="a1_reflect")) == frozenset()


# ---- edges and the context -------------------------------------------------------------

A1 = ("dp", "single", "ppv")


@pytest.mark.parametrize("criterion", A1)
@pytest.mark.parametrize("controls", [
    {"a1_base_a": 0.01, "a1_base_b": 0.3, "a1_flag_rate": 0.01},
    {"a1_base_a": 0.3, "a1_base_b": 0.01, "a1_flag_rate": 0.15},
    {"a1_base_a": 0.3, "a1_base_b": 0.3, "a1_flag_rate": 0.01},
    {"a2_threshold": 1.0, "a2_tolerance": 0.005, "a2_evals": 2e7, "a2_us_rule": "ppv", "a2_eu_rule": "dp"},
    {"a2_threshold": 3.0, "a2_tolerance": 0.06, "a2_evals": 1e6, "a2_us_rule": "fourfifths", "a2_eu_rule": "ppv"},
])
def test_extremes_render_finite_numbers(criterion, controls):
    state = all_open(a1_criterion=criterion, **controls)
    html = rendered(LAB, state)
    values = [float(v) for v in re.findall(r'data-value="([^"]+)"', html)]
    assert values and all(math.isfinite(v) and v >= 0 for v in values)
    assert all(math.isfinite(v) for v in lab.results(state).values() if isinstance(v, float))


def test_context_preset_sets_the_base_rates():
    state = LAB.parse({"controls": {"context": "equal"}}, changed="context")
    assert state["a1_base_a"] == state["a1_base_b"] == S.base_equal
    state = LAB.parse({"controls": {"context": "measured", "a1_base_a": 0.2}}, changed="context")
    assert (state["a1_base_a"], state["a1_base_b"]) == (S.base_a, S.base_b)


def test_equal_context_makes_every_act1_card_match():
    html = rendered(LAB, answered(LAB, {}, through="a1_predict",
                                  controls={"context": "equal", "a1_base_a": 0.06, "a1_base_b": 0.06,
                                            "a1_criterion": "single"}))
    assert "flag rate, FPR, FNR, PPV match across the groups" in html


# ---- the ledger record --------------------------------------------------------------

SPEC_RESULTS = {"base_rate_a", "base_rate_b", "criterion", "threshold_a", "threshold_b", "fpr_a", "fpr_b",
                "tpr_a", "tpr_b", "ppv_a", "ppv_b", "us_rule", "eu_rule", "impact_ratio", "eu_fpr_gap",
                "us_ok", "eu_ok", "qualified_rejected_per_day"}


def test_record_holds_the_spec_ledger_fields():
    rec = record(LAB, all_open())
    r = rec["results"]
    assert set(r) == SPEC_RESULTS                                                 # base_rates, thresholds, ...
    assert r["criterion"] == "dp" and r["fpr_a"] == pytest.approx(0.0457, abs=5e-5)
    assert r["impact_ratio"] == pytest.approx(0.474, abs=5e-4)
    assert r["us_ok"] is False and r["eu_ok"] is True
    assert r["qualified_rejected_per_day"] == pytest.approx(model.DESIGNS["A"].rejected_per_day)
    assert rec["answers"]["a1_predict"]["choice"] == "C" and rec["answers"]["a1_predict"]["correct"] is True
    assert rec["answers"]["a2_predict"]["choice"] == "B"                          # act2_decision
    assert rec["failures_active"] == ["a2_us_adverse_impact"]                     # constraint_hit
    assert rec["complete"] is True


def test_record_is_accepted_by_the_ledger():
    doc = ledger.commit(ledger.empty(), "v2_16-test-attempt", record(LAB, all_open()), LOCKED_AT)
    assert set(doc["attempts"]["v2_16-test-attempt"]["results"]) == SPEC_RESULTS


def test_page_renders_complete():
    html = str(render_lab(LAB, all_open()))
    assert 'data-chart="a1_groups"' in html and 'data-chart="a2_tradeoff"' in html
    assert "Key takeaways" in html
