"""The visual vocabulary of a lab: each function returns escaped Markup.

Structure and class names live here; colours and spacing live in the CSS
(``docs/assets/pylabs/pylabs.css``). Lab modules compose these and never
write HTML themselves.
"""

from __future__ import annotations

import functools
import json
import math
import re
from dataclasses import dataclass, field
from html import escape
from typing import Any, Iterable, Mapping, Sequence

from .formats import fmt
from .markup import Child, Markup, Parted, classes, h, parted, raw, render_child

# ---- inline text -----------------------------------------------------------------

_INLINE = re.compile(r"\*\*(.+?)\*\*|\*(.+?)\*|`(.+?)`")
_LINK = re.compile(r"\[([^\[\]]+)\]\(([^()\s]+)\)")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


_STAR = "\x00"  # an escaped asterisk (\*) while the emphasis rules run: "*k\**" is an italic k*


def _inline(text: str) -> str:
    r"""Escape ``text``, then turn **bold**, *emphasis* and `code` into elements; ``\*`` is a
    literal asterisk (V1-05's *k\**, V1-07's *N\** printed a backslash and italicised the rest)."""
    def replace(match: re.Match) -> str:
        bold, em, code = match.groups()
        if bold is not None:
            return f"<strong>{bold}</strong>"
        if em is not None:
            return f"<em>{em}</em>"
        return f"<code>{code}</code>"
    marked = escape(text.replace("\\*", _STAR), quote=False)
    return _INLINE.sub(replace, marked).replace(_STAR, "*")


def safe_url(url: str) -> bool:
    """Links may go to https:// pages or stay on this site (a relative URL, no scheme, no host)."""
    if url.startswith("https://"):
        return len(url) > len("https://")
    return not _SCHEME.match(url) and not url.startswith(("//", "\\", "/\\"))


@functools.lru_cache(maxsize=4096)
def rich(text: str) -> Markup:
    """Escape ``text``, then turn **bold**, *emphasis*, `code` and [links](url) into elements.

    Only relative and https URLs become links; anything else stays as the escaped text. Kept: most
    texts (labels, captions, notes) are the same on every slider move."""
    out, pos = [], 0
    for match in _LINK.finditer(text):
        label, url = match.groups()
        out.append(_inline(text[pos:match.start()]))
        if safe_url(url):
            out.append(f'<a href="{escape(url, quote=True)}">{_inline(label)}</a>')
        else:
            out.append(_inline(match.group(0)))
        pos = match.end()
    out.append(_inline(text[pos:]))
    return raw("".join(out))


def prose(*paragraphs: str) -> Markup:
    return h("div", {"class": "pl-prose"}, [h("p", None, rich(p)) for p in paragraphs])


def bullets(items: Iterable[str], cls: str = "pl-list") -> Markup:
    return h("ul", {"class": cls}, [h("li", None, rich(i)) for i in items])


# ---- callouts and messages ---------------------------------------------------------

CALLOUT_KINDS = ("info", "success", "warn", "danger")


def callout(kind: str, title: str, *body: Child, attrs: dict | None = None) -> Markup:
    assert kind in CALLOUT_KINDS, f"callout kind {kind!r} is not one of {CALLOUT_KINDS}"
    return h("div", {"class": f"pl-callout pl-callout--{kind}", **(attrs or {})},
             h("p", {"class": "pl-callout__title"}, title), *body)


def stakeholder(role: str, message: str) -> Markup:
    return h("figure", {"class": "pl-message"},
             h("figcaption", {"class": "pl-message__from"}, f"Incoming message · {role}"),
             h("blockquote", {"class": "pl-message__body"}, rich(message)))


@dataclass(frozen=True)
class FailureSpec:
    """A failure state a student can reach and leave; ``name`` is its test hook. ``severity``
    is ``"danger"`` (a hard limit is broken) or ``"warn"`` (a budget is exceeded).

    Its witnesses say how a student gets there and back, and the tests drive every lab by them
    (tests/labs/test_contract.py, tests/e2e/test_walkthrough.py): from a context's starting
    settings with every question locked, moving the controls in ``reach`` (in order) turns the
    failure on, and then moving those in ``leave`` turns it off. ``contexts`` lists the contexts
    where this holds; empty means every one. ``Lab`` checks that the names are its controls."""

    name: str
    title: str
    act: int
    severity: str = "danger"
    reach: Mapping[str, Any] = field(default_factory=dict, hash=False)
    leave: Mapping[str, Any] = field(default_factory=dict, hash=False)
    contexts: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        assert self.severity in ("danger", "warn"), \
            f"failure {self.name!r}: severity {self.severity!r} is not 'danger' or 'warn'"


def failure(spec: FailureSpec, *body: str) -> Markup:
    """The callout of an active failure state, in its severity's colour (render it only while active)."""
    return callout(spec.severity, spec.title, *[h("p", None, rich(b)) for b in body],
                   attrs={"data-failure": spec.name, "role": "alert"})


# ---- metrics -------------------------------------------------------------------

TONES = (None, "good", "warn", "danger")


@dataclass(frozen=True)
class MetricSpec:
    """A number the instruments show: declared once with its SI unit and format."""

    name: str
    label: str
    unit: str
    fmt: str
    # what the card says when the model gives no finite value (a queue that never drains, a peak no
    # batch reaches): a word, never "∞" (reviews of V1-03, V1-07, V1-09, V1-12 found the glyph)
    infinite: str = "unbounded"

    def __post_init__(self) -> None:
        fmt(1.0, self.fmt)

    def show(self, value: float, tone: str | None = None, note: str = "") -> "MetricCard":
        assert tone in TONES, f"metric tone {tone!r} is not one of {TONES}"
        text = self.text(value)
        html = h("div", {"class": classes("pl-metric", tone and f"pl-metric--{tone}"),
                         "data-metric": self.name, "data-value": number_attr(value)},
                 h("span", {"class": "pl-metric__label"}, self.label),
                 h("span", {"class": "pl-metric__value"}, text),
                 h("span", {"class": "pl-metric__note"}, rich(note)) if note else None)
        return MetricCard(html, self.name, self.label, text, tone)

    def text(self, value: float) -> str:
        return fmt(value, self.fmt) if math.isfinite(value) else self.infinite


def number_attr(value: float) -> str:
    """A number for a ``data-value`` attribute: full precision, and infinities as JavaScript spells them."""
    value = float(value)
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return repr(value)


def tone(share: float, good: float = 0.8, warn: float = 0.5) -> str:
    """The tone of a metric that is a share of its ideal: good, warn, or danger below ``warn``."""
    return "good" if share >= good else "warn" if share >= warn else "danger"


class MetricCard(Markup):
    """A metric's markup that also remembers what it shows, so the page can repeat the act's
    key numbers in the compact strip that stays in view on phones (``key_strip``)."""

    def __new__(cls, html: str, name: str, label: str, text: str, tone: str | None) -> "MetricCard":
        card = super().__new__(cls, html)
        card.name, card.label, card.text, card.tone = name, label, text, tone
        return card


class MetricGrid(Parted):
    """A grid of metric cards; the first ones are the act's key numbers. Parted: a card whose
    number changed is sent to the browser alone."""

    def __new__(cls, cards: Sequence[Markup]) -> "MetricGrid":
        element = parted("div", {"class": "pl-metrics"}, cards)
        grid = super().__new__(cls, element)
        # a grid holding text is sent whole: its head is then all of it
        grid.tag, grid.head, grid.kids = (("div", element.head, element.kids) if isinstance(element, Parted)
                                          else ("div", str(element), ()))
        grid.cards = tuple(c for c in cards if isinstance(c, MetricCard))
        return grid


def metric_grid(*metrics: Markup) -> MetricGrid:
    return MetricGrid(metrics)


STRIP_SIZE = 6


def key_strip(readout: Sequence[object]) -> Markup | None:
    """The first metric grid's first few numbers as one compact line (shown sticky on phones).

    It repeats numbers that are on the page already, so it is hidden from assistive technology
    and carries no ``data-metric`` hooks."""
    grid = next((part for part in readout if isinstance(part, MetricGrid)), None)
    if grid is None or not grid.cards:
        return None
    items = [_strip_item(c.name, c.label, c.text, c.tone) for c in grid.cards[:STRIP_SIZE]]
    return parted("div", {"class": "pl-strip", "aria-hidden": "true"}, parted("div", {"class": "pl-strip__inner"}, items))


@functools.lru_cache(maxsize=1024, typed=True)  # typed: a label as text and as Markup render apart
def _strip_item(name: str, label: str, text: str, tone: str | None) -> Markup:
    """One number of the strip (kept: a move changes a few of them)."""
    return h("span", {"class": classes("pl-strip__item", tone and f"pl-strip__item--{tone}"), "data-strip-of": name},
             h("span", {"class": "pl-strip__label"}, label), h("span", {"class": "pl-strip__value"}, text))


# ---- charts -------------------------------------------------------------------


def chart(name: str, title: str, figure: dict, summary: str,
          table: tuple[Sequence[str], Sequence[Sequence[str]]] | None = None) -> Markup:
    """A Plotly figure (a plain dict) with a title, a text summary and an optional data table.

    The figure travels as JSON inside the element; the browser draws it with
    Plotly.js. Colours are ``token:<name>`` strings resolved from CSS.
    """
    spec = json.dumps(figure, separators=(",", ":"), sort_keys=True, allow_nan=False)
    spec = spec.replace("</", "<\\/")
    details = None
    if table is not None:
        head, rows = table
        details = h("details", {"class": "pl-chart__data"},
                    h("summary", None, "Data table"),
                    h("table", None,
                      h("thead", None, h("tr", None, [h("th", {"scope": "col"}, c) for c in head])),
                      h("tbody", None, raw("".join([_row(row) for row in rows])))))
    return parted("figure", {"class": "pl-chart", "data-chart": name},
                  h("figcaption", {"class": "pl-chart__title"}, title),
                  h("div", {"class": "pl-chart__plot", "role": "img", "aria-label": f"{title}. {summary}"}),
                  h("script", {"type": "application/json", "class": "pl-chart__spec"}, raw(spec)),
                  h("p", {"class": "pl-chart__summary"}, rich(summary)),
                  details)


def _row(cells: Sequence[Child]) -> str:
    """``h("tr", None, [h("td", None, c) for c in cells])``, written out: a chart's data table is
    rebuilt on every slider move, and its cells were the most elements a move made."""
    return "<tr>" + "".join(["<td>" + render_child(c) + "</td>" for c in cells]) + "</tr>"


# ---- math peek ----------------------------------------------------------------


@dataclass(frozen=True)
class Equation:
    tex: str
    caption: str


def tex(source: str, display: bool = True) -> Markup:
    """TeX source shown as text until KaTeX renders it in the browser."""
    tag = "div" if display else "span"
    return h(tag, {"class": classes("pl-tex", display and "pl-tex--display"), "data-tex": source},
             source)


def math_peek(title: str, equations: Sequence[Equation], rows: Sequence[tuple[str, str]] = (),
              sources: Sequence[str] = ()) -> Markup:
    table = None
    if rows:
        table = h("table", {"class": "pl-mathpeek__table"},
                  h("tbody", None, [h("tr", None, h("th", {"scope": "row"}, rich(k)), h("td", None, v))
                                    for k, v in rows]))
    # the types are part of the key: an Equation of Markup equals one of the same text, and renders apart
    kinds = tuple((type(e.tex), type(e.caption)) for e in equations)
    return parted("details", {"class": "pl-mathpeek"}, h("summary", None, title),
                  _equations(tuple(equations), kinds), table, _sources(tuple(sources)))


@functools.lru_cache(maxsize=256)
def _equations(equations: tuple[Equation, ...], kinds: tuple) -> tuple[Markup, ...]:
    """A peek's equations: the same on every slider move, so made once (only its table of values
    changes). ``kinds``: the types of each equation's texts, so that text and Markup are kept apart."""
    return tuple(h("div", {"class": "pl-mathpeek__eq"}, tex(e.tex), h("p", None, rich(e.caption)))
                 for e in equations)


@functools.lru_cache(maxsize=256, typed=True)
def _sources(sources: tuple[str, ...]) -> Markup | None:
    return h("div", {"class": "pl-mathpeek__sources"}, h("p", None, h("strong", None, "Sources")),
             bullets(sources)) if sources else None


def forget_kept() -> None:
    """Empty the markup this module keeps across slider moves (rich text, a peek's equations and
    sources, the strip's numbers). The snapshot's build calls it after warming each lab, so the
    Python image carries none of it (build_scripts/snapshot.mjs)."""
    for kept in (rich, _equations, _sources, _strip_item):
        kept.cache_clear()


# ---- page furniture ------------------------------------------------------------


def section_title(text: str) -> Markup:
    return h("h3", {"class": "pl-section-title"}, text)


def takeaways(invariant: str, items: Sequence[str], connections: Sequence[str]) -> Markup:
    """The lab's invariant and what it showed: they answer its questions, so they wait for the
    last lock (``takeaways_waiting`` stands in their place)."""
    return h("section", {"class": "pl-takeaways"},
             h("h2", None, "Key takeaways"),
             h("p", {"class": "pl-takeaways__invariant"}, rich(invariant)), bullets(items),
             h("h3", None, "Connections"), bullets(connections))


def takeaways_waiting(connections: Sequence[str]) -> Markup:
    """What stands where the takeaways will be: they state the answers, so they wait for the
    last lock; the connections to other labs give nothing away."""
    return h("section", {"class": "pl-takeaways pl-takeaways--waiting"},
             h("h2", None, "Key takeaways"),
             h("p", {"class": "pl-takeaways__wait"},
               "The lab's invariant and its takeaways appear here once you have locked every prediction "
               "and reflection: they state the answers."),
             h("h3", None, "Connections"), bullets(connections))
