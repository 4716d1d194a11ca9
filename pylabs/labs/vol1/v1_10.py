"""Lab V1-10 · The Compression Frontier.

Core invariant: fewer bits per weight buy bytes exactly (P·b/8) and buy time only where time is
set by bytes; what they cost in accuracy depends on how the scales are chosen, not on the bit
count alone. A model fits a device only with its KV cache and runtime counted.

Act I (is INT8 lossless?): a mobile team wants ResNet-50 (FP32, 102 MB) under a 25 MB download
budget. Per-channel INT8 post-training quantization costs a few tenths of a point of top-1; the
surprise is MobileNetV2 with one scale per tensor, which collapses.
Act II (three memory tiers): one assistant for phones that give the model 8, 4 and 2 GB. Counting
8.03 B parameters, group scales, a 2K-token KV cache and the runtime, INT8 does not fit even the
flagship; INT4, 3-bit and a 1B-class model at INT4 do.

Choices made where the spec leaves one: the Act I models are ResNet-50 and MobileNetV2 (the spec's
ViT-B has no per-tensor/per-channel PTQ figure we could confirm, so it is left out rather than
invented); the accuracy and perplexity tables are labelled as representative values anchored on the
papers cited, not as measurements; the upstream calibration-size penalty is dropped (no source).
On the phone, the FP16 rate is an assumption (Apple publishes one Neural Engine figure); INT4 runs
at the INT8 rate on every device (no INT4 tensor rate is listed for Hopper, Orin or the ANE).
Act II's tiers are phones whatever the context; the context sets Act I's device.

Ledger fields: context, model, fmt, granularity, drop_pp, tier_configs, tier_footprints_gb, oom_tiers.
"""

from __future__ import annotations

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option, Pick,
                              Prediction, Range, Reflection, Slider, State, callout, chart, failure, fmt,
                              math_peek, metric_grid, prose)
from pylabs.framework import charts as ch
from pylabs.labs.vol1.contexts import TRACK, deployment, device
from pylabs.labs.vol1.v1_10_model import (DESIGNS, FORMATS, GRANULARITY, MODELS, P8, PRUNED, SCHEMES, TIER_NAMES,
                                          VARIANTS, Config, S, act1_points, act1_truth, act2_answer, peak_ops)
from pylabs.physics import compression as cp
from pylabs.physics import constants as C
from pylabs.physics.references import cite

# ---- context ----------------------------------------------------------------------

CONTEXT = deployment(("cloud", "edge", "mobile"), default="mobile",
                     help="Sets Act I's device: its rate per format and its memory bandwidth. Act II's tiers "
                          "are phones in every context.")

# ---- Act I · Is INT8 lossless? ------------------------------------------------------

A1_MODEL = Choice("a1_model", "Model", tuple(Option(k, v[0]) for k, v in MODELS.items()), default="resnet50")
A1_FORMAT = Choice("a1_format", "Weight format", tuple(Option(k, v[0]) for k, v in FORMATS.items()),
                   default="int8", unit="bits per weight")
A1_GRANULARITY = Choice("a1_granularity", "Scale granularity", tuple(Option(k, v) for k, v in GRANULARITY.items()),
                        default="per_channel")
A1_SCHEME = Choice("a1_scheme", "Scheme", tuple(Option(k, v) for k, v in SCHEMES.items()), default="ptq")


def config(s: State) -> Config:
    return Config(s["a1_model"], s["a1_format"], s["a1_granularity"], s["a1_scheme"], s["context"])


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt="ResNet-50's weights go from FP32 to INT8 with one scale per output channel, set by post-training "
           "calibration on a few hundred images (no retraining). How many points of ImageNet top-1 accuracy "
           "does the model lose?",
    quantity="top-1 accuracy lost, ResNet-50 INT8 per-channel PTQ",
    unit_fmt="pp",
    options=(
        Range("A", "{range}: nothing measurable, as good as FP32", None, 0.0005, 0.0002,
              "INT8 is not bit-exact: every weight moves by up to half a quantization step, and the activations "
              "are rounded too. The loss is small but measurable."),
        Range("B", "{range}: a few tenths of a point", 0.0005, 0.005, 0.003,
              "With a scale per channel, {levels} levels cover each filter's own range, so the rounding noise is "
              "tiny next to the weights."),
        Range("C", "{range}: about a point", 0.005, 0.02, 0.01,
              "That is the loss of a harder network or a coarser scheme; per-channel scales keep ResNet-50 "
              "well inside it."),
        Range("D", "{range}: several points", 0.02, None, 0.07,
              "A loss this size needs fewer bits or one scale for a whole tensor of very different channels; "
              "INT8 per channel on ResNet-50 is far gentler."),
    ),
    truth=act1_truth,
)


def act1_facts() -> dict[str, str]:
    return {"bound": fmt(cp.rounding_error_of_range(8), "pct"),
            "coarser": fmt(cp.symmetric_levels(8) / cp.symmetric_levels(4), "x"),
            "levels": fmt(2 * cp.symmetric_levels(8) + 1, "int"), "q8": fmt(cp.symmetric_levels(8), "int"),
            "mnv2_pt": fmt(cp.top1_drop("mobilenetv2", "int8", "per_tensor", "ptq"), "pp"),
            "mnv2_pc": fmt(cp.top1_drop("mobilenetv2", "int8", "per_channel", "ptq"), "pp")}


ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="Per-channel INT8 costs MobileNetV2 about a point, but with one scale per tensor the same network "
           "collapses, while ResNet-50 barely notices either. What breaks MobileNetV2?",
    options=(
        Claim("A", f"It has {fmt(round(C.RESNET50_PARAMS / C.MOBILENETV2_PARAMS), 'words')} times fewer "
                   "parameters, so each rounded weight matters more.",
              "Size alone does not decide it: per channel, the same small network keeps most of its accuracy "
              "({mnv2_pc} lost)."),
        Claim("B", "One scale per tensor is set by the widest channel; in its depthwise layers many channels "
                   "span a sliver of that range and round to a handful of levels, or to zero.",
              "The worst rounding error is {bound} of the range the scale covers: harmless when the range is "
              "the channel's own, ruinous when it is set by a channel many times wider. Per tensor it loses "
              "{mnv2_pt}; per channel {mnv2_pc}. INT4 is {coarser} coarser still."),
        Claim("C", "INT8 cannot hold the negative weights of depthwise filters.",
              "Signed INT8 spans −{q8} to +{q8} with zero exact; the sign is not the problem."),
        Claim("D", "Its activations overflow INT8 and saturate.",
              "Calibration sets each activation's scale from data; the collapse comes from the weights' "
              "shared scale, and per-channel weights fix most of it."),
    ),
    answer_letter="B",
)

M = {m.name: m for m in (
    MetricSpec("a1_drop", "Top-1 accuracy lost", "1", "pp"),
    MetricSpec("a1_size", "Model size", "B", "B"),
    MetricSpec("a1_latency", "Latency per image (batch 1)", "s", "s"),
    MetricSpec("a1_speedup", "Speed-up over FP16", "1", "x"),
    MetricSpec("a1_top1", "Top-1 accuracy", "1", "pct"),
    MetricSpec("a1_shrink", "Smaller than FP32", "1", "x"),
    MetricSpec("a2_oom_tiers", "Tiers out of memory", "1", "int"),
    MetricSpec("a2_flagship", "Flagship footprint", "B", "GB"),
    MetricSpec("a2_mid", "Mid-range footprint", "B", "GB"),
    MetricSpec("a2_budget", "Budget footprint", "B", "GB"),
    MetricSpec("a2_rate_flagship", "Flagship decode rate", "1/s", "num"),
    MetricSpec("a2_rate_budget", "Budget decode rate", "1/s", "num"),
    MetricSpec("a2_kv", "KV cache, flagship", "B", "GB"),
)}

FAILURES = (
    FailureSpec("a1_collapse", "Accuracy collapse: the quantized model is no longer usable", act=1),
    FailureSpec("a1_over_budget", "Over the download budget", act=1, severity="warn"),
    FailureSpec("a2_out_of_memory", "Out of memory on a tier", act=2),
    FailureSpec("a2_quality", "A tier's model is not good enough", act=2, severity="warn"),
)
F = {f.name: f for f in FAILURES}


def a1_overridden(s: State) -> dict[str, str]:
    """FP16 needs no integer scales and no calibration: granularity and scheme do not apply."""
    if s["a1_format"] != "fp16":
        return {}
    why = "Not used at FP16: half precision keeps a floating-point exponent per value, with no scales to choose."
    return {"a1_granularity": why, "a1_scheme": why}


def act1_instruments(s: State) -> list:
    cfg = config(s)
    speedup = cfg.latency_s("fp16") / cfg.latency_s()
    over = cfg.size > S.size_budget_bytes
    parts = [metric_grid(
        M["a1_drop"].show(cfg.drop, "danger" if cfg.drop >= S.collapse_drop else "warn" if cfg.drop > 0.01
                          else "good", f"from {fmt(MODELS[cfg.model][3], 'pct')} in FP32; representative (est)"),
        M["a1_size"].show(cfg.size, "warn" if over else "good", f"budget {fmt(S.size_budget_bytes, 'B')}"),
        M["a1_latency"].show(cfg.latency_s(), note="memory-bound" if cfg.memory_bound else "compute-bound"),
        M["a1_speedup"].show(speedup, note=f"on {device(cfg.context).name}"),
        M["a1_top1"].show(cfg.top1),
        M["a1_shrink"].show(cp.weight_bytes(cfg.params, 32) / cfg.size,
                            note=f"FP32 is {fmt(cp.weight_bytes(cfg.params, 32), 'B')}"),
    )]
    if cfg.drop >= S.collapse_drop:
        parts.append(failure(F["a1_collapse"],
                             f"{MODELS[cfg.model][0]} loses {fmt(cfg.drop, 'pp')} of top-1. Give each channel its "
                             "own scale, train with quantization in the loop, or use more bits."))
    if over:
        parts.append(failure(F["a1_over_budget"],
                             f"{fmt(cfg.size, 'B')} is over the team's {fmt(S.size_budget_bytes, 'B')} target by "
                             f"{fmt(cfg.size - S.size_budget_bytes, 'B')}. Fewer bits or a smaller network fit."))
    parts.append(act1_chart(cfg))
    parts.append(act1_callout(cfg, speedup))
    return parts


def act1_callout(cfg: Config, speedup: float):
    dev = device(cfg.context)
    bound = "memory" if cfg.memory_bound else "compute"
    assumed = (f" The FP16 rate is an assumption ({fmt(S.phone_fp16_share, 'x')} the INT8 figure): Apple "
               "publishes one Neural Engine rate." if cfg.context == "mobile" else "")
    return callout("info", f"Why {fmt(speedup, 'x')} and not the bit ratio", prose(
        f"At batch 1 on the {dev.name}, this model is **{bound}-bound**: streaming its "
        f"{fmt(cfg.size, 'B')} takes {fmt(cfg.size / dev.mem_bw, 's')}, the arithmetic "
        f"{fmt(MODELS[cfg.model][2] / (peak_ops(cfg.context, cfg.fmt) * S.utilisation), 's')} at "
        f"{fmt(S.utilisation, 'pct')} of peak. Fewer bits shrink the first term; only a faster integer rate "
        "shrinks the second, and INT4 runs at the INT8 rate here." + assumed))


SIZE_TICKS = (0.08, 0.2, 0.4, 1.0, 2.0)  # x-axis ticks as multiples of the budget: 2, 5, 10, 25, 50 MB


def act1_chart(cfg: Config):
    rows = act1_points()
    label = {"per_channel": "per channel", "per_tensor": "per tensor"}
    traces = []
    for model, color in (("resnet50", "series1"), ("mobilenetv2", "series2")):
        mine = [r for r in rows if r[0] == model]
        traces.append(ch.scatter(MODELS[model][0], [r[4] for r in mine], [r[5] * S.pp for r in mine], color,
                                 [f"{FORMATS[r[1]][0]} {label[r[2]]} {r[3].upper()}: {fmt(r[5], 'pct')}"
                                  for r in mine]))
    traces.append(ch.frontier("Frontier", [(r[4], r[5] * S.pp) for r in rows]))
    traces.append(ch.point("Your setting", cfg.size, cfg.top1 * S.pp, "accent", "star"))
    shape, note = ch.vline(S.size_budget_bytes, "warn", "budget", log=True)
    ticks = [m * S.size_budget_bytes for m in SIZE_TICKS]
    figure = ch.figure(traces, x=ch.axis("Model size", "log", **ch.ticks_at(ticks, lambda v: fmt(v, "B"))),
                       y=ch.axis("Top-1 accuracy (%)"), shapes=[shape], annotations=[note])
    front = ch.pareto_front([(r[4], r[5]) for r in rows])
    summary = (f"Every setting of both models, by size and top-1 (representative accuracy values, estimates "
               f"anchored on the cited papers). The frontier runs through {len(front)} points; "
               f"your setting is {fmt(cfg.size, 'B')} at {fmt(cfg.top1, 'pct')}. Collapsed settings sit near zero.")
    table = [(MODELS[r[0]][0], FORMATS[r[1]][0], "—" if r[1] == "fp16" else label[r[2]],
              "—" if r[1] == "fp16" else r[3].upper(), fmt(r[4], "B"), fmt(r[5], "pct")) for r in rows]
    return chart("a1_frontier", "Accuracy against size: the compression frontier", figure, summary,
                 table=(("Model", "Format", "Scales", "Scheme", "Size", "Top-1"), table))


def act1_math(s: State):
    cfg = config(s)
    dev = device(cfg.context)
    return math_peek("The governing equations · Act I", (
        Equation(r"W = \frac{P\,b}{8}", "Bytes of *P* weights at *b* bits each."),
        Equation(r"t = \max\!\left(\frac{W}{B},\ \frac{F}{R_{\text{fmt}}\,u}\right)",
                 "Batch-1 latency: stream the weights at bandwidth *B*, or do *F* operations at *u* of the "
                 "format's peak *R*, whichever is slower."),
        Equation(r"q_{\max} = 2^{b-1}-1,\qquad e_{\max} = \frac{1}{4\,q_{\max}}\ \text{of the range}",
                 f"Symmetric rounding: {fmt(cp.symmetric_levels(8), 'int')} levels each side at INT8, "
                 f"{fmt(cp.symmetric_levels(4), 'int')} at INT4; the worst error is half a step."),
    ), rows=(
        ("Parameters, *P*", fmt(cfg.params, "int")),
        ("Operations per image, *F*", fmt(MODELS[cfg.model][2], "FLOP")),
        ("Bandwidth, *B*", fmt(dev.mem_bw, "GB/s") + (" (assumed)" if "mem_bw" in dev.assumed else "")),
        (f"Peak at {FORMATS[cfg.fmt][0]}, *R*", fmt(peak_ops(cfg.context, cfg.fmt), "OP/s")),
        ("Utilisation, *u*", fmt(S.utilisation, "pct") + " (assumed)"),
        *((f"FP16 / INT8 peak, {device(c).name}", f"{fmt(peak_ops(c, 'fp16'), 'OP/s')} / "
           f"{fmt(peak_ops(c, 'int8'), 'OP/s')}" + (" (FP16 assumed)" if c == "mobile" else ""))
          for c in CONTEXT.values),
        ("Worst rounding error, INT8", fmt(cp.rounding_error_of_range(8), "pct")),
    ), sources=(
        C.REGISTRY["RESNET50_PARAMS"].source, C.REGISTRY["MOBILENETV2_PARAMS"].source,
        cite("krishnamoorthi2018", "per-channel INT8 post-training quantization within 2 % of floating point"),
        cite("wu2020", "INT8 within 1 % of FP32 for every network studied, MobileNets included"),
        cite("nagel2019", "per-channel far better than per-tensor on MobileNetV2"),
        "The accuracy table's cells are representative values anchored on these papers (estimates), not one "
        "paper's measurements.",
        C.REGISTRY["A17_PRO_MEM_BW"].source,
    ))


ACT1 = Act(
    number=1, title="Is INT8 lossless?", minutes="12–15 min",
    stakeholder_role="Mobile Team Lead",
    stakeholder=lambda: (
        f"Our photo app runs ResNet-50, and its FP32 weights are {fmt(cp.weight_bytes(C.RESNET50_PARAMS, 32), 'B')}. "
        f"Product wants the model download under {fmt(S.size_budget_bytes, 'B')}. INT8 is a quarter of the bytes, "
        "but the research team says it will hurt accuracy. Is it lossless, or close enough?"),
    scenario=lambda: (
        "Quantization maps each weight to one of a few integer levels times a scale. Post-training quantization "
        "picks the scales from a small calibration set; quantization-aware training learns with the rounding in "
        "the loop.",
        "The scale can be shared by a whole weight tensor or set separately for every output channel.",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_MODEL, A1_FORMAT, A1_GRANULARITY, A1_SCHEME),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    overridden=a1_overridden,
)

# ---- Act II · Three memory tiers ------------------------------------------------------

TIER_LABEL_STEP = 0.08  # paper units between the staggered budget labels of the frontier chart


def tier_control(name: str, label: str, default: str) -> Choice:
    return Choice(f"a2_{name}", f"{label} tier", tuple(Option(k, v.label) for k, v in VARIANTS.items()),
                  default=default, widget="select")


A2_TIERS = tuple(tier_control(n, lab, d) for (n, lab, _), d in zip(S.tiers, DESIGNS["B"]))
A2_CONTEXT = Slider("a2_context", "Context window (KV cache kept in memory)", unit="tokens", min=256, max=8192,
                    step=256, default=S.context_tokens, fmt="int")


def gb(key: str) -> str:
    return fmt(VARIANTS[key].footprint(S.context_tokens), "GB")


ACT2_PREDICTION = Pick(
    id="a2_predict", act=2,
    prompt=f"The assistant is Llama-3-8B ({fmt(P8, 'int')} parameters). Flagship, mid-range and budget phones "
           f"give it {', '.join(fmt(b, 'GB') for *_, b in S.tiers)}, which must also hold a "
           f"{fmt(S.context_tokens, 'tokens')} KV cache and a {fmt(S.runtime_bytes, 'GB')} runtime. Which plan "
           "fits every tier with a usable model?",
    quantity="the plan that fits all three tiers",
    options=(
        Claim("A", "INT8 everywhere: one model, the safest accuracy.",
              "INT8 weights alone are {w_int8}; with the cache and runtime, {int8} is over even the flagship's "
              "{flagship}."),
        Claim("B", f"INT8 on the flagship, INT4 on the mid-range, INT4 with {PRUNED} structured pruning on the budget "
                   "tier.",
              "Every tier is out of memory: {int8} > {flagship}, {int4} > {mid}, {s50} > {budget}. And halving an "
              "8B model's structure without retraining is not a published result."),
        Claim("C", "INT4 on the flagship, 3-bit on the mid-range, and a 1B-class model at INT4 on the budget tier.",
              "{int4}, {int3} and {one_b}: each under its tier's budget, and the 3-bit model's perplexity "
              "({ppl3}) stays under the team's limit of {limit}."),
        Claim("D", "INT4 on the flagship and the mid-range; a 3B-class model at INT4 on the budget tier.",
              "The mid-range needs {int4} against {mid}, and the 3B model needs {three_b} against {budget}."),
    ),
    decide=act2_answer,
)


def act2_facts() -> dict[str, str]:
    budgets = {n: fmt(b, "GB") for n, _, b in S.tiers}
    return {**budgets, "w_int8": fmt(VARIANTS["8b_int8"].weights, "GB"), "int8": gb("8b_int8"),
            "int4": gb("8b_int4"), "int3": gb("8b_int3"), "s50": gb("8b_int4_s50"), "one_b": gb("1b_int4"),
            "three_b": gb("3b_int4"), "ppl3": fmt(cp.perplexity("int3"), "num"),
            "limit": fmt(S.perplexity_limit, "num"), "dense_u50": gb("8b_int4_u50"),
            "mask_u50": gb("8b_int4_u50m")}


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt="Pruning half of the 8B model's weights (the smallest ones, anywhere in each matrix) and keeping "
           "the usual dense kernels: what happens to its memory and its speed on the phone?",
    options=(
        Claim("A", "Both halve: half the weights, half the bytes and half the multiplies.",
              "Zeros stored in a dense matrix take the same bytes ({dense_u50} on the flagship), and a dense "
              "kernel multiplies them like any other number."),
        Claim("B", "Neither changes: the zeros are still stored and still multiplied. Savings need a sparse "
                   "format and kernels that skip zeros, or pruning that removes whole rows.",
              "Stored dense it stays {dense_u50}; a bitmask format brings it to {mask_u50} only with kernels that "
              "read it. NVIDIA's 2:4 pattern is the hardware-friendly middle: semi-structured, not arbitrary."),
        Claim("C", "Memory halves but speed stays the same.",
              "Dense storage keeps every zero, so memory does not move either."),
        Claim("D", "Speed doubles but memory stays the same.",
              "A dense kernel does not know which values are zero; it does every multiply."),
    ),
    answer_letter="B",
)


def tier_keys(s: State) -> tuple[str, ...]:
    return tuple(s[f"a2_{n}"] for n in TIER_NAMES)


def act2_instruments(s: State) -> list:
    keys, tokens = tier_keys(s), s["a2_context"]
    foot = [VARIANTS[k].footprint(tokens) for k in keys]
    fits = [f <= b for f, (*_, b) in zip(foot, S.tiers)]
    bw = C.A17_PRO_MEM_BW
    rate = [cp.decode_tokens_per_s(VARIANTS[k].weights, VARIANTS[k].kv(tokens), bw) for k in keys]
    cards = [M[f"a2_{n}"].show(f, "good" if ok else "danger", f"of {fmt(b, 'GB')}")
             for f, ok, (n, _, b) in zip(foot, fits, S.tiers)]
    parts = [metric_grid(
        M["a2_oom_tiers"].show(fits.count(False), "danger" if not all(fits) else "good", "of 3"), *cards,
        M["a2_rate_flagship"].show(rate[0], note=f"tokens/s at {fmt(bw, 'GB/s')} (assumed)"),
        M["a2_rate_budget"].show(rate[2], note="tokens/s"),
        M["a2_kv"].show(VARIANTS[keys[0]].kv(tokens), note=f"at {fmt(tokens, 'tokens')}"),
    )]
    if not all(fits):
        over = [f"{lab} needs {fmt(f, 'GB')} of {fmt(b, 'GB')}" for f, ok, (_, lab, b) in zip(foot, fits, S.tiers)
                if not ok]
        parts.append(failure(F["a2_out_of_memory"], "; ".join(over) + ". Fewer bits, a smaller model or a "
                             "shorter context brings a tier under its budget."))
    weak = [f"{lab}: {VARIANTS[k].label}" for k, (_, lab, _) in zip(keys, S.tiers) if not VARIANTS[k].acceptable]
    if weak:
        parts.append(failure(F["a2_quality"], "; ".join(weak) + ". Perplexity above "
                             f"{fmt(S.perplexity_limit, 'num')}, or pruning with no retraining behind it."))
    parts += [act2_chart(keys, tokens), act2_frontier(keys)]
    return parts


def act2_chart(keys: tuple[str, ...], tokens: float):
    names = [lab for _, lab, _ in S.tiers]
    vs = [VARIANTS[k] for k in keys]
    traces = [ch.bars("Weights", names, [v.weights / S.gb for v in vs], "series1"),
              ch.bars("KV cache", names, [v.kv(tokens) / S.gb for v in vs], "series2"),
              ch.bars("Runtime", names, [S.runtime_bytes / S.gb] * len(vs), "muted"),
              ch.scatter("Budget", names, [b / S.gb for *_, b in S.tiers], "danger")]
    traces[-1]["marker"].update(symbol="line-ew-open", size=56, line={"width": 4, "color": "token:danger"})
    figure = ch.figure(traces, x=ch.axis("", "category", tickangle=0), y=ch.axis("Memory (GB)"), stacked=True)
    rows = [(lab, v.label, fmt(v.weights, "GB"), fmt(v.kv(tokens), "GB"), fmt(v.footprint(tokens), "GB"), fmt(b, "GB"))
            for v, (_, lab, b) in zip(vs, S.tiers)]
    summary = "Each bar is one tier's model: weights, KV cache and runtime, against its budget mark. " + "; ".join(
        f"{r[0]} {r[4]} of {r[5]}" for r in rows) + "."
    return chart("a2_tiers", "Memory per tier against its budget", figure, summary,
                 table=(("Tier", "Model", "Weights", "KV cache", "Total", "Budget"), rows))


def act2_frontier(keys: tuple[str, ...]):
    quant = [k for k, v in VARIANTS.items() if v.ppl_key]
    pts = [(VARIANTS[k].footprint(S.context_tokens) / S.gb, VARIANTS[k].perplexity) for k in quant]
    traces = [ch.scatter("Llama-3-8B", [p[0] for p in pts], [p[1] for p in pts], "series1",
                         [f"{VARIANTS[k].label}: {fmt(p[1], 'num')}" for k, p in zip(quant, pts)]),
              ch.frontier("Frontier", pts, maximise=(False, False))]
    shapes, notes = [], []
    for row, (_, lab, b) in enumerate(S.tiers):
        shape, note = ch.vline(b / S.gb, "danger", fmt(b, "GB"))
        # inside the plot, right of its line, staggered so neighbouring labels never overlap
        note.update(y=1 - row * TIER_LABEL_STEP, yanchor="top", xanchor="left")
        shapes.append(shape)
        notes.append(note)
    figure = ch.figure(traces, x=ch.axis("Memory with cache and runtime (GB)", range=[0, max(p[0] for p in pts) * 1.05]),
                       y=ch.axis("Perplexity (lower is better)", "log",
                                 **ch.decade_ticks([p[1] for p in pts], lambda v: fmt(v, "num"))),
                       shapes=shapes, annotations=notes, legend=False)
    summary = ("Llama-3-8B at each weight format, with the three tier budgets as dotted lines: " + ", ".join(
        f"{VARIANTS[k].label} {fmt(p[0] * S.gb, 'GB')} at perplexity {fmt(p[1], 'num')}" for k, p in zip(quant, pts))
        + " (representative perplexities, estimates). Every step down in bits saves memory; below 3 bits the "
        "model collapses.")
    rows = [(VARIANTS[k].label, fmt(p[0] * S.gb, "GB"), fmt(p[1], "num")) for k, p in zip(quant, pts)]
    return chart("a2_frontier", "Memory against quality: the 8B model's frontier", figure, summary,
                 table=(("Variant", "Memory", "Perplexity"), rows))


def act2_math(s: State):
    v = VARIANTS[s["a2_flagship"]]
    tokens = s["a2_context"]
    return math_peek("The governing equations · Act II", (
        Equation(r"M = \frac{P\,(b + 16/g)}{8} + KV + R",
                 "Weights at *b* bits with one FP16 scale per group of *g*, plus the KV cache and runtime *R*."),
        Equation(r"KV = 2\,L\,n_{kv}\,d_{head}\cdot 2\ \text{B}\cdot T",
                 "A key and a value per KV head per layer, in FP16, for *T* tokens."),
        Equation(r"r = \frac{B}{W + KV}",
                 "Generating one token reads every weight and the cache once: batch-1 decoding is memory-bound."),
    ), rows=(
        ("Flagship model", v.label),
        ("Parameters, *P*", fmt(v.params, "int")),
        ("Weights", fmt(v.weights, "GB")),
        ("KV cache", fmt(v.kv(tokens), "GB") + f" at {fmt(tokens, 'tokens')}"),
        ("Runtime, *R*", fmt(S.runtime_bytes, "GB") + " (assumed)"),
        ("Phone bandwidth, *B*", fmt(C.A17_PRO_MEM_BW, "GB/s") + " (assumed)"),
    ), sources=(
        C.REGISTRY["LLAMA3_8B_PARAMS_COUNTED"].source, C.REGISTRY["LLAMA32_1B_PARAMS"].source,
        C.REGISTRY["LLAMA32_3B_PARAMS"].source,
        cite("frantar2022", "INT4 and 3-bit weights with group-wise scales"),
        cite("huang2024", "Llama-3-8B perplexity by bit width; the table's values are representative estimates"),
        cite("mishra2021", "2:4 semi-structured sparsity is what dense tensor cores accelerate"),
    ))


ACT2 = Act(
    number=2, title="Three memory tiers", minutes="15–20 min",
    stakeholder_role="Platform Lead",
    stakeholder=lambda: (
        "We ship one on-device assistant to three phone tiers, built on Llama-3-8B. The OS gives the model "
        f"{', '.join(fmt(b, 'GB') for *_, b in S.tiers)} on the flagship, mid-range and budget phones. The "
        "research team's plan is INT8, INT4, and INT4 with half the model pruned away. Will it fit?"),
    scenario=lambda: (
        "A deployed language model holds more than its weights: the KV cache for the conversation so far and the "
        "runtime's own memory.",
        "Group-wise formats store one scale per group of weights, a fraction of a bit per weight on top.",
    ),
    prediction=ACT2_PREDICTION,
    controls=(*A2_TIERS, A2_CONTEXT),
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="Tier planner",
)

# ---- the whole lab -------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    cfg, keys, tokens = config(s), tier_keys(s), s["a2_context"]
    names = set()
    if cfg.drop >= S.collapse_drop:
        names.add("a1_collapse")
    if cfg.size > S.size_budget_bytes:
        names.add("a1_over_budget")
    if not all(VARIANTS[k].footprint(tokens) <= b for k, (*_, b) in zip(keys, S.tiers)):
        names.add("a2_out_of_memory")
    if not all(VARIANTS[k].acceptable for k in keys):
        names.add("a2_quality")
    return frozenset(names)


def results(s: State) -> dict[str, float | str | bool]:
    cfg, keys, tokens = config(s), tier_keys(s), s["a2_context"]
    foot = [VARIANTS[k].footprint(tokens) for k in keys]
    oom = [n for n, f, (*_, b) in zip(TIER_NAMES, foot, S.tiers) if f > b]
    return {"model": cfg.model, "fmt": cfg.fmt, "granularity": cfg.granularity, "drop_pp": cfg.drop * S.pp,
            "tier_configs": ",".join(keys), "tier_footprints_gb": ",".join(f"{f / S.gb:.3f}" for f in foot),
            "oom_tiers": ",".join(oom) or "none"}


def lab_takeaways() -> list[str]:
    facts = act2_facts()
    return [
        f"Per-channel INT8 post-training quantization costs ResNet-50 about {fmt(act1_truth(), 'pp')} of top-1: "
        f"not lossless, but close. The same scheme with one scale per tensor costs MobileNetV2 "
        f"{act1_facts()['mnv2_pt']}: granularity, not bit count, decides.",
        "Fewer bits always buy bytes; they buy time only where the bytes set the time. Batch-1 convolution "
        "on a fast accelerator is often compute-bound, while token-by-token decoding is memory-bound.",
        f"Counting the whole footprint, Llama-3-8B needs {facts['int8']} at INT8 (over an {facts['flagship']} "
        f"budget), {facts['int4']} at INT4 and {facts['int3']} at 3 bits; no 8B variant fits {facts['budget']}, "
        f"where a 1B-class model at INT4 needs {facts['one_b']}.",
        "Unstructured pruning saves nothing on dense kernels: the zeros are stored and multiplied. Savings need "
        "a sparse format and kernels, 2:4 semi-structured sparsity, or structured pruning with retraining.",
    ]


LAB = Lab(
    id="v1_10", volume=1, number=10, title="The Compression Frontier",
    invariant="Fewer bits buy **bytes exactly** and **time only where bytes set it**; accuracy depends on how "
              "the scales are chosen, and a model fits only with its cache and runtime counted.",
    minutes="30–35 min", chapter="Model Optimizations", url="vol1/10-compression-frontier/",
    reading=(
        "**Quantization**: scales, zero points, symmetric grids; per-tensor and per-channel; PTQ and QAT.",
        "**Pruning**: unstructured, semi-structured (2:4) and structured sparsity, and what hardware accelerates.",
        "**The roofline**: when fewer bytes make a model faster.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "**V1-08 The Training Memory Budget**: weights, gradients and optimizer state in bytes.",
        "**V1-11 The Roofline**: the ridge point that decides whether fewer bytes mean less time.",
        "**V1-16 The Capstone**: a 7B model's footprint on each deployment tier.",
    ),
    context_from=TRACK,
)
