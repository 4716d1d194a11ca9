"""The hand-in file: what a student gives their instructor, checked by a digest.

A hand-in is a JSON document (schema ``mlsys-labs.handin``, version 1) holding the student's name
or ID as the ledger keeps it, the labs it covers, the site that made it (build id, pylabs
version), when it was made, the attempts from the ledger (one lab's, or the latest of every lab
for the whole course) and a SHA-256 digest of its canonical form.

The canonical form (``canonical``) is the document without its ``digest`` field, written as JSON
with keys sorted at every level, no whitespace (separators ``,`` and ``:``), non-ASCII characters
as themselves (not ``\\u`` escapes), numbers as Python's ``json`` writes them (shortest repr),
encoded as UTF-8. The digest is ``sha256`` of those bytes in lowercase hex. The file on disk may be
indented or re-ordered: only its parsed content counts. The digest shows that a file was edited
by hand or damaged on the way; it proves nothing against a determined student, who can recompute
it, because everything runs on their own machine.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata

from pylabs import __version__, ledger
from pylabs.ledger_letters import LETTERS_VERSION

SCHEMA = "mlsys-labs.handin"
VERSION = 1
DIGEST = "sha256"
KINDS = ("lab", "course")


class HandinError(ValueError):
    """A ledger that cannot be handed in as asked (no name, no attempt of the lab)."""


def canonical(doc: dict) -> bytes:
    """The bytes the digest covers (see the module docstring)."""
    body = {k: v for k, v in doc.items() if k != "digest"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return text.encode("utf-8", "surrogatepass")


def digest_of(doc: dict) -> str:
    return hashlib.sha256(canonical(doc)).hexdigest()


def seal(doc: dict) -> dict:
    """``doc`` with its digest."""
    return {**doc, "digest": {"algorithm": DIGEST, "value": digest_of(doc)}}


def digest_matches(doc: dict) -> bool:
    seal_ = doc.get("digest")
    return (isinstance(seal_, dict) and seal_.get("algorithm") == DIGEST
            and isinstance(seal_.get("value"), str) and seal_["value"] == digest_of(doc))


def _lab_entry(lab_id: str) -> dict:
    from pylabs.labs import get
    return {"id": lab_id, "title": get(lab_id).title}


def build(current: dict, kind: str, lab_id: str | None, site_build: str, now: str) -> dict:
    """A sealed hand-in from a validated ledger: ``kind`` "lab" (every attempt of ``lab_id``) or
    "course" (the latest attempt of every lab). HandinError when there is nothing to hand in."""
    student = current.get("student")
    if not student:
        raise HandinError("the ledger has no name or ID yet: type it once before handing in")
    if kind == "lab":
        attempts = {k: a for k, a in current["attempts"].items() if a["lab"] == lab_id}
    elif kind == "course":
        latest = (ledger.latest_attempt(current, lab) for lab in ledger.LAB_IDS)
        attempts = {a["id"]: a for a in latest if a}
    else:
        raise HandinError(f"a hand-in is of one lab or of the whole course, not {kind!r}")
    if not attempts:
        raise HandinError("there is no attempt to hand in yet")
    labs = sorted({a["lab"] for a in attempts.values()})
    return seal({"schema": SCHEMA, "version": VERSION, "kind": kind, "labs": [_lab_entry(x) for x in labs],
                 "site": {"build": site_build, "pylabs": __version__}, "letters": LETTERS_VERSION,
                 "student": student, "made_at": now, "attempts": dict(sorted(attempts.items()))})


def file_name(doc: dict) -> str:
    """``mlsys-labs-handin-<V2-02|course>-<name>-<date>.json``, in ASCII letters, digits and dashes."""
    what = doc["labs"][0]["id"].upper().replace("_", "-") if doc["kind"] == "lab" else "course"
    plain = unicodedata.normalize("NFKD", doc["student"]["name"]).encode("ascii", "ignore").decode()
    name = re.sub(r"[^A-Za-z0-9]+", "-", plain).strip("-")[:40] or "student"
    return f"mlsys-labs-handin-{what}-{name}-{doc['made_at'][:10]}.json"


def dumps(doc: dict) -> str:
    """The file's text: the canonical form with the digest in its sorted place (any JSON tool
    shows it indented; the digest covers the parsed content, so re-indenting changes nothing)."""
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False) + "\n"


_SEAL = re.compile(r',"digest":\{"algorithm":"sha256","value":"([0-9a-f]{64})"\}')


def text_matches(text: str) -> bool | None:
    """For a file as ``dumps`` wrote it: does the text without its digest hash to that digest?
    True is proof that its content is what was sealed (the bytes are the canonical form); None
    means the text is laid out otherwise (re-indented), and only ``digest_matches`` can tell. A
    class of 500 whole-course hand-ins is verified without writing each one out again."""
    found = _SEAL.search(text)
    if found is None or _SEAL.search(text, found.end()) is not None:
        return None
    body = text[:found.start()] + text[found.end():]
    body = body[:-1] if body.endswith("\n") else body
    return hashlib.sha256(body.encode("utf-8", "surrogatepass")).hexdigest() == found.group(1) or None
