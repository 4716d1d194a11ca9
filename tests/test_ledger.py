"""The ledger: validation, quarantine, merge laws, commit, restart and import."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pylabs import ledger

T0, T1, T2 = "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z", "2026-01-03T00:00:00Z"


def attempt(aid="v2_02-abc123", lab="v2_02", updated=T1, answers=None, **extra):
    return {"id": aid, "lab": lab, "started_at": T0, "updated_at": updated, "archived_at": None,
            "context": "pretrain", "controls": {"a1_tokens": 4096.0}, "answers": answers or {},
            "results": {"a2_speedup": 6.3}, "failures_hit": [], "complete": False, **extra}


def doc(*attempts):
    return {"schema": ledger.SCHEMA, "version": 1, "attempts": {a["id"]: a for a in attempts}}


def test_empty_and_missing_storage_load_as_an_empty_ledger():
    assert ledger.load(None).ledger == ledger.empty()
    assert ledger.load("").quarantined == []


@pytest.mark.parametrize("raw,reason", [
    ("{not json", "not valid JSON"),
    ('{"schema": "other"}', "not an ML Systems labs ledger"),
    (json.dumps({"schema": ledger.SCHEMA, "version": 99, "attempts": {}}), "version 99"),
    ("[1, 2]", "not an ML Systems labs ledger"),
])
def test_unreadable_storage_is_quarantined_whole_with_a_reason(raw, reason):
    loaded = ledger.load(raw)
    assert loaded.ledger == ledger.empty()
    assert loaded.quarantined[0]["raw"] == raw and reason in loaded.quarantined[0]["reason"]


def test_a_bad_attempt_is_set_aside_and_the_good_ones_kept():
    good = attempt()
    bad = attempt(aid="v2_02-bad000", answers={"q": {"choice": "Z", "locked_at": T0}})
    loaded = ledger.load(json.dumps(doc(good, bad)))
    assert list(loaded.ledger["attempts"]) == [good["id"]]
    assert "v2_02-bad000" in loaded.quarantined[0]["raw"]


def test_unknown_lab_ids_are_rejected():
    with pytest.raises(ledger.LedgerError, match="not a lab of this curriculum"):
        ledger.validate_attempt("v1_99-abcd", attempt(aid="v1_99-abcd", lab="v1_99"))


def test_first_lock_wins_and_newest_write_wins_otherwise():
    early = attempt(updated=T1, answers={"a1_predict": {"choice": "A", "locked_at": T0, "correct": False}})
    late = attempt(updated=T2, answers={"a1_predict": {"choice": "C", "locked_at": T1, "correct": True},
                                        "a1_reflect": {"choice": "B", "locked_at": T2, "correct": True}},
                   controls={"a1_tokens": 8192.0})
    merged = ledger.merge_attempt(early, late)
    assert merged["answers"]["a1_predict"]["choice"] == "A"
    assert merged["answers"]["a1_reflect"]["choice"] == "B"
    assert merged["controls"] == {"a1_tokens": 8192.0}


names = st.sampled_from(["a1_predict", "a1_reflect", "a2_predict"])
times = st.sampled_from([T0, T1, T2])
answer = st.fixed_dictionaries({"choice": st.sampled_from("ABCD"), "locked_at": times,
                                "correct": st.sampled_from([True, False, None])})
attempts = st.builds(lambda u, a, f, c, arch: ledger.validate_attempt("v2_02-abc123", attempt(
                         updated=u, answers=a, failures_hit=f, complete=c, archived_at=arch)),
                     times, st.dictionaries(names, answer), st.lists(st.sampled_from(["x", "y"]), unique=True),
                     st.booleans(), st.one_of(st.none(), times))


@settings(max_examples=150, deadline=None)
@given(attempts, attempts)
def test_merge_is_commutative_on_locks_and_never_loses_an_answer(a, b):
    ab, ba = ledger.merge_attempt(a, b), ledger.merge_attempt(b, a)
    assert ab["answers"].keys() == ba["answers"].keys() == a["answers"].keys() | b["answers"].keys()
    assert set(ab["failures_hit"]) == set(a["failures_hit"]) | set(b["failures_hit"])
    assert ab["complete"] == (a["complete"] or b["complete"])


@settings(max_examples=100, deadline=None)
@given(attempts)
def test_merge_is_idempotent(a):
    assert ledger.merge_attempt(a, a) == a


def test_commit_then_archive_keeps_the_attempt():
    record = {"lab": "v2_02", "context": "pretrain", "controls": {"a1_tokens": 4096.0},
              "answers": {"a1_predict": {"choice": "C", "locked_at": T0, "correct": True}},
              "results": {"a1_slowdown": 5.3}, "failures_active": ["a1_comm_bound"], "complete": False,
              "letters": ledger.VERSION}  # a record of today's page (no field: a version-1 stash, migrated)
    after = ledger.commit(ledger.empty(), "v2_02-abc123", record, T1)
    assert ledger.active_attempt(after, "v2_02")["answers"]["a1_predict"]["choice"] == "C"
    archived = ledger.archive(after, "v2_02-abc123", T2)
    assert ledger.active_attempt(archived, "v2_02") is None
    assert archived["attempts"]["v2_02-abc123"]["answers"]["a1_predict"]["choice"] == "C"


def test_import_previews_additions_and_changes():
    current = doc(attempt())
    incoming = doc(attempt(updated=T2, controls={"a1_tokens": 1024.0}), attempt(aid="v2_02-new999"))
    preview = ledger.import_text(current, json.dumps(incoming))
    assert preview["added"] == ["v2_02-new999"] and preview["changed"] == ["v2_02-abc123"]


@pytest.mark.parametrize("text,message", [
    ("hello", "not JSON"), ('{"a": 1}', "not an ML Systems labs ledger"), ("x" * 2_000_001, "larger than 2 MB"),
])
def test_import_refuses_files_that_are_not_ledgers(text, message):
    with pytest.raises(ledger.LedgerError, match=message):
        ledger.import_text(ledger.empty(), text)


def test_documented_schema_accepts_a_stored_ledger():
    schema = ledger.json_schema()
    assert schema["properties"]["schema"]["const"] == ledger.SCHEMA
    assert set(schema["properties"]["attempts"]["additionalProperties"]["properties"]) >= set(attempt())


def test_committing_the_same_record_again_changes_nothing():
    """A record stashed when a page is left and folded in after its save landed leaves the ledger as it
    was, updated_at included (a later read sees no change that did not happen)."""
    record = {"lab": "v2_02", "context": "pretrain", "controls": {"a1_tokens": 4096},
              "answers": {"a1_predict": {"choice": "C", "locked_at": "2026-01-01T00:00:00Z", "correct": True}},
              "results": {}, "failures_active": [], "complete": False}
    once = ledger.commit(ledger.empty(), "v2_02-abc123", record, "2026-01-01T00:00:01Z")
    again = ledger.commit(once, "v2_02-abc123", record, "2026-01-01T00:00:09Z")
    assert again == once
    moved = ledger.commit(once, "v2_02-abc123", {**record, "controls": {"a1_tokens": 8192}}, "2026-01-01T00:00:09Z")
    assert moved["attempts"]["v2_02-abc123"]["updated_at"] == "2026-01-01T00:00:09Z"


# ---- the student's name and the final design's failure states ----------------------


@pytest.mark.parametrize("typed,kept", [
    ("  Ada Lovelace ", "Ada Lovelace"), ("s1234567", "s1234567"), ("Zoë Ø'Brien-Łukasz", "Zoë Ø'Brien-Łukasz"),
    ("x" * 100, "x" * 100), ("Cafe\u0301", "Café"),
])
def test_a_name_is_kept_trimmed_as_typed(typed, kept):
    assert ledger.set_student(ledger.empty(), typed, T0)["student"] == {"name": kept, "updated_at": T0}


@pytest.mark.parametrize("typed,message", [
    ("", "empty"), ("   ", "empty"), ("x" * 101, "101 characters"), ("Ada\nLovelace", "control character"),
    ("Ada\tL", "control character"), ("evil\u202eeman", "control character"), (42, "must be text"),
])
def test_a_name_that_cannot_be_kept_is_refused_with_its_reason(typed, message):
    with pytest.raises(ledger.LedgerError, match=message):
        ledger.set_student(ledger.empty(), typed, T0)


def test_the_newest_name_wins_on_merge_from_either_side():
    old = ledger.set_student(ledger.empty(), "Ada", T0)
    new = ledger.set_student(doc(attempt()), "Ada Lovelace", T1)
    new = ledger.parse_document(new).ledger
    assert ledger.merge(old, new)["student"]["name"] == ledger.merge(new, old)["student"]["name"] == "Ada Lovelace"
    assert ledger.merge(old, ledger.empty())["student"]["name"] == "Ada"
    assert "student" not in ledger.merge(ledger.empty(), ledger.empty())


def test_a_stored_name_survives_commits_and_restarts():
    named = ledger.set_student(ledger.empty(), "Ada", T0)
    record = {"lab": "v2_02", "context": "pretrain", "controls": {}, "answers": {}, "results": {},
              "failures_active": [], "complete": False}
    after = ledger.archive(ledger.commit(named, "v2_02-abc123", record, T1), "v2_02-abc123", T2)
    assert ledger.load(ledger.dumps(after)).ledger["student"]["name"] == "Ada"


def test_an_unreadable_name_is_set_aside_and_the_attempts_kept():
    stored = {**doc(attempt()), "student": {"name": "a\x00b", "updated_at": T0}}
    loaded = ledger.load(json.dumps(stored))
    assert "student" not in loaded.ledger and list(loaded.ledger["attempts"]) == ["v2_02-abc123"]
    assert "student name set aside" in loaded.quarantined[0]["reason"] and "a\\u0000b" in loaded.quarantined[0]["raw"]


def test_the_final_designs_failure_states_are_kept_beside_every_one_reached():
    record = {"lab": "v2_02", "context": "pretrain", "controls": {}, "answers": {}, "results": {},
              "failures_active": ["a1_comm_bound"], "complete": False}
    once = ledger.commit(ledger.empty(), "v2_02-abc123", record, T1)
    left = ledger.commit(once, "v2_02-abc123", {**record, "failures_active": []}, T2)
    final = left["attempts"]["v2_02-abc123"]
    assert final["failures_active"] == [] and final["failures_hit"] == ["a1_comm_bound"]
    assert "failures_active" not in ledger.validate_attempt("v2_02-abc123", attempt())  # older attempts


def test_documented_schema_names_the_student():
    assert ledger.json_schema()["properties"]["student"]["properties"]["name"]["maxLength"] == 100


ACTIVE = json.loads((Path(__file__).parent / "fixtures" / "active_attempt.json").read_text())


@pytest.mark.parametrize("case", ACTIVE["cases"], ids=lambda case: case["name"])
def test_the_active_attempt_is_the_one_the_shared_vector_names(case):
    """The vector the JS tests of store.js and the inline script read too (tests/js/)."""
    loaded = ledger.load(json.dumps(case["ledger"]))
    assert not loaded.quarantined
    doc = loaded.ledger
    pending = case["pending"]
    if pending:  # what store.js foldStashed does before it asks Python (ledger_commit)
        doc = ledger.commit(doc, pending["attemptId"], pending["record"], pending["at"])
    active = ledger.active_attempt(doc, ACTIVE["lab"])
    assert (active and active["id"]) == case["active"]
