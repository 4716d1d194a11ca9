"""The one entry point the browser calls: JSON strings in, JSON strings out.

``update(lab_id, state_json, changed, full)`` parses the state, renders the
lab, and returns what differs from the blocks it last sent for this lab (all of
them, whole, when ``full``): a block's changed parts where its structure is the
same (``markup.changed_parts``), else the whole block; then the normalised
controls and the ledger record. ``view`` returns the last blocks whole (the
browser keeps them for a returning student's first paint); ``warm`` does a
move's work and keeps none of it (after a snapshot boot). The ``ledger_*``
functions validate and merge the stored ledger.
"""

from __future__ import annotations

import json

from pylabs import __version__, ledger
from pylabs.framework.controls import Slider
from pylabs.framework.markup import Markup, changed_parts
from pylabs.framework.render import block_hash, record, render_blocks
from pylabs.labs import get, links

_sent: dict[str, dict[str, Markup]] = {}
_memo: dict[str, dict] = {}
_links: dict[str, dict[str, str]] = {}


def version() -> str:
    return __version__


def update(lab_id: str, state_json: str, changed: str | None = None, full: bool = False) -> str:
    lab = get(lab_id)
    state = lab.parse(json.loads(state_json), changed)
    blocks = dict(render_blocks(lab, state, _memo.setdefault(lab_id, {}), _lab_links(lab)))
    previous = {} if full else _sent.get(lab_id, {})
    _sent[lab_id] = blocks
    return _reply(lab, state, blocks, previous)


def _lab_links(lab) -> dict[str, str]:
    """The pages the lab's connections link to (the registry's, kept for the page's life)."""
    if lab.id not in _links:
        _links[lab.id] = links(lab)
    return _links[lab.id]


def _reply(lab, state, blocks: dict[str, Markup], previous: dict[str, Markup]) -> str:
    """What the browser is sent: ``blocks`` as changes from ``previous``, the controls, the record."""
    whole, parts = {}, {}
    for key, html in blocks.items():
        before = previous.get(key)
        if before == html:
            continue
        ops = None if before is None else changed_parts(before, html)
        if ops and ops[0][0]:  # below the block's root: only some of its parts changed
            parts[key] = ops
        else:
            whole[key] = html
    return json.dumps({
        "blocks": whole,
        "parts": parts,
        # a block sent whole carries its digest (the page skips one it already shows); a patched
        # block's digest would cost a hash of the whole act on every move, for a skip that a later
        # whole block of the same HTML would rarely make: the page drops it instead
        "hashes": {k: block_hash(blocks[k]) for k in whole},
        "order": list(blocks),
        # what the student entered stays in the browser's state until they change it
        "controls": {**state.controls, **state.entered},
        "record": record(lab, state),
    }, allow_nan=False)


# Where the first slider sits on each warm-up turn (fractions of its range; tools/move_cost.py
# times every slider at the same places).
WARM_AT = (0.25, 0.75, 0.5, 0.1, 0.9, 0.4, 0.6, 0.3)


def warm(lab_id: str, state_json: str, turn: int) -> None:
    """The work of one slider move, kept nowhere and sent nowhere. After a snapshot boot the
    browser's optimising compiler has not yet seen the code a move runs, so the first moves took
    about 1.5 times as long as later ones; the worker runs a few of these turns while the student
    reads (docs/assets/pylabs/worker/worker.js warmLater; ``turn`` picks where the lab's first slider sits)."""
    lab = get(lab_id)
    raw = json.loads(state_json)
    slider = next((c for c in lab.controls if isinstance(c, Slider)), None)
    if slider is not None and isinstance(raw, dict):
        value = slider.at(WARM_AT[turn % len(WARM_AT)])
        raw = {**raw, "controls": {**(raw.get("controls") or {}), slider.name: value}}
    state = lab.parse(raw, slider.name if slider is not None else None)
    _reply(lab, state, dict(render_blocks(lab, state, {}, _lab_links(lab))), _sent.get(lab_id, {}))


def view(lab_id: str) -> str:
    """The blocks last sent for this lab, whole (key -> HTML)."""
    return json.dumps(_sent.get(lab_id, {}))


def link_settings(lab_id: str, params_json: str, locked: bool = False) -> str:
    """Validate instrument settings from a shared link: {"controls": {...}, "ignored": [...]}.
    ``locked``: the student's attempt has a locked answer, so the context stays as it is."""
    params = json.loads(params_json)
    kept, ignored = get(lab_id).link_settings(params if isinstance(params, dict) else {}, bool(locked))
    return json.dumps({"controls": kept, "ignored": ignored})


def _loaded(raw: str | None) -> tuple[dict, list[dict]]:
    loaded = ledger.load(raw)
    return loaded.ledger, loaded.quarantined


def ledger_open(raw: str | None, lab_id: str) -> str:
    """The validated ledger, what had to be set aside, and the lab's active attempt."""
    current, quarantined = _loaded(raw)
    lab = get(lab_id)
    earlier = {read: attempt for read, attempt in
               ((read, ledger.latest_attempt(current, read)) for read in lab.reads) if attempt}
    return json.dumps({"raw": ledger.dumps(current), "quarantined": quarantined,
                       "attempt": ledger.active_attempt(current, lab_id),
                       "earlier": earlier,
                       # a new attempt (or a restart) starts from these control values
                       "defaults": lab.earlier_defaults(earlier)})


def ledger_commit(raw: str | None, attempt_id: str, record_json: str, now: str) -> str:
    current, quarantined = _loaded(raw)
    updated = ledger.commit(current, attempt_id, json.loads(record_json), now)
    return json.dumps({"raw": ledger.dumps(updated), "quarantined": quarantined})


def ledger_restart(raw: str | None, attempt_id: str, now: str) -> str:
    current, quarantined = _loaded(raw)
    return json.dumps({"raw": ledger.dumps(ledger.archive(current, attempt_id, now)), "quarantined": quarantined})


def ledger_import(raw: str | None, text: str) -> str:
    """Preview (and result) of merging an imported file; a file that is not a ledger changes nothing."""
    current, quarantined = _loaded(raw)
    try:
        preview = ledger.import_text(current, text)
    except ledger.LedgerError as problem:
        return json.dumps({"ok": False, "error": str(problem)})
    return json.dumps({"ok": True, "raw": ledger.dumps(preview["ledger"]), "added": preview["added"],
                       "changed": preview["changed"], "rejected": preview["rejected"],
                       "quarantined": quarantined})


def ledger_view(raw: str | None) -> str:
    from pylabs import ledger_view as view
    return json.dumps({"html": view.render(raw)})


# ---- the course: a student's name, hand-ins, an instructor's class view -------------


def ledger_student(raw: str | None, name: str, now: str) -> str:
    """Keep the student's name or ID in the ledger; ``ok`` false with the reason when it cannot be."""
    current, quarantined = _loaded(raw)
    try:
        updated = ledger.set_student(current, name, now)
    except ledger.LedgerError as problem:
        return json.dumps({"ok": False, "error": str(problem)})
    return json.dumps({"ok": True, "raw": ledger.dumps(updated), "quarantined": quarantined,
                       "student": updated["student"]})


def handin(raw: str | None, kind: str, lab_id: str | None, site_build: str, now: str) -> str:
    """A hand-in file of one lab ("lab") or of the whole course ("course"), with the lab's printed
    report; ``ok`` false with the reason (``needs_name`` when the ledger has no name yet)."""
    from pylabs.course import handin as files, report
    current, _ = _loaded(raw)
    try:
        doc = files.build(current, kind, lab_id, site_build, now)
    except files.HandinError as problem:
        return json.dumps({"ok": False, "error": str(problem), "needs_name": "student" not in current})
    return json.dumps({"ok": True, "name": files.file_name(doc), "text": files.dumps(doc),
                       "digest": doc["digest"]["value"], "student": doc["student"]["name"], "note": report.DIGEST_NOTE,
                       "report": report.render(doc, lab_id) if kind == "lab" else None})


_class = None  # the instructor's class: every file read since the last class_reset


def class_reset(site_build: str = "") -> str:
    """Start an empty class (the page's "Forget"), reading files against this site's build."""
    global _class
    from pylabs.course.classroom import Classroom
    _class = Classroom(site_build or "")
    return json.dumps({"ok": True})


def class_read(name: str, content, size: float | None = None) -> str:
    """Read one file into the class; what became of it (kept, or refused with its reason).
    ``content`` is the file's text, or its bytes: the page hands the worker each file's bytes (a
    transferred ArrayBuffer), which arrive here as a JavaScript Uint8Array and are read as the
    browser reads text (UTF-8, a byte-order mark dropped, a malformed byte replaced)."""
    from pylabs.course.classroom import Accepted
    if _class is None:
        class_reset()
    if hasattr(content, "to_bytes"):  # a JavaScript Uint8Array
        content = content.to_bytes()
    if isinstance(content, (bytes, bytearray, memoryview)):
        content = bytes(content).decode("utf-8-sig", "replace")
    else:
        content = str(content)
    result = _class.add(str(name), content, None if size is None else int(size))
    if isinstance(result, Accepted):
        return json.dumps({"name": result.name, "ok": True, "student": result.student, "notes": result.notes,
                           "duplicate_of": result.duplicate_of})
    return json.dumps({"name": result.name, "ok": False, "reason": result.reason, "message": result.message})


def class_view() -> str:
    """The class view's sections (pylabs.course.class_view.sections) and its two CSV files, from one
    count of the class."""
    from pylabs.course import class_view as view
    if _class is None:
        class_reset()
    return json.dumps(view.sections(_class))
