"""V1-00 The Architect's Portal: answer keys proven by the physics, gating, failures, the track."""

from __future__ import annotations

import dataclasses

import pytest

from pylabs.framework.render import record
from pylabs.labs.vol1 import v1_00 as lab
from pylabs.labs.vol1 import v1_00_model as model
from pylabs.physics import constants as C
from tests.labs.helpers import answered, assert_key_proven, rendered

LAB = lab.LAB
DAY = 86400.0


def all_open(**controls):
    return answered(LAB, {}, through="a2_reflect", controls=controls)


# ---- answer keys ---------------------------------------------------------------------


def test_act1_key_is_the_fibre_round_trip_of_the_spec():
    """§V1-00 (4): 2,000 km of fibre → 19.587 ms, half the measured 40 ms (spec error 1)."""
    assert model.act1_truth() == pytest.approx(19.587e-3, abs=5e-7)
    assert_key_proven(lab.ACT1_PREDICTION, "C")


def test_the_vacuum_estimate_and_the_upstream_claim_fall_in_other_options():
    """A student using the vacuum speed lands in B; the upstream "all 40 ms is light" in D."""
    vacuum = model.rtt_s(model.S.distance_m, "vacuum")
    assert vacuum == pytest.approx(13.343e-3, abs=5e-7)
    assert [o.letter for o in lab.ACT1_PREDICTION.options if o.holds(vacuum)] == ["B"]
    assert [o.letter for o in lab.ACT1_PREDICTION.options if o.holds(model.S.measured_rtt_s)] == ["D"]


def test_check2_key_is_the_set_of_fixes_that_work():
    """§V1-00 (3): Check 2 → {move closer (< ~1,000 km), on the vehicle}; the reach is 1,021.1 km."""
    assert model.REACH_M == pytest.approx(1021.1e3, abs=50)
    assert {f for f in model.FIXES if model.fix_works(f)} == {"closer", "vehicle"}
    assert lab.ACT1_REFLECTION.answer() == "B" and model.COMBOS["B"] == ("closer", "vehicle")


def test_check3_key_is_tinyml_and_unique():
    """§V1-00 (3): Check 3 → D TinyML, on a 2×AA-class battery (4.07 years); only one regime passes."""
    passing = [r.letter for r in model.REGIMES.values() if r.meets]
    assert passing == ["D"] and lab.ACT2_PREDICTION.answer() == "D"
    assert model.REGIMES["D"].life_s / (365.25 * DAY) == pytest.approx(4.07, abs=0.01)
    assert not model.REGIMES["A"].on_premises and model.REGIMES["A"].response_s > model.S.result_s
    assert model.REGIMES["B"].life_s < model.S.required_life_s and model.REGIMES["C"].life_s < model.S.required_life_s


@pytest.mark.parametrize("mcu_w", [0.1, 0.2, 0.3])
def test_check3_key_holds_across_the_assumed_mcu_power(monkeypatch, mcu_w):
    """ERRATA V1-00: the MCU's active power is an estimate (0.1–0.3 W); the answer stays D."""
    monkeypatch.setitem(model.REGIMES, "D", model.Regime("D", "TinyML", mcu_w, True))
    assert model.act2_answer() == "D"


def test_a_coin_cell_falls_short_of_six_months_at_one_reading_a_second():
    """§V1-00 (2b) error 3: CR2032 at 1 Hz lasts 133.9 days; always on only 6.75 h."""
    assert model.life_s(C.CR2032_ENERGY_J, C.MCU_ACTIVE_POWER_W) / DAY == pytest.approx(133.9, abs=0.05)
    assert model.life_s(C.CR2032_ENERGY_J, C.MCU_ACTIVE_POWER_W, 1.0, 1.0) == pytest.approx(6.75 * 3600)
    assert model.S.required_life_s / DAY == pytest.approx(182.6, abs=0.05)


def test_check1_key_is_serving_and_monitoring():
    assert lab.ACT2_REFLECTION.answer() == "C"


def test_the_car_travels_half_a_metre_while_light_alone_makes_the_trip():
    """§V1-00 (4): 60 mph × 5 ms = 0.1341 m; at the 19.6 ms floor, 0.525 m."""
    assert model.dep.travel_m(model.CAR_SPEED, 5e-3) == pytest.approx(0.1341, abs=5e-5)
    assert model.dep.travel_m(model.CAR_SPEED, model.act1_truth()) == pytest.approx(0.5254, abs=5e-4)


# ---- feedback quotes the physics --------------------------------------------------------


def test_act1_feedback_splits_the_measured_round_trip():
    html = rendered(LAB, answered(LAB, {"a1_predict": "D"}, through="a1_predict"))
    assert "19.6 ms" in html and "20.4 ms of the measured 40 ms" in html


def test_check3_feedback_says_the_coin_cell_fails():
    html = rendered(LAB, answered(LAB, {"a2_predict": "D"}, through="a2_predict"))
    assert "134 days" in html and "4.08 years" in html and "short of six months" in html


# ---- the context, failure states and edges ------------------------------------------------


def test_the_medium_changes_act1_instruments():
    fibre = lab.act1_trip(answered(LAB, {}, "a1_predict"))
    vacuum = lab.act1_trip(answered(LAB, {}, "a1_predict", {"context": "vacuum"}))
    assert vacuum.rtt_s == pytest.approx(fibre.rtt_s / C.FIBRE_GROUP_INDEX)
    assert vacuum.reach_m > fibre.reach_m


def test_loop_missed_is_reached_at_the_scenario_and_left_by_moving_closer():
    assert "a1_loop_missed" in LAB.failures_now(all_open())
    assert "a1_loop_missed" not in LAB.failures_now(all_open(a1_distance=500e3))
    assert 'data-failure="a1_loop_missed"' not in rendered(LAB, all_open(a1_distance=500e3))


def test_battery_short_is_reached_with_a_coin_cell_and_left_by_reading_less_often():
    assert "a2_battery_short" not in LAB.failures_now(all_open())
    assert "a2_battery_short" in LAB.failures_now(all_open(a2_battery="cr2032"))
    assert "a2_battery_short" not in LAB.failures_now(all_open(a2_battery="cr2032", a2_period_s=2.0))
    assert 'data-failure="a2_battery_short"' in rendered(LAB, all_open(a2_battery="cr2032"))


EXTREMES = [
    {}, {"a1_distance": 0, "a1_local": 0.02, "a1_budget": 0.001, "a1_route": 2.0},
    {"a1_distance": 5e6, "a1_budget": 0.1, "context": "vacuum"},
    {"a2_active_w": 100, "a2_awake_s": 0.1, "a2_period_s": 0.01, "a2_sleep_w": 1e-3, "a2_battery": "cr2032"},
    {"a2_active_w": 0.001, "a2_awake_s": 0.0001, "a2_period_s": 60, "a2_sleep_w": 1e-6, "a2_battery": "phone"},
]


@pytest.mark.parametrize("controls", EXTREMES)
def test_edges_give_finite_sensible_numbers(controls):
    s = all_open(**controls)
    trip, budget = lab.act1_trip(s), lab.act2_budget(s)
    for v in (trip.rtt_s, trip.response_s, trip.reach_m, budget.avg_w, budget.life_s, budget.always_on_s):
        assert v >= 0 and v == v and v != float("inf")
    assert 0 < budget.duty <= 1
    html = rendered(LAB, s)
    assert "nan" not in html.lower().replace("nanosecond", "") and "−" not in html.split("Key takeaways")[0]


# ---- the track ------------------------------------------------------------------------


@pytest.mark.parametrize("track", ["cloud", "edge", "mobile", "tiny"])
def test_the_track_is_recorded_and_shows_its_north_star(track):
    s = all_open(track=track)
    rec = record(LAB, s)
    assert rec["controls"]["track"] == track and rec["results"]["track"] == track
    html = rendered(LAB, s)
    assert f"Your north star · {lab.LABELS[track]}" in html
    assert 'data-metric="track_peak"' in html


def test_the_track_is_what_later_volume_one_labs_read():
    from pylabs.labs.vol1.contexts import TRACK, deployment
    assert TRACK == ("v1_00", "track") and LAB.control("track").values == deployment().values
    assert LAB.control("track").kind == "choice"


def test_the_tiny_north_star_is_a_duty_cycled_average():
    html = rendered(LAB, all_open(track="tiny"))
    assert "1 mW" in html and "512 KiB" in html


def test_record_keeps_the_checks_and_the_chosen_fixes():
    rec = record(LAB, all_open())
    assert rec["complete"] is True
    assert all(rec["answers"][q]["correct"] for q in ("a1_predict", "a1_reflect", "a2_predict", "a2_reflect"))
    assert rec["results"]["check2_fixes"] == "closer,vehicle"
    assert rec["results"]["a1_rtt"] == pytest.approx(model.act1_truth())
    assert record(LAB, LAB.default_state())["results"]["check2_fixes"] is None


def test_track_and_calculator_stay_locked_until_the_check3_lock():
    html = rendered(LAB, answered(LAB, {}, through="a1_reflect"))
    assert 'data-instruments="2" data-unlocked="false"' in html
    assert 'data-control="track"' in html.split('data-instruments="2"')[1]
    assert "Your north star" not in html



@pytest.mark.parametrize("name", ["a2_active_w", "a2_awake_s", "a2_period_s", "a2_sleep_w"])
def test_one_step_of_each_log_slider_changes_its_value(name):
    """An arrow key moves a log slider by one position; the two-figure value must follow."""
    control = LAB.control(name)
    start = control.position(control.default)
    up = control.parse(10 ** (start + control.position_step))
    assert up != control.default


@pytest.mark.parametrize("track", ["cloud", "edge", "mobile", "tiny"])
def test_the_recorded_track_opens_a_later_lab_in_it(track):
    """The whole hand-over: V1-00's ledger record, read as an earlier attempt by a lab declared with
    ``context_from=TRACK``, starts that lab's context in the chosen track."""
    from pylabs.labs import get
    from pylabs.labs.vol1 import contexts
    later = dataclasses.replace(get("v2_02"), context=contexts.deployment(), context_from=contexts.TRACK)
    rec = record(LAB, all_open(track=track))
    assert later.context_defaults({"v1_00": rec}) == {"context": track}


# ---- text follows its source -------------------------------------------------------------


def test_the_required_life_and_the_reading_period_in_the_text_follow_the_scenario(relabelled):
    """"six months" is S.required_life_s in months; "once a second", "every second" follow S.period_s."""
    before = rendered(LAB, answered(LAB, {"a2_predict": "B"}, through="a2_reflect", controls={"a2_battery": "cr2032"}))
    for text in ("run six months on two AA cells", "Battery flat before six months", "needed: six months (183 days)",
                 "more often than every six months", "reads vital signs once a second", "for 2 ms every second",
                 "awake 2 ms a second"):
        assert text in before, text
    changed = relabelled(required_life_s=365.25 * DAY, period_s=2.0)
    page = answered(changed.LAB, {"a2_predict": "B"}, through="a2_reflect", controls={"a2_battery": "cr2032"})
    after = rendered(changed.LAB, page)
    for text in ("run twelve months on two AA cells", "Battery flat before twelve months",
                 "needed: twelve months (365 days)", "more often than every twelve months",
                 "reads vital signs once every 2 s", "for 2 ms every 2 s", "awake 2 ms every 2 s"):
        assert text in after, text
    assert "six months" not in after and "a second" not in after and "every second" not in after
