"""Lab V1-11 · The Roofline.

Core invariant: a kernel's ceiling is min(peak, bandwidth × intensity), the ridge point peak ÷
bandwidth per precision; below it only more operations per byte (or more bandwidth) help.

Act I (the kernel that would not tune): a decode projection (8 tokens × 4,096 × 4,096, 16-bit)
runs far below the device's peak. The prediction asks how many tokens per call it would take
before the kernel could reach the peak (346 on the H100, 159 on the Orin NX, 411 on the A17 Pro):
the student must put the intensity, about 2M/b, against the ridge. The reflection asks which
kernels on the roofline a chip with twice the peak and the same bandwidth would speed up.
Act II (decode on the roofline): Llama-3-8B decoding on one device at 4,096 tokens of context, in
the stakeholder's weight format and planned batch (64 on the H100, 16 on the Orin NX, 4 on the
phone). The prediction asks what share of its solo speed each sequence keeps in the batch; the
reflection asks which change raises that share most: fewer bytes per cached token (fewer bytes per
weight lower it; a faster chip leaves it).

Contexts: Cloud, Edge and Mobile, whose devices hold Llama-3-8B; TinyML is explained (track_notes).

Choices made where the spec leaves one, and departures (handbook/labs/v1_11.md §5):
- The spec's story quotes the profiler at 26.7 TFLOP/s, which is the ceiling itself (3.35 TB/s ×
  7.97 FLOP/B, 100 % of the HBM rate; measured kernels reach only part of it) and, divided by the
  peak, the answer to a "share of peak" question. The story now quotes no
  measured rate, and the prediction asks for the tokens per call that reach the peak.
- Act II runs at 4,096 tokens of context (the spec's decode rows, at 1,024, are still on the
  instruments), and the context slider stops at Llama-3-8B's 8,192-token window (the spec: 32,768).
- The phone: Apple publishes one Neural Engine rate, 35 trillion operations per second, without a
  precision, and no bandwidth (51.2 GB/s is the registry's labelled assumption). Core ML runs float
  16 models on the Neural Engine and float 32 ones on the GPU and CPU, so the phone is modelled in
  16-bit only. coremltools says the A17 Pro gained int8-int8 throughput on the Neural Engine, so
  Apple's headline is read as the INT8 rate and the 16-bit peak assumed at half of it, 17.5 TFLOP/s
  (said on the page; review of V1-11: taking the whole 35 as 16-bit doubled the phone's ridge). At
  that rate the ridge is 342 and 411 tokens reach it; at the full 35 it would be 1,027, the same
  range. Act II's weight-only INT4 multiplies in 16-bit against the same rate.
- The spec asks whether LayerNorm or softmax is the decode bottleneck; an elementwise chain is under
  a per cent of a step, so the chain and its fusion live on Act I's roofline instead.
- Launch latency, occupancy and L2-resident data are not modelled: a large square GEMM reaches
  100 % of peak here; real kernels stay below their roof (said on the page).

Ledger fields: device, precision, m, k, n, ai, attainable_tflops, mfu, regime, fused, tok_s, oom.
"""

from __future__ import annotations

import math
from dataclasses import replace
from functools import lru_cache

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option,
                              Prediction, Range, Reflection, Slider, State, Toggle, callout, failure,
                              fmt, math_peek, metric_grid, prose, tone)
from pylabs.framework.formats import listed, plural
from pylabs.labs.vol1.contexts import TRACK, deployment, device
from pylabs.labs.vol1.v1_11_charts import act1_chart, act2_roofline_chart, act2_throughput_chart
from pylabs.labs.vol1.v1_11_model import (ASSUMED_BW, BATCH, CONTEXTS, DEVICE, MEMORY_OF, PRECISIONS, REPORTED_MEMORY,
                                          SCENARIO_WEIGHTS, SHORT, SIXTEEN, WEIGHT_BYTES, WEIGHT_WORDS, Decode, S,
                                          act1_scenario, act1_stakeholder, act1_truth, act2_scenario,
                                          act2_stakeholder, act2_truth, chain, chain_share, decode, faster_chip_gain,
                                          gemm, operations, peak_note, precision_on, rate_unit, rows_to_peak,
                                          scenario_decode, scenario_kernel, share_if, times_in_words)
from pylabs.physics import constants as C
from pylabs.physics import units as U
from pylabs.physics.devices import ridge_point
from pylabs.physics.kernels_ai import Kernel
from pylabs.physics.references import cite

@lru_cache(maxsize=None)
def terms(context: str) -> dict[str, str]:
    """The words of each context that the questions name (the scenario's, never an answer)."""
    d = scenario_decode(context)
    return {"device": DEVICE[context], "prec": SIXTEEN[context], "batch": fmt(d.batch, "int"),
            "weights": WEIGHT_WORDS[SCENARIO_WEIGHTS[context]], "ctx": fmt(S.act2_context, "tokens"),
            "speedup": fmt(d.tok_s / d.at(S.act2_batch_low).tok_s, "x")}


# ---- context ----------------------------------------------------------------------

CONTEXT = deployment(CONTEXTS, default="cloud",
                     help="Sets the device: its peak at each precision, its memory bandwidth and its memory.")
TRACK_NOTES = {"tiny": (
    f"TinyML is not offered here: this lab's kernels are Llama-3-8B's, whose weights take "
    f"{fmt(C.LLAMA3_8B_PARAMS_COUNTED * WEIGHT_BYTES['int4'], 'GB')} even at 4 bits, and the STM32H743 holds "
    f"{fmt(C.STM32H743_FLASH_BYTES, 'iB')} of flash. The lab opens in Cloud (NVIDIA H100); before your first "
    "lock you can pick Edge or Mobile above.")}

# ---- Act I · The kernel that would not tune ----------------------------------------------

A1_M = Slider("a1_m", "Tokens per call, M", unit="tokens", min=1, max=8192, step=1, default=S.act1_m,
              fmt="int", scale="log2", help="Rows of the activation matrix: the tokens that share one read "
                                            "of the weights.")
A1_HIDDEN = Slider("a1_hidden", "Hidden size, K = N", unit="values", min=256, max=16384, step=1,
                   default=S.act1_hidden, fmt="int", scale="log2")
A1_PRECISION = Choice("a1_precision", "Precision", tuple(Option(k, v[0]) for k, v in PRECISIONS.items()),
                      default="bf16", unit="bytes per value",
                      help="Sets the peak (FP32 runs on CUDA cores, 16-bit and INT8 on tensor cores) and "
                           "the bytes each value takes.")
A1_SQUARE = Toggle("a1_square", "Square GEMM: M = K = N")
A1_FUSED = Toggle("a1_fused", f"Fuse the {S.chain_ops}-op elementwise chain into one kernel")


def shape(s: State) -> tuple[float, float, float]:
    n = s["a1_hidden"]
    return (n, n, n) if s["a1_square"] else (s["a1_m"], n, n)


def a1_precision(s: State) -> str:
    return precision_on(s["context"], s["a1_precision"])


def act1_kernel(s: State) -> Kernel:
    return gemm(s["context"], s["a1_precision"], *shape(s))


def a1_overridden(s: State) -> dict[str, str]:
    reasons = {}
    if s["a1_square"]:
        reasons["a1_m"] = f"Not used while the GEMM is square: M = K = N = {fmt(s['a1_hidden'], 'int')}."
    if s["context"] == "mobile":
        reasons["a1_precision"] = ("16-bit on the phone: Core ML can run float 16 models on the Neural Engine "
                                   "(float 32 ones run on the GPU and CPU), and Apple's one Neural Engine rate "
                                   "states no precision.")
    return reasons


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"On the {{device}}, with the {fmt(S.act1_hidden, 'int')} × {fmt(S.act1_hidden, 'int')} {{prec}} "
           "weight matrix, how many tokens must each call carry before a perfectly tuned kernel could reach "
           "the {prec} peak?",
    quantity="tokens per call at which the projection can reach the peak",
    unit_fmt="int",
    options=(
        Range("A", "{range}: a few rows already make a GEMM compute-bound", None, 16.0, 8.0,
              "A few rows share each weight read, but not enough: at {m} tokens each byte read feeds "
              "**{a1_ai}** operations, and the {device} can do {a1_ridge} operations in the time it reads one byte."),
        Range("B", "{range}: one full tile of rows keeps the matrix units fed", 16.0, 64.0, 32.0,
              "A tile sets how the work is cut, not how often each weight crosses memory: at {b_top} tokens "
              "the intensity is {ai_b_top} op/B, {b_top_share} of the ridge at {a1_ridge}."),
        Range("C", "{range}: a few tiles of rows, so each weight is reused many times", 64.0, 256.0, 128.0,
              "The intensity grows about as 2M/b: {c_top} tokens give {ai_c_top} op/B against a ridge of "
              "{a1_ridge}, and the peak is in reach from **{a1_m_star}**."),
        Range("D", "{range}: hundreds of rows; memory is far slower than arithmetic", 256.0, None,
              512.0, "With 2-byte values each token adds about one operation per byte, so the tokens needed "
                     "track the ridge, {a1_ridge} op/B: **{a1_m_star}** on the {device}."),
    ),
    truth=act1_truth,
    shown_by="a1_m_star",
)


def act1_facts(context: str) -> dict[str, str]:
    k = scenario_kernel(context)
    n = S.act1_hidden
    top = {letter: ACT1_PREDICTION.option(letter).high for letter in "BC"}
    square, gemv = gemm(context, "bf16", n, n, n), gemm(context, "bf16", 1, n, n)
    return {"a1_ai": fmt(k.ai, "num"), "a1_ridge": fmt(k.ridge, "num"), "m": fmt(S.act1_m, "int"),
            "a1_m_star": fmt(act1_truth(context), "tokens"), "device": DEVICE[context],
            "b_top": fmt(top["B"], "int"), "c_top": fmt(top["C"], "int"),
            "ai_b_top": fmt(gemm(context, "bf16", top["B"], n, n).ai, "num"),
            "ai_c_top": fmt(gemm(context, "bf16", top["C"], n, n).ai, "num"),
            "b_top_share": fmt(gemm(context, "bf16", top["B"], n, n).ai / k.ridge, "pct"),
            "square_ai": fmt(square.ai, "num"), "square_gain": fmt(faster_chip_gain(square), "x"),
            "gemv_ai": fmt(gemv.ai, "num"), "chain_ai": fmt(chain(context, "bf16", n, False).ai, "num"),
            "bw": fmt(device(context).mem_bw, "GB/s")}


ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt=f"A chip with {times_in_words(S.faster_chip)} the {{device}}'s peak and the same memory bandwidth "
           f"runs the four kernels of your roofline at the projection's settings ({fmt(S.act1_m, 'int')} tokens, "
           f"{fmt(S.act1_hidden, 'int')} wide, 16-bit). Which of them run faster?",
    options=(
        Claim("A", "Only the square GEMM; the other three wait on memory, not on arithmetic.",
              "The square GEMM does **{square_ai}** op/B, past the ridge at {a1_ridge}, so the faster "
              "chip runs it {square_gain} faster. The other three stay on the memory roof, whose slope is "
              "the unchanged bandwidth."),
        Claim("B", "All three GEMMs, the 8-token one too; multiplies are what the peak counts.",
              "Only a GEMM with enough rows outruns the memory: the {m}-token GEMM does {a1_ai} op/B and the "
              "GEMV {gemv_ai}, far left of the ridge at {a1_ridge}; their time is bytes ÷ {bw}, so they gain 1×."),
        Claim("C", "The elementwise chain most, since it does the least arithmetic per byte.",
              "The least arithmetic per byte means the bytes, not the arithmetic, set its time: at {chain_ai} "
              "op/B the chain waits on memory, and the faster chip reads no faster: it gains 1×."),
        Claim("D", "All four, each by nearly the same factor; every kernel does some arithmetic.",
              "Each kernel is held by one roof. Left of the ridge the time is bytes ÷ bandwidth, which the "
              "faster chip does not change (1×); only the square GEMM ({square_ai} op/B) gains, {square_gain}."),
    ),
    answer_letter="A",
)

M = {m.name: m for m in (
    MetricSpec("a1_m_star", "Tokens per call to reach the peak", "tokens", "tokens", infinite="none"),
    MetricSpec("a1_ai", "Arithmetic intensity", "op/B", "num"),
    MetricSpec("a1_ridge", "Ridge point", "op/B", "num"),
    MetricSpec("a1_rate", "Ceiling on this device", "op/s", "OP/s"),
    MetricSpec("a1_mfu", "Best share of peak", "1", "pct"),
    MetricSpec("a1_time", "Kernel time at the ceiling", "s", "s"),
    MetricSpec("a1_chain_ai", "Elementwise chain intensity", "op/B", "num"),
    MetricSpec("a1_chain_time", "Elementwise chain time on the output", "s", "s"),
    MetricSpec("a2_per_seq", "Each sequence's speed vs alone", "1", "pct"),
    MetricSpec("a2_tok_s", "Decode throughput", "tokens/s", "tokens/s"),
    MetricSpec("a2_speedup", "Throughput over batch 1", "1", "x"),
    MetricSpec("a2_step_s", "Time per decode step", "s", "s"),
    MetricSpec("a2_memory", "Weights + KV cache + activations", "B", "GB"),
    MetricSpec("a2_kv_share", "KV cache share of the bytes read", "1", "pct"),
    MetricSpec("a2_ai", "Decode step intensity", "FLOP/B", "num"),
    MetricSpec("a2_mfu", "Share of the compute peak", "1", "pct"),
)}
RECORD = (MetricSpec("device", "Device", "", "num"),
          MetricSpec("precision", "Act I precision", "", "num"),
          MetricSpec("m", "Act I GEMM rows, M (tokens per call)", "tokens", "int"),
          MetricSpec("k", "Act I GEMM inner size, K", "values", "int"),
          MetricSpec("n", "Act I GEMM columns, N", "values", "int"),
          MetricSpec("ai", "Act I arithmetic intensity (op/B)", "op/B", "num"),
          MetricSpec("attainable_tflops", "Act I ceiling (T op/s: TFLOP/s, or TOP/s in INT8)", "T op/s", "num"),
          MetricSpec("mfu", "Act I best share of peak", "1", "pct"),
          MetricSpec("regime", "Act I bound", "", "num"),
          MetricSpec("fused", "Act I elementwise chain", "", "num"),
          MetricSpec("tok_s", "Act II decode throughput", "tokens/s", "tokens/s"),
          MetricSpec("oom", "Act II memory", "", "num"))

FAILURES = (FailureSpec("a2_out_of_memory", "Out of memory: weights and KV cache do not fit the device", act=2,
                        reach={"a2_batch": 128}, leave={"a2_weights": "int4"}, contexts=("cloud",)),)
F = {f.name: f for f in FAILURES}


def act1_instruments(s: State) -> list:
    kern, ctx, p = act1_kernel(s), s["context"], a1_precision(s)
    m, k, n = shape(s)
    elementwise = chain(ctx, p, m * n, s["a1_fused"])
    unit, rf = ("op/B" if p == "int8" else "FLOP/B"), rate_unit(p)
    rows = rows_to_peak(ctx, p, k, n)
    most = 2 * k * n / (PRECISIONS[p][1] * (k + n))
    parts = [metric_grid(
        M["a1_m_star"].show(rows, note=f"at K = N = {fmt(n, 'int')} in {PRECISIONS[p][0]}" if math.isfinite(rows)
                            else f"none: the intensity tops out at {fmt(most, 'num')} {unit}, under the ridge"),
        M["a1_ai"].show(kern.ai, note=f"{unit}; {kern.regime}-bound"),
        M["a1_ridge"].show(kern.ridge, note=f"{unit}: {peak_note(ctx, p, kern.peak_ops)} ÷ "
                                            f"{fmt(kern.mem_bw, 'GB/s')}{ASSUMED_BW.get(ctx, '')}"),
        replace(M["a1_rate"], fmt=rf).show(kern.rate, note=f"of {fmt(kern.peak_ops, rf)} peak"),
        M["a1_mfu"].show(kern.mfu, tone(kern.mfu)),
        M["a1_chain_ai"].show(elementwise.ai, note=f"{unit}; " + ("fused" if s["a1_fused"]
                                                                 else f"{S.chain_ops} separate kernels")),
        M["a1_time"].show(kern.time_s, note=f"{operations(kern.flop, p)} over {fmt(kern.traffic_bytes, 'B')}"),
        M["a1_chain_time"].show(elementwise.time_s, note=f"{fmt(m * n, 'int')} values"),
    ), act1_chart(ctx, p, n, s["a1_fused"], kern, elementwise)]
    side = "left" if kern.regime == "memory" else "right"
    parts.append(callout("info", f"This GEMM is {kern.regime}-bound", prose(
        f"At {fmt(kern.ai, 'num')} {unit} it sits {side} of the ridge ({fmt(kern.ridge, 'num')}). Its ceiling is "
        f"min({fmt(kern.peak_ops, rf)}, {fmt(kern.mem_bw, 'GB/s')} × {fmt(kern.ai, 'num')}) = "
        f"**{fmt(kern.rate, rf)}**.",
        "A measured kernel reaches only part of its roof: memory seldom sustains its datasheet rate, and small "
        "matrices also lose time to launch latency and idle cores, which this model leaves out.")))
    return parts



def tokens_to_peak_text(rows: float) -> str:
    """M*, or in words when no number of tokens reaches the peak (its intensity stays below the ridge)."""
    return fmt(rows, "tokens") if math.isfinite(rows) else "none: no batch reaches the peak"

def act1_math(s: State):
    kern, ctx, p = act1_kernel(s), s["context"], a1_precision(s)
    m, k, n = shape(s)
    return math_peek("The governing equations · Act I", (
        Equation(r"I = \frac{2MKN}{b\,(MK + KN + MN)} \approx \frac{2M}{b}\ \ (M \ll K = N)",
                 "Operations per byte of compulsory traffic: read both inputs once, write the output once, "
                 "*b* bytes per value."),
        Equation(r"P = \min\!\left(P_{\text{peak},p},\ B \cdot I\right),\qquad R_p = \frac{P_{\text{peak},p}}{B}",
                 "The roofline: the ceiling is the peak at precision *p* or the bandwidth times the intensity; "
                 "the ridge point *R* moves with the precision."),
        Equation(r"M^{*} = \frac{R\,b\,KN}{2KN - R\,b\,(K + N)}",
                 "The tokens per call at which *I* reaches *R*; none when 2*KN* ≤ *Rb*(*K* + *N*)."),
        Equation(r"I_{\text{chain}} = \frac{k\,o}{2b}\ \text{(fused)},\qquad \frac{o}{2b}\ \text{(unfused)}",
                 "A chain of *k* elementwise ops, *o* operations per element each: fused, the tensor is read "
                 "and written once; unfused, once per op."),
    ), rows=(
        ("Shape *M × K × N*", f"{fmt(m, 'int')} × {fmt(k, 'int')} × {fmt(n, 'int')}"),
        ("Bytes per value, *b*", fmt(PRECISIONS[p][1], "int")),
        ("Peak, *P*", peak_note(ctx, p, kern.peak_ops)),
        ("Bandwidth, *B*", fmt(kern.mem_bw, "GB/s") + ASSUMED_BW.get(ctx, "")),
        ("Intensity, *I*", f"{fmt(kern.ai, 'num')} op/B"),
        ("Ridge, *R*", f"{fmt(kern.ridge, 'num')} op/B"),
        ("Tokens per call to reach the peak, *M**", tokens_to_peak_text(rows_to_peak(ctx, p, k, n))),
        ("Operations per element of the chain, *o* (assumed)", fmt(S.ops_per_element, "num")),
    ), sources=(
        cite("williams2009", "attainable = min(peak, bandwidth × operational intensity)"),
        cite("nvidia_dl_perf", "GEMM intensity and memory-limited operations"),
        cite("coreml_typed", "the phone's Neural Engine runs 16-bit models"),
        C.REGISTRY["H100_PEAK_BF16_DENSE"].source,
        C.REGISTRY["H100_PEAK_INT8_DENSE"].source,
        C.REGISTRY["ORIN_NX_PEAK_FP16_DENSE"].source,
        C.REGISTRY["ORIN_NX_PEAK_FP32"].source,
        C.REGISTRY["ORIN_NX_MEM_BW"].source,
        C.REGISTRY["A17_PRO_NPU_OPS"].source,
        C.REGISTRY["A17_PRO_NPU_FP16_ASSUMED"].source,
        C.REGISTRY["A17_PRO_MEM_BW"].source,
    ))


ACT1 = Act(
    number=1, title="The Kernel That Would Not Tune", minutes="15–20 min",
    stakeholder_role="Kernel Engineer",
    stakeholder=act1_stakeholder,
    scenario=act1_scenario,
    prediction=ACT1_PREDICTION,
    controls=(A1_M, A1_HIDDEN, A1_PRECISION, A1_SQUARE, A1_FUSED),
    overridden=a1_overridden,
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Kernel roofline",
)

# ---- Act II · Decode on the roofline --------------------------------------------------------

WEIGHTS = {  # the weight formats' names; their bytes per weight are the model's WEIGHT_BYTES
    "bf16": "BF16 weights",
    "int8": "INT8 weights (weight-only)",
    "int4": f"INT4 weights, an FP16 scale per {fmt(C.QUANT_GROUP_WEIGHTS, 'int')}",
}
A2_BATCH = Slider("a2_batch", "Sequences decoded together, B", unit="sequences", min=1, max=512, step=1,
                  default=BATCH["cloud"], fmt="int", scale="log2")
A2_CONTEXT = Slider("a2_context", "Context per sequence, L", unit="tokens", min=128, max=C.LLAMA3_8B_MAX_CONTEXT,
                    step=1, default=S.act2_context, fmt="tokens", scale="log2",
                    help=f"Up to Llama-3-8B's window of {fmt(C.LLAMA3_8B_MAX_CONTEXT, 'tokens')}.")
A2_WEIGHTS = Choice("a2_weights", "Weight format", tuple(Option(k, v) for k, v in WEIGHTS.items()),
                    default="bf16", unit="bytes per weight",
                    help="Weight-only quantisation: the multiplies still run in 16-bit, so the compute roof "
                         "stays the 16-bit peak; the KV cache stays BF16.")
A2_MHA = Toggle("a2_mha", "Without grouped-query attention: one K/V head per query head")


def act2_decode(s: State) -> Decode:
    return decode(s["context"], s["a2_batch"], s["a2_context"], s["a2_weights"], s["a2_mha"])


ACT2_PREDICTION = Prediction(
    id="a2_predict", act=2,
    prompt="Llama-3-8B with {weights} on the {device}, {ctx} of context per sequence. Decoding {batch} "
           "sequences together instead of one, each sequence's tokens arrive at what share of the speed it "
           "gets alone?",
    quantity="each sequence's tokens/s in the batch ÷ alone",
    unit_fmt="pct",
    options=(
        Range("A", "{range}: the device splits its time evenly among all the sequences", None, 0.10, 0.05,
              "One step serves all {batch} sequences at once: it takes **{step_ratio}** the time of one "
              "sequence's step, not {batch} times."),
        Range("B", "{range}: the caches outweigh the shared weights: each slows severalfold", 0.10, 0.50,
              0.30, "Each step reads the weights ({weights_gb}) once for all {batch} and every cache: "
                    "{kv_gb} of them. The step takes **{step_ratio}** as long as one sequence's."),
        Range("C", "{range}: the shared weights dominate; each slows a little as caches grow", 0.50, 0.90,
              0.70, "The weights ({weights_gb}) are read once per step for all {batch}; the caches add "
                    "{kv_gb}. The step takes **{step_ratio}** as long as one sequence's."),
        Range("D", "{range}: the step is memory-bound, so extra sequences ride along for free", 0.90, None, 0.95,
              "The step is memory-bound, but its bytes grow: each sequence adds its own {kv_one} cache to "
              "every step's reads."),
    ),
    truth=act2_truth,
    shown_by="a2_per_seq",
)


def act2_facts(context: str) -> dict[str, str]:
    d = scenario_decode(context)
    one = d.at(S.act2_batch_low)
    weights, _, _ = d.kernels()
    half = S.act2_reflect_scale
    return {"a2_per_seq": fmt(d.per_sequence, "pct"), "a2_speedup": fmt(d.tok_s / one.tok_s, "x"),
            "batch": fmt(d.batch, "int"), "step_ratio": fmt(d.step_s / one.step_s, "x"),
            "weights_gb": fmt(d.weight_bytes, "GB"), "kv_gb": fmt(d.kv_bytes, "GB"), "kv_one": fmt(one.kv_bytes, "GB"),
            "step_ai": fmt(d.ai, "num"), "ridge": fmt(weights.ridge, "num"), "chain_share": fmt(chain_share(d), "pct"),
            "chain_ops": fmt(S.chain_ops, "int"), "d_model": fmt(C.LLAMA3_8B_D_MODEL, "int"),
            "kv_heads": fmt(C.LLAMA3_8B_KV_HEADS, "int"), "half_kv_heads": fmt(C.LLAMA3_8B_KV_HEADS * half, "int"),
            "share_half_weights": fmt(share_if(d, weights=half), "pct"),
            "share_half_cache": fmt(share_if(d, cache=half), "pct"),
            "share_twice_peak": fmt(share_if(d, peak=S.faster_chip), "pct")}


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt="Decoding {batch} sequences together, the {device} gives {speedup} the tokens/s of one, not "
           "{batch}×. Which change would raise each sequence's share of its solo speed the most?",
    options=(
        Claim("A", "Fewer bits per weight, so that every step reads fewer bytes.",
              "Fewer weight bytes speed up every step, the lone sequence's most: at half the bytes per weight "
              "each sequence keeps **{share_half_weights}** of its solo speed, down from {a2_per_seq}, as the "
              "caches become a larger part of each step."),
        Claim("B", "A chip with twice the peak and the same memory bandwidth.",
              "Alone and in the batch the step is memory-bound ({step_ai} FLOP/B, left of the ridge at {ridge}): "
              "twice the peak shortens neither step, and the share stays **{share_twice_peak}**."),
        Claim("C", "Fewer bytes cached per token, as with fewer K/V heads.",
              "Each sequence's cache is read every step and shared with no other, so it is the part of the step "
              "that grows with the batch. Half the bytes per cached token ({half_kv_heads} K/V heads instead of "
              "{kv_heads}) lifts each sequence's share from {a2_per_seq} to **{share_half_cache}**."),
        Claim("D", "Fusing each layer's norms, residual adds and activations.",
              "Their tensor is only batch × {d_model} values: the {chain_ops}-op chain, unfused, is "
              "**{chain_share}** of the step at batch {batch}: fusing it moves the share by less than a point."),
    ),
    answer_letter="C",
)


def out_of_memory_levers(s: State) -> str:
    """What the student can still move to fit: only the levers not already at their end."""
    levers = [text for applies, text in (
        (s["a2_batch"] > A2_BATCH.min, "decode fewer sequences"),
        (s["a2_context"] > A2_CONTEXT.min, "keep a shorter context"),
        (s["a2_weights"] != "int4", "quantise the weights" + (" to 4 bits" if s["a2_weights"] == "int8" else "")),
        (s["a2_mha"], "turn grouped-query attention back on")) if applies]
    if not levers:
        return "Nothing on this page makes it fit."
    return "To fit, " + listed(levers) + "."


def act2_instruments(s: State) -> list:
    d = act2_decode(s)
    one = d.at(S.act2_batch_low)
    memory = M["a2_memory"].show(d.memory, "danger" if d.oom else tone(1 - d.memory / d.mem_bytes, 0.2, 0.0),
                                 f"of {fmt(d.mem_bytes, 'GB')}{REPORTED_MEMORY.get(s['context'], '')}")
    kv_share = M["a2_kv_share"].show(d.kv_bytes / (d.kv_bytes + d.weight_bytes))
    if d.oom:  # nothing runs: no speed, no step time, no share of the peak
        return [metric_grid(M["a2_tok_s"].show(0.0, "danger", "does not fit: nothing runs"), memory, kv_share),
                failure(F["a2_out_of_memory"],
                        f"{fmt(d.weight_bytes, 'GB')} of weights and {fmt(d.kv_bytes, 'B')} of KV cache "
                        f"need {fmt(d.memory, 'GB')}, more than the {MEMORY_OF[s['context']]}'s {fmt(d.mem_bytes, 'GB')}. "
                        + out_of_memory_levers(s)),
                act2_throughput_chart(d, s["context"]), act2_roofline_chart(d, s["context"])]
    return [metric_grid(
        M["a2_per_seq"].show(d.per_sequence, note=f"at batch {fmt(d.batch, 'int')}"),
        M["a2_tok_s"].show(d.tok_s, note=plural(d.batch, "sequence", count_fmt="int")),
        M["a2_speedup"].show(d.tok_s / one.tok_s, note=f"batch 1: {fmt(one.tok_s, 'tokens/s')}"),
        M["a2_step_s"].show(d.step_s),
        memory, kv_share,
        M["a2_ai"].show(d.ai, note=f"FLOP/B; ridge {fmt(ridge_point(d.peak_ops, d.mem_bw), 'num')}"),
        M["a2_mfu"].show(d.mfu, note=f"of {peak_note(s['context'], 'bf16', d.peak_ops)}"),
    ), act2_throughput_chart(d, s["context"]), act2_roofline_chart(d, s["context"])]


def act2_math(s: State):
    d = act2_decode(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"t = \max\!\left(\frac{W + B\,L\,\kappa}{BW},\ \frac{2PB}{P_{\text{peak}}}\right),\qquad "
                 r"\text{tokens/s} = \frac{B}{t}",
                 "Each step reads every weight once (*W* bytes) and each of the *B* sequences' caches of *L* "
                 "tokens (*κ* bytes per token), and does 2 FLOP per parameter per sequence."),
        Equation(r"\frac{\text{speed in the batch}}{\text{speed alone}} = \frac{t(1)}{t(B)} "
                 r"= \frac{W + L\kappa}{W + B\,L\kappa}\ \ \text{(memory-bound)}",
                 "Each sequence gets one token per step; the step grows only with the caches."),
        Equation(r"\kappa = 2\,n_{\text{layers}}\,n_{kv}\,d_{\text{head}}\,b,\qquad "
                 r"I_{\text{attn}} = \frac{2\,n_q / n_{kv}}{b}",
                 "A key and a value per K/V head per layer; attention's intensity is set by how many query "
                 "heads share a K/V head, never by the batch."),
        Equation(r"W + B\,L\,\kappa + B\,d\,b \le M_{\text{device}}",
                 "Weights, caches and one activation row per sequence must fit the device's memory."),
    ), rows=(
        ("Parameters, *P*", fmt(C.LLAMA3_8B_PARAMS_COUNTED, "params")),
        ("Weights, *W*", fmt(d.weight_bytes, "GB")),
        ("KV per token, *κ*", fmt(d.kv_bytes_per_token, "B")),
        ("KV caches, *B·L·κ*", fmt(d.kv_bytes, "B")),
        ("Peak (16-bit), *P*peak", peak_note(s["context"], "bf16", d.peak_ops)),
        ("Bandwidth, *BW*", fmt(d.mem_bw, "GB/s") + ASSUMED_BW.get(s["context"], "")),
        ("Step intensity", f"{fmt(d.ai, 'num')} FLOP/B"),
    ), sources=(
        cite("williams2009", "the roofline"),
        cite("kaplan2020", "2N FLOP per token in the forward pass"),
        cite("ainslie2023", "grouped-query attention: query heads share K/V heads"),
        cite("frantar2023", "4-bit weights with one scale per group of 128"),
        C.REGISTRY["LLAMA3_8B_PARAMS_COUNTED"].source,
        C.REGISTRY["LLAMA3_8B_KV_HEADS"].source,
        C.REGISTRY["LLAMA3_8B_MAX_CONTEXT"].source,
        C.REGISTRY["ORIN_NX_MEM_BYTES"].source,
        C.REGISTRY["A17_PRO_MEM_BYTES"].source,
        C.REGISTRY["A17_PRO_NPU_FP16_ASSUMED"].source,
    ))


ACT2 = Act(
    number=2, title="Decode on the Roofline", minutes="15–20 min",
    stakeholder_role="Inference Lead",
    stakeholder=act2_stakeholder,
    scenario=act2_scenario,
    prediction=ACT2_PREDICTION,
    controls=(A2_BATCH, A2_CONTEXT, A2_WEIGHTS, A2_MHA),
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="Decode step analyzer",
)

# ---- the whole lab -------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    return frozenset({"a2_out_of_memory"} if act2_decode(s).oom else set())


def results(s: State) -> dict[str, float | str | None]:
    kern, d, p = act1_kernel(s), act2_decode(s), a1_precision(s)
    m, k, n = shape(s)
    return {"device": device(s["context"]).name, "precision": PRECISIONS[p][0], "m": m, "k": k, "n": n,
            "ai": kern.ai, "attainable_tflops": kern.rate / U.TRILLION, "mfu": kern.mfu,
            "regime": f"{kern.regime}-bound",
            "fused": "fused" if s["a1_fused"] else f"{S.chain_ops} separate kernels",
            "tok_s": None if d.oom else d.tok_s, "oom": "does not fit" if d.oom else "fits"}


def on_each(values: dict[str, str]) -> str:
    """'295 on the H100, 147 on the Orin NX, 684 on the A17 Pro'."""
    return ", ".join(f"{v} on the {SHORT[c]}" for c, v in values.items())


def lab_takeaways() -> list[str]:
    kerns = {c: scenario_kernel(c) for c in CONTEXTS}
    square32 = gemm("cloud", "fp32", S.square_n, S.square_n, S.square_n)
    return [
        f"The {fmt(S.act1_m, 'int')}-token projection does {fmt(kerns['cloud'].ai, 'num')} operations per byte "
        f"in 16-bit, against ridges of {on_each({c: fmt(k.ridge, 'num') for c, k in kerns.items()})}: it sits on "
        "its memory roof on every device, and no tuning passes that roof.",
        "Intensity grows with the tokens per call (about 2M/b); the peak comes into reach from "
        f"{on_each({c: fmt(act1_truth(c), 'tokens') for c in CONTEXTS})}. Fewer bytes per value raise the "
        "intensity too, and fusing an elementwise chain multiplies the chain's intensity by its length; a faster "
        "arithmetic unit speeds up nothing below the ridge.",
        f"The ridge moves with the precision: {fmt(ridge_point(C.H100_PEAK_FP32, C.H100_HBM_BW), 'num')} op/B in "
        f"FP32 on the H100, {fmt(kerns['cloud'].ridge, 'num')} in BF16, "
        f"{fmt(ridge_point(C.H100_PEAK_INT8_DENSE, C.H100_HBM_BW), 'num')} in INT8. A square "
        f"{fmt(S.square_n, 'int')} GEMM is compute-bound in FP32 ({fmt(square32.ai, 'num')} op/B) and "
        f"memory-bound in BF16 ({fmt(2 * square32.ai, 'num')} op/B).",
        f"Decoding Llama-3-8B at {fmt(S.act2_context, 'tokens')} of context, the weights are read once for the "
        "whole batch but each sequence's KV cache is its own. Each sequence keeps this share of its speed "
        "alone: " + on_each({c: f"{fmt(act2_truth(c), 'pct')} at batch {fmt(BATCH[c], 'int')}" for c in CONTEXTS})
        + ".",
    ]


LAB = Lab(
    id="v1_11", volume=1, number=11, title="The Roofline",
    invariant="A kernel's ceiling is the lower of its peak and **bandwidth × intensity**, so below the ridge "
              "point only more operations per byte, or more bandwidth, raise it.",
    minutes="35–40 min", chapter="Hardware Acceleration", url="vol1/11-roofline/",
    description="Where a kernel's ceiling comes from — arithmetic intensity against the ridge point of the device's "
                "roofline — and what batching and the KV cache do to LLM decode.",
    reading=(
        "**Arithmetic intensity**: operations per byte, for a GEMM, a GEMV and an elementwise op.",
        "**The roofline model**: the memory roof, the compute roof, and the ridge point between them.",
        "**LLM decode**: why serving reads every weight per token, and what batching and the KV cache do.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "**V1-05 The Activation Tax**: an unfused activation is memory-bound for the same reason.",
        "**V1-07 The Kernel Fusion Dividend**: fusion as a way up the roofline.",
        "**V1-10 Compression**: fewer bytes per weight, and what they buy a memory-bound decode.",
    ),
    presets={"context": {c: {"a1_precision": "bf16", "a2_weights": SCENARIO_WEIGHTS[c], "a2_batch": BATCH[c],
                             "a2_context": S.act2_context} for c in CONTEXTS}},
    record_metrics=RECORD,
    context_from=TRACK,
    terms=terms,
    track_notes=TRACK_NOTES,
    hook="A decode projection runs far below its chip's peak, and two weeks of tuning changed nothing. "
         "Is the kernel broken, or is that all there is?",
)
