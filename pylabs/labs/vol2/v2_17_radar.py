"""V2-17's Act I radar: the student's own accuracy per domain, read from every earlier lab's latest
attempt in the Design Ledger (``framework.earlier``).

Answers are counted by the ``correct`` each attempt recorded when it was locked, never by their
letters: other labs re-letter their options (``pylabs/ledger_letters.py``), and a letter that was
right then may name another claim today. A domain with no locked answers reads "no data", never a
score.
"""

from __future__ import annotations

from pylabs.framework import chart, fmt
from pylabs.framework import charts as ch
from pylabs.framework.earlier import Tally, tally
from pylabs.labs.vol2.v2_17_model import DOMAINS

VOLUMES = {"both": ("v1_", "v2_"), "1": ("v1_",), "2": ("v2_",)}


def domains(earlier: dict, reflections: bool, volumes: str) -> list[Tally]:
    """Accuracy per domain over the chosen volumes' labs; reflections only if asked."""
    return [tally(name, earlier, [lab for lab in labs if lab.startswith(VOLUMES[volumes])], reflections)
            for name, labs in DOMAINS.items()]


def radar_chart(rows: list[Tally]):
    names = [r.name if r.accuracy is not None else f"{r.name}<br>(no data)" for r in rows]
    trace = ch.radar("Your accuracy", names, [r.accuracy for r in rows], "series1")
    trace["connectgaps"] = False
    figure = ch.radar_figure([trace], (0.0, 1.0), ch.ticks_at((0.25, 0.5, 0.75, 1.0), lambda v: fmt(v, "pct")),
                             legend=False)
    known = [r for r in rows if r.accuracy is not None]
    if known:
        low = min(known, key=lambda r: (r.accuracy, r.name))
        summary = (f"{len(known)} of {len(rows)} domains have answers in your ledger; your lowest is "
                   f"{low.name} at {fmt(low.accuracy, 'pct')}.")
    else:
        summary = "No domain has answers in your ledger yet: every axis reads no data."
    table = (("Domain", "Right", "Counted", "Labs"),
             [(r.name, str(r.right), str(r.answered), str(r.labs)) for r in rows])
    return chart("a1_radar", "Your prediction accuracy by domain", figure, summary, table=table)
