"""One language model on four deployment tiers: bytes at a precision, decode step, fleet and cost.

A decoded token reads every weight once and, for each sequence of the batch, its KV cache; it also
does 2 FLOP per parameter per sequence. The slower of the two sets the step (the roofline). A fleet
serving a request rate needs enough GPU-seconds for every output token, and its cost per request
is its GPU-hours over the requests served. Devices hold the weights, the KV cache of the context
window and a runtime in the memory an app may use; an MCU keeps its weights in flash and its working
memory in SRAM. SI units: bytes, seconds, FLOP/s, B/s, requests/s, US dollars.

Sources: handbook/labs/v1_16.md §2, §4; Williams, Waterman and
Patterson 2009 (roofline); Frantar et al. 2023 (GPTQ, group-wise scales); Ma et al. 2024 (BitNet
b1.58, ternary weights). The step itself is ``serving``'s (V2-10) on one GPU or device.
"""

from __future__ import annotations

import math

from pylabs.physics.validators import check

from . import serving

SECONDS_PER_HOUR = 3600.0
BITS_PER_BYTE = 8.0
_CEIL_SLACK = 1e-9  # a GPU count within this of a whole number is that number (float round-off)


def ternary_bits_per_weight() -> float:
    """log2(3) ≈ 1.585 bits: the information in one weight of {-1, 0, +1}.
    Source: Ma et al. 2024, 'The Era of 1-bit LLMs' (BitNet b1.58)."""
    return math.log2(3)


def weight_bytes(params: float, bits_per_weight: float, group_size: float = 0.0, scale_bits: float = 16.0) -> float:
    """W = P·(b + s/g)/8 bytes: b bits per weight plus one s-bit scale per group of g (g = 0: no groups).
    Source: Frantar et al. 2023 (GPTQ, group size 128 with an FP16 scale per group); handbook/labs/v1_16.md §4."""
    check(params > 0 and bits_per_weight > 0, f"params {params} and bits {bits_per_weight} must be positive")
    check(group_size >= 0, f"group_size {group_size} must be 0 (no groups) or positive")
    per_weight = bits_per_weight + (scale_bits / group_size if group_size else 0.0)
    return params * per_weight / BITS_PER_BYTE


def decode_step_s(weights_b: float, params: float, batch: float, kv_bytes_per_token: float, context_tokens: float,
                  mem_bw: float, peak_ops: float, mfu: float, devices: float = 1.0) -> float:
    """t = max((W + B·KV·ctx)/(n·BW), 2·P·B/(n·C·u)): one decode step of B sequences on n devices.
    Source: handbook/labs/v1_16.md §2; serving.decode_memory_s and decode_compute_s (handbook/labs/v2_10.md §2)."""
    check(context_tokens >= 0, f"context_tokens {context_tokens} must be non-negative")
    memory = serving.decode_memory_s(weights_b, batch * kv_bytes_per_token * context_tokens, devices, mem_bw, 1.0)
    compute = serving.decode_compute_s(params, batch, devices, peak_ops, mfu)
    return serving.decode_step_s(memory, compute)


def decode_gpus(rate_per_s: float, output_tokens: float, step_s: float, batch: float) -> int:
    """n = ⌈λ·L_out·t/B⌉: GPUs whose decode steps keep up with λ requests of L_out tokens.
    Source: handbook/labs/v1_16.md §2 (Little's law: GPU-seconds per second of arrivals)."""
    check(batch > 0 and step_s > 0, f"batch {batch} and step {step_s} s must be positive")
    return busy_to_gpus(rate_per_s * output_tokens * step_s / batch, 1.0)


def busy_to_gpus(busy_gpus: float, load: float) -> int:
    """n = ⌈busy/ρ⌉: GPUs provisioned so that each is busy a share ρ of the time.
    Source: utilisation = offered load / servers (Kleinrock 1975, Sec. 2.1)."""
    check(0 < load <= 1, f"load {load} must be in (0, 1]")
    check(busy_gpus >= 0, f"busy GPUs {busy_gpus} must be non-negative")
    return max(1, math.ceil(busy_gpus / load - _CEIL_SLACK))


def cost_per_request_usd(gpus: float, usd_per_gpu_hour: float, rate_per_s: float) -> float:
    """c = n·p/(3,600·λ): the fleet's hourly bill over the requests of one hour.
    Source: handbook/labs/v1_16.md §2."""
    check(rate_per_s > 0, f"rate {rate_per_s} requests/s must be positive")
    return gpus * usd_per_gpu_hour / (SECONDS_PER_HOUR * rate_per_s)


def resident_bytes(weights_b: float, batch: float, kv_bytes_per_token: float, tokens_held: float,
                   runtime_b: float = 0.0) -> float:
    """M = W + B·KV·s + R: weights, the KV cache of B sequences of s tokens, and the runtime.
    Source: handbook/labs/v1_16.md §2 (cloud: s = L_in + L_out; devices: the 2,048-token window plus 0.3 GB)."""
    return weights_b + batch * kv_bytes_per_token * tokens_held + runtime_b


def times_over(need: float, capacity: float) -> float:
    """need / capacity: above 1, it does not fit (or does not keep up).
    Source: arithmetic."""
    check(capacity > 0, f"capacity {capacity} must be positive")
    return need / capacity
