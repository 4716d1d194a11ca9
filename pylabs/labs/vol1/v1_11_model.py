"""The scenario and the model of V1-11 (The Roofline): the GEMMs and elementwise chains of Act I on
each context's device at each precision, and the Llama-3-8B decode step of Act II. The lab module
(``v1_11``) reads like its page; this is its model.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from pylabs.framework import fmt
from pylabs.labs.vol1.contexts import device
from pylabs.physics import constants as C
from pylabs.physics import kernels_ai as K
from pylabs.physics import serving
from pylabs.physics.kernels_ai import Kernel


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs (pedagogical defaults, not hardware facts)."""

    act1_m: float = 8.0              # tokens per call of the decode projection
    act1_hidden: float = 4096.0      # K = N, Llama-3-8B's hidden size
    chain_ops: int = 4               # norm, residual add, activation, gate multiply: separate kernels
    ops_per_element: float = 2.0     # assumed: a few operations per element for each op of the chain
    act2_context: float = 1024.0     # tokens of context per sequence
    act2_batch_low: float = 1.0
    act2_batch_high: float = 64.0
    big_m: float = 64.0              # the reflection's "batch more tokens" setting
    square_n: float = 512.0          # the takeaway's square GEMM (VOL1 §V1-11.4)
    roof_span: tuple[float, float] = (0.1, 1e4)  # intensities the roofline charts cover, op/B
    per_tera: float = 1e12           # the ledger keeps the ceiling in TFLOP/s, as the spec names it


S = Scenario()
PRECISIONS = {"fp32": ("FP32", C.BYTES_PER_FP32), "bf16": ("BF16 / FP16", C.BYTES_PER_BF16),
              "int8": ("INT8", C.BYTES_PER_INT8)}
PEAKS = {
    "cloud": {"fp32": C.H100_PEAK_FP32, "bf16": C.H100_PEAK_BF16_DENSE, "int8": C.H100_PEAK_INT8_DENSE},
    "edge": {"fp32": C.ORIN_NX_PEAK_FP32, "bf16": C.ORIN_NX_PEAK_FP16_DENSE, "int8": C.ORIN_NX_PEAK_INT8_DENSE},
}

# ---- Act I · The kernel that would not tune ----------------------------------------------


def gemm(context: str, precision: str, m: float, k: float, n: float) -> Kernel:
    b = PRECISIONS[precision][1]
    return Kernel(K.gemm_flop(m, k, n), K.gemm_bytes(m, k, n, b), PEAKS[context][precision],
                  device(context).mem_bw)


def chain(context: str, precision: str, elements: float, fused: bool) -> Kernel:
    b = PRECISIONS[precision][1]
    return Kernel(S.chain_ops * S.ops_per_element * elements,
                  K.elementwise_chain_bytes(elements, b, S.chain_ops, fused), PEAKS[context][precision],
                  device(context).mem_bw)


INT8_OVER_BF16 = PEAKS["cloud"]["int8"] / PEAKS["cloud"]["bf16"]  # the H100's INT8 tensor-core peak over its BF16


def times_in_words(ratio: float) -> str:
    """A ratio as a student says it before a noun: "twice" while it reads 2×, else "3×"."""
    return "twice" if fmt(ratio, "x") == "2×" else fmt(ratio, "x")


def grows(ratio: float) -> str:
    """How a quantity changes by ``ratio``, as a sentence says it: "doubles" while it reads 2×, else "grows 4×"."""
    return "doubles" if fmt(ratio, "x") == "2×" else f"grows {fmt(ratio, 'x')}"


SCENARIO_KERNEL = gemm("cloud", "bf16", S.act1_m, S.act1_hidden, S.act1_hidden)


def act1_truth() -> float:
    return SCENARIO_KERNEL.mfu


# ---- Act II · Decode on the roofline --------------------------------------------------------

WEIGHT_BYTES = {  # bytes per weight of each weight format (weight-only quantisation)
    "bf16": C.BYTES_PER_BF16,
    "int8": C.BYTES_PER_INT8,
    "int4": K.quantized_bytes_per_param(4, C.QUANT_GROUP_WEIGHTS, C.QUANT_SCALE_BYTES),
}


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
    return Decode(C.LLAMA3_8B_PARAMS_COUNTED, batch, tokens, C.LLAMA3_8B_PARAMS_COUNTED * WEIGHT_BYTES[weights], kv,
                  dev.peak_ops, dev.mem_bw, kv_heads=heads, mem_bytes=dev.mem_bytes)


SCENARIO_DECODE = decode("cloud", S.act2_batch_low, S.act2_context, "bf16")


def act2_truth() -> float:
    return SCENARIO_DECODE.at(S.act2_batch_high).tok_s / SCENARIO_DECODE.tok_s
