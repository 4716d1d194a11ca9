"""Transformer shapes: parameter counts, attention memory and FLOPs against sequence length,
and the latency of one decoded token as a function of depth and width.

Attention compares every token with every other, so the score matrix of one head is N × N:
its memory and FLOPs grow with the square of the sequence length N, while the weights stay
fixed and the KV cache grows linearly. FlashAttention computes the same scores tile by tile
in on-chip memory and never writes the N × N matrix, keeping O(N) softmax statistics.

At batch 1, decoding one token reads every weight once through matrix-vector products
(about 1 FLOP per byte), so each GEMM is memory-bound or, when it is small, bound by the
fixed cost of launching and synchronising a kernel. Layers run one after another, so that
fixed cost is paid per layer: at equal parameters a deep, narrow model pays it many more times
than a shallow, wide one.

Sources: Vaswani et al. 2017; Radford et al. 2019 and the Hugging Face gpt2-xl config;
Korthikanti et al. 2022 (activation memory); Dao et al. 2022 (FlashAttention);
Williams et al. 2009 (roofline); handbook/labs/v1_06.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pylabs.physics.validators import require

from .devices import attainable


def _positive(name: str, value: float) -> None:
    require(value > 0 and math.isfinite(value), name, value, "a positive finite number", "pass a size above zero",
            form="{name} must be {rule}, got {value!r}; {fix}")


# ---- shapes -----------------------------------------------------------------------


def gpt2_params(layers: float, d_model: float, vocab: float, context: float) -> float:
    """P = L·(12d² + 13d) + (V + n_ctx)·d + 2d (weights and biases, tied output embedding).
    Source: Radford et al. 2019; Hugging Face GPT2Model (c_attn, c_proj, c_fc, two LayerNorms per block)."""
    for name, value in (("layers", layers), ("d_model", d_model), ("vocab", vocab), ("context", context)):
        _positive(name, value)
    per_layer = 12 * d_model ** 2 + 13 * d_model
    return layers * per_layer + (vocab + context) * d_model + 2 * d_model


def width_for_params(params: float, layers: float) -> float:
    """d = √(P / (12 L)): the width that gives a stack of L blocks P weights (12d² per block).
    Source: Kaplan et al. 2020, Sec. 2.1 (N ≈ 12·n_layer·d_model², embeddings excluded)."""
    _positive("params", params)
    _positive("layers", layers)
    return math.sqrt(params / (12 * layers))


# ---- Act I: memory of one prefill -----------------------------------------------------


def weights_bytes(params: float, bytes_per_value: float) -> float:
    """P·b. Source: definition (one value per parameter)."""
    return params * bytes_per_value


def kv_cache_bytes(layers: float, seq: float, d_model: float, batch: float, bytes_per_value: float) -> float:
    """2·L·N·d·b·B: one key and one value vector of width d per token per layer.
    Source: Vaswani et al. 2017 (K, V per layer); Kwon et al. 2023, Sec. 2.3."""
    return 2 * layers * seq * d_model * batch * bytes_per_value


def score_matrix_bytes(heads: float, seq: float, batch: float, bytes_per_value: float, flash: bool) -> float:
    """h·N²·b·B for one layer's materialised scores (inference frees each layer's before the next);
    0 with FlashAttention, which keeps only O(N) row statistics.
    Source: Vaswani et al. 2017 (softmax(QKᵀ) per head); Dao et al. 2022, Sec. 3.1."""
    return 0.0 if flash else heads * seq ** 2 * batch * bytes_per_value


@dataclass(frozen=True)
class PrefillMemory:
    """Bytes resident while a model processes a prompt of ``seq`` tokens."""

    weights_b: float
    kv_b: float
    scores_b: float

    @property
    def total_b(self) -> float:
        return self.weights_b + self.kv_b + self.scores_b


def prefill_memory(params: float, layers: float, d_model: float, heads: float, seq: float,
                   bytes_per_value: float, flash: bool, batch: float = 1.0) -> PrefillMemory:
    """Weights + KV cache + one layer's scores. Source: handbook/labs/v1_06.md §2, Act I."""
    _positive("seq", seq)
    return PrefillMemory(weights_bytes(params, bytes_per_value),
                         kv_cache_bytes(layers, seq, d_model, batch, bytes_per_value),
                         score_matrix_bytes(heads, seq, batch, bytes_per_value, flash))


def max_context_tokens(capacity_b: float, params: float, layers: float, d_model: float, heads: float,
                       bytes_per_value: float, flash: bool) -> float:
    """Largest N with weights + KV + scores ≤ capacity (batch 1): the positive root of
    h·b·N² + 2·L·d·b·N − (C − P·b) = 0, or (C − P·b)/(2·L·d·b) with FlashAttention; 0 if the
    weights alone do not fit. Source: handbook/labs/v1_06.md §4, 'Max N'."""
    room = capacity_b - weights_bytes(params, bytes_per_value)
    if room <= 0:
        return 0.0
    linear = 2 * layers * d_model * bytes_per_value
    if flash:
        return room / linear
    quad = heads * bytes_per_value
    return (-linear + math.sqrt(linear ** 2 + 4 * quad * room)) / (2 * quad)


def attention_flops(layers: float, seq: float, d_model: float) -> float:
    """4·L·N²·d forward FLOPs for QKᵀ and scores·V over a whole (non-causal) sequence.
    Source: Kaplan et al. 2020, Table 1 (2·n_layer·n_ctx·d_attn per token, × N tokens, × 2 products)."""
    return 4 * layers * seq ** 2 * d_model


def attention_flop_share(params: float, layers: float, seq: float, d_model: float) -> float:
    """Attention FLOPs ÷ (2·P·N + attention FLOPs): the share of a forward pass spent on scores.
    Source: Kaplan et al. 2020, Table 1."""
    attn = attention_flops(layers, seq, d_model)
    return attn / (2 * params * seq + attn)


# ---- Act II: one decoded token at batch 1 ----------------------------------------------

GEMMS_PER_LAYER = (3.0, 1.0, 4.0, 4.0)  # QKV, attention output, FFN up, FFN down: multiples of d²
SMALL_KERNELS_PER_LAYER = 6              # two LayerNorms, attention, softmax, activation, residual adds


def gemv_seconds(weights: float, peak_ops: float, mem_bw: float, bytes_per_value: float,
                 launch_s: float) -> float:
    """max(t_launch, 2W / attainable(peak, BW, I)) with I = 2W/(W·b) FLOP/B at batch 1.
    Source: Williams et al. 2009 (roofline); handbook/labs/v1_06.md §2, Act II."""
    flops = 2 * weights
    intensity = flops / (weights * bytes_per_value)
    return max(launch_s, flops / attainable(peak_ops, mem_bw, intensity))


@dataclass(frozen=True)
class TokenLatency:
    """One decoded token: per-layer GEMM times and the fixed kernel cost, summed over L layers."""

    layers: float
    d_model: float
    gemm_s: float          # all layers' GEMMs (each at least one launch)
    small_kernels_s: float  # all layers' tiny kernels (one launch each)
    streaming_s: float     # the bandwidth floor: every weight read once

    @property
    def total_s(self) -> float:
        return self.gemm_s + self.small_kernels_s

    @property
    def overhead_share(self) -> float:
        """Share of the token's time not explained by streaming the weights."""
        return 1.0 - self.streaming_s / self.total_s


def decode_token_latency(layers: float, d_model: float, peak_ops: float, mem_bw: float,
                         bytes_per_value: float, launch_s: float) -> TokenLatency:
    """T = L·[Σ_{m∈{3,1,4,4}} max(t_launch, m·d²·b/BW) + 6·t_launch] (batch 1, memory-bound GEMVs).
    Source: handbook/labs/v1_06.md §2, Act II; Williams et al. 2009."""
    _positive("layers", layers)
    _positive("d_model", d_model)
    if launch_s < 0:
        raise ValueError(f"launch_s must be zero or more, got {launch_s!r}; pass the per-kernel overhead")
    per_layer = sum(gemv_seconds(m * d_model ** 2, peak_ops, mem_bw, bytes_per_value, launch_s)
                    for m in GEMMS_PER_LAYER)
    streaming = layers * sum(GEMMS_PER_LAYER) * d_model ** 2 * bytes_per_value / mem_bw
    return TokenLatency(layers, d_model, layers * per_layer, layers * SMALL_KERNELS_PER_LAYER * launch_s,
                        streaming)
