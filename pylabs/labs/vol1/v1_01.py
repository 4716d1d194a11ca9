"""Lab V1-01 · The Magnitude Awakening (the D·A·M triad).

Core invariant: a datacentre GPU and a microcontroller differ by orders of magnitude in every
Machine quantity at once (compute, bandwidth, memory, power), and the Iron Law
T = D/BW + O/R + L says which of them sets the time of one inference.

Act I (the magnitude gap): a VP wants keyword spotting on $2.40 MCUs and asks why the cloud
stack cannot be reused. How many times more operations per second does an H100 deliver than a
Cortex-M7, each at its best dense ML path (INT8)? The physics: 1.03 × 10⁶. The FP32-vs-FP32
gap, shown beside it, is only 7 × 10⁴: precision is part of the comparison.
Act II (the Iron Law preview): ResNet-50 at batch 1 on the H100 in BF16. Which term is larger?
Weight streaming (15.3 µs) beats arithmetic (8.3 µs) by 1.84×: memory-bound, until batch 2.
On the M7 the INT8 weights are 12× its flash: the model does not fit at all.

Choices made where the spec left them open: ResNet-50 is 4.1 G multiply-adds, i.e. 8.2 GFLOP
(VOL1 §0.2 error 4); the Act II device list is the lab's two contexts (H100, M7), since the
question and the failure both live there; the M7 has no BF16 arithmetic, so BF16 runs at its FP32
rate; its weights live in its 2 MB flash, so that is the capacity the fit check uses; the
on-chip bandwidth (1.9 GB/s) and the MCU's power (0.1 W) are labelled assumptions, the power an
instrument. Activations are left out of D (a lower bound, as the spec's default A = 0).

Ledger fields: context, both predictions and reflections (recorded by the framework), and the
results ``compute_ratio``, ``bound`` and ``oom``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option,
                              Prediction, Range, Reflection, Slider, State, callout, chart, failure,
                              fmt, math_peek, metric_grid, prose)
from pylabs.framework import charts as ch
from pylabs.labs.vol1.contexts import TRACK, deployment, device
from pylabs.physics import constants as C
from pylabs.physics import magnitude as mag
from pylabs.physics.devices import H100, STM32H743
from pylabs.physics.references import cite


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs (pedagogical, not hardware facts)."""

    mcu_price_usd: float = 2.40        # the VP's bill of materials per device
    act2_batch: int = 1                # one image at a time
    act2_precision: str = "bf16"
    act2_overhead_s: float = 10e-6     # a kernel-launch-scale overhead to try after the question


S = Scenario()

CONTEXT = deployment(("cloud", "tiny"), default="cloud",
                     help="Whose side of the gap you stand on: sets the device the instruments start from.")

PRECISION_BYTES = {"fp32": C.BYTES_PER_FP32, "bf16": C.BYTES_PER_BF16, "int8": C.BYTES_PER_INT8}
PRECISION_NAMES = {"fp32": "FP32", "bf16": "BF16", "int8": "INT8"}
# Dense peak per (device, precision). The M7 has no BF16 arithmetic: it widens to FP32.
RATES = {
    ("cloud", "fp32"): C.H100_PEAK_TF32_DENSE, ("cloud", "bf16"): C.H100_PEAK_BF16_DENSE,
    ("cloud", "int8"): C.H100_PEAK_INT8_DENSE,
    ("tiny", "fp32"): C.STM32H743_PEAK_FP32, ("tiny", "bf16"): C.STM32H743_PEAK_FP32,
    ("tiny", "int8"): C.STM32H743_PEAK_INT8,
}
RATE_NAMES = {("cloud", "fp32"): "TF32 tensor, dense", ("cloud", "bf16"): "BF16 tensor, dense",
              ("cloud", "int8"): "INT8 tensor, dense", ("tiny", "fp32"): "FP32, 1 FMA per cycle",
              ("tiny", "bf16"): "FP32 rate (no BF16 arithmetic)", ("tiny", "int8"): "INT8 SIMD, 2 MAC per cycle"}
SHORT = {"cloud": "H100", "tiny": "Cortex-M7"}


def weight_capacity(where: str) -> float:
    """Where the weights live: the H100's HBM, the M7's flash (read-only weights stay in flash)."""
    return C.H100_HBM_BYTES if where == "cloud" else C.STM32H743_FLASH_BYTES


def capacity_text(where: str) -> str:
    """The capacity as its datasheet states it: decimal GB for HBM, binary MiB for MCU flash."""
    return fmt(weight_capacity(where), "GB" if where == "cloud" else "iB")


# ---- Act I · The magnitude gap -------------------------------------------------------

A1_PRECISION = Choice("a1_precision", "Compare compute at", (
    Option("int8", "Each chip's best dense ML path (INT8)"),
    Option("fp32", "FP32 on both (the H100 without tensor cores)"),
), default="int8")
A1_MCU_MEMORY = Choice("a1_mcu_memory", "Cortex-M7 memory the weights stream from", (
    Option("onchip", f"On-chip SRAM and flash, {fmt(C.STM32H743_ONCHIP_BW, 'GB/s')} (assumed)"),
    Option("qspi", f"External quad-SPI flash, {fmt(C.STM32H743_QSPI_BW, 'GB/s')}"),
), default="onchip", help="ST does not publish an on-chip bandwidth; the lab assumes one.")
A1_MCU_POWER = Slider("a1_mcu_power", "Cortex-M7 active power (assumed)", unit="W", min=0.02, max=0.5,
                      step=0.01, default=C.MCU_ACTIVE_POWER_W, fmt="W",
                      help="An order-of-magnitude estimate, not an ST figure: move it and watch which ratios move.")


def peak_ratio(precision: str) -> float:
    """H100 ÷ M7 peak operations per second at the same precision."""
    if precision == "int8":
        return mag.ratio(C.H100_PEAK_INT8_DENSE, C.STM32H743_PEAK_INT8)
    return mag.ratio(C.H100_PEAK_FP32, C.STM32H743_PEAK_FP32)


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


def gap(precision: str, memory: str, mcu_power_w: float) -> Gap:
    return Gap(peak_ratio(precision), mag.ratio(C.H100_HBM_BW, mcu_bandwidth(memory)),
               mag.ratio(H100.mem_bytes, STM32H743.mem_bytes), mag.ratio(H100.power_w, mcu_power_w))


def act1_truth() -> float:
    return peak_ratio("int8")


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt="Take each chip at its best dense ML data path: INT8 tensor cores on the H100, INT8 SIMD on the "
           "Cortex-M7. How many times more operations per second does one H100 deliver?",
    quantity="H100 INT8 peak ÷ Cortex-M7 INT8 peak",
    unit_fmt="x10",
    options=(
        Range("A", "{range}: a big chip against a small one", None, 1e3, 1e2,
              "That is roughly one laptop core against an MCU. The H100 adds thousands of parallel lanes, "
              "tensor cores and a faster clock."),
        Range("B", "{range}: wider lanes and a faster clock, multiplied", 1e3, 1e5, 1e4,
              "That is the FP32 gap without tensor cores ({fp32_ratio}). At INT8 the H100's tensor cores "
              "open it much further, while the M7 only doubles its rate."),
        Range("C", "{range}: a gap no single design choice explains", 1e5, 1e8, 1e6,
              "{int8_h100} against {int8_m7}: {int8_orders} orders of magnitude on one axis alone."),
        Range("D", "{range}: a supercomputer against a pocket calculator", 1e8, None, 1e9,
              "Nine orders needs a sparse rate, mixed precisions or several axes multiplied together; "
              "even the H100's 2:4-sparse INT8 rate only doubles the dense one."),
    ),
    truth=act1_truth,
)

ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="So why can't the cloud serving stack be recompiled for the $2.40 MCU?",
    options=(
        Claim("A", "It can: a better compiler for the MCU would close most of the gap.",
              "Compilers win small constant factors. The gap is {int8_ratio} in compute and {capacity_ratio} "
              "in memory: no compiler crosses that."),
        Claim("B", "Compute, bandwidth, memory and power all differ by orders of magnitude at once, so each "
                   "regime needs its own models, runtimes and tools.",
              "Every Machine axis moves together: {int8_ratio} in compute, {capacity_ratio} in memory, "
              "{power_ratio} in power. A stack tuned for one end is wrong at the other."),
        Claim("C", "Only memory differs; with more flash the cloud model would run at cloud speed.",
              "Memory is one axis. The compute gap alone ({int8_ratio}) turns microseconds into seconds."),
        Claim("D", "It is a precision problem: quantise the cloud model to INT8 and it runs the same.",
              "The {int8_ratio} is already INT8 against INT8. Quantising shrinks the model; it does not "
              "close the hardware gap."),
    ),
    answer_letter="B",
)


def act1_facts() -> dict[str, str]:
    g = gap("int8", "onchip", C.MCU_ACTIVE_POWER_W)
    return {"fp32_ratio": fmt(peak_ratio("fp32"), "x10"), "int8_ratio": fmt(peak_ratio("int8"), "x10"),
            "int8_h100": fmt(C.H100_PEAK_INT8_DENSE, "OP/s"), "int8_m7": fmt(C.STM32H743_PEAK_INT8, "OP/s"),
            "int8_orders": f"{mag.orders_of_magnitude(peak_ratio('int8')):.1f}",
            "capacity_ratio": fmt(g.capacity, "x10"), "power_ratio": fmt(g.power, "x10")}


M = {m.name: m for m in (
    MetricSpec("a1_compute_ratio", "H100 ÷ M7, peak compute", "1", "x10"),
    MetricSpec("a1_bandwidth_ratio", "H100 ÷ M7, memory bandwidth", "1", "x10"),
    MetricSpec("a1_capacity_ratio", "H100 ÷ M7, memory capacity", "1", "x10"),
    MetricSpec("a1_power_ratio", "H100 ÷ M7, power", "1", "x10"),
    MetricSpec("a1_efficiency_ratio", "H100 ÷ M7, operations per joule", "1", "x10"),
    MetricSpec("a1_your_peak", "Your device's peak at this precision", "OP/s", "OP/s"),
    MetricSpec("a2_memory_s", "Memory term, D/BW", "s", "s"),
    MetricSpec("a2_compute_s", "Compute term, O/R", "s", "s"),
    MetricSpec("a2_mem_over_comp", "Memory ÷ compute", "1", "x"),
    MetricSpec("a2_total_s", "Time per batch, T", "s", "s"),
    MetricSpec("a2_intensity", "Arithmetic intensity, O/D", "FLOP/B", "num"),
    MetricSpec("a2_ridge", "Ridge point, R/BW", "FLOP/B", "num"),
    MetricSpec("a2_weights", "Weight bytes, D", "B", "B"),
)}

FAILURES = (FailureSpec("a2_does_not_fit", "Does not fit: the weights are larger than the memory", act=2),)
F = {f.name: f for f in FAILURES}


def act1_gap(s: State) -> Gap:
    return gap(s["a1_precision"], s["a1_mcu_memory"], s["a1_mcu_power"])


def your_peak(s: State) -> float:
    where, precision = s["context"], s["a1_precision"]
    if where == "cloud":
        return C.H100_PEAK_INT8_DENSE if precision == "int8" else C.H100_PEAK_FP32
    return C.STM32H743_PEAK_INT8 if precision == "int8" else C.STM32H743_PEAK_FP32


def act1_instruments(s: State) -> list:
    g = act1_gap(s)
    parts = [metric_grid(
        M["a1_compute_ratio"].show(g.compute),
        M["a1_bandwidth_ratio"].show(g.bandwidth),
        M["a1_capacity_ratio"].show(g.capacity, note=f"{fmt(H100.mem_bytes, 'GB')} ÷ {fmt(STM32H743.mem_bytes, 'iB')} SRAM"),
        M["a1_power_ratio"].show(g.power, note=f"{fmt(H100.power_w, 'W')} ÷ {fmt(s['a1_mcu_power'], 'W')}"),
        M["a1_efficiency_ratio"].show(g.ops_per_joule),
        M["a1_your_peak"].show(your_peak(s), note=device(s["context"]).name),
    ), act1_chart(g, s["a1_precision"])]
    parts.append(callout("info", "Precision is part of the comparison", prose(
        f"At FP32 on both chips the compute gap is {fmt(peak_ratio('fp32'), 'x10')}; at each chip's best INT8 "
        f"path it is {fmt(peak_ratio('int8'), 'x10')}. A ratio of two peaks means something only when both "
        "count the same operation, dense, on the path a model actually uses.")))
    return parts


def act1_chart(g: Gap, precision: str):
    names = ["Compute", "Band-<br>width", "Memory", "Power", "Ops per<br>joule"]
    values = [g.compute, g.bandwidth, g.capacity, g.power, g.ops_per_joule]
    orders = [mag.orders_of_magnitude(v) for v in values]
    bars = ch.bars("H100 ÷ Cortex-M7", names, values, ["accent", "series1", "series1", "series1", "series2"],
                   text=[f"{o:.1f}" for o in orders])
    bars["textangle"] = 0
    figure = ch.figure(
        [bars],
        x=ch.axis("", "category", tickangle=0),
        y=ch.axis("H100 ÷ Cortex-M7", "log", range=[0, math.log10(max(values)) + 0.3],
                  **ch.decade_ticks([1.0, *values])), legend=False)
    summary = (f"H100 ÷ Cortex-M7 at {PRECISION_NAMES[precision]}: compute {fmt(g.compute, 'x10')}, bandwidth "
               f"{fmt(g.bandwidth, 'x10')}, memory {fmt(g.capacity, 'x10')}, power {fmt(g.power, 'x10')}; "
               f"between {min(orders):.1f} and {max(orders):.1f} orders of magnitude.")
    rows = [(n.replace("-<br>", "").replace("<br>", " "), fmt(v, "x10"), f"{o:.2f}") for n, v, o in zip(names, values, orders)]
    return chart("a1_gap", "The gap on every Machine axis, in orders of magnitude", figure, summary,
                 table=(("Axis", "H100 ÷ M7", "Orders of magnitude"), rows))


def act1_math(s: State):
    g = act1_gap(s)
    return math_peek("The governing equations · Act I", (
        Equation(r"\text{gap} = \frac{R_{\text{H100}}}{R_{\text{M7}}},\qquad "
                 r"\text{orders} = \log_{10}\text{gap}",
                 "A ratio of like quantities; its logarithm counts orders of magnitude."),
        Equation(r"R_{\text{M7}} = 2\ \tfrac{\text{MAC}}{\text{cycle}}\times 2\ \tfrac{\text{op}}{\text{MAC}}"
                 r"\times f_{\text{clk}}\ \ (\text{INT8});\quad 1\ \tfrac{\text{FMA}}{\text{cycle}}\times 2\times f_{\text{clk}}"
                 r"\ \ (\text{FP32})",
                 "Each multiply-accumulate is two operations, a multiply and an add."),
    ), rows=(
        ("H100 INT8 dense / FP32", f"{fmt(C.H100_PEAK_INT8_DENSE, 'OP/s')} / {fmt(C.H100_PEAK_FP32, 'FLOP/s')}"),
        ("M7 INT8 / FP32", f"{fmt(C.STM32H743_PEAK_INT8, 'OP/s')} / {fmt(C.STM32H743_PEAK_FP32, 'FLOP/s')}"),
        ("Compute gap now", fmt(g.compute, "x10")),
        ("H100 HBM3 / M7 memory", f"{fmt(C.H100_HBM_BW, 'GB/s')} / {fmt(mcu_bandwidth(s['a1_mcu_memory']), 'GB/s')}"),
        ("H100 sparse INT8 (not used)", fmt(2 * C.H100_PEAK_INT8_DENSE, "OP/s")),
    ), sources=(
        C.REGISTRY["H100_PEAK_INT8_DENSE"].source,
        C.REGISTRY["STM32H743_PEAK_INT8"].source,
        C.REGISTRY["STM32H743_ONCHIP_BW"].source,
        C.REGISTRY["MCU_ACTIVE_POWER_W"].source,
    ))


ACT1 = Act(
    number=1, title="The Magnitude Gap", minutes="12–15 min",
    stakeholder_role="VP Engineering",
    stakeholder=lambda: (
        f"We want keyword spotting on a ${S.mcu_price_usd:.2f} microcontroller with "
        f"{fmt(STM32H743.mem_bytes, 'iB')} of SRAM. Our cloud team already serves models on H100s. "
        "Why can't we just reuse their stack? A chip is a chip."),
    scenario=lambda: (
        "The **D·A·M triad** splits every ML system into Data, Algorithm and Machine. This act stays on the "
        "Machine axis and measures how far apart its two ends are: a datacentre GPU and a Cortex-M7 "
        "microcontroller, in compute, memory bandwidth, memory capacity and power.",
        "Compare like with like: one peak per chip, dense, at the same precision.",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_PRECISION, A1_MCU_MEMORY, A1_MCU_POWER),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Magnitude ruler",
)

# ---- Act II · The Iron Law preview -----------------------------------------------------

MODELS = {"resnet50": ("ResNet-50 image classifier", C.RESNET50_PARAMS, C.RESNET50_MACS),
          "dscnn": ("DS-CNN keyword spotter", C.KWS_DSCNN_PARAMS, C.KWS_DSCNN_MACS)}

A2_DEVICE = Choice("a2_device", "Device", (
    Option("cloud", H100.name), Option("tiny", STM32H743.name),
), default="cloud")
A2_PRECISION = Choice("a2_precision", "Precision of weights and arithmetic", (
    Option("fp32", "FP32 (TF32 tensor cores on the H100)"), Option("bf16", "BF16"), Option("int8", "INT8"),
), default=S.act2_precision, help="The Cortex-M7 has no BF16 arithmetic: BF16 weights run at its FP32 rate.")
A2_MODEL = Choice("a2_model", "Model", tuple(Option(k, v[0]) for k, v in MODELS.items()), default="resnet50")
A2_BATCH = Slider("a2_batch", "Batch size", unit="samples", min=1, max=64, step=1, default=S.act2_batch,
                  fmt="int", scale="log2")
A2_OVERHEAD = Slider("a2_overhead", "Fixed overhead L (launch, driver)", unit="s", min=0, max=2e-3, step=1e-6,
                     default=0, fmt="us",
                     help=f"Zero for the question; then try {fmt(S.act2_overhead_s, 'us')}, a kernel-launch-scale "
                          "overhead.")


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
        return device(self.where).mem_bw

    @property
    def weights(self) -> float:
        return mag.weight_bytes(MODELS[self.model][1], PRECISION_BYTES[self.precision])

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


def run(s: State) -> Run:
    return Run(s["a2_device"], s["a2_precision"], s["a2_model"], int(s["a2_batch"]), s["a2_overhead"])


SCENARIO_RUN = Run("cloud", S.act2_precision, "resnet50", S.act2_batch, 0.0)
M7_RESNET = Run("tiny", "int8", "resnet50", S.act2_batch, 0.0)
M7_KWS = Run("tiny", "int8", "dscnn", S.act2_batch, 0.0)


def act2_truth() -> float:
    return SCENARIO_RUN.law.memory_over_compute


ACT2_PREDICTION = Prediction(
    id="a2_predict", act=2,
    prompt="ResNet-50 classifies one image (batch 1) on the H100 in BF16. Leave the fixed overhead L at 0. "
           "Which Iron Law term is larger, moving the weights (D/BW) or doing the arithmetic (O/R), and by "
           "how much?",
    quantity="memory term ÷ compute term",
    unit_fmt="x",
    options=(
        Range("A", "{range}: compute is clearly the larger term", None, 0.8, 0.1,
              "{peak} is a huge rate, but the weights must still cross the {hbm} memory once per "
              "batch: at batch 1 that takes longer than the arithmetic."),
        Range("B", "{range}: memory is larger, by a small factor", 1.25, 10.0, 2.0,
              "Streaming {weights} of BF16 weights takes {t_mem}; {flop} of arithmetic takes {t_comp}."),
        Range("C", "{range}: memory dominates by orders of magnitude", 10.0, None, 100.0,
              "Memory wins, but not by that much: ResNet-50 does {intensity} FLOP per weight byte, close to the "
              "H100's ridge of {ridge}."),
        Range("D", "{range}: the two terms are about equal", 0.8, 1.25, 1.0,
              "Close to the ridge, yet not on it: {t_mem} against {t_comp}."),
    ),
    truth=act2_truth,
)


def act2_facts() -> dict[str, str]:
    law = SCENARIO_RUN.law
    return {
        "hbm": fmt(C.H100_HBM_BW, "GB/s"), "peak": fmt(C.H100_PEAK_BF16_DENSE, "FLOP/s"), "weights": fmt(SCENARIO_RUN.weights, "B"),
        "t_mem": fmt(law.memory_s, "us"), "t_comp": fmt(law.compute_s, "us"), "flop": fmt(SCENARIO_RUN.flop, "GFLOP"),
        "intensity": fmt(mag.arithmetic_intensity(SCENARIO_RUN.flop, SCENARIO_RUN.weights), "num"),
        "ridge": fmt(H100.ridge, "num"),
        "m7_weights": fmt(M7_RESNET.weights, "B"), "flash": fmt(C.STM32H743_FLASH_BYTES, "iB"),
        "flash_x": fmt(mag.ratio(M7_RESNET.weights, C.STM32H743_FLASH_BYTES), "x"),
        "sram_x": fmt(mag.ratio(M7_RESNET.weights, C.STM32H743_SRAM_BYTES), "x"),
        "m7_compute": fmt(M7_RESNET.law.compute_s, "s"), "m7_memory": fmt(M7_RESNET.law.memory_s, "s"),
        "kws_time": fmt(M7_KWS.law.total_s, "ms"), "kws_weights": fmt(M7_KWS.weights, "B"),
    }


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt="Back to the VP: what rules out the cloud's ResNet-50 on the Cortex-M7 first?",
    options=(
        Claim("A", "Compute: one image would take seconds.",
              "It would ({m7_compute} per image at the INT8 peak), but the model never gets that far: "
              "it cannot be stored."),
        Claim("B", "Memory capacity: the weights alone do not fit on the chip.",
              "{m7_weights} of INT8 weights against {flash} of flash ({flash_x}) and {sram_x} the total "
              "SRAM. A DS-CNN keyword spotter ({kws_weights}) fits and runs in about {kws_time}."),
        Claim("C", "Memory bandwidth: streaming the weights dominates, as it did on the H100.",
              "Not on the M7: moving the weights would take {m7_memory}, the arithmetic {m7_compute}. "
              "The small chip is compute-bound; batch 1 is not always the memory wall."),
        Claim("D", "Power: the MCU cannot supply enough current for a large model.",
              "Power limits how fast, not whether: the M7 draws the same power running any model. "
              "Capacity is what fails first."),
    ),
    answer_letter="B",
)


def act2_instruments(s: State) -> list:
    r = run(s)
    law = r.law
    intensity = mag.arithmetic_intensity(r.flop, r.weights)
    ridge = mag.ratio(r.peak, r.bandwidth)
    parts = [metric_grid(
        M["a2_memory_s"].show(law.memory_s, "warn" if law.bound == "memory" else None),
        M["a2_compute_s"].show(law.compute_s, "warn" if law.bound == "compute" else None),
        M["a2_mem_over_comp"].show(law.memory_over_compute, note=f"{law.bound}-bound"),
        M["a2_total_s"].show(law.total_s, note=f"L = {fmt(law.overhead_s, 'us')}"),
        M["a2_intensity"].show(intensity, note="operations per byte moved"),
        M["a2_ridge"].show(ridge, note=f"op/B at {RATE_NAMES[(r.where, r.precision)]}"),
        M["a2_weights"].show(r.weights, None if r.fits else "danger",
                             f"of {capacity_text(r.where)} {'HBM' if r.where == 'cloud' else 'flash'}"),
    )]
    if not r.fits:
        parts.append(failure(F["a2_does_not_fit"],
                             f"{MODELS[r.model][0]} needs {fmt(r.weights, 'B')} of {PRECISION_NAMES[r.precision]} "
                             f"weights; the {SHORT[r.where]} holds {capacity_text(r.where)} "
                             f"({fmt(mag.ratio(r.weights, weight_capacity(r.where)), 'x')} too much). The times "
                             "below are what it would take if it fitted. Pick the DS-CNN keyword spotter, or the H100."))
    parts.append(act2_chart(r))
    if law.overhead_s > 0:
        parts.append(callout("info", "The third term", prose(
            f"L = {fmt(law.overhead_s, 's')} against {fmt(law.memory_s + law.compute_s, 's')} of data path: "
            f"the fixed overhead is {fmt(law.overhead_s / law.total_s, 'pct')} of the time. Small models on "
            "fast chips are often launch-bound (a later lab fuses kernels to cut L).")))
    return parts


def act2_chart(r: Run):
    batches = [2 ** k for k in range(7)]
    runs = [Run(r.where, r.precision, r.model, b, r.overhead_s) for b in batches]
    traces = [ch.line("Memory, D/BW", batches, [x.law.memory_s for x in runs], "series1", markers=True),
              ch.line("Compute, O/R", batches, [x.law.compute_s for x in runs], "series2", markers=True),
              ch.point("Your batch", r.batch, max(r.law.memory_s, r.law.compute_s), "accent")]
    values = [v for x in runs for v in (x.law.memory_s, x.law.compute_s)]
    shapes, notes = [], []
    if r.overhead_s > 0:
        shape, note = ch.hline(r.overhead_s, "muted", "L", log=True)
        shapes.append(shape)
        notes.append(note)
        values.append(r.overhead_s)
    figure = ch.figure(traces, x=ch.axis("Batch size", "log", tickvals=batches, ticktext=[str(b) for b in batches]),
                       y=ch.axis("Seconds per batch", "log", **ch.decade_ticks(values, seconds_label)),
                       shapes=shapes, annotations=notes)
    cross = r.crossover
    where = (f"compute overtakes memory above batch {fmt(cross, 'num')}" if cross >= 1
             else "compute is the larger term at every batch")
    summary = (f"On the {SHORT[r.where]} in {PRECISION_NAMES[r.precision]}, moving the weights takes "
               f"{fmt(r.law.memory_s, 's')} at any batch while the arithmetic grows with the batch: {where}.")
    rows = [(str(b), fmt(x.law.memory_s, "s"), fmt(x.law.compute_s, "s"), x.law.bound) for b, x in zip(batches, runs)]
    return chart("a2_terms", "Iron Law terms against batch size", figure, summary,
                 table=(("Batch", "Memory", "Compute", "Bound"), rows))


def seconds_label(value: float) -> str:
    """Tick labels in µs, ms and s; never minutes, which do not fall on powers of ten."""
    return fmt(value, "s") if value < 1 else f"{fmt(value, 'num')} s"


def act2_math(s: State):
    r = run(s)
    law = r.law
    return math_peek("The governing equations · Act II", (
        Equation(r"T = \frac{D}{BW} + \frac{O}{R} + L",
                 "The Iron Law: time to move the data, time to do the arithmetic, and a fixed overhead."),
        Equation(r"O = 2\cdot\text{MAC}\cdot b,\qquad D = P\cdot\text{bytes} + b\cdot A",
                 "A multiply-add is two operations; the lab sets the activation bytes *A* to 0, so *D* is a "
                 "lower bound and the memory term can only grow."),
        Equation(r"\text{AI} = \frac{O}{D},\qquad \text{ridge} = \frac{R}{BW},\qquad "
                 r"b^{*} = \frac{D/BW}{O_1/R}",
                 "Below the ridge a workload is memory-bound (Williams et al.); the crossover batch is where "
                 "the two terms meet."),
    ), rows=(
        ("MAC per sample", fmt(MODELS[r.model][2], "params")),
        ("O (this batch)", fmt(r.flop, "GFLOP")),
        ("D (weights)", fmt(r.weights, "B")),
        ("R", fmt(r.peak, "FLOP/s")),
        ("BW", fmt(r.bandwidth, "GB/s")),
        ("D/BW, O/R", f"{fmt(law.memory_s, 's')}, {fmt(law.compute_s, 's')}"),
        ("Crossover batch b*", fmt(r.crossover, "num")),
    ), sources=(
        cite("he2016", "ResNet-50 counts 'FLOPs' as multiply-adds"),
        C.REGISTRY["RESNET50_MACS"].source,
        cite("zhang2017_kws", "DS-CNN keyword spotting on Cortex-M"),
        cite("banbury2021", "the DS-CNN's 38.6 K parameters"),
        cite("williams2009", "roofline and ridge point"),
    ))


ACT2 = Act(
    number=2, title="The Iron Law Preview", minutes="15–20 min",
    stakeholder_role="Cloud inference lead",
    stakeholder=lambda: (
        f"We serve ResNet-50 one image at a time on H100s. The GPU does "
        f"{fmt(C.H100_PEAK_BF16_DENSE, 'FLOP/s')} in BF16, so we assume we are compute-bound and are "
        "shopping for a faster chip. Before we buy: where does the time of one image actually go?"),
    scenario=lambda: (
        "Every inference pays three terms: the bytes it moves over the memory bandwidth (D/BW), the "
        "operations it does at the chip's peak (O/R), and a fixed overhead L for launching the work.",
        f"ResNet-50 has {fmt(C.RESNET50_PARAMS, 'params')} parameters and does {fmt(C.RESNET50_MACS, 'params')} "
        "multiply-adds per image. The figure often quoted as its \"GFLOPs\" counts those multiply-adds; each is "
        f"two operations, so one image costs {fmt(mag.inference_flop(C.RESNET50_MACS, 1), 'GFLOP')}.",
    ),
    prediction=ACT2_PREDICTION,
    controls=(A2_DEVICE, A2_PRECISION, A2_MODEL, A2_BATCH, A2_OVERHEAD),
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="Iron Law calculator",
)

# ---- the whole lab -------------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    return frozenset({"a2_does_not_fit"} if not run(s).fits else set())


def results(s: State) -> dict[str, float | str | bool]:
    r = run(s)
    return {"compute_ratio": act1_gap(s).compute, "bound": r.law.bound, "oom": not r.fits}


RECORD = (MetricSpec("compute_ratio", "H100 ÷ M7 peak compute (Act I setting)", "1", "x10"),
          MetricSpec("bound", "Act II bound (memory or compute)", "1", "num"),
          MetricSpec("oom", "Act II weights too large for the device", "1", "yesno"))


def lab_takeaways() -> list[str]:
    f = act2_facts()
    return [
        f"At each chip's best dense ML path the H100 out-computes a Cortex-M7 by {fmt(act1_truth(), 'x10')}; "
        f"FP32 against FP32 the gap is {fmt(peak_ratio('fp32'), 'x10')}. Compare peaks at the same precision, "
        "dense, never a sparse figure against a dense one.",
        "Compute, bandwidth, memory and power are all Machine-axis quantities, and all of them differ by "
        "several orders of magnitude between the two regimes: each regime needs its own stack.",
        f"ResNet-50 at batch 1 on the H100 is memory-bound: {f['t_mem']} to stream the BF16 weights against "
        f"{f['t_comp']} of arithmetic ({fmt(act2_truth(), 'x')}). From batch {math.ceil(SCENARIO_RUN.crossover)} the arithmetic dominates.",
        f"On the M7, ResNet-50's INT8 weights are {f['flash_x']} its flash: capacity rules it out before speed "
        f"does. A DS-CNN keyword spotter fits and runs in about {f['kws_time']}.",
    ]


LAB = Lab(
    id="v1_01", volume=1, number=1, title="The Magnitude Awakening",
    invariant="A datacentre GPU and a microcontroller differ by **orders of magnitude on every Machine axis at "
              "once**; the Iron Law T = D/BW + O/R + L says which axis sets the time.",
    minutes="30–35 min", chapter="Introduction", url="vol1/01-magnitude-awakening/",
    reading=(
        "**The D·A·M triad**: Data, Algorithm and Machine as the three axes of every ML system.",
        "**Deployment regimes**: cloud, edge, mobile and TinyML, and how far apart their hardware is.",
        "**The Iron Law of ML systems**: data movement, arithmetic and overhead.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "**V1-02 The Iron Law**: the same three terms, applied to a GPU upgrade that paid for much less than it promised.",
        "**V1-07 The Kernel Fusion Dividend**: the overhead term L, and how fusion removes it.",
    ),
    presets={"context": {"cloud": {"a2_device": "cloud", "a2_precision": "bf16"},
                         "tiny": {"a2_device": "tiny", "a2_precision": "int8"}}},
    record_metrics=RECORD,
    context_from=TRACK,
)
