"""Lab V2-03 · The Bisection Bandwidth Wall.

Core invariant: bisection bandwidth bounds only the traffic that must cross the fabric's
cut. A ring all-reduce talks to its neighbours, so rank order decides what oversubscription
costs it; uniform all-to-all (mixture-of-experts) crosses the cut and hits the wall.

Act I: 128 GPUs on four 32-port HDR leaves with 2:1 uplinks. A ring scattered by the
scheduler keeps 1/(r·f) of its link rate, about two thirds, not the rule of thumb's 50 %;
ordering the ranks leaf by leaf restores all of it.
Act II: 1,024 GPUs (128 DGX H100, 8 rails), 32 GB of gradients plus 20 GB per GPU of MoE
all-to-all, under 1 s of communication per step. Every fabric passes the all-reduce; only
the non-blocking fat tree passes the all-to-all.

Choices where the spec left them open, and why:
- Context = workload (MoE roadmap or dense today): it sets Act II's all-to-all bytes and adds
  the all-to-all reading to Act I, so the student sees the traffic pattern decide.
- Act II's options go by price (torus, Ethernet, InfiniBand; InfiniBand stays C) with "none"
  as D: the upstream model failed its own correct fabric (2.84 s), the trap of the bisection rule.
- Fat-tree all-reduce is hierarchical (NVLink, then one ring per rail, laid out leaf by leaf as
  NCCL orders rings); the torus all-reduce is a bidirectional ring (two of six links; it passes).
- Act II opens on the 2:1 Ethernet, so its failure state shows as soon as the prediction locks.
- Bisection is shown at line rate; η (0.9) scales the rates collectives get. η, the leaf radix
  (32, half of a 64-port NDR switch) and the price quotes are labelled assumptions.

Ledger results: fabric_type, cluster_size, oversubscription (null for the torus),
bisection_bw_gb_per_s, pattern, ar_time_s, a2a_time_s, constraint_hit, act1_prediction,
act1_correct, act2_decision; the record adds context, controls and answers.
"""

from __future__ import annotations

from dataclasses import replace

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option, Pick,
                              Prediction, Range, Reflection, Slider, State, chart, failure, fmt, math_peek,
                              metric_grid, tone)
from pylabs.framework import charts as ch
from pylabs.labs.vol2.v2_03_model import (FABRICS, GPUS_PER_NODE, LEAF_PORTS, LETTERS, RAILS, SCENARIO_JOB, Fabric,
                                          LeafSpine, S, Step, act1_truth, act2_answer, scenario_step, step)
from pylabs.physics import collectives, fabric
from pylabs.physics import constants as C
from pylabs.physics.references import cite
from pylabs.physics.transfer import BITS_PER_BYTE


def ratio(oversub: float) -> str:
    """An oversubscription as it is quoted: 2 is "2:1"."""
    return f"{fmt(oversub, 'num')}:1"


def line_rate(bw: float) -> str:
    """A port's bandwidth as its line rate, the way it is sold: 50 GB/s is "400 Gb/s"."""
    return fmt(bw * BITS_PER_BYTE, "bit/s")


def ethernet(bw: float) -> str:
    """An Ethernet port by its name, the line rate: 50 GB/s is "400 GbE"."""
    return line_rate(bw).replace("b/s", "bE")


def fabric_name(f: Fabric, short: bool = False) -> str:
    return (f.short if short else f.name).format(rate=line_rate(f.link), ethernet=ethernet(f.link),
                                                 ratio=ratio(f.oversub) if f.oversub else "")


RATIO = ratio(float(S.act1_oversub))

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
                    default="ring_random", widget="select",
                    help="Ordered: ranks follow the leaves (topology-aware). Scattered: ranks sit wherever there "
                         f"was room. Up to {LEAF_PORTS} GPUs the job fits in one leaf and the pattern does not matter.")
A1_LINK = Choice("a1_link", "Link per GPU",
                 tuple(Option(k, f"{name} · {fmt(bw, 'GB/s')}") for k, (name, bw) in LINKS.items()),
                 default="hdr", widget="select", unit="B/s per direction")


def eta_slider(name: str) -> Slider:
    return Slider(name, "Protocol efficiency η", unit="1", min=0.5, max=1.0, step=0.01, default=S.eta, fmt="pct",
                  help=f"Share of the line rate that carries payload (assumed {fmt(S.eta, 'pct')} by default).")


A1_ETA = eta_slider("a1_eta")


def leaf_spine(s: State) -> LeafSpine:
    return LeafSpine(int(s["a1_gpus"]), LINKS[s["a1_link"]][1], float(s["a1_oversub"]), s["a1_pattern"], s["a1_eta"])


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"{S.act1_gpus} GPUs on {S.act1_gpus // LEAF_PORTS} leaves of {LEAF_PORTS}, {RATIO} uplinks, ranks placed "
           "wherever the scheduler found room. What share of its single-leaf bandwidth does the ring all-reduce keep?",
    quantity="share of single-leaf all-reduce bandwidth kept",
    unit_fmt="pct",
    options=(
        Range("A", "{range}: about all of it; a ring only talks to its neighbours", 0.85, None, 1.0,
              "A ring needs neighbour bandwidth, but with random placement most neighbours sit on another "
              "leaf: {cross} of the hops cross an uplink, and the uplinks carry {uplink_share} of the leaf's "
              "port rate."),
        Range("B", "{range}: about two thirds; only the hops that leave a leaf share the uplinks", 0.575, 0.85,
              2 / 3, "{cross} of the ring's hops leave their leaf and share {uplinks} uplinks, so each GPU keeps "
              "1/(r·f) = **{kept}**. Ordering the ranks leaf by leaf sends only 1 hop in {leaf} across, and the "
              "ring keeps {aware}."),
        Range("C", f"{{range}}: about half; {RATIO} halves the bisection", 0.375, 0.575, 0.5,
              "Half would hold if every byte crossed the spine. Bisection bounds traffic that crosses the cut; "
              "the {inside} of hops that stay inside a leaf never touch an uplink."),
        Range("D", "{range}: a quarter or less; every hop fights for the spine", None, 0.375, 0.25,
              "Oversubscription divides the uplinks by r, not by r², and {inside} of the hops never leave their "
              "leaf at all."),
    ),
    truth=act1_truth,
)

ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt=f"On the same {RATIO} fabric, ordering the ring's ranks leaf by leaf brings it back to full speed. Why?",
    options=(
        Claim("A", "NCCL compresses the bytes that cross the spine.",
              "NCCL sends the same bytes on every hop; nothing is compressed."),
        Claim("B", "Only one hop in k leaves each leaf, far below the 1/r share the uplinks can carry: a ring "
                   "needs full-rate neighbour paths, not bisection.",
              "With {leaf} GPUs per leaf, 1 hop in {leaf} crosses an uplink; {uplinks} uplinks per leaf carry "
              "that easily. A non-blocking fat tree gives every leaf-to-leaf path the full rate; a {ratio} one only "
              "when few flows leave the leaf."),
        Claim("C", "Ordered rings route around the spine through NVLink.",
              "NVLink stops at the node; leaves are joined only through the spine."),
        Claim("D", "Ordering the ranks makes the spine non-blocking.",
              "The spine keeps its {ratio} ratio; what changes is how much traffic has to use it."),
    ),
    answer_letter="B",
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
                act=1),
    FailureSpec("a2_over_budget", f"Over the {fmt(S.budget_s, 's')} budget: communication stalls every step", act=2),
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
        parts.append(failure(F["a1_uplink_bound"],
                             f"{fmt(job.cross, 'pct')} of the traffic leaves its leaf and shares uplinks worth 1/"
                             f"{fmt(job.oversub, 'num')} of the leaf's ports, so each GPU gets {fmt(job.rate, 'GB/s')} "
                             f"instead of {fmt(job.eta * job.link, 'GB/s')}. Order the ring leaf by leaf, or buy "
                             "back spine ports."))
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
    summary = (f"With uplinks at {fmt(1 / job.oversub, 'pct')} of the leaf ports, a ring laid out leaf by leaf keeps "
               f"{fmt(min(aware), 'pct')} or more at every size; a scattered ring or an all-to-all keeps "
               f"{fmt(here, 'pct')} at {job.gpus:,} GPUs and {fmt(scattered[-1], 'pct')} at {sizes[-1]:,}, "
               "approaching 1/r as the job spreads over more leaves.")
    rows = [(f"{n:,}", fmt(a, "pct"), fmt(b, "pct")) for n, a, b in zip(sizes, aware, scattered)]
    return chart("a1_locality", "What oversubscription costs, by traffic pattern", figure, summary,
                 table=(("GPUs", "Ring, leaf by leaf", "Random ring or all-to-all"), rows))


def act1_facts() -> dict[str, str]:
    job = SCENARIO_JOB
    return {"cross": fmt(job.cross, "pct"), "inside": fmt(1 - job.cross, "pct"), "kept": fmt(job.kept, "pct"),
            "aware": fmt(replace(job, pattern="ring_aware").kept, "pct"), "leaf": str(LEAF_PORTS),
            "uplinks": str(int(LEAF_PORTS / job.oversub)), "uplink_share": fmt(1 / job.oversub, "pct"), "ratio": RATIO}


def act1_math(s: State):
    job = leaf_spine(s)
    return math_peek("The governing equations · Act I", (
        Equation(r"B_{\text{bis}} = \frac{N\,b}{2\,r}\quad(N > k)",
                 "Bisection of a leaf-spine fabric: *N* GPUs with *b* bytes/s per direction, *r*:1 uplinks, "
                 "*k* GPU ports per leaf."),
        Equation(r"f_{\text{ordered}} = \frac{1}{k},\qquad f_{\text{random}} = \frac{N-k}{N-1}",
                 "Share of traffic that leaves its leaf: one hop per leaf for an ordered ring; for a scattered "
                 "ring or a uniform all-to-all, the chance that the partner sits on another leaf."),
        Equation(r"B_{\text{eff}} = \eta\,b\,\min\!\left(1, \frac{1}{r\,f}\right)",
                 "A leaf's off-leaf traffic *k·f·B* must fit its *k/r* uplinks."),
        Equation(r"T_{\text{ring}} = 2\,\frac{N-1}{N}\cdot\frac{S}{B_{\text{eff}}}",
                 "Ring all-reduce of *S* bytes at the rate each GPU keeps."),
    ), rows=(
        ("Link, *b*", fmt(job.link, "GB/s")),
        ("GPU ports per leaf, *k* (assumed: half of a 64-port leaf)", str(LEAF_PORTS)),
        ("Leaving the leaf, *f*", fmt(job.cross, "pct")),
        ("Kept, min(1, 1/(r·f))", fmt(job.kept, "pct")),
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
        f"switches the vendor quotes {RATIO} uplinks, and says {RATIO} simply halves the bisection. Our scheduler puts "
        "ranks wherever there is room. Before I sign: how much of the all-reduce bandwidth we see inside one "
        "leaf will we keep across the pod?"),
    scenario=lambda: (
        f"A **leaf-spine fat tree** joins leaves of {LEAF_PORTS} GPUs through spine switches. At **r:1** "
        "oversubscription each leaf has 1/r as many uplinks as GPU ports; at 1:1 it is non-blocking.",
        "**Bisection bandwidth** is what crosses a cut through the middle of the fabric. A ring all-reduce, "
        "though, only sends to its next rank: which hops leave a leaf depends on where the ranks sit.",
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


def offer(letter: str, blurb: str, why: str) -> Claim:
    fab = FABRICS[LETTERS[letter]]
    key = fab.key
    return Claim(letter, f"**{fabric_name(fab)}** ({fmt(fab.cost, 'usd')}): {blurb}",
                 f"{{{key}_ar}} all-reduce + {{{key}_a2a}} all-to-all = **{{{key}_total}}** per step, "
                 f"{{{key}_verdict}} the {fmt(S.budget_s, 's')} budget. " + why)


ACT2_PREDICTION = Pick(
    id="a2_predict", act=2,
    prompt=f"{S.act2_gpus:,} GPUs, {fmt(S.act2_gradient_bytes, 'GB')} of gradients per step, and on the roadmap "
           f"{fmt(S.act2_a2a_bytes, 'GB')} of MoE all-to-all per GPU per step. Which is the cheapest fabric that keeps "
           f"communication under {fmt(S.budget_s, 's')} per step within {fmt(S.budget_usd, 'usd')}?",
    quantity="the cheapest fabric that meets the budget",
    options=(
        offer("A", "the cheapest; each GPU talks only to its six neighbours",
              "Its all-reduce runs as neighbour traffic, but its bisection grows only as N^(2/3), so the "
              "all-to-all crawls."),
        offer("B", "switched like InfiniBand, with half the spine",
              "Its rail rings are laid out leaf by leaf, so the thin spine costs the all-reduce nothing; the "
              "all-to-all crosses the spine and keeps {eth_kept} of the port rate."),
        offer("C", f"full bisection, at {fmt(S.cost_ib_usd / S.cost_eth_usd, 'x')} the Ethernet quote",
              "For dense gradients alone every fabric passes ({dense}), and the Ethernet would be right at "
              "{eth_share} of the price. The all-to-all is what needs the full bisection."),
        Claim("D", "**None of them**: at this scale every fabric needs more than a second",
              "The non-blocking fat tree needs {ib_total}, inside the budget. The upstream version of this lab "
              "got more than a second for it by treating the all-reduce as bisection-bound and halving each "
              "GPU's share of the bisection."),
    ),
    decide=act2_answer,
)


def links_compared(torus: Fabric, switched: Fabric) -> str:
    """The reflection's premise: torus links against switch ports, at their line rates."""
    if torus.link == switched.link:
        return f"Here both run at {line_rate(torus.link)} per link"
    return f"Here the torus links run at {line_rate(torus.link)} and the switch ports at {line_rate(switched.link)}"


def act2_facts() -> dict[str, str]:
    out = {}
    for key in FABRICS:
        st = scenario_step(key)
        out |= {f"{key}_ar": fmt(st.allreduce_s, "s"), f"{key}_a2a": fmt(st.a2a_s, "s"),
                f"{key}_total": fmt(st.total_s, "s"), f"{key}_verdict": "inside" if st.meets else "over"}
    small, big = (step(FABRICS["torus"], n, S.eta, S.act2_a2a_bytes) for n in (S.torus_small_gpus, S.torus_big_gpus))
    return out | {
        "dense": " / ".join(f"{fabric_name(FABRICS[k], short=True)} {out[k + '_ar']}" for k in FABRICS),
        "links": links_compared(FABRICS["torus"], FABRICS["ib"]),
        "eth_share": fmt(S.cost_eth_usd / S.cost_ib_usd, "pct"),
        "eth_kept": fmt(scenario_step("eth").a2a_rate / (S.eta * FABRICS["eth"].link), "pct"),
        "torus_rate_small": fmt(small.a2a_rate, "GB/s"), "torus_rate_big": fmt(big.a2a_rate, "GB/s"),
        "ft_rate_big": fmt(step(FABRICS["ib"], S.torus_big_gpus, S.eta, S.act2_a2a_bytes).a2a_rate, "GB/s"),
        "cut_small": fmt(fabric.torus_bisection_links(fabric.torus_shape(S.torus_small_gpus)), "int"),
        "cut_big": fmt(fabric.torus_bisection_links(fabric.torus_shape(S.torus_big_gpus)), "int"),
        "growth": fmt(S.torus_big_gpus / S.torus_small_gpus, "x")}


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt=f"Grow the torus from {S.torus_small_gpus:,} to {S.torus_big_gpus:,} GPUs: each GPU's all-to-all rate "
           "falls, while the fat tree's stays put. Why?",
    options=(
        Claim("A", "Every extra hop adds latency to each message.",
              "A hop costs well under a microsecond; moving gigabytes per GPU is a bandwidth problem."),
        Claim("B", "Torus links are slower than switch ports.",
              "{links}; the torus even has six of them per GPU."),
        Claim("C", "The torus's bisection grows as N^(2/3) while the all-to-all traffic across the cut grows "
                   "as N, so each GPU's share falls as N^(-1/3).",
              "The cut grows from {cut_small} to {cut_big} links for {growth} the GPUs, so the all-to-all rate per GPU "
              "falls from {torus_rate_small} to {torus_rate_big}; the fat tree's bisection grows with N and "
              "holds {ft_rate_big}."),
        Claim("D", "A ring all-reduce on a torus slows down as it grows.",
              "The ring's time is (N−1)/N·S/(η·b), nearly constant in N: the all-reduce is not what degrades."),
    ),
    answer_letter="C",
)

A2_FABRIC = Choice("a2_fabric", "Fabric", tuple(Option(k, f"{fabric_name(f)} · {fmt(f.cost, 'usd')}")
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
        M["a2_comm_s"].show(st.total_s, "danger" if over else "good", f"budget {fmt(S.budget_s, 's')}"),
        M["a2_allreduce_s"].show(st.allreduce_s, note=f"{fmt(S.act2_gradient_bytes, 'GB')} of gradients"),
        M["a2_a2a_s"].show(st.a2a_s, note=f"{fmt(s['a2_a2a'], 'GB')} per GPU"),
        M["a2_bisection"].show(st.bisection,
                               note=f"{shape} torus" if torus else f"{ratio(st.fabric.oversub)} uplinks"),
        M["a2_a2a_rate"].show(st.a2a_rate, note=f"of {fmt(s['a2_eta'] * st.fabric.link, 'GB/s')} per link"),
        M["a2_cost"].show(st.fabric.cost, note=f"budget {fmt(S.budget_usd, 'usd')} (quotes assumed)"),
    )]
    if over:
        parts.append(failure(F["a2_over_budget"],
                             f"{fmt(st.allreduce_s, 's')} of all-reduce and {fmt(st.a2a_s, 's')} of all-to-all make "
                             f"{fmt(st.total_s, 's')} per step. The all-to-all is bisection-bound: pick a fabric with "
                             "more bisection, or move fewer expert bytes."))
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
    st = act2_step(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"T_{\text{AR}} = 2\,\frac{g-1}{g}\cdot\frac{S}{\eta\,B_{\text{NVLink}}} + "
                 r"2\,\frac{n-1}{n}\cdot\frac{S}{g\,B_{\text{eff}}}",
                 "Fat tree: reduce inside each node of *g* GPUs, one ring per rail across *n* nodes, laid out "
                 "leaf by leaf so the rail rings barely touch the spine."),
        Equation(r"T_{\text{AR}}^{\text{torus}} = \frac{N-1}{N}\cdot\frac{S}{\eta\,b_l}",
                 "Torus: a ring sending both ways round the torus uses two neighbour links and no bisection."),
        Equation(r"T_{\text{A2A}} = \frac{N-1}{N}\cdot\frac{S_a}{B_{\text{inj}}},\quad "
                 r"B_{\text{inj}}^{\text{torus}} = \min\!\left(6\,\eta\,b_l, \frac{8\,\eta\,b_l}{L}\right)",
                 "All-to-all: fat tree *B*inj = *B*eff with f = (N−k)/(N−1); a torus with longest side *L* "
                 "loads its busiest links with *L*/8 of each GPU's traffic."),
        Equation(r"B_{\text{bis}}^{\text{torus}} = \frac{2N}{L}\,b_l \;\propto\; N^{2/3}",
                 "Cutting across the longest side severs 2N/L links (2k² for a k×k×k cube, wraparound included)."),
    ), rows=(
        ("Gradients, *S*", fmt(S.act2_gradient_bytes, "GB")),
        ("All-to-all per GPU, *S*a", fmt(s["a2_a2a"], "GB")),
        ("Bisection", fmt(st.bisection, "GB/s")),
        ("All-to-all rate per GPU", fmt(st.a2a_rate, "GB/s")),
        ("Communication per step", fmt(st.total_s, "s")),
    ), sources=(
        cite("dally_towles2004", "torus bisection 4N/k channels and uniform-traffic channel load k/8, ch. 5"),
        cite("thakur2005", "ring all-reduce and all-to-all bandwidth terms"),
        cite("scaling_book", f"{RAILS} × {line_rate(C.IB_NDR_BW)} rails per DGX H100 node"),
        C.REGISTRY["ETH_400G_BW"].source,
        C.REGISTRY["NVLINK4_BW"].source,
    ))


ACT2 = Act(
    number=2, title="Choosing the Fabric", minutes="20–25 min",
    stakeholder_role="Dr Amara Osei, Head of Training Infrastructure",
    stakeholder=lambda: (
        f"We are building {S.act2_gpus:,} GPUs: {S.act2_gpus // GPUS_PER_NODE} DGX H100 nodes with {RAILS} NICs each. "
        f"The network budget is {fmt(S.budget_usd, 'usd')}. Today each step all-reduces "
        f"{fmt(S.act2_gradient_bytes, 'GB')} of gradients; next year's mixture-of-experts models add "
        f"{fmt(S.act2_a2a_bytes, 'GB')} of all-to-all per GPU per step. I need communication under "
        f"{fmt(S.budget_s, 's')} per step. Three quotes are on my desk."),
    scenario=lambda: (
        "In an **all-to-all** every GPU sends a slice to every other GPU, so about half of all bytes must cross "
        "any cut through the middle: this is the traffic that bisection bandwidth bounds.",
        "A **3D torus** links each GPU to six neighbours with no switches; cutting it in half severs only the "
        "links of one plane, so its bisection grows more slowly than the number of GPUs.",
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


def results(s: State) -> dict[str, float | str | bool | None]:
    st = act2_step(s)
    first = s.answers.get("a1_predict")
    second = s.answers.get("a2_predict")
    return {"fabric_type": st.fabric.key, "cluster_size": float(st.gpus), "oversubscription": st.fabric.oversub,
            "bisection_bw_gb_per_s": st.bisection / S.bytes_per_gb, "pattern": s["a1_pattern"],
            "a1_kept": leaf_spine(s).kept,
            "ar_time_s": st.allreduce_s, "a2a_time_s": st.a2a_s, "constraint_hit": st.total_s > S.budget_s,
            "act1_prediction": first.choice if first else None,
            "act1_correct": first.choice == ACT1_PREDICTION.answer() if first else None,
            "act2_decision": second.choice if second else None}


def lab_takeaways() -> list[str]:
    job, facts = SCENARIO_JOB, act2_facts()
    return [
        f"Oversubscription costs a collective min(1, 1/(r·f)), not 1/r: a scattered ring on {S.act1_gpus} GPUs "
        f"keeps {fmt(job.kept, 'pct')} at {RATIO}, an ordered ring "
        f"{fmt(replace(job, pattern='ring_aware').kept, 'pct')}.",
        "A ring all-reduce needs neighbour bandwidth; bisection bounds the traffic that must cross the cut: "
        "all-to-all, as in mixture-of-experts.",
        f"At {S.act2_gpus:,} GPUs the all-reduce takes {facts['ib_ar']} on the fat trees and {facts['torus_ar']} on "
        f"the torus; with the all-to-all only the non-blocking fat tree stays under {fmt(S.budget_s, 's')} "
        f"({facts['ib_total']}).",
        f"A torus's bisection grows as N^(2/3): from {S.torus_small_gpus:,} to {S.torus_big_gpus:,} GPUs its "
        "all-to-all rate per GPU falls from "
        f"{facts['torus_rate_small']} to {facts['torus_rate_big']}.",
    ]


LAB = Lab(
    id="v2_03", volume=2, number=3, title="The Bisection Bandwidth Wall",
    invariant="Bisection bandwidth bounds only **traffic that must cross the cut**: rank order decides what "
              "oversubscription costs a ring; all-to-all is the pattern that hits the wall.",
    minutes="35–40 min", chapter="Compute Infrastructure", url="vol2/03-bisection-bandwidth/",
    reading=(
        "**Fat trees and oversubscription**: leaves, spines and what an r:1 uplink ratio means.",
        "**Bisection bandwidth**: the cut through the middle, and which traffic has to cross it.",
        "**Torus networks**: neighbour links without switches, and how their bisection scales.",
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
        "**V2-05 The Parallelism Paradox**: expert and tensor parallelism decide which collectives cross the fabric.",
        "**V2-06 The Bandwidth Invariant**: why the ring's 2(N−1)/N bytes per GPU hardly depend on N.",
    ),
    presets={"context": {"moe": {"a2_a2a": S.act2_a2a_bytes}, "dense": {"a2_a2a": 0.0}}},
)
