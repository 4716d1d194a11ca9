"""Volume I's four deployment contexts: the track chosen in V1-00 and read by later labs.

A Volume I lab declares its context with ``deployment(...)`` (all four, or the two or three its
story compares) and ``context_from=TRACK`` on its ``Lab``: a new attempt then starts in the track
the student chose in V1-00, when that track is one of the lab's options, and in ``default``
otherwise (a lab opened directly, or an empty ledger). ``device(state[...])`` gives the device
of the context from the one device table.
"""

from __future__ import annotations

from typing import Mapping

from pylabs.framework.controls import Choice, Option
from pylabs.physics.devices import BY_CONTEXT, Device

TRACK = ("v1_00", "track")  # the control in V1-00 that records the student's track

LABELS = {
    "cloud": "Cloud (NVIDIA H100)",
    "edge": "Edge (Jetson Orin NX)",
    "mobile": "Mobile (A17 Pro phone)",
    "tiny": "TinyML (Cortex-M7 MCU)",
}
CONTEXTS = tuple(LABELS)


def deployment(values: tuple[str, ...] = CONTEXTS, default: str = "cloud", name: str = "context",
               label: str = "Deployment context", help: str = "",
               labels: Mapping[str, str] | None = None) -> Choice:
    """A context control over some of the four deployment contexts, in the canonical order.
    ``labels`` renames some of them, for a lab whose story runs on another device of the same
    context (e.g. ``{"cloud": "Cloud (NVIDIA A100)"}``); the values stay the four tracks."""
    unknown = (set(values) | set(labels or {})) - set(LABELS)
    if unknown:
        raise ValueError(f"unknown deployment contexts {sorted(unknown)}; use {CONTEXTS}")
    names = {**LABELS, **(labels or {})}
    ordered = tuple(v for v in CONTEXTS if v in values)
    return Choice(name, label, tuple(Option(v, names[v]) for v in ordered), default, help=help)


def device(context: str) -> Device:
    """The device a deployment context runs on (handbook/devices.md)."""
    return BY_CONTEXT[context]
