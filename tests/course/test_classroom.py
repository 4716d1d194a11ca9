"""Reading a class's files: every reason a file is refused, merging students, duplicates, two
students under one name, quarantined attempts, a ledger from an older build."""

from __future__ import annotations

import json

import pytest

from tools.class_fixture import make_class
from pylabs import bridge, ledger
from pylabs.course import handin
from pylabs.course.classroom import MAX_FILE_BYTES, Accepted, Classroom, Rejected, read_file
from tests.course.helpers import NOW, finished_ledger


@pytest.fixture(scope="module")
def files():
    return make_class(4, ["v2_02", "v1_11"], seed=3)


def test_good_hand_ins_are_read_and_their_students_kept(files):
    room = Classroom()
    for name, text in files:
        assert room.add(name, text).student.startswith("Student ")
    assert len(room.students) == 4 and room.rejected == []


@pytest.mark.parametrize("make,reason,says", [
    (lambda t: t[: len(t) // 2], "json", "not JSON (line 1"),
    (lambda t: json.dumps({"schema": "quarto-live.submission"}), "not-ours", "neither a hand-in nor a ledger"),
    (lambda t: json.dumps([1, 2, 3]), "not-ours", "neither"),
    (lambda t: t.replace('"version":1', '"version":2'), "schema", "newer site"),
    (lambda t: t.replace('"choice":"A"', '"choice":"B"', 1), "digest", "changed after it was made"),
    (lambda t: json.dumps({"schema": ledger.SCHEMA, "version": 7, "attempts": {}}), "schema", "ledger version 7"),
])
def test_every_refused_file_names_its_reason(files, make, reason, says):
    result = read_file("x.json", make(files[0][1]))
    assert (result.reason, says in result.message) == (reason, True), result.message


def test_a_re_indented_hand_in_is_still_verified_and_an_edited_one_is_not(files):
    doc = json.loads(files[0][1])
    assert handin.text_matches(files[0][1]) is True
    assert read_file("pretty.json", json.dumps(doc, indent=2)).student == "Student 001"
    doc["student"]["name"] = "Someone Else"
    assert read_file("edited.json", json.dumps(doc, indent=2)).reason == "digest"


def test_a_file_of_labs_this_site_does_not_have_is_refused():
    attempt = {"id": "v3_01-abcd1234", "lab": "v3_01", "started_at": NOW, "updated_at": NOW}
    doc = handin.seal({"schema": handin.SCHEMA, "version": 1, "kind": "lab", "labs": [{"id": "v3_01", "title": "?"}],
                       "site": {"build": "b", "pylabs": "9"}, "letters": 2, "made_at": NOW,
                       "student": {"name": "Ada", "updated_at": NOW}, "attempts": {attempt["id"]: attempt}})
    result = read_file("future.json", handin.dumps(doc))
    assert result.reason == "unknown-lab" and "v3_01" in result.message


def test_a_50_mb_file_is_refused_unread():
    result = read_file("huge.json", "", size=50_000_000)
    assert result.reason == "too-large" and "50.0 MB" in result.message and MAX_FILE_BYTES < 50_000_000
    assert json.loads(bridge.class_read("huge.json", "", 50_000_000))["reason"] == "too-large"


def test_a_files_bytes_are_read_as_the_browser_reads_its_text(files):
    """The page hands the worker each file's bytes: UTF-8, a byte-order mark dropped (as
    ``File.text()`` drops it), a malformed byte replaced rather than refusing the whole file."""
    name, text = files[0]
    bridge.class_reset("b")
    assert json.loads(bridge.class_read(name, text.encode("utf-8")))["ok"]
    assert json.loads(bridge.class_read("bom.json", b"\xef\xbb\xbf" + text.encode("utf-8")))["duplicate_of"] == name
    broken = json.loads(bridge.class_read("latin1.json", b'{"schema": "caf\xe9"}'))
    assert broken["reason"] == "not-ours" and "caf\ufffd" in broken["message"]
    assert json.loads(bridge.class_read("unreadable.json", b""))["reason"] == "json"
    assert json.loads(bridge.class_read("none.json", None))["reason"] == "json"  # neither text nor bytes: read as its text
    bridge.class_reset("b")


def test_twenty_files_with_one_broken_keep_the_nineteen(files):
    room = Classroom()
    texts = make_class(19, ["v2_02"], seed=5) + [("broken.json", "{")]
    for name, text in texts:
        room.add(name, text)
    assert len(room.students) == 19 and [f.reason for f in room.rejected] == ["json"]


def test_the_same_file_twice_counts_once(files):
    room = Classroom()
    for name, text in [files[0], files[0]]:
        room.add(name, text)
    assert room.files[1].duplicate_of == files[0][0] and len(room.students) == 1


def test_files_of_one_student_merge_and_two_students_under_one_name_are_flagged():
    room = Classroom()
    lab = handin.build(finished_ledger("v2_02"), "lab", "v2_02", "b", NOW)
    course = handin.build(ledger.merge(finished_ledger("v2_02"), finished_ledger("v1_11")), "course", None, "b", NOW)
    room.add("lab.json", handin.dumps(lab))
    room.add("course.json", handin.dumps(course))
    (student,) = room.students.values()
    assert student.notes == [] and sorted({a["lab"] for a in student.ledger["attempts"].values()}) == ["v1_11", "v2_02"]
    other = ledger.set_student(ledger.empty(), "ada lovelace", NOW)
    other = ledger.commit(other, "v2_02-other123", {"lab": "v2_02", "answers": {}, "controls": {}, "results": {},
                                                    "failures_active": [], "complete": False}, NOW)
    room.add("namesake.json", ledger.dumps(other))
    (student,) = room.students.values()
    assert "two students" in student.notes[0] and "V2-02" in student.notes[0]


def test_files_without_a_name_are_students_of_their_own():
    room = Classroom()
    plain = ledger.dumps(finished_ledger("v2_02", name=None))
    room.add("a.json", plain)
    room.add("b.json", plain.replace("done0001", "done0002"))
    assert sorted(s.name for s in room.students.values()) == ["(no name) a.json", "(no name) b.json"]


def test_a_ledger_with_a_quarantined_attempt_loads_the_rest_and_says_so():
    doc = json.loads(ledger.dumps(finished_ledger("v2_02")))
    doc["attempts"]["v2_02-broken01"] = {"id": "v2_02-broken01", "lab": "v2_02", "answers": "nonsense"}
    result = read_file("ledger.json", json.dumps(doc))
    assert len(result.ledger["attempts"]) == 1 and "1 part set aside" in result.notes[0]


def test_an_export_from_an_older_build_is_read_with_todays_letters():
    doc = json.loads(ledger.dumps(finished_ledger("v2_02")))
    doc["version"] = 1
    result = read_file("old.json", json.dumps(doc))
    assert "older build" in result.notes[0] and len(result.ledger["attempts"]) == 1


@pytest.mark.parametrize("letters", [3, "2", True, None])
def test_a_hand_in_lettered_by_another_site_is_refused_not_scored_with_todays_letters(letters):
    """Found in review: any ``letters`` this site does not read was taken as today's, so a newer
    site's answers were scored against options they never named."""
    doc = handin.build(finished_ledger("v2_02"), "lab", "v2_02", "b1", "2026-11-28T10:00:00Z")
    body = {k: v for k, v in doc.items() if k != "digest"}
    result = read_file("newer.json", handin.dumps(handin.seal({**body, "letters": letters})), "b1")
    assert isinstance(result, Rejected) and result.reason == "schema" and "letters version" in result.message
    for ok in (1, 2):  # what this site reads: version 1 migrated, 2 as is
        assert isinstance(read_file("ok.json", handin.dumps(handin.seal({**body, "letters": ok})), "b1"), Accepted)
