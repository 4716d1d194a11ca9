"""The fleet of V1-16 (The Architect's Audit): one 7B on four tiers, the ten checks, and the invariant
families of the Volume I Design Ledger. The lab module (``v1_16``) reads like its page; this is its model.

Sources: handbook/labs/v1_16.md §2, §4; the physics is ``pylabs.physics.tiers`` and ``serving``.
"""

from __future__ import annotations

from dataclasses import dataclass

from pylabs.framework import fmt
from pylabs.framework.earlier import Tally, tally
from pylabs.labs.vol1.contexts import device
from pylabs.physics import constants as C
from pylabs.physics import serving, tiers
from pylabs.physics import system_design as sd
from pylabs.physics import units as U
from pylabs.physics.layers import KIB_BYTES

@dataclass(frozen=True)
class Scenario:
    """The Chief Architect's requirements and the story's inputs; [A] marks assumptions."""

    params: float = 7.0e9                # the generic 7B (handbook/labs/v1_16.md §3)
    prompt_tokens: float = 512.0
    output_tokens: float = 256.0
    rate_per_s: float = 1000.0           # requests per second at the peak
    mfu: float = 0.5                     # share of peak compute a prefill or decode step reaches
    usd_per_gpu_hour: float = 3.00       # [A] rented H100 (handbook/labs/v1_16.md §3 prices)
    draft_answer_s: float = 0.1          # the draft's SLO: a whole 256-token answer in 100 ms
    ttft_limit_s: float = 0.2
    tpot_limit_s: float = 0.05
    cost_limit_usd: float = 0.001        # per request
    device_window_tokens: float = 2048.0  # the KV cache a device reserves
    runtime_bytes: float = 0.3e9         # [A] the inference runtime on a device
    edge_share: float = 0.75             # [A] of the Orin's 16 GB an app may use (the OS and camera keep the rest)
    phone_share: float = 0.5             # [A] of the phone's 8 GB an app may use
    kws_map_bytes: float = 25 * 5 * 64   # the DS-CNN's largest INT8 feature map (25 × 5 × 64, MLPerf Tiny)
    kws_live_maps: float = 2.0           # one map read, one written
    group_size: float = 128.0            # INT4 weights carry an FP16 scale per 128 (GPTQ-style)
    # a ternary weight stored as bitnet.cpp stores it (I2_S: 2 bits a weight; log2 3 = 1.58 is the
    # information, not the storage). BitNet b1.58 (Ma et al. 2024) reports quality only up to 3.9B:
    # (TII's Falcon3-7B-1.58bit, Dec 2024, is trained on from a BF16 7B): a ternary 7B's quality is an
    # assumption, and the page says so
    ternary_packed_bits: float = 2.0
    min_answers: int = 2                 # a family needs this many answers to be graded (handbook/labs/v1_16.md §2)
    # units and drawing
    chart_floor: float = 1e-3
    chart_height_px: float = 320.0
    good_batch: int = 256                # a cloud setting that passes (quoted in feedback)
    good_load: float = 0.5


S = Scenario()
KV = serving.kv_bytes_per_token(C.LLAMA3_8B_LAYERS, C.LLAMA3_8B_KV_HEADS, C.LLAMA3_HEAD_DIM, C.BYTES_PER_BF16)
MEAN_CONTEXT = S.prompt_tokens + S.output_tokens / 2      # tokens of KV read by an average decode step
HELD_CONTEXT = S.prompt_tokens + S.output_tokens          # tokens of KV a cloud sequence holds at its end
HBM_USABLE = C.VLLM_GPU_MEMORY_UTILIZATION * C.H100_HBM_BYTES

PRECISIONS = {  # key -> (label, bits per weight, group size)
    "bf16": ("BF16", C.BYTES_PER_BF16 * tiers.BITS_PER_BYTE, 0.0),
    "int8": ("INT8 weights", C.BYTES_PER_INT8 * tiers.BITS_PER_BYTE, 0.0),
    "int4": ("INT4 weights, groups of 128", C.BYTES_PER_INT8 * tiers.BITS_PER_BYTE / 2, S.group_size),
    "ternary": ("Ternary, 2 bits a weight (trained so; quality assumed)", S.ternary_packed_bits, 0.0),
}


def mib(value: float) -> str:
    """ST quotes the MCU's memories in binary megabytes: 2 MB of flash is 2 MiB."""
    return f"{fmt(value / KIB_BYTES ** 2, 'num')} MiB"


def weights(precision: str) -> float:
    _, bits, group = PRECISIONS[precision]
    return tiers.weight_bytes(S.params, bits, group)


def peak_flops(context: str) -> float:
    """The device's 16-bit floating-point peak. The A17 Pro's 35 TOPS is a Neural Engine figure of
    no stated precision (INT8 is its fast path), so the phone uses the registry's labelled FP16
    assumption. Decoding at batch 1 is bound by bytes on every tier, so this sets no number shown."""
    return C.A17_PRO_NPU_FP16_ASSUMED if context == "mobile" else device(context).peak_ops


# ---- one reader's stream on each tier (Act I) ------------------------------------------------

def answer_step_s(context: str, precision: str, gpus: int = 1) -> float:
    """One token of one stream (batch 1) on the context's device; only the cloud splits a stream."""
    d = device(context)
    n = gpus if context == "cloud" else 1
    return tiers.decode_step_s(weights(precision), S.params, 1, KV, MEAN_CONTEXT, d.mem_bw, peak_flops(context),
                               S.mfu, n)


def fits(context: str, precision: str) -> bool:
    """The weights fit what the device lets the model use: the server's share of HBM, an app's share of
    the Orin's or the phone's memory (iOS and Jetson keep the rest; [assumed] shares), the MCU's flash."""
    return weights(precision) <= room(context)


def room(context: str) -> float:
    if context == "tiny":
        return C.STM32H743_FLASH_BYTES
    return HBM_USABLE if context == "cloud" else OnDevice(context).budget_b



# ---- the invariant families of the Design Ledger (handbook/labs/v1_16.md §2) ---------------

# The spec put V1-03 under Drift and V1-07 under Parallelism; neither teaches those. V1-03
# (The Constraint Tax) teaches the cost of a constraint found late in the workflow; V1-07 (The Kernel
# Fusion Dividend) teaches launches and trips to memory, the Memory family's bytes and overheads.
FAMILIES: dict[str, tuple[str, ...]] = {
    "Memory": ("v1_01", "v1_02", "v1_05", "v1_06", "v1_07", "v1_08", "v1_11"),
    "Data": ("v1_04", "v1_09"),
    "Workflow": ("v1_03",),
    "Compression": ("v1_10",),
    "Parallelism": ("v1_12",),
    "Queuing": ("v1_13",),
    "Drift": ("v1_14",),
    "Fairness": ("v1_15",),
}
READS = tuple(sorted(lab for labs in FAMILIES.values() for lab in labs))


def families(earlier: dict, reflections: bool) -> list[Tally]:
    return [tally(name, earlier, labs, reflections) for name, labs in FAMILIES.items()]


def weakest(rows: list[Tally]) -> Tally | None:
    """The family with the lowest accuracy among those with enough answers; None: ungraded."""
    graded = [r for r in rows if r.answered >= S.min_answers]
    return min(graded, key=lambda r: (r.accuracy, -r.answered)) if graded else None


# ---- the fleet: four tiers and ten checks -----------------------------------------------------

@dataclass(frozen=True)
class Cloud:
    precision: str = "bf16"
    batch: int = 64
    load: float = 0.7

    @property
    def step_s(self) -> float:
        return tiers.decode_step_s(weights(self.precision), S.params, self.batch, KV, MEAN_CONTEXT, C.H100_HBM_BW,
                                   C.H100_PEAK_BF16_DENSE, S.mfu)

    @property
    def prefill_s(self) -> float:
        return serving.prefill_s(2 * S.params * S.prompt_tokens, 1, C.H100_PEAK_BF16_DENSE, S.mfu)

    @property
    def ttft_s(self) -> float:
        return sd.ttft_p99_s(self.prefill_s, self.load)

    @property
    def gpus(self) -> int:
        busy = S.rate_per_s * (self.prefill_s + S.output_tokens * self.step_s / self.batch)
        return tiers.busy_to_gpus(busy, self.load)

    @property
    def cost_usd(self) -> float:
        return tiers.cost_per_request_usd(self.gpus, S.usd_per_gpu_hour, S.rate_per_s)

    @property
    def memory_b(self) -> float:
        return tiers.resident_bytes(weights(self.precision), self.batch, KV, HELD_CONTEXT)


@dataclass(frozen=True)
class OnDevice:
    context: str            # "edge" or "mobile"
    precision: str = "int4"

    @property
    def step_s(self) -> float:
        d = device(self.context)
        return tiers.decode_step_s(weights(self.precision), S.params, 1, KV, MEAN_CONTEXT, d.mem_bw,
                                   peak_flops(self.context), S.mfu)

    @property
    def memory_b(self) -> float:
        return tiers.resident_bytes(weights(self.precision), 1, KV, S.device_window_tokens, S.runtime_bytes)

    @property
    def budget_b(self) -> float:
        return device(self.context).mem_bytes * (S.edge_share if self.context == "edge" else S.phone_share)


@dataclass(frozen=True)
class Tiny:
    job: str = "llm"        # "llm": the 7B, ternary; "kws": a wake-word detector that hands the request on

    @property
    def flash_b(self) -> float:
        return weights("ternary") if self.job == "llm" else C.KWS_DSCNN_PARAMS * C.BYTES_PER_INT8

    @property
    def ram_b(self) -> float:
        return KV * S.device_window_tokens if self.job == "llm" else S.kws_map_bytes * S.kws_live_maps


@dataclass(frozen=True)
class Fleet:
    cloud: Cloud = Cloud()
    edge: OnDevice = OnDevice("edge")
    mobile: OnDevice = OnDevice("mobile")
    tiny: Tiny = Tiny()

    def usage(self) -> dict[str, float]:
        """Each check as need ÷ limit: at most 1 passes."""
        c, e, m, t = self.cloud, self.edge, self.mobile, self.tiny
        return {"cloud_memory": c.memory_b / HBM_USABLE, "cloud_tpot": c.step_s / S.tpot_limit_s,
                "cloud_ttft": c.ttft_s / S.ttft_limit_s, "cloud_cost": c.cost_usd / S.cost_limit_usd,
                "edge_memory": e.memory_b / e.budget_b, "edge_tpot": e.step_s / S.tpot_limit_s,
                "mobile_memory": m.memory_b / m.budget_b, "mobile_tpot": m.step_s / S.tpot_limit_s,
                "tiny_flash": t.flash_b / C.STM32H743_FLASH_BYTES, "tiny_ram": t.ram_b / C.STM32H743_SRAM_BYTES}

    def checks(self) -> dict[str, bool]:
        return {k: v <= 1 for k, v in self.usage().items()}

    @property
    def feasible(self) -> bool:
        return all(self.checks().values())


def cloud_memory_lever(c: Cloud) -> str:
    """Only the levers that can clear the check: fewer sequences (at batch 1 the weights alone fit in
    every precision), and fewer bytes per weight only where INT4 at this batch would fit (at a large
    batch the BF16 KV cache, not the weights, fills the GPU)."""
    kv = c.memory_b - weights(c.precision)
    smaller = c.precision != "int4" and weights("int4") + kv <= HBM_USABLE
    return (f"the KV cache of {fmt(c.batch, 'int')} sequences holds {fmt(kv, 'GB')}: fewer sequences per GPU"
            + (", or fewer bytes per weight." if smaller else "."))


CHECK_TITLES = {
    "cloud_memory": f"Cloud: weights and KV fit in {fmt(HBM_USABLE, 'GB')} per GPU",
    "cloud_tpot": f"Cloud: {fmt(S.tpot_limit_s, 'ms')} per output token",
    "cloud_ttft": f"Cloud: P99 first token within {fmt(S.ttft_limit_s, 'ms')}",
    "cloud_cost": f"Cloud: at most {fmt(S.cost_limit_usd * U.THOUSAND, 'usd')} per {fmt(U.THOUSAND, 'int')} "
                  "requests",
    "edge_memory": f"Edge: fits the app's share of {fmt(C.ORIN_NX_MEM_BYTES, 'GB')}",
    "edge_tpot": f"Edge: {fmt(S.tpot_limit_s, 'ms')} per output token",
    "mobile_memory": f"Mobile: fits the app's {fmt(C.A17_PRO_MEM_BYTES * S.phone_share, 'GB')}",
    "mobile_tpot": f"Mobile: {fmt(S.tpot_limit_s, 'ms')} per output token",
    "tiny_flash": f"TinyML: weights fit in {mib(C.STM32H743_FLASH_BYTES)} of flash",
    "tiny_ram": f"TinyML: working memory fits in {mib(C.STM32H743_SRAM_BYTES)} of SRAM",
}
SHORT = {"cloud_memory": "Cloud mem", "cloud_tpot": "Cloud TPOT", "cloud_ttft": "Cloud TTFT", "cloud_cost": "Cost",
         "edge_memory": "Edge mem", "edge_tpot": "Edge TPOT", "mobile_memory": "Phone mem",
         "mobile_tpot": "Phone TPOT", "tiny_flash": "MCU flash", "tiny_ram": "MCU RAM"}
TIER_OF = {"cloud": ("cloud_memory", "cloud_tpot", "cloud_ttft", "cloud_cost"), "edge": ("edge_memory", "edge_tpot"),
           "mobile": ("mobile_memory", "mobile_tpot"), "tiny": ("tiny_flash", "tiny_ram")}
BATCHES = tuple(2 ** k for k in range(13))
LOADS = tuple(round(0.1 + 0.05 * k, 2) for k in range(18))


CLOUD_PRECISIONS = ("bf16", "int8", "int4")
FOUR_BITS_OR_MORE = ("bf16", "int8", "int4")


def seven_b_options(tier: str, precisions: tuple[str, ...] = tuple(PRECISIONS)) -> list[Fleet]:
    """Every way the lab offers to run the 7B on one tier at these precisions (the other tiers at
    their defaults). The MCU is offered the 7B only ternary."""
    if tier == "cloud":
        return [Fleet(cloud=Cloud(p, b, r)) for p in CLOUD_PRECISIONS if p in precisions
                for b in BATCHES for r in LOADS]
    if tier in ("edge", "mobile"):
        return [Fleet(**{tier: OnDevice(tier, p)}) for p in precisions]
    return [Fleet(tiny=Tiny("llm"))] if "ternary" in precisions else []


def tiers_without_a_fit(precisions: tuple[str, ...] = tuple(PRECISIONS)) -> list[str]:
    """The tiers where no setting of the 7B at these precisions passes the tier's checks."""
    return [t for t in TIER_OF
            if not any(all(f.checks()[k] for k in TIER_OF[t]) for f in seven_b_options(t, precisions))]
