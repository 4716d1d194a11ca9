"""Render a lab in a state to HTML blocks: the one renderer for build and run time.

``render_blocks(lab, state, links=...)`` returns ``(key, html)`` pairs in page order. The
site build joins them into the page; the browser runtime sends the changed
ones to the page, which patches them in place. Same function, same output.
The renderer knows no other lab: the caller hands it the pages of the labs this
one names (``links``, from the registry: ``pylabs.labs.links``).
"""

from __future__ import annotations

import hashlib
import math
import posixpath
import re
from dataclasses import dataclass
from typing import Any, Mapping

from pylabs.ledger_letters import LETTERS_VERSION

from .components import (bullets, callout, key_strip, prose, rich, section_title, stakeholder, takeaways,
                         takeaways_waiting)
from .controls import render_control, stored_controls
from .formats import fmt
from .lab import Act, Lab
from .markup import Markup, classes, h, join, parted
from .questions import Pick, Prediction, Question, Range, Reflection, fill, in_context, worded
from .state import State

VOLUME_NUMERALS = {1: "I", 2: "II"}
NO_LINKS: Mapping[str, str] = {}
ACT_NUMERALS = {1: "I", 2: "II", 3: "III"}


def render_blocks(lab: Lab, state: State, memo: dict | None = None,
                  links: Mapping[str, str] = NO_LINKS) -> list[tuple[str, Markup]]:
    """The page's blocks. With a ``memo`` (kept between updates by the runtime) an act whose
    inputs did not change is reused instead of re-rendered: the output is the same either way.
    ``links``: lab id -> page URL of the labs the connections name (``linked_connections``)."""
    memo = {} if memo is None else memo
    if "static" not in memo:  # the header and the waiting takeaways do not depend on the state
        connections = linked_connections(lab, links)
        memo["static"] = (header(lab), takeaways_waiting(connections), connections)
    top, waiting, connections = memo["static"]
    context = state[lab.context.name]
    if memo.get(("takeaways", context)) is None:  # the takeaways quote the context's numbers: takeaways(context)
        memo[("takeaways", context)] = takeaways(lab.invariant, in_context(lab.takeaways, context), connections)
    done = memo[("takeaways", context)]
    blocks = [("header", top), ("context", context_picker(lab, state))]
    blocks += [(f"act{act.number}", _act_block(lab, act, state, memo)) for act in lab.acts]
    # The invariant and the takeaways state every answer, so they wait until the last question is locked.
    blocks += [("takeaways", done if lab.complete(state) else waiting), ("hud", _hud_block(lab, state, memo))]
    return blocks


_CONNECTION = re.compile(r"^\[?(\*\*)?V([12])-(\d\d) (.+?)(\*\*)?(\]\([^)]*\))?(?: \(a later lab\))?(?=:)")


def connected_labs(lab: Lab) -> tuple[str, ...]:
    """The ids of the labs that ``lab``'s connections name, in order."""
    named = (_CONNECTION.match(entry) for entry in lab.connections)
    return tuple(f"v{match.group(2)}_{match.group(3)}" for match in named if match)


def linked_connections(lab: Lab, links: Mapping[str, str]) -> tuple[str, ...]:
    """Connections that name another lab ("**V2-08 The Utilization Trap**: ...") link to its page
    when ``links`` (lab id -> page URL) has it and say "(a later lab)" when it does not, so links
    follow the labs as they land instead of being typed by hand."""
    linked = []
    for entry in lab.connections:
        match = _CONNECTION.match(entry)
        if match is None:
            linked.append(entry)
            continue
        volume, number, title = match.group(2), match.group(3), match.group(4)
        other = f"v{volume}_{number}"
        name = f"**V{volume}-{number} {title}**"
        if other in links:
            href = posixpath.relpath(links[other], lab.url) + "/"
            name = f"[{name}]({href})"
        else:
            name = f"{name} (a later lab)"
        linked.append(name + entry[match.end():])
    return tuple(linked)


def act_inputs(lab: Lab, act: Act, state: State) -> str:
    """Everything an act's HTML depends on: its controls, the context, the answers, earlier labs.
    (tests/labs/test_protocol.py checks that no act reads another act's controls.)"""
    own = sorted((c.name, state[c.name], repr(state.entered.get(c.name))) for c in act.controls + (lab.context,))
    answers = sorted((k, a.choice, a.locked_at) for k, a in state.answers.items())
    return repr((own, answers, sorted(state.pending.items()), sorted(state.earlier.items(), key=lambda kv: kv[0])))


# How many renders of each act the memo keeps: a student who drags a slider back and forth
# revisits the positions just left, and an act's HTML depends only on its inputs (act_inputs).
ACT_RENDERS_KEPT = 8


def _act_block(lab: Lab, act: Act, state: State, memo: dict) -> Markup:
    key = act_inputs(lab, act, state)
    kept = memo.setdefault(act.number, {})  # inputs -> HTML, the least recently shown first
    html = kept.pop(key, None)
    if html is None:
        html = render_act(lab, act, state, memo)
        while len(kept) >= ACT_RENDERS_KEPT:
            del kept[next(iter(kept))]
    kept[key] = html
    return html


def render_lab(lab: Lab, state: State, links: Mapping[str, str] = NO_LINKS) -> Markup:
    """The whole lab as one string: the blocks, each in its keyed wrapper."""
    return join([block(key, html) for key, html in render_blocks(lab, state, links=links)])


def block(key: str, html: Markup) -> Markup:
    """A block in its keyed wrapper; ``data-hash`` lets the browser skip a block it already shows
    (on a first visit the page's static blocks are the default state's, so nothing is patched)."""
    return h("div", {"class": "pl-block", "data-block": key, "data-hash": block_hash(str(html))}, html)


def block_hash(html: str) -> str:
    """A short digest of a block's HTML (the same in CPython and Pyodide)."""
    return hashlib.blake2s(html.encode(), digest_size=8).hexdigest()


# ---- header and context ---------------------------------------------------------


def header(lab: Lab) -> Markup:
    """What the lab is and what to have read; its invariant answers the questions, so it waits
    with the takeaways. The reading list folds away so the first question is on the first screen."""
    return h("header", {"class": "pl-header"},
             h("p", {"class": "pl-header__kicker"},
               f"Volume {VOLUME_NUMERALS[lab.volume]} · Lab {lab.number:02d} · {lab.minutes} · "
               f"Chapter: {lab.chapter}"),
             h("details", {"class": "pl-reading"},
               h("summary", {"class": "pl-reading__title"},
                 f"Recommended reading: {', '.join(reading_topic(item) for item in lab.reading)}"),
               bullets(lab.reading)))


def reading_topic(item: str) -> str:
    """The topic of a reading item ("**Arithmetic intensity**: ..." -> "Arithmetic intensity"); an
    item with no colon gives its first sentence, without its full stop (a whole item in the title
    read "… between them.,", found in V1-03's review)."""
    head = item.split(":", 1)[0] if ":" in item else item.split(". ", 1)[0]
    return head.replace("**", "").replace("*", "").strip().rstrip(".")


def context_picker(lab: Lab, state: State) -> Markup:
    """The context toggle; fixed once a prediction is locked, so the feedback and the
    instruments always speak of the context the student predicted in. A Volume I lab that does
    not offer the student's V1-00 track says which context it opens in instead, and why."""
    fixed = bool(state.answers)
    source = lab.context_from[0] if lab.context_from and lab.context_source(state) else None
    return h("section", {"class": "pl-context", "aria-label": "Context"},
             render_control(lab.context, state[lab.context.name], disabled=fixed),
             h("p", {"class": "pl-context__from"},
               f"From your Design Ledger: the context you chose in Lab {source.split('_')[1]}.")
             if source else None,
             track_note(lab, state),
             # Always in the page, hidden until a lock: a lock taken before Python (early.js) shows
             # it at once, so the instruments below do not jump when Python renders the lock.
             h("p", {"class": "pl-context__fixed", "data-context-fixed": "", "hidden": not fixed},
               "Fixed for this attempt: your locked answers were made in this context. "
               "Restart the lab (at the bottom of the page) to try another."))


def track_note(lab: Lab, state: State) -> Markup | None:
    """Why this lab does not offer the track the student chose in an earlier lab (``track_notes``)."""
    if not lab.context_from:
        return None
    lab_id, name = lab.context_from
    chosen = state.earlier_control(lab_id, name)
    attempt = state.earlier.get(lab_id, {})
    if not attempt.get("complete") or chosen not in lab.track_notes:
        return None
    return h("p", {"class": "pl-context__from", "data-track-note": chosen}, rich(lab.track_notes[chosen]))


# ---- acts -----------------------------------------------------------------------


def render_act(lab: Lab, act: Act, state: State, memo: dict | None = None) -> Markup:
    """An act. With a ``memo`` the parts that depend only on the act's answers (the message, the
    scenario, the questions and their feedback) are reused while only the instruments move."""
    unlocked = lab.act_unlocked(state, act.number)
    banner = h("div", {"class": "pl-act__banner"},
               h("span", {"class": "pl-act__badge"}, f"Act {ACT_NUMERALS[act.number]}"),
               h("h2", {"class": "pl-act__title", "id": f"act-{act.number}"}, act.title),
               h("span", {"class": "pl-act__minutes"}, act.minutes))
    attrs = {"class": classes("pl-act", not unlocked and "pl-act--locked"),
             "data-act": str(act.number), "data-unlocked": "true" if unlocked else "false",
             "aria-labelledby": f"act-{act.number}"}
    if not unlocked:
        previous = ACT_NUMERALS[act.number - 1]
        return h("section", attrs, banner,
                 callout("info", "Locked",
                         h("p", None, f"Act {ACT_NUMERALS[act.number]} opens when you have locked "
                                      f"the prediction and the reflection of Act {previous}.")))
    predicted = state.locked(act.prediction.id)
    head, reflection = _question_parts(lab, act, state, predicted, {} if memo is None else memo)
    # Feedback sits right under its question; the instruments follow it. Parted: a slider move
    # sends the browser the instruments' changed parts, not the act.
    return parted("section", attrs, banner, head,
                  instruments(act, state, predicted),
                  reflection,
                  act.math_peek(state) if predicted else None)


def lead(story: Markup, ask: Markup) -> Markup:
    """The stakeholder's story beside the prediction on a wide screen (the question on the first
    screen), one above the other on a narrow one."""
    return h("div", {"class": "pl-lead"}, h("div", {"class": "pl-lead__story"}, story),
             h("div", {"class": "pl-lead__ask"}, ask))


def _question_parts(lab: Lab, act: Act, state: State, predicted: bool, memo: dict) -> tuple[tuple[Markup, ...], Markup | None]:
    """The act's message, scenario, prediction with its verdict, and reflection: they read the
    act's answers and the scenario's facts, never its controls."""
    ids = (act.prediction.id, act.reflection.id)
    context = state[lab.context.name]
    key = repr([context] + [(state.answers[q].choice, state.answers[q].locked_at) if q in state.answers
                            else state.pending.get(q) for q in ids])
    cached = memo.get(("questions", act.number))
    if cached is None or cached[0] != key:
        ask = Asking(context, lab.terms(context), in_context(act.facts, context) if predicted else {})
        story = join([stakeholder(act.stakeholder_role, in_context(act.stakeholder, context)),
                      prose(*in_context(act.scenario, context))])
        head = tuple(part for part in (lead(story, question(act.prediction, state, ask)),
                                       verdict(act.prediction, state, ask) if predicted else None) if part)
        cached = memo[("questions", act.number)] = (key, (head, question(act.reflection, state, ask)
                                                          if predicted else None))
    return cached[1]


def instruments(act: Act, state: State, unlocked: bool) -> Markup:
    attrs = {"class": classes("pl-instruments", not unlocked and "pl-instruments--locked"),
             "data-instruments": str(act.number), "data-unlocked": "true" if unlocked else "false"}
    # A locked group is dimmed; role and aria-disabled tell assistive tech (and axe's contrast rule)
    # that its labels and help belong to inactive controls. A control the state overrides is
    # disabled with its reason.
    reasons = act.overridden(state) if unlocked else {}
    controls = parted("div", {"class": "pl-controls", "role": "group" if not unlocked else None,
                              "aria-disabled": "true" if not unlocked else None},
                      [render_control(c, state[c.name], disabled=not unlocked, reason=reasons.get(c.name, ""),
                                      entered=state.entered.get(c.name))
                       for c in act.controls])
    if not unlocked:
        return h("section", attrs, section_title(act.instruments_title), controls,
                 h("p", {"class": "pl-instruments__lock"},
                   "The instruments unlock when you lock your prediction above."))
    share = h("p", {"class": "pl-instruments__share"},
              h("button", {"type": "button", "class": "pl-button", "data-action": "share",
                           "data-controls": " ".join(c.name for c in act.controls)},
                "Copy a link to these settings"))
    readout = list(act.instruments(state))
    # Wide screens: controls and readout side by side, whichever is shorter stays in view.
    # Phones: the act's key numbers in a strip that sticks under the header while you slide.
    return parted("section", attrs, section_title(act.instruments_title), key_strip(readout),
                  parted("div", {"class": "pl-instruments__body"},
                         parted("div", {"class": "pl-instruments__controls"}, controls, share),
                         parted("div", {"class": "pl-readout"}, readout)))


# ---- questions ------------------------------------------------------------------


@dataclass(frozen=True)
class Asking:
    """What a question is asked and answered in: the context the student predicts in, its words
    (filled into prompts and options) and the facts its feedback quotes (computed in it)."""

    context: str
    terms: Mapping[str, str]
    facts: Mapping[str, str]


def question(q: Question, state: State, ask: Asking) -> Markup:
    locked = state.locked(q.id)
    chosen = state.choice(q.id)
    legend_id = f"q-{q.id}"
    options = [
        h("label", {"class": classes("pl-option", chosen == o.letter and "pl-option--chosen")},
          h("input", {"type": "radio", "name": f"pl-q-{q.id}", "value": o.letter,
                      "checked": chosen == o.letter, "disabled": locked}),
          h("span", {"class": "pl-option__letter"}, o.letter),
          h("span", {"class": "pl-option__text"}, rich(q.text_of(o.letter, ask.terms))))
        for o in q.options
    ]
    heading = "Your prediction" if q.kind == "prediction" else "Reflection"
    status = (h("p", {"class": "pl-question__status", "tabindex": "-1"},
                  f"Locked: {state.answers[q.id].choice} at ", h("time", {"datetime": state.answers[q.id].locked_at},
                                                                   state.answers[q.id].locked_at[:16].replace("T", " ")))
              if locked else
              h("button", {"type": "button", "class": "pl-button pl-button--primary", "data-action": "lock",
                           "disabled": chosen is None},
                "Lock prediction" if q.kind == "prediction" else "Lock answer"))
    return h("section", {"class": classes("pl-question", f"pl-question--{q.kind}"),
                         "data-question": q.id, "data-kind": q.kind,
                         "data-locked": "true" if locked else "false"},
             h("fieldset", None,
               h("legend", {"id": legend_id, "class": "pl-question__prompt"},
                 h("span", {"class": "pl-question__kicker"}, heading), rich(worded(q.prompt, ask.terms))),
               h("div", {"class": "pl-options"}, options)),
             status,
             reflection_feedback(q, state, ask) if locked and isinstance(q, Reflection) else None)


def reflection_feedback(q: Reflection, state: State, ask: Asking) -> Markup:
    chosen = state.answers[q.id].choice
    key = q.answer(ask.context)
    right = chosen == key
    parts = [h("p", None, rich(fill(q.option(chosen).feedback, ask.facts)))]
    if not right:
        parts.append(h("p", None, rich(f"**The answer is {key}.** " + fill(q.option(key).feedback, ask.facts))))
    return callout("success" if right else "warn", "Correct" if right else "Not quite", *parts,
                   attrs={"data-feedback": q.id, "data-verdict": "correct" if right else "incorrect",
                          "tabindex": "-1"})


def verdict(p: Prediction | Pick, state: State, ask: Asking) -> Markup:
    """Prediction vs reality at the scenario's inputs, in the context predicted in: the student's
    range, the physics' value, and for a miss how far outside the range it lies."""
    if isinstance(p, Pick):
        return pick_verdict(p, state, ask)
    chosen = state.answers[p.id].choice
    truth = p.value_in(ask.context)
    answer = p.answer(ask.context)
    right = chosen == answer
    said = (f"You predicted {chosen} ({p.text_of(chosen, ask.terms)}). "
            f"{p.gives} **{fmt(truth, p.unit_fmt)}**")
    if right:
        summary = f"{said}, inside your range."
    else:
        summary = (f"{said}, {miss_text(p.option(chosen), truth, p.unit_fmt)}. "
                   f"The answer is {answer} ({p.text_of(answer, ask.terms)}).")
    body = [h("p", None, rich(summary))]
    why = p.option(chosen).feedback
    if why:
        body.append(h("p", None, rich(fill(why, ask.facts))))
    return callout("success" if right else "warn", f"Prediction vs reality · {p.quantity}", *body,
                   attrs={"data-feedback": p.id, "data-verdict": "correct" if right else "incorrect",
                          "data-value": repr(float(truth)), "tabindex": "-1"})


PERCENT_FORMATS = ("pct", "pct1", "pp")


def miss_text(option: Range, truth: float, unit_fmt: str) -> str:
    """How far ``truth`` lies outside the option's range, in the question's units: percentage
    points for shares, a factor for positive quantities, else the difference."""
    edge, above = option.edge(truth)
    where = "above the top" if above else "below the bottom"
    if unit_fmt in PERCENT_FORMATS:
        gap = fmt(abs(truth - edge), "pp")
    elif edge > 0 and truth > 0:
        gap = f"a factor of {fmt(truth / edge if above else edge / truth, 'num')}"
    else:
        gap = fmt(abs(truth - edge), unit_fmt)
    return f"{gap} {where} of your range ({fmt(edge, unit_fmt)})"


def pick_verdict(p: Pick, state: State, ask: Asking) -> Markup:
    """A design choice checked against the physics: why the chosen one passes or fails."""
    chosen, answer = state.answers[p.id].choice, p.answer(ask.context)
    right = chosen == answer
    body = [h("p", None, rich(f"You predicted {chosen}: {p.text_of(chosen, ask.terms)}")),
            h("p", None, rich(fill(p.option(chosen).feedback, ask.facts)))]
    if not right:
        body += [h("p", None, rich(f"**{p.picks} {answer}**: {p.text_of(answer, ask.terms)}")),
                 h("p", None, rich(fill(p.option(answer).feedback, ask.facts)))]
    return callout("success" if right else "warn", f"Prediction vs reality · {p.quantity}", *body,
                   attrs={"data-feedback": p.id, "data-verdict": "correct" if right else "incorrect",
                          "tabindex": "-1"})


# ---- HUD -------------------------------------------------------------------------


def _hud_block(lab: Lab, state: State, memo: dict) -> Markup:
    """``hud`` kept while what it shows is the same: a slider move changes it only when a failure
    state starts or stops (it shows the answers, the failures reached and the status)."""
    reached = tuple(sorted(state.failures_hit | lab.failures_now(state)))
    key = (state[lab.context.name], tuple(sorted((k, a.choice) for k, a in state.answers.items())),
           reached, bool(state.failures_hit))
    cached = memo.get("hud")
    if cached is None or cached[0] != key:
        cached = memo["hud"] = (key, hud(lab, state))
    return cached[1]


def hud(lab: Lab, state: State) -> Markup:
    """The lab's status at its end: answers, failure states, progress, and what to do next (hand
    in once complete; restart once there is something to restart). It stays in the page's flow,
    so it never covers the instruments; the ledger page has the details."""
    active = lab.failures_now(state)
    reached = sorted(state.failures_hit | active)
    items = [("Lab", f"V{lab.volume}-{lab.number:02d}")]
    for q in lab.questions:
        ok = lab.correct(state, q.id)
        label = f"Act {ACT_NUMERALS[q.act]} {q.kind}"
        items.append((label, "—" if ok is None else f"{state.answers[q.id].choice} · {'correct' if ok else 'review'}"))
    titles = {f.name: f.title for f in lab.failures}
    items.append(("Failure states", f"{len(reached)} of {len(lab.failures)}"))
    complete = lab.complete(state)
    items.append(("Status", "Complete" if complete else "In progress"))
    started = bool(state.answers or state.failures_hit)
    waiting = "Hand in opens when every prediction and reflection is locked."
    return h("footer", {"class": "pl-hud", "data-hud": "", "aria-label": "Lab status"},
             h("h2", {"class": "pl-hud__title"}, "Your progress"),
             h("dl", {"class": "pl-hud__items"},
               [h("div", {"class": "pl-hud__item"}, h("dt", None, k), h("dd", None, v)) for k, v in items]),
             h("div", {"class": "pl-hud__actions"},
               h("button", {"type": "button", "class": "pl-button pl-button--primary", "data-action": "hand-in",
                            "disabled": not complete, "aria-describedby": None if complete else "pl-hand-in-why"},
                 "Hand in"),
               None if complete else h("span", {"class": "pl-hud__why", "id": "pl-hand-in-why"}, waiting),
               h("button", {"type": "button", "class": "pl-button pl-button--small", "data-action": "restart",
                            "title": "Reached: " + "; ".join(titles[n] for n in reached) if reached else None},
                 "Restart lab") if started else None,
               h("span", {"class": "pl-hud__save", "data-ledger-status": ""}, "")))


# ---- the ledger record ------------------------------------------------------------


def record(lab: Lab, state: State) -> dict[str, Any]:
    """What the ledger keeps of this state (the browser merges it into the attempt)."""
    return {
        "lab": lab.id,
        "letters": LETTERS_VERSION,  # what its letters mean (a stashed record may outlive its build)
        "context": state[lab.context.name],
        "controls": stored_controls(lab.controls, state.controls),
        "answers": {qid: {"choice": a.choice, "locked_at": a.locked_at,
                          "correct": lab.correct(state, qid)}
                    for qid, a in state.answers.items()},
        "results": {k: result_value(v) for k, v in lab.results(state).items()},
        "failures_active": sorted(lab.failures_now(state)),
        "complete": lab.complete(state),
    }


def result_value(value: Any) -> float | str | bool | None:
    """A ledger result as JSON keeps it: numbers as floats; names, flags and null as they are
    (a lab records ``None`` where a quantity does not apply, e.g. a torus has no oversubscription).
    JSON has no infinity: an unbounded value (a queue that never drains) is kept as null."""
    if value is None or isinstance(value, (str, bool)):
        return value
    value = float(value)
    return value if math.isfinite(value) else None
