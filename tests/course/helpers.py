"""Ledgers made the way the browser makes them, for the course tests."""

from __future__ import annotations

from pylabs import ledger
from pylabs.framework.render import record
from pylabs.labs import get
from tests.labs.helpers import answered

NOW = "2026-11-28T10:00:00Z"


def finished_ledger(lab_id: str, name: str | None = "Ada Lovelace", restarts: int = 0,
                    choices: dict | None = None, controls: dict | None = None) -> dict:
    """A ledger with one complete attempt of ``lab_id`` (right answers unless ``choices`` say
    otherwise), after ``restarts`` archived attempts, committed as the browser commits them."""
    lab = get(lab_id)
    current = ledger.empty()
    for n in range(restarts):
        first = answered(lab, choices or {}, through=lab.questions[0].id)
        current = ledger.commit(current, f"{lab_id}-old{n:04d}", record(lab, first), "2026-11-01T09:00:00Z")
        current = ledger.archive(current, f"{lab_id}-old{n:04d}", "2026-11-01T09:30:00Z")
    state = answered(lab, choices or {}, through=lab.questions[-1].id, controls=controls)
    current = ledger.commit(current, f"{lab_id}-done0001", record(lab, state), "2026-11-02T09:00:00Z")
    return ledger.set_student(current, name, "2026-11-01T08:00:00Z") if name else current
