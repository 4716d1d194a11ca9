"""Lab V1-11 · The Roofline.

Core invariant: a kernel's ceiling is min(peak, bandwidth × arithmetic intensity), with the ridge
point peak ÷ bandwidth computed per precision. Below the ridge no tuning and no faster arithmetic
helps: only more operations per byte (more tokens per call, fewer bytes per value, fusion) or more
bandwidth moves the kernel.

Act I (the kernel that would not tune): a decode projection (8 tokens × 4,096 × 4,096, BF16) runs
at a few per cent of the H100's peak. Its intensity is about 8 FLOP/B against a ridge of 295, so
it already sits on its ceiling. The roofline shows the student's GEMM with a GEMV, a square GEMM
and an elementwise chain (fused or not) against the device's roofs at three precisions and the
other context's device.
Act II (decode on the roofline): Llama-3-8B decoding on one device. Batching shares each weight
read across sequences, so throughput grows almost with the batch until each sequence's KV cache,
read every step at a fixed intensity, takes over the traffic; memory (weights + KV) sets the OOM.

Choices made where the spec leaves one (VOL1_09-16 §V1-11):
- The Act I prediction asks for the kernel's best share of peak (its ceiling), because the
  stakeholder quotes the measured rate: a student who knows the roofline sees the measurement is
  the ceiling. The Act II prediction asks for the batch-64 over batch-1 throughput, the spec's
  decode golden rows.
- The spec's Act II story asks whether LayerNorm or softmax is the bottleneck. With the corrected
  model an elementwise chain is under a per cent of a decode step (its tensor is batch × 4,096
  values, the weights are gigabytes), so the elementwise chain and its fusion live on Act I's
  roofline, and Act II's reflection asks what stops batching from scaling: the KV cache reads.
- Weight-only quantisation in Act II: INT8/INT4 weights are dequantised and multiplied in 16-bit,
  so the compute roof stays the device's 16-bit peak while the weight bytes shrink.
- Small-GEMM effects (launch latency, occupancy, L2-resident data) are not modelled, so a large
  square GEMM reaches 100 % of peak here; real kernels stay somewhat below their roof (said on the page).

Ledger fields: device, precision, m, k, n, ai, attainable_tflops, mfu, regime, fused, tok_s, oom.
"""

from __future__ import annotations

import math
from dataclasses import replace

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option,
                              Prediction, Range, Reflection, Slider, State, Toggle, callout, chart, failure,
                              fmt, math_peek, metric_grid, prose, tone)
from pylabs.framework import charts as ch
from pylabs.framework.formats import plural
from pylabs.labs.vol1.contexts import TRACK, deployment, device
from pylabs.labs.vol1.v1_11_model import (INT8_OVER_BF16, PEAKS, PRECISIONS, SCENARIO_DECODE, SCENARIO_KERNEL, Decode,
                                          S, act1_truth, act2_truth, chain, decode, gemm, grows, times_in_words)
from pylabs.physics import constants as C
from pylabs.physics import kernels_ai as K
from pylabs.physics.devices import ridge_point
from pylabs.physics.kernels_ai import Kernel
from pylabs.physics.references import cite

PRECISION_SHORT = {"fp32": "FP32", "bf16": "16-bit", "int8": "INT8"}
SHORT = {"cloud": "H100", "edge": "Orin NX"}
OTHER = {"cloud": "edge", "edge": "cloud"}


def rate_fmt(precision: str) -> str:
    """INT8 counts integer operations; the float precisions count FLOP."""
    return "OP/s" if precision == "int8" else "FLOP/s"


def short_rate(value: float) -> str:
    """A rate tick without its unit (the axis title names it): 1e12 -> '1 T'."""
    return fmt(value, "OP/s").replace("OP/s", "").strip()


# ---- context ----------------------------------------------------------------------

CONTEXT = deployment(("cloud", "edge"), default="cloud",
                     help="Sets the device: its peak at each precision, its memory bandwidth and its memory.")

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


def act1_kernel(s: State) -> Kernel:
    return gemm(s["context"], s["a1_precision"], *shape(s))


def a1_overridden(s: State) -> dict[str, str]:
    if not s["a1_square"]:
        return {}
    return {"a1_m": f"Not used while the GEMM is square: M = K = N = {fmt(s['a1_hidden'], 'int')}."}


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"The projection multiplies {fmt(S.act1_m, 'int')} tokens by a {fmt(S.act1_hidden, 'int')} × "
           f"{fmt(S.act1_hidden, 'int')} BF16 weight matrix on an H100. Tuned perfectly, what is the largest "
           "share of the H100's BF16 peak this kernel can reach?",
    quantity="best share of the BF16 peak",
    unit_fmt="pct",
    options=(
        Range("A", "{range}: it is already at its ceiling, waiting on memory", None, 0.05, 0.03,
              "Right: the kernel sits on the memory roof."),
        Range("B", "{range}: memory-bound, but better tiling could still win a few times", 0.05, 0.25, 0.12,
              "Tiling cannot go below the compulsory traffic: the weights must be read once, and the ceiling "
              "counts exactly that. At **{ai}** FLOP/B the roof is {ceiling}."),
        Range("C", "{range}: what a well-tuned production kernel reaches", 0.25, 0.70, 0.5,
              "A well-tuned kernel reaches most of the *roof above it*, not of the peak. With {m} tokens per "
              "weight read the intensity is **{ai}** FLOP/B, far left of the ridge at {ridge}."),
        Range("D", "{range}: a matrix multiply is compute-bound, so tuning reaches the peak", 0.70, None, 0.9,
              "Square GEMMs are compute-bound; this one is not square. With only {m} rows, each weight byte "
              "feeds about {m} operations: **{ai}** FLOP/B against a ridge of {ridge}."),
    ),
    truth=act1_truth,
)


def act1_facts() -> dict[str, str]:
    k = SCENARIO_KERNEL
    big = gemm("cloud", "bf16", S.big_m, S.act1_hidden, S.act1_hidden)
    int8 = gemm("cloud", "int8", S.act1_m, S.act1_hidden, S.act1_hidden)
    return {"ai": fmt(k.ai, "num"), "ridge": fmt(k.ridge, "num"), "ceiling": fmt(k.rate, "FLOP/s"),
            "m": fmt(S.act1_m, "int"), "big_m": fmt(S.big_m, "int"), "big_rate": fmt(big.rate, "FLOP/s"),
            "big_gain": fmt(big.rate / k.rate, "x"), "int8_gain": fmt(int8.rate / k.rate, "x"),
            "bw": fmt(C.H100_HBM_BW, "GB/s")}


ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="The product team wants this projection several times faster on the same H100. Which change "
           "raises its ceiling the most?",
    options=(
        Claim("A", f"Run it in INT8: the tensor cores do {times_in_words(INT8_OVER_BF16)} the operations per second.",
              "The higher INT8 peak is out of reach below the ridge. What helps is "
              f"{plural(C.BYTES_PER_INT8, 'byte', count_fmt='words')} per value instead of "
              f"{fmt(C.BYTES_PER_BF16, 'words')}: the intensity {grows(C.BYTES_PER_BF16 / C.BYTES_PER_INT8)}, a gain "
              "of {int8_gain}, and changes the model's numbers."),
        Claim("B", "Batch more tokens into each call: every weight read then serves more rows.",
              "For M ≪ K the intensity is about 2M/b, so it grows with the tokens per call: at {big_m} tokens "
              "the ceiling is **{big_rate}**, {big_gain} today's. Serving systems batch requests for "
              "exactly this reason."),
        Claim("C", "Larger tiles and better shared-memory reuse.",
              "The ceiling already assumes perfect reuse: each weight read once from memory. No tiling reads "
              "it less than once."),
        Claim("D", "Move to a GPU with twice the peak FLOP/s and the same memory.",
              "Below the ridge the ceiling is bandwidth × intensity ({bw} × {ai} FLOP/B here); a faster "
              "arithmetic unit waits for the same bytes."),
    ),
    answer_letter="B",
)

M = {m.name: m for m in (
    MetricSpec("a1_ai", "Arithmetic intensity", "op/B", "num"),
    MetricSpec("a1_rate", "Ceiling on this device", "op/s", "OP/s"),
    MetricSpec("a1_mfu", "Best share of peak", "1", "pct"),
    MetricSpec("a1_ridge", "Ridge point", "op/B", "num"),
    MetricSpec("a1_time", "Kernel time at the ceiling", "s", "s"),
    MetricSpec("a1_chain_ai", "Elementwise chain intensity", "op/B", "num"),
    MetricSpec("a1_chain_time", "Elementwise chain time on the output", "s", "s"),
    MetricSpec("a2_tok_s", "Decode throughput", "tokens/s", "tokens/s"),
    MetricSpec("a2_speedup", "Throughput over batch 1", "1", "x"),
    MetricSpec("a2_step_s", "Time per decode step", "s", "s"),
    MetricSpec("a2_memory", "Weights + KV cache + activations", "B", "GB"),
    MetricSpec("a2_ai", "Decode step intensity", "FLOP/B", "num"),
    MetricSpec("a2_mfu", "Share of the 16-bit peak", "1", "pct"),
    MetricSpec("a2_kv_share", "KV cache share of the bytes read", "1", "pct"),
)}
RECORD = (MetricSpec("attainable_tflops", "Act I ceiling, TFLOP/s (or TOP/s)", "TFLOP/s", "num"),
          MetricSpec("tok_s", "Decode throughput", "tokens/s", "tokens/s"))

FAILURES = (FailureSpec("a2_out_of_memory", "Out of memory: weights and KV cache do not fit the device", act=2),)
F = {f.name: f for f in FAILURES}


def act1_instruments(s: State) -> list:
    kern = act1_kernel(s)
    m, k, n = shape(s)
    elementwise = chain(s["context"], s["a1_precision"], m * n, s["a1_fused"])
    unit = "op/B" if s["a1_precision"] == "int8" else "FLOP/B"
    rf = rate_fmt(s["a1_precision"])
    parts = [metric_grid(
        M["a1_ai"].show(kern.ai, note=f"{unit}; {kern.regime}-bound"),
        replace(M["a1_rate"], fmt=rf).show(kern.rate, note=f"of {fmt(kern.peak_ops, rf)} peak"),
        M["a1_mfu"].show(kern.mfu, tone(kern.mfu)),
        M["a1_ridge"].show(kern.ridge, note=f"{unit}: {fmt(kern.peak_ops, rf)} ÷ {fmt(kern.mem_bw, 'GB/s')}"),
        M["a1_time"].show(kern.time_s, note=f"{fmt(kern.flop, 'FLOP')} over {fmt(kern.traffic_bytes, 'B')}"),
        M["a1_chain_ai"].show(elementwise.ai, note=f"{unit}; " + ("fused" if s["a1_fused"]
                                                                 else f"{S.chain_ops} separate kernels")),
        M["a1_chain_time"].show(elementwise.time_s, note=f"{fmt(m * n, 'int')} values"),
    ), act1_chart(s, kern, elementwise)]
    where = ("left of the ridge: the bytes set its time, and faster arithmetic would change nothing"
             if kern.regime == "memory" else "right of the ridge: the arithmetic sets its time")
    parts.append(callout("info", f"This GEMM is {kern.regime}-bound", prose(
        f"At {fmt(kern.ai, 'num')} {unit} it sits {where}. The ceiling is "
        f"min({fmt(kern.peak_ops, rf)}, {fmt(kern.mem_bw, 'GB/s')} × {fmt(kern.ai, 'num')}) = "
        f"**{fmt(kern.rate, rf)}**.",
        "A real kernel stays somewhat below its roof; small matrices also lose time to launch latency and "
        "idle cores, which this model leaves out.")))
    return parts


def reference_kernels(s: State, elementwise: Kernel) -> list[tuple[str, Kernel, str, str]]:
    ctx, p, n = s["context"], s["a1_precision"], s["a1_hidden"]
    return [("GEMV", gemm(ctx, p, 1, n, n), "series3", "diamond"),
            ("Square GEMM", gemm(ctx, p, n, n, n), "good", "square"),
            ("Elementwise" + (" (fused)" if s["a1_fused"] else ""), elementwise, "warn", "triangle-up")]


def act1_chart(s: State, kern: Kernel, elementwise: Kernel):
    ctx, p = s["context"], s["a1_precision"]
    bw, other = device(ctx).mem_bw, OTHER[ctx]
    refs = reference_kernels(s, elementwise)
    widest = max(kern.ai, *(r[1].ai for r in refs))
    span = (S.roof_span[0], max(S.roof_span[1], 10.0 ** math.ceil(math.log10(widest))))
    others = [q for q in PRECISIONS if q != p]
    roofs = [ch.roof(f"{SHORT[ctx]} · {PRECISION_SHORT[p]}", PEAKS[ctx][p], bw, span, "series1")]
    for q in others:
        roof = ch.roof(f"{SHORT[ctx]} · {' and '.join(PRECISION_SHORT[o] for o in others)}", PEAKS[ctx][q], bw,
                       span, "muted", dash="dot")
        roof.update(legendgroup="other", showlegend=not any(r.get("legendgroup") == "other" for r in roofs))
        roofs.append(roof)
    roofs.append(ch.roof(f"{SHORT[other]} · {PRECISION_SHORT[p]}", PEAKS[other][p], device(other).mem_bw, span,
                         "series2", dash="dash"))
    points = [marker(name, k, color, symbol) for name, k, color, symbol in refs]
    points.append(ch.point("Your GEMM", kern.ai, kern.rate, "accent"))
    figure = ch.roofline_figure(roofs, points, span, short_rate, x_title="Arithmetic intensity (op/B)",
                                y_title="Attainable rate (op/s)")
    summary = (f"On the {SHORT[ctx]} in {PRECISIONS[p][0]} the roof turns at {fmt(kern.ridge, 'num')} op/B. "
               f"Your GEMM sits at {fmt(kern.ai, 'num')} op/B with a ceiling of {fmt(kern.rate, rate_fmt(p))} "
               f"({fmt(kern.mfu, 'pct')} of peak); the elementwise chain sits at {fmt(elementwise.ai, 'num')} op/B.")
    rows = [(name, fmt(k.ai, "num"), fmt(k.rate, rate_fmt(p)), fmt(k.mfu, "pct"), k.regime)
            for name, k in [("Your GEMM", kern)] + [(r[0], r[1]) for r in refs]]
    return chart("a1_roofline", f"Roofline of the {SHORT[ctx]} with your kernels", figure, summary,
                 table=(("Kernel", "op/B", "Ceiling", "Share of peak", "Bound"), rows))


def marker(name: str, k: Kernel, color: str, symbol: str) -> dict:
    trace = ch.scatter(name, [k.ai], [k.rate], color, text=[f"{name}: {fmt(k.ai, 'num')} op/B, "
                                                                f"{fmt(k.rate, 'OP/s')}"], size=11)
    trace["marker"]["symbol"] = symbol
    return trace


def act1_math(s: State):
    kern = act1_kernel(s)
    m, k, n = shape(s)
    return math_peek("The governing equations · Act I", (
        Equation(r"I = \frac{2MKN}{b\,(MK + KN + MN)} \approx \frac{2M}{b}\ \ (M \ll K = N)",
                 "Operations per byte of compulsory traffic: read both inputs once, write the output once, "
                 "*b* bytes per value."),
        Equation(r"P = \min\!\left(P_{\text{peak},p},\ B \cdot I\right),\qquad R_p = \frac{P_{\text{peak},p}}{B}",
                 "The roofline: the ceiling is the peak at precision *p* or the bandwidth times the intensity; "
                 "the ridge point *R* moves with the precision."),
        Equation(r"I_{\text{chain}} = \frac{k\,o}{2b}\ \text{(fused)},\qquad \frac{o}{2b}\ \text{(unfused)}",
                 "A chain of *k* elementwise ops, *o* operations per element each: fused, the tensor is read "
                 "and written once; unfused, once per op."),
    ), rows=(
        ("Shape *M × K × N*", f"{fmt(m, 'int')} × {fmt(k, 'int')} × {fmt(n, 'int')}"),
        ("Bytes per value, *b*", fmt(PRECISIONS[s['a1_precision']][1], "int")),
        ("Peak, *P*", fmt(kern.peak_ops, "OP/s")),
        ("Bandwidth, *B*", fmt(kern.mem_bw, "GB/s")),
        ("Intensity, *I*", f"{fmt(kern.ai, 'num')} op/B"),
        ("Ridge, *R*", f"{fmt(kern.ridge, 'num')} op/B"),
        ("Operations per element of the chain, *o* (assumed)", fmt(S.ops_per_element, "num")),
    ), sources=(
        cite("williams2009", "attainable = min(peak, bandwidth × operational intensity)"),
        cite("nvidia_dl_perf", "GEMM intensity and memory-limited operations"),
        C.REGISTRY["H100_PEAK_BF16_DENSE"].source,
        C.REGISTRY["H100_PEAK_INT8_DENSE"].source,
        C.REGISTRY["ORIN_NX_PEAK_FP16_DENSE"].source,
        C.REGISTRY["ORIN_NX_PEAK_FP32"].source,
        C.REGISTRY["ORIN_NX_MEM_BW"].source,
    ))


ACT1 = Act(
    number=1, title="The Kernel That Would Not Tune", minutes="15–20 min",
    stakeholder_role="GPU Kernel Engineer",
    stakeholder=lambda: (
        f"Our decode projection multiplies {fmt(S.act1_m, 'int')} tokens by a "
        f"{fmt(S.act1_hidden, 'int')} × {fmt(S.act1_hidden, 'int')} BF16 weight matrix. The profiler says "
        f"{fmt(SCENARIO_KERNEL.rate, 'FLOP/s')} on an H100 whose datasheet promises "
        f"{fmt(C.H100_PEAK_BF16_DENSE, 'FLOP/s')}. Two weeks of tile sizes, warp layouts and pipelining "
        "changed nothing. Is the kernel broken, or is this all there is?"),
    scenario=lambda: (
        "A GEMM does 2·M·K·N operations and must at least read its two inputs and write its output once. "
        "Its **arithmetic intensity** is operations per byte of that traffic.",
        f"The H100 reads memory at {fmt(C.H100_HBM_BW, 'GB/s')}. A kernel is capped by its peak or by "
        "bandwidth × intensity, whichever is lower: the **roofline**.",
    ),
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
                  default=S.act2_batch_high, fmt="int", scale="log2")
A2_CONTEXT = Slider("a2_context", "Context per sequence, L", unit="tokens", min=128, max=32768, step=1,
                    default=S.act2_context, fmt="tokens", scale="log2")
A2_WEIGHTS = Choice("a2_weights", "Weight format", tuple(Option(k, v) for k, v in WEIGHTS.items()),
                    default="bf16", unit="bytes per weight",
                    help="Weight-only quantisation: the multiplies still run in 16-bit, so the compute roof "
                         "stays the 16-bit peak; the KV cache stays BF16.")
A2_MHA = Toggle("a2_mha", "Without grouped-query attention: one K/V head per query head")


def act2_decode(s: State) -> Decode:
    return decode(s["context"], s["a2_batch"], s["a2_context"], s["a2_weights"], s["a2_mha"])


ACT2_PREDICTION = Prediction(
    id="a2_predict", act=2,
    prompt=f"Llama-3-8B in BF16 on one H100, {fmt(S.act2_context, 'tokens')} of context per sequence. "
           f"Decoding {fmt(S.act2_batch_high, 'int')} sequences together instead of "
           f"{fmt(S.act2_batch_low, 'int')}, how many times more tokens per second does the server produce?",
    quantity=f"tokens/s at batch {fmt(S.act2_batch_high, 'int')} ÷ at batch {fmt(S.act2_batch_low, 'int')}",
    unit_fmt="x",
    options=(
        Range("A", "{range}: the GPU is already busy, so batching barely helps", None, 4.0, 1.5,
              "At batch 1 the step is all weight reads: the arithmetic units idle at {b1_mfu} of peak."),
        Range("B", "{range}: a solid gain, well short of the batch", 4.0, 20.0, 10.0,
              "The weights are read once per step for every sequence together, and they are most of the bytes."),
        Range("C", "{range}: most of the batch, but not all of it", 20.0, 60.0, 40.0,
              "Right: the shared weight reads make batching nearly free, until the KV caches add up."),
        Range("D", "{range}: throughput grows with the batch", 60.0, None, 64.0,
              "Each sequence still reads its own KV cache every step: {kv_high} at batch {high}, against "
              "{weights} of weights."),
    ),
    truth=act2_truth,
)


def act2_facts() -> dict[str, str]:
    low, high = SCENARIO_DECODE, SCENARIO_DECODE.at(S.act2_batch_high)
    d = C.LLAMA3_8B_D_MODEL
    unfused = K.elementwise_chain_bytes(S.act2_batch_high * d, C.BYTES_PER_BF16, S.chain_ops, False)
    chain_s = C.LLAMA3_8B_LAYERS * unfused / C.H100_HBM_BW
    return {"b1_mfu": fmt(low.mfu, "pct"),
            "kv_high": fmt(high.kv_bytes, "GB"), "weights": fmt(high.weight_bytes, "GB"),
            "high": fmt(S.act2_batch_high, "int"), "tok_low": fmt(low.tok_s, "tokens/s"),
            "tok_high": fmt(high.tok_s, "tokens/s"),
            "attn_ai": fmt(K.attention_decode_intensity(C.LLAMA3_8B_QUERY_HEADS, C.LLAMA3_8B_KV_HEADS,
                                                        C.BYTES_PER_BF16), "num"),
            "weight_ai": fmt(2 * S.act2_batch_high / C.BYTES_PER_BF16, "num"),
            "ridge": fmt(ridge_point(C.H100_PEAK_BF16_DENSE, C.H100_HBM_BW), "num"),
            "chain_share": fmt(chain_s / high.step_s, "pct"), "chain_ops": fmt(S.chain_ops, "int"),
            "q_heads": fmt(C.LLAMA3_8B_QUERY_HEADS, "int"), "kv_heads": fmt(C.LLAMA3_8B_KV_HEADS, "int"),
            "d_model": fmt(d, "int")}


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt=f"Batch {fmt(S.act2_batch_high, 'int')} gives less than {fmt(S.act2_batch_high, 'int')} times the "
           "throughput of batch 1. What holds it back?",
    options=(
        Claim("A", "The matrix multiplies turn compute-bound at this batch.",
              "Not yet: with {high} sequences each weight byte feeds about **{weight_ai}** FLOP, still left of "
              "the ridge at {ridge}. The step is memory-bound throughout."),
        Claim("B", "Each sequence reads its own KV cache every step; that traffic grows with the batch and "
                   "no other sequence shares it.",
              "Attention over the cache does **{attn_ai}** FLOP/B whatever the batch ({q_heads} query heads "
              "share {kv_heads} K/V heads in BF16). At batch {high} the caches are {kv_high} of reads per step next to "
              "{weights} of weights, so the step grows from reading the caches, not the weights."),
        Claim("C", "Norms, residual adds and activations are memory-bound, and they dominate at large batch.",
              "They are memory-bound, but their tensor is only batch × {d_model} values: the "
              "{chain_ops}-op chain, unfused, is **{chain_share}** of the step at batch {high}."),
        Claim("D", "Kernel launch overhead grows with the number of sequences.",
              "One decode step launches the same kernels for 1 or {high} sequences: the batch is one more "
              "row of each matrix, not more launches."),
    ),
    answer_letter="B",
)


def act2_instruments(s: State) -> list:
    d = act2_decode(s)
    one = d.at(S.act2_batch_low)
    dev = device(s["context"])
    parts = [metric_grid(
        M["a2_tok_s"].show(0.0 if d.oom else d.tok_s, "danger" if d.oom else None,
                           "does not fit" if d.oom else plural(d.batch, "sequence", count_fmt="int")),
        M["a2_speedup"].show(d.tok_s / one.tok_s, note=f"at batch {fmt(d.batch, 'int')}"),
        M["a2_step_s"].show(d.step_s),
        M["a2_memory"].show(d.memory, "danger" if d.oom else tone(1 - d.memory / d.mem_bytes, 0.2, 0.0),
                            f"of {fmt(d.mem_bytes, 'GB')}"),
        M["a2_ai"].show(d.ai, note=f"FLOP/B; ridge {fmt(ridge_point(d.peak_ops, d.mem_bw), 'num')}"),
        M["a2_mfu"].show(d.mfu),
        M["a2_kv_share"].show(d.kv_bytes / (d.kv_bytes + d.weight_bytes)),
    )]
    if d.oom:
        parts.append(failure(F["a2_out_of_memory"],
                             f"{fmt(d.weight_bytes, 'GB')} of weights and {fmt(d.kv_bytes, 'GB')} of KV cache "
                             f"need {fmt(d.memory, 'GB')}, more than the {dev.name}'s {fmt(d.mem_bytes, 'GB')}. "
                             "Use fewer sequences or a shorter context, quantise the weights, or keep "
                             "grouped-query attention."))
    parts += [act2_throughput_chart(d, s["context"]), act2_roofline_chart(d, s["context"])]
    return parts


BATCHES = [2.0 ** e for e in range(10)]


def act2_throughput_chart(d: Decode, context: str):
    runs = [d.at(b) for b in BATCHES]
    fits = [r.tok_s if not r.oom else None for r in runs]
    traces = [ch.line("Linear in the batch", BATCHES, [b * runs[0].tok_s for b in BATCHES], "muted", dash="dot"),
              ch.line("Roofline model", BATCHES, fits, "series1", markers=True)]
    over = [(b, r.tok_s) for b, r in zip(BATCHES, runs) if r.oom]
    if over:
        traces.append(ch.scatter("Does not fit in memory", [b for b, _ in over], [t for _, t in over], "danger"))
    traces.append(ch.point("Your setting" + (" (does not fit)" if d.oom else ""), d.batch, d.tok_s, "accent"))
    ceiling = d.peak_ops / (2 * C.LLAMA3_8B_PARAMS_COUNTED)
    shape_, note = ch.hline(ceiling, "danger", "compute ceiling", log=True)
    values = [*(b * runs[0].tok_s for b in BATCHES), ceiling, *(r.tok_s for r in runs)]
    ticks = BATCHES[::2]
    figure = ch.figure(traces, x=ch.axis("Sequences decoded together", "log", tickvals=ticks,
                                         ticktext=[f"{b:.0f}" for b in ticks]),
                       y=ch.axis("Tokens per second", "log", **ch.decade_ticks(values)),
                       shapes=[shape_], annotations=[note])
    return chart("a2_throughput", "Decode throughput against batch", figure, throughput_summary(runs, context, ceiling),
                 table=(("Batch", "Tokens/s", "Step", "Memory", "Fits"), throughput_rows(runs)))


def throughput_summary(runs: list[Decode], context: str, ceiling: float) -> str:
    fitting = [(b, r) for b, r in zip(BATCHES, runs) if not r.oom]
    if not fitting:
        return (f"No batch fits the {SHORT[context]}'s memory with these weights and this context: one sequence "
                f"already needs {fmt(runs[0].memory, 'GB')}.")
    batch, best = fitting[-1]
    limit = ", the largest batch that fits" if len(fitting) < len(runs) else ""
    return (f"On the {SHORT[context]} throughput rises from {fmt(runs[0].tok_s, 'tokens/s')} at batch 1 to "
            f"{fmt(best.tok_s, 'tokens/s')} at batch {fmt(batch, 'int')}{limit}, below the linear line as the KV "
            f"caches grow; the compute ceiling is {fmt(ceiling, 'tokens/s')}.")


def throughput_rows(runs: list[Decode]) -> list[tuple[str, ...]]:
    return [(fmt(b, "int"), fmt(r.tok_s, "tokens/s"), fmt(r.step_s, "s"), fmt(r.memory, "GB"),
             "no" if r.oom else "yes") for b, r in zip(BATCHES, runs)]


def act2_roofline_chart(d: Decode, context: str):
    span = S.roof_span
    dev = device(context)
    b_w = d.weight_bytes / C.LLAMA3_8B_PARAMS_COUNTED
    weights, attention, step = d.kernels()
    roofs = [ch.roof(f"{SHORT[context]} · 16-bit", d.peak_ops, d.mem_bw, span, "series1")]
    points = [marker("Weight matmuls", weights, "series3", "diamond"),
              marker("Attention (KV cache)", attention, "warn", "triangle-up"),
              ch.point("Decode step", step.ai, step.rate, "accent")]
    figure = ch.roofline_figure(roofs, points, span, short_rate, x_title="Arithmetic intensity (FLOP/B)",
                                y_title="Attainable rate (FLOP/s)")
    summary = (f"At batch {fmt(d.batch, 'int')} the weight matmuls do {fmt(weights.ai, 'num')} FLOP/B "
               f"({fmt(b_w, 'num')} bytes per weight), attention over the cache {fmt(attention.ai, 'num')} FLOP/B, "
               f"and the whole step {fmt(step.ai, 'num')} FLOP/B against the {dev.name}'s ridge of "
               f"{fmt(step.ridge, 'num')}.")
    rows = [(name, fmt(k.ai, "num"), fmt(k.rate, "FLOP/s"), k.regime)
            for name, k in (("Weight matmuls", weights), ("Attention (KV cache)", attention),
                            ("Decode step", step))]
    return chart("a2_roofline", "The decode step's kernels on the roofline", figure, summary,
                 table=(("Kernel", "FLOP/B", "Ceiling", "Bound"), rows))


def act2_math(s: State):
    d = act2_decode(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"t = \max\!\left(\frac{W + B\,L\,\kappa}{BW},\ \frac{2PB}{P_{\text{peak}}}\right),\qquad "
                 r"\text{tokens/s} = \frac{B}{t}",
                 "Each step reads every weight once (*W* bytes) and each of the *B* sequences' caches of *L* "
                 "tokens (*κ* bytes per token), and does 2 FLOP per parameter per sequence."),
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
        ("KV caches, *B·L·κ*", fmt(d.kv_bytes, "GB")),
        ("Peak (16-bit), *P*peak", fmt(d.peak_ops, "FLOP/s")),
        ("Bandwidth, *BW*", fmt(d.mem_bw, "GB/s")),
        ("Step intensity", f"{fmt(d.ai, 'num')} FLOP/B"),
    ), sources=(
        cite("williams2009", "the roofline"),
        cite("kaplan2020", "2N FLOP per token in the forward pass"),
        cite("ainslie2023", "grouped-query attention: query heads share K/V heads"),
        cite("frantar2023", "4-bit weights with one scale per group of 128"),
        C.REGISTRY["LLAMA3_8B_PARAMS_COUNTED"].source,
        C.REGISTRY["LLAMA3_8B_KV_HEADS"].source,
        C.REGISTRY["ORIN_NX_MEM_BYTES"].source,
    ))


ACT2 = Act(
    number=2, title="Decode on the Roofline", minutes="15–20 min",
    stakeholder_role="ML Infrastructure Lead",
    stakeholder=lambda: (
        f"We serve Llama-3-8B in BF16 on H100s, one sequence at a time: "
        f"{fmt(SCENARIO_DECODE.tok_s, 'tokens/s')} per GPU. The product team wants to decode "
        f"{fmt(S.act2_batch_high, 'int')} conversations together on each GPU. Finance wants to know what that "
        "buys before we rewrite the scheduler; the edge team wants the same answer for a Jetson."),
    scenario=lambda: (
        "Generating one token runs the whole model once: every weight is read from memory, and every "
        "sequence reads its own **KV cache**, the keys and values of all the tokens before it.",
        "Decoding several sequences together turns each weight-times-vector product (a GEMV) into a thin "
        "GEMM: one read of each weight serves every sequence in the batch.",
    ),
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


def results(s: State) -> dict[str, float | str | bool]:
    kern, d = act1_kernel(s), act2_decode(s)
    m, k, n = shape(s)
    return {"device": device(s["context"]).name, "precision": s["a1_precision"], "m": m, "k": k, "n": n,
            "ai": kern.ai, "attainable_tflops": kern.rate / S.per_tera, "mfu": kern.mfu, "regime": kern.regime,
            "fused": s["a1_fused"], "tok_s": 0.0 if d.oom else d.tok_s, "oom": d.oom}


def lab_takeaways() -> list[str]:
    k, facts = SCENARIO_KERNEL, act2_facts()
    big = gemm("cloud", "bf16", S.big_m, S.act1_hidden, S.act1_hidden)
    square32 = gemm("cloud", "fp32", S.square_n, S.square_n, S.square_n)
    return [
        f"The {fmt(S.act1_m, 'int')}-token projection does {fmt(k.ai, 'num')} FLOP per byte; the H100's BF16 ridge "
        f"is {fmt(k.ridge, 'num')}. Its ceiling is {fmt(k.rate, 'FLOP/s')}, {fmt(k.mfu, 'pct')} of peak: no tuning "
        "goes past the memory roof.",
        f"Intensity grows with the tokens per call (about 2M/b): {fmt(S.big_m, 'int')} tokens raise the ceiling "
        f"to {fmt(big.rate, 'FLOP/s')}. Fewer bytes per value raise it too, and fusing an elementwise chain multiplies "
        "the chain's intensity by its length; a faster arithmetic unit raises nothing below the ridge.",
        f"The ridge moves with the precision: {fmt(ridge_point(C.H100_PEAK_FP32, C.H100_HBM_BW), 'num')} op/B in "
        f"FP32, {fmt(k.ridge, 'num')} in BF16, {fmt(ridge_point(C.H100_PEAK_INT8_DENSE, C.H100_HBM_BW), 'num')} in INT8. "
        f"A square {fmt(S.square_n, 'int')} GEMM is compute-bound in FP32 ({fmt(square32.ai, 'num')} op/B) "
        f"and memory-bound in BF16 ({fmt(2 * square32.ai, 'num')} op/B).",
        f"Decoding Llama-3-8B, batch {facts['high']} gives {fmt(act2_truth(), 'x')} the tokens/s of batch 1 "
        f"({facts['tok_low']} → {facts['tok_high']}): the weights are shared, but each sequence's KV cache "
        f"({facts['attn_ai']} FLOP/B) is not.",
    ]


LAB = Lab(
    id="v1_11", volume=1, number=11, title="The Roofline",
    invariant="A kernel's ceiling is **min(peak, bandwidth × intensity)**; below the ridge point only more "
              "operations per byte help.",
    minutes="35–40 min", chapter="Hardware Acceleration", url="vol1/11-roofline/",
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
    presets={"context": {"cloud": {"a2_weights": "bf16"}, "edge": {"a2_weights": "int4"}}},
    record_metrics=RECORD,
    context_from=TRACK,
)
