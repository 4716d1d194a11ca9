"""V2-11 The Federation Paradox: golden vectors (handbook/labs/v2_11.md §4), answer keys proven by the
physics, feedback for every option, every failure reached and left, the ledger record (handbook/labs/v2_11.md §1)."""

from __future__ import annotations

import math
import re

import pytest

from pylabs.framework.questions import worded
from pylabs.framework.render import record, render_lab
from pylabs.labs.vol2 import v2_11 as lab
from pylabs.labs.vol2 import v2_11_model as model
from pylabs.physics import constants as C
from pylabs.physics import privacy
from tests.labs.privacy_orders import reloaded_with_orders, restore
from tests.labs.helpers import answered, assert_key_proven, rendered

LAB = lab.LAB
S = model.S


def all_open(**controls):
    return answered(LAB, {}, through="a2_reflect", controls=controls)




# ---- golden vectors: handbook/labs/v2_11.md §4 ---------------------------------------------------


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


@pytest.mark.parametrize("context, value, key", [("server", 96.0, "D"), ("gboard", 5.376, "C")])
def test_act1_answer_is_proven_by_the_physics_in_each_context(context, value, key):
    """Server: 24 × 10⁴ × 50M × 2 B × 2 = 48 TB against 500 GB = 96×; Gboard (Hard et al. 2018, 1.4M fp32):
    2.688 TB = 5.376× (handbook/labs/v2_11.md §4 rows). Each sits a factor ≥ 1.79 from its range's edges."""
    assert model.act1_truth(context) == pytest.approx(value, rel=1e-12)
    assert_key_proven(lab.ACT1_PREDICTION, key, context)
    option = lab.ACT1_PREDICTION.option(key)
    assert value / option.low >= 1.79 and (option.high is None or option.high / value >= 3)


def test_act1_prompt_names_the_context_s_model():
    p, L = lab.ACT1_PREDICTION, LAB
    assert "the 50M-parameter bf16 model" in worded(p.prompt, L.terms("server"))
    assert "Gboard's 1.4M-parameter fp32 model" in worded(p.prompt, L.terms("gboard"))


# Google dp-accounting 0.6.0, privacy-loss-distribution accountant: from_gaussian_mechanism(z,
# sampling_prob=K/N, value_discretization_interval=1e-4, pessimistic_estimate=False | True)
# .self_compose(2000).get_epsilon_for_delta(1e-9): (lower, upper) bounds on the run's ε (0: none on the grid).
PLD = {(1e3, 3.0): (0.0, 0.0032), (1e4, 1.5): (0.0, 0.0187), (1e5, 0.6): (4.2598, 4.3539),
       (1e6, 2.0): (1.2753, 1.3753), (1e4, 1.0): (0.0, 0.0399)}


def test_act2_answer_is_the_only_plan_meeting_both_limits():
    """B alone: ε 0.518 (classic) / 0.401 (tighter), 1.2 pp. A fails accuracy (24 pp); C and D fail ε."""
    assert [k for k, d in model.PLANS.items() if model.meets_policy(d)] == ["B"]
    for context in ("server", "gboard"):
        assert lab.ACT2_PREDICTION.answer(context) == "B"
    assert model.PLANS["A"].acc_drop > S.acc_limit and model.PLANS["A"].epsilon <= S.eps_target
    for letter in "CD":
        d = model.PLANS[letter]
        assert d.acc_drop <= S.acc_limit and model.Deployment(d.clients, d.z, "tight").epsilon > S.eps_target


def test_act2_verdicts_hold_under_a_numerical_accountant():
    """An RDP ε is an upper bound; Google's PLD accountant proves far less at this
    sampling rate (K = 10⁴, z = 1: ε ≤ 0.04, where RDP gives 1.22). Each plan must meet or break ε ≤ 1
    under PLD as it does on the page, so the key does not rest on the RDP bound's looseness."""
    for letter, d in model.PLANS.items():
        low, high = PLD[d.clients, d.z]
        meets = high <= S.eps_target
        assert meets or low > S.eps_target, f"{letter}: the PLD bounds straddle the limit"
        assert (d.epsilon <= S.eps_target) == meets and d.epsilon >= high
    assert model.Deployment(1e4, 1.0).epsilon > S.eps_target >= PLD[1e4, 1.0][1]


def test_page_says_an_rdp_epsilon_is_an_upper_bound_and_names_the_failure_so():
    html = rendered(LAB, all_open(a2_clients="10000", a2_z=1.0))
    assert "a numerical accountant (PLD, PRV) can prove a smaller ε" in html
    assert "cannot certify the run" in html and "RDP bound" in html


def test_sampling_amplification_is_stated_as_an_assumption_with_gboard_s_counterexample():
    """Amplification by sampling needs each round's clients drawn uniformly at random
    and the draw kept secret; Gboard's DP language models use DP-FTRL 'without requiring uniform sampling of
    client devices' and so claim none (Xu et al. 2023, ACL Industry Track, arXiv 2305.18465)."""
    html = rendered(LAB, answered(LAB, {}, through="a1_reflect"))
    assert "Sampling only" not in html and "amplifies privacy" not in html
    assert "joins each round independently at random, with probability" in html and "the draw stays secret" in html
    assert "Xu et al. 2023" in html and "claim no amplification" in html
    # the accountant's formula is Poisson sampling (McMahan et al. 2018, Alg. 1: each user joins with
    # probability q), not a fixed-size draw of exactly K (review of V2-11)
    assert "independently at random" in lab.ACT2_PREDICTION.prompt and "in secret" in lab.ACT2_PREDICTION.prompt


def test_no_amplification_card_shows_q_equal_one():
    """With q = 1 every round composes in full: at z = 1 the Gaussian's RDP is α/2 per round, so 2,000
    rounds give ε ≈ min_α 1000α + ln(10⁹)/(α − 1) = 2,020.7 at α = 2 (Mironov 2017, Prop. 3)."""
    assert model.no_amplification_epsilon(1.0) == pytest.approx(2000 + math.log(1e9), rel=1e-9)
    html = rendered(LAB, all_open())
    assert 'data-metric="a2_eps_no_amp"' in html and "2,021" in html


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
        assert reloaded_with_orders(monkeypatch, lab, tuple(range(2, 129))).ORDER_RANGE == "2…128"
    finally:
        restore(monkeypatch, lab)


@pytest.mark.parametrize("context, r10", [("server", 52.8), ("gboard", 5.376 * 0.55)])
def test_act1_reflection_facts_are_computed(context, r10):
    facts = lab.act1_facts(context)
    assert facts["ratio_r10"] == lab.fmt(r10, "x") and facts["download_share"] == lab.fmt(0.5, "pct")


def test_act2_reflection_facts_are_computed():
    facts = lab.act2_facts()
    assert facts["mi_target"] == lab.fmt(privacy.membership_advantage_bound(1.0, 1e-9), "pct") == "73.1 %"


# ---- feedback for every option ------------------------------------------------------


def test_wrong_act1_prediction_says_by_how_much():
    html = rendered(LAB, answered(LAB, {"a1_predict": "C"}, through="a1_predict"))
    assert "96×" in html and "above the top of your range" in html


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


def test_bandwidth_failure_is_a_warning_and_follows_the_context():
    html = rendered(LAB, all_open(a2_clients="100000"))
    assert 'pl-callout--warn" data-failure="a2_bandwidth"' in html
    assert "a2_bandwidth" not in LAB.failures_now(all_open(context="gboard", a2_clients="100000"))


# ---- edges and the context -------------------------------------------------------------


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
    assert rec["answers"]["a1_predict"] == {"choice": "D", "locked_at": rec["answers"]["a1_predict"]["locked_at"],
                                            "correct": True}                      # act1_prediction, act1_correct
    assert rec["answers"]["a2_predict"]["choice"] == "B"                          # act2_decision
    assert rec["failures_active"] == ["a2_privacy"]                               # constraint_hit
    assert rec["complete"] is True


def test_the_record_holds_the_spec_s_results():
    """handbook/labs/v2_11.md §1 names K and fl_TB_per_day; the ledger only keeps lower-case names, so they are k and
    fl_tb_per_day."""
    assert set(record(LAB, all_open())["results"]) == SPEC_RESULTS  # the contract test: the ledger keeps them all


def test_page_renders_complete():
    html = str(render_lab(LAB, all_open()))
    assert 'data-chart="a1_traffic"' in html and 'data-chart="a2_epsilon"' in html and 'data-chart="a2_tradeoff"' in html


# ---- failure texts offer only levers that can still move (defect classes 3, 9, 21) ------------------


def failure_text(html: str, name: str) -> str:
    return html.split(f'data-failure="{name}"')[1].split("</div>")[0]


def test_privacy_failure_at_the_top_of_the_noise_slider_names_only_fewer_clients():
    """K = 10⁶: even z = 3 leaves ε = 1.02 (classic), so 'raise z to 3.07' would point past the slider."""
    text = failure_text(rendered(LAB, all_open(a2_clients="1000000", a2_z=3.0)), "a2_privacy")
    assert "Raise z" not in text and "sample fewer clients" in text and "1.02" in text
    assert "a2_privacy" not in LAB.failures_now(all_open(a2_clients="100000", a2_z=3.0))
    text = failure_text(rendered(LAB, all_open(a2_clients="100", a2_z=0.5)), "a2_privacy")
    assert "Raise z to at least" in text and "fewer clients" not in text  # K is already at its floor
    assert "a2_privacy" not in LAB.failures_now(all_open(a2_clients="100", a2_z=math.ceil(model.Deployment(100, 1).z_needed * 100) / 100))


def test_utility_failure_offers_lower_z_only_where_it_can_clear_the_limit():
    text = failure_text(rendered(LAB, all_open(a2_clients="100", a2_z=0.5)), "a2_utility")
    assert "lower z" not in text and "more clients" in text
    text = failure_text(rendered(LAB, all_open(a2_clients="1000", a2_z=1.0)), "a2_utility")
    assert "lower z" in text and "more clients" in text
    assert "a2_utility" not in LAB.failures_now(all_open(a2_clients="1000", a2_z=0.6))
    assert "a2_utility" not in LAB.failures_now(all_open(a2_clients="1000000", a2_z=1.0))


def test_bandwidth_failure_offers_only_the_clients_per_round():
    """The context is fixed by the first lock, so the smaller model is no lever in Act II; Act II has no
    rounds control. Fewer clients clear it from every state: K = 10⁴ moves 48 TB, under the 50 TB budget."""
    text = failure_text(rendered(LAB, all_open(a2_clients="1000000")), "a2_bandwidth")
    assert "Gboard" not in text and "fewer rounds" not in text and "fewer clients" in text
    assert "a2_bandwidth" not in LAB.failures_now(all_open(a2_clients="10000"))


def test_privacy_failure_where_no_single_lever_clears_it_says_both():
    """K = 10⁶, z = 0.5: z ≥ 3.07 is past the slider, and K = 100 at z = 0.5 still gives ε = 3.45."""
    text = failure_text(rendered(LAB, all_open(a2_clients="1000000", a2_z=0.5)), "a2_privacy")
    assert "raise z and sample fewer clients together" in text
    assert "a2_privacy" not in LAB.failures_now(all_open(a2_clients="100000", a2_z=1.5))
    text = failure_text(rendered(LAB, all_open(a2_clients="10000", a2_z=0.5)), "a2_privacy")
    assert "Raise z to at least" in text and "fewer clients" not in text


@pytest.mark.parametrize("clients, conversion", [("1000", "classic"), ("10000", "classic"), ("100000", "classic"),
                                                 ("1000000", "tight"), ("100", "tight")])
def test_privacy_failure_names_a_z_that_meets_the_target_on_the_slider(clients, conversion):
    """Review of V2-11: rounded to nearest, K = 10⁴ read "Raise z to at least 1.09", where ε is 1.013 (the
    spec's own golden row). The lever's z must meet the target when set, and one slider step below must not."""
    text = failure_text(rendered(LAB, all_open(a2_clients=clients, a2_z=0.5, a2_conversion=conversion)), "a2_privacy")
    z = float(re.search(r"Raise z to at least ([0-9.]*[0-9])", text).group(1))
    assert model.Deployment(float(clients), z, conversion).epsilon <= S.eps_target
    assert model.Deployment(float(clients), round(z - lab.A2_Z.step, 2), conversion).epsilon > S.eps_target


def test_an_accuracy_drop_over_100_pp_is_called_past_the_heuristic_s_range():
    """Review of V2-11: K = 100, z = 3 gives the z/K heuristic's 240 pp, more than any model's accuracy;
    the card, the failure and the chart's table say it is past the heuristic's range."""
    html = rendered(LAB, all_open(a2_clients="100", a2_z=3.0))
    assert "over 100 pp, the z/K heuristic is past its range" in html
    assert "more than all the accuracy a model has" in failure_text(html, "a2_utility")
    assert "240 pp (past the heuristic" in html
    assert "past its range" not in rendered(LAB, all_open(a2_clients="1000", a2_z=3.0))


def test_ledger_rows_carry_their_units():
    """Review of V2-11: the ledger page printed the TB/day and pp results with no unit ("0.000141", "240");
    the unit is in the label and a tiny TB/day reads in powers of ten."""
    from pylabs.course.describe import result_rows
    state = all_open(a1_clients="100", a1_rounds=1, a1_params="gboard", a1_bytes="1", a1_compression=100)
    rows = dict(result_rows(LAB, record(LAB, state)["results"], True))
    assert rows["Act I · federated traffic per day (TB)"] == "1.41 × 10⁻⁴"
    assert "Act II · accuracy drop (pp, heuristic)" in rows


def test_the_no_amplification_epsilon_is_labelled_an_rdp_bound():
    """Review of V2-11 (class 12): at q = 1, z = 1, T = 2,000 the RDP accountant gives 2,021, but the exact
    composition of 2,000 Gaussians is √2000-GDP (Dong, Roth and Su 2019), ε = 1,267 at δ = 10⁻⁹
    (reviewer's scipy computation). The card, the reflection's feedback and the takeaway call 2,021 a bound."""
    html = rendered(LAB, all_open())
    assert "ε with no sampling amplification (RDP bound)" in html
    assert "its RDP bound would be" in worded(lab.ACT2_REFLECTION.options[3].feedback, lab.act2_facts())
    assert any("the RDP bound for a user in every round is ε = 2,021" in t for t in lab.lab_takeaways("server"))


def test_act2_traffic_card_says_what_it_counts():
    """Review of V2-11 (class 50): Act II's traffic is the context's model at 24 rounds a day with uploads
    uncompressed, whatever Act I's controls were left at (a 1B model, r = 10); the card says so."""
    state = all_open(a1_params="1b", a1_compression=10)
    html = rendered(LAB, state)
    assert "the context's model, 24 rounds a day, uploads uncompressed" in html
    assert lab.act2_bytes(state, 1e3) == pytest.approx(4.8e12)
