"""A lab is declared once: its page, its navigation entry, its catalog card and its labs.json entry
come from its module. A throw-away lab 35 added in a temporary package, with nothing else touched,
reaches all four through the build's own hooks and MkDocs's own file and navigation code."""

from __future__ import annotations

import dataclasses
import re
import sys
from pathlib import Path

import pytest
from mkdocs.config import load_config
from mkdocs.structure.files import File, Files, get_files
from mkdocs.structure.nav import Section, get_navigation
from mkdocs.structure.pages import Page

from build_scripts import hooks, lab_pages, site_content
from pylabs.labs import LAB_MODULES, all_labs, get

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

LAB_35 = '''"""A throw-away lab: the newest lab's declaration under a new number, title and page."""
import dataclasses

from pylabs.labs import get

LAB = dataclasses.replace(get("v2_17"), id="v2_35", number=35, title="The Throw-away Lab",
                          url="vol2/35-throw-away/", description="A lab that exists only in a test.")
'''


@pytest.fixture
def lab_35(tmp_path, monkeypatch):
    """Lab 35's module in a package of its own, registered as the registry registers a volume's modules."""
    package = tmp_path / "lab35_package"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "v2_35.py").write_text(LAB_35)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(LAB_MODULES, "v2_35", "lab35_package.v2_35")
    yield get("v2_35")
    sys.modules.pop("lab35_package.v2_35", None)
    sys.modules.pop("lab35_package", None)


def built_files_and_nav():
    """What ``mkdocs build`` does before it renders a page: config, files, navigation, with the
hooks run by MkDocs's own plugin dispatch."""
    config = load_config(str(ROOT / "mkdocs.yml"))
    config = config.plugins.on_config(config)
    files = config.plugins.on_files(get_files(config), config=config)
    return config, files, get_navigation(files, config)


def volume_section(nav, title: str) -> Section:
    return next(item for item in nav.items if isinstance(item, Section) and item.title == title)


def test_a_new_lab_gets_its_page_and_nav_entry_from_its_module_alone(lab_35):
    config, files, nav = built_files_and_nav()
    entries = [(child.title, child.file.src_uri) for child in volume_section(nav, "Volume II").children]
    assert entries[0][1] == "vol2/index.md"
    assert entries[-1] == ("Lab 35 · The Throw-away Lab", "vol2/35-throw-away.md")
    assert not (DOCS / "vol2" / "35-throw-away.md").exists()

    page = Page(None, files.get_file_from_path("vol2/35-throw-away.md"), config)
    page.read_source(config)
    assert page.meta["description"] == "A lab that exists only in a test."
    page.markdown = config.plugins.on_page_markdown(page.markdown, page=page, config=config, files=files)
    assert page.meta["pylabs_lab"] == "v2_35" and "toc" in page.meta["hide"]
    page.render(config, files)
    html = config.plugins.on_page_content(page.content, page=page, config=config, files=files)
    assert '<h1 id="lab-35-the-throw-away-lab">Lab 35 · The Throw-away Lab' in html
    assert '<div class="pl-lab" data-lab="v2_35"' in html

    assert "v2_35" in [entry["id"] for entry in site_content.manifest()["labs"]]
    assert 'href="35-throw-away/">Lab 35 · The Throw-away Lab</a>' in site_content.catalog(2, "vol2/")


def test_the_navigation_lists_every_lab_in_order_after_its_volume_index():
    _, _, nav = built_files_and_nav()
    for volume, title in ((1, "Volume I"), (2, "Volume II")):
        children = volume_section(nav, title).children
        labs = sorted((x for x in all_labs() if x.volume == volume), key=lambda x: x.number)
        assert children[0].file.src_uri == f"vol{volume}/index.md"
        assert [(c.title, c.url) for c in children[1:]] == [(lab_pages.heading(x), x.url) for x in labs]


def test_the_page_says_what_the_stub_pages_said():
    """The Markdown the stub pages held (front matter, heading, shortcode, prose around the lab)."""
    v1_00, v1_05 = get("v1_00"), get("v1_05")
    assert lab_pages.page_markdown(v1_05) == (
        f'---\ndescription: "{v1_05.description}"\n---\n\n# Lab 05 · The Activation Tax\n\n<!-- lab:embed v1_05 -->\n')
    assert lab_pages.page_markdown(v1_00).index(v1_00.intro) < lab_pages.page_markdown(v1_00).index("lab:embed")
    assert lab_pages.page_markdown(get("v2_09")).endswith(get("v2_09").afterword + "\n")


def test_a_lab_page_by_hand_or_in_mkdocs_yml_fails_the_build():
    lab = get("v1_05")
    with pytest.raises(lab_pages.LabPageError, match="lists the generated lab page vol1/05-activation-tax.md"):
        lab_pages.with_labs([{"Volume I": ["vol1/index.md", {"Lab 05": "vol1/05-activation-tax.md"}]}], [lab])
    with pytest.raises(lab_pages.LabPageError, match="no vol1/index.md"):
        lab_pages.with_labs([{"Home": "index.md"}], [lab])
    with pytest.raises(lab_pages.LabPageError, match="declares no description"):
        lab_pages.page_markdown(dataclasses.replace(lab, description=""))


def test_a_page_left_in_docs_for_a_lab_fails_the_build(tmp_path):
    config = load_config(str(ROOT / "mkdocs.yml"))
    (tmp_path / "vol1").mkdir()
    (tmp_path / "vol1" / "00-architects-portal.md").write_text("# An old stub\n")
    left = File("vol1/00-architects-portal.md", str(tmp_path), config.site_dir, config.use_directory_urls)
    with pytest.raises(lab_pages.LabPageError, match="docs/vol1/00-architects-portal.md: the build writes"):
        hooks.on_files(Files([left]), config)


def test_every_lab_declares_a_description():
    assert [x.id for x in all_labs() if not x.description.strip()] == []


# ---- shortcodes ----------------------------------------------------------------------------------


class FakeFile:
    src_uri = "somewhere.md"


class FakePage:
    file, url, meta = FakeFile(), "somewhere/", {}


def test_an_unknown_shortcode_names_the_known_ones():
    with pytest.raises(hooks.ShortcodeError, match="known: " + ", ".join(hooks.SHORTCODES) + "$"):
        hooks.on_page_markdown("<!-- lab:value v2_02 X -->", FakePage(), None, None)
    with pytest.raises(hooks.ShortcodeError, match=r"lab:catalog takes 1 argument\(s\), got \[\]"):
        hooks.on_page_markdown("<!-- lab:catalog -->", FakePage(), None, None)


def test_every_shortcode_has_a_page_that_uses_it():
    """A shortcode no page uses is code nobody runs (``lab:value`` was one, and was removed)."""
    written = [p.read_text() for p in DOCS.rglob("*.md")] + [lab_pages.page_markdown(x) for x in all_labs()]
    used = {name for text in written for name in re.findall(r"<!--\s*lab:([a-z-]+)", text)}
    assert used == set(hooks.SHORTCODES)
