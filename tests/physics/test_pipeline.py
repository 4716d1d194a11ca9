"""Pipeline bubble, microbatch count, TP communication and layer compute."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pylabs.physics import collectives, pipeline as p
from pylabs.physics.constants import H100_PEAK_BF16_DENSE as C

FAST = settings(max_examples=200, deadline=None)


def test_no_pipeline_has_no_bubble() -> None:
    assert p.bubble_over_ideal(1, 8) == 0.0
    assert p.bubble_fraction_of_step(1, 8) == 0.0


def test_interleaving_divides_the_bubble() -> None:
    assert p.bubble_over_ideal(8, 16, 4) == pytest.approx(p.bubble_over_ideal(8, 16) / 4)


def test_fraction_of_step_with_interleaving() -> None:
    assert p.bubble_fraction_of_step(4, 8, 2) == pytest.approx(3 / 19, rel=1e-15)


def test_microbatch_count_returns_int() -> None:
    count = p.microbatch_count(1536, 32, 1)
    assert count == 48 and isinstance(count, int)


def test_tp_comm_is_four_ring_allreduces() -> None:
    one = collectives.ring_allreduce_s(2048 * 12288 * 2, 8, 450e9)
    assert p.tp_comm_per_layer_s(2048, 1, 12288, 8, 450e9) == pytest.approx(4 * one)


def test_tp_comm_is_zero_without_tp() -> None:
    assert p.tp_comm_per_layer_s(2048, 1, 12288, 1, 450e9) == 0.0


def test_layer_compute_formula() -> None:
    flops = 72 * 2 * 1024 * 4096**2 * (1 + 1024 / (6 * 4096))
    assert p.compute_time_per_layer_s(1024, 2, 4096, 2, C, 0.4) == pytest.approx(
        flops / (2 * C * 0.4), rel=1e-15)


# ---- errors ----


def test_zero_stages_is_rejected() -> None:
    with pytest.raises(ValueError, match=r"pp must be a whole number >= 1 \(got 0\)"):
        p.bubble_over_ideal(0, 8)


def test_zero_microbatches_is_rejected() -> None:
    expected = r"microbatches must be a whole number >= 1.*microbatch_count"
    with pytest.raises(ValueError, match=expected):
        p.bubble_fraction_of_step(4, 0)


def test_zero_interleave_is_rejected() -> None:
    with pytest.raises(ValueError, match="interleave must be a whole number >= 1"):
        p.bubble_over_ideal(4, 8, 0)


def test_indivisible_global_batch_is_rejected() -> None:
    with pytest.raises(ValueError, match=r"global_batch must be a multiple of dp \* micro_batch"):
        p.microbatch_count(1536, 7, 1)


def test_zero_tp_bandwidth_is_rejected() -> None:
    with pytest.raises(ValueError, match="bw must be > 0"):
        p.tp_comm_per_layer_s(2048, 1, 12288, 8, 0)


def test_bad_mfu_is_rejected() -> None:
    with pytest.raises(ValueError, match=r"mfu must be in \(0, 1\]"):
        p.compute_time_per_layer_s(2048, 1, 12288, 8, C, 0)


# ---- properties ----


@FAST
@given(pp=st.integers(1, 1024), m=st.integers(1, 4096), v=st.integers(1, 8))
def test_bubble_fraction_is_in_unit_interval(pp, m, v) -> None:
    assert 0 <= p.bubble_fraction_of_step(pp, m, v) < 1


@FAST
@given(pp=st.integers(2, 1024), m=st.integers(1, 4096), v=st.integers(1, 8))
def test_bubble_fraction_decreases_in_microbatches(pp, m, v) -> None:
    assert p.bubble_fraction_of_step(pp, m + 1, v) < p.bubble_fraction_of_step(pp, m, v)
    assert p.bubble_over_ideal(pp, m + 1, v) < p.bubble_over_ideal(pp, m, v)


@FAST
@given(pp=st.integers(1, 1024), m=st.integers(1, 4096), v=st.integers(1, 8))
def test_fraction_of_step_is_over_ideal_normalised(pp, m, v) -> None:
    over = p.bubble_over_ideal(pp, m, v)
    assert p.bubble_fraction_of_step(pp, m, v) == pytest.approx(over / (1 + over), rel=1e-12)


@FAST
@given(dp=st.integers(1, 512), mbs=st.integers(1, 16), m=st.integers(1, 512))
def test_microbatch_count_round_trips(dp, mbs, m) -> None:
    assert p.microbatch_count(dp * mbs * m, dp, mbs) == m


@FAST
@given(tp=st.integers(2, 64), bw=st.floats(1e9, 1e12), factor=st.floats(1, 100))
def test_tp_comm_falls_with_bandwidth(tp, bw, factor) -> None:
    assert p.tp_comm_per_layer_s(2048, 1, 12288, tp, bw * factor) <= p.tp_comm_per_layer_s(
        2048, 1, 12288, tp, bw)


def test_tp_across_nodes_uses_every_rail_audit_4b_row16():
    """handbook/labs/v2_05.md §2: GPT-3 activations (s 2048, b 1, h 12288) all-reduced over TP 16 = two DGX
    nodes with 8 NDR rails each: 0.322 ms per all-reduce, 1.29 ms per layer (4 all-reduces)."""
    from pylabs.physics import constants as C
    from pylabs.physics.pipeline import tp_comm_per_layer_multinode_s, tp_comm_per_layer_s
    args = (2048, 1, 12288)
    across = tp_comm_per_layer_multinode_s(*args, 16, 8, C.NVLINK4_BW, C.IB_NDR_BW, 8)
    assert across == pytest.approx(1.286253e-3, rel=1e-6)
    assert across / 4 == pytest.approx(0.321563e-3, rel=1e-5)
    inside = tp_comm_per_layer_multinode_s(*args, 8, 8, C.NVLINK4_BW, C.IB_NDR_BW, 8)
    assert inside == tp_comm_per_layer_s(*args, 8, C.NVLINK4_BW) == pytest.approx(0.782937e-3, rel=1e-5)
    with pytest.raises(ValueError, match="a multiple of gpus_per_node"):
        tp_comm_per_layer_multinode_s(*args, 12, 8, C.NVLINK4_BW, C.IB_NDR_BW, 8)


def test_megatron_interleaved_schedule_rule():
    """Megatron-LM schedules.py (forward_backward_pipelining_with_interleaving): the micro-batch group N
    must satisfy p <= N <= m, and the last group (m mod N) must be empty or at least p long."""
    assert p.interleaved_schedule_runs(8, 24, 8)                # m a multiple of p: the default works
    assert not p.interleaved_schedule_runs(8, 21, 8)            # last group of 5 < 8
    assert p.interleaved_schedule_runs(8, 21, 11)               # groups of 11 and 10
    assert p.interleaved_schedule_runs(8, 21, 21)               # one group
    assert not p.interleaved_schedule_runs(8, 4, 8)             # fewer micro-batches than stages
    assert p.interleaved_group_size(8, 21) == 11 and p.interleaved_group_size(8, 24) == 8
    assert p.interleaved_group_size(8, 4) == 0
    assert p.interleave_degrees(80, 8) == [1, 2, 5, 10]         # 3 does not cut 10 layers equally
    with pytest.raises(ValueError, match="a multiple of pp"):
        p.interleave_degrees(80, 3)
