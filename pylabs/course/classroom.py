"""An instructor's class, read from files: hand-ins (one lab or the whole course) and plain ledger
exports, mixed, in any number. Each file is validated by the ledger's own Python; a rejected file
is kept in the list with its reason and the rest load. Files of the same student (by the name or
ID they typed) merge with the ledger's merge, which never loses an attempt; a file without a name
is a student of its own, listed by file name.

Reasons a file is rejected (``Rejected.reason``): ``too-large``, ``json`` (not JSON), ``not-ours``
(JSON, but neither a hand-in nor a ledger of these labs), ``schema`` (a newer or unreadable
version), ``digest`` (a hand-in whose content does not match its digest: edited by hand or
damaged), ``unknown-lab`` (only labs this site does not have).
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from pylabs import ledger
from pylabs.course import handin
from pylabs.course.describe import lab_code
from pylabs.framework.formats import plural
from pylabs.labs import LAB_MODULES

MAX_FILE_BYTES = 5_000_000  # a whole course's hand-in is about 0.1 MB; a long-used ledger under 2 MB
REASONS = ("too-large", "json", "not-ours", "schema", "digest", "unknown-lab")


@dataclass
class Rejected:
    name: str
    reason: str
    message: str


@dataclass
class Accepted:
    name: str
    kind: str                      # "lab hand-in", "course hand-in" or "ledger export"
    ledger: dict                   # validated: attempts, and the student when the file names one
    notes: list[str] = field(default_factory=list)
    fingerprint: str = ""
    duplicate_of: str | None = None

    @property
    def student(self) -> str | None:
        student = self.ledger.get("student")
        return student["name"] if student else None


def _labs_named(raw_attempts: Any) -> set:
    if not isinstance(raw_attempts, dict):
        return set()
    return {a.get("lab") for a in raw_attempts.values() if isinstance(a, dict)}


def _unknown(labs: set) -> list[str]:
    return sorted(str(x) for x in labs if x not in LAB_MODULES)


def _ledger_of(name: str, doc: dict, kind: str, letters: int) -> Accepted | Rejected:
    """Validate the attempts (and student) of a ledger or a hand-in with the ledger's own code."""
    named = _labs_named(doc.get("attempts"))
    unknown = _unknown(named)
    if unknown and not named - set(unknown):
        return Rejected(name, "unknown-lab", f"it holds only labs this site does not have ({', '.join(unknown)})")
    try:
        loaded = ledger.parse_document({"schema": ledger.SCHEMA, "version": letters,
                                        "attempts": doc.get("attempts"),
                                        **({"student": doc["student"]} if "student" in doc else {})})
    except ledger.LedgerError as problem:
        reason = "schema" if "version" in str(problem) else "not-ours"
        return Rejected(name, reason, str(problem))
    notes = []
    if unknown:
        notes.append(f"attempts of labs this site does not have ({', '.join(unknown)}) were left out")
    set_aside = [q["reason"] for q in loaded.quarantined if "not a lab of this curriculum" not in q["reason"]]
    if set_aside:
        notes.append(f"{plural(len(set_aside), 'part', count_fmt='int')} set aside, the rest kept: {set_aside[0]}")
    return Accepted(name, kind, loaded.ledger, notes)


def _handin(name: str, doc: dict, site_build: str, text: str) -> Accepted | Rejected:
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        return Rejected(name, "schema", f"hand-in version {version!r} is not one this site reads")
    if version > handin.VERSION:
        return Rejected(name, "schema", f"it was made by a newer site (hand-in version {version}); this site "
                                        f"reads version {handin.VERSION}: open the class view of that site")
    if not (handin.text_matches(text) or handin.digest_matches(doc)):
        return Rejected(name, "digest", "its content does not match its digest: it was changed after it was "
                                        "made (edited by hand, or damaged on the way)")
    letters = doc.get("letters", ledger.VERSION)
    if letters not in ledger.READS or isinstance(letters, bool):
        # Read with today's letters, a newer site's answers would be scored against the wrong
        # options (found in review: a hand-in with letters 3 loaded as if it were 2).
        newer = isinstance(letters, int) and not isinstance(letters, bool) and letters > ledger.VERSION
        return Rejected(name, "schema", f"its answers are lettered as {'a newer' if newer else 'no'} site letters "
                                        f"them (letters version {letters!r}); this site reads versions "
                                        f"{', '.join(map(str, ledger.READS))}" + (": open the class view of that site" if newer else ""))
    kind = "course hand-in" if doc.get("kind") == "course" else "lab hand-in"
    result = _ledger_of(name, doc, kind, letters)
    build = (doc.get("site") or {}).get("build") if isinstance(doc.get("site"), dict) else None
    if isinstance(result, Accepted) and site_build and build and build != site_build:
        result.notes.append(f"made by another build of the site ({str(build)[:16]}); read with this one's questions")
    return result


def read_file(name: str, text: str, site_build: str = "", size: int | None = None) -> Accepted | Rejected:
    """Validate one file; never raises for what a file holds."""
    size = len(text.encode("utf-8", "surrogatepass")) if size is None else size
    if size > MAX_FILE_BYTES:
        return Rejected(name, "too-large", f"it is {size / 1e6:.1f} MB; a hand-in or a ledger is far smaller "
                                           f"(this page reads files up to {MAX_FILE_BYTES // 1_000_000} MB)")
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as problem:
        where = f" (line {problem.lineno}, column {problem.colno})" if hasattr(problem, "lineno") else ""
        return Rejected(name, "json", f"it is not JSON{where}: cut short or not a data file")
    schema = doc.get("schema") if isinstance(doc, dict) else None
    if schema == handin.SCHEMA:
        result = _handin(name, doc, site_build, text)
    elif schema == ledger.SCHEMA:
        version = doc.get("version")
        if isinstance(version, int) and not isinstance(version, bool) and version > ledger.VERSION:
            return Rejected(name, "schema", f"it was written by a newer site (ledger version {version}); this "
                                            f"site reads versions up to {ledger.VERSION}")
        result = _ledger_of(name, doc, "ledger export", version)
        if isinstance(result, Accepted) and version == 1:
            result.notes.append("a ledger from an older build (version 1): answers read with today's letters")
    else:
        return Rejected(name, "not-ours", "it is JSON but neither a hand-in nor a ledger of these labs"
                        + (f" (its schema is {str(schema)[:60]!r})" if schema else ""))
    if isinstance(result, Accepted):  # what makes two files the same: a hand-in's digest, else its bytes
        result.fingerprint = (doc["digest"]["value"] if schema == handin.SCHEMA
                              else hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest())
    return result


def student_key(name: str) -> str:
    """Names that differ only in case, accents' encoding or spacing are one student."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


@dataclass
class Student:
    name: str
    ledger: dict
    files: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    typed: bool = True   # the name is what the student typed (False: made from a file name)


@dataclass
class Classroom:
    """Every file read so far, in order, and the students they make."""

    site_build: str = ""
    files: list[Accepted | Rejected] = field(default_factory=list)
    students: dict[str, Student] = field(default_factory=dict)
    _seen: dict[str, str] = field(default_factory=dict)

    def add(self, name: str, text: str, size: int | None = None) -> Accepted | Rejected:
        result = read_file(name, text, self.site_build, size)
        self.files.append(result)
        if isinstance(result, Rejected):
            return result
        if result.fingerprint in self._seen:
            result.duplicate_of = self._seen[result.fingerprint]
            return result
        self._seen[result.fingerprint] = name
        self._join(result)
        return result

    def _join(self, file: Accepted) -> None:
        key = student_key(file.student) if file.student else f"file:{file.name}:{len(self.files)}"
        student = self.students.get(key)
        if student is None:
            self.students[key] = Student(file.student or f"(no name) {file.name}", file.ledger, [file.name],
                                         typed=bool(file.student))
            return
        clash = _clash(student.ledger, file.ledger)
        if clash:
            student.notes.append(
                f"{file.name} and {', '.join(student.files)} hold different attempts of {', '.join(clash)} under "
                "this name: if they are two students, ask each to hand in with their own name or ID (they count "
                "as one student here); one student who worked in two browsers or restarted needs nothing")
        student.ledger = ledger.merge(student.ledger, file.ledger)
        student.name = student.ledger["student"]["name"] if "student" in student.ledger else student.name
        student.files.append(file.name)

    @property
    def rejected(self) -> list[Rejected]:
        return [f for f in self.files if isinstance(f, Rejected)]

    @property
    def accepted(self) -> list[Accepted]:
        return [f for f in self.files if isinstance(f, Accepted)]


def _clash(known: dict, incoming: dict) -> list[str]:
    """Labs that both hold, with no attempt in common: perhaps two students under one name."""
    def by_lab(doc: dict) -> dict[str, set]:
        out: dict[str, set] = {}
        for key, attempt in doc["attempts"].items():
            out.setdefault(attempt["lab"], set()).add(key)
        return out
    mine, theirs = by_lab(known), by_lab(incoming)
    return [lab_code(lab) for lab in sorted(mine.keys() & theirs.keys()) if not mine[lab] & theirs[lab]]
