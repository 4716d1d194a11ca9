"""The instructor's guide, generated from every lab's module: each question's key in every context
with the physics that proves it, every wrong option's feedback, every failure state reached."""

from __future__ import annotations

import html
import re

import pytest

from build_scripts.guide import facts
from build_scripts.guide.__main__ import build
from pylabs.framework.formats import fmt
from pylabs.framework.questions import Pick, Prediction
from pylabs.labs import LAB_MODULES, get


@pytest.fixture(scope="module")
def guide(tmp_path_factory):
    out = tmp_path_factory.mktemp("guide")
    summary = build(out)
    return out, summary


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_one_page_per_lab_and_an_index(guide):
    out, summary = guide
    assert summary["labs"] == len(LAB_MODULES) == 34
    assert {p.stem for p in out.glob("v*.html")} == set(LAB_MODULES)
    index = (out / "index.html").read_text()
    assert all(f'href="{lab_id}.html"' in index for lab_id in LAB_MODULES)
    assert (out / "vendor" / "katex" / "katex.min.js").exists()


@pytest.mark.parametrize("lab_id", sorted(LAB_MODULES))
def test_every_question_has_its_key_and_proof_in_every_context(guide, lab_id):
    out, _ = guide
    page = (out / f"{lab_id}.html").read_text()
    lab = get(lab_id)
    for q in lab.questions:
        section = text(page[page.index(f'data-question="{q.id}"'):])
        for context in lab.context.values:
            key = q.answer(context)
            assert f"Key: {key}." in section, (q.id, context)
            answer = facts.answer_in(lab, q, context)
            if isinstance(q, Prediction):
                assert fmt(q.value_in(context), q.unit_fmt) in answer.proof
            assert answer.proof and answer.key == key
            assert [o.letter for o in answer.options if o.key] == [key]
            if isinstance(q, (Prediction, Pick)):
                assert all(o.feedback for o in answer.options if not o.key), (q.id, "a wrong option without feedback")
    prose = text(re.sub(r'<div class="guide-math">.*?</details></div>', "", page, flags=re.S))
    assert "{" not in prose and "}" not in prose  # every fact filled in (TeX lives in the math peeks only)


@pytest.mark.parametrize("lab_id", sorted(LAB_MODULES))
def test_every_failure_state_is_reached_by_settings_the_guide_names(guide, lab_id):
    out, _ = guide
    page = (out / f"{lab_id}.html").read_text()
    for spec in get(lab_id).failures:
        assert f'data-failure="{spec.name}" data-reached="true"' in page, spec.name


def test_reached_settings_really_reach_the_failure():
    lab = get("v2_02")
    found = facts.reach(lab, next(f for f in lab.failures if f.name == "a1_out_of_memory"))
    assert found.settings == (("Model size", "70B parameters"),)


def _question_sections(page: str) -> dict[str, str]:
    starts = [(m.start(), m.group(1)) for m in re.finditer(r'data-question="([a-z0-9_]+)"', page)]
    ends = [s for s, _ in starts[1:]] + [page.find("</main>") if "</main>" in page else len(page)]
    return {qid: html.unescape(text(page[start:end])) for (start, qid), end in zip(starts, ends)}


@pytest.mark.parametrize("lab_id", sorted(LAB_MODULES))
def test_each_contexts_key_is_shown_under_that_context_in_its_own_question(guide, lab_id):
    """Review: the test above finds "Key: X." anywhere from the question to the end of the page, so
    a context's key missing from its question passed when a later question had that letter. Here
    each question's own section shows, context by context, that context's label and then its key
    and its computed number."""
    out, _ = guide
    lab = get(lab_id)
    sections = _question_sections((out / f"{lab_id}.html").read_text())
    for q in lab.questions:
        section = sections[q.id]
        found = facts.answers(lab, q)
        if len({(a.key, a.proof, a.options) for a in found}) == 1:
            assert "In every context" in section and f"Key: {found[0].key}." in section, q.id
            continue
        at = 0
        for answer in found:
            where = section.index(f"{lab.context.label}: {answer.context_label}", at)
            at = section.index(f"Key: {answer.key}.", where)
            if isinstance(q, Prediction):
                assert fmt(q.value_in(answer.context), q.unit_fmt) in section[at:], (q.id, answer.context)
