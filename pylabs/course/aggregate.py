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
from pylabs.course.describe import context_of, control_text
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


def act2_met(lab: Lab, attempt: dict) -> tuple[bool, bool]:
    """(met, judged on the final design): no Act II failure state in the final design when the
    attempt records it (``failures_active``), else none reached at all (``failures_hit``)."""
    act2 = {f.name for f in lab.failures if f.act == 2}
    final = attempt.get("failures_active")
    if final is not None:
        return not act2 & set(final), True
    return not act2 & set(attempt["failures_hit"]), False


def _count_answers(lab: Lab, attempt: dict, row: StudentRow, questions: dict, stats: LabStats) -> None:
    context = context_of(lab, attempt)
    for q in lab.questions:
        answer = attempt["answers"].get(q.id)
        if answer is None:
            continue
        entry = questions.get((lab.id, q.id))
        if entry is None:
            entry = questions[(lab.id, q.id)] = QuestionStats(lab.id, q.id)
        key = key_in(lab.id, q.id, context)
        letter = answer["choice"]
        ok = letter == key
        entry.counts[letter] += 1
        entry.by_context.setdefault(context, Counter())[letter] += 1
        entry.keys[key] += 1
        tally = row.predictions if q.kind == "prediction" else row.reflections
        tally[0] += ok
        tally[1] += 1
        if q.kind == "prediction":
            stats.predictions_right += ok
            stats.predictions_locked += 1
        if ok:
            entry.right += 1
            continue
        entry.wrong[letter] += 1
        if letter not in entry.wrong_contexts:
            entry.wrong_contexts[letter] = Counter()
        entry.wrong_contexts[letter][context] += 1
        if isinstance(q, Prediction):
            option, truth = q.option(letter), q.value_in(context)
            entry.misses.append(miss_amount(option, truth, q.unit_fmt))
            entry.unit_misses.append(abs(truth - option.edge(truth)[0]))


@lru_cache(maxsize=65536)
def _shown(lab_id: str, act: int, name: str, stored) -> str:
    control = next(c for a in get(lab_id).acts if a.number == act for c in a.controls if c.name == name)
    return control_text(control, stored)


def _count_design(lab: Lab, attempt: dict, stats: LabStats) -> None:
    act2 = next((a for a in lab.acts if a.number == 2), None)
    if act2 is None or act2.prediction.id not in attempt["answers"]:
        return
    controls = attempt["controls"]
    design = tuple(_shown(lab.id, 2, c.name, controls.get(c.name, c.default)) for c in act2.controls)
    met, final = act2_met(lab, attempt)
    stats.designs[design] += 1
    stats.met[design] += met
    stats.recorded_final += final


def _student(student: Student, questions: dict, labs: dict) -> StudentRow:
    row = StudentRow(student.name, list(student.files), list(student.notes), student.typed)
    for lab_id in sorted({a["lab"] for a in student.ledger["attempts"].values()}):
        if lab_id not in LAB_MODULES:
            continue
        lab, attempt = get(lab_id), ledger.latest_attempt(student.ledger, lab_id)
        stats = labs.setdefault(lab_id, LabStats(lab_id))
        if attempt["complete"]:
            row.done[lab_id] = ("complete", completion_date(attempt))
            stats.complete += 1
        else:
            row.done[lab_id] = ("in progress", "")
            stats.in_progress += 1
        if attempt["answers"]:
            stats.first_locks.append(min(a["locked_at"] for a in attempt["answers"].values()))
        _count_answers(lab, attempt, row, questions, stats)
        _count_design(lab, attempt, stats)
    return row


def aggregate(room: Classroom) -> ClassStats:
    questions: dict = {}
    labs: dict = {}
    rows = [_student(s, questions, labs) for s in room.students.values()]
    rows.sort(key=lambda r: (r.name.casefold(), r.name))
    return ClassStats(rows, questions, labs)


def letters_json(entry: QuestionStats) -> dict[str, int]:
    return {letter: entry.counts.get(letter, 0) for letter in LETTERS}
