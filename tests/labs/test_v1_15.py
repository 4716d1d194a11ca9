"""V1-15 There Is No Free Fairness: golden vectors through the lab (VOL1_09-16 §V1-15 (4)), both keys
proven by the physics, every failure reached and left, contexts, edges and the ledger record."""

from __future__ import annotations

import math
import re

import pytest

from pylabs.framework.render import record
from pylabs.labs.vol1 import v1_15 as lab
from pylabs.physics import fairness as F
from tests.labs.helpers import answered, assert_key_proven, rendered

LAB = lab.LAB
S = lab.S
FEASIBLE = {"a2_policy": "blind", "a2_validated": True}


def all_open(**controls):
    return answered(LAB, {}, through="a2_reflect", controls=controls)


# ---- golden vectors ---------------------------------------------------------------------


def test_spec_4_equal_accuracy_unequal_errors_at_one_calibrated_cutoff():
    g = lab.SCENARIO
    assert F.accuracy(g.a) == pytest.approx(0.8524, abs=5e-5) and F.accuracy(g.b) == pytest.approx(0.8524, abs=5e-5)
    assert (g.a.fpr, g.b.fpr) == pytest.approx((0.0952, 0.2449), abs=5e-5)
    assert (g.a.ppv, g.b.ppv) == pytest.approx((0.8103, 0.8728), abs=5e-5)
    assert g.air == pytest.approx(0.484, abs=5e-4)


def test_spec_4_policies_2_and_3():
    blind, parity = lab.policy_pair("blind"), lab.policy_pair("parity")
    assert blind.z_a == blind.z_b == pytest.approx(0.1584, abs=5e-5)
    assert blind.eo_gap == pytest.approx(0.0, abs=1e-12) and blind.air == pytest.approx(0.6396, abs=5e-4)
    assert (parity.a.selection_rate, parity.b.selection_rate) == pytest.approx((0.4617, 0.4617), abs=5e-4)
    assert (parity.z_a, parity.z_b) == pytest.approx((-0.2552, 0.5406), abs=5e-4)
    assert parity.eo_gap == pytest.approx(0.2183, abs=5e-4)


# ---- keys -------------------------------------------------------------------------------


def test_act1_key_group_b_fpr_is_2_57_times_group_a():
    assert lab.act1_truth() == pytest.approx(0.2449 / 0.0952, rel=1e-3)
    assert_key_proven(lab.ACT1_PREDICTION, "C")


def test_act2_key_is_the_only_deployment_passing_every_check():
    passing = [k for k, d in lab.DESIGNS.items() if not d.violations]
    assert passing == ["C"] == [LAB.question("a2_pick").answer()]
    assert lab.DESIGNS["A"].violations == ["recall", "eo"]
    assert "lawful" in lab.DESIGNS["B"].violations
    assert lab.DESIGNS["D"].violations == ["impact"]


@pytest.mark.parametrize("context", ["cloud", "mobile"])
def test_the_key_holds_in_both_contexts(context):
    import dataclasses
    assert [k for k, d in lab.DESIGNS.items() if not dataclasses.replace(d, context=context).violations] == ["C"]


def test_no_policy_meets_every_fairness_criterion_at_once():
    """The lab's point: none of the three policies has equal error rates and equal selection."""
    for policy in lab.POLICIES:
        g = lab.policy_pair(policy)
        assert not (g.eo_gap <= S.eo_tolerance and g.air >= 0.8)


def test_equal_base_rates_remove_the_conflict():
    g = lab.calibrated_pair(0.5, 0.5, S.d, S.cutoff)
    assert g.a.fpr == pytest.approx(g.b.fpr) and g.air == pytest.approx(1.0)


# ---- failures, contexts, edges, record ------------------------------------------------------


def test_every_failure_is_reached_and_left():
    assert LAB.failures_now(all_open()) == {"a2_recall_floor", "a2_eo_gap", "a2_adverse_impact"}
    assert LAB.failures_now(all_open(**FEASIBLE)) == frozenset()
    assert "a2_unlawful" in LAB.failures_now(all_open(a2_policy="parity"))
    assert LAB.failures_now(all_open(a2_policy="blind")) == {"a2_adverse_impact"}
    assert "a2_audit_budget" in LAB.failures_now(all_open(**FEASIBLE, context="mobile", a2_audits=24))
    assert LAB.failures_now(all_open(**FEASIBLE, a2_audits=0)) == {"a2_unaudited"}
    assert "a2_recall_floor" in LAB.failures_now(all_open(**FEASIBLE, a2_recall=0.7))


def test_controls_a_policy_does_not_use_say_why():
    state = all_open(a2_policy="blind")
    assert set(lab.act2_overridden(state)) == {"a2_t"}
    html = rendered(LAB, state)
    assert "Used only by policy 1" in html


def test_the_context_sets_the_audit_price():
    cloud = lab.screen(all_open(**FEASIBLE))
    mobile = lab.screen(all_open(**FEASIBLE, context="mobile"))
    assert mobile.audit_cost / cloud.audit_cost == pytest.approx(S.audit_usd_mobile / S.audit_usd_cloud)


@pytest.mark.parametrize("controls", [
    {"a1_base_a": 0.05, "a1_base_b": 0.95, "a1_d": 0.5, "a1_t": 0.9},
    {"a1_base_a": 0.95, "a1_base_b": 0.05, "a1_d": 3.0, "a1_t": 0.1},
    {"a2_policy": "parity", "a2_audits": 24, "a2_recall": 0.95},
    {"a2_policy": "blind", "a2_recall": 0.6, "a2_audits": 0},
])
def test_edges_show_finite_numbers(controls):
    state = all_open(**controls)
    html = rendered(LAB, state)
    assert not re.search(r"\bnan\b|\binf\b", html, re.IGNORECASE)
    for value in LAB.results(state).values():
        assert not isinstance(value, float) or math.isfinite(value)


def test_the_record_has_the_spec_fields():
    rec = record(LAB, all_open(**FEASIBLE))
    assert set(rec["results"]) == {"p_a", "p_b", "d", "policy", "tpr_a", "tpr_b", "fpr_a", "fpr_b", "ppv_a", "ppv_b",
                                   "air", "eo_gap", "audits_per_year", "audit_cost_usd", "violations"}
    assert rec["results"]["violations"] == "none" and rec["complete"] is True


def test_the_lab_opens_in_the_v1_00_track_when_it_is_an_option():
    earlier = {"v1_00": {"controls": {"track": "mobile"}, "results": {}, "complete": True}}
    assert LAB.earlier_defaults(earlier) == {"context": "mobile"}
    assert LAB.earlier_defaults({"v1_00": {"controls": {"track": "tiny"}, "results": {}, "complete": True}}) == {}
