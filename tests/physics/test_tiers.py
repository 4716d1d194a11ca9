"""Golden vectors of handbook/labs/v1_16.md §4: a generic 7B (Llama-3-8B-shaped KV) on four tiers."""

from __future__ import annotations

import math

import pytest

from pylabs.physics import constants as C
from pylabs.physics import serving, tiers

P = 7.0e9
KV = serving.kv_bytes_per_token(C.LLAMA3_8B_LAYERS, C.LLAMA3_8B_KV_HEADS, C.LLAMA3_HEAD_DIM, C.BYTES_PER_BF16)
BF16 = tiers.weight_bytes(P, 16)
INT4 = tiers.weight_bytes(P, 4, 128)
MFU = 0.5


def cloud_step(weights: float, batch: int) -> float:
    return tiers.decode_step_s(weights, P, batch, KV, 640, C.H100_HBM_BW, C.H100_PEAK_BF16_DENSE, MFU)


def test_spec_v1_16_kv_is_131072_bytes_per_token():
    assert KV == 131_072


@pytest.mark.parametrize("batch, tpot_ms, tok_s, gpus, usd, mem_gb", [
    (64, 5.782, 11_069, 24, 2.00e-5, 20.44),
    (256, 10.590, 24_175, 11, 9.17e-6, 39.77),
])
def test_spec_v1_16_4_cloud_bf16(batch, tpot_ms, tok_s, gpus, usd, mem_gb):
    t = cloud_step(BF16, batch)
    assert t * 1e3 == pytest.approx(tpot_ms, abs=1e-3)
    assert batch / t == pytest.approx(tok_s, abs=1)
    n = tiers.decode_gpus(1000, 256, t, batch)
    assert n == gpus
    assert tiers.cost_per_request_usd(n, 3.0, 1000) == pytest.approx(usd, rel=2e-3)
    assert tiers.resident_bytes(BF16, batch, KV, 768) / 1e9 == pytest.approx(mem_gb, abs=0.01)


def test_spec_v1_16_4_cloud_int4_g128():
    assert INT4 / 1e9 == pytest.approx(3.609, abs=1e-3)
    t = cloud_step(INT4, 256)
    assert t * 1e3 == pytest.approx(7.488, abs=1e-3)
    assert 256 / t == pytest.approx(34_189, abs=1)
    n = tiers.decode_gpus(1000, 256, t, 256)
    assert n == 8 and tiers.cost_per_request_usd(n, 3.0, 1000) == pytest.approx(6.67e-6, rel=1e-3)


def test_spec_v1_16_4_ttft_prefill_512():
    t = serving.prefill_s(2 * P * 512, 1, C.H100_PEAK_BF16_DENSE, MFU)
    assert t * 1e3 == pytest.approx(14.49, abs=0.01)


def test_spec_v1_16_4_orin_and_phone_int4():
    orin = tiers.decode_step_s(INT4, P, 1, KV, 640, C.ORIN_NX_MEM_BW, C.ORIN_NX_PEAK_FP16_DENSE, MFU)
    phone = tiers.decode_step_s(INT4, P, 1, KV, 640, C.A17_PRO_MEM_BW, C.A17_PRO_NPU_OPS, MFU)
    assert orin * 1e3 == pytest.approx(36.07, abs=0.01)
    assert phone * 1e3 == pytest.approx(72.13, abs=0.01)
    assert tiers.resident_bytes(INT4, 1, KV, 2048, 0.3e9) / 1e9 == pytest.approx(4.178, abs=1e-3)


def test_spec_v1_16_4_ternary_against_the_mcu():
    seven_b = tiers.weight_bytes(P, tiers.ternary_bits_per_weight())
    assert seven_b / 1e9 == pytest.approx(1.387, abs=1e-3)
    assert tiers.times_over(seven_b, 2e6) == pytest.approx(693, abs=1)           # the spec's decimal 2 MB
    assert tiers.times_over(seven_b, C.STM32H743_FLASH_BYTES) == pytest.approx(661, abs=1)  # ST's 2 MiB
    ten_m = tiers.weight_bytes(10e6, tiers.ternary_bits_per_weight())
    assert ten_m / 1e3 == pytest.approx(1981, abs=1) and ten_m > C.STM32H743_SRAM_BYTES


def test_spec_v1_16_2_error_1_batch_one_int8_on_two_gpus():
    """Upstream error 1: at least 1.04 ms per token even in INT8 on two GPUs, 267 ms for 256 tokens."""
    t = tiers.decode_step_s(tiers.weight_bytes(P, 8), P, 1, KV, 0, C.H100_HBM_BW, C.H100_PEAK_BF16_DENSE, MFU, 2)
    assert t * 1e3 == pytest.approx(1.045, abs=1e-3) and 256 * t * 1e3 == pytest.approx(267.5, abs=0.1)


def test_spec_v1_16_2_error_2_batch_one_cannot_reach_the_throughput():
    """Upstream error 2: batch-1 decode tops out at 7,657 tokens/s (8 × H100, INT4)."""
    bare = tiers.weight_bytes(P, 4)                      # the spec counts 4 bits without group scales
    t = tiers.decode_step_s(bare, P, 1, KV, 0, C.H100_HBM_BW, C.H100_PEAK_BF16_DENSE, MFU, 8)
    assert 1 / t == pytest.approx(7_657, abs=1) and 1 / t < 153_600


def test_gpus_round_up_and_load_provisions_headroom():
    assert tiers.decode_gpus(1000, 256, 0.004, 64) == 16
    assert tiers.busy_to_gpus(16, 0.5) == 32 and tiers.busy_to_gpus(0.2, 1.0) == 1
    with pytest.raises(ValueError, match="load"):
        tiers.busy_to_gpus(1, 0)


def test_weight_bytes_rejects_nonsense():
    with pytest.raises(ValueError, match="positive"):
        tiers.weight_bytes(0, 4)
    assert math.isclose(tiers.weight_bytes(8, 8), 8)
