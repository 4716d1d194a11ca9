"""The class as CSV: a gradebook (one row per student), the completion dates (one row per student)
and a summary (one row per question).

Gradebook columns, in order (``GRADEBOOK_COLUMNS``, then one per lab):

- ``Student``: the name or ID the student typed. A file without one has no row: no gradebook can
  match it, and Moodle's import (``grade/import/csv/classes/load_data.php``) gives a row with an
  empty user field to the student of the row before it. It is in the roster and the dates file.
- ``ID``: empty. Canvas reads it as its own internal user number, which a student never types, so
  a typed number there could match the wrong student.
- ``SIS User ID``, ``SIS Login ID``: what the student typed (empty for a file without a name).
  Canvas's import (``lib/gradebook_importer.rb``) looks a row's student up by SIS user ID, then by
  SIS login ID, then by the name in ``Student`` (display or sortable name); a typed name simply
  finds no SIS match and falls through to the name.
- ``Section``: empty; Canvas requires it as the last student column before the assignments.
- ``Labs complete``: how many labs have a complete attempt (0-34).
- ``Predictions right``, ``Predictions locked``, ``Reflections right``, ``Reflections locked``:
  over each lab's counted attempt (the newest complete one, else the newest), judged against the
  key of the context the student locked in.
- ``V1-00 complete`` ... ``V2-17 complete``: ``1`` when the lab has a complete attempt, empty
  otherwise (an empty cell leaves a grade as it is; a 0 would overwrite one).

Every cell after ``Section`` is a number or empty, because both gradebooks read every such column as
scores: Canvas makes an assignment of each (and reads a date such as ``2026-11-20`` as 2026 points,
since its grade parser takes any cell containing a digit as a number); Moodle maps each to a grade
item. The dates the labs were completed are therefore a file of their own (``dates_csv``): the
same ``Student`` column, then ``V1-00 completed`` ... ``V2-17 completed``, each the date (UTC,
``YYYY-MM-DD``) of the lab's last lock in its counted complete attempt, empty when not complete.

Every file is UTF-8 without a byte-order mark, comma-separated, lines ending in CRLF (RFC 4180). A
cell that begins with ``=``, ``+``, ``-`` or ``@`` gets a leading apostrophe, so that a spreadsheet
never runs it as a formula.
"""

from __future__ import annotations

import csv
import io

from pylabs.course.aggregate import ClassStats
from pylabs.course.class_labs import key_text, median_miss_shown
from pylabs.course.describe import lab_code
from pylabs.framework.formats import fmt
from pylabs.framework.questions import LETTERS, Prediction
from pylabs.labs import LAB_MODULES, get

GRADEBOOK_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Labs complete",
                     "Predictions right", "Predictions locked", "Reflections right", "Reflections locked")
SUMMARY_COLUMNS = ("Lab", "Lab title", "Question", "Act", "Kind", "Key", "Locked", "Right", "Share right",
                   "A", "B", "C", "D", "Most chosen wrong", "Chosen by", "Missed by (median)")


def lab_columns() -> list[str]:
    return [f"{lab_code(x)} complete" for x in LAB_MODULES]


def date_columns() -> list[str]:
    return [f"{lab_code(x)} completed" for x in LAB_MODULES]


def completed_on(student, lab_id: str) -> str:
    """The date a lab's counted attempt was completed, or '' when it is not complete."""
    status, date = student.done.get(lab_id, ("", ""))
    return date if status == "complete" else ""


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
    for s in (x for x in stats.students if x.typed):
        done = [1 if completed_on(s, x) else "" for x in LAB_MODULES]
        rows.append([s.name, "", s.name, s.name, "", s.labs_complete, *s.predictions, *s.reflections, *done])
    return _csv([*GRADEBOOK_COLUMNS, *lab_columns()], rows)


def dates_csv(stats: ClassStats) -> str:
    rows = [[s.name, *[completed_on(s, x) for x in LAB_MODULES]] for s in stats.students]
    return _csv(["Student", *date_columns()], rows)


def summary_csv(stats: ClassStats) -> str:
    rows = []
    for lab_id in LAB_MODULES:
        lab = get(lab_id)
        for q in lab.questions:
            entry = stats.questions.get((lab_id, q.id))
            if entry is None or not entry.locked:
                continue
            top = entry.top_wrong or ("", 0)
            median = median_miss_shown(entry, q.unit_fmt) if isinstance(q, Prediction) else ""
            rows.append([lab_code(lab_id), lab.title, q.id, q.act, q.kind, key_text(lab, entry), entry.locked,
                         entry.right, fmt(entry.right / entry.locked, "pct"),
                         *[entry.counts.get(x, 0) for x in LETTERS], top[0], top[1] or "",
                         median])
    return _csv(list(SUMMARY_COLUMNS), rows)
