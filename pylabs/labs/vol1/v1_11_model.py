"""The scenario and the model of V1-11 (The Roofline): the GEMMs and elementwise chains of Act I on
each context's device at each precision it has, and the Llama-3-8B decode step of Act II with the
weight format and batch each context's stakeholder plans, and the stakeholders' words in each
context with the labels its assumed figures carry. The lab module (``v1_11``) reads like its page;
this is its scenario and model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from pylabs.framework import fmt
from pylabs.labs.vol1.contexts import device
from pylabs.physics import constants as C
from pylabs.physics import kernels_ai as K
from pylabs.physics import serving
from pylabs.physics.devices import ridge_point
from pylabs.physics.kernels_ai import Kernel


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs (pedagogical defaults, not hardware facts)."""

    act1_m: float = 8.0              # tokens per call of the decode projection
    act1_hidden: float = 4096.0      # K = N, Llama-3-8B's hidden size
    chain_ops: int = 4               # norm, residual add, activation, gate multiply: separate kernels
    ops_per_element: float = 2.0     # assumed: a few operations per element for each op of the chain
    faster_chip: float = 2.0         # the reflections' chip: this many times the peak, same bandwidth
    act2_reflect_scale: float = 0.5  # the Act II reflection's changes: half the bytes per weight, or per cached token
    act2_context: float = 4096.0     # tokens of context per sequence (half Llama-3-8B's window)
    act2_batch_low: float = 1.0
    # Act II: the batch each stakeholder plans (a datacentre GPU, a kiosk, a phone summarising threads)
    act2_batches: tuple[tuple[str, float], ...] = (("cloud", 64.0), ("edge", 16.0), ("mobile", 4.0))
    square_n: float = 512.0          # the takeaway's square GEMM (handbook/labs/v1_11.md §4)
    roof_span: tuple[float, float] = (0.1, 1e4)  # intensities the roofline charts cover, op/B


S = Scenario()
CONTEXTS = ("cloud", "edge", "mobile")  # the V1-00 tracks whose device can hold Llama-3-8B (not the MCU)
SHORT = {"cloud": "H100", "edge": "Orin NX", "mobile": "A17 Pro"}  # the devices, as charts name them
PRECISIONS = {"fp32": ("FP32", C.BYTES_PER_FP32), "bf16": ("BF16 / FP16", C.BYTES_PER_BF16),
              "int8": ("INT8", C.BYTES_PER_INT8)}
# The phone: Core ML runs float 16 models on the Neural Engine and float 32 ones on the GPU and CPU
# (coremltools, Typed Execution). Apple publishes one Neural Engine rate, 35 trillion operations per
# second with no precision; coremltools says the A17 Pro gained int8-int8 throughput, so that figure is
# read as INT8 and the 16-bit peak assumed at half of it (said on the page).
PEAKS = {
    "cloud": {"fp32": C.H100_PEAK_FP32, "bf16": C.H100_PEAK_BF16_DENSE, "int8": C.H100_PEAK_INT8_DENSE},
    "edge": {"fp32": C.ORIN_NX_PEAK_FP32, "bf16": C.ORIN_NX_PEAK_FP16_DENSE, "int8": C.ORIN_NX_PEAK_INT8_DENSE},
    "mobile": {"bf16": C.A17_PRO_NPU_FP16_ASSUMED},
}


def precision_on(context: str, precision: str) -> str:
    """The precision a context's device runs: the one asked for, or 16-bit where it has no other."""
    return precision if precision in PEAKS[context] else "bf16"


def rate_unit(precision: str) -> str:
    """INT8 counts integer operations (OP/s); the float precisions count FLOP/s."""
    return "OP/s" if precision == "int8" else "FLOP/s"


# ---- Act I · The kernel that would not tune ----------------------------------------------


def gemm(context: str, precision: str, m: float, k: float, n: float) -> Kernel:
    p = precision_on(context, precision)
    return Kernel(K.gemm_flop(m, k, n), K.gemm_bytes(m, k, n, PRECISIONS[p][1]), PEAKS[context][p],
                  device(context).mem_bw)


def chain(context: str, precision: str, elements: float, fused: bool) -> Kernel:
    p = precision_on(context, precision)
    return Kernel(S.chain_ops * S.ops_per_element * elements,
                  K.elementwise_chain_bytes(elements, PRECISIONS[p][1], S.chain_ops, fused), PEAKS[context][p],
                  device(context).mem_bw)


def rows_to_peak(context: str, precision: str, k: float, n: float) -> float:
    """The fewest tokens per call (whole rows) at which a K × N GEMM can reach the peak; inf if none can."""
    p = precision_on(context, precision)
    rows = K.gemm_rows_to_ridge(k, n, PRECISIONS[p][1], ridge_point(PEAKS[context][p], device(context).mem_bw))
    return math.ceil(rows) if math.isfinite(rows) else rows


def scenario_kernel(context: str) -> Kernel:
    """The stakeholder's projection: 8 tokens × 4,096 × 4,096 in 16-bit on the context's device."""
    return gemm(context, "bf16", S.act1_m, S.act1_hidden, S.act1_hidden)


def act1_truth(context: str) -> float:
    """Tokens per call at which the scenario's projection reaches the device's 16-bit peak."""
    return rows_to_peak(context, "bf16", S.act1_hidden, S.act1_hidden)


def faster_chip_gain(k: Kernel) -> float:
    """How much faster a kernel runs on a chip with ``S.faster_chip`` times the peak and the same bandwidth."""
    return k.time_s / K.roofline_time_s(k.flop, k.traffic_bytes, S.faster_chip * k.peak_ops, k.mem_bw)


def times_in_words(ratio: float) -> str:
    """A ratio as a student says it before a noun: "twice" while it reads 2×, else "3×"."""
    return "twice" if fmt(ratio, "x") == "2×" else fmt(ratio, "x")


# ---- Act II · Decode on the roofline --------------------------------------------------------

WEIGHT_BYTES = {  # bytes per weight of each weight format (weight-only quantisation)
    "bf16": C.BYTES_PER_BF16,
    "int8": C.BYTES_PER_INT8,
    "int4": K.quantized_bytes_per_param(4, C.QUANT_GROUP_WEIGHTS, C.QUANT_SCALE_BYTES),
}
SCENARIO_WEIGHTS = {"cloud": "bf16", "edge": "int4", "mobile": "int4"}  # what fits each device's memory
BATCH = dict(S.act2_batches)


@dataclass(frozen=True)
class Decode(K.DecodeStep):
    """A Llama-3-8B decode step on one device, with its K/V head count and the device's memory."""

    kv_heads: float = 0.0
    mem_bytes: float = 0.0

    @property
    def attention_ai(self) -> float:
        return K.attention_decode_intensity(C.LLAMA3_8B_QUERY_HEADS, self.kv_heads, C.BYTES_PER_BF16)

    @property
    def memory(self) -> float:
        """Weights, KV caches and one activation row per sequence (transient, reused layer by layer)."""
        return self.weight_bytes + self.kv_bytes + self.batch * C.LLAMA3_8B_D_MODEL * C.BYTES_PER_BF16

    @property
    def oom(self) -> bool:
        return self.memory > self.mem_bytes

    def at(self, batch: float) -> "Decode":
        return replace(self, batch=batch)

    @property
    def per_sequence(self) -> float:
        """Each sequence's tokens/s in this batch as a share of its tokens/s decoded alone."""
        return self.tok_s / self.batch / self.at(S.act2_batch_low).tok_s

    def kernels(self) -> tuple[Kernel, Kernel, Kernel]:
        """The step's weight matmuls, its attention over the KV caches, and the whole step, as roofline kernels."""
        weights = Kernel(K.decode_flop(C.LLAMA3_8B_PARAMS_COUNTED, self.batch), self.weight_bytes, self.peak_ops,
                         self.mem_bw)
        attention = Kernel(self.attention_ai * self.kv_bytes, self.kv_bytes, self.peak_ops, self.mem_bw)
        step = Kernel(K.decode_flop(C.LLAMA3_8B_PARAMS_COUNTED, self.batch),
                      K.decode_bytes(self.weight_bytes, self.kv_bytes_per_token, self.context_tokens, self.batch),
                      self.peak_ops, self.mem_bw)
        return weights, attention, step


def decode(context: str, batch: float, tokens: float, weights: str, mha: bool = False) -> Decode:
    dev = device(context)
    heads = C.LLAMA3_8B_QUERY_HEADS if mha else C.LLAMA3_8B_KV_HEADS
    kv = serving.kv_bytes_per_token(C.LLAMA3_8B_LAYERS, heads, C.LLAMA3_HEAD_DIM, C.BYTES_PER_BF16)
    # weight-only quantisation multiplies in 16-bit: the compute roof is the context's 16-bit peak
    return Decode(C.LLAMA3_8B_PARAMS_COUNTED, batch, tokens, C.LLAMA3_8B_PARAMS_COUNTED * WEIGHT_BYTES[weights], kv,
                  PEAKS[context]["bf16"], dev.mem_bw, kv_heads=heads, mem_bytes=dev.mem_bytes)


def scenario_decode(context: str) -> Decode:
    """The stakeholder's plan: their weight format, their batch, 4,096 tokens of context."""
    return decode(context, BATCH[context], S.act2_context, SCENARIO_WEIGHTS[context])


def act2_truth(context: str) -> float:
    """Each sequence's speed in the planned batch as a share of its speed decoded alone."""
    return scenario_decode(context).per_sequence


def share_if(d: Decode, weights: float = 1.0, cache: float = 1.0, peak: float = 1.0) -> float:
    """Each sequence's share of its solo speed at the same batch with the bytes per weight, the bytes per
    cached token or the peak scaled: (W + Lκ) / (W + BLκ) while both steps are memory-bound."""
    return replace(d, weight_bytes=d.weight_bytes * weights, kv_bytes_per_token=d.kv_bytes_per_token * cache,
                   peak_ops=d.peak_ops * peak).per_sequence


def chain_share(d: Decode) -> float:
    """The unfused elementwise chain's share of a decode step: every layer's chain over batch × d_model values."""
    unfused = K.elementwise_chain_bytes(d.batch * C.LLAMA3_8B_D_MODEL, C.BYTES_PER_BF16, S.chain_ops, False)
    return C.LLAMA3_8B_LAYERS * unfused / d.mem_bw / d.step_s


# ---- the stakeholders' words and the labels each context's numbers carry -----------------------

DEVICE = {"cloud": "H100", "edge": "Jetson Orin NX", "mobile": "A17 Pro"}
SIXTEEN = {"cloud": "BF16", "edge": "FP16", "mobile": "FP16"}
WEIGHT_WORDS = {"bf16": "BF16 weights", "int8": "8-bit weights", "int4": "4-bit weights"}
ASSUMED_BW = {"mobile": " (assumed: Apple does not publish it)"}
# Apple's one Neural Engine rate states no precision; coremltools says the A17 Pro gained INT8 throughput
ASSUMED_PEAK = f" (assumed: half of Apple's {fmt(C.A17_PRO_NPU_OPS, 'OP/s')}, read as INT8)"
MEMORY_OF = {**DEVICE, "mobile": "iPhone 15 Pro"}  # whose memory it is: the phone's, not the chip's
REPORTED_MEMORY = {"mobile": " (reported, not published by Apple; iOS keeps part of it)"}


def operations(count: float, precision: str) -> str:
    """A count of operations as its rate is written: FLOP for floats, OP (integer operations) for INT8."""
    return fmt(count, "FLOP") if precision != "int8" else fmt(count, "OP/s").removesuffix("/s")


def peak_note(context: str, precision: str, peak: float) -> str:
    text = fmt(peak, rate_unit(precision))
    return f"{text}{ASSUMED_PEAK}" if context == "mobile" else text


ACT1_WORDS = {  # the device as the engineer names it, where its rate comes from, and what they tuned
    "cloud": ("an H100", "the datasheet's", "The profiler", "tile sizes, warp layouts and pipelining"),
    "edge": ("a Jetson Orin NX", "its GPU's", "The profiler", "tile sizes, warp layouts and pipelining"),
    "mobile": ("the A17 Pro's Neural Engine", "the", "Core ML's performance report",
               "reshaping the layer for the Neural Engine"),
}


def act1_stakeholder(context: str) -> str:
    where, whose, tool, tuned = ACT1_WORDS[context]
    n = fmt(S.act1_hidden, "int")
    return (f"Our decode projection multiplies {fmt(S.act1_m, 'int')} tokens by a {n} × {n} {SIXTEEN[context]} "
            f"weight matrix on {where}. {tool} shows it far below {whose} "
            f"{peak_note(context, 'bf16', PEAKS[context]['bf16'])}, and two weeks of {tuned} changed nothing. "
            "Is the kernel broken, or is this all there is?")


def act1_scenario(context: str) -> tuple[str, ...]:
    return ("A GEMM does 2·M·K·N operations and must at least read its two inputs and write its output once. "
            "Its **arithmetic intensity** is operations per byte of that traffic.",
            f"The {SHORT[context]} reads memory at {fmt(device(context).mem_bw, 'GB/s')}"
            f"{ASSUMED_BW.get(context, '')}. A kernel is capped by its peak or by bandwidth × intensity, "
            "whichever is lower: the **roofline**.")


ACT2_WORDS = {  # who serves whom, on what, and what they plan
    "cloud": ("We serve Llama-3-8B in BF16 on H100s", "per GPU", "decode {batch} conversations together on each "
              "GPU. Before we rewrite the scheduler"),
    "edge": ("Our kiosks run Llama-3-8B with 4-bit weights on a Jetson Orin NX", "per kiosk",
             "serve {batch} conversations together on each kiosk. Before we order more kiosks"),
    "mobile": ("Our assistant runs Llama-3-8B with 4-bit weights on the iPhone 15 Pro (A17 Pro)", "on the phone",
               "summarise {batch} message threads together. Before we build it"),
}


def act2_stakeholder(context: str) -> str:
    who, where, plan = ACT2_WORDS[context]
    one = scenario_decode(context).at(S.act2_batch_low)
    return (f"{who}, one sequence at a time, which memory bandwidth caps at {fmt(one.tok_s, 'tokens/s')} {where} "
            f"at {fmt(S.act2_context, 'tokens')} of context. The product team wants to "
            f"{plan.format(batch=fmt(BATCH[context], 'int'))}: how fast will each one be?")


def act2_scenario(context: str) -> tuple[str, ...]:
    d = scenario_decode(context)
    return ("Generating one token runs the whole model once: every weight is read from memory "
            f"({fmt(d.weight_bytes, 'GB')} here), and each sequence also reads its **KV cache**, "
            f"{fmt(d.kv_bytes_per_token, 'B')} for every token before it.",
            "Decoding several sequences together turns each weight-times-vector product into a thin matrix "
            "multiply: one read of each weight serves the whole batch.")
