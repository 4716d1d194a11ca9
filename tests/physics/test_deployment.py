"""The light barrier and the duty-cycle energy budget: handbook/labs/v1_00.md §4 golden vectors."""

from __future__ import annotations

import pytest

from pylabs.physics import constants as C
from pylabs.physics import deployment as dep

FIBRE = dep.signal_speed_m_per_s(C.SPEED_OF_LIGHT, C.FIBRE_GROUP_INDEX)
VACUUM = dep.signal_speed_m_per_s(C.SPEED_OF_LIGHT, 1.0)
DAY, YEAR = 86400.0, 365.25 * 86400.0


def test_fibre_carries_light_at_about_204_200_km_per_s():
    """handbook/labs/v1_00.md §3: v = c / 1.468 ≈ 204,200 km/s, about 4.9 µs per km."""
    assert FIBRE == pytest.approx(204_218e3, rel=1e-4)
    assert 1e3 / FIBRE == pytest.approx(4.897e-6, rel=1e-3)


def test_v1_00_golden_round_trip_over_2000_km_of_fibre():
    """handbook/labs/v1_00.md §4: d = 2,000 km → RTT 19.587 ms (half of the stated 40 ms)."""
    assert dep.propagation_rtt_s(2000e3, FIBRE) == pytest.approx(19.587e-3, abs=5e-7)


def test_v1_00_golden_london_new_york_fibre_and_vacuum():
    """handbook/labs/v1_00.md §4: d = 5,570 km → fibre 54.549 ms, vacuum 37.159 ms (handbook/labs/v1_00.md §5)."""
    assert dep.propagation_rtt_s(5570e3, FIBRE) == pytest.approx(54.549e-3, abs=5e-7)
    assert dep.propagation_rtt_s(5570e3, VACUUM) == pytest.approx(37.159e-3, abs=5e-7)


def test_v1_00_golden_farthest_server_for_a_10_ms_loop():
    """handbook/labs/v1_00.md §4: T = 10 ms, t_local = 0 / 3 ms → d_max 1,021.1 / 714.8 km."""
    assert dep.max_distance_m(10e-3, 0.0, FIBRE) == pytest.approx(1021.1e3, abs=50)
    assert dep.max_distance_m(10e-3, 3e-3, FIBRE) == pytest.approx(714.8e3, abs=50)


def test_route_factor_stretches_the_round_trip_and_shrinks_the_reach():
    assert dep.propagation_rtt_s(1e6, FIBRE, 1.5) == pytest.approx(1.5 * dep.propagation_rtt_s(1e6, FIBRE))
    assert dep.max_distance_m(10e-3, 0.0, FIBRE, 2.0) == pytest.approx(dep.max_distance_m(10e-3, 0.0, FIBRE) / 2)


def test_no_server_is_close_enough_when_local_work_fills_the_budget():
    assert dep.max_distance_m(10e-3, 10e-3, FIBRE) == 0.0
    assert dep.max_distance_m(10e-3, 20e-3, FIBRE) == 0.0


def test_v1_00_golden_always_on_mcu_drains_a_coin_cell_in_hours():
    """handbook/labs/v1_00.md §4: E = 0.675 Wh, P = 0.1 W, δ = 1 → 6.75 h."""
    p = dep.average_power_w(0.1, 10e-6, 1.0, 1.0)
    assert p == pytest.approx(0.1)
    assert dep.battery_life_s(C.CR2032_ENERGY_J, p) == pytest.approx(6.75 * 3600)


def test_v1_00_golden_duty_cycled_sepsis_sensor():
    """handbook/labs/v1_00.md §4: 2 ms every 1 s, 10 µW asleep → 0.20998 mW; CR2032 133.9 days; 2×AA 4.07 years."""
    p = dep.average_power_w(0.1, 10e-6, 2e-3, 1.0)
    assert p == pytest.approx(0.20998e-3, rel=1e-6)
    assert dep.battery_life_s(C.CR2032_ENERGY_J, p) / DAY == pytest.approx(133.9, abs=0.05)
    assert dep.battery_life_s(C.AA_PAIR_ENERGY_J, p) / YEAR == pytest.approx(4.07, abs=0.01)


def test_errata_mcu_at_0_3_w_still_lasts_weeks_not_six_months():
    """handbook/errata.md#e1: at 0.3 W active a CR2032 lasts 46.1 days instead of 133.9."""
    p = dep.average_power_w(0.3, 10e-6, 2e-3, 1.0)
    assert dep.battery_life_s(C.CR2032_ENERGY_J, p) / DAY == pytest.approx(46.1, abs=0.05)


def test_duty_cycle_is_capped_at_always_on():
    assert dep.duty_cycle(100e-3, 10e-3) == 1.0
    assert dep.average_power_w(3.0, 10e-6, 100e-3, 10e-3) == 3.0


def test_v1_00_golden_car_travel_during_a_5_ms_spike():
    """handbook/labs/v1_00.md §4, §5: 60 mph × 5 ms = 0.1341 m (not 15 cm)."""
    assert dep.travel_m(60 * 0.44704, 5e-3) == pytest.approx(0.1341, abs=5e-5)


def test_the_most_power_while_active_inverts_the_average():
    """Two AA cells (7.5 Wh) for six months (182.5 days) allow 1.712 mW on average; awake 2 ms a second
    with 10 µW asleep, the processor may draw up to 851.2 mW while computing (independent review)."""
    allowed = C.AA_PAIR_ENERGY_J / (182.5 * DAY)
    assert allowed == pytest.approx(1.7123e-3, rel=1e-4)
    ceiling = dep.max_active_power_w(allowed, 10e-6, 2e-3, 1.0)
    assert ceiling == pytest.approx(0.85117, rel=1e-4)
    assert dep.average_power_w(ceiling, 10e-6, 2e-3, 1.0) == pytest.approx(allowed)
    assert dep.max_active_power_w(allowed, 2e-3, 2e-3, 1.0) == 0.0  # asleep it already draws too much
    assert dep.max_active_power_w(allowed, 10e-6, 2.0, 1.0) == pytest.approx(allowed)  # never asleep
