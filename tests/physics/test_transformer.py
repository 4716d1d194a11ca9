"""Golden vectors for pylabs.physics.transformer from handbook/labs/v1_06.md §4, and published figures."""

from __future__ import annotations

import pytest

from pylabs.physics import constants as C
from pylabs.physics import training
from pylabs.physics import transformer as t
from pylabs.physics.devices import H100, ORIN_NX

L, D, H = C.GPT2_XL_LAYERS, C.GPT2_XL_HIDDEN, C.GPT2_XL_HEADS
FP16 = 2.0


def xl_params() -> float:
    return t.gpt2_params(L, D, C.GPT2_XL_VOCAB, C.GPT2_XL_CONTEXT)


def test_gpt2_xl_has_the_hugging_face_parameter_count():
    """handbook/labs/v1_06.md §5: 1,557,611,200 parameters (HF gpt2-xl, d 1,600, 25 heads, 48 layers)."""
    assert xl_params() == 1_557_611_200


def test_gpt2_small_has_its_published_count():
    """GPT-2 small (12 layers, d 768) is the familiar 124,439,808 parameters."""
    assert t.gpt2_params(12, 768, 50257, 1024) == 124_439_808


def prefill(seq: float, flash: bool = False) -> t.PrefillMemory:
    return t.prefill_memory(xl_params(), L, D, H, seq, FP16, flash)


def test_v1_06_golden_prefill_at_4096():
    """handbook/labs/v1_06.md §4: N 4,096 naive: weights 3.115, KV 1.258, scores 0.839 -> 5.212 GB."""
    m = prefill(4096)
    assert m.weights_b / 1e9 == pytest.approx(3.115, abs=5e-4)
    assert m.kv_b / 1e9 == pytest.approx(1.258, abs=5e-4)
    assert m.scores_b / 1e9 == pytest.approx(0.839, abs=5e-4)
    assert m.total_b / 1e9 == pytest.approx(5.212, abs=5e-4)


def test_v1_06_golden_doubling_the_context_quadruples_the_scores():
    """handbook/labs/v1_06.md §4: N 8,192: scores 3.355 GB (4.000×); total 8.987 GB."""
    m = prefill(8192)
    assert m.scores_b / 1e9 == pytest.approx(3.355, abs=5e-4)
    assert m.scores_b / prefill(4096).scores_b == pytest.approx(4.0, rel=1e-12)
    assert m.total_b / 1e9 == pytest.approx(8.987, abs=5e-4)


def test_v1_06_golden_100k_tokens():
    """handbook/labs/v1_06.md §4: N 100,000: naive 533.84 GB; flash 33.84 GB (KV 30.72)."""
    assert prefill(100_000).total_b / 1e9 == pytest.approx(533.84, abs=5e-3)
    flash = prefill(100_000, flash=True)
    assert flash.total_b / 1e9 == pytest.approx(33.84, abs=5e-3)
    assert flash.kv_b / 1e9 == pytest.approx(30.72, abs=5e-3)
    assert flash.scores_b == 0.0


@pytest.mark.parametrize("device,flash,expected", [
    (H100, True, 250_276), (H100, False, 36_262), (ORIN_NX, True, 41_943), (ORIN_NX, False, 13_272)])
def test_v1_06_golden_max_context(device, flash, expected):
    """handbook/labs/v1_06.md §4: max N, flash / naive: H100 250,276 / 36,262; Orin 41,943 / 13,272."""
    n = t.max_context_tokens(device.mem_bytes, xl_params(), L, D, H, FP16, flash)
    assert round(n) == expected
    assert prefill(n, flash).total_b == pytest.approx(device.mem_bytes, rel=1e-9)


def test_max_context_is_zero_when_the_weights_do_not_fit():
    assert t.max_context_tokens(1e9, xl_params(), L, D, H, FP16, flash=True) == 0.0


def test_v1_06_golden_training_activations():
    """handbook/labs/v1_06.md §4: training, N 4,096, b 1, 48 layers: 111.36 GB (selective 10.70 GB); 8K/4K 3.808."""
    def act(seq, mode):
        return L * training.activation_bytes_per_layer(seq, 1, D, H, mode=mode)
    assert act(4096, "none") / 1e9 == pytest.approx(111.36, abs=5e-3)
    assert act(4096, "selective_tp_sp") / 1e9 == pytest.approx(10.70, abs=5e-3)
    assert act(8192, "none") / act(4096, "none") == pytest.approx(3.808, abs=5e-4)


def test_attention_share_of_flops_grows_with_the_context():
    short = t.attention_flop_share(xl_params(), L, 1024, D)
    long = t.attention_flop_share(xl_params(), L, 100_000, D)
    assert 0 < short < long < 1


def decode(layers: float, device, launch_s: float) -> float:
    d = t.width_for_params(100e6, layers)
    return t.decode_token_latency(layers, d, device.peak_ops, device.mem_bw, FP16, launch_s).total_s


def test_v1_06_golden_widths():
    """handbook/labs/v1_06.md §4: 100 M params, L 64 -> d 360.8; L 4 -> d 1,443.4."""
    assert t.width_for_params(100e6, 64) == pytest.approx(360.8, abs=0.05)
    assert t.width_for_params(100e6, 4) == pytest.approx(1443.4, abs=0.05)


@pytest.mark.parametrize("device,launch_s,deep_ms,wide_ms", [
    (ORIN_NX, 20e-6, 12.80, 2.433), (H100, 5e-6, 3.20, 0.200), (H100, 1e-6, 0.640, 0.0837)])
def test_v1_06_golden_depth_versus_width(device, launch_s, deep_ms, wide_ms):
    """handbook/labs/v1_06.md §4: Orin 20 µs 12.80 / 2.433 ms; H100 5 µs 3.20 / 0.200 ms; H100 1 µs 0.640 / 0.0837
    ms."""
    assert decode(64, device, launch_s) * 1e3 == pytest.approx(deep_ms, rel=5e-4)
    assert decode(4, device, launch_s) * 1e3 == pytest.approx(wide_ms, rel=5e-4)


@pytest.mark.parametrize("device", [H100, ORIN_NX])
def test_wide_beats_deep_whenever_launches_cost_anything(device):
    """The upstream model gave identical latency for both shapes (handbook/labs/v1_06.md §5); with a
    per-kernel cost the deep stack is slower at every launch cost above zero."""
    for launch_s in (1e-6, 5e-6, 20e-6):
        assert decode(64, device, launch_s) > decode(4, device, launch_s)


def test_without_launch_cost_depth_and_width_tie():
    """With zero overhead only the bytes count, and both shapes stream the same weights."""
    assert decode(64, ORIN_NX, 0.0) == pytest.approx(decode(4, ORIN_NX, 0.0), rel=1e-12)


def test_overhead_share_is_a_fraction():
    d = t.width_for_params(100e6, 64)
    lat = t.decode_token_latency(64, d, ORIN_NX.peak_ops, ORIN_NX.mem_bw, FP16, 20e-6)
    assert 0.8 < lat.overhead_share < 1.0
    assert lat.streaming_s == pytest.approx(64 * 12 * d ** 2 * 2 / ORIN_NX.mem_bw)


def test_bad_sizes_name_the_value():
    with pytest.raises(ValueError, match="layers"):
        t.decode_token_latency(0, 100, 1e12, 1e9, 2, 1e-6)
    with pytest.raises(ValueError, match="launch_s"):
        t.decode_token_latency(4, 100, 1e12, 1e9, 2, -1.0)
