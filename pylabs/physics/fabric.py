"""Cluster fabrics: bisection bandwidth, oversubscription, locality and 3D tori.

A two-level fat tree (leaf-spine, folded Clos) gives each leaf ``k`` GPU-facing ports of
``b`` bytes/s per direction and ``k/r`` uplinks, where ``r`` is the oversubscription. Traffic
that stays inside a leaf never touches an uplink, so what a collective gets depends on the
fraction ``f`` of its bytes that leave the leaf: each GPU can drive at most
``b * min(1, 1/(r*f))``. A ring needs only neighbour bandwidth (a ring crosses any cut just
twice), so a topology-aware ring keeps the full rate; uniform all-to-all sends almost
everything across the cut and is the pattern that bisection bounds.

A 3D torus ``kx x ky x kz`` with wraparound links has no switches: each GPU has six links of
``b_l`` bytes/s per direction. Cutting it across its longest side ``L`` severs ``2N/L`` links
(``2k^2`` for a ``k x k x k`` cube), so its bisection grows as ``N^(2/3)``.

All rates are bytes/s per direction; times in seconds; ``eta`` is the protocol efficiency
(the share of the line rate that carries payload). Source: Dally & Towles 2004, Principles
and Practices of Interconnection Networks, ch. 3 and 5 (bisection, torus channel load);
Leiserson 1985 (fat trees); handbook/labs/v2_03.md §2.
"""

import math

from pylabs.physics.validators import (require, require_count, require_finite_positive, require_fraction,
                                       require_non_negative, require_positive_fraction)

from . import collectives

PATTERNS = ("ring_aware", "ring_random", "all_to_all")


def _check_count(name: str, value: float, minimum: int = 1) -> None:
    require_count(name, value, "pass a count of GPUs or ports", minimum)


def _check_rate(name: str, value: float) -> None:
    require_finite_positive(name, value, "pass a per-direction link rate in bytes/s, e.g. constants.IB_NDR_BW",
                            rule="> 0 bytes/s")


def _check_eta(eta: float) -> None:
    require_positive_fraction("eta", eta, "pass the protocol efficiency as a fraction")


def fat_tree_bisection_bytes_per_s(n_gpus: float, link_bytes_per_s: float, oversubscription: float,
                                   leaf_ports: float) -> float:
    """B_bis = N*b/(2r) when the job spans leaves (N > k), else N*b/2 (one non-blocking leaf).

    Source: Dally & Towles 2004, sec. 3.3 (bisection bandwidth); handbook/labs/v2_03.md §2.
    """
    _check_count("n_gpus", n_gpus)
    _check_count("leaf_ports", leaf_ports)
    _check_rate("link_bytes_per_s", link_bytes_per_s)
    require(oversubscription >= 1, "oversubscription", oversubscription, ">= 1", "pass r of an r:1 leaf")
    r = oversubscription if n_gpus > leaf_ports else 1.0
    return n_gpus * link_bytes_per_s / (2 * r)


def cross_leaf_fraction(n_gpus: float, leaf_ports: float, pattern: str) -> float:
    """f = 1/k for a topology-aware ring; (N-k)/(N-1) for a randomly placed ring or all-to-all; 0 if N <= k.

    A ring laid out leaf by leaf leaves each leaf once per k hops; with random placement a
    rank's neighbour (or a uniform destination) is on another leaf with probability (N-k)/(N-1).
    Source: handbook/labs/v2_03.md §2 (derived from the leaf-spine layout).
    """
    _check_count("n_gpus", n_gpus)
    _check_count("leaf_ports", leaf_ports)
    require(pattern in PATTERNS, "pattern", pattern, f"one of {PATTERNS}", "name the traffic pattern")
    if n_gpus <= leaf_ports:
        return 0.0
    if pattern == "ring_aware":
        return 1.0 / leaf_ports
    return (n_gpus - leaf_ports) / (n_gpus - 1)


def uplink_fraction(oversubscription: float, cross_fraction: float) -> float:
    """phi = min(1, 1/(r*f)): the share of the leaf-port rate a GPU keeps behind r:1 uplinks.

    Source: handbook/labs/v2_03.md §2 (a leaf's k*f*x bytes/s of off-leaf traffic share k/r uplinks).
    """
    require(oversubscription >= 1, "oversubscription", oversubscription, ">= 1", "pass r of an r:1 leaf")
    require_fraction("cross_fraction", cross_fraction, "pass the share of traffic that leaves the leaf")
    if cross_fraction == 0:
        return 1.0
    return min(1.0, 1.0 / (oversubscription * cross_fraction))


def fat_tree_rate_bytes_per_s(link_bytes_per_s: float, eta: float, oversubscription: float,
                              cross_fraction: float) -> float:
    """B_eff = eta * b * min(1, 1/(r*f)): per-GPU payload rate through an r:1 leaf-spine fabric.

    Source: handbook/labs/v2_03.md §2.
    """
    _check_rate("link_bytes_per_s", link_bytes_per_s)
    _check_eta(eta)
    return eta * link_bytes_per_s * uplink_fraction(oversubscription, cross_fraction)


def torus_shape(n_gpus: float) -> tuple[int, int, int]:
    """The most nearly cubic kx <= ky <= kz with kx*ky*kz = N (1,024 -> 8 x 8 x 16).

    Source: the usual packing of a 3D torus (Dally & Towles 2004, sec. 5.1).
    """
    _check_count("n_gpus", n_gpus)
    n = int(n_gpus)
    best = (1, 1, n)
    for a in range(1, round(n ** (1 / 3)) + 2):
        if n % a:
            continue
        for b in range(a, math.isqrt(n // a) + 1):
            if (n // a) % b == 0:
                shape = (a, b, n // a // b)
                if (shape[2], -shape[0]) < (best[2], -best[0]):
                    best = shape
    return best


def torus_bisection_links(shape: tuple[int, int, int]) -> float:
    """2N/L links cross the cut across the longest side L (wraparound doubles it): 2k^2 for a cube.

    Source: Dally & Towles 2004, sec. 5.2 (a k-ary n-cube's bisection is 4N/k channels, i.e.
    2N/k bidirectional links).
    """
    for side in shape:
        _check_count("torus side", side)
    n = shape[0] * shape[1] * shape[2]
    return 2 * n / max(shape)


def torus_bisection_bytes_per_s(shape: tuple[int, int, int], link_bytes_per_s: float) -> float:
    """B_bis = (2N/L) * b_l.

    Source: Dally & Towles 2004, sec. 5.2.
    """
    _check_rate("link_bytes_per_s", link_bytes_per_s)
    return torus_bisection_links(shape) * link_bytes_per_s


def torus_all_to_all_rate_bytes_per_s(shape: tuple[int, int, int], link_bytes_per_s: float,
                                      eta: float) -> float:
    """B_inj = min(6*eta*b_l, 8*eta*b_l/L): uniform traffic loads the longest ring's links with L/8.

    Source: Dally & Towles 2004, sec. 5.2 (torus channel load under uniform traffic,
    gamma_max = k/8 for even k); handbook/labs/v2_03.md §2.
    """
    _check_rate("link_bytes_per_s", link_bytes_per_s)
    _check_eta(eta)
    torus_bisection_links(shape)
    return min(6 * eta * link_bytes_per_s, 8 * eta * link_bytes_per_s / max(shape))


def all_to_all_s(bytes_per_gpu: float, n_gpus: float, rate_bytes_per_s: float) -> float:
    """T = S_a*(N-1)/N / B_inj: each GPU sends all but its own 1/N share at its injection rate.

    Source: handbook/labs/v2_03.md §2; the bandwidth term of Thakur, Rabenseifner & Gropp 2005 (all-to-all).
    """
    require_non_negative("bytes_per_gpu", bytes_per_gpu, "pass bytes each GPU sends", rule=">= 0 bytes")
    _check_count("n_gpus", n_gpus)
    _check_rate("rate_bytes_per_s", rate_bytes_per_s)
    return bytes_per_gpu * (n_gpus - 1) / n_gpus / rate_bytes_per_s


def torus_allreduce_s(size_bytes: float, shape: tuple[int, int, int], link_bytes_per_s: float,
                      eta: float) -> float:
    """T = 2(N-1)/N * S/(2*d*eta*b_l): bidirectional rings in all d dimensions, every link busy.

    A torus of one dimension (shape (1, 1, N)) is the single ring sent both ways round, two links
    (handbook/labs/v2_03.md §2's 0.710 s for 32 GB on 1,024 GPUs); three dimensions keep all six links busy.

    Each GPU must send 2(N-1)/N*S bytes; a torus gives it two links per dimension of side > 1
    (six in 3D), and multi-dimensional rings that run the dimensions at once (the data split so
    that each share starts in another dimension) keep them all busy. An idealised bound: it
    neglects latency and the uneven stages of the dimension-by-dimension schedule.
    Source: Austin et al., How to Scale Your Model, 'Sharded matrices' (an AllGather over
    n_axes torus axes takes V/(W_ICI*n_axes), W_ICI the bidirectional link bandwidth, and an
    AllReduce costs two AllGathers: 2V/(2*b*3) for three axes, this formula without (N-1)/N);
    Ying et al. 2018 (the 2-D torus all-reduce on a TPU v3 pod); Patarasuk & Yuan 2009
    (2(N-1)/N*S is the bytes each rank must send).
    """
    _check_rate("link_bytes_per_s", link_bytes_per_s)
    _check_eta(eta)
    torus_bisection_links(shape)
    n = shape[0] * shape[1] * shape[2]
    dims = sum(side > 1 for side in shape)
    if dims == 0:
        return 0.0
    return collectives.ring_allreduce_s(size_bytes, n, 2 * dims * eta * link_bytes_per_s)
