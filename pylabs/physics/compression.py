"""Compression: what quantization and pruning do to a model's bytes, time and accuracy.

Bytes are exact arithmetic: b bits per weight, plus one FP16 scale per group of g weights for
group-wise formats (INT8 per-channel has one scale per output channel, negligible). A language
model on a device also holds its KV cache and a runtime. Time at batch 1 is a roofline:
the larger of streaming the weights and doing the arithmetic. Accuracy is not derivable from
first principles: it comes from tables of representative published results, and the labs say so.

Source: handbook/labs/v1_10.md §2, §4; Williams et al. 2009.
"""

from __future__ import annotations

from pylabs.physics import constants as C
from pylabs.physics.serving import kv_bytes_per_token
from pylabs.physics.validators import check

SCALE_BITS = 16  # one FP16 scale per quantization group (GPTQ/AWQ-style group-wise formats)


# ---- bytes --------------------------------------------------------------------------------


def weight_bytes(params: float, bits: float, group_size: float = 0.0, scale_bits: float = SCALE_BITS) -> float:
    """W = P * (b + s/g) / 8  (b bits per weight, one s-bit scale per group of g; g = 0: no group term).

    Source: handbook/labs/v1_10.md §2; Frantar et al. 2022 (GPTQ group-wise scales).
    """
    check(params >= 0, f"params must be >= 0, got {params}")
    check(bits > 0, f"bits must be > 0, got {bits}; pass 16 for FP16, 8 for INT8, 4 for INT4")
    check(group_size >= 0, f"group_size must be >= 0 (0: no group scales), got {group_size}")
    overhead = scale_bits / group_size if group_size else 0.0
    return params * (bits + overhead) / 8


def bitmask_sparse_bytes(params: float, bits: float, density: float, group_size: float = 0.0) -> float:
    """W = P * d * (b + s/g) / 8 + P / 8  (kept weights, plus a one-bit mask over every position).

    Unstructured sparsity saves bytes only in a sparse format, and the format adds an index: here the
    cheapest, one bit per position. Stored dense, a pruned matrix keeps every zero.
    Source: handbook/labs/v1_10.md §5.
    """
    check(0 < density <= 1, f"density must be in (0, 1], got {density}")
    return weight_bytes(params * density, bits, group_size) + params / 8


def kv_cache_bytes(layers: float, kv_heads: float, head_dim: float, bytes_per_element: float,
                   tokens: float) -> float:
    """KV = 2 * L * n_kv * d_head * b * T  (a key and a value per KV head per layer, for T tokens).

    Source: handbook/labs/v1_10.md §2; Ainslie et al. 2023 (GQA).
    """
    check(tokens >= 0, f"tokens must be >= 0, got {tokens}")
    return kv_bytes_per_token(layers, kv_heads, head_dim, bytes_per_element) * tokens


def footprint_bytes(weights: float, kv: float, runtime: float) -> float:
    """M = W + KV + R  (weights, KV cache and the runtime's own memory). Source: handbook/labs/v1_10.md §2."""
    return weights + kv + runtime


# ---- time -----------------------------------------------------------------------------------


def batch1_latency_s(weights: float, flop: float, mem_bw: float, peak_ops: float, utilisation: float) -> float:
    """t = max(W / BW, F / (P_peak * u))  (stream the weights once; do the arithmetic at u of peak).

    Source: handbook/labs/v1_10.md §2; Williams, Waterman and Patterson 2009 (roofline).
    """
    check(mem_bw > 0 and peak_ops > 0, "bandwidth and peak must be > 0")
    check(0 < utilisation <= 1, f"utilisation must be in (0, 1], got {utilisation}")
    return max(weights / mem_bw, flop / (peak_ops * utilisation))


def decode_tokens_per_s(weights: float, kv: float, mem_bw: float) -> float:
    """r = BW / (W + KV)  (each generated token reads every weight and the whole cache once).

    Batch-1 decoding is memory-bound, so fewer bytes per weight is more tokens per second.
    Source: handbook/labs/v1_10.md; Williams et al. 2009 (roofline, memory side).
    """
    check(mem_bw > 0, f"mem_bw must be > 0, got {mem_bw}")
    check(weights + kv > 0, "nothing to read: weights + KV must be > 0")
    return mem_bw / (weights + kv)


# ---- rounding -------------------------------------------------------------------------------


def symmetric_levels(bits: float) -> float:
    """q_max = 2^(b-1) - 1  (127 for INT8, 7 for INT4; symmetric, zero is exact). Source: Krishnamoorthi 2018."""
    check(bits >= 2, f"bits must be >= 2 for a signed grid, got {bits}")
    return 2 ** (bits - 1) - 1


def rounding_error_of_range(bits: float) -> float:
    """e = (max / q_max) / 2 / (2 max) = 1 / (4 q_max)  (worst rounding error as a share of [-max, max]).

    INT8: 1/508 = 0.197 % of the range; INT4 is 127/7 = 18.1x coarser.
    Source: handbook/labs/v1_10.md §5; Krishnamoorthi 2018.
    """
    return 1 / (4 * symmetric_levels(bits))


# ---- accuracy: published results and labelled estimates -------------------------------------
# Top-1 drop on ImageNet, as a fraction (0.002 = 0.2 percentage points), by
# (model, format, granularity, scheme), each cell with its basis:
# - MEASURED: torchvision's published quantized weights against their FP32 originals. ResNet-50
#   INT8 post-training (fbgemm, per-channel weights) 76.130 -> 75.920 %; MobileNetV2 INT8 QAT
#   (qnnpack, whose default QAT qconfig fake-quantizes weights per tensor) 71.878 -> 71.658 %.
# - KRISHNAMOORTHI: Krishnamoorthi 2018 (arXiv 1806.08342; TensorFlow models, min-max weight ranges,
#   8-bit per-layer activations), as floating-point top-1 minus quantized top-1. Table 3 (INT8 PTQ):
#   Mobilenet-v2 1 224, 0.719 in FP32, 0.001 per layer (a collapse) and 0.698 symmetric per channel.
#   Table 5 (4-bit weights): Resnet v1 50, 0.752 in FP32, 0.002 per layer and 0.54 per channel
#   after training, 0.732 per channel with quantization-aware training; Mobilenet v2, 0.001 per
#   layer and per channel after training, 0.62 per channel with QAT. (Review of V1-10: these cells
#   were 3 to 15 pp, marked "no direct source", while the lab's own cited paper measures them.)
# - ESTIMATE: representative values anchored on Krishnamoorthi 2018, Wu et al. 2020 (an 8-bit
#   workflow keeps every network studied, MobileNets included, within 1 % of FP32) and Nagel et
#   al. 2019. MobileNetV2 per-channel QAT is set to the measured per-tensor QAT figure: a scale
#   per channel is never worse than one per tensor.
# - UNSOURCED: INT4 per-tensor QAT, which no cited paper measures (est, no direct source), set no
#   better than per-channel QAT.
MEASURED, KRISHNAMOORTHI, ESTIMATE, UNSOURCED = "measured", "krishnamoorthi2018", "est", "est, no direct source"
_R50_INT8_PTQ = C.RESNET50_TOP1 - C.RESNET50_INT8_PTQ_TOP1
_MNV2_INT8_QAT = C.MOBILENETV2_TOP1 - C.MOBILENETV2_INT8_QAT_TOP1
_K_R50_FP, _K_MNV2_FP = 0.752, 0.719   # Krishnamoorthi 2018, Table 1 / Tables 3-5 floating point
_SCHEMES = (("per_channel", "ptq"), ("per_tensor", "ptq"), ("per_channel", "qat"), ("per_tensor", "qat"))


def _row(basis: str | tuple[str, ...], *drops: float) -> dict[tuple[str, str], tuple[float, str]]:
    return {k: (d, b) for k, d, b in zip(_SCHEMES, drops, (basis,) * 4 if isinstance(basis, str) else basis)}


_K, _E, _M, _U = KRISHNAMOORTHI, ESTIMATE, MEASURED, UNSOURCED
_TOP1_DROP: dict[tuple[str, str], dict[tuple[str, str], tuple[float, str]]] = {
    ("resnet50", "fp16"): _row(_E, 0.0, 0.0, 0.0, 0.0),
    ("resnet50", "int8"): _row((_M, _E, _E, _E), _R50_INT8_PTQ, 0.004, 0.001, 0.003),
    ("resnet50", "int4"): _row((_K, _K, _K, _U), _K_R50_FP - 0.54, _K_R50_FP - 0.002, _K_R50_FP - 0.732, 0.03),
    ("mobilenetv2", "fp16"): _row(_E, 0.0, 0.0, 0.0, 0.0),
    ("mobilenetv2", "int8"): _row((_K, _K, _E, _M), _K_MNV2_FP - 0.698, _K_MNV2_FP - 0.001, _MNV2_INT8_QAT,
                                  _MNV2_INT8_QAT),
    ("mobilenetv2", "int4"): _row((_K, _K, _K, _U), _K_MNV2_FP - 0.001, _K_MNV2_FP - 0.001, _K_MNV2_FP - 0.62,
                                  0.15),
}


def _cell(model: str, fmt: str, granularity: str, scheme: str) -> tuple[float, str]:
    try:
        return _TOP1_DROP[(model, fmt)][(granularity, scheme)]
    except KeyError:
        raise ValueError(f"no accuracy entry for {model}/{fmt}/{granularity}/{scheme}; models "
                         f"{sorted({m for m, _ in _TOP1_DROP})}, formats fp16/int8/int4") from None


def top1_drop(model: str, fmt: str, granularity: str, scheme: str) -> float:
    """Top-1 accuracy lost to quantization, a fraction (table lookup; see the table's sources).

    Source: torchvision quantized weights and Krishnamoorthi 2018 (measured cells); Wu et al. 2020
    and Nagel et al. 2019 (estimates).
    """
    return _cell(model, fmt, granularity, scheme)[0]


def top1_basis(model: str, fmt: str, granularity: str, scheme: str) -> str:
    """What a cell of the accuracy table rests on: MEASURED, KRISHNAMOORTHI, ESTIMATE or UNSOURCED."""
    return _cell(model, fmt, granularity, scheme)[1]


# WikiText-2 perplexity of Llama-3-8B by weight format (group 128 below 8 bits): representative of the
# GPTQ rows of Huang et al. 2024 (est). At 2 bits the model collapses (perplexity in the hundreds).
LLAMA3_8B_PERPLEXITY: dict[str, float] = {"fp16": 6.1, "int8": 6.2, "int4": 6.5, "int3": 8.2, "int2": 210.0}


def perplexity(fmt: str) -> float:
    """Llama-3-8B WikiText-2 perplexity at a weight format (table; est). Source: Huang et al. 2024."""
    try:
        return LLAMA3_8B_PERPLEXITY[fmt]
    except KeyError:
        raise ValueError(f"no perplexity for {fmt!r}; known {sorted(LLAMA3_8B_PERPLEXITY)}") from None
