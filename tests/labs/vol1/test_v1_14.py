"""V1-14 The Silent Degradation Problem: answer keys proven by the physics (handbook/labs/v1_14.md),
the sampled monitor, failure states reached and left, context presets, edge values and the ledger."""

from __future__ import annotations

import itertools
import math

import pytest

from pylabs.framework.formats import fmt
from pylabs.framework.render import record
from pylabs.labs.vol1 import v1_14 as lab
from pylabs.labs.vol1 import v1_14_model as model
from tests.labs.helpers import answered, assert_key_proven, rendered

LAB = lab.LAB
WEEK, DAY = model.WEEK, model.DAY


def all_open(**controls):
    return answered(LAB, {}, through="a2_reflect", controls=controls)


def after_act1(**controls):
    return answered(LAB, {}, through="a1_reflect", controls=controls)


# ---- answer keys (handbook/labs/v1_14.md §2 "Key C holds", "Key B holds"; (4) golden vectors) -------


CONTEXTS = ("cloud", "edge", "mobile")


@pytest.mark.parametrize("context", CONTEXTS)
def test_act1_key_is_c_amount_crosses_at_3_53_weeks_in_every_context(context):
    """handbook/labs/v1_14.md §4: δ = 0.13 σ/wk crosses PSI 0.2 at 3.53 weeks (upstream said week 3 / week 8). The
    population crossing does not depend on the window, so the key is C in every product."""
    assert model.act1_truth() / WEEK == pytest.approx(3.53, abs=0.005)
    assert_key_proven(lab.ACT1_PREDICTION, "C", context)


def test_act1_ranges_are_ordered_and_the_linear_belief_lands_in_b():
    """Reading the alarm's 0.2 as a shift of 0.2 σ gives 0.2 / 0.13 = 1.54 weeks, inside B (1-2 weeks)."""
    opts = lab.ACT1_PREDICTION.options
    assert [o.low for o in opts[1:]] == [o.high for o in opts[:-1]] and opts[0].low is None and opts[-1].high is None
    assert [o.letter for o in opts if o.holds(0.2 / 0.13 * WEEK)] == ["B"]


@pytest.mark.parametrize("context", CONTEXTS)
def test_act2_key_is_a_weekly_monthly_quarterly_in_every_context(context):
    """handbook/labs/v1_14.md §4: T_op = 5.66 d (cloud), 30 d (edge, floor-capped), 87.8 d (mobile): the spec's key B,
    lettered A here. The question names all three products, so the key is the same in every context."""
    ops = {c: model.scenario_product(c).t_op / DAY for c in CONTEXTS}
    assert ops == pytest.approx({"cloud": 5.657, "edge": 30.0, "mobile": 87.83}, abs=0.005)
    assert lab.ACT2_PREDICTION.answer(context) == "A"


@pytest.mark.parametrize("context,t_star,t_max,annual", [
    ("cloud", 5.66, 8.0, 1_032_376), ("edge", 49.86, 30.0, 961_167), ("mobile", 87.83, 231.4, 249_342)])
def test_section4_product_goldens(context, t_star, t_max, annual):
    p = model.scenario_product(context)
    assert p.t_star / DAY == pytest.approx(t_star, abs=0.005)
    assert p.t_max / DAY == pytest.approx(t_max, abs=0.05)
    assert p.annual(p.t_op) == pytest.approx(annual, abs=1)


def test_edge_retrain_is_the_whole_fleet_not_one_device():
    """handbook/labs/v1_14.md §5: 1,000 devices × $50 + $8,000 = $58,000 per retrain."""
    assert model.scenario_product("edge").retrain_usd == 58_000


def test_act1_reflection_key_d_halving_the_threshold_takes_seven_tenths_of_the_time():
    """handbook/labs/v1_14.md §4 golden vector: binned PSI reaches 0.1 at Δ = 0.3235 σ and 0.2 at 0.4583 σ, so with
    Δ = δt the crossing comes at 0.706 of the time (D); not a half (B, PSI linear in the shift), a
    quarter (A) or the same week (C)."""
    assert lab.D.shift_for_psi(0.1) == pytest.approx(0.3235, abs=5e-5)
    assert lab.D.shift_for_psi(0.2) == pytest.approx(0.4583, abs=5e-5)
    amount = lab.FEATURES["amount"][1]
    ratio = model.crossing_s(amount, lab.C.PSI_MINOR_SHIFT) / model.crossing_s(amount, model.S.alarm_psi)
    assert ratio == pytest.approx(0.7058, abs=5e-4) and abs(ratio - 1 / math.sqrt(2)) < 0.01
    assert lab.ACT1_REFLECTION.answer() == "D"
    facts = lab.act1_facts("cloud")
    assert (facts["cross10"], facts["a1_crossing"], facts["time_ratio"]) == ("2.49 weeks", "3.53 weeks", "70.6 %")


@pytest.mark.parametrize("context,star,each", [("cloud", "5.66 days", "$516k"), ("edge", "49.9 days", "$425k"),
                                               ("mobile", "87.8 days", "$125k")])
def test_act2_reflection_key_b_retraining_and_staleness_are_equal_at_t_star(context, star, each):
    """At T* = √(2C/(V·r)), C/T* = V·r·T*/2: cloud 8,000 × 365 / 5.657 = $516k each, edge 58,000 × 365 /
    49.86 = $425k, mobile 30,000 × 365 / 87.83 = $125k (Harris 1913's EOQ has the same balance)."""
    p = model.scenario_product(context)
    assert lab.D.retrain_usd_per_year(p.t_star, p.retrain_usd) == pytest.approx(
        lab.D.staleness_usd_per_year(p.t_star, p.value, p.rate))
    facts = lab.act2_facts(context)
    assert (facts["star"], facts["retrain_star"], facts["stale_star"]) == (star, each, each)
    assert lab.ACT2_REFLECTION.answer(context) == "B"


@pytest.mark.parametrize("context", CONTEXTS)
def test_act2_reflection_distractors_give_their_own_physics_and_the_key_is_not_the_middle(context):
    """Review: the old A ("retraining about two thirds") and C ("staleness about two thirds") mirrored each
    other around the key B ("equal"), so a guesser picked the middle. Now A and C are different mistakes on the
    same side: staleness/retraining = (T/T*)², so staleness is half of retraining at T*/√2 (total +6.07 %)
    and retraining is four times staleness at T*/2 (total +25 %), both EOQ algebra (Harris 1913)."""
    p = model.scenario_product(context)
    for t, ratio, extra in ((p.t_star / math.sqrt(2), 0.5, 0.0607), (p.t_star / 2, 0.25, 0.25)):
        stale = lab.D.staleness_usd_per_year(t, p.value, p.rate)
        assert stale / lab.D.retrain_usd_per_year(t, p.retrain_usd) == pytest.approx(ratio)
        assert p.annual(t) / p.annual(p.t_star) - 1 == pytest.approx(extra, abs=5e-5)
    facts = lab.act2_facts(context)
    a, c = (o.feedback.format(**facts) for o in lab.ACT2_REFLECTION.options if o.letter in "AC")
    assert "6.07 %" in a and facts["star_root2"] in a and "25 %" in c and facts["half_star"] in c
    texts = {o.letter: o.text for o in lab.ACT2_REFLECTION.options}
    assert texts["A"].startswith("Staleness is about half") and texts["C"].startswith("Retraining is several")
    assert max(texts.values(), key=len) != texts["B"]


def test_every_pick_pattern_is_distinct_and_the_physics_matches_a():
    assert len(set(model.PATTERNS.values())) == 4
    found = tuple(model.nearest_cadence(model.scenario_product(c).t_op) for c in CONTEXTS)
    assert found == model.PATTERNS["A"]


def test_no_majority_or_odd_one_out_finds_the_pick_key():
    """Defect class 7: per product, the most common cadence over the four options is not the key's
    schedule, and every option has exactly one cadence no other option gives that product."""
    patterns = list(model.PATTERNS.values())
    majority = tuple(max(set(col), key=col.count) for col in zip(*patterns))
    assert majority not in patterns
    for pattern in patterns:
        unique = [i for i, c in enumerate(pattern) if sum(p[i] == c for p in patterns) == 1]
        assert len(unique) == 1, pattern


# ---- Act I: the sampled monitor -----------------------------------------------------------------


@pytest.mark.parametrize("feature,week", [("amount", 4), ("merchant", 8), ("location", 16)])
def test_weekly_checks_alarm_in_the_week_after_the_crossing(feature, week):
    """handbook/labs/v1_14.md §4: 3.53 / 7.64 / 15.28 weeks, so weekly alarms at weeks 4 / 8 / 16 (cloud window)."""
    state = LAB.parse({"controls": {"a1_feature": feature}}, changed="a1_feature")
    assert state["a1_drift"] == lab.FEATURES[feature][1]
    det = lab.monitor(state).run()
    assert det.alarm_s == pytest.approx(week * WEEK)
    assert math.ceil(model.crossing_s(lab.FEATURES[feature][1]) / WEEK) == week


def test_the_alarm_comes_while_accuracy_is_still_92_9_pct():
    """handbook/labs/v1_14.md §2: weekly detection at week 4, accuracy 92.9 %."""
    rec = record(LAB, after_act1())
    assert rec["results"]["detect_wk"] == 4.0
    assert rec["results"]["acc_at_detect"] == pytest.approx(0.92888, abs=1e-5)


@pytest.mark.parametrize("context", ["cloud", "edge", "mobile"])
def test_the_default_draw_alarms_at_week_4_in_every_context(context):
    state = LAB.parse({"controls": {"context": context}}, changed="context")
    assert state["a1_window"] == lab.WINDOWS[context]
    assert lab.monitor(state).run().alarm_s == pytest.approx(4 * WEEK)


def test_noise_floor_is_shown_and_follows_the_window():
    html = rendered(LAB, after_act1(a1_window=100))
    assert 'data-metric="a1_noise_floor" data-value="0.09"' in html


# ---- failure states reached and left through the instruments ---------------------------------------


def test_the_missed_alarm_names_only_levers_that_are_not_at_their_limit():
    """Defect class 3: with weekly checks, the lowest threshold and the fastest feature's drift already
    chosen, the failure offers none of them."""
    state = after_act1(a1_drift=0.01, a1_check=13, a1_threshold="t20")
    text = lab.missed_text(state, lab.monitor(state))
    assert "check more often" in text and "lower the threshold" in text
    state = after_act1(a1_drift=0.01, a1_check=1, a1_threshold="t10")
    assert "a1_missed" in LAB.failures_now(state)
    text = lab.missed_text(state, lab.monitor(state))
    assert "check more often" not in text and "lower the threshold" not in text
    assert "faster-moving feature" in text


def test_a_false_alarm_at_the_largest_window_does_not_ask_for_more_records():
    mon = lab.Monitor(0.13, 1, 0.2, int(lab.A1_WINDOW.max), 1)
    assert "sample more records" not in lab.false_alarm_text(mon, WEEK)
    assert "sample more records" in lab.false_alarm_text(lab.Monitor(0.13, 1, 0.2, 50, 1), WEEK)


def test_a_floor_no_cadence_can_hold_names_the_levers_that_can():
    """Defect class 3: drift in 3 days and a 93.5 % floor leave 0.214 days above the floor, under the
    slider's 1-day minimum, so the failure does not ask for a shorter cadence."""
    state = all_open(a2_drift_days=3, a2_floor=0.935, a2_cadence=1)
    assert lab.product(state).t_max / DAY == pytest.approx(0.005 / (0.07 / 3), rel=1e-9)
    html = rendered(LAB, state)
    assert 'data-failure="a2_floor_violated"' in html
    assert "Retrain at least that often" not in html and "lower the floor, or slow the drift" in html


def test_a_cadence_past_the_straight_lines_zero_is_said_to_be_outside_the_model():
    """Review: at the cloud's 0.5 pp/day a year's cadence takes the straight line to 0 %
    after 188 days (94 / 0.5); the card showed "0 %" and a cost built on -88 % accuracy as ordinary numbers."""
    html = rendered(LAB, all_open(a2_cadence=365))
    assert "outside the model: the straight line reaches 0 % after 188 days" in html
    assert "to 0 % after 188 days, long before each retrain" in html
    assert "outside the model" not in rendered(LAB, all_open(a2_cadence=180))


@pytest.mark.parametrize("answers", ["AAAA", "CDAB"])
def test_t_star_reads_as_t_star_in_rich_text(answers):
    """Review (screenshots): the framework's rich text has no backslash escape, so "T\\*" printed "T\\" and
    italicised the rest of the Act II feedback and a takeaway; the lab writes T∗ (U+2217)."""
    choices = dict(zip(("a1_predict", "a1_reflect", "a2_predict", "a2_reflect"), answers))
    html = rendered(LAB, answered(LAB, choices, through="a2_reflect"))
    assert "T\\" not in html and "T∗ = 5.66 days" in html


def test_edge_at_exactly_its_floor_interval_is_not_a_violation():
    state = answered(LAB, {}, "a2_reflect", {"context": "edge", "a2_drift_days": 30, "a2_value": 200,
                                             "a2_floor": 0.87, "a2_retrain": 8000, "a2_cadence": 30})
    assert "a2_floor_violated" not in LAB.failures_now(state)


# ---- context, presets, overrides -----------------------------------------------------------------------


def test_context_presets_set_each_products_inputs():
    for context, p in lab.PRODUCTS.items():
        state = LAB.parse({"controls": {"context": context}}, changed="context")
        assert (state["a2_drift_days"], state["a2_value"], state["a2_floor"], state["a2_retrain"]) == \
            (p["drift_days"], p["value"], p["floor"], p["retrain"])
        assert lab.product(state).t_star == pytest.approx(model.scenario_product(context).t_star)


def test_device_count_is_disabled_with_a_reason_outside_the_edge():
    html = rendered(LAB, all_open())
    start = html.index('data-control="a2_devices"')
    control = html[html.rindex("<div", 0, start):html.index("</div>", start)]
    assert " disabled" in control
    assert "Only the edge fleet pays per device" in html
    edge = answered(LAB, {}, "a2_reflect", {"context": "edge"})
    assert "Only the edge fleet pays per device" not in rendered(LAB, edge)
    more = answered(LAB, {}, "a2_reflect", {"context": "edge", "a2_devices": 10000})
    assert lab.product(more).retrain_usd == lab.product(edge).retrain_usd + 9000 * lab.S.ota_usd


def opened_in(context):
    answers = {q.id: {"choice": q.answer(), "locked_at": "2026-01-01T00:00:00Z"} for q in LAB.questions}
    return LAB.parse({"answers": answers, "controls": {"context": context}}, changed="context")


def test_the_context_visibly_changes_both_acts():
    cloud, mobile = rendered(LAB, opened_in("cloud")), rendered(LAB, opened_in("mobile"))
    assert 'data-metric="a1_noise_floor" data-value="0.0018"' in cloud
    assert 'data-metric="a1_noise_floor" data-value="0.018"' in mobile
    assert cloud.split('data-metric="a2_t_op"')[1][:60] != mobile.split('data-metric="a2_t_op"')[1][:60]


# ---- nothing given away before its lock ------------------------------------------------------------------


def test_act2_answer_is_not_on_the_page_before_its_lock():
    html = rendered(LAB, after_act1())
    act2 = html[html.index('data-act="2"'):]
    # the edge fleet's answer is its stated drift time by design (its floor is the 7 points it loses)
    for c in ("cloud", "mobile"):
        assert fmt(model.scenario_product(c).t_op, "days") not in act2


def test_act1_answer_is_not_in_the_act1_text_before_its_lock():
    html = rendered(LAB, LAB.default_state())
    assert fmt(model.act1_truth(), "weeks") not in html and "0.458" not in html


def test_the_reflections_keys_are_not_stated_before_their_locks():
    """Defect class 6: the equations panel and the prediction feedback do not give the halved threshold's
    1/√2, and the cost chart does not say how the two costs compare at T*."""
    state = answered(LAB, {}, through="a1_predict")
    facts = lab.act1_facts("cloud")
    shown = [str(lab.act1_math(state))] + [o.feedback.format(**facts) for o in lab.ACT1_PREDICTION.options]
    for text in shown:
        assert "√2" not in text and "square" not in text and "Δ²" not in text
    state = answered(LAB, {}, through="a2_predict")
    facts = lab.act2_facts("cloud")
    p = lab.product(state)
    shown = [str(lab.act2_math(state)), str(lab.act2_cost_chart(p, state["a2_cadence"] * DAY))]
    shown += [o.feedback.format(**facts) for o in lab.ACT2_PREDICTION.options]
    for text in shown:
        assert "1/T" not in text and "cost the same" not in text and "equal" not in text


def test_the_tiny_track_is_explained_and_the_hook_states_no_answer():
    assert "microcontroller" in LAB.track_notes["tiny"] and "opens in Cloud" in LAB.track_notes["tiny"]
    for answer in ("3.53", "weekly", "monthly", "quarterly", "equal", "√2"):
        assert answer not in LAB.hook


# ---- edge values of every instrument ------------------------------------------------------------------


def card_text(html, name):
    return html.split(f'data-metric="{name}"')[1].split('pl-metric__value">')[1].split("<")[0]


def test_no_drift_has_no_crossing_and_records_null():
    """Defect class 22: no crossing and no alarm read as words, not "∞"."""
    state = after_act1(a1_drift=0.0)
    assert lab.monitor(state).crossing_s == math.inf
    html = rendered(LAB, state)
    assert card_text(html, "a1_crossing") == "never" and card_text(html, "a1_alarm") == "none"
    assert "∞" not in html
    rec = record(LAB, answered(LAB, {}, "a2_reflect", {"a1_drift": 0.0}))
    assert rec["results"]["detect_wk"] is None and rec["results"]["acc_at_detect"] is None


# ---- the ledger record ---------------------------------------------------------------------------------


def test_record_holds_the_spec_fields():
    rec = record(LAB, all_open())
    assert rec["complete"] is True
    assert set(rec["results"]) == {"delta_sigma_per_wk", "check_interval_wk", "detect_wk", "acc_at_detect",
                                   "t_star_days", "t_op_days", "cadence_days", "annual_cost_usd", "floor_violated"}
    assert rec["results"]["floor_violated"] is True and rec["results"]["cadence_days"] == 28
    assert rec["results"]["t_op_days"] == pytest.approx(5.657, abs=1e-3)
    assert {m.name for m in LAB.record_metrics} == set(rec["results"])
    assert all(name == name.lower() for name in rec["results"])
    assert rec["answers"]["a1_predict"]["correct"] is True


def test_total_at_the_optimum_is_twice_the_retraining_spend():
    """handbook/labs/v1_14.md §5: the annual cost counts staleness too; at T* it is twice the retraining spend."""
    p = model.scenario_product("cloud")
    assert p.annual(p.t_star) == pytest.approx(2 * lab.D.retrain_usd_per_year(p.t_star, p.retrain_usd))


def test_options_cover_every_combination_of_features_and_thresholds():
    for feature, threshold in itertools.product(lab.FEATURES, lab.THRESHOLDS):
        state = LAB.parse({"controls": {"a1_feature": feature, "a1_threshold": threshold}}, changed="a1_feature")
        mon = lab.monitor(state)
        assert mon.crossing_s > 0 and mon.run().checks


# ---- the text follows its source (nothing typed) ---------------------------------------------------


def test_the_weekly_retrain_price_follows_the_scenarios_weekly_cadence(monkeypatch):
    edge, before = model.scenario_product("edge"), lab.act2_facts("cloud")["edge_weekly"]
    assert before == fmt(edge.annual(model.CADENCES["weekly"] * DAY), "usd") == "$3.08M"
    monkeypatch.setitem(model.CADENCES, "weekly", 14.0)
    assert lab.act2_facts("cloud")["edge_weekly"] == fmt(edge.annual(14 * DAY), "usd") != before


@pytest.mark.parametrize("context,window,each", [("cloud", "5,000", "$516k"), ("mobile", "500", "$125k")])
def test_the_takeaways_quote_the_context_locked_in(context, window, each):
    text = " ".join(lab.lab_takeaways(context))
    assert f"weekly check on {window} records" in text and f"({each} each per year" in text


def test_the_rule_of_thumb_takeaway_quotes_the_registry(monkeypatch):
    assert any(f"{fmt(lab.C.PSI_MINOR_SHIFT, 'num')} / {fmt(lab.C.PSI_MAJOR_SHIFT, 'num')} rule of thumb" in t
               for t in lab.lab_takeaways("cloud"))
    monkeypatch.setattr(lab.C, "PSI_MINOR_SHIFT", 0.15)
    monkeypatch.setattr(lab.C, "PSI_MAJOR_SHIFT", 0.3)
    assert any("0.15 / 0.3 rule of thumb" in t for t in lab.lab_takeaways("cloud"))


def test_act2_sliders_start_at_the_cloud_row_and_name_the_scenarios_drop():
    cloud, edge = model.PRODUCTS["cloud"], model.PRODUCTS["edge"]
    assert (lab.A2_DRIFT_DAYS.default, lab.A2_VALUE.default, lab.A2_FLOOR.default, lab.A2_RETRAIN.default,
            lab.A2_DEVICES.default) == (cloud["drift_days"], cloud["value"], cloud["floor"], cloud["retrain"],
                                        edge["devices"])
    assert lab.A2_DRIFT_DAYS.label == f"Days to lose {fmt(model.S.drop / model.PP, 'num')} points of accuracy"
    assert LAB.parse({})["a2_retrain"] == cloud["retrain"]
