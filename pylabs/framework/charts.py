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


def vline(x: float, color: str = "muted", label: str = "", log: bool = False) -> tuple[dict, dict | None]:
    """A vertical reference line across the plot and its label. On a log x axis pass ``log=True``
    (as for ``hline``: the shape is placed in data units, the label in log10 units)."""
    shape = {"type": "line", "x0": x, "x1": x, "yref": "paper", "y0": 0, "y1": 1,
             "line": {"color": f"token:{color}", "dash": "dot", "width": 1.5}}
    note = {"x": math.log10(x) if log else x, "yref": "paper", "y": 1, "text": label, "showarrow": False,
            "yanchor": "bottom", "font": {"color": f"token:{color}"}} if label else None
    return shape, note


def hline(y: float, color: str = "muted", label: str = "", log: bool = False) -> tuple[dict, dict | None]:
    """A horizontal reference line and its label. On a log y axis pass ``log=True``: Plotly places
    shapes in data units but annotations in log10 units, so the label needs the exponent."""
    shape = {"type": "line", "y0": y, "y1": y, "xref": "paper", "x0": 0, "x1": 1,
             "line": {"color": f"token:{color}", "dash": "dot", "width": 1.5}}
    # on the page's background: at the right end it sits over the last bar when that bar is taller
    note = {"y": math.log10(y) if log else y, "xref": "paper", "x": 1, "text": label, "showarrow": False,
            "xanchor": "right", "yanchor": "bottom", "font": {"color": f"token:{color}"},
            "bgcolor": "token:paper", "borderpad": 1} if label else None
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


# ---- distributions: histogram with percentile markers ---------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0–100) of ``values``, interpolating linearly between the sorted values
    (the usual definition, numpy's default)."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("percentile of no values")
    if not 0 <= q <= 100:
        raise ValueError(f"percentile must be in [0, 100], got {q}")
    rank = (len(ordered) - 1) * q / 100
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def histogram(name: str, samples: Sequence[float], color: str, bins: tuple[float, float, float] | None = None,
              norm: str = "") -> dict:
    """A histogram of ``samples`` (binned by Plotly in the browser; keep to a few thousand values).

    ``bins`` is ``(start, end, size)`` in data units (default: Plotly's automatic bins); ``norm`` is
    Plotly's ``histnorm`` ("", "percent", "probability", "probability density")."""
    trace = {"type": "histogram", "name": name, "x": list(samples),
             "marker": {"color": f"token:{color}", "line": {"color": f"token:{color}", "width": 0.5}},
             "opacity": 0.85}
    if bins is not None:
        start, end, size = bins
        trace["xbins"] = {"start": start, "end": end, "size": size}
    if norm:
        trace["histnorm"] = norm
    return trace


def percentile_markers(samples: Sequence[float], label: Callable[[float], str],
                       marks: Sequence[tuple[float, str]] = ((50, "muted"), (99, "danger")),
                       span: tuple[float, float] | None = None) -> tuple[list[dict], list[dict]]:
    """Vertical reference lines at percentiles of ``samples`` (default P50 and P99), each labelled
    "P50 · <label(value)>" inside the top of the plot. Labels are staggered downwards so that close
    percentiles do not overlap, and a line in the right third of ``span`` (default: the samples'
    range) puts its label on its left so it stays on a phone screen. Returns (shapes, annotations)."""
    low, high = span if span is not None else (min(samples), max(samples))
    shapes, notes = [], []
    for row, (q, color) in enumerate(marks):
        value = percentile(samples, q)
        right_third = high > low and (value - low) / (high - low) > 2 / 3
        shapes.append({"type": "line", "x0": value, "x1": value, "yref": "paper", "y0": 0, "y1": 1,
                       "line": {"color": f"token:{color}", "dash": "dash", "width": 2}})
        notes.append({"x": value, "yref": "paper", "y": 1 - 0.1 * row, "yanchor": "top",
                      "xanchor": "right" if right_third else "left", "xshift": -4 if right_third else 4,
                      "text": f"P{q:g} · {label(value)}", "showarrow": False,
                      "font": {"color": f"token:{color}", "size": 12}})
    return shapes, notes


def histogram_figure(traces: Sequence[dict], x: dict, y: dict, samples: Sequence[float],
                     label: Callable[[float], str], marks: Sequence[tuple[float, str]] = ((50, "muted"), (99, "danger")),
                     height: int = 320, legend: bool = True) -> dict:
    """Histogram traces with percentile lines of ``samples`` (default P50 and P99), overlaid if several."""
    span = None
    if traces and "xbins" in traces[0]:
        span = (traces[0]["xbins"]["start"], traces[0]["xbins"]["end"])
    shapes, notes = percentile_markers(samples, label, marks, span)
    fig = figure(traces, x, y, height=height, shapes=shapes, annotations=notes, legend=legend)
    fig["layout"]["bargap"] = 0.04
    if len(traces) > 1:
        fig["layout"]["barmode"] = "overlay"
    return fig


# ---- radar --------------------------------------------------------------------------


def radar(name: str, axes: Sequence[str], values: Sequence[float], color: str, fill: bool = True,
          dash: str = "solid", hover: str | None = None) -> dict:
    """One closed polygon on a radar chart: ``values`` on the named ``axes``, in order clockwise from
    the top. The first point is repeated so the outline closes; ``fill`` shades it ("toself", Plotly
    derives a translucent fill from the line colour). Keep axis names short (≤ 11 characters, or break
    them with ``<br>``) so they fit a phone screen."""
    if len(axes) != len(values) or len(axes) < 3:
        raise ValueError("a radar needs at least 3 axes and one value per axis")
    trace = {"type": "scatterpolar", "name": name, "r": [*values, values[0]], "theta": [*axes, axes[0]],
             "mode": "lines+markers", "line": {"color": f"token:{color}", "dash": dash, "width": 2},
             "marker": {"color": f"token:{color}", "size": 6}}
    if fill:
        trace["fill"] = "toself"
    if hover:
        trace["hovertemplate"] = hover
    return trace


def radar_figure(traces: Sequence[dict], radial_range: tuple[float, float] = (0.0, 1.0),
                 ticks: dict | None = None, height: int = 380, legend: bool = True) -> dict:
    """A radar chart laid out to fit 375 px: fixed side margins hold the axis names (Plotly's polar
    subplot has no automatic margins), the circle leaves room at the top for the first axis name
    under the legend (centred over it), the radial scale is fixed to ``radial_range`` (so states compare) with small
    labels between the first two spokes, and the background is transparent for both palettes.
    ``ticks``: ``tickvals``/``ticktext`` for the radial axis (e.g. from ``ticks_at``); a tick on the
    outer ring is left out, where its label would run into the axis names."""
    spokes = len(traces[0]["theta"]) - 1 if traces else 4
    grid = {"gridcolor": "token:grid", "linecolor": "token:grid"}
    radial = {**grid, "range": list(radial_range), "angle": 90 - 180 / spokes, "tickangle": 0,
              "tickfont": {"size": 10, "color": "token:muted"}, "showline": False}
    if ticks:
        inner = [i for i, v in enumerate(ticks["tickvals"]) if v < radial_range[1]]
        radial.update(tickvals=[ticks["tickvals"][i] for i in inner], ticktext=[ticks["ticktext"][i] for i in inner])
    layout = {"height": height, "showlegend": legend,
              "legend": {"orientation": "h", "x": 0.5, "y": 1.02, "xanchor": "center", "yanchor": "bottom",
                         "traceorder": "normal"},
              # an axis name broken over two lines at the bottom spoke needs more room below
              "margin": {"l": 72, "r": 72, "t": 48 if legend else 24,
                         "b": 44 if traces and any("<br>" in str(t) for t in traces[0]["theta"]) else 28},
              "polar": {"bgcolor": "rgba(0,0,0,0)", "domain": {"x": [0, 1], "y": [0, 0.9]}, "radialaxis": radial,
                        "angularaxis": {**grid, "direction": "clockwise", "rotation": 90,
                                        "tickfont": {"size": 12}}}}
    return {"data": list(traces), "layout": layout}


# ---- lines: steps, areas, a second y axis ---------------------------------------------


def step(name: str, x: Sequence[float], y: Sequence[float], color: str, dash: str = "solid") -> dict:
    """A staircase line: each value holds until the next x (capacity tiers, batch sizes, schedules)."""
    trace = line(name, x, y, color, dash)
    trace["line"]["shape"] = "hv"
    return trace


def area(name: str, x: Sequence[float], y: Sequence[float], color: str, stack: str = "") -> dict:
    """A filled line down to zero; traces sharing ``stack`` pile up (shares of a total over x)."""
    trace = line(name, x, y, color)
    if stack:
        trace.update(stackgroup=stack)
    else:
        trace["fill"] = "tozeroy"
    return trace


def on_right(trace: dict) -> dict:
    """The same trace drawn against the second y axis (see ``with_right_axis``)."""
    return {**trace, "yaxis": "y2"}


def with_right_axis(fig: dict, y2: dict) -> dict:
    """Give a figure a second y axis on the right for the traces passed through ``on_right``. Its
    gridlines are off (two grids confuse) and the right margin grows to hold its tick labels; name the
    axis in its title with the unit, and colour that trace's axis title like the trace."""
    layout = dict(fig["layout"])
    layout["yaxis2"] = {**y2, "overlaying": "y", "side": "right", "showgrid": False}
    layout["margin"] = {**layout["margin"], "r": 56}
    return {"data": fig["data"], "layout": layout}


# ---- Pareto frontier -------------------------------------------------------------------


def pareto_front(points: Sequence[tuple[float, float]], maximise: tuple[bool, bool] = (False, True)
                 ) -> list[tuple[float, float]]:
    """The points no other point beats on both coordinates, sorted by x. ``maximise`` says which way
    is better for (x, y): the default is less x (cost, latency) and more y (accuracy)."""
    sx, sy = (1 if m else -1 for m in maximise)

    def dominated(p: tuple[float, float]) -> bool:
        return any(sx * q[0] >= sx * p[0] and sy * q[1] >= sy * p[1] and q != p for q in points)

    return sorted({p for p in points if not dominated(p)})


def frontier(name: str, points: Sequence[tuple[float, float]], color: str = "accent",
             maximise: tuple[bool, bool] = (False, True)) -> dict:
    """The Pareto frontier of ``points`` as a stepped line (each frontier point holds until the next)."""
    front = pareto_front(points, maximise)
    trace = line(name, [p[0] for p in front], [p[1] for p in front], color, dash="dash", markers=True)
    trace["line"]["shape"] = "hv" if maximise == (False, True) or maximise == (True, False) else "linear"
    return trace


def scatter(name: str, x: Sequence[float], y: Sequence[float], color: str, text: Sequence[str] | None = None,
            size: int = 9) -> dict:
    """Markers only (design points, candidates); ``text`` labels each point on hover."""
    trace = {"type": "scatter", "mode": "markers", "name": name, "x": list(x), "y": list(y),
             "marker": {"color": f"token:{color}", "size": size}}
    if text is not None:
        trace.update(text=list(text), hovertemplate="%{text}<extra></extra>")
    return trace


# ---- roofline ----------------------------------------------------------------------------


def roof(name: str, peak: float, bandwidth: float, span: tuple[float, float], color: str,
         dash: str = "solid") -> dict:
    """One device's roofline on log–log axes: attainable = min(peak, bandwidth × intensity) over the
    intensity ``span`` (op/B), drawn through the ridge point so the corner is sharp.
    Source: Williams, Waterman and Patterson 2009, 'Roofline', CACM 52(4)."""
    low, high = span
    ridge = peak / bandwidth
    xs = [low] + ([ridge] if low < ridge < high else []) + [high]
    return line(name, xs, [min(peak, bandwidth * x) for x in xs], color, dash)


def roofline_figure(roofs: Sequence[dict], kernels: Sequence[dict], span: tuple[float, float],
                    rate_label: Callable[[float], str], x_title: str = "Arithmetic intensity (op/B)",
                    y_title: str = "Attainable rate", height: int = 360) -> dict:
    """A log–log roofline: device ``roofs`` (from ``roof``) and ``kernels`` (``point`` traces at
    (intensity, achieved rate)), with one labelled tick per decade on both axes so it reads at 375 px."""
    ys = [y for t in (*roofs, *kernels) for y in t["y"] if y and y > 0]
    x = axis(x_title, "log", **decade_ticks(span))
    y = axis(y_title, "log", **decade_ticks(ys, rate_label))
    return figure([*roofs, *kernels], x, y, height=height)
