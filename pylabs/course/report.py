"""The printed report of one lab's hand-in: what a student's instructor reads on paper.

Each question with the student's locked answer and its lock time, the verdict and the answer the
physics gives in the context the student predicted in, then the Act II design, the key numbers
and the failure states. Labels, units and formatted numbers only: never a record key.
"""

from __future__ import annotations

from pylabs import ledger
from pylabs.course.describe import (ACTS, context_of, design_rows, failure_titles, lab_code, result_rows,
                                    when)
from pylabs.framework.components import rich
from pylabs.framework.formats import fmt
from pylabs.framework.lab import Lab
from pylabs.framework.markup import Markup, h
from pylabs.framework.questions import Prediction, Question, worded
from pylabs.labs import get

DIGEST_NOTE = ("The digest shows whether this file was changed by hand or damaged on the way. It is not "
               "proof against a determined student: everything runs on the student's own machine.")


def _answer_cell(q: Question, attempt: dict, terms: dict) -> Markup:
    answer = attempt["answers"].get(q.id)
    if answer is None:
        return h("td", None, "Not locked")
    return h("td", None, h("strong", None, answer["choice"]), " · ", rich(q.text_of(answer["choice"], terms)),
             h("br", None), h("span", {"class": "pl-report__time"}, f"Locked {when(answer['locked_at'])} UTC"))


def _key_cell(q: Question, context: str, terms: dict) -> Markup:
    key = q.answer(context)
    physics = (h("span", {"class": "pl-report__time"}, f"The physics gives {fmt(q.value_in(context), q.unit_fmt)}")
               if isinstance(q, Prediction) else None)
    return h("td", None, h("strong", None, key), " · ", rich(q.text_of(key, terms)), h("br") if physics else None,
             physics)


def question_rows(lab: Lab, attempt: dict) -> list[Markup]:
    context = context_of(lab, attempt)
    terms = lab.terms(context)
    rows = []
    for q in lab.questions:
        answer = attempt["answers"].get(q.id)
        verdict = "—" if answer is None else "correct" if answer["choice"] == q.answer(context) else "incorrect"
        rows.append(h("tr", None,
                      h("th", {"scope": "row"}, f"Act {ACTS[q.act]} · {q.kind}",
                        h("span", {"class": "pl-report__prompt"}, rich(worded(q.prompt, terms)))),
                      _answer_cell(q, attempt, terms),
                      h("td", {"class": f"pl-verdict pl-verdict--{verdict}"}, verdict),
                      _key_cell(q, context, terms)))
    return rows


def _pairs(rows: list[tuple[str, str]], empty: str) -> Markup:
    if not rows:
        return h("p", None, empty)
    return h("dl", {"class": "pl-report__pairs"},
             [h("div", None, h("dt", None, label), h("dd", None, shown)) for label, shown in rows])


def _header(doc: dict, lab: Lab, attempt: dict) -> Markup:
    context = context_of(lab, attempt)
    status = "complete" if attempt["complete"] else "in progress"
    return h("header", {"class": "pl-report__head"},
             h("h1", None, f"{lab_code(lab.id)} · {lab.title}"),
             h("p", {"class": "pl-report__who"}, h("strong", None, doc["student"]["name"]),
               f" · handed in {when(doc['made_at'])} UTC · attempt {status}, started {when(attempt['started_at'])} UTC"),
             h("p", None, f"{lab.context.label}: {lab.context.label_of(context)}"))


def render(doc: dict, lab_id: str) -> str:
    """The report of ``lab_id`` in the hand-in ``doc`` (its counted attempt: the newest complete one)."""
    lab = get(lab_id)
    attempt = ledger.latest_attempt({"attempts": doc["attempts"]}, lab_id)
    active = attempt.get("failures_active")
    body = [
        _header(doc, lab, attempt),
        h("table", {"class": "pl-report__questions"},
          h("thead", None, h("tr", None, [h("th", {"scope": "col"}, c) for c in
                                          ("Question", "Locked answer", "Verdict", "The physics' answer")])),
          h("tbody", None, question_rows(lab, attempt))),
        h("section", {"class": "pl-report__design"},
          h("h2", None, "Act II design"), _pairs(design_rows(lab, attempt["controls"]), "No Act II controls."),
          h("h2", None, "Key numbers"), _pairs(result_rows(lab, attempt["results"], known_only=True), "No results recorded."),
          h("h2", None, "Failure states"),
          h("p", None, "Reached: " + (", ".join(failure_titles(lab, attempt["failures_hit"])) or "none") + "."),
          h("p", None, "In the final design: " + (", ".join(failure_titles(lab, active)) or "none") + ".")
          if active is not None else None),
        h("footer", {"class": "pl-report__foot"},
          h("p", None, "File digest (SHA-256): ", h("code", None, doc["digest"]["value"])),
          h("p", None, DIGEST_NOTE),
          h("p", None, f"Site build {doc['site']['build']} · pylabs {doc['site']['pylabs']}")),
    ]
    return str(h("article", {"class": "pl-report", "data-handin-report": lab_id}, body))
