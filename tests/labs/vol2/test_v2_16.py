"""V2-16 The Fairness Impossibility: golden vectors (handbook/labs/v2_16.md §4, and scipy where the spec was
wrong), answer keys proven by the physics in every context, the law worded as its sources word it,
feedback for every option, every failure reached and left, the ledger record."""

from __future__ import annotations

import math

import pytest
from scipy.optimize import brentq
from scipy.stats import norm

from pylabs.framework.render import record, render_lab
from pylabs.labs.vol2 import v2_16 as lab
from pylabs.labs.vol2 import v2_16_law as law
from pylabs.labs.vol2 import v2_16_model as model
from pylabs.physics import constants as C
from tests.labs.helpers import LOCKED_AT, answered, assert_reached_and_left, rendered
from tests.labs.reading import page_text

LAB = lab.LAB
S = model.S
CONTEXTS = ("measured", "equal")


def all_open(**controls):
    return answered(LAB, {}, through="a2_reflect", controls=controls)


def text(state) -> str:
    return page_text(rendered(LAB, state))


# ---- an independent model: scipy's normal distribution, no lab code ----------------------


def sel(p: float, t: float, d: float = S.d_prime) -> float:
    return p * norm.sf(t - d) + (1 - p) * norm.sf(t)


def ppv(p: float, t: float, d: float = S.d_prime) -> float:
    return p * norm.sf(t - d) / sel(p, t, d)


def t_for_selection(p: float, s: float, d: float = S.d_prime) -> float:
    return brentq(lambda t: sel(p, t, d) - s, -10, 10, xtol=1e-13)


# ---- golden vectors: handbook/labs/v2_16.md §4 ---------------------------------------------------


def test_spec_4_demographic_parity_at_six_percent():
    g = model.act1_scenario("measured")
    assert (g.a.fpr, g.a.tpr, g.a.ppv) == pytest.approx((0.0457, 0.7617, 0.2539), abs=5e-5)
    assert (g.b.fpr, g.b.tpr, g.b.ppv) == pytest.approx((0.0092, 0.5171, 0.8619), abs=5e-5)
    assert g.a.selection_rate == pytest.approx(0.06) and g.b.selection_rate == pytest.approx(0.06)
    assert 1 / g.fpr_ratio == pytest.approx(4.96, abs=5e-3)           # the spec's A ÷ B
    t_a, t_b = t_for_selection(S.base_a, S.flag_rate), t_for_selection(S.base_b, S.flag_rate)
    assert g.fpr_ratio == pytest.approx(norm.sf(t_b) / norm.sf(t_a), rel=1e-9)


def test_spec_4_single_threshold_at_today_s_cut_off():
    g = model.Deployment("single", "single").us
    assert g.t_a == g.t_b == S.threshold
    assert g.a.fpr == g.b.fpr == pytest.approx(0.0359, abs=5e-5)
    assert (g.a.selection_rate, g.b.selection_rate) == pytest.approx((0.0497, 0.1049), abs=5e-5)
    assert (g.a.ppv, g.b.ppv) == pytest.approx((0.2919, 0.6918), abs=5e-5)
    assert g.impact == pytest.approx(0.474, abs=5e-4)


def test_spec_4_four_fifths_fix_is_the_per_group_rule_of_the_instruments():
    """The spec's vector is right as arithmetic; what changed is that the lab no longer calls it a fix."""
    g = model.Deployment("fourfifths", "single").us
    assert g.t_a == pytest.approx(1.48, abs=5e-3) and g.t_b == S.threshold
    assert g.a.selection_rate == pytest.approx(0.0839, abs=5e-5)
    assert g.impact == pytest.approx(C.UGESP_FOUR_FIFTHS, rel=1e-9)
    assert g.a.fpr == pytest.approx(0.0689, abs=5e-5) and g.fpr_gap == pytest.approx(0.0330, abs=5e-5)
    assert not g.one_cutoff


def test_spec_4_scale_is_five_million_screens_a_day():
    assert S.evaluations_per_day == 5e6
    d = model.Deployment("single", "single")
    expected = S.evaluations_per_day * norm.cdf(S.threshold - S.d_prime) * (S.base_a + S.base_b) * S.group_share
    assert d.rejected_per_day == pytest.approx(expected, rel=1e-9)


# ---- The key is lawful; the four-fifths rule is a screen ---------------------


def test_the_act2_key_uses_one_cut_off_for_every_group():
    """42 U.S.C. §2000e-2(l) (Title VII §703(l), Civil Rights Act of 1991 §106) makes it unlawful "to adjust
    the scores of, use different cutoff scores for, or otherwise alter the results of, employment related
    tests on the basis of race, color, religion, sex, or national origin" (law.cornell.edu/uscode/text/42/
    2000e-2; 105 Stat. 1075). The spec's key B lowered group A's US cut-off to 1.48; today's key is one
    group-blind cut-off in both markets."""
    key = model.DESIGNS[LAB.question("a2_predict").answer()]
    assert key.us.one_cutoff and key.eu.one_cutoff
    assert key.us.t_a == key.us.t_b == key.eu.t_a == S.low_threshold


def test_the_highest_group_blind_cut_off_passing_four_fifths():
    """One group-blind cut-off of about 0.79 gives an impact ratio of 0.80 with no FPR gap.
    Computed independently with scipy: the ratio reaches 0.8 at t = 0.7765 (at 0.79 it is 0.797), so the
    key's t = 0.75 passes and its gap is 0."""
    t_star = brentq(lambda t: sel(S.base_a, t) / sel(S.base_b, t) - 0.8, 0, 3, xtol=1e-12)
    assert t_star == pytest.approx(0.7765, abs=5e-5)
    assert model.blind_cutoff_for_four_fifths() == pytest.approx(t_star, abs=1e-9)
    assert sel(S.base_a, 0.79) / sel(S.base_b, 0.79) == pytest.approx(0.7967, abs=5e-5)
    key = model.DESIGNS["C"]
    assert key.us.impact == pytest.approx(sel(S.base_a, S.low_threshold) / sel(S.base_b, S.low_threshold), rel=1e-9)
    assert key.us.impact >= 0.8 and key.eu.fpr_gap == 0.0


def test_per_group_cut_offs_raise_the_law_not_a_pass():
    """Lowering group A's cut-off reaches four-fifths but is flagged with the statute's own words."""
    state = all_open(a2_us_rule="fourfifths")
    assert "a2_group_cutoffs" in LAB.failures_now(state) and "a2_us_adverse_impact" not in LAB.failures_now(state)
    assert law.STATUTE in text(state)


def test_the_page_says_which_statements_are_law_and_which_policy():
    """29 CFR 1607.4(D): a ratio under four-fifths "will generally be regarded by the Federal enforcement
    agencies as evidence of adverse impact"; 1607.3(A): a procedure with adverse impact is considered
    discriminatory unless validated (GPO, 29 CFR 1607.3 and 1607.4). The page quotes them, labels the
    launch checks law or policy, and says it is not legal advice."""
    before = text(answered(LAB, {}, through="a1_reflect"))
    assert "US law" in before and "Company policy" in before and "Not legal advice" in before
    after = text(all_open())
    for words in ("will generally be regarded by the Federal enforcement agencies as evidence of adverse impact",
                  "unless it has been validated or meets their section 6 (1607.3(A))", "not legal advice", law.STATUTE,
                  "names no metric", "are the company's choices, not the law's"):
        assert words in after, words


def test_the_takeaways_no_longer_say_per_jurisdiction_thresholds_meet_both_markets_rules():
    said = " ".join(lab.lab_takeaways())
    assert "meet both markets' rules" not in said and "jurisdiction thresholds" not in said
    assert "a screen, not a target" in said and "the statute forbids them" in said


# ---- One score is not calibrated within groups -------------------------------


def test_the_score_is_not_calibrated_within_groups():
    """At t = 1.8 the same raw score is right 29 % of the time above it in group A and 69 % in group B
    (the spec's own vector); at the cut-off itself Bayes' rule gives 7.93 % against 31.9 %."""
    post = {p: p * norm.pdf(S.threshold - S.d_prime) / (p * norm.pdf(S.threshold - S.d_prime)
                                                          + (1 - p) * norm.pdf(S.threshold)) for p in (S.base_a, S.base_b)}
    assert (post[S.base_a], post[S.base_b]) == pytest.approx((0.0793, 0.3192), abs=5e-5)
    g = model.Deployment("single", "single").us
    assert (g.a.ppv, g.b.ppv) == pytest.approx((ppv(S.base_a, 1.8), ppv(S.base_b, 1.8)), rel=1e-9)


def test_no_page_calls_the_one_score_calibrated():
    page = text(all_open()).lower()
    assert "one calibrated score" not in page and "calibrated scores with thresholds" not in page


def test_calibrating_within_groups_moves_group_a_s_cut_off_up():
    d = model.DESIGNS["D"]
    target = post_b = S.base_b * norm.pdf(S.threshold - S.d_prime) / (
        S.base_b * norm.pdf(S.threshold - S.d_prime) + (1 - S.base_b) * norm.pdf(S.threshold))
    t_a = brentq(lambda t: S.base_a * norm.pdf(t - S.d_prime) / (S.base_a * norm.pdf(t - S.d_prime)
                                                                  + (1 - S.base_a) * norm.pdf(t)) - target, 0, 6)
    assert post_b == pytest.approx(0.3192, abs=5e-5)
    assert d.us.t_a == pytest.approx(t_a, abs=1e-9) == pytest.approx(2.506, abs=5e-4)
    assert not d.one_cutoff and d.us.impact == pytest.approx(0.144, abs=5e-4)


# ---- answer keys, in every context -------------------------------------------------------


@pytest.mark.parametrize("context, key, value", [("measured", "A", 0.2016), ("equal", "C", 1.0)])
def test_act1_key_is_proven_in_each_context(context, key, value):
    q = LAB.question("a1_predict")
    truth = q.value_in(context)
    assert truth == pytest.approx(value, abs=5e-5)
    assert [o.letter for o in q.options if o.holds(truth)] == [key] == [q.answer(context)]


@pytest.mark.parametrize("context", CONTEXTS)
def test_act2_answer_is_the_only_design_passing_every_check(context):
    passing = [k for k, d in model.DESIGNS.items() if d.passes]
    assert passing == ["C"] == [LAB.question("a2_predict").answer(context)]
    a, b, d = (model.DESIGNS[k] for k in "ABD")
    assert a.checks == (True, False, True, True) and a.us.impact == pytest.approx(0.4248, abs=5e-5)  # sharper: lower
    assert b.checks == (False, True, True, True) and b.us.impact == pytest.approx(0.8, rel=1e-9)     # the old key
    assert d.checks == (False, False, False, True)                                                  # per group


def test_reflection_keys():
    assert LAB.question("a1_reflect").answer() == "B" and LAB.question("a2_reflect").answer() == "D"


def test_the_impact_ratio_at_one_cut_off_depends_only_on_fpr_over_tpr():
    """a2_reflect's key: s_g = p_g·TPR + (1 − p_g)·FPR with the same TPR, FPR in both groups."""
    for t, d in ((1.8, 2.4), (0.75, 2.4), (1.8, 3.5), (0.3, 2.0)):
        r = norm.sf(t) / norm.sf(t - d)
        by_r = (S.base_a + (1 - S.base_a) * r) / (S.base_b + (1 - S.base_b) * r)
        assert model.a2_pair("single", t, d).impact == pytest.approx(by_r, rel=1e-9)


def test_facts_are_computed():
    f1, f2 = lab.act1_facts("measured"), lab.act2_facts()
    assert f1["better_ratio"] == "74.6×" and f1["one_ppv_a"] == "53.4 %"
    assert (f2["ir_today"], f2["ir_sharp"], f2["ir_ff"], f2["ir_low"]) == ("0.474", "0.425", "0.8", "0.806")
    assert (f2["t_ff"], f2["gap_ff"]) == ("1.48", "3.3 pp")
    assert (f2["t_cal"], f2["gap_cal"], f2["t_blind"]) == ("2.51", "2.98 pp", "0.777")


# ---- feedback for every option ------------------------------------------------------


def test_act1_feedback_follows_the_context():
    equal = LAB.parse({"answers": {"a1_predict": {"choice": "A", "locked_at": LOCKED_AT}},
                       "controls": {"context": "equal"}}, "context")
    said = text(equal)
    assert "both groups' cut-offs sit at t = 2.01" in said and "The answer is C" in said
    assert 'data-metric="a1_fpr_ratio" data-value="1.0"' in rendered(LAB, equal)


# ---- nothing given away before its question is locked ------------------------------------


def test_default_page_does_not_state_the_act1_answer():
    page = text(LAB.default_state())
    for fact in ("0.202×", "4.57 %", "0.921 %", "far less often, since"):
        assert fact not in page


def test_act2_page_before_its_pick_does_not_state_the_check_results():
    page = text(answered(LAB, {}, through="a1_reflect"))
    act2 = page[page.index("A Screen for Two Markets"):]
    for fact in ("0.474", "0.806", "0.777", "0.425", "1.48"):
        assert fact not in act2


# ---- failure states -------------------------------------------------------------------


@pytest.mark.parametrize("name, reach, leave", [
    ("a2_group_cutoffs", {"a2_eu_rule": "ppv"}, {"a2_eu_rule": "single"}),
    ("a2_us_adverse_impact", {"a2_threshold": 0.75, "a2_d_prime": 3.5}, {"a2_threshold": 0.7, "a2_d_prime": 3.5}),
    ("a2_eu_error_gap", {"a2_eu_rule": "fourfifths", "a2_tolerance": 0.02}, {"a2_eu_rule": "fourfifths", "a2_tolerance": 0.04}),
    ("a2_harm", {"a2_evals": 1e7}, {"a2_evals": 5e6}),
])
def test_other_levers_reach_and_leave_each_failure(name, reach, leave):
    """Routes besides each failure's declared witness (tests/labs/test_contract.py drives that one)."""
    assert_reached_and_left(LAB, name, all_open(**reach), all_open(**leave))


def test_the_eu_cut_off_failure_words_the_directive():
    said = text(all_open(a2_eu_rule="dp"))
    assert "direct discrimination (Directive 2000/43/EC, Art. 2(2)(a))" in said and "US law:" not in said


def test_harm_failure_is_a_warning():
    html = rendered(LAB, all_open(a2_threshold=2.2))
    assert 'pl-callout--warn" data-failure="a2_harm"' in html


def test_the_answer_clears_every_failure():
    assert LAB.failures_now(all_open(a2_threshold=S.low_threshold)) == frozenset()


# ---- edges and the context -------------------------------------------------------------


def test_context_preset_sets_the_base_rates():
    state = LAB.parse({"controls": {"context": "equal"}}, changed="context")
    assert state["a1_base_a"] == state["a1_base_b"] == S.base_equal
    state = LAB.parse({"controls": {"context": "measured", "a1_base_a": 0.2}}, changed="context")
    assert (state["a1_base_a"], state["a1_base_b"]) == (S.base_a, S.base_b)


def test_the_prompt_names_the_context_s_base_rates():
    q = LAB.question("a1_predict")
    assert "of group B's 10 %" in q.prompt.format_map(LAB.terms("measured"))
    assert "of group B's 6 %" in q.prompt.format_map(LAB.terms("equal"))


def test_equal_context_makes_every_act1_card_match():
    html = rendered(LAB, answered(LAB, {}, through="a1_predict",
                                  controls={"context": "equal", "a1_base_a": 0.06, "a1_base_b": 0.06,
                                            "a1_criterion": "single"}))
    assert "flag rate, FPR, FNR, PPV match across the groups" in html


# ---- the ledger record --------------------------------------------------------------

SPEC_RESULTS = {"base_rate_a", "base_rate_b", "criterion", "threshold_a", "threshold_b", "fpr_a", "fpr_b",
                "tpr_a", "tpr_b", "ppv_a", "ppv_b", "us_rule", "eu_rule", "cutoff", "d_prime", "us_threshold_a",
                "impact_ratio", "eu_fpr_gap", "one_cutoff", "screen_ok", "eu_ok", "qualified_rejected_per_day",
                "advanced_per_day"}


def test_record_holds_the_spec_ledger_fields():
    rec = record(LAB, all_open())
    r = rec["results"]
    assert set(r) == SPEC_RESULTS                                                 # base_rates, thresholds, ...
    assert r["criterion"] == "Demographic parity" and r["fpr_a"] == pytest.approx(0.0457, abs=5e-5)
    assert r["impact_ratio"] == pytest.approx(0.474, abs=5e-4)
    assert (r["one_cutoff"], r["screen_ok"], r["eu_ok"]) == (1.0, 0.0, 1.0)
    assert r["qualified_rejected_per_day"] == pytest.approx(model.Deployment("single", "single").rejected_per_day)
    assert rec["answers"]["a1_predict"]["choice"] == "A" and rec["answers"]["a1_predict"]["correct"] is True
    assert rec["answers"]["a2_predict"]["choice"] == "C"                          # act2_decision
    assert rec["failures_active"] == ["a2_us_adverse_impact"]                     # constraint_hit
    assert rec["complete"] is True


def test_the_record_holds_the_spec_s_results():
    assert set(record(LAB, all_open())["results"]) == SPEC_RESULTS  # the contract test: the ledger keeps them all


def test_v2_17_still_reads_the_eu_rule():
    """V2-17 starts its fairness rule from this lab's a2_eu_rule ("single" or "ppv")."""
    assert {"single", "ppv"} <= set(LAB.control("a2_eu_rule").values)


def test_page_renders_complete():
    html = str(render_lab(LAB, all_open()))
    assert 'data-chart="a1_groups"' in html and 'data-chart="a2_tradeoff"' in html
    assert "Key takeaways" in html


# ---- the independent review's findings -------------------------------------------------


def test_no_pick_option_is_another_with_one_lever_moved_less_far():
    """Review (form): option B was the key's design with the cut-off lowered less far (t = 1.3
    against 0.75). The impact ratio rises as the one cut-off falls and nothing penalises a lower one, so if
    B passed, C would too: only C could be the unique key, found without the physics. No two options may
    be one design with one lever (t or d′) moved."""
    designs = list(model.DESIGNS.values())
    for i, x in enumerate(designs):
        for y in designs[i + 1:]:
            same_rules = (x.us_rule, x.eu_rule) == (y.us_rule, y.eu_rule)
            levers = (x.t_b != y.t_b) + (x.d_prime != y.d_prime)
            assert not (same_rules and levers == 1), (x, y)


def test_option_b_is_the_spec_s_old_per_group_cut_off_and_fails_only_the_law():
    """handbook/labs/v2_16.md §4: lowering group A's US cut-off to select 0.0839 gives t_A = 1.48 and an FPR gap of
    3.30 pp; computed here with scipy. 42 U.S.C. §2000e–2(l) forbids "different cutoff scores" by group."""
    b = model.DESIGNS["B"]
    t_a = t_for_selection(S.base_a, 0.8 * sel(S.base_b, S.threshold))
    assert b.us.t_a == pytest.approx(t_a, abs=1e-9) == pytest.approx(1.484, abs=5e-4)
    assert b.us.fpr_gap == pytest.approx(norm.sf(t_a) - norm.sf(S.threshold), rel=1e-9)
    assert b.eu.one_cutoff and b.checks == (False, True, True, True)
    said = text(answered(LAB, {"a2_predict": "B"}, through="a2_predict"))
    assert "t = 1.48 and group B t = 1.8: different cutoff scores by group" in said


def test_the_precision_option_of_a2_reflect_is_refuted_by_its_own_numbers():
    """Review: option C said the precision gap "narrows as t falls" and its feedback "precision moves apart,
    not together", quoting 29.2 % against 69.2 % (40.0 pp) and 7.88 % against 31.8 % (23.9 pp): the gap in
    points narrowed, so the option's claim was true and the feedback contradicted its own numbers. The gap
    narrowed both times (lower t, sharper model) while the ratio rose once and fell once."""
    gaps = {k: ppv(S.base_b, t, d) - ppv(S.base_a, t, d) for k, (t, d) in
            {"today": (S.threshold, S.d_prime), "low": (S.low_threshold, S.d_prime), "sharp": (S.threshold, S.better_d_prime)}.items()}
    assert gaps["low"] < gaps["today"] and gaps["sharp"] < gaps["today"]
    assert (gaps["today"], gaps["low"], gaps["sharp"]) == pytest.approx((0.3999, 0.2390, 0.3954), abs=5e-5)
    f = lab.act2_facts()
    assert (f["pgap_today"], f["pgap_low"], f["pgap_sharp"]) == ("40 pp", "23.9 pp", "39.5 pp")
    c = LAB.question("a2_reflect").options[2]
    assert "narrows as t falls" not in c.text and "moves apart" not in c.feedback


def test_the_a2_reflect_key_names_rates_not_counts():
    """Review: "how many unqualified applicants pass for each qualified one" is a count ratio, (1 − PPV)/PPV
    in each group, i.e. precision (option C); what sets the ratio is FPR ÷ TPR, a ratio of pass rates."""
    key = LAB.question("a2_reflect").options[3]
    assert key.letter == "D" and key.text.startswith("How often") and "for each" not in key.text


def test_nothing_states_the_a2_reflect_key_before_its_lock():
    """Review: Act II's math peek said "the ratio depends only on FPR/TPR" above the question."""
    before = text(answered(LAB, {}, through="a2_predict"))
    assert "depends only on FPR/TPR" not in before and "FPR ÷ TPR)" not in before


def test_calibration_within_groups_is_not_called_precision_parity():
    """Review (spec errata handbook/labs/v2_16.md §2, calibration conflated with PPV parity): a1_reflect's option A said
    calibration "equalises precision"; with one calibrated cut-off none of the three match. Independently:
    group B flagged at 6 % (t = 2.357), group A at the same posterior, σ(logit p + d′s − d′²/2)."""
    t_b = t_for_selection(S.base_b, S.flag_rate)
    logit = lambda x: math.log(x / (1 - x))  # noqa: E731
    q = logit(S.base_b) + S.d_prime * t_b - S.d_prime ** 2 / 2
    t_a = (q - logit(S.base_a) + S.d_prime ** 2 / 2) / S.d_prime
    assert t_a == pytest.approx(3.0632, abs=5e-5)
    assert (sel(S.base_a, t_a), norm.sf(t_a), ppv(S.base_a, t_a)) == pytest.approx((0.006145, 0.001095, 0.8254), rel=1e-3)
    f = lab.act1_facts("measured")
    assert (f["cal_t_a"], f["cal_sel_a"], f["cal_fpr_a"], f["cal_ppv_a"]) == ("3.06", "0.615 %", "0.11 %", "82.5 %")
    a = LAB.question("a1_reflect").options[0]
    assert "equalises precision" not in a.feedback
    said = " ".join(lab.lab_takeaways())
    assert ": one score is not calibrated" not in said and "a different chance in each group" in said


def test_predictive_parity_out_of_reach_is_said_not_shown_as_parity():
    """Review: at group A 30 %, group B 1 %, 15 % flagged, group B's precision (6.06 %) is
    below group A's base rate, the floor of its precision: the bisection pinned group A's cut-off and the
    cards showed 100 % of group A flagged under "predictive parity" with nothing said."""
    b = ppv(0.01, t_for_selection(0.01, 0.15))
    assert b == pytest.approx(0.0606, abs=5e-5) and b < 0.3
    out = text(all_open(a1_criterion="ppv", a1_base_a=0.3, a1_base_b=0.01, a1_flag_rate=0.15))
    assert "Predictive parity is out of reach here" in out and "never falls below its base rate (30 %)" in out
    for controls in ({}, {"a1_base_a": 0.01, "a1_base_b": 0.3, "a1_flag_rate": 0.01}):
        assert "out of reach" not in text(all_open(a1_criterion="ppv", **controls))


def test_the_law_is_worded_as_the_sources_word_it():
    """Review. 42 U.S.C. §2000e–2(k)(1)(A): disparate impact "is established ... only if"
    (i) the respondent fails to show job relatedness and business necessity, "or" (ii) the complaining party
    shows an alternative employment practice the respondent refuses to adopt; the page said "unlawful unless
    the employer shows" (i), as if (i) were a full defence. 29 CFR 1607.3(B) reads "substantially equally
    valid"; 1607.4(D) adds that smaller differences "may nevertheless constitute adverse impact, where they are
    significant in both statistical and practical terms" (GPO, 29 CFR 1607.3-1607.4). "Lawful levers" claimed
    what no source on the page says."""
    page = text(all_open(a2_threshold=1.8))
    assert "is unlawful unless the employer shows" not in page and "Lawful levers" not in page
    for words in ("shows an alternative employment practice that the employer refuses to adopt ((k)(1)(A)(ii))",
                  "substantially equally valid", "significant in both statistical and practical terms"):
        assert words in page, words


def test_the_statute_is_written_as_the_code_prints_it():
    """The US Code (uscode.house.gov; LII) prints the section "§2000e–2", with an en dash; the page and its
    source list use one form."""
    page = text(all_open())
    assert "2000e–2" in page and "2000e-2" not in page
    sources = rendered(LAB, all_open()).split('class="pl-mathpeek__sources"')[2]
    assert "42 U.S.C. 2000e–2(l): prohibition" in sources
