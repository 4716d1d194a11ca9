"""The hand-in file: canonical form and digest (with test vectors), what it holds, its name."""

from __future__ import annotations

import hashlib
import json

import pytest

from pylabs import __version__, bridge, ledger
from pylabs.course import handin
from tests.course.helpers import NOW, finished_ledger

# Test vectors: the canonical bytes and their SHA-256 were checked with `sha256sum` on the bytes
# printed by an independent `json.dumps(..., sort_keys=True, separators=(",", ":"), ensure_ascii=False)`.
VECTORS = [
    ({"b": [1, 2.5, "é"], "a": {"z": None, "y": True}, "digest": {"algorithm": "sha256", "value": "x"}},
     '{"a":{"y":true,"z":null},"b":[1,2.5,"é"]}',
     "ebc208279181e829724cbb2f2408e10d859c61e154f23a2ed53e6511cc46ed06"),
    ({}, "{}", "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"),
]


@pytest.mark.parametrize("doc,text,digest", VECTORS)
def test_canonical_form_and_digest_match_the_vectors(doc, text, digest):
    assert handin.canonical(doc) == text.encode("utf-8")
    assert handin.digest_of(doc) == digest == hashlib.sha256(text.encode()).hexdigest()


def test_the_digest_ignores_layout_and_key_order_but_not_content():
    doc = handin.build(finished_ledger("v2_02"), "lab", "v2_02", "build1", NOW)
    relaid = json.loads(json.dumps(doc, indent=4))
    relaid = dict(reversed(list(relaid.items())))
    assert handin.digest_matches(relaid)
    edited = json.loads(json.dumps(doc))
    edited["attempts"][next(iter(edited["attempts"]))]["answers"]["a1_predict"]["choice"] = "A"
    assert not handin.digest_matches(edited)
    assert not handin.digest_matches({k: v for k, v in doc.items() if k != "digest"})


def test_a_lab_hand_in_holds_what_the_issue_lists():
    current = finished_ledger("v2_02", restarts=1)
    doc = handin.build(current, "lab", "v2_02", "build1", NOW)
    assert doc["schema"] == "mlsys-labs.handin" and doc["version"] == 1 and doc["kind"] == "lab"
    assert doc["labs"] == [{"id": "v2_02", "title": "The Interconnect Wall"}]
    assert doc["site"] == {"build": "build1", "pylabs": __version__}
    assert doc["student"]["name"] == "Ada Lovelace" and doc["made_at"] == NOW
    assert len(doc["attempts"]) == 2  # the archived attempt travels too
    assert handin.digest_matches(doc) and doc["digest"]["algorithm"] == "sha256"


def test_a_course_hand_in_holds_the_latest_attempt_of_every_lab():
    current = ledger.merge(finished_ledger("v2_02", restarts=1), finished_ledger("v1_11"))
    doc = handin.build(current, "course", None, "build1", NOW)
    assert [x["id"] for x in doc["labs"]] == ["v1_11", "v2_02"]
    assert sorted(a["lab"] for a in doc["attempts"].values()) == ["v1_11", "v2_02"]
    assert all(a["complete"] for a in doc["attempts"].values())


@pytest.mark.parametrize("current,message", [
    (ledger.empty(), "no name or ID"),
    (ledger.set_student(ledger.empty(), "Ada", NOW), "no attempt"),
])
def test_nothing_to_hand_in_says_why(current, message):
    with pytest.raises(handin.HandinError, match=message):
        handin.build(current, "lab", "v2_02", "build1", NOW)


@pytest.mark.parametrize("name,expected", [
    ("Ada Lovelace", "mlsys-labs-handin-V2-02-Ada-Lovelace-2026-11-28.json"),
    ("Zoë/../../etc", "mlsys-labs-handin-V2-02-Zoe-etc-2026-11-28.json"),
    ("李雷", "mlsys-labs-handin-V2-02-student-2026-11-28.json"),
])
def test_file_names_are_safe_on_every_system(name, expected):
    current = ledger.set_student(finished_ledger("v2_02"), name, NOW)
    assert handin.file_name(handin.build(current, "lab", "v2_02", "b", NOW)) == expected


def test_the_bridge_asks_for_a_name_first_then_hands_in():
    raw = ledger.dumps(finished_ledger("v2_02", name=None))
    refused = json.loads(bridge.handin(raw, "lab", "v2_02", "b", NOW))
    assert refused == {"ok": False, "error": refused["error"], "needs_name": True}
    bad = json.loads(bridge.ledger_student(raw, "   ", NOW))
    assert not bad["ok"] and "empty" in bad["error"]
    named = json.loads(bridge.ledger_student(raw, " Ada ", NOW))
    given = json.loads(bridge.handin(named["raw"], "lab", "v2_02", "b", NOW))
    assert given["ok"] and given["student"] == "Ada" and handin.digest_matches(json.loads(given["text"]))
    assert 'data-handin-report="v2_02"' in given["report"]
