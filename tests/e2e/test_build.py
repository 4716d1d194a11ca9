"""The built site: the page a student downloads holds exactly what the runtime renders,
and labs.json follows the testing contract."""

from __future__ import annotations

import json

import pytest

from pylabs.framework.render import render_lab
from pylabs.labs import all_labs, links

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("lab", all_labs(), ids=lambda x: x.id)
def test_built_page_holds_the_renderers_default_state(site_dir, lab):
    html = (site_dir / lab.url / "index.html").read_text()
    assert str(render_lab(lab, lab.default_state(), links(lab))) in html
    assert f'data-lab="{lab.id}"' in html


def test_labs_json_lists_every_lab_with_its_contract(site_dir):
    manifest = json.loads((site_dir / "labs.json").read_text())
    assert {entry["id"] for entry in manifest["labs"]} == {lab.id for lab in all_labs()}
    for entry in manifest["labs"]:
        assert (site_dir / entry["url"] / "index.html").exists()
        assert {"controls", "metrics", "questions", "title", "volume", "number"} <= set(entry)


def test_nothing_in_the_site_points_at_a_cdn(site_dir):
    for path in list(site_dir.rglob("*.html")) + list((site_dir / "assets" / "pylabs").glob("*.js")):
        text = path.read_text(errors="ignore")
        for host in ("cdn.jsdelivr.net", "unpkg.com", "fonts.googleapis.com", "cdnjs.cloudflare.com"):
            assert host not in text, f"{path} mentions {host}"
