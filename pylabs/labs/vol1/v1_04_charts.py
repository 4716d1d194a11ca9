"""The charts of V1-04 (The Data Gravity Trap): each pipeline stage's rate (Act I) and the transfer time
against the dataset's size on each link (Act II). A concern of its own, kept beside the lab module."""

from __future__ import annotations

import math

from pylabs.framework import chart, fmt
from pylabs.framework import charts as ch
from pylabs.labs.vol1.v1_04_model import GPUS, LINKS, Loader, Move, S, decade_range
from pylabs.physics import storage as io
from pylabs.physics import transfer

STAGE_NAMES = {"gpu": "the GPU", "storage": "storage", "cpu_decode": "CPU decode"}


def act1_chart(pipe: io.Pipeline, ld: Loader):
    names = [f"GPU<br>({GPUS[ld.gpu].name.split()[1]})", "Storage", "CPU<br>decode"]
    stages = ("gpu", "storage", "cpu_decode")
    values = [pipe.rates[k] for k in stages]
    colors = ["danger" if k == pipe.bottleneck and k != "gpu" else "good" if k == pipe.bottleneck else "series1"
              for k in stages]
    bars = {**ch.bars("Stage rate", names, values, colors), "showlegend": False}
    job = ch.line(f"Job runs at {fmt(pipe.samples_per_s, 'images/s')}", names, [pipe.samples_per_s] * len(names),
                  "accent", dash="dash")
    figure = ch.figure([bars, job], x=ch.axis("", "category", tickangle=0),
                       y=ch.axis("Images per second", "log", range=decade_range(values),
                                 **ch.decade_ticks([v / 10 for v in values] + values)))
    summary = (f"The GPU could train {fmt(pipe.gpu_per_s, 'images/s')}, storage delivers "
               f"{fmt(pipe.storage_per_s, 'images/s')} and the workers decode {fmt(pipe.decode_per_s, 'images/s')}; "
               f"the job runs at the slowest, {STAGE_NAMES[pipe.bottleneck]}.")
    rows = [(n.replace("<br>", " "), fmt(v, "images/s")) for n, v in zip(names, values)]
    return chart("a1_stages", "Rate of each pipeline stage", figure, summary, table=(("Stage", "Images per second"), rows))


def act2_chart(mv: Move):
    sizes = [10 ** (12 + k / 4) for k in range(13)]
    colours = dict(zip(LINKS.values(), ("series3", "series2", "series1")))
    traces = [ch.line(f"{fmt(bits, 'bit/s')}" + (" (yours)" if bits == mv.link_bits else ""), sizes,
                      [transfer.transfer_time_s(d, bits, mv.efficiency) for d in sizes],
                      colours[bits], dash="solid" if bits == mv.link_bits else "dot")
              for bits in LINKS.values()]
    traces.append({**ch.point("Your dataset", mv.data_bytes, mv.time_s, "danger" if mv.too_slow else "accent"),
                   "showlegend": False})
    shape, note = ch.hline(mv.budget_s, "danger", f"budget {fmt(mv.budget_s, 'h')}", log=True)
    ticks = {"tickvals": [t for t, _ in S.time_ticks], "ticktext": [label for _, label in S.time_ticks]}
    span = [math.log10(sizes[0]) - S.axis_pad, math.log10(sizes[-1]) + S.axis_pad]
    figure = ch.figure(traces, x=ch.axis("Dataset", "log", range=span, **ch.decade_ticks(sizes, lambda v: fmt(v, "B"))),
                       y=ch.axis("Transfer time", "log", **ticks), shapes=[shape], annotations=[note])
    summary = (f"At {fmt(mv.efficiency, 'pct')} of the line rate, {fmt(mv.data_bytes, 'B')} takes "
               f"{fmt(mv.time_s, 's')} over {fmt(mv.link_bits, 'bit/s')}; the budget is {fmt(mv.budget_s, 'h')}.")
    rows = [(fmt(d, "B"), *(fmt(transfer.transfer_time_s(d, b, mv.efficiency), "s") for b in LINKS.values()))
            for d in sizes[::4]]
    return chart("a2_transfer", "Transfer time against dataset size", figure, summary,
                 table=(("Dataset", *(fmt(b, "bit/s") for b in LINKS.values())), rows))
