"""The hook contract between the HTML Python renders and the browser shell that brings it to life.

Every ``data-*`` attribute that Python (the renderer, the course views, the build) writes, that a
site page or the theme template writes, or that the shell sets for itself, is named here once,
with who writes it, who reads it and what a test may rely on. ``tests/test_dom_contract.py`` holds
the renderer's output (the golden files), the Python sources, the pages, the shell's scripts and
its CSS to these names; ``build_scripts/dom_contract.py`` writes them for JavaScript
(``docs/assets/pylabs/page/hooks.js``) and for people (``handbook/dom-contract.md``).

Writers: ``renderer`` (pylabs.framework: a lab's blocks), ``course`` (pylabs.course and the ledger
view: class page, hand-in report, attempts), ``build`` (build_scripts.site_content: the lab's
wrapper, progress badges), ``page`` (HTML in a site page's Markdown), ``theme`` (MkDocs Material or
docs/overrides/main.html), ``shell`` (the page scripts, docs/assets/pylabs/page/), ``inline`` (the
head scripts, docs/assets/pylabs/inline/), ``guide`` (build_scripts/guide: the instructor's guide).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Hook:
    name: str  # the attribute without "data-"
    writer: str
    readers: str
    meaning: str
    harness: str = ""  # what a test may rely on ("" : nothing; an internal detail of the shell)


HOOKS: tuple[Hook, ...] = (
    # ---- a lab, as Python renders it -------------------------------------------------------
    Hook("lab", "build", "shell, inline, CSS", "The lab's wrapper; its value is the lab id (v2_02).",
         "one per lab page; the root every lab query starts from"),
    Hook("build", "build", "shell", "Which renderer made the page: a cached view from another build is not painted."),
    Hook("site-root", "build", "inline",
         "The site root relative to the page; keys the storage the inline scripts read."),
    Hook("letters", "build", "shell, inline", "The answer-letter version an early lock is recorded with."),
    Hook("boot", "build", "shell", "The status line while Python starts; empty and hidden once it has."),
    Hook("notices", "build, page", "shell", "The region the shell writes notices into."),
    Hook("block", "renderer", "shell, inline",
         "A keyed block of the lab (header, context, act1, act2, takeaways, hud): the unit Python re-renders.",
         "stable keys; a block is replaced or patched in place, never removed"),
    Hook("hash", "renderer", "shell", "A digest of the block's HTML: the shell skips a block it already shows. Absent once a block has been patched in parts (no digest is sent for those)."),
    Hook("act", "renderer", "shell", "An act's section; its value is the act number.", "select an act by number"),
    Hook("unlocked", "renderer", "shell, CSS", '"true" once the act\'s prediction is locked, else "false".',
         "wait for it after a lock"),
    Hook("instruments", "renderer", "shell", "An act's instruments (controls, metrics, charts); value: the act number.",
         "the controls of act N live under [data-instruments=N]"),
    Hook("controls", "renderer", "shell",
         "On a share button: the names of the controls whose settings the link carries."),
    Hook("control", "renderer", "shell, inline",
         "An input of a control; its value is the control's name (a radio group or "
         "multi-choice repeats it on every input).", "set a control by name"),
    Hook("control-value", "renderer", "tests", "The text showing a slider's current value, by control name.",
         "read what a slider shows"),
    Hook("scale", "renderer", "shell",
         'A slider\'s scale when not linear: "log" or "log2" (the position is the exponent).'),
    Hook("multi", "renderer", "shell",
         "On a multi-choice's checkboxes: the control's value is the list of checked values."),
    Hook("metric", "renderer", "shell", "A metric card; its value is the metric's name.", "read a number by name"),
    Hook("value", "renderer, course", "tests",
         "The unrounded number behind a metric, a numeric answer's truth or a count.",
         "compare numbers without parsing display text"),
    Hook("strip-of", "renderer", "CSS", "A strip's item, by the name of the metric it repeats."),
    Hook("chart", "renderer", "shell", "A chart's figure, by chart name; its Plotly spec is inside it.",
         "a chart by name; drawn when data-charts-for equals data-renders"),
    Hook("tex", "renderer", "shell", "Math source (LaTeX), typeset by KaTeX in place."),
    Hook("failure", "renderer", "shell", "A failure state's callout; its value is the failure's name.",
         "which failures the page shows"),
    Hook("question", "renderer", "shell, inline", "A prediction question, by question id.", "lock a prediction by id"),
    Hook("kind", "renderer", "shell", "A question's kind (prediction, numeric, …)."),
    Hook("locked", "renderer, inline", "shell, inline, CSS", '"true" once the question is locked, else "false".',
         "wait for it after clicking Lock"),
    Hook("feedback", "renderer", "shell", "The feedback under a locked question, by question id."),
    Hook("verdict", "renderer", "tests", 'The feedback\'s verdict: "correct" or "incorrect".', "read the verdict"),
    Hook("action", "renderer, page, shell", "shell, inline",
         "A button's (or file input's) action: lock, share, restart, "
         "hand-in, ledger-export, class-keep, …", "click an action by name"),
    Hook("context-fixed", "renderer", "shell, inline", "The note shown once a lock has fixed the lab's context."),
    Hook("track-note", "renderer", "", "The context note, by the chosen track."),
    Hook("hud", "renderer", "tests", "The lab's status footer (hand in, restart, save status)."),
    Hook("ledger-status", "renderer", "", "Where the footer shows the save status."),
    # ---- a lab page, as the shell keeps it --------------------------------------------------
    Hook("pylabs", "theme, shell", "shell, CSS",
         'On <html>: "static" (no Python needed), "loading", "ready" or "error".',
         'wait for "ready" before touching a lab; "error" fails a test'),
    Hook("pylabs-boot", "shell", "tests", "On <html>: how Python started (from the memory snapshot, or a full boot).",
         "which boot ran"),
    Hook("pylabs-image", "shell", "tests",
         "On <html>: where the Python image came from (network or this browser's cache)."),
    Hook("ledger", "shell", "tests",
         'On <html>: "ok" while storage works, "unavailable" when the ledger lives in memory.'),
    Hook("offline", "shell", "tests",
         'On <html>: "ready" once the service worker holds the site.', "wait before going offline"),
    Hook("print", "shell", "CSS", 'On <html> while a hand-in report prints: "report".'),
    Hook("busy", "shell", "tests", 'On the lab: "true" while a render is pending or running.', 'wait for "false"'),
    Hook("saving", "shell", "tests", "On the lab: how many changes are not yet in the ledger.", 'wait for "0"'),
    Hook("renders", "shell", "shell, tests", "On the lab: how many renders have been applied.", "a count that grows"),
    Hook("charts-for", "shell", "tests", "On the lab: the data-renders whose charts are drawn.", "charts are current"),
    Hook("early", "shell", "inline",
         'On the lab: "mounted" once the shell handles locks (the inline script stands down).'),
    Hook("early-status", "shell", "", "The note that a prediction was locked before Python."),
    Hook("restoring", "shell", "CSS, tests", 'On the lab: "true" while a returning student\'s view is repainted.'),
    Hook("live-region", "shell", "shell", "The screen-reader region that announces an act's numbers."),
    Hook("strip", "shell", "CSS, tests", "On an act: whether its metric strip is shown (the metrics scrolled away)."),
    Hook("drawn", "shell", "shell", "On a chart: the spec it was last drawn from."),
    Hook("stale", "shell", "shell", 'On a chart: "true" when its spec changed out of view.'),
    Hook("reserved", "shell", "shell", "On a chart: its space is held before Plotly loads."),
    Hook("rendered", "shell", "shell, CSS, tests", 'On math: "true" once KaTeX typeset it.'),
    Hook("notice", "shell", "shell, tests", "A notice, by its id (one of each id at a time)."),
    Hook("progress", "build", "shell, tests", "A lab's progress badge, by lab id; the shell writes its text.",
         "a badge by lab id"),
    Hook("md-color-scheme", "theme", "shell, CSS", "Material's palette on <body>; charts redraw when it changes."),
    # ---- the Design Ledger page, hand-in, the class page ---------------------------------------
    Hook("ledger-page", "page", "shell", "The Design Ledger page's root."),
    Hook("ledger-summary", "page", "shell", "Where the ledger's summary (rendered by Python) goes."),
    Hook("import-preview", "page", "shell, tests", "The panel that shows what an import will change."),
    Hook("student-form", "page", "shell", "The form that keeps the student's name or ID."),
    Hook("student-name", "page", "shell, tests", "The name or ID input."),
    Hook("attempt", "course", "tests", "An attempt in the ledger's summary, by attempt id."),
    Hook("handin-dialog", "shell", "tests", "The hand-in dialog."),
    Hook("handin-error", "shell", "tests", "The dialog's error line (a name refused)."),
    Hook("state", "shell", "tests", 'The hand-in dialog\'s step: "name" or "done".'),
    Hook("handin-file", "shell", "", "The line naming the file the browser saved."),
    Hook("handin-report", "course", "tests", "A hand-in report, by lab id (or course)."),
    Hook("print-report", "shell", "CSS, tests", "The copy of the report that prints."),
    Hook("class-page", "page", "shell", "The class page's root."),
    Hook("class-drop", "page", "shell", "The drop zone for files."),
    Hook("over", "shell", "CSS", "On the drop zone while files are dragged over it."),
    Hook("class-input", "page", "shell, tests", "The file input."),
    Hook("class-status", "page", "shell", "The class page's status line."),
    Hook("class-actions", "page", "shell", "The downloads and keep/forget buttons, shown once files are read."),
    Hook("class-csv", "page", "shell, tests", "The gradebook download."),
    Hook("class-dates-csv", "page", "shell, tests", "The completion dates download."),
    Hook("class-summary-csv", "page", "shell", "The per-question summary download."),
    Hook("class-view", "page", "shell", "Where the class view's sections go."),
    Hook("class-ready", "shell", "tests",
         'On the class page: "true" once every file is read and shown.', "wait for it"),
    Hook("class-ms", "shell", "tests", "On the class page: how long the last read took (ms)."),
    Hook("section", "shell", "CSS, tests", "A section of the class view, by key."),
    Hook("class-students", "course", "tests", "The count of students (its data-value)."),
    Hook("class-rejected", "course", "shell, tests", "The list of files that could not be read."),
    Hook("reason", "course", "tests", "Why a file was refused."),
    Hook("class-roster", "course", "shell", "The completion grid's body (rows are appended into it)."),
    Hook("class-lab", "course", "tests", "A lab's section of the class view, by lab id."),
    Hook("class-question", "course", "tests", "A question's counts, by lab:question."),
    Hook("right-share", "course", "tests", "The share of locked answers that were right."),
    Hook("answers", "course", "tests", "The counts per answer letter, as JSON."),
    # ---- the instructor's guide (build_scripts/guide, never on the site) ---------------------------
    Hook("key", "guide", "", "An answer key's letter, on the guide's answer line."),
    Hook("reached", "guide", "tests", 'On a failure\'s row: "true" when the guide found settings that reach it.'),
)

NAMES: frozenset[str] = frozenset(hook.name for hook in HOOKS)
