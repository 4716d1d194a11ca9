"""The scenario and model of V1-12 (The Speedup Ceiling): the job on N workers (Amdahl's fixed job and
Gustafson's scaled one) and the two vendors' batch costs, throughputs and crossover. The lab module
(``v1_12``) reads like its page; this is its model.
"""

from __future__ import annotations

from dataclasses import dataclass

import math

from pylabs.physics import amdahl
from pylabs.physics import constants as C


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs (pedagogical defaults, not hardware facts)."""

    one_worker_s: float = 100 * 3600.0   # the job on one device
    serial: float = 0.15                 # share of the one-device time that stays on rank 0
    workers: float = 64.0
    big_cluster: float = 1024.0          # Act I reflection: sixteen times the GPUs
    async_serial: float = 0.10           # Act I reflection: the serial share left by asynchronous checkpoints
    a_fixed_s: float = 2.0e-3            # vendor A: fixed time per batch
    a_per_sample_s: float = 0.100e-3     # vendor A: time per sample
    b_lead_at_one: float = 1.2           # production pilot: B serves 20 % more at batch 1
    score_a: float = 85.0                # the synthetic benchmark's scores (Offline, batch 32)
    score_b: float = 72.0
    bench_batch: float = 32.0
    prod_batch: float = 1.0
    curve_px: int = 340                  # chart heights
    bars_px: int = 220


S = Scenario()
WORKER_TICKS = [2.0 ** k for k in range(11)]     # 1 … 1,024 workers
BATCH_TICKS = [2.0 ** k for k in range(9)]       # 1 … 256 samples per batch


def padded(ticks: list[float]) -> list[float]:
    """A log axis's range (in log10 units) that keeps the first and last ticks and their labels inside."""
    return [math.log10(ticks[0]) - 0.08, math.log10(ticks[-1]) + 0.08]


def rated_power_w(context: str) -> float:
    """The device's rated power from the registry: the H100's TDP, the Orin NX's highest mode."""
    return C.H100_TDP_W if context == "cloud" else C.ORIN_NX_POWER_MAX_W

# ---- Act I · The speedup ceiling -------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """The job on N workers, in the chosen mode."""

    serial: float
    workers: float
    efficiency: float
    scaled: bool

    @property
    def e(self) -> float:
        return 1.0 if self.workers == 1 else self.efficiency

    @property
    def amdahl(self) -> float:
        return amdahl.parallel_speedup(self.serial, self.workers, self.e)

    @property
    def gustafson(self) -> float:
        return amdahl.gustafson_speedup(self.serial, self.workers, self.e)

    @property
    def speedup(self) -> float:
        return self.gustafson if self.scaled else self.amdahl

    @property
    def wall_s(self) -> float:
        """Wall clock of the N-worker run: the fixed job shrinks; the scaled job keeps its time."""
        return S.one_worker_s if self.scaled else S.one_worker_s / self.amdahl

    @property
    def run_serial_share(self) -> float:
        """The serial share of the N-worker run's wall clock (Gustafson's s)."""
        return self.serial if self.scaled else amdahl.serial_share_of_parallel_run(self.serial, self.workers, self.e)

    def hours(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """(serial, parallel) seconds on one device and on N devices, for the same work."""
        serial = self.serial * S.one_worker_s
        one = S.one_worker_s * (self.speedup if self.scaled else 1.0)
        return (serial, one - serial), (serial, self.wall_s - serial)


def act1_truth() -> float:
    return amdahl.parallel_speedup(S.serial, S.workers)


def fixed_run(serial: float | None = None, workers: float | None = None, efficiency: float = 1.0) -> Run:
    """The scenario's fixed job, or it with one setting changed (the reflection's proposals)."""
    return Run(S.serial if serial is None else serial, S.workers if workers is None else workers, efficiency, False)


def serial_for(speedup: float, workers: float | None = None) -> float:
    """The serial share that gives ``speedup`` on ``workers`` (the scenario's when None; Amdahl solved for s)."""
    workers = S.workers if workers is None else workers
    return (1 / speedup - 1 / workers) / (1 - 1 / workers)


def workers_for(speedup: float, serial: float | None = None) -> float:
    """The workers that give ``speedup`` at ``serial`` (the scenario's when None; Amdahl solved for N,
    whole devices). Only below the ceiling 1/s."""
    serial = S.serial if serial is None else serial
    assert speedup < 1 / serial, "no number of workers reaches the ceiling"
    return math.ceil(round((1 - serial) / (1 / speedup - serial), 9))


# ---- Act II · The benchmark that ranks backwards ---------------------------------------


def vendor_b_costs() -> tuple[float, float]:
    """B's (fixed, per-sample) seconds: the line through the two stated measurements. They are
    ratios to A, so they fix B's costs only together with A's stated costs: with r = t0/t1 of A,
    b* = 1 + 372(r + 1)/(25r + 428) (9.418 at the scenario's r = 20)."""
    a1 = amdahl.batch_latency_s(S.prod_batch, S.a_fixed_s, S.a_per_sample_s)
    a32 = amdahl.batch_latency_s(S.bench_batch, S.a_fixed_s, S.a_per_sample_s)
    return amdahl.batch_costs_through(S.prod_batch, a1 / S.b_lead_at_one,
                                      S.bench_batch, a32 * S.score_a / S.score_b)


VENDORS = {"A": (S.a_fixed_s, S.a_per_sample_s), "B": vendor_b_costs()}


def throughput(vendor: str, batch: float) -> float:
    return amdahl.batch_throughput_per_s(batch, *VENDORS[vendor])


def ratio_b_over_a(batch: float) -> float:
    return throughput("B", batch) / throughput("A", batch)


def crossover() -> float:
    return amdahl.throughput_crossover_batch(*VENDORS["A"], *VENDORS["B"])


def rank_valid(bench: float, prod: float) -> bool:
    """Does the benchmark's batch put the same vendor ahead as production's batch does?"""
    return (ratio_b_over_a(bench) > 1) == (ratio_b_over_a(prod) > 1)


def act2_truth() -> float:
    return crossover()
