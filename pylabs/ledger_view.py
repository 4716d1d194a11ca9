"""The ledger page's summary: progress per lab and every attempt, rendered from the ledger."""

from __future__ import annotations

from pylabs import ledger
from pylabs.framework import charts as ch
from pylabs.framework.components import chart, rich
from pylabs.course.describe import context_of, failure_titles, result_rows
from pylabs.framework.formats import fmt
from pylabs.framework.markup import Markup, h
from pylabs.labs import LAB_MODULES, get

ACTS = {1: "I", 2: "II", 3: "III"}


def _lab(lab_id: str):
    return get(lab_id) if lab_id in LAB_MODULES else None


def _when(iso: str) -> Markup:
    return h("time", {"datetime": iso}, iso[:16].replace("T", " "))


def _answer_rows(lab_id: str, attempt: dict) -> list[Markup]:
    lab = _lab(lab_id)
    rows = []
    for qid, answer in sorted(attempt["answers"].items(), key=lambda kv: kv[1]["locked_at"]):
        question, chosen = qid, answer["choice"]
        earlier = qid.endswith("_v1") and lab is not None and qid[:-3] in {q.id for q in lab.questions}
        if earlier:  # its option was rewritten since (pylabs/ledger_letters.py)
            q = lab.question(qid[:-3])
            question = f"Act {ACTS[q.act]} · {q.kind}, an earlier version of this question"
            chosen = f"{answer['choice']} (an option since rewritten)"
        elif lab is not None and qid in {q.id for q in lab.questions}:
            q = lab.question(qid)
            act = next(a for a in lab.acts if a.number == q.act)
            question = f"Act {ACTS[q.act]} · {act.title}: {q.kind}"
            chosen = f"{answer['choice']}: {q.text_of(answer['choice'], lab.terms(context_of(lab, attempt)))}"
        verdict = {True: "correct", False: "incorrect", None: "—"}[answer["correct"]]
        rows.append(h("tr", None, h("td", None, question), h("td", None, rich(chosen)),
                      h("td", {"class": f"pl-verdict pl-verdict--{verdict}"}, verdict),
                      h("td", None, _when(answer["locked_at"]))))
    return rows


def _results(lab_id: str, attempt: dict) -> Markup | None:
    if not attempt["results"]:
        return None
    items = [h("div", None, h("dt", None, label), h("dd", None, shown))
             for label, shown in result_rows(_lab(lab_id), attempt["results"])]
    return h("dl", {"class": "pl-ledger__results"}, items)


def attempt_card(attempt: dict) -> Markup:
    lab_id = attempt["lab"]
    lab = _lab(lab_id)
    code = lab_id.upper().replace("_", "-")
    heading = (h("a", {"href": f"../{lab.url}"}, f"{code} · {lab.title}") if lab else code)
    state = "archived (you restarted the lab)" if attempt["archived_at"] else "current"
    status = "complete" if attempt["complete"] else "in progress"
    context = ""
    if lab is not None and attempt.get("context") in lab.context.values:
        context = f" · {lab.context.label}: {lab.context.label_of(attempt['context'])}"
    return h("article", {"class": "pl-attempt", "data-attempt": attempt["id"]},
             h("h3", None, heading),
             h("p", {"class": "pl-attempt__meta"},
               "Started ", _when(attempt["started_at"]), f" UTC · {status} · {state}{context}"),
             h("div", {"class": "pl-attempt__scroll"},
               h("table", {"class": "pl-attempt__answers"},
                 h("thead", None, h("tr", None, [h("th", {"scope": "col"}, c)
                                                 for c in ("Question", "Your answer", "Verdict", "Locked (UTC)")])),
                 h("tbody", None, _answer_rows(lab_id, attempt)
                   or h("tr", None, h("td", {"colspan": "4"}, "No answer locked yet."))))),
             _results(lab_id, attempt),
             h("p", None, "Failure states reached: " + (", ".join(failure_titles(lab, attempt["failures_hit"])) or "none")))


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
    """The attempts part of the ledger page (progress per lab is on the page before Python)."""
    loaded = ledger.load(raw)
    attempts = sorted(loaded.ledger["attempts"].values(), key=lambda a: a["started_at"], reverse=True)
    body = [h("h2", None, f"Your attempts ({len(attempts)})"), accuracy_chart(attempts)]
    body += [attempt_card(a) for a in attempts] or [h("p", None, "No attempts yet: open a lab to start one.")]
    return str(h("div", {"class": "pl-ledger__view"}, body))
