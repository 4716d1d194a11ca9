"""The hook contract (pylabs/framework/dom.py) is the only source of data-* names: the renderer's
output, the Python that writes HTML, the site's pages, the shell's scripts and CSS, and the e2e
tests use no other, and its written forms (hooks.js, handbook/dom-contract.md) are current."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from build_scripts import dom_contract
from pylabs.framework.dom import HOOKS, NAMES

ROOT = Path(__file__).resolve().parents[1]
ASSETS = ROOT / "docs" / "assets" / "pylabs"
SCAFFOLDING = {"root"}  # test_controls.py's own wrapper around a rendered block


class _Attributes(HTMLParser):
    def __init__(self):
        super().__init__()
        self.names: set[str] = set()

    def handle_starttag(self, tag, attrs):
        self.names |= {name[5:] for name, _ in attrs if name.startswith("data-")}


def html_names(text: str) -> set[str]:
    parser = _Attributes()
    parser.feed(text)
    return parser.names


def kebab(key: str) -> str:
    return re.sub(r"[A-Z]", lambda m: "-" + m.group().lower(), key)


def script_names(text: str) -> set[str]:
    """data-x in selectors and markup, element.dataset.x, and el()'s `data: {x: …}`; a name built
    from a prefix (`data-class-${into}`) is checked as that prefix."""
    names = {m.group(1) + ("-" if m.group(2) else "")
             for m in re.finditer(r"data-([a-z0-9]+(?:-[a-z0-9]+)*)(-\$\{)?", text)}
    names |= {kebab(key) for key in re.findall(r"dataset\.([A-Za-z0-9]+)", text)}
    for body in re.findall(r"\bdata:\s*\{([^}]*)\}", text):
        names |= {kebab(key) for key in re.findall(r"([A-Za-z0-9]+):", body)}
    return names


def unknown(names: set[str]) -> set[str]:
    return {n for n in names if not (n in NAMES or (n.endswith("-") and any(h.startswith(n) for h in NAMES)))}


def test_the_written_forms_are_current():
    assert dom_contract.JS.read_text() == dom_contract.js_module(), "run python -m build_scripts.dom_contract"
    assert dom_contract.HANDBOOK.read_text() == dom_contract.markdown(), "run python -m build_scripts.dom_contract"


def test_each_name_once_with_its_writer_and_meaning():
    assert len(NAMES) == len(HOOKS)
    assert all(h.writer and h.meaning and re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", h.name) for h in HOOKS)


def test_the_renderer_writes_only_contract_names():
    goldens = sorted((ROOT / "tests" / "golden" / "output").iterdir())
    assert len(goldens) > 100
    found = set().union(*(html_names(path.read_text()) for path in goldens))
    assert not unknown(found)


@pytest.mark.parametrize("folder", ["pylabs", "build_scripts"])
def test_python_writes_only_contract_names(folder):
    found = set()
    for path in (ROOT / folder).rglob("*.py"):
        found |= set(re.findall(r"""["']data-([a-z0-9-]+)["']""", path.read_text()))
    assert not unknown(found)


def test_the_pages_write_only_contract_names():
    found = set().union(*(html_names(path.read_text()) for path in (ROOT / "docs").rglob("*.md")))
    found |= set().union(*(html_names(path.read_text()) for path in (ROOT / "docs" / "overrides").rglob("*.html")))
    assert not unknown(found)


@pytest.mark.parametrize("path", sorted(ASSETS.rglob("*.js")), ids=lambda p: p.relative_to(ASSETS).as_posix())
def test_each_shell_script_uses_only_contract_names(path):
    assert not unknown(script_names(path.read_text()))


def test_the_shell_styles_use_only_contract_names():
    found = set().union(*(set(re.findall(r"data-([a-z0-9-]+)", path.read_text())) for path in ASSETS.rglob("*.css")))
    assert not unknown(found)


def test_the_e2e_tests_select_only_contract_names():
    found = set()
    for path in (ROOT / "tests" / "e2e").glob("*.py"):
        found |= script_names(path.read_text())
    assert not unknown(found - SCAFFOLDING)


def test_every_name_is_used():
    sources = [*ASSETS.rglob("*.js"), *ASSETS.rglob("*.css"), *(ROOT / "pylabs").rglob("*.py"),
               *(ROOT / "build_scripts").rglob("*.py"), *(ROOT / "docs").rglob("*.md")]
    used = set()
    for path in sources:
        if path.name == "hooks.js" or path.name == "dom.py":
            continue
        text = path.read_text()
        used |= script_names(text) | set(re.findall(r"""["']data-([a-z0-9-]+)["']""", text))
    assert not {n for n in NAMES if n not in used and not any(u.endswith("-") and n.startswith(u) for u in used)}
