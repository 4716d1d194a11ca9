"""V1-03 The Constraint Tax: answer keys proven by the physics (handbook/labs/v1_03.md §4), the corrected crossover,
feedback facts, failures reached and left, the context's energy gate, edges and the ledger record."""

from __future__ import annotations

import importlib
import json
import math

import pytest

from pylabs.framework.render import record
from pylabs.labs.vol1 import v1_03 as lab
from pylabs.labs.vol1 import v1_03_model as model
from pylabs.physics import constants
from tests.labs.helpers import answered, assert_key_proven, rendered

LAB = lab.LAB
HOUR = 3600.0


def all_open(**controls):
    return answered(LAB, {}, through="a2_reflect", controls=controls)


# ---- answer keys (handbook/labs/v1_03.md §4 golden vectors) ----------------------------------


CONTEXTS = ("cloud", "mobile")


@pytest.mark.parametrize("context", CONTEXTS)
def test_act1_key_is_d_130_days_redone_at_stage_5(context):
    """handbook/errata.md#e4: the limit surfaces as stage 5 begins (day 135), so stages 2-4 are redone,
    30 + 60 + 40 = 130 days of the 150-day plan, and delivery moves to day 280. The spec (handbook/labs/v1_03.md §5)
    140 days counted stage 5 itself, which had not begun."""
    t = model.SCENARIO_TAX
    assert model.act1_truth() == 130 * model.DAY
    assert (t.redone_s, t.found_s, t.project_s) == pytest.approx((130 * model.DAY, 135 * model.DAY, 150 * model.DAY))
    assert t.project_s + t.redone_s == pytest.approx(280 * model.DAY)
    assert lab.ACT1_PREDICTION.answer(context) == "D"
    assert_key_proven(lab.ACT1_PREDICTION, "D")


def test_act1_ranges_run_in_order_and_only_d_holds_130_days():
    options = lab.ACT1_PREDICTION.options
    assert [o.letter for o in sorted(options, key=lambda o: -1 if o.low is None else o.low)] == list("ABCD")
    assert [o.letter for o in options if o.holds(130 * model.DAY)] == ["D"]
    # each range holds the belief its feedback answers: redeploy 10, retrain 60, retrain + evaluate 100 days
    assert [o.letter for o in options for d in (10, 60, 100) if o.holds(d * model.DAY)] == ["A", "B", "C"]


def test_act1_is_not_the_recall_of_a_rule():
    """Act I used to ask for the 2^(N-1) rule's 16x, and option C stated the rule. Now the
    answer is the sum of the plan's stages, and no option names a doubling."""
    q = lab.ACT1_PREDICTION
    assert q.unit_fmt == "days" and q.shown_by == "a1_redone"
    assert not any("doubl" in o.text or "2^" in o.text for o in q.options)


def test_act1_feedback_quotes_the_computed_days():
    facts = lab.act1_facts()
    assert facts["a1_redone"] == "130 days" and facts["stage_sum"] == "30 + 60 + 40"
    assert (facts["project"], facts["delivery"], facts["share"]) == ("150", "280", "86.7 %")
    assert facts["redone6"] == "140 days" and facts["deploy_days"] == "10 days"
    assert facts["a1_redone"] in rendered(LAB, all_open())


def test_the_150_day_plan_is_hyphenated():
    """The page's "the 150 days project" read as a slip; the page says "150-day plan"."""
    html = rendered(LAB, all_open())
    assert "150 days project" not in html and "150-day plan" in html


def test_the_rule_of_thumb_is_not_called_physics():
    """2^(N-1) is a heuristic: the Act I answer is now the days redone, which the
    lab's model computes, and no text calls the rule 'physics'."""
    html = rendered(LAB, all_open())
    assert "physics gives <strong>130 days</strong>" in html
    assert "physics gives <strong>16" not in html


def test_rework_bars_and_their_labels_show_days():
    """The bars were days redone (30, 90, ...) labelled 2x...32x; labels now give the days."""
    html = str(lab.act1_chart(model.SCENARIO_TAX, list(model.SCENARIO_STAGES)))
    spec = json.loads(html.split('class="pl-chart__spec">')[1].split("</script>")[0])
    for trace in spec["data"]:
        for y, text in zip(trace["y"], trace["text"]):
            assert text in ("", f"{y:.0f} days"), (y, text)
    assert [y for t in spec["data"] for y in t["y"] if y] == [30, 90, 140, 130]


def test_a_discovery_as_data_collection_begins_redoes_nothing():
    assert lab.tax(all_open(a1_stage=2)).redone_s == 0
    assert lab.tax(all_open(a1_stage=6)).redone_s == 140 * model.DAY


@pytest.mark.parametrize("context", CONTEXTS)
def test_act2_key_is_b_the_small_model_draws_level_after_52_h(context):
    """handbook/labs/v1_03.md §4: at r = 0.999 the small model reaches 95 % after 52 h, before the large model's first
    weekly run (168 h): B, 1 day to 1 week."""
    r = model.SCENARIO_RACE
    assert r.crossover_s == 52 * HOUR
    assert r.final(r.small) == pytest.approx(0.99) and r.final(r.large) == pytest.approx(0.98852, abs=5e-6)
    assert r.to_target_s(r.small) == 73 * HOUR and r.to_target_s(r.large) == 2352 * HOUR
    assert lab.ACT2_PREDICTION.answer(context) == "B"
    assert_key_proven(lab.ACT2_PREDICTION, "B")


def test_act2_ranges_run_in_order_and_never_falls_in_d():
    options = lab.ACT2_PREDICTION.options
    assert [o.letter for o in sorted(options, key=lambda o: -1 if o.low is None else o.low)] == list("ABCD")
    assert [o.letter for o in options if o.holds(math.inf)] == ["D"]


def test_spec_v1_03_error_1_upstream_decay_has_no_crossover():
    """At r = 0.95 the small model's ceiling is 92 % < 95 %: it never draws level (range D)."""
    r = model.UPSTREAM_RACE
    assert math.isinf(r.crossover_s)
    assert lab.w.accuracy_ceiling(r.small) == pytest.approx(0.92)
    assert r.final(r.large) == pytest.approx(0.97209, abs=5e-6)


def test_the_crossover_is_reachable_with_the_instruments():
    """The r slider moves the lab between the two regimes: no crossover at its minimum, one at its default."""
    assert math.isinf(lab.race(all_open(a2_decay=0.95)).crossover_s)
    assert lab.race(all_open(a2_decay=0.99)).crossover_s == 69 * HOUR
    assert lab.race(all_open(a2_decay=1.0)).crossover_s == 50 * HOUR


def test_act2_feedback_quotes_the_computed_race():
    facts = lab.act2_facts()
    assert facts["a2_crossover"] == "52 h" and facts["head_start"] == "5 pp"
    assert (facts["day_runs"], facts["day_gain"]) == ("24", "2.37 pp")
    assert facts["late_share"] == "95 %" and facts["daily_ratio"] == "30.5×"  # 0.999^51; 1,584 h / 52 h
    assert facts["a2_crossover"] in rendered(LAB, all_open())


def test_act2_reflection_daily_runs_catch_up_after_more_runs_not_the_same():
    """Daily retraining (what the phone's budget allows) draws level after 66 runs (66 days, 1,584 h), not
    after the hourly race's 52: the weekly model gains meanwhile (to 96.3 %)."""
    daily = model.DAILY_RACE
    assert daily.crossover_s == 1584 * HOUR
    assert lab.race(all_open(a2_small_cycle="24")).crossover_s == daily.crossover_s
    facts = lab.act2_facts()
    assert (facts["daily_runs"], facts["hourly_runs"], facts["large_by_then"]) == ("66", "52", "96.3 %")
    assert facts["daily_final"] == "99.0 %"


def test_reflection_keys():
    assert lab.ACT1_REFLECTION.answer() == "A" and lab.ACT2_REFLECTION.answer() == "C"


def test_act1_reflection_days_barely_grow_from_stage_5_to_6():
    """The rule doubles (16x to 32x); the days redone go from 130 to 140, +10 (deployment's days)."""
    five, six = (lab.tax(all_open(a1_stage=n)) for n in (5, 6))
    assert (six.multiplier / five.multiplier, (six.redone_s - five.redone_s) / model.DAY) == (2, 10)


def test_the_context_moves_no_curve():
    """handbook/labs/v1_03.md §5: the context decides which cycles are allowed, not the race itself."""
    cloud, phone = lab.race(all_open(context="cloud")), lab.race(all_open(context="mobile"))
    assert cloud == phone


# ---- mobile energy (handbook/labs/v1_03.md §4, last row) -----------------------------------------


@pytest.mark.parametrize("cycle,ratio,over", [("1", 21.6, True), ("4", 5.4, True), ("24", 0.9, False)])
def test_spec_v1_03_energy_against_the_budget(cycle, ratio, over):
    s = all_open(context="mobile", a2_small_cycle=cycle)
    assert lab.energy_j(s) / s["a2_budget"] == pytest.approx(ratio, rel=1e-12)
    assert lab.energy_over(s) is over


def test_daily_retraining_on_a_phone_still_catches_up_within_the_window():
    r = model.DAILY_RACE
    assert 9 * 7 * model.DAY < r.crossover_s < r.window_s


# ---- the context: what it shows and what it disables -----------------------------------------------------


def _control(html, name):
    start = html.index(f'data-control="{name}"')
    return html[html.rindex("<div", 0, start):html.index("</div>", start)]


def test_cloud_disables_the_phone_controls_with_the_reason():
    html = rendered(LAB, all_open(context="cloud"))
    assert " disabled" in _control(html, "a2_power") and "no battery" in html
    assert 'data-metric="a2_energy_ratio"' not in html
    phone = rendered(LAB, all_open(context="mobile"))
    assert " disabled" not in _control(phone, "a2_power")
    assert 'data-metric="a2_energy_ratio"' in phone and 'data-metric="a2_energy_day"' in phone


def test_a_new_attempt_opens_in_the_track_chosen_in_v1_00():
    earlier = {"v1_00": {"controls": {"track": "mobile"}, "results": {}, "complete": True}}
    assert LAB.context_defaults(earlier) == {"context": "mobile"}
    assert LAB.context_defaults({"v1_00": {"controls": {"track": "tiny"}, "results": {}, "complete": True}}) == {}


def test_edge_and_tiny_tracks_are_explained_on_the_page():
    """A track the lab does not offer is named on the page with the reason."""
    assert set(LAB.track_notes) == {"edge", "tiny"}
    assert LAB.hook and "130" not in LAB.hook and "52" not in LAB.hook


# ---- edges of every instrument -------------------------------------------------------------------


def test_a_small_model_slower_than_the_large_one_still_has_a_sensible_crossover():
    r = lab.race(all_open(a2_small_cycle="168", a2_large_cycle="1"))
    assert math.isinf(r.crossover_s) or r.crossover_s >= 0


# ---- nothing typed, nothing given away, the ledger -----------------------------------------------------


def test_the_stakeholders_do_not_state_the_answers():
    before = rendered(LAB, LAB.default_state())
    assert "130 days" not in before and "280" not in before
    act2 = rendered(LAB, answered(LAB, {}, through="a1_reflect"))
    story = act2[act2.index('data-act="2"'):]
    assert "52 h" not in story and "catches up after" not in story


def test_record_holds_the_spec_ledger_fields():
    rec = record(LAB, all_open(context="mobile"))
    assert set(rec["results"]) == {m.name for m in LAB.record_metrics} == {
        "discovery_stage", "multiplier", "invalidated_days", "t_cycle_small", "t_cycle_large", "r",
        "crossover_h", "gates", "energy_fail"}
    res = rec["results"]
    assert (res["discovery_stage"], res["multiplier"], res["invalidated_days"]) == (5.0, 16.0, 130.0)
    assert res["crossover_h"] == 52.0 and res["r"] == 0.999 and res["energy_fail"] is True
    assert res["gates"] == "accuracy, iteration"  # the passed gates in words (review: the page printed keys)
    assert rec["answers"]["a1_predict"]["correct"] is True and rec["context"] == "mobile"


def test_no_crossover_is_kept_as_null_in_the_ledger():
    assert record(LAB, all_open(a2_decay=0.95))["results"]["crossover_h"] is None


# ---- text follows its source -------------------------------------------------------------


def test_the_phone_power_range_in_the_help_follows_the_registry(monkeypatch):
    """"3 to 5 W" is C.PHONE_SUSTAINED_POWER_W to C.PHONE_SUSTAINED_POWER_HIGH_W, read when the lab loads."""
    assert "phones hold about 3 to 5 W before they throttle" in rendered(LAB, all_open(context="mobile"))
    monkeypatch.setattr(constants, "PHONE_SUSTAINED_POWER_W", 2.0)
    monkeypatch.setattr(constants, "PHONE_SUSTAINED_POWER_HIGH_W", 6.0)
    try:
        changed = importlib.reload(lab)
        phone = answered(changed.LAB, {}, through="a2_reflect", controls={"context": "mobile"})
        assert "phones hold about 2 to 6 W before they throttle" in rendered(changed.LAB, phone)
    finally:
        monkeypatch.undo()
        importlib.reload(lab)


def test_the_daily_energy_budget_in_the_scenario_follows_its_source(relabelled):
    """The Mobile scenario states the budget and its share of the battery, both computed."""
    text = " ".join(lab.LAB.acts[1].scenario())
    assert "by default 2.5 Wh, 19.7 % of a 12.7 Wh battery" in text
    changed = relabelled(budget_j=5 * 3600.0)
    assert "by default 5 Wh, 39.4 % of a 12.7 Wh battery" in " ".join(changed.LAB.acts[1].scenario())


# ---- independent review ------------------------------------------------------


@pytest.mark.parametrize("context", CONTEXTS)
def test_a_race_that_never_ends_says_never_not_infinity(context):
    """Review, defect class 22: at r = 0.95 the crossover and the small model's time to target do not
    exist; the cards and the gates say so in words instead of printing "∞" (the math peek's A∞ is a
    symbol and stays)."""
    from tests.labs.reading import page_text
    text = page_text(rendered(LAB, all_open(context=context, a2_decay=0.95)))
    assert text.replace("A ∞", "").count("∞") == 0
    assert "Small model catches the large one at never" in text
    assert "Small model reaches the target after never" in text


def test_the_race_table_lists_each_time_once():
    """Review (F): with a 4-week window the table listed 672 h twice (four weeks and the window's end)."""
    html = str(lab.act2_chart(lab.race(all_open(a2_window=4 * 604800))))
    table = html.split("<table", 1)[1]
    assert table.count("<td>672 h</td>") == 1


def test_the_chart_summary_separates_the_stage_from_its_days():
    """Review (F): "at stage 6 4 days" ran two numbers together."""
    short = all_open(a1_stage=1, a1_days_2=86400, a1_days_3=86400, a1_days_4=86400, a1_days_5=86400)
    html = str(lab.act1_chart(lab.tax(short), lab.stage_durations(short)))
    assert "at stage 6 4 days" not in html and "at stage 6, 4 days" in html


def test_the_ledger_names_the_gates_passed_in_words():
    """Review (ledger page): the record kept the gates' keys ("target,crossover,energy"),
    which the ledger page printed as they were."""
    from pylabs.course.describe import result_rows
    rows = dict(result_rows(LAB, record(LAB, all_open(context="mobile", a2_small_cycle="24"))["results"], True))
    assert rows["Constraint gates passed"] == "accuracy, iteration, energy"
    rows = dict(result_rows(LAB, record(LAB, all_open(a2_decay=0.95))["results"], True))
    assert rows["Constraint gates passed"] == "none"


def test_nothing_before_the_lock_says_every_earlier_stage_is_redone_or_that_the_fast_model_wins():
    """Review: the scenario's "A constraint recorded at problem definition shapes all
    of them" and the reading list's "invalidates the work built before it" paraphrased key D of Act I
    ("every stage since problem definition"); "when a weaker model that trains fast wins" presupposed
    the crossover that option D of Act II denies. The reading list's first item also printed as
    "between them.," in the folded summary."""
    from tests.labs.reading import page_text
    text = page_text(rendered(LAB, LAB.default_state()))
    for phrase in ("shapes all of them", "invalidates the work built before it", "trains fast wins", "them.,"):
        assert phrase not in text, phrase


def test_stecklein_is_cited_as_estimated_not_measured():
    """Review (class 9): Stecklein et al. 2004 derive the escalation with three cost-estimation methods
    (bottom-up, total cost breakdown, top-down hypothetical project; NTRS 20100036670): not measured."""
    html = rendered(LAB, all_open())
    assert "measured escalation" not in html and "29 to over 1,500×" in html


def test_the_daily_reflection_quotes_the_card_it_asks_about():
    """Review: the Act II reflection's feedback gave the daily crossover as "66 days"
    while the card, with the small model on a 24 h cycle, reads "1,584 h"; it now quotes both."""
    from tests.labs.reading import page_text
    state = all_open(a2_small_cycle="24")
    text = page_text(rendered(LAB, state))
    card = lab.M["a2_crossover"].text(lab.race(state).crossover_s)
    assert card == "1,584 h" and lab.act2_facts()["daily_crossover"] == "1,584 h (66 days)"
    assert f"After 66 runs, {card} (66 days), instead of 52" in text


def test_the_phone_battery_cites_a_page_that_states_it():
    """Review (defect class 25): the 12.7 Wh cited Apple's newsroom, which gives no battery figure, and
    said "teardowns". The figure is the Chinese regulatory listing's 3,274 mAh / 12.70 Wh for the iPhone 15
    Pro, as reported (thetechnext.com, MySmartPrice, September 2023)."""
    spec = constants.REGISTRY["PHONE_BATTERY_J"]
    assert spec.value == pytest.approx(12.70 * 3600)
    assert "apple.com" not in spec.url and "12.70 Wh" in spec.source


def test_a_crossover_the_phone_cannot_afford_is_not_green():
    """Review (defect class 7, a green card beside a failure): in the Mobile context the hourly race
    catches up after 52 h, but hourly retraining is 21.6x the energy budget; the card was green beside
    "Retraining drains the phone". It is neutral there and says why, and green again at a daily cycle."""
    over = str(lab.act2_instruments(all_open(context="mobile")))
    card = over.split('data-metric="a2_crossover"')[0].rsplit("<div", 1)[1]
    assert "pl-metric--good" not in card and "over the energy budget" in over
    daily = str(lab.act2_instruments(all_open(context="mobile", a2_small_cycle="24")))
    assert "pl-metric--good" in daily.split('data-metric="a2_crossover"')[0].rsplit("<div", 1)[1]
    cloud = str(lab.act2_instruments(all_open()))
    assert "pl-metric--good" in cloud.split('data-metric="a2_crossover"')[0].rsplit("<div", 1)[1]


def test_option_a_feedback_labels_the_data_stage_as_the_labs_model():
    """Review (class 8): that a memory limit invalidates the collected data is this lab's model (the
    chapter's case discards the whole project), not a fact of every project; A's feedback now says so,
    as B's and C's do."""
    feedback = next(o for o in lab.ACT1_PREDICTION.options if o.letter == "A").feedback
    assert "in this lab's model" in feedback
