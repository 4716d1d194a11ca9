"""pylabs.physics.reliability: the golden vectors of handbook/labs/v2_07.md §4, the Llama 3
405B run's published figures (handbook/devices.md §3, Dubey et al. 2024 sec. 3.3), properties, and errors."""

import inspect
import math

import pytest

from pylabs.physics import constants as C
from pylabs.physics import reliability as r

HOUR = 3600.0
MINUTE = 60.0


# ---- handbook/labs/v2_07.md §4 golden vectors ------------------------------------------------------


def test_v2_07_golden_act1_young_and_daly():
    """handbook/labs/v2_07.md §4: delta = 240 s, M = 28,800 s -> T_Y = 61.97 min, T_D = 59.33 min."""
    assert r.young_interval_s(240, 28800) / MINUTE == pytest.approx(61.97, abs=0.005)
    assert r.daly_interval_s(240, 28800) / MINUTE == pytest.approx(59.33, abs=0.005)


def test_v2_07_golden_act1_waste_at_30_min_and_at_young():
    """handbook/labs/v2_07.md §4: W(30 min, R = 600 s) = 0.1854; W(T_Y) = 0.1499."""
    assert r.waste_fraction(30 * MINUTE, 240, 28800, 600) == pytest.approx(0.1854, abs=5e-5)
    t_y = r.young_interval_s(240, 28800)
    assert r.waste_fraction(t_y, 240, 28800, 600) == pytest.approx(0.1499, abs=5e-5)


def test_v2_07_golden_cluster_mtbf():
    """handbook/labs/v2_07.md §4: N = 16,384, MTBF = 50,000 h -> M = 3.052 h."""
    assert r.cluster_mtbf_s(50_000 * HOUR, 16384) / HOUR == pytest.approx(3.052, abs=5e-4)


def test_v2_07_golden_synchronous_at_400_gbs():
    """handbook/labs/v2_07.md §4: 14e12 B at 400 GB/s -> C_w = 35 s, T_Y = 877.0 s, W = 0.1344."""
    mtbf = r.cluster_mtbf_s(50_000 * HOUR, 16384)
    write = r.checkpoint_write_s(14e12, 400e9)
    assert write == pytest.approx(35.0, rel=1e-12)
    t_y = r.young_interval_s(write, mtbf)
    assert t_y == pytest.approx(877.0, abs=0.05)
    assert r.waste_fraction(t_y, write, mtbf, 600) == pytest.approx(0.1344, abs=5e-5)


def test_v2_07_golden_asynchronous():
    """handbook/labs/v2_07.md §4: asynchronous, B_d2h = 50 GB/s -> delta = 0.01709 s, T = 35 s, W = 0.05988."""
    mtbf = r.cluster_mtbf_s(50_000 * HOUR, 16384)
    write = r.checkpoint_write_s(14e12, 400e9)
    stall = r.snapshot_stall_s(14e12, 16384, 50e9)
    assert stall == pytest.approx(0.01709, abs=5e-6)
    interval = max(write, r.young_interval_s(stall, mtbf))
    assert interval == write
    assert r.waste_fraction(interval, stall, mtbf, 600, lag_s=write) == pytest.approx(0.05988, abs=5e-6)


def test_v2_07_golden_synchronous_at_100_gbs():
    """handbook/labs/v2_07.md §4: 100 GB/s, synchronous -> T_Y = 1,753.9 s, W = 0.2143."""
    mtbf = r.cluster_mtbf_s(50_000 * HOUR, 16384)
    write = r.checkpoint_write_s(14e12, 100e9)
    t_y = r.young_interval_s(write, mtbf)
    assert t_y == pytest.approx(1753.9, abs=0.05)
    assert r.waste_fraction(t_y, write, mtbf, 600) == pytest.approx(0.2143, abs=5e-5)


@pytest.mark.parametrize("interval_min, waste", [(5, 0.185), (10, 0.140), (60, 0.228)])
def test_v2_07_act2_option_table(interval_min, waste):
    """handbook/labs/v2_07.md §2 Act II table: synchronous every 5 / 10 / 60 min wastes 18.5 / 14.0 / 22.8 %."""
    mtbf = r.cluster_mtbf_s(50_000 * HOUR, 16384)
    assert r.waste_fraction(interval_min * MINUTE, 35, mtbf, 600) == pytest.approx(waste, abs=5e-4)


def test_upstream_error_200_hours_over_16k_gpus_is_44_seconds():
    """handbook/labs/v2_07.md §2: 200 h per GPU over 16,384 GPUs is 44 s, not 44 min."""
    assert r.cluster_mtbf_s(200 * HOUR, 16384) == pytest.approx(43.95, abs=0.005)
    assert r.cluster_mtbf_s(200 * HOUR, 1024) / MINUTE == pytest.approx(11.72, abs=0.005)


# ---- published figures: the Llama 3 405B run (handbook/devices.md §3; Dubey et al. 2024) ---------------


def test_llama3_run_implies_50677_hours_per_gpu():
    """handbook/devices.md §3 and handbook/labs/v2_07.md §4: 16,384 GPUs x 54 days / 419 interruptions = 50,677 h per
    GPU."""
    per_gpu = r.gpu_mtbf_from_run_s(C.LLAMA3_405B_GPUS, C.LLAMA3_405B_SNAPSHOT_S,
                                    C.LLAMA3_405B_UNEXPECTED_INTERRUPTIONS)
    assert per_gpu / HOUR == pytest.approx(50_677, abs=0.5)


def test_llama3_run_has_one_interruption_per_3_1_hours():
    """handbook/devices.md §3: 'about one per 3.1 h' (the job MTBF is the per-GPU figure over the GPU count)."""
    per_gpu = r.gpu_mtbf_from_run_s(C.LLAMA3_405B_GPUS, C.LLAMA3_405B_SNAPSHOT_S,
                                    C.LLAMA3_405B_UNEXPECTED_INTERRUPTIONS)
    job = r.cluster_mtbf_s(per_gpu, C.LLAMA3_405B_GPUS)
    assert job / HOUR == pytest.approx(3.1, abs=0.05)
    assert job == pytest.approx(C.LLAMA3_405B_SNAPSHOT_S / C.LLAMA3_405B_UNEXPECTED_INTERRUPTIONS, rel=1e-12)


def test_llama3_largest_checkpoint_at_sustained_tectonic_bandwidth():
    """handbook/devices.md §3: 4 GB per GPU on 16,384 GPUs through 2 TB/s sustained takes about half a minute."""
    total = C.LLAMA3_CKPT_MAX_BYTES_PER_GPU * C.LLAMA3_405B_GPUS
    assert r.checkpoint_write_s(total, C.TECTONIC_SUSTAINED_BW) == pytest.approx(32.768, rel=1e-12)
    assert C.TECTONIC_PEAK_BW / C.TECTONIC_SUSTAINED_BW == pytest.approx(3.5, rel=1e-12)


def test_llama3_scale_with_a_young_optimum_can_reach_90_percent():
    """With the run's own MTBF and a 32.8 s write, a few-minute restart keeps goodput above 90 %."""
    per_gpu = r.gpu_mtbf_from_run_s(C.LLAMA3_405B_GPUS, C.LLAMA3_405B_SNAPSHOT_S,
                                    C.LLAMA3_405B_UNEXPECTED_INTERRUPTIONS)
    job = r.cluster_mtbf_s(per_gpu, C.LLAMA3_405B_GPUS)
    write = r.checkpoint_write_s(C.LLAMA3_CKPT_MAX_BYTES_PER_GPU * C.LLAMA3_405B_GPUS, C.TECTONIC_SUSTAINED_BW)
    t_y = r.young_interval_s(write, job)
    assert r.goodput_fraction(t_y, write, job, 3 * MINUTE) > C.LLAMA3_405B_EFFECTIVE_TRAINING


# ---- properties ---------------------------------------------------------------------


def test_young_minimises_the_first_order_waste():
    stall, mtbf, restart = 35.0, 10986.3, 600.0
    t_y = r.young_interval_s(stall, mtbf)
    best = r.waste_fraction(t_y, stall, mtbf, restart)
    for factor in (0.5, 0.9, 0.99, 1.01, 1.1, 2.0):
        assert r.waste_fraction(t_y * factor, stall, mtbf, restart) > best


def test_optimum_falls_as_one_over_root_n():
    per_gpu = 8 * HOUR * 1024
    one = r.young_interval_s(240, r.cluster_mtbf_s(per_gpu, 1024))
    four = r.young_interval_s(240, r.cluster_mtbf_s(per_gpu, 4096))
    assert one / four == pytest.approx(2.0, rel=1e-12)


def test_daly_is_below_young_for_small_stalls_and_m_beyond_2m():
    assert r.daly_interval_s(240, 28800) < r.young_interval_s(240, 28800)
    assert r.daly_interval_s(100, 40) == 40  # delta >= 2M: Daly's rule is T = M


def test_waste_caps_at_one_and_goodput_stays_non_negative():
    assert r.waste_fraction(3600, 600, 1000, 1800) == 1.0
    assert r.goodput_fraction(3600, 600, 1000, 1800) == 0.0


def test_snapshot_is_the_per_gpu_shard_over_pcie():
    """handbook/labs/v2_07.md §2: about 0.85 GB per GPU over 50 GB/s is about 17 ms."""
    shard = 14e12 / 16384
    assert shard / 1e9 == pytest.approx(0.854, abs=5e-4)
    assert r.snapshot_stall_s(14e12, 16384, 50e9) == pytest.approx(shard / 50e9, rel=1e-12)


def test_time_lost_counts_the_waste_against_the_wall_clock_not_the_compute():
    """The run's wall clock is C / (1 - W), so the loss is C·W/(1 - W): 17.5 days,
    not W·C = 15.0 days, for 107 days of compute at W = 14.0 %, and 94.2, not 50.1, at 10⁴ h per GPU.
    Source: goodput = useful / wall-clock time (Dubey et al. 2024, sec. 3.3.4, "effective training time")."""
    compute = 6 * 1e12 * 10e12 / (16384 * C.H100_PEAK_BF16_DENSE * 0.40)
    ten_min = r.waste_fraction(600, 35, 50_000 * HOUR / 16384, 600)
    assert compute / 86400 == pytest.approx(107.1, abs=0.05)
    assert r.time_lost_s(compute, ten_min) / 86400 == pytest.approx(17.47, abs=0.005)
    assert compute * ten_min / 86400 == pytest.approx(15.02, abs=0.005)  # the old card's W·C
    weak = r.waste_fraction(600, 35, 10_000 * HOUR / 16384, 600)
    assert r.time_lost_s(compute, weak) / 86400 == pytest.approx(94.2, abs=0.05)
    assert compute * weak / 86400 == pytest.approx(50.1, abs=0.05)
    assert compute + r.time_lost_s(compute, ten_min) == pytest.approx(compute / (1 - ten_min), rel=1e-12)
    assert r.time_lost_s(compute, 1.0) == math.inf and r.time_lost_s(compute, 0.0) == 0.0


# ---- errors name the value and the fix ------------------------------------------------


@pytest.mark.parametrize("call, message", [
    (lambda: r.cluster_mtbf_s(0, 8), "gpu_mtbf_s must be > 0"),
    (lambda: r.cluster_mtbf_s(3600, 0), "n_gpus must be >= 1"),
    (lambda: r.checkpoint_write_s(1e9, 0), "storage_bytes_per_s must be > 0"),
    (lambda: r.young_interval_s(-1, 100), "stall_s must be >= 0"),
    (lambda: r.waste_fraction(0, 1, 100, 0), "interval_s must be > 0"),
    (lambda: r.waste_fraction(10, 1, 100, 0, lag_s=math.nan), "lag_s must be >= 0"),
    (lambda: r.gpu_mtbf_from_run_s(8, 86400, 0), "interruptions must be > 0"),
    (lambda: r.time_lost_s(86400, 1.5), "waste_frac must be between 0 and 1"),
])
def test_bad_inputs_raise_with_the_fix(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_every_public_function_states_formula_and_source():
    for name, fn in inspect.getmembers(r, inspect.isfunction):
        if name.startswith("_") or fn.__module__ != r.__name__:
            continue
        lines = (inspect.getdoc(fn) or "").splitlines()
        assert lines and lines[0].strip(), name
        assert any(line.startswith("Source:") for line in lines), name


# ---- checkpoint_costs: one plan priced term by term ------------------------------------


def test_checkpoint_costs_reproduces_the_v2_07_golden_plans():
    """handbook/labs/v2_07.md §4: synchronous at T_Y wastes 0.1344; asynchronous at T = C_w wastes 0.05988."""
    gpu_mtbf = 50_000 * HOUR
    sync = r.checkpoint_costs(14e12, 16384, gpu_mtbf, 400e9, 50e9, 600, 877.0, asynchronous=False)
    assert sync.optimal_interval_s == pytest.approx(876.95, abs=0.005)
    assert sync.waste_frac == pytest.approx(0.1344, abs=5e-5) and sync.lag_s == 0
    late = r.checkpoint_costs(14e12, 16384, gpu_mtbf, 400e9, 50e9, 600, 1.0, asynchronous=True)
    assert late.interval_s == late.write_s == pytest.approx(35.0)  # raised to the write time
    assert late.optimal_interval_s == pytest.approx(35.0)
    assert late.waste_frac == pytest.approx(0.05988, abs=5e-6)
    assert late.goodput_frac == pytest.approx(1 - late.waste_frac, rel=1e-15)


def test_checkpoint_cost_shares_add_up_to_the_waste():
    plan = r.checkpoint_costs(14e12, 16384, 50_000 * HOUR, 400e9, 50e9, 600, 600, asynchronous=False)
    shares = plan.stall_frac + plan.rework_frac + plan.lag_frac + plan.restart_frac
    assert shares == pytest.approx(plan.waste_frac, rel=1e-12)
    assert plan.restart_frac == pytest.approx(600 / plan.mtbf_s, rel=1e-12)


def test_checkpoint_cost_shares_scale_down_where_the_waste_is_capped():
    plan = r.checkpoint_costs(14e12, 32768, 1e4 * HOUR, 100e9, 50e9, 1800, 3600, asynchronous=False)
    assert plan.waste_frac == 1.0 and plan.goodput_frac == 0.0
    assert plan.stall_frac + plan.rework_frac + plan.lag_frac + plan.restart_frac == pytest.approx(1.0)
