"""A ledger written before the options were re-lettered keeps its meaning.

``tests/fixtures/questions_v1.json`` is what each letter of each question said on the site of
ledger version 1, with the key in the default context; ``tests/fixtures/ledger_v1.json`` is a
ledger that site wrote (two attempts per lab, random letters, one complete and one archived).
``pylabs/ledger_letters.py`` says where each version-1 option is now."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pylabs import ledger
from pylabs.framework.render import record
from pylabs.labs import all_labs, get
from pylabs.ledger_letters import FROM_V1, migrate_answer
from pylabs.ledger_view import render

FIXTURES = Path(__file__).parent / "fixtures"
V1_QUESTIONS = json.loads((FIXTURES / "questions_v1.json").read_text())
V1_LEDGER = (FIXTURES / "ledger_v1.json").read_text()


def test_the_table_names_every_question_of_version_1_and_each_new_letter_once():
    assert {lab: set(qs) for lab, qs in FROM_V1.items()} == {lab: set(qs) for lab, qs in V1_QUESTIONS.items()}
    for lab, questions in FROM_V1.items():
        for qid, now in questions.items():
            assert len(now) == 4 and set(now) <= set("ABCD-"), (lab, qid, now)
            kept = [c for c in now if c != "-"]
            assert len(kept) == len(set(kept)), f"{lab} {qid}: two version-1 options map to one letter ({now})"


@pytest.mark.parametrize("lab_id", sorted(V1_QUESTIONS))
def test_the_version_1_key_is_still_the_key_where_its_option_survives(lab_id):
    """A re-lettering that moved the wrong options would move the key elsewhere: where the
    version-1 key's option still exists, it is today's key (default context)."""
    lab = get(lab_id)
    for qid, old in V1_QUESTIONS[lab_id].items():
        if qid not in {q.id for q in lab.questions}:
            continue
        where, letter = migrate_answer(lab_id, qid, old["key"], 1)
        if where == qid:
            assert letter == lab.question(qid).answer(), (
                f"{lab_id} {qid}: the version-1 key {old['key']} ({old['options'][old['key']][:60]}…) maps to "
                f"{letter}, but today's key is {lab.question(qid).answer()}")


def test_a_ledger_exported_by_the_version_1_site_loses_no_answer():
    old = json.loads(V1_LEDGER)
    loaded = ledger.load(V1_LEDGER)
    assert loaded.quarantined == []
    assert loaded.ledger["version"] == ledger.VERSION
    assert set(loaded.ledger["attempts"]) == set(old["attempts"])
    for key, before in old["attempts"].items():
        after = loaded.ledger["attempts"][key]
        assert len(after["answers"]) == len(before["answers"])
        assert (after["complete"], after["archived_at"], after["results"]) == \
            (before["complete"], before["archived_at"], before["results"])
        for qid, answer in before["answers"].items():
            where, letter = migrate_answer(before["lab"], qid, answer["choice"], 1)
            assert after["answers"][where] == {**answer, "choice": letter}


def test_a_version_1_answer_whose_option_was_rewritten_is_kept_beside_the_open_question(monkeypatch):
    monkeypatch.setitem(FROM_V1, "v2_02", {**FROM_V1["v2_02"], "a1_predict": "--BA"})
    doc = json.loads(V1_LEDGER)
    attempt = doc["attempts"]["v2_02-frozen0abcd"]
    attempt["answers"]["a1_predict"]["choice"] = "A"
    loaded = ledger.load(json.dumps(doc))
    answers = loaded.ledger["attempts"]["v2_02-frozen0abcd"]["answers"]
    assert "a1_predict" not in answers and answers["a1_predict_v1"]["choice"] == "A"
    html = render(ledger.dumps(loaded.ledger))
    assert "an earlier version of this question" in html
    lab = get("v2_02")
    state = lab.parse({"answers": answers})
    assert not state.locked("a1_predict")


def test_today_s_ledger_and_records_are_read_as_they_are():
    lab = get("v1_11")
    state = lab.parse({"answers": {"a1_predict": {"choice": "B", "locked_at": "2026-11-27T10:00:00Z"}}})
    written = ledger.commit(ledger.empty(), "v1_11-abcdef", record(lab, state), "2026-11-27T10:00:01Z")
    again = ledger.load(ledger.dumps(written)).ledger
    assert again["attempts"]["v1_11-abcdef"]["answers"]["a1_predict"]["choice"] == "B"


def test_a_record_or_an_early_lock_from_an_older_page_is_read_with_today_s_letters(monkeypatch):
    monkeypatch.setitem(FROM_V1, "v1_11", {**FROM_V1["v1_11"], "a1_predict": "BCDA"})
    lab = get("v1_11")
    old = {"choice": "A", "locked_at": "2026-11-26T10:00:00Z"}
    state = lab.parse({"answers": {"a1_predict": {**old, "letters": 1}}})
    assert state.answers["a1_predict"].choice == "B"
    stashed = {**record(lab, lab.parse({"answers": {"a1_predict": old}})), "letters": None}
    del stashed["letters"]  # a record stashed by a page of the version-1 site
    committed = ledger.commit(ledger.empty(), "v1_11-abcdef", stashed, "2026-11-27T10:00:01Z")
    assert committed["attempts"]["v1_11-abcdef"]["answers"]["a1_predict"]["choice"] == "B"


def test_a_ledger_from_a_newer_site_is_refused_with_its_reason():
    doc = json.loads(V1_LEDGER)
    doc["version"] = ledger.VERSION + 1
    with pytest.raises(ledger.LedgerError, match="newer version of the site"):
        ledger.parse_document(doc)


@pytest.mark.parametrize("lab", all_labs(), ids=lambda lab: lab.id)
def test_every_lab_s_records_carry_today_s_letters(lab):
    assert record(lab, lab.default_state())["letters"] == ledger.VERSION


def test_the_ledger_page_words_an_option_in_the_attempt_s_context(monkeypatch):
    """An option may name its context's words ({device}); the ledger page fills them in."""
    import dataclasses

    from pylabs.framework.questions import Claim
    lab = get("v2_02")
    q = lab.question("a1_reflect")
    worded_q = dataclasses.replace(q, options=tuple(Claim(o.letter, o.text + " on the {where}", o.feedback)
                                                     for o in q.options))
    acts = tuple(dataclasses.replace(a, reflection=worded_q) if a.reflection is q else a for a in lab.acts)
    fake = dataclasses.replace(lab, acts=acts, terms=lambda context: {"where": f"{context} cluster"})
    monkeypatch.setattr("pylabs.ledger_view.get", lambda lab_id: fake)
    doc = ledger.commit(ledger.empty(), "v2_02-worded01", record(fake, fake.parse(
        {"controls": {"context": "finetune"},
         "answers": {"a1_predict": {"choice": "A", "locked_at": "2026-11-27T10:00:00Z"},
                     "a1_reflect": {"choice": "B", "locked_at": "2026-11-27T10:01:00Z"}}})), "2026-11-27T10:02:00Z")
    assert "on the finetune cluster" in render(ledger.dumps(doc))
