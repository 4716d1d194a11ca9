"""The guide's HTML: an index and one printable page per lab (structure here, style in guide.css)."""

from __future__ import annotations

from pylabs.course.describe import lab_code
from pylabs.framework.components import bullets, rich
from pylabs.framework.lab import Lab
from pylabs.framework.markup import Markup, h, raw
from pylabs.framework.questions import Reflection, in_context
from pylabs.framework.render import linked_connections
from pylabs.labs import links

from build_scripts.guide import facts as F

KATEX = ('<link rel="stylesheet" href="vendor/katex/katex.min.css">'
         '<script defer src="vendor/katex/katex.min.js"></script><script defer src="guide.js"></script>')


def page(title: str, *body) -> str:
    head = h("head", None, raw('<meta charset="utf-8">'), raw('<meta name="viewport" content="width=device-width, initial-scale=1">'),
             h("title", None, title), raw('<link rel="stylesheet" href="guide.css">'), raw(KATEX))
    return "<!doctype html>\n" + str(h("html", {"lang": "en"}, head, h("body", None, h("main", None, *body)))) + "\n"


def _options(answer: F.Answer) -> Markup:
    rows = [h("tr", {"class": "guide-key" if o.key else None},
              h("th", {"scope": "row"}, o.letter + (" (key)" if o.key else "")), h("td", None, rich(o.text)),
              h("td", None, rich(o.feedback) if o.feedback else "—"), h("td", None, o.miss or "—"))
            for o in answer.options]
    return h("table", {"class": "guide-options"},
             h("thead", None, h("tr", None, [h("th", {"scope": "col"}, c) for c in
                                             ("Option", "Text", "Feedback a student reads", "Physics from its range")])),
             h("tbody", None, rows))


def question(lab: Lab, q) -> Markup:
    found = F.answers(lab, q)
    same = all((a.key, a.proof, a.options) == (found[0].key, found[0].proof, found[0].options) for a in found)
    shown = found[:1] if same else found
    parts = [h("h3", None, f"Act {'I' * q.act} · {q.kind}")]
    for answer in shown:
        where = "In every context" if same else f"{lab.context.label}: {answer.context_label}"
        parts += [h("p", {"class": "guide-context"}, where), h("p", {"class": "guide-prompt"}, rich(answer.prompt)),
                  h("p", {"class": "guide-answer", "data-key": answer.key}, h("strong", None, f"Key: {answer.key}. "),
                    rich(answer.proof)),
                  _options(answer)]
    if isinstance(q, Reflection):
        parts.append(h("p", {"class": "guide-discuss"}, h("strong", None, "Discussion: "), rich(F.discussion(lab, q))))
    return h("section", {"class": "guide-question", "data-question": q.id}, parts)


def act_section(lab: Lab, act) -> Markup:
    context = lab.context.default
    unlocked = F.locked_state(lab, context)
    return h("section", {"class": "guide-act"},
             h("h2", None, f"Act {'I' * act.number} · {act.title} ({act.minutes})"),
             h("blockquote", None, rich(in_context(act.stakeholder, context))),
             [h("p", None, rich(p)) for p in in_context(act.scenario, context)],
             question(lab, act.prediction), question(lab, act.reflection),
             h("div", {"class": "guide-math"}, act.math_peek(unlocked)))


def failures_section(lab: Lab) -> Markup:
    rows = []
    for spec in lab.failures:
        found = F.reach(lab, spec)
        how = ("at the default settings" if found.settings == () else
               "; ".join(f"{label}: {value}" for label, value in found.settings) if found.settings else
               "not reached by the guide's search (one or two settings changed); see the lab's tests")
        rows.append(h("tr", {"data-failure": spec.name, "data-reached": "true" if found.settings is not None else "false"},
                      h("td", None, spec.title), h("td", None, f"Act {'I' * spec.act}"), h("td", None, spec.severity),
                      h("td", None, how)))
    return h("section", None, h("h2", None, "Failure states and the settings that reach them"),
             h("table", None, h("thead", None, h("tr", None, [h("th", {"scope": "col"}, c) for c in
                                                             ("Failure state", "Act", "Severity", "Reached with")])),
               h("tbody", None, rows)))


def design_section(lab: Lab) -> Markup | None:
    design = F.design_space(lab)
    if design is None:
        return None
    examples = [h("li", None, "; ".join(f"{k}: {v}" for k, v in example)) for example in design.examples]
    return h("section", None, h("h2", None, "Act II design space"),
             h("table", None, h("tbody", None, [h("tr", None, h("th", {"scope": "row"}, k), h("td", None, v))
                                               for k, v in design.controls])),
             h("p", None, f"Of {design.tried} designs tried (the defaults and a sample of every control at its ends "
                          f"and a few places between, in the default context), {design.met} show no Act II failure state."),
             h("p", None, "Designs that meet the constraints:") if examples else h("p", None, "None of them meets every constraint."),
             h("ul", None, examples) if examples else None)


def lab_page(lab: Lab) -> str:
    title = f"{lab_code(lab.id)} · {lab.title}"
    contexts = [h("li", None, lab.context.label_of(c) + (" (default)" if c == lab.context.default else ""))
                for c in lab.context.values]
    return page(f"Instructor's guide · {title}",
                h("p", {"class": "guide-nav"}, h("a", {"href": "index.html"}, "All labs")),
                h("h1", None, f"{title}: instructor's guide"),
                h("p", {"class": "guide-meta"}, f"Volume {'I' * lab.volume} · {lab.minutes} · chapter: {lab.chapter}"),
                h("p", {"class": "guide-invariant"}, h("strong", None, "Invariant: "), rich(lab.invariant)),
                h("h2", None, "Reading"), bullets(lab.reading),
                h("h2", None, f"Contexts ({lab.context.label})"), h("ul", None, contexts),
                [act_section(lab, act) for act in lab.acts],
                failures_section(lab), design_section(lab),
                h("h2", None, "Takeaways"), bullets(in_context(lab.takeaways, lab.context.default)),
                h("h2", None, "Connections"), bullets(linked_connections(lab, links(lab))))


def index_page(labs: list[Lab], made: str) -> str:
    items = [h("li", None, h("a", {"href": f"{lab.id}.html"}, f"{lab_code(lab.id)} · {lab.title}"),
               f" · {lab.minutes}") for lab in labs]
    return page("Instructor's guide · ML Systems labs",
                h("h1", None, "ML Systems labs: instructor's guide"),
                h("p", None, "Every answer key, the physics that proves it in each context, the misconceptions each wrong "
                             "option carries, the failure states and how to reach them, and the Act II design space: "
                             f"computed from the labs' own modules ({made}). Keep it away from students: it states the "
                             "answers that the labs make them commit to before they see them."),
                h("ul", {"class": "guide-index"}, items))
