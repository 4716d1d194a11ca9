"""Kernel launches, fusion and compile break-even: handbook/labs/v1_07.md §4 golden vectors."""

import math

import pytest

from pylabs.physics import constants as c
from pylabs.physics import kernels as k
from pylabs.physics.devices import A100, ORIN_NX

US = 1e-6
FUSION_TENSOR_BYTES = 1024 * 768 * 2  # handbook/labs/v1_07.md: a 1024 × 768 FP16 activation, 1,572,864 B


def kws(cpu_us=10.0, gpu_us=5.0, synchronous=False):
    return k.KernelStream(1000, cpu_us * US, gpu_us * US, synchronous)


def test_v1_07_golden_kws_async_is_half_busy_and_sync_a_third():
    """handbook/labs/v1_07.md §4: async T 10.0 ms, util 50.0 %; sync 15.0 ms, 33.3 %."""
    assert kws().seconds == pytest.approx(10e-3)
    assert kws().busy == pytest.approx(0.5)
    assert kws(synchronous=True).seconds == pytest.approx(15e-3)
    assert kws(synchronous=True).busy == pytest.approx(1 / 3)


def test_v1_07_golden_a_twice_faster_gpu_halves_utilisation_and_keeps_the_time():
    """handbook/labs/v1_07.md §4: GPU 2× faster → T 10.0 ms, util 25.0 %."""
    fast = kws(gpu_us=2.5)
    assert fast.seconds == pytest.approx(10e-3)
    assert fast.busy == pytest.approx(0.25)
    assert fast.launch_bound


def test_v1_07_golden_edge_dispatch():
    """handbook/labs/v1_07.md §4: KWS with edge t_cpu 50 µs → T 50 ms, util 10.0 %."""
    edge = kws(cpu_us=50.0)
    assert edge.seconds == pytest.approx(50e-3)
    assert edge.busy == pytest.approx(0.10)


def test_v1_07_golden_fused_half_the_kernels():
    """handbook/labs/v1_07.md §4: KWS fused f = 0.5 → 500 × 10 µs, T 5.0 ms, util 100 %."""
    fused = k.fused_stream(kws(), 0.5)
    assert fused.n_kernels == 500 and fused.gpu_s == pytest.approx(10 * US)
    assert fused.seconds == pytest.approx(5e-3)
    assert fused.busy == pytest.approx(1.0)


def test_fusion_keeps_gpu_work_and_rejects_impossible_fractions():
    assert k.fused_stream(kws(), 0.9).gpu_work_s == pytest.approx(kws().gpu_work_s)
    with pytest.raises(ValueError):
        k.fused_stream(kws(), 1.0)


def test_v1_07_golden_fusing_three_elementwise_ops_on_the_a100():
    """handbook/labs/v1_07.md §4: 3 ops, S = 1,572,864 B, 2.039 TB/s: t_cpu 10 µs 30 → 10 µs (3.0×);
    CUDA graphs 4.628 → 1.543 µs (3.0×)."""
    def chain(cpu_s, fused):
        return k.elementwise_chain_seconds(FUSION_TENSOR_BYTES, 3, A100.mem_bw, cpu_s, fused)
    assert FUSION_TENSOR_BYTES == 1_572_864
    assert chain(10 * US, False) == pytest.approx(30 * US)
    assert chain(10 * US, True) == pytest.approx(10 * US)
    graphs = c.CUDA_GRAPH_PER_KERNEL_S
    assert chain(graphs, False) == pytest.approx(4.628 * US, abs=0.001 * US)
    assert chain(graphs, True) == pytest.approx(1.543 * US, abs=0.001 * US)
    assert chain(graphs, False) / chain(graphs, True) == pytest.approx(3.0)


@pytest.mark.parametrize("n_ops", [1, 2, 3, 5, 8])
@pytest.mark.parametrize("cpu_us", [1.0, 10.0, 50.0])
@pytest.mark.parametrize("device", [A100, ORIN_NX], ids=["a100", "orin"])
def test_fusion_speedup_is_the_chain_length_in_either_regime(n_ops, cpu_us, device):
    """handbook/labs/v1_07.md §2: T_un / T_f = n, launch-bound or bandwidth-bound (upstream's 5× and 2.40× are
    wrong)."""
    un = k.elementwise_chain_seconds(FUSION_TENSOR_BYTES, n_ops, device.mem_bw, cpu_us * US, False)
    fu = k.elementwise_chain_seconds(FUSION_TENSOR_BYTES, n_ops, device.mem_bw, cpu_us * US, True)
    assert un / fu == pytest.approx(n_ops)
    assert k.elementwise_bytes(FUSION_TENSOR_BYTES, n_ops, False) / k.elementwise_bytes(
        FUSION_TENSOR_BYTES, n_ops, True) == pytest.approx(n_ops)


def test_v1_07_golden_compile_breakeven_cloud():
    """handbook/labs/v1_07.md §4: t_c 30 s, 1,450 → 2,150 img/s: N* = 133,607 (19.2 min at 10 M/day); 4 replicas
    534,429."""
    n = k.compile_breakeven_items(30.0, 1450.0, 2150.0)
    assert n == pytest.approx(133_607, abs=1)
    assert n / (10e6 / 86400) / 60 == pytest.approx(19.2, abs=0.05)
    assert k.compile_breakeven_items(30.0, 1450.0, 2150.0, compiles=4) == pytest.approx(534_429, abs=1)


def test_v1_07_golden_compile_breakeven_edge():
    """handbook/labs/v1_07.md §4: 150 → 222 img/s, 30 s → N* 13,875 (5.78 days at 2,400/day); 120 s → 55,500."""
    n = k.compile_breakeven_items(30.0, 150.0, 222.0)
    assert n == pytest.approx(13_875, abs=0.5)
    assert n / 2400 == pytest.approx(5.78, abs=0.005)
    assert k.compile_breakeven_items(120.0, 150.0, 222.0) == pytest.approx(55_500, abs=1)


def test_breakeven_is_where_the_net_saving_crosses_zero_and_never_if_compiled_is_slower():
    n = k.compile_breakeven_items(30.0, 1450.0, 2150.0, 2)
    assert k.compile_net_seconds_saved(n, 30.0, 1450.0, 2150.0, 2) == pytest.approx(0.0, abs=1e-9)
    assert math.isinf(k.compile_breakeven_items(30.0, 2000.0, 2000.0))
    assert math.isinf(k.compile_breakeven_items(30.0, 2000.0, 1500.0))


def test_a_large_gemm_is_compute_bound_on_the_a100():
    """4,096³ FP16: intensity 4096/3 ≈ 1,365 FLOP/B, above the A100 ridge (≈153): 2·4096³ / 312 TFLOP/s."""
    t = k.gemm_seconds(4096, 4096, 4096, 2, A100.peak_ops, A100.mem_bw)
    assert t == pytest.approx(2 * 4096 ** 3 / 312e12)
    small = k.gemm_seconds(64, 64, 64, 2, A100.peak_ops, A100.mem_bw)
    assert small > 2 * 64 ** 3 / 312e12  # a small one is bandwidth-bound


def test_launch_figures_are_the_cited_ones():
    assert c.KERNEL_LAUNCH_CPU_LOW_S == 5e-6 and c.KERNEL_LAUNCH_CPU_HIGH_S == 20e-6
    assert c.CUDA_GRAPH_PER_KERNEL_S == 1e-6


def test_v1_07_golden_edge_deployment_of_one_day_fails_and_a_week_pays():
    """handbook/labs/v1_07.md §4: 13,875 images at 2,400 a day: 5.78 days, so a one-day deployment fails."""
    day = k.CompiledDeployment(30.0, 150.0, 222.0, 1, 86400.0, 100 / 3600)
    assert day.volume == pytest.approx(2400)
    assert day.breakeven_s / 86400 == pytest.approx(5.78, abs=0.005)
    assert not day.pays_back and day.net_gpu_s < 0
    week = k.CompiledDeployment(30.0, 150.0, 222.0, 1, 7 * 86400.0, 100 / 3600)
    assert week.pays_back and week.net_gpu_s > 0
    n = day.breakeven
    assert day.gpu_s(n, True) == pytest.approx(day.gpu_s(n, False))  # the lines cross at N*


def test_a_deployment_says_what_each_item_saves_and_whether_anything_is_saved():
    """1/1,450 − 1/2,150 s = 224.5 µs per image (handbook/labs/v1_07.md §4: N* = 30 s ÷ that = 133,607); a slower
    compiled model saves nothing, so the page can say "never" instead of a bare ∞."""
    cloud = k.CompiledDeployment(30.0, 1450.0, 2150.0, 1, 86400.0, 10e6 / 86400)
    assert cloud.saved_per_item == pytest.approx(224.5e-6, rel=1e-3) and cloud.saves
    assert 30.0 / cloud.saved_per_item == pytest.approx(cloud.breakeven)
    slower = k.CompiledDeployment(30.0, 2000.0, 1500.0, 1, 86400.0, 1.0)
    assert slower.saved_per_item < 0 and not slower.saves and math.isinf(slower.breakeven)
