"""Amdahl's law: speeding up one or several parts of a step.

A fraction f of the step time is made k times faster; the rest is unchanged. A factor
below 1 is a slowdown and is allowed.
Source: Amdahl 1967, "Validity of the single processor approach to achieving large scale
computing capabilities"; AUDIT section 5c.
"""

import math
from collections.abc import Sequence

_SUM_TOLERANCE = 1e-9


def _require(ok: bool, name: str, value: object, rule: str, fix: str) -> None:
    """Raise ValueError naming the parameter, its value and the fix unless ok."""
    if not ok:
        raise ValueError(f"{name} must be {rule} (got {value!r}); {fix}")


def _check_fraction(name: str, fraction: float) -> None:
    _require(0 <= fraction <= 1, name, fraction, "in [0, 1]",
             "pass the share of step time the component takes, e.g. 0.45 for 45 %")


def _check_factor(name: str, factor: float) -> None:
    _require(factor > 0, name, factor, "> 0",
             "pass how many times faster the component becomes (1 = unchanged)")


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

    Source: Amdahl 1967, applied per component of a step profile (AUDIT section 5c).
    """
    _require(len(fractions) == len(factors), "factors", list(factors),
             f"the same length as fractions ({len(fractions)})",
             "pass one speedup factor per component")
    for index, (fraction, factor) in enumerate(zip(fractions, factors)):
        _check_fraction(f"fractions[{index}]", fraction)
        _check_factor(f"factors[{index}]", factor)
    total = math.fsum(fractions)
    _require(total <= 1 + _SUM_TOLERANCE, "sum(fractions)", total, "<= 1",
             "the components are shares of one step; rescale them to sum to 1")
    new_time = max(0.0, 1 - total) + math.fsum(f / k for f, k in zip(fractions, factors))
    return _inverse(new_time)


def time_reduction(fraction: float, factor: float) -> float:
    """dT/T = f * (1 - 1/k)  (share of step time saved; the throughput gain is S - 1).

    Source: Amdahl 1967 (AUDIT section 5b row 1: 8 % less time is 8.7 % more throughput).
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
