"""Fabric physics: the spec's golden vectors (handbook/labs/v2_03.md §4), edge cases, errors, properties."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pylabs.physics import collectives
from pylabs.physics import constants as C
from pylabs.physics import fabric as f

FAST = settings(max_examples=200, deadline=None)
K = 32


def phi(n, r, pattern, k=K):
    return f.uplink_fraction(r, f.cross_leaf_fraction(n, k, pattern))


# ---- golden vectors, handbook/labs/v2_03.md §4 ----


def test_spec_v2_03_4_random_ring_128_gpus_keeps_two_thirds():
    assert phi(128, 2, "ring_random") == pytest.approx(0.6615, abs=5e-5)


def test_spec_v2_03_4_bus_bandwidth_128_hdr():
    rate = f.fat_tree_rate_bytes_per_s(C.IB_HDR_BW, 0.9, 2, f.cross_leaf_fraction(128, K, "ring_random"))
    assert rate == pytest.approx(14.88e9, rel=5e-4)


def test_spec_v2_03_4_topology_aware_ring_keeps_everything():
    assert phi(128, 2, "ring_aware") == 1.0


@pytest.mark.parametrize("n, expected", [(512, 0.5323), (1024, 0.5156)])
def test_spec_v2_03_4_random_placement_tends_to_one_over_r(n, expected):
    assert phi(n, 2, "ring_random") == pytest.approx(expected, abs=5e-5)


@pytest.mark.parametrize("r, expected", [(2, 800e9), (1, 1600e9)])
def test_spec_v2_03_4_bisection_128_hdr(r, expected):
    assert f.fat_tree_bisection_bytes_per_s(128, C.IB_HDR_BW, r, K) == pytest.approx(expected, rel=1e-12)


def test_spec_v2_03_4_bisection_1024_at_45_gbps_fat_tree_and_torus():
    assert f.fat_tree_bisection_bytes_per_s(1024, 45e9, 1, K) == pytest.approx(23_040e9, rel=1e-12)
    assert f.torus_shape(1024) == (8, 8, 16)
    assert f.torus_bisection_bytes_per_s((8, 8, 16), 45e9) == pytest.approx(5_760e9, rel=1e-12)


def test_spec_v2_03_4_hierarchical_allreduce_1024_ndr():
    t = collectives.hierarchical_allreduce_s(32e9, 8, 128, 0.9 * C.NVLINK4_BW, 0.9 * C.IB_NDR_BW, 8)
    assert t == pytest.approx(0.3147, abs=5e-5)


def test_spec_v2_03_4_torus_all_to_all_1024():
    rate = f.torus_all_to_all_rate_bytes_per_s((8, 8, 16), C.IB_NDR_BW, 0.9)
    assert rate == pytest.approx(22.5e9, rel=1e-12)
    assert f.all_to_all_s(20e9, 1024, rate) == pytest.approx(0.8880, abs=5e-5)


def test_spec_v2_03_3_act2_table():
    """The corrected Act II table: IB 1:1 0.315 + 0.444; Ethernet 2:1 0.315 + 0.861; torus 0.710 + 0.888."""
    ib = f.fat_tree_rate_bytes_per_s(C.IB_NDR_BW, 0.9, 1, f.cross_leaf_fraction(1024, K, "all_to_all"))
    eth = f.fat_tree_rate_bytes_per_s(C.ETH_400G_BW, 0.9, 2, f.cross_leaf_fraction(1024, K, "all_to_all"))
    assert f.all_to_all_s(20e9, 1024, ib) == pytest.approx(0.444, abs=5e-4)
    assert f.all_to_all_s(20e9, 1024, eth) == pytest.approx(0.861, abs=5e-4)
    assert f.torus_allreduce_s(32e9, (1, 1, 1024), C.IB_NDR_BW, 0.9) == pytest.approx(0.710, abs=5e-4)  # one ring


# ---- structure ----


def test_cube_torus_cut_has_two_k_squared_links():
    for k in (2, 4, 8, 16):
        assert f.torus_bisection_links((k, k, k)) == 2 * k * k


@pytest.mark.parametrize("n, shape", [(8, (2, 2, 2)), (512, (8, 8, 8)), (2048, (8, 16, 16)),
                                      (4096, (16, 16, 16)), (100, (4, 5, 5)), (7, (1, 1, 7))])
def test_torus_shape_is_most_nearly_cubic(n, shape):
    assert f.torus_shape(n) == shape


def test_torus_bisection_grows_as_n_to_two_thirds():
    small, big = f.torus_bisection_links(f.torus_shape(512)), f.torus_bisection_links(f.torus_shape(4096))
    assert big / small == pytest.approx(8 ** (2 / 3), rel=1e-12)


def test_small_torus_is_injection_bound():
    assert f.torus_all_to_all_rate_bytes_per_s((1, 1, 1), 50e9, 1.0) == 6 * 50e9


def test_a_job_inside_one_leaf_ignores_oversubscription():
    assert f.cross_leaf_fraction(32, K, "all_to_all") == 0.0
    assert phi(32, 4, "all_to_all") == 1.0
    assert f.fat_tree_bisection_bytes_per_s(32, 50e9, 4, K) == 32 * 50e9 / 2


def test_all_to_all_and_random_ring_cross_alike():
    assert f.cross_leaf_fraction(1024, K, "all_to_all") == f.cross_leaf_fraction(1024, K, "ring_random")


def test_a_one_dimensional_torus_is_the_collectives_ring_at_twice_the_link():
    assert f.torus_allreduce_s(1e9, (1, 1, 64), 50e9, 0.9) == collectives.ring_allreduce_s(1e9, 64, 90e9)


# ---- errors name the value and the fix ----


@pytest.mark.parametrize("call, message", [
    (lambda: f.cross_leaf_fraction(128, K, "mesh"), "pattern must be one of"),
    (lambda: f.cross_leaf_fraction(0, K, "ring_aware"), "n_gpus must be a whole number >= 1"),
    (lambda: f.uplink_fraction(0.5, 0.5), "oversubscription must be >= 1"),
    (lambda: f.uplink_fraction(2, 1.5), "cross_fraction must be in [0, 1]"),
    (lambda: f.fat_tree_rate_bytes_per_s(50e9, 0.0, 1, 0.5), "eta must be in (0, 1]"),
    (lambda: f.fat_tree_bisection_bytes_per_s(64, -1, 1, K), "link_bytes_per_s must be > 0"),
    (lambda: f.all_to_all_s(-1, 8, 50e9), "bytes_per_gpu must be >= 0"),
    (lambda: f.torus_bisection_links((0, 2, 2)), "torus side must be a whole number"),
])
def test_errors(call, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")):
        call()


# ---- properties ----


@FAST
@given(n=st.integers(2, 8192), k=st.integers(1, 128), r=st.sampled_from([1, 2, 3, 4, 8]),
       pattern=st.sampled_from(f.PATTERNS))
def test_fraction_is_between_one_over_r_and_one(n, k, r, pattern):
    value = phi(n, r, pattern, k)
    assert 1 / r <= value <= 1


@FAST
@given(n=st.integers(33, 8192), r=st.sampled_from([2, 4]))
def test_topology_aware_never_loses_to_random(n, r):
    assert phi(n, r, "ring_aware") >= phi(n, r, "ring_random")


@FAST
@given(n=st.integers(1, 5000))
def test_torus_shape_multiplies_back(n):
    a, b, c = f.torus_shape(n)
    assert a * b * c == n and a <= b <= c


def test_torus_allreduce_runs_rings_in_every_dimension_at_once():
    """A bidirectional ring uses two of a 3D torus's six links (0.710 s for 32 GB
    on 1,024 GPUs, 50 GB/s links at 90 %, 45 GB/s of payload); rings in all three dimensions at once
    keep all six busy: 0.237 s. Source: the scaling book, 'Sharded matrices'
    (jax-ml.github.io/scaling-book/sharding): an AllGather over n_axes axes takes V/(W_ICI·n_axes),
    W_ICI the bidirectional link bandwidth, and an AllReduce is two of them; Ying et al. 2018
    (arXiv:1811.06992) ran the 2-D case on a TPU v3 pod."""
    t = f.torus_allreduce_s(32e9, (8, 8, 16), C.IB_NDR_BW, 0.9)
    assert t == pytest.approx(0.2368, abs=5e-5)
    scaling_book = 2 * 32e9 / (2 * 0.9 * C.IB_NDR_BW * 3)  # 2·V/(W_ICI·n_axes), no (N−1)/N
    assert t == pytest.approx(scaling_book * 1023 / 1024, rel=1e-12)
    assert t == pytest.approx(f.torus_allreduce_s(32e9, (1, 1, 1024), C.IB_NDR_BW, 0.9) / 3, rel=1e-12)
    assert f.torus_allreduce_s(1e9, (1, 8, 8), 50e9, 1.0) == collectives.ring_allreduce_s(1e9, 64, 200e9)
    assert f.torus_allreduce_s(1e9, (1, 1, 1), 50e9, 1.0) == 0.0
    with pytest.raises(ValueError, match="eta"):
        f.torus_allreduce_s(1e9, (4, 4, 4), 50e9, 0.0)
