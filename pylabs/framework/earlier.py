"""Reading earlier labs' attempts (the capstones): how often the student's locked answers were right.

An attempt is what the ledger keeps (``framework.render.record``): its ``answers`` map question ids to
``{"choice", "locked_at", "correct"}``. Reflection ids contain "reflect" in every lab. Anything
malformed counts as nothing, and a group of labs with no locked answers has no accuracy (``None``),
never a made-up score.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence


@dataclass(frozen=True)
class Tally:
    """Locked answers of a group of labs (a domain of the radar)."""

    name: str
    right: int
    answered: int
    labs: int      # labs of the group with an attempt in the ledger

    @property
    def accuracy(self) -> float | None:
        return self.right / self.answered if self.answered else None


def answer_marks(attempt: Any, reflections: bool = True) -> list[bool]:
    """Whether each locked answer of an attempt was right; reflections only if asked."""
    answers = attempt.get("answers") if isinstance(attempt, Mapping) else None
    if not isinstance(answers, Mapping):
        return []
    marks = [a.get("correct") for qid, a in answers.items()
             if isinstance(a, Mapping) and (reflections or "reflect" not in str(qid))]
    return [m for m in marks if isinstance(m, bool)]


def tally(name: str, earlier: Mapping[str, Any], labs: Sequence[str], reflections: bool = True) -> Tally:
    attempts = [earlier[lab] for lab in labs if lab in earlier]
    marks = [m for a in attempts for m in answer_marks(a, reflections)]
    return Tally(name, sum(marks), len(marks), len(attempts))
