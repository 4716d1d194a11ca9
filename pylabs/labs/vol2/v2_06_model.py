"""The model of V2-06 (The Bandwidth Invariant): the scenario, Act I's naive master against the
ring, and Act II's four all-reduce algorithms with ``Sync`` (one all-reduce and the step it belongs
to) and the ring/tree crossover. The lab module (``v2_06``) reads like its page.
"""

from __future__ import annotations

from dataclasses import dataclass

from pylabs.physics import collectives, training
from pylabs.physics import constants as C


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs (pedagogical defaults, not hardware facts)."""

    gpus: int = 128                  # the research cluster: 16 DGX nodes, one NIC per GPU
    small_gpus: int = 8              # where the homegrown all-reduce "was fine"
    frontier_gpus: int = 1024        # the other context: the cluster grown eightfold
    act1_params: float = 7e9         # a 7B model: 14 GB of BF16 gradients
    small_params: float = 5e5        # a 0.5 M-parameter model: a 1 MB message
    tokens_per_gpu: float = 8192.0   # tokens each GPU processes per step (Act II compute)
    mfu: float = 0.45                # utilisation of the compute phases
    comm_limit: float = 0.5          # the failure line: all-reduce share of the step
    tie: float = 1e-3                # two algorithms within 0.1 % of each other count as tied


S = Scenario()
ALPHA = C.IB_ALPHA_S


def grad_bytes(params: float) -> float:
    return params * C.BYTES_PER_BF16


def naive_s(size: float, p: int, bw: float, pipelined: bool = False) -> float:
    return collectives.naive_master_allreduce_s(size, p, bw, ALPHA, pipelined)


def ring_s(size: float, p: int, bw: float) -> float:
    return collectives.ring_allreduce_s(size, p, bw, ALPHA)


def naive_ratio(size: float, p: int, bw: float, pipelined: bool = False) -> float:
    return naive_s(size, p, bw, pipelined) / ring_s(size, p, bw)


GPUS = {"cluster": S.gpus, "frontier": S.frontier_gpus}   # the GPU count each context sets
ACT1_SIZE = grad_bytes(S.act1_params)


def act1_truth(context: str) -> float:
    """Act I's key: the ring's time for the 7B gradient on the context's GPUs over NDR."""
    return ring_s(ACT1_SIZE, GPUS[context], C.IB_NDR_BW)


def act1_ratio(context: str) -> float:
    return naive_ratio(ACT1_SIZE, GPUS[context], C.IB_NDR_BW)


PIPELINED = naive_ratio(ACT1_SIZE, S.gpus, C.IB_NDR_BW, pipelined=True)
GPU_COUNTS = [2 ** k for k in range(1, 11)]   # the GPU counts Act I's charts sweep


ALGORITHMS = {
    "ring": ("Ring", collectives.ring_allreduce_s, "series1"),
    "rab": ("Halving + doubling", collectives.rabenseifner_allreduce_s, "series2"),
    "rd": ("Recursive doubling", collectives.recursive_doubling_allreduce_s, "series3"),
    "tree": ("Binomial tree", collectives.binomial_tree_allreduce_s, "series4"),
}


@dataclass(frozen=True)
class Sync:
    """One all-reduce of ``message`` bytes over ``gpus`` GPUs, and the step it belongs to."""

    message: float
    gpus: int = S.gpus
    bw: float = C.IB_NDR_BW
    algorithm: str = "ring"
    tokens: float = S.tokens_per_gpu

    def time(self, key: str | None = None) -> float:
        return ALGORITHMS[key or self.algorithm][1](self.message, self.gpus, self.bw, ALPHA)

    @property
    def compute_s(self) -> float:
        """6 FLOP per parameter per token for the model whose BF16 gradient is the message."""
        params = self.message / C.BYTES_PER_BF16
        return training.compute_time_s(params, self.tokens, C.H100_PEAK_BF16_DENSE, S.mfu)

    @property
    def share(self) -> float:
        return self.time() / (self.time() + self.compute_s)

    @property
    def crossover(self) -> float:
        return crossover(self.gpus, self.bw)

    def fastest(self) -> str:
        return min(ALGORITHMS, key=self.time)

    def latency(self, key: str | None = None) -> float:
        """The part of an algorithm's time that is latency steps alone (a zero-byte message)."""
        return ALGORITHMS[key or self.algorithm][1](0.0, self.gpus, self.bw, ALPHA)

    @property
    def ring_over_hd(self) -> float:
        """How much longer the ring takes than halving + doubling, as a share of the latter."""
        return self.time("ring") / self.time("rab") - 1

    def size_for_ring_over_hd(self, share: float) -> float:
        """The message at which the ring's extra latency steps cost ``share`` of halving + doubling's
        time: (T_ring − T_HD) = share·T_HD, solved for S (the bandwidth terms are equal)."""
        extra = self.latency("ring") - self.latency("rab")
        per_byte = 2 * (self.gpus - 1) / self.gpus / self.bw
        return max(0.0, (extra / share - self.latency("rab")) / per_byte)


def crossover(gpus: int = S.gpus, bw: float = C.IB_NDR_BW) -> float:
    """The message size above which the ring beats the binomial tree."""
    return collectives.ring_binomial_crossover_bytes(gpus, ALPHA, bw)


BIG_PARAMS = C.GPT3_PARAMS   # the first of Act II's three jobs, and the workload it opens on


def act2_sync(context: str) -> Sync:
    return Sync(grad_bytes(BIG_PARAMS), GPUS[context])


def act2_truth(context: str) -> float:
    """Act II's key: how much longer the ring takes than halving + doubling for the 175B gradient."""
    return act2_sync(context).ring_over_hd


def clears(x: Sync) -> bool:
    """The step is no longer communication-bound: the all-reduce takes at most ``S.comm_limit``."""
    return x.share <= S.comm_limit


def tokens_to_clear(x: Sync) -> float:
    """Tokens per GPU at which the compute grows to the all-reduce's time (share 50 %): the compute
    is linear in the tokens, the all-reduce does not depend on them."""
    return x.tokens * x.time() * (1 - S.comm_limit) / (S.comm_limit * x.compute_s)
