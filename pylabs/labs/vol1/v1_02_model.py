"""The scenario and model of V1-02 (The Iron Law): the device pairs an upgrade compares and the upgrade's
Iron Law, and the perception service's round trip and inference. The lab module (``v1_02``) reads like its
page; this is its model.
"""

from __future__ import annotations

from dataclasses import dataclass

from pylabs.physics import constants as C
from pylabs.physics import devices, ironlaw
from pylabs.physics.devices import Device
from pylabs.physics.ironlaw import Upgrade


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs (pedagogical defaults, not hardware facts)."""

    bytes_per_weight: float = 2.0        # BF16 / FP16 weights
    int8_bytes_per_weight: float = 1.0   # INT8 weights, widened to FP16 in the kernel (weight-only, W8A16)
    decode_params: float = 1e9           # Act I: a 1B-parameter model in BF16, every weight read once per decoding step
    users: float = 5.0                   # requests decoded together in one step
    flop_per_param: float = 2.0          # one multiply-add per parameter per token (Kaplan et al. 2020)
    overhead_s: float = 0.05e-3          # launches and framework per request
    upgrade_usd: float = 2e6
    wasted_cut: float = 0.10             # Act I warning: the upgrade removes less than this share of latency
    anecdote_cut: float = 0.08           # the upstream story's "8 % gain"
    distance_m: float = 3_000e3          # Act II: the data centre's distance from the cars
    route_factor: float = 1.0            # fibre path over straight line
    batch: float = 1.0                   # camera frames per inference
    batch_example: float = 8.0           # Act II reflection: frames per inference in the batching fix
    sla_s: float = 10e-3                 # frame to answer
    activation_bytes: float = 0.0        # per image: assumed to stay on chip (a lower bound on D)
    waterfall_height_px: int = 240       # two bars need less height than a full chart
    chart_distances_km: tuple[float, ...] = (0, 250, 500, 750, 1000, 1500, 2000, 2500, 3000, 3500, 4000, 4500, 5000)

    @property
    def bytes_moved(self) -> float:
        """Bytes read per decoding step: every weight once."""
        return self.decode_params * self.bytes_per_weight

    @property
    def intensity(self) -> float:
        """FLOP per byte of one step: each user's token costs 2 FLOP per 2-byte weight."""
        return self.users * self.flop_per_param / self.bytes_per_weight


S = Scenario()
RESNET50_FLOP = 2 * C.RESNET50_MACS  # two FLOP per multiply-accumulate

# ---- context: which devices the instruments compare --------------------------------------

# Weight-only INT8 (W8A16, TensorRT-LLM's "W8A16 weight-only"): the weights are stored in one byte and widened
# to FP16 inside the kernel, so the multiplies run on the same FP16 tensor cores at the same dense rate; the
# widening is counted as free (it hides under the memory time of a memory-bound step).
ORIN_W8A16 = devices.ORIN_NX


@dataclass(frozen=True)
class Pair:
    """What an upgrade compares: two devices, their short names, and the bytes the new side reads for each
    byte the old side reads (1 for the same BF16 weights; ½ when INT8 weights replace FP16 ones)."""

    old: Device
    new: Device
    old_name: str
    new_name: str
    bytes_ratio: float


PAIRS: dict[str, Pair] = {
    "cloud": Pair(devices.A100, devices.H100, "A100", "H100", 1.0),
    "edge": Pair(devices.ORIN_NX, ORIN_W8A16, "FP16-weight Orin NX", "INT8-weight Orin NX",
                 S.int8_bytes_per_weight / S.bytes_per_weight),
}
CONTEXTS = tuple(PAIRS)


def upgrade(context: str, d_bytes: float, intensity: float, overhead_s: float) -> Upgrade:
    """The same step before and after: ``d_bytes`` of 16-bit weights and ``intensity`` operations per 16-bit
    byte, so the step's operations are the same on both sides; INT8 weights read half the bytes (Edge).
    Reading the same 2 GB on both Orin paths gave 1.02×; with INT8 weights it is 1.93×.
    Review: on the INT8 tensor path the compute ratio (2×, stated in the story) and the byte ratio (½) are
    the same number, so the compute-ratio belief found the key; weight-only INT8 keeps the FP16 rate."""
    p = PAIRS[context]
    ops = intensity * d_bytes
    return Upgrade(ironlaw.on_device(p.old, d_bytes, ops, overhead_s),
                   ironlaw.on_device(p.new, d_bytes * p.bytes_ratio, ops, overhead_s), p.old, p.new)


def scenario_upgrade(context: str) -> Upgrade:
    return upgrade(context, S.bytes_moved, S.intensity, S.overhead_s)


SCENARIO_UPGRADE = scenario_upgrade("cloud")

# ---- Act I · The memory wall --------------------------------------------------------


def act1_truth(context: str) -> float:
    return scenario_upgrade(context).speedup


# ---- Act II · The light barrier -------------------------------------------------------


@dataclass(frozen=True)
class Service:
    """One perception request: the network round trip and the inference on a device."""

    rtt_s: float
    inference: ironlaw.IronLaw
    batch: float

    @property
    def total_s(self) -> float:
        return self.rtt_s + self.inference.total_s


def perception_bytes(batch: float) -> float:
    return C.RESNET50_PARAMS * S.bytes_per_weight + batch * S.activation_bytes


def perception(dev: Device, batch: float) -> ironlaw.IronLaw:
    return ironlaw.iron_law(perception_bytes(batch), batch * RESNET50_FLOP, dev.mem_bw, dev.peak_ops,
                            S.overhead_s)


def service(context: str, distance_m: float, route: float, batch: float) -> Service:
    """Cloud: a remote H100 at ``distance_m``; edge: the Orin NX in the vehicle, no network."""
    if context == "edge":
        return Service(0.0, perception(devices.ORIN_NX, batch), batch)
    return Service(ironlaw.fibre_rtt_s(distance_m, route), perception(devices.H100, batch), batch)


SCENARIO_SERVICE = service("cloud", S.distance_m, S.route_factor, S.batch)


def farthest_h100_m(sla_s: float, route: float, batch: float) -> float:
    """The farthest a remote H100 can sit and still answer within ``sla_s`` (0 when inference alone misses)."""
    return ironlaw.max_distance_m(sla_s, perception(devices.H100, batch).total_s, route)


def act2_truth() -> float:
    """Act II asks about the stakeholder's plan, a remote H100, in every context: the farthest site on a
    straight fibre that answers one frame within the SLA."""
    return farthest_h100_m(S.sla_s, S.route_factor, S.batch)


def perception_intensity(batch: float) -> float:
    """FLOP per byte of one batched ResNet-50 inference: weights are read once per batch."""
    return batch * RESNET50_FLOP / perception_bytes(batch)
