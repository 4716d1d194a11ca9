"""Connections and reading lists link to lab pages that exist, and never to labs that do not."""

from __future__ import annotations

import re
from posixpath import normpath

import pytest

from pylabs.framework.components import rich
from pylabs.framework.render import connected_labs, linked_connections
from pylabs.labs import LAB_MODULES, get, links

HREF = re.compile(r'<a href="([^"]+)">')
NAMED = re.compile(r"\bV([12])-(\d\d)\b")


def resolve(page_url: str, href: str) -> str:
    """A relative link from a lab page, as a site-root path with a trailing slash."""
    return normpath(page_url + href) + "/"


@pytest.mark.parametrize("lab_id", sorted(LAB_MODULES))
def test_every_link_goes_to_an_existing_lab_page(lab_id):
    lab = get(lab_id)
    pages = {get(other).url for other in LAB_MODULES}
    for entry in linked_connections(lab, links(lab)) + lab.reading:
        for href in HREF.findall(rich(entry)):
            if href.startswith("https://"):
                continue
            assert resolve(lab.url, href) in pages, f"{lab_id}: {href} is not a lab page"


@pytest.mark.parametrize("lab_id", sorted(LAB_MODULES))
def test_an_existing_lab_is_named_with_a_link_and_a_later_one_without(lab_id):
    lab = get(lab_id)
    for entry in linked_connections(lab, links(lab)):
        named = NAMED.search(entry)
        if named is None:
            continue
        other = f"v{named.group(1)}_{named.group(2)}"
        hrefs = HREF.findall(rich(entry))
        if other in LAB_MODULES:
            assert [resolve(lab.url, h) for h in hrefs] == [get(other).url], f"{lab_id}: link {other}"
        else:
            assert hrefs == [], f"{lab_id}: {other} does not exist yet and must not be a link"


def test_the_renderer_links_only_what_it_is_handed():
    """The renderer knows no registry: the caller's links decide, and a lab it is not handed is a later lab."""
    lab = get("v2_17")
    named = [f"V{x[1]}-{x[3:]}" for x in connected_labs(lab)]
    assert named and all(f"{n} " in " ".join(lab.connections) for n in named)
    unlinked = linked_connections(lab, {})
    assert not any(HREF.search(rich(entry)) for entry in unlinked)
    assert sum("(a later lab)" in entry for entry in unlinked) == len(named)
    elsewhere = {other: f"elsewhere/{other}" for other in connected_labs(lab)}
    hrefs = [h for entry in linked_connections(lab, elsewhere) for h in HREF.findall(rich(entry))]
    assert hrefs == [f"../../elsewhere/{other}/" for other in connected_labs(lab)]
