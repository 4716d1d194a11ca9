"""The shell's JavaScript unit tests (tests/js/*.test.js), run as ES modules in the suite's Chromium
without a site build: the repository is served as it is (tools/serve.py), the page scripts are
imported from docs/assets/pylabs/, and each JS case is reported as one pytest case.

Case names are read from the test files' source (``test("…")``, and ``vector("label", "file.json")``
for one case per entry of a JSON vector in tests/fixtures/), so pytest can list them before any
browser starts; ``test_every_case_ran`` fails if the browser ran a case under another name."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from build_scripts import site_content
from pylabs.framework.controls import Choice, MultiChoice, Number, Option, Slider, Toggle, render_control
from tools.serve import serve_in_thread

pytestmark = pytest.mark.js

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "tests" / "js"
FILES = sorted(path.name for path in JS.glob("*.test.js"))


def case_names(file: str) -> list[str]:
    text = (JS / file).read_text()
    names = re.findall(r'\btest\(\s*"([^"]+)"', text)
    for label, vector in re.findall(r'\bvector\(\s*"([^"]+)",\s*"([^"]+)"', text):
        cases = json.loads((ROOT / "tests" / "fixtures" / vector).read_text())["cases"]
        names += [f"{label}: {case['name']}" for case in cases]
    return names


CASES = [(file, name) for file in FILES for name in case_names(file)]


def controls_fixture() -> dict:
    """Controls as the renderer draws them (one of each kind), for controls.test.js."""
    controls = {
        "linear": (Slider("nodes", "Nodes", "nodes", 1, 64, 1, 16, fmt="int"), 16.0),
        "log": (Slider("latency", "Latency", "s", 1e-6, 1e-2, 1, 1e-4, scale="log"), 1e-4),
        "log2": (Slider("batch", "Batch", "", 1, 1024, 1, 64, scale="log2"), 64.0),
        "number": (Number("bandwidth", "Bandwidth", "GB/s", 1, 400, 0.5, 50), 50.0),
        "multi": (MultiChoice("faults", "Faults", (Option("gpu", "GPU"), Option("nic", "NIC"), Option("psu", "PSU")),
                              default=("gpu",), min_selected=1, max_selected=2), ("gpu",)),
        "toggle": (Toggle("spares", "Hot spares"), False),
        "radio": (Choice("mode", "Mode", (Option("train", "Train"), Option("serve", "Serve")), "serve"), "serve"),
        "select": (Choice("region", "Region", (Option("eu", "EU"), Option("us", "US")), "us", widget="select"), "us"),
    }
    return {kind: str(render_control(control, value)) for kind, (control, value) in controls.items()}


@pytest.fixture(scope="module")
def results(browser) -> dict:
    server, url = serve_in_thread(ROOT, "/")
    try:
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(url + "tests/js/index.html")
        ran = page.evaluate("""async ([files, fixtures]) => {
            const harness = await import("./harness.js");
            Object.assign(harness.fixtures, fixtures);
            return harness.run(files);
        }""", [FILES, {"controls": controls_fixture(), "earlyInline": site_content.early_inline()}])
        page.close()
    finally:
        server.shutdown()
    assert not errors, errors
    return {(r["file"], r["name"]): r for r in ran}


@pytest.mark.parametrize("file,name", CASES, ids=[f"{file}::{name}" for file, name in CASES])
def test_js(results, file, name):
    result = results.get((file, name))
    assert result is not None, f"{file}: the browser ran no case named {name!r}"
    assert result["ok"], result["error"]


def test_every_case_ran(results):
    assert sorted(results) == sorted(CASES)
