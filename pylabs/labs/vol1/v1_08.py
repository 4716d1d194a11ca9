"""Lab V1-08 · The Training Memory Budget.

Core invariant: training memory is the static state (weights, gradients, optimizer state: a fixed
number of bytes per parameter) plus the activations kept for the backward pass, which grow with
micro-batch × sequence and, without recomputation, with the square of the sequence. Gradient
accumulation and recomputation move the activations under the device's memory at a price in time.

Act I (the 16-byte parameter): a junior engineer's 7B model in FP32 with Adam ran out of memory.
How big is the static state? 16 B/param, 112 GB, before one activation; mixed precision keeps the
FP32 master copy and is also 16 B/param.
Act II (accumulate, don't enlarge): GPT-3 XL wants an effective batch of 256 sequences; a native
batch needs over a terabyte, micro-batches of 8 accumulated 32 times fit. What does it cost in
throughput? The accumulation adds one memory-bound pass per micro-batch: a few per cent.

Choices made where the spec allows one (VOL1_00-08 §V1-08 and ERRATA):
- GPT-3 XL has 24 heads, as in the GPT-3 paper (Table 2.1), not the 16 of the Megatron-DeepSpeed
  config; no key changes, and the paper is what a student can check.
- Activations follow the precision: 4-byte values in FP32 training, 2-byte values when the forward
  pass runs in BF16 (Korthikanti's Eq. 1 is the 2-byte case; its 1-byte dropout masks stay 1 byte).
- The "7B" preset has 7.0 B parameters, as the engineer said, with the Llama 2 7B width, depth and
  heads for its activations, counted as a GPT-style layer (Korthikanti's model).
- Contexts: the H100 (80 GB) and a phone with 8 GB for on-device fine-tuning. Both questions are
  asked of the stakeholders' stated setups; on the phone Act II starts at GPT-2 with micro-batches
  of 4 (what fits in 8 GB), where the same key holds.

Ledger fields: context, model, precision, optimizer, micro-batch, accumulation steps and
recomputation mode (controls); params, bytes_per_param, static_bytes, activation_bytes, oom (Act I),
a2_total_bytes, a2_ratio, a2_oom (results). Upstream's oom was a proxy (a wrong prediction); here it is
whether the Act I setup fits the device.
"""

from __future__ import annotations

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option, Prediction,
                              Range, Reflection, Slider, State, callout, chart, failure, fmt, math_peek,
                              metric_grid, prose)
from pylabs.framework import charts as ch
from pylabs.framework.components import tone
from pylabs.labs.vol1.contexts import TRACK, deployment, device
from pylabs.labs.vol1.v1_08_model import (BATCHES, MODELS, PHONE, SCENARIO, Accumulation, Budget, S, act1_truth,
                                          act2_truth, budget)
from pylabs.physics import constants as C
from pylabs.physics import training
from pylabs.physics.devices import Device
from pylabs.physics.references import cite


PRECISIONS = {"fp32": "FP32 throughout", "mixed": "Mixed (BF16 compute, FP32 master)", "bf16": "Pure BF16"}
OPTIMIZERS = {"sgd": "SGD", "momentum": "SGD + momentum", "adam": "Adam"}
MODES = {"none": "None (keep everything)", "selective": "Selective (or FlashAttention)",
         "full": "Full checkpointing"}


ADAM_FP32 = training.static_bytes_per_param("fp32", "adam")    # bytes per parameter, Act I's setup
ADAM_MIXED = training.static_bytes_per_param("mixed", "adam")  # and every setting of Act II


def capacity_note(dev: Device) -> str:
    return f"of {fmt(dev.mem_bytes, 'GB')} on the {dev.name}"


def device_caveat(dev: Device) -> list:
    """The phone's figures are not all the vendor's: say which are reported or assumed."""
    if not dev.assumed:
        return []
    return [callout("info", "Assumed device figures", prose(
        f"The {dev.name}'s {fmt(dev.mem_bytes, 'GB')} of memory is as reported by teardowns (Apple does not "
        "publish it, and the system keeps part of it for itself); its memory bandwidth "
        f"({fmt(dev.mem_bw, 'GB/s')}) is an assumption; its Neural Engine rate ({fmt(dev.peak_ops, 'OP/s')}) "
        "comes without a stated precision. The memory sets the budget; the rate and the bandwidth set the "
        "throughput ratio."))]


# ---- context ----------------------------------------------------------------------

CONTEXT = deployment(("cloud", "mobile"), default="cloud", label="Where the model trains",
                     help=f"The device whose memory every budget is held against: an H100 with "
                          f"{fmt(device('cloud').mem_bytes, 'GB')}, or a phone fine-tuning on device with "
                          f"{fmt(device('mobile').mem_bytes, 'GB')}.")

# ---- Act I · The 16-byte parameter ------------------------------------------------

A1_MODEL = Choice("a1_model", "Model", tuple(Option(k, m.label) for k, m in MODELS.items()),
                  default="7b", widget="select")
A1_PRECISION = Choice("a1_precision", "Precision", tuple(Option(k, v) for k, v in PRECISIONS.items()),
                      default="fp32")
A1_OPTIMIZER = Choice("a1_optimizer", "Optimizer", tuple(Option(k, v) for k, v in OPTIMIZERS.items()),
                      default="adam")
A1_BATCH = Slider("a1_batch", "Sequences per step", unit="sequences", min=1, max=512, step=1,
                  default=S.act1_batch, fmt="int", scale="log2")
A1_SEQ = Slider("a1_seq", "Sequence length", unit="tokens", min=512, max=8192, step=1,
                default=S.act1_seq, fmt="tokens", scale="log2")


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt="Before counting a single activation: how much memory do the weights, gradients and Adam "
           "state of the 7B model take in FP32?",
    quantity="static training memory (weights + gradients + optimizer state)",
    unit_fmt="GB",
    options=(
        Range("A", "{range}: about one byte per parameter", None, 14e9, 7e9,
              "One byte per parameter is an INT8 copy of the weights for inference; training keeps much more."),
        Range("B", "{range}: the FP32 weights", 14e9, 42e9, 28e9,
              "That is only the weights. The backward pass writes a gradient of the same size, and Adam "
              "keeps two more values per parameter."),
        Range("C", "{range}: weights and gradients", 42e9, 84e9, 56e9,
              "Weights and gradients are half of it: Adam's momentum and variance are two more FP32 values "
              "per parameter."),
        Range("D", "{range}: weights, gradients and two Adam moments", 84e9, None, 112e9,
              "Four FP32 values per parameter: weight, gradient, momentum, variance."),
    ),
    truth=act1_truth,
)


def act1_facts() -> dict[str, str]:
    mixed = ADAM_MIXED
    pure = training.static_bytes_per_param("bf16", "adam")
    return {"mixed_gb": fmt(S.act1_params * mixed.total_b, "GB"), "mixed_bpp": fmt(mixed.total_b, "num"),
            "weights": fmt(mixed.weights_b, "num"), "grads": fmt(mixed.grads_b, "num"),
            "master": fmt(mixed.master_b, "num"), "adam": fmt(mixed.optimizer_b, "num"),
            "pure_gb": fmt(S.act1_params * pure.total_b, "GB"), "capacity": fmt(C.H100_HBM_BYTES, "GB")}


ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="A colleague says: \"Switch to mixed precision, BF16 halves the bytes.\" Why does the 7B model's "
           "static state still not fit on the H100?",
    options=(
        Claim("A", "It does fit: BF16 halves every byte, weights, gradients and optimizer state alike.",
              "Only the weights and gradients become {weights} bytes. Mixed precision keeps the optimizer in "
              "FP32: **{mixed_gb}**."),
        Claim("B", "Mixed precision adds an FP32 master copy of the weights, and Adam's moments stay FP32, so "
                   f"it is still {fmt(ADAM_MIXED.total_b, 'num')} bytes per parameter.",
              "{weights} (BF16 weights) + {grads} (BF16 gradients) + {master} (FP32 master) + {adam} (Adam) = "
              "{mixed_bpp} bytes: **{mixed_gb}**, the same as FP32. Only pure BF16 Adam halves it, to {pure_gb}, "
              "at a cost in update precision."),
        Claim("C", "Gradients must stay in FP32 for numerical stability, so nothing is saved.",
              "Gradients can be BF16; the bytes that stay are the master weights and Adam's moments: "
              "{mixed_gb}."),
        Claim("D", "The activations dominate, so the static state does not matter.",
              "The static state alone, {mixed_gb}, is over the H100's {capacity} before any activation."),
    ),
    answer_letter="B",
)

M = {m.name: m for m in (
    MetricSpec("a1_static", "Weights, gradients, optimizer state", "B", "GB"),
    MetricSpec("a1_activations", "Activations kept for the backward pass", "B", "GB"),
    MetricSpec("a1_total", "Total training memory", "B", "GB"),
    MetricSpec("a1_bytes_per_param", "Static bytes per parameter", "B", "num"),
    MetricSpec("a1_capacity", "Device memory", "B", "GB"),
    MetricSpec("a2_ratio", "Throughput against one native batch", "1", "pct"),
    MetricSpec("a2_total", "Memory at this micro-batch", "B", "GB"),
    MetricSpec("a2_native_total", "Memory a native batch would need", "B", "GB"),
    MetricSpec("a2_effective_batch", "Sequences per optimizer step", "sequences", "int"),
    MetricSpec("a2_step_s", "Time per optimizer step", "s", "s"),
    MetricSpec("a2_activations", "Activations at this micro-batch", "B", "GB"),
    MetricSpec("a2_compute_factor", "Compute per step against no recomputation", "1", "x"),
)}

FAILURES = (
    FailureSpec("a1_out_of_memory", "Out of memory: the training state does not fit", act=1),
    FailureSpec("a2_out_of_memory", "Out of memory at this micro-batch", act=2),
)
F = {f.name: f for f in FAILURES}


def act1_budget(s: State) -> Budget:
    return budget(MODELS[s["a1_model"]], s["a1_precision"], s["a1_optimizer"], s["a1_batch"], s["a1_seq"],
                  "none", device(s["context"]))


def act1_instruments(s: State) -> list:
    b, dev, model = act1_budget(s), device(s["context"]), MODELS[s["a1_model"]]
    bpp = training.static_bytes_per_param(s["a1_precision"], s["a1_optimizer"]).total_b
    parts = [metric_grid(
        M["a1_static"].show(b.static, "danger" if b.static > b.capacity else None),
        M["a1_activations"].show(b.activations),
        M["a1_total"].show(b.total, "good" if b.fits else "danger", capacity_note(dev)),
        M["a1_bytes_per_param"].show(bpp, note=f"× {fmt(model.params, 'params')} parameters"),
        M["a1_capacity"].show(b.capacity, note=dev.name),
    )]
    if not b.fits:
        parts.append(failure(F["a1_out_of_memory"],
                             f"{fmt(b.static, 'GB')} of static state and {fmt(b.activations, 'GB')} of activations "
                             f"need {fmt(b.total, 'GB')}; the {dev.name} has {fmt(b.capacity, 'GB')}. A smaller "
                             "model, fewer bytes per parameter or fewer sequences per step bring it back."))
    parts.append(act1_chart(s))
    parts.extend(device_caveat(dev))
    return parts


ROLES = (("weights_b", "Weights", "series1"), ("grads_b", "Gradients", "series2"),
         ("master_b", "FP32 master", "series4"), ("optimizer_b", "Optimizer", "series3"))
SHORT_PRECISIONS = {"fp32": "FP32", "mixed": "Mixed", "bf16": "Pure BF16"}


def act1_chart(s: State):
    model, dev = MODELS[s["a1_model"]], device(s["context"])
    keys = tuple(PRECISIONS)
    names = [("▶ " if k == s["a1_precision"] else "") + SHORT_PRECISIONS[k] for k in keys]
    per = {k: training.static_bytes_per_param(k, s["a1_optimizer"]) for k in keys}
    budgets = {k: budget(model, k, s["a1_optimizer"], s["a1_batch"], s["a1_seq"], "none", dev) for k in keys}
    gb = S.bytes_per_gb
    traces = [ch.bars(label, names, [getattr(per[k], role) * model.params / gb for k in keys], colour)
              for role, label, colour in ROLES]
    traces.append(ch.bars("Activations", names, [budgets[k].activations / gb for k in keys], "accent"))
    # the device line as a trace, so the legend names it and no label sits on a bar
    traces.append(ch.line(f"{fmt(dev.mem_bytes, 'GB')} device", names, [dev.mem_bytes / gb] * len(keys), "danger",
                          dash="dot"))
    figure = ch.figure(traces, x=ch.axis("", "category", tickangle=0), y=ch.axis("GB"), stacked=True)
    chosen = budgets[s["a1_precision"]]
    summary = (f"With {OPTIMIZERS[s['a1_optimizer']]}, the {model.label} model needs "
               f"{fmt(budgets['fp32'].total, 'GB')} in FP32, {fmt(budgets['mixed'].total, 'GB')} in mixed precision "
               f"and {fmt(budgets['bf16'].total, 'GB')} in pure BF16, against {fmt(dev.mem_bytes, 'GB')} on the "
               f"{dev.name}; your setting needs {fmt(chosen.total, 'GB')}.")
    rows = [(SHORT_PRECISIONS[k], fmt(budgets[k].static, "GB"), fmt(budgets[k].activations, "GB"),
             fmt(budgets[k].total, "GB")) for k in keys]
    return chart("a1_memory", "Training memory by precision", figure, summary,
                 table=(("Precision", "Static", "Activations", "Total"), rows))


def act1_math(s: State):
    b, model = act1_budget(s), MODELS[s["a1_model"]]
    per = training.static_bytes_per_param(s["a1_precision"], s["a1_optimizer"])
    return math_peek("The governing equations · Act I", (
        Equation(r"M_{\text{static}} = P\,(w + g + m + o)",
                 "Bytes per parameter for weights *w*, gradients *g*, an FP32 master copy *m* (mixed precision "
                 "only) and optimizer state *o* (Adam: two values, momentum one, SGD none)."),
        Equation(r"M_{\text{act}} = L\left[\,s\,b\,h\,(16v + 2) + a\,s^{2}\,b\,(2v + 1)\right]",
                 "Activations of *L* GPT layers for *b* sequences of *s* tokens, width *h*, *a* heads, *v* bytes "
                 "per value and 1-byte dropout masks. At *v* = 2 this is Korthikanti's *sbh*(34 + 5*as*/*h*)."),
    ), rows=(
        ("*w* + *g* + *m* + *o*", f"{fmt(per.weights_b, 'num')} + {fmt(per.grads_b, 'num')} + "
                                  f"{fmt(per.master_b, 'num')} + {fmt(per.optimizer_b, 'num')} B"),
        ("Parameters, *P*", fmt(model.params, "params")),
        ("Layers, width, heads", f"{model.layers:.0f}, {model.hidden:.0f}, {model.heads:.0f}"),
        ("Static", fmt(b.static, "GB")),
        ("Activations", fmt(b.activations, "GB")),
    ), sources=(
        cite("zero2020", "2 + 2 + 12 bytes per parameter for mixed-precision Adam"),
        cite("micikevicius2018", "the FP32 master copy of the weights"),
        cite("korthikanti2022", "activation memory per layer, Sec. 4.1"),
        C.REGISTRY["LLAMA2_7B_LAYERS"].source,
    ))


ACT1 = Act(
    number=1, title=f"The {fmt(ADAM_FP32.total_b, 'num')}-Byte Parameter", minutes="10–12 min",
    stakeholder_role="Junior ML Engineer",
    stakeholder=lambda: (
        f"I tried to train our {fmt(S.act1_params, 'params')} model in FP32 with Adam on one H100 "
        f"({fmt(C.H100_HBM_BYTES, 'GB')}), {S.act1_batch:.0f} sequences of {fmt(S.act1_seq, 'tokens')} per step. "
        f"CUDA out of memory in the very first step. The weights are only {fmt(ADAM_FP32.weights_b, 'num')} "
        "bytes a parameter; where did the memory go?"),
    scenario=lambda: (
        "Training keeps more than the model. The backward pass writes a **gradient** for every weight; the "
        "optimizer keeps its own **state** (Adam: a running mean and variance of each gradient); and every "
        "layer keeps its **activations** from the forward pass until the backward pass has used them.",
        "The first three are the **static** state: a fixed number of bytes per parameter, whatever the batch. "
        "The activations grow with the sequences per step and their length.",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_MODEL, A1_PRECISION, A1_OPTIMIZER, A1_BATCH, A1_SEQ),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Memory budget",
)

# ---- Act II · Accumulate, don't enlarge ----------------------------------------------

A2_MODEL = Choice("a2_model", "Model", tuple(Option(k, m.label) for k, m in MODELS.items()),
                  default=S.act2_model, widget="select")
A2_BATCH = Slider("a2_batch", "Micro-batch", unit="sequences", min=1, max=512, step=1, default=S.act2_batch,
                  fmt="int", scale="log2")
A2_ACCUM = Slider("a2_accum", "Accumulation steps", unit="micro-batches", min=1, max=64, step=1,
                  default=S.act2_accum, fmt="int", scale="log2")
A2_MODE = Choice("a2_mode", "Activation recomputation", tuple(Option(k, v) for k, v in MODES.items()),
                 default="none")
A2_SEQ = Slider("a2_seq", "Sequence length", unit="tokens", min=512, max=8192, step=1, default=S.act2_seq,
                fmt="tokens", scale="log2")
A2_MFU = Slider("a2_mfu", "Utilisation (MFU)", unit="fraction", min=0.1, max=0.8, step=0.05, default=S.mfu,
                fmt="pct", help=f"An assumption: the share of the device's peak that the forward and backward "
                                f"passes reach. The lab starts at {fmt(S.mfu, 'pct')}.")


def accumulation(s: State) -> Accumulation:
    return Accumulation(MODELS[s["a2_model"]], s["a2_batch"], s["a2_accum"], s["a2_mode"], s["a2_seq"],
                        s["a2_mfu"], device(s["context"]))


ACT2_PREDICTION = Prediction(
    id="a2_predict", act=2,
    prompt=f"Micro-batches of {S.act2_batch:.0f} accumulated {S.act2_accum:.0f} times give the same "
           f"{S.act2_effective:.0f} sequences per optimizer step. How fast is that, against one native batch of "
           f"{S.act2_effective:.0f} on a device with unlimited memory?",
    quantity="throughput with accumulation ÷ throughput of one native batch",
    unit_fmt="pct",
    options=(
        Range("A", "{range}: accumulation dominates the step", None, 0.5, 0.3,
              "Each extra micro-batch adds one pass over the gradients in memory; the forward and backward "
              "passes do all the arithmetic, and there is just as much of it either way."),
        Range("B", "{range}: a sixth to a half of the speed lost", 0.5, 0.85, 0.6,
              "That would hold if every accumulation step cost a fixed share of a pass. The accumulate is a "
              "memory-bound add of {t_acc} against {t_fb} for a micro-batch's forward and backward pass."),
        Range("C", "{range}: slightly slower", 0.85, 0.995, 0.95,
              "The same arithmetic, plus one cheap pass over the gradients per micro-batch."),
        Range("D", "{range}: no measurable cost", 0.995, None, 1.0,
              "Reading and writing the accumulator is not free: every micro-batch after the first moves "
              "{acc_bytes} bytes per parameter through memory."),
    ),
    truth=act2_truth,
)


def act2_facts() -> dict[str, str]:
    b = S.act2_big_batch
    big = Accumulation(SCENARIO.model, b, S.act2_effective / b, "none", S.act2_seq, S.mfu, device("cloud"))
    full = Accumulation(SCENARIO.model, b, S.act2_effective / b, "full", S.act2_seq, S.mfu, device("cloud"))
    sgd = budget(SCENARIO.model, "mixed", "sgd", b, S.act2_seq, "none", device("cloud"))
    saved = ADAM_MIXED.total_b - training.static_bytes_per_param("mixed", "sgd").total_b
    return {"big": fmt(b, "int"), "big_gb": fmt(big.memory.total, "GB"), "full_gb": fmt(full.memory.total, "GB"),
            "sgd_saves": fmt(saved, "num"),
            "full_factor": fmt(full.factor, "x"), "sgd_gb": fmt(sgd.total, "GB"),
            "capacity": fmt(C.H100_HBM_BYTES, "GB"), "acts_gb": fmt(big.memory.activations, "GB"),
            "t_acc": fmt(SCENARIO.accumulate_s, "s"), "t_fb": fmt(SCENARIO.micro_step_s, "s"),
            "acc_bytes": fmt(SCENARIO.accumulate_s * SCENARIO.dev.mem_bw / SCENARIO.model.params, "num")}


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt=f"To cut the accumulation steps, the team wants micro-batches of {fmt(S.act2_big_batch, 'int')} on the "
           "H100. What makes them fit, and what does it cost?",
    options=(
        Claim("A", "More accumulation steps: the memory is spread over more micro-batches.",
              "Memory depends on one micro-batch, not on how many are accumulated: {big} sequences need "
              "{big_gb} however many steps follow."),
        Claim("B", "Full activation checkpointing: keep each layer's input, recompute the rest in the "
                   f"backward pass. It fits, for about {fmt(training.recompute_compute_factor('full') - 1, 'fraction')} "
                   "more compute.",
              "{full_gb} instead of {big_gb}, for {full_factor} the compute (one more forward pass "
              "per step). Memory is traded for time."),
        Claim("C", "Switch Adam for SGD: the optimizer state is the biggest item.",
              "SGD saves {sgd_saves} bytes per parameter, but at this micro-batch the activations ({acts_gb}) "
              "dwarf it: {sgd_gb}, still over {capacity}."),
        Claim("D", f"Nothing: {fmt(S.act2_big_batch, 'int')} sequences of GPT-3 XL cannot fit in one H100.",
              "They can, with recomputation: {full_gb}."),
    ),
    answer_letter="B",
)


def act2_instruments(s: State) -> list:
    a = accumulation(s)
    mem, native = a.memory, a.native
    parts = [metric_grid(
        M["a2_ratio"].show(a.ratio, tone(a.ratio, 0.95, 0.8)),
        M["a2_total"].show(mem.total, "good" if mem.fits else "danger", capacity_note(a.dev)),
        M["a2_native_total"].show(native.total, None if native.fits else "warn",
                                  f"{a.batch * a.steps:.0f} sequences at once"),
        M["a2_effective_batch"].show(a.batch * a.steps, note=f"{a.batch:.0f} × {a.steps:.0f}"),
        M["a2_step_s"].show(a.step_s, note=f"{a.steps:.0f} × {fmt(a.micro_step_s * a.factor, 's')} + "
                                           f"{a.steps - 1:.0f} × {fmt(a.accumulate_s, 's')} accumulates"),
        M["a2_activations"].show(mem.activations, note=MODES[a.mode]),
        M["a2_compute_factor"].show(a.factor),
    )]
    if not mem.fits:
        parts.append(failure(F["a2_out_of_memory"],
                             f"One micro-batch of {a.batch:.0f} needs {fmt(mem.total, 'GB')}; the {a.dev.name} "
                             f"has {fmt(mem.capacity, 'GB')}. Halve the micro-batch and double the accumulation "
                             "steps, or recompute activations."))
    parts.append(act2_chart(a))
    parts.extend(device_caveat(a.dev))
    return parts


MODE_COLOURS = {"none": "series1", "selective": "series2", "full": "series3"}


def act2_chart(a: Accumulation):
    gb = S.bytes_per_gb
    curves = {m: [budget(a.model, "mixed", "adam", b, a.seq, m, a.dev).total for b in BATCHES] for m in MODES}
    traces = [ch.line(MODES[m].split(" (")[0] + (" (yours)" if m == a.mode else ""), BATCHES,
                      [v / gb for v in curves[m]], MODE_COLOURS[m], markers=True) for m in MODES]
    traces.append(ch.point("Your micro-batch", a.batch, a.memory.total / gb, "accent"))
    line, note = ch.hline(a.dev.mem_bytes / gb, "danger", f"{fmt(a.dev.mem_bytes, 'GB')} device", log=True)
    note.update(x=0, xanchor="left")  # small micro-batches sit under the line: the label stays clear
    ticks = BATCHES[::2]
    shown = [v / gb for m in MODES for v in curves[m]] + [a.dev.mem_bytes / gb]
    figure = ch.figure(traces, x=ch.axis("Micro-batch (sequences)", "log", tickvals=ticks,
                                         ticktext=[f"{b:.0f}" for b in ticks]),
                       y=ch.axis("GB", "log", **ch.decade_ticks(shown, lambda v: fmt(v, "int"))),
                       shapes=[line], annotations=[note])
    largest = {m: max((b for b, v in zip(BATCHES, curves[m]) if v <= a.dev.mem_bytes), default=0) for m in MODES}
    summary = (f"On the {a.dev.name} the largest micro-batch of {a.model.label} that fits is "
               f"{largest['none']:.0f} without recomputation, {largest['selective']:.0f} with selective and "
               f"{largest['full']:.0f} with full checkpointing (0 means none fits).")
    rows = [(f"{b:.0f}", *(fmt(curves[m][i], "GB") for m in MODES)) for i, b in enumerate(BATCHES)]
    return chart("a2_memory", "Memory against micro-batch", figure, summary,
                 table=(("Micro-batch", "None", "Selective", "Full"), rows))


def act2_math(s: State):
    a = accumulation(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"t_{\text{fb}} = \frac{6\,P\,b\,s}{R\,u},\qquad t_{\text{acc}} = \frac{(4 + 2 + 4)\,P}{B}",
                 "One micro-batch's forward and backward pass at *u* of the peak *R*; one accumulate reads the "
                 "FP32 sum and the BF16 gradient and writes the sum back, at memory bandwidth *B*."),
        Equation(r"\frac{\text{throughput}}{\text{native}} = \frac{K\,t_{\text{fb}}}{f\,K\,t_{\text{fb}} + "
                 r"(K-1)\,t_{\text{acc}}}",
                 "*K* micro-batches against one native batch of *K·b* (same arithmetic, no accumulates); *f* is "
                 "the recomputation factor. *P* cancels: only *b·s* and the device's *R*/*B* matter."),
        Equation(r"M_{\text{full}} = L\,v\,s\,b\,h + M_{\text{layer}},\qquad f_{\text{full}} = \tfrac{4}{3}",
                 "Full checkpointing keeps each layer's input and rebuilds one layer at a time: one more "
                 "forward pass (a third of forward + backward)."),
    ), rows=(
        ("Forward and backward of one micro-batch", fmt(a.micro_step_s, "s")),
        ("One accumulate", fmt(a.accumulate_s, "s")),
        ("Peak *R*", f"{fmt(a.dev.peak_ops, 'OP/s')} ({a.dev.precision})"),
        ("Bandwidth *B*", fmt(a.dev.mem_bw, "GB/s") + (" (assumed)" if "mem_bw" in a.dev.assumed else "")),
        ("Recomputation factor *f*", fmt(a.factor, "x")),
        ("Throughput ratio", fmt(a.ratio, "pct")),
    ), sources=(
        cite("kaplan2020", "6 FLOP per parameter per token"),
        cite("korthikanti2022", "selective and full recomputation"),
        cite("chen2016", "checkpointing trades one forward pass for memory"),
        C.REGISTRY["GPT3_XL_HEADS"].source,
        C.REGISTRY["H100_HBM_BW"].source,
    ))


ACT2 = Act(
    number=2, title="Accumulate, Don't Enlarge", minutes="15–20 min",
    stakeholder_role="Training Lead",
    stakeholder=lambda: (
        f"For {SCENARIO.model.label} on one H100 the recipe says {S.act2_effective:.0f} sequences of "
        f"{fmt(S.act2_seq, 'tokens')} per optimizer step. All at once that is "
        f"{fmt(SCENARIO.native.total, 'GB')}. Micro-batches of {S.act2_batch:.0f} fit, so we would accumulate "
        f"gradients over {S.act2_accum:.0f} of them. I have heard accumulation halves throughput. Does it?"),
    scenario=lambda: (
        "**Gradient accumulation** runs the forward and backward pass on one micro-batch at a time and adds "
        "its gradients into a running sum; the optimizer steps once per *K* micro-batches. The arithmetic is "
        "the same as one big batch; what is added is the sum itself, a pass over the gradients in memory. "
        f"An H100 computes at up to {fmt(C.H100_PEAK_BF16_DENSE, 'FLOP/s')} (BF16, dense) and reads or writes "
        f"its memory at {fmt(C.H100_HBM_BW, 'B/s')}.",
        f"Every setting in this act trains with mixed-precision Adam ({fmt(ADAM_MIXED.total_b, 'num')} bytes per "
        "parameter). "
        "**Recomputation** is the other lever: keep fewer activations and compute them again in the "
        "backward pass.",
    ),
    prediction=ACT2_PREDICTION,
    controls=(A2_MODEL, A2_BATCH, A2_ACCUM, A2_MODE, A2_SEQ, A2_MFU),
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="Accumulation and recomputation",
)

# ---- the whole lab -------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    active = {"a1_out_of_memory": not act1_budget(s).fits, "a2_out_of_memory": not accumulation(s).memory.fits}
    return frozenset(name for name, on in active.items() if on)


def results(s: State) -> dict[str, float | bool]:
    b, a = act1_budget(s), accumulation(s)
    model = MODELS[s["a1_model"]]
    return {"params": model.params,
            "bytes_per_param": training.static_bytes_per_param(s["a1_precision"], s["a1_optimizer"]).total_b,
            "static_bytes": b.static, "activation_bytes": b.activations, "oom": not b.fits,
            "a2_total_bytes": a.memory.total, "a2_ratio": a.ratio, "a2_oom": not a.memory.fits}


RECORD_METRICS = (
    MetricSpec("params", "Act I model parameters", "params", "params"),
    MetricSpec("bytes_per_param", "Act I static bytes per parameter", "B", "num"),
    MetricSpec("static_bytes", "Act I static memory", "B", "GB"),
    MetricSpec("activation_bytes", "Act I activations", "B", "GB"),
    MetricSpec("oom", "Act I out of memory", "1", "yesno"),
    MetricSpec("a2_total_bytes", "Memory at the micro-batch", "B", "GB"),
    MetricSpec("a2_oom", "Out of memory at the micro-batch", "1", "yesno"),
)


def lab_takeaways() -> list[str]:
    llama = budget(MODELS["7b"], "mixed", "adam", S.act1_batch, S.act1_seq, "none", device("cloud"))
    facts = act2_facts()
    return [
        f"Training with Adam keeps {fmt(ADAM_FP32.total_b, 'num')} bytes per parameter in FP32 **and** in mixed "
        f"precision (the FP32 master copy replaces the saving): {fmt(act1_truth(), 'GB')} for a 7B model before "
        "any activation.",
        f"Activations are the other half of the budget: {fmt(llama.activations, 'GB')} for the 7B shape at "
        f"{S.act1_batch:.0f} × {fmt(S.act1_seq, 'tokens')} in BF16, and the attention scores grow with the "
        "square of the sequence.",
        f"Gradient accumulation costs little: {fmt(act2_truth(), 'pct')} of a native batch's throughput on the "
        f"H100 ({fmt(PHONE.ratio, 'pct')} on the phone, whose bandwidth is small beside its compute). The model "
        "size cancels.",
        f"Recomputation trades time for memory: full checkpointing fits {SCENARIO.model.label} at "
        f"{facts['big']} sequences "
        f"({facts['full_gb']} instead of {facts['big_gb']}) for {facts['full_factor']} the compute.",
    ]


LAB = Lab(
    id="v1_08", volume=1, number=8, title="The Training Memory Budget",
    invariant="Training memory is **bytes per parameter × parameters** plus **activations**, which grow "
              "with micro-batch × sequence; accumulation and recomputation buy memory with time.",
    minutes="25–30 min", chapter="AI Training", url="vol1/08-training-memory/",
    reading=(
        "**Mixed-precision training**: BF16 compute, FP32 master weights, loss scaling.",
        "**Optimizers and their state**: SGD, momentum, Adam.",
        "**Activation memory and checkpointing**: what the backward pass needs, and recomputing it.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "**V1-07 The Kernel Fusion Dividend**: memory-bound passes, like the accumulate, and what fusing them saves.",
        "**V2-05 The Parallelism Paradox**: when one device is not enough, ZeRO, tensor and pipeline "
        "parallelism split this budget.",
    ),
    presets={"context": {"cloud": {"a2_model": S.act2_model, "a2_batch": S.act2_batch, "a2_accum": S.act2_accum},
                         "mobile": {"a2_model": S.phone_model, "a2_batch": S.phone_batch,
                                    "a2_accum": S.phone_accum}}},
    record_metrics=RECORD_METRICS,
    context_from=TRACK,
)
