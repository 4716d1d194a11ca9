"""The class view's HTML, in sections the page inserts one at a time (so no single task on the
page is long): the files read and refused, the roster with its completion grid, the calibration
over the course, then one section per lab (``class_labs``). Every chart comes with its table."""

from __future__ import annotations

from functools import lru_cache

from pylabs.course.aggregate import ClassStats, aggregate
from pylabs.course.class_labs import lab_section, share
from pylabs.course.classroom import Accepted, Classroom
from pylabs.course.describe import lab_code
from pylabs.course.gradebook import dates_csv, gradebook_csv, summary_csv
from pylabs.framework import charts as ch
from pylabs.framework.components import chart
from pylabs.framework.formats import fmt, plural
from pylabs.framework.markup import Markup, h
from pylabs.labs import LAB_MODULES, get

ROWS_PER_SECTION = 100
REASON_TITLES = {"too-large": "too large", "json": "not JSON", "not-ours": "not one of ours",
                 "schema": "a version this site does not read", "digest": "digest mismatch",
                 "unknown-lab": "a lab this site does not have"}


def _file_row(file: Accepted) -> Markup:
    notes = list(file.notes)
    if file.duplicate_of:
        notes.append(f"the same content as {file.duplicate_of}: counted once")
    return h("tr", None, h("td", None, h("span", {"class": "pl-class__file", "title": file.name}, file.name)),
             h("td", None, file.kind), h("td", None, file.student or "(no name: a student of its own)"),
             h("td", None, "; ".join(notes) or "—"))


def files_section(room: Classroom, stats: ClassStats) -> Markup:
    rejected = [h("li", {"data-reason": f.reason},
                  h("strong", {"class": "pl-class__file", "title": f.name}, f.name), f": {REASON_TITLES[f.reason]}. ",
                  f.message[:1].upper() + f.message[1:] + ".") for f in room.rejected]
    accepted = room.accepted
    notes = [h("li", None, h("strong", None, s.name), ": ", n) for s in stats.students for n in s.notes]
    return h("section", {"class": "pl-class__files"},
             h("p", {"class": "pl-class__count", "data-class-students": "", "data-value": str(len(stats.students))},
               h("strong", None, fmt(len(stats.students), "int")),
               f" {'student' if len(stats.students) == 1 else 'students'} from {plural(len(accepted), 'file', count_fmt='int')}",
               f"; {plural(len(rejected), 'file', count_fmt='int')} refused." if rejected else "."),
             h("div", {"class": "pl-callout pl-callout--warn"}, h("p", {"class": "pl-callout__title"},
                                                                 f"{plural(len(rejected), 'file', count_fmt='int')} refused, the others loaded"),
               h("ul", {"data-class-rejected": ""}, rejected)) if rejected else h("ul", {"data-class-rejected": "", "hidden": True}),
             h("div", {"class": "pl-callout pl-callout--info"}, h("p", {"class": "pl-callout__title"}, "To check"),
               h("ul", None, notes)) if notes else None,
             h("details", {"class": "pl-class__read"}, h("summary", None, f"The {plural(len(accepted), 'file', count_fmt='int')} read"),
               h("div", {"class": "pl-class__scroll", "tabindex": "0", "role": "region", "aria-label": "Files read"},
                 h("table", {"class": "pl-class__table"},
                 h("thead", None, h("tr", None, [h("th", {"scope": "col"}, c) for c in ("File", "Kind", "Student", "Notes")])),
                 h("tbody", None, [_file_row(f) for f in accepted])))))


def completion_chart(stats: ClassStats) -> Markup:
    labs = list(LAB_MODULES)
    n = len(stats.students)
    done = [stats.labs[x].complete if x in stats.labs else 0 for x in labs]
    going = [stats.labs[x].in_progress if x in stats.labs else 0 for x in labs]
    names = [lab_code(x) for x in labs]
    traces = [ch.bars("Complete", names, done, "good", horizontal=True),
              ch.bars("In progress", names, going, "warn", horizontal=True),
              ch.bars("Not started", names, [n - a - b for a, b in zip(done, going)], "muted", horizontal=True)]
    figure = ch.figure(traces, x=ch.axis("Students", rangemode="tozero"),
                       y=ch.axis("", "category", autorange="reversed"), stacked=True, height=120 + 18 * len(labs))
    rows = [(f"{code} · {get(x).title}", str(a), str(b), str(n - a - b)) for code, x, a, b in zip(names, labs, done, going)]
    finished = sum(1 for s in stats.students if s.labs_complete == len(labs))
    summary = f"{finished} of {n} students completed every lab; the bars show each lab's completions."
    return chart("class_completion", "Completion per lab", figure, summary,
                 table=(("Lab", "Complete", "In progress", "Not started"), rows))


def roster_head() -> Markup:
    labs = [h("th", {"scope": "col"}, lab_code(x)) for x in LAB_MODULES]
    return h("thead", None, h("tr", None, h("th", {"scope": "col"}, "Student"), h("th", {"scope": "col"}, "Labs complete"),
                              labs))


@lru_cache(maxsize=4096)
def grid_cell(status: str, date: str) -> Markup:
    """One cell of the grid: a lab's status for a student and its date. A class of 500 has 17,000
    cells but a few hundred different ones, each made once."""
    return h("td", {"class": f"pl-class__cell pl-class__cell--{status.replace(' ', '-') or 'none'}"},
             date or ("…" if status else ""))


def roster_rows(stats: ClassStats, start: int) -> str:
    """Students ``start`` to ``start + ROWS_PER_SECTION`` as a table of their own, with the grid's
    header: each such table is laid out only near the screen (``content-visibility``), where one
    table of 500 students was laid out again, all 18,000 cells, in every frame that added rows
    (300-900 ms tasks, found in review)."""
    out = []
    chunk = stats.students[start:start + ROWS_PER_SECTION]
    for row in chunk:
        cells = [grid_cell(*row.done.get(lab_id, ("", ""))) for lab_id in LAB_MODULES]
        out.append(h("tr", None, h("th", {"scope": "row"}, row.name), h("td", None, str(row.labs_complete)), cells))
    caption = (f"Students {start + 1}–{start + len(chunk)} of {len(stats.students)}"
               if len(stats.students) > ROWS_PER_SECTION else "Students")
    return str(h("div", {"class": "pl-class__chunk"},
                 h("table", {"class": "pl-class__table"}, h("caption", {"class": "pl-sr-only"}, caption),
                   roster_head(), h("tbody", None, out))))


def roster_section(stats: ClassStats) -> Markup:
    return h("section", {"class": "pl-class__roster"}, h("h2", {"id": "class-roster"}, "Who finished what"),
             completion_chart(stats),
             h("p", None, "The grid: each lab's completion date (the last lock, UTC); … is in progress."),
             h("div", {"class": "pl-class__scroll pl-class__grid", "tabindex": "0", "role": "region",
                       "aria-label": "Completion grid", "data-class-roster": ""}))


def calibration_section(stats: ClassStats) -> Markup:
    order = stats.lab_order()
    body = [h("h2", {"id": "class-calibration"}, "Calibration over the course")]
    if not order:
        return h("section", None, body, h("p", None, "No prediction is locked yet."))
    shares = [stats.labs[x].predictions_right / stats.labs[x].predictions_locked
              if stats.labs[x].predictions_locked else None for x in order]
    names = [lab_code(x) for x in order]
    # The lab codes are drawn turned; the axis title keeps its distance below them (it touched them).
    x = ch.axis("Labs, in the order the class did them", "category", automargin=True)
    x["title"]["standoff"] = 14
    figure = ch.figure([ch.line("Share of predictions right", names, shares, "series1", markers=True)],
                       x=x,
                       y=ch.axis("Right", range=[0, 1.05], tickformat=".0%"), legend=False)
    rows = [(str(i), f"{lab_code(x)} · {get(x).title}", share(stats.labs[x].predictions_right, stats.labs[x].predictions_locked),
             str(stats.labs[x].predictions_locked), stats.labs[x].order_key[:10]) for i, x in enumerate(order, 1)]
    summary = (f"The share of locked predictions that were right, lab by lab, in the order the class did "
               f"them (by the median of each student's first lock): from {share_text(shares[0])} in "
               f"{names[0]} to {share_text(shares[-1])} in {names[-1]}.")
    return h("section", None, body, chart("class_calibration", "Predictions right, lab by lab", figure, summary,
                                           table=(("Order", "Lab", "Right", "Predictions", "Median first lock"), rows)))


def share_text(value: float | None) -> str:
    return "—" if value is None else f"{round(value * 100)} %"


def sections(room: Classroom) -> dict:
    """What the page inserts, in order: ``{"key", "html", "into"?}`` (``into``: append to that table's body)."""
    stats = aggregate(room)
    out = [{"key": "files", "html": files_section(room, stats)},
           {"key": "roster", "html": roster_section(stats)}]
    out += [{"key": f"roster-{i}", "into": "roster", "html": roster_rows(stats, i)}
            for i in range(0, len(stats.students), ROWS_PER_SECTION)]
    out.append({"key": "calibration", "html": calibration_section(stats)})
    out += [{"key": f"lab-{x}", "html": lab_section(x, stats)} for x in LAB_MODULES if x in stats.labs]
    return {"students": len(stats.students), "files": len(room.files),
            "gradebook": gradebook_csv(stats), "dates": dates_csv(stats), "summary": summary_csv(stats),
            "rejected": [{"name": f.name, "reason": f.reason, "message": f.message} for f in room.rejected],
            "sections": [{**s, "html": str(s["html"])} for s in out]}
