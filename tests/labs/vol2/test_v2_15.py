"""V2-15 The Jevons Reckoning: golden vectors (handbook/labs/v2_15.md §4), both answer keys proven by the
physics, feedback for every option, every failure reached and left, the ledger record (handbook/labs/v2_15.md §1)."""

from __future__ import annotations

import re

import pytest

from pylabs.framework.render import record, render_lab
from pylabs.labs.vol2 import v2_15 as lab
from pylabs.physics import carbon
from pylabs.physics import constants as C
from tests.labs.helpers import answered, assert_key_proven, assert_reached_and_left, rendered

LAB = lab.LAB
S = lab.S
H = 3600.0


def all_open(**controls):
    return answered(LAB, {}, through="a2_reflect", controls=controls)


def before_takeaways(html: str) -> str:
    return html.split('data-block="takeaways"')[0]


# ---- golden vectors: handbook/labs/v2_15.md §4 ----------------------------------------------------


@pytest.mark.parametrize("eff, demand, change, reb", [(2.0, 3.0, 0.50, 2.0), (2.0, 2.8, 0.40, 1.8)])
def test_spec_4_act1_rows(eff, demand, change, reb):
    u = lab.upgrade(all_open(a1_eff=eff, a1_demand=demand))
    assert u.change == pytest.approx(change, rel=1e-12)
    assert LAB.results(all_open(a1_eff=eff, a1_demand=demand))["rebound"] == pytest.approx(reb, rel=1e-12)


def test_spec_4_weekly_baseline_is_this_years_fleet_at_the_story_numbers():
    """117,600 kWh → 96.43 t at 820 g/kWh: 1,000 H100s at 700 W for 168 h (no PUE)."""
    u = lab.upgrade(all_open(a1_eff=2.0, a1_demand=2.8, a1_source="coal"))
    assert u.energy_j / carbon.J_PER_KWH == pytest.approx(117_600, rel=1e-12)
    assert u.co2e_kg / 1000 == pytest.approx(96.432, rel=1e-12)
    assert u.energy_j == pytest.approx(carbon.fleet_energy_j(S.new_gpus, C.H100_TDP_W, S.week_s), rel=1e-12)


@pytest.mark.parametrize("flex, window, f_eff, saving", [
    (0.3, 8, 0.2, 0.1548), (0.3, 12, 0.3, 0.2322), (1.0, 12, 1 / 3, 0.2580),
])
def test_spec_4_act2_rows(flex, window, f_eff, saving):
    p = lab.plan(all_open(a2_flex=flex, a2_window=window * H))
    assert p.shift_eff == pytest.approx(f_eff, rel=1e-12)
    assert p.shift_savings == pytest.approx(saving, abs=5e-5)


def test_spec_2_upstream_model_gives_28_5_percent():
    assert lab.act2_facts()["naive"] == "28.5 %"


def test_spec_3_mixes_are_721_and_91_9():
    assert lab.I_DAY * 3.6e9 == pytest.approx(721.0) and lab.I_NIGHT * 3.6e9 == pytest.approx(91.9)


# ---- answer keys -------------------------------------------------------------------


def test_act1_answer_is_proven_by_the_physics():
    assert lab.a1_truth() == pytest.approx(2.8, rel=1e-12)
    assert carbon.net_carbon_change(S.eff_claim, lab.a1_truth()) == pytest.approx(S.carbon_rise)
    assert_key_proven(lab.ACT1_PREDICTION, "D")


@pytest.mark.parametrize("context", ["board", "facility"])
def test_every_key_holds_in_every_context(context):
    """The context (accounting boundary) scales tonnes, never a ratio: each key is the same in both."""
    assert lab.ACT1_PREDICTION.answer(context) == "D" and lab.ACT1_PREDICTION.value_in(context) == pytest.approx(2.8)
    assert lab.ACT2_PREDICTION.answer(context) == "B"
    assert lab.ACT2_PREDICTION.value_in(context) == pytest.approx(0.1548, abs=5e-5)
    state = answered(LAB, {}, through="a2_reflect", controls={"context": context})
    assert lab.plan(state).shift_savings == pytest.approx(lab.a2_truth())


def test_act1_distractors_are_the_beliefs_their_feedback_names():
    """B: work up as much as carbon (1.4×) still lowers carbon; C: the additive 2 + 0.4 = 2.4× gives +20 %."""
    assert carbon.net_carbon_change(S.eff_claim, S.b_demand) == pytest.approx(-0.30)
    assert carbon.net_carbon_change(S.eff_claim, S.c_demand) == pytest.approx(0.20)
    assert S.edge_b < S.c_demand < S.edge_c < lab.a1_truth()


def test_act1_key_holds_at_the_datasheet_gain_too():
    """Defect class 16: the prompt states the vendor's 2×; a student who uses the datasheets' 1.81×
    (dense BF16 per watt at TDP: 989.4 TFLOP/s / 700 W against 312 TFLOP/s / 400 W) still lands in D."""
    assert lab.DATASHEET_GAIN == pytest.approx(1.812, abs=1e-3)
    assert lab.ACT1_PREDICTION.option("D").holds(carbon.demand_growth_for_change(lab.DATASHEET_GAIN, S.carbon_rise))


def test_act2_answer_is_the_stated_plans_saving():
    """15.48 % (handbook/labs/v2_15.md §4 row F = 0.3, W = 8 h): the window binds (F_eff 20 % < headroom 33.3 %)."""
    assert_key_proven(lab.ACT2_PREDICTION, "B")
    assert lab.TEAM.shift_eff == pytest.approx(0.2) and lab.TEAM.shift_eff < lab.TEAM.headroom
    assert lab.a2_truth() == pytest.approx(0.1548, abs=5e-5)


def test_shifting_alone_cannot_reach_the_target_and_clean_supply_can():
    best = max(lab.Plan(f / 20, w / 2, S.util).shift_savings for f in range(21) for w in range(25))
    assert best == pytest.approx(lab.BEST_SHIFT.shift_savings) == pytest.approx(0.2580, abs=5e-5)
    assert best < S.target
    assert lab.Plan(S.flex, 12, S.util, 0.25).total_savings >= S.target


def test_act2_option_d_feedback_move_needed_for_the_target():
    """Saving 40 % needs F_eff = 0.4 (I_d + I_n)/(I_d − I_n) = 51.7 % of the day's load."""
    facts = lab.act2_facts()
    assert facts["needed_move"] == "51.7 %"
    assert lab.Plan(1.0, 12, 0.5).shift_eff >= 0.517 and lab.Plan(0.517, 12, 0.5).shift_savings == pytest.approx(0.4, abs=1e-3)


def test_act2_reflection_key_is_the_headroom():
    every_job = lab.Plan(1.0, 12, S.util)
    assert every_job.shift_eff == pytest.approx(every_job.headroom) and every_job.headroom < 1.0
    assert lab.ACT2_REFLECTION.answer_letter == "C" and lab.ACT1_REFLECTION.answer_letter == "A"


# ---- feedback for every option ------------------------------------------------------


def test_wrong_act1_prediction_says_by_how_much():
    html = rendered(LAB, answered(LAB, {"a1_predict": "A"}, through="a1_predict"))
    assert "2.8×" in html and "above the top of your range" in html
    html = rendered(LAB, answered(LAB, {"a2_predict": "D"}, through="a2_predict"))
    assert "15.5 %" in html and "below the bottom of your range" in html


# ---- nothing given away before its question is locked ------------------------------------


def test_default_page_does_not_state_the_act1_answer():
    html = before_takeaways(rendered(LAB, LAB.default_state()))
    assert "2.8×" not in html and "180 %" not in html


def test_act2_page_before_its_prediction_does_not_state_the_shift_ceiling():
    html = before_takeaways(rendered(LAB, answered(LAB, {}, through="a1_reflect")))
    act2 = html.split('data-act="2"')[1]
    for fact in ("25.8 %", "15.5 %", "23.2 %"):
        assert fact not in act2


# ---- failure states -------------------------------------------------------------------


@pytest.mark.parametrize("name, reach, leave", [
    ("a2_sla", {"a2_window": 12 * H, "a2_flex": 0.5}, {"a2_window": 12 * H, "a2_flex": 0.3}),
    ("a2_sla", {"a2_window": 12 * H, "a2_util": 0.9}, {"a2_window": 12 * H, "a2_util": 0.75}),
    # idle GPUs buy night headroom: at 50 % utilisation shifting alone can pass the target
    ("a2_target", {"a2_util": 0.5, "a2_window": 12 * H, "a2_flex": 0.5}, {"a2_util": 0.5, "a2_window": 12 * H, "a2_flex": 0.6}),
])
def test_other_levers_reach_and_leave_each_failure(name, reach, leave):
    """Routes besides each failure's declared witness (tests/labs/test_contract.py drives that one)."""
    assert_reached_and_left(LAB, name, all_open(**reach), all_open(**leave))


def test_target_is_a_warning_and_sla_is_danger():
    html = rendered(LAB, all_open(a2_flex=1.0))
    assert 'pl-callout--warn" data-failure="a2_target"' in html
    assert 'pl-callout--danger" data-failure="a2_sla"' in html


@pytest.mark.parametrize("flex, window_h", [(0.30, 8.0), (0.05, 11.5), (0.30, 12.0), (0.65, 6.0), (0.5, 8.0)])
def test_the_deadline_holds_for_plans_the_night_can_run(flex, window_h):
    """handbook/errata.md#e37: the spec's rule fired for every F > 0 with W < 12 h, the
    stakeholder's 30 % / 8 h and 5 % / 11.5 h included. A deadline breaks only when the share held,
    F·min(1, W/H_d), exceeds min(W/H_d, headroom)."""
    state = all_open(a2_flex=flex, a2_window=window_h * H)
    assert "a2_sla" not in LAB.failures_now(state)
    assert 'data-failure="a2_sla"' not in rendered(LAB, state)


def test_the_deadline_breaks_above_the_night_headroom():
    p = lab.plan(all_open(a2_flex=0.6, a2_window=8 * H))
    assert p.held == pytest.approx(0.4) and p.held > p.headroom and p.sla_broken


WORST = {"a2_flex": 1.0, "a2_window": 12 * H, "a2_util": 0.95}


@pytest.mark.parametrize("reveal, text, levers", [
    (False, "Hold fewer jobs, or shorten the window.", (("a2_flex", 0.0), ("a2_window", 0.0))),
    (True, "Hold fewer jobs, shorten the window, or lower utilisation.",
     (("a2_flex", 0.0), ("a2_window", 0.0), ("a2_util", 0.5))),
])
def test_each_lever_the_deadline_failure_names_clears_it_alone(reveal, text, levers):
    """Class 44: each lever the text names, moved alone to its end, clears the failure from the worst
    plan (every job flexible, the whole day, 95 % utilisation). Lower utilisation is named only once
    the Act II reflection (whose key it is) is locked."""
    state = answered(LAB, {}, through="a2_reflect" if reveal else "a2_predict", controls=WORST)
    assert text in rendered(LAB, state)
    for lever, end in levers:
        assert "a2_sla" not in LAB.failures_now(all_open(**{**WORST, lever: end}))


def test_the_reflections_setting_does_not_state_its_key_before_the_lock():
    """Classes 34 and 45 (review): at the Act II reflection's own setting (every job flexible, a 12 h
    window) the deadline failure fires. Before the lock neither its text, its title, the equations
    panel nor the sources name the cause (the night's busy GPUs) or give the headroom formula; after
    the lock they do."""
    setting = {"a2_flex": 1.0, "a2_window": 12 * H}
    before = before_takeaways(rendered(LAB, answered(LAB, {}, through="a2_predict", controls=setting)))
    after = before_takeaways(rendered(LAB, all_open(**setting)))
    assert 'data-failure="a2_sla"' in before
    for tell in ("idle GPUs", "lower utilisation", r"\frac{1-u}{u}", "within capacity limits", "night can run",
                 "Night headroom"):
        assert tell not in before, tell
        assert tell in after or tell in ("night can run",), tell


def test_no_green_target_card_beside_broken_deadlines():
    """Review: at 55 % utilisation with every job flexible for 12 h shifting passes the target while
    deadlines break; the total card is not green beside the danger callout."""
    html = rendered(LAB, all_open(a2_flex=1.0, a2_window=12 * H, a2_util=0.55))
    assert 'data-failure="a2_sla"' in html and "a2_target" not in LAB.failures_now(all_open(
        a2_flex=1.0, a2_window=12 * H, a2_util=0.55))
    tones = re.findall(r'class="([^"]*)" data-metric="a2_total_savings"', html)
    assert tones and not any("pl-metric--good" in t for t in tones)
    assert "deadlines broken" in html.split('data-metric="a2_total_savings"')[1][:600]


def test_act2_prompt_states_the_accounting_its_key_rests_on():
    """Class 16 (review): counted at the margin (night coal, 820 g/kWh) the moved load saves nothing or
    adds carbon (Siler-Evans et al. 2012), which would put the key at A; the prompt says the key counts
    each moved kWh at the night mix's intensity."""
    assert "counted at the night mix's intensity" in lab.ACT2_PREDICTION.prompt


def test_the_target_failure_lever_clears_it_alone_from_every_plan():
    for util in (0.5, 0.75, 0.95):
        for flex in (0.0, 0.3, 1.0):
            assert "a2_target" not in LAB.failures_now(all_open(a2_flex=flex, a2_util=util, a2_procure=1.0))


def test_shift_savings_are_labelled_an_upper_bound():
    """Moved load is served at the margin, not at the night's average (Siler-Evans,
    Azevedo and Morgan 2012, Environ. Sci. Technol. 46: average factors can grossly misestimate the
    avoided emissions); the card, the equations and the key's feedback say it is an upper bound."""
    html = rendered(LAB, all_open())
    assert "upper bound: night at its average 91.9 g/kWh" in html
    assert "Siler-Evans" in html and "is an upper bound" in html
    assert "upper bound" in lab.ACT2_PREDICTION.option("B").feedback


def test_a_plan_meets_every_act2_limit():
    assert LAB.failures_now(all_open(a2_window=12 * H, a2_procure=0.25)) == frozenset()


# ---- edges and the context -------------------------------------------------------------


def test_context_presets_the_pue():
    state = LAB.parse({"controls": {"context": "facility"}}, changed="context")
    assert state["a1_pue"] == C.PUE_INDUSTRY_AVG_2023
    state = LAB.parse({"controls": {"context": "board", "a1_pue": 1.4}}, changed="context")
    assert state["a1_pue"] == 1.0


def test_context_scales_tonnes_not_percentages():
    board = all_open(a1_demand=2.8)
    facility = all_open(a1_demand=2.8, context="facility", a1_pue=C.PUE_INDUSTRY_AVG_2023)
    assert lab.upgrade(facility).co2e_kg == pytest.approx(lab.upgrade(board).co2e_kg * C.PUE_INDUSTRY_AVG_2023)
    assert lab.upgrade(facility).change == lab.upgrade(board).change
    assert lab.plan(facility).co2e_week == pytest.approx(lab.plan(board).co2e_week * C.PUE_INDUSTRY_AVG_2023)
    assert lab.plan(facility).total_savings == lab.plan(board).total_savings


def test_region_changes_tonnes_only():
    coal, wind = all_open(a1_demand=2.8), all_open(a1_demand=2.8, a1_source="wind")
    assert lab.upgrade(wind).co2e_kg == pytest.approx(lab.upgrade(coal).co2e_kg * 11 / 820)
    assert lab.upgrade(wind).change == lab.upgrade(coal).change


# ---- the ledger record --------------------------------------------------------------


SPEC_RESULTS = {"eff_gain", "demand_growth", "net_carbon_change", "rebound", "flex_frac", "window_h", "util",
                "shift_eff", "savings_frac", "target_met"}


def test_record_holds_the_spec_ledger_fields():
    rec = record(LAB, all_open(a1_demand=2.8, a2_window=12 * H))
    res = rec["results"]
    assert SPEC_RESULTS <= set(res) and set(res) - SPEC_RESULTS == {"procured_frac", "total_savings_frac"}
    assert res["net_carbon_change"] == pytest.approx(0.4) and res["rebound"] == pytest.approx(1.8)
    assert res["savings_frac"] == pytest.approx(0.2322, abs=5e-5) and res["target_met"] is False
    assert res["window_h"] == 12 and res["flex_frac"] == pytest.approx(0.3) and res["util"] == pytest.approx(0.75)
    assert rec["answers"]["a1_predict"]["choice"] == "D" and rec["answers"]["a1_predict"]["correct"] is True
    assert rec["answers"]["a2_predict"]["choice"] == "B"                              # act2_decision
    assert rec["failures_active"] == ["a2_target"]                                  # constraint_hit
    assert rec["complete"] is True


def test_act2_results_come_from_act2_controls():
    """handbook/labs/v2_15.md §2: the upstream's act2_decision recorded the Act I sliders."""
    a = lab.results(all_open(a1_eff=3, a1_demand=5))
    b = lab.results(all_open())
    assert {k: a[k] for k in ("flex_frac", "window_h", "shift_eff", "savings_frac")} == \
           {k: b[k] for k in ("flex_frac", "window_h", "shift_eff", "savings_frac")}


def test_the_record_holds_the_spec_s_results():
    assert SPEC_RESULTS <= set(record(LAB, all_open())["results"])  # the contract test: the ledger keeps them all


def test_every_result_has_a_ledger_label():
    assert set(lab.results(all_open())) == {m.name for m in LAB.record_metrics}


def test_page_renders_complete():
    html = str(render_lab(LAB, all_open()))
    assert 'data-chart="a1_rebound"' in html and 'data-chart="a2_shift"' in html


def test_act2_reflection_b_is_answered_under_marginal_accounting_too():
    """Review (class 49): the page's own caveat (extra night load served at the margin, Siler-Evans et
    al. 2012) could make B ('past the first jobs the night grid is hardly cleaner') look right; its
    feedback says the margin lowers the whole curve while the plateau is F_eff stopping at the
    headroom, and the prompt asks about the charted saving."""
    feedback = lab.ACT2_REFLECTION.option("B").feedback.format(**lab.act2_facts())
    assert "margin" in feedback and "33.3 %" in feedback and "It is much cleaner" not in feedback
    assert "charted saving" in lab.ACT2_REFLECTION.prompt


def test_clean_supply_card_says_none_is_needed_when_shifting_alone_meets_the_target():
    """V2-15's review: the card read a bare "0 %" where shifting alone already reaches the target."""
    state = answered(LAB, {}, LAB.questions[-1].id, {"a2_flex": 1.0, "a2_window": 12 * H, "a2_util": 0.5, "a2_procure": 0.0})
    html = rendered(LAB, state)
    card = html[html.index('data-metric="a2_procure_needed"'):][:400]
    assert 'data-value="0.0"' in card and "none: shifting alone meets the target" in card
