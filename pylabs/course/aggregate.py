"""What a class did, counted from its students' ledgers: who finished which lab and when, how the
locked answers fall over A-D (against the key of the context each student locked in), the most
chosen wrong answer, how far the class missed by, the share right per lab in the order the labs
were done, and the Act II designs. Numbers only; ``class_view`` draws them and ``gradebook``
writes them out.

The attempt that counts for a student and a lab is the ledger's ``latest_attempt``: the newest
complete one, else the newest.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from pylabs import ledger
from pylabs.course.classroom import Classroom, Student
from pylabs.course.describe import control_text
from pylabs.framework.lab import Lab
from pylabs.framework.questions import LETTERS, Prediction, Question, Range, fill, in_context
from pylabs.labs import LAB_MODULES, get

PERCENT_FORMATS = ("pct", "pct1", "pp")  # as framework.render.miss_text


def miss_amount(option: Range, truth: float, unit_fmt: str) -> tuple[str, float]:
    """How far ``truth`` lies outside a wrong option's range, the way ``render.miss_text`` says it:
    ("pp", percentage points as a fraction) for shares, ("factor", ≥ 1) for positive quantities,
    else ("diff", the difference in the question's unit)."""
    edge, above = option.edge(truth)
    if unit_fmt in PERCENT_FORMATS:
        return "pp", abs(truth - edge)
    if edge > 0 and truth > 0:
        return "factor", truth / edge if above else edge / truth
    return "diff", abs(truth - edge)


@lru_cache(maxsize=None)
def key_in(lab_id: str, qid: str, context: str) -> str:
    return get(lab_id).question(qid).answer(context)


@lru_cache(maxsize=None)
def facts_in(lab_id: str, act_number: int, context: str) -> dict:
    act = next(a for a in get(lab_id).acts if a.number == act_number)
    return dict(in_context(act.facts, context))


@lru_cache(maxsize=None)
def terms_in(lab_id: str, context: str):
    """The words of ``context`` that prompts and options name (``Lab.terms``), worked out once."""
    return get(lab_id).terms(context)


def feedback_text(lab: Lab, q: Question, letter: str, context: str) -> str:
    """An option's feedback as the page shows it in ``context`` (its facts filled in)."""
    return fill(q.option(letter).feedback, facts_in(lab.id, q.act, context))


@dataclass
class QuestionStats:
    lab: str
    qid: str
    counts: Counter = field(default_factory=Counter)        # letter -> students
    keys: Counter = field(default_factory=Counter)          # key letter -> students whose context has it
    right: int = 0
    wrong: Counter = field(default_factory=Counter)         # wrong letter -> students
    wrong_contexts: dict = field(default_factory=dict)      # wrong letter -> Counter of contexts
    misses: list = field(default_factory=list)              # (kind, amount) per wrong prediction
    unit_misses: list = field(default_factory=list)         # |value - nearest edge|, in the question's unit
    by_context: dict = field(default_factory=dict)          # context -> Counter of letters

    @property
    def locked(self) -> int:
        return sum(self.counts.values())

    @property
    def right_share(self) -> float | None:
        return self.right / self.locked if self.locked else None

    @property
    def top_wrong(self) -> tuple[str, int] | None:
        """The most chosen wrong letter (ties: the earlier letter) and how many chose it."""
        if not self.wrong:
            return None
        letter = min(self.wrong, key=lambda x: (-self.wrong[x], x))
        return letter, self.wrong[letter]

    def median_miss(self) -> tuple[str, float] | None:
        """The median miss of the most common kind (one kind in practice: see ``miss_amount``)."""
        if not self.misses:
            return None
        kind = Counter(k for k, _ in self.misses).most_common(1)[0][0]
        return kind, statistics.median(v for k, v in self.misses if k == kind)

    def median_unit_miss(self) -> float | None:
        """The median distance from the computed value to the nearest edge of the range chosen, in
        the question's own unit (the issue's "how far the class missed by in the question's units")."""
        return statistics.median(self.unit_misses) if self.unit_misses else None


@dataclass
class LabStats:
    lab: str
    complete: int = 0
    in_progress: int = 0
    predictions_right: int = 0
    predictions_locked: int = 0
    first_locks: list = field(default_factory=list)  # each student's first lock in this lab (ISO)
    designs: Counter = field(default_factory=Counter)  # Act II design (labels) -> students
    met: Counter = field(default_factory=Counter)      # the same designs -> students whose design met
    recorded_final: int = 0   # designs judged on the final design's failure states (else: every one reached)

    @property
    def order_key(self) -> str:
        return sorted(self.first_locks)[len(self.first_locks) // 2] if self.first_locks else "~"


@dataclass
class StudentRow:
    name: str
    files: list[str]
    notes: list[str]
    typed: bool = True   # ``name`` is what the student typed, not made from a file name
    done: dict = field(default_factory=dict)   # lab -> ("complete", date) or ("in progress", "")
    predictions: list = field(default_factory=lambda: [0, 0])  # right, locked
    reflections: list = field(default_factory=lambda: [0, 0])

    @property
    def labs_complete(self) -> int:
        return sum(1 for status, _ in self.done.values() if status == "complete")


@dataclass
class ClassStats:
    students: list[StudentRow]
    questions: dict[tuple[str, str], QuestionStats]
    labs: dict[str, LabStats]

    def lab_order(self) -> list[str]:
        """Labs the class worked in, in the order they were done (median first lock)."""
        return sorted((x for x, s in self.labs.items() if s.first_locks), key=lambda x: (self.labs[x].order_key, x))


def completion_date(attempt: dict) -> str:
    """When a complete attempt was finished: its last lock (a later setting change does not count)."""
    times = [a["locked_at"] for a in attempt["answers"].values()]
    return max(times)[:10] if times else attempt["updated_at"][:10]


@dataclass(frozen=True)
class _Plan:
    """What counting needs of a lab, worked out once per page: its questions, each one's key in
    every context, and its Act II design."""
    lab: Lab
    questions: tuple          # (question, is a prediction, (lab id, question id))
    keys: dict                # context -> each question's key, in the order of ``questions``
    design: tuple             # Act II controls (name, default); empty when there is no Act II
    gate: str | None          # the Act II prediction: a design counts once it is locked
    act2_failures: frozenset


@lru_cache(maxsize=None)
def _plan(lab_id: str) -> _Plan:
    lab = get(lab_id)
    act2 = next((a for a in lab.acts if a.number == 2), None)
    return _Plan(lab, tuple((q, q.kind == "prediction", (lab_id, q.id)) for q in lab.questions),
                 {c: tuple(key_in(lab_id, q.id, c) for q in lab.questions) for c in lab.context.values},
                 tuple((c.name, c.default) for c in act2.controls) if act2 else (),
                 act2.prediction.id if act2 else None, frozenset(f.name for f in lab.failures if f.act == 2))


@lru_cache(maxsize=65536)
def _design(lab_id: str, stored: tuple) -> tuple:
    """An Act II design as the class view names it: each control's value as the page shows it
    (``stored``: the values of the plan's Act II controls, in its order)."""
    controls = {c.name: c for a in get(lab_id).acts if a.number == 2 for c in a.controls}
    return tuple(control_text(controls[name], value) for (name, _), value in zip(_plan(lab_id).design, stored))


def act2_met(lab: Lab, attempt: dict) -> tuple[bool, bool]:
    """(met, judged on the final design): no Act II failure state in the final design when the
    attempt records it (``failures_active``), else none reached at all (``failures_hit``)."""
    failures = _plan(lab.id).act2_failures
    final = attempt.get("failures_active")
    if final is not None:
        return not failures.intersection(final), True
    return not failures.intersection(attempt["failures_hit"]), False


def work_out_keys() -> int:
    """Every lab's plan (each question's key in every context) and each context's wording, worked
    out now. The build calls this before it keeps Python's memory (build_scripts/snapshot.mjs), so a
    class view counts its first class without first running every question's physics (in CPython,
    a first count of 500 students took 1.45 s without them, 0.62 s with them). Returns how many keys."""
    keys = 0
    for lab_id in LAB_MODULES:
        plan = _plan(lab_id)
        for context, per_question in plan.keys.items():
            terms_in(lab_id, context)
            keys += len(per_question)
    return keys


def _latest(attempts: dict) -> dict:
    """Per lab, the attempt that counts (``ledger.latest_attempt``, for every lab in one pass)."""
    out: dict = {}
    for attempt in attempts.values():
        known = out.get(attempt["lab"])
        if known is None or ledger.latest_order(attempt) > ledger.latest_order(known):
            out[attempt["lab"]] = attempt
    return out


def _student(student: Student, answered: dict, labs: dict) -> StudentRow:
    """The student's row; each locked answer goes to ``answered[(lab, question)]`` as (context,
    letter), counted per question afterwards (``_question``)."""
    row = StudentRow(student.name, list(student.files), list(student.notes), student.typed)
    right = [0, 0]  # predictions, reflections
    locked = [0, 0]
    for lab_id, attempt in sorted(_latest(student.ledger["attempts"]).items()):
        if lab_id not in LAB_MODULES:
            continue
        plan = _plan(lab_id)
        stats = labs.get(lab_id)
        if stats is None:
            stats = labs[lab_id] = LabStats(lab_id)
        answers = attempt["answers"]
        locks = [a["locked_at"] for a in answers.values()]
        if attempt["complete"]:
            row.done[lab_id] = ("complete", completion_date(attempt))
            stats.complete += 1
        else:
            row.done[lab_id] = ("in progress", "")
            stats.in_progress += 1
        if locks:
            stats.first_locks.append(min(locks))
        context = attempt.get("context")
        keys = plan.keys.get(context)
        if keys is None:  # describe.context_of: a context this lab does not know reads as its default
            context = plan.lab.context.default
            keys = plan.keys[context]
        for (q, prediction, where), key in zip(plan.questions, keys):
            answer = answers.get(q.id)
            if answer is None:
                continue
            letter = answer["choice"]
            ok = letter == key
            right[not prediction] += ok
            locked[not prediction] += 1
            if prediction:
                stats.predictions_right += ok
                stats.predictions_locked += 1
            pairs = answered.get(where)
            if pairs is None:
                pairs = answered[where] = []
            pairs.append((context, letter))
        if plan.gate in answers:
            controls = attempt["controls"]
            design = _design(lab_id, tuple([controls.get(name, default) for name, default in plan.design]))
            met, final = act2_met(plan.lab, attempt)
            stats.designs[design] += 1
            stats.met[design] += met
            stats.recorded_final += final
    row.predictions = [right[0], locked[0]]
    row.reflections = [right[1], locked[1]]
    return row


def _question(lab_id: str, qid: str, pairs: list) -> QuestionStats:
    """One question's counts from the class's (context, letter) pairs, each distinct pair once."""
    q = get(lab_id).question(qid)
    entry = QuestionStats(lab_id, qid)
    for (context, letter), n in Counter(pairs).items():
        key = key_in(lab_id, qid, context)
        entry.counts[letter] += n
        entry.by_context.setdefault(context, Counter())[letter] += n
        entry.keys[key] += n
        if letter == key:
            entry.right += n
            continue
        entry.wrong[letter] += n
        entry.wrong_contexts.setdefault(letter, Counter())[context] += n
        if isinstance(q, Prediction):
            option, truth = q.option(letter), q.value_in(context)
            entry.misses.extend([miss_amount(option, truth, q.unit_fmt)] * n)
            entry.unit_misses.extend([abs(truth - option.edge(truth)[0])] * n)
    return entry


def aggregate(room: Classroom) -> ClassStats:
    answered: dict = {}
    labs: dict = {}
    rows = [_student(s, answered, labs) for s in room.students.values()]
    rows.sort(key=lambda r: (r.name.casefold(), r.name))
    questions = {(lab_id, qid): _question(lab_id, qid, pairs) for (lab_id, qid), pairs in answered.items()}
    return ClassStats(rows, questions, labs)


def letters_json(entry: QuestionStats) -> dict[str, int]:
    return {letter: entry.counts.get(letter, 0) for letter in LETTERS}
