"""The levers V2-05's failure texts offer. A lever is offered only when moving it alone, as far as
the page lets it go, clears the failure (the review tried each lever alone at its
end): a stage already at ZeRO-3, an optimizer already sharded or a batch already at its largest is never
offered, nor a lever that helps but cannot clear the failure by itself. When no single lever clears it,
the text says so and names the levers to combine."""

from __future__ import annotations

from dataclasses import replace

from pylabs.framework.formats import listed
from pylabs.labs.vol2.v2_05_model import A2_BATCHES, DEFAULT_FABRIC, DPRun, Layout, S
from pylabs.physics import constants as C


def _say(alone: list[str], helping: list[str], verb: str, none: str) -> str:
    """'Try A or B.', or, when no lever clears the failure alone, the ones to combine."""
    if alone:
        return f"{verb} {listed(alone)}."
    if len(helping) > 1:
        return f"No single setting clears it: combine {listed(helping, 'and')}."
    return none


# ---- Act I -------------------------------------------------------------------------------

def _wider(run: DPRun) -> list[DPRun]:
    return [replace(run, gpus=run.gpus * 2 ** k) for k in range(1, 8) if run.gpus * 2 ** k <= S.act1_gpus[1]]


def oom_levers(run: DPRun) -> str:
    """A higher stage (ZeRO-3, the end of the choice) or more GPUs (a count that fits and still splits)."""
    alone = ["a higher ZeRO stage"] if run.zero < 3 and replace(run, zero=3).fits else []
    if any(w.fits and w.splits for w in _wider(run)):
        alone.append("more GPUs, since the stage divides the state by N")
    if not alone and any(w.fits and w.splits for w in _wider(replace(run, zero=3))):
        return "No single setting fits it: combine ZeRO-3, which divides all of the state by N, and more GPUs."
    return _say(alone, [], "Try", "No GPU count or ZeRO stage on this page fits it: pick a smaller model.")


def _computes_longer(run: DPRun) -> bool:
    return run.fits and run.exposed_s <= run.compute_s


def _fewer(run: DPRun) -> DPRun | None:
    """The widest smaller GPU count that still fits and computes longer than it waits, if any (at 8
    GPUs a sharded model may no longer fit)."""
    counts = [run.gpus // 2 ** k for k in range(1, 8) if run.gpus // 2 ** k >= S.act1_gpus[0]]
    return next((replace(run, gpus=n) for n in counts if _computes_longer(replace(run, gpus=n))),
                replace(run, gpus=counts[-1]) if counts else None)


def comm_levers(run: DPRun) -> str:
    """Fewer GPUs (a smaller count that still fits), the largest batch, overlap, or the scenario's DGX rails."""
    moves = {"fewer GPUs": _fewer(run),
             "a larger global batch": replace(run, batch=S.act1_batches[1]) if run.batch < S.act1_batches[1] else None,
             "overlapping the all-reduce with the backward pass": None if run.overlap else replace(run, overlap=True),
             "more network rails per node": replace(run, nics=DEFAULT_FABRIC[0], nic_bw=C.IB_NDR_BW)
             if run.nics * run.nic_bw < DEFAULT_FABRIC[0] * C.IB_NDR_BW else None}
    alone = [name for name, moved in moves.items() if moved is not None and _computes_longer(moved)]
    helping = [name for name, moved in moves.items() if moved is not None]
    return _say(alone, helping, "Try", "Every lever on this page is at its limit.")


# ---- Act II ------------------------------------------------------------------------------

def _valid(lay: Layout) -> bool:
    return not lay.problem()


def _depths(lay: Layout, deeper: bool) -> list[Layout]:
    """The other valid pipeline depths on the slider, deeper or shallower than ``lay``'s."""
    pps = [2 ** k for k in range(S.act2_pp_max.bit_length())]
    return [replace(lay, pp=p) for p in pps if (p > lay.pp if deeper else p < lay.pp) and _valid(replace(lay, pp=p))]


def a2_oom_levers(lay: Layout) -> str:
    """The distributed optimizer, the deepest valid pipeline, or TP up to a node's width."""
    moves = {"turn on the distributed optimizer": None if lay.distopt else [replace(lay, distopt=True)],
             "add pipeline stages": _depths(lay, deeper=True) or None,
             "widen tensor parallelism within the node":
                 [replace(lay, tp=S.gpus_per_node)] if lay.tp < S.gpus_per_node else None}
    alone = [name for name, laid in moves.items() if laid and any(_valid(x) and x.fits for x in laid)]
    helping = [name.replace("turn on ", "").replace("add ", "more ").replace("widen ", "wider ")
               for name, laid in moves.items() if laid]
    text = _say(alone, helping, "", "No setting left on this page fits it.").strip()
    return text[0].upper() + text[1:]


def bubble_levers(lay: Layout) -> str:
    """Fewer stages (any valid shallower depth), the largest batch, or TP up to a node's width."""
    moves = {"fewer stages": _depths(lay, deeper=False) or None,
             "a larger global batch": [replace(lay, batch=max(A2_BATCHES))] if lay.batch < max(A2_BATCHES) else None,
             "wider tensor parallelism":  # not why (fewer replicas, more microbatches each): Act II's reflection asks it
                 [replace(lay, tp=S.gpus_per_node)] if lay.tp < S.gpus_per_node else None}
    alone = [name for name, laid in moves.items()
             if laid and any(_valid(x) and x.bubble <= S.bubble_limit for x in laid)]
    if alone:
        text = listed(alone)
        return text[0].upper() + text[1:] + " would bring it under the ceiling."
    helping = [name for name, laid in moves.items() if laid]
    return f"No single setting brings it under the ceiling: combine {listed(helping, 'and')}." if len(helping) > 1 else ""
