"""Orders of magnitude between devices, and the Iron Law terms of one inference (V1-01).

The Iron Law of an inference splits its time into moving the data, doing the arithmetic and a
fixed overhead: T = D/BW + O/R + L. Each term is computed on its own so a lab can show which
one dominates; the roofline (``devices.attainable``) is the same model with the overhead
dropped and the two terms overlapped.

Source: handbook/labs/v1_01.md §2; Williams, Waterman and Patterson 2009, 'Roofline', CACM 52(4).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

FLOP_PER_MAC = 2.0  # one multiply and one add


def ratio(a: float, b: float) -> float:
    """How many times ``a`` exceeds ``b`` (same units).
    Source: definition."""
    return a / b


def orders_of_magnitude(factor: float) -> float:
    """log10 of a ratio: 10^6 is six orders of magnitude.
    Source: definition."""
    return math.log10(factor)


def inference_flop(macs_per_sample: float, batch: float) -> float:
    """Arithmetic of one forward pass over a batch: O = 2 · MAC · b, in FLOP (or integer OP).
    Source: handbook/labs/v1_01.md §5 (a multiply-add is two operations)."""
    return FLOP_PER_MAC * macs_per_sample * batch


def weight_bytes(params: float, bytes_per_param: float) -> float:
    """Bytes of the weights at a precision: P · bytes.
    Source: definition."""
    return params * bytes_per_param


def arithmetic_intensity(flop: float, bytes_moved: float) -> float:
    """Operations per byte moved: AI = O / D.
    Source: Williams, Waterman and Patterson 2009."""
    return flop / bytes_moved


@dataclass(frozen=True)
class IronLaw:
    """The three terms of one inference's time, in seconds."""

    memory_s: float     # D / BW
    compute_s: float    # O / R
    overhead_s: float   # L: launch, driver, interrupt; not overlapped with the other two

    @property
    def total_s(self) -> float:
        """T = D/BW + O/R + L (the terms in series, an upper bound on the roofline time)."""
        return self.memory_s + self.compute_s + self.overhead_s

    @property
    def memory_over_compute(self) -> float:
        """Above 1 the data movement is the larger term: memory-bound."""
        return self.memory_s / self.compute_s

    @property
    def bound(self) -> str:
        """'memory' or 'compute': the larger of the two data-path terms (ties count as compute)."""
        return "memory" if self.memory_s > self.compute_s else "compute"


def iron_law(flop: float, bytes_moved: float, peak_ops: float, mem_bw: float, overhead_s: float = 0.0) -> IronLaw:
    """T = D/BW + O/R + L with D in bytes, BW in B/s, O in FLOP, R in FLOP/s, L in s.
    Source: handbook/labs/v1_01.md §2, the Iron Law of ML systems."""
    return IronLaw(bytes_moved / mem_bw, flop / peak_ops, overhead_s)


def crossover_batch(weight_bytes_total: float, flop_per_sample: float, peak_ops: float, mem_bw: float) -> float:
    """The batch at which compute time equals weight-streaming time, when only the weights are
    moved: b* = (D_w / BW) / (O_1 / R). Below it a batch is memory-bound, above it compute-bound.
    Source: handbook/labs/v1_01.md §2 ('the crossover batch is 1.84')."""
    return (weight_bytes_total / mem_bw) / (flop_per_sample / peak_ops)
