"""What V2-03's page says in words: the fabrics' names as they are sold, Act II's facts in the workload
the student locks in (MoE: 20 GB of all-to-all per GPU; dense: none), and the failure texts, which
name the lever that works for the state."""

from __future__ import annotations

from dataclasses import replace

from pylabs.framework import fmt
from pylabs.labs.vol2.v2_03_model import (A2A_BYTES, FABRICS, LEAF_PORTS, Fabric, LeafSpine, S, Step, scenario_step,
                                          step)
from pylabs.physics import constants as C
from pylabs.physics import fabric
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


WORKLOAD = {"moe": f"and {fmt(S.act2_a2a_bytes, 'GB')} of MoE all-to-all per GPU per step",
            "dense": "and no all-to-all: the model is dense"}


def terms(context: str) -> dict[str, str]:
    return {"workload": WORKLOAD[context]}


def links_compared(torus: Fabric, switched: Fabric) -> str:
    """The reflection's premise: torus links against switch ports, at their line rates."""
    if torus.link == switched.link:
        return f"Here both run at {line_rate(torus.link)} per link"
    return f"Here the torus links run at {line_rate(torus.link)} and the switch ports at {line_rate(switched.link)}"


def act2_facts(context: str) -> dict[str, str]:
    """Each fabric's step in the workload locked in (the dense one has no all-to-all)."""
    a2a = A2A_BYTES[context]
    steps = {key: scenario_step(key, a2a) for key in FABRICS}
    out = {}
    for key, st in steps.items():
        out |= {f"{key}_ar": fmt(st.allreduce_s, "s"), f"{key}_a2a": fmt(st.a2a_s, "s"),
                f"{key}_total": fmt(st.total_s, "s"), f"{key}_verdict": "inside" if st.meets else "over",
                f"{key}_rate": fmt(st.a2a_rate, "GB/s")}
    cheapest = min((FABRICS[k] for k, st in steps.items() if st.meets), key=lambda f: f.cost, default=None)
    for key, st in steps.items():   # a fabric that passes but is not the cheapest that does (dense: the Ethernet)
        beaten = st.meets and cheapest is not None and cheapest.key != key
        out[f"{key}_beaten"] = (f" It passes, but the {fabric_name(cheapest, short=True)} passes too, for "
                                f"{fmt(cheapest.cost, 'usd')} against {fmt(FABRICS[key].cost, 'usd')}." if beaten else "")
    passing = [f"{fabric_name(FABRICS[k], short=True)} ({fmt(st.total_s, 's')})" for k, st in steps.items() if st.meets]
    small, big = (step(FABRICS["torus"], n, S.eta, S.act2_a2a_bytes) for n in (S.torus_small_gpus, S.torus_big_gpus))
    dense = {key: scenario_step(key, 0.0) for key in FABRICS}
    return out | {
        "passing": (f"Every fabric is inside the budget here: {', '.join(passing)}." if len(passing) == len(steps)
                    else f"{' and '.join(passing)} {'is' if len(passing) == 1 else 'are'} inside the budget."
                    if passing else "No fabric is inside the budget here."),
        "dense": " / ".join(f"{fabric_name(FABRICS[k], short=True)} {fmt(st.total_s, 's')}" for k, st in dense.items()),
        "torus_a2a_note": (f"its all-to-all must cross a cut of {fmt(fabric.torus_bisection_links(fabric.torus_shape(S.act2_gpus)), 'int')} "
                           f"links and gets {out['torus_rate']} per GPU." if a2a else
                           "this workload has no all-to-all, so the cut it would cross costs nothing here."),
        "torus_share": fmt(S.cost_torus_usd / S.cost_ib_usd, "fraction"),
        "cut_here": fmt(fabric.torus_bisection_links(fabric.torus_shape(S.act2_gpus)), "int"),
        "links": links_compared(FABRICS["torus"], FABRICS["ib"]),
        "eth_kept": fmt(steps["eth"].a2a_rate / (S.eta * FABRICS["eth"].link), "pct"),
        "torus_rate_small": fmt(small.a2a_rate, "GB/s"), "torus_rate_big": fmt(big.a2a_rate, "GB/s"),
        "ft_rate_big": fmt(step(FABRICS["ib"], S.torus_big_gpus, S.eta, S.act2_a2a_bytes).a2a_rate, "GB/s"),
        "cut_small": fmt(fabric.torus_bisection_links(fabric.torus_shape(S.torus_small_gpus)), "int"),
        "cut_big": fmt(fabric.torus_bisection_links(fabric.torus_shape(S.torus_big_gpus)), "int"),
        "growth": fmt(S.torus_big_gpus / S.torus_small_gpus, "x"),
        "torus_ar_small": fmt(small.allreduce_s, "s"), "torus_ar_big": fmt(big.allreduce_s, "s"),
        "torus_a2a_big": fmt(big.a2a_s, "s"), "a2a": fmt(S.act2_a2a_bytes, "GB"), "alpha": fmt(C.IB_ALPHA_S, "s")}


def smallest_clear_job(job: LeafSpine) -> int:
    """The largest job (a power of two, as the slider moves) that keeps the uplink floor at this r and
    pattern: a smaller job keeps more of its traffic inside a leaf."""
    n = LEAF_PORTS
    while n * 2 <= job.gpus and replace(job, gpus=n * 2).kept >= S.uplink_floor:
        n *= 2
    return n


def uplink_bound_text(job: LeafSpine) -> str:
    """What the uplink-bound state costs, and the levers that clear it on their own (an all-to-all
    cannot be reordered; a lower r clears it for every pattern, since r = 2 keeps 1/(2f) > 1/2; the
    bytes moved do not change the share kept)."""
    levers = (f"An all-to-all cannot be reordered: buy back spine ports (a lower r), or run a smaller job "
              f"(at most {smallest_clear_job(job):,} GPUs here), which keeps more of its traffic inside a leaf."
              if job.pattern == "all_to_all" else
              "Order the ring leaf by leaf, or buy back spine ports (a lower r).")
    return (f"{fmt(job.cross, 'pct')} of the traffic leaves its leaf and shares uplinks worth 1/"
            f"{fmt(job.oversub, 'num')} of the leaf's ports, so each GPU gets {fmt(job.rate, 'GB/s')} instead of "
            f"{fmt(job.eta * job.link, 'GB/s')}. " + levers)


def over_budget_text(st: Step, eta: float, a2a_bytes: float) -> str:
    """The step's two terms, what the larger one needs, and only the levers that bring the step inside
    the budget on their own, each moved alone to its end (checked in this state, not at the defaults)."""
    said = (f"{fmt(st.allreduce_s, 's')} of all-reduce and {fmt(st.a2a_s, 's')} of all-to-all make "
            f"{fmt(st.total_s, 's')} per step. ")

    def clears(fab: Fabric = st.fabric, e: float = eta, a: float = a2a_bytes) -> bool:
        return step(fab, st.gpus, e, a).total_s <= S.budget_s

    if st.a2a_s < st.allreduce_s:
        why = "The all-reduce is the larger term; it needs link bandwidth, not bisection"
    elif st.fabric.oversub == 1.0:
        why = "The all-to-all is the larger term, and this fat tree is already non-blocking"
    else:
        why = "The all-to-all is the larger term, and it is bisection-bound"
    ib, torus = FABRICS["ib"], FABRICS["torus"]
    levers = [text for text, works in (
        ("pick the non-blocking fat tree", st.fabric is not ib and st.a2a_s >= st.allreduce_s and clears(fab=ib)),
        ("pick the torus, whose all-reduce uses six links", st.fabric is not torus and st.a2a_s < st.allreduce_s
         and clears(fab=torus)),
        (f"raise the protocol efficiency (at {fmt(S.eta_max, 'pct')} the step fits)", eta < S.eta_max and clears(e=S.eta_max)),
        ("move fewer expert bytes per step", a2a_bytes > 0 and clears(a=0.0)),
    ) if works]
    if not levers:
        return said + why + ": no single lever brings this step inside the budget; combine them."
    return said + why + ": " + ", or ".join(levers) + "."
