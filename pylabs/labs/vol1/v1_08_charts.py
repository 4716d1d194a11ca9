"""The charts of V1-08 (The Training Memory Budget): Act I's memory by precision and Act II's memory
against micro-batch, from the model's budgets (numbers in, chart components out)."""

from __future__ import annotations

from pylabs.framework import chart, fmt
from pylabs.framework import charts as ch
from pylabs.labs.vol1.v1_08_model import BATCHES, Accumulation, Budget, Model, budget
from pylabs.physics import training
from pylabs.physics import units as U
from pylabs.physics.devices import Device

PRECISIONS = {"fp32": "FP32 throughout", "mixed": "Mixed (BF16 compute, FP32 master)", "bf16": "Pure BF16"}
OPTIMIZERS = {"sgd": "SGD", "momentum": "SGD + momentum", "adam": "Adam"}
MODES = {"none": "None (keep everything)", "selective": "Selective (or FlashAttention)",
         "full": "Full checkpointing"}

ROLES = (("weights_b", "Weights", "series1"), ("grads_b", "Gradients", "series2"),
         ("master_b", "FP32 master", "series4"), ("optimizer_b", "Optimizer", "series3"))
SHORT_PRECISIONS = {"fp32": "FP32", "mixed": "Mixed", "bf16": "Pure BF16"}
MODE_COLOURS = {"none": "series1", "selective": "series2", "full": "series3"}


def chart_unit(largest: float) -> tuple[float, str]:
    """GB, or TB once a bar passes a thousand GB."""
    return (U.B_PER_TB, "TB") if largest >= U.B_PER_TB else (U.B_PER_GB, "GB")


def act1_chart(model: Model, optimizer: str, chosen: str, budgets: dict[str, Budget], dev: Device, where: str):
    """Stacked static parts and activations for each precision, against the device's memory."""
    keys = tuple(PRECISIONS)
    names = [("▶ " if k == chosen else "") + SHORT_PRECISIONS[k] for k in keys]
    per = {k: training.static_bytes_per_param(k, optimizer) for k in keys}
    unit, name = chart_unit(max(max(b.total for b in budgets.values()), dev.mem_bytes))
    traces = [ch.bars(label, names, [getattr(per[k], role) * model.params / unit for k in keys], colour)
              for role, label, colour in ROLES]
    traces.append(ch.bars("Activations", names, [budgets[k].activations / unit for k in keys], "accent"))
    # the device line as a trace, so the legend names it and no label sits on a bar
    traces.append(ch.line(f"{fmt(dev.mem_bytes, 'B')} device", names, [dev.mem_bytes / unit] * len(keys), "danger",
                          dash="dot"))
    figure = ch.figure(traces, x=ch.axis("", "category", tickangle=0), y=ch.axis(name), stacked=True)
    summary = (f"With {OPTIMIZERS[optimizer]}, the {model.label} model needs "
               f"{fmt(budgets['fp32'].total, 'B')} in FP32, {fmt(budgets['mixed'].total, 'B')} in mixed precision "
               f"and {fmt(budgets['bf16'].total, 'B')} in pure BF16, against {fmt(dev.mem_bytes, 'B')} on the "
               f"{where}; your setting needs {fmt(budgets[chosen].total, 'B')}.")
    rows = [(SHORT_PRECISIONS[k], fmt(budgets[k].static, "B"), fmt(budgets[k].activations, "B"),
             fmt(budgets[k].total, "B")) for k in keys]
    return chart("a1_memory", "Training memory by precision", figure, summary,
                 table=(("Precision", "Static", "Activations", "Total"), rows))


def act2_chart(a: Accumulation, where: str):
    """Memory against micro-batch for each recomputation mode, log–log, with the device's line."""
    gb = U.B_PER_GB
    curves = {m: [budget(a.model, "mixed", "adam", b, a.seq, m, a.dev).total for b in BATCHES] for m in MODES}
    traces = [ch.line(MODES[m].split(" (")[0] + (" (yours)" if m == a.mode else ""), BATCHES,
                      [v / gb for v in curves[m]], MODE_COLOURS[m], markers=True) for m in MODES]
    traces.append(ch.point("Your micro-batch", a.batch, a.memory.total / gb, "accent"))
    line, note = ch.hline(a.dev.mem_bytes / gb, "danger", f"{fmt(a.dev.mem_bytes, 'B')} device", log=True)
    note.update(x=0, xanchor="left")  # small micro-batches sit under the line: the label stays clear
    ticks = BATCHES[::2]
    shown = [v / gb for m in MODES for v in curves[m]] + [a.dev.mem_bytes / gb]
    figure = ch.figure(traces, x=ch.axis("Micro-batch (sequences)", "log", tickvals=ticks,
                                         ticktext=[fmt(b, "int") for b in ticks]),
                       y=ch.axis("Memory", "log", **ch.decade_ticks(shown, lambda v: fmt(v * gb, "B"))),
                       shapes=[line], annotations=[note])
    largest = {m: max((b for b, v in zip(BATCHES, curves[m]) if v <= a.dev.mem_bytes), default=0) for m in MODES}
    # the sweep ends at BATCHES[-1]: a curve still under the line there may fit more (class 9 of the reviews)
    fits = {m: (fmt(v, "int") + (" or more" if v == BATCHES[-1] else "")) if v else "none"
            for m, v in largest.items()}
    summary = (f"On the {where} the largest micro-batch of {a.model.label} that fits is "
               f"{fits['none']} without recomputation, {fits['selective']} with selective and "
               f"{fits['full']} with full checkpointing.")
    rows = [(fmt(b, "int"), *(fmt(curves[m][i], "B") for m in MODES)) for i, b in enumerate(BATCHES)]
    return chart("a2_memory", "Memory against micro-batch", figure, summary,
                 table=(("Micro-batch", "None", "Selective", "Full"), rows))
