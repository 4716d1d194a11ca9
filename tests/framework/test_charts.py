"""Chart helpers: reference lines keep their label next to the line on log axes too; radar and
histogram figures are ones plotly.py's schema accepts, drawn with trace types the bundle has."""

import json
import math
import random
import re

import numpy as np
import plotly.graph_objects as go
import pytest

from build_scripts.plotly_bundle import bundle_traces
from pylabs.framework import charts as ch


def test_hline_label_sits_at_the_line_on_a_linear_axis():
    shape, note = ch.hline(5.0, "danger", "limit")
    assert shape["y0"] == shape["y1"] == 5.0 and note["y"] == 5.0


def test_hline_label_uses_the_exponent_on_a_log_axis():
    shape, note = ch.hline(1000.0, "danger", "limit", log=True)
    assert shape["y0"] == 1000.0 and note["y"] == pytest.approx(3.0)


def test_vline_label_uses_the_exponent_on_a_log_axis():
    shape, note = ch.vline(25e6, "warn", "budget", log=True)
    assert shape["x0"] == shape["x1"] == 25e6 and note["x"] == pytest.approx(math.log10(25e6))
    assert ch.vline(2.0, "warn", "b")[1]["x"] == 2.0
    shape, note = ch.vline(100.0, "danger", "tie", log=True)
    assert shape["x0"] == 100.0 and note["x"] == pytest.approx(2.0)
    assert ch.vline(100.0, "danger", "tie")[1]["x"] == 100.0


def test_hline_without_label_has_no_note():
    assert ch.hline(1.0)[1] is None


def test_power_label_uses_superscripts():
    assert [ch.power_label(v) for v in (1e2, 1e4, 1e-3)] == ["10²", "10⁴", "10⁻³"]


def test_decade_ticks_span_the_values_with_a_custom_label():
    ticks = ch.decade_ticks([3e11, 4.8e13], label=lambda v: f"{v:.0e}")
    assert ticks["tickvals"] == [1e11, 1e12, 1e13, 1e14]
    assert ticks["ticktext"][0] == "1e+11"


def test_ticks_at_labels_chosen_values_and_can_rename_the_first():
    from pylabs.framework.charts import ticks_at
    ticks = ticks_at((1, 2, 5), lambda v: f"{v}×", first="capacity")
    assert ticks == {"tickvals": [1, 2, 5], "ticktext": ["capacity", "2×", "5×"]}
    assert ticks_at((), str) == {"tickvals": [], "ticktext": []}


# ---- radar and histogram: figures plotly.py accepts, colours as tokens --------------

AXES = ["Memory", "Compute", "Serving", "Networking", "Reliability", "Scale", "Ethics", "Economics"]


def validated(figure: dict) -> go.Figure:
    """plotly.py's schema check, with colour tokens replaced as the browser would."""
    text = json.dumps(figure, allow_nan=False)
    assert '"#' not in text and "rgb(" not in text.replace("rgba(0,0,0,0)", ""), "a colour bypasses the tokens"
    types = {trace.get("type", "scatter") for trace in figure["data"]}
    assert types <= set(bundle_traces()), f"{types} not all in the bundle"
    return go.Figure(json.loads(re.sub(r'"token:[a-z0-9]+"', '"#888888"', text)))


def test_radar_closes_and_fills_its_polygon_and_plotly_accepts_it():
    values = [0.9, 0.55, 0.7, 0.4, 0.8, 0.35, 0.6, 0.75]
    trace = ch.radar("You", AXES, values, "series1")
    assert trace["type"] == "scatterpolar" and trace["fill"] == "toself"
    assert trace["r"] == [*values, values[0]] and trace["theta"] == [*AXES, AXES[0]]
    assert trace["line"]["color"] == "token:series1"
    outline = ch.radar("Median", AXES, [0.6] * 8, "muted", fill=False, dash="dot")
    assert "fill" not in outline
    fig = validated(ch.radar_figure([trace, outline]))
    assert fig.data[0].fill == "toself" and fig.layout.polar.angularaxis.direction == "clockwise"


def test_radar_layout_fits_a_phone_and_both_palettes():
    layout = ch.radar_figure([ch.radar("You", AXES, [0.5] * 8, "series1")],
                             ticks=ch.ticks_at((0.25, 0.5, 0.75, 1.0), lambda v: f"{v:.0%}"))["layout"]
    polar = layout["polar"]
    # 375 px viewport, 343 px column: the side margins hold the axis names and leave a 199 px circle.
    assert layout["margin"]["l"] == layout["margin"]["r"] == 72 and 343 - 144 >= 190
    assert polar["bgcolor"] == "rgba(0,0,0,0)"
    assert polar["radialaxis"]["gridcolor"] == polar["angularaxis"]["gridcolor"] == "token:grid"
    assert polar["radialaxis"]["range"] == [0.0, 1.0]
    assert polar["radialaxis"]["tickvals"] == [0.25, 0.5, 0.75]  # the outer ring's label would hit the names
    assert polar["radialaxis"]["angle"] == pytest.approx(67.5)  # between the first two of eight spokes
    assert layout["legend"]["xanchor"] == "center"


def test_radar_needs_three_axes_and_a_value_for_each():
    with pytest.raises(ValueError):
        ch.radar("x", ["a", "b"], [1, 2], "series1")
    with pytest.raises(ValueError):
        ch.radar("x", ["a", "b", "c"], [1, 2], "series1")


def test_percentile_matches_numpy_on_random_samples():
    rng = random.Random(3)
    for size in (1, 2, 7, 1000):
        samples = [rng.lognormvariate(0, 1) for _ in range(size)]
        for q in (0, 1, 50, 90, 99, 99.9, 100):
            assert ch.percentile(samples, q) == pytest.approx(float(np.percentile(samples, q)), rel=1e-12)
    with pytest.raises(ValueError):
        ch.percentile([], 50)
    with pytest.raises(ValueError):
        ch.percentile([1.0], 101)


def test_histogram_figure_marks_p50_and_p99_with_labelled_lines():
    rng = random.Random(11)
    samples = [rng.expovariate(1 / 45) for _ in range(2000)]
    trace = ch.histogram("Requests", samples, "series1", bins=(0, 300, 10), norm="percent")
    fig = ch.histogram_figure([trace], ch.axis("Latency (ms)"), ch.axis("Share of requests (%)"), samples,
                              label=lambda v: f"{v:.0f} ms")
    validated(fig)
    assert trace["type"] == "histogram" and trace["xbins"] == {"start": 0, "end": 300, "size": 10}
    p50, p99 = (float(np.percentile(samples, q)) for q in (50, 99))
    shapes, notes = fig["layout"]["shapes"], fig["layout"]["annotations"]
    assert [s["x0"] for s in shapes] == pytest.approx([p50, p99])
    assert all(s["yref"] == "paper" and s["y0"] == 0 and s["y1"] == 1 for s in shapes)
    assert [n["text"] for n in notes] == [f"P50 · {p50:.0f} ms", f"P99 · {p99:.0f} ms"]
    assert [n["y"] for n in notes] == [1, 0.9]  # staggered: close percentiles do not overlap
    assert shapes[1]["line"]["color"] == "token:danger" and notes[1]["font"]["color"] == "token:danger"


def test_a_percentile_near_the_right_edge_puts_its_label_on_the_left():
    samples = [float(v) for v in range(101)]
    _, notes = ch.percentile_markers(samples, str, marks=((10, "muted"), (95, "danger")))
    assert [n["xanchor"] for n in notes] == ["left", "right"]


def test_several_histograms_overlay_and_plotly_accepts_them():
    a, b = [1.0, 2.0, 2.5, 3.0], [2.0, 3.5, 4.0, 5.0]
    fig = ch.histogram_figure([ch.histogram("A", a, "series1"), ch.histogram("B", b, "series2")],
                              ch.axis("x"), ch.axis("count"), a + b, label=lambda v: f"{v:.1f}",
                              marks=((50, "muted"), (90, "warn"), (99, "danger")))
    assert fig["layout"]["barmode"] == "overlay" and len(fig["layout"]["shapes"]) == 3
    validated(fig)


# ---- step, area, second axis, Pareto, roofline (plotly.py validates each) -------------


def test_step_and_area_lines_are_accepted():
    fig = ch.figure([ch.step("tiers", [0, 1, 2], [1, 2, 4], "series1"),
                         ch.area("a", [0, 1, 2], [1, 1, 1], "series2", stack="s"),
                         ch.area("b", [0, 1, 2], [2, 1, 0], "series3")],
                        ch.axis("x"), ch.axis("y"))
    assert fig["data"][0]["line"]["shape"] == "hv"
    assert fig["data"][1]["stackgroup"] == "s" and fig["data"][2]["fill"] == "tozeroy"
    validated(fig)


def test_a_second_axis_sits_on_the_right_without_its_own_grid():
    fig = ch.with_right_axis(
        ch.figure([ch.line("p", [1, 2], [3, 4], "series1"),
                       ch.on_right(ch.line("q", [1, 2], [0.1, 0.2], "series2"))],
                      ch.axis("x"), ch.axis("left")),
        ch.axis("right (%)"))
    assert fig["data"][1]["yaxis"] == "y2"
    assert fig["layout"]["yaxis2"]["overlaying"] == "y" and fig["layout"]["yaxis2"]["side"] == "right"
    assert fig["layout"]["margin"]["r"] > 12
    validated(fig)


def test_pareto_front_keeps_only_undominated_points():
    points = [(1, 0.5), (2, 0.7), (3, 0.6), (4, 0.9), (2, 0.4)]
    assert ch.pareto_front(points) == [(1, 0.5), (2, 0.7), (4, 0.9)]
    assert ch.pareto_front(points, maximise=(True, True)) == [(4, 0.9)]


def test_pareto_front_matches_a_brute_force_check_with_numpy():
    rng = np.random.default_rng(3)
    pts = [tuple(map(float, p)) for p in rng.random((60, 2)).round(3)]
    front = set(ch.pareto_front(pts))
    arr = np.array(pts)
    for p in pts:
        beaten = np.any((arr[:, 0] <= p[0]) & (arr[:, 1] >= p[1]) & np.any(arr != p, axis=1))
        assert (p in front) == (not beaten)


def test_frontier_is_a_stepped_dashed_line_through_the_front():
    trace = ch.frontier("front", [(1, 0.5), (2, 0.7), (3, 0.6)])
    assert trace["x"] == [1, 2] and trace["line"]["shape"] == "hv"
    validated(ch.figure([trace, ch.scatter("all", [1, 2, 3], [0.5, 0.7, 0.6], "muted", text=["a", "b", "c"])],
                         ch.axis("cost"), ch.axis("accuracy")))


def test_roof_turns_at_the_ridge_point():
    trace = ch.roof("H100", 989.4e12, 3.35e12, (0.1, 1e4), "series1")
    ridge = 989.4e12 / 3.35e12
    assert trace["x"] == [0.1, ridge, 1e4]
    assert trace["y"][0] == pytest.approx(3.35e11) and trace["y"][1] == pytest.approx(989.4e12)
    assert trace["y"][2] == pytest.approx(989.4e12)
    flat = ch.roof("compute-bound everywhere", 1e9, 1e12, (10, 100), "series2")
    assert flat["x"] == [10, 100] and flat["y"] == [1e9, 1e9]


def test_roofline_figure_is_log_log_with_decade_ticks():
    fig = ch.roofline_figure(
        [ch.roof("H100", 989.4e12, 3.35e12, (0.1, 1e4), "series1"),
         ch.roof("Orin NX", 15.04e12, 102.4e9, (0.1, 1e4), "series2")],
        [ch.point("GEMM", 500, 800e12, "accent")], (0.1, 1e4), lambda v: ch.power_label(v))
    assert fig["layout"]["xaxis"]["type"] == "log" and fig["layout"]["yaxis"]["type"] == "log"
    assert fig["layout"]["xaxis"]["tickvals"][0] == pytest.approx(0.1)
    validated(fig)
