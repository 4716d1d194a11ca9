"""V1-11's chart helpers and its Act II charts: decode throughput against the batch, and the decode
step's kernels on the roofline. A batch that does not fit the device's memory is no point on a chart
and no number in a table: it cannot run.
"""

from __future__ import annotations

import math

from pylabs.framework import chart, fmt
from pylabs.framework.formats import plural
from pylabs.framework import charts as ch
from pylabs.labs.vol1.contexts import device
from pylabs.labs.vol1.v1_11_model import CONTEXTS, PEAKS, PRECISIONS, SHORT, Decode, S, gemm, precision_on, rate_unit
from pylabs.physics import constants as C
from pylabs.physics.devices import ridge_point
from pylabs.physics.kernels_ai import Kernel

PRECISION_SHORT = {"fp32": "FP32", "bf16": "16-bit", "int8": "INT8"}
BATCHES = [2.0 ** e for e in range(10)]
NO_RUN = "—"  # a batch that does not fit has no speed and no step time


def short_rate(value: float) -> str:
    """A rate tick without its unit (the axis title names it): 1e12 -> '1 T'."""
    return fmt(value, "OP/s").replace("OP/s", "").strip()


# ---- Act I · the kernels on the device's roofline ------------------------------------------


def reference_kernels(ctx: str, p: str, n: float, elementwise: Kernel, fused: bool) -> list[tuple]:
    """The GEMV, the square GEMM and the elementwise chain beside the student's GEMM."""
    return [("GEMV", gemm(ctx, p, 1, n, n), "series3", "diamond"),
            ("Square GEMM", gemm(ctx, p, n, n, n), "good", "square"),
            ("Elementwise" + (" (fused)" if fused else ""), elementwise, "warn", "triangle-up")]


def roofs(ctx: str, p: str, span: tuple[float, float]) -> list[dict]:
    """The device's roof at the precision, its other precisions (dotted), the other devices' (dashed)."""
    bw = device(ctx).mem_bw
    out = [ch.roof(f"{SHORT[ctx]} · {PRECISION_SHORT[p]}", PEAKS[ctx][p], bw, span, "series1")]
    others = [q for q in PEAKS[ctx] if q != p]
    for q in others:
        roof = ch.roof(f"{SHORT[ctx]} · {' and '.join(PRECISION_SHORT[o] for o in others)}", PEAKS[ctx][q], bw,
                       span, "muted", dash="dot")
        roof.update(legendgroup="other", showlegend=q == others[0])
        out.append(roof)
    for other, (color, dash) in zip((c for c in CONTEXTS if c != ctx), (("series2", "dash"), ("series4", "dashdot"))):
        q = precision_on(other, p)
        out.append(ch.roof(f"{SHORT[other]} · {PRECISION_SHORT[q]}", PEAKS[other][q], device(other).mem_bw, span,
                           color, dash=dash))
    return out


def act1_chart(ctx: str, p: str, n: float, fused: bool, kern: Kernel, elementwise: Kernel):
    """The student's GEMM with a GEMV, a square GEMM and the elementwise chain on the device's roofline."""
    refs = reference_kernels(ctx, p, n, elementwise, fused)
    widest = max(kern.ai, *(r[1].ai for r in refs))
    span = (S.roof_span[0], max(S.roof_span[1], 10.0 ** math.ceil(math.log10(widest))))
    points = [marker(name, k, color, symbol, rate_unit(p)) for name, k, color, symbol in refs]
    points.append(ch.point("Your GEMM", kern.ai, kern.rate, "accent"))
    figure = ch.roofline_figure(roofs(ctx, p, span), points, span, short_rate,
                                x_title="Arithmetic intensity (op/B)", y_title="Attainable rate (op/s)")
    summary = (f"On the {SHORT[ctx]} in {PRECISIONS[p][0]} the roof turns at {fmt(kern.ridge, 'num')} op/B. "
               f"Your GEMM sits at {fmt(kern.ai, 'num')} op/B with a ceiling of {fmt(kern.rate, rate_unit(p))} "
               f"({fmt(kern.mfu, 'pct')} of peak); the elementwise chain sits at {fmt(elementwise.ai, 'num')} op/B.")
    rows = [(name, fmt(k.ai, "num"), fmt(k.rate, rate_unit(p)), fmt(k.mfu, "pct"), k.regime)
            for name, k in [("Your GEMM", kern)] + [(r[0], r[1]) for r in refs]]
    return chart("a1_roofline", f"Roofline of the {SHORT[ctx]} with your kernels", figure, summary,
                 table=(("Kernel", "op/B", "Ceiling", "Share of peak", "Bound"), rows))


# ---- Act II · decode against the batch, and on the roofline ---------------------------------


def act2_throughput_chart(d: Decode, context: str):
    runs = [d.at(b) for b in BATCHES]
    fitting = [(b, r) for b, r in zip(BATCHES, runs) if not r.oom]
    alone = d.at(S.act2_batch_low).tok_s
    traces = [ch.line("Linear in the batch", BATCHES, [b * alone for b in BATCHES], "muted", dash="dot")]
    if fitting:
        traces.append(ch.line("Roofline model (batches that fit)", [b for b, _ in fitting],
                              [r.tok_s for _, r in fitting], "series1", markers=True))
    if not d.oom:
        traces.append(ch.point("Your setting", d.batch, d.tok_s, "accent"))
    ceiling = d.peak_ops / (2 * C.LLAMA3_8B_PARAMS_COUNTED)
    shape_, note = ch.hline(ceiling, "danger", "compute ceiling", log=True)
    values = [*(b * alone for b in BATCHES), ceiling]
    ticks = BATCHES[::2]
    figure = ch.figure(traces, x=ch.axis("Sequences decoded together", "log", tickvals=ticks,
                                         ticktext=[f"{b:.0f}" for b in ticks]),
                       y=ch.axis("Tokens per second", "log", **ch.decade_ticks(values)),
                       shapes=[shape_], annotations=[note])
    return chart("a2_throughput", "Decode throughput against batch", figure,
                 throughput_summary(runs, context, ceiling),
                 table=(("Batch", "Tokens/s", "Each sequence vs alone", "Step", "Memory", "Fits"),
                        throughput_rows(runs)))


def throughput_summary(runs: list[Decode], context: str, ceiling: float) -> str:
    fitting = [(b, r) for b, r in zip(BATCHES, runs) if not r.oom]
    if not fitting:
        return (f"No batch fits the {SHORT[context]}'s memory with these weights and this context: one sequence "
                f"already needs {fmt(runs[0].memory, 'GB')}.")
    batch, best = fitting[-1]
    limit = ", the largest batch that fits" if len(fitting) < len(runs) else ""
    # what bends the curve: the caches while the steps stay memory-bound, the peak once a step is not
    why = ("as the KV caches grow; the compute ceiling is" if best.ai < best_ridge(best) else
           "as the KV caches grow, until the step reaches the compute ceiling of")
    return (f"On the {SHORT[context]} throughput rises from {fmt(runs[0].tok_s, 'tokens/s')} at batch 1 to "
            f"{fmt(best.tok_s, 'tokens/s')} at batch {fmt(batch, 'int')}{limit}, below the linear line {why} "
            f"{fmt(ceiling, 'tokens/s')}.")


def best_ridge(d: Decode) -> float:
    return ridge_point(d.peak_ops, d.mem_bw)


def throughput_rows(runs: list[Decode]) -> list[tuple[str, ...]]:
    return [(fmt(b, "int"), NO_RUN if r.oom else fmt(r.tok_s, "tokens/s"), NO_RUN if r.oom else fmt(r.per_sequence, "pct"),
             NO_RUN if r.oom else fmt(r.step_s, "s"), fmt(r.memory, "GB"), "no" if r.oom else "yes")
            for b, r in zip(BATCHES, runs)]


def act2_roofline_chart(d: Decode, context: str):
    span = S.roof_span
    b_w = d.weight_bytes / C.LLAMA3_8B_PARAMS_COUNTED
    weights, attention, step = d.kernels()
    roofs = [ch.roof(f"{SHORT[context]} · 16-bit", d.peak_ops, d.mem_bw, span, "series1")]
    points = [marker("Weight matmuls", weights, "series3", "diamond"),
              marker("Attention (KV cache)", attention, "warn", "triangle-up"),
              ch.point("Decode step", step.ai, step.rate, "accent")]
    figure = ch.roofline_figure(roofs, points, span, short_rate, x_title="Arithmetic intensity (FLOP/B)",
                                y_title="Attainable rate (FLOP/s)")
    runs = ("It does not fit the memory, so the step cannot run; as drawn, " if d.oom else "")
    summary = (f"{runs}at batch {fmt(d.batch, 'int')} the weight matmuls do {fmt(weights.ai, 'num')} FLOP/B "
               f"({plural(b_w, 'byte')} per weight), attention over the cache {fmt(attention.ai, 'num')} FLOP/B, "
               f"and the whole step {fmt(step.ai, 'num')} FLOP/B against the {SHORT[context]}'s ridge of "
               f"{fmt(step.ridge, 'num')}.")
    rows = [(name, fmt(k.ai, "num"), fmt(k.rate, "FLOP/s"), k.regime)
            for name, k in (("Weight matmuls", weights), ("Attention (KV cache)", attention),
                            ("Decode step", step))]
    return chart("a2_roofline", "The decode step's kernels on the roofline", figure, summary[0].upper() + summary[1:],
                 table=(("Kernel", "FLOP/B", "Ceiling", "Bound"), rows))


def marker(name: str, k: Kernel, color: str, symbol: str, unit: str = "FLOP/s") -> dict:
    """A kernel on a roofline: one labelled marker at (intensity, ceiling), its rate in ``unit``."""
    per_byte = "op/B" if unit == "OP/s" else "FLOP/B"
    trace = ch.scatter(name, [k.ai], [k.rate], color, text=[f"{name}: {fmt(k.ai, 'num')} {per_byte}, "
                                                                f"{fmt(k.rate, unit)}"], size=11)
    trace["marker"]["symbol"] = symbol
    return trace
