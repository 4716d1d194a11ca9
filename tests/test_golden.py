"""Golden files for the pre-rendered HTML: tests/golden/input/<name>.json must render to
tests/golden/output/<name>.html. A mismatch writes <name>-changed.html beside the golden
file for review; with CI=true a missing golden file is an error, never generated."""

import json
import os
from pathlib import Path

import pytest

from pylabs.framework.render import render_lab
from pylabs.labs import get

GOLDEN = Path(__file__).parent / "golden"
CASES = sorted(p.stem for p in (GOLDEN / "input").glob("*.json"))


@pytest.mark.parametrize("name", CASES)
def test_rendered_html_matches_golden(name):
    case = json.loads((GOLDEN / "input" / f"{name}.json").read_text())
    lab = get(case["lab"])
    html = str(render_lab(lab, lab.parse(case["state"]))) + "\n"
    expected = GOLDEN / "output" / f"{name}.html"
    changed = GOLDEN / "output" / f"{name}-changed.html"
    if not expected.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{expected.name} is missing; generate it locally and review it")
        expected.write_text(html)
        return
    if html != expected.read_text():
        changed.write_text(html)
        pytest.fail(f"{name} differs from its golden file; review {changed.name} and replace it if intended")
    changed.unlink(missing_ok=True)
