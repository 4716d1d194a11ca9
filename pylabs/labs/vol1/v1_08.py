"""Lab V1-08 · The Training Memory Budget.

Core invariant: training memory is the static state (weights, gradients, optimizer state: a fixed
number of bytes per parameter) plus the activations kept for the backward pass, which grow with
micro-batch × sequence and, without recomputation, with the square of the sequence. Gradient
accumulation and recomputation move the activations under the device's memory at a price in time.

Act I (where the memory goes): an engineer reckons a model trains wherever its FP32 weights fit. The
prediction asks how much of the device's memory the weights may fill, with Adam, for the static state
to fit: a quarter (4 of 16 bytes per parameter), on every device; the cards give the largest model
that follows (5B on the H100, 1B on the Orin NX, 500M on the phone). The reflection asks what mixed
precision saves: only activations, since the FP32 master copy keeps the static state at 16 B/param.
Act II (the effective batch): 256 sequences per optimizer step as micro-batches accumulated on one
device (GPT-3 XL, 8 × 32 on the H100; GPT-2, 8 × 32 on the Orin NX and 4 × 64 on the phone). The
prediction asks what share of a native batch's throughput that keeps (97.7 %, 98.9 %, 99.3 %); the
reflection asks about a bigger micro-batch: it fits only with full recomputation, which costs more
time than the accumulates it removes.

Choices made where the spec allows one, and departures (handbook/labs/v1_08.md §5, handbook/errata.md#e8):
- Act I's prediction was "112 GB of static state for the 7B", whose options listed the prompt's own
  components. It now asks for the weights' largest share of the device's memory, which
  needs the same bytes per parameter and holds in every context; the 112 GB is on the cards.
- GPT-3 XL has 24 heads (GPT-3 paper, Table 2.1), not the Megatron-DeepSpeed config's 16; activations
  take 4 bytes a value in FP32, 2 in BF16 (Korthikanti's Eq. 1; dropout masks 1 byte); the "7B" has
  7.0 B parameters with the Llama 2 7B width, depth and heads, as a GPT-style layer.
- Contexts: the H100 (80 GB), the Jetson Orin NX (16 GB, its GPU's FP16 tensor rate) and the phone
  (8 GB). The spec trained the phone at the Neural Engine's 35 trillion operations per second, an
  inference rate with no stated precision; on-device training runs on the GPU or CPU, so the phone
  trains on its GPU at 2.15 TFLOP/s, derived from Apple's 6 cores × 128 ALUs (third-party) × 2 × an assumed 1.398 GHz
  (the accumulation ratio moves from 90.1 % to 99.3 %). Budgets are held against the whole
  memory; iOS gives one app less (said on the page). TinyML is explained (track_notes).
- Act II's ranges split C from D at 99.9 %, not the spec's 99.5 %: at 99.5 % the phone's key moved to D
  for an assumed utilisation of 30 % or less; at 99.9 % it holds over the whole MFU slider (review).

Ledger fields: context, model, precision, optimizer, micro-batch, accumulation steps, recomputation (controls);
params, bytes_per_param, static_bytes, activation_bytes, oom (whether Act I's setup fits, not upstream's
proxy), a2_total_bytes, a2_ratio (none while out of memory), a2_oom (results)."""

from __future__ import annotations

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option, Prediction,
                              Range, Reflection, Slider, State, callout, failure, fmt, math_peek, metric_grid,
                              prose, tone)
from pylabs.framework.formats import listed, plural
from pylabs.labs.vol1.contexts import TRACK, deployment, device
from pylabs.labs.vol1.v1_08_charts import MODES, OPTIMIZERS, PRECISIONS, act1_chart, act2_chart
from pylabs.labs.vol1.v1_08_model import (CONTEXTS, MEMORY_NOTE, MODELS, PEAK_NOTE, SHORT, SHORT_MODEL,
                                          Accumulation, Budget, S, act1_budget_in, act1_truth, act2_truth, budget,
                                          largest_params, scenario, setup, terms, trainer, weights_share)
from pylabs.physics import constants as C
from pylabs.physics import training
from pylabs.physics import units as U
from pylabs.physics.references import cite


ADAM_FP32, ADAM_MIXED = (training.static_bytes_per_param(p, "adam") for p in ("fp32", "mixed"))  # Act I, Act II
def device_caveat(context: str) -> list:
    """Say which of the device's figures are not the vendor's, and what the budget is held against."""
    dev = trainer(context)
    if context == "edge":
        return [callout("info", "Shared memory", prose(
            f"The Orin NX's {fmt(dev.mem_bytes, 'B')} is shared by the CPU, the operating system and the GPU; the "
            "budgets here are held against all of it, so they are optimistic."))]
    if context != "mobile":
        return []
    return [callout("info", "Assumed device figures", prose(
        f"The phone's {fmt(dev.mem_bytes, 'B')} is as teardowns report it (Apple does not publish it), and iOS lets "
        "one app use only part of it (its limit, which Apple does not publish, need not match the physical "
        "memory): the budgets here are held against all of it, so they are optimistic. Training runs on the "
        f"GPU: its {fmt(dev.peak_ops, 'FLOP/s')} is derived from Apple's {fmt(C.A17_PRO_GPU_CORES, 'int')} cores × "
        f"{fmt(C.APPLE_GPU_ALUS_PER_CORE, 'int')} ALUs a core (third-party measurements) × "
        f"{fmt(S.flop_per_fma, 'int')} FLOP per multiply-add at an assumed {fmt(C.A17_PRO_GPU_CLOCK_HZ_ASSUMED, 'Hz')} "
        "(Apple publishes neither), "
        f"and its bandwidth ({fmt(dev.mem_bw, 'GB/s')}) is an assumption. The Neural Engine's "
        f"{fmt(C.A17_PRO_NPU_OPS / U.TRILLION, 'num')} trillion operations per second is an inference rate "
        "with no stated precision."))]


# ---- context ----------------------------------------------------------------------

CONTEXT = deployment(CONTEXTS, default="cloud", label="Where the model trains",
                     help="The device whose memory every budget is held against, and whose compute and "
                          "bandwidth set Act II's times: an H100, a Jetson Orin NX or a phone's GPU.")
# The note names the weights alone: training's bytes per parameter are Act I's question, and this note
# shows before its lock (review: "1.98 GB of static state with Adam" for 124M parameters gave 16 B).
TRACK_NOTES = {"tiny": (
    f"TinyML is not offered here: the smallest model in this lab, {MODELS['gpt2'].label}, has "
    f"{fmt(MODELS['gpt2'].params * ADAM_FP32.weights_b, 'B')} of FP32 weights alone, before anything training "
    f"adds, and the STM32H743's largest SRAM block holds {fmt(C.STM32H743_AXI_SRAM_BYTES, 'iB')}. The lab opens in "
    "Cloud (NVIDIA H100); before your first lock you can pick Edge or Mobile above.")}
# ---- Act I · Where the memory goes --------------------------------------------------

A1_MODEL = Choice("a1_model", "Model", tuple(Option(k, m.label) for k, m in MODELS.items()),
                  default=S.cloud.act1_model, widget="select")
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
    prompt="On the {device} ({mem}), training in FP32 with Adam: at most what share of that memory can the "
           "model's weights fill, for training to fit before any activation is kept?",
    quantity="largest share of the device's memory the FP32 weights can fill (Adam, before activations)",
    unit_fmt="pct",
    options=(
        Range("A", "{range}: each weight brings three more values along", None, 0.3, 0.25,
              "Weight, gradient, momentum and variance: four FP32 values, {bpp} bytes per parameter. The "
              "weights are **{a1_weights_share}** of it, so the {device}'s {mem} trains at most "
              "**{a1_largest}** parameters, before any activation."),
        Range("B", "{range}: gradient and optimizer each match the weights", 0.3, 0.45, 1 / 3,
              "Adam keeps two moments, not one: {bpp} bytes per parameter, of which the weights are "
              "{a1_weights_share}, {gap_b} below your range. The {device} trains {a1_largest}, not {third}."),
        Range("C", "{range}: the backward pass adds one gradient each", 0.45, 0.75, 0.5,
              "The gradient doubles the weights, and Adam adds two more FP32 values: the weights are "
              "{a1_weights_share} of {bpp} bytes, {gap_c} below your range. {mem} trains {a1_largest}, not {half}."),
        Range("D", "{range}: training needs little beyond the weights", 0.75, None, 1.0,
              "If only the weights had to fit, {mem} would train {whole}. Training keeps a gradient and two "
              "Adam moments beside each weight: {a1_weights_share}, {gap_d} below your range, so {a1_largest}."),
    ),
    truth=act1_truth,
    shown_by="a1_weights_share",
)


def act1_facts(context: str) -> dict[str, str]:
    dev, share = trainer(context), act1_truth()
    fp32, mixed = act1_budget_in(context), act1_budget_in(context, "mixed")
    edges = {letter: ACT1_PREDICTION.option(letter).low for letter in "BCD"}
    return {"a1_weights_share": fmt(share, "pct"), "a1_largest": fmt(largest_params("fp32", "adam", dev), "params"),
            "bpp": fmt(ADAM_FP32.total_b, "num"), "device": SHORT[context], "mem": fmt(dev.mem_bytes, "B"),
            "third": fmt(dev.mem_bytes / (3 * ADAM_FP32.weights_b), "params"),
            "half": fmt(dev.mem_bytes / (2 * ADAM_FP32.weights_b), "params"),
            "whole": fmt(dev.mem_bytes / ADAM_FP32.weights_b, "params"),
            **{f"gap_{k.lower()}": fmt(v - share, "pp") for k, v in edges.items()},
            "model": SHORT_MODEL[setup(context).act1_model], "static": fmt(fp32.static, "B"),
            "act_fp32": fmt(fp32.activations, "B"), "act_mixed": fmt(mixed.activations, "B"),
            "total_fp32": fmt(fp32.total, "B"), "total_mixed": fmt(mixed.total, "B"),
            "mixed_bpp": fmt(ADAM_MIXED.total_b, "num"), "weights": fmt(ADAM_MIXED.weights_b, "num"),
            "grads": fmt(ADAM_MIXED.grads_b, "num"), "master": fmt(ADAM_MIXED.master_b, "num"),
            "adam": fmt(ADAM_MIXED.optimizer_b, "num"),
            "kept": fmt(ADAM_MIXED.master_b + ADAM_MIXED.optimizer_b, "num"),
            "no_master": fmt(ADAM_MIXED.total_b - ADAM_MIXED.master_b, "num")}


ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="A colleague says: \"Switch to mixed precision: 16-bit values take half the bytes, so the {model1} "
           "fits the {device}.\" What does your chart show that mixed precision saves?",
    options=(
        Claim("A", "Half of everything: weights, gradients, optimizer state and activations all drop to two bytes.",
              "Only what the forward pass keeps shrinks: activations {act_fp32} → {act_mixed}. The static state "
              "stays {static}: the FP32 master weights and Adam's FP32 moments are {kept} of its {mixed_bpp} bytes."),
        Claim("B", "Only activations: the 16-bit copies come on top of FP32 master weights, so static bytes stay.",
              "The static bars are equal: {weights} + {grads} (16-bit weights and gradients) + {master} (FP32 "
              "master) + {adam} (Adam) = {mixed_bpp} bytes, {static}. Activations shrink, {act_fp32} → "
              "{act_mixed}: {total_mixed} in all against {total_fp32}."),
        Claim("C", "A quarter of the static state: weights and gradients halve while Adam's moments stay the same.",
              "That would be {no_master} bytes per parameter, but mixed precision keeps an FP32 master copy of "
              "every weight for the update: {mixed_bpp} bytes, {static}, as in FP32. The activations shrink."),
        Claim("D", "Only the static state: activations stay 32-bit, since the backward pass needs full precision.",
              "It is the other way round: the forward pass keeps 16-bit activations, {act_fp32} → {act_mixed}, "
              "while the static state stays {static}."),
    ),
    answer_letter="B",
)

M = {m.name: m for m in (
    MetricSpec("a1_total", "Total training memory", "B", "B"),
    MetricSpec("a1_static", "Weights, gradients, optimizer state", "B", "B"),
    MetricSpec("a1_weights_share", "Memory the weights may fill", "1", "pct"),
    MetricSpec("a1_largest", "Largest model whose static state fits", "params", "params"),
    MetricSpec("a1_activations", "Activations kept for the backward pass", "B", "B"),
    MetricSpec("a1_bytes_per_param", "Static bytes per parameter", "B", "num"),
    MetricSpec("a1_capacity", "Device memory", "B", "B"),
    MetricSpec("a2_ratio", "Throughput against one native batch", "1", "pct"),
    MetricSpec("a2_total", "Memory at this micro-batch", "B", "B"),
    MetricSpec("a2_step_s", "Time per optimizer step", "s", "s"),
    MetricSpec("a2_native_total", "Memory a native batch would need", "B", "B"),
    MetricSpec("a2_effective_batch", "Sequences per optimizer step", "sequences", "int"),
    MetricSpec("a2_activations", "Activations at this micro-batch", "B", "B"),
    MetricSpec("a2_compute_factor", "Compute per step against no recomputation", "1", "x"),
)}

FAILURES = (
    FailureSpec("a1_out_of_memory", "Out of memory: the training state does not fit", act=1,
                reach={}, leave={"a1_precision": "mixed", "a1_model": "gpt3xl"}, contexts=("cloud",)),
    FailureSpec("a2_out_of_memory", "Out of memory at this micro-batch", act=2,
                reach={"a2_batch": 64}, leave={"a2_mode": "full"}, contexts=("cloud", "edge")),
)
F = {f.name: f for f in FAILURES}


def act1_budget(s: State, **changed) -> Budget:
    v = {"model": s["a1_model"], "precision": s["a1_precision"], "optimizer": s["a1_optimizer"],
         "batch": s["a1_batch"], "seq": s["a1_seq"], **changed}
    return budget(MODELS[v["model"]], v["precision"], v["optimizer"], v["batch"], v["seq"], "none",
                  trainer(s["context"]))


def act1_levers(s: State) -> str:
    """The single changes on this page that bring Act I's setup under the memory (none at their limit)."""
    smaller = [k for k, m in MODELS.items() if m.params < MODELS[s["a1_model"]].params
               and act1_budget(s, model=k).fits]
    levers = [(bool(smaller), f"a smaller model ({', '.join(SHORT_MODEL[k] for k in smaller)})"),
              (act1_budget(s, precision="bf16").fits and s["a1_precision"] != "bf16", "pure BF16"),
              (act1_budget(s, optimizer="sgd").fits and s["a1_optimizer"] != "sgd", "SGD instead of Adam"),
              (act1_budget(s, batch=A1_BATCH.min).fits and s["a1_batch"] > A1_BATCH.min, "fewer sequences per step"),
              (act1_budget(s, seq=A1_SEQ.min).fits and s["a1_seq"] > A1_SEQ.min, "shorter sequences")]
    found = [text for ok, text in levers if ok]
    if found:
        return "Any one of these fits it: " + "; ".join(found) + "."
    # no single change fits: name only the directions not yet at their limit
    fewer_bytes = s["a1_precision"] != "bf16" or s["a1_optimizer"] != "sgd"
    room = [text for ok, text in ((any(m.params < MODELS[s["a1_model"]].params for m in MODELS.values()),
                                   "a smaller model"), (fewer_bytes, "fewer bytes per parameter"),
                                  (s["a1_batch"] > A1_BATCH.min, "fewer sequences"),
                                  (s["a1_seq"] > A1_SEQ.min, "shorter sequences")) if ok]
    return "No single setting here fits it; combine several (" + ", ".join(room) + ")."


def act1_instruments(s: State) -> list:
    b, dev, context = act1_budget(s), trainer(s["context"]), s["context"]
    per = training.static_bytes_per_param(s["a1_precision"], s["a1_optimizer"])
    parts = [metric_grid(
        M["a1_total"].show(b.total, "good" if b.fits else "danger",
                           f"of {fmt(dev.mem_bytes, 'B')} on the {SHORT[context]}"),
        M["a1_static"].show(b.static, "danger" if b.static > b.capacity else None),
        M["a1_weights_share"].show(weights_share(s["a1_precision"], s["a1_optimizer"]),
                                   note="for the static state to fit"),
        M["a1_largest"].show(largest_params(s["a1_precision"], s["a1_optimizer"], dev),
                             note=f"on the {SHORT[context]}, activations aside"),
        M["a1_activations"].show(b.activations),
        M["a1_bytes_per_param"].show(per.total_b, note=f"× {fmt(MODELS[s['a1_model']].params, 'params')} parameters"),
        M["a1_capacity"].show(b.capacity, note=device(context).name + MEMORY_NOTE[context]),  # the phone, not its GPU
    )]
    if not b.fits:
        parts.append(failure(F["a1_out_of_memory"],
                             f"{fmt(b.static, 'B')} of static state and {fmt(b.activations, 'B')} of activations "
                             f"need {fmt(b.total, 'B')}; the {SHORT[context]} has {fmt(b.capacity, 'B')}. "
                             + act1_levers(s)))
    parts.append(act1_chart(MODELS[s['a1_model']], s['a1_optimizer'], s['a1_precision'],
                            {k: act1_budget(s, precision=k) for k in PRECISIONS}, dev, SHORT[context]))
    parts.extend(device_caveat(context))
    return parts


def act1_math(s: State):
    b, model = act1_budget(s), MODELS[s["a1_model"]]
    per = training.static_bytes_per_param(s["a1_precision"], s["a1_optimizer"])
    return math_peek("The governing equations · Act I", (
        Equation(r"M_{\text{static}} = P\,(w + g + m + o)",
                 "Bytes per parameter for weights *w*, gradients *g*, an FP32 master copy *m* (mixed precision "
                 "only) and optimizer state *o* (Adam: two values, momentum one, SGD none)."),
        Equation(r"\frac{w}{w + g + m + o} = \frac{P_{\max}\,w}{M_{\text{device}}}",
                 "The largest model whose static state fits fills this share of the memory with its weights."),
        Equation(r"M_{\text{act}} = L\left[\,s\,b\,h\,(16v + 2) + a\,s^{2}\,b\,(2v + 1)\right]",
                 "Activations of *L* GPT layers for *b* sequences of *s* tokens, width *h*, *a* heads, *v* bytes "
                 "per value and 1-byte dropout masks. At *v* = 2 this is Korthikanti's *sbh*(34 + 5*as*/*h*)."),
    ), rows=(
        ("*w* + *g* + *m* + *o*", f"{fmt(per.weights_b, 'num')} + {fmt(per.grads_b, 'num')} + "
                                  f"{fmt(per.master_b, 'num')} + {fmt(per.optimizer_b, 'num')} B"),
        ("Parameters, *P*", fmt(model.params, "params")),
        ("Layers, width, heads", f"{fmt(model.layers, 'int')}, {fmt(model.hidden, 'int')}, {fmt(model.heads, 'int')}"),
        ("Static", fmt(b.static, "B")),
        ("Activations", fmt(b.activations, "B")),
    ), sources=(
        cite("zero2020", "2 + 2 + 12 bytes per parameter for mixed-precision Adam"),
        cite("micikevicius2018", "the FP32 master copy of the weights"),
        cite("korthikanti2022", "activation memory per layer, Sec. 4.1"),
        C.REGISTRY["LLAMA2_7B_LAYERS"].source,
        C.REGISTRY["ORIN_NX_MEM_BYTES"].source,
        C.REGISTRY["A17_PRO_MEM_BYTES"].source,
    ))


def act1_stakeholder(context: str) -> str:
    su, dev = setup(context), trainer(context)
    model = MODELS[su.act1_model]
    weights = model.params * ADAM_FP32.weights_b
    return (f"Our {SHORT_MODEL[su.act1_model]} model's weights take {fmt(weights, 'B')} in FP32, "
            f"{fmt(weights / dev.mem_bytes, 'pct')} of the {SHORT[context]}'s {fmt(dev.mem_bytes, 'B')}. I plan to "
            f"train it there with Adam, {fmt(S.act1_batch, 'int')} sequences of {fmt(S.act1_seq, 'tokens')} a step, "
            f"and by the same count a {fmt(dev.mem_bytes / ADAM_FP32.weights_b, 'params')} model would fit next. "
            "Do we have room?")


ACT1 = Act(
    number=1, title="Where the Memory Goes", minutes="10–12 min",
    stakeholder_role="Junior ML Engineer",
    stakeholder=act1_stakeholder,
    scenario=lambda: (
        "Training keeps more than the model: what the backward pass and the optimizer need for every weight, "
        "and the activations each layer keeps from the forward pass until the backward pass has used them.",
        "The first part is a fixed number of bytes per parameter, whatever the batch: the **static** state. "
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

# ---- Act II · The effective batch --------------------------------------------------

A2_MODEL = Choice("a2_model", "Model", tuple(Option(k, m.label) for k, m in MODELS.items()),
                  default=S.cloud.act2_model, widget="select")
A2_BATCH = Slider("a2_batch", "Micro-batch", unit="sequences", min=1, max=512, step=1, default=S.cloud.act2_batch,
                  fmt="int", scale="log2")
A2_ACCUM = Slider("a2_accum", "Accumulation steps", unit="micro-batches", min=1, max=64, step=1,
                  default=S.cloud.act2_accum, fmt="int", scale="log2")
A2_MODE = Choice("a2_mode", "Activation recomputation", tuple(Option(k, v) for k, v in MODES.items()),
                 default="none")
A2_SEQ = Slider("a2_seq", "Sequence length", unit="tokens", min=512, max=8192, step=1, default=S.act2_seq,
                fmt="tokens", scale="log2")
A2_MFU = Slider("a2_mfu", "Utilisation (MFU)", unit="fraction", min=0.1, max=0.8, step=0.05, default=S.mfu,
                fmt="pct", help=f"An assumption: the share of the device's peak that the forward and backward "
                                f"passes reach, the same for a micro-batch as for a native batch. The lab starts at "
                                f"{fmt(S.mfu, 'pct')}.")


def accumulation(s: State) -> Accumulation:
    return Accumulation(MODELS[s["a2_model"]], s["a2_batch"], s["a2_accum"], s["a2_mode"], s["a2_seq"],
                        s["a2_mfu"], trainer(s["context"]))


ACT2_PREDICTION = Prediction(
    id="a2_predict", act=2,
    prompt="On the {device}, {model2} in micro-batches of {b}, accumulated {K} times, takes {eff} sequences per "
           "optimizer step. What share of the throughput of one native batch of {eff} (the same device with "
           "unlimited memory) does it keep?",
    quantity="throughput with accumulation ÷ throughput of one native batch",
    unit_fmt="pct",
    options=(
        Range("A", "{range}: summing gradients costs more than computing them", None, 0.5, 0.3,
              "Summing is one memory-bound pass over the gradients, {t_acc} on the {device}, against {t_fb} "
              "for a micro-batch's forward and backward pass: **{a2_ratio}**, {gap_a} above your range."),
        Range("B", "{range}: summing gradients costs a large share of a pass", 0.5, 0.85, 0.6,
              "That needs each accumulate to cost {b_floor} of a pass or more. It moves {acc_bytes} bytes per "
              "parameter, {t_acc}, against {t_fb} of arithmetic per micro-batch: **{a2_ratio}**, {gap_b} above your "
              "range."),
        Range("C", "{range}: summing gradients costs a small share of a pass", 0.85, 0.999, 0.95,
              "The same arithmetic, {K} passes of {t_fb}, plus {K1} accumulates of {t_acc}: **{a2_ratio}** of "
              "a native batch's throughput."),
        Range("D", "{range}: the arithmetic is unchanged, so nothing is lost", 0.999, None, 1.0,
              "The arithmetic is the same, but each of the {K1} accumulates moves {acc_bytes} bytes per "
              "parameter through memory, {t_acc} each: **{a2_ratio}**, {gap_d} below your range."),
    ),
    truth=act2_truth,
    shown_by="a2_ratio",
)


def act2_facts(context: str) -> dict[str, str]:
    su, a = setup(context), scenario(context)
    ratio = act2_truth(context)
    big = {m: scenario(context, su.big_batch, m) for m in MODES}
    sgd = budget(a.model, "mixed", "sgd", su.big_batch, a.seq, "none", a.dev)
    edges = {"a": ACT2_PREDICTION.option("A").high, "b": ACT2_PREDICTION.option("B").high,
             "d": ACT2_PREDICTION.option("D").low}
    return {"a2_ratio": fmt(ratio, "pct"), "a2_step_s": fmt(a.step_s, "s"), "device": SHORT[context],
            "mem": fmt(a.dev.mem_bytes, "B"), "eff": fmt(su.effective, "int"), "K": fmt(a.steps, "int"),
            "K1": fmt(a.steps - 1, "int"), "t_acc": fmt(a.accumulate_s, "s"), "t_fb": fmt(a.micro_step_s, "s"),
            "acc_bytes": fmt(a.accumulate_s * a.dev.mem_bw / a.model.params, "num"),
            **{f"gap_{k}": fmt(abs(ratio - v), "pp") for k, v in edges.items()},
            # the accumulate's share of a pass at which the ratio falls to B's top: K t / (K t + (K-1) x t)
            "b_floor": fmt((1 / edges["b"] - 1) * a.steps / (a.steps - 1), "pct"),
            "big": fmt(su.big_batch, "int"), "big_none": fmt(big["none"].memory.total, "B"),
            "big_sel": fmt(big["selective"].memory.total, "B"), "big_full": fmt(big["full"].memory.total, "B"),
            "full_step": fmt(big["full"].step_s, "s"), "acts_big": fmt(big["none"].memory.activations, "B"),
            "full_factor": fmt(big["full"].factor, "x"),
            "acc_total": fmt((a.steps - 1) * a.accumulate_s, "s"), "sgd_gb": fmt(sgd.total, "B"),
            "sgd_saves": fmt(ADAM_MIXED.total_b - training.static_bytes_per_param("mixed", "sgd").total_b, "num")}


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt="To make each optimizer step faster, the team wants micro-batches of {big} on the {device}, still of {seq}: "
           "{big_steps} accumulation steps instead of {K}. What does this act show about that plan?",
    options=(
        Claim("A", "It fits as it is, and it is faster: the accumulates it removes were the step's main cost.",
              "{big} sequences need **{big_none}** without recomputation, over the {device}'s {mem}; and all "
              "{K1} accumulates take only {acc_total} of a {a2_step_s} step."),
        Claim("B", "It fits once Adam is swapped for SGD, whose smaller optimizer state leaves room for the "
                   "activations.",
              "SGD saves {sgd_saves} bytes per parameter, but at {big} sequences the activations ({acts_big}) "
              "dwarf it: {sgd_gb}, still over {mem}."),
        Claim("C", "It cannot fit: no setting on this page holds {big} sequences of {model2} on the {device}.",
              "It can, with full recomputation: {big_full}, under the {device}'s {mem}, for {full_factor} the "
              "compute per step."),
        Claim("D", "It fits only with full recomputation, whose extra forward pass costs more than it saves.",
              "Only full recomputation fits ({big_full}; selective needs {big_sel}), and its extra forward pass "
              "makes the step {full_step} against {a2_step_s} now: accumulating was the cheaper way to the "
              "same {eff} sequences."),
    ),
    answer_letter="D",
)


def a2_levers(s: State, a: Accumulation) -> str:
    """What brings Act II's micro-batch under the memory, branching on the levers' limits."""
    if a.memory.static > a.dev.mem_bytes:
        return f"The static state alone, {fmt(a.memory.static, 'B')}, is over it: pick a smaller model."
    levers = []
    if a.batch > A2_BATCH.min:
        levers.append("halve the micro-batch" + (" and double the accumulation steps" if a.steps < A2_ACCUM.max
                                                 else " (the accumulation steps are at their limit)"))
    if a.mode != "full":
        levers.append("recompute activations" if a.mode == "none" else "recompute them fully")
    if a.seq > A2_SEQ.min:
        levers.append("shorten the sequences")
    if not levers:
        return "Every lever here is at its limit; pick a smaller model."
    return "To fit, " + listed(levers) + "."


def act2_instruments(s: State) -> list:
    a, context = accumulation(s), s["context"]
    mem, native = a.memory, a.native
    cards = [
        M["a2_total"].show(mem.total, "good" if mem.fits else "danger",
                           f"of {fmt(a.dev.mem_bytes, 'B')} on the {SHORT[context]}"),
        M["a2_native_total"].show(native.total, None if native.fits else "warn",
                                  f"{plural(a.batch * a.steps, 'sequence', count_fmt='int')} at once"),
        M["a2_effective_batch"].show(a.batch * a.steps, note=f"{fmt(a.batch, 'int')} × {fmt(a.steps, 'int')}"),
        M["a2_activations"].show(mem.activations, note=MODES[a.mode]),
        M["a2_compute_factor"].show(a.factor),
    ]
    if not mem.fits:  # nothing runs: no throughput, no step time
        return [metric_grid(*cards),
                failure(F["a2_out_of_memory"],
                        f"A micro-batch of {plural(a.batch, 'sequence', count_fmt='int')} needs {fmt(mem.total, 'B')}; "
                        f"the {SHORT[context]} has {fmt(mem.capacity, 'B')}. " + a2_levers(s, a)),
                act2_chart(a, SHORT[context]), *device_caveat(context)]
    step_note = (f"{fmt(a.steps, 'int')} × {fmt(a.micro_step_s * a.factor, 's')} + "
                 f"{plural(a.steps - 1, 'accumulate', count_fmt='int')} of {fmt(a.accumulate_s, 's')}")
    return [metric_grid(M["a2_ratio"].show(a.ratio, tone(a.ratio, 0.95, 0.8)), cards[0],
                        M["a2_step_s"].show(a.step_s, note=step_note), *cards[1:]),
            act2_chart(a, SHORT[context]), *device_caveat(context)]


def act2_math(s: State):
    a = accumulation(s)
    assumed = "; derived, its clock assumed" if "peak_ops" in a.dev.assumed else ""
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
        ("Peak *R*", f"{fmt(a.dev.peak_ops, 'FLOP/s')} ({a.dev.precision}{assumed})"),
        ("Bandwidth *B*", fmt(a.dev.mem_bw, "GB/s") + (" (assumed)" if "mem_bw" in a.dev.assumed else "")),
        ("Recomputation factor *f*", fmt(a.factor, "x")),
        ("Throughput ratio", fmt(a.ratio, "pct") if a.memory.fits else "does not fit"),
    ), sources=(
        cite("kaplan2020", "6 FLOP per parameter per token"),
        cite("korthikanti2022", "selective and full recomputation"),
        cite("chen2016", "checkpointing trades one forward pass for memory"),
        C.REGISTRY["GPT3_XL_HEADS"].source,
        C.REGISTRY["H100_HBM_BW"].source,
        C.REGISTRY["ORIN_NX_PEAK_FP16_DENSE"].source,
        C.REGISTRY["A17_PRO_GPU_FP32_ASSUMED"].source,
    ))


def act2_stakeholder(context: str) -> str:
    a, su = scenario(context), setup(context)
    return (f"For {a.model.label} on the {SHORT[context]} the recipe says {fmt(su.effective, 'int')} sequences of "
            f"{fmt(S.act2_seq, 'tokens')} per optimizer step. All at once that needs {fmt(a.native.total, 'B')}. "
            f"Micro-batches of {fmt(a.batch, 'int')} fit, so we would accumulate gradients over "
            f"{fmt(a.steps, 'int')} of them. I have heard accumulation halves throughput. Does it?")


def act2_scenario(context: str) -> tuple[str, str]:
    dev, precision = trainer(context), PEAK_NOTE[context]
    return (
        "**Gradient accumulation** runs the forward and backward pass on one micro-batch at a time and adds "
        "its gradients into a running sum; the optimizer steps once per *K* micro-batches, on the same "
        f"sequences as one big batch. The {SHORT[context]} computes at up to {fmt(dev.peak_ops, 'FLOP/s')} "
        f"({precision}) and moves {fmt(dev.mem_bw, 'GB/s')} through its memory.",
        f"Every setting in this act trains with mixed-precision Adam ({fmt(ADAM_MIXED.total_b, 'num')} bytes per "
        "parameter). **Recomputation** is the other lever: keep fewer activations and compute them again when "
        "the backward pass needs them.",
    )


ACT2 = Act(
    number=2, title="The Effective Batch", minutes="15–20 min",
    stakeholder_role="Training Lead",
    stakeholder=act2_stakeholder,
    scenario=act2_scenario,
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


def results(s: State) -> dict[str, float | bool | None]:
    b, a = act1_budget(s), accumulation(s)
    return {"params": MODELS[s["a1_model"]].params,
            "bytes_per_param": training.static_bytes_per_param(s["a1_precision"], s["a1_optimizer"]).total_b,
            "static_bytes": b.static, "activation_bytes": b.activations, "oom": not b.fits,
            "a2_total_bytes": a.memory.total, "a2_ratio": a.ratio if a.memory.fits else None,
            "a2_oom": not a.memory.fits}


RECORD_METRICS = (
    MetricSpec("params", "Act I model parameters", "params", "params"),
    MetricSpec("bytes_per_param", "Act I static bytes per parameter", "B", "num"),
    MetricSpec("static_bytes", "Act I static memory", "B", "B"),
    MetricSpec("activation_bytes", "Act I activations", "B", "B"),
    MetricSpec("oom", "Act I out of memory", "1", "yesno"),
    MetricSpec("a2_total_bytes", "Memory at the micro-batch", "B", "B"),
    MetricSpec("a2_oom", "Out of memory at the micro-batch", "1", "yesno"),
)


def on_each(values: dict[str, str]) -> str:
    """'5B on the H100, 1B on the Orin NX and 500M on the phone'."""
    *rest, last = [f"{v} on the {SHORT[c]}" for c, v in values.items()]
    return ", ".join(rest) + " and " + last


def lab_takeaways() -> list[str]:
    big = scenario("cloud", S.cloud.big_batch, "full")
    now = scenario("cloud")
    seven = act1_budget_in("cloud"), act1_budget_in("cloud", "mixed")
    return [
        f"Training with Adam keeps {fmt(ADAM_FP32.total_b, 'num')} bytes per parameter in FP32 **and** in mixed "
        f"precision (the FP32 master copy replaces the saving): the weights are {fmt(act1_truth(), 'pct')} of it, "
        "so the largest model whose static state fits is "
        + on_each({c: fmt(largest_params("fp32", "adam", trainer(c)), "params") for c in CONTEXTS}) + ".",
        f"Mixed precision nearly halves the activations, not the static state: the 7B at {fmt(S.act1_batch, 'int')} × "
        f"{fmt(S.act1_seq, 'tokens')} keeps {fmt(seven[0].activations, 'B')} of activations in FP32 and "
        f"{fmt(seven[1].activations, 'B')} in BF16, beside {fmt(seven[0].static, 'B')} of static state either way.",
        "Gradient accumulation costs little: of a native batch's throughput it keeps "
        + on_each({c: fmt(act2_truth(c), "pct") for c in CONTEXTS})
        + ". The model size cancels; a device with more compute per byte of bandwidth pays more.",
        f"Recomputation trades time for memory: full checkpointing fits micro-batches of "
        f"{fmt(S.cloud.big_batch, 'int')} of {big.model.label} on the H100 ({fmt(big.memory.total, 'B')}) for "
        f"{fmt(big.factor, 'x')} the compute, a {fmt(big.step_s, 's')} step against {fmt(now.step_s, 's')} "
        "accumulating.",
    ]


LAB = Lab(
    id="v1_08", volume=1, number=8, title="The Training Memory Budget",
    invariant="Training memory is **bytes per parameter × parameters** plus **activations**, which grow "
              "with micro-batch × sequence; accumulation and recomputation buy memory with time.",
    minutes="25–30 min", chapter="AI Training", url="vol1/08-training-memory/",
    description="Where training memory goes (bytes per parameter, activations), and what gradient accumulation and "
                "recomputation cost.",
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
    presets={"context": {c: {"a1_model": setup(c).act1_model, "a2_model": setup(c).act2_model,
                             "a2_batch": setup(c).act2_batch, "a2_accum": setup(c).act2_accum} for c in CONTEXTS}},
    record_metrics=RECORD_METRICS,
    context_from=TRACK,
    terms=terms,
    track_notes=TRACK_NOTES,
    hook="The model's weights fit on the accelerator with memory to spare. How large a model can you really "
         "train there, and what does training it in small pieces cost?",
)
