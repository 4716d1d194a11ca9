"""Lab V2-06 · The Bandwidth Invariant.

Core invariant: a ring all-reduce sends 2(N−1)/N of the message from every GPU, so its busbw
stays at the link bandwidth for any N; a gather-then-broadcast master is N times slower. The
fastest algorithm depends on the message size against an N-dependent α–β crossover.

Act I (the master bottleneck): a 7B model's 14 GB of BF16 gradients on 128 GPUs over
InfiniBand NDR; naive master against ring; algbw against busbw as N grows.
Act II (choosing the algorithm): ring, halving + doubling (Rabenseifner), recursive doubling
and binomial tree for a 175B gradient, a 7B gradient and a 1 MB message; the ring/tree
crossover; the step fails when the all-reduce takes more than half of it.

Ledger fields: context, both predictions and reflections, the final instrument settings, the
naive/ring ratio, the ring/tree crossover, the all-reduce share of the step, failure states.
"""

from __future__ import annotations

import math

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option,
                              Prediction, Range, Reflection, Slider, State, callout, chart, failure,
                              fmt, math_peek, metric_grid, prose)
from pylabs.framework import charts as ch
from pylabs.labs.vol2.v2_06_model import (ALGORITHMS, ALPHA, GPU_COUNTS, PIPELINED, S, Sync, act1_truth, act2_truth,
                                          crossover, grad_bytes, naive_ratio, naive_s, ring_s)
from pylabs.physics import collectives
from pylabs.physics import constants as C
from pylabs.physics.references import cite
from pylabs.physics.transfer import BITS_PER_BYTE


# ---- context ----------------------------------------------------------------------

CONTEXT = Choice("context", "Cluster", (
    Option("cluster", f"Research cluster: {S.gpus} GPUs"),
    Option("frontier", f"Frontier-scale run: {S.frontier_gpus:,} GPUs"),
), default="cluster", help="Sets the GPU count of both acts' instruments.")

# ---- Act I · The master bottleneck ----------------------------------------------------

def line_rate(bw: float) -> str:
    """A port's bandwidth as its line rate, the way it is sold: 50 GB/s is "400 Gb/s"."""
    return fmt(bw * BITS_PER_BYTE, "bit/s")


def params(count: float) -> str:
    """A model's size as it is named: "7B", "175B"."""
    return fmt(count, "params")


LINKS = {
    "ndr": (f"InfiniBand NDR, {line_rate(C.IB_NDR_BW)}", C.IB_NDR_BW),
    "hdr": (f"InfiniBand HDR, {line_rate(C.IB_HDR_BW)}", C.IB_HDR_BW),
    "nvlink": ("NVLink 4", C.NVLINK4_BW),
}


def link_choice(name: str) -> Choice:
    return Choice(name, "Link per GPU", tuple(Option(k, f"{label} · {fmt(bw, 'GB/s')}")
                                              for k, (label, bw) in LINKS.items()),
                  default="ndr", widget="select", unit="B/s per GPU per direction",
                  help=f"Every message also pays α = {fmt(ALPHA, 'us')} of latency, on every link.")


A1_GPUS = Slider("a1_gpus", "GPUs in the all-reduce", unit="GPUs", min=2, max=1024, step=1,
                 default=S.gpus, fmt="int", scale="log2")
A1_SIZE = Slider("a1_size", "Gradient size", unit="B", min=1e9, max=700e9, step=1e9,
                 default=grad_bytes(S.act1_params), fmt="B",
                 help=f"{fmt(grad_bytes(C.GPT3_PARAMS), 'B')} is a {params(C.GPT3_PARAMS)} model in BF16.")
A1_LINK = link_choice("a1_link")

ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"{S.gpus} GPUs, one {line_rate(C.IB_NDR_BW)} NDR port each, all-reduce the "
           f"{fmt(grad_bytes(S.act1_params), 'B')} gradient of a {params(S.act1_params)} model. How many times "
           "longer does the gather-then-broadcast master take "
           "than a ring?",
    quantity=f"naive master time ÷ ring time at {S.gpus} GPUs",
    unit_fmt="x",
    options=(
        Range("A", "{range}: both send every byte twice, so they cost about the same", None, 3.0, 2.0,
              "Each ring GPU sends about two copies of its gradient; the master's one port carries two "
              f"copies for every one of the other {S.gpus - 1} GPUs."),
        Range("B", "{range}: the master hurts, but a good NIC absorbs most of it", 3.0, 30.0, 10.0,
              "No NIC absorbs it: the master's time grows in proportion to N, the ring's stays put."),
        Range("C", "{range}: the master is busy about N/2 times longer", 30.0, 100.0, 64.0,
              f"N/2 is what a pipelined, full-duplex master reaches ({fmt(PIPELINED, 'x')}), because it "
              "receives and sends at once. Gathering first and broadcasting afterwards doubles it."),
        Range("D", "{range}: the gap grows with every GPU that joins", 100.0, None, 128.0,
              "The master moves 2(N−1) whole gradients through one port; each ring GPU moves 2(N−1)/N. "
              "The quotient is N, less a sliver of latency."),
    ),
    truth=act1_truth,
)


def act1_facts() -> dict[str, str]:
    size, p = grad_bytes(S.act1_params), S.gpus
    return {
        "master_bytes": fmt(2 * (p - 1) * size, "B"),
        "ring_bytes": fmt(2 * (p - 1) / p * size, "B"),
        "hbm_over_nic": fmt(C.H100_HBM_BW / C.IB_NDR_BW, "x"),
        "hbm": fmt(C.H100_HBM_BW, "B/s"), "gpus": fmt(p, "int"),
    }


ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="Why does the ring finish about N times sooner than the master on the same links?",
    options=(
        Claim("A", "The ring uses a faster transport protocol than the gather and broadcast.",
              "Both run over the same ports with the same protocol; only the pattern of who sends "
              "what to whom differs."),
        Claim("B", "The master's port carries 2(N−1) whole gradients one after another; in the ring "
                   "every port carries 2(N−1)/N of one gradient, all at the same time.",
              "At {gpus} GPUs the master's port moves **{master_bytes}** while each ring GPU sends "
              "**{ring_bytes}**, and all the ring's ports work in parallel."),
        Claim("C", "Summing N−1 gradients on one GPU is slow; the ring spreads the additions.",
              "The additions run from HBM at {hbm}, {hbm_over_nic} faster than the NIC delivers the "
              "bytes to add: the port, not the arithmetic, is the bottleneck."),
        Claim("D", "The ring compresses the gradient chunks before sending them.",
              "A plain ring sends the chunks as they are. Compression is a separate technique that can "
              "sit on top of any algorithm."),
    ),
    answer_letter="B",
)

M = {m.name: m for m in (
    MetricSpec("a1_naive_s", "Naive master (gather, then broadcast)", "s", "s"),
    MetricSpec("a1_ring_s", "Ring all-reduce", "s", "s"),
    MetricSpec("a1_ratio", "Naive ÷ ring", "1", "x"),
    MetricSpec("a1_pipelined_ratio", "Naive ÷ ring, pipelined master", "1", "x"),
    MetricSpec("a1_master_bytes", "Bytes through the master's port", "B", "B"),
    MetricSpec("a1_ring_bytes", "Bytes each ring GPU sends", "B", "B"),
    MetricSpec("a1_algbw", "Ring algbw, S ÷ t", "B/s", "GB/s"),
    MetricSpec("a1_busbw", "Ring busbw", "B/s", "GB/s"),
    MetricSpec("a2_message", "Message size", "B", "B"),
    MetricSpec("a2_ring_s", "Ring", "s", "s"),
    MetricSpec("a2_rab_s", "Halving + doubling", "s", "s"),
    MetricSpec("a2_rd_s", "Recursive doubling", "s", "s"),
    MetricSpec("a2_tree_s", "Binomial tree", "s", "s"),
    MetricSpec("a2_crossover", "Ring beats the tree above", "B", "B"),
    MetricSpec("a2_compute_s", "Compute per step", "s", "s"),
    MetricSpec("a2_share", "All-reduce share of the step", "1", "pct"),
)}

FAILURES = (
    FailureSpec("a2_comm_bound", "Communication-bound: the all-reduce takes most of the step", act=2),
)
F = {f.name: f for f in FAILURES}


def act1_inputs(s: State) -> tuple[float, int, float]:
    return s["a1_size"], int(s["a1_gpus"]), LINKS[s["a1_link"]][1]


def act1_instruments(s: State) -> list:
    size, p, bw = act1_inputs(s)
    ring = ring_s(size, p, bw)
    parts = [metric_grid(
        M["a1_naive_s"].show(naive_s(size, p, bw), "danger"),
        M["a1_ring_s"].show(ring, "good"),
        M["a1_ratio"].show(naive_ratio(size, p, bw)),
        M["a1_pipelined_ratio"].show(naive_ratio(size, p, bw, True), note="receive and send overlap"),
        M["a1_master_bytes"].show(2 * (p - 1) * size, note="2(N−1) · S, in series"),
        M["a1_ring_bytes"].show(2 * (p - 1) / p * size, note="2(N−1)/N · S, all ports at once"),
        M["a1_algbw"].show(collectives.algbw(size, ring)),
        M["a1_busbw"].show(collectives.busbw(size, ring, p), note=f"link: {fmt(bw, 'GB/s')}"),
    )]
    parts += [time_chart(size, p, bw), bandwidth_chart(size, p, bw)]
    bus = fmt(collectives.busbw(size, ring, p), "GB/s")
    parts.append(callout("info", "Why a benchmark reports busbw", prose(
        "Algorithm bandwidth, S ÷ t, falls towards half the link as N grows, because each GPU must send "
        "almost two copies of its data. NCCL-tests multiply it by 2(N−1)/N to get the **bus bandwidth**, "
        f"which a bandwidth-optimal all-reduce holds at the link speed for any N: here {bus} on a "
        f"{fmt(bw, 'GB/s')} link.")))
    return parts


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


def act1_math(s: State):
    size, p, bw = act1_inputs(s)
    ring = ring_s(size, p, bw)
    return math_peek("The governing equations · Act I", (
        Equation(r"T_{\text{naive}} = 2\,(N-1)\left(\alpha + \frac{S}{B}\right)",
                 "The master receives N−1 gradients one at a time, sums them, then sends N−1 copies, all "
                 "through one port. Pipelined and full duplex, it overlaps the two: (N−1)·S/B + 2α."),
        Equation(r"T_{\text{ring}} = 2\,(N-1)\,\alpha + 2\,\frac{N-1}{N}\cdot\frac{S}{B}",
                 "Reduce-scatter, then all-gather: 2(N−1) steps, each moving S/N bytes on every link at once."),
        Equation(r"\frac{T_{\text{naive}}}{T_{\text{ring}}} = \frac{\alpha + S/B}{\alpha + S/(NB)}"
                 r"\;\xrightarrow{\;\alpha \to 0\;}\; N",
                 "The ratio is exactly N when latency is negligible, and falls towards 1 for tiny messages."),
        Equation(r"\text{algbw} = \frac{S}{t},\qquad \text{busbw} = \text{algbw}\cdot\frac{2(N-1)}{N}",
                 "NCCL-tests' definitions: busbw equals B when the ring reaches its bound."),
    ), rows=(
        ("Message, *S*", fmt(size, "B")),
        ("Link, *B*", fmt(bw, "GB/s")),
        ("Latency per message, *α*", fmt(ALPHA, "us")),
        ("GPUs, *N*", f"{p:,}"),
        ("Ring time", fmt(ring, "s")),
        ("Naive ÷ ring", fmt(naive_ratio(size, p, bw), "x")),
    ), sources=(
        cite("thakur2005"),
        "Patarasuk and Yuan 2009, *Bandwidth optimal all-reduce algorithms for clusters of workstations*.",
        cite("nccl_tests", "algbw and busbw"),
        C.REGISTRY["IB_NDR_BW"].source,
        C.REGISTRY["IB_ALPHA_S"].source,
    ))


ACT1 = Act(
    number=1, title="The Master Bottleneck", minutes="12–15 min",
    stakeholder_role="Systems Researcher",
    stakeholder=lambda: (
        "Our homegrown all-reduce gathers every gradient on rank 0, sums them there and broadcasts the "
        f"result. On {S.small_gpus} GPUs the {params(S.act1_params)} model's gradient sync took "
        f"{fmt(naive_s(grad_bytes(S.act1_params), S.small_gpus, C.IB_NDR_BW), 's')}. On {S.gpus} GPUs, with "
        f"the same NDR ports, it takes {fmt(naive_s(grad_bytes(S.act1_params), S.gpus, C.IB_NDR_BW), 's')}. "
        "Leadership asks whether switching to a ring is worth a sprint."),
    scenario=lambda: (
        f"Every GPU holds {fmt(grad_bytes(S.act1_params), 'B')} of BF16 gradients and needs the sum over all "
        "GPUs. The master receives the gradients one after another through its single port, then sends the "
        "sum back the same way: the lab assumes the two phases run in series. A pipelined master that "
        "receives and sends at once would halve its time.",
        "A **ring** cuts each gradient into N chunks. In N−1 steps every GPU passes a chunk to its neighbour "
        "and adds the one it receives (reduce-scatter); in N−1 more steps the summed chunks travel round "
        f"again (all-gather). Each message also pays a latency of α = {fmt(ALPHA, 'us')}.",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_GPUS, A1_SIZE, A1_LINK),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="All-reduce comparator",
)

# ---- Act II · Choosing the algorithm ------------------------------------------------

WORKLOADS = {
    "175b": (f"{params(C.GPT3_PARAMS)} model gradient", C.GPT3_PARAMS),
    "7b": (f"{params(S.act1_params)} model gradient", S.act1_params),
    "small": (f"{params(S.small_params)}-parameter model", S.small_params),
}
CUSTOM_SIZES = [2.0 ** k for k in range(10, 41)]

A2_WORKLOAD = Choice("a2_workload", "Workload", tuple(
    Option(k, f"{label} · {fmt(grad_bytes(params), 'B')}") for k, (label, params) in WORKLOADS.items()
) + (Option("custom", "Custom: the slider below"),), default="175b", unit="B")
A2_CUSTOM = Slider("a2_custom", "Custom message size", unit="B", min=CUSTOM_SIZES[0], max=CUSTOM_SIZES[-1],
                   step=1, default=2.0 ** 20, fmt="B", scale="log2",
                   help="Moving it switches the workload to Custom.")
A2_GPUS = Slider("a2_gpus", "GPUs in the all-reduce", unit="GPUs", min=4, max=1024, step=1,
                 default=S.gpus, fmt="int", scale="log2")
A2_LINK = link_choice("a2_link")
A2_ALGORITHM = Choice("a2_algorithm", "Algorithm the job runs",
                      tuple(Option(k, name) for k, (name, _, _) in ALGORITHMS.items()), default="ring")
A2_TOKENS = Slider("a2_tokens", "Tokens per GPU per step", unit="tokens", min=1024, max=65536, step=1,
                   default=S.tokens_per_gpu, fmt="tokens", scale="log2",
                   help="The compute each all-reduce must be paid for by.")


def sync(s: State) -> Sync:
    workload = s["a2_workload"]
    message = s["a2_custom"] if workload == "custom" else grad_bytes(WORKLOADS[workload][1])
    return Sync(message, int(s["a2_gpus"]), LINKS[s["a2_link"]][1], s["a2_algorithm"], s["a2_tokens"])


ACT2_PREDICTION = Prediction(
    id="a2_predict", act=2,
    prompt=f"Same {S.gpus} GPUs on NDR, α = {fmt(ALPHA, 'us')} per message. A binomial tree reduces to "
           "one GPU and broadcasts back in 2·log₂N steps; a ring takes 2(N−1) steps but moves far fewer "
           "bytes. Above what message size does the ring become the faster of the two?",
    quantity=f"ring = binomial tree crossover at {S.gpus} GPUs",
    unit_fmt="B",
    options=(
        Range("A", "{range}: where one message's latency equals its transfer time", None, 100e3, 75e3,
              f"α·B = {fmt(ALPHA * C.IB_NDR_BW, 'B')} compares one message's latency with its own transfer. "
              "The algorithms differ in how many latencies and how many bytes they pay, so compare their "
              "whole costs."),
        Range("B", "{range}: the ring's extra latencies matter only for small messages", 100e3, 1e6, 300e3,
              f"The ring pays {2 * (S.gpus - 1)} latencies against the tree's "
              f"{2 * collectives.log2_steps(S.gpus)}; it takes {fmt(crossover(), 'B')} of saved bytes to "
              "pay for them."),
        Range("C", "{range}: where the ring's extra latencies and the tree's extra bytes balance",
              1e6, 10e6, 1.5e6,
              "Setting the two costs equal gives n* = αB(2(N−1) − 2·log₂N) / (2·log₂N − 2(N−1)/N)."),
        Range("D", "{range}: the ring's 2(N−1) latencies need a very large message to pay off", 10e6, None,
              30e6,
              f"The tree moves the whole message {2 * collectives.log2_steps(S.gpus)} times over one link; "
              "the ring moves under two copies. Those bytes repay the latencies early."),
    ),
    truth=act2_truth,
)


def act2_facts() -> dict[str, str]:
    crossings = {n: crossover(n) for n in (S.small_gpus, S.gpus, S.frontier_gpus)}
    small = Sync(grad_bytes(S.small_params))
    return {
        "x_small": fmt(crossings[S.small_gpus], "B"), "x_mid": fmt(crossings[S.gpus], "B"),
        "x_big": fmt(crossings[S.frontier_gpus], "B"),
        "n_small": str(S.small_gpus), "n_mid": str(S.gpus), "n_big": f"{S.frontier_gpus:,}",
        "small_msg": fmt(small.message, "B"), "small_rab": fmt(small.time("rab"), "us"),
        "small_ring": fmt(small.time("ring"), "us"),
        "fp32": fmt(C.GPT3_PARAMS * C.BYTES_PER_FP32, "B"), "bf16": fmt(grad_bytes(C.GPT3_PARAMS), "B"),
        "big_model": params(C.GPT3_PARAMS),
    }


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt="The MLOps lead wants one rule for picking the all-reduce algorithm. Which rule is right?",
    options=(
        Claim("A", "Count the GPUs: a ring on large clusters, a tree on small ones.",
              "The GPU count moves the crossover but does not decide alone: a {small_msg} message favours "
              "the ring on {n_small} GPUs (crossover {x_small}) and the tree on {n_big} (crossover {x_big})."),
        Claim("B", "Compare the message size with a crossover computed from the algorithms' full costs; "
                   "it grows with N and with α·B.",
              "The ring/tree crossover is {x_small} at {n_small} GPUs, {x_mid} at {n_mid} and {x_big} at "
              "{n_big}. Below it the latency steps decide ({small_msg}: halving + doubling {small_rab}, "
              "ring {small_ring}); above it the bytes decide."),
        Claim("C", "Look at the gradient precision: the ring needs FP32 sums.",
              "Any precision reduces on a ring. Precision changes the message size ({bf16} in BF16, {fp32} "
              "in FP32 for {big_model}), which moves it relative to the crossover, nothing more."),
        Claim("D", "Look at the cabling: a ring needs GPUs wired in a physical ring.",
              "The ring is logical. NCCL builds rings over NVLink and fat-tree InfiniBand, choosing an order "
              "that keeps neighbours on fast paths."),
    ),
    answer_letter="B",
)


def act2_instruments(s: State) -> list:
    x = sync(s)
    fastest = x.fastest()
    times = {k: x.time(k) for k in ALGORITHMS}
    tones = {k: "good" if times[k] <= times[fastest] * (1 + S.tie) else None for k in ALGORITHMS}
    failing = x.share > S.comm_limit
    parts = [metric_grid(
        M["a2_share"].show(x.share, "danger" if failing else "good", ALGORITHMS[x.algorithm][0]),
        M["a2_compute_s"].show(x.compute_s, note=f"{fmt(x.tokens, 'tokens')} per GPU"),
        M["a2_message"].show(x.message),
        M["a2_ring_s"].show(times["ring"], tones["ring"], "2(N−1) steps"),
        M["a2_rab_s"].show(times["rab"], tones["rab"], "Rabenseifner, 2·log₂N steps"),
        M["a2_rd_s"].show(times["rd"], tones["rd"], "whole message, log₂N steps"),
        M["a2_tree_s"].show(times["tree"], tones["tree"], "whole message, 2·log₂N steps"),
        M["a2_crossover"].show(x.crossover, note=f"at {x.gpus:,} GPUs"),
    )]
    if failing:
        parts.append(failure(F["a2_comm_bound"],
                             f"{ALGORITHMS[x.algorithm][0]} takes {fmt(x.time(), 's')} against "
                             f"{fmt(x.compute_s, 's')} of compute: {fmt(x.share, 'pct')} of every step is "
                             "spent synchronising. Pick the fastest algorithm for this message, give each GPU "
                             "more tokens per step, or use a faster link."))
    parts.append(verdict_callout(x, times, fastest))
    parts.append(size_chart(x))
    parts.append(callout("info", "Why NCCL still runs rings and trees",
                         prose("In this model halving + doubling never loses to the ring. Real clusters "
                               "disagree: its partners sit 1, 2, 4, … ranks apart, so on a fat tree many "
                               "pairs cross the same upper switches at once and contend; it needs a power-of-"
                               "two GPU count or extra steps; and it cannot stream chunks the way a ring does. "
                               "A ring talks only to neighbours, maps onto NVLink and rail-optimised NICs, "
                               "works for any N and pipelines. For latency NCCL adds a pipelined double "
                               "binary tree.")))
    return parts


def verdict_callout(x: Sync, times: dict[str, float], fastest: str):
    name = ALGORITHMS[fastest][0]
    gap = times["ring"] / times[fastest] - 1
    if gap < S.tie:
        body = (f"**Ring** and **halving + doubling** tie here: they move the same bytes, and the ring's extra "
                f"latency adds only {fmt(gap, 'pct')}. The message is above the ring/tree crossover of "
                f"{fmt(x.crossover, 'B')}, so bandwidth decides.")
    else:
        body = (f"**{name}** is fastest: {fmt(times[fastest], 's')}, {fmt(1 + gap, 'x')} faster than the ring. "
                + ("The message sits below the ring/tree crossover, so latency steps decide."
                   if x.message < x.crossover else
                   "Above the ring/tree crossover the ring's remaining cost is its latency steps."))
    return callout("success", "Fastest for this message", prose(body))


def size_chart(x: Sync):
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
    shown = sorted([A2_CUSTOM.min, x.crossover] + [grad_bytes(p) for _, p in WORKLOADS.values()])
    rows = [(fmt(m, "B"),) + tuple(fmt(Sync(m, x.gpus, x.bw).time(k), "s") for k in ALGORITHMS) for m in shown]
    return chart("a2_sizes", "All-reduce time against message size", tidy(figure), summary,
                 table=(("Message",) + tuple(n for n, _, _ in ALGORITHMS.values()), rows))


def act2_math(s: State):
    x = sync(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"T_{\text{ring}} = 2(N-1)\,\alpha + 2\tfrac{N-1}{N}\tfrac{S}{B}\qquad "
                 r"T_{\text{H+D}} = 2\log_2 N\,\alpha + 2\tfrac{N-1}{N}\tfrac{S}{B}",
                 "Ring and Rabenseifner's recursive halving (reduce-scatter) plus recursive doubling "
                 "(all-gather): the same bytes, different numbers of latency steps."),
        Equation(r"T_{\text{RD}} = \log_2 N\,\left(\alpha + \tfrac{S}{B}\right)\qquad "
                 r"T_{\text{tree}} = 2\log_2 N\,\left(\alpha + \tfrac{S}{B}\right)",
                 "Recursive doubling and binomial reduce + broadcast send the whole message every step."),
        Equation(r"n^{*} = \alpha B\,\frac{2(N-1) - 2\log_2 N}{2\log_2 N - 2\frac{N-1}{N}}",
                 "Set ring equal to tree and solve for S: the crossover grows with N and with α·B."),
        Equation(r"T_{\text{comp}} = \frac{6\,P\,t}{C_{\text{peak}}\,u},\qquad P = \frac{S}{2}",
                 "The compute the all-reduce must hide behind: the model whose BF16 gradient (2 bytes per "
                 "parameter) is the message, *t* tokens per GPU, no overlap of compute and communication."),
    ), rows=(
        ("Latency per message, *α*", fmt(ALPHA, "us")),
        ("Link, *B*", fmt(x.bw, "GB/s")),
        ("GPUs, *N*", f"{x.gpus:,}"),
        ("Ring = tree crossover, *n\\**", fmt(x.crossover, "B")),
        ("Ring = recursive doubling", fmt(collectives.ring_rd_crossover_bytes(x.gpus, ALPHA, x.bw), "B")),
        ("Peak dense BF16, utilisation", f"{fmt(C.H100_PEAK_BF16_DENSE, 'FLOP/s')}, {fmt(S.mfu, 'pct')}"),
        ("Compute per step", fmt(x.compute_s, "s")),
    ), sources=(
        cite("thakur2005", "the same formulas are in MPICH's `allreduce.c`"),
        "NVIDIA, *Massively Scale Your Deep Learning Training with NCCL 2.4* (double binary trees).",
        cite("kaplan2020", "C = 6ND"),
        C.REGISTRY["H100_PEAK_BF16_DENSE"].source,
        C.REGISTRY["GPT3_PARAMS"].source,
    ))


ACT2 = Act(
    number=2, title="Choosing the Algorithm", minutes="20–25 min",
    stakeholder_role="MLOps Lead",
    stakeholder=lambda: (
        f"Three jobs share our {S.gpus}-GPU NDR cluster: a {params(C.GPT3_PARAMS)} model syncing "
        f"{fmt(grad_bytes(C.GPT3_PARAMS), 'B')} of gradients per step, a {params(S.act1_params)} model syncing "
        f"{fmt(grad_bytes(S.act1_params), 'B')}, and a small model whose whole gradient is "
        f"{fmt(grad_bytes(S.small_params), 'B')}. The engineers want the ring for all three because "
        "'the ring is bandwidth-optimal'. Is it the right call for each?"),
    scenario=lambda: (
        "Four all-reduce algorithms trade latency steps for bytes. The **ring** sends the fewest bytes but "
        "takes 2(N−1) steps. **Halving + doubling** (Rabenseifner) sends the same bytes in 2·log₂N steps. "
        "**Recursive doubling** exchanges the whole message in log₂N steps, and a **binomial tree** "
        "reduces to one GPU and broadcasts back in 2·log₂N steps of the whole message.",
        f"(A real {params(C.GPT3_PARAMS)} job also splits the model with tensor and pipeline parallelism, so each data-parallel "
        "all-reduce carries a slice of it; every slice that large ranks the algorithms the same way.)",
    ),
    prediction=ACT2_PREDICTION,
    controls=(A2_WORKLOAD, A2_CUSTOM, A2_GPUS, A2_LINK, A2_ALGORITHM, A2_TOKENS),
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="Algorithm selector",
)

# ---- the whole lab -------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    return frozenset({"a2_comm_bound"} if sync(s).share > S.comm_limit else set())


def results(s: State) -> dict[str, float]:
    size, p, bw = act1_inputs(s)
    x = sync(s)
    return {"a1_ratio": naive_ratio(size, p, bw), "a2_message": x.message, "a2_time": x.time(),
            "a2_crossover": x.crossover, "a2_share": x.share}


def lab_takeaways() -> list[str]:
    big = Sync(grad_bytes(C.GPT3_PARAMS))
    facts = act2_facts()
    return [
        f"A master that gathers and broadcasts is N times slower than a ring when latency is negligible: "
        f"{fmt(act1_truth(), 'x')} at {S.gpus} GPUs for a {params(S.act1_params)} gradient, {fmt(PIPELINED, 'x')} if it pipelines.",
        "Ring busbw stays at the link bandwidth for any N; algbw falls towards half of it because every GPU "
        "sends almost two copies of its data.",
        f"The ring/tree crossover depends on N: {facts['x_small']} at {S.small_gpus} GPUs, {facts['x_mid']} "
        f"at {S.gpus}, {facts['x_big']} at {S.frontier_gpus:,}.",
        f"For {facts['bf16']} the ring takes {fmt(big.time('ring'), 's')} and ties halving + doubling; for "
        f"{facts['small_msg']} halving + doubling takes {facts['small_rab']} against the ring's "
        f"{facts['small_ring']}.",
        "NCCL still prefers rings and pipelined trees: neighbour traffic without switch contention, any "
        "GPU count, and chunk pipelining.",
    ]


LAB = Lab(
    record_metrics=(MetricSpec("a2_time", "All-reduce time of the chosen algorithm", "s", "s"),),
    id="v2_06", volume=2, number=6, title="The Bandwidth Invariant",
    invariant="A ring all-reduce keeps its **bus bandwidth at the link speed** for any number of GPUs; "
              "which algorithm is fastest depends on the message size against an N-dependent crossover.",
    minutes="35–40 min", chapter="Collective Communication", url="vol2/06-bandwidth-invariant/",
    reading=(
        "**Collective operations**: all-reduce as reduce-scatter plus all-gather.",
        "**The α–β model**: latency steps and bytes per step, and why algorithms trade one for the other.",
        "**All-reduce algorithms**: ring, tree, recursive halving and doubling, and what NCCL picks.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "[**V2-02 The Interconnect Wall**](../02-interconnect-wall/): the ring all-reduce against compute, inside a node and across nodes.",
        "V2-03 The Bisection Bandwidth Wall (a later lab): the fat-tree contention that keeps halving + doubling "
        "out of NCCL.",
        "[**V2-05 The Parallelism Paradox**](../05-parallelism-paradox/): tensor and pipeline parallelism change which messages an "
        "all-reduce carries.",
    ),
    presets={
        "context": {"cluster": {"a1_gpus": S.gpus, "a2_gpus": S.gpus},
                    "frontier": {"a1_gpus": S.frontier_gpus, "a2_gpus": S.frontier_gpus}},
        "a2_custom": {size: {"a2_workload": "custom"} for size in CUSTOM_SIZES},
    },
)
