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


def _attr(name: str, value: object) -> str:
    if value is True:
        return f" {name}"
    return f' {name}="{escape(str(value), quote=True)}"'


def render_attrs(attrs: Mapping[str, object] | None) -> str:
    if not attrs:
        return ""
    # A list, not a generator: str.join builds one anyway (this runs on every slider move).
    return "".join([_attr(name, value) for name, value in attrs.items() if value is not None and value is not False])


def render_child(child: Child) -> str:
    if type(child) is Markup:  # the common case first: already HTML
        return child
    if child is None or child is False:
        return ""
    if isinstance(child, Markup):
        return child
    if isinstance(child, str):
        return escape(child, quote=False)
    if isinstance(child, (int, float)):
        return escape(str(child), quote=False)
    return "".join([render_child(c) for c in child])


def h(tag: str, attrs: Mapping[str, object] | None = None, *children: Child) -> Markup:
    """Build one element. ``h("p", {"class": "x"}, "a < b")`` -> ``<p class="x">a &lt; b</p>``."""
    opening = f"<{tag}{render_attrs(attrs)}>"
    if tag in VOID_TAGS:
        assert not children, f"<{tag}> cannot have children"
        return Markup(opening)
    return Markup(f"{opening}{render_child(children)}</{tag}>")


def join(*children: Child) -> Markup:
    """Concatenate children (escaping text) without a wrapping element."""
    return Markup(render_child(children))


def classes(*names: str | None) -> str:
    """Join BEM class names, skipping empty ones."""
    return " ".join(n for n in names if n)
