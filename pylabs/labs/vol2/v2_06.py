"""Lab V2-06 · The Bandwidth Invariant.

Core invariant: a ring all-reduce sends 2(N−1)/N of the message from every GPU, so its busbw
stays at the link bandwidth for any N; a gather-then-broadcast master is N times slower. The
fastest algorithm depends on the message size against an N-dependent α–β crossover.

Act I (the master bottleneck): a 7B model's 14 GB of BF16 gradients over InfiniBand NDR on the
context's GPUs (128, or 1,024 in the grown cluster); naive master against ring; algbw against busbw.
Act II (choosing the algorithm): ring, halving + doubling (Rabenseifner), recursive doubling and
binomial tree for a 175B gradient, a 7B gradient and a 1 MB message; the ring/tree crossover; the
step fails when the all-reduce takes more than half of it (no overlap).

Physics: handbook/labs/v2_06.md §2 (Thakur, Rabenseifner & Gropp 2005), which corrects the seed lab. The seed lab's
spec and its corrections are in handbook/labs/v2_06.md.

Questions: every question is asked at the context's GPU count.
- Act I asks the ring's time for the 14 GB gradient (0.556 s at 128 GPUs, 0.563 s at 1,024: C in
  both). The earlier question, naive ÷ ring, is about N, so no fixed ranges keep it apart from the
  N/2 (pipelined) and N² beliefs at both 128 and 1,024 GPUs; the ring's time barely moves with N.
- Act I's reflection asks why algbw reads about half the link (each port moves close to 2S): the
  earlier "why N times" was stated by the cards' notes and the prediction's feedback.
- Act II asks how much longer the ring takes than halving + doubling for 350 GB (0.0026 %, 0.022 %
  at 1,024 GPUs: A). The ring/tree crossover (1.5 MB) stays on a card and in the reflection, whose key
  (a crossover that grows with N) the math peek no longer states.
- The failure offers only levers not at their limit: no algorithm switch for a 0.1 % tie, no faster
  link when latency steps are most of the time.
- α = 1.5 µs and the 45 % utilisation are labelled assumptions; the model's busbw at the link is
  shown beside a measured 370 GB/s of 450 GB/s on 8 × H100 NVLink (SHARP off, near 10 GB).

Ledger fields: context, both predictions and reflections, the final instrument settings, the
naive/ring ratio, the chosen algorithm's time, the ring/tree crossover, the all-reduce share of the
step, failure states.
"""

from __future__ import annotations

from dataclasses import replace

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option,
                              Prediction, Range, Reflection, Slider, State, callout, failure,
                              fmt, listed, math_peek, metric_grid, prose)
from pylabs.labs.vol2.v2_06_charts import bandwidth_chart, size_chart, time_chart
from pylabs.labs.vol2.v2_06_model import (ACT1_SIZE, ALGORITHMS, ALPHA, BIG_PARAMS, GPUS, S,
                                          Sync, act1_ratio, act1_truth, act2_sync, act2_truth, clears, crossover,
                                          grad_bytes, naive_ratio, naive_s, ring_s, tokens_to_clear)
from pylabs.physics import collectives
from pylabs.physics import constants as C
from pylabs.physics.references import cite
from pylabs.physics.transfer import BITS_PER_BYTE


# ---- context ----------------------------------------------------------------------

CONTEXT = Choice("context", "Cluster", (
    Option("cluster", f"Research cluster: {S.gpus} GPUs"),
    Option("frontier", f"The cluster grown eightfold: {S.frontier_gpus:,} GPUs"),
), default="cluster", help="Sets the GPU count of both acts' questions and instruments.")


def terms(context: str) -> dict[str, str]:
    return {"gpus": fmt(GPUS[context], "int")}


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
FASTEST_LINK = max(LINKS, key=lambda k: LINKS[k][1])


def link_choice(name: str) -> Choice:
    return Choice(name, "Link per GPU", tuple(Option(k, f"{label} · {fmt(bw, 'GB/s')}")
                                              for k, (label, bw) in LINKS.items()),
                  default="ndr", widget="select", unit="B/s per GPU per direction",
                  help=f"Every message also pays a latency α = {fmt(ALPHA, 'us')} [assumed], on every link.")


A1_GPUS = Slider("a1_gpus", "GPUs in the all-reduce", unit="GPUs", min=2, max=1024, step=1,
                 default=S.gpus, fmt="int", scale="log2")
A1_SIZE = Slider("a1_size", "Gradient size", unit="B", min=1e9, max=700e9, step=1e9,
                 default=ACT1_SIZE, fmt="B",
                 help=f"{fmt(grad_bytes(C.GPT3_PARAMS), 'B')} is a {params(C.GPT3_PARAMS)} model in BF16.")
A1_LINK = link_choice("a1_link")

ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"How long does a ring all-reduce of the same {fmt(ACT1_SIZE, 'B')} take on those {{gpus}} GPUs, "
           f"with the same {line_rate(C.IB_NDR_BW)} ports?",
    quantity="ring all-reduce time of the 7B gradient",
    unit_fmt="s",
    options=(
        Range("A", "{range}: the more GPUs share the work, the less each one sends", None, 0.01, 0.005,
              "Each GPU's slice shrinks as 1/N, but it sends N−1 slices to reduce and N−1 more to share the "
              "sums: {a1_ring_bytes} per GPU, {a1_ring_s} in all, not {a_guess}."),
        Range("B", "{range}: each port sends its own gradient out once, all at the same time", 0.01, 0.4,
              0.28,
              "One pass, {b_guess}, only leaves every GPU with 1/N of the sum; the summed slices must then "
              "travel round again before each GPU holds all of it: {a1_ring_s}."),
        Range("C", "{range}: about the master's time divided by the number of GPUs", 0.4, 2.0, 0.556,
              "The master pushes {a1_master_bytes} through one port; each ring port carries "
              "{a1_ring_bytes}, all {gpus} at once: {a1_ring_s}, the master's {a1_naive_s} ÷ {a1_ratio}."),
        Range("D", "{range}: the running sum hops from GPU to GPU, N−1 times in a row", 2.0, None, 35.6,
              "Each hop carries a 1/N slice, not the whole gradient, and every port works at every step: "
              "{a1_ring_s}, where whole-gradient hops would take {d_guess}."),
    ),
    truth=act1_truth,
    shown_by="a1_ring_s",
)


def act1_facts(context: str) -> dict[str, str]:
    size, p = ACT1_SIZE, GPUS[context]
    ring = ring_s(size, p, C.IB_NDR_BW)
    latency = ring_s(0.0, p, C.IB_NDR_BW)
    return {
        "a1_ring_s": fmt(ring, "s"), "a1_naive_s": fmt(naive_s(size, p, C.IB_NDR_BW), "s"),
        "a1_ratio": fmt(act1_ratio(context), "x"),
        "a1_master_bytes": fmt(2 * (p - 1) * size, "B"), "a1_ring_bytes": fmt(2 * (p - 1) / p * size, "B"),
        "a1_algbw": fmt(collectives.algbw(size, ring), "GB/s"),
        "a1_busbw": fmt(collectives.busbw(size, ring, p), "GB/s"),
        "link": fmt(C.IB_NDR_BW, "GB/s"), "gpus": fmt(p, "int"), "size": fmt(size, "B"),
        "a_guess": fmt(2 * size / (p * C.IB_NDR_BW), "s"), "b_guess": fmt(size / C.IB_NDR_BW, "s"),
        "d_guess": fmt((p - 1) * size / C.IB_NDR_BW, "s"),
        "latency": fmt(latency, "s"), "latency_share": fmt(latency / ring, "pct"),
        "hbm": fmt(C.H100_HBM_BW, "B/s"), "hbm_over_link": fmt(C.H100_HBM_BW / C.IB_NDR_BW, "x"),
    }


ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="From a few GPUs up, the ring's algbw card, S ÷ t, reads close to half the link's "
           "bandwidth. Where does the other half go?",
    options=(
        Claim("A", "Waiting: each of the ring's 2(N−1) steps stalls for α before any bytes move.",
              "The latency steps take {latency} of the {a1_ring_s} at {gpus} GPUs, {latency_share}: "
              "nowhere near half."),
        Claim("B", "Adding: each GPU must sum every chunk it receives before passing it on.",
              "The sums read HBM at {hbm}, {hbm_over_link} the link's rate, and this model charges them "
              "nothing: busbw still reads {a1_busbw} at {gpus} GPUs."),
        Claim("C", "Queued: N flows meet in the switches, and each gets about half of its port.",
              "The model has no contention (one NIC per GPU, a non-blocking fabric), and busbw still reads "
              "{a1_busbw}, the whole link, at {gpus} GPUs."),
        Claim("D", "Sending: each port moves close to 2S in the time t, but S ÷ t counts only S.",
              "Each GPU sends {a1_ring_bytes} for a {size} gradient. NCCL-tests' busbw multiplies algbw by "
              "2(N−1)/N to count those bytes, and reads {a1_busbw} on a {link} link."),
    ),
    answer_letter="D",
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
    MetricSpec("a2_ring_over_hd", "Ring's time over halving + doubling's", "1", "pct"),
    MetricSpec("a2_compute_s", "Compute per step", "s", "s"),
    MetricSpec("a2_share", "All-reduce share of the step", "1", "pct"),
)}

FAILURES = (
    FailureSpec("a2_comm_bound", "Communication-bound: the all-reduce takes most of the step", act=2,
                reach={"a2_workload": "small", "a2_algorithm": "rab"}, leave={"a2_tokens": 16384}),
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
        M["a1_master_bytes"].show(2 * (p - 1) * size, note="in and out, one gradient at a time"),
        M["a1_ring_bytes"].show(2 * (p - 1) / p * size, note="every GPU at once"),
        M["a1_algbw"].show(collectives.algbw(size, ring)),
        M["a1_busbw"].show(collectives.busbw(size, ring, p), note=f"link: {fmt(bw, 'GB/s')}"),
    )]
    parts += [time_chart(size, p, bw), bandwidth_chart(size, p, bw)]
    parts.append(callout("info", "The model's busbw is a ceiling", prose(
        "The α–β model lets the ring's busbw reach the link at every N. Measured runs fall short of it: on "
        f"8 × H100 over NVLink, with in-switch reduction off, an all-reduce's busbw reaches about "
        f"{fmt(C.NVLINK4_ALLREDUCE_BUSBW_MEASURED, 'GB/s')} of the {fmt(C.NVLINK4_BW, 'GB/s')} per direction, "
        "and only for messages of about 10 GB (Austin et al., *How to Scale Your Model*).")))
    return parts


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
                 "NCCL-tests' definitions of the two bandwidths a benchmark reports."),
    ), rows=(
        ("Message, *S*", fmt(size, "B")),
        ("Link, *B*", fmt(bw, "GB/s")),
        ("Latency per message, *α* [assumed]", fmt(ALPHA, "us")),
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
    stakeholder=lambda context: (
        "Our homegrown all-reduce gathers every gradient on rank 0, sums them there and broadcasts the "
        f"result. Even with the NDR ports at full rate, the {params(S.act1_params)} model's gradient sync takes "
        f"{fmt(naive_s(ACT1_SIZE, S.small_gpus, C.IB_NDR_BW), 's')} on {S.small_gpus} GPUs and "
        f"{fmt(naive_s(ACT1_SIZE, GPUS[context], C.IB_NDR_BW), 's')} on {fmt(GPUS[context], 'int')}. "
        "Leadership asks whether switching to a ring is worth a sprint."),
    scenario=lambda: (
        f"Every GPU holds {fmt(ACT1_SIZE, 'B')} of BF16 gradients and needs the sum over all "
        "GPUs; each has its own port on a non-blocking fabric. The master receives the gradients one after another through its single port, then sends the "
        "sum back the same way: the lab assumes the two phases run in series.",
        "A **ring** cuts each gradient into N chunks. In N−1 steps every GPU passes a chunk to its neighbour "
        "and adds the one it receives (reduce-scatter); in N−1 more steps the summed chunks travel round "
        f"again (all-gather). Each message also pays a latency of α = {fmt(ALPHA, 'us')} [assumed].",
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
    prompt=f"The first job's {fmt(grad_bytes(BIG_PARAMS), 'B')} gradient on {{gpus}} GPUs: how much longer "
           "than halving + doubling does the ring take?",
    quantity=f"ring's time over halving + doubling's, {params(BIG_PARAMS)} gradient",
    unit_fmt="pct",
    options=(
        Range("A", "{range}: the extra steps vanish beside the transfer time", None, 0.01, 1e-4,
              "The ring's {extra_steps} extra steps cost {extra_time}; both algorithms then spend "
              "{transfer} moving the same bytes: {a2_ring_over_hd}."),
        Range("B", "{range}: its extra steps cost a few percent, as they add up", 0.01, 0.1, 0.03,
              "{extra_steps} extra steps of {alpha} are {extra_time}, against {transfer} of transfer: "
              "{a2_ring_over_hd}. They reach 1 % only for messages under {one_pct}."),
        Range("C", "{range}: relaying chunk by chunk is slow on this many GPUs", 0.1, 1.0, 0.3,
              "Every relay step moves a 1/N chunk on all links at once, so the bytes cost the same as halving "
              "+ doubling's: {a2_ring_over_hd}. A 10 % gap needs a message under {ten_pct}."),
        Range("D", "{range}: it takes many times the steps, so many times as long", 1.0, None, 17.0,
              "The ring takes {step_ratio} as many steps, but steps are not time: its extra {extra_time} sit "
              "beside {transfer} of transfer, {a2_ring_over_hd} in all."),
    ),
    truth=act2_truth,
    shown_by="a2_ring_over_hd",
)


def act2_facts(context: str) -> dict[str, str]:
    x, p = act2_sync(context), GPUS[context]
    extra = x.latency("ring") - x.latency("rab")
    crossings = {n: crossover(n) for n in (S.small_gpus, S.gpus, S.frontier_gpus)}
    small = Sync(grad_bytes(S.small_params), p)
    return {
        "a2_ring_over_hd": fmt(x.ring_over_hd, "pct"), "gpus": fmt(p, "int"), "alpha": fmt(ALPHA, "us"),
        "extra_steps": fmt(2 * (p - 1) - 2 * collectives.log2_steps(p), "int"), "extra_time": fmt(extra, "s"),
        "transfer": fmt(x.time("rab") - x.latency("rab"), "s"),
        "step_ratio": fmt((p - 1) / collectives.log2_steps(p), "x"),
        "one_pct": fmt(x.size_for_ring_over_hd(0.01), "B"), "ten_pct": fmt(x.size_for_ring_over_hd(0.1), "B"),
        "x_small": fmt(crossings[S.small_gpus], "B"), "x_mid": fmt(crossings[S.gpus], "B"),
        "x_big": fmt(crossings[S.frontier_gpus], "B"), "a2_crossover": fmt(crossover(p), "B"),
        "n_small": fmt(S.small_gpus, "int"), "n_mid": fmt(S.gpus, "int"), "n_big": fmt(S.frontier_gpus, "int"),
        "small_msg": fmt(small.message, "B"), "small_rab": fmt(small.time("rab"), "s"),
        "small_ring": fmt(small.time("ring"), "s"), "small_tree": fmt(small.time("tree"), "s"),
        "hockney": fmt(ALPHA * C.IB_NDR_BW, "B"),
    }


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt="The MLOps lead wants one rule for whether a job should run the ring. Which rule matches what "
           "the selector showed?",
    options=(
        Claim("A", "Count the GPUs: a ring on large clusters, a tree on small ones.",
              "At {n_small} GPUs a {small_msg} message favours the ring over the tree (which wins only below "
              "{x_small}); at {n_big} GPUs it favours the tree (below {x_big}): the opposite way round."),
        Claim("B", "Weigh the message against a crossover that grows with the GPU count.",
              "The ring beats the tree above {x_small} at {n_small} GPUs, {x_mid} at {n_mid} and {x_big} at "
              "{n_big}. Below it latency steps decide ({small_msg} on {gpus} GPUs: halving + doubling "
              "{small_rab}, ring {small_ring}); above it the bytes do."),
        Claim("C", "Weigh the message against α·B, where one transfer equals one latency.",
              "α·B = {hockney} compares one message's latency with its own transfer, whatever N. The "
              "algorithms pay different numbers of steps and bytes: on {gpus} GPUs the crossover is "
              "{a2_crossover}."),
        Claim("D", "Run the ring always: no algorithm sends fewer bytes, so none is faster.",
              "Fewest bytes wins only when bytes dominate. For {small_msg} on {gpus} GPUs the ring takes "
              "{small_ring}, halving + doubling {small_rab}, the binomial tree {small_tree}."),
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
        M["a2_share"].show(x.share, "danger" if failing else "good", f"{ALGORITHMS[x.algorithm][0]}, no overlap"),
        M["a2_ring_over_hd"].show(x.ring_over_hd, note=f"{fmt(x.message, 'B')} on {x.gpus:,} GPUs"),
        M["a2_compute_s"].show(x.compute_s, note=f"{fmt(x.tokens, 'tokens')} per GPU, {fmt(S.mfu, 'pct')} of peak [assumed]"),
        M["a2_crossover"].show(x.crossover),
        M["a2_ring_s"].show(times["ring"], tones["ring"], "2(N−1) steps"),
        M["a2_rab_s"].show(times["rab"], tones["rab"], "Rabenseifner, 2·log₂N steps"),
        M["a2_rd_s"].show(times["rd"], tones["rd"], "whole message, log₂N steps"),
        M["a2_tree_s"].show(times["tree"], tones["tree"], "whole message, 2·log₂N steps"),
        M["a2_message"].show(x.message),
    )]
    if failing:
        parts.append(failure(F["a2_comm_bound"], comm_bound_text(s, x, fastest)))
    parts.append(verdict_callout(x, times, fastest))
    parts.append(size_chart(x, [A2_CUSTOM.min, x.crossover] + [grad_bytes(p) for _, p in WORKLOADS.values()]))
    parts.append(callout("info", "Why NCCL still runs rings and trees",
                         prose("In this model halving + doubling never loses to the ring. Real clusters "
                               "disagree: its partners sit 1, 2, 4, … ranks apart, so on a fat tree many "
                               "pairs cross the same upper switches at once and contend; it needs a power-of-"
                               "two GPU count or extra steps; and it cannot stream chunks the way a ring does. "
                               "A ring talks only to neighbours, maps onto NVLink and rail-optimised NICs, "
                               "works for any N and pipelines. For latency NCCL adds a pipelined double "
                               "binary tree.")))
    return parts


def comm_bound_text(s: State, x: Sync, fastest: str) -> str:
    """What the failure says: the chosen algorithm's time against the compute, then the settings that
    each, moved alone to the end of its control, clear the failure (
    a faster link was withheld where it alone cleared the failure, "every lever here is at its limit"
    was said on HDR with NVLink still to go, and levers joined by "or" did not clear it alone)."""
    name, latency = ALGORITHMS[x.algorithm][0], x.latency()
    said = (f"{name} takes {fmt(x.time(), 's')} against {fmt(x.compute_s, 's')} of compute: "
            f"{fmt(x.share, 'pct')} of every step is spent synchronising")
    if latency > x.time() / 2:
        said += f", {fmt(latency / x.time(), 'pct')} of it latency steps that no faster link removes"
    switch = x.time() > x.time(fastest) * (1 + S.tie)  # a tie within 0.1 % is no lever
    switched = replace(x, algorithm=fastest)
    faster = [k for k, (_, bw) in LINKS.items() if bw > x.bw]
    alone = []
    if switch and clears(switched):
        alone.append(f"switch to {ALGORITHMS[fastest][0].lower()} ({fmt(switched.time(), 's')})")
    need = tokens_to_clear(x)
    if need <= A2_TOKENS.max:
        alone.append(f"give each GPU at least {fmt(need, 'tokens')} per step")
    link = next((k for k in sorted(faster, key=lambda k: LINKS[k][1]) if clears(replace(x, bw=LINKS[k][1]))), None)
    if link:
        alone.append(f"move to {link_name(link)}")
    if alone:
        text = f"{said}. {either(alone)}: {'that' if len(alone) == 1 else 'any one'} alone clears it."
        if switch and not clears(switched):
            text += (f" Switching to {ALGORITHMS[fastest][0].lower()} cuts the all-reduce to "
                     f"{fmt(switched.time(), 's')}, not enough alone.")
        return text
    top = Sync(x.message, x.gpus, LINKS[FASTEST_LINK][1], x.algorithm, A2_TOKENS.max)
    best = replace(top, algorithm=top.fastest())  # on the fastest link another algorithm may lead
    ends = ([ALGORITHMS[best.algorithm][0].lower()] if top.time() > best.time() * (1 + S.tie) else []) + (
        [f"{fmt(A2_TOKENS.max, 'tokens')} per GPU"] if x.tokens < A2_TOKENS.max else []) + (
        [link_name(FASTEST_LINK)] if faster else [])
    if ends and clears(best):
        return f"{said}. No single setting clears it alone; {listed(ends, 'and')} together do."
    small = "this message is too small for its compute to hide it"
    if ends:
        return (f"{said}. Even {listed(ends, 'and')} {'together leave' if len(ends) > 1 else 'leaves'} it "
                f"communication-bound: {small}.")
    return f"{said}. The algorithm, the tokens and the link are already at their best: {small}."


def either(words: list[str]) -> str:
    text = listed(words)
    return text[0].upper() + text[1:]


def link_name(key: str) -> str:
    """A link as the failure text names it: "InfiniBand NDR", "NVLink 4" (no line rate)."""
    return LINKS[key][0].split(",")[0]


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
                 "Set the ring equal to the tree and solve for the message size S."),
        Equation(r"T_{\text{comp}} = \frac{6\,P\,t}{C_{\text{peak}}\,u},\qquad P = \frac{S}{2}",
                 "The compute the all-reduce must hide behind: the model whose BF16 gradient (2 bytes per "
                 "parameter) is the message, *t* tokens per GPU, no overlap of compute and communication."),
    ), rows=(
        ("Latency per message, *α* [assumed]", fmt(ALPHA, "us")),
        ("Link, *B*", fmt(x.bw, "GB/s")),
        ("GPUs, *N*", f"{x.gpus:,}"),
        ("Ring = tree crossover, *n\\**", fmt(x.crossover, "B")),
        ("Ring = recursive doubling", fmt(collectives.ring_rd_crossover_bytes(x.gpus, ALPHA, x.bw), "B")),
        ("Peak dense BF16, utilisation [assumed]", f"{fmt(C.H100_PEAK_BF16_DENSE, 'FLOP/s')}, {fmt(S.mfu, 'pct')}"),
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
    stakeholder=lambda context: (
        f"Three jobs share our {fmt(GPUS[context], 'int')}-GPU NDR cluster: a {params(C.GPT3_PARAMS)} model syncing "
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
        "all-reduce carries a slice of it and each GPU computes that slice: both times shrink together, the "
        "share of the step stays, and every slice that large ranks the algorithms the same way.)",
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


def lab_takeaways(context: str) -> list[str]:
    p, big, facts = GPUS[context], act2_sync(context), act2_facts(context)
    return [
        f"A master that gathers and broadcasts is about N times slower than a ring when latency is negligible: "
        f"{fmt(act1_ratio(context), 'x')} at {fmt(p, 'int')} GPUs for a {params(S.act1_params)} gradient, "
        f"{fmt(naive_ratio(ACT1_SIZE, p, C.IB_NDR_BW, True), 'x')} if it pipelines.",
        "In the α–β model ring busbw stays at the link bandwidth for any N; algbw falls towards half of it "
        "because every GPU sends almost two copies of its data.",
        f"The ring/tree crossover grows with N: {facts['x_small']} at {S.small_gpus} GPUs, {facts['x_mid']} "
        f"at {S.gpus}, {facts['x_big']} at {S.frontier_gpus:,}.",
        f"For {fmt(big.message, 'B')} on {fmt(p, 'int')} GPUs the ring takes {fmt(big.time('ring'), 's')}, "
        f"{facts['a2_ring_over_hd']} more than halving + doubling; for {facts['small_msg']} halving + doubling "
        f"takes {facts['small_rab']} against the ring's {facts['small_ring']}.",
        "NCCL still prefers rings and pipelined trees: neighbour traffic without switch contention, any "
        "GPU count, and chunk pipelining.",
    ]


LAB = Lab(
    record_metrics=(MetricSpec("a2_time", "All-reduce time of the chosen algorithm", "s", "s"),),
    id="v2_06", volume=2, number=6, title="The Bandwidth Invariant",
    invariant="A ring all-reduce keeps its **bus bandwidth at the link speed** for any number of GPUs; "
              "which algorithm is fastest depends on the message size against an N-dependent crossover.",
    minutes="35–40 min", chapter="Collective Communication", url="vol2/06-bandwidth-invariant/",
    description="Why a ring all-reduce keeps its bus bandwidth at the link speed, why a master node is N times "
                "slower, and which all-reduce algorithm wins at which message size.",
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
    terms=terms,
    hook=f"A homegrown all-reduce that was fine on {S.small_gpus} GPUs crawls on {S.gpus}. Would a ring fix "
         "it, and is the ring the right algorithm for every message?",
    connections=(
        "[**V2-02 The Interconnect Wall**](../02-interconnect-wall/): the ring all-reduce against compute, inside a node and across nodes.",
        "[**V2-03 The Bisection Bandwidth Wall**](../03-bisection-bandwidth/): traffic between distant ranks, as "
        "halving + doubling's partners are, must cross an oversubscribed fabric's cut; a ring's neighbours need not.",
        "[**V2-05 The Parallelism Paradox**](../05-parallelism-paradox/): tensor and pipeline parallelism change which messages an "
        "all-reduce carries.",
    ),
    presets={
        "context": {"cluster": {"a1_gpus": S.gpus, "a2_gpus": S.gpus},
                    "frontier": {"a1_gpus": S.frontier_gpus, "a2_gpus": S.frontier_gpus}},
        "a2_custom": {size: {"a2_workload": "custom"} for size in CUSTOM_SIZES},
    },
)
