"""V1-10's charts: Act I's accuracy against size for every setting of both models (each cell marked
with what it rests on: a torchvision or Krishnamoorthi 2018 measurement, or an estimate), and Act II's memory per tier and
the 8B model's memory against quality.
"""

from __future__ import annotations

from pylabs.framework import chart, fmt
from pylabs.framework import charts as ch
from pylabs.labs.vol1.v1_10_model import FORMATS, MODELS, VARIANTS, Config, S, act1_points
from pylabs.physics import compression as cp
from pylabs.physics import units as U

BASIS = {cp.MEASURED: "torchvision, measured", cp.KRISHNAMOORTHI: "Krishnamoorthi 2018, measured",
         cp.ESTIMATE: "representative (est)", cp.UNSOURCED: "est, no direct source"}


SIZE_TICKS = (0.08, 0.2, 0.4, 1.0, 2.0)  # x-axis ticks as multiples of the budget: 2, 5, 10, 25, 50 MB
BUDGET_LABEL_Y = 0.4  # paper units: the budget line's label, in the empty band under the accurate points


def act1_chart(cfg: Config):
    rows = act1_points()
    label = {"per_channel": "per channel", "per_tensor": "per tensor"}
    traces = []
    for model, color in (("resnet50", "series1"), ("mobilenetv2", "series2")):
        mine = [r for r in rows if r.model == model]
        traces.append(ch.scatter(MODELS[model][0], [r.size for r in mine], [r.top1 * U.PERCENT for r in mine], color,
                                 [f"{FORMATS[r.fmt][0]} {label[r.granularity]} {r.scheme.upper()}: "
                                  f"{fmt(r.top1, 'pct')} ({BASIS[r.basis]})" for r in mine]))
    traces.append(ch.frontier("Frontier", [(r.size, r.top1 * U.PERCENT) for r in rows]))
    traces.append(ch.point("Your setting", cfg.size, cfg.top1 * U.PERCENT, "accent", "star"))
    shape, note = ch.vline(S.size_budget_bytes, "warn", "budget", log=True)
    # inside the plot, right of its line, below the FP32-level points: clear of the legend
    note.update(y=BUDGET_LABEL_Y, yanchor="middle", xanchor="left")
    ticks = [m * S.size_budget_bytes for m in SIZE_TICKS]
    figure = ch.figure(traces, x=ch.axis("Model size", "log", **ch.ticks_at(ticks, lambda v: fmt(v, "B"))),
                       y=ch.axis("Top-1 accuracy (%)"), shapes=[shape], annotations=[note])
    front = ch.pareto_front([(r.size, r.top1) for r in rows])
    n = {b: sum(r.basis == b for r in rows) for b in BASIS}
    summary = (f"Every setting of both models, by size and top-1: {fmt(n[cp.MEASURED], 'int')} cells are torchvision's "
               f"measurements and {fmt(n[cp.KRISHNAMOORTHI], 'int')} Krishnamoorthi's (2018), the rest estimates "
               f"({fmt(n[cp.UNSOURCED], 'int')} with no direct source). The frontier runs through {len(front)} "
               f"points; your setting is {fmt(cfg.size, 'B')} at {fmt(cfg.top1, 'pct')}. Collapsed settings sit "
               "near zero.")
    table = [(MODELS[r.model][0], FORMATS[r.fmt][0], "—" if r.fmt == "fp16" else label[r.granularity],
              "—" if r.fmt == "fp16" else r.scheme.upper(), fmt(r.size, "B"),
              f"{fmt(r.top1, 'pct')} ({BASIS_SHORT[r.basis]})") for r in rows]
    return chart("a1_frontier", "Accuracy against size: the compression frontier", figure, summary,
                 table=(("Model", "Format", "Scales", "Scheme", "Size", "Top-1"), table))


BASIS_SHORT = {cp.MEASURED: "torchvision", cp.KRISHNAMOORTHI: "Krishnamoorthi 2018", cp.ESTIMATE: "est",
               cp.UNSOURCED: "est, no direct source"}


TIER_LABEL_STEP = 0.08  # paper units between the staggered budget labels of the frontier chart


def act2_chart(keys: tuple[str, ...], tokens: float):
    names = [lab for _, lab, _ in S.tiers]
    vs = [VARIANTS[k] for k in keys]
    traces = [ch.bars("Weights", names, [v.weights / U.B_PER_GB for v in vs], "series1"),
              ch.bars("KV cache", names, [v.kv(tokens) / U.B_PER_GB for v in vs], "series2"),
              ch.bars("Runtime", names, [S.runtime_bytes / U.B_PER_GB] * len(vs), "muted"),
              ch.scatter("Budget", names, [b / U.B_PER_GB for *_, b in S.tiers], "danger")]
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
    pts = [(VARIANTS[k].footprint(S.context_tokens) / U.B_PER_GB, VARIANTS[k].perplexity) for k in quant]
    traces = [ch.scatter("Llama-3-8B", [p[0] for p in pts], [p[1] for p in pts], "series1",
                         [f"{VARIANTS[k].label}: {fmt(p[1], 'num')}" for k, p in zip(quant, pts)]),
              ch.frontier("Frontier", pts, maximise=(False, False))]
    shapes, notes = [], []
    for row, (_, _, b) in enumerate(S.tiers):
        shape, note = ch.vline(b / U.B_PER_GB, "danger", fmt(b, "GB"))
        # inside the plot, right of its line, staggered so neighbouring labels never overlap
        note.update(y=1 - row * TIER_LABEL_STEP, yanchor="top", xanchor="left")
        shapes.append(shape)
        notes.append(note)
    figure = ch.figure(traces, x=ch.axis("Memory with cache and runtime (GB)", range=[0, max(p[0] for p in pts) * 1.05]),
                       y=ch.axis("Perplexity (lower is better)", "log",
                                 **ch.decade_ticks([p[1] for p in pts], lambda v: fmt(v, "num"))),
                       shapes=shapes, annotations=notes, legend=False)
    summary = ("Llama-3-8B at each weight format, with the three tier budgets as dotted lines: " + ", ".join(
        f"{VARIANTS[k].label} {fmt(p[0] * U.B_PER_GB, 'GB')} at perplexity {fmt(p[1], 'num')}" for k, p in zip(quant, pts))
        + " (representative perplexities, estimates). Every step down in bits saves memory; below 3 bits the "
        "model collapses.")
    rows = [(VARIANTS[k].label, fmt(p[0] * U.B_PER_GB, "GB"), fmt(p[1], "num")) for k, p in zip(quant, pts)]
    return chart("a2_frontier", "Memory against quality: the 8B model's frontier", figure, summary,
                 table=(("Variant", "Memory", "Perplexity"), rows))
