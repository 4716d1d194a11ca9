"""The ML workflow model: golden vectors of handbook/labs/v1_03.md §4, and the properties behind them."""

from __future__ import annotations

import math

import pytest

from pylabs.physics import workflow as w

DAY, HOUR, WEEK = 86400.0, 3600.0, 7 * 86400.0
STAGES = [d * DAY for d in (5, 30, 60, 40, 10, 5)]  # handbook/labs/v1_03.md §2 defaults
WINDOW = 26 * WEEK


def race(decay: float, small_cycle_s: float = HOUR, large_cycle_s: float = WEEK) -> tuple[w.Learner, w.Learner]:
    small = w.Learner(0.90, 0.001, decay, small_cycle_s, 0.99)
    large = w.Learner(0.95, 0.0015, decay, large_cycle_s, 0.99)
    return small, large


# ---- Act I: the constraint tax (handbook/labs/v1_03.md §4, first two rows) -------------------------


def test_spec_v1_03_stage_5_golden_vector():
    """Spec (handbook/labs/v1_03.md §5) says 140 days, counting stage 5 itself; but the limit surfaces as stage 5 begins
    (discovery day 135 = 5 + 30 + 60 + 40), so only stages 2-4 are redone: 30 + 60 + 40 = 130 days
    (handbook/errata.md#e4)."""
    assert w.stage_cost_multiplier(5) == 16
    assert w.invalidated_time_s(STAGES, 5) == pytest.approx(130 * DAY, rel=1e-12)
    assert w.discovery_time_s(STAGES, 5) == pytest.approx(135 * DAY, rel=1e-12)


def test_spec_v1_03_stages_3_and_6_golden_vectors():
    assert (w.stage_cost_multiplier(3), w.stage_cost_multiplier(6)) == (4, 32)
    """Corrected as above: stage 3 redoes stage 2 (30 days), stage 6 redoes stages 2-5 (140 days); the
    spec's 90 / 145 counted the discovering stage itself."""
    assert w.invalidated_time_s(STAGES, 3) == pytest.approx(30 * DAY, rel=1e-12)
    assert w.invalidated_time_s(STAGES, 6) == pytest.approx(140 * DAY, rel=1e-12)


def test_a_constraint_found_as_data_collection_begins_redoes_nothing():
    """At N = 2 nothing has been built on the missing constraint yet (the spec's sum gave 30 days)."""
    assert w.invalidated_time_s(STAGES, 2) == 0


def test_a_constraint_found_at_stage_1_costs_nothing_extra():
    assert w.stage_cost_multiplier(1) == 1
    assert w.invalidated_time_s(STAGES, 1) == 0 and w.discovery_time_s(STAGES, 1) == 0


def test_upstream_summed_the_wrong_stages():
    """handbook/labs/v1_03.md §5: the stages from discovery onward are 15 days, not the work thrown away."""
    assert sum(STAGES[4:]) == pytest.approx(15 * DAY)
    assert w.invalidated_time_s(STAGES, 5) > 8 * sum(STAGES[4:])


def test_stage_outside_the_workflow_is_refused():
    with pytest.raises(ValueError, match="outside 1..6"):
        w.invalidated_time_s(STAGES, 7)
    with pytest.raises(ValueError, match="at least 1"):
        w.stage_cost_multiplier(0)


# ---- Act II: the iteration race (handbook/labs/v1_03.md §4) ------------------------------------------


def test_spec_v1_03_default_decay_0_95_never_crosses():
    """handbook/labs/v1_03.md §5: at r = 0.95 the small model saturates at 92 % below the large one's 95 % start."""
    small, large = race(0.95)
    assert w.accuracy_at_s(large, WINDOW) == pytest.approx(0.97209, abs=5e-6)
    assert w.accuracy_at_s(small, WINDOW) == pytest.approx(0.92000, abs=5e-6)
    assert w.accuracy_ceiling(small) == pytest.approx(0.92)
    assert math.isinf(w.crossover_s(small, large, WINDOW))


def test_spec_v1_03_decay_0_999_crosses_in_the_first_week():
    small, large = race(0.999)
    assert w.accuracy_at_s(large, WINDOW) == pytest.approx(0.98852, abs=5e-6)
    assert w.accuracy_at_s(small, WINDOW) == pytest.approx(0.99, abs=1e-12)
    assert w.time_to_reach_s(small, 0.95) == 52 * HOUR
    assert w.crossover_s(small, large, WINDOW) == 52 * HOUR
    assert w.time_to_reach_s(small, 0.97) == 73 * HOUR
    assert w.iterations_to_reach(large, 0.97) == 14
    assert w.time_to_reach_s(large, 0.97) == 2352 * HOUR


def test_spec_v1_03_linear_gains_as_in_the_chapter():
    small, large = race(1.0)
    assert w.accuracy_at_s(large, WINDOW) == pytest.approx(0.989, abs=1e-12)
    assert w.accuracy_at_s(small, WINDOW) == pytest.approx(0.99, abs=1e-12)
    assert w.time_to_reach_s(small, 0.95) == 50 * HOUR


def test_closed_form_iterations_agree_with_counting():
    for decay in (0.95, 0.99, 0.995, 0.999, 1.0):
        small, _ = race(decay)
        for target in (0.905, 0.93, 0.95, 0.97, 0.99):
            k = w.iterations_to_reach(small, target)
            if math.isinf(k):
                assert w.accuracy_ceiling(small) < target
                continue
            assert w.accuracy_after(small, k) >= target - 1e-12
            assert k == 0 or w.accuracy_after(small, k - 1) < target - 1e-12


def test_crossover_matches_a_brute_force_walk():
    """The interval-skipping search finds the same hour as stepping through every hour."""
    for decay, small_h, large_h in ((0.999, 24, 168), (0.99, 6, 48), (0.985, 12, 168), (0.999, 1, 1)):
        small, large = race(decay, small_h * HOUR, large_h * HOUR)
        found = w.crossover_s(small, large, WINDOW)
        walk = next((t * HOUR for t in range(int(WINDOW / HOUR) + 1)
                     if w.accuracy_at_s(small, t * HOUR) >= w.accuracy_at_s(large, t * HOUR) - 1e-12), math.inf)
        assert found == walk, (decay, small_h, large_h)


def test_daily_retraining_crossover_needs_weeks_not_hours():
    small, large = race(0.999, 24 * HOUR)
    assert 8 * WEEK < w.crossover_s(small, large, WINDOW) < 10 * WEEK


def test_a_crossover_after_the_window_does_not_count():
    small, large = race(0.999, 24 * HOUR)
    assert math.isinf(w.crossover_s(small, large, 4 * WEEK))


def test_a_learner_that_starts_ahead_has_crossed_at_zero():
    small, large = race(0.999)
    assert w.crossover_s(large, small, WINDOW) == 0


def test_bad_learners_are_refused():
    with pytest.raises(ValueError, match="decay"):
        w.Learner(0.9, 0.001, 1.5, HOUR)
    with pytest.raises(ValueError, match="cycle_s"):
        w.Learner(0.9, 0.001, 0.99, 0)


# ---- mobile retraining energy (handbook/labs/v1_03.md §4, last row) ------------------------------------


@pytest.mark.parametrize("cycle_h,wh,ratio", [(1, 54.0, 21.6), (4, 13.5, 5.4), (24, 2.25, 0.9)])
def test_spec_v1_03_daily_energy_golden_vectors(cycle_h, wh, ratio):
    energy = w.daily_retraining_energy_j(cycle_h * HOUR, 0.5 * HOUR, 4.5)
    assert energy / 3600 == pytest.approx(wh, rel=1e-12)
    assert energy / (2.5 * 3600) == pytest.approx(ratio, rel=1e-12)


def test_energy_depends_on_the_cycle_unlike_upstream():
    """handbook/labs/v1_03.md §5: upstream charged 24·P for every cycle."""
    one, four = (w.daily_retraining_energy_j(c * HOUR, 0.5 * HOUR, 5.0) for c in (1, 4))
    assert one == pytest.approx(4 * four)


def test_a_run_cannot_outlast_its_cycle():
    assert w.daily_retraining_energy_j(HOUR, 2 * HOUR, 4.5) == pytest.approx(24 * 4.5 * 3600)


def test_constraint_tax_bundles_the_spec_v1_03_stage_5_row():
    t = w.constraint_tax(STAGES, 5)
    assert (t.stage, t.multiplier) == (5, 16)
    assert (t.redone_s, t.found_s, t.project_s) == pytest.approx((130 * DAY, 135 * DAY, 150 * DAY))
    assert t.share == pytest.approx(130 / 150)
    assert t.project_s + t.redone_s == pytest.approx(280 * DAY)  # delivery (280, not 290)
