"""The ML workflow as arithmetic: what a late-found constraint costs, and how iteration speed races
model quality (handbook/labs/v1_03.md).

Stage durations and times are in seconds; accuracies are fractions (0.95 is 95 %). A stage index
``stage`` counts from 1 (problem definition) to the number of stages (six in the chapter).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from pylabs.physics.validators import check

SECONDS_PER_DAY = 86400.0
_EPS = 1e-12  # accuracy tolerance: a value within this of a target has reached it


# ---- the constraint tax: a constraint found at stage N --------------------------------------


def _check_stage(stage_durations_s: Sequence[float], stage: int) -> None:
    check(1 <= stage <= len(stage_durations_s),
          f"stage {stage} is outside 1..{len(stage_durations_s)}; pick a stage of the workflow")


def stage_cost_multiplier(stage: int) -> float:
    """Cost to fix a constraint found at stage N relative to stage 1: m = 2^(N−1) (a heuristic).
    Source: Machine Learning Systems (Janapa Reddi et al.), ML Workflow chapter, constraint propagation."""
    if stage < 1:
        raise ValueError(f"stage {stage} must be at least 1")
    return 2.0 ** (stage - 1)


def discovery_time_s(stage_durations_s: Sequence[float], stage: int) -> float:
    """When stage N begins, i.e. when a constraint checked only at stage N surfaces: Σ_{i<N} d_i.
    Source: handbook/labs/v1_03.md §2."""
    _check_stage(stage_durations_s, stage)
    return float(sum(stage_durations_s[:stage - 1]))


def invalidated_time_s(stage_durations_s: Sequence[float], stage: int) -> float:
    """Work that must be redone when a stage-1 constraint surfaces at the start of stage N:
    W = Σ_{i=2..N−1} d_i. Problem definition stands; every stage from data collection up to the one
    before N was built for the wrong target. Stage N has not begun when the constraint surfaces, so
    none of it is redone (handbook/errata.md#e4: the spec's Σ_{i=2..N} counted stage N, giving 140
    days at N = 5 where 130 are redone; upstream summed the stages from N onward, 15 days)."""
    _check_stage(stage_durations_s, stage)
    return float(sum(stage_durations_s[1:max(1, stage - 1)]))


@dataclass(frozen=True)
class ConstraintTax:
    """What a constraint first checked at ``stage`` costs: the heuristic multiplier, the work redone,
    when it surfaces, and the planned length of the project (seconds)."""

    stage: int
    multiplier: float
    redone_s: float
    found_s: float
    project_s: float

    @property
    def share(self) -> float:
        """Share of the planned project that is redone."""
        return self.redone_s / self.project_s


def constraint_tax(stage_durations_s: Sequence[float], stage: int) -> ConstraintTax:
    """m = 2^(N−1), W = Σ_{i=2..N−1} d_i and D = Σ_{i<N} d_i for a constraint found as stage N begins.
    Source: handbook/labs/v1_03.md §2."""
    return ConstraintTax(stage, stage_cost_multiplier(stage), invalidated_time_s(stage_durations_s, stage),
                         discovery_time_s(stage_durations_s, stage), float(sum(stage_durations_s)))


# ---- the iteration race -----------------------------------------------------------------------


@dataclass(frozen=True)
class Learner:
    """A model improved by repeated iterations: it starts at ``start``, the k-th iteration adds
    ``gain``·``decay``^(k−1) (diminishing returns when decay < 1), accuracy never exceeds ``cap``,
    and one iteration takes ``cycle_s``."""

    start: float
    gain: float
    decay: float
    cycle_s: float
    cap: float = 1.0

    def __post_init__(self) -> None:
        if not 0 < self.decay <= 1:
            raise ValueError(f"decay {self.decay} must be in (0, 1]; 1 means no diminishing returns")
        if self.cycle_s <= 0:
            raise ValueError(f"cycle_s {self.cycle_s} must be positive")


def accuracy_after(learner: Learner, iterations: float) -> float:
    """A(k) = min(cap, A0 + g·(1 − r^k)/(1 − r)); A0 + g·k when r = 1.
    Source: geometric series of per-iteration gains g·r^(k−1); handbook/labs/v1_03.md §2."""
    r = learner.decay
    total = learner.gain * iterations if r == 1 else learner.gain * (1 - r ** iterations) / (1 - r)
    return min(learner.cap, learner.start + total)


def accuracy_at_s(learner: Learner, time_s: float) -> float:
    """Accuracy after the iterations completed by ``time_s``: A(⌊t / t_cycle⌋).
    Source: handbook/labs/v1_03.md §2."""
    return accuracy_after(learner, math.floor(time_s / learner.cycle_s + 1e-9))


def accuracy_ceiling(learner: Learner) -> float:
    """Where the improvements lead with unlimited iterations: min(cap, A0 + g/(1 − r)).
    Source: sum of the geometric series; handbook/labs/v1_03.md §2."""
    if learner.decay == 1:
        return learner.cap if learner.gain > 0 else learner.start
    return min(learner.cap, learner.start + learner.gain / (1 - learner.decay))


def iterations_to_reach(learner: Learner, target: float) -> float:
    """The fewest iterations k with A(k) ≥ target: ⌈ln(1 − ΔA(1 − r)/g) / ln r⌉, ⌈ΔA/g⌉ when r = 1;
    infinity when the target lies above the ceiling. Source: inverting A(k); handbook/labs/v1_03.md §2."""
    need = target - learner.start
    if need <= _EPS:
        return 0.0
    if target > accuracy_ceiling(learner) + _EPS or learner.gain <= 0:
        return math.inf
    r = learner.decay
    if r == 1:
        k = math.ceil(need / learner.gain - 1e-9)
    else:
        left = 1 - need * (1 - r) / learner.gain
        if left <= 0:
            return math.inf
        k = math.ceil(math.log(left) / math.log(r) - 1e-9)
    # the closed form can land one off in floating point: settle on the exact first iteration
    while k > 0 and accuracy_after(learner, k - 1) >= target - _EPS:
        k -= 1
    while accuracy_after(learner, k) < target - _EPS:
        k += 1
    return float(k)


def time_to_reach_s(learner: Learner, target: float) -> float:
    """Wall-clock time to reach ``target``: k*·t_cycle (infinity if never). Source: handbook/labs/v1_03.md §2."""
    return iterations_to_reach(learner, target) * learner.cycle_s


def crossover_s(chaser: Learner, leader: Learner, horizon_s: float) -> float:
    """The first time t ≤ horizon at which the chaser's accuracy equals or passes the leader's, both
    stepping up at the end of each of their own cycles; infinity if it does not happen by then.
    Source: handbook/labs/v1_03.md §2 (crossover time of the iteration race)."""
    if chaser.start >= leader.start - _EPS:
        return 0.0
    intervals = math.floor(horizon_s / leader.cycle_s + 1e-9)
    j = 0
    while j <= intervals:
        k = iterations_to_reach(chaser, accuracy_after(leader, j))
        if math.isinf(k):
            return math.inf  # the leader only climbs from here, so the chaser never catches it
        when = max(k * chaser.cycle_s, j * leader.cycle_s)
        if when > horizon_s + 1e-9:
            return math.inf
        if when < (j + 1) * leader.cycle_s:
            return when
        # before ``when`` the chaser is below the leader's level of interval j, and the leader never
        # drops: skip to the leader's interval that holds ``when``
        j = math.floor(when / leader.cycle_s + 1e-9)
    return math.inf


# ---- retraining on a battery ---------------------------------------------------------------------


def daily_retraining_energy_j(cycle_s: float, train_s: float, power_w: float) -> float:
    """Energy a device spends retraining per day: E = (24 h / t_cycle)·P·min(t_train, t_cycle)
    (a run cannot last longer than its cycle). Source: handbook/labs/v1_03.md §2 (mobile energy)."""
    if cycle_s <= 0:
        raise ValueError(f"cycle_s {cycle_s} must be positive")
    return SECONDS_PER_DAY / cycle_s * power_w * min(train_s, cycle_s)
