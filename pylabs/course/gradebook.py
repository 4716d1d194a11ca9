"""The class as CSV: a gradebook (one row per student) and a summary (one row per question).

Gradebook columns, in order (``GRADEBOOK_COLUMNS``, then one per lab):

- ``Student``: the name or ID the student typed (a file without one: ``(no name) <file>``).
- ``ID``, ``SIS User ID``, ``SIS Login ID``, ``Section``: empty. Canvas's gradebook import expects
  these columns before the assignment columns and matches a row by any of its identifiers, here
  the name in ``Student``; Moodle's import lets the instructor map ``Student`` to the user field
  the students typed (ID number, username or email).
- ``Labs complete``: how many labs have a complete attempt (0-34).
- ``Predictions right``, ``Predictions locked``, ``Reflections right``, ``Reflections locked``:
  over each lab's counted attempt (the newest complete one, else the newest), judged against the
  key of the context the student locked in.
- ``V1-00 completed`` ... ``V2-17 completed``: the date (UTC, ``YYYY-MM-DD``) of the lab's last
  lock in its counted complete attempt, empty when not complete.

Canvas makes an assignment of every column after ``Section``, and Moodle maps each to a grade item,
to an item's feedback (the date columns) or to nothing. Numbers are plain integers; the file is
UTF-8 without a byte-order mark, comma-separated, lines ending in CRLF (RFC 4180). A cell that
begins with ``=``, ``+``, ``-`` or ``@`` gets a leading apostrophe, so that a spreadsheet never
runs it as a formula.
"""

from __future__ import annotations

import csv
import io

from pylabs.course.aggregate import ClassStats
from pylabs.course.class_labs import key_text, miss_shown
from pylabs.course.describe import lab_code
from pylabs.framework.formats import fmt
from pylabs.framework.questions import LETTERS, Prediction
from pylabs.labs import LAB_MODULES, get

GRADEBOOK_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Labs complete",
                     "Predictions right", "Predictions locked", "Reflections right", "Reflections locked")
SUMMARY_COLUMNS = ("Lab", "Lab title", "Question", "Act", "Kind", "Key", "Locked", "Right", "Share right",
                   "A", "B", "C", "D", "Most chosen wrong", "Chosen by", "Missed by (median)")


def lab_columns() -> list[str]:
    return [f"{lab_code(x)} completed" for x in LAB_MODULES]


def safe_cell(value: object) -> str:
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def _csv(header: list[str], rows: list[list]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows([[safe_cell(cell) for cell in row] for row in rows])
    return out.getvalue()


def gradebook_csv(stats: ClassStats) -> str:
    rows = []
    for s in stats.students:
        dates = [s.done.get(x, ("", ""))[1] if s.done.get(x, ("",))[0] == "complete" else "" for x in LAB_MODULES]
        rows.append([s.name, "", "", "", "", s.labs_complete, *s.predictions, *s.reflections, *dates])
    return _csv([*GRADEBOOK_COLUMNS, *lab_columns()], rows)


def summary_csv(stats: ClassStats) -> str:
    rows = []
    for lab_id in LAB_MODULES:
        lab = get(lab_id)
        for q in lab.questions:
            entry = stats.questions.get((lab_id, q.id))
            if entry is None or not entry.locked:
                continue
            top = entry.top_wrong or ("", 0)
            median = entry.median_miss() if isinstance(q, Prediction) else None
            rows.append([lab_code(lab_id), lab.title, q.id, q.act, q.kind, key_text(lab, entry), entry.locked,
                         entry.right, fmt(entry.right / entry.locked, "pct"),
                         *[entry.counts.get(x, 0) for x in LETTERS], top[0], top[1] or "",
                         miss_shown(median[0], median[1], q.unit_fmt) if median else ""])
    return _csv(list(SUMMARY_COLUMNS), rows)
