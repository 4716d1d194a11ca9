"""Lab V2-03 · The Bisection Bandwidth Wall.

Core invariant: bisection bandwidth bounds only the traffic that must cross the fabric's
cut. A ring all-reduce talks to its neighbours, so rank order decides what oversubscription
costs it; uniform all-to-all (mixture-of-experts) crosses the cut and hits the wall.

Act I: 128 GPUs on four 32-port HDR leaves with 2:1 uplinks, the ring's ranks placed leaf by leaf.
Asked: the share of its single-leaf bandwidth the ring keeps (100 %: one flow per leaf crosses the
spine). The reflection asks what sets the 66.1 % a ring scattered by the scheduler keeps (the spec's
key, φ = 0.6615: 24.2 of each leaf's 32 hops share its 16 uplinks).
Act II: 1,024 GPUs (128 DGX H100, 8 rails), 32 GB of gradients under 1 s of communication per step,
plus 20 GB per GPU of MoE all-to-all in the MoE workload. The cheapest fabric that passes: the
non-blocking fat tree with the all-to-all, the torus (a quarter of its price) without.

Choices where the spec left them open, and why:
- Context = workload (MoE roadmap or dense today). It sets Act II's all-to-all bytes, so Act II's
  question is asked in the workload locked in (its prompt says which), and adds the all-to-all
  reading to Act I, whose question (a ring all-reduce) is the same in both.
- Act I asks about the ordered ring, the spec's "reveal", and its reflection about the scattered ring,
  the spec's key: asked the other way round, "about all of it" sat above the key, so ranges in order
  could not put the key at the top, and a student who thought a ring ignores the uplinks chose a
  range holding it.
- Act II's options: torus A, fat tree B, Ethernet C, "none" D: the upstream model failed its own
  correct fabric (2.84 s), the trap of the bisection rule.
- Fat-tree all-reduce is hierarchical (NVLink, then one ring per rail, laid out leaf by leaf as
  NCCL orders rings). The flows leaving a leaf are spread evenly over its uplinks (an ideal:
  hashed paths collide), said on the page.
- Bisection is shown at line rate; η (0.9) scales the rates collectives get. η, the leaf radix
  (32, half of a 64-port NDR switch) and the price quotes are labelled assumptions; Act II's
  prompt states η because its key holds only for η above 0.683 (below that no fabric passes).

Where this departs from the spec (handbook/labs/v2_03.md §2), with sources:
- The torus all-reduce runs rings in all three dimensions at once, all six links busy (the scaling
  book, 'Sharded matrices': a collective over n torus axes takes V/(n·W), W each link's two-way
  bandwidth, an all-reduce two of them; Ying et al. 2018 ran the 2-D case on a TPU v3 pod): 2(N−1)/N·S/(6ηb) = 0.237 s at 1,024 GPUs, an
  idealised bound, labelled so. The spec's bidirectional ring (0.710 s) uses two of the six links.
  The key holds: with the all-to-all the torus needs 1.125 s.
- The spec's feedback "the Ethernet would be right at 40 % of the cost" for dense gradients: the
  torus passes too, at $5M, a quarter of the fat tree's price, and is the cheapest that passes.

Ledger results: fabric_type, cluster_size, oversubscription (null for the torus),
bisection_bw_gb_per_s, pattern, a1_kept, ar_time_s, a2a_time_s, constraint_hit; the spec's
act1_prediction, act1_correct and act2_decision are the record's answers (a1_predict, a2_predict);
the record adds context and controls.
"""

from __future__ import annotations

from dataclasses import replace

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option, Pick,
                              Prediction, Range, Reflection, Slider, State, chart, failure, fmt, math_peek,
                              metric_grid, tone)
from pylabs.framework import charts as ch
from pylabs.labs.vol2.v2_03_facts import (RATIO, act2_facts, ethernet, fabric_name, line_rate, over_budget_text, ratio,
                                          terms, uplink_bound_text)
from pylabs.labs.vol2.v2_03_model import (A2A_BYTES, FABRICS, GPUS_PER_NODE, LEAF_PORTS, LETTERS, RAILS, SCATTERED_JOB,
                                          SCENARIO_JOB, LeafSpine, S, Step, act1_truth, act2_answer, step)
from pylabs.physics import collectives, fabric
from pylabs.physics import constants as C
from pylabs.physics import units as U
from pylabs.physics.references import cite


# ---- context ----------------------------------------------------------------------

CONTEXT = Choice("context", "Workload on the cluster", (
    Option("moe", "Mixture-of-experts roadmap: gradients plus expert all-to-all"),
    Option("dense", "Dense model today: gradient all-reduce only"),
), default="moe", help="Sets Act II's all-to-all bytes per GPU, and adds the all-to-all reading to Act I.")

# ---- Act I · Oversubscription meets locality ------------------------------------------

LINKS = {"hdr": (f"InfiniBand HDR, {line_rate(C.IB_HDR_BW)}", C.IB_HDR_BW),
         "ndr": (f"InfiniBand NDR, {line_rate(C.IB_NDR_BW)}", C.IB_NDR_BW),
         "eth100": (ethernet(C.ETH_100G_BW), C.ETH_100G_BW), "eth400": (ethernet(C.ETH_400G_BW), C.ETH_400G_BW)}
PATTERN_NAMES = {"ring_aware": "Ring, ordered leaf by leaf",
                 "ring_random": "Ring, scattered by the scheduler",
                 "all_to_all": "All-to-all (MoE experts)"}

A1_GPUS = Slider("a1_gpus", "GPUs in the job", unit="GPUs", min=8, max=4096, step=1, default=S.act1_gpus,
                 fmt="int", scale="log2")
A1_OVERSUB = Choice("a1_oversub", "Leaf uplink oversubscription", (
    Option("1", "1:1 (non-blocking)"), Option("2", "2:1"), Option("4", "4:1")), default=S.act1_oversub, unit="1",
    help=f"r:1 means each {LEAF_PORTS}-GPU leaf has 1/r as many uplinks to the spine as GPU ports "
         "(no effect while the job fits in one leaf).")
A1_PATTERN = Choice("a1_pattern", "Traffic pattern", tuple(Option(k, v) for k, v in PATTERN_NAMES.items()),
                    default=S.act1_pattern, widget="select",
                    help="Ordered: ranks follow the leaves (topology-aware). Scattered: ranks sit wherever there "
                         f"was room. Up to {LEAF_PORTS} GPUs the job fits in one leaf and the pattern does not matter.")
A1_LINK = Choice("a1_link", "Link per GPU",
                 tuple(Option(k, f"{name} · {fmt(bw, 'GB/s')}") for k, (name, bw) in LINKS.items()),
                 default="hdr", widget="select", unit="B/s per direction")


def eta_slider(name: str) -> Slider:
    return Slider(name, "Protocol efficiency η", unit="1", min=S.eta_min, max=S.eta_max, step=0.01, default=S.eta,
                  fmt="pct",
                  help=f"Share of the line rate that carries payload (assumed {fmt(S.eta, 'pct')} by default).")


A1_ETA = eta_slider("a1_eta")


def leaf_spine(s: State) -> LeafSpine:
    return LeafSpine(int(s["a1_gpus"]), LINKS[s["a1_link"]][1], float(s["a1_oversub"]), s["a1_pattern"], s["a1_eta"])


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"{S.act1_gpus} GPUs on {S.act1_gpus // LEAF_PORTS} leaves of {LEAF_PORTS}, {RATIO} uplinks, the ring's ranks "
           "placed leaf by leaf. What share of its single-leaf bandwidth does the ring all-reduce keep?",
    quantity="share of single-leaf all-reduce bandwidth kept",
    unit_fmt="pct",
    shown_by="a1_kept",
    options=(
        Range("A", f"{{range}}: about a quarter; each crossing byte meets {RATIO} twice, going up and coming down",
              None, 0.375, 0.25,
              "A byte climbs through its own leaf's uplinks and comes down the other leaf's, but the spine gives "
              "each leaf as many downlinks as uplinks: the ratio bites once, if at all. Laid out leaf by leaf, the "
              "ring leaves each leaf once every {leaf} hops, and {uplinks} uplinks carry that one flow at full rate."),
        Range("B", f"{{range}}: about half; the hop that leaves each leaf crosses the {RATIO} uplinks at half rate",
              0.375, 0.625, 0.5,
              "The hop that leaves a leaf is not slowed: it is one flow on {uplinks} uplinks. {ratio} halves what "
              "the uplinks give each port only when every port of the leaf sends across at once."),
        Range("C", "{range}: about three quarters; the half of its bytes that cross the middle cut go at half rate",
              0.625, 0.9, 0.75,
              "Bisection bounds bytes that all cross at once. Laid out leaf by leaf, the ring crosses between "
              "leaves at {boundaries} points, one flow each, and a leaf's {uplinks} uplinks carry its one flow at "
              "full rate: nothing is slowed."),
        Range("D", "{range}: about all of it; each leaf sends a single flow up to the spine", 0.9, None, 1.0,
              "Laid out leaf by leaf, the ring leaves each leaf once every {leaf} hops: one flow up and one down "
              "per leaf, against {uplinks} uplinks. It keeps **{kept}**, whatever the {ratio}."),
    ),
    truth=act1_truth,
)

ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt=f"Let the scheduler scatter the same ring's ranks over the {S.act1_gpus // LEAF_PORTS} leaves, and it keeps "
           f"{fmt(SCATTERED_JOB.kept, 'pct')} of its single-leaf bandwidth. What sets that share?",
    options=(
        Claim("A", f"{fmt(round(SCATTERED_JOB.cross * 4), 'words').capitalize()} hops in four now leave their leaf, "
                   f"and they share {fmt(1 / SCATTERED_JOB.oversub, 'fraction')} as many uplinks.",
              "A scattered rank's neighbour sits on another leaf with probability (N−k)/(N−1) = {cross}, so on "
              "average {flows} flows leave each leaf and share its {uplinks} uplinks: each gets {uplinks}/{flows} = "
              "**{scattered}** of a link, and the ring moves at that rate (on an average leaf: the ring waits for "
              "its busiest one, so a real placement keeps a little less)."),
        Claim("B", "The quarter of hops that stay inside a leaf run at full rate and lift the average.",
              "Every hop of a ring passes its chunk in the same step, so the ring runs at its slowest hop, not at "
              "the average: the {inside} of hops inside a leaf wait for the ones that cross."),
        Claim("C", "Each hop that crosses the spine pays two switch latencies, a third of its time.",
              "At {alpha} per message (assumed), the ring's {steps} steps add {latency}, while it all-reduces "
              "{grad} in {scattered_time}: latency is not what costs the third; bandwidth on the uplinks is."),
        Claim("D", "NCCL opens extra channels for the hops that leave a leaf and wins back a third.",
              "Channels split a GPU's traffic into more flows, but the bytes still climb the same {uplinks} "
              "uplinks of each leaf: all {leaves} leaves send {flows} flows each, on average, into them."),
    ),
    answer_letter="A",
)

M = {m.name: m for m in (
    MetricSpec("a1_kept", "Share of single-leaf bandwidth kept", "1", "pct"),
    MetricSpec("a1_rate", "Bandwidth per GPU (bus bandwidth)", "B/s", "GB/s"),
    MetricSpec("a1_cross", "Traffic that leaves its leaf", "1", "pct"),
    MetricSpec("a1_time", "Time for this collective", "s", "s"),
    MetricSpec("a1_bisection", "Bisection bandwidth (line rate)", "B/s", "B/s"),
    MetricSpec("a1_a2a_kept", "All-to-all keeps (placement cannot help)", "1", "pct"),
    MetricSpec("a2_comm_s", "Communication per step", "s", "s"),
    MetricSpec("a2_allreduce_s", "Gradient all-reduce", "s", "s"),
    MetricSpec("a2_a2a_s", "MoE all-to-all", "s", "s"),
    MetricSpec("a2_bisection", "Bisection bandwidth (line rate)", "B/s", "B/s"),
    MetricSpec("a2_a2a_rate", "All-to-all rate per GPU", "B/s", "GB/s"),
    MetricSpec("a2_cost", "Fabric quote", "USD", "usd"),
)}

FAILURES = (
    FailureSpec("a1_uplink_bound", f"Uplink-bound: each GPU keeps less than {fmt(S.uplink_floor, 'pct')} of its link",
                act=1,
                reach={"a1_pattern": "ring_random", "a1_oversub": "4"}, leave={"a1_pattern": "ring_aware"}),
    FailureSpec("a2_over_budget", f"Over the {fmt(S.budget_s, 's')} budget: communication stalls every step", act=2,
                reach={}, leave={"a2_fabric": "ib"}, contexts=("moe",)),
)
F = {f.name: f for f in FAILURES}


def act1_collective_s(job: LeafSpine) -> tuple[float, str]:
    if job.pattern == "all_to_all":
        return (fabric.all_to_all_s(S.act2_a2a_bytes, job.gpus, job.rate),
                f"all-to-all of {fmt(S.act2_a2a_bytes, 'GB')} per GPU")
    return (collectives.ring_allreduce_s(S.act1_gradient_bytes, job.gpus, job.rate),
            f"ring all-reduce of {fmt(S.act1_gradient_bytes, 'GB')}")


def leaves_note(gpus: int) -> str:
    leaves = max(1, -(-gpus // LEAF_PORTS))
    return f"{leaves} lea{'ves' if leaves > 1 else 'f'} of {LEAF_PORTS} GPU ports"


def act1_instruments(s: State) -> list:
    job = leaf_spine(s)
    seconds, what = act1_collective_s(job)
    metrics = [
        M["a1_kept"].show(job.kept, tone(job.kept, warn=S.uplink_floor), f"1/r = {fmt(1 / job.oversub, 'pct')}"),
        M["a1_rate"].show(job.rate, note=f"of {fmt(job.eta * job.link, 'GB/s')} inside one leaf"),
        M["a1_cross"].show(job.cross, note=leaves_note(job.gpus)),
        M["a1_time"].show(seconds, note=what),
        M["a1_bisection"].show(job.bisection),
    ]
    if s["context"] == "moe" and job.pattern != "all_to_all":
        metrics.append(M["a1_a2a_kept"].show(replace(job, pattern="all_to_all").kept, note="same fabric, same GPUs"))
    parts = [metric_grid(*metrics)]
    if job.kept < S.uplink_floor:
        parts.append(failure(F["a1_uplink_bound"], uplink_bound_text(job)))
    parts.append(act1_chart(job))
    return parts


def act1_chart(job: LeafSpine):
    sizes = [2 ** k for k in range(3, 13)]
    def kept(pattern: str) -> list[float]:
        return [LeafSpine(n, job.link, job.oversub, pattern, job.eta).kept for n in sizes]
    aware, scattered = kept("ring_aware"), kept("ring_random")
    figure = ch.figure(
        [ch.line("Bisection rule of thumb, 1/r", sizes, [1 / job.oversub] * len(sizes), "muted", dash="dot"),
         ch.line("Ring, leaf by leaf", sizes, aware, "series1", markers=True),
         ch.line("Random ring or all-to-all", sizes, scattered, "series2", markers=True),
         ch.point("Your setting", job.gpus, job.kept, "accent")],
        x=ch.axis("GPUs in the job", "log", tickvals=sizes[::3], ticktext=[str(n) for n in sizes[::3]]),
        y=ch.axis("Share of single-leaf bandwidth", tickformat=".0%", range=[0, 1.08]))
    here = replace(job, pattern="ring_random").kept
    ordered = "all of it" if min(aware) == 1.0 else f"{fmt(min(aware), 'pct')} or more"
    summary = (f"With uplinks at {fmt(1 / job.oversub, 'pct')} of the leaf ports, a ring laid out leaf by leaf keeps "
               f"{ordered} at every size; a scattered ring or an all-to-all keeps "
               f"{fmt(here, 'pct')} at {job.gpus:,} GPUs and {fmt(scattered[-1], 'pct')} at {sizes[-1]:,}, "
               "approaching 1/r as the job spreads over more leaves.")
    rows = [(f"{n:,}", fmt(a, "pct"), fmt(b, "pct")) for n, a, b in zip(sizes, aware, scattered)]
    return chart("a1_locality", "What oversubscription costs, by traffic pattern", figure, summary,
                 table=(("GPUs", "Ring, leaf by leaf", "Random ring or all-to-all"), rows))


def act1_facts() -> dict[str, str]:
    """The same in both workloads: Act I's question is about the ring all-reduce."""
    job, scattered = SCENARIO_JOB, SCATTERED_JOB
    leaves = S.act1_gpus // LEAF_PORTS
    return {"kept": fmt(job.kept, "pct"), "a1_kept": M["a1_kept"].text(job.kept), "leaf": str(LEAF_PORTS),
            "leaves": str(leaves), "boundaries": str(leaves), "uplinks": str(int(LEAF_PORTS / job.oversub)),
            "ratio": RATIO, "cross": fmt(scattered.cross, "pct"), "inside": fmt(1 - scattered.cross, "pct"),
            "flows": fmt(LEAF_PORTS * scattered.cross, "num"), "scattered": fmt(scattered.kept, "pct"),
            "grad": fmt(S.act1_gradient_bytes, "GB"), "alpha": fmt(C.IB_ALPHA_S, "s"),
            "steps": fmt(2 * (S.act1_gpus - 1), "int"), "latency": fmt(2 * (S.act1_gpus - 1) * C.IB_ALPHA_S, "s"),
            "scattered_time": fmt(collectives.ring_allreduce_s(S.act1_gradient_bytes, scattered.gpus, scattered.rate),
                                  "s")}


def act1_math(s: State):
    """The locality equations (f and min(1, 1/(r·f))) state what the reflection asks about the scattered
    ring, so they join the panel once the reflection is locked."""
    job = leaf_spine(s)
    reflected = s.locked(ACT1_REFLECTION.id)
    bisection = Equation(r"B_{\text{bis}} = \frac{N\,b}{2\,r}\quad(N > k)",
                         "Bisection of a leaf-spine fabric: *N* GPUs with *b* bytes/s per direction, *r*:1 "
                         "uplinks, *k* GPU ports per leaf.")
    ring = Equation(r"T_{\text{ring}} = 2\,\frac{N-1}{N}\cdot\frac{S}{B_{\text{eff}}}",
                    "Ring all-reduce of *S* bytes at the rate *B*eff each GPU keeps.")
    locality = (
        Equation(r"f_{\text{ordered}} = \frac{1}{k},\qquad f_{\text{random}} = \frac{N-k}{N-1}",
                 "Share of traffic that leaves its leaf: one hop per leaf for an ordered ring; for a scattered "
                 "ring or a uniform all-to-all, the chance that the partner sits on another leaf."),
        Equation(r"B_{\text{eff}} = \eta\,b\,\min\!\left(1, \frac{1}{r\,f}\right)",
                 "The rate each GPU keeps when a share *f* of its traffic leaves a leaf of *k* ports and *k/r* "
                 "uplinks, with the flows spread evenly over the uplinks (an ideal: hashed paths collide)."),
    )
    return math_peek("The governing equations · Act I", (bisection, *(locality if reflected else ()), ring), rows=(
        ("Link, *b*", fmt(job.link, "GB/s")),
        ("GPU ports per leaf, *k* (assumed: half of a 64-port leaf)", str(LEAF_PORTS)),
        ("Leaving the leaf, *f*", fmt(job.cross, "pct")),
        ("Kept, min(1, 1/(r·f))" if reflected else "Share of the link kept", fmt(job.kept, "pct")),
        ("Protocol efficiency, *η* (assumed)", fmt(job.eta, "pct")),
    ), sources=(
        cite("dally_towles2004", "bisection bandwidth, ch. 3"),
        cite("leiserson1985", "fat trees"),
        cite("thakur2005", "ring all-reduce"),
        C.REGISTRY["IB_NDR_SWITCH_PORTS"].source,
        C.REGISTRY["IB_HDR_BW"].source,
    ))


ACT1 = Act(
    number=1, title="Oversubscription Meets Locality", minutes="12–15 min",
    stakeholder_role="Kenji Watanabe, Infrastructure Lead, Meridian",
    stakeholder=lambda: (
        f"Our next training pod is {S.act1_gpus} GPUs on HDR, {LEAF_PORTS} per leaf switch. To save on spine "
        f"switches the vendor quotes {RATIO} uplinks, and says {RATIO} simply halves the bisection. Our scheduler "
        "places each job's ranks leaf by leaf. Before I sign: how much of the all-reduce bandwidth we see inside "
        "one leaf will we keep across the pod?"),
    scenario=lambda: (
        f"A **leaf-spine fat tree** joins leaves of {LEAF_PORTS} GPUs through spine switches. At **r:1** "
        "oversubscription each leaf has 1/r as many uplinks as GPU ports; at 1:1 it is non-blocking.",
        "**Bisection bandwidth** is what can cross a cut through the middle of the fabric. A **ring all-reduce** "
        "passes chunks from each rank to the next, round the ring: a reduce-scatter, then an all-gather.",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_GPUS, A1_OVERSUB, A1_PATTERN, A1_LINK, A1_ETA),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Fabric locality explorer",
)

# ---- Act II · Choosing the fabric -------------------------------------------------------


def offer(letter: str, name: str, blurb: str, why: str, beaten: bool = True) -> Claim:
    """A quoted fabric; ``beaten`` adds, where it passes but is not the cheapest that does, what beats it."""
    key = FABRICS[LETTERS[letter]].key
    return Claim(letter, f"**{name}** ({fmt(FABRICS[key].cost, 'usd')}): {blurb}",
                 f"{{{key}_ar}} all-reduce + {{{key}_a2a}} all-to-all = **{{{key}_total}}** per step, "
                 f"{{{key}_verdict}} the {fmt(S.budget_s, 's')} budget. " + why + (f"{{{key}_beaten}}" if beaten else ""))


ACT2_PREDICTION = Pick(
    id="a2_predict", act=2,
    prompt=f"{S.act2_gpus:,} GPUs at {fmt(S.eta, 'pct')} protocol efficiency, {fmt(S.act2_gradient_bytes, 'GB')} of "
           "gradients per step {workload}. Which is the cheapest fabric that keeps communication under "
           f"{fmt(S.budget_s, 's')} per step?",
    quantity="the cheapest fabric that meets the budget",
    options=(
        offer("A", f"3D torus with {line_rate(FABRICS['torus'].link)} links", "its six neighbour links carry "
              "the step in time",
              "Its all-reduce runs on all six neighbour links at once; {torus_a2a_note}"),
        offer("B", "InfiniBand NDR fat tree, 1:1", "only full bisection keeps the whole step in time",
              "Full bisection gives the all-to-all {ib_rate} per GPU. Without an all-to-all every fabric passes "
              "({dense}), and the torus does it for {torus_share} of the price.", beaten=False),
        offer("C", f"{ethernet(FABRICS['eth'].link)} fat tree, {ratio(FABRICS['eth'].oversub)}",
              "ordered rail rings make half a spine enough",
              "Its rail rings are laid out leaf by leaf, so the thin spine costs the all-reduce nothing; an "
              "all-to-all crosses the spine and keeps {eth_kept} of the port rate."),
        Claim("D", "**None of them**: at this scale every fabric needs more than a second",
              "{passing} A fat tree needs more than a second only if its all-reduce were bisection-bound; a ring "
              "talks to its neighbours, and a ring laid out leaf by leaf barely crosses the spine."),
    ),
    decide=act2_answer,
)


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt=f"Grow the torus from {S.torus_small_gpus:,} to {S.torus_big_gpus:,} GPUs: each GPU's all-to-all rate "
           "falls, while the fat tree's stays put. Why?",
    options=(
        Claim("A", "Each extra hop on a longer torus adds latency to every message.",
              "A message costs about {alpha} (assumed); moving {a2a} per GPU takes {torus_a2a_big} at "
              f"{S.torus_big_gpus:,} GPUs: a bandwidth problem."),
        Claim("B", "Its links run slower than switch ports, and a bigger torus has more of them.",
              "{links}; the torus even has six of them per GPU, and each GPU keeps its six as the torus grows."),
        Claim("C", "Its cut grows as a face of the torus, the traffic across it as its volume.",
              "The cut grows from {cut_small} to {cut_big} links, as a face does, for {growth} the GPUs, so the all-to-all rate per GPU "
              "falls from {torus_rate_small} to {torus_rate_big}, as N^(−1/3); the fat tree's bisection grows with N "
              "and holds {ft_rate_big}."),
        Claim("D", "Its ring all-reduce gets slower as the rings grow longer and crowd the links.",
              "The all-reduce's time is 2(N−1)/N·S/(6·η·b), nearly constant in N ({torus_ar_small} at "
              f"{S.torus_small_gpus:,} GPUs, {{torus_ar_big}} at {S.torus_big_gpus:,}): it is not what degrades."),
    ),
    answer_letter="C",
)

A2_FABRIC = Choice("a2_fabric", "Fabric", tuple(Option(k, f"{fabric_name(f, short=True)} · {fmt(f.cost, 'usd')}")
                                                 for k, f in FABRICS.items()), default="eth")
A2_GPUS = Slider("a2_gpus", "GPUs (8 per DGX H100 node)", unit="GPUs", min=64, max=4096, step=1,
                 default=S.act2_gpus, fmt="int", scale="log2")
A2_A2A = Slider("a2_a2a", "MoE all-to-all per GPU per step", unit="B", min=0, max=40e9, step=1e9,
                default=S.act2_a2a_bytes, fmt="GB", help="Zero for a dense model; the workload context sets it.")
A2_ETA = eta_slider("a2_eta")


def act2_step(s: State) -> Step:
    return step(FABRICS[s["a2_fabric"]], int(s["a2_gpus"]), s["a2_eta"], s["a2_a2a"])


def act2_instruments(s: State) -> list:
    st = act2_step(s)
    over = st.total_s > S.budget_s
    torus = st.fabric.oversub is None
    shape = "×".join(map(str, fabric.torus_shape(st.gpus))) if torus else ""
    parts = [metric_grid(
        M["a2_comm_s"].show(st.total_s, "danger" if over else "good",
                            f"budget {fmt(S.budget_s, 's')}; the two summed, no overlap"),
        M["a2_allreduce_s"].show(st.allreduce_s, note=f"{fmt(S.act2_gradient_bytes, 'GB')} of gradients"
                                 + (", all six links busy (ideal)" if torus else "")),
        M["a2_a2a_s"].show(st.a2a_s, note=f"{fmt(s['a2_a2a'], 'GB')} per GPU"),
        M["a2_bisection"].show(st.bisection,
                               note=f"{shape} torus" if torus else f"{ratio(st.fabric.oversub)} uplinks"),
        M["a2_a2a_rate"].show(st.a2a_rate, note=f"of {fmt(s['a2_eta'] * st.fabric.link, 'GB/s')} per link"),
        M["a2_cost"].show(st.fabric.cost, note=f"budget {fmt(S.budget_usd, 'usd')} (quotes assumed)"),
    )]
    if over:
        parts.append(failure(F["a2_over_budget"], over_budget_text(st, s["a2_eta"], s["a2_a2a"])))
    parts += [act2_bars(s), act2_scaling(s)]
    return parts


def act2_bars(s: State):
    steps = [step(f, int(s["a2_gpus"]), s["a2_eta"], s["a2_a2a"]) for f in FABRICS.values()]
    names = [("▶ " if x.fabric.key == s["a2_fabric"] else "") + fabric_name(x.fabric, short=True) for x in steps]
    line, note = ch.hline(S.budget_s, "danger", f"budget {fmt(S.budget_s, 's')}")
    figure = ch.figure(
        [ch.bars("Gradient all-reduce", names, [x.allreduce_s for x in steps], "series1"),
         ch.bars("MoE all-to-all", names, [x.a2a_s for x in steps], "series2")],
        x=ch.axis("", "category"), y=ch.axis("Seconds per step", rangemode="tozero"), stacked=True,
        shapes=[line], annotations=[note])
    summary = "; ".join(f"{fabric_name(x.fabric, short=True)} {fmt(x.allreduce_s, 's')} + {fmt(x.a2a_s, 's')}"
                        for x in steps)
    rows = [(fabric_name(x.fabric), fmt(x.allreduce_s, "s"), fmt(x.a2a_s, "s"), fmt(x.total_s, "s")) for x in steps]
    return chart("a2_fabrics", "Communication per step by fabric", figure,
                 f"At {int(s['a2_gpus']):,} GPUs: {summary} (all-reduce + all-to-all).",
                 table=(("Fabric", "All-reduce", "All-to-all", "Total"), rows))


def act2_scaling(s: State):
    sizes = [2 ** k for k in range(6, 13)]
    colors = {"torus": "series3", "eth": "series2", "ib": "series1"}
    totals = {k: [step(f, n, s["a2_eta"], s["a2_a2a"]).total_s for n in sizes] for k, f in FABRICS.items()}
    line, note = ch.hline(S.budget_s, "danger", "budget")
    figure = ch.figure(
        [ch.line(fabric_name(FABRICS[k], short=True), sizes, totals[k], colors[k], markers=True) for k in FABRICS],
        x=ch.axis("GPUs", "log", tickvals=sizes[::2], ticktext=[f"{n:,}" for n in sizes[::2]]),
        y=ch.axis("Seconds per step", rangemode="tozero"), shapes=[line], annotations=[note])
    summary = (f"From {sizes[0]} to {sizes[-1]:,} GPUs the torus goes from {fmt(totals['torus'][0], 's')} to "
               f"{fmt(totals['torus'][-1], 's')} per step, the {ratio(FABRICS['eth'].oversub)} Ethernet from {fmt(totals['eth'][0], 's')} to "
               f"{fmt(totals['eth'][-1], 's')}, the non-blocking fat tree from {fmt(totals['ib'][0], 's')} to "
               f"{fmt(totals['ib'][-1], 's')}.")
    rows = [(f"{n:,}", *(fmt(totals[k][i], "s") for k in FABRICS)) for i, n in enumerate(sizes)]
    return chart("a2_scaling", "Communication per step as the cluster grows", figure, summary,
                 table=(("GPUs", *(fabric_name(FABRICS[k], short=True) for k in FABRICS)), rows))


def act2_math(s: State):
    """The torus's cut and its all-to-all rate (2N/L links, 8ηb/L) give the reflection's growth law,
    so they join the panel once the reflection is locked."""
    st = act2_step(s)
    reflected = s.locked(ACT2_REFLECTION.id)
    a2a = (Equation(r"T_{\text{A2A}} = \frac{N-1}{N}\cdot\frac{S_a}{B_{\text{inj}}},\quad "
                    r"B_{\text{inj}}^{\text{torus}} = \min\!\left(6\,\eta\,b_l, \frac{8\,\eta\,b_l}{L}\right)",
                    "All-to-all: fat tree *B*inj = *B*eff with f = (N−k)/(N−1); a torus with longest side *L* "
                    "loads its busiest links with *L*/8 of each GPU's traffic."),
           Equation(r"B_{\text{bis}}^{\text{torus}} = \frac{2N}{L}\,b_l",
                    "Cutting across the longest side *L* severs 2N/L links (wraparound included).")) if reflected else (
        Equation(r"T_{\text{A2A}} = \frac{N-1}{N}\cdot\frac{S_a}{B_{\text{inj}}}",
                 "All-to-all at each GPU's injection rate *B*inj: on a fat tree *B*eff with f = (N−k)/(N−1)."),)
    return math_peek("The governing equations · Act II", (
        Equation(r"T_{\text{AR}} = 2\,\frac{g-1}{g}\cdot\frac{S}{\eta\,B_{\text{NVLink}}} + "
                 r"2\,\frac{n-1}{n}\cdot\frac{S}{g\,B_{\text{eff}}}",
                 "Fat tree: reduce inside each node of *g* GPUs, one ring per rail across *n* nodes, laid out "
                 "leaf by leaf so the rail rings barely touch the spine."),
        Equation(r"T_{\text{AR}}^{\text{torus}} = 2\,\frac{N-1}{N}\cdot\frac{S}{6\,\eta\,b_l}",
                 "Torus: rings in all three dimensions at once, both ways round, keep all six links busy (a "
                 "collective over several torus axes gets each axis's bandwidth: the scaling book; Ying et al. "
                 "2018 ran the 2-D case on a TPU pod). An idealised bound: latency and the uneven stages of the schedule are "
                 "neglected. One ring both ways round would use two links and take three times as long."),
        *a2a,
    ), rows=(
        ("Gradients, *S*", fmt(S.act2_gradient_bytes, "GB")),
        ("All-to-all per GPU, *S*ₐ", fmt(s["a2_a2a"], "GB")),
        ("Bisection", fmt(st.bisection, "GB/s")),
        ("All-to-all rate per GPU", fmt(st.a2a_rate, "GB/s")),
        ("Communication per step", fmt(st.total_s, "s")),
    ), sources=(
        cite("dally_towles2004", "torus bisection 4N/k channels and uniform-traffic channel load k/8, ch. 5"),
        cite("thakur2005", "ring all-reduce and all-to-all bandwidth terms"),
        cite("ying2018", "2-D torus all-reduce on a TPU v3 pod"),
        cite("scaling_book", "'Sharded matrices': a gather over n axes takes V/(n·W) with W each link's "
                             "two-way bandwidth, and an all-reduce costs two of them"),
        cite("scaling_book", f"{RAILS} × {line_rate(C.IB_NDR_BW)} rails per DGX H100 node"),
        C.REGISTRY["ETH_400G_BW"].source,
        C.REGISTRY["NVLINK4_BW"].source,
    ))


ACT2 = Act(
    number=2, title="Choosing the Fabric", minutes="20–25 min",
    stakeholder_role="Dr Amara Osei, Head of Training Infrastructure",
    stakeholder=lambda context: (
        f"We are building {S.act2_gpus:,} GPUs: {S.act2_gpus // GPUS_PER_NODE} DGX H100 nodes. The network budget is "
        f"{fmt(S.budget_usd, 'usd')}. Each step all-reduces {fmt(S.act2_gradient_bytes, 'GB')} of gradients"
        + (f"; the mixture-of-experts models on our roadmap add {fmt(S.act2_a2a_bytes, 'GB')} of all-to-all per GPU "
           "per step" if context == "moe" else ", and we train dense models only") +
        f". I need communication under {fmt(S.budget_s, 's')} per step. Three quotes are on my desk."),
    scenario=lambda: (
        "In an **all-to-all** every GPU sends a slice to every other GPU, so about half of all bytes cross any "
        "cut through the middle.",
        "A **3D torus** links each GPU straight to six neighbours, with no switches (the quote gives each GPU "
        "six links of its own, as TPU pods do).",
    ),
    prediction=ACT2_PREDICTION,
    controls=(A2_FABRIC, A2_GPUS, A2_A2A, A2_ETA),
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="Fabric designer",
)

# ---- the whole lab -------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    active = {"a1_uplink_bound": leaf_spine(s).kept < S.uplink_floor, "a2_over_budget": act2_step(s).total_s > S.budget_s}
    return frozenset(name for name, on in active.items() if on)


RECORD_METRICS = tuple(MetricSpec(name, label, unit, f) for name, label, unit, f in (
    ("pattern", "Act I · Traffic pattern", "1", "num"),
    ("fabric_type", "Act II · Fabric", "1", "num"),
    ("cluster_size", "Act II · GPUs", "GPUs", "int"),
    ("oversubscription", "Act II · Oversubscription r of r:1 (none for the torus)", "1", "num"),
    ("bisection_bw_gb_per_s", "Act II · Bisection bandwidth at line rate (GB/s)", "GB/s", "num"),
    ("ar_time_s", "Act II · All-reduce per step", "s", "s"),
    ("a2a_time_s", "Act II · All-to-all per step", "s", "s"),
    ("constraint_hit", f"Act II · Over the {fmt(S.budget_s, 's')} budget", "1", "yesno"),
))


def results(s: State) -> dict[str, float | str | bool | None]:
    """The spec's ledger fields; its act1_prediction, act1_correct and act2_decision are the record's
    answers (a1_predict, a2_predict), which keep the letter, the time and the verdict."""
    st = act2_step(s)
    return {"fabric_type": st.fabric.key, "cluster_size": float(st.gpus), "oversubscription": st.fabric.oversub,
            "bisection_bw_gb_per_s": st.bisection / U.B_PER_GB, "pattern": s["a1_pattern"],
            "a1_kept": leaf_spine(s).kept,
            "ar_time_s": st.allreduce_s, "a2a_time_s": st.a2a_s, "constraint_hit": st.total_s > S.budget_s}


def lab_takeaways() -> list[str]:
    moe, dense = act2_facts("moe"), act2_facts("dense")
    return [
        f"Oversubscription costs a collective min(1, 1/(r·f)), not 1/r: on {S.act1_gpus} GPUs at {RATIO} a ring laid "
        f"out leaf by leaf keeps {fmt(SCENARIO_JOB.kept, 'pct')}, a scattered one {fmt(SCATTERED_JOB.kept, 'pct')}.",
        "A ring all-reduce needs neighbour bandwidth; bisection bounds the traffic that must cross the cut: "
        "all-to-all, as in mixture-of-experts.",
        f"At {S.act2_gpus:,} GPUs the all-reduce takes {moe['ib_ar']} on the fat trees and {moe['torus_ar']} on the "
        f"torus (six links busy, an ideal); with the MoE all-to-all only the non-blocking fat tree stays under "
        f"{fmt(S.budget_s, 's')} ({moe['ib_total']}), while a dense model passes on the torus ({dense['torus_total']}) "
        f"at {dense['torus_share']} of the fat tree's price.",
        f"A torus's bisection grows as N^(2/3): from {S.torus_small_gpus:,} to {S.torus_big_gpus:,} GPUs its "
        f"all-to-all rate per GPU falls from {moe['torus_rate_small']} to {moe['torus_rate_big']}.",
    ]


LAB = Lab(
    id="v2_03", volume=2, number=3, title="The Bisection Bandwidth Wall",
    invariant="Bisection bandwidth bounds only **traffic that must cross the cut**: rank order decides what "
              "oversubscription costs a ring; all-to-all is the pattern that hits the wall.",
    minutes="35–40 min", chapter="Compute Infrastructure", url="vol2/03-bisection-bandwidth/",
    description="A vendor says 2:1 uplinks halve a cluster's bisection. What does that cost a training job's "
                "all-reduce, and which fabric can a mixture-of-experts model afford?",
    reading=(
        "**Fat trees and oversubscription**: leaves, spines and what an r:1 uplink ratio means.",
        "**Bisection bandwidth**: the cut through the middle of a fabric and how it is counted.",
        "**Torus networks**: each node wired to its neighbours in every dimension, with no switches.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "**V2-02 The Interconnect Wall**: NICs per node set the wall for the hierarchical all-reduce used here.",
        "**V2-05 The Parallelism Paradox**: the parallelism strategies that call this lab's two collectives.",
        "**V2-06 The Bandwidth Invariant**: how many bytes a ring all-reduce moves per GPU.",
    ),
    presets={"context": {key: {"a2_a2a": a2a} for key, a2a in A2A_BYTES.items()}},
    record_metrics=RECORD_METRICS,
    terms=terms,
    hook=f"A vendor says {RATIO} uplinks halve a cluster's bisection. What does that cost a training job's "
         "all-reduce, and which fabric can a mixture-of-experts model afford?",
)
