"""The charts of V1-06 (The Quadratic Wall): memory against prompt length (Act I) and time per token
against depth (Act II). Numbers in, chart components out; the lab module draws them."""

from __future__ import annotations

from pylabs.framework import chart, fmt
from pylabs.framework import charts as ch
from pylabs.labs.vol1.v1_06_model import SHORT, S, default_launch, max_context, memory, token
from pylabs.physics import units as U
from pylabs.physics.devices import BY_CONTEXT, Device


def act1_chart(dev: Device, seq: float, flash: bool):
    """Weights, KV cache, scores and total against prompt length, with the device's memory."""
    xs = [2.0 ** (k / 4) for k in range(36, 69)]
    mems = [memory(n, flash) for n in xs]
    naive = [memory(n, False).scores_b / U.B_PER_GB for n in xs]
    traces = [ch.line("Weights", xs, [m.weights_b / U.B_PER_GB for m in mems], "series3"),
              ch.line("KV cache", xs, [m.kv_b / U.B_PER_GB for m in mems], "series2"),
              ch.line("Scores, standard attention" + (" (not stored)" if flash else ""), xs, naive,
                      "muted" if flash else "series1", dash="dot" if flash else "solid"),
              ch.line("Total", xs, [m.total_b / U.B_PER_GB for m in mems], "ink"),
              ch.point("This prompt", seq, memory(seq, flash).total_b / U.B_PER_GB, "accent")]
    shape, note = ch.hline(dev.mem_bytes / U.B_PER_GB, "danger", f"{fmt(dev.mem_bytes, 'B')} memory", log=True)
    note.update(x=0, xanchor="left")
    ticks = [2.0 ** k for k in (9, 11, 13, 15, 17)]
    figure = ch.figure(traces, x=ch.axis("Prompt length (tokens)", "log", **ch.ticks_at(ticks, token_tick)),
                       y=ch.axis("Gigabytes", "log", **ch.decade_ticks([min(naive), max(naive)])),
                       shapes=[shape], annotations=[note], height=S.chart_height_px)
    cap = max_context(dev, flash)
    summary = (f"At {fmt(seq, 'tokens')} the model needs {fmt(memory(seq, flash).total_b, 'B')} against "
               f"{fmt(dev.mem_bytes, 'B')}; the score line is twice as steep as the KV line on these log axes, "
               f"and the longest prompt that fits is {fmt(cap, 'tokens')}.")
    rows = [(fmt(n, "tokens"), fmt(m.weights_b, "B"), fmt(m.kv_b, "B"), fmt(m.scores_b, "B"), fmt(m.total_b, "B"))
            for n, m in zip(xs[::4], mems[::4])]
    return chart("a1_memory", "Memory against prompt length", figure, summary,
                 table=(("Prompt", "Weights", "KV cache", "Scores", "Total"), rows))


def act2_chart(dev: Device, layers: float, params: float, launch: float, graph: bool, depths: list[int]):
    """Time per token against depth on the chosen device and the other one, with the budget."""
    other = BY_CONTEXT["cloud" if dev.key == "edge" else "edge"]
    mine = [token(dev, L, params, launch).total_s * U.MS_PER_S for L in depths]
    their_launch = S.launch_graph_s if graph else default_launch(other.key)
    theirs = [token(other, L, params, their_launch).total_s * U.MS_PER_S for L in depths]
    floor = token(dev, depths[0], params, launch).streaming_s * U.MS_PER_S
    now = token(dev, layers, params, launch).total_s * U.MS_PER_S
    traces = [ch.line(SHORT[dev.key], depths, mine, "series1"),
              ch.line(f"{SHORT[other.key]} at {fmt(their_launch, 'us')} per kernel", depths, theirs, "series2",
                      dash="dash"),
              ch.line(f"{SHORT[dev.key]}: reading the weights only", depths, [floor] * len(depths), "muted",
                      dash="dot"),
              ch.point("Your depth", layers, now, "accent")]
    shape, note = ch.hline(S.sla_s * U.MS_PER_S, "warn", f"{fmt(S.sla_s, 's')} budget", log=True)
    note.update(x=1, xanchor="right", yanchor="bottom")  # above the line at the deep end, clear of "Your depth"
    values = mine + theirs + [floor, S.sla_s * U.MS_PER_S]
    figure = ch.figure(traces, x=ch.axis("Depth L (layers), same parameters"),
                       y=ch.axis("Milliseconds per token", "log", **ch.decade_ticks(values, lambda v: f"{v:g}")),
                       shapes=[shape], annotations=[note], height=S.chart_height_px)
    fits = params * S.bytes_per_value <= dev.mem_bytes
    summary = (f"With {fmt(params, 'params')} parameters and {fmt(launch, 'us')} per kernel, a token on the "
               f"{dev.name} {'takes' if fits else 'would take, if its weights fit,'} "
               f"{fmt(mine[0] / U.MS_PER_S, 's')} at {depths[0]} layers and "
               f"{fmt(mine[-1] / U.MS_PER_S, 's')} at {depths[-1]}; reading the weights alone takes "
               f"{fmt(floor / U.MS_PER_S, 's')} at any depth.")
    rows = [(str(L), fmt(a / U.MS_PER_S, "s"), fmt(b / U.MS_PER_S, "s")) for L, a, b in
            zip(depths[::7], mine[::7], theirs[::7])]
    return chart("a2_depth", "Time per token against depth", figure, summary,
                 table=(("Layers", SHORT[dev.key], SHORT[other.key]), rows))


def token_tick(tokens: float) -> str:
    return f"{tokens / U.KIBI:g}K" if tokens >= U.KIBI else f"{tokens:g}"
