"""Kernel arithmetic intensity on the roofline: the golden vectors of handbook/labs/v1_11.md §4, the ridge
points of handbook/labs/v1_11.md §2, and the properties the lab's story rests on."""

from __future__ import annotations

import pytest

from pylabs.physics import constants as C
from pylabs.physics import kernels_ai as k
from pylabs.physics import serving
from pylabs.physics.devices import ORIN_NX, attainable, ridge_point

H100_BW, ORIN_BW = C.H100_HBM_BW, C.ORIN_NX_MEM_BW
KV_TOKEN = serving.kv_bytes_per_token(C.LLAMA3_8B_LAYERS, C.LLAMA3_8B_KV_HEADS, C.LLAMA3_HEAD_DIM, C.BYTES_PER_BF16)


# ---- handbook/labs/v1_11.md §2 ridge points, per precision ----------------------------------


@pytest.mark.parametrize("peak, bw, ridge", [
    (C.H100_PEAK_FP32, H100_BW, 20.0), (C.H100_PEAK_BF16_DENSE, H100_BW, 295.3),
    (C.H100_PEAK_INT8_DENSE, H100_BW, 590.7),
    (C.ORIN_NX_PEAK_FP16_DENSE, ORIN_BW, 147), (C.ORIN_NX_PEAK_INT8_DENSE, ORIN_BW, 294),
])
def test_spec_v1_11_3_ridge_points_per_precision(peak, bw, ridge):
    assert ridge_point(peak, bw) == pytest.approx(ridge, abs=0.5)


def test_orin_fp32_is_the_cuda_cores_at_918_mhz():
    assert C.ORIN_NX_PEAK_FP32 == pytest.approx(1.88e12, rel=1e-3)
    assert C.ORIN_NX_PEAK_FP16_DENSE / C.ORIN_NX_PEAK_FP32 == pytest.approx(8.0, rel=1e-3)


# ---- handbook/labs/v1_11.md §4 Act I golden vectors -------------------------------------------


def test_spec_v1_11_4_decode_projection_m8_on_h100():
    """M=8, K=N=4096, BF16, H100: AI 7.969; 26.696 TF; MFU 2.698 %."""
    ai = k.gemm_intensity(8, 4096, 4096, 2)
    rate = attainable(C.H100_PEAK_BF16_DENSE, H100_BW, ai)
    assert ai == pytest.approx(7.969, abs=5e-4)
    assert rate == pytest.approx(26.696e12, rel=1e-4)
    assert rate / C.H100_PEAK_BF16_DENSE == pytest.approx(0.02698, abs=5e-6)


@pytest.mark.parametrize("m, ai, tflops, mfu", [(64, 62.06, 207.9, 0.210), (512, 409.6, 989.4, 1.0)])
def test_spec_v1_11_4_more_tokens_per_call(m, ai, tflops, mfu):
    """M=64 / 512: AI 62.06 → 207.9 TF (21.0 %); AI 409.6 → 989.4 (100 %)."""
    got = k.gemm_intensity(m, 4096, 4096, 2)
    rate = attainable(C.H100_PEAK_BF16_DENSE, H100_BW, got)
    assert got == pytest.approx(ai, abs=0.01)
    assert rate / 1e12 == pytest.approx(tflops, abs=0.05)
    assert rate / C.H100_PEAK_BF16_DENSE == pytest.approx(mfu, abs=5e-4)


def test_spec_v1_11_4_the_same_kernel_on_orin():
    """M=8, BF16, Orin (15.04 TF, 102.4 GB/s): AI 7.969; 0.816 TF; MFU 5.43 %."""
    rate = attainable(ORIN_NX.peak_ops, ORIN_NX.mem_bw, k.gemm_intensity(8, 4096, 4096, 2))
    assert rate == pytest.approx(0.816e12, rel=1e-3)
    assert rate / ORIN_NX.peak_ops == pytest.approx(0.0543, abs=5e-5)


def test_spec_v1_11_4_square_512_bf16_and_fp32():
    """Square N=512: BF16 571.7 TF (57.8 %); FP32 AI 85.3 → 66.9 TF, compute-bound (ridge 20)."""
    bf16 = attainable(C.H100_PEAK_BF16_DENSE, H100_BW, k.gemm_intensity(512, 512, 512, 2))
    assert bf16 == pytest.approx(571.7e12, rel=1e-4)
    assert bf16 / C.H100_PEAK_BF16_DENSE == pytest.approx(0.578, abs=5e-4)
    ai32 = k.gemm_intensity(512, 512, 512, 4)
    assert ai32 == pytest.approx(85.33, abs=0.01)
    assert attainable(C.H100_PEAK_FP32, H100_BW, ai32) == C.H100_PEAK_FP32
    assert k.regime(ai32, ridge_point(C.H100_PEAK_FP32, H100_BW)) == "compute"


def test_upstream_312_tflops_needs_a_square_n_near_279():
    """handbook/labs/v1_11.md §5: 312 TF on the H100 in BF16 is a square GEMM of N ≈ 279, not 512."""
    n = 3 * 312e12 / H100_BW  # AI = N/3 on the memory roof
    assert n == pytest.approx(279, abs=1)


def test_halving_the_bytes_doubles_the_intensity():
    """handbook/labs/v1_11.md §5: precision changes intensity (85 → 171 from FP32 to BF16 at N = 512)."""
    assert k.gemm_intensity(512, 512, 512, 2) == pytest.approx(2 * k.gemm_intensity(512, 512, 512, 4))


def test_small_m_intensity_is_about_2m_over_b():
    for m in (1, 2, 8, 16):
        assert k.gemm_intensity(m, 4096, 4096, 2) == pytest.approx(m, rel=0.01)


@pytest.mark.parametrize("k_, n, b, ridge, rows", [
    (4096, 4096, 2, C.H100_PEAK_BF16_DENSE / H100_BW, 345.11),     # H100 BF16: 346 tokens reach the peak
    (4096, 4096, 1, C.H100_PEAK_INT8_DENSE / H100_BW, 345.13),     # INT8: twice the peak, half the bytes
    (4096, 4096, 4, C.H100_PEAK_FP32 / H100_BW, 40.73),            # FP32 on CUDA cores: ridge 20
    (4096, 4096, 2, C.ORIN_NX_PEAK_FP16_DENSE / ORIN_BW, 158.22),  # Orin NX FP16: ridge 147
    (1024, 4096, 2, C.H100_PEAK_BF16_DENSE / H100_BW, 461.85),     # K ≠ N
])
def test_rows_to_the_ridge_solve_the_intensity_for_m(k_, n, b, ridge, rows):
    """M* solves 2MKN / (b(MK + KN + MN)) = R: one row fewer stays below the ridge."""
    m = k.gemm_rows_to_ridge(k_, n, b, ridge)
    assert m == pytest.approx(rows, abs=0.01)
    assert k.gemm_intensity(m, k_, n, b) == pytest.approx(ridge, rel=1e-12)
    assert k.gemm_intensity(m - 1, k_, n, b) < ridge < k.gemm_intensity(m + 1, k_, n, b)


def test_no_number_of_rows_reaches_a_ridge_past_2kn_over_b_k_plus_n():
    """A 256-wide BF16 GEMM tops out at 2·256²/(2·512) = 128 op/B, under the H100's 295: never."""
    assert k.gemm_rows_to_ridge(256, 256, 2, C.H100_PEAK_BF16_DENSE / H100_BW) == float("inf")
    assert k.gemm_intensity(1e9, 256, 256, 2) == pytest.approx(128, rel=1e-6)


# ---- handbook/labs/v1_11.md §4 Act II golden vectors: Llama-3-8B decode -------------------


def decode_step(batch, context, weight_bytes, peak, bw):
    flop = k.decode_flop(C.LLAMA3_8B_PARAMS_COUNTED, batch)
    return k.roofline_time_s(flop, k.decode_bytes(weight_bytes, KV_TOKEN, context, batch), peak, bw)


def test_kv_cache_is_131072_bytes_per_token():
    assert KV_TOKEN == 131_072


@pytest.mark.parametrize("batch, ms, tok_s", [(1, 4.834, 206.9), (8, 5.115, 1564), (64, 7.358, 8698)])
def test_spec_v1_11_4_decode_bf16_h100(batch, ms, tok_s):
    """Decode BF16 H100, ctx 1,024, B = 1 / 8 / 64: 4.834 / 5.115 / 7.358 ms; 206.9 / 1,564 / 8,698 tok/s."""
    weights = C.LLAMA3_8B_PARAMS_COUNTED * C.BYTES_PER_BF16
    step = decode_step(batch, 1024, weights, C.H100_PEAK_BF16_DENSE, H100_BW)
    assert step * 1e3 == pytest.approx(ms, abs=5e-4)
    assert batch / step == pytest.approx(tok_s, rel=5e-4)
    # the same step from the shared serving physics
    memory = serving.decode_memory_s(weights, batch * 1024 * KV_TOKEN, 1, H100_BW, 1.0)
    compute = serving.decode_compute_s(C.LLAMA3_8B_PARAMS_COUNTED, batch, 1, C.H100_PEAK_BF16_DENSE, 1.0)
    assert serving.decode_step_s(memory, compute) == pytest.approx(step, rel=1e-12)


def test_spec_v1_11_4_orin_int4_g128():
    """Orin INT4 g128, B = 1, ctx 1,024: W 4.14 GB; 41.74 ms per step; 23.95 tok/s."""
    per_param = k.quantized_bytes_per_param(4, C.QUANT_GROUP_WEIGHTS, C.QUANT_SCALE_BYTES)
    weights = C.LLAMA3_8B_PARAMS_COUNTED * per_param
    assert weights / 1e9 == pytest.approx(4.14, abs=0.005)
    step = decode_step(1, 1024, weights, C.ORIN_NX_PEAK_FP16_DENSE, ORIN_BW)
    assert step * 1e3 == pytest.approx(41.74, abs=0.005)
    assert 1 / step == pytest.approx(23.95, abs=0.005)


def test_spec_v1_11_2_error_14_kv_at_batch_64_context_2048():
    """B = 64, S = 2,048: 68.7 GB with 32 KV heads (64 GiB), 17.2 GB with Llama-3-8B's 8."""
    assert 64 * 2048 * KV_TOKEN / 1e9 == pytest.approx(17.18, abs=0.01)
    assert 4 * 64 * 2048 * KV_TOKEN / 1e9 == pytest.approx(68.7, abs=0.05)


def test_decode_intensity_rises_with_batch_then_levels_at_attentions():
    weights = C.LLAMA3_8B_PARAMS_COUNTED * C.BYTES_PER_BF16
    ais = [k.decode_intensity(C.LLAMA3_8B_PARAMS_COUNTED, b, weights, KV_TOKEN, 1024) for b in (1, 8, 64, 4096)]
    assert ais == sorted(ais)
    assert ais[0] == pytest.approx(1.0, rel=0.01)
    assert ais[-1] < 2 * C.LLAMA3_8B_PARAMS_COUNTED / (1024 * KV_TOKEN)


def test_attention_decode_intensity_is_twice_the_group_over_b():
    """GQA 32 query heads over 8 KV heads in BF16: 4 FLOP/B, at any batch or context."""
    assert k.attention_decode_intensity(C.LLAMA3_8B_QUERY_HEADS, C.LLAMA3_8B_KV_HEADS, 2) == 4.0
    assert k.attention_decode_intensity(32, 32, 2) == 1.0


# ---- elementwise chains and fusion ---------------------------------------------------------


def test_fusing_a_chain_multiplies_intensity_by_its_length():
    """handbook/labs/v1_11.md §2: unfused traffic 2k|T|, fused 2|T|, so AI_fused = k·AI_1."""
    one = k.elementwise_intensity(1, 2)
    assert one == 0.25
    assert k.elementwise_intensity(1, 2, chain=5) == one
    assert k.elementwise_intensity(1, 2, chain=5, fused=True) == pytest.approx(5 * one)
    assert k.elementwise_chain_bytes(1e6, 2, 5, False) == 5 * k.elementwise_chain_bytes(1e6, 2, 5, True)


def test_elementwise_stays_memory_bound_on_every_volume_i_roof():
    from pylabs.physics.devices import BY_CONTEXT
    for device in BY_CONTEXT.values():
        assert k.regime(k.elementwise_intensity(1, 1), device.ridge) == "memory"


# ---- errors name the value and the fix ------------------------------------------------------


@pytest.mark.parametrize("call, fragment", [
    (lambda: k.gemm_intensity(0, 4096, 4096, 2), "m must be > 0"),
    (lambda: k.gemm_bytes(8, 8, 8, 0), "bytes_per_value"),
    (lambda: k.elementwise_intensity(1, 2, chain=0), "chain must be a whole number"),
    (lambda: k.attention_decode_intensity(32, 0, 2), "kv_heads"),
    (lambda: k.roofline_time_s(1, 1, 0, 1), "peak_ops"),
])
def test_errors_say_what_to_pass(call, fragment):
    with pytest.raises(ValueError, match=fragment):
        call()


def test_kernel_puts_the_scenario_projection_on_the_memory_roof():
    kern = k.Kernel(k.gemm_flop(8, 4096, 4096), k.gemm_bytes(8, 4096, 4096, 2), C.H100_PEAK_BF16_DENSE, H100_BW)
    assert kern.ai == pytest.approx(7.969, abs=5e-4) and kern.regime == "memory"
    assert kern.rate == pytest.approx(26.696e12, rel=1e-4) and kern.mfu == pytest.approx(0.02698, abs=5e-6)
    assert kern.time_s == pytest.approx(kern.flop / kern.rate)


def test_decode_step_matches_the_spec_rows_and_the_serving_physics():
    """handbook/labs/v1_11.md §4: B = 64 at 1,024 tokens on the H100 in BF16 is 7.358 ms, 8,698 tok/s."""
    weights = C.LLAMA3_8B_PARAMS_COUNTED * C.BYTES_PER_BF16
    step = k.DecodeStep(C.LLAMA3_8B_PARAMS_COUNTED, 64, 1024, weights, KV_TOKEN, C.H100_PEAK_BF16_DENSE, H100_BW)
    assert step.step_s * 1e3 == pytest.approx(7.358, abs=5e-4) and step.tok_s == pytest.approx(8698, rel=5e-4)
    assert step.kv_bytes == 64 * 1024 * KV_TOKEN
    assert step.mfu == pytest.approx(step.tok_s * 2 * C.LLAMA3_8B_PARAMS_COUNTED / C.H100_PEAK_BF16_DENSE)
