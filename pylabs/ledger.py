"""The Design Ledger: schema, validation, merge. Nothing a student wrote is dropped.

The browser stores one JSON document (schema ``mlsys-labs.ledger``, version 2)
under one ``localStorage`` key. A version-1 document (the site before 27 Nov 2026) is read
through ``ledger_letters``: its answers move to the letters their options have now. Every read validates it: content that is not
ours, or attempts that fail validation, are returned separately so the page
can keep them under a quarantine key and tell the student. Merging is
commutative and idempotent, so two tabs, or an imported file, never erase
each other's attempts: locked answers keep their first lock, everything else
takes the newest write. The document may name its student (``student``: the name or ID they
typed for their hand-ins, the newest one wins on merge); it is optional and needs no new version.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from pylabs.ledger_letters import LETTERS_VERSION, migrate_answer

SCHEMA = "mlsys-labs.ledger"
VERSION = LETTERS_VERSION
READS = (1, VERSION)  # the versions this site reads: 1 is migrated on reading
MAX_IMPORT_BYTES = 2_000_000
LAB_IDS = tuple(f"v1_{n:02d}" for n in range(17)) + tuple(f"v2_{n:02d}" for n in range(1, 18))
_LAB_SET = frozenset(LAB_IDS)

_ATTEMPT_ID = re.compile(r"^v[12]_\d{2}-[A-Za-z0-9-]{4,48}$")
_NAME = re.compile(r"^[a-z][a-z0-9_]{0,47}$")
_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$")
_LETTERS = ("A", "B", "C", "D")
_LETTER_SET = frozenset(_LETTERS)


class LedgerError(ValueError):
    """A document that is not a ledger this site can read."""


def empty() -> dict:
    return {"schema": SCHEMA, "version": VERSION, "attempts": {}}


# ---- validation ------------------------------------------------------------------


def _time(value: Any, what: str) -> str:
    if not isinstance(value, str) or not _TIME.match(value):
        raise LedgerError(f"{what} must be an ISO-8601 time, got {value!r}")
    return value


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, bool)) or (
        isinstance(value, (int, float)) and value == value and abs(value) != float("inf"))


def _answers(raw: Any) -> dict:
    if not isinstance(raw, dict):
        raise LedgerError("answers must be an object")
    out = {}
    for qid, answer in raw.items():
        if type(answer) is dict:  # the usual case, checked in one expression (a class view reads 68,000)
            choice, locked, correct = answer.get("choice"), answer.get("locked_at"), answer.get("correct")
            if (type(choice) is str and choice in _LETTER_SET and (correct is None or correct is True or correct is False)
                    and qid in _NAMES_SEEN and type(locked) is str and _TIME.match(locked)):
                out[qid] = {"choice": choice, "locked_at": locked, "correct": correct}
                continue
        if not isinstance(answer, dict) or answer.get("choice") not in _LETTERS or not _named(qid):
            raise LedgerError(f"answer {qid!r} is not a locked choice A–D")
        correct = answer.get("correct")
        if correct not in (True, False, None):
            raise LedgerError(f"answer {qid!r}: correct must be true, false or null")
        locked = answer.get("locked_at")
        if not (isinstance(locked, str) and _TIME.match(locked)):
            _time(locked, f"answer {qid!r} locked_at")  # raises, naming the answer
        out[qid] = {"choice": answer["choice"], "locked_at": locked, "correct": correct}
    return out


MAX_NAME_CHARS = 100
# bidirectional overrides and isolates: they would let a name display as another one
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def clean_name(raw: Any) -> str:
    """A student's name or ID as they typed it, trimmed; LedgerError names what is wrong."""
    if not isinstance(raw, str):
        raise LedgerError("the name or ID must be text")
    name = unicodedata.normalize("NFC", raw).strip()
    if not name:
        raise LedgerError("the name or ID is empty")
    if len(name) > MAX_NAME_CHARS:
        raise LedgerError(f"the name or ID has {len(name)} characters; at most {MAX_NAME_CHARS} are kept")
    if any(unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp") or c in _BIDI for c in name):
        raise LedgerError("the name or ID holds a control character (a line break, a tab or a hidden mark)")
    return name


def validate_student(raw: Any) -> dict:
    """The ledger's optional ``student`` field: ``{"name", "updated_at"}``."""
    if not isinstance(raw, dict):
        raise LedgerError("the student field is not an object")
    return {"name": clean_name(raw.get("name")), "updated_at": _time(raw.get("updated_at"), "student updated_at")}


def _names(raw: Any, key: str, field: str) -> list[str]:
    if not isinstance(raw, list) or not (_known_names(raw) or all(map(_named, raw))):
        raise LedgerError(f"attempt {key!r}: {field} must be a list of names")
    return sorted(set(raw))


def _known_names(raw: list) -> bool:
    """Every item a name seen before (at C speed); False sends the list to the full check."""
    try:
        return _NAMES_SEEN.issuperset(raw)
    except TypeError:  # an item that cannot be hashed is not a name
        return False


_NAMES_SEEN: set[str] = set()  # names that matched _NAME once (a class view checks 17,000 attempts)
_PLAIN = (str, bool, int, type(None))


def _named(key: Any) -> bool:
    if isinstance(key, str) and key in _NAMES_SEEN:
        return True
    if isinstance(key, str) and _NAME.match(key):
        _NAMES_SEEN.add(key)
        return True
    return False


_PLAIN_TYPES = frozenset({str, bool, int, float, type(None)})


def _flat(raw: Any, what: str) -> dict:
    if not isinstance(raw, dict):
        raise LedgerError(f"{what} must be an object of named numbers, strings or booleans")
    # the usual case at C speed: known names, plain types, finite floats
    if (_NAMES_SEEN.issuperset(raw) and _PLAIN_TYPES.issuperset(map(type, raw.values()))
            and all(map(math.isfinite, [v for v in raw.values() if type(v) is float]))):
        return dict(raw)
    for key, value in raw.items():
        kind = type(value)
        plain = kind in _PLAIN or (kind is float and value == value and abs(value) != float("inf"))
        if not (_named(key) and (plain or _scalar(value))):
            raise LedgerError(f"{what} must be an object of named numbers, strings or booleans")
    return dict(raw)


def validate_attempt(key: str, raw: Any) -> dict:
    """Return the attempt normalised, or raise LedgerError naming what is wrong."""
    if not isinstance(raw, dict):
        raise LedgerError(f"attempt {key!r} is not an object")
    if raw.get("id") != key or not _ATTEMPT_ID.match(str(key)):
        raise LedgerError(f"attempt id {key!r} is malformed or does not match its key")
    lab = raw.get("lab")
    if not (type(lab) is str and lab in _LAB_SET and str(key).startswith(lab + "-")):
        raise LedgerError(f"attempt {key!r}: lab {lab!r} is not a lab of this curriculum")
    failures = _names(raw.get("failures_hit", []), key, "failures_hit")
    # failures_active: the failure states of the last state saved (the final design); optional, as
    # attempts saved before 28 Nov 2026 do not have it
    active = {} if "failures_active" not in raw else {
        "failures_active": _names(raw["failures_active"], key, "failures_active")}
    archived = raw.get("archived_at")
    return {
        "id": key,
        "lab": lab,
        "started_at": _time(raw.get("started_at"), "started_at"),
        "updated_at": _time(raw.get("updated_at"), "updated_at"),
        "archived_at": None if archived is None else _time(archived, "archived_at"),
        "context": raw.get("context") if isinstance(raw.get("context"), str) else None,
        "controls": _flat(raw.get("controls", {}), "controls"),
        "answers": _answers(raw.get("answers", {})),
        "results": _flat(raw.get("results", {}), "results"),
        "failures_hit": failures,
        "complete": bool(raw.get("complete", False)),
        **active,
    }


def migrated_answers(lab_id: Any, answers: Any, version: int) -> Any:
    """An attempt's answers of ledger ``version`` with today's letters (see ledger_letters);
    anything malformed is left for validation to name."""
    if version >= VERSION or not isinstance(answers, dict):
        return answers
    moved = {}
    for qid, answer in answers.items():
        if isinstance(answer, dict) and isinstance(answer.get("choice"), str) and isinstance(qid, str):
            where, letter = migrate_answer(str(lab_id), qid, answer["choice"], version)
            moved[where] = {**answer, "choice": letter}
        else:
            moved[qid] = answer
    return moved


def migrated(raw: Any, version: int) -> Any:
    """An attempt as ledger ``version`` stored it, read with today's letters."""
    if version >= VERSION or not isinstance(raw, dict):
        return raw
    return {**raw, "answers": migrated_answers(raw.get("lab"), raw.get("answers", {}), version)}


@dataclass
class Loaded:
    """A validated ledger and whatever had to be set aside to get it."""

    ledger: dict
    quarantined: list[dict] = field(default_factory=list)

    @property
    def messages(self) -> list[str]:
        return [q["reason"] for q in self.quarantined]

    def to_wire(self) -> dict:
        return {"ledger": self.ledger, "quarantined": self.quarantined}


def parse_document(doc: Any) -> Loaded:
    """Validate a parsed document; bad attempts are returned as quarantined, good ones kept."""
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise LedgerError("this is not an ML Systems labs ledger (the 'schema' field is missing or different)")
    version = doc.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
        raise LedgerError(f"this ledger was written by a newer version of the site (ledger version {version}); "
                          f"this site reads versions up to {VERSION}: open it on the newer site")
    if version not in READS or isinstance(version, bool):
        raise LedgerError(f"ledger version {version!r} is not one this site reads ({', '.join(map(str, READS))})")
    attempts = doc.get("attempts")
    if not isinstance(attempts, dict):
        raise LedgerError("the ledger's 'attempts' field is not an object")
    result = Loaded(empty())
    if "student" in doc:
        try:
            result.ledger["student"] = validate_student(doc["student"])
        except LedgerError as problem:
            result.quarantined.append({"reason": f"student name set aside: {problem}",
                                       "raw": json.dumps({"student": doc["student"]}, sort_keys=True)})
    for key, raw in attempts.items():
        try:
            result.ledger["attempts"][key] = validate_attempt(key, raw if version == VERSION else migrated(raw, version))
        except LedgerError as problem:
            result.quarantined.append({"reason": f"attempt set aside: {problem}",
                                       "raw": json.dumps({key: raw}, sort_keys=True)})
    return result


def load(raw: str | None) -> Loaded:
    """Read the stored string; anything unreadable is quarantined whole, never dropped."""
    if raw is None or raw == "":
        return Loaded(empty())
    try:
        return parse_document(json.loads(raw))
    except (ValueError, RecursionError) as problem:
        reason = str(problem) if isinstance(problem, LedgerError) else "the stored ledger is not valid JSON"
        return Loaded(empty(), [{"reason": f"stored ledger set aside: {reason}", "raw": raw}])


# ---- merging ----------------------------------------------------------------------


def merge_attempt(a: dict, b: dict) -> dict:
    """Both versions of one attempt: first lock wins per question, newest write wins otherwise."""
    newer, older = (a, b) if a["updated_at"] >= b["updated_at"] else (b, a)
    answers = dict(newer["answers"])
    for qid, answer in older["answers"].items():
        if qid not in answers or answer["locked_at"] < answers[qid]["locked_at"]:
            answers[qid] = answer
    archived = [t for t in (a["archived_at"], b["archived_at"]) if t]
    return {**newer,
            "started_at": min(a["started_at"], b["started_at"]),
            "archived_at": min(archived) if archived else None,
            "answers": answers,
            "failures_hit": sorted(set(a["failures_hit"]) | set(b["failures_hit"])),
            "complete": a["complete"] or b["complete"]}


def merge_student(a: dict | None, b: dict | None) -> dict | None:
    """The newest name wins (ties: the greater name, so that merging is commutative)."""
    known = [s for s in (a, b) if s]
    return max(known, key=lambda s: (s["updated_at"], s["name"])) if known else None


def merge(a: dict, b: dict) -> dict:
    attempts = dict(a["attempts"])
    for key, attempt in b["attempts"].items():
        attempts[key] = merge_attempt(attempts[key], attempt) if key in attempts else attempt
    merged = {"schema": SCHEMA, "version": VERSION, "attempts": dict(sorted(attempts.items()))}
    student = merge_student(a.get("student"), b.get("student"))
    return {**merged, "student": student} if student else merged


def dumps(ledger: dict) -> str:
    return json.dumps(ledger, sort_keys=True, separators=(",", ":"), allow_nan=False)


# ---- what the page does with it ------------------------------------------------------


def active_attempt(ledger: dict, lab_id: str) -> dict | None:
    """The newest attempt of ``lab_id`` that has not been archived by a restart."""
    live = [a for a in ledger["attempts"].values() if a["lab"] == lab_id and not a["archived_at"]]
    return max(live, key=lambda a: (a["started_at"], a["id"])) if live else None


def latest_order(attempt: dict) -> tuple:
    """What ``latest_attempt`` picks the greatest of: complete first, then the newest write."""
    return attempt["complete"], attempt["updated_at"], attempt["id"]


def latest_attempt(ledger: dict, lab_id: str) -> dict | None:
    """The attempt of ``lab_id`` an later lab should read: the newest complete one, else the newest."""
    mine = [a for a in ledger["attempts"].values() if a["lab"] == lab_id]
    return max(mine, key=latest_order) if mine else None


def commit(ledger: dict, attempt_id: str, record: dict, now: str) -> dict:
    """Fold a lab's record (see framework.render.record) into its attempt."""
    previous = ledger["attempts"].get(attempt_id)
    # a record stashed by a page of an older build (a tab closed mid-save) has version-1 letters
    answers = migrated_answers(record.get("lab"), record.get("answers", {}), record.get("letters", 1))
    attempt = validate_attempt(attempt_id, {
        "id": attempt_id, "lab": record["lab"],
        "started_at": previous["started_at"] if previous else now, "updated_at": now,
        "archived_at": None, "context": record.get("context"),
        "controls": record.get("controls", {}), "answers": answers,
        "results": record.get("results", {}), "failures_hit": record.get("failures_active", []),
        "failures_active": record.get("failures_active", []),
        "complete": record.get("complete", False),
    })
    merged = merge(ledger, {"attempts": {attempt_id: attempt}})
    if previous and _same_but_time(merged["attempts"][attempt_id], previous):
        return ledger  # nothing new (a record stashed when leaving, saved already): the ledger stays as it is
    return merged


def _same_but_time(a: dict, b: dict) -> bool:
    return {k: v for k, v in a.items() if k != "updated_at"} == {k: v for k, v in b.items() if k != "updated_at"}


def set_student(ledger: dict, name: Any, now: str) -> dict:
    """The student's name or ID, as they typed it (LedgerError when it cannot be kept)."""
    return merge(ledger, {"attempts": {}, "student": {"name": clean_name(name), "updated_at": now}})


def archive(ledger: dict, attempt_id: str, now: str) -> dict:
    """Restart: the attempt stays in the ledger, marked as finished with."""
    attempt = ledger["attempts"].get(attempt_id)
    if attempt is None:
        return ledger
    archived = {**attempt, "archived_at": attempt["archived_at"] or now, "updated_at": max(now, attempt["updated_at"])}
    return merge(ledger, {"attempts": {attempt_id: archived}})


def import_text(current: dict, text: str) -> dict:
    """Validate an imported file and preview the merge: what is new, what changes."""
    if len(text.encode("utf-8")) > MAX_IMPORT_BYTES:
        raise LedgerError(f"the file is larger than {MAX_IMPORT_BYTES // 1_000_000} MB; a ledger is far smaller")
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        raise LedgerError("the file is not JSON, so it cannot be a ledger export") from None
    incoming = parse_document(doc)
    merged = merge(current, incoming.ledger)
    added = sorted(k for k in incoming.ledger["attempts"] if k not in current["attempts"])
    changed = sorted(k for k in incoming.ledger["attempts"]
                     if k in current["attempts"] and merged["attempts"][k] != current["attempts"][k])
    return {"ledger": merged, "added": added, "changed": changed,
            "rejected": [q["reason"] for q in incoming.quarantined]}


def json_schema() -> dict:
    """The documented schema (JSON Schema draft 2020-12) shown on the ledger page."""
    time = {"type": "string", "format": "date-time"}
    flat = {"type": "object", "additionalProperties": {"type": ["number", "string", "boolean", "null"]}}
    names = {"type": "array", "items": {"type": "string"}}
    answer = {"type": "object", "required": ["choice", "locked_at"],
              "properties": {"choice": {"enum": list(_LETTERS)}, "locked_at": time,
                             "correct": {"type": ["boolean", "null"]}}}
    attempt = {"type": "object", "required": ["id", "lab", "started_at", "updated_at"], "properties": {
        "id": {"type": "string", "pattern": _ATTEMPT_ID.pattern}, "lab": {"enum": list(LAB_IDS)},
        "started_at": time, "updated_at": time, "archived_at": {"oneOf": [time, {"type": "null"}]},
        "context": {"type": ["string", "null"]}, "controls": flat, "results": flat,
        "answers": {"type": "object", "additionalProperties": answer},
        "failures_hit": names, "failures_active": names, "complete": {"type": "boolean"}}}
    student = {"type": "object", "required": ["name", "updated_at"], "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": MAX_NAME_CHARS,
                 "description": "the student's name or ID as typed: trimmed, no control characters"},
        "updated_at": time}}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "ML Systems labs Design Ledger",
            "type": "object", "required": ["schema", "version", "attempts"],
            "properties": {"schema": {"const": SCHEMA}, "version": {"const": VERSION},
                           "student": student,
                           "attempts": {"type": "object", "additionalProperties": attempt}}}
