"""Amdahl's law: speeding up one or several parts of a step.

A fraction f of the step time is made k times faster; the rest is unchanged. A factor
below 1 is a slowdown and is allowed.
Source: Amdahl 1967, "Validity of the single processor approach to achieving large scale
computing capabilities"; handbook/labs/v2_09.md §2.
"""

import math
from collections.abc import Sequence

from pylabs.physics.validators import require, require_fraction, require_positive, require_positive_fraction

_SUM_TOLERANCE = 1e-9


def _check_fraction(name: str, fraction: float) -> None:
    require_fraction(name, fraction, "pass the share of step time the component takes, e.g. 0.45 for 45 %")


def _check_factor(name: str, factor: float) -> None:
    require_positive(name, factor, "pass how many times faster the component becomes (1 = unchanged)")


def _inverse(new_time: float) -> float:
    """1 / new_time, or math.inf when every part became infinitely fast."""
    return math.inf if new_time == 0 else 1 / new_time


def amdahl_speedup(fraction: float, factor: float) -> float:
    """S = 1 / ((1 - f) + f/k).

    Source: Amdahl 1967.
    """
    _check_fraction("fraction", fraction)
    _check_factor("factor", factor)
    return _inverse(1 - fraction + fraction / factor)


def amdahl_multi(fractions: Sequence[float], factors: Sequence[float]) -> float:
    """S = 1 / ((1 - sum f_i) + sum f_i/k_i)  (= 1 / sum f_i/k_i when the f_i sum to 1).

    Source: Amdahl 1967, applied per component of a step profile (handbook/labs/v2_09.md §2).
    """
    require(len(fractions) == len(factors), "factors", list(factors),
            f"the same length as fractions ({len(fractions)})",
            "pass one speedup factor per component")
    for index, (fraction, factor) in enumerate(zip(fractions, factors)):
        _check_fraction(f"fractions[{index}]", fraction)
        _check_factor(f"factors[{index}]", factor)
    total = math.fsum(fractions)
    require(total <= 1 + _SUM_TOLERANCE, "sum(fractions)", total, "<= 1",
            "the components are shares of one step; rescale them to sum to 1")
    new_time = max(0.0, 1 - total) + math.fsum(f / k for f, k in zip(fractions, factors))
    return _inverse(new_time)


def time_reduction(fraction: float, factor: float) -> float:
    """dT/T = f * (1 - 1/k)  (share of step time saved; the throughput gain is S - 1).

    Source: Amdahl 1967 (handbook/labs/v2_09.md §2: 8 % less time is 8.7 % more throughput).
    """
    _check_fraction("fraction", fraction)
    _check_factor("factor", factor)
    return fraction * (1 - 1 / factor)


def amdahl_ceiling(fraction: float) -> float:
    """S_max = 1 / (1 - f)  (k -> infinity; math.inf when f = 1).

    Source: Amdahl 1967.
    """
    _check_fraction("fraction", fraction)
    if fraction == 1:
        return math.inf
    return 1 / (1 - fraction)


# ---- V1-12 The Speedup Ceiling: N workers, Gustafson's scaled job, per-batch overhead ----
#
# A job whose serial share s (of its one-worker time) stays on one worker while the rest is split
# over N workers, each running its share at parallel efficiency e. Batching is the same law seen
# from the other side: a fixed cost per batch is the "serial" part that a larger batch amortises.


def _check_workers(workers: float) -> None:
    require(workers >= 1, "workers", workers, ">= 1", "pass how many workers share the parallel part")


def _check_efficiency(efficiency: float) -> None:
    require_positive_fraction("efficiency", efficiency,
                              "pass the share of ideal speed the parallel part keeps, e.g. 0.9")


def parallel_speedup(serial_fraction: float, workers: float, efficiency: float = 1.0) -> float:
    """S = 1 / (s + (1 - s) / (N e))  (a fixed job; s is the serial share of its one-worker time).

    Source: Amdahl 1967, with a parallel efficiency e on the parallel part (handbook/labs/v1_12.md §2).
    """
    _check_fraction("serial_fraction", serial_fraction)
    _check_workers(workers)
    _check_efficiency(efficiency)
    return amdahl_speedup(1 - serial_fraction, workers * efficiency)


def parallel_ceiling(serial_fraction: float) -> float:
    """S_max = 1 / s  (N -> infinity, whatever the efficiency; math.inf when s = 0).

    Source: Amdahl 1967.
    """
    _check_fraction("serial_fraction", serial_fraction)
    return amdahl_ceiling(1 - serial_fraction)


def serial_share_of_parallel_run(serial_fraction: float, workers: float, efficiency: float = 1.0) -> float:
    """s' = s / (s + (1 - s) / (N e)) = s * S  (the serial share of the N-worker run's wall clock).

    Source: Gustafson 1988 measures s on the parallel system; this converts Amdahl's s to it
    (handbook/labs/v1_12.md §5: s = 0.15 on 64 workers is s' = 0.919).
    """
    return serial_fraction * parallel_speedup(serial_fraction, workers, efficiency)


def gustafson_speedup(parallel_run_serial_share: float, workers: float, efficiency: float = 1.0) -> float:
    """S_G = s' + (1 - s') N e  (= N - s'(N - 1) when e = 1): how much more work N workers finish
    in the time of the N-worker run than one worker would. s' is the serial share of that run.

    Source: Gustafson 1988, "Reevaluating Amdahl's law", CACM 31(5).
    """
    _check_fraction("parallel_run_serial_share", parallel_run_serial_share)
    _check_workers(workers)
    _check_efficiency(efficiency)
    return parallel_run_serial_share + (1 - parallel_run_serial_share) * workers * efficiency


def batch_latency_s(batch: float, fixed_s: float, per_sample_s: float) -> float:
    """L(b) = t0 + b t1  (a fixed cost per batch, launch and weight reads, plus a cost per sample).

    Source: the usual linear batch-cost model (handbook/labs/v1_12.md §2, Act II).
    """
    require(batch >= 1, "batch", batch, ">= 1", "pass the number of samples in one batch")
    require(fixed_s >= 0, "fixed_s", fixed_s, ">= 0", "pass the fixed time per batch in seconds")
    require(per_sample_s > 0, "per_sample_s", per_sample_s, "> 0", "pass the time per sample in seconds")
    return fixed_s + batch * per_sample_s


def batch_throughput_per_s(batch: float, fixed_s: float, per_sample_s: float) -> float:
    """Θ(b) = b / (t0 + b t1)  (samples per second; it rises towards the ceiling 1 / t1).

    Source: handbook/labs/v1_12.md §2: Amdahl's law with the per-batch overhead as the serial part.
    """
    return batch / batch_latency_s(batch, fixed_s, per_sample_s)


def batch_costs_through(batch_1: float, latency_1_s: float, batch_2: float, latency_2_s: float
                        ) -> tuple[float, float]:
    """(t0, t1) of the line L(b) = t0 + b t1 through two measured batch latencies.

    Source: two-point fit of the linear batch-cost model (handbook/labs/v1_12.md §2 defaults for vendor B).
    """
    require(batch_2 != batch_1, "batch_2", batch_2, f"different from batch_1 ({batch_1!r})",
            "measure the latency at two batch sizes")
    per_sample = (latency_2_s - latency_1_s) / (batch_2 - batch_1)
    return latency_1_s - batch_1 * per_sample, per_sample


def throughput_crossover_batch(fixed_a_s: float, per_sample_a_s: float, fixed_b_s: float,
                               per_sample_b_s: float) -> float:
    """b* = (t0_A - t0_B) / (t1_B - t1_A): the batch at which two devices' throughputs tie
    (math.inf when their per-sample costs are equal: the ranking never changes with batch).

    Source: equate b / (t0_A + b t1_A) and b / (t0_B + b t1_B) (handbook/labs/v1_12.md §2).
    """
    if per_sample_b_s == per_sample_a_s:
        return math.inf
    return (fixed_a_s - fixed_b_s) / (per_sample_b_s - per_sample_a_s)
