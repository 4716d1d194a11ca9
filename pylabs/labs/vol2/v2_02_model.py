"""The scenario and the model of V2-02 (The Interconnect Wall): Act I's eight-GPU data-parallel step
on each fabric, and Act II's DGX H100 nodes joined by one to eight NICs each. The lab module
(``v2_02``) reads like its page; this is its model.
"""

from __future__ import annotations

from dataclasses import dataclass

from pylabs.physics import collectives, training
from pylabs.physics import constants as C

@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs (pedagogical defaults, not hardware facts)."""

    params: float = 13e9                 # a 13B model: fits 8 × 80 GB with ZeRO-2
    mfu: float = 0.45                    # utilisation of the compute phases
    gpus_per_node: int = 8
    zero_stage: int = 2
    act1_tokens: float = 4096.0          # tokens per GPU per step (pretraining)
    act2_tokens: float = 3072.0
    act2_nodes: int = 16
    finetune_tokens: float = 1024.0      # the fine-tuning context's shorter steps
    global_batch_tokens: float = 262144.0  # strong scaling: 2^18 tokens per step
    bytes_per_grad: float = 2.0          # bf16 gradients
    model_sizes: tuple[tuple[str, float], ...] = (("7b", 7e9), ("13b", 13e9), ("70b", 70e9))


S = Scenario()
MODEL_SIZES = dict(S.model_sizes)


def gradient_bytes(params: float) -> float:
    return params * S.bytes_per_grad


def compute_s(params: float, tokens: float) -> float:
    return training.compute_time_s(params, tokens, C.H100_PEAK_BF16_DENSE, S.mfu)


FABRICS = {
    "nvlink": ("NVLink 4 inside one DGX H100", C.NVLINK4_BW),
    "pcie5": ("PCIe Gen5 ×16 inside one server", C.PCIE5_X16_BW),
    "pcie4": ("PCIe Gen4 ×16 inside one server", C.PCIE4_X16_BW),
    "ndr": ("8 servers, one 400G NDR NIC each", C.IB_NDR_BW),
    "eth100": ("8 servers, 100 GbE each", C.ETH_100G_BW),
}
SERVERS = (2, 4, 8, 16, 32, 64)  # single-GPU servers in an Act I ring: NVLink and PCIe boxes stop at 8
NICS = {"hdr": ("InfiniBand HDR, 200 Gb/s", C.IB_HDR_BW), "ndr": ("InfiniBand NDR, 400 Gb/s", C.IB_NDR_BW)}


@dataclass(frozen=True)
class Sync:
    """One data-parallel step on 8 GPUs: compute, ring all-reduce, and what follows."""

    compute_s: float
    allreduce_s: float

    @property
    def efficiency(self) -> float:
        return self.compute_s / (self.compute_s + self.allreduce_s)

    @property
    def ratio(self) -> float:
        return self.allreduce_s / self.compute_s


def single_node_step(params: float, tokens: float, fabric: str) -> Sync:
    bw = FABRICS[fabric][1]
    return Sync(compute_s(params, tokens),
                collectives.ring_allreduce_s(gradient_bytes(params), S.gpus_per_node, bw))


def slowdown(params: float, tokens: float, fabric: str) -> float:
    """DGX throughput ÷ this fabric's throughput (same GPUs, same work)."""
    return single_node_step(params, tokens, "nvlink").efficiency / single_node_step(params, tokens, fabric).efficiency


def overlapped_slowdown(params: float, tokens: float, fabric: str) -> float:
    """The slowdown if the all-reduce ran under the backward pass (two-thirds of the 6PT compute), the
    most that bucketed overlap can hide; the page's model adds the two phases instead."""
    def step(key: str) -> float:
        sync = single_node_step(params, tokens, key)
        return sync.compute_s / 3 + max(2 * sync.compute_s / 3, sync.allreduce_s)
    return step(fabric) / step("nvlink")


def memory_per_gpu_bytes(params: float) -> float:
    return training.model_state_bytes(params, 1, 1, S.gpus_per_node, S.zero_stage)


def context_tokens(context: str, act: int) -> float:
    """Tokens per GPU per step that the context presets for an act."""
    if context == "finetune":
        return S.finetune_tokens
    return S.act1_tokens if act == 1 else S.act2_tokens


@dataclass(frozen=True)
class Cluster:
    nodes: int
    nics: int
    nic_bw: float
    tokens: float      # per GPU per step, weak scaling
    strong: bool

    def tokens_per_gpu(self, nodes: int) -> float:
        if self.strong:
            return S.global_batch_tokens / (S.gpus_per_node * nodes)
        return self.tokens

    def step_s(self, nodes: int) -> tuple[float, float]:
        compute = compute_s(S.params, self.tokens_per_gpu(nodes))
        comm = collectives.hierarchical_allreduce_s(gradient_bytes(S.params), S.gpus_per_node, nodes,
                                                    C.NVLINK4_BW, self.nic_bw, self.nics)
        return compute, comm

    def speedup(self, nodes: int) -> float:
        """Throughput of ``nodes`` over one node; under strong scaling, time to a fixed batch."""
        one = sum(self.step_s(1))
        many = sum(self.step_s(nodes))
        return one / many if self.strong else nodes * one / many


def scenario_cluster(context: str, nics: int = 1, nic_bw: float = C.IB_NDR_BW, strong: bool = False) -> Cluster:
    return Cluster(S.act2_nodes, nics, nic_bw, context_tokens(context, 2), strong)


def rails_gain(c: Cluster, nodes: int) -> float:
    """Speedup with eight NICs per node over the speedup with this cluster's NICs, at ``nodes`` nodes."""
    return Cluster(c.nodes, C.DGX_H100_NICS, c.nic_bw, c.tokens, c.strong).speedup(nodes) / c.speedup(nodes)


def critical_tokens(fabric: str) -> float:
    """Tokens per GPU per step above which the ring all-reduce on ``fabric`` takes less than the compute."""
    return training.dp_critical_tokens(S.gpus_per_node, FABRICS[fabric][1], C.H100_PEAK_BF16_DENSE, S.mfu)


def clears(c: Cluster, nodes: int) -> bool:
    """The all-reduce takes no longer than the compute at ``nodes`` nodes."""
    compute, comm = c.step_s(nodes)
    return comm <= compute


@dataclass(frozen=True)
class WallFixes:
    """The levers that clear the network wall on their own (None or False where none does)."""

    nics: int | None          # the fewest NICs per node that clear it
    ndr: bool                 # NDR ports instead of HDR clear it
    nodes: int | None         # strong scaling: the most nodes at which it clears
    tokens: float | None      # weak scaling: tokens per GPU that clear it, if within ``max_tokens``


def wall_fixes(c: Cluster, max_tokens: float) -> WallFixes:
    n = c.nodes
    nics = [L for L in (2, 4, 8) if L > c.nics and clears(Cluster(n, L, c.nic_bw, c.tokens, c.strong), n)]
    ndr = c.nic_bw < C.IB_NDR_BW and clears(Cluster(n, c.nics, C.IB_NDR_BW, c.tokens, c.strong), n)
    fewer = [m for m in range(n - 1, 0, -1) if clears(c, m)] if c.strong else []
    need = None if c.strong else c.step_s(n)[1] / compute_s(S.params, 1.0)
    return WallFixes(nics[0] if nics else None, ndr, fewer[0] if fewer else None,
                     need if need is not None and need <= max_tokens else None)
