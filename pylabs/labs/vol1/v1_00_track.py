"""V1-00's track: the choice every later Volume I lab opens in, and its north star.

The track is V1-00's design decision (the ``track`` control in Act II's instruments, read by later labs
through ``contexts.TRACK``); its cards and north star come from the one device table.
"""

from __future__ import annotations

import dataclasses

from pylabs.framework import MetricSpec, callout, fmt, prose
from pylabs.labs.vol1.contexts import LABELS, deployment, device
from pylabs.labs.vol1.v1_00_model import S
from pylabs.physics import constants as C

TRACK_CHOICE = deployment(name="track", label="Your track for Volume I", default="cloud",
                          help="Every later Volume I lab opens in the track you choose here (you can still switch "
                               "in each lab before its first prediction). It is saved in your Design Ledger.")

TRACK_METRICS = {m.name: m for m in (
    MetricSpec("track_power", "Your track · power budget", "W", "watts"),
    MetricSpec("track_peak", "Your track · peak compute", "op/s", "FLOP/s4"),
    MetricSpec("track_memory", "Your track · memory for a model", "B", "B"),
)}

NORTH_STARS = {
    "cloud": "An H100 at up to {power}: its dense BF16 peak is reached only when memory bandwidth, the "
             "interconnect and the batch size keep up.",
    "edge": "A Jetson Orin NX in a {power_lo} to {power} power mode (JetPack 6.2 adds a {power_super} mode and an "
            "uncapped one, at higher clocks than the peak here counts): count its GPU's dense FP16 rate, not the "
            "advertised sparse INT8 total over the GPU and its accelerators.",
    "mobile": "An A17 Pro phone: the Neural Engine's rate (Apple does not state its precision), memory shared "
              "with everything else, and about {power} sustained before it throttles (assumed).",
    "tiny": "A Cortex-M7 microcontroller: the model must fit the largest contiguous SRAM block, and the "
            "average power should stay at or below about {budget} (the mark the tinyML community set for itself) "
            "by sleeping between inferences.",
}
# Apple states the Neural Engine's rate in operations, with no precision: TOP/s. The others are
# floating-point rates, shown at the figures their datasheets publish (989.4 TFLOP/s).
PEAK_FORMAT = {"mobile": "OP/s"}
MEMORY_FORMAT = {"tiny": "iB"}  # a microcontroller's memory in binary units, as ST states it (512 KiB)
CARD_NOTES = {  # track -> (power, memory)
    "cloud": ("maximum, per GPU", "HBM3"), "edge": (f"top of the datasheet's {fmt(C.ORIN_NX_POWER_MIN_W, 'watts')} to "
             f"{fmt(C.ORIN_NX_POWER_MAX_W, 'watts')} modes", "LPDDR5"),
    "mobile": ("sustained (assumed)", "the whole RAM (reported, not published by Apple); iOS keeps part of it"),
    "tiny": ("average, by duty cycling", "largest contiguous SRAM block"),
}


def track_cards(track: str) -> list:
    d = device(track)
    power = S.tiny_average_budget_w if track == "tiny" else d.power_w
    power_note, memory_note = CARD_NOTES[track]
    peak = dataclasses.replace(TRACK_METRICS["track_peak"], fmt=PEAK_FORMAT.get(track, "FLOP/s4"))
    memory = dataclasses.replace(TRACK_METRICS["track_memory"], fmt=MEMORY_FORMAT.get(track, "B"))
    return [TRACK_METRICS["track_power"].show(power, note=power_note), peak.show(d.peak_ops, note=d.precision),
            memory.show(d.mem_bytes, note=memory_note)]


def north_star(track: str):
    d = device(track)
    text = NORTH_STARS[track].format(power=fmt(d.power_w, "watts"), power_lo=fmt(C.ORIN_NX_POWER_MIN_W, "watts"),
                                     power_super=fmt(C.ORIN_NX_SUPER_POWER_W, "watts"),
                                     budget=fmt(S.tiny_average_budget_w, "watts"))
    return callout("info", f"Your north star · {LABELS[track]}",
                   prose(text, "Every later Volume I lab opens in this track; the Design Ledger keeps it."))
