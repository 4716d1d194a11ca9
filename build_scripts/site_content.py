"""What the MkDocs hooks insert into pages, computed from pylabs (never typed by hand)."""

from __future__ import annotations

import functools
import hashlib
import json
import posixpath
import re
from html import escape
from pathlib import Path

import pylabs
from pylabs import ledger
from pylabs.framework.formats import fmt
from pylabs.framework.lab import Lab
from pylabs.framework.markup import h, raw
from pylabs.framework.render import render_lab
from pylabs.labs import all_labs, get, links
from pylabs.ledger_letters import LETTERS_VERSION
from pylabs.physics import constants


def pylabs_version() -> str:
    return pylabs.__version__


def lab(lab_id: str) -> Lab:
    return get(lab_id)


@functools.lru_cache(maxsize=1)
def build_id() -> str:
    """A short hash of the pylabs sources (what every rendered block depends on)."""
    from build_scripts.wheel import package_files
    digest = hashlib.sha256()
    for name, data in package_files():
        digest.update(name.encode() + b"\0" + data)
    return digest.hexdigest()[:12]


# The head scripts, inlined into each lab page (docs/assets/pylabs/inline/, not copied to the site).
INLINE = Path(__file__).resolve().parents[1] / "docs" / "assets" / "pylabs" / "inline"
EARLY_INLINE = INLINE / "early_inline.js"
WORKER_START = INLINE / "worker_start.js"
STORE_JS = INLINE.parent / "page" / "store.js"


def early_inline() -> str:
    """The script inlined after a lab (early_inline.js) with store.js's ``activeAttempt`` put in
    where it says ``/* activeAttempt */``: it runs before any module loads, and the rule stays written once."""
    store = STORE_JS.read_text()
    start = store.index("export function activeAttempt(")
    rule = store[start + len("export "):store.index("\n}\n", start) + 2]
    script = EARLY_INLINE.read_text()
    if "/* activeAttempt */" not in script:
        raise ValueError(f"{EARLY_INLINE}: no /* activeAttempt */ to put the rule in")
    return script.replace("/* activeAttempt */", rule)


def worker_start(site_root: str) -> str:
    """The script at the top of a lab page's <head> that starts its Python worker: at once
    on a returning visit, else from the inline script after the lab (early_inline.js)."""
    return f'<script data-site-root="{escape(site_root)}">{WORKER_START.read_text()}</script>'


MATERIAL_SEARCH = re.compile(r'("search": ")([^"]*)assets/javascripts/workers/(search\.[0-9a-f]+\.min\.js)"')


def search_later(page_html: str) -> str:
    """A lab page names docs/assets/pylabs/worker/search-later.js as Material's search worker: Material's own
    worker, whose index is built once the lab has started rather than beside its boot."""
    changed, count = MATERIAL_SEARCH.subn(r'\1\2assets/pylabs/worker/search-later.js?material=\3"', page_html, count=1)
    if count != 1:
        raise ValueError("the theme's config names no search worker (assets/javascripts/workers/search.*.min.js)")
    return changed


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
    # data-letters: the ledger version whose letters the options carry (an early lock records it)
    wrapper = h("div", {"class": "pl-lab", "data-lab": lab_id, "data-build": build_id(), "data-site-root": site_root,
                        "data-letters": str(LETTERS_VERSION)},
                h("div", {"class": "pl-notices", "data-notices": ""}),
                boot, noscript, render_lab(current, current.default_state(), links(current)))
    return str(wrapper) + f"<script>{early_inline()}</script>"


def catalog(volume: int, page_url: str) -> str:
    """The labs of one volume: title, the lab's question (its hook: the invariant would answer
    it), duration and the student's progress."""
    items = []
    for entry in sorted((x for x in all_labs() if x.volume == volume), key=lambda x: x.number):
        href = posixpath.relpath(entry.url, page_url or ".") + "/"
        items.append(h("li", {"class": "pl-catalog__item"},
                       h("a", {"class": "pl-catalog__title", "href": href},
                         f"Lab {entry.number:02d} · {entry.title}"),
                       h("span", {"class": "pl-catalog__meta"}, entry.minutes),
                       h("span", {"class": "pl-progress", "data-progress": entry.id}, "Not started"),
                       h("p", {"class": "pl-catalog__hook"}, raw(_inline(entry.hook))) if entry.hook else None))
    if not items:
        return str(h("p", {"class": "pl-catalog__empty"}, "The labs of this volume are being written."))
    return str(h("ul", {"class": "pl-catalog"}, items))


def _inline(text: str) -> str:
    from pylabs.framework.components import rich
    return str(rich(text))


UNIT_FORMATS = {"FLOP/s": "FLOP/s", "FLOP": "FLOP", "B": "B", "B/s": "B/s", "W": "W", "s": "s",
                "params": "params", "OP/s": "OP/s", "Hz": "Hz", "J": "Wh", "m/s": "m/s"}
COUNT_UNITS = {"GPUs", "NICs", "heads", "layers", "sequences", "tokens"}


def shown_value(value: float, unit: str) -> str:
    """A registry value as a student reads it: scaled with its unit (1.98 PFLOP/s, 80 GB, 50 GB/s)."""
    if unit in UNIT_FORMATS:
        return fmt(value, UNIT_FORMATS[unit])
    if unit == "EUR":
        return f"€{count_text(value)}"
    if unit == "kg/J":  # carbon intensity, read per kilowatt-hour in grams
        return f"{fmt(value * 3.6e9, 'num')} g CO₂e/kWh"
    if unit in COUNT_UNITS:
        return f"{count_text(value)} {unit[:-1] if value == 1 else unit}"
    if unit == "1":
        return fmt(value, "int") if float(value).is_integer() else fmt(value, "num")
    return f"{fmt(value, 'num')} {unit}"


BIG_COUNTS = ((1e12, "trillion"), (1e9, "billion"), (1e6, "million"))


def count_text(value: float) -> str:
    """A count in words a student reads at a glance: 2,048; 300 billion; 15 trillion."""
    for scale, word in BIG_COUNTS:
        if abs(value) >= scale:
            return f"{fmt(value / scale, 'num')} {word}"
    return fmt(value, "int") if float(value).is_integer() else fmt(value, "num")


def constant_label(name: str, label: str) -> str:
    """The registry entry's own label, or one read off its name."""
    if label:
        return label
    words = name.replace("_", " ").lower()
    return words[:1].upper() + words[1:]


def sources_table() -> str:
    """The registry for students: what each constant is, its value with units, and who says so."""
    rows = []
    for name, spec in sorted(constants.REGISTRY.items(), key=lambda kv: constant_label(kv[0], kv[1].label)):
        source = h("a", {"href": spec.url}, spec.source) if spec.url else spec.source
        rows.append(h("tr", {"id": f"const-{name.lower()}"},
                      h("td", None, constant_label(name, spec.label)),
                      h("td", {"class": "pl-sources__value"}, shown_value(spec.value, spec.unit)),
                      h("td", None, source)))
    return str(h("table", {"class": "pl-sources"},
                 h("thead", None, h("tr", None, [h("th", {"scope": "col"}, c) for c in ("Quantity", "Value", "Source")])),
                 h("tbody", None, rows)))


def progress_list(page_url: str) -> str:
    """Every lab of both volumes as a link with the student's progress (filled in from the ledger)."""
    sections = []
    for volume in (1, 2):
        labs = sorted((x for x in all_labs() if x.volume == volume), key=lambda x: x.number)
        if not labs:
            continue
        items = [h("li", None,
                   h("a", {"href": posixpath.relpath(entry.url, page_url or ".") + "/"},
                     f"Lab {entry.number:02d} · {entry.title}"),
                   h("span", {"class": "pl-progress", "data-progress": entry.id}, "Not started"))
                 for entry in labs]
        sections.append(h("section", {"class": "pl-progress-list"},
                          h("h3", None, f"Volume {'I' * volume}"),
                          h("ul", {"class": "pl-catalog pl-catalog--compact"}, items)))
    return str(h("div", None, sections))


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
    """``labs.json``: every lab's controls, metrics and questions (handbook/dom-contract.md)."""
    return {"schema": 1, "ledger_key_prefix": "mlsys-labs:ledger", "labs": [x.manifest() for x in all_labs()]}
