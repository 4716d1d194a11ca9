"""V2-13 The Privacy Measurement Gap: golden vectors (VOL2 §V2-13 §4), answer keys proven by the
physics, feedback for every option, every failure reached and left, the ledger record (§3)."""

from __future__ import annotations

import importlib
import math
import re

import pytest

from pylabs import ledger
from pylabs.framework.render import record, render_lab
from pylabs.labs.vol2 import v2_13 as lab
from pylabs.labs.vol2 import v2_13_model as model
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


# ---- golden vectors: VOL2 §V2-13 §4 ---------------------------------------------------


@pytest.mark.parametrize("eps, expected", [("0.1", 0.5250), ("0.2", 0.5498), ("1", 0.7311), ("3", 0.9526)])
def test_spec_4_mi_cap_on_the_act1_card(eps, expected):
    html = rendered(LAB, all_open(a1_eps=eps))
    value = float(html.split('data-metric="a1_mi_cap" data-value="')[1].split('"')[0])
    assert value == pytest.approx(expected, abs=5e-5)


@pytest.mark.parametrize("train, test, expected", [(0.995, 0.70, 0.6475), (0.94, 0.82, 0.56)])
def test_spec_4_naive_attack(train, test, expected):
    state = all_open(a1_train=train, a1_test=test)
    assert lab.results(state)["naive_mi"] == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("records, z, steps, eps, acc", [
    ("1000000", 1.15, 10_000, 0.9622, 0.8569),
    ("1000000", 1.1, 10_000, 1.035, None),
    ("10000000", 1.15, 100_000, 0.6332, 0.9274),
    ("1000000", 0.8, 10_000, 2.151, 0.9028),
])
def test_spec_4_act2_rows(records, z, steps, eps, acc):
    t = lab.training(all_open(a2_records=records, a2_z=z))
    assert t.steps == steps and t.q == pytest.approx(S.batch / float(records))
    assert t.epsilon == pytest.approx(eps, abs=6e-4)
    if acc is not None:
        assert t.accuracy == pytest.approx(acc, abs=6e-5)


def test_spec_4_z_0_8_violates_the_policy():
    assert not model.Training(1e6, 0.8).policy_ok


# ---- answer keys -------------------------------------------------------------------


def test_act1_answer_is_the_dp_bound_at_epsilon_one():
    """VOL2 §V2-13 §2 error 3: the bound at ε = 1 is 73.1 %, not 50–55 %; ≤ 55 % needs ε ≤ 0.2."""
    assert model.act1_truth() == pytest.approx(0.7311, abs=5e-5)
    assert_key_proven(lab.ACT1_PREDICTION, "C")
    assert privacy.epsilon_for_attack_accuracy(S.vendor_cap, S.delta) == pytest.approx(0.2007, abs=1e-4)


def test_act2_answer_is_the_only_plan_meeting_both_limits():
    meets = [k for k, t in model.CANDIDATES.items() if t is not None and t.policy_ok and t.clinical_ok]
    assert meets == ["B"] == [lab.ACT2_PREDICTION.decide()]
    a, c = model.CANDIDATES["A"], model.CANDIDATES["C"]
    assert a.policy_ok and not a.clinical_ok          # the current run: private, not useful
    assert c.clinical_ok and not c.policy_ok          # less noise: useful, not private
    assert model.CANDIDATES["D"] is None                # no noise: nothing bounds ε


def test_the_single_release_bound_is_not_the_accountant():
    """Spec §2 error 4: comparing z with the single-release σ = 5.30 would call the default run non-private,
    but the accountant gives ε < 1 at z = 1.15."""
    assert privacy.gaussian_single_release_sigma(1.0, S.delta, S.clip) > S.z * S.clip
    assert model.TEAM.epsilon < S.policy_eps


def test_tight_conversion_is_below_classic_and_named_on_the_page():
    classic, tight = model.Training(1e6, 1.15), model.Training(1e6, 1.15, "tight")
    assert tight.epsilon < classic.epsilon
    html = rendered(LAB, all_open(a2_conversion="tight"))
    assert "Balle et al. 2020" in html and "Mironov 2017" in html


def test_act2_math_names_the_accountants_orders_and_conversion(monkeypatch):
    """The order range and the conversion's name come from the accountant (physics.privacy)."""
    html = str(lab.act2_math(all_open(a2_conversion="tight")))
    assert "α = 2…256" in html and "<strong>Balle et al. 2020</strong> conversion" in html
    monkeypatch.setitem(privacy.CONVERSION_NAMES, "tight", "Canonne et al. 2020")
    assert "<strong>Canonne et al. 2020</strong> conversion" in str(lab.act2_math(all_open(a2_conversion="tight")))
    try:
        assert reloaded_with_orders(monkeypatch, tuple(range(2, 129))).ORDER_RANGE == "2…128"
    finally:
        restore(monkeypatch)


def test_act1_facts_are_computed():
    facts = lab.act1_facts()
    assert facts["cap_q"] == "73.1 %" and facts["eps_vendor"] == lab.fmt(0.2007, "num")
    assert facts["naive"] == lab.fmt(0.6475, "pct")


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
    assert "73.1 %" in html and "above the top of your range" in html


# ---- nothing given away before its question is locked ------------------------------------


def test_default_page_does_not_state_the_act1_answer():
    html = rendered(LAB, LAB.default_state()).split('data-block="takeaways"')[0]
    assert lab.fmt(model.act1_truth(), "pct") not in html


# ---- failure states -------------------------------------------------------------------


@pytest.mark.parametrize("name, reach, leave", [
    ("a1_refuted", {"a1_eps": "0.2"}, {"a1_eps": "1"}),
    ("a1_refuted", {"a1_eps": "0.1"}, {"a1_eps": "0.1", "a1_test": 0.95, "a1_train": 0.995}),
    ("a2_policy", {"a2_z": 0.8}, {"a2_z": 1.15}),
    ("a2_clinical", {"a2_records": "1000000"}, {"a2_records": "10000000"}),
])
def test_each_failure_is_reached_and_left(name, reach, leave):
    assert name in LAB.failures_now(all_open(**reach))
    assert name not in LAB.failures_now(all_open(**leave))
    assert f'data-failure="{name}"' in rendered(LAB, all_open(**reach))
    assert f'data-failure="{name}"' not in rendered(LAB, all_open(**leave))


def test_clinical_failure_is_a_warning():
    assert 'pl-callout--warn" data-failure="a2_clinical"' in rendered(LAB, all_open())


def test_no_dp_is_never_refuted():
    """Without DP the bound is 100 %: no measurement can beat it."""
    assert "a1_refuted" not in LAB.failures_now(all_open(a1_eps="none", a1_train=1.0, a1_test=0.5))


def test_failures_are_quiet_before_instruments_unlock():
    assert LAB.failures_now(LAB.default_state()) == frozenset()


# ---- edges and the context -------------------------------------------------------------


@pytest.mark.parametrize("controls", [
    {"a1_train": 1.0, "a1_test": 0.5, "a1_eps": "10", "a1_delta": "1e-05", "a2_records": "100000", "a2_z": 5.0},
    {"a1_train": 0.5, "a1_test": 1.0, "a1_eps": "0.1", "a1_delta": "1e-07", "a2_records": "100000000", "a2_z": 0.5},
    {"a2_records": "100000", "a2_z": 0.5, "a2_conversion": "tight"},
    {"a2_records": "100000000", "a2_z": 5.0, "context": "cloud"},
])
def test_extremes_render_finite_numbers(controls):
    state = all_open(**controls)
    values = [float(v) for v in re.findall(r'data-value="([^"]+)"', rendered(LAB, state))]
    assert values and all(math.isfinite(v) and v >= 0 for v in values)
    assert all(math.isfinite(v) for v in lab.results(state).values())
    t = lab.training(state)
    assert 0.0 <= t.accuracy <= S.acc_no_dp


def test_context_changes_training_time_and_the_attack_note_only():
    prem, cloud = all_open(a2_records="10000000"), all_open(a2_records="10000000", context="cloud")
    assert lab.train_time(prem, 1e7) == pytest.approx(10 * lab.train_time(cloud, 1e7))
    assert lab.training(prem).epsilon == lab.training(cloud).epsilon
    assert lab.training(prem).accuracy == lab.training(cloud).accuracy
    assert lab.CONTEXT_NOTES["cloud"] in rendered(LAB, cloud)


def test_epsilon_falls_with_records_and_rises_as_noise_falls():
    eps = [model.Training(n, 1.15).epsilon for n in S.record_options]
    assert eps == sorted(eps, reverse=True)
    assert model.Training(1e6, 0.8).epsilon > model.Training(1e6, 1.15).epsilon > model.Training(1e6, 2.0).epsilon


# ---- the ledger record --------------------------------------------------------------


SPEC_RESULTS = {"n", "batch", "epochs", "z", "q", "steps", "dp_eps", "dp_delta", "mi_cap", "naive_mi",
                "model_acc", "policy_ok"}


def test_record_holds_the_spec_ledger_fields():
    rec = record(LAB, all_open(a2_records="10000000"))
    assert set(rec["results"]) == SPEC_RESULTS
    r = rec["results"]
    assert (r["n"], r["batch"], r["epochs"], r["steps"]) == (1e7, 1000, 10, 100_000)
    assert r["dp_eps"] == pytest.approx(0.6332, abs=6e-4) and r["model_acc"] == pytest.approx(0.9274, abs=6e-5)
    assert r["mi_cap"] == pytest.approx(privacy.membership_advantage_bound(r["dp_eps"], 1e-6))
    assert r["naive_mi"] == pytest.approx(0.6475) and r["policy_ok"] is True
    assert rec["answers"]["a1_predict"]["choice"] == "C" and rec["answers"]["a1_predict"]["correct"] is True
    assert rec["answers"]["a2_predict"]["choice"] == "B"                          # act2_decision
    assert rec["failures_active"] == []                                           # constraint_hit
    assert record(LAB, all_open())["failures_active"] == ["a2_clinical"]
    assert rec["complete"] is True


def test_record_is_accepted_by_the_ledger_and_labelled():
    doc = ledger.commit(ledger.empty(), "v2_13-test-attempt", record(LAB, all_open()), LOCKED_AT)
    assert set(doc["attempts"]["v2_13-test-attempt"]["results"]) == SPEC_RESULTS
    labelled = {m.name for m in LAB.metrics + LAB.record_metrics}
    assert SPEC_RESULTS - {"policy_ok"} <= labelled


def test_page_renders_complete():
    html = str(render_lab(LAB, all_open()))
    for name in ("a1_bound", "a2_epsilon", "a2_accuracy"):
        assert f'data-chart="{name}"' in html
