"""Connections and reading lists link to lab pages that exist, and never to labs that do not (issue 8 item 9)."""

from __future__ import annotations

import re
from posixpath import normpath

import pytest

from pylabs.framework.components import rich
from pylabs.framework.render import linked_connections
from pylabs.labs import LAB_MODULES, get

HREF = re.compile(r'<a href="([^"]+)">')
NAMED = re.compile(r"\bV([12])-(\d\d)\b")


def resolve(page_url: str, href: str) -> str:
    """A relative link from a lab page, as a site-root path with a trailing slash."""
    return normpath(page_url + href) + "/"


@pytest.mark.parametrize("lab_id", sorted(LAB_MODULES))
def test_every_link_goes_to_an_existing_lab_page(lab_id):
    lab = get(lab_id)
    pages = {get(other).url for other in LAB_MODULES}
    for entry in linked_connections(lab) + lab.reading:
        for href in HREF.findall(rich(entry)):
            if href.startswith("https://"):
                continue
            assert resolve(lab.url, href) in pages, f"{lab_id}: {href} is not a lab page"


@pytest.mark.parametrize("lab_id", sorted(LAB_MODULES))
def test_an_existing_lab_is_named_with_a_link_and_a_later_one_without(lab_id):
    lab = get(lab_id)
    for entry in linked_connections(lab):
        named = NAMED.search(entry)
        if named is None:
            continue
        other = f"v{named.group(1)}_{named.group(2)}"
        links = HREF.findall(rich(entry))
        if other in LAB_MODULES:
            assert [resolve(lab.url, h) for h in links] == [get(other).url], f"{lab_id}: link {other}"
        else:
            assert links == [], f"{lab_id}: {other} does not exist yet and must not be a link"
