"""Each lab's page and its navigation entry, written from the lab's declaration (its ``Lab``).

A lab is declared once, in its module: title, number, volume, URL, description and any prose its
page shows around it. The site build turns that into the page's Markdown (front matter with the
description, the heading, the ``lab:embed`` shortcode) and into a navigation entry placed after its
volume's index page, in lab order. Nothing about a lab is typed into ``docs/`` or ``mkdocs.yml``.
"""

from __future__ import annotations

import json
from typing import Iterable

from pylabs.framework.lab import Lab


class LabPageError(ValueError):
    """A lab page written by hand, a lab without a description, or no place in the nav for a volume's labs."""


def heading(lab: Lab) -> str:
    """The page title: the navigation entry and the page's heading say the same."""
    return f"Lab {lab.number:02d} · {lab.title}"


def source_path(lab: Lab) -> str:
    """The page's Markdown path below ``docs/``: the URL ``vol1/05-activation-tax/`` is ``vol1/05-activation-tax.md``."""
    return lab.url.rstrip("/") + ".md"


def page_markdown(lab: Lab) -> str:
    """The page as an author would have written it: the build expands ``lab:embed`` into the lab."""
    if not lab.description:
        raise LabPageError(f"lab {lab.id!r} declares no description for its page")
    # JSON is YAML: the description arrives in page.meta exactly as declared, whatever it quotes
    parts = [f"---\ndescription: {json.dumps(lab.description, ensure_ascii=False)}\n---", f"# {heading(lab)}",
             lab.intro, f"<!-- lab:embed {lab.id} -->", lab.afterword]
    return "\n\n".join(part for part in parts if part) + "\n"


def walk_order(src_uri: str) -> tuple:
    """Where MkDocs's walk of ``docs/`` puts a file: a folder's files (its index first) before its subfolders'."""
    *folders, name = src_uri.split("/")
    return (tuple(folders), name.rsplit(".", 1)[0] not in ("index", "README"), name)


def index_page(volume: int) -> str:
    return f"vol{volume}/index.md"


def with_labs(nav: list, labs: Iterable[Lab]) -> list:
    """``nav`` (mkdocs.yml's list) with each volume's labs after that volume's index page, in order.
    The section holding ``vol<N>/index.md`` is the volume's; a volume with labs needs one."""
    by_volume: dict[int, list[Lab]] = {}
    for lab in sorted(labs, key=lambda x: (x.volume, x.number)):
        by_volume.setdefault(lab.volume, []).append(lab)
    written = {source_path(lab) for group in by_volume.values() for lab in group}
    placed: set[int] = set()

    def walk(items: list) -> list:
        out = []
        for item in items:
            if isinstance(item, dict):
                item = {title: walk(value) if isinstance(value, list) else value for title, value in item.items()}
            target = next(iter(item.values())) if isinstance(item, dict) else item
            if isinstance(target, str) and target in written:
                raise LabPageError(f"mkdocs.yml lists the generated lab page {target}: remove the line")
            out.append(item)
            volume = next((v for v in by_volume if target == index_page(v)), None)
            if volume is not None:
                out += [{heading(lab): source_path(lab)} for lab in by_volume[volume]]
                placed.add(volume)
        return out

    result = walk(nav)
    missing = sorted(set(by_volume) - placed)
    if missing:
        raise LabPageError(f"mkdocs.yml's nav has no {', '.join(index_page(v) for v in missing)} to place the labs after")
    return result
