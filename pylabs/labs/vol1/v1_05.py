"""Lab V1-05 · The Activation Tax.

Core invariant: an unfused activation layer reads and writes every element once, so on a GPU
or an NPU its time is set by bytes over bandwidth, not by the function's arithmetic; and the
activations a network keeps grow with batch × resolution² × channels until they leave the
chip, and then the device.

Act I (the activation tax): an AR model runs at 12 FPS against a 24 FPS target and has four
sigmoid layers. The prediction asks what share of the frame the four layers take on the device
of the context (a roofline: bytes ÷ bandwidth against operations ÷ rate); the reflection asks
what GELU's extra arithmetic adds to a layer. Act II (the Memory Ledger): how many times the
ledger's first feature map exceeds a 512 KiB on-chip buffer, which layers spill to DRAM, when the
activations no longer fit the device; the reflection asks why training's peak (every map) is so
close to inference's (two maps at a time).

Where the lab departs from the spec (handbook/labs/v1_05.md §5) and why:
- Act I's spec prediction (sigmoid ÷ ReLU arithmetic, 14×) was recall of an operation count the
  scenario states. The prediction now asks for the four layers' share of the
  frame in the context locked in: 0.15 % on the phone (INT8, 51.2 GB/s assumed; the key holds up
  to 77 GB/s) and on the Orin NX (FP16, 102.4 GB/s), 0.0046 % on the H100 (FP16, 3.35 TB/s).
- Act II's spec prediction (one image's 224×224×256 map, 98×) was about a map no card shows at
  the ledger's settings; it now asks about the ledger's first map at its starting settings
  (batch 8, 224×224, 64 channels, FP32: 102.76 MB = 196× the buffer), which the card shows.
- The spec's Act II reflection (batch scales activations) is stated by the prediction's own
  arithmetic (a batch of images); the reflection now asks why training's peak is only 1.31×
  inference's (the pyramid's maps halve at each stage).
- Elementwise rates: the GPUs run activations on their CUDA cores at the FP32 rate (no tensor
  cores); the phone runs INT8 on the Neural Engine at Apple's 35 TOPS (read as INT8,
  coremltools), FP16 at the assumed half of it (A17_PRO_NPU_FP16_ASSUMED), and FP32 on its GPU
  (A17_PRO_GPU_FP32_ASSUMED): a float 32 Core ML model "will execute on a combination of the GPU and CPU"
  (Apple, coremltools "Typed Execution Workflow Example"); that the Neural Engine computes in FP16 is third-party
  and hedged ("the ANE appears to use float16 for everything", github.com/hollance/neural-engine). The upstream
  "50× transistors" claim is not repeated: no source.
- One activation control drives all four layers (each layer's time is independent); the ledger
  records it once.
- TinyML is not offered: a 56×56×256 INT8 map alone is larger than the MCU's largest SRAM block,
  and a 12 FPS AR model is a phone's or a GPU's workload (said on the page, ``track_notes``).

Ledger fields: context, activations, fused, act_ratio (arithmetic, chosen ÷ ReLU),
act_time_ratio, batch, bytes, mode, spilled_layers, oom.
"""

from __future__ import annotations

import math

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option,
                              Prediction, Range, Reflection, Slider, State, Toggle, callout, chart, failure,
                              fmt, listed, math_peek, metric_grid, prose)
from pylabs.framework import charts as ch
from pylabs.labs.vol1.contexts import TRACK, deployment, device
from pylabs.labs.vol1.v1_05_model import (FRAME_S, KIB, NAMES, PRECISIONS, PRESET_PRECISION, SHORT, S, Ledger,
                                          act_layer, engine, first_map_ratio, fps_with, frame_share, ops, peaks,
                                          pyramid, scenario_layer)
from pylabs.physics import constants as C
from pylabs.physics import layers
from pylabs.physics.references import cite


def kib(value: float) -> str:
    """Bytes in binary kibibytes or mebibytes, as buffer sizes are quoted: 524,288 B -> '512 KiB'."""
    return f"{fmt(value / KIB / KIB, 'num')} MiB" if value >= KIB * KIB else f"{fmt(value / KIB, 'num')} KiB"


SHAPE = f"{fmt(S.act1_side, 'int')}×{fmt(S.act1_side, 'int')}×{fmt(S.act1_channels, 'int')}"
ASSUMED_BW = {"mobile": " (assumed)"}
MEMORY_NOTE = {"edge": ", shared with the CPU", "mobile": ", reported; iOS lets one app use less"}


def terms(context: str) -> dict[str, str]:
    """The context's words and numbers that the prompts name."""
    precision = PRESET_PRECISION[context]
    return {"device": SHORT[context], "precision": PRECISIONS[precision][0].split(" ")[0],
            "rate": fmt(engine(context, precision).rate, engine(context, precision).unit_fmt),
            "bandwidth": fmt(device(context).mem_bw, "GB/s") + ASSUMED_BW.get(context, "")}


# ---- context ----------------------------------------------------------------------

CONTEXT = deployment(("cloud", "edge", "mobile"), default="mobile",
                     help="Sets the device: its elementwise rate, memory bandwidth and memory size.")
TRACK_NOTES = {"tiny": f"One {SHAPE} INT8 feature map is "
                       f"{fmt(S.act1_side ** 2 * S.act1_channels, 'B')}, more than the microcontroller's largest "
                       f"SRAM block ({fmt(C.STM32H743_AXI_SRAM_BYTES, 'iB')}), and an AR model at "
                       f"{fmt(S.fps_now, 'num')} FPS is a phone's or a GPU's workload: this lab opens in Mobile."}

# ---- Act I · The activation tax ------------------------------------------------------

A1_ACTIVATION = Choice("a1_activation", "Activation in the four layers",
                       tuple(Option(k, v) for k, v in NAMES.items()), default="sigmoid", widget="select")
A1_PRECISION = Choice("a1_precision", "Precision of the feature maps",
                      tuple(Option(k, v[0]) for k, v in PRECISIONS.items()), default="int8",
                      unit="bytes per value",
                      help=f"The GPUs run activations on their CUDA cores at the FP32 rate. The phone runs INT8 "
                           f"on its Neural Engine at Apple's {fmt(C.A17_PRO_NPU_OPS, 'OP/s')} (Apple states no precision: "
                           f"read as INT8), FP16 there at "
                           f"{fmt(C.A17_PRO_NPU_FP16_ASSUMED, 'FLOP/s')} (assumed: half) and FP32 on its GPU at "
                           f"{fmt(C.A17_PRO_GPU_FP32_ASSUMED, 'FLOP/s')} (assumed clock).")
A1_SIDE = Slider("a1_side", f"Feature map side (H = W), {fmt(S.act1_channels, 'int')} channels", unit="pixels",
                 min=7, max=448, step=7, default=S.act1_side, fmt="int")
A1_EXP = Slider("a1_exp_ops", "Operations per exponential (assumed)", unit="operations", min=4, max=30, step=1,
                default=S.exp_ops, fmt="int",
                help="An assumption: range reduction plus a short polynomial is about a dozen operations. "
                     "Hardware with a special-function unit does it in fewer.")
A1_FUSED = Toggle("a1_fused", "Fuse the activation into the previous layer (no extra memory traffic)")


def layer_of(s: State, function: str):
    return act_layer(s["context"], function, s["a1_precision"], s["a1_side"], s["a1_exp_ops"], s["a1_fused"])


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"On the {{device}}, with {{rate}} for this arithmetic and {{bandwidth}} of memory bandwidth, each of "
           f"the four sigmoid layers works on a {SHAPE} {{precision}} map. What share of the {fmt(FRAME_S, 's')} frame do the "
           "four take together?",
    quantity="four sigmoid layers' share of the frame",
    unit_fmt="pct",
    options=(
        Range("A", "{range}: too little to find in a profile", None, 0.001, 0.0003,
              "Arithmetic alone would be {compute_share}: {sigmoid_ops} operations per element at {rate}. Each "
              "layer also reads and writes {a1_layer_bytes}, {a1_layer_s} at {bandwidth}: four layers are "
              "{a1_frame_share}."),
        Range("B", "{range}: visible, yet far from the gap", 0.001, 0.02, 0.005,
              "Each layer reads and writes {a1_layer_bytes}: {a1_layer_s} at {bandwidth}, against "
              "{sigmoid_compute} of arithmetic. Four layers are {a1_frame_share} of the frame."),
        Range("C", "{range}: a real slice of the frame", 0.02, 0.5, 0.1,
              "A few percent of {frame} is milliseconds a layer; a layer moves {a1_layer_bytes}, which takes "
              "{a1_layer_s} at {bandwidth}. Four layers are {a1_frame_share}."),
        Range("D", "{range}: the swap alone closes the gap", 0.5, None, 0.6,
              "Reaching {target} FPS means saving {half_frame} of every frame; the four sigmoid layers take "
              "{four_s} in all, {a1_frame_share} of it."),
    ),
    truth=frame_share,
    shown_by="a1_frame_share",
)


def act1_facts(context: str) -> dict[str, str]:
    layer, gelu = scenario_layer(context), scenario_layer(context, "gelu")
    four = S.activation_layers * layer.time_s
    return {"a1_frame_share": fmt(four / FRAME_S, "pct"), "a1_layer_s": fmt(layer.time_s, "s"),
            "a1_layer_bytes": fmt(layer.bytes_moved, "B"), "a1_crossover_ops": fmt(layer.crossover_ops, "int"),
            "sigmoid_compute": fmt(layer.compute_s, "s"), "gelu_compute": fmt(gelu.compute_s, "s"),
            "compute_share": fmt(S.activation_layers * layer.compute_s / FRAME_S, "pct"),
            "four_s": fmt(four, "s"), "half_frame": fmt(FRAME_S - 1 / S.fps_target, "s"),
            "frame": fmt(FRAME_S, "s"), "target": fmt(S.fps_target, "num"),
            "gelu_ops": fmt(ops("gelu"), "int"), "sigmoid_ops": fmt(ops("sigmoid"), "int"), **terms(context)}


ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt=f"GELU needs {fmt(ops('gelu'), 'int')} operations per element to sigmoid's {fmt(ops('sigmoid'), 'int')} "
           f"(at {fmt(S.exp_ops, 'int')} per exponential). On the {{device}}, what does that extra arithmetic add "
           "to one unfused layer's time?",
    options=(
        Claim("A", "In proportion: GELU's layer takes its operation count ÷ sigmoid's as long.",
              "Time follows the operation count only on the compute roof. On the {device}, GELU's arithmetic "
              "takes {gelu_compute} a layer and its bytes {a1_layer_s}."),
        Claim("B", "Nothing: the chip evaluates all of GELU in one special-function step.",
              "A special-function unit speeds up the exponential, but GELU still needs its multiplies and adds "
              "({gelu_ops} operations here, {gelu_compute} a layer). Fuse the layer and that arithmetic is the "
              "whole time."),
        Claim("C", "Almost nothing: the layer waits on its bytes, not its arithmetic.",
              "Unfused, each element is read once and written once. Arithmetic would set the time only above "
              "**{a1_crossover_ops}** operations per element on the {device}; GELU needs {gelu_ops}."),
        Claim("D", "More per element: the exponential unit's larger circuit is slower.",
              "A circuit's size is not its throughput, and the layer does not wait on arithmetic: GELU's takes "
              "{gelu_compute}, the traffic {a1_layer_s}."),
    ),
    answer_letter="C",
)

M = {m.name: m for m in (
    MetricSpec("a1_frame_share", "Four activation layers, share of the frame", "1", "pct"),
    MetricSpec("a1_time_ratio", "Time per layer, chosen ÷ ReLU", "1", "x"),
    MetricSpec("a1_op_ratio", "Arithmetic per element, chosen ÷ ReLU", "1", "x"),
    MetricSpec("a1_fps_relu", "Frame rate after swapping to ReLU", "1/s", "num"),
    MetricSpec("a1_layer_s", "Time per activation layer", "s", "s"),
    MetricSpec("a1_crossover_ops", "Compute-bound above (operations per element)", "1", "int"),
    MetricSpec("a1_layer_bytes", "Bytes moved per layer", "B", "B"),
    MetricSpec("a2_buffer_ratio", "Largest map ÷ on-chip buffer", "1", "x"),
    MetricSpec("a2_buffer_share", "Largest map, share of the on-chip buffer", "1", "pct"),
    MetricSpec("a2_spilled", "Layers that spill to DRAM", "1", "int"),
    MetricSpec("a2_peak_bytes", "Peak live activations", "B", "B"),
    MetricSpec("a2_device_share", "Share of device memory", "1", "pct"),
    MetricSpec("a2_spill_s", "Spilled traffic time per pass", "s", "s"),
    MetricSpec("a2_other_peak", "Peak in the other mode", "B", "B"),
)}
RECORD = (
    MetricSpec("activations", "Activation in the four layers", "1", "num"),
    MetricSpec("fused", "Activation fused into the previous layer", "1", "yesno"),
    MetricSpec("act_ratio", "Arithmetic per element, chosen ÷ ReLU", "1", "x"),
    MetricSpec("act_time_ratio", "Time per layer, chosen ÷ ReLU", "1", "x"),
    MetricSpec("batch", "Batch size (images)", "1", "int"),
    MetricSpec("bytes", "Bytes per value in the ledger", "B", "B"),
    MetricSpec("mode", "Ledger mode", "1", "num"),
    MetricSpec("spilled_layers", "Layers that spill to DRAM", "1", "int"),
    MetricSpec("oom", "Out of device memory", "1", "yesno"),
)

FAILURES = (
    FailureSpec("a2_out_of_memory", "Out of memory: the activations do not fit the device", act=2,
                reach={"a2_batch": 128, "a2_image": 512}, leave={"a2_batch": 32}, contexts=("edge", "mobile")),
)
F = {f.name: f for f in FAILURES}


def act1_instruments(s: State) -> list:
    chosen, relu = layer_of(s, s["a1_activation"]), layer_of(s, "relu")
    four = S.activation_layers * chosen.time_s
    fps = fps_with(FRAME_S, S.activation_layers * (chosen.time_s - relu.time_s))
    parts = [metric_grid(
        M["a1_frame_share"].show(four / FRAME_S, note=f"of the {fmt(FRAME_S, 's')} frame at "
                                                      f"{fmt(S.fps_now, 'num')} FPS"),
        M["a1_time_ratio"].show(chosen.time_s / relu.time_s),
        M["a1_op_ratio"].show(chosen.ops / relu.ops),
        M["a1_fps_relu"].show(fps, "good" if fps >= S.fps_target else "danger",
                              f"FPS; the target is {fmt(S.fps_target, 'num')}"),
        M["a1_layer_s"].show(chosen.time_s, note="a bound at peak bandwidth; no measured time"),
        M["a1_crossover_ops"].show(chosen.crossover_ops,
                                   note=f"{NAMES[s['a1_activation']]} needs {fmt(chosen.ops, 'int')}"),
        M["a1_layer_bytes"].show(chosen.bytes_moved,
                                 note="fused: nothing extra" if chosen.fused else "read once, written once"),
    ), act1_chart(s)]
    bound = "compute" if chosen.compute_s > chosen.memory_s else "memory"
    parts.append(callout("info", f"{NAMES[s['a1_activation']]} here is {bound}-bound", prose(
        f"Arithmetic takes {fmt(chosen.compute_s, 's')} per layer, "
        + ("and fused, the layer adds no memory traffic. " if chosen.fused else
           f"memory traffic {fmt(chosen.memory_s, 's')}. ") + "Even removing all four layers would leave "
        f"{fmt(fps_with(FRAME_S, four), 'num')} FPS: the rest of the frame is in the other layers, their "
        "arithmetic and their bytes.")))
    return parts


def act1_chart(s: State):
    fns = list(NAMES)
    rows = {f: layer_of(s, f) for f in fns}
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


def l2_note(s: State, chosen) -> tuple:
    """Act II's rule (maps that fit on chip skip DRAM) on the H100, whose L2 holds a small layer: said, not modelled."""
    if s["context"] != "cloud" or chosen.fused or chosen.bytes_moved > C.H100_L2_BYTES:
        return ()
    return (Equation(r"2\,n\,b \le S_{\text{L2}}",
                     f"On the H100 the two maps ({fmt(chosen.bytes_moved, 'B')}) also fit its {fmt(C.H100_L2_BYTES, 'B')} L2, faster "
                     f"than HBM if the previous layer's output is still there: timed here at {fmt(chosen.mem_bw, 'GB/s')}."),)


def act1_math(s: State):
    chosen, where = layer_of(s, s["a1_activation"]), engine(s["context"], s["a1_precision"])
    return math_peek("The governing equations · Act I", (
        Equation(r"t = \max\!\left(\frac{n\,k}{R},\ \frac{n\cdot 2b}{B}\right)",
                 "An unfused activation layer over *n* elements with *k* operations each, at *R* operations/s, "
                 "reads and writes *b* bytes per element at *B* bytes/s. An ideal bound: peak bandwidth, and "
                 "arithmetic overlapped with traffic. No measured time is on this page: a real kernel reaches "
                 "only part of the peak and pays a launch, so it is slower. The prediction's answer stays the "
                 f"same in every context down to {fmt(S.bandwidth_floor, 'pct')} of the peak bandwidth. Fused "
                 "into the previous layer's epilogue, the second term disappears."),
        Equation(r"k_{\text{ReLU}} = 1,\ k_{\text{sigmoid}} = k_{\exp} + 2,\ k_{\tanh} = k_{\exp} + 4,\ "
                 r"k_{\text{GELU}} = k_{\exp} + 12",
                 "Operation counts of the formulas; GELU in its tanh form."),
        Equation(r"k^{*} = \frac{R}{B}\cdot 2b",
                 "Above *k\\** operations per element the arithmetic, not the memory, sets the time."),
        *l2_note(s, chosen),
    ), rows=(
        ("Elements, *n*", fmt(chosen.elements, "int")),
        ("Operations per element, *k*", fmt(chosen.ops, "int")),
        ("Elementwise rate, *R*", f"{fmt(chosen.rate, where.unit_fmt)} ({where.where})"),
        ("Memory bandwidth, *B*", fmt(chosen.mem_bw, "GB/s") + ASSUMED_BW.get(s["context"], "")),
        ("Crossover, *k\\**", fmt(chosen.crossover_ops, "int")),
    ), sources=(
        cite("williams2009", "the memory and compute roofs, and the ridge point"),
        cite("nvidia_dl_perf", "memory-bound operations do not speed up with faster arithmetic"),
        cite("hendrycks2016", "GELU and its tanh approximation"),
        C.REGISTRY["H100_PEAK_FP32"].source,
        C.REGISTRY["ORIN_NX_PEAK_FP32"].source,
        C.REGISTRY["A17_PRO_NPU_OPS"].source,
        C.REGISTRY["A17_PRO_NPU_FP16_ASSUMED"].source,
        C.REGISTRY["A17_PRO_GPU_FP32_ASSUMED"].source,
        C.REGISTRY["A17_PRO_MEM_BW"].source,
    ))


ACT1 = Act(
    number=1, title="The Activation Tax", minutes="12–15 min",
    stakeholder_role="AR Product Lead",
    stakeholder=lambda context: (
        f"Our AR segmentation model runs at {fmt(S.fps_now, 'num')} FPS on the {SHORT[context]}; the overlay "
        f"needs {fmt(S.fps_target, 'num')}. It has {fmt(S.activation_layers, 'words')} sigmoid layers on {SHAPE} maps. The "
        "hardware team says an exponential costs far more silicon than a compare, so swapping to ReLU should "
        "win the frame back. Is it worth the retraining sprint?"),
    scenario=lambda: (
        "An activation applies one short formula to every element of a feature map. Unfused, the layer reads "
        "each element from memory, computes, and writes the result back.",
        f"Sigmoid needs about {fmt(ops('sigmoid'), 'int')} simple operations per element (an exponential at "
        f"about {fmt(S.exp_ops, 'int')}, an add, a divide); ReLU needs one compare.",
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
A2_MODE = Choice("a2_mode", "Mode", (Option("inference", "Inference"), Option("training", "Training")),
                 default="training")
A2_BUFFER = Choice("a2_buffer", "On-chip buffer", tuple(Option(k, v[0]) for k, v in BUFFERS.items()),
                   default="kib512", widget="select", unit="B",
                   help=f"{kib(S.buffer_bytes)} is the scenario's assumption, not a vendor figure (Apple does not "
                        "publish the Neural Engine's on-chip memory). The H100's "
                        f"{fmt(C.H100_L2_BYTES, 'B')} L2 is NVIDIA's figure.")


def act2_story(context: str) -> str:
    """In Cloud the 512 KiB buffer is a small accelerator's, not the H100's (its own is the 50 MB L2)."""
    buffer = (f"Before we count on the H100's {fmt(C.H100_L2_BYTES, 'B')} L2 cache, size them against the "
              f"{kib(S.buffer_bytes)} on-chip buffer of the small accelerator we also ship to"
              if context == "cloud" else
              f"Our accelerator keeps data on chip in a {kib(S.buffer_bytes)} buffer (our planning figure, not "
              "a vendor's)")
    return (f"Now I need to know where the activations live. {buffer}; anything larger goes out to DRAM and "
            f"back. We also want to train the backbone on the {SHORT[context]}. Start a Memory Ledger for me.")


def ledger(s: State) -> Ledger:
    maps = pyramid(s["a2_image"], s["a2_channels"], PRECISIONS[s["a2_precision"]][1], s["a2_batch"])
    dev = device(s["context"])
    _, buffer, name = BUFFERS[s["a2_buffer"]]
    return Ledger(maps, buffer, name, s["a2_mode"] == "training", dev.mem_bytes, dev.mem_bw)


ACT2_PREDICTION = Prediction(
    id="a2_predict", act=2,
    prompt=f"The ledger starts at a batch of {fmt(S.batch, 'int')} images of {fmt(S.image_side, 'int')}×"
           f"{fmt(S.image_side, 'int')} pixels; its first feature map has {fmt(S.first_channels, 'int')} channels "
           f"in FP32 ({fmt(S.bytes_per_value, 'int')} bytes per value). How many times larger is that first map "
           f"than the {kib(S.buffer_bytes)} on-chip buffer?",
    quantity=f"the ledger's first map ÷ {kib(S.buffer_bytes)}",
    unit_fmt="x",
    options=(
        Range("A", "{range}: it nearly fits on chip", None, 2.0, 1.0,
              "Pixels × bytes alone give {pixel_ratio}; every pixel holds {channels} values, and each of the "
              "{batch} images has its own map: {map_bytes}, {a2_buffer_ratio} the buffer."),
        Range("B", "{range}: a handful of buffers' worth", 2.0, 20.0, 6.0,
              "One image's values counted as bytes give {values_ratio}; each value takes {bytes} bytes, and the "
              "batch holds {batch} images: {a2_buffer_ratio}."),
        Range("C", "{range}: dozens of buffers' worth", 20.0, 100.0, 40.0,
              "One image's map is {one_image_ratio} the buffer; the batch holds {batch} of them: "
              "{a2_buffer_ratio}."),
        Range("D", "{range}: hundreds of buffers' worth", 100.0, None, 200.0,
              "{batch} images × {side}² pixels × {channels} channels × {bytes} bytes = {map_bytes}, "
              "{a2_buffer_ratio} the {buffer}."),
    ),
    truth=first_map_ratio,
    shown_by="a2_buffer_ratio",
)


def act2_facts() -> dict[str, str]:
    maps, (train, infer) = pyramid(), peaks()
    one = maps[0] / S.batch
    return {"map_bytes": fmt(maps[0], "B"), "a2_buffer_ratio": fmt(first_map_ratio(), "x"),
            "one_image_ratio": fmt(one / S.buffer_bytes, "x"),
            "values_ratio": fmt(one / S.bytes_per_value / S.buffer_bytes, "x"),
            "pixel_ratio": fmt(S.image_side ** 2 * S.bytes_per_value / S.buffer_bytes, "x"),
            "batch": fmt(S.batch, "int"), "side": fmt(S.image_side, "int"), "channels": fmt(S.first_channels, "int"),
            "bytes": fmt(S.bytes_per_value, "int"), "buffer": kib(S.buffer_bytes),
            "train": fmt(train, "B"), "inference": fmt(infer, "B"),
            "maps": " → ".join(fmt(m, "B") for m in maps), "first_two": fmt(sum(maps[:2]) / train, "pct"),
            "first_map": fmt(maps[0], "B"), "last_map": fmt(maps[-1], "B")}


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt=f"At the starting settings, training's peak ({fmt(peaks()[0], 'B')}) is only "
           f"{fmt(peaks()[0] / peaks()[1], 'x')} inference's ({fmt(peaks()[1], 'B')}), though a pass writes "
           f"{fmt(S.stages, 'words')} maps and inference holds two at a time. Why so close?",
    options=(
        Claim("A", "Each map is half the one before, so the first two hold most of the bytes.",
              "A stage quarters the pixels and doubles the channels, so each map halves: {maps}. The first two "
              "are {first_two} of training's {train}."),
        Claim("B", "The maps are all one size, as halving the side offsets doubling the channels.",
              "Halving the side quarters the pixels, and doubling the channels wins back only half: {maps}."),
        Claim("C", "The deepest maps hold the most channels, so they carry most of the bytes.",
              "The deepest map has the most channels and the fewest pixels: {last_map}, against the first "
              "map's {first_map}."),
        Claim("D", "Training keeps its maps in FP16 and inference in FP32, halving the sum.",
              "Both modes hold the precision you set (FP32 at the start); the ratio comes from the maps' "
              "sizes and is the same at any precision."),
    ),
    answer_letter="A",
)


def act2_instruments(s: State) -> list:
    led = ledger(s)
    spilled = sum(led.spilled)
    mode = "training" if led.training else "inference"
    share, ratio = led.peak / led.ram, max(led.maps) / led.buffer
    # a map far smaller than the buffer reads as a share of it ("< 0.001 %"), not as "0.0000157×"
    size = (M["a2_buffer_ratio"].show(ratio, note=f"of {led.buffer_name}") if ratio >= S.ratio_floor else
            M["a2_buffer_share"].show(ratio, note=f"of {led.buffer_name}"))
    parts = [metric_grid(
        size,
        M["a2_spilled"].show(spilled, "danger" if spilled else "good", f"of {len(led.spilled)} layers"),
        M["a2_peak_bytes"].show(led.peak, "danger" if led.oom else None, mode),
        M["a2_device_share"].show(share, "danger" if led.oom else "warn" if share > 0.5 else "good",
                                  f"of {fmt(led.ram, 'GB')}{MEMORY_NOTE.get(s['context'], '')}"),
        M["a2_spill_s"].show(led.spill_s, note=f"at {fmt(led.mem_bw, 'GB/s')}" if spilled else "nothing spills"),
        M["a2_other_peak"].show(led.other_peak, note="inference" if led.training else "training"),
    )]
    if led.oom:
        parts.append(failure(F["a2_out_of_memory"],
                             f"{mode.capitalize()} needs {fmt(led.peak, 'GB')} of activations at once, more than "
                             f"the device's {fmt(led.ram, 'GB')}. {oom_levers(s)}"))
    parts.append(act2_chart(led))
    facts = act2_facts()
    parts.append(callout("info", "The map you predicted", prose(
        f"At the starting settings the first map is {facts['map_bytes']} in FP32: **{facts['a2_buffer_ratio']}** "
        f"the {kib(S.buffer_bytes)} buffer; one image's map alone is {facts['one_image_ratio']}. FP16 halves "
        "it and INT8 quarters it, and the map still streams through DRAM.")))
    return parts


def oom_levers(s: State) -> str:
    """The levers that can still lower the peak, from the largest term: only those not at their limit."""
    levers = [text for ok, text in (
        (s["a2_batch"] > A2_BATCH.min, "shrink the batch"),
        (s["a2_image"] > A2_IMAGE.min, "the image"),
        (s["a2_channels"] > A2_CHANNELS.min, "the channels"),
        (PRECISIONS[s["a2_precision"]][1] > 1, "use fewer bytes per value"),
        (s["a2_mode"] == "training", "recompute maps in the backward pass instead of keeping them"),
    ) if ok]
    if not levers:
        return "Every lever is at its limit; this model does not fit the device at all."
    text = listed(levers)
    return text[0].upper() + text[1:] + "."


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
    summary = (f"In {sum(led.spilled)} of the {len(sets)} layers the maps read and written outgrow the "
               f"{led.buffer_name} buffer; the largest working set is {fmt(max(sets), 'B')}.")
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
        ("Device memory", fmt(led.ram, "GB") + MEMORY_NOTE.get(s["context"], "")),
        ("Bandwidth, *B*", fmt(led.mem_bw, "GB/s") + ASSUMED_BW.get(s["context"], "")),
    ), sources=(
        cite("nvidia_hopper", "H100 L2 cache 50 MB"),
        C.REGISTRY["A17_PRO_MEM_BYTES"].source,
        C.REGISTRY["ORIN_NX_MEM_BYTES"].source,
        C.REGISTRY["H100_HBM_BYTES"].source,
        f"The {kib(S.buffer_bytes)} buffer is the scenario's assumption, not a vendor figure: Apple does not "
        "publish the Neural Engine's on-chip memory.",
    ))


ACT2 = Act(
    number=2, title="The Memory Ledger", minutes="15–20 min",
    stakeholder_role="ML Platform Engineer",
    stakeholder=lambda context: act2_story(context),
    scenario=lambda: (
        "A feature map's size is bytes per value × pixels × channels × batch. In this pyramid backbone each of "
        f"the {fmt(S.stages, 'words')} stages halves the side and doubles the channels.",
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
    chosen, relu = layer_of(s, s["a1_activation"]), layer_of(s, "relu")
    led = ledger(s)
    return {"activations": s["a1_activation"], "fused": s["a1_fused"], "act_ratio": chosen.ops / relu.ops,
            "act_time_ratio": chosen.time_s / relu.time_s,
            "batch": s["a2_batch"], "bytes": PRECISIONS[s["a2_precision"]][1], "mode": s["a2_mode"],
            "spilled_layers": float(sum(led.spilled)), "oom": led.oom}


def lab_takeaways() -> list[str]:
    facts, phone = act2_facts(), scenario_layer("mobile")
    return [
        f"Sigmoid needs {fmt(ops('sigmoid') / ops('relu'), 'x')} ReLU's arithmetic per element, yet on the "
        f"phone's NPU both need {fmt(phone.time_s, 's')} per {SHAPE} INT8 layer at the assumed peak bandwidth: an "
        "unfused activation is memory-bound.",
        f"Four such layers are {fmt(frame_share('mobile'), 'pct')} of a {fmt(S.fps_now, 'num')} FPS frame on the "
        f"phone and {fmt(frame_share('cloud'), 'pct')} on the H100, so no activation swap reaches the target; "
        "fusion removes their traffic, and the frame's time is in the heavy layers and their bytes.",
        f"The ledger's first FP32 map is {facts['map_bytes']}, {facts['a2_buffer_ratio']} a {kib(S.buffer_bytes)} "
        "buffer: activations stream through DRAM.",
        "Inference keeps two maps at a time; training keeps them all, yet each map halves down the pyramid, so "
        f"training's {facts['train']} is only {fmt(peaks()[0] / peaks()[1], 'x')} inference's {facts['inference']}.",
    ]


LAB = Lab(
    id="v1_05", volume=1, number=5, title="The Activation Tax",
    invariant="An unfused activation costs **bytes, not arithmetic**; activation memory grows with "
              "batch × resolution² × channels.",
    minutes="30–35 min", chapter="Neural Computation", url="vol1/05-activation-tax/",
    description="An AR model runs at 12 FPS and needs 24. Would swapping its sigmoid layers for ReLU win the frame "
                "back on a GPU, an edge module or a phone, and where do its feature maps live?",
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
    presets={"context": {c: {"a1_precision": p} for c, p in PRESET_PRECISION.items()}},
    context_from=TRACK,
    record_metrics=RECORD,
    terms=terms,
    track_notes=TRACK_NOTES,
    hook=f"An AR model runs at {fmt(S.fps_now, 'num')} FPS and needs {fmt(S.fps_target, 'num')}. The hardware "
         "team blames its four sigmoid layers: would ReLU win the frame back, and where do its feature maps live?",
)
