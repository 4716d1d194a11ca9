"""A slider move sends the browser only the parts of an act that changed (and warming a
lab after a snapshot boot changes none of it).

The browser finds a part by element-child indexes (morph.js patchParts), so every child of a
parted element must be exactly one element, and applying the parts to the old block must give
the new block. Checked for every lab, over random settings, with html.parser as the browser's
stand-in (the renderer writes well-formed markup)."""

from __future__ import annotations

import json
import random
from html.parser import HTMLParser

import pytest

from pylabs import bridge
from pylabs.framework.controls import Slider
from pylabs.framework.markup import Markup, Parted, changed_parts, h, parted
from pylabs.framework.render import render_blocks
from pylabs.labs import LAB_MODULES, get
from tests.labs.helpers import LOCKED_AT, answered
from tests.labs.test_figures import random_controls

VOID = {"br", "hr", "img", "input", "meta", "link", "source", "wbr"}


class _TopLevel(HTMLParser):
    """The top-level elements of a fragment, and any text between them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.tags: list[str] = []
        self.text = ""
        self.open: list[str] = []  # the elements not yet closed, innermost last
        self.balanced = True  # every element closed, innermost first

    def handle_starttag(self, tag, attrs):
        if self.depth == 0:
            self.tags.append(tag)
        if tag not in VOID:
            self.depth += 1
            self.open.append(tag)

    def handle_startendtag(self, tag, attrs):
        if self.depth == 0:
            self.tags.append(tag)

    def handle_endtag(self, tag):
        if tag not in VOID:
            self.depth -= 1
            if self.open and self.open[-1] == tag:
                self.open.pop()
            else:
                self.balanced = False

    def handle_data(self, data):
        if self.depth == 0:
            self.text += data.strip()


def top_level(fragment: str) -> tuple[list[str], str]:
    parser = _TopLevel()
    parser.feed(fragment)
    parser.close()
    return parser.tags, parser.text


def balanced(fragment: str) -> bool:
    """Every element of ``fragment`` is closed, innermost first. The page parses a move's parts
    together (morph.js parseParts): a part that left an element open would spill into the next."""
    parser = _TopLevel()
    parser.feed(fragment)
    parser.close()
    return parser.balanced and not parser.open


def check_parted(element: Markup, where: str) -> int:
    """Every child of every parted element is one element; returns how many parted elements."""
    if not isinstance(element, Parted):
        return 0
    count = 1
    for index, kid in enumerate(element.kids):
        tags, text = top_level(kid)
        assert len(tags) == 1 and not text, f"{where}/{index}: a part must be one element, got {tags} {text!r:.60}"
        assert balanced(kid), f"{where}/{index}: a part leaves an element open: {kid!r:.80}"
        count += check_parted(kid, f"{where}/{index}")
    return count


def apply(old: Markup, ops: list[list]) -> str:
    """What the browser ends with: ``old`` with each op's element replaced (the browser morphs it)."""
    by_path = {tuple(path): html for path, _tag, html, _siblings in ops}
    return _rebuild(old, (), by_path)


def _rebuild(node: Markup, path: tuple[int, ...], by_path: dict) -> str:
    if path in by_path:
        return by_path[path]
    if not isinstance(node, Parted) or not any(p[:len(path)] == path for p in by_path):
        return str(node)
    return node.head + "".join(_rebuild(kid, path + (i,), by_path) for i, kid in enumerate(node.kids)) + f"</{node.tag}>"


def states(lab_id: str, count: int = 12) -> list:
    lab = get(lab_id)
    rng = random.Random(lab_id)
    last = lab.questions[-1].id
    out = [lab.parse({}), answered(lab, {}, through=lab.questions[0].id)]
    out += [answered(lab, {}, through=last, controls=random_controls(lab, rng)) for _ in range(count)]
    return out


@pytest.mark.parametrize("lab_id", sorted(LAB_MODULES))
def test_parts_are_single_elements_and_rebuild_the_new_block(lab_id):
    lab = get(lab_id)
    previous = None
    parted_seen = 0
    for number, state in enumerate(states(lab_id)):
        blocks = dict(render_blocks(lab, state))
        for key, html in blocks.items():
            parted_seen += check_parted(html, f"{lab_id}:{key}")
            if previous is not None and previous[key] != html:
                ops = changed_parts(previous[key], html)
                assert apply(previous[key], ops) == html, f"{lab_id}:{key} state {number}"
                for _, tag, part, _ in ops:
                    assert top_level(part)[0] == [tag]
        previous = blocks
    assert parted_seen > 0


def test_a_slider_move_sends_parts_not_the_act():
    lab = get("v2_02")
    answers = {"a1_predict": {"choice": "C", "locked_at": "2026-01-01T00:00:00Z"}}
    first = json.loads(bridge.update("v2_02", json.dumps({"controls": {}, "answers": answers}), None, True))
    assert "act1" in first["blocks"] and not first["parts"]
    moved = json.loads(bridge.update("v2_02", json.dumps({"controls": {"a1_tokens": 8192}, "answers": answers}),
                                     "a1_tokens", False))
    assert "act1" not in moved["blocks"] and "act1" in moved["parts"]
    sent = sum(len(html) for _path, _tag, html, _siblings in moved["parts"]["act1"])
    whole = json.loads(bridge.view("v2_02"))["act1"]
    assert sent < len(whole) / 2
    assert "act1" in first["hashes"] and "act1" not in moved["hashes"]  # no digest for a patched block
    # what was sent, applied to the act as it was, is the act as it is now
    state = lab.parse({"controls": {"a1_tokens": 8192}, "answers": answers}, "a1_tokens")
    assert dict(render_blocks(lab, state))["act1"] == whole


def test_an_element_left_open_is_seen():
    assert balanced("<div><b>x</b></div>") and balanced('<div><input type="range"><br></div>')
    assert not balanced("<div><b>x</div>") and not balanced("<div><p>x</div>")


def test_a_changed_structure_is_sent_whole():
    old = parted("div", {"class": "x"}, h("p", None, "a"), h("p", None, "b"))
    assert changed_parts(old, parted("div", {"class": "x"}, h("p", None, "a"), h("p", None, "c"))) == \
        [[[1], "p", "<p>c</p>", 2]]
    grown = parted("div", {"class": "x"}, h("p", None, "a"), h("p", None, "b"), h("p", None, "c"))
    assert changed_parts(old, grown) == [[[], "div", str(grown), 1]]
    renamed = parted("div", {"class": "y"}, h("p", None, "a"), h("p", None, "b"))
    assert changed_parts(old, renamed)[0][0] == []


def test_text_children_make_a_plain_element():
    element = parted("p", None, "some text", h("b", None, "bold"))
    assert not isinstance(element, Parted) and element == h("p", None, "some text", h("b", None, "bold"))


def _wire(lab_id: str, controls: dict) -> str:
    """A state as the browser sends it: every question locked, these controls."""
    lab = get(lab_id)
    answers = {q.id: {"choice": q.answer(), "locked_at": LOCKED_AT} for q in lab.questions}
    return json.dumps({"answers": answers, "controls": controls})


@pytest.mark.parametrize("lab_id", sorted(LAB_MODULES))
def test_warming_a_lab_changes_nothing_the_browser_is_sent(lab_id):
    """bridge.warm runs a move's work after a snapshot boot (worker.js warmLater); the next real
    update must send exactly what it would have sent without it."""
    lab = get(lab_id)
    rng = random.Random(lab_id)
    opened, moved = _wire(lab_id, {}), _wire(lab_id, random_controls(lab, rng))
    slider = next((c.name for c in lab.controls if isinstance(c, Slider)), None)
    sent = []
    for warm_turns in (0, 6):
        bridge._sent.pop(lab_id, None)
        bridge._memo.pop(lab_id, None)
        bridge.update(lab_id, opened, None, True)
        for turn in range(warm_turns):
            bridge.warm(lab_id, opened, turn)
        sent.append(bridge.update(lab_id, moved, slider, False))
    assert sent[0] == sent[1]
