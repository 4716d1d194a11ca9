"""Plotly figures as plain dicts (no plotly.py at run time).

Colours are ``token:<name>`` strings; the browser resolves each against the
CSS custom property ``--pl-chart-<name>`` so charts follow light and dark mode.
Tokens: ink, muted, grid, accent, series1..series4, good, warn, danger.
"""

from __future__ import annotations

import math
from typing import Callable, Sequence


def axis(title: str, kind: str = "linear", **extra) -> dict:
    """An axis; ``kind`` is Plotly's axis type: linear, log or category."""
    return {"title": {"text": title}, "type": kind, **extra}


def line(name: str, x: Sequence[float], y: Sequence[float], color: str, dash: str = "solid",
         markers: bool = False, hover: str | None = None) -> dict:
    trace = {"type": "scatter", "mode": "lines+markers" if markers else "lines", "name": name,
             "x": list(x), "y": list(y), "line": {"color": f"token:{color}", "dash": dash, "width": 2.5}}
    if markers:
        trace["marker"] = {"color": f"token:{color}", "size": 7}
    if hover:
        trace["hovertemplate"] = hover
    return trace


def point(name: str, x: float, y: float, color: str, symbol: str = "circle", text: str = "") -> dict:
    """One highlighted point (the current setting) with an optional label."""
    return {"type": "scatter", "mode": "markers+text" if text else "markers", "name": name,
            "x": [x], "y": [y], "text": [text] if text else None, "textposition": "top center",
            "marker": {"color": f"token:{color}", "size": 13, "symbol": symbol,
                       "line": {"color": "token:ink", "width": 1.5}}}


def bars(name: str, x: Sequence[str], y: Sequence[float], color: str | Sequence[str],
         text: Sequence[str] | None = None, horizontal: bool = False) -> dict:
    colors = f"token:{color}" if isinstance(color, str) else [f"token:{c}" for c in color]
    trace = {"type": "bar", "name": name, "marker": {"color": colors}}
    trace.update({"y": list(x), "x": list(y), "orientation": "h"} if horizontal else {"x": list(x), "y": list(y)})
    if text is not None:
        trace.update({"text": list(text), "textposition": "auto"})
    return trace


def figure(traces: Sequence[dict], x: dict, y: dict, stacked: bool = False, height: int = 320,
           shapes: Sequence[dict] = (), annotations: Sequence[dict] = (), legend: bool = True) -> dict:
    layout = {"xaxis": x, "yaxis": y, "height": height, "showlegend": legend,
              "legend": {"orientation": "h", "x": 0, "y": 1.02, "xanchor": "left", "yanchor": "bottom",
                         "traceorder": "normal"},
              "margin": {"l": 56, "r": 12, "t": 36 if legend else 12, "b": 48}}
    if stacked:
        layout["barmode"] = "stack"
    if shapes:
        layout["shapes"] = list(shapes)
    if annotations:
        layout["annotations"] = list(annotations)
    return {"data": list(traces), "layout": layout}


def vline(x: float, color: str = "muted", label: str = "") -> tuple[dict, dict | None]:
    """A vertical reference line across the plot and its label."""
    shape = {"type": "line", "x0": x, "x1": x, "yref": "paper", "y0": 0, "y1": 1,
             "line": {"color": f"token:{color}", "dash": "dot", "width": 1.5}}
    note = {"x": x, "yref": "paper", "y": 1, "text": label, "showarrow": False, "yanchor": "bottom",
            "font": {"color": f"token:{color}"}} if label else None
    return shape, note


def hline(y: float, color: str = "muted", label: str = "", log: bool = False) -> tuple[dict, dict | None]:
    """A horizontal reference line and its label. On a log y axis pass ``log=True``: Plotly places
    shapes in data units but annotations in log10 units, so the label needs the exponent."""
    shape = {"type": "line", "y0": y, "y1": y, "xref": "paper", "x0": 0, "x1": 1,
             "line": {"color": f"token:{color}", "dash": "dot", "width": 1.5}}
    note = {"y": math.log10(y) if log else y, "xref": "paper", "x": 1, "text": label, "showarrow": False,
            "xanchor": "right",
            "yanchor": "bottom", "font": {"color": f"token:{color}"}} if label else None
    return shape, note


_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def power_label(value: float) -> str:
    """A power of ten as a short tick label: ``1e4 -> '10⁴'`` (fits a phone where '10,000' does not)."""
    return "10" + str(round(math.log10(value))).translate(_SUPERSCRIPT)


def decade_ticks(values: Sequence[float], label: Callable[[float], str] = power_label) -> dict:
    """``tickvals``/``ticktext`` for a log axis: one tick per power of ten spanning ``values``."""
    positive = [v for v in values if v > 0]
    low, high = math.floor(math.log10(min(positive))), math.ceil(math.log10(max(positive)))
    ticks = [10.0 ** e for e in range(low, high + 1)]
    return {"tickvals": ticks, "ticktext": [label(v) for v in ticks]}


def ticks_at(values: Sequence[float], label: Callable[[float], str], first: str = "") -> dict:
    """``tickvals``/``ticktext`` at chosen values (1-2-5 steps on a log axis, where Plotly's own minor
    labels crowd a phone screen); ``first`` renames the first tick (e.g. "capacity" at 1×)."""
    text = [label(v) for v in values]
    if first and text:
        text[0] = first
    return {"tickvals": list(values), "ticktext": text}
