"""V2-05's two charts: MFU against data-parallel GPUs (Act I) and memory and bubble by pipeline depth
(Act II). Each takes the model's numbers and returns the framework's chart component."""

from __future__ import annotations

from pylabs.framework import chart, fmt
from pylabs.framework import charts as ch
from pylabs.labs.vol2.v2_05_model import DEFAULT_FABRIC, GB, HBM, PCT, DPRun, Layout, S, mfu_or_none
from pylabs.physics import constants as C

COUNTS = [2 ** k for k in range(3, 11)]   # the GPU counts the Act I chart plots (8 to 1,024)

TOP_LEGEND = {"y": 1.02, "yanchor": "bottom", "x": 0, "xanchor": "left"}


def act1_chart(run: DPRun, yours: list[float | None]):
    """MFU over the GPU counts for the student's settings (``yours``, one per COUNTS), and for the
    scenario's rails when the student picked another network."""
    counts = COUNTS
    rails = [mfu_or_none(DPRun(run.params, n, run.batch, DEFAULT_FABRIC[0], C.IB_NDR_BW, run.zero, run.overlap))
             for n in counts]
    pct = [None if v is None else PCT * v for v in yours]
    traces = [ch.line("Your settings", counts, pct, "series1", markers=True)]
    other = (run.nics, run.nic_bw) != (DEFAULT_FABRIC[0], C.IB_NDR_BW)
    if other:
        traces.append(ch.line(f"{DEFAULT_FABRIC[0]} NDR rails per node", counts, [None if v is None else PCT * v for v in rails],
                              "series2", dash="dash"))
    if mfu_or_none(run) is not None:
        traces.append(ch.point("Current setting", run.gpus, PCT * run.mfu, "accent"))
    shape, note = ch.hline(PCT * S.mfu, "muted", f"compute phase alone: {fmt(S.mfu, 'pct1')}")
    x = ch.axis("Data-parallel GPUs", "log", tickvals=counts, ticktext=[str(n) for n in counts])
    figure = ch.figure(traces, x=x,
                       y=ch.axis("MFU (%)", range=[0, PCT * S.mfu * 1.15]), shapes=[shape], annotations=[note])
    figure["layout"]["legend"].update(TOP_LEGEND)
    shown = [(n, v) for n, v in zip(counts, yours) if v is not None]
    summary = (f"With a fixed batch of {fmt(run.batch, 'tokens')}, MFU goes from {fmt(shown[0][1], 'pct1')} on "
               f"{shown[0][0]} GPUs to {fmt(shown[-1][1], 'pct1')} on {shown[-1][0]}." if shown else
               f"No GPU count between {counts[0]:,} and {counts[-1]:,} runs this model with this ZeRO stage.")
    if shown and other and rails[counts.index(shown[-1][0])] is not None:
        summary += (f" With the scenario's {DEFAULT_FABRIC[0]} NDR rails per node it would be "
                    f"{fmt(rails[counts.index(shown[-1][0])], 'pct1')} there.")
    rows = [(str(n), "—" if v is None else fmt(v, "pct1"), "—" if r is None else fmt(r, "pct1"))
            for n, v, r in zip(counts, yours, rails)]
    return chart("a1_mfu_scaling", "MFU against data-parallel GPUs (fixed global batch)", figure, summary,
                 table=(("GPUs", "Your settings", f"{DEFAULT_FABRIC[0]} NDR rails"), rows))



def act2_chart(lay: Layout):
    rows = [x for x in (Layout(lay.tp, 2 ** k, lay.distopt, lay.batch) for k in range(8)) if not x.problem()]
    names = [f"{x.pp}" + (" ◀" if x.pp == lay.pp else "") for x in rows]
    parts = (("Weights + gradients", "series1", lambda x: x.weights_grads),
             ("Adam state", "series2", lambda x: x.state - x.weights_grads),
             ("Activations", "series3", lambda x: x.activations))
    traces = [ch.bars(label, names, [part(x) / GB for x in rows], color) for label, color, part in parts]
    bubble = ch.line("Bubble (right axis)", names, [PCT * x.bubble for x in rows], "ink", markers=True)
    traces.append(ch.on_right(bubble))
    top = max([HBM] + [x.memory for x in rows]) / GB * 1.15  # the tallest bar and its label fit
    hbm, hbm_note = ch.hline(HBM / GB, "danger", f"{fmt(HBM, 'B')} HBM")
    # the ceiling sits halfway up (right axis), well clear of the 80 GB line and its label
    top2 = max([2 * PCT * S.bubble_limit] + [PCT * x.bubble * 1.1 for x in rows])
    limit, limit_note = ch.hline(PCT * S.bubble_limit, "muted", f"bubble ceiling {fmt(S.bubble_limit, 'pct')}")
    limit["yref"] = limit_note["yref"] = "y2"
    # totals as bare numbers (the axis says GB) so eight labels fit side by side on a phone
    totals = [{"x": i, "y": x.memory / GB, "text": fmt(x.memory / GB, "num"), "showarrow": False,
               "yanchor": "bottom", "font": {"size": 10}} for i, x in enumerate(rows)]
    figure = ch.figure(traces, x=ch.axis(f"Pipeline stages, PP (at TP {lay.tp})", "category"),
                       y=ch.axis("GB per GPU", range=[0, top]), stacked=True, shapes=[hbm, limit],
                       annotations=[hbm_note, limit_note, *totals], height=S.chart_height)
    figure = ch.with_right_axis(figure, {"title": {"text": f"Bubble (%), ceiling {fmt(S.bubble_limit, 'pct')}"},
                                         "range": [0, top2], "dtick": top2 / 4, "tickformat": ".0f", "zeroline": False})
    figure["layout"]["legend"].update(TOP_LEGEND, traceorder="normal")
    bubbles = [x.bubble for x in rows] or [0.0]
    summary = (f"At TP {lay.tp} the {len(rows)} valid pipeline depths need from {fmt(rows[-1].memory, 'B')} "
               f"to {fmt(rows[0].memory, 'B')} per GPU; the bubble ranges from {fmt(min(bubbles), 'pct')} "
               f"to {fmt(max(bubbles), 'pct')}." if rows else
               f"No pipeline depth makes a valid layout at TP {lay.tp}.")
    table = [(f"PP {x.pp}", str(x.dp), str(x.m), fmt(x.memory, "B"), fmt(x.bubble, "pct"),
              fmt(x.mfu, "pct1") if x.fits else "does not fit")
             for x in rows]
    return chart("a2_memory", "Memory per GPU and pipeline bubble by pipeline depth", figure, summary,
                 table=(("Layout", "DP", "m", "Memory", "Bubble", "MFU"), table))
