"""The Iron Law and the light barrier (pylabs.physics.ironlaw): handbook/labs/v1_02.md §4 golden
vectors, the ridges of handbook/labs/v1_02.md §3, and the upstream story's numbers reproduced to show why it was
wrong."""

from __future__ import annotations

import pytest

from pylabs.physics import constants as c
from pylabs.physics import devices, ironlaw

GB, MS, KM = 1e9, 1e-3, 1e3


def upgrade(d_bytes: float, intensity: float, overhead_s: float):
    u = ironlaw.compare(devices.A100, devices.H100, d_bytes, intensity * d_bytes, overhead_s)
    return u.before, u.after


def test_v1_02_golden_default_upgrade():
    """handbook/labs/v1_02.md §4: D 2 GB, AI 5, L 0.05 ms → H100 0.5970 + 0.01011 ms, A100 0.9809 + 0.03205 ms,
    speedup 1.6175, −38.18 %, memory share 90.85 %."""
    before, after = upgrade(2 * GB, 5, 0.05 * MS)
    assert after.memory_s / MS == pytest.approx(0.5970, abs=5e-5)
    assert after.compute_s / MS == pytest.approx(0.01011, abs=5e-6)
    assert after.total_s / MS == pytest.approx(0.6571, abs=5e-5)
    assert before.memory_s / MS == pytest.approx(0.9809, abs=5e-5)
    assert before.compute_s / MS == pytest.approx(0.03205, abs=5e-6)
    assert before.total_s / MS == pytest.approx(1.0629, abs=5e-5)
    assert ironlaw.speedup(before.total_s, after.total_s) == pytest.approx(1.6175, abs=5e-5)
    assert ironlaw.latency_reduction(before.total_s, after.total_s) == pytest.approx(0.3818, abs=5e-5)
    assert after.memory_share == pytest.approx(0.9085, abs=5e-5)
    assert after.bound == before.bound == "memory"


@pytest.mark.parametrize("overhead_ms,speed,cut", [(0.5, 1.3665, 0.268), (4.06, 1.0869, 0.080)])
def test_v1_02_golden_overhead_rows(overhead_ms, speed, cut):
    """handbook/labs/v1_02.md §4: L = 0.5 ms → 1.3665 (−26.8 %); L = 4.06 ms → 1.0869 (−8.0 %), the upstream
    anecdote."""
    before, after = upgrade(2 * GB, 5, overhead_ms * MS)
    assert ironlaw.speedup(before.total_s, after.total_s) == pytest.approx(speed, abs=5e-5)
    assert ironlaw.latency_reduction(before.total_s, after.total_s) == pytest.approx(cut, abs=5e-4)


def test_overhead_that_reproduces_an_8_percent_gain():
    """handbook/labs/v1_02.md §5 #1: an 8 % gain needs L ≈ 4.06 ms (1/(1 − 0.08) = 1.0870×)."""
    before, after = upgrade(2 * GB, 5, 0.0)
    overhead = ironlaw.overhead_for_speedup_s(1 / (1 - 0.08), before, after)
    assert overhead / MS == pytest.approx(4.06, abs=0.01)
    assert ironlaw.overhead_for_speedup_s(100.0, before, after) == 0.0  # unreachable: no negative overhead


def test_v1_02_golden_ridges_use_dense_peaks():
    """handbook/labs/v1_02.md §4, §5: ridges 295.34 (H100) and 153.02 (A100); 590 came from the sparse peak."""
    assert devices.H100.ridge == pytest.approx(295.34, abs=0.005)
    assert devices.A100.ridge == pytest.approx(153.02, abs=0.005)
    assert devices.ridge_point(c.H100_PEAK_BF16_SPARSE, c.H100_HBM_BW) == pytest.approx(590.7, abs=0.05)


def test_upstream_compute_ratio_is_3_17_not_6():
    """handbook/labs/v1_02.md §5 #1: dense 989.4 / 312 = 3.17×."""
    assert c.H100_PEAK_BF16_DENSE / c.A100_PEAK_BF16_DENSE == pytest.approx(3.171, abs=5e-4)


def test_upstream_model_gave_27_7_percent():
    """handbook/labs/v1_02.md §5: the upstream lab's own defaults (L 0.5 ms, A100 at 2,000 GB/s) gave a 27.7 % gain."""
    before = ironlaw.iron_law(2 * GB, 10 * GB, 2.0e12, 312e12, 0.5 * MS)
    after = ironlaw.iron_law(2 * GB, 10 * GB, 3.35e12, 989e12, 0.5 * MS)
    assert before.total_s / MS == pytest.approx(1.532, abs=5e-4)
    assert ironlaw.latency_reduction(before.total_s, after.total_s) == pytest.approx(0.277, abs=5e-4)


@pytest.mark.parametrize("route,rtt_ms", [(1.0, 29.380), (1.5, 44.070)])
def test_v1_02_golden_round_trip(route, rtt_ms):
    """handbook/labs/v1_02.md §4: d = 3,000 km, k = 1 / 1.5 → RTT 29.380 / 44.070 ms."""
    assert ironlaw.fibre_rtt_s(3_000 * KM, route) / MS == pytest.approx(rtt_ms, abs=5e-4)


def test_v1_02_golden_max_distance():
    """handbook/labs/v1_02.md §4: SLA 10 ms, t_inf 2 ms → d_max 816.9 km."""
    assert ironlaw.max_distance_m(10 * MS, 2 * MS) / KM == pytest.approx(816.9, abs=0.05)
    assert ironlaw.max_distance_m(10 * MS, 2 * MS, 2.0) / KM == pytest.approx(816.9 / 2, abs=0.05)
    assert ironlaw.max_distance_m(10 * MS, 12 * MS) == 0.0


def test_fibre_speed_is_about_204_000_km_per_s():
    """handbook/labs/v1_02.md §3: v = c / 1.468 ≈ 204,200 km/s ≈ 4.9 µs per km."""
    v = ironlaw.fibre_speed_m_per_s()
    assert v / KM == pytest.approx(204_218, abs=1)
    assert 1 * KM / v * 1e6 == pytest.approx(4.9, abs=0.01)


def test_round_trip_and_max_distance_invert_each_other():
    d = ironlaw.max_distance_m(10 * MS, 1.3 * MS, 1.4)
    assert ironlaw.fibre_rtt_s(d, 1.4) + 1.3 * MS == pytest.approx(10 * MS, rel=1e-12)


def test_terms_and_bound():
    law = ironlaw.iron_law(1.0, 1000.0, 1.0, 10.0, 0.5)
    assert (law.memory_s, law.compute_s, law.overhead_s, law.total_s) == (1.0, 100.0, 0.5, 101.5)
    assert law.bound == "compute"
    with pytest.raises(ValueError, match="non-negative"):
        ironlaw.iron_law(-1.0, 0.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="route factor"):
        ironlaw.fibre_rtt_s(1.0, 0.5)
    with pytest.raises(ValueError, match="exceed 1"):
        ironlaw.overhead_for_speedup_s(1.0, law, law)


def test_compare_gives_the_upgrade_on_paper_and_in_latency():
    u = ironlaw.compare(devices.A100, devices.H100, 2 * GB, 10 * GB, 0.05 * MS)
    assert u.compute_ratio == pytest.approx(989.4 / 312) and u.bandwidth_ratio == pytest.approx(3.35 / 2.039)
    assert u.speedup == pytest.approx(1.6175, abs=5e-5) and u.cut == pytest.approx(0.3818, abs=5e-5)
