"""The Volume I device table (handbook/devices.md) and the roofline helpers."""

import pytest

from pylabs.physics import constants as c
from pylabs.physics import devices


def test_h100_is_dense_bf16_on_hbm3():
    assert devices.H100.peak_ops == pytest.approx(989.4e12)
    assert devices.H100.mem_bw == pytest.approx(3.35e12)
    assert devices.H100.ridge == pytest.approx(295.3, abs=0.1)  # handbook/devices.md §1: 989.4 / 3.35


def test_orin_nx_peak_is_the_derived_dense_fp16_rate_not_100_tops():
    """handbook/devices.md: 8 SM × 0.918 GHz × 2,048 = 15.0 TFLOP/s; ridge FP16 147, INT8 294 op/B."""
    assert devices.ORIN_NX.peak_ops == pytest.approx(8 * 0.918e9 * 2048, rel=1e-3)
    assert devices.ORIN_NX.ridge == pytest.approx(147, abs=0.5)
    assert devices.ridge_point(c.ORIN_NX_PEAK_INT8_DENSE, c.ORIN_NX_MEM_BW) == pytest.approx(294, abs=0.5)
    assert c.ORIN_NX_PEAK_INT8_SPARSE_TOTAL / devices.ORIN_NX.peak_ops > 6


def test_mcu_and_phone_assumptions_are_marked():
    assert devices.STM32H743.peak_ops == pytest.approx(0.96e9)
    assert devices.STM32H743.mem_bytes == 512 * 1024
    assert set(devices.STM32H743.assumed) == {"mem_bw", "power_w"}
    assert "mem_bw" in devices.A17_PRO.assumed


def test_a100_bandwidth_is_the_sxm_80gb_part():
    assert devices.A100.ridge == pytest.approx(312e12 / 2.039e12)


def test_attainable_is_the_lower_roof():
    h = devices.H100
    assert devices.attainable(h.peak_ops, h.mem_bw, 1.0) == pytest.approx(3.35e12)
    assert devices.attainable(h.peak_ops, h.mem_bw, 1e4) == pytest.approx(989.4e12)
    assert devices.attainable(h.peak_ops, h.mem_bw, h.ridge) == pytest.approx(h.peak_ops)


def test_one_device_per_context():
    assert sorted(devices.BY_CONTEXT) == ["cloud", "edge", "mobile", "tiny"]


def test_batteries_and_fibre_golden_values():
    """handbook/labs/v1_00.md golden vectors: CR2032 at 0.1 W lasts 6.75 h; fibre 2,000 km RTT 19.587 ms."""
    assert c.CR2032_ENERGY_J / c.MCU_ACTIVE_POWER_W / 3600 == pytest.approx(6.75)
    v = c.SPEED_OF_LIGHT / c.FIBRE_GROUP_INDEX
    assert 2 * 2_000e3 / v * 1e3 == pytest.approx(19.587, abs=1e-3)
