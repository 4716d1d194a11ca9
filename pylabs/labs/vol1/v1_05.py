"""Lab V1-05 · The Activation Tax.

Core invariant: an unfused activation layer reads and writes every element once, so on a GPU
or an NPU its time is set by bytes over bandwidth, not by the function's arithmetic; and the
activations a network keeps grow with batch × resolution² × channels until they leave the
chip, and then the device.

Act I (the activation tax): an AR model runs at 12 FPS against a 24 FPS target and has four
sigmoid layers. Sigmoid needs many times ReLU's arithmetic per element, yet both take the
same time per layer, and four layers are a sliver of the frame: the swap cannot reach 24 FPS.
Act II (the Memory Ledger): how much larger than a 512 KiB on-chip buffer is one feature map,
which layers spill to DRAM, and when the activations no longer fit the device at all.

Choices made where the spec leaves one: one activation control drives all four layers (each
layer's time is independent, so mixing functions teaches nothing more; the ledger keeps the
four as a list); on the H100 the elementwise rate is the FP32 CUDA-core peak, because
activations do not run on tensor cores; the phone's rate is the Neural Engine's published
figure, an upper bound. The upstream "50× transistors" claim is not repeated: no source.

Ledger fields: context, the activations of the four layers, fused, act_ratio (arithmetic,
chosen ÷ ReLU), act_time_ratio, batch, bytes, mode, spilled_layers, oom.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option,
                              Prediction, Range, Reflection, Slider, State, Toggle, callout, chart, failure,
                              fmt, math_peek, metric_grid, prose)
from pylabs.framework import charts as ch
from pylabs.labs.vol1.contexts import TRACK, deployment, device
from pylabs.physics import layers
from pylabs.physics import constants as C
from pylabs.physics.references import cite

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
    act2_side: float = 224.0
    act2_channels: float = 256.0   # the map the Act II prediction asks about (batch 1, FP32)
    act2_bytes: float = 4.0
    buffer_bytes: float = 512 * 1024.0  # the scenario's on-chip buffer (assumed, not a vendor figure)
    image_side: float = 224.0
    first_channels: float = 64.0
    batch: float = 8.0
    stages: int = 6


S = Scenario()
FRAME_S = 1 / S.fps_now
PRECISIONS = {"int8": ("INT8", 1.0), "fp16": ("FP16 / BF16", 2.0), "fp32": ("FP32", 4.0)}
NAMES = {"relu": "ReLU", "leaky_relu": "Leaky ReLU", "sigmoid": "Sigmoid", "tanh": "Tanh", "gelu": "GELU"}


def kib(value: float) -> str:
    """Bytes in binary kibibytes or mebibytes, as buffer sizes are quoted: 524,288 B -> '512 KiB'."""
    return f"{fmt(value / KIB / KIB, 'num')} MiB" if value >= KIB * KIB else f"{fmt(value / KIB, 'num')} KiB"


def elementwise_rate(context: str) -> float:
    """Operations per second for elementwise work: the H100's CUDA cores (FP32, no tensor cores);
    the phone's Neural Engine at its published rate (an upper bound)."""
    return C.H100_PEAK_FP32 if context == "cloud" else device(context).peak_ops


def ops(function: str, exp_ops: float = S.exp_ops) -> float:
    return layers.activation_ops_per_element(function, exp_ops)


# ---- context ----------------------------------------------------------------------

CONTEXT = deployment(("cloud", "mobile"), default="mobile",
                     help="Sets the device: its elementwise rate, memory bandwidth and memory size.")

# ---- Act I · The activation tax ------------------------------------------------------

A1_ACTIVATION = Choice("a1_activation", "Activation in the four layers",
                       tuple(Option(k, v) for k, v in NAMES.items()), default="sigmoid", widget="select")
A1_PRECISION = Choice("a1_precision", "Precision of the feature maps",
                      tuple(Option(k, v[0]) for k, v in PRECISIONS.items()), default="int8",
                      unit="bytes per value")
A1_SIDE = Slider("a1_side", f"Feature map side (H = W), {fmt(S.act1_channels, 'int')} channels", unit="pixels", min=7, max=448, step=7,
                 default=S.act1_side, fmt="int")
A1_EXP = Slider("a1_exp_ops", "Operations per exponential (assumed)", unit="operations", min=4, max=30, step=1,
                default=S.exp_ops, fmt="int",
                help="An assumption: range reduction plus a short polynomial is about a dozen operations. "
                     "Hardware with a special-function unit does it in fewer.")
A1_FUSED = Toggle("a1_fused", "Fuse the activation into the previous layer (no extra memory traffic)")


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


def act_layer(s: State, function: str) -> ActLayer:
    return ActLayer(s["a1_side"] ** 2 * S.act1_channels, ops(function, s["a1_exp_ops"]),
                    PRECISIONS[s["a1_precision"]][1], elementwise_rate(s["context"]),
                    device(s["context"]).mem_bw, s["a1_fused"])


def fps_with(frame_s: float, saved_s: float) -> float:
    return 1 / (frame_s - saved_s)


def act1_truth() -> float:
    return ops("sigmoid") / ops("relu")


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt="Count the simple operations (add, multiply, compare, divide) each function needs per element, "
           f"with an exponential costing {fmt(S.exp_ops, 'int')} of them. How many times more arithmetic per "
           "element does sigmoid need than ReLU?",
    quantity="arithmetic per element, sigmoid ÷ ReLU",
    unit_fmt="x",
    options=(
        Range("A", "{range}: an exponential is one instruction on modern hardware", None, 2.0, 1.0,
              "Some chips have a special-function unit, but the exponential still replaces a single compare "
              "with a dozen-step evaluation, plus an add and a divide."),
        Range("B", "{range}: a few extra operations", 2.0, 6.0, 3.0,
              "The exponential alone is about a dozen operations; the add and the divide come on top."),
        Range("C", "{range}: an order of magnitude", 6.0, 100.0, 15.0,
              "One compare against an exponential, an add and a divide."),
        Range("D", "{range}: the cost of the silicon behind it", 100.0, None, 500.0,
              "Circuit area is not operation count: per element, sigmoid is a short formula, not hundreds "
              "of steps."),
    ),
    truth=act1_truth,
)


def act1_facts() -> dict[str, str]:
    npu = layers.elementwise_crossover_ops(1, C.A17_PRO_NPU_OPS, C.A17_PRO_MEM_BW)
    gpu = layers.elementwise_crossover_ops(2, C.H100_PEAK_FP32, C.H100_HBM_BW)
    return {"npu_cross": fmt(npu, "int"), "gpu_cross": fmt(gpu, "int"),
            "gelu_ops": fmt(ops("gelu"), "int"), "sigmoid_ops": fmt(ops("sigmoid"), "int")}


ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="GELU needs even more arithmetic per element than sigmoid (a cubic, a tanh with its exponential, "
           "and a few multiplies). What does that extra arithmetic cost one unfused activation layer on "
           "either device?",
    options=(
        Claim("A", "Time in proportion: GELU's layer takes its operation count ÷ sigmoid's as long.",
              "Time follows the operation count only on the compute roof; here the layer sits on the memory "
              "roof, where the arithmetic finishes long before the bytes do."),
        Claim("B", "Almost nothing: the layer waits for its bytes to be read and written, and the arithmetic "
                   "hides under that traffic.",
              "Unfused, every element is read once and written once. The arithmetic would only set the time "
              "above **{npu_cross}** operations per element on the phone's NPU (INT8) or **{gpu_cross}** on "
              "the H100 (FP16): GELU needs {gelu_ops}, sigmoid {sigmoid_ops}."),
        Claim("C", "Twice the time: GELU needs a second pass over the feature map.",
              "GELU is one formula per element, evaluated in the same single pass."),
        Claim("D", "It depends on how many transistors the exponential unit has: a bigger circuit is slower.",
              "Circuit area and latency are not throughput; and the layer's time is set by memory, not by "
              "the arithmetic units."),
    ),
    answer_letter="B",
)

M = {m.name: m for m in (
    MetricSpec("a1_time_ratio", "Time per layer, chosen ÷ ReLU", "1", "x"),
    MetricSpec("a1_op_ratio", "Arithmetic per element, chosen ÷ ReLU", "1", "x"),
    MetricSpec("a1_frame_share", "Four activation layers, share of the frame", "1", "pct"),
    MetricSpec("a1_fps_relu", "Frame rate after swapping to ReLU", "1/s", "num"),
    MetricSpec("a1_layer_s", "Time per activation layer", "s", "s"),
    MetricSpec("a1_crossover_ops", "Compute-bound above (operations per element)", "1", "int"),
    MetricSpec("a1_layer_bytes", "Bytes moved per layer", "B", "B"),
    MetricSpec("a2_buffer_ratio", "Largest map ÷ on-chip buffer", "1", "x"),
    MetricSpec("a2_spilled", "Layers that spill to DRAM", "1", "int"),
    MetricSpec("a2_peak_bytes", "Peak live activations", "B", "B"),
    MetricSpec("a2_device_share", "Share of device memory", "1", "pct"),
    MetricSpec("a2_spill_s", "Spilled traffic time per pass", "s", "s"),
    MetricSpec("a2_other_peak", "Peak in the other mode", "B", "B"),
)}

FAILURES = (
    FailureSpec("a2_out_of_memory", "Out of memory: the activations do not fit the device", act=2),
)
F = {f.name: f for f in FAILURES}


def act1_instruments(s: State) -> list:
    chosen, relu = act_layer(s, s["a1_activation"]), act_layer(s, "relu")
    four = S.activation_layers * chosen.time_s
    saved = S.activation_layers * (chosen.time_s - relu.time_s)
    bpv = PRECISIONS[s["a1_precision"]][1]
    cross = layers.elementwise_crossover_ops(bpv, chosen.rate, chosen.mem_bw)
    fps = fps_with(FRAME_S, saved)
    parts = [metric_grid(
        M["a1_time_ratio"].show(chosen.time_s / relu.time_s),
        M["a1_op_ratio"].show(chosen.ops / relu.ops),
        M["a1_frame_share"].show(four / FRAME_S, note=f"of a {fmt(FRAME_S, 's')} frame at {fmt(S.fps_now, 'num')} FPS"),
        M["a1_fps_relu"].show(fps, "good" if fps >= S.fps_target else "danger",
                              f"FPS; the target is {fmt(S.fps_target, 'num')}"),
        M["a1_layer_s"].show(chosen.time_s),
        M["a1_crossover_ops"].show(cross, note=f"{NAMES[s['a1_activation']]} needs {fmt(chosen.ops, 'int')}"),
        M["a1_layer_bytes"].show(0.0 if chosen.fused else 2 * bpv * chosen.elements,
                                 note="fused: nothing extra" if chosen.fused else "read once, written once"),
    ), act1_chart(s)]
    bound = "compute" if chosen.compute_s > chosen.memory_s else "memory"
    parts.append(callout("info", f"{NAMES[s['a1_activation']]} here is {bound}-bound", prose(
        f"Arithmetic takes {fmt(chosen.compute_s, 's')} per layer, memory traffic "
        f"{fmt(chosen.memory_s, 's')}. Even removing all four layers would leave "
        f"{fmt(fps_with(FRAME_S, four), 'num')} FPS: the frame's time is in the layers that do the heavy "
        "arithmetic, and in the bytes they move.")))
    return parts


def act1_chart(s: State):
    fns = list(NAMES)
    rows = {f: act_layer(s, f) for f in fns}
    # two short lines at most, the chosen function in bold, so five names fit a 375 px phone
    short = {f: NAMES[f].replace(" ReLU", "<br>ReLU") for f in fns}
    labels = [f"<b>{short[f]}</b>" if f == s["a1_activation"] else short[f] for f in fns]
    traces = [ch.bars("Arithmetic", labels, [rows[f].compute_s for f in fns], "series1")]
    if not s["a1_fused"]:
        traces.append(ch.bars("Memory traffic", labels, [rows[f].memory_s for f in fns], "series2"))
    values = [v for r in rows.values() for v in (r.compute_s, r.memory_s) if v > 0]
    figure = ch.figure(traces, x=ch.axis("", "category", tickangle=0),
                       y=ch.axis("Time per layer", "log", **ch.decade_ticks(values, lambda v: fmt(v, "s"))))
    relu, sig = rows["relu"], rows["sigmoid"]
    summary = (f"Each layer takes the longer of its two bars: ReLU {fmt(relu.time_s, 's')}, sigmoid "
               f"{fmt(sig.time_s, 's')}" + (" (fused: no memory traffic, so arithmetic alone)." if s["a1_fused"]
                                            else f"; memory traffic is {fmt(relu.memory_s, 's')} for every function."))
    table = [(NAMES[f], fmt(rows[f].ops, "int"), fmt(rows[f].compute_s, "s"), fmt(rows[f].memory_s, "s"),
              fmt(rows[f].time_s, "s")) for f in fns]
    return chart("a1_layer_time", "Arithmetic and memory time per activation layer", figure, summary,
                 table=(("Function", "Ops/element", "Arithmetic", "Memory", "Layer"), table))


def act1_math(s: State):
    chosen = act_layer(s, s["a1_activation"])
    return math_peek("The governing equations · Act I", (
        Equation(r"t = \max\!\left(\frac{n\,k}{R},\ \frac{n\cdot 2b}{B}\right)",
                 "An unfused activation layer over *n* elements with *k* operations each, at *R* operations/s, "
                 "reads and writes *b* bytes per element at *B* bytes/s. Fused into the previous layer's "
                 "epilogue, the second term disappears."),
        Equation(r"k_{\text{ReLU}} = 1,\ k_{\text{sigmoid}} = k_{\exp} + 2,\ k_{\tanh} = k_{\exp} + 4,\ "
                 r"k_{\text{GELU}} = k_{\exp} + 12",
                 "Operation counts of the formulas; GELU in its tanh form."),
        Equation(r"k^{*} = \frac{R}{B}\cdot 2b",
                 "Above *k\\** operations per element the arithmetic, not the memory, sets the time."),
    ), rows=(
        ("Elements, *n*", fmt(chosen.elements, "int")),
        ("Operations per element, *k*", fmt(chosen.ops, "int")),
        ("Elementwise rate, *R*", fmt(chosen.rate, "OP/s")),
        ("Memory bandwidth, *B*", fmt(chosen.mem_bw, "GB/s") + (" (assumed)" if s["context"] == "mobile" else "")),
        ("Crossover, *k\\**", fmt(layers.elementwise_crossover_ops(chosen.bytes_per_value, chosen.rate,
                                                                   chosen.mem_bw), "int")),
    ), sources=(
        cite("williams2009", "the memory and compute roofs, and the ridge point"),
        cite("nvidia_dl_perf", "memory-bound operations do not speed up with faster arithmetic"),
        cite("hendrycks2016", "GELU and its tanh approximation"),
        C.REGISTRY["H100_PEAK_FP32"].source,
        C.REGISTRY["A17_PRO_NPU_OPS"].source,
        C.REGISTRY["A17_PRO_MEM_BW"].source,
    ))


ACT1 = Act(
    number=1, title="The Activation Tax", minutes="12–15 min",
    stakeholder_role="AR Product Lead",
    stakeholder=lambda: (
        f"Our AR segmentation model runs at {fmt(S.fps_now, 'num')} FPS and the AR overlay needs "
        f"{fmt(S.fps_target, 'num')}. It has {S.activation_layers} sigmoid activation layers on "
        f"{fmt(S.act1_side, 'int')}×{fmt(S.act1_side, 'int')}×{fmt(S.act1_channels, 'int')} feature maps. "
        "The hardware team says an exponential costs far more silicon than a compare, so swapping to ReLU "
        "should win the frame back. Is it worth the retraining sprint?"),
    scenario=lambda: (
        "An activation function applies one short formula to every element of a feature map. Unfused, the "
        "layer reads each element from memory, computes, and writes the result back.",
        "Before you look at any timings: how much more arithmetic does sigmoid's formula need?",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_ACTIVATION, A1_PRECISION, A1_SIDE, A1_EXP, A1_FUSED),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Activation layer timer",
)

# ---- Act II · The Memory Ledger ----------------------------------------------------------

BUFFERS = {  # option -> (label, bytes, short name)
    "kib128": (f"{kib(S.buffer_bytes / 4)} buffer", S.buffer_bytes / 4, kib(S.buffer_bytes / 4)),
    "kib512": (f"{kib(S.buffer_bytes)} buffer (the scenario, assumed)", S.buffer_bytes, kib(S.buffer_bytes)),
    "mib8": (f"{kib(S.buffer_bytes * 16)} buffer", S.buffer_bytes * 16, kib(S.buffer_bytes * 16)),
    "h100_l2": (f"{fmt(C.H100_L2_BYTES, 'B')}, the H100's L2 cache", C.H100_L2_BYTES,
                f"{fmt(C.H100_L2_BYTES, 'B')} L2"),
}
A2_IMAGE = Slider("a2_image", "Input image side", unit="pixels", min=28, max=512, step=4,
                  default=S.image_side, fmt="int")
A2_CHANNELS = Slider("a2_channels", "Channels of the first map (doubling per stage)", unit="channels",
                     min=1, max=512, step=1, default=S.first_channels, fmt="int")
A2_BATCH = Slider("a2_batch", "Batch size", unit="images", min=1, max=128, step=1, default=S.batch, fmt="int")
A2_PRECISION = Choice("a2_precision", "Precision", tuple(Option(k, v[0]) for k, v in PRECISIONS.items()),
                      default="fp32", unit="bytes per value")
A2_MODE = Choice("a2_mode", "Mode", (
    Option("inference", "Inference: keep the map being read and the map being written"),
    Option("training", "Training: keep every map for the backward pass"),
), default="training")
A2_BUFFER = Choice("a2_buffer", "On-chip buffer", tuple(Option(k, v[0]) for k, v in BUFFERS.items()),
                   default="kib512", widget="select", unit="B",
                   help=f"Apple does not publish the Neural Engine's on-chip memory: {kib(S.buffer_bytes)} is the "
                        f"scenario's assumption. The H100's {fmt(C.H100_L2_BYTES, 'B')} L2 is NVIDIA's figure.")


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
    def spilled(self) -> list[bool]:
        return layers.spilled_layers(self.maps, self.buffer)

    @property
    def spill_s(self) -> float:
        return layers.spill_traffic_bytes(self.maps, self.buffer) / self.mem_bw

    @property
    def oom(self) -> bool:
        return self.peak > self.ram


def ledger(s: State) -> Ledger:
    maps = layers.pyramid_map_bytes(int(s["a2_image"]), int(s["a2_channels"]), PRECISIONS[s["a2_precision"]][1],
                                    s["a2_batch"], S.stages)
    dev = device(s["context"])
    _, buffer, name = BUFFERS[s["a2_buffer"]]
    return Ledger(tuple(maps), buffer, name, s["a2_mode"] == "training", dev.mem_bytes, dev.mem_bw)


def act2_truth() -> float:
    return layers.feature_map_bytes(S.act2_side, S.act2_channels, S.act2_bytes) / S.buffer_bytes


ACT2_PREDICTION = Prediction(
    id="a2_predict", act=2,
    prompt=f"One FP32 feature map of {fmt(S.act2_side, 'int')}×{fmt(S.act2_side, 'int')} pixels and "
           f"{fmt(S.act2_channels, 'int')} output channels, for a single image. How many times larger is it "
           f"than a {kib(S.buffer_bytes)} on-chip buffer?",
    quantity=f"one FP32 {fmt(S.act2_side, 'int')}×{fmt(S.act2_side, 'int')}×{fmt(S.act2_channels, 'int')} map "
             f"÷ {kib(S.buffer_bytes)}",
    unit_fmt="x",
    options=(
        Range("A", "{range}: it about fits", None, 3.0, 1.0,
              f"Multiply it out: every pixel holds one value per channel, and every value takes {fmt(S.act2_bytes, 'int')} bytes in FP32."),
        Range("B", "{range}: a few tiles' worth", 3.0, 30.0, 10.0,
              "The pixel count is only the start: multiply by the channels and by the bytes per value."),
        Range("C", "{range}: it must stream through DRAM", 30.0, 300.0, 100.0,
              "Pixels × channels × bytes: tens of megabytes against half a megabyte."),
        Range("D", "{range}: hopeless even for a large cache", 300.0, None, 1000.0,
              f"Large, but not that large: one image's map is tens of megabytes, about the size of the H100's "
              f"{fmt(C.H100_L2_BYTES, 'B')} L2 cache."),
    ),
    truth=act2_truth,
)


def act2_facts() -> dict[str, str]:
    one = layers.feature_map_bytes(S.act2_side, S.act2_channels, 1)
    base = layers.pyramid_map_bytes(int(S.image_side), int(S.first_channels), S.act2_bytes, S.batch, S.stages)
    big = layers.pyramid_map_bytes(int(S.image_side), int(S.first_channels), S.act2_bytes, 8 * S.batch, S.stages)
    return {"map_bytes": fmt(layers.feature_map_bytes(S.act2_side, S.act2_channels, S.act2_bytes), "B"),
            "int8_ratio": fmt(one / S.buffer_bytes, "x"), "fp16_ratio": fmt(2 * one / S.buffer_bytes, "x"),
            "train_8": fmt(sum(base), "B"), "train_64": fmt(sum(big), "B"),
            "batch": fmt(S.batch, "int"), "batch_big": fmt(8 * S.batch, "int")}


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt="Training the same network at batch 64 instead of 8 needs eight times the activation memory, "
           "while the weights stay exactly the same size. Why?",
    options=(
        Claim("A", "A larger batch needs more weights to learn from more images at once.",
              "The weights are shared by every image of the batch; the model does not grow."),
        Claim("B", "Every image carries its own feature maps through every layer, and training keeps them "
                   "all for the backward pass.",
              "Activations scale with batch × resolution² × channels: {train_8} at batch {batch}, {train_64} "
              "at batch {batch_big}. The weights are stored once for the whole batch."),
        Claim("C", "The optimizer keeps a copy of the activations for each step it remembers.",
              "The optimizer's state is per weight (moments for Adam), not per activation."),
        Claim("D", "Larger batches fragment memory, which wastes the extra space.",
              "Fragmentation wastes some memory, but the growth here is exact: eight times the images, eight "
              "times the maps."),
    ),
    answer_letter="B",
)


def act2_instruments(s: State) -> list:
    led = ledger(s)
    spilled = sum(led.spilled)
    mode = "training" if led.training else "inference"
    share = led.peak / led.ram
    parts = [metric_grid(
        M["a2_buffer_ratio"].show(max(led.maps) / led.buffer, note=f"of {led.buffer_name}"),
        M["a2_spilled"].show(spilled, "danger" if spilled else "good", f"of {len(led.spilled)} layers"),
        M["a2_peak_bytes"].show(led.peak, "danger" if led.oom else None, mode),
        M["a2_device_share"].show(share, "danger" if led.oom else "warn" if share > 0.5 else "good",
                                  f"of {fmt(led.ram, 'GB')}"),
        M["a2_spill_s"].show(led.spill_s, note=f"at {fmt(led.mem_bw, 'GB/s')}"),
        M["a2_other_peak"].show(layers.peak_live_bytes(led.maps, not led.training),
                                note="inference" if led.training else "training"),
    )]
    if led.oom:
        parts.append(failure(F["a2_out_of_memory"],
                             f"{mode.capitalize()} needs {fmt(led.peak, 'GB')} of activations at once, more than "
                             f"the device's {fmt(led.ram, 'GB')}. Shrink the batch, the image or the channels, "
                             "use fewer bytes per value, or (in training) recompute maps instead of keeping them."))
    parts.append(act2_chart(led))
    facts = act2_facts()
    parts.append(callout("info", "The map you predicted", prose(
        f"One {fmt(S.act2_side, 'int')}×{fmt(S.act2_side, 'int')}×{fmt(S.act2_channels, 'int')} map for one image "
        f"is {facts['map_bytes']} in FP32: **{fmt(act2_truth(), 'x')}** the {kib(S.buffer_bytes)} buffer, "
        f"{facts['fp16_ratio']} in FP16 and still {facts['int8_ratio']} in INT8. Set the batch to 1 and the first "
        f"channels to {fmt(S.act2_channels, 'int')} to see it as the largest map.")))
    return parts


def act2_chart(led: Ledger):
    sets = layers.working_sets(led.maps)
    names = [f"{k + 1}→{k + 2}" for k in range(len(sets))]
    fits = [0.0 if spill else ws for ws, spill in zip(sets, led.spilled)]
    over = [ws if spill else 0.0 for ws, spill in zip(sets, led.spilled)]
    traces = [ch.bars("Fits on chip", names, fits, "good"), ch.bars("Spills to DRAM", names, over, "danger"),
              ch.line("On-chip buffer", names, [led.buffer] * len(sets), "accent", dash="dot"),
              ch.line("Device memory", names, [led.ram] * len(sets), "muted", dash="dash")]
    low, high = min(*sets, led.buffer), max(*sets, led.ram)
    span = [math.log10(low) - 0.3, math.log10(high) + 0.3]
    figure = ch.figure(traces, x=ch.axis("Layer: map read → map written", "category", tickangle=0),
                       y=ch.axis("Working set", "log", range=span,
                                 **ch.decade_ticks([low, high], lambda v: fmt(v, "B"))),
                       stacked=True)
    summary = (f"{sum(led.spilled)} of {len(sets)} layers read and write more than the {led.buffer_name} "
               f"buffer holds; the largest working set is {fmt(max(sets), 'B')}.")
    rows = [(n, fmt(a, "B"), "spills" if sp else "fits") for n, a, sp in zip(names, sets, led.spilled)]
    return chart("a2_ledger", "Each layer's working set against the on-chip buffer", figure, summary,
                 table=(("Layer", "Input + output maps", "On chip?"), rows))


def act2_math(s: State):
    led = ledger(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"A_l = b\cdot H_l^2\cdot C_l\cdot N,\quad H_l = \lceil H_0/2^l\rceil,\ C_l = 2^l C_0",
                 "Bytes of stage *l*'s map: bytes per value, pixels, channels, batch."),
        Equation(r"\text{inference: } \max_l (A_l + A_{l+1}),\qquad \text{training: } \sum_l A_l",
                 "Inference frees a map once the next is written; training keeps every map for the backward pass."),
        Equation(r"A_l + A_{l+1} > S \Rightarrow t_{\text{spill}} = \frac{A_l + A_{l+1}}{B}",
                 "A layer whose input and output do not fit the on-chip buffer *S* streams both through DRAM."),
    ), rows=(
        ("Maps, *A*₀ … *A*₅", " / ".join(fmt(a, "B") for a in led.maps)),
        ("On-chip buffer, *S*", led.buffer_name),
        ("Peak live", fmt(led.peak, "B")),
        ("Device memory", fmt(led.ram, "GB")),
        ("Bandwidth, *B*", fmt(led.mem_bw, "GB/s")),
    ), sources=(
        cite("nvidia_hopper", "H100 L2 cache 50 MB"),
        C.REGISTRY["A17_PRO_MEM_BYTES"].source,
        C.REGISTRY["H100_HBM_BYTES"].source,
        "The 512 KiB buffer is the scenario's assumption: Apple does not publish the Neural Engine's on-chip memory.",
    ))


ACT2 = Act(
    number=2, title="The Memory Ledger", minutes="15–20 min",
    stakeholder_role="ML Platform Engineer",
    stakeholder=lambda: (
        "Fine, activations are about bytes. Now I need to know where those bytes live. Our accelerator keeps "
        f"data on chip in a {kib(S.buffer_bytes)} buffer; anything larger goes out to DRAM and back. The "
        "segmentation head "
        f"produces full-resolution {fmt(S.act2_side, 'int')}×{fmt(S.act2_side, 'int')} maps with "
        f"{fmt(S.act2_channels, 'int')} channels, and we want to train the backbone on device as well. "
        "Start a Memory Ledger for me."),
    scenario=lambda: (
        "A feature map's size is bytes per value × pixels × channels × batch. In a pyramid backbone each stage "
        "halves the side and doubles the channels, so the first maps are the largest.",
        "A layer works from the map it reads and the map it writes; if both fit on chip, it never touches DRAM.",
    ),
    prediction=ACT2_PREDICTION,
    controls=(A2_IMAGE, A2_CHANNELS, A2_BATCH, A2_PRECISION, A2_MODE, A2_BUFFER),
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="Memory Ledger",
)

# ---- the whole lab -------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    return frozenset({"a2_out_of_memory"} if ledger(s).oom else set())


def results(s: State) -> dict[str, float | str | bool]:
    chosen, relu = act_layer(s, s["a1_activation"]), act_layer(s, "relu")
    led = ledger(s)
    return {"activations": ",".join([s["a1_activation"]] * S.activation_layers),
            "fused": s["a1_fused"], "act_ratio": chosen.ops / relu.ops,
            "act_time_ratio": chosen.time_s / relu.time_s,
            "batch": s["a2_batch"], "bytes": PRECISIONS[s["a2_precision"]][1], "mode": s["a2_mode"],
            "spilled_layers": float(sum(led.spilled)), "oom": led.oom}


def lab_takeaways() -> list[str]:
    n = S.act1_side ** 2 * S.act1_channels
    npu = layers.elementwise_layer_s(n, ops("sigmoid"), 1, C.A17_PRO_NPU_OPS, C.A17_PRO_MEM_BW)
    facts = act2_facts()
    return [
        f"Sigmoid needs {fmt(act1_truth(), 'x')} ReLU's arithmetic per element, yet on the phone's NPU both "
        f"take {fmt(npu, 's')} per {fmt(S.act1_side, 'int')}×{fmt(S.act1_side, 'int')}×"
        f"{fmt(S.act1_channels, 'int')} INT8 layer: an unfused activation is memory-bound.",
        f"Four such layers are {fmt(S.activation_layers * npu / FRAME_S, 'pct')} of a {fmt(S.fps_now, 'num')} FPS "
        "frame, so no activation swap reaches the target; fusion removes their traffic, and the frame's time "
        "is in the heavy layers and their bytes.",
        f"One FP32 {fmt(S.act2_side, 'int')}×{fmt(S.act2_side, 'int')}×{fmt(S.act2_channels, 'int')} map is "
        f"{facts['map_bytes']}, {fmt(act2_truth(), 'x')} a {kib(S.buffer_bytes)} buffer "
        f"({facts['fp16_ratio']} in FP16, {facts['int8_ratio']} in INT8).",
        "Inference keeps two maps at a time; training keeps them all, and every image of the batch has its own: "
        f"{facts['train_8']} at batch {facts['batch']} becomes {facts['train_64']} at batch {facts['batch_big']}.",
    ]


LAB = Lab(
    id="v1_05", volume=1, number=5, title="The Activation Tax",
    invariant="An unfused activation costs **bytes, not arithmetic**; activation memory grows with "
              "batch × resolution² × channels.",
    minutes="30–35 min", chapter="Neural Computation", url="vol1/05-activation-tax/",
    reading=(
        "**Activation functions**: ReLU, sigmoid, tanh and GELU, and what each computes.",
        "**The roofline**: memory-bound and compute-bound operations, and the ridge point.",
        "**Activation memory**: what inference and training keep, and why batch size matters.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "**V1-06 The Quadratic Wall**: attention's activations grow with the square of the sequence.",
        "**V1-07 The Kernel Fusion Dividend**: fusing elementwise layers into their neighbours.",
        "**V1-08 The Training Memory Budget**: activations next to weights, gradients and optimizer state.",
    ),
    presets={"context": {"mobile": {"a1_precision": "int8"}, "cloud": {"a1_precision": "fp16"}}},
    context_from=TRACK,
)
