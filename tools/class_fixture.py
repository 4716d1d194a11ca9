"""A synthetic class for the class view's benchmark and tests: every student's ledger made from
each lab's own questions and controls, with realistic spreads of answers.

    python -m tools.class_fixture --students 500 --out /tmp/class500 [--seed 0] [--labs v2_02 ...]

Per question, a share of the class gets it right (drawn between 30 % and 85 %, moved up or down
by each student's own strength) and one wrong option is the class's favourite misconception (three
times as likely as each other wrong one); the key is the one of the context each student chose.
Act II designs are drawn from a few designs per lab and context whose results and failure states
the lab's physics computes (so a design may fail its constraints, as students' designs do). Each
student does the labs in curriculum order over a term, a few days apart. Files are whole-course
hand-ins (``handin.build``), one per student, sealed with their digest.
"""

from __future__ import annotations

import argparse
import json
import random
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from pylabs import ledger
from pylabs.course import handin
from pylabs.framework.controls import Choice, MultiChoice, Number, Slider, Toggle, stored_controls
from pylabs.framework.lab import Lab
from pylabs.framework.render import record
from pylabs.labs import LAB_MODULES, get

TERM_START = datetime(2026, 9, 1, 9, tzinfo=timezone.utc)
DESIGNS_PER_CONTEXT = 4


def _random_value(control, rng: random.Random):
    if isinstance(control, Slider):
        return control.parse(control.at(rng.random()))
    if isinstance(control, Number):
        return control.parse(control.min + rng.random() * (control.max - control.min))
    if isinstance(control, Choice):
        return rng.choice(control.values)
    if isinstance(control, Toggle):
        return rng.random() < 0.5
    if isinstance(control, MultiChoice):
        return control.default
    raise TypeError(f"no random value for {control!r}")


@dataclass(frozen=True)
class Design:
    controls: dict
    results: dict
    failures_active: list


def designs(lab: Lab, context: str, rng: random.Random) -> list[Design]:
    """A few Act I and II settings in ``context``, with what the lab's physics makes of them."""
    keys = {q.id: {"choice": q.answer(context), "locked_at": "2026-09-01T09:00:00Z"} for q in lab.questions}
    out = []
    for n in range(DESIGNS_PER_CONTEXT):
        # the first design is the defaults (many students leave them), the others random
        chosen = {c.name: _random_value(c, rng) for a in lab.acts for c in a.controls} if n else {}
        state = lab.parse({"controls": {**chosen, lab.context.name: context}, "answers": keys})
        made = record(lab, state)
        out.append(Design(stored_controls(lab.controls, state.controls), made["results"], made["failures_active"]))
    return out


@dataclass(frozen=True)
class Question:
    lab: str
    qid: str
    right: float       # the share of the class that gets it right
    favourite: int     # which of the wrong options (0-2) is the class's misconception


def _answer(q: Question, key: str, strength: float, rng: random.Random) -> str:
    if rng.random() < min(0.97, max(0.03, q.right + strength)):
        return key
    wrong = [x for x in "ABCD" if x != key]
    return rng.choices(wrong, weights=[3 if i == q.favourite else 1 for i in range(3)])[0]


def _attempt(lab: Lab, student: int, when: datetime, strength: float, plan: dict, rng: random.Random) -> dict:
    context = rng.choices(lab.context.values, weights=[3] + [1] * (len(lab.context.values) - 1))[0]
    design = rng.choice(plan["designs"][context])
    answers = {}
    for i, q in enumerate(lab.questions):
        locked = (when + timedelta(minutes=4 + 9 * i, seconds=rng.randrange(60))).strftime("%Y-%m-%dT%H:%M:%SZ")
        choice = _answer(plan["questions"][q.id], q.answer(context), strength, rng)
        answers[q.id] = {"choice": choice, "locked_at": locked, "correct": choice == q.answer(context)}
    start = when.strftime("%Y-%m-%dT%H:%M:%SZ")
    key = f"{lab.id}-s{student:05d}x{rng.randrange(16 ** 6):06x}"
    return ledger.validate_attempt(key, {
        "id": key, "lab": lab.id, "started_at": start, "updated_at": max(a["locked_at"] for a in answers.values()),
        "archived_at": None, "context": context, "controls": {**design.controls, lab.context.name: context},
        "answers": answers, "results": design.results, "failures_hit": design.failures_active,
        "failures_active": design.failures_active, "complete": True})


def plans(lab_ids: list[str], rng: random.Random) -> dict:
    """Per lab: how hard each question is, and the designs students pick from, per context."""
    out = {}
    for lab_id in lab_ids:
        lab = get(lab_id)
        out[lab_id] = {
            "questions": {q.id: Question(lab_id, q.id, rng.uniform(0.3, 0.85), rng.randrange(3)) for q in lab.questions},
            "designs": {c: designs(lab, c, rng) for c in lab.context.values}}
    return out


def student_ledger(n: int, lab_ids: list[str], plan: dict, rng: random.Random) -> dict:
    strength = rng.gauss(0, 0.12)
    attempts = {}
    for i, lab_id in enumerate(lab_ids):
        when = TERM_START + timedelta(days=3 * i + rng.randrange(3), hours=rng.randrange(10))
        attempt = _attempt(get(lab_id), n, when, strength, plan[lab_id], rng)
        attempts[attempt["id"]] = attempt
    return {"schema": ledger.SCHEMA, "version": ledger.VERSION, "attempts": attempts,
            "student": {"name": f"Student {n:03d}", "updated_at": TERM_START.strftime("%Y-%m-%dT%H:%M:%SZ")}}


def make_class(students: int, lab_ids: list[str] | None = None, seed: int = 0,
               site_build: str = "fixture") -> list[tuple[str, str]]:
    """``students`` whole-course hand-ins: (file name, text)."""
    rng = random.Random(seed)
    lab_ids = lab_ids or list(LAB_MODULES)
    plan = plans(lab_ids, rng)
    files = []
    for n in range(1, students + 1):
        doc = handin.build(student_ledger(n, lab_ids, plan, rng), "course", None, site_build, "2026-12-15T12:00:00Z")
        files.append((handin.file_name(doc), handin.dumps(doc)))
    return files


def write_class(out: Path, students: int, lab_ids: list[str] | None = None, seed: int = 0) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, text in make_class(students, lab_ids, seed):
        path = out / name
        path.write_text(text)
        paths.append(path)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=500)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--labs", nargs="*", help="lab ids (default: all)")
    args = parser.parse_args()
    paths = write_class(args.out, args.students, args.labs, args.seed)
    size = sum(p.stat().st_size for p in paths)
    print(json.dumps({"files": len(paths), "bytes": size, "out": str(args.out)}))


if __name__ == "__main__":
    main()
