"""What an attempt holds, in words a reader reads: control settings with their labels and units,
results with their labels and formats, failure states by title, answers with their options'
texts. Shared by the ledger page, the printed hand-in report, the class view and the guide."""

from __future__ import annotations

from typing import Any

from pylabs.framework.controls import Choice, Control, MultiChoice, Toggle
from pylabs.framework.formats import fmt
from pylabs.framework.lab import Lab

ACTS = {1: "I", 2: "II", 3: "III"}


def when(iso: str) -> str:
    """``2026-11-28T09:15:02.123Z`` -> ``2026-11-28 09:15`` (UTC, as the ledger stores it)."""
    return iso[:16].replace("T", " ")


def lab_code(lab_id: str) -> str:
    return lab_id.upper().replace("_", "-")


def control_text(control: Control, stored: Any) -> str:
    """A stored control value as the page shows it (an option's label, a formatted number)."""
    value = control.parse(stored)
    if isinstance(control, Choice):
        return control.label_of(value)
    if isinstance(control, Toggle):
        return "on" if value else "off"
    if isinstance(control, MultiChoice):
        return ", ".join(control.label_of(v) for v in value) or "none"
    return fmt(value, control.fmt)


def act_controls(lab: Lab, number: int) -> tuple[Control, ...]:
    return next((a.controls for a in lab.acts if a.number == number), ())


def design_rows(lab: Lab, controls: dict, number: int = 2) -> list[tuple[str, str]]:
    """An act's controls as the attempt left them: (label, shown value)."""
    return [(c.label, control_text(c, controls.get(c.name, c.default))) for c in act_controls(lab, number)]


def result_label(name: str, label: str) -> str:
    """A result's label with its act (two acts may both report, say, MFU)."""
    prefix = name[:3]
    if len(prefix) == 3 and prefix[0] == "a" and prefix[1].isdigit() and prefix[2] == "_":
        return f"Act {ACTS.get(int(prefix[1]), prefix[1])} · {label}"
    return label


def _option_label(lab: Lab, value: str) -> str:
    """A stored option key (``hdd_seq``) as the page labels it, when a control of the lab offers it."""
    for act in lab.acts:
        for control in act.controls:
            if isinstance(control, (Choice, MultiChoice)) and value in control.values:
                return control.label_of(value)
    return value


def result_rows(lab: Lab | None, results: dict, known_only: bool = False) -> list[tuple[str, str]]:
    """The attempt's key numbers: (label with its act, formatted value with its unit). With
    ``known_only`` (the printed report), only results the lab describes (its metrics and record
    metrics, with their labels, units and formats): the rest are a lab's record keys ("Bw gb per s",
    "Per req" 0.000045, "hdd_seq" were printed, found in review)."""
    known = {m.name: m for m in (lab.metrics + lab.record_metrics)} if lab else {}
    rows = []
    for name, value in results.items():
        spec = known.get(name)
        if known_only and spec is None:
            continue
        numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
        label = spec.label if spec else name.split("_", 1)[-1].replace("_", " ").capitalize()
        if value is None:
            shown = "—"
        elif numeric:
            shown = fmt(value, spec.fmt if spec else "num")
        elif isinstance(value, str):
            shown = _option_label(lab, value) if lab else value
        else:
            shown = "yes" if value is True else "no"
        rows.append((result_label(name, label), shown))
    return rows


def failure_titles(lab: Lab | None, names: list[str]) -> list[str]:
    titles = {f.name: f.title for f in lab.failures} if lab else {}
    return [titles.get(name, name.replace("_", " ")) for name in names]


def context_of(lab: Lab, attempt: dict) -> str:
    """The attempt's context, or the lab's default when it has none this lab knows."""
    context = attempt.get("context")
    return context if context in lab.context.values else lab.context.default
