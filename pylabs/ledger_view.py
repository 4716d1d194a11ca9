"""The ledger page's summary: progress per lab and every attempt, rendered from the ledger."""

from __future__ import annotations

from pylabs import ledger
from pylabs.framework import charts as ch
from pylabs.framework.components import chart
from pylabs.framework.formats import fmt
from pylabs.framework.markup import Markup, h
from pylabs.labs import LAB_MODULES, get

STATUS = {"complete": "Complete", "in-progress": "In progress", "not-started": "Not started"}


def lab_status(attempts: list[dict]) -> str:
    if any(a["complete"] for a in attempts):
        return "complete"
    return "in-progress" if attempts else "not-started"


def _answer_rows(lab_id: str, attempt: dict) -> list[Markup]:
    lab = get(lab_id) if lab_id in LAB_MODULES else None
    rows = []
    for qid, answer in sorted(attempt["answers"].items(), key=lambda kv: kv[1]["locked_at"]):
        prompt = qid
        if lab is not None and qid in {q.id for q in lab.questions}:
            q = lab.question(qid)
            prompt = f"Act {q.act} {q.kind}"
        verdict = {True: "correct", False: "incorrect", None: "—"}[answer["correct"]]
        rows.append(h("tr", None, h("td", None, prompt), h("td", None, answer["choice"]),
                      h("td", {"class": f"pl-verdict pl-verdict--{verdict}"}, verdict),
                      h("td", None, h("time", {"datetime": answer["locked_at"]},
                                      answer["locked_at"][:16].replace("T", " ")))))
    return rows


def _results(lab_id: str, attempt: dict) -> Markup | None:
    if not attempt["results"]:
        return None
    lab = get(lab_id) if lab_id in LAB_MODULES else None
    known = {m.name: m for m in lab.metrics} if lab else {}
    items = []
    for name, value in sorted(attempt["results"].items()):
        spec = known.get(name)
        numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
        shown = fmt(value, spec.fmt) if spec and numeric else "—" if value is None else str(value)
        items.append(h("div", None, h("dt", None, spec.label if spec else name), h("dd", None, shown)))
    return h("dl", {"class": "pl-ledger__results"}, items)


def attempt_card(attempt: dict) -> Markup:
    lab_id = attempt["lab"]
    title = get(lab_id).title if lab_id in LAB_MODULES else lab_id
    state = "archived" if attempt["archived_at"] else "active"
    status = "complete" if attempt["complete"] else "in progress"
    return h("article", {"class": "pl-attempt", "data-attempt": attempt["id"]},
             h("h3", None, f"{lab_id.upper().replace('_', '-')} · {title}"),
             h("p", {"class": "pl-attempt__meta"},
               f"Started {attempt['started_at'][:16].replace('T', ' ')} UTC · {status} · {state}"),
             h("table", {"class": "pl-attempt__answers"},
               h("thead", None, h("tr", None, [h("th", {"scope": "col"}, c) for c in ("Question", "Answer", "Verdict", "Locked (UTC)")])),
               h("tbody", None, _answer_rows(lab_id, attempt) or h("tr", None, h("td", {"colspan": "4"}, "No answer locked yet.")))),
             _results(lab_id, attempt),
             h("p", None, "Failure states reached: " + (", ".join(_failure_titles(lab_id, attempt)) or "none")))


def _failure_titles(lab_id: str, attempt: dict) -> list[str]:
    titles = {f.name: f.title for f in get(lab_id).failures} if lab_id in LAB_MODULES else {}
    return [titles.get(name, name) for name in attempt["failures_hit"]]


def predictions(attempts: list[dict]) -> list[tuple[str, bool]]:
    """Every locked prediction with a verdict, oldest first: (locked_at, correct)."""
    found = []
    for attempt in attempts:
        if attempt["lab"] not in LAB_MODULES:
            continue
        kinds = {q.id: q.kind for q in get(attempt["lab"]).questions}
        found += [(a["locked_at"], bool(a["correct"])) for qid, a in attempt["answers"].items()
                  if kinds.get(qid) == "prediction" and a["correct"] is not None]
    return sorted(found)


def accuracy_chart(attempts: list[dict]) -> Markup | None:
    points = predictions(attempts)
    if not points:
        return None
    running, correct = [], 0
    for n, (_, ok) in enumerate(points, start=1):
        correct += ok
        running.append(correct / n)
    order = list(range(1, len(points) + 1))
    figure = ch.figure([ch.line("Share of predictions correct so far", order, running, "series1", markers=True)],
                       x=ch.axis("Locked predictions, oldest first", "linear", range=[0.5, len(points) + 0.5],
                                 dtick=1),
                       y=ch.axis("Correct so far", "linear", range=[0, 1.05], tickformat=".0%"), legend=False)
    summary = (f"{correct} of {len(points)} locked predictions were correct ({fmt(correct / len(points), 'pct')}); "
               "the line shows the running share, oldest first.")
    rows = [(t[:16].replace("T", " "), "correct" if ok else "incorrect", fmt(r, "pct"))
            for (t, ok), r in zip(points, running)]
    return chart("ledger_accuracy", "Prediction accuracy over time", figure, summary,
                 table=(("Locked (UTC)", "Verdict", "Correct so far"), rows))


def render(raw: str | None) -> str:
    loaded = ledger.load(raw)
    attempts = sorted(loaded.ledger["attempts"].values(), key=lambda a: a["started_at"], reverse=True)
    progress = []
    for lab_id in LAB_MODULES:
        mine = [a for a in attempts if a["lab"] == lab_id]
        status = lab_status(mine)
        progress.append(h("li", None, h("span", None, f"{lab_id.upper().replace('_', '-')} · {get(lab_id).title}"),
                          h("span", {"class": f"pl-progress pl-progress--{status}", "data-progress": lab_id},
                            STATUS[status])))
    body = [h("h2", None, "Progress"), h("ul", {"class": "pl-catalog pl-catalog--compact"}, progress),
            accuracy_chart(attempts), h("h2", None, f"Attempts ({len(attempts)})")]
    body += [attempt_card(a) for a in attempts] or [h("p", None, "No attempts yet: open a lab to start one.")]
    return str(h("div", {"class": "pl-ledger__view"}, body))
