"""Activation layers and the memory they need: elementwise time on a roofline, and a
convolutional pyramid's activation ledger.

An activation function applies the same short formula to every element of a feature map.
Unfused, it reads each element once and writes it once, so its time is the larger of its
arithmetic and its memory traffic (Williams et al. 2009). Arithmetic per element is counted
as simple operations (add, multiply, compare, divide); an exponential costs ``exp_ops`` of
them, a modelling assumption (range reduction plus a short polynomial) the labs expose.

The activation ledger follows a pyramid of feature maps in which each stage halves the side
(a stride-2 step, so a side of 7 becomes 4) and doubles the channels. Inference keeps only
the map being read and the map being written; training keeps every map for the backward pass.

Source: handbook/labs/v1_05.md §2; Williams, Waterman and Patterson 2009.
"""

from __future__ import annotations

import math
from typing import Sequence

from pylabs.physics.validators import check

KIB_BYTES = 1024  # a kibibyte (IEC 80000-13); on-chip buffers are quoted in KiB and MiB

# Operations per element besides the exponentials, and how many exponentials (handbook/labs/v1_05.md §2):
#   ReLU     max(0, x)                                       1 compare
#   Leaky    x if x > 0 else a·x                             1 compare + 1 multiply
#   sigmoid  1 / (1 + e^(−x))                                exp + add + divide
#   tanh     (e^(2x) − 1) / (e^(2x) + 1)                     exp + multiply + subtract + add + divide
#   GELU     0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))      tanh + 8 (two multiplies for x³, one for the
#            (Hendrycks and Gimpel 2016, tanh form)          coefficient, add, scale, add 1, times x, times 0.5)
ACTIVATIONS: dict[str, tuple[int, int]] = {  # name -> (plain operations, exponentials)
    "relu": (1, 0),
    "leaky_relu": (2, 0),
    "sigmoid": (2, 1),
    "tanh": (4, 1),
    "gelu": (12, 1),
}


def activation_ops_per_element(function: str, exp_ops: float) -> float:
    """Simple operations per element: plain operations + exponentials × ``exp_ops``.
    Source: handbook/labs/v1_05.md §2; GELU's tanh form from Hendrycks and Gimpel 2016."""
    check(function in ACTIVATIONS, f"unknown activation {function!r}; use one of {sorted(ACTIVATIONS)}")
    check(exp_ops > 0, f"exp_ops must be > 0 (got {exp_ops!r}); an exponential costs at least one operation")
    plain, exps = ACTIVATIONS[function]
    return plain + exps * exp_ops


def elementwise_compute_s(elements: float, ops_per_element: float, peak_ops: float) -> float:
    """Arithmetic time of an elementwise pass: n · ops / R.
    Source: Williams, Waterman and Patterson 2009 (the compute roof)."""
    check(peak_ops > 0, f"peak_ops must be > 0 (got {peak_ops!r})")
    return elements * ops_per_element / peak_ops


def elementwise_memory_s(elements: float, bytes_per_value: float, mem_bw: float) -> float:
    """Traffic time of an unfused elementwise pass, one read and one write per element: n · 2b / BW.
    Source: Williams, Waterman and Patterson 2009 (the memory roof)."""
    check(mem_bw > 0, f"mem_bw must be > 0 (got {mem_bw!r})")
    return elements * 2 * bytes_per_value / mem_bw


def elementwise_layer_s(elements: float, ops_per_element: float, bytes_per_value: float,
                        peak_ops: float, mem_bw: float, fused: bool = False) -> float:
    """Time of one activation layer: max(n·ops/R, n·2b/BW); fused into the previous layer's
    epilogue it moves no extra bytes and costs n·ops/R.
    Source: handbook/labs/v1_05.md §2; Williams, Waterman and Patterson 2009."""
    compute = elementwise_compute_s(elements, ops_per_element, peak_ops)
    if fused:
        return compute
    return max(compute, elementwise_memory_s(elements, bytes_per_value, mem_bw))


def elementwise_crossover_ops(bytes_per_value: float, peak_ops: float, mem_bw: float) -> float:
    """Operations per element above which an unfused elementwise pass is compute-bound:
    the ridge point R / BW times the 2b bytes each element moves.
    Source: Williams, Waterman and Patterson 2009 (ridge point)."""
    check(mem_bw > 0, f"mem_bw must be > 0 (got {mem_bw!r})")
    return peak_ops / mem_bw * 2 * bytes_per_value


# ---- the activation ledger of a feature-map pyramid ------------------------------------


def feature_map_bytes(side: float, channels: float, bytes_per_value: float, batch: float = 1) -> float:
    """Bytes of one square feature map: b · H² · C · B.
    Source: handbook/labs/v1_05.md §2."""
    return bytes_per_value * side * side * channels * batch


def pyramid_shapes(image_side: int, first_channels: int, stages: int = 6) -> list[tuple[int, int]]:
    """(side, channels) of each stage's output map: the side halves (rounded up, as a stride-2
    step with padding does) and the channels double.
    Source: handbook/labs/v1_05.md §2, §5."""
    check(image_side >= 1 and first_channels >= 1 and stages >= 1,
          f"image_side, first_channels and stages must be >= 1 (got {image_side}, {first_channels}, {stages})")
    return [(math.ceil(image_side / 2 ** k), first_channels * 2 ** k) for k in range(stages)]


def pyramid_map_bytes(image_side: int, first_channels: int, bytes_per_value: float, batch: float,
                      stages: int = 6) -> list[float]:
    """Bytes of each stage's output map for a batch.
    Source: handbook/labs/v1_05.md §2."""
    return [feature_map_bytes(side, channels, bytes_per_value, batch)
            for side, channels in pyramid_shapes(image_side, first_channels, stages)]


def working_sets(map_bytes: Sequence[float]) -> list[float]:
    """Bytes a layer touches at once: the map it reads plus the map it writes, A_l + A_(l+1).
    Source: handbook/labs/v1_05.md §2."""
    return [a + b for a, b in zip(map_bytes, map_bytes[1:])]


def peak_live_bytes(map_bytes: Sequence[float], training: bool) -> float:
    """Peak activation memory: inference max_l(A_l + A_(l+1)) (one map can be freed once the
    next is written); training Σ_l A_l (every map is kept for the backward pass).
    Source: handbook/labs/v1_05.md §2, §5."""
    if training or len(map_bytes) < 2:
        return float(sum(map_bytes))
    return max(working_sets(map_bytes))


def spilled_layers(map_bytes: Sequence[float], onchip_bytes: float) -> list[bool]:
    """For each layer, whether its working set A_l + A_(l+1) is larger than the on-chip buffer.
    Source: handbook/labs/v1_05.md §2."""
    return [ws > onchip_bytes for ws in working_sets(map_bytes)]


def spill_traffic_bytes(map_bytes: Sequence[float], onchip_bytes: float) -> float:
    """Off-chip traffic of one pass: every spilled layer reads its input and writes its output
    through DRAM, Σ over spilled layers of A_l + A_(l+1).
    Source: handbook/labs/v1_05.md §2."""
    return float(sum(ws for ws in working_sets(map_bytes) if ws > onchip_bytes))
