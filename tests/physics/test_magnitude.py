"""Golden vectors of handbook/labs/v1_01.md §4 for the magnitude ratios and the Iron Law terms."""

from __future__ import annotations

import pytest

from pylabs.physics import constants as C
from pylabs.physics import devices
from pylabs.physics import magnitude as m

# The spec's golden vectors round ResNet-50 to 25.6 M parameters; the registry keeps torchvision's exact
# 25,557,032 (0.17 % fewer), which the lab shows.
SPEC_RESNET50_PARAMS = 25.6e6


def test_the_registry_keeps_the_exact_resnet50_count():
    assert C.RESNET50_PARAMS == 25_557_032
    assert abs(C.RESNET50_PARAMS / SPEC_RESNET50_PARAMS - 1) < 2e-3


def test_v1_01_4_compute_ratio_at_the_best_ml_path_and_fp32():
    """handbook/labs/v1_01.md §4: H100 INT8 / M7 INT8 = 1.0307e6; FP32 / FP32 = 6.969e4."""
    assert m.ratio(C.H100_PEAK_INT8_DENSE, C.STM32H743_PEAK_INT8) == pytest.approx(1.0307e6, rel=1e-4)
    assert m.ratio(C.H100_PEAK_FP32, C.STM32H743_PEAK_FP32) == pytest.approx(6.969e4, rel=1e-4)
    assert m.orders_of_magnitude(1e6) == pytest.approx(6.0)


def test_v1_01_4_bandwidth_ratios():
    """handbook/labs/v1_01.md §4 as corrected (handbook/errata.md): the spec's 1,744.8x divided by 1.92 GB/s, the M7's
    INT8
    rate typed in as a bandwidth. The registry's on-chip bandwidth is the handbook/labs/v1_01.md §3 estimate of 1.9
    GB/s, and 3.35 TB/s (NVIDIA H100 SXM datasheet, HBM3) ÷ 1.9 GB/s = 1,763.2x; 67,000x against QSPI flash."""
    assert C.STM32H743_ONCHIP_BW == 1.9e9
    assert m.ratio(C.H100_HBM_BW, C.STM32H743_QSPI_BW) == pytest.approx(67_000, rel=1e-9)
    assert m.ratio(C.H100_HBM_BW, C.STM32H743_ONCHIP_BW) == pytest.approx(1763.2, rel=1e-4)


def test_v1_01_4_resnet50_bf16_batch1_on_the_h100_is_memory_bound():
    """handbook/labs/v1_01.md §4: t_mem 15.284 us, t_comp 8.288 us, ratio 1.844, memory-bound."""
    flop = m.inference_flop(C.RESNET50_MACS, 1)
    assert flop == pytest.approx(8.2e9)
    law = m.iron_law(flop, m.weight_bytes(SPEC_RESNET50_PARAMS, C.BYTES_PER_BF16),
                     C.H100_PEAK_BF16_DENSE, C.H100_HBM_BW)
    assert law.memory_s == pytest.approx(15.284e-6, rel=1e-4)
    assert law.compute_s == pytest.approx(8.288e-6, rel=1e-4)
    assert law.memory_over_compute == pytest.approx(1.844, rel=1e-3)
    assert law.bound == "memory" and law.overhead_s == 0.0
    assert law.total_s == pytest.approx(law.memory_s + law.compute_s)


def test_v1_01_4_fp32_weights_with_tf32():
    """handbook/labs/v1_01.md §4: 30.567 / 16.576 us."""
    law = m.iron_law(m.inference_flop(C.RESNET50_MACS, 1), m.weight_bytes(SPEC_RESNET50_PARAMS, C.BYTES_PER_FP32),
                     C.H100_PEAK_TF32_DENSE, C.H100_HBM_BW)
    assert law.memory_s == pytest.approx(30.567e-6, rel=1e-4)
    assert law.compute_s == pytest.approx(16.576e-6, rel=1e-4)


def test_v1_01_3_crossover_batch_is_1_84():
    """handbook/labs/v1_01.md §2: the crossover batch is 1.84, so batch 2 is compute-bound."""
    weights = m.weight_bytes(SPEC_RESNET50_PARAMS, C.BYTES_PER_BF16)
    per_sample = m.inference_flop(C.RESNET50_MACS, 1)
    b = m.crossover_batch(weights, per_sample, C.H100_PEAK_BF16_DENSE, C.H100_HBM_BW)
    assert b == pytest.approx(1.844, rel=1e-3)
    two = m.iron_law(m.inference_flop(C.RESNET50_MACS, 2), weights, C.H100_PEAK_BF16_DENSE, C.H100_HBM_BW)
    assert two.bound == "compute"


def test_v1_01_4_resnet50_int8_on_the_m7_does_not_fit_and_would_take_4_27_s():
    """handbook/labs/v1_01.md §2, §4: 25.6 MB > 2.097 MB flash (12.2x), 24.4x the 1 MB SRAM; compute 4.27 s."""
    weights = m.weight_bytes(SPEC_RESNET50_PARAMS, C.BYTES_PER_INT8)
    assert weights == pytest.approx(25.6e6)
    assert C.STM32H743_FLASH_BYTES == pytest.approx(2.097e6, rel=1e-3)
    assert m.ratio(weights, C.STM32H743_FLASH_BYTES) == pytest.approx(12.2, rel=3e-3)
    assert m.ratio(weights, C.STM32H743_SRAM_BYTES) == pytest.approx(24.4, rel=3e-3)
    law = m.iron_law(m.inference_flop(C.RESNET50_MACS, 1), weights, C.STM32H743_PEAK_INT8, C.STM32H743_ONCHIP_BW)
    assert law.compute_s == pytest.approx(4.27, rel=2e-3)
    assert law.bound == "compute"  # handbook/labs/v1_01.md §5: the M7 is compute-dominated


def test_v1_01_3_ds_cnn_keyword_spotter_fits_and_runs_in_2_8_ms():
    """handbook/labs/v1_01.md §2: ~5.4 M ops, ~2.8 ms on the M7 at its INT8 peak."""
    flop = m.inference_flop(C.KWS_DSCNN_MACS, 1)
    assert flop == pytest.approx(5.4e6)
    assert flop / C.STM32H743_PEAK_INT8 == pytest.approx(2.81e-3, rel=1e-2)
    assert m.weight_bytes(C.KWS_DSCNN_PARAMS, C.BYTES_PER_INT8) < C.STM32H743_AXI_SRAM_BYTES


def test_intensity_and_ridge_decide_the_bound_as_the_terms_do():
    flop = m.inference_flop(C.RESNET50_MACS, 1)
    data = m.weight_bytes(SPEC_RESNET50_PARAMS, C.BYTES_PER_BF16)
    ai = m.arithmetic_intensity(flop, data)
    assert ai == pytest.approx(160.16, rel=1e-3)
    assert ai < devices.H100.ridge  # below the ridge: memory-bound, as the terms say
    assert devices.attainable(C.H100_PEAK_BF16_DENSE, C.H100_HBM_BW, ai) == pytest.approx(C.H100_HBM_BW * ai)
