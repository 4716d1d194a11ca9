"""Collective communication costs in the alpha-beta model, and NCCL-tests bandwidths.

Every time is T = a*alpha + b*S/B for an algorithm with a latency steps and bandwidth
factor b, where S is the message size in bytes, B the per-rank per-direction bandwidth in
bytes/s and alpha the per-message latency in seconds (gamma, the reduction cost, is 0).
With one rank there is nothing to communicate, so every collective costs 0 s.

Step counts that are log2(p) use ceil(log2(p)) when p is not a power of two. This is a
lower bound: MPICH's non-power-of-two variants add a few extra steps (handbook/labs/v2_06.md §2,
row 14).

Source: Thakur, Rabenseifner & Gropp 2005, "Optimization of Collective Communication
Operations in MPICH" (the same formulas are in the comments of MPICH's
src/mpi/coll/allreduce.c); NVIDIA nccl-tests doc/PERFORMANCE.md for algbw and busbw.
"""

import math

from pylabs.physics.validators import require_count, require_non_negative, require_positive


def _check_ranks(name: str, p: float) -> None:
    require_count(name, p, "pass the number of ranks (GPUs) taking part in the collective")


def _check_size(size_bytes: float) -> None:
    require_non_negative("size_bytes", size_bytes,
                         "pass the message size in bytes (e.g. 2 * params for bf16 gradients)", rule=">= 0 bytes")


def _check_bw(name: str, bw: float) -> None:
    require_positive(name, bw, "pass a per-direction bandwidth in bytes/s, e.g. constants.NVLINK4_BW",
                     rule="> 0 bytes/s")


def _check_alpha(alpha_s: float) -> None:
    require_non_negative("alpha_s", alpha_s, "pass the per-message latency in seconds, e.g. constants.IB_ALPHA_S",
                         rule=">= 0 s")


def _check_common(size_bytes: float, p: float, bw: float, alpha_s: float) -> None:
    _check_size(size_bytes)
    _check_ranks("p", p)
    _check_bw("bw", bw)
    _check_alpha(alpha_s)


def log2_steps(p: float) -> int:
    """ceil(log2(p)): rounds of a recursive-halving/doubling or binomial-tree algorithm.

    Source: Thakur, Rabenseifner & Gropp 2005 (exact for p = 2^k; a lower bound otherwise).
    """
    _check_ranks("p", p)
    return math.ceil(math.log2(p))


def ring_allreduce_s(size_bytes: float, p: float, bw: float, alpha_s: float = 0.0) -> float:
    """T = 2(p-1)*alpha + 2(p-1)/p * S/B.

    Source: Thakur, Rabenseifner & Gropp 2005 (ring = reduce-scatter + all-gather);
    Patarasuk & Yuan 2009 show the bandwidth term is optimal.
    """
    _check_common(size_bytes, p, bw, alpha_s)
    if p == 1:
        return 0.0
    return 2 * (p - 1) * alpha_s + 2 * (p - 1) / p * size_bytes / bw


def rabenseifner_allreduce_s(
    size_bytes: float, p: float, bw: float, alpha_s: float = 0.0
) -> float:
    """T = 2*lg(p)*alpha + 2(p-1)/p * S/B  (recursive-halving RS + recursive-doubling AG).

    Source: Thakur, Rabenseifner & Gropp 2005 (Rabenseifner's algorithm).
    """
    _check_common(size_bytes, p, bw, alpha_s)
    if p == 1:
        return 0.0
    return 2 * log2_steps(p) * alpha_s + 2 * (p - 1) / p * size_bytes / bw


def recursive_doubling_allreduce_s(
    size_bytes: float, p: float, bw: float, alpha_s: float = 0.0
) -> float:
    """T = lg(p) * (alpha + S/B)  (every round exchanges the whole message).

    Source: Thakur, Rabenseifner & Gropp 2005.
    """
    _check_common(size_bytes, p, bw, alpha_s)
    if p == 1:
        return 0.0
    return log2_steps(p) * (alpha_s + size_bytes / bw)


def binomial_tree_allreduce_s(
    size_bytes: float, p: float, bw: float, alpha_s: float = 0.0
) -> float:
    """T = 2*lg(p) * (alpha + S/B)  (binomial-tree reduce, then binomial-tree broadcast).

    Source: Thakur, Rabenseifner & Gropp 2005.
    """
    _check_common(size_bytes, p, bw, alpha_s)
    if p == 1:
        return 0.0
    return 2 * log2_steps(p) * (alpha_s + size_bytes / bw)


def reduce_scatter_halving_s(
    size_bytes: float, p: float, bw: float, alpha_s: float = 0.0
) -> float:
    """T = lg(p)*alpha + (p-1)/p * S/B  (a reduce-scatter only: half of an all-reduce).

    Source: Thakur, Rabenseifner & Gropp 2005 (recursive halving).
    """
    _check_common(size_bytes, p, bw, alpha_s)
    if p == 1:
        return 0.0
    return log2_steps(p) * alpha_s + (p - 1) / p * size_bytes / bw


def naive_master_allreduce_s(
    size_bytes: float, p: float, bw: float, alpha_s: float = 0.0, pipelined: bool = False
) -> float:
    """T = 2(p-1)(alpha + S/B) serial gather-then-broadcast; pipelined: (p-1)*S/B + 2*alpha.

    The master receives p-1 messages, then sends p-1 messages through one link. Pipelined,
    chunked and full duplex, the receive and send streams overlap, halving the time.
    Source: handbook/labs/v2_06.md §2 (derived from the alpha-beta model of Thakur et al. 2005).
    """
    _check_common(size_bytes, p, bw, alpha_s)
    if p == 1:
        return 0.0
    if pipelined:
        return (p - 1) * size_bytes / bw + 2 * alpha_s
    return 2 * (p - 1) * (alpha_s + size_bytes / bw)


def algbw(size_bytes: float, time_s: float) -> float:
    """algbw = S / t  (bytes/s).

    Source: NVIDIA nccl-tests doc/PERFORMANCE.md.
    """
    _check_size(size_bytes)
    require_positive("time_s", time_s, "pass the measured collective time", rule="> 0 s")
    return size_bytes / time_s


def busbw(size_bytes: float, time_s: float, p: float) -> float:
    """busbw = S/t * 2(p-1)/p for all-reduce (bytes/s; equals B when ring hits the bound).

    Source: NVIDIA nccl-tests doc/PERFORMANCE.md.
    """
    _check_ranks("p", p)
    return algbw(size_bytes, time_s) * 2 * (p - 1) / p


def _tie_bytes(steps_a: float, factor_a: float, steps_b: float, factor_b: float,
               alpha_s: float, bw: float) -> float:
    """Smallest S at which algorithm A is no slower than B, for T = steps*alpha + factor*S/B.

    0.0 when A never loses; math.inf when A never wins for large messages.
    """
    latency_gap_s = alpha_s * (steps_a - steps_b)
    slope_gap_s_per_b = (factor_a - factor_b) / bw
    if slope_gap_s_per_b < 0:
        return max(0.0, latency_gap_s / -slope_gap_s_per_b)
    if slope_gap_s_per_b == 0 and latency_gap_s <= 0:
        return 0.0
    return math.inf


def _check_crossover(p: float, alpha_s: float, bw: float) -> None:
    _check_ranks("p", p)
    _check_alpha(alpha_s)
    _check_bw("bw", bw)


def ring_binomial_crossover_bytes(p: float, alpha_s: float, bw: float) -> float:
    """n* = alpha*B*(2(p-1) - 2 lg p) / (2 lg p - 2(p-1)/p): ring is no slower for S >= n*.

    Returns 0.0 when ring never loses (p <= 3 with ceil(lg p), or alpha = 0).
    Source: Thakur, Rabenseifner & Gropp 2005 cost formulas, solved for equality (handbook/labs/v2_06.md §2).
    """
    _check_crossover(p, alpha_s, bw)
    lg = log2_steps(p)
    return _tie_bytes(2 * (p - 1), 2 * (p - 1) / p, 2 * lg, 2 * lg, alpha_s, bw)


def ring_rd_crossover_bytes(p: float, alpha_s: float, bw: float) -> float:
    """n* = alpha*B*(2(p-1) - lg p) / (lg p - 2(p-1)/p): ring beats recursive doubling above n*.

    Returns math.inf when ring never wins (p = 2: same bytes, one more latency step).
    Source: Thakur, Rabenseifner & Gropp 2005 cost formulas, solved for equality (handbook/labs/v2_06.md §2).
    """
    _check_crossover(p, alpha_s, bw)
    lg = log2_steps(p)
    return _tie_bytes(2 * (p - 1), 2 * (p - 1) / p, lg, lg, alpha_s, bw)


def rabenseifner_rd_crossover_bytes(p: float, alpha_s: float, bw: float) -> float:
    """n* = lg p * alpha*B / (lg p - 2(p-1)/p): Rabenseifner beats recursive doubling above n*.

    Returns math.inf when Rabenseifner never wins (p = 2).
    Source: Thakur, Rabenseifner & Gropp 2005 (MPICH switches at a fixed size).
    """
    _check_crossover(p, alpha_s, bw)
    lg = log2_steps(p)
    return _tie_bytes(2 * lg, 2 * (p - 1) / p, lg, lg, alpha_s, bw)


def hierarchical_allreduce_s(
    size_bytes: float,
    gpus_per_node: float,
    nodes: float,
    intra_bw: float,
    nic_bw: float,
    nics_per_node: float,
) -> float:
    """T = 2(g-1)/g * S/B_intra + 2(n-1)/n * S/(L*B_nic)  (one node: ring over g GPUs).

    Intra-node reduce-scatter and all-gather over NVLink cost (g-1)/g*S/B_intra each; the
    inter-node ring all-reduce of the node's S bytes is spread over its L NICs (rails).
    Latency is neglected (large gradient messages).
    Source: handbook/labs/v2_02.md §2; scaling book "How to Think About GPUs" (node egress).
    """
    _check_size(size_bytes)
    _check_ranks("gpus_per_node", gpus_per_node)
    require_count("nodes", nodes, "pass the number of nodes (servers) in the job")
    _check_bw("intra_bw", intra_bw)
    _check_bw("nic_bw", nic_bw)
    require_count("nics_per_node", nics_per_node,
                  "pass the NICs each node uses for the inter-node all-reduce (DGX H100: 8)")
    intra_s = ring_allreduce_s(size_bytes, gpus_per_node, intra_bw)
    return intra_s + ring_allreduce_s(size_bytes, nodes, nics_per_node * nic_bw)
