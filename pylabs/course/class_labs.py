"""One lab of the class view: each question's answers over A-D with the key marked, the share
right, the most chosen wrong answer with its feedback (the class's misconception), how far the
class missed by; then the Act II designs and how many met the constraints. Each as a chart and a
table (``framework.components.chart``)."""

from __future__ import annotations

import json

from pylabs.course.aggregate import ClassStats, LabStats, QuestionStats, feedback_text, key_in, terms_in
from pylabs.course.describe import ACTS, act_controls, lab_code
from pylabs.framework import charts as ch
from pylabs.framework.components import chart, rich
from pylabs.framework.formats import fmt
from pylabs.framework.lab import Lab
from pylabs.framework.markup import Markup, h
from pylabs.framework.questions import LETTERS, Prediction, Question, worded
from pylabs.labs import get

TOP_DESIGNS = 6
MET_RULE = ("A design meets the constraints when the attempt's final design shows no Act II failure "
            "state; for attempts saved before the ledger kept the final design's failure states "
            "(28 Nov 2026), when the student reached none at all in Act II.")


def share(n: int, total: int) -> str:
    return fmt(n / total, "pct") if total else "—"


def median_miss_shown(entry: QuestionStats, unit_fmt: str) -> str:
    """The class's median miss in the question's unit, with the median factor beside it where the
    page's own feedback speaks in factors ("120 ms (a factor of 2.1)")."""
    median = entry.median_miss()
    if median is None:
        return ""
    kind, amount = median
    if kind != "factor":
        return miss_shown(kind, amount, unit_fmt)
    return f"{fmt(entry.median_unit_miss(), unit_fmt)} ({miss_shown(kind, amount, unit_fmt)})"


def miss_shown(kind: str, amount: float, unit_fmt: str) -> str:
    if kind == "pp":
        return fmt(amount, "pp")
    if kind == "factor":
        return f"a factor of {fmt(amount, 'num')}"
    return fmt(amount, unit_fmt)


def key_text(lab: Lab, entry: QuestionStats) -> str:
    if len(entry.keys) <= 1:
        return next(iter(entry.keys), "—")
    return ", ".join(f"{letter} for {n} student(s)" for letter, n in sorted(entry.keys.items()))


def short(label: str, most: int = 26) -> str:
    """A legend's name that fits a phone's width (Plotly does not wrap legends); the table and the
    summary give the whole label."""
    for cut in (":", " (", ","):  # "Free space (radio or laser), at ..." -> "Free space"
        label = label.split(cut)[0]
    return label if len(label) <= most else label[:most].rsplit(" ", 1)[0] + "…"


def answers_by_context_chart(lab: Lab, q: Question, entry: QuestionStats) -> Markup:
    """The answers over A-D, one bar per context the class locked in, each context's key named: where
    the key differs by context, one set of bars summed over contexts marks as 'key' letters that are
    wrong for part of the class (found in review: V1-00's 'A (key)' bar held students of the
    context whose key is B)."""
    contexts = [c for c in lab.context.values if c in entry.by_context]
    keys = {c: key_in(lab.id, q.id, c) for c in contexts}
    traces = []
    for n, c in enumerate(contexts):
        counts = [entry.by_context[c].get(x, 0) for x in LETTERS]
        text = [f"{n_} (key)" if x == keys[c] else str(n_) for x, n_ in zip(LETTERS, counts)]
        traces.append(ch.bars(f"Key {keys[c]}: {short(lab.context.label_of(c))}", list(LETTERS), counts,
                              f"series{n % 4 + 1}", text=text))
    figure = ch.figure(traces, x=ch.axis("Locked answer", "category"), y=ch.axis("Students", rangemode="tozero"),
                       height=300)
    rows = []
    for c in contexts:
        total = sum(entry.by_context[c].values())
        rows += [(lab.context.label_of(c), x + (" (key)" if x == keys[c] else ""), q.text_of(x, terms_in(lab.id, c)),
                  str(entry.by_context[c].get(x, 0)), share(entry.by_context[c].get(x, 0), total)) for x in LETTERS]
    right = [f"{lab.context.label_of(c)}: {entry.by_context[c].get(keys[c], 0)} of {sum(entry.by_context[c].values())} "
             f"right (key {keys[c]})" for c in contexts]
    summary = f"{entry.right} of {entry.locked} locked answers are right ({share(entry.right, entry.locked)}); " + \
              "; ".join(right) + "."
    return chart(f"class_{lab.id}_{q.id}", "How the class answered, by context", figure, summary,
                 table=((lab.context.label, "Answer", "Option", "Students", "Share in the context"), rows))


def worded_alike(lab: Lab, q: Question, contexts) -> bool:
    """Whether every option reads the same in each of ``contexts``."""
    return len({tuple(q.text_of(x, terms_in(lab.id, c)) for x in LETTERS) for c in contexts}) <= 1


def answers_chart(lab: Lab, q: Question, entry: QuestionStats) -> Markup:
    if len(entry.keys) > 1 or not worded_alike(lab, q, entry.by_context):
        return answers_by_context_chart(lab, q, entry)
    counts = [entry.counts.get(x, 0) for x in LETTERS]
    colors = ["good" if x in entry.keys else "series1" for x in LETTERS]
    names = [f"{x} (key)" if x in entry.keys else x for x in LETTERS]
    figure = ch.figure([ch.bars("Students", names, counts, colors, text=[str(c) for c in counts])],
                       x=ch.axis("Locked answer", "category"), y=ch.axis("Students", rangemode="tozero"),
                       height=240, legend=False)
    common = max(entry.by_context, key=lambda c: sum(entry.by_context[c].values()), default=lab.context.default)
    terms = terms_in(lab.id, common)   # worded alike in every context the class chose (else answers_by_context_chart)
    rows = [(x + (" (key)" if x in entry.keys else ""), q.text_of(x, terms), str(entry.counts.get(x, 0)),
             share(entry.counts.get(x, 0), entry.locked)) for x in LETTERS]
    summary = (f"{entry.right} of {entry.locked} locked answers are right ({share(entry.right, entry.locked)}); "
               f"the key is {key_text(lab, entry)}.")
    return chart(f"class_{lab.id}_{q.id}", "How the class answered", figure, summary,
                 table=(("Answer", "Option", "Students", "Share"), rows))


def misconception(lab: Lab, q: Question, entry: QuestionStats) -> list[Markup]:
    top = entry.top_wrong
    if top is None:
        return [h("p", None, "No student chose a wrong answer.")]
    letter, count = top
    context = entry.wrong_contexts[letter].most_common(1)[0][0]
    parts = [h("p", None, h("strong", None, "Most chosen wrong answer: "),
               f"{letter} ({count} of {entry.locked}, {share(count, entry.locked)}): ",
               rich(q.text_of(letter, terms_in(lab.id, context)))),
             h("p", {"class": "pl-class__feedback"}, h("strong", None, "Its feedback: "),
               rich(feedback_text(lab, q, letter, context)))]
    median = median_miss_shown(entry, q.unit_fmt) if isinstance(q, Prediction) else ""
    if median:
        parts.append(h("p", None, h("strong", None, "Missed by (median of wrong predictions): "),
                       f"{median} from the edge of the range chosen."))
    return parts


def prompts(lab: Lab, q: Question, entry: QuestionStats) -> list[Markup]:
    """The prompt as the class read it: one paragraph when every context the class locked in words it
    the same way, else one per wording, named by its contexts (most students first)."""
    wordings: dict[str, list[str]] = {}
    for context, _ in sorted(entry.by_context.items(), key=lambda kv: -sum(kv[1].values())):
        wordings.setdefault(worded(q.prompt, terms_in(lab.id, context)), []).append(lab.context.label_of(context))
    if len(wordings) <= 1:
        text = next(iter(wordings), worded(q.prompt, terms_in(lab.id, lab.context.default)))
        return [h("p", {"class": "pl-class__prompt"}, rich(text))]
    return [h("p", {"class": "pl-class__prompt"}, h("strong", None, f"{', '.join(names)}: "), rich(text))
            for text, names in wordings.items()]


def question_block(lab: Lab, q: Question, entry: QuestionStats | None) -> Markup:
    title = h("h3", None, f"Act {ACTS[q.act]} · {q.kind}")
    if entry is None or not entry.locked:
        return h("section", {"class": "pl-class__question"}, title, h("p", None, "No locked answer yet."))
    return h("section", {"class": "pl-class__question", "data-class-question": f"{lab.id}:{q.id}",
                         "data-right-share": repr(entry.right / entry.locked),
                         "data-answers": json.dumps({x: entry.counts.get(x, 0) for x in LETTERS}, sort_keys=True)},
             title, prompts(lab, q, entry),
             h("p", None, h("strong", None, "Right: "),
               f"{entry.right} of {entry.locked} ({share(entry.right, entry.locked)})"),
             answers_chart(lab, q, entry), misconception(lab, q, entry))


def designs_block(lab: Lab, stats: LabStats) -> Markup | None:
    total = sum(stats.designs.values())
    if not total:
        return None
    top = stats.designs.most_common(TOP_DESIGNS)
    names = [f"Design {n}" for n in range(1, len(top) + 1)]
    met = sum(stats.met.values())
    colors = ["good" if stats.met[d] == n else "warn" if stats.met[d] else "danger" for d, n in top]
    figure = ch.figure([ch.bars("Students", names, [n for _, n in top], colors, text=[str(n) for _, n in top],
                                horizontal=True)],
                       x=ch.axis("Students", rangemode="tozero"), y=ch.axis("", "category", autorange="reversed"),
                       height=80 + 34 * len(top), legend=False)
    labels = [c.label for c in act_controls(lab, 2)]
    rows = [(name, "; ".join(f"{k}: {v}" for k, v in zip(labels, design)), str(n), f"{stats.met[design]} of {n}")
            for name, (design, n) in zip(names, top)]
    summary = (f"{met} of {total} final designs met the constraints ({share(met, total)}); "
               f"{len(stats.designs)} different designs, the {len(top)} most common shown.")
    return h("section", {"class": "pl-class__designs"},
             h("h3", None, "Act II decisions"),
             h("p", None, h("strong", None, "Met the constraints: "), f"{met} of {total} ({share(met, total)})."),
             chart(f"class_{lab.id}_designs", "The class's final Act II designs", figure, summary,
                   table=(("Design", "Settings", "Students", "Met the constraints"), rows)),
             h("p", {"class": "pl-class__rule"}, MET_RULE))


def lab_section(lab_id: str, stats: ClassStats) -> Markup:
    lab = get(lab_id)
    labs = stats.labs.get(lab_id)
    head = h("h2", {"id": f"class-{lab_id}"}, f"{lab_code(lab_id)} · {lab.title}")
    if labs is None:
        return h("section", {"class": "pl-class__lab"}, head, h("p", None, "No student has started this lab."))
    return h("section", {"class": "pl-class__lab", "data-class-lab": lab_id}, head,
             h("p", None, f"{labs.complete} complete, {labs.in_progress} in progress."),
             [question_block(lab, q, stats.questions.get((lab_id, q.id))) for q in lab.questions],
             designs_block(lab, labs))
