"""The levers V2-05's failure texts offer: only those the page still has (a lever already at its limit,
a stage already at ZeRO-3 or an optimizer already sharded, is never offered)."""

from __future__ import annotations

from dataclasses import replace

from pylabs.labs.vol2.v2_05_model import A2_BATCHES, DEFAULT_FABRIC, DPRun, Layout, S
from pylabs.physics import constants as C


def listed(levers: list[str]) -> str:
    return levers[0] if len(levers) == 1 else ", ".join(levers[:-1]) + " or " + levers[-1]


def oom_levers(run: DPRun) -> str:
    """Only the levers this page still offers (a higher stage; more GPUs where the stage shards enough)."""
    levers = [] if run.zero == 3 else ["a higher ZeRO stage"]
    wider = (replace(run, gpus=run.gpus * 2 ** k) for k in range(1, 8))
    if run.zero and any(w.gpus <= S.act1_gpus[1] and w.fits and w.splits for w in wider):
        levers.append("more GPUs, since the stage divides the state by N")
    if not levers:
        return "No GPU count or ZeRO stage on this page fits it: pick a smaller model."
    return f"Try {listed(levers)}."


def comm_levers(run: DPRun) -> str:
    """Only the levers not already at their limit."""
    levers = ["fewer GPUs"] if run.gpus > S.act1_gpus[0] else []
    if run.batch < S.act1_batches[1]:
        levers.append("a larger global batch")
    if not run.overlap:
        levers.append("overlapping the all-reduce with the backward pass")
    if run.nics * run.nic_bw < DEFAULT_FABRIC[0] * C.IB_NDR_BW:
        levers.append("more network rails per node")
    return f"Try {listed(levers)}." if levers else "Every lever on this page is at its limit."


def deeper(lay: Layout) -> Layout | None:
    """The next valid pipeline depth on the slider, if any."""
    pp = lay.pp * 2
    while pp <= S.act2_pp_max:
        if not replace(lay, pp=pp).problem():
            return replace(lay, pp=pp)
        pp *= 2
    return None


def a2_oom_levers(lay: Layout) -> str:
    """Only the levers not already used up (class 3: no lever offered at its limit)."""
    levers = ["turn on the distributed optimizer"] if not lay.distopt else []
    if deeper(lay) is not None:
        levers.append("add pipeline stages")
    if lay.tp < S.gpus_per_node:
        levers.append("widen tensor parallelism within the node")
    if not levers:
        return "No setting left on this page fits it."
    return listed(levers)[0].upper() + listed(levers)[1:] + "."


def bubble_levers(lay: Layout) -> str:
    levers = ["fewer stages"] if lay.pp > 1 else []
    if lay.batch < max(A2_BATCHES):
        levers.append("a larger global batch")
    if lay.tp < S.gpus_per_node:
        levers.append("wider tensor parallelism, which leaves fewer replicas and more microbatches each")
    return (listed(levers)[0].upper() + listed(levers)[1:] + " would shrink it.") if levers else ""
