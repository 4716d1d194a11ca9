"""Golden files for the pre-rendered HTML of every lab.

Each lab is rendered in its default state and, for every context the student can choose, complete
(every question locked at the physics' answer in that context). The renders must equal
tests/golden/output/<name>.html byte for byte, so a refactor that moves code proves it changed no
page. The hand-written cases in tests/golden/input/<name>.json (a lab and a raw state) are checked
the same way.

A mismatch writes <name>-changed.html beside the golden file for review; replace the golden file
with it when the change is intended. A missing golden file is written locally, and is an error under
CI=true, where nothing is ever generated."""

import json
import os
from pathlib import Path

import pytest

from pylabs.framework.render import render_lab
from pylabs.labs import all_labs, get, links

GOLDEN = Path(__file__).parent / "golden"
LOCKED_AT = "2026-01-01T00:00:00Z"


def _lines(html: str) -> str:
    """One tag per line so a change reads as a diff. The render has no newline of its own, so
    splitting between tags loses nothing and the comparison stays byte for byte."""
    assert "\n" not in html, "the renderer now writes newlines; compare the render unchanged"
    return html.replace("><", ">\n<") + "\n"


def _complete(lab, context: str) -> dict:
    answers = {q.id: {"choice": q.answer(context), "locked_at": LOCKED_AT} for q in lab.questions}
    return {"answers": answers, "controls": {lab.context.name: context}}


def _declared_cases() -> dict[str, tuple[str, dict]]:
    cases = {}
    for lab in all_labs():
        cases[f"{lab.id}-default"] = (lab.id, {})
        for context in lab.context.values:
            cases[f"{lab.id}-complete-{context}"] = (lab.id, _complete(lab, context))
    return cases


def _input_cases() -> dict[str, tuple[str, dict]]:
    cases = {}
    for path in sorted((GOLDEN / "input").glob("*.json")):
        case = json.loads(path.read_text())
        cases[path.stem] = (case["lab"], case["state"])
    return cases


CASES = {**_declared_cases(), **_input_cases()}


def test_every_golden_file_has_a_case():
    """A golden file whose case is gone (a lab or context renamed) is stale, not silently kept."""
    stale = sorted(p.stem for p in (GOLDEN / "output").glob("*.html")
                   if not p.stem.endswith("-changed") and p.stem not in CASES)
    assert not stale, f"golden files with no case: {stale}"


@pytest.mark.parametrize("name", sorted(CASES))
def test_rendered_html_matches_golden(name):
    lab_id, raw = CASES[name]
    lab = get(lab_id)
    html = _lines(str(render_lab(lab, lab.parse(raw), links(lab))))
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
