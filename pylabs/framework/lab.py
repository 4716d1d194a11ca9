"""A lab: its metadata, its acts and the protocol every lab page follows.

Each act runs: stakeholder message → locked prediction → instruments →
prediction vs reality → locked reflection → math peek. Act II unlocks when
every question of Act I is locked. Lab modules declare a ``Lab`` and give each
act a function that draws its instruments; this module does the gating.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from pylabs.ledger_letters import LETTERS_VERSION, migrate_answer

from .components import FailureSpec, MetricSpec
from .controls import Choice, Control, MultiChoice
from .questions import NO_TERMS, Pick, Prediction, Question, Reflection
from .state import State, parse_state


def _same_value(parsed: Any, raw: Any) -> bool:
    """Did the control accept the link's value as given (not clamped, not defaulted)?"""
    if isinstance(parsed, bool):
        return str(raw).lower() in (("true", "1", "on") if parsed else ("false", "0", "off"))
    if isinstance(parsed, tuple):  # a multi-choice: the same options, in any order
        items = MultiChoice.split(raw)
        return items is not None and sorted(set(items)) == sorted(parsed)
    if isinstance(parsed, float):
        try:
            return abs(float(raw) - parsed) <= 1e-9 * max(1.0, abs(parsed))
        except (TypeError, ValueError):
            return False
    return parsed == raw


def no_overrides(state: State) -> Mapping[str, str]:
    return {}


def no_terms(context: str) -> Mapping[str, str]:
    return NO_TERMS


class LabError(ValueError):
    """A lab declared inconsistently (duplicate names, unknown controls)."""


@dataclass(frozen=True)
class Act:
    """One act. ``instruments`` draws the unlocked instruments for a state."""

    number: int
    title: str
    minutes: str
    stakeholder_role: str
    stakeholder: Callable[..., str]              # stakeholder(context) or stakeholder()
    scenario: Callable[..., Sequence[str]]       # scenario(context) or scenario()
    prediction: Prediction | Pick
    controls: tuple[Control, ...]
    instruments: Callable[[State], Sequence[Any]]
    reflection: Reflection
    math_peek: Callable[[State], Any]
    # formatted numbers that feedback text may quote: facts(context) or facts(). A fact named after
    # one of the lab's metrics must read as that metric's card does at the scenario's inputs
    # (tests/labs/test_questions_in_context.py)
    facts: Callable[..., Mapping[str, str]] = dict
    instruments_title: str = "Instruments"
    # controls of this act that the current state overrides: name -> the reason, shown in the
    # control's help while it is disabled (e.g. a context that fixes the value the model uses)
    overridden: Callable[[State], Mapping[str, str]] = no_overrides

    @property
    def questions(self) -> tuple[Question, Question]:
        return (self.prediction, self.reflection)


@dataclass(frozen=True)
class Lab:
    id: str
    volume: int
    number: int
    title: str
    invariant: str
    minutes: str
    chapter: str
    url: str                       # page URL relative to the site root, e.g. "vol2/02-interconnect-wall/"
    reading: tuple[str, ...]
    context: Choice
    acts: tuple[Act, ...]
    metrics: tuple[MetricSpec, ...]
    failures: tuple[FailureSpec, ...]
    active_failures: Callable[[State], frozenset[str]]
    results: Callable[[State], Mapping[str, float | str | bool | None]]  # see render.result_value
    takeaways: Callable[..., Sequence[str]]       # takeaways(context) or takeaways()
    connections: tuple[str, ...]
    presets: Mapping[str, Mapping[str, Mapping[str, Any]]] = field(default_factory=dict)
    reads: tuple[str, ...] = ()    # earlier labs whose ledger entries this lab shows
    record_metrics: tuple[MetricSpec, ...] = ()  # results kept in the ledger that no instrument shows
    # (lab id, control name): a new attempt starts in the context the student chose there, when it
    # is one of this lab's options (Volume I labs read the track chosen in V1-00)
    context_from: tuple[str, str] | None = None
    # control name -> (lab id, control name): a new attempt starts from the student's own decision
    # in that earlier lab (the capstones), when this control accepts the value as it is
    defaults_from: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    # the words of each context that prompts and option texts name ("{device}"): terms(context)
    terms: Callable[[str], Mapping[str, str]] = no_terms
    # a Volume I lab that does not offer every track: track -> why, and which context it opens in
    # instead (shown when the student's V1-00 track is one of them; never a silent switch)
    track_notes: Mapping[str, str] = field(default_factory=dict)
    # what the volume's index card says of the lab: its question or story hook (the invariant
    # answers the lab's questions, so it waits for the last lock like the takeaways)
    hook: str = ""
    # the lab's page, which the site build writes from this declaration (build_scripts/lab_pages.py):
    # its meta description (search results, link previews; like the hook it must not give an answer),
    # and any Markdown the page shows before the lab (intro) or after it (afterword)
    description: str = ""
    intro: str = ""
    afterword: str = ""

    def __post_init__(self) -> None:
        for q in self.questions:  # a question asked without a context is asked in the lab's default
            object.__setattr__(q, "default_context", self.context.default)
        sources = [self.context_from] if self.context_from else []
        sources += list(self.defaults_from.values())
        missing = tuple(dict.fromkeys(lab for lab, _ in sources if lab not in self.reads))
        if missing:
            object.__setattr__(self, "reads", self.reads + missing)
        names = [c.name for c in self.controls]
        if len(set(names)) != len(names):
            raise LabError(f"lab {self.id!r}: control names repeat: {sorted(names)}")
        qids = [q.id for q in self.questions]
        if len(set(qids)) != len(qids):
            raise LabError(f"lab {self.id!r}: question ids repeat: {qids}")
        unknown = set(self.defaults_from) - set(names)
        if unknown:
            raise LabError(f"lab {self.id!r}: defaults_from names unknown controls {sorted(unknown)}")
        self._check_witnesses(names)
        for source, targets in self.presets.items():
            for option, values in targets.items():
                unknown = set(values) - set(names)
                if source not in names or unknown:
                    raise LabError(f"lab {self.id!r}: preset {source}={option} sets unknown controls {unknown}")

    def _check_witnesses(self, names: list[str]) -> None:
        """Each failure's witnesses move this lab's instrument controls to values they take as given."""
        for f in self.failures:
            for part in ("reach", "leave"):
                for name, value in getattr(f, part).items():
                    if name == self.context.name or name not in names:
                        raise LabError(f"lab {self.id!r}: failure {f.name!r} {part} names {name!r}, "
                                       "which is not one of its instrument controls")
                    if not _same_value(self.control(name).parse(value), value):
                        raise LabError(f"lab {self.id!r}: failure {f.name!r} {part} sets {name}={value!r}, "
                                       "which the control does not take as given")
            unknown = set(f.contexts) - set(self.context.values)
            if unknown:
                raise LabError(f"lab {self.id!r}: failure {f.name!r} names unknown contexts {sorted(unknown)}")

    @property
    def controls(self) -> tuple[Control, ...]:
        return (self.context,) + tuple(c for act in self.acts for c in act.controls)

    @property
    def questions(self) -> tuple[Question, ...]:
        return tuple(q for act in self.acts for q in act.questions)

    def question(self, qid: str) -> Question:
        return next(q for q in self.questions if q.id == qid)

    def control(self, name: str) -> Control:
        return next(c for c in self.controls if c.name == name)

    def metric(self, name: str) -> MetricSpec:
        return next(m for m in self.metrics if m.name == name)

    def parse(self, raw: Any, changed: str | None = None) -> State:
        """Wire JSON -> State; ``changed`` names the control the student just moved (presets apply).
        An answer that says its ``letters`` are older (a lock taken before Python on a page of an
        earlier build) is read with today's letters (pylabs/ledger_letters.py)."""
        if isinstance(raw, dict) and isinstance(raw.get("answers"), dict):
            raw = {**raw, "answers": self._todays_letters(raw["answers"])}
        if changed and changed in self.presets and isinstance(raw, dict):
            controls = dict(raw.get("controls") or {})
            chosen = self.control(changed).parse(controls.get(changed))
            controls.update(self.presets[changed].get(chosen, {}))
            raw = {**raw, "controls": controls}
        return parse_state(self.controls, self.questions,
                           frozenset(f.name for f in self.failures), raw, self.reads)

    def _todays_letters(self, answers: Mapping[str, Any]) -> dict[str, Any]:
        moved = {}
        for qid, answer in answers.items():
            version = answer.get("letters", LETTERS_VERSION) if isinstance(answer, Mapping) else LETTERS_VERSION
            if isinstance(version, int) and version < LETTERS_VERSION and isinstance(answer.get("choice"), str):
                qid, letter = migrate_answer(self.id, qid, answer["choice"], version)
                answer = {**answer, "choice": letter}
            moved[qid] = answer
        return moved

    def link_settings(self, raw: Mapping[str, Any], locked: bool = False) -> tuple[dict[str, Any], list[str]]:
        """Controls from a shared link: valid values are kept, anything else is named and ignored.

        Only instrument controls travel in links; answers never do. Once the student has locked
        an answer (``locked``), the context is fixed for the attempt and a link cannot change it.
        """
        kept, ignored = {}, []
        for name, value in raw.items():
            control = next((c for c in self.controls if c.name == name), None)
            if locked and control is self.context:
                control = None
            parsed = control.parse(value) if control is not None else None
            if control is None or not _same_value(parsed, value):
                ignored.append(str(name)[:40])
            else:
                kept[name] = parsed
        return kept, ignored

    def default_state(self) -> State:
        return self.parse({})

    def earlier_defaults(self, earlier: Mapping[str, Any]) -> dict[str, Any]:
        """Control values a new attempt starts from, read from earlier labs' latest attempts as the
        ledger holds them (``context_from``, ``defaults_from``). A value the control would not take
        as given (missing, not an option, out of range) is left out: the control keeps its default.
        Only a complete attempt counts: a lab left half-done records its controls' defaults, not
        decisions the student made."""
        wanted = dict(self.defaults_from)
        if self.context_from:
            wanted[self.context.name] = self.context_from
        found = {}
        for name, (lab_id, theirs) in wanted.items():
            attempt = earlier.get(lab_id)
            if not (isinstance(attempt, Mapping) and attempt.get("complete") is True):
                continue
            controls = attempt.get("controls")
            value = controls.get(theirs) if isinstance(controls, Mapping) else None
            if value is not None and _same_value(self.control(name).parse(value), value):
                found[name] = self.control(name).parse(value)
        # the context's presets come with it, as if the student had picked it (a decision read
        # from an earlier lab wins over a preset)
        chosen = found.get(self.context.name)
        for name, value in self.presets.get(self.context.name, {}).get(chosen, {}).items():
            found.setdefault(name, value)
        return found

    def context_defaults(self, earlier: Mapping[str, Any]) -> dict[str, Any]:
        """Only the context's part of ``earlier_defaults``."""
        chosen = self.earlier_defaults(earlier)
        return {self.context.name: chosen[self.context.name]} if self.context.name in chosen else {}

    def context_source(self, state: State) -> bool:
        """Is the attempt's context the one the student chose in the earlier lab?"""
        chosen = self.context_defaults(state.earlier).get(self.context.name)
        return chosen is not None and chosen == state[self.context.name]

    # ---- gating ----------------------------------------------------------------

    def act_unlocked(self, state: State, number: int) -> bool:
        """Act I is always open; each later act opens when every earlier question is locked."""
        earlier = [q for act in self.acts if act.number < number for q in act.questions]
        return all(state.locked(q.id) for q in earlier)

    def failures_now(self, state: State) -> frozenset[str]:
        """Active failure states whose act has its instruments unlocked."""
        open_acts = {a.number for a in self.acts if state.locked(a.prediction.id)}
        by_name = {f.name: f for f in self.failures}
        return frozenset(n for n in self.active_failures(state) if by_name[n].act in open_acts)

    def complete(self, state: State) -> bool:
        return all(state.locked(q.id) for q in self.questions)

    def answer(self, state: State, qid: str) -> str:
        """The key of ``qid`` in the state's context (fixed by the first lock)."""
        return self.question(qid).answer(state[self.context.name])

    def correct(self, state: State, qid: str) -> bool | None:
        answer = state.answers.get(qid)
        return None if answer is None else answer.choice == self.answer(state, qid)

    def manifest(self) -> dict:
        """This lab's entry in ``labs.json`` (see handbook/dom-contract.md)."""
        return {
            "id": self.id, "title": self.title, "volume": self.volume, "number": self.number,
            # the hook, not the invariant: labs.json is public, and the invariant states the answers
            "url": self.url, "minutes": self.minutes, "hook": self.hook,
            "controls": [c.manifest() for c in self.controls],
            "metrics": [{"name": m.name, "unit": m.unit, "label": m.label} for m in self.metrics],
            "questions": [{"id": q.id, "kind": q.kind, "act": q.act} for q in self.questions],
            "failures": [f.name for f in self.failures],
        }
