"""V1-01's model: the gap between the ends of the Machine axis (Act I) and the Iron Law terms of
one inference on each track's device (Act II). Numbers in, numbers out; the page is in v1_01.py."""

from __future__ import annotations

from dataclasses import dataclass

from pylabs.framework import fmt
from pylabs.physics import constants as C
from pylabs.physics import magnitude as mag
from pylabs.physics.devices import BY_CONTEXT, H100, STM32H743


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs (pedagogical, not hardware facts)."""

    mcu_price_usd: float = 2.40        # the VP's bill of materials per device
    act2_batch: int = 1                # one sample at a time
    act2_overhead_s: float = 10e-6     # a kernel-launch-scale overhead to try after the question
    batch_high: int = 64               # the largest batch the calculator and the Act II reflection reach


S = Scenario()


def giga(value: float, unit: str) -> str:
    """A rate in G units even below one G, so the M7's rates read side by side (0.96 GFLOP/s)."""
    return f"{fmt(value / 10.0 ** 9, 'num')} G{unit}"


SHORT = {"cloud": "H100", "edge": "Jetson Orin NX", "mobile": "A17 Pro", "tiny": "Cortex-M7"}
PRECISION_NAMES = {"fp32": "FP32", "bf16": "16-bit float", "int8": "INT8"}
# What each device computes a precision with: its dense peak and the bytes a weight then takes.
# The M7 has no 16-bit float arithmetic: BF16 weights widen to FP32 in its FPU. The Neural Engine
# is reported to run floating point in FP16 (github.com/hollance/neural-engine, docs/16-bit.md: 'the
# ANE appears to use float16 for everything'; Apple publishes no FP32 rate):
# an FP32 model is run there as FP16. The phone's rates are read from Apple's 35 TOPS, precision
# not stated (registry A17_PRO_NPU_OPS, A17_PRO_NPU_FP16_ASSUMED).
# The M7's peaks are derived, not ST figures: it has one MAC pipeline and one FP pipeline (LLVM
# ARMScheduleM7.td: M7UnitMAC and M7UnitVFP, each ProcResource<1>), so one SMLAD (two 16-bit
# multiply-accumulates; INT8 operands are widened by SXTB16 on the two ALUs) and one VFMA.F32 per cycle:
# 2 MAC x 2 op x 480 MHz = 1.92 GOP/s INT8 and 1 FMA x 2 x 480 MHz = 0.96 GFLOP/s FP32.
RATES = {
    ("cloud", "fp32"): C.H100_PEAK_TF32_DENSE, ("cloud", "bf16"): C.H100_PEAK_BF16_DENSE,
    ("cloud", "int8"): C.H100_PEAK_INT8_DENSE,
    ("edge", "fp32"): C.ORIN_NX_PEAK_FP32, ("edge", "bf16"): C.ORIN_NX_PEAK_FP16_DENSE,
    ("edge", "int8"): C.ORIN_NX_PEAK_INT8_DENSE,
    ("mobile", "fp32"): C.A17_PRO_NPU_FP16_ASSUMED, ("mobile", "bf16"): C.A17_PRO_NPU_FP16_ASSUMED,
    ("mobile", "int8"): C.A17_PRO_NPU_OPS,
    ("tiny", "fp32"): C.STM32H743_PEAK_FP32, ("tiny", "bf16"): C.STM32H743_PEAK_FP32,
    ("tiny", "int8"): C.STM32H743_PEAK_INT8,
}
APPLE_RATE = fmt(C.A17_PRO_NPU_OPS, "OP/s")  # Apple's headline, precision not stated
RATE_NAMES = {
    ("cloud", "fp32"): "TF32 tensor cores, dense", ("cloud", "bf16"): "BF16 tensor cores, dense",
    ("cloud", "int8"): "INT8 tensor cores, dense",
    ("edge", "fp32"): "FP32 CUDA cores", ("edge", "bf16"): "FP16 tensor cores, dense (derived)",
    ("edge", "int8"): "INT8 tensor cores, dense (derived)",
    ("mobile", "fp32"): f"FP16 on the Neural Engine (assumed: half of Apple's {APPLE_RATE})",
    ("mobile", "bf16"): f"FP16 on the Neural Engine (assumed: half of Apple's {APPLE_RATE})",
    ("mobile", "int8"): f"Neural Engine, Apple's {APPLE_RATE} read as INT8",
    ("tiny", "fp32"): "FP32, 1 FMA per cycle", ("tiny", "bf16"): "FP32 rate (no 16-bit float arithmetic)",
    ("tiny", "int8"): "INT8 SIMD, 2 MAC per cycle",
}
WEIGHT_BYTES = {"fp32": C.BYTES_PER_FP32, "bf16": C.BYTES_PER_BF16, "int8": C.BYTES_PER_INT8}
MODELS = {"resnet50": ("ResNet-50 image classifier", C.RESNET50_PARAMS, C.RESNET50_MACS),
          "dscnn": ("DS-CNN keyword spotter", C.KWS_DSCNN_PARAMS, C.KWS_DSCNN_MACS)}
SAMPLE = {"resnet50": "image", "dscnn": "audio window"}


def bytes_per_weight(where: str, precision: str) -> float:
    """The bytes a weight takes as the device runs it (the phone runs FP32 models in FP16)."""
    return C.BYTES_PER_BF16 if (where, precision) == ("mobile", "fp32") else WEIGHT_BYTES[precision]


def weight_capacity(where: str) -> float:
    """Where the weights live: the M7's read-only weights stay in its flash; the others' in DRAM/HBM."""
    return C.STM32H743_FLASH_BYTES if where == "tiny" else BY_CONTEXT[where].mem_bytes


# ---- Act I · the gap between the two ends ----------------------------------------------------


def peak_ratio(precision: str) -> float:
    """H100 ÷ M7 peak operations per second at the same precision (INT8, or FP32 without tensor cores)."""
    if precision == "int8":
        return mag.ratio(C.H100_PEAK_INT8_DENSE, C.STM32H743_PEAK_INT8)
    return mag.ratio(C.H100_PEAK_FP32, C.STM32H743_PEAK_FP32)


def int8_peak(where: str) -> float:
    """A track's device on its best dense ML path, INT8 (the phone: Apple's 35 TOPS read as INT8)."""
    return RATES[(where, "int8")]


def mcu_bandwidth(memory: str) -> float:
    return C.STM32H743_ONCHIP_BW if memory == "onchip" else C.STM32H743_QSPI_BW


@dataclass(frozen=True)
class Gap:
    """H100 ÷ M7 along each Machine axis."""

    compute: float
    bandwidth: float
    capacity: float
    power: float

    @property
    def ops_per_joule(self) -> float:
        """How many times more operations per joule the H100 does at full load."""
        return self.compute / self.power

    @property
    def ridge_ratio(self) -> float:
        """H100 ÷ M7 operations per byte at the ridge: how far apart the two balances are."""
        return self.compute / self.bandwidth


def gap(precision: str, memory: str, mcu_power_w: float) -> Gap:
    return Gap(peak_ratio(precision), mag.ratio(C.H100_HBM_BW, mcu_bandwidth(memory)),
               mag.ratio(H100.mem_bytes, STM32H743.mem_bytes), mag.ratio(H100.power_w, mcu_power_w))


SCENARIO_GAP = gap("int8", "onchip", C.MCU_ACTIVE_POWER_W)


def act1_truth() -> float:
    """The same in every track: the question is about the two ends of the axis."""
    return peak_ratio("int8")


# ---- Act II · the Iron Law on the track's device --------------------------------------------


@dataclass(frozen=True)
class Run:
    """One model at one batch on one device and precision."""

    where: str
    precision: str
    model: str
    batch: int
    overhead_s: float

    @property
    def peak(self) -> float:
        return RATES[(self.where, self.precision)]

    @property
    def bandwidth(self) -> float:
        return BY_CONTEXT[self.where].mem_bw

    @property
    def weights(self) -> float:
        return mag.weight_bytes(MODELS[self.model][1], bytes_per_weight(self.where, self.precision))

    @property
    def flop(self) -> float:
        return mag.inference_flop(MODELS[self.model][2], self.batch)

    @property
    def law(self) -> mag.IronLaw:
        return mag.iron_law(self.flop, self.weights, self.peak, self.bandwidth, self.overhead_s)

    @property
    def fits(self) -> bool:
        return self.weights <= weight_capacity(self.where)

    @property
    def crossover(self) -> float:
        return mag.crossover_batch(self.weights, mag.inference_flop(MODELS[self.model][2], 1), self.peak,
                                   self.bandwidth)

    def at(self, batch: int) -> "Run":
        return Run(self.where, self.precision, self.model, batch, self.overhead_s)

    @property
    def per_sample_s(self) -> float:
        return self.law.total_s / self.batch


# Each track's Act II question: the cloud serves ResNet-50 in BF16; the Orin runs it in FP16 on its
# tensor cores; the phone in INT8 on the Neural Engine; the M7 runs the DS-CNN keyword spotter in
# INT8, since ResNet-50's weights do not fit its flash (the failure state).
SCENARIO_RUNS = {
    "cloud": Run("cloud", "bf16", "resnet50", S.act2_batch, 0.0),
    "edge": Run("edge", "bf16", "resnet50", S.act2_batch, 0.0),
    "mobile": Run("mobile", "int8", "resnet50", S.act2_batch, 0.0),
    "tiny": Run("tiny", "int8", "dscnn", S.act2_batch, 0.0),
}
M7_RESNET = Run("tiny", "int8", "resnet50", S.act2_batch, 0.0)


def act2_truth(context: str) -> float:
    return SCENARIO_RUNS[context].law.memory_over_compute


def small_fall(r: Run, big: Run) -> str:
    """A sentence for a chip whose weight traffic is a sliver of the time at batch 1 (the M7 with the
    DS-CNN): there the time per sample is already near its floor and batching buys almost nothing."""
    share = r.law.memory_s / r.law.total_s
    if share >= SMALL_SHARE:
        return ""
    fall = 1 - big.per_sample_s / r.per_sample_s
    return (f" On the {SHORT[r.where]} the weights are only {fmt(share, 'pct')} of the time at batch 1, so the fall "
            f"is {fmt(fall, 'pct')}: a chip bound by its arithmetic gains almost nothing from batching.")


SMALL_SHARE = 0.05  # below this share of the batch-1 time, the fall is called small
