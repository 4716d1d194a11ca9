"""What the MkDocs hooks insert into pages, computed from pylabs (never typed by hand)."""

from __future__ import annotations

import functools
import hashlib
import json
import posixpath
from html import escape
from pathlib import Path

import pylabs
from pylabs import ledger
from pylabs.framework.formats import fmt
from pylabs.framework.lab import Lab
from pylabs.framework.markup import h, raw
from pylabs.framework.render import render_lab
from pylabs.labs import LAB_MODULES, all_labs, get
from pylabs.physics import constants


class UnknownValue(LookupError):
    """A ``lab:value`` shortcode naming a value the lab does not publish."""


def pylabs_version() -> str:
    return pylabs.__version__


def lab(lab_id: str) -> Lab:
    return get(lab_id)


def value(lab_id: str, name: str) -> str:
    """A published number of a lab (its module's ``VALUES``: name -> (function, format))."""
    from importlib import import_module
    values = getattr(import_module(LAB_MODULES[lab_id]), "VALUES", {})
    if name not in values:
        raise UnknownValue(f"lab {lab_id!r} publishes no value {name!r}; it has: {', '.join(sorted(values))}")
    compute, unit_fmt = values[name]
    return fmt(compute(), unit_fmt)


@functools.lru_cache(maxsize=1)
def build_id() -> str:
    """A short hash of the pylabs sources (what every rendered block depends on)."""
    from build_scripts.wheel import package_files
    digest = hashlib.sha256()
    for name, data in package_files():
        digest.update(name.encode() + b"\0" + data)
    return digest.hexdigest()[:12]


EARLY_INLINE = Path(__file__).with_name("early_inline.js")


def embedded_lab(lab_id: str, site_root: str = "../../") -> str:
    """The pre-rendered lab (default state) in the static wrapper the browser shell mounts, followed
    by the small inline script that lets a prediction be locked from the first paint.
    ``site_root``: the site root relative to the page (the early-lock record is keyed by it)."""
    current = lab(lab_id)
    boot = h("p", {"class": "pl-boot", "data-boot": "", "role": "status"},
             "Static preview. The instruments come alive when Python has loaded in your browser.")
    noscript = raw("<noscript><p class=\"pl-boot\">JavaScript is off: you can read this lab, but its "
                   "instruments need JavaScript and WebAssembly.</p></noscript>")
    # data-build names the renderer that made the page: the shell repaints a returning student's
    # cached blocks only from the same build.
    wrapper = h("div", {"class": "pl-lab", "data-lab": lab_id, "data-build": build_id(), "data-site-root": site_root},
                h("div", {"class": "pl-notices", "data-notices": ""}),
                boot, noscript, render_lab(current, current.default_state()))
    return str(wrapper) + f"<script>{EARLY_INLINE.read_text()}</script>"


def catalog(volume: int, page_url: str) -> str:
    """The labs of one volume: title, invariant, duration and the student's progress."""
    items = []
    for entry in sorted((x for x in all_labs() if x.volume == volume), key=lambda x: x.number):
        href = posixpath.relpath(entry.url, page_url or ".") + "/"
        items.append(h("li", {"class": "pl-catalog__item"},
                       h("a", {"class": "pl-catalog__title", "href": href},
                         f"Lab {entry.number:02d} · {entry.title}"),
                       h("span", {"class": "pl-catalog__meta"}, entry.minutes),
                       h("span", {"class": "pl-progress", "data-progress": entry.id}, "Not started"),
                       h("p", {"class": "pl-catalog__invariant"}, raw(_inline(entry.invariant)))))
    return str(h("ul", {"class": "pl-catalog"}, items))


def _inline(text: str) -> str:
    from pylabs.framework.components import rich
    return str(rich(text))


def sources_table() -> str:
    rows = []
    for name, spec in sorted(constants.REGISTRY.items()):
        source = h("a", {"href": spec.url}, spec.source) if spec.url else spec.source
        rows.append(h("tr", None, h("td", None, h("code", None, name)), h("td", None, _number(spec.value)),
                      h("td", None, spec.unit), h("td", None, source, h("br", None) if spec.note else None,
                                                  h("small", None, spec.note) if spec.note else None)))
    return str(h("table", {"class": "pl-sources"},
                 h("thead", None, h("tr", None, [h("th", None, c) for c in ("Name", "Value", "Unit", "Source")])),
                 h("tbody", None, rows)))


def references_list() -> str:
    """Every paper and document the labs cite (pylabs/physics/references.py)."""
    from pylabs.physics.references import REFERENCES
    items = [h("li", None, raw(_inline(ref.text())), " ", h("a", {"href": ref.url}, ref.url))
             for _, ref in sorted(REFERENCES.items(), key=lambda kv: (kv[1].authors, kv[1].year))]
    return str(h("ul", {"class": "pl-references"}, items))


def _number(value: float) -> str:
    return f"{value:,.6g}" if abs(value) < 1e6 else f"{value:.6g}"


def ledger_schema() -> str:
    text = json.dumps(ledger.json_schema(), indent=2)
    return f'<pre class="pl-schema" tabindex="0"><code>{escape(text)}</code></pre>'


def manifest() -> dict:
    """``labs.json``: every lab's controls, metrics and questions (TESTING.md)."""
    return {"schema": 1, "ledger_key_prefix": "mlsys-labs:ledger", "labs": [x.manifest() for x in all_labs()]}
