"""The scenario and the model of V2-09 (You Can't Optimize What You Can't Measure): Act I's profile
and Amdahl gains, and Act II's plans of lever settings with their one cost model, the best single fix
and the constants the questions quote. The lab module (``v2_09``) reads like its page; this is its model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import product

from pylabs.physics import amdahl, pipeline
from pylabs.physics import constants as C


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs. The cost model is a pedagogical estimate, not a measurement."""

    # Act I: the attention team's profiler trace (shares of one training step)
    a1_profile: tuple = (("attention", 0.12), ("allreduce", 0.45), ("optimizer", 0.18),
                         ("data", 0.15), ("launch", 0.10))
    kernel_speedup: float = 3.0      # the new attention kernel, benchmarked alone
    kernel_weeks: float = 3.0
    # Act II: the foundation-model run
    gpus: int = 512
    params_billions: float = 70.0
    mfu: float = 0.35                # measured, with the dense BF16 peak
    compute_share: float = 0.45      # shares of one step in the Nsight trace
    allreduce_share: float = 0.30
    data_share: float = 0.10
    pp: int = 8                      # pipeline stages
    microbatches: int = 21           # per step; with PP = 8 the bubble is 15 % of the step
    prefetch_workers: int = 4
    budget_weeks: float = 8.0
    max_fixes: int = 2
    target_mfu: float = 0.50
    # The cost model in engineer-weeks (pedagogical estimates; a real team measures its own)
    interleave_weeks: float = 1.0        # switch to the interleaved schedule, v = 2, and validate
    interleave_step_weeks: float = 0.5   # each further virtual stage: rebalance layers, more P2P
    microbatch_weeks: float = 1.0        # larger global batch: re-tune the learning rate, check loss
    microbatch_doubling_weeks: float = 0.5
    compression_weeks: float = 2.0       # integrate gradient compression and validate convergence
    compression_step_weeks: float = 1.5  # per unit of compression ratio beyond 1×
    prefetch_weeks: float = 1.0          # a parallel loader (e.g. DALI) and its tests
    prefetch_worker_weeks: float = 0.25  # per worker beyond the first four (storage tuning)
    # the levers' ranges: the Act II sliders and the search over every plan read the same grids
    microbatch_factor_max: int = 4       # [assumed] a new run may grow its global batch up to 4× (m up to 84)
    compression_max: float = 6.0
    compression_step: float = 0.5
    prefetch_workers_max: int = 16


S = Scenario()
A1_SHARES = dict(S.a1_profile)
HOTSPOT = max(A1_SHARES, key=A1_SHARES.get)


# ---- Act I · the profile and Amdahl's law ----------------------------------------


def gain(part: str, k: float) -> float:
    """Throughput gain (speed-up − 1) when ``part`` becomes k times faster."""
    return amdahl.amdahl_speedup(A1_SHARES[part], k) - 1


def ceiling_gain(part: str) -> float:
    return amdahl.amdahl_ceiling(A1_SHARES[part]) - 1


K0 = S.kernel_speedup
TIME_CUT = amdahl.time_reduction(A1_SHARES["attention"], K0)
AR_LEFT = 1 / amdahl.amdahl_speedup(A1_SHARES["allreduce"], K0)   # the step left with a K0× faster all-reduce


def act1_truth() -> float:
    return gain(HOTSPOT, K0)


# ---- Act II · plans, their cost and the best fixes ---------------------------------

LAYERS = int(C.LLAMA3_70B_LAYERS)
PER_STAGE = LAYERS // S.pp
V_OPTIONS = pipeline.interleave_degrees(LAYERS, S.pp)   # v that cut each stage into equal chunks
GROUP = pipeline.interleaved_group_size(S.pp, S.microbatches)


def lever_weeks(lever: str, setting: float) -> float:
    """Engineer-weeks one lever costs at one setting: the lab's single cost model (pedagogical estimates)."""
    if lever == "interleave":
        return 0.0 if setting <= 1 else S.interleave_weeks + S.interleave_step_weeks * (setting - 2)
    if lever == "microbatches":
        doublings = math.log2(setting / S.microbatches)
        return 0.0 if doublings <= 0 else S.microbatch_weeks + S.microbatch_doubling_weeks * doublings
    if lever == "compression":
        return 0.0 if setting <= 1 else S.compression_weeks + S.compression_step_weeks * (setting - 1)
    if lever == "prefetch":
        extra = setting - S.prefetch_workers
        return 0.0 if extra <= 0 else S.prefetch_weeks + S.prefetch_worker_weeks * extra
    raise ValueError(f"unknown lever {lever!r}; use interleave, microbatches, compression or prefetch")


PARTS = ("compute", "allreduce", "bubble", "data")
BASE = {"compute": S.compute_share, "allreduce": S.allreduce_share,
        "bubble": S.compute_share * pipeline.bubble_over_ideal(S.pp, S.microbatches), "data": S.data_share}


@dataclass(frozen=True)
class Plan:
    """A set of lever settings; everything else follows from the profile and the one cost model."""

    v: int = 1
    m: int = S.microbatches
    k: float = 1.0
    workers: int = S.prefetch_workers

    @cached_property
    def factors(self) -> dict[str, float]:
        """How many times less time each part takes per unit of work. The gradient all-reduce runs once
        per step: m/21 times the micro-batches at a fixed micro-batch size spread it over m/21 times the
        work (gradient accumulation), besides the compression k (handbook/labs/v2_09.md §2: doubling m at a fixed
        micro-batch doubles the tokens per step)."""
        return {"compute": 1.0, "allreduce": self.k * self.m / S.microbatches,
                "bubble": BASE["bubble"] / self.bubble_share(),
                "data": math.sqrt(self.workers / S.prefetch_workers)}

    def bubble_share(self) -> float:
        return S.compute_share * pipeline.bubble_over_ideal(S.pp, self.m, self.v)

    def shares(self) -> dict[str, float]:
        return {p: f / self.factors[p] for p, f in BASE.items()}

    @cached_property
    def speedup(self) -> float:
        return amdahl.amdahl_multi(list(BASE.values()), [self.factors[p] for p in BASE])

    @property
    def mfu(self) -> float:
        return S.mfu * self.speedup

    @cached_property
    def costs(self) -> dict[str, float]:
        return {"bubble": lever_weeks("interleave", self.v) + lever_weeks("microbatches", self.m),
                "allreduce": lever_weeks("compression", self.k), "data": lever_weeks("prefetch", self.workers)}

    @property
    def weeks(self) -> float:
        return math.fsum(self.costs.values())

    @property
    def fixes(self) -> int:
        return sum(1 for w in self.costs.values() if w > 0)

    @property
    def roi(self) -> float:
        return (self.mfu - S.mfu) / self.weeks if self.weeks else 0.0

    def meets_target(self) -> bool:
        high = self.mfu > S.target_mfu or math.isclose(self.mfu, S.target_mfu)
        return high and self.fixes <= S.max_fixes and self.weeks <= S.budget_weeks

    @property
    def lever(self) -> str:
        """The one lever a single-fix plan moves: v, m, k or w ("" for none or several)."""
        moved = [n for n, on in (("v", self.v > 1), ("m", self.m != S.microbatches), ("k", self.k > 1),
                                 ("w", self.workers != S.prefetch_workers)) if on]
        return moved[0] if len(moved) == 1 else ""

    def alone(self) -> list["Plan"]:
        """Each fix of this plan on its own."""
        return [q for q in (Plan(v=self.v, m=self.m), Plan(k=self.k), Plan(workers=self.workers)) if q.weeks > 0]


def deepest_fixes(fresh: bool) -> list[Plan]:
    """Each lever alone at the largest setting the budget pays for (compression and prefetching
    invert the cost model beyond the sliders; interleaving takes the deepest v Megatron-LM would run;
    a new run grows m to the assumed 4× or as far as the budget goes). MFU rises with every lever's
    setting, so these are the best single fixes (a test checks it on a fine grid)."""
    spare = {"compression": (S.budget_weeks - S.compression_weeks) / S.compression_step_weeks,
             "prefetch": (S.budget_weeks - S.prefetch_weeks) / S.prefetch_worker_weeks,
             "microbatches": (S.budget_weeks - S.microbatch_weeks) / S.microbatch_doubling_weeks}
    v = max(x for x in V_OPTIONS if lever_weeks("interleave", x) <= S.budget_weeks)
    m = min(S.microbatch_factor_max, 2 ** spare["microbatches"]) * S.microbatches
    return [Plan(v=v)] + ([Plan(m=int(m))] if fresh else []) + [
        Plan(k=1 + spare["compression"]), Plan(workers=S.prefetch_workers + int(spare["prefetch"]))]


@lru_cache(maxsize=None)
def best_single_fix(fresh: bool) -> Plan:
    """The one-lever plan with the highest MFU inside the budget, any lever the context allows."""
    return max(deepest_fixes(fresh), key=lambda p: p.mfu)


def act2_truth(context: str) -> float:
    return best_single_fix(context == "fresh").mfu


HALF_BUBBLE, HALF_ALLREDUCE = Plan(v=2), Plan(k=2)


def combination_path(p: Plan) -> list[tuple[float, float]]:
    """The plan built one fix at a time, the best return per week first."""
    alone = sorted(p.alone(), key=lambda q: -q.roi)
    points, done = [(0.0, S.mfu)], Plan()
    for q in alone:
        done = Plan(max(done.v, q.v), max(done.m, q.m), max(done.k, q.k), max(done.workers, q.workers))
        points.append((done.weeks, done.mfu))
    return points


# ---- Act II · the search over every plan the sliders allow ---------------------------


def grid(low: float, high: float, step: float) -> list[float]:
    """The values a slider from ``low`` to ``high`` in steps of ``step`` can take."""
    return [low + i * step for i in range(round((high - low) / step) + 1)]


M_GRID = grid(S.microbatches, S.microbatch_factor_max * S.microbatches, S.microbatches)
K_GRID = grid(1, S.compression_max, S.compression_step)
W_GRID = grid(S.prefetch_workers, S.prefetch_workers_max, 1)


@lru_cache(maxsize=None)
def all_plans(fresh: bool) -> tuple[Plan, ...]:
    ms = M_GRID if fresh else [S.microbatches]
    return tuple(Plan(int(v), int(m), k, int(w)) for v, m, k, w in product(V_OPTIONS, ms, K_GRID, W_GRID))


def fix_parts(p: Plan) -> frozenset[str]:
    """The parts of the step a plan works on: one fix each (bubble, all-reduce, data loading)."""
    return frozenset(part for part, weeks in p.costs.items() if weeks > 0)


@lru_cache(maxsize=None)
def target_reachable_with(parts: frozenset[str], fresh: bool) -> bool:
    """Whether some plan the sliders allow, working on no part outside ``parts``, meets the target."""
    return any(q.meets_target() and fix_parts(q) <= parts for q in all_plans(fresh))


def drops_that_keep_the_target(p: Plan, fresh: bool) -> list[str]:
    """The fixes of ``p`` that can be dropped while the others, taken further, still meet the target."""
    parts = fix_parts(p)
    return [x for x in PARTS if x in parts and target_reachable_with(parts - {x}, fresh)]


@lru_cache(maxsize=None)
def cheapest_target_plan(fresh: bool = False) -> Plan:
    """The plan that meets the target (MFU, at most two fixes, inside the budget) for the fewest weeks."""
    return min((p for p in all_plans(fresh) if p.meets_target()), key=lambda p: (p.weeks, -p.mfu))
