"""The scenario and model of V1-03 (The Constraint Tax): the clinic project's six stages and what a late
constraint costs them, and the iteration race between a weekly large model and an hourly small one. The lab
module (``v1_03``) reads like its page; this is its model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pylabs.framework import fmt
from pylabs.physics import units as U
from pylabs.physics import workflow as w

DAY = w.SECONDS_PER_DAY


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs (pedagogical defaults, not hardware facts)."""

    # Act I: the clinic project, six stages of the ML lifecycle (days each, handbook/labs/v1_03.md §2)
    stage_names: tuple[str, ...] = ("Problem definition", "Data collection", "Model development",
                                    "Evaluation", "Deployment", "Monitoring")
    # two short lines each, so six categories fit side by side on a 375 px phone
    stage_short: tuple[str, ...] = ("1<br>Define", "2<br>Data", "3<br>Train", "4<br>Eval", "5<br>Ship",
                                    "6<br>Monitor")
    stage_days: tuple[float, ...] = (5.0, 30.0, 60.0, 40.0, 10.0, 5.0)
    discovery_stage: int = 5
    validation_accuracy: float = 0.96
    model_bytes: float = 4e9
    tablet_bytes: float = 512e6
    # Act II: the iteration race (handbook/labs/v1_03.md §1, §2)
    large_start: float = 0.95
    large_gain: float = 0.0015       # +0.15 points per iteration
    large_cycle_h: str = "168"
    small_start: float = 0.90
    small_gain: float = 0.0010       # +0.10 points per iteration
    small_cycle_h: str = "1"
    decay: float = 0.999             # each iteration gains r times the previous one
    upstream_decay: float = 0.95     # upstream's default r (handbook/labs/v1_03.md §5), the r slider's minimum
    cap: float = 0.99                # no model here passes 99 %
    window_s: float = 26 * 7 * 86400.0
    target: float = 0.97
    # mobile retraining (handbook/labs/v1_03.md §2; power and budget are estimates, so they are instruments)
    train_s: float = 0.5 * 3600.0
    train_power_w: float = 4.5
    budget_j: float = 2.5 * 3600.0   # per day, about a fifth of a phone battery
    week_s: float = 7 * 86400.0
    # the race chart: points on its log time axis, its ticks (hours) and its accuracy range
    chart_points: int = 240
    tick_hours: tuple[tuple[float, str], ...] = ((1, "1 h"), (24, "1 day"), (168, "1 wk"), (672, "4 wk"),
                                                 (4368, "26 wk"), (8736, "52 wk"))
    accuracy_axis: tuple[float, float] = (0.895, 0.995)
    axis_pad: float = 0.12  # decades of room right of the window, for its tick label


S = Scenario()
HOUR = U.S_PER_HOUR

# the V1-00 tracks this lab does not offer, and why (shown on the page)
TRACK_NOTES = {
    "edge": "This lab compares retraining in a datacentre with retraining on a battery. An edge box in the "
            "Edge track runs on mains power like the datacentre, so its race is the Cloud context's: the lab "
            "opens in Cloud.",
    "tiny": "The TinyML track's microcontroller runs a model trained elsewhere and flashed onto it; this lab "
            "does not model retraining on it, so the lab opens in Cloud.",
}

# ---- Act I · The constraint tax ------------------------------------------------------

SCENARIO_STAGES = [d * DAY for d in S.stage_days]
SCENARIO_TAX = w.constraint_tax(SCENARIO_STAGES, S.discovery_stage)


def act1_truth() -> float:
    """Work redone (s) when the limit surfaces as the scenario's discovery stage begins."""
    return SCENARIO_TAX.redone_s


# ---- Act II · The iteration race -------------------------------------------------------

# the iteration cycles (hours) each model may be given
SMALL_CYCLES = ("1", "2", "4", "8", "12", "24", "48", "168")
LARGE_CYCLES = ("1", "4", "12", "24", "72", "168", "336")


def learners(small_cycle_s: float, large_cycle_s: float, decay: float) -> tuple[w.Learner, w.Learner]:
    small = w.Learner(S.small_start, S.small_gain, decay, small_cycle_s, S.cap)
    large = w.Learner(S.large_start, S.large_gain, decay, large_cycle_s, S.cap)
    return small, large


@dataclass(frozen=True)
class Race:
    small: w.Learner
    large: w.Learner
    window_s: float

    @property
    def crossover_s(self) -> float:
        return w.crossover_s(self.small, self.large, self.window_s)

    def final(self, learner: w.Learner) -> float:
        return w.accuracy_at_s(learner, self.window_s)

    def to_target_s(self, learner: w.Learner) -> float:
        return w.time_to_reach_s(learner, S.target)


SCENARIO_RACE = Race(*learners(float(S.small_cycle_h) * HOUR, float(S.large_cycle_h) * HOUR, S.decay), S.window_s)
UPSTREAM_RACE = Race(*learners(float(S.small_cycle_h) * HOUR, float(S.large_cycle_h) * HOUR, S.upstream_decay),
                     S.window_s)
DAILY_RACE = Race(*learners(24 * HOUR, float(S.large_cycle_h) * HOUR, S.decay), S.window_s)


def act2_truth() -> float:
    """When the hourly small model first draws level with the weekly large one (s), at the scenario's inputs."""
    return SCENARIO_RACE.crossover_s


def sample_times(window_s: float) -> list[float]:
    """Hours from one to the end of the window, evenly spaced on a log axis."""
    top, last = math.log10(window_s / HOUR), S.chart_points - 1
    return [10 ** (top * i / last) * HOUR for i in range(S.chart_points)]


def race_times(r: Race) -> list[float]:
    """The race chart's sample times, with the crossover among them so the curves meet on the chart."""
    times = sample_times(r.window_s)
    if math.isfinite(r.crossover_s) and r.crossover_s > 0:
        times = sorted({*times, r.crossover_s})
    return times


# ---- the race in words (cards, gates and the cycle menus) ---------------------------------------


def cycle_label(hours: str) -> str:
    """A cycle menu's label: "1 week (168 h)", "1 day (24 h)", "8 hours"."""
    h = float(hours)
    for unit, per_unit in (("week", S.week_s / HOUR), ("day", 24)):
        if h % per_unit == 0:
            n = h / per_unit
            return f"{fmt(n, 'num')} {unit}{'s' if n != 1 else ''} ({fmt(h * HOUR, 'h')})"
    return f"{fmt(h, 'num')} hour{'s' if h != 1 else ''}"


def crossover_note(r: Race) -> str:
    if r.crossover_s == 0:
        return "ahead from the start"
    if math.isfinite(r.crossover_s):
        return f"week {math.floor(r.crossover_s / S.week_s) + 1} of {fmt(r.window_s, 'weeks')}"
    if w.accuracy_ceiling(r.small) < r.large.start:
        return "it saturates first"
    return "not within the window"


def when(seconds: float) -> str:
    """A time the race may never reach (no crossover, a target above the ceiling), in words then."""
    return fmt(seconds, "h") if math.isfinite(seconds) else "never"
