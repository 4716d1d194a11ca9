"""The charts and notes of V1-07 (The Kernel Fusion Dividend): Act I's launch modes and busy-share sweep,
Act II's break-even chart, the GEMM note and the launch-bound failure's text. The lab module (``v1_07``)
places them on its page."""

from __future__ import annotations

import math

from pylabs.framework import State, callout, chart, fmt, prose
from pylabs.framework import charts as ch
from pylabs.labs.vol1.v1_07_model import MODELS, S, busy_sweep, gemm_s, stream, volume_sweep
from pylabs.physics import units as U
from pylabs.physics.devices import Device
from pylabs.physics.kernels import CompiledDeployment as Deployment, KernelStream

SHORT_MODES = {"async": "Async", "sync": "Sync", "fused": "Fused", "graphs": "Graph"}


def act1_chart(s: State, modes: dict[str, str]):
    streams = {m: stream(s["a1_model"], s["a1_cpu_s"], m, s["a1_fast"]) for m in modes}
    names = [("▶ " if m == s["a1_mode"] else "") + SHORT_MODES[m] for m in modes]
    busy = [streams[m].gpu_work_s * U.MS_PER_S for m in modes]
    idle = [streams[m].idle_s * U.MS_PER_S for m in modes]
    figure = ch.figure([ch.bars("GPU busy", names, busy, "series1"), ch.bars("GPU idle", names, idle, "warn")],
                       x=ch.axis("", "category", tickangle=0), y=ch.axis("Milliseconds per inference"),
                       stacked=True)
    name = MODELS[s["a1_model"]][0]
    a, y = streams["async"], streams["sync"]
    summary = (f"{name}: asynchronous launches take {fmt(a.seconds, 's')} per inference with the GPU busy "
               f"{fmt(a.busy, 'pct')}; synchronising after every kernel takes {fmt(y.seconds, 's')} "
               f"({fmt(y.busy, 'pct')} busy); a CUDA graph takes {fmt(streams['graphs'].seconds, 's')}.")
    rows = [(modes[m], fmt(streams[m].n_kernels, "int"), fmt(streams[m].seconds, "s"), fmt(streams[m].busy, "pct"))
            for m in modes]
    return chart("a1_modes", "Where an inference's time goes, by launch mode", figure, summary,
                 table=(("Launch mode", "Kernels", "Time", "GPU busy"), rows))


def act1_sweep(s: State, st: KernelStream):
    """Busy share against dispatch time: flat while the kernels cover the dispatch, then t_gpu / t_cpu.
    A CUDA graph is the asynchronous curve at its own per-kernel cost, so its point sits on that curve."""
    model, fast, mode = s["a1_model"], s["a1_fast"], s["a1_mode"]
    curves = {"async": ("Asynchronous", "series1", "solid"), "sync": ("Synchronised", "series2", "dash")}
    if mode == "fused":
        curves["fused"] = ("Fused", "good", "dot")
    cpus, busy = busy_sweep(model, tuple(curves), fast)
    traces = [ch.line(name, [c * U.US_PER_S for c in cpus], busy[m], color, dash=dash)
              for m, (name, color, dash) in curves.items()]
    traces.append(ch.point("Your setting", st.cpu_s * U.US_PER_S, st.busy, "accent"))
    figure = ch.figure(traces, x=ch.axis("CPU dispatch per kernel (µs)"),
                       y=ch.axis("GPU busy", tickformat=".0%", range=[0, 1.05]))
    gpu = stream(model, S.cloud_cpu_s, "async", fast).gpu_s
    summary = (f"With {fmt(gpu, 'us')} kernels, asynchronous launches keep the GPU fully busy while the dispatch "
               f"is {fmt(gpu, 'us')} or less; beyond that the busy share is kernel ÷ dispatch.")
    rows = [(fmt(c, "us"), *(fmt(busy[m][i], "pct") for m in curves)) for i, c in enumerate(cpus) if i % 7 == 0]
    return chart("a1_sweep", "GPU busy share against dispatch time", figure, summary,
                 table=(("Dispatch", *(name for name, _, _ in curves.values())), rows))


def act2_chart(d: Deployment):
    xs, low, high = volume_sweep(d)
    eager = ch.line("Eager", xs, [d.gpu_s(x, False) for x in xs], "series2")
    compiled = ch.line("Compiled (compile time included)", xs, [d.gpu_s(x, True) for x in xs], "series1")
    shapes, notes = [], []
    for x, color, label in ((d.breakeven, "muted", "break-even"), (d.volume, "good" if d.pays_back else "danger",
                                                                     "deployment")):
        if math.isfinite(x):
            line, note = ch.vline(x, color, label)
            shapes.append(line)
            # on a log x axis Plotly places annotations in log10 units (shapes in data units)
            right = math.log(x / low) / math.log(high / low) > 2 / 3  # keep the label on a phone screen
            notes.append({**note, "x": math.log10(x), "yanchor": "top", "xanchor": "right" if right else "left",
                          "xshift": -3 if right else 3, "y": 0.98 if label == "deployment" else 0.88})
    ys = [y for t in (eager, compiled) for y in t["y"]]
    figure = ch.figure([eager, compiled], x=ch.axis("Images served", "log", **ch.decade_ticks(xs)),
                       y=ch.axis("GPU time (s)", "log", **ch.decade_ticks(ys)), shapes=shapes, annotations=notes)
    summary = (f"Compiling costs {fmt(d.compiles * d.compile_s, 's')} up front and saves "
               f"{fmt(d.saved_per_item, 's')} per image; the lines cross at {fmt(d.breakeven, 'int')} images, "
               f"and this deployment serves {fmt(d.volume, 'int')}." if d.saves else
               f"Compiling costs {fmt(d.compiles * d.compile_s, 's')} up front and saves nothing per image: the "
               f"lines never cross, and this deployment serves {fmt(d.volume, 'int')} images.")
    rows = [(fmt(x, "int"), fmt(d.gpu_s(x, False), "s"), fmt(d.gpu_s(x, True), "s")) for x in xs[::10]]
    return chart("a2_breakeven", "GPU time to serve the traffic, eager against compiled", figure, summary,
                 table=(("Images", "Eager", "Compiled"), rows))


def gemm_note(device: Device, cpu_s: float):
    n, t = S.gemm_dim, gemm_s(device)
    return callout("info", "Nothing to fuse in one large GEMM",
                   prose(f"A {fmt(n, 'int')}³ FP16 matrix multiply does about {fmt(n / 3, 'int')} FLOP per byte, "
                         f"above the ridge point of the {device.name} ({fmt(device.ridge, 'FLOP/B')}): it runs at the "
                         f"compute roof for {fmt(t, 's')}. Its one launch ({fmt(cpu_s, 'us')}) is "
                         f"{fmt(cpu_s / t, 'pct')} of that, so fusing or compiling it gains almost nothing."))


def launch_bound_text(st: KernelStream, mode: str) -> str:
    if st.synchronous:
        overlapped = min(1.0, st.gpu_s / st.cpu_s)  # the GPU's busy share once the launches overlap
        return (f"Every launch waits for its kernel, so each kernel costs {fmt(st.cpu_s, 'us')} of dispatch "
                f"plus {fmt(st.gpu_s, 'us')} of work. Drop the synchronisation and the dispatch overlaps "
                f"the work: the GPU would be busy {fmt(overlapped, 'pct')}"
                + ("." if overlapped >= 0.5 else ", still launch-bound, so fusion or a CUDA graph is the larger "
                                                 "lever."))
    levers = ("one launch for the whole stream (a CUDA graph) brings the GPU back on top" if mode == "fused" else
              "fewer, larger kernels (fusion) or one launch for the whole stream (a CUDA graph) bring the GPU "
              "back on top")
    return (f"Each kernel costs the CPU {fmt(st.cpu_s, 'us')} to dispatch and the GPU {fmt(st.gpu_s, 'us')} to "
            f"run, so the GPU waits for every launch; {levers}.")
