"""Escaped-by-default HTML building: ``h(tag, attrs, *children)``.

Text children are escaped; raw HTML must be wrapped in ``raw()`` on purpose.
Attribute values are always escaped. ``None`` and ``False`` attributes are
omitted, ``True`` renders a bare boolean attribute. Attributes render in the
order given, so output is deterministic (golden files depend on it).
"""

from __future__ import annotations

from html import escape
from typing import Iterable, Mapping, Union

VOID_TAGS = frozenset({"br", "hr", "img", "input", "meta", "link", "source", "wbr"})


class Markup(str):
    """A string that is already HTML and must not be escaped again."""

    __slots__ = ()


Child = Union[str, Markup, None, Iterable["Child"], int, float]


def raw(html: str) -> Markup:
    """Mark ``html`` as trusted markup (the caller vouches that it is safe)."""
    return Markup(html)


def _escape_text(text: str) -> str:
    """``html.escape(text, quote=False)``, with no work for the usual text that needs none (this
    runs a few hundred times on every slider move)."""
    if "&" in text or "<" in text or ">" in text:
        return escape(text, quote=False)
    return text


def _escape_value(value: str) -> str:
    """``html.escape(value, quote=True)``, with the same shortcut as ``_escape_text``."""
    if "&" in value or "<" in value or ">" in value or '"' in value or "'" in value:
        return escape(value, quote=True)
    return value


def render_attrs(attrs: Mapping[str, object] | None) -> str:
    if not attrs:
        return ""
    parts = []
    for name, value in attrs.items():
        if value is None or value is False:
            continue
        if value is True:
            parts.append(f" {name}")
        else:
            parts.append(f' {name}="{_escape_value(value if type(value) is str else str(value))}"')
    return "".join(parts)


def render_child(child: Child) -> str:
    kind = type(child)
    if kind is Markup:  # the common cases first: already HTML, then plain text
        return child
    if kind is str:
        return _escape_text(child)
    if isinstance(child, str):  # Markup's subclasses (parted elements, metric cards), str's
        return child if isinstance(child, Markup) else _escape_text(child)
    if child is None or child is False:
        return ""
    if isinstance(child, (int, float)):
        return _escape_text(str(child))
    return "".join([render_child(c) for c in child])


def h(tag: str, attrs: Mapping[str, object] | None = None, *children: Child) -> Markup:
    """Build one element. ``h("p", {"class": "x"}, "a < b")`` -> ``<p class="x">a &lt; b</p>``."""
    opening = f"<{tag}{render_attrs(attrs)}>" if attrs else f"<{tag}>"
    if tag in VOID_TAGS:
        assert not children, f"<{tag}> cannot have children"
        return Markup(opening)
    if len(children) == 1:
        return Markup(f"{opening}{render_child(children[0])}</{tag}>")
    return Markup(f"{opening}{''.join([render_child(c) for c in children])}</{tag}>")


class Parted(Markup):
    """An element whose children are elements, each kept apart: when it changes, the browser is sent
    only the children that differ (``changed_parts``), not the whole element (a slider move
    changes a few numbers of an act, not the act). Every child renders exactly one element, so the
    browser finds it as the element child with the same index."""

    tag: str
    head: str
    kids: tuple[Markup, ...]


def parted(tag: str, attrs: Mapping[str, object] | None, *children: Child) -> Markup:
    """``h(tag, attrs, *children)`` that remembers its children (``None`` skipped, lists flattened).
    Each child must be one element's markup; with a text child it is a plain ``h`` element."""
    kids: list[Markup] = []
    if not _elements(children, kids):
        return h(tag, attrs, *children)
    head = f"<{tag}{render_attrs(attrs)}>"
    element = Parted(f"{head}{''.join(kids)}</{tag}>")
    element.tag, element.head, element.kids = tag, head, tuple(kids)
    return element


def _elements(children, into: list[Markup]) -> bool:
    """Collect markup children into ``into``; False when one is text."""
    for child in children:
        if child is None or child is False:
            continue
        if isinstance(child, Markup):
            into.append(child)
        elif isinstance(child, (list, tuple)):
            if not _elements(child, into):
                return False
        else:
            return False
    return True


def _tag(markup: str) -> str:
    end = len(markup)
    for stop in (" ", ">"):
        found = markup.find(stop, 1)
        if found != -1:
            end = min(end, found)
    return markup[1:end]


def changed_parts(old: Markup, new: Markup) -> list[list]:
    """What the browser must patch to turn ``old`` into ``new``: ``[path, tag, html, siblings]`` per
    changed element, where ``path`` is the element-child indexes from the root (``[]``: the root
    itself), ``tag`` and ``siblings`` (its parent's element count) let the browser check that its
    page has the structure the path was made for. Unchanged children are not sent."""
    ops: list[list] = []
    _diff(old, new, [], 1, ops)
    return ops


def _diff(old: Markup, new: Markup, path: list[int], siblings: int, ops: list[list]) -> None:
    if old == new:
        return
    if (isinstance(old, Parted) and isinstance(new, Parted) and old.head == new.head
            and len(old.kids) == len(new.kids)):
        count, sent = len(new.kids), len(ops)
        for index, (before, after) in enumerate(zip(old.kids, new.kids)):
            _diff(before, after, path + [index], count, ops)
        if len(ops) > sent:
            return
        # the same head and children, yet other markup: not built by parted(); sent whole below
    ops.append([path, new.tag if isinstance(new, Parted) else _tag(new), new, siblings])


def join(*children: Child) -> Markup:
    """Concatenate children (escaping text) without a wrapping element."""
    return Markup(render_child(children))


def classes(*names: str | None) -> str:
    """Join BEM class names, skipping empty ones."""
    return " ".join(n for n in names if n)
