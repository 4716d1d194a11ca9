"""The charts of V2-06 (The Bandwidth Invariant): Act I's all-reduce time and bandwidth against the GPU
count, Act II's time of every algorithm against the message size. Numbers in, chart components out."""

from __future__ import annotations

import math

from pylabs.framework import chart, fmt
from pylabs.framework import charts as ch
from pylabs.labs.vol2.v2_06_model import ALGORITHMS, ALPHA, GPU_COUNTS, Sync, naive_s, ring_s
from pylabs.physics import collectives


def tidy(figure: dict) -> dict:
    """The legend stays above the plot, where Plotly makes room for every row it wraps into on a
    phone (below the plot, a fixed share of the plot height, it ran into the axis title at 375 px);
    line labels that sat above the plot move just inside its top edge, clear of the legend."""
    layout = figure["layout"]
    layout["height"] += 60
    for note in layout.get("annotations", []):
        if note.get("yref") == "paper" and note.get("y") == 1:
            note["yanchor"] = "top"
    return figure


def log_ticks(values: list[float], unit: str) -> dict:
    text = [f"{fmt(v, 'num')} s" if unit == "seconds" else fmt(v, unit) for v in values]
    return {"tickvals": values, "ticktext": text}


def time_chart(size: float, p: int, bw: float):
    naive = [naive_s(size, n, bw) for n in GPU_COUNTS]
    piped = [naive_s(size, n, bw, pipelined=True) for n in GPU_COUNTS]
    ring = [ring_s(size, n, bw) for n in GPU_COUNTS]
    figure = ch.figure(
        [ch.line("Naive master, serial", GPU_COUNTS, naive, "danger", markers=True),
         ch.line("Naive master, pipelined", GPU_COUNTS, piped, "warn", dash="dash"),
         ch.line("Ring", GPU_COUNTS, ring, "series1", markers=True),
         ch.point(f"Your setting: {p} GPUs", p, naive_s(size, p, bw), "accent")],
        x=gpu_axis(), y=ch.axis("All-reduce time", "log",
                                **log_ticks([10.0 ** k for k in range(-2, 4)], "seconds")))
    summary = (f"For {fmt(size, 'B')} on {fmt(bw, 'GB/s')} links the ring takes {fmt(ring[0], 's')} at "
               f"{GPU_COUNTS[0]:,} GPUs and {fmt(ring[-1], 's')} at {GPU_COUNTS[-1]:,}; the serial master grows from "
               f"{fmt(naive[0], 's')} to {fmt(naive[-1], 's')}.")
    rows = [(str(n), fmt(a, "s"), fmt(b, "s"), fmt(c, "s"), fmt(a / c, "x"))
            for n, a, b, c in zip(GPU_COUNTS, naive, piped, ring)]
    return chart("a1_time", "All-reduce time against GPU count", tidy(figure), summary,
                 table=(("GPUs", "Naive, serial", "Naive, pipelined", "Ring", "Naive ÷ ring"), rows))


def gpu_axis():
    """Every other GPU count, ending at the largest: five labels fit unrotated at 375 px."""
    ticks = GPU_COUNTS[1::2]
    return ch.axis("GPUs in the all-reduce", "log", tickvals=ticks, ticktext=[f"{n:,}" for n in ticks], tickangle=0)


def bandwidth_chart(size: float, p: int, bw: float):
    rings = [ring_s(size, n, bw) for n in GPU_COUNTS]
    alg = [collectives.algbw(size, t) for t in rings]
    bus = [collectives.busbw(size, t, n) for t, n in zip(rings, GPU_COUNTS)]
    naive_bus = [collectives.busbw(size, naive_s(size, n, bw), n) for n in GPU_COUNTS]
    line, note = ch.hline(bw, "muted", f"link {fmt(bw, 'GB/s')}")
    figure = ch.figure(
        [ch.line("Ring busbw", GPU_COUNTS, bus, "series1", markers=True),
         ch.line("Ring algbw", GPU_COUNTS, alg, "series2", markers=True),
         ch.line("Naive master busbw", GPU_COUNTS, naive_bus, "danger", dash="dash"),
         ch.point(f"Your setting: {p} GPUs", p, collectives.busbw(size, ring_s(size, p, bw), p), "accent")],
        x=gpu_axis(), y=ch.axis("Bandwidth per GPU", range=[0, bw * 1.2],
                                **log_ticks([bw * k / 5 for k in range(6)], "GB/s")),
        shapes=[line], annotations=[note])
    summary = (f"Ring busbw stays between {fmt(min(bus), 'GB/s')} and {fmt(max(bus), 'GB/s')} from "
               f"2 to {GPU_COUNTS[-1]:,} GPUs while its algbw falls from {fmt(alg[0], 'GB/s')} to "
               f"{fmt(alg[-1], 'GB/s')}; the master's busbw collapses to {fmt(naive_bus[-1], 'B/s')}.")
    rows = [(f"{n:,}", fmt(b, "GB/s"), fmt(a, "GB/s"), fmt(m, "GB/s"))
            for n, b, a, m in zip(GPU_COUNTS, bus, alg, naive_bus)]
    return chart("a1_bandwidth", "What a benchmark reports: algbw and busbw", tidy(figure), summary,
                 table=(("GPUs", "Ring busbw", "Ring algbw", "Master busbw"), rows))


def size_chart(x: Sync, shown: list[float]):
    """Every algorithm's time against the message size on the student's GPUs and link; the table lists
    ``shown`` (the workloads, the crossover and the smallest custom size)."""
    sizes = [10.0 ** (3 + k / 8) for k in range(74)]
    dashes = {"rab": "dot", "tree": "dash"}
    traces = [ch.line(name, sizes, [Sync(m, x.gpus, x.bw).time(k) for m in sizes], color,
                      dash=dashes.get(k, "solid")) for k, (name, _, color) in ALGORITHMS.items()]
    traces.append(ch.point(f"Your message · {ALGORITHMS[x.algorithm][0]}", x.message, x.time(), "accent"))
    line, note = ch.vline(x.crossover, "muted", f"ring = tree at {fmt(x.crossover, 'B')}")
    note["x"] = math.log10(x.crossover)  # Plotly places annotations on a log axis by exponent
    figure = ch.figure(
        traces, x=ch.axis("Message size", "log", **log_ticks([10.0 ** k for k in range(3, 13, 3)], "B")),
        y=ch.axis("All-reduce time", "log", **log_ticks([10.0 ** k for k in range(-5, 2, 2)], "s")),
        shapes=[line], annotations=[note])
    rd_below = collectives.rabenseifner_rd_crossover_bytes(x.gpus, ALPHA, x.bw)
    summary = (f"On {x.gpus:,} GPUs at {fmt(x.bw, 'GB/s')} the binomial tree beats the ring below "
               f"{fmt(x.crossover, 'B')}. Recursive doubling is fastest below {fmt(rd_below, 'B')}, halving + "
               "doubling above it, and the ring joins halving + doubling for large messages.")
    rows = [(fmt(m, "B"),) + tuple(fmt(Sync(m, x.gpus, x.bw).time(k), "s") for k in ALGORITHMS) for m in sorted(shown)]
    return chart("a2_sizes", "All-reduce time against message size", tidy(figure), summary,
                 table=(("Message",) + tuple(n for n, _, _ in ALGORITHMS.values()), rows))
