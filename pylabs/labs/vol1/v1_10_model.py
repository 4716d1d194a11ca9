"""The scenario and the model of V1-10 (The Compression Frontier): the quantized vision models of Act I
on each context's device, and the assistant's variants and tier plans of Act II. The lab module
(``v1_10``) reads like its page; this is its model.
"""

from __future__ import annotations

from dataclasses import dataclass

from pylabs.framework.formats import fmt
from pylabs.labs.vol1.contexts import device
from pylabs.physics import compression as cp
from pylabs.physics import constants as C


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs (pedagogical defaults, not hardware facts)."""

    size_budget_bytes: float = 25e6     # the mobile team's own download target (not an App Store rule)
    utilisation: float = 0.3            # share of peak the convolutions reach at batch 1 (handbook/labs/v1_10.md §2)
    collapse_drop: float = 0.10         # a top-1 loss of 10 points or more is a collapse
    narrow_channel: float = 100.0       # an illustrative channel this many times narrower than its tensor's widest
    context_tokens: float = 2048.0
    kv_bytes: float = 2.0               # FP16 KV cache
    runtime_bytes: float = 0.3e9        # the inference runtime's own memory (handbook/labs/v1_10.md §2)
    group_size: float = 128.0
    pruned_share: float = 0.5           # the research team's plan: half the 8B model's weights pruned away
    tiers: tuple[tuple[str, str, float], ...] = (
        ("flagship", "Flagship", 8e9), ("mid", "Mid-range", 4e9), ("budget", "Budget", 2e9))
    perplexity_limit: float = 10.0      # the product team's quality floor for an 8B variant


S = Scenario()
RESNET50_FLOP = 2 * C.RESNET50_MACS  # two FLOP per multiply-accumulate (torchvision counts MACs)

MODELS = {"resnet50": ("ResNet-50", C.RESNET50_PARAMS, RESNET50_FLOP, C.RESNET50_TOP1),
          "mobilenetv2": ("MobileNetV2", C.MOBILENETV2_PARAMS, C.MOBILENETV2_FLOP, C.MOBILENETV2_TOP1)}
FORMATS = {"fp16": ("FP16", 16.0), "int8": ("INT8", 8.0), "int4": ("INT4", 4.0)}
GRANULARITY = {"per_channel": "Per channel (one scale per output channel)",
               "per_tensor": "Per tensor (one scale per weight tensor)"}
SCHEMES = {"ptq": "Post-training (PTQ, with calibration data)", "qat": "Quantization-aware training (QAT)"}


# ---- Act I · Is INT8 lossless? ------------------------------------------------------


PEAKS = {  # context -> (FP16 FLOP/s, INT8 OP/s), dense
    "cloud": (C.H100_PEAK_BF16_DENSE, C.H100_PEAK_INT8_DENSE),
    "edge": (C.ORIN_NX_PEAK_FP16_DENSE, C.ORIN_NX_PEAK_INT8_DENSE),
    "mobile": (C.A17_PRO_NPU_FP16_ASSUMED, C.A17_PRO_NPU_OPS),
}


def peak_ops(context: str, fmt_key: str) -> float:
    """The device's dense rate for a format; INT4 weights run at the INT8 rate (no INT4 tensor rate)."""
    return PEAKS[context][fmt_key != "fp16"]


def rate_unit(fmt_key: str) -> str:
    """FLOP/s for floating point, OP/s for integer arithmetic."""
    return "FLOP/s" if fmt_key == "fp16" else "OP/s"


@dataclass(frozen=True)
class Config:
    """One quantized vision model on the context's device."""

    model: str
    fmt: str
    granularity: str
    scheme: str
    context: str

    @property
    def params(self) -> float:
        return MODELS[self.model][1]

    @property
    def size(self) -> float:
        return cp.weight_bytes(self.params, FORMATS[self.fmt][1])

    @property
    def drop(self) -> float:
        return cp.top1_drop(self.model, self.fmt, self.granularity, self.scheme)

    @property
    def basis(self) -> str:
        return cp.top1_basis(self.model, self.fmt, self.granularity, self.scheme)

    @property
    def top1(self) -> float:
        return MODELS[self.model][3] - self.drop

    def latency_s(self, fmt_key: str | None = None) -> float:
        f = fmt_key or self.fmt
        dev = device(self.context)
        return cp.batch1_latency_s(cp.weight_bytes(self.params, FORMATS[f][1]), MODELS[self.model][2],
                                   dev.mem_bw, peak_ops(self.context, f), S.utilisation)

    @property
    def memory_bound(self) -> bool:
        dev = device(self.context)
        return self.size / dev.mem_bw >= MODELS[self.model][2] / (peak_ops(self.context, self.fmt) * S.utilisation)


def act1_truth() -> float:
    return cp.top1_drop("resnet50", "int8", "per_channel", "ptq")


def act1_points() -> list[Config]:
    """Every setting of both models (FP16 once: it has no scales to choose)."""
    rows = []
    for model in MODELS:
        for f in FORMATS:
            keys = [("per_channel", "ptq")] if f == "fp16" else [(g, sc) for g in GRANULARITY for sc in SCHEMES]
            rows += [Config(model, f, g, sc, "mobile") for g, sc in keys]
    return rows


# ---- Act II · Three memory tiers ------------------------------------------------------


@dataclass(frozen=True)
class Variant:
    """One way to ship the assistant: a model, its bits per weight and how it is stored."""

    label: str
    params: float
    bits: float
    group: float
    shape: tuple[float, float, float]   # layers, KV heads, head dimension
    ppl_key: str = ""                   # row of the perplexity table (8B quantized variants)
    density: float = 1.0                # share of weights kept by pruning
    storage: str = "dense"              # dense, structured (weights removed) or bitmask

    @property
    def weights(self) -> float:
        if self.storage == "bitmask":
            return cp.bitmask_sparse_bytes(self.params, self.bits, self.density, self.group)
        kept = self.params * (self.density if self.storage == "structured" else 1.0)
        return cp.weight_bytes(kept, self.bits, self.group)

    def kv(self, tokens: float) -> float:
        return cp.kv_cache_bytes(*self.shape, S.kv_bytes, tokens)

    def footprint(self, tokens: float) -> float:
        return cp.footprint_bytes(self.weights, self.kv(tokens), S.runtime_bytes)

    @property
    def perplexity(self) -> float | None:
        return cp.perplexity(self.ppl_key) if self.ppl_key else None

    @property
    def acceptable(self) -> bool:
        if self.ppl_key:
            return self.perplexity <= S.perplexity_limit
        return self.density == 1.0   # a smaller model is acceptable; pruning without retraining is not


L8 = (C.LLAMA3_8B_LAYERS, C.LLAMA3_8B_KV_HEADS, C.LLAMA3_HEAD_DIM)
L3 = (C.LLAMA32_3B_LAYERS, C.LLAMA32_3B_KV_HEADS, C.LLAMA3_HEAD_DIM)
L1 = (C.LLAMA32_1B_LAYERS, C.LLAMA32_1B_KV_HEADS, C.LLAMA32_1B_HEAD_DIM)
P8, G = C.LLAMA3_8B_PARAMS_COUNTED, S.group_size
GROUP, PRUNED, KEPT = f"group {fmt(G, 'int')}", fmt(S.pruned_share, "pct"), 1.0 - S.pruned_share
VARIANTS = {
    "8b_fp16": Variant("8B FP16", P8, 16.0, 0.0, L8, "fp16"),
    "8b_int8": Variant("8B INT8 (per channel)", P8, 8.0, 0.0, L8, "int8"),
    "8b_int4": Variant(f"8B INT4 ({GROUP})", P8, 4.0, G, L8, "int4"),
    "8b_int3": Variant(f"8B 3-bit ({GROUP})", P8, 3.0, G, L8, "int3"),
    "8b_int2": Variant(f"8B 2-bit ({GROUP})", P8, 2.0, G, L8, "int2"),
    "8b_int4_s50": Variant(f"8B INT4 + {PRUNED} structured pruning", P8, 4.0, G, L8, density=KEPT,
                           storage="structured"),
    "8b_int4_u50": Variant(f"8B INT4 + {PRUNED} unstructured, stored dense", P8, 4.0, G, L8, density=KEPT),
    "8b_int4_u50m": Variant(f"8B INT4 + {PRUNED} unstructured, bitmask format", P8, 4.0, G, L8, density=KEPT,
                            storage="bitmask"),
    "3b_int4": Variant("3B-class INT4 (Llama 3.2 3B)", C.LLAMA32_3B_PARAMS, 4.0, G, L3),
    "1b_int8": Variant("1B-class INT8 (Llama 3.2 1B)", C.LLAMA32_1B_PARAMS, 8.0, 0.0, L1),
    "1b_int4": Variant("1B-class INT4 (Llama 3.2 1B)", C.LLAMA32_1B_PARAMS, 4.0, G, L1),
}
TIER_NAMES = tuple(t[0] for t in S.tiers)
DESIGNS = {"A": ("8b_int4", "8b_int3", "1b_int4"), "B": ("8b_int8", "8b_int4", "8b_int4_s50"),
           "C": ("8b_int4", "8b_int4", "3b_int4"), "D": ("8b_int3", "8b_int3", "8b_int2")}
RESEARCH_PLAN = "B"  # the stakeholder's plan, the tier planner's starting point


def design_fits(keys: tuple[str, ...], tokens: float = S.context_tokens) -> list[bool]:
    return [VARIANTS[k].footprint(tokens) <= budget for k, (_, _, budget) in zip(keys, S.tiers)]


def act2_answer() -> str:
    good = [letter for letter, keys in DESIGNS.items()
            if all(design_fits(keys)) and all(VARIANTS[k].acceptable for k in keys)]
    return good[0] if len(good) == 1 else "none"
