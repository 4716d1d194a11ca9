"""The model of V2-08 (The Utilization Trap): the scenario, Act I's cluster as one queue of equal
gangs (Erlang C with the Allen–Cunneen factor), and Act II's three dedicated pools with the four
candidate layouts. The lab module (``v2_08``) reads like its page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from pylabs.framework import fmt
from pylabs.physics import queueing as q
from pylabs.physics import units as U


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs [A]: the spec's scenario, not hardware facts."""

    cluster_gpus: int = 1024
    job_gpus: int = 64                 # Act I: a mix dominated by 64-GPU training gangs
    service_s: float = 2 * 3600.0
    utilization: float = 0.95
    service_scv: float = 2.25          # C_s = 1.5: short and long jobs mixed
    added_gpus: int = 256
    wait_target_s: float = 1800.0      # the reflection's half-hour promise to the training gangs
    small_wait_target_s: float = 60.0  # small jobs: a one-minute promise (today's 4.29 min breaks it)
    knee_step: float = 0.01            # the knee reflection's option B names the knee in whole percent
    cautious_utilization: float = 0.6
    chart_floor_h: float = 1e-3        # waits below 3.6 s leave the log chart
    small_job_gpus: int = 8            # the "small jobs" context
    small_service_s: float = 3600.0
    small_service_scv: float = 1.0
    # Act II job classes: (GPUs per job, mean length, arrivals per second)
    interactive: tuple = (8, 1800.0, 5 / 3600.0)          # 5 an hour at peak
    interactive_per_day: float = 50.0
    search: tuple = (32, 7200.0, 20 / 86400.0)            # 20 a day
    training: tuple = (256, 18 * 3600.0, 3 / 86400.0)     # 3 a day
    interactive_wait_s: float = 300.0
    interactive_max_late: float = 0.05
    training_wait_s: float = 48 * 3600.0
    training_max_late: float = 0.2
    # the four layouts of the Act II pick: (interactive, search, training) GPUs
    layouts: tuple = ((32, 224, 768), (64, 448, 512), (48, 208, 768), (96, 416, 512))


S = Scenario()

# Act I's job mix in each context: (GPUs per job, mean length, squared coefficient of variation)
JOBS = {"gangs": (S.job_gpus, S.service_s, S.service_scv),
        "small": (S.small_job_gpus, S.small_service_s, S.small_service_scv)}

# The director's promise on the mean wait in each context: a half-hour for 2-hour gangs, a minute for
# 1-hour small jobs. With one half-hour promise for both, today's 95 % would already keep it for small
# jobs (4.29 min), and the reflection's "keep 95 %" would be a plan that works (review).
PROMISE_S = {"gangs": S.wait_target_s, "small": S.small_wait_target_s}


def hours(seconds: float) -> float:
    return seconds / U.S_PER_HOUR


def act1_pool(job_gpus: float, service_s: float, today_utilization: float, added_gpus: float,
              service_scv: float) -> q.Pool:
    """Act I: one queue of equal gangs; the demand is fixed by today's utilisation of the cluster."""
    arrival = today_utilization * S.cluster_gpus / (job_gpus * service_s)
    return q.Pool(S.cluster_gpus + added_gpus, job_gpus, arrival, service_s, service_scv)


def one_slot_wait_s(c: q.Pool) -> float:
    """The upstream model: one slot that runs one job at a time, with the job's own length, at the
    same ρ (Kingman's formula). It is not the pooled server of rate c/S (``pooled_server_wait_s``)."""
    return q.ggc_mean_wait_s(c.rho / c.service_s, c.service_s, 1, 1.0, c.service_scv)


def pooled_server_wait_s(c: q.Pool) -> float:
    """The whole cluster pooled into one fast server (mean service S/c) at the same ρ."""
    fast_s = c.service_s / c.slots
    return q.ggc_mean_wait_s(c.rho / fast_s, fast_s, 1, 1.0, c.service_scv)


def today(context: str) -> q.Pool:
    """The director's cluster in ``context``: today's GPUs at the scenario's utilisation."""
    job_gpus, service_s, scv = JOBS[context]
    return act1_pool(job_gpus, service_s, S.utilization, 0, scv)


def with_added(context: str) -> q.Pool:
    """The same demand on the cluster with Finance's added GPUs."""
    job_gpus, service_s, scv = JOBS[context]
    return act1_pool(job_gpus, service_s, S.utilization, S.added_gpus, scv)


SCENARIO = today("gangs")
MORE_GPUS = with_added("gangs")


def wait_share(after: q.Pool, before: q.Pool) -> float:
    """The mean wait after a change as a share of the wait before it (1 when neither waits)."""
    before_s = before.mean_wait_s()
    return after.mean_wait_s() / before_s if before_s > 0 else 1.0


def act1_truth(context: str) -> float:
    """Act I's answer: the mean wait with the added GPUs as a share of today's, in ``context``."""
    return wait_share(with_added(context), today(context))


def knee(context: str = "gangs") -> float:
    """The largest ρ that keeps the mean wait of ``context``'s jobs under the context's promise."""
    _, service_s, scv = JOBS[context]
    return q.max_utilization_for_wait(today(context).slots, service_s, PROMISE_S[context], 1.0, scv)


def knee_whole(context: str) -> float:
    """The knee rounded down to a whole percent, as option B of the knee reflection names it."""
    return math.floor(knee(context) / S.knee_step) * S.knee_step


def job_words(context: str) -> str:
    job_gpus, service_s, _ = JOBS[context]
    return f"{job_gpus}-GPU, {fmt(service_s, 's')}"


def terms(context: str) -> dict[str, str]:
    """The context's words in prompts and options: its jobs, its promise and its knee (every option of
    the knee reflection names a utilisation)."""
    return {"job": job_words(context), "promise": fmt(PROMISE_S[context], "s"),
            "knee_whole": fmt(knee_whole(context), "pct")}


def promise_words(wait_s: float, promise_s: float) -> str:
    """How a wait stands against the promise, in words."""
    if wait_s > promise_s:
        return f"{fmt(wait_s / promise_s, 'x')} the {fmt(promise_s, 's')} promise"
    return f"within the {fmt(promise_s, 's')} promise"


def wait_curve_s(c: q.Pool, slots: int, rhos: list[float]) -> list[float]:
    """The mean wait at each utilisation in ``rhos`` for ``slots`` slots of ``c``'s jobs. The curve does
    not depend on ``c``'s own utilisation, so a utilisation move takes it from the cache."""
    return list(_wait_curve_s(c.service_s, c.service_scv, slots, tuple(rhos)))


@lru_cache(maxsize=16)
def _wait_curve_s(service_s: float, service_scv: float, slots: int, rhos: tuple[float, ...]) -> tuple[float, ...]:
    return tuple(q.ggc_mean_wait_s(r * slots / service_s, service_s, slots, 1.0, service_scv) for r in rhos)


def class_pool(gpus: float, job_class: tuple) -> q.Pool:
    """A dedicated pool for one job class (GPUs per job, mean length, arrivals per second), M/M/c."""
    job_gpus, service_s, arrival_per_s = job_class
    return q.Pool(gpus, job_gpus, arrival_per_s, service_s)


@dataclass(frozen=True)
class Layout:
    """The cluster split into three dedicated pools, one per job class."""

    interactive_gpus: float
    search_gpus: float
    training_gpus: float

    @property
    def interactive(self) -> q.Pool:
        return class_pool(self.interactive_gpus, S.interactive)

    @property
    def search(self) -> q.Pool:
        return class_pool(self.search_gpus, S.search)

    @property
    def training(self) -> q.Pool:
        return class_pool(self.training_gpus, S.training)

    def interactive_late(self) -> float:
        return self.interactive.wait_tail(S.interactive_wait_s)

    def training_late(self) -> float:
        return self.training.wait_tail(S.training_wait_s)

    def meets_limits(self) -> bool:
        return (self.interactive_late() <= S.interactive_max_late and self.training_late() <= S.training_max_late
                and self.search.stable)


LAYOUTS = {letter: Layout(*gpus) for letter, gpus in zip("ABCD", S.layouts)}


def gpu_utilization() -> float:
    """Busy GPU-hours per day ÷ GPU-hours per day (notebooks counted at their daily volume)."""
    g_i, s_i, _ = S.interactive
    busy = g_i * s_i * S.interactive_per_day / U.S_PER_DAY
    busy += sum(g * s_len * rate for g, s_len, rate in (S.search, S.training))
    return busy / S.cluster_gpus


def act2_decide() -> str:
    """The layout that meets both limits and leaves the most GPUs to the sweeps."""
    passing = [k for k, lay in LAYOUTS.items() if lay.meets_limits()]
    return max(passing, key=lambda k: LAYOUTS[k].search_gpus)


def smallest_notebook_pool() -> float:
    """The fewest GPUs that keep the notebook promise (whole notebook jobs)."""
    g_i, s_i, r_i = S.interactive
    return q.min_servers_for_tail(r_i, s_i, S.interactive_wait_s, S.interactive_max_late) * g_i


NOTEBOOK_BUSY_GPUS = class_pool(0, S.interactive).load_erlangs * S.interactive[0]
