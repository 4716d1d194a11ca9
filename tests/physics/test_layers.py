"""Activation layers and the activation ledger: handbook/labs/v1_05.md §4 golden vectors."""

import pytest

from pylabs.physics import constants as c
from pylabs.physics import layers

KIB = 1024


def test_v1_05_ops_per_element_at_c_exp_12():
    """handbook/labs/v1_05.md §4: ReLU 1, Leaky 2, sigmoid 14, tanh 16, GELU 24; sigmoid/ReLU 14×."""
    ops = {f: layers.activation_ops_per_element(f, 12) for f in layers.ACTIVATIONS}
    assert ops == {"relu": 1, "leaky_relu": 2, "sigmoid": 14, "tanh": 16, "gelu": 24}
    assert ops["sigmoid"] / ops["relu"] == 14


def test_v1_05_relu_and_sigmoid_take_the_same_time_on_the_npu():
    """handbook/labs/v1_05.md §4: NPU 35 T / 51.2 GB/s, 56×56×256 INT8, B_rw = 2 → 31.36 µs for both;
    4 layers = 0.1505 % of an 83.3 ms frame."""
    n = 56 * 56 * 256
    times = [layers.elementwise_layer_s(n, layers.activation_ops_per_element(f, 12), 1,
                                        c.A17_PRO_NPU_OPS, c.A17_PRO_MEM_BW) for f in ("relu", "sigmoid")]
    assert times[0] == pytest.approx(31.36e-6, rel=1e-4)
    assert times[1] == times[0]
    assert 4 * times[0] / (1 / 12) == pytest.approx(0.001505, rel=1e-3)


def test_crossover_is_about_1370_ops_per_element_on_the_npu():
    """handbook/labs/v1_05.md §5: compute-bound only above ~1,370 ops/element (INT8, 35 T, 51.2 GB/s)."""
    assert layers.elementwise_crossover_ops(1, c.A17_PRO_NPU_OPS, c.A17_PRO_MEM_BW) == pytest.approx(1367.2, abs=0.1)


def test_compute_wins_above_the_crossover_and_fusion_removes_the_traffic():
    n, R, bw = 1e6, 10e12, 1e12
    cross = layers.elementwise_crossover_ops(2, R, bw)  # 40 ops
    below = layers.elementwise_layer_s(n, cross / 2, 2, R, bw)
    above = layers.elementwise_layer_s(n, cross * 2, 2, R, bw)
    assert below == pytest.approx(layers.elementwise_memory_s(n, 2, bw))
    assert above == pytest.approx(layers.elementwise_compute_s(n, cross * 2, R))
    assert layers.elementwise_layer_s(n, 14, 2, R, bw, fused=True) == pytest.approx(n * 14 / R)


def test_v1_05_feature_map_of_224x224x256():
    """handbook/labs/v1_05.md §4: FP32 51,380,224 B = 98.0× 512 KiB (FP16 49×, INT8 24.5×)."""
    fp32 = layers.feature_map_bytes(224, 256, 4)
    assert fp32 == 51_380_224
    assert fp32 / (512 * KIB) == pytest.approx(98.0)
    assert layers.feature_map_bytes(224, 256, 2) / (512 * KIB) == pytest.approx(49.0)
    assert layers.feature_map_bytes(224, 256, 1) / (512 * KIB) == pytest.approx(24.5)


def test_v1_05_pyramid_at_batch_8():
    """handbook/labs/v1_05.md §4: b 8, 224, C0 64, FP32 → 102.76 / 51.38 / 25.69 / 12.85 / 6.42 / 3.21 MB;
    Σ 202.31 MB; peak pair 154.14 MB."""
    maps = layers.pyramid_map_bytes(224, 64, 4, 8)
    assert [m / 1e6 for m in maps] == pytest.approx([102.76, 51.38, 25.69, 12.85, 6.42, 3.21], abs=0.006)
    assert layers.peak_live_bytes(maps, training=True) / 1e6 == pytest.approx(202.31, abs=0.005)
    assert layers.peak_live_bytes(maps, training=False) / 1e6 == pytest.approx(154.14, abs=0.005)


def test_v1_05_batch_128_at_512_is_out_of_memory_on_the_phone():
    """handbook/labs/v1_05.md §4: b 128, 512, C0 64, FP32 on 8 GB → training Σ 16.91 GB, inference pair 12.88 GB; both
    OOM."""
    maps = layers.pyramid_map_bytes(512, 64, 4, 128)
    training, inference = layers.peak_live_bytes(maps, True), layers.peak_live_bytes(maps, False)
    assert training / 1e9 == pytest.approx(16.91, abs=0.005)
    assert inference / 1e9 == pytest.approx(12.88, abs=0.005)
    assert min(training, inference) > c.A17_PRO_MEM_BYTES


def test_pyramid_sides_round_up_and_channels_double():
    assert layers.pyramid_shapes(28, 1) == [(28, 1), (14, 2), (7, 4), (4, 8), (2, 16), (1, 32)]
    assert layers.pyramid_shapes(224, 64)[-1] == (7, 2048)


def test_spills_follow_the_working_set_of_each_layer():
    maps = layers.pyramid_map_bytes(224, 64, 4, 8)
    assert layers.spilled_layers(maps, 512 * KIB) == [True] * 5
    assert layers.spilled_layers(maps, c.H100_L2_BYTES) == [True, True, False, False, False]
    traffic = layers.spill_traffic_bytes(maps, 512 * KIB)
    assert traffic == pytest.approx(2 * sum(maps) - maps[0] - maps[-1])
    assert layers.spill_traffic_bytes(maps, 1e12) == 0.0


def test_a_single_map_is_its_own_peak():
    assert layers.peak_live_bytes([5.0], training=False) == 5.0


def test_bad_inputs_fail_with_a_message():
    with pytest.raises(ValueError, match="unknown activation"):
        layers.activation_ops_per_element("swish", 12)
    with pytest.raises(ValueError, match="exp_ops"):
        layers.activation_ops_per_element("sigmoid", 0)
    with pytest.raises(ValueError, match="mem_bw"):
        layers.elementwise_memory_s(1, 1, 0)


def test_h100_l2_is_50_mb_not_the_a100s_40():
    """handbook/labs/v1_05.md §5; NVIDIA Hopper architecture blog."""
    assert c.H100_L2_BYTES == 50e6
