"""The scenario and the model of V1-05 (The Activation Tax): Act I's activation layer on each
device's roofline, and Act II's Memory Ledger of a feature-map pyramid. The lab module (``v1_05``)
reads like its page; this is its model (numbers in, numbers out).
"""

from __future__ import annotations

from dataclasses import dataclass

from pylabs.labs.vol1.contexts import device
from pylabs.physics import constants as C
from pylabs.physics import layers

KIB = layers.KIB_BYTES


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs (pedagogical defaults, not hardware facts)."""

    fps_now: float = 12.0
    fps_target: float = 24.0
    activation_layers: int = 4
    act1_side: float = 56.0
    act1_channels: float = 256.0
    exp_ops: float = 12.0          # assumed: range reduction plus a degree-~6 polynomial
    buffer_bytes: float = 512 * 1024.0  # the scenario's on-chip buffer (assumed, not a vendor figure)
    image_side: float = 224.0
    first_channels: float = 64.0
    batch: float = 8.0
    bytes_per_value: float = 4.0   # the ledger starts in FP32
    stages: int = 6
    ratio_floor: float = 1e-3      # a map smaller than this share of the buffer reads as a share, not "0.0000157×"
    # the layer time is a bound at peak bandwidth, with no measured time beside it: the Act I key is proven for any
    # achieved share of the peak from this floor to 1 (defect class 20)
    bandwidth_floor: float = 0.1


S = Scenario()
FRAME_S = 1 / S.fps_now
PRECISIONS = {"int8": ("INT8", 1.0), "fp16": ("FP16 / BF16", 2.0), "fp32": ("FP32", 4.0)}
NAMES = {"relu": "ReLU", "leaky_relu": "Leaky ReLU", "sigmoid": "Sigmoid", "tanh": "Tanh", "gelu": "GELU"}
# the precision each context's maps start in: the phone's Neural Engine runs INT8 fastest (coremltools),
# the GPUs run FP16
PRESET_PRECISION = {"cloud": "fp16", "edge": "fp16", "mobile": "int8"}
SHORT = {"cloud": "H100", "edge": "Jetson Orin NX", "mobile": "A17 Pro phone"}


@dataclass(frozen=True)
class Engine:
    """Where a context's elementwise work runs at a precision: its rate and what the rate counts."""

    rate: float
    unit_fmt: str   # "OP/s" for integer operations, "FLOP/s" for floating point
    where: str


def engine(context: str, precision: str) -> Engine:
    """The GPUs run activations on their CUDA cores at the FP32 rate (tensor cores do matrix
    products only); the phone runs INT8 on the Neural Engine at Apple's 35 TOPS, FP16 there at the
    assumed half of it, and FP32 on its GPU (coremltools: a float 32 Core ML model runs on the GPU and CPU,
    not the Neural Engine)."""
    if context == "cloud":
        return Engine(C.H100_PEAK_FP32, "FLOP/s", "H100 CUDA cores, FP32 rate")
    if context == "edge":
        return Engine(C.ORIN_NX_PEAK_FP32, "FLOP/s", "Orin NX CUDA cores, FP32 rate")
    if precision == "int8":
        return Engine(C.A17_PRO_NPU_OPS, "OP/s", "Neural Engine, INT8 (Apple's 35 TOPS)")
    if precision == "fp16":
        return Engine(C.A17_PRO_NPU_FP16_ASSUMED, "FLOP/s", "Neural Engine, FP16 (assumed half of 35 TOPS)")
    return Engine(C.A17_PRO_GPU_FP32_ASSUMED, "FLOP/s", "A17 Pro GPU, FP32 (assumed clock)")


def ops(function: str, exp_ops: float = S.exp_ops) -> float:
    return layers.activation_ops_per_element(function, exp_ops)


@dataclass(frozen=True)
class ActLayer:
    """One activation layer on the chosen device."""

    elements: float
    ops: float
    bytes_per_value: float
    rate: float
    mem_bw: float
    fused: bool

    @property
    def compute_s(self) -> float:
        return layers.elementwise_compute_s(self.elements, self.ops, self.rate)

    @property
    def memory_s(self) -> float:
        return 0.0 if self.fused else layers.elementwise_memory_s(self.elements, self.bytes_per_value, self.mem_bw)

    @property
    def time_s(self) -> float:
        return layers.elementwise_layer_s(self.elements, self.ops, self.bytes_per_value, self.rate,
                                          self.mem_bw, self.fused)

    @property
    def bytes_moved(self) -> float:
        return 0.0 if self.fused else 2 * self.bytes_per_value * self.elements

    @property
    def crossover_ops(self) -> float:
        return layers.elementwise_crossover_ops(self.bytes_per_value, self.rate, self.mem_bw)


def act_layer(context: str, function: str, precision: str, side: float = S.act1_side,
              exp_ops: float = S.exp_ops, fused: bool = False) -> ActLayer:
    return ActLayer(side ** 2 * S.act1_channels, ops(function, exp_ops), PRECISIONS[precision][1],
                    engine(context, precision).rate, device(context).mem_bw, fused)


def scenario_layer(context: str, function: str = "sigmoid") -> ActLayer:
    """A layer at the scenario's inputs in ``context``: its preset precision, 56×56×256, unfused."""
    return act_layer(context, function, PRESET_PRECISION[context])


def fps_with(frame_s: float, saved_s: float) -> float:
    return 1 / (frame_s - saved_s)


def frame_share(context: str) -> float:
    """Act I's answer: the four sigmoid layers' share of the 12 FPS frame, at the scenario's inputs."""
    return S.activation_layers * scenario_layer(context).time_s / FRAME_S


# ---- Act II: the Memory Ledger ---------------------------------------------------------


@dataclass(frozen=True)
class Ledger:
    """The six feature maps of one pass and where they live."""

    maps: tuple[float, ...]
    buffer: float
    buffer_name: str
    training: bool
    ram: float
    mem_bw: float

    @property
    def peak(self) -> float:
        return layers.peak_live_bytes(self.maps, self.training)

    @property
    def other_peak(self) -> float:
        return layers.peak_live_bytes(self.maps, not self.training)

    @property
    def spilled(self) -> list[bool]:
        return layers.spilled_layers(self.maps, self.buffer)

    @property
    def spill_s(self) -> float:
        return layers.spill_traffic_bytes(self.maps, self.buffer) / self.mem_bw

    @property
    def oom(self) -> bool:
        return self.peak > self.ram


def pyramid(image: float = S.image_side, channels: float = S.first_channels,
            bytes_per_value: float = S.bytes_per_value, batch: float = S.batch) -> tuple[float, ...]:
    return tuple(layers.pyramid_map_bytes(int(image), int(channels), bytes_per_value, batch, S.stages))


def first_map_ratio() -> float:
    """Act II's answer: the ledger's first map at its starting settings ÷ the 512 KiB buffer."""
    return pyramid()[0] / S.buffer_bytes


def peaks() -> tuple[float, float]:
    """(training, inference) peak at the ledger's starting settings."""
    maps = pyramid()
    return layers.peak_live_bytes(maps, True), layers.peak_live_bytes(maps, False)
