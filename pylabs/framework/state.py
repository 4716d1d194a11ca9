"""The state of one lab attempt, converted from the wire in one place.

The browser sends JSON: control values, locked answers (letter and time),
pending selections and the failure states reached so far. ``parse_state``
turns it into a frozen ``State``; nothing else reads raw values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from .controls import Control, controls_entered, parse_controls
from .questions import LETTERS, Question

_ISO_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$")


@dataclass(frozen=True)
class Answer:
    """A committed answer: the letter and the ISO-8601 time it was locked."""

    choice: str
    locked_at: str


@dataclass(frozen=True)
class State:
    controls: Mapping[str, Any]
    answers: Mapping[str, Answer] = field(default_factory=dict)
    pending: Mapping[str, str] = field(default_factory=dict)
    failures_hit: frozenset[str] = frozenset()
    earlier: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    # what the student typed or ticked in a number or multi-choice control when the lab did not
    # take it as given (out of range, not a number, too many picks): shown with a message
    entered: Mapping[str, Any] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Any:
        return self.controls[name]

    def locked(self, question_id: str) -> bool:
        return question_id in self.answers

    def earlier_control(self, lab_id: str, name: str, default: Any = None) -> Any:
        """A control value the student left in an earlier lab (from the ledger), or ``default``."""
        return self.earlier.get(lab_id, {}).get("controls", {}).get(name, default)

    def choice(self, question_id: str) -> str | None:
        answer = self.answers.get(question_id)
        return answer.choice if answer else self.pending.get(question_id)


def parse_answer(raw: Any) -> Answer | None:
    if not isinstance(raw, Mapping):
        return None
    choice, locked_at = raw.get("choice"), raw.get("locked_at")
    if choice not in LETTERS or not isinstance(locked_at, str) or not _ISO_TIME.match(locked_at):
        return None
    return Answer(choice, locked_at)


def parse_earlier(raw: Any, reads: tuple[str, ...]) -> dict[str, Mapping[str, Any]]:
    """Earlier labs' attempts as the ledger returned them: only the labs this one reads."""
    if not isinstance(raw, Mapping):
        return {}
    return {lab_id: attempt for lab_id, attempt in raw.items()
            if lab_id in reads and isinstance(attempt, Mapping)
            and isinstance(attempt.get("controls", {}), Mapping) and isinstance(attempt.get("results", {}), Mapping)}


def parse_state(controls: tuple[Control, ...], questions: tuple[Question, ...],
                failure_names: frozenset[str], raw: Any, reads: tuple[str, ...] = ()) -> State:
    """Convert the browser's JSON object into a valid State; unknown or bad fields are ignored."""
    raw = raw if isinstance(raw, Mapping) else {}
    ids = {q.id for q in questions}
    raw_answers = raw.get("answers") if isinstance(raw.get("answers"), Mapping) else {}
    answers = {qid: a for qid, a in ((k, parse_answer(v)) for k, v in raw_answers.items())
               if qid in ids and a is not None}
    raw_pending = raw.get("pending") if isinstance(raw.get("pending"), Mapping) else {}
    pending = {qid: v for qid, v in raw_pending.items() if qid in ids and v in LETTERS}
    raw_failures = raw.get("failures_hit") if isinstance(raw.get("failures_hit"), list) else []
    failures = frozenset(f for f in raw_failures if f in failure_names)
    return State(parse_controls(controls, raw.get("controls")), answers, pending, failures,
                 parse_earlier(raw.get("earlier"), reads), controls_entered(controls, raw.get("controls")))
