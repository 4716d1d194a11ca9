"""The model of V2-03 (The Bisection Bandwidth Wall): the scenario and the fabric constants, Act I's
``LeafSpine`` job (what a traffic pattern keeps of its link through r:1 uplinks) and Act II's three
candidate fabrics with the communication ``Step`` of one training step on each. The lab module
(``v2_03``) reads like its page.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from pylabs.physics import collectives, fabric
from pylabs.physics import constants as C


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs (pedagogical defaults and quotes, not hardware facts)."""

    act1_gpus: int = 128
    act1_oversub: str = "2"
    act1_pattern: str = "ring_aware"      # the scheduler places ranks leaf by leaf (the Act I question)
    act1_gradient_bytes: float = 14e9     # bf16 gradients of a 7B model
    eta: float = 0.9                      # protocol efficiency: payload share of the line rate (assumed)
    eta_min: float = 0.5                  # the efficiency slider's ends
    eta_max: float = 1.0
    act2_gpus: int = 1024                 # 128 DGX H100
    act2_gradient_bytes: float = 32e9     # dense gradients per step
    act2_a2a_bytes: float = 20e9          # MoE all-to-all per GPU per step (roadmap)
    budget_s: float = 1.0                 # communication per step
    uplink_floor: float = 0.5             # Act I's failure line: a GPU keeping less of its link is uplink-bound
    budget_usd: float = 50e6
    cost_torus_usd: float = 5e6           # quotes carried over from the upstream lab [A]
    cost_eth_usd: float = 8e6
    cost_ib_usd: float = 20e6
    torus_small_gpus: int = 512           # the reflection's growth step, 8x the GPUs
    torus_big_gpus: int = 4096


S = Scenario()
LEAF_PORTS = int(C.IB_NDR_SWITCH_PORTS) // 2   # half of a 64-port leaf faces the GPUs
GPUS_PER_NODE = int(C.DGX_H100_GPUS_PER_NODE)
RAILS = int(C.DGX_H100_NICS)


@dataclass(frozen=True)
class LeafSpine:
    """A job of ``gpus`` on a two-level fat tree of LEAF_PORTS-GPU leaves with r:1 uplinks."""

    gpus: int
    link: float
    oversub: float
    pattern: str
    eta: float

    @property
    def cross(self) -> float:
        return fabric.cross_leaf_fraction(self.gpus, LEAF_PORTS, self.pattern)

    @property
    def kept(self) -> float:
        return fabric.uplink_fraction(self.oversub, self.cross)

    @property
    def rate(self) -> float:
        return fabric.fat_tree_rate_bytes_per_s(self.link, self.eta, self.oversub, self.cross)

    @property
    def bisection(self) -> float:
        return fabric.fat_tree_bisection_bytes_per_s(self.gpus, self.link, self.oversub, LEAF_PORTS)


SCENARIO_JOB = LeafSpine(S.act1_gpus, C.IB_HDR_BW, float(S.act1_oversub), S.act1_pattern, S.eta)
SCATTERED_JOB = LeafSpine(S.act1_gpus, C.IB_HDR_BW, float(S.act1_oversub), "ring_random", S.eta)


def act1_truth() -> float:
    """The share of single-leaf bandwidth the ordered ring keeps (the same in both workloads)."""
    return SCENARIO_JOB.kept


@dataclass(frozen=True)
class Fabric:
    """A quoted fabric. ``name`` and ``short`` are templates the lab fills from the numbers: {rate} the
    link's line rate, {ethernet} its Ethernet name, {ratio} the r:1 oversubscription."""

    key: str
    name: str
    short: str
    link: float
    oversub: float | None   # None: a switchless torus
    cost: float


FABRICS = {f.key: f for f in (
    Fabric("torus", "3D torus: six {rate} links per GPU, no switches", "3D torus", C.IB_NDR_BW, None,
           S.cost_torus_usd),
    Fabric("eth", "{ethernet} leaf-spine, {ratio} oversubscribed", "{ethernet} {ratio}", C.ETH_400G_BW, 2.0,
           S.cost_eth_usd),
    Fabric("ib", "InfiniBand NDR leaf-spine, {ratio} non-blocking", "IB NDR {ratio}", C.IB_NDR_BW, 1.0,
           S.cost_ib_usd),
)}
LETTERS = {"A": "torus", "B": "ib", "C": "eth"}


@dataclass(frozen=True)
class Step:
    """Communication of one training step on one fabric."""

    fabric: Fabric
    gpus: int
    allreduce_s: float
    a2a_s: float
    a2a_rate: float
    bisection: float

    @property
    def total_s(self) -> float:
        return self.allreduce_s + self.a2a_s

    @property
    def meets(self) -> bool:
        return self.total_s <= S.budget_s and self.fabric.cost <= S.budget_usd


@lru_cache
def step(fab: Fabric, gpus: int, eta: float, a2a_bytes: float) -> Step:
    """One step on ``fab`` (pure: a slider move asks the scaling chart for 21 of them, kept per arguments)."""
    if fab.oversub is None:
        shape = fabric.torus_shape(gpus)
        allreduce = fabric.torus_allreduce_s(S.act2_gradient_bytes, shape, fab.link, eta)
        rate = fabric.torus_all_to_all_rate_bytes_per_s(shape, fab.link, eta)
        bisection = fabric.torus_bisection_bytes_per_s(shape, fab.link)
    else:
        nodes = gpus // GPUS_PER_NODE
        rail = fabric.fat_tree_rate_bytes_per_s(fab.link, eta, fab.oversub,
                                                fabric.cross_leaf_fraction(nodes, LEAF_PORTS, "ring_aware"))
        allreduce = collectives.hierarchical_allreduce_s(S.act2_gradient_bytes, GPUS_PER_NODE, nodes,
                                                         eta * C.NVLINK4_BW, rail, RAILS)
        rate = fabric.fat_tree_rate_bytes_per_s(fab.link, eta, fab.oversub,
                                                fabric.cross_leaf_fraction(gpus, LEAF_PORTS, "all_to_all"))
        bisection = fabric.fat_tree_bisection_bytes_per_s(gpus, fab.link, fab.oversub, LEAF_PORTS)
    return Step(fab, gpus, allreduce, fabric.all_to_all_s(a2a_bytes, gpus, rate), rate, bisection)


def scenario_step(key: str, a2a_bytes: float = S.act2_a2a_bytes) -> Step:
    return step(FABRICS[key], S.act2_gpus, S.eta, a2a_bytes)


A2A_BYTES = {"moe": S.act2_a2a_bytes, "dense": 0.0}   # each workload's all-to-all per GPU per step


def act2_answer(context: str) -> str:
    """The cheapest fabric that meets both budgets at the scenario's inputs in the workload locked
    in; D when none does."""
    passing = [f for f in FABRICS.values() if scenario_step(f.key, A2A_BYTES[context]).meets]
    if not passing:
        return "D"
    cheapest = min(passing, key=lambda f: f.cost)
    return next(letter for letter, key in LETTERS.items() if key == cheapest.key)
