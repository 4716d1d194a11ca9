"""Lab V1-01 · The Magnitude Awakening (the D·A·M triad).

Core invariant: a datacentre GPU and a microcontroller differ by orders of magnitude on every
Machine axis (compute, bandwidth, memory, power), by unequal amounts; the Iron Law
T = D/BW + O/R + L says which of them sets the time of one inference.

Act I (the magnitude gap): a VP wants keyword spotting on $2.40 MCUs and asks why the cloud
stack cannot be reused. How many times more operations per second does an H100 deliver than a
Cortex-M7, each at its best dense ML path (INT8)? The physics: 1.03 × 10⁶ (B), the same in every
track; the track's own device is placed on the ruler. The reflection asks what the five ratios
say: they are unequal (compute 10⁶, bandwidth 1.76 × 10³), so the two chips' balance differs (C).
Act II (the Iron Law preview), on the track's device at batch 1, weights only: memory term ÷
compute term. Cloud, H100 BF16 ResNet-50: 1.84× (D); Edge, Orin NX FP16: 0.916× (C); Mobile,
A17 Pro INT8: 2.13× (D, at the assumed 51.2 GB/s); TinyML, the M7 runs the DS-CNN keyword
spotter (ResNet-50's weights are 12.2× its flash: the failure state): 0.0072× (A). The
reflection asks what a larger batch does to the time per sample: it falls toward O/R, since one
pass over the weights serves the whole batch (A, in every track).

Where the lab departs from the spec (handbook/labs/v1_01.md §5), and why:
* handbook/labs/v1_01.md §4 "H100 BW ÷ M7 on-chip 1,744.8×" divides by 1.92 GB/s; the registry's (assumed)
  on-chip bandwidth is 1.9 GB/s, which gives 1,763.2× (handbook/errata.md#e3).
* ResNet-50 is 4.1 G multiply-adds, i.e. 8.2 G operations (handbook/labs/v1_01.md §5); INT8 work is
  counted in operations (OP/s), floating point in FLOP/s.
* Act II follows the V1-00 track: the spec's two contexts become four, each with its
  device; on the M7 the question is about the DS-CNN, which fits. Its ranges run in order
  (the old D, "about equal", sat after C).
* The Act I reflection asks what the ruler showed (unequal gaps) instead of the spec's "separate
  stacks per regime", and the Act II reflection asks what the batch does (the failure state stays:
  ResNet-50 on the M7), so that both ask about what their act shows and hold in every track.
* The M7 has no 16-bit float arithmetic (BF16 runs at its FP32 rate); its weights live in its
  2 MiB flash, the capacity the fit check uses. The on-chip bandwidth (1.9 GB/s), the MCU's power
  (0.1 W, an instrument) and the phone's bandwidth and rates are labelled assumptions. Activations
  are left out of D (a lower bound, as the spec's default A = 0), so the crossover batch is one too.

Ledger fields: context, both predictions and reflections (recorded by the framework), and the
results ``compute_ratio``, ``bound`` and ``oom``.
"""

from __future__ import annotations

import math
from functools import lru_cache

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option,
                              Prediction, Range, Reflection, Slider, State, callout, chart, failure,
                              fmt, math_peek, metric_grid, prose)
from pylabs.framework import charts as ch
from pylabs.labs.vol1.contexts import CONTEXTS, TRACK, deployment, device
from pylabs.labs.vol1.v1_01_model import (MODELS, PRECISION_NAMES, RATE_NAMES, SAMPLE, SCENARIO_GAP, SCENARIO_RUNS,
                                          SHORT, M7_RESNET, S, Gap, Run, act1_truth, act2_truth, gap, giga, int8_peak, small_fall,
                                          mcu_bandwidth, peak_ratio, weight_capacity)
from pylabs.physics import constants as C
from pylabs.physics import magnitude as mag
from pylabs.physics.devices import H100, STM32H743, ridge_point
from pylabs.physics.references import cite

CONTEXT = deployment(CONTEXTS, default="cloud",
                     help="Your track: places its device on the ruler and sets the device of Act II.")
PREC_WORDS = {"cloud": "BF16", "edge": "FP16", "mobile": "INT8", "tiny": "INT8"}


@lru_cache(maxsize=None)
def terms(context: str) -> dict[str, str]:
    """The words of each track that the questions name (the scenario's, never an answer)."""
    r = SCENARIO_RUNS[context]
    return {"device": SHORT[context], "model": MODELS[r.model][0].split(" ")[0], "sample": SAMPLE[r.model],
            "prec": PREC_WORDS[context], "batch_high": fmt(S.batch_high, "int")}


def capacity_text(where: str) -> str:
    """The capacity as its datasheet states it: decimal GB for DRAM/HBM, binary MiB for MCU flash."""
    return fmt(weight_capacity(where), "iB" if where == "tiny" else "GB")


def op_unit(precision: str) -> str:
    """Integer work is counted in operations, floating point in FLOP."""
    return "OP" if precision == "int8" else "FLOP"


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

ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt="Take each chip at its best dense ML path: INT8 tensor cores on the H100, INT8 SIMD on the "
           "Cortex-M7. How many times more operations per second does one H100 deliver than one Cortex-M7?",
    quantity="H100 INT8 peak ÷ Cortex-M7 INT8 peak",
    unit_fmt="x10",
    options=(
        Range("A", "{range}: more cores at a faster clock", None, 1e5, 1e4,
              "That is about the gap without tensor cores: FP32 against FP32 it is {fp32_ratio}. At INT8 the "
              "H100's tensor cores open it further, while the M7 only doubles its rate."),
        Range("B", "{range}: thousands of wide units against one core", 1e5, 1e7, 1e6,
              "{int8_h100} against {int8_m7}: {int8_orders} orders of magnitude on one axis alone."),
        Range("C", "{range}: every part of the chip scaled up at once", 1e7, 1e9, 1e8,
              "That would take several axes multiplied together; compute alone is {a1_compute_ratio}. Even "
              "the H100's 2:4-sparse INT8 rate, {sparse_int8}, only doubles it."),
        Range("D", "{range}: a supercomputer against a pocket calculator", 1e9, None, 1e10,
              "Nine orders needs a sparse rate set against a dense one, mixed precisions, or several axes "
              "multiplied together. Like for like, compute differs by {a1_compute_ratio}."),
    ),
    truth=act1_truth,
    shown_by="a1_compute_ratio",
)

ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="The VP said a chip is a chip. Read the ruler at INT8 with on-chip memory: what do its ratios say about reusing the "
           "cloud stack on the MCU?",
    options=(
        Claim("A", "Every axis shrinks by roughly one common factor, so the cloud model shrunk by that factor "
                   "would run.",
              "The ratios run from {a1_efficiency_ratio} (operations per joule) to {a1_compute_ratio} (compute), "
              "{spread} orders apart: no one factor shrinks a model onto the MCU."),
        Claim("B", "Energy per operation is the widest of the gaps, so the battery rules the cloud model out "
                   "before anything else.",
              "Per joule the H100 does {a1_efficiency_ratio} more operations (at the assumed {mcu_power}): the "
              "narrowest gap on the ruler, not the widest."),
        Claim("C", "The gaps are unequal: compute moves far more than bandwidth, so the balance a model was "
                   "tuned for breaks.",
              "Compute differs by {a1_compute_ratio}, bandwidth by {a1_bandwidth_ratio}: at its ridge the H100 "
              "does {h100_ridge} INT8 operations per byte it loads, the M7 {m7_ridge}. One model can wait on "
              "memory on one chip and on arithmetic on the other."),
        Claim("D", "Bandwidth is the widest of the gaps, so only the memory system needs a new design for the "
                   "MCU.",
              "Bandwidth is one of the narrower gaps ({a1_bandwidth_ratio}, against {a1_compute_ratio} in compute "
              "and {a1_capacity_ratio} in capacity): the arithmetic needs a new design as much as the memory."),
    ),
    answer_letter="C",
)


def act1_facts() -> dict[str, str]:
    """The same in every track: Act I is about the two ends of the axis."""
    g = SCENARIO_GAP
    orders = [mag.orders_of_magnitude(v) for v in (g.compute, g.bandwidth, g.capacity, g.power, g.ops_per_joule)]
    return {"fp32_ratio": fmt(peak_ratio("fp32"), "x10"),
            "int8_h100": fmt(C.H100_PEAK_INT8_DENSE, "OP/s"), "int8_m7": fmt(C.STM32H743_PEAK_INT8, "OP/s"),
            "int8_orders": fmt(mag.orders_of_magnitude(g.compute), "num"),
            "sparse_int8": fmt(2 * C.H100_PEAK_INT8_DENSE, "OP/s"),
            "spread": fmt(max(orders) - min(orders), "num"), "mcu_power": fmt(C.MCU_ACTIVE_POWER_W, "W"),
            "h100_ridge": fmt(ridge_point(C.H100_PEAK_INT8_DENSE, C.H100_HBM_BW), "num"),
            "m7_ridge": fmt(ridge_point(C.STM32H743_PEAK_INT8, C.STM32H743_ONCHIP_BW), "num"),
            **{name: M[name].text(value) for name, value in (
                ("a1_compute_ratio", g.compute), ("a1_bandwidth_ratio", g.bandwidth),
                ("a1_capacity_ratio", g.capacity), ("a1_power_ratio", g.power),
                ("a1_efficiency_ratio", g.ops_per_joule))}}


M = {m.name: m for m in (
    MetricSpec("a1_compute_ratio", "H100 ÷ M7, peak compute", "1", "x10"),
    MetricSpec("a1_bandwidth_ratio", "H100 ÷ M7, memory bandwidth", "1", "x10"),
    MetricSpec("a1_capacity_ratio", "H100 ÷ M7, memory capacity", "1", "x10"),
    MetricSpec("a1_power_ratio", "H100 ÷ M7, power", "1", "x10"),
    MetricSpec("a1_efficiency_ratio", "H100 ÷ M7, operations per joule", "1", "x10"),
    MetricSpec("a1_your_orders", "Your device above the M7, orders of magnitude", "1", "num"),
    MetricSpec("a1_your_peak", "Your device, INT8 dense peak", "OP/s", "OP/s"),
    MetricSpec("a2_memory_s", "Memory term, D/BW", "s", "s"),
    MetricSpec("a2_compute_s", "Compute term, O/R", "s", "s"),
    MetricSpec("a2_mem_over_comp", "Memory term ÷ compute term", "1", "sci"),
    MetricSpec("a2_total_s", "Time per batch, T", "s", "s"),
    MetricSpec("a2_per_sample_s", "Time per sample, T ÷ b", "s", "s"),
    MetricSpec("a2_intensity", "Operations per weight byte, O/D", "op/B", "num"),
    MetricSpec("a2_ridge", "Ridge point, R/BW", "op/B", "num"),
    MetricSpec("a2_weights", "Weight bytes, D", "B", "B"),
)}

FAILURES = (FailureSpec("a2_does_not_fit", "Does not fit: the weights are larger than the memory", act=2,
                        reach={"a2_device": "tiny"}, leave={"a2_model": "dscnn"},
                        contexts=("cloud", "edge", "mobile")),)
F = {f.name: f for f in FAILURES}


def act1_gap(s: State) -> Gap:
    return gap(s["a1_precision"], s["a1_mcu_memory"], s["a1_mcu_power"])


def act1_instruments(s: State) -> list:
    g = act1_gap(s)
    where = s["context"]
    orders = mag.orders_of_magnitude(mag.ratio(int8_peak(where), C.STM32H743_PEAK_INT8))
    parts = [metric_grid(
        M["a1_compute_ratio"].show(g.compute, note=f"at {'INT8' if s['a1_precision'] == 'int8' else 'FP32'}"),
        M["a1_bandwidth_ratio"].show(g.bandwidth),
        M["a1_capacity_ratio"].show(g.capacity, note=f"{fmt(H100.mem_bytes, 'GB')} ÷ {fmt(STM32H743.mem_bytes, 'iB')} SRAM"),
        M["a1_power_ratio"].show(g.power, note=f"{fmt(H100.power_w, 'W')} ÷ {fmt(s['a1_mcu_power'], 'W')}"),
        M["a1_efficiency_ratio"].show(g.ops_per_joule),
        M["a1_your_orders"].show(orders, note=f"{SHORT[where]} at INT8, of {fmt(mag.orders_of_magnitude(act1_truth()), 'num')} "
                                              "from the M7 to the H100"),
        M["a1_your_peak"].show(int8_peak(where), note=RATE_NAMES[(where, "int8")]),
    ), act1_chart(g, s["a1_precision"], where)]
    parts.append(callout("info", "Precision is part of the comparison", prose(
        f"At FP32 on both chips the compute gap is {fmt(peak_ratio('fp32'), 'x10')}; at each chip's best INT8 "
        f"path it is {fmt(peak_ratio('int8'), 'x10')}. A ratio of two peaks means something only when both "
        "count the same operation, dense, on the path a model actually uses.")))
    return parts


def act1_chart(g: Gap, precision: str, where: str):
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
    summary = (f"H100 ÷ Cortex-M7 at {'INT8' if precision == 'int8' else 'FP32'}: compute {fmt(g.compute, 'x10')}, "
               f"bandwidth {fmt(g.bandwidth, 'x10')}, memory {fmt(g.capacity, 'x10')}, power {fmt(g.power, 'x10')}, "
               f"operations per joule {fmt(g.ops_per_joule, 'x10')}.")
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
        ("M7 INT8 / FP32", f"{giga(C.STM32H743_PEAK_INT8, 'OP/s')} / {giga(C.STM32H743_PEAK_FP32, 'FLOP/s')}"),
        ("Compute gap now", fmt(g.compute, "x10")),
        ("H100 HBM3 / M7 memory", f"{fmt(C.H100_HBM_BW, 'GB/s')} / {fmt(mcu_bandwidth(s['a1_mcu_memory']), 'GB/s')}"),
        ("H100 sparse INT8 (not used)", fmt(2 * C.H100_PEAK_INT8_DENSE, "OP/s")),
    ), sources=(
        C.REGISTRY["H100_PEAK_INT8_DENSE"].source,
        C.REGISTRY["STM32H743_PEAK_INT8"].source,
        C.REGISTRY["STM32H743_ONCHIP_BW"].source,
        C.REGISTRY["MCU_ACTIVE_POWER_W"].source,
        C.REGISTRY["A17_PRO_NPU_OPS"].source,
    ))


ACT1 = Act(
    number=1, title="The Magnitude Gap", minutes="12–15 min",
    stakeholder_role="VP Engineering",
    stakeholder=lambda: (
        f"We want keyword spotting on a ${S.mcu_price_usd:.2f} microcontroller with "
        f"{fmt(STM32H743.mem_bytes, 'iB')} of SRAM. Our cloud team serves models on H100s. "
        "Why can't we reuse their stack? A chip is a chip."),
    scenario=lambda: (
        "The **D·A·M triad** splits an ML system into Data, Algorithm and Machine. This act measures how far "
        "apart the Machine axis runs, from a datacentre GPU to a Cortex-M7 microcontroller, comparing like with "
        "like: one dense peak per chip, at the same precision.",
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

A2_DEVICE = Choice("a2_device", "Device", tuple(Option(c, device(c).name) for c in CONTEXTS), default="cloud")
A2_PRECISION = Choice("a2_precision", "Precision of weights and arithmetic", (
    Option("fp32", "FP32 (TF32 tensor cores on the H100)"), Option("bf16", "16-bit float (BF16, or FP16)"),
    Option("int8", "INT8"),
), default="bf16", help="The Cortex-M7 has no 16-bit float arithmetic: it runs those weights at its FP32 rate. "
                        "The phone's Neural Engine is reported to run floating point in FP16 "
                        "(github.com/hollance/neural-engine); Apple does not say.")
A2_MODEL = Choice("a2_model", "Model", tuple(Option(k, v[0]) for k, v in MODELS.items()), default="resnet50")
A2_BATCH = Slider("a2_batch", "Batch size", unit="samples", min=1, max=S.batch_high, step=1, default=S.act2_batch,
                  fmt="int", scale="log2")
A2_OVERHEAD = Slider("a2_overhead", "Fixed overhead L (launch, driver)", unit="s", min=0, max=2e-3, step=1e-6,
                     default=0, fmt="s",
                     help=f"Zero for the question; then try {fmt(S.act2_overhead_s, 'us')}, a kernel-launch-scale "
                          "overhead.")


def run(s: State) -> Run:
    return Run(s["a2_device"], s["a2_precision"], s["a2_model"], int(s["a2_batch"]), s["a2_overhead"])


ACT2_PREDICTION = Prediction(
    id="a2_predict", act=2,
    prompt="{model} handles one {sample} (batch 1) on the {device} in {prec}. With L at 0 and D the weights "
           "only, how many times longer is moving the weights (D/BW) than the arithmetic (O/R)?",
    quantity="memory term ÷ compute term",
    unit_fmt="x",
    options=(
        Range("A", "{range}: the arithmetic dwarfs the weight traffic", None, 0.1, 0.03,
              "Only a chip that loads bytes far faster than it computes is that lopsided. {why}"),
        Range("B", "{range}: the arithmetic is longer, by a small factor", 0.1, 0.8, 0.4,
              "The arithmetic wins when the model's operations per byte exceed the chip's ridge. {why}"),
        Range("C", "{range}: the two terms take about as long", 0.8, 1.25, 1.0,
              "The terms match when the model's operations per byte sit at the chip's ridge. {why}"),
        Range("D", "{range}: moving the weights takes the longer time", 1.25, None, 3.0,
              "The weights win when the chip's ridge sits above the model's operations per byte. {why}"),
    ),
    truth=act2_truth,
    shown_by="a2_mem_over_comp",
)


def act2_facts(context: str) -> dict[str, str]:
    """Computed on the track's device at the scenario's inputs (batch 1, L = 0)."""
    r = SCENARIO_RUNS[context]
    law, big = r.law, r.at(S.batch_high)
    name, sample = MODELS[r.model][0], SAMPLE[r.model]
    intensity = mag.arithmetic_intensity(r.flop, r.weights)
    ridge = mag.ratio(r.peak, r.bandwidth)
    facts = {name_: M[name_].text(v) for name_, v in (
        ("a2_memory_s", law.memory_s), ("a2_compute_s", law.compute_s), ("a2_intensity", intensity),
        ("a2_ridge", ridge), ("a2_weights", r.weights), ("a2_mem_over_comp", law.memory_over_compute))}
    facts["why"] = (f"The {name} does {facts['a2_intensity']} operations per weight byte; the {SHORT[context]} "
                    f"ridge is {facts['a2_ridge']} ({RATE_NAMES[(r.where, r.precision)]}): "
                    f"{facts['a2_memory_s']} to move the weights against {facts['a2_compute_s']} of arithmetic.")
    facts.update({
        "sample": sample, "device": SHORT[context], "batch_high": fmt(S.batch_high, "int"),
        "per_1": fmt(r.per_sample_s, "s"), "per_high": fmt(big.per_sample_s, "s"),
        "small_fall": small_fall(r, big),
        "t_high": fmt(big.law.total_s, "s"), "x_high": fmt(big.law.total_s / law.total_s, "x"),
        "ai_high": fmt(mag.arithmetic_intensity(big.flop, big.weights), "num"),
        "m7_weights": fmt(M7_RESNET.weights, "B"), "flash": fmt(C.STM32H743_FLASH_BYTES, "iB"),
        "flash_x": fmt(mag.ratio(M7_RESNET.weights, C.STM32H743_FLASH_BYTES), "x"),
    })
    return facts


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt="Raise the batch on the {device} and watch the two terms. What happens to the time the chip spends "
           "per {sample}, T ÷ b?",
    options=(
        Claim("A", "It falls toward O/R per {sample}: one pass over the weights is shared by the whole batch.",
              "Moving the weights costs {a2_memory_s} per batch at any size, while the arithmetic adds "
              "{a2_compute_s} per {sample}: the time per {sample} falls from {per_1} at batch 1 to {per_high} at "
              "batch {batch_high}, toward that {a2_compute_s} floor.{small_fall}"),
        Claim("B", "It falls in proportion: a batch of {batch_high} costs about what a single {sample} cost "
                   "alone.",
              "The arithmetic is not shared: each {sample} adds {a2_compute_s}. A batch of {batch_high} takes "
              "{t_high}, {x_high} the time of one {sample}, so per {sample} it is {per_high}."),
        Claim("C", "It rises: every added {sample} lowers the operations per byte and pulls the chip to its "
                   "memory wall.",
              "Reversed: the operations grow with the batch while the weight bytes do not, so the operations "
              "per byte rise from {a2_intensity} to {ai_high}."),
        Claim("D", "It stays put: the weight traffic and the arithmetic both grow in step with the batch "
                   "size.",
              "Only the arithmetic grows with the batch; the weights cross the memory once per batch, "
              "{a2_memory_s} at any size, so per {sample} the time goes from {per_1} to {per_high}.{small_fall}"),
    ),
    answer_letter="A",
)


CAPACITY_NOTE = {"cloud": "of {} HBM", "edge": "of {} memory", "tiny": "of {} flash",
                 "mobile": "of {} RAM (reported, not Apple's figure), part of which iOS lets one app use"}


def cards_if_fits(r: Run) -> str:
    return "" if r.fits else "if it fitted"


def act2_instruments(s: State) -> list:
    r = run(s)
    law = r.law
    intensity = mag.arithmetic_intensity(r.flop, r.weights)
    ridge = mag.ratio(r.peak, r.bandwidth)
    iffy = cards_if_fits(r)
    parts = [metric_grid(
        M["a2_mem_over_comp"].show(law.memory_over_compute, note=f"{law.bound}-bound {iffy}".strip()),
        M["a2_memory_s"].show(law.memory_s, "warn" if law.bound == "memory" else None, iffy),
        M["a2_compute_s"].show(law.compute_s, "warn" if law.bound == "compute" else None, iffy),
        M["a2_total_s"].show(law.total_s, note=iffy or f"L = {fmt(law.overhead_s, 's')}"),
        M["a2_per_sample_s"].show(law.total_s / r.batch, note=iffy or f"batch {fmt(r.batch, 'int')}"),
        M["a2_weights"].show(r.weights, None if r.fits else "danger", CAPACITY_NOTE[r.where].format(capacity_text(r.where))),
        M["a2_intensity"].show(intensity, note=f"{op_unit(r.precision)} per byte of weights"),
        M["a2_ridge"].show(ridge, note=RATE_NAMES[(r.where, r.precision)]),
    )]
    if not r.fits:
        parts.append(failure(F["a2_does_not_fit"],
                             f"The {MODELS[r.model][0]} needs {fmt(r.weights, 'B')} of {PRECISION_NAMES[r.precision]} "
                             f"weights; the {SHORT[r.where]} holds {capacity_text(r.where)} of flash "
                             f"({fmt(mag.ratio(r.weights, weight_capacity(r.where)), 'x')} too much). The times "
                             "are what it would take if it fitted. Pick the DS-CNN keyword spotter, or a device with "
                             "more memory."))
    parts.append(act2_chart(r))
    if law.overhead_s > 0:
        parts.append(callout("info", "The third term", prose(
            f"L = {fmt(law.overhead_s, 's')} against {fmt(law.memory_s + law.compute_s, 's')} of data path: "
            f"the fixed overhead is {fmt(law.overhead_s / law.total_s, 'pct')} of the time. Small models on "
            "fast chips are often launch-bound (a later lab fuses kernels to cut L).")))
    return parts


def act2_chart(r: Run):
    batches = [2 ** k for k in range(int(math.log2(S.batch_high)) + 1)]
    runs = [r.at(b) for b in batches]
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
    first, last = runs[0].law, runs[-1].law
    summary = (f"On the {SHORT[r.where]} in {PRECISION_NAMES[r.precision]}: at batch 1, memory "
               f"{fmt(first.memory_s, 's')} and compute {fmt(first.compute_s, 's')}; at batch {batches[-1]}, memory "
               f"{fmt(last.memory_s, 's')} and compute {fmt(last.compute_s, 's')}.")
    rows = [(str(b), fmt(x.law.memory_s, "s"), fmt(x.law.compute_s, "s"), x.law.bound) for b, x in zip(batches, runs)]
    return chart("a2_terms", "Iron Law terms against batch size", figure, summary,
                 table=(("Batch", "Memory", "Compute", "Larger term"), rows))


def seconds_label(value: float) -> str:
    """Tick labels in µs, ms and s; never minutes, which do not fall on powers of ten."""
    return fmt(value, "s") if value < 1 else f"{fmt(value, 'num')} s"


def act2_math(s: State):
    r = run(s)
    law, unit = r.law, op_unit(r.precision)
    return math_peek("The governing equations · Act II", (
        Equation(r"T = \frac{D}{BW} + \frac{O}{R} + L",
                 "The Iron Law: time to move the data, time to do the arithmetic, and a fixed overhead."),
        Equation(r"O = 2\cdot\text{MAC}\cdot b,\qquad D = P\cdot\text{bytes} + b\cdot A",
                 "A multiply-add is two operations; the lab sets the activation bytes *A* to 0, so *D* is a "
                 "lower bound and the memory term can only grow."),
        Equation(r"\text{AI} = \frac{O}{D},\qquad \text{ridge} = \frac{R}{BW},\qquad "
                 r"b^{*} = \frac{D/BW}{O_1/R}",
                 "Williams et al.'s roofline compares the two ratios; the crossover batch is where the two "
                 "terms meet (with *D* a lower bound, it is one too)."),
    ), rows=(
        ("MAC per sample", fmt(MODELS[r.model][2], "params")),
        ("O (this batch)", fmt(r.flop, "FLOP").replace("FLOP", unit)),
        ("D (weights)", fmt(r.weights, "B")),
        ("R", fmt(r.peak, "FLOP/s").replace("FLOP", unit)),
        ("BW", fmt(r.bandwidth, "GB/s")),
        ("D/BW, O/R", f"{fmt(law.memory_s, 's')}, {fmt(law.compute_s, 's')}"),
        ("Crossover batch b*", fmt(r.crossover, "num")),
    ), sources=(
        cite("he2016", "ResNet-50 counts 'FLOPs' as multiply-adds"),
        C.REGISTRY["RESNET50_MACS"].source,
        cite("zhang2017_kws", "DS-CNN keyword spotting on Cortex-M"),
        cite("banbury2021", "the DS-CNN's 38.6 K parameters"),
        cite("williams2009", "roofline and ridge point"),
        C.REGISTRY["A17_PRO_MEM_BW"].source,
        C.REGISTRY["A17_PRO_NPU_FP16_ASSUMED"].source,
    ))


STORY = {
    "cloud": ("We serve ResNet-50 one image at a time on H100s in BF16. We assume the arithmetic is what takes "
              "the time and are shopping for a faster chip. Before we buy: where does one image's time go?"),
    "edge": ("Our robot classifies each camera frame with ResNet-50 in FP16 on a Jetson Orin NX, one frame at a "
             "time. Before we buy a bigger module: where does one frame's time go?"),
    "mobile": ("Our photo app runs ResNet-50 in INT8 on the iPhone 15 Pro Neural Engine, one photo at a time. "
               "Before we shrink the model: where does one photo's time go?"),
    "tiny": ("Our keyword spotter, a DS-CNN in INT8, runs on the Cortex-M7 one audio window at a time. Before we "
             "tune the firmware: where does one window's time go?"),
}


ASSUMED = {
    "cloud": (),
    "edge": (f"NVIDIA headlines the Orin NX in sparse INT8 operations, its GPU and accelerators together: the "
             f"GPU's dense FP16 rate, {fmt(C.ORIN_NX_PEAK_FP16_DENSE, 'FLOP/s')}, is derived from its clock and SM "
             "count.",),
    "mobile": (f"Apple publishes neither the phone's memory bandwidth nor the precision of its "
               f"{fmt(C.A17_PRO_NPU_OPS, 'OP/s')}: the lab assumes {fmt(C.A17_PRO_MEM_BW, 'GB/s')} and reads that "
               "rate as INT8.",),
    "tiny": (f"ST publishes no on-chip bandwidth for the M7: the lab assumes {fmt(C.STM32H743_ONCHIP_BW, 'GB/s')}.",),
}


def act2_scenario(context: str) -> tuple[str, ...]:
    r = SCENARIO_RUNS[context]
    name, params, macs = MODELS[r.model]
    ops = mag.inference_flop(macs, 1)
    return (
        "Every inference pays three terms: the bytes it moves over the memory bandwidth (D/BW), the "
        "operations it does at the chip's peak (O/R), and a fixed overhead L for launching the work.",
        f"The {name} has {fmt(params, 'params')} parameters and does {fmt(macs, 'params')} multiply-adds per "
        f"{SAMPLE[r.model]}. Figures quoted as a model's \"FLOPs\" often count those multiply-adds; each is two "
        f"operations, so one {SAMPLE[r.model]} costs {fmt(ops, 'FLOP')} in floating point, "
        f"{fmt(ops, 'FLOP').replace('FLOP', 'OP')} in INT8.",
        *ASSUMED[context],
    )


ACT2 = Act(
    number=2, title="The Iron Law Preview", minutes="15–20 min",
    stakeholder_role="Inference lead",
    stakeholder=lambda context: STORY[context],
    scenario=act2_scenario,
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
          MetricSpec("bound", "Act II larger term (memory or compute)", "1", "num"),
          MetricSpec("oom", "Act II weights too large for the device", "1", "yesno"))


def lab_takeaways() -> list[str]:
    g, f = SCENARIO_GAP, act2_facts("cloud")
    others = "; ".join(f"{SHORT[c]} in {PREC_WORDS[c]}, {MODELS[SCENARIO_RUNS[c].model][0].split(' ')[0]}: "
                       f"{fmt(act2_truth(c), 'x')}" for c in ("edge", "mobile", "tiny"))
    return [
        f"At each chip's best dense ML path the H100 out-computes a Cortex-M7 by {fmt(act1_truth(), 'x10')}; "
        f"FP32 against FP32 the gap is {fmt(peak_ratio('fp32'), 'x10')}. Compare peaks at the same precision, "
        "dense, never a sparse figure against a dense one.",
        f"Every Machine axis differs by orders of magnitude, but unequally: compute {fmt(g.compute, 'x10')}, "
        f"bandwidth {fmt(g.bandwidth, 'x10')} (assumed on-chip rate), memory {fmt(g.capacity, 'x10')}, power "
        f"{fmt(g.power, 'x10')} (assumed {fmt(C.MCU_ACTIVE_POWER_W, 'W')}). The H100 does "
        f"{fmt(g.ridge_ratio, 'x')} more operations per byte it loads, so one model's bound can flip between them.",
        f"ResNet-50 at batch 1 on the H100 in BF16 is memory-bound: {f['a2_memory_s']} to stream the weights "
        f"against {f['a2_compute_s']} of arithmetic ({fmt(act2_truth('cloud'), 'x')}). Counting the weight bytes "
        f"only (a lower bound on D), the arithmetic takes over from batch {math.ceil(SCENARIO_RUNS['cloud'].crossover)}"
        "; activations moved from memory would push that crossover higher.",
        f"The same ratio on the other tracks' devices: {others}. Which term sets the time is a property of the "
        "model and the chip together.",
        f"On the M7, ResNet-50's INT8 weights are {f['flash_x']} its flash: capacity rules it out before speed "
        f"does, while the DS-CNN keyword spotter fits and runs in {fmt(SCENARIO_RUNS['tiny'].law.total_s, 's')}.",
    ]


LAB = Lab(
    id="v1_01", volume=1, number=1, title="The Magnitude Awakening",
    invariant="A datacentre GPU and a microcontroller differ by **orders of magnitude on every Machine axis**, "
              "each axis by its own amount; the Iron Law T = D/BW + O/R + L says which axis sets the time.",
    minutes="30–35 min", chapter="Introduction", url="vol1/01-magnitude-awakening/",
    description="How far apart a datacentre GPU and a microcontroller are on every Machine axis, and which Iron Law "
                "term sets the time of one inference.",
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
        "**V1-02 The Iron Law**: the same three terms, applied to the choice of a faster GPU.",
        "**V1-07 The Kernel Fusion Dividend**: the overhead term L, and how fusion removes it.",
    ),
    presets={"context": {c: {"a2_device": r.where, "a2_precision": r.precision, "a2_model": r.model}
                         for c, r in SCENARIO_RUNS.items()}},
    record_metrics=RECORD,
    context_from=TRACK,
    terms=terms,
    hook=f"A VP wants keyword spotting on a ${S.mcu_price_usd:.2f} microcontroller and asks why the cloud team's "
         "H100 stack cannot simply be reused. How far apart are the two chips, and what does that change?",
)
