"""The site's own Plotly bundle draws the chart kinds beyond scatter and bar: a radar
(scatterpolar, filled) and a histogram with P50/P99 lines, through the shell's charts.js
(tokens resolved from the page's CSS), in both palettes and at phone width, with no console
error and no request to another host."""

from __future__ import annotations

import json
import random

import pytest

from build_scripts.plotly_bundle import bundle_traces
from pylabs.framework import charts as ch
from pylabs.framework.components import chart

pytestmark = pytest.mark.e2e

AXES = ["Memory", "Compute", "Serving", "Networking", "Reliability", "Scale", "Ethics", "Economics"]


def radar_chart() -> str:
    figure = ch.radar_figure([
        ch.radar("Your predictions", AXES, [0.9, 0.55, 0.7, 0.4, 0.8, 0.35, 0.6, 0.75], "series1"),
        ch.radar("Class median", AXES, [0.6] * len(AXES), "muted", fill=False, dash="dot"),
    ], ticks=ch.ticks_at((0.25, 0.5, 0.75, 1.0), lambda v: f"{v:.0%}"))
    return str(chart("radar", "Prediction accuracy by domain", figure, "Strongest on memory, weakest on scale."))


def histogram_chart() -> str:
    rng = random.Random(7)
    samples = [rng.expovariate(1 / 45.0) for _ in range(2000)]
    figure = ch.histogram_figure([ch.histogram("Requests", samples, "series1", bins=(0, 300, 10))],
                                 ch.axis("Latency (ms)"), ch.axis("Requests"), samples,
                                 label=lambda v: f"{v:.0f} ms")
    return str(chart("latency", "Request latency", figure, "Most requests finish fast; the tail is long."))


DRAW = """async ([html, base]) => {
  const root = document.createElement("div");
  root.id = "chart-test";
  root.innerHTML = html;
  // A lab's readout column stretches its charts; the article here would shrink them to fit.
  for (const figure of root.querySelectorAll("figure")) figure.style.width = "100%";
  document.querySelector("article").prepend(root);
  const { drawCharts } = await import(base + "assets/pylabs/page/charts.js");
  await drawCharts(root, { force: true });
  const plot = (name) => root.querySelector(`[data-chart="${name}"] .pl-chart__plot`);
  const radar = plot("radar"), latency = plot("latency");
  return {
    plotly: typeof window.Plotly === "object" ? window.Plotly.version : null,
    radarTypes: radar._fullData.map((t) => t.type),
    radarFill: radar._fullData.map((t) => t.fill),
    polygons: radar.querySelectorAll(".polarlayer .scatterlayer .trace").length,
    filled: [...radar.querySelectorAll(".polarlayer .scatterlayer .trace path.js-fill")]
      .filter((p) => (p.getAttribute("d") || "").length > 10).length,
    angularLabels: [...radar.querySelectorAll(".polarlayer .angularaxistick text")].map((t) => t.textContent),
    radarWidth: radar.getBoundingClientRect().width,
    radarSvgWidth: radar.querySelector("svg.main-svg").getBoundingClientRect().width,
    histTypes: latency._fullData.map((t) => t.type),
    bars: latency.querySelectorAll(".barlayer .point").length,
    lines: latency.querySelectorAll(".shapelayer path").length,
    notes: [...latency.querySelectorAll(".annotation-text")].map((t) => t.textContent),
    lineColour: radar._fullData[0].line.color,
  };
}"""


@pytest.mark.parametrize("width,scheme", [(1280, "default"), (375, "slate")])
def test_radar_and_histogram_draw_with_the_sites_plotly_bundle(context, base_url, watch, width, scheme):
    page = context.new_page()
    watch.attach(page)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(base_url + "sources/")
    page.evaluate("(scheme) => document.body.setAttribute('data-md-color-scheme', scheme)", scheme)
    drawn = page.evaluate(DRAW, [radar_chart() + histogram_chart(), base_url])

    assert drawn["plotly"], "charts.js did not load the vendored bundle"
    assert set(drawn["radarTypes"]) == {"scatterpolar"} and set(drawn["histTypes"]) == {"histogram"}
    assert {"scatterpolar", "histogram"} <= set(bundle_traces())
    assert drawn["radarFill"] == ["toself", "none"] and drawn["polygons"] == 2 and drawn["filled"] == 1
    assert drawn["angularLabels"] == AXES
    assert drawn["radarSvgWidth"] <= drawn["radarWidth"] + 1, "the radar is wider than its box"
    assert drawn["lineColour"].startswith(("#", "rgb")), "the colour token was not resolved"
    assert drawn["bars"] >= 20
    assert drawn["lines"] == 2
    assert [n.split(" · ")[0] for n in drawn["notes"]] == ["P50", "P99"]
    assert all(n.endswith(" ms") for n in drawn["notes"])
    assert json.dumps(drawn)  # plain data came back
    page.close()
