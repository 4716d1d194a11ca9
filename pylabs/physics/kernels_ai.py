"""Arithmetic intensity of the kernels a model runs, and where they land on a roofline.

Intensity counts operations per byte of *compulsory* traffic: every operand read once from
memory and every result written once (perfect on-chip reuse). A real kernel moves at least
this much, so the intensity here is an upper bound and the attainable rate a ceiling.
Rates and ridge points come from ``devices.py`` (``ridge_point``, ``attainable``).

All quantities in SI: FLOP (or integer operations), bytes, seconds, FLOP/s, bytes/s.
Sources: Williams, Waterman and Patterson 2009 (roofline); NVIDIA, *Deep Learning Performance:
Get Started* (GEMM and elementwise intensity); Ainslie et al. 2023 (grouped-query attention);
Kaplan et al. 2020, Table 1 (2N FLOP per token). The corrected model is handbook/labs/v1_11.md §2.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pylabs.physics.validators import require_finite_positive

from .devices import attainable, ridge_point


# ---- matrix multiplies -------------------------------------------------------------------


def gemm_flop(m: float, k: float, n: float) -> float:
    """F = 2·M·K·N  (one multiply and one add per term of each output).
    Source: NVIDIA, Deep Learning Performance: Get Started (GEMM FLOP count)."""
    for name, value in (("m", m), ("k", k), ("n", n)):
        require_finite_positive(name, value, "pass a matrix dimension of at least 1")
    return 2 * m * k * n


def gemm_bytes(m: float, k: float, n: float, bytes_per_value: float) -> float:
    """Q = b·(M·K + K·N + M·N)  (read A and B once, write C once).
    Source: NVIDIA, Deep Learning Performance: Get Started (GEMM arithmetic intensity)."""
    require_finite_positive("bytes_per_value", bytes_per_value, "pass 4 for FP32, 2 for BF16, 1 for INT8")
    return bytes_per_value * (m * k + k * n + m * n)


def gemm_intensity(m: float, k: float, n: float, bytes_per_value: float) -> float:
    """I = 2MKN / (b(MK + KN + MN)); for M ≪ K = N this is about 2M/b, for a square N about 2N/(3b).
    Source: NVIDIA, Deep Learning Performance: Get Started; handbook/labs/v1_11.md §2."""
    return gemm_flop(m, k, n) / gemm_bytes(m, k, n, bytes_per_value)


def gemm_rows_to_ridge(k: float, n: float, bytes_per_value: float, ridge: float) -> float:
    """M* = R·b·K·N / (2·K·N − R·b·(K + N)): the rows M at which a K × N GEMM's intensity
    2MKN / (b(MK + KN + MN)) reaches the ridge point R (for K = N: R·b·N / (2(N − R·b))).
    Infinite when no M reaches it: as M grows the intensity only approaches 2KN / (b(K + N)).
    Source: solving gemm_intensity(M, K, N, b) = R; Williams, Waterman and Patterson 2009."""
    for name, value in (("k", k), ("n", n)):
        require_finite_positive(name, value, "pass a matrix dimension of at least 1")
    require_finite_positive("bytes_per_value", bytes_per_value, "pass 4 for FP32, 2 for BF16, 1 for INT8")
    require_finite_positive("ridge", ridge, "pass the device's ridge point, peak ÷ bandwidth, in op/B")
    room = 2 * k * n - ridge * bytes_per_value * (k + n)
    return ridge * bytes_per_value * k * n / room if room > 0 else math.inf


# ---- elementwise work and fusion ---------------------------------------------------------


def elementwise_intensity(ops_per_element: float, bytes_per_value: float, chain: int = 1,
                          fused: bool = False) -> float:
    """A chain of ``chain`` elementwise ops, each reading and writing the tensor once:
    unfused I = k / (2b) whatever the chain length; fused (one read, one write) I = chain·k / (2b).
    Source: handbook/labs/v1_11.md §2 (unfused traffic 2k|T|, fused 2|T|); Williams et al. 2009."""
    require_finite_positive("ops_per_element", ops_per_element,
                            "pass the operations each element needs, e.g. 1 for an add")
    require_finite_positive("bytes_per_value", bytes_per_value, "pass 4 for FP32, 2 for BF16, 1 for INT8")
    if chain < 1 or int(chain) != chain:
        raise ValueError(f"chain must be a whole number of ops >= 1 (got {chain!r}); pass 1 for a single op")
    per_op = ops_per_element / (2 * bytes_per_value)
    return chain * per_op if fused else per_op


def elementwise_chain_bytes(elements: float, bytes_per_value: float, chain: int, fused: bool) -> float:
    """Traffic of the chain: 2·chain·|T| unfused, 2·|T| fused (|T| = elements × b).
    Source: handbook/labs/v1_11.md §2."""
    require_finite_positive("elements", elements, "pass the tensor's element count")
    return 2 * elements * bytes_per_value * (1 if fused else chain)


# ---- attention and whole-model decode ----------------------------------------------------


def attention_decode_intensity(query_heads: float, kv_heads: float, bytes_per_value: float) -> float:
    """Decoding one token reads its sequence's K and V once: 4·n_q·d·L FLOP over 2·n_kv·d·L·b
    bytes, I = 2·(n_q / n_kv) / b, whatever the context length and however many sequences share the step.
    Source: Ainslie et al. 2023 (GQA: n_q / n_kv query heads share a K/V head); handbook/labs/v1_11.md §2."""
    require_finite_positive("query_heads", query_heads, "pass the model's attention heads")
    require_finite_positive("kv_heads", kv_heads,
                            "pass the model's key/value heads (config.json num_key_value_heads)")
    require_finite_positive("bytes_per_value", bytes_per_value, "pass 2 for a BF16 KV cache")
    return 2 * (query_heads / kv_heads) / bytes_per_value


def quantized_bytes_per_param(bits: float, group: float = 0.0, scale_bytes: float = 0.0) -> float:
    """Bytes per weight of a group-quantised tensor: bits/8 + one scale of ``scale_bytes`` per ``group``
    weights (``group`` 0: no scales). INT4 with an FP16 scale per 128 weights: 0.5 + 2/128.
    Source: Frantar et al. 2023 (GPTQ, grouped quantisation); handbook/labs/v1_11.md §4 (Llama-3-8B INT4 g128: 4.14
    GB)."""
    require_finite_positive("bits", bits, "pass the bits per stored weight, e.g. 4")
    return bits / 8 + (scale_bytes / group if group > 0 else 0.0)


def decode_flop(params: float, batch: float) -> float:
    """F = 2·P·B  (one forward token for each of B sequences; attention's share is left out).
    Source: Kaplan et al. 2020, Table 1 (2N FLOP per token)."""
    require_finite_positive("params", params, "pass the parameter count")
    require_finite_positive("batch", batch, "pass the sequences decoded together")
    return 2 * params * batch


def decode_bytes(weight_bytes: float, kv_bytes_per_token: float, context_tokens: float, batch: float) -> float:
    """Q = W + B·L·KV  (every step reads all weights once and each sequence's whole KV cache).
    Source: handbook/labs/v1_11.md §2."""
    require_finite_positive("weight_bytes", weight_bytes, "pass params × bytes per param")
    return weight_bytes + batch * context_tokens * kv_bytes_per_token


def decode_intensity(params: float, batch: float, weight_bytes: float, kv_bytes_per_token: float,
                     context_tokens: float) -> float:
    """I = 2PB / (W + B·L·KV): grows with the batch while the weights dominate the traffic, then
    levels off at the attention's intensity as the KV caches take over.
    Source: handbook/labs/v1_11.md §2; Williams et al. 2009."""
    return decode_flop(params, batch) / decode_bytes(weight_bytes, kv_bytes_per_token, context_tokens, batch)


def roofline_time_s(flop: float, traffic_bytes: float, peak_ops: float, mem_bw: float) -> float:
    """t = max(Q / BW, F / P_peak): the slower of moving the bytes and doing the arithmetic.
    Source: Williams, Waterman and Patterson 2009; handbook/labs/v1_11.md §2 (decode step time)."""
    require_finite_positive("peak_ops", peak_ops, "pass the device's peak rate")
    require_finite_positive("mem_bw", mem_bw, "pass the memory bandwidth in bytes/s")
    return max(traffic_bytes / mem_bw, flop / peak_ops)


def regime(intensity: float, ridge: float) -> str:
    """"memory" below the ridge point, "compute" at or above it.
    Source: Williams, Waterman and Patterson 2009."""
    return "compute" if intensity >= ridge else "memory"


@dataclass(frozen=True)
class Kernel:
    """One kernel on one device: its work, its compulsory traffic and where the roofline puts it.
    Source: Williams, Waterman and Patterson 2009."""

    flop: float           # operations (FLOP, or integer operations for INT8)
    traffic_bytes: float  # B, compulsory
    peak_ops: float       # op/s at the kernel's precision
    mem_bw: float         # B/s

    @property
    def ai(self) -> float:
        """Operations per byte."""
        return self.flop / self.traffic_bytes

    @property
    def ridge(self) -> float:
        return ridge_point(self.peak_ops, self.mem_bw)

    @property
    def rate(self) -> float:
        """The ceiling, op/s."""
        return attainable(self.peak_ops, self.mem_bw, self.ai)

    @property
    def mfu(self) -> float:
        """The ceiling as a share of the peak."""
        return self.rate / self.peak_ops

    @property
    def time_s(self) -> float:
        return roofline_time_s(self.flop, self.traffic_bytes, self.peak_ops, self.mem_bw)

    @property
    def regime(self) -> str:
        return regime(self.ai, self.ridge)


@dataclass(frozen=True)
class DecodeStep:
    """One decode step of a dense transformer on one device: every weight read once, each of the
    ``batch`` sequences' KV caches of ``context_tokens`` read once, 2 FLOP per parameter per sequence.
    Source: handbook/labs/v1_11.md §2 (t = max((W + B·L·KV)/BW, 2PB/P_peak), tok/s = B/t); Williams et al. 2009."""

    params: float
    batch: float
    context_tokens: float
    weight_bytes: float
    kv_bytes_per_token: float
    peak_ops: float
    mem_bw: float

    @property
    def kv_bytes(self) -> float:
        return self.batch * self.context_tokens * self.kv_bytes_per_token

    @property
    def ai(self) -> float:
        return decode_intensity(self.params, self.batch, self.weight_bytes, self.kv_bytes_per_token,
                                self.context_tokens)

    @property
    def step_s(self) -> float:
        return roofline_time_s(decode_flop(self.params, self.batch),
                               decode_bytes(self.weight_bytes, self.kv_bytes_per_token, self.context_tokens,
                                            self.batch), self.peak_ops, self.mem_bw)

    @property
    def tok_s(self) -> float:
        return self.batch / self.step_s

    @property
    def mfu(self) -> float:
        """Useful FLOP/s as a share of the peak."""
        return decode_flop(self.params, self.batch) / self.step_s / self.peak_ops
