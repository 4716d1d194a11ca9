"""Lab V1-06 · The Quadratic Wall.

Core invariant: attention scores every token against every other, so the score matrix grows
with the square of the sequence length while the weights stay fixed and the KV cache grows
linearly. FlashAttention removes the N × N matrix from memory; the KV cache is the next wall.
Depth has its own cost: layers run one after another, and at batch 1 every kernel pays a fixed
launch cost, so at equal parameters a deep, narrow network decodes slower than a wide, shallow one.

Act I (the quadratic wall): a VP wants 100K-token prompts on a GPT-2-XL-shaped model (48
layers, d 1,600, 25 heads, FP16). Prediction: 4,096 → 8,192 tokens multiplies the score memory
by 4 (key B). Instruments: prompt length, FlashAttention, and the context's memory (H100 80 GB
or Orin NX 16 GB). Failure: the prompt does not fit.
Act II (depth against width): a 100 M-parameter on-device model, 64 narrow layers or 4 wide
ones. Prediction: the wide one is several times faster per token on the Orin (key B). The
corrected model charges each of the 4 GEMVs and 6 small kernels per layer at least one launch;
the upstream model was purely bandwidth-bound and gave both shapes the same time.
Failures: the per-token budget is missed, or the weights do not fit.

Choices where the spec left one open, and why:
* Act II asks for the deep ÷ wide time on the Orin, the on-device scenario; its ranges put
  "no difference" (upstream's model) in A, so the key letter stays B as in the spec.
* Launch costs (5 µs H100, 20 µs Orin, 1 µs in a CUDA graph) are estimates, so they are an
  instrument with labelled defaults, moved by the device choice.
* Act II has its own device choice (default Orin, the story's device); the context sets Act I's
  memory. Width follows from parameters and depth (d = √(P/12L)), so controls stay few.

Ledger fields (spec §V1-06): context, seq_len, flash, attn_oom, max_ctx, depth, width,
t_token_ms, sla_fail.
"""

from __future__ import annotations

from dataclasses import dataclass

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option, Prediction,
                              Range, Reflection, Slider, State, Toggle, callout, chart, failure, fmt, math_peek,
                              metric_grid, prose)
from pylabs.framework import charts as ch
from pylabs.labs.vol1.contexts import LABELS, TRACK, deployment, device
from pylabs.physics import constants as C
from pylabs.physics import training
from pylabs.physics import transformer as tf
from pylabs.physics.devices import BY_CONTEXT, Device
from pylabs.physics.references import cite


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs and the lab's labelled assumptions (not hardware facts)."""

    bytes_per_value: float = 2.0        # FP16 weights, KV cache and scores
    act1_seq: float = 4096.0            # today's prompt length
    act1_doubled: float = 8192.0        # the prediction's doubled prompt
    target_seq: float = 100_000.0       # what the VP asks for
    act2_params: float = 100e6          # the on-device model
    deep_layers: float = 64.0
    wide_layers: float = 4.0
    launch_cloud_s: float = 5e-6        # per-kernel launch and sync cost (est)
    launch_edge_s: float = 20e-6        # (est)
    launch_graph_s: float = 1e-6        # with the whole token captured in a CUDA graph (est)
    sla_s: float = 5e-3                 # per-token budget
    ms_per_s: float = 1e3               # the ledger keeps t_token_ms in milliseconds
    bytes_per_gb: float = 1e9           # chart axes in gigabytes
    kibi: float = 1024.0                # tick labels: 8K = 8,192 tokens
    chart_height_px: int = 360          # room for a two-line legend on a phone


S = Scenario()
LAYERS, WIDTH, HEADS = C.GPT2_XL_LAYERS, C.GPT2_XL_HIDDEN, C.GPT2_XL_HEADS
XL_PARAMS = tf.gpt2_params(LAYERS, WIDTH, C.GPT2_XL_VOCAB, C.GPT2_XL_CONTEXT)


def memory(seq: float, flash: bool) -> tf.PrefillMemory:
    return tf.prefill_memory(XL_PARAMS, LAYERS, WIDTH, HEADS, seq, S.bytes_per_value, flash)


def max_context(dev: Device, flash: bool) -> float:
    return tf.max_context_tokens(dev.mem_bytes, XL_PARAMS, LAYERS, WIDTH, HEADS, S.bytes_per_value, flash)


def training_activations(seq: float, flash: bool) -> float:
    """Korthikanti's per-layer activations × 48 layers at batch 1; FlashAttention drops the score term."""
    mode = "selective_tp_sp" if flash else "none"
    return LAYERS * training.activation_bytes_per_layer(seq, 1, WIDTH, HEADS, mode=mode)


# ---- context ----------------------------------------------------------------------

CONTEXT = deployment(("cloud", "edge"), default="cloud",
                     help="Sets the memory Act I's model must fit in: an H100's HBM or the Orin's shared LPDDR5.")

# ---- Act I · The quadratic wall ---------------------------------------------------------

A1_SEQ = Slider("a1_seq", "Prompt length N", unit="tokens", min=512, max=131072, step=1,
                default=S.act1_seq, fmt="tokens", scale="log2",
                help="Each step doubles the prompt.")
A1_FLASH = Toggle("a1_flash", "FlashAttention (compute scores tile by tile, never store N × N)")


def act1_truth() -> float:
    return memory(S.act1_doubled, False).scores_b / memory(S.act1_seq, False).scores_b


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"The model serves prompts of {fmt(S.act1_seq, 'tokens')} with standard attention today. If the prompt "
           f"doubles to {fmt(S.act1_doubled, 'tokens')}, by how many times does the memory for the attention "
           "score matrix grow?",
    quantity="score memory at twice the prompt ÷ score memory today",
    unit_fmt="x",
    options=(
        Range("A", "{range}: it grows in step with the prompt, like everything else", None, 3.0, 2.0,
              "The KV cache does grow in step with the prompt. The scores do not: every token is scored "
              "against every other, so there are N × N of them per head."),
        Range("B", "{range}: twice the rows and twice the columns", 3.0, 6.0, 4.0,
              "Each head's score matrix is N × N: doubling N doubles both sides."),
        Range("C", "{range}: attention is cubic in the prompt length", 6.0, 12.0, 8.0,
              "Computing scores·V costs N²·d FLOPs, but the stored matrix is N × N per head: "
              "square, not cube."),
        Range("D", "{range}: an order of magnitude or more", 12.0, None, 16.0,
              "That would need N⁴ growth; a square is enough to hit a wall quickly, as the instruments show."),
    ),
    truth=act1_truth,
)


def act1_facts() -> dict[str, str]:
    naive, flash = memory(S.target_seq, False), memory(S.target_seq, True)
    return {"naive_target": fmt(naive.total_b, "GB"), "flash_target": fmt(flash.total_b, "GB"),
            "kv_target": fmt(flash.kv_b, "GB"), "target": fmt(S.target_seq, "tokens")}


ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="FlashAttention gives the same outputs as standard attention, yet fits prompts whose score "
           "matrices would not fit in memory. How?",
    options=(
        Claim("A", "It approximates attention: it keeps only the largest scores (a sparse pattern).",
              "FlashAttention is exact: it computes every score. Sparse and low-rank attention are different, "
              "approximate methods."),
        Claim("B", "It computes scores in tiles that fit in on-chip SRAM and keeps a running softmax, so the "
                   "N × N matrix is never written to memory.",
              "Each tile of scores lives only in SRAM; the running maximum and sum per row (O(N) numbers) "
              "rescale partial results. At {target} the naive kernel needs {naive_target}, FlashAttention "
              "{flash_target}, and the KV cache alone is {kv_target}. The forward pass does the same "
              "arithmetic; the backward pass recomputes the scores (more FLOPs, fewer memory bytes)."),
        Claim("C", "It stores the scores in 8-bit numbers, a quarter of the bytes.",
              "A quarter of a quadratic is still quadratic; FlashAttention keeps 16-bit inputs and never "
              "stores the matrix at all."),
        Claim("D", "It moves the score matrix to CPU memory and streams it back when needed.",
              "Streaming N² scores over PCIe would be far slower than recomputing them; FlashAttention "
              "avoids the traffic instead of relocating it."),
    ),
    answer_letter="B",
)

M = {m.name: m for m in (
    MetricSpec("a1_total", "Memory for this prompt", "B", "GB"),
    MetricSpec("a1_scores", "Attention scores (one layer)", "B", "GB"),
    MetricSpec("a1_max_ctx", "Longest prompt that fits", "tokens", "tokens"),
    MetricSpec("a1_growth", f"Score memory ÷ at {fmt(S.act1_seq, 'tokens')}", "1", "x"),
    MetricSpec("a1_kv", "KV cache", "B", "GB"),
    MetricSpec("a1_weights", "Weights (FP16)", "B", "GB"),
    MetricSpec("a1_train_act", "Training activations (batch 1)", "B", "GB"),
    MetricSpec("a1_attn_share", "Attention share of forward FLOPs", "1", "pct"),
    MetricSpec("a2_t_token", "Time per token", "s", "ms"),
    MetricSpec("a2_vs_wide", "Time ÷ the same model in 4 wide layers", "1", "x"),
    MetricSpec("a2_overhead", "Time not spent reading weights", "1", "pct"),
    MetricSpec("a2_width", "Width d (from parameters and depth)", "1", "int"),
    MetricSpec("a2_floor", "Bandwidth floor (weights ÷ bandwidth)", "s", "ms"),
    MetricSpec("a2_launches", "Kernel launches per token", "1", "int"),
    MetricSpec("a2_weights", "Weights (FP16)", "B", "GB"),
)}

FAILURES = (
    FailureSpec("a1_attn_oom", "Out of memory: this prompt does not fit", act=1),
    FailureSpec("a2_sla_fail", "Over budget: each token takes longer than the per-token limit", act=2,
                severity="warn"),
    FailureSpec("a2_oom", "Out of memory: the weights do not fit on the device", act=2),
)
F = {f.name: f for f in FAILURES}


def act1_instruments(s: State) -> list:
    dev, seq, flash = device(s["context"]), s["a1_seq"], s["a1_flash"]
    m = memory(seq, flash)
    fits = m.total_b <= dev.mem_bytes
    parts = [metric_grid(
        M["a1_total"].show(m.total_b, None if fits else "danger", f"of {fmt(dev.mem_bytes, 'GB')} on the {dev.name}"),
        M["a1_scores"].show(m.scores_b, note="not stored: FlashAttention" if flash else ""),
        M["a1_max_ctx"].show(max_context(dev, flash)),
        M["a1_growth"].show(memory(seq, False).scores_b / memory(S.act1_seq, False).scores_b,
                            note="standard attention"),
        M["a1_kv"].show(m.kv_b),
        M["a1_weights"].show(m.weights_b, note=f"{fmt(XL_PARAMS, 'params')} parameters"),
        M["a1_train_act"].show(training_activations(seq, flash), note=f"{LAYERS:.0f} layers, Korthikanti et al."),
        M["a1_attn_share"].show(tf.attention_flop_share(XL_PARAMS, LAYERS, seq, WIDTH)),
    )]
    if not fits:
        parts.append(failure(F["a1_attn_oom"],
                             f"{fmt(seq, 'tokens')} need {fmt(m.total_b, 'GB')}, more than the "
                             f"{fmt(dev.mem_bytes, 'GB')} of the {dev.name}. "
                             + ("Turn on FlashAttention or shorten the prompt." if not flash else
                                "The KV cache is now the wall: shorten the prompt, or use a device with more memory.")))
    parts.append(act1_chart(dev, seq, flash))
    if seq > C.GPT2_XL_CONTEXT:
        parts.append(callout("info", "A model of GPT-2 XL's shape",
                             prose(f"GPT-2 XL was trained on prompts of {fmt(C.GPT2_XL_CONTEXT, 'tokens')}; "
                                   "beyond that, read these numbers as those of a model with its shape "
                                   "(layers, width, heads) trained for longer prompts.")))
    return parts


def act1_chart(dev: Device, seq: float, flash: bool):
    xs = [2.0 ** (k / 4) for k in range(36, 69)]
    mems = [memory(n, flash) for n in xs]
    naive = [memory(n, False).scores_b / S.bytes_per_gb for n in xs]
    traces = [ch.line("Weights", xs, [m.weights_b / S.bytes_per_gb for m in mems], "series3"),
              ch.line("KV cache", xs, [m.kv_b / S.bytes_per_gb for m in mems], "series2"),
              ch.line("Scores, standard attention" + (" (not stored)" if flash else ""), xs, naive,
                      "muted" if flash else "series1", dash="dot" if flash else "solid"),
              ch.line("Total", xs, [m.total_b / S.bytes_per_gb for m in mems], "ink"),
              ch.point("This prompt", seq, memory(seq, flash).total_b / S.bytes_per_gb, "accent")]
    shape, note = ch.hline(dev.mem_bytes / S.bytes_per_gb, "danger", f"{fmt(dev.mem_bytes, 'GB')} memory", log=True)
    note.update(x=0, xanchor="left")
    ticks = [2.0 ** k for k in (9, 11, 13, 15, 17)]
    figure = ch.figure(traces, x=ch.axis("Prompt length (tokens)", "log", **ch.ticks_at(ticks, token_tick)),
                       y=ch.axis("Gigabytes", "log", **ch.decade_ticks([min(naive), max(naive)])),
                       shapes=[shape], annotations=[note], height=S.chart_height_px)
    cap = max_context(dev, flash)
    summary = (f"At {fmt(seq, 'tokens')} the model needs {fmt(memory(seq, flash).total_b, 'GB')} against "
               f"{fmt(dev.mem_bytes, 'GB')}; the score line is twice as steep as the KV line on these log axes, "
               f"and the longest prompt that fits is {fmt(cap, 'tokens')}.")
    rows = [(fmt(n, "tokens"), fmt(m.weights_b, "GB"), fmt(m.kv_b, "GB"), fmt(m.scores_b, "GB"), fmt(m.total_b, "GB"))
            for n, m in zip(xs[::4], mems[::4])]
    return chart("a1_memory", "Memory against prompt length", figure, summary,
                 table=(("Prompt", "Weights", "KV cache", "Scores", "Total"), rows))


def act1_math(s: State):
    dev, seq, flash = device(s["context"]), s["a1_seq"], s["a1_flash"]
    m = memory(seq, flash)
    return math_peek("The governing equations · Act I", (
        Equation(r"M = P\,b + 2\,L\,N\,d\,b + h\,N^2\,b",
                 "Weights, the KV cache (a key and a value of width *d* per token per layer) and one layer's "
                 "score matrices (*h* heads of *N × N*), at *b* bytes per value; inference frees each layer's "
                 "scores before the next layer runs."),
        Equation(r"\frac{h\,(2N)^2\,b}{h\,N^2\,b} = 4",
                 "Doubling the prompt doubles the KV cache and quadruples the scores."),
        Equation(r"M_{\text{train}} = L\,s\,b\,h_d\left(34 + \frac{5\,a\,s}{h_d}\right)",
                 "Training keeps scores, softmax and dropout mask per layer (Korthikanti et al., 16-bit values); "
                 "FlashAttention removes the second term."),
    ), rows=(
        ("Layers *L*, width *d*, heads *h*", f"{LAYERS:.0f}, {WIDTH:.0f}, {HEADS:.0f}"),
        ("Parameters *P*", fmt(XL_PARAMS, "int")),
        ("Weights", fmt(m.weights_b, "GB")),
        ("KV cache", fmt(m.kv_b, "GB")),
        ("Scores", fmt(m.scores_b, "GB")),
        ("Memory of the device", fmt(dev.mem_bytes, "GB")),
    ), sources=(
        C.REGISTRY["GPT2_XL_HIDDEN"].source,
        cite("vaswani2017", "scaled dot-product attention, softmax(QKᵀ/√d)V"),
        cite("korthikanti2022", "activation bytes per layer"),
        cite("dao2022", "tiled attention with an online softmax, O(N) extra memory"),
    ))


ACT1 = Act(
    number=1, title="The Quadratic Wall", minutes="12–15 min",
    stakeholder_role="VP of Product",
    stakeholder=lambda: (
        f"Our assistant runs on a model of GPT-2 XL's shape and reads prompts of {fmt(S.act1_seq, 'tokens')}. "
        f"Competitors advertise {fmt(S.target_seq, 'tokens')}. Memory is cheap, isn't it? Double the prompt, "
        "double the memory: tell me how many GPUs that is."),
    scenario=lambda: (
        f"The model has {LAYERS:.0f} layers of width {WIDTH:.0f} with {HEADS:.0f} attention heads "
        f"({fmt(XL_PARAMS, 'params')} parameters), all in 16-bit numbers. While it reads a prompt it holds "
        "its weights, a key and a value vector per token per layer (the **KV cache**), and, with standard "
        "attention, each head's **score matrix**: one score for every pair of tokens.",
        "Pick the deployment context above: the same model on an H100 or on a Jetson Orin NX.",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_SEQ, A1_FLASH),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Attention memory explorer",
)

# ---- Act II · Depth against width -----------------------------------------------------

A2_DEVICE = Choice("a2_device", "Device", tuple(Option(k, LABELS[k]) for k in ("edge", "cloud")),
                   default="edge", help="Moving it sets the launch cost to that device's assumed default.")
A2_LAYERS = Slider("a2_layers", "Depth L (layers)", unit="layers", min=2, max=100, step=1,
                   default=S.deep_layers, fmt="int")
A2_PARAMS = Slider("a2_params", "Parameters P", unit="params", min=10e6, max=10e9, step=1,
                   default=S.act2_params, fmt="params", scale="log", steps=60,
                   help="Width follows: d = √(P / 12L).")
A2_LAUNCH = Slider("a2_launch", "Launch cost per kernel (assumed)", unit="s", min=1e-6, max=50e-6,
                   step=1e-6, default=S.launch_edge_s, fmt="us",
                   help="An estimate, not a vendor figure: about 20 µs on the Orin and 5 µs on the H100.")
A2_GRAPH = Toggle("a2_graph", "Capture each token's kernels in one CUDA graph")


def launch_s(s: State) -> float:
    return S.launch_graph_s if s["a2_graph"] else s["a2_launch"]


def token(dev: Device, layers: float, params: float, launch: float) -> tf.TokenLatency:
    return tf.decode_token_latency(layers, tf.width_for_params(params, layers), dev.peak_ops, dev.mem_bw,
                                   S.bytes_per_value, launch)


def depth_ratio(dev: Device, layers: float, params: float, launch: float) -> float:
    return token(dev, layers, params, launch).total_s / token(dev, S.wide_layers, params, launch).total_s


def act2_truth() -> float:
    return depth_ratio(BY_CONTEXT["edge"], S.deep_layers, S.act2_params, S.launch_edge_s)


def a2_overridden(s: State) -> dict[str, str]:
    if not s["a2_graph"]:
        return {}
    return {"a2_launch": f"Not used while the CUDA graph is on: the whole token launches at once, "
                         f"about {fmt(S.launch_graph_s, 'us')} per kernel (assumed)."}


ACT2_PREDICTION = Prediction(
    id="a2_predict", act=2,
    prompt=f"Both designs have {fmt(S.act2_params, 'params')} parameters and run at batch 1 on the Jetson Orin NX. "
           f"How many times longer does the {S.deep_layers:.0f}-layer model take per token than the "
           f"{S.wide_layers:.0f}-layer one?",
    quantity=f"time per token, {S.deep_layers:.0f} layers ÷ {S.wide_layers:.0f} layers",
    unit_fmt="x",
    options=(
        Range("A", "{range}: no real difference (or depth wins); same parameters, same bytes to read",
              None, 1.25, 1.0,
              "The bytes are the same, but depth multiplies the number of kernels, and each one has a fixed cost."),
        Range("B", "{range}: the wide model is clearly faster", 1.25, 8.0, 3.0,
              "{layer_ratio} the layers means {layer_ratio} the launches; the wide model's bigger GEMVs "
              "spend their time reading weights instead."),
        Range("C", "{range}: depth costs an order of magnitude", 8.0, 30.0, 15.0,
              "The wide model is not free either: its large GEMVs are bandwidth-bound and take longer than a launch."),
        Range("D", "{range}: depth is ruinous", 30.0, None, 50.0,
              "The launch count grows {layer_ratio}, but the wide model still reads its weights, "
              "which sets a floor under its time."),
    ),
    truth=act2_truth,
)


def act2_facts() -> dict[str, str]:
    h100 = BY_CONTEXT["cloud"]
    return {"layer_ratio": fmt(S.deep_layers / S.wide_layers, "x"), "deep": f"{S.deep_layers:.0f}",
            "kernels": f"{len(tf.GEMMS_PER_LAYER) + tf.SMALL_KERNELS_PER_LAYER}",
            "h100_ratio": fmt(depth_ratio(h100, S.deep_layers, S.act2_params, S.launch_cloud_s), "x"),
            "graph_ratio": fmt(depth_ratio(h100, S.deep_layers, S.act2_params, S.launch_graph_s), "x")}


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt="The deep model loses on the Orin and on the H100 alike. What makes depth cost time?",
    options=(
        Claim("A", "A deep model has more parameters to read from memory.",
              "Both have the same parameters, so both read the same bytes; the bandwidth floor is identical."),
        Claim("B", "The GPU runs independent layers side by side, and narrow layers cannot fill it.",
              "Layers are not independent: each needs the previous layer's output, so they never run side by side."),
        Claim("C", "Each layer needs the previous one's output, so its kernels run in sequence, and each kernel "
                   "pays a fixed launch and sync cost that the narrow layers' tiny GEMVs cannot hide.",
              "Depth is a chain: {deep} layers × {kernels} kernels each pay the fixed cost one after another. The H100 "
              "is no cure: {h100_ratio} there, because launch cost is set by the CPU and driver, not the "
              "GPU's size. CUDA graphs shrink it ({graph_ratio} on the H100) without removing it."),
        Claim("D", "Narrow matrices have lower arithmetic intensity, so they are compute-bound.",
              "At batch 1 every GEMV does about 1 FLOP per byte whatever its width: memory-bound, far "
              "below either device's ridge point."),
    ),
    answer_letter="C",
)


def act2_state(s: State) -> tuple[Device, tf.TokenLatency]:
    dev = BY_CONTEXT[s["a2_device"]]
    return dev, token(dev, s["a2_layers"], s["a2_params"], launch_s(s))


def act2_instruments(s: State) -> list:
    dev, lat = act2_state(s)
    weights = tf.weights_bytes(s["a2_params"], S.bytes_per_value)
    over = lat.total_s > S.sla_s
    parts = [metric_grid(
        M["a2_t_token"].show(lat.total_s, "warn" if over else "good", f"budget {fmt(S.sla_s, 'ms')}"),
        M["a2_vs_wide"].show(depth_ratio(dev, s["a2_layers"], s["a2_params"], launch_s(s))),
        M["a2_overhead"].show(lat.overhead_share),
        M["a2_width"].show(lat.d_model),
        M["a2_floor"].show(lat.streaming_s),
        M["a2_launches"].show(lat.layers * (len(tf.GEMMS_PER_LAYER) + tf.SMALL_KERNELS_PER_LAYER)),
        M["a2_weights"].show(weights, None if weights <= dev.mem_bytes else "danger",
                             f"of {fmt(dev.mem_bytes, 'GB')}"),
    )]
    if weights > dev.mem_bytes:
        parts.append(failure(F["a2_oom"], f"{fmt(s['a2_params'], 'params')} parameters in FP16 are "
                                          f"{fmt(weights, 'GB')}, more than the {fmt(dev.mem_bytes, 'GB')} of the "
                                          f"{dev.name}. Shrink the model."))
    if over:
        parts.append(failure(F["a2_sla_fail"], f"Each token takes {fmt(lat.total_s, 'ms')} against a budget of "
                                               f"{fmt(S.sla_s, 'ms')}. Fewer, wider layers, or a CUDA graph, "
                                               "cut the number of fixed costs."))
    parts.append(act2_chart(s, dev))
    return parts


def act2_chart(s: State, dev: Device):
    depths = list(range(int(A2_LAYERS.min), int(A2_LAYERS.max) + 1, 2))
    launch, params = launch_s(s), s["a2_params"]
    other = BY_CONTEXT["cloud" if dev.key == "edge" else "edge"]
    mine = [token(dev, L, params, launch).total_s * S.ms_per_s for L in depths]
    their_launch = S.launch_graph_s if s["a2_graph"] else default_launch(other)
    theirs = [token(other, L, params, their_launch).total_s * S.ms_per_s for L in depths]
    floor = token(dev, depths[0], params, launch).streaming_s * S.ms_per_s
    now = token(dev, s["a2_layers"], params, launch).total_s * S.ms_per_s
    traces = [ch.line(short(dev), depths, mine, "series1"),
              ch.line(f"{short(other)} at {fmt(their_launch, 'us')} per kernel", depths, theirs, "series2", dash="dash"),
              ch.line(f"{short(dev)}: reading the weights only", depths, [floor] * len(depths), "muted", dash="dot"),
              ch.point("Your depth", s["a2_layers"], now, "accent")]
    shape, note = ch.hline(S.sla_s * S.ms_per_s, "warn", f"{fmt(S.sla_s, 'ms')} budget", log=True)
    note.update(x=0.5, xanchor="center", yanchor="top")  # between the two curves at mid-depth
    values = mine + theirs + [floor, S.sla_s * S.ms_per_s]
    figure = ch.figure(traces, x=ch.axis("Depth L (layers), same parameters"),
                       y=ch.axis("Milliseconds per token", "log", **ch.decade_ticks(values, lambda v: f"{v:g}")),
                       shapes=[shape], annotations=[note], height=S.chart_height_px)
    summary = (f"With {fmt(params, 'params')} parameters and {fmt(launch, 'us')} per kernel, a token on the "
               f"{dev.name} takes {fmt(mine[0] / S.ms_per_s, 'ms')} at {depths[0]} layers and "
               f"{fmt(mine[-1] / S.ms_per_s, 'ms')} at {depths[-1]}; reading the weights alone takes "
               f"{fmt(floor / S.ms_per_s, 'ms')} at any depth.")
    rows = [(str(L), fmt(a / S.ms_per_s, "ms"), fmt(b / S.ms_per_s, "ms")) for L, a, b in
            zip(depths[::7], mine[::7], theirs[::7])]
    return chart("a2_depth", "Time per token against depth", figure, summary,
                 table=(("Layers", short(dev), short(other)), rows))


def default_launch(dev: Device) -> float:
    return S.launch_edge_s if dev.key == "edge" else S.launch_cloud_s


def token_tick(tokens: float) -> str:
    return f"{tokens / S.kibi:g}K" if tokens >= S.kibi else f"{tokens:g}"


def short(dev: Device) -> str:
    return "Orin NX" if dev.key == "edge" else "H100"


def act2_math(s: State):
    dev, lat = act2_state(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"d = \sqrt{\frac{P}{12\,L}}",
                 "Each block holds about 12*d²* weights (4*d²* in attention, 8*d²* in the MLP)."),
        Equation(r"T = L\left[\sum_{m \in \{3,1,4,4\}} \max\!\left(t_{\text{launch}},\ \frac{m\,d^2\,b}{B}\right) "
                 r"+ 6\,t_{\text{launch}}\right]",
                 "Per layer, four GEMVs (QKV, output, MLP up and down) each take at least one launch or the time to "
                 "read their weights at bandwidth *B*; six small kernels (norms, softmax, activation, residuals) "
                 "cost one launch each. Layers run in sequence."),
        Equation(r"T_{\min} = \frac{12\,L\,d^2\,b}{B} = \frac{P\,b}{B}",
                 "The bandwidth floor is the same for every depth: only the launches depend on *L*."),
    ), rows=(
        ("Device bandwidth *B*", fmt(dev.mem_bw, "GB/s")),
        ("Device peak (dense)", fmt(dev.peak_ops, "FLOP/s")),
        ("Width *d*", fmt(lat.d_model, "num")),
        ("Launch cost", fmt(launch_s(s), "us") + " (assumed)"),
        ("GEMVs, all layers", fmt(lat.gemm_s, "ms")),
        ("Small kernels, all layers", fmt(lat.small_kernels_s, "ms")),
    ), sources=(
        cite("williams2009", "roofline: a batch-1 GEMV does about 1 FLOP per byte"),
        cite("kaplan2020", "about 12·d² parameters per layer"),
        cite("cuda_graphs", "one launch for many kernels"),
        C.REGISTRY["H100_PEAK_BF16_SPARSE"].source + " (the sparse figure; this lab uses the dense one)",
        C.REGISTRY["ORIN_NX_PEAK_FP16_DENSE"].source,
    ))


ACT2 = Act(
    number=2, title="Depth against Width", minutes="15–20 min",
    stakeholder_role="Edge ML Lead",
    stakeholder=lambda: (
        f"Our on-device classifier has a budget of {fmt(S.act2_params, 'params')} parameters and must answer "
        f"within {fmt(S.sla_s, 'ms')} per token on the Jetson Orin NX. One team proposes "
        f"{S.deep_layers:.0f} narrow layers, the other {S.wide_layers:.0f} wide ones. Same parameters, "
        "same bytes: surely the speed is the same? Pick one."),
    scenario=lambda: (
        "At batch 1, each layer multiplies one vector by its weight matrices: four matrix-vector products "
        "(QKV, attention output, MLP up, MLP down) and six small kernels (two norms, attention, softmax, "
        "activation, residual adds). Every kernel launch and synchronisation has a fixed cost, about "
        f"{fmt(S.launch_edge_s, 'us')} on the Orin and {fmt(S.launch_cloud_s, 'us')} on the H100 "
        "(assumptions; you can change them).",
        "A layer cannot start before the previous one has finished: its input is that layer's output.",
    ),
    prediction=ACT2_PREDICTION,
    controls=(A2_DEVICE, A2_LAYERS, A2_PARAMS, A2_LAUNCH, A2_GRAPH),
    overridden=a2_overridden,
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="Depth and width latency",
)

# ---- the whole lab -------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    dev, lat = act2_state(s)
    active = {"a1_attn_oom": memory(s["a1_seq"], s["a1_flash"]).total_b > device(s["context"]).mem_bytes,
              "a2_sla_fail": lat.total_s > S.sla_s,
              "a2_oom": tf.weights_bytes(s["a2_params"], S.bytes_per_value) > dev.mem_bytes}
    return frozenset(name for name, on in active.items() if on)


def results(s: State) -> dict[str, float | bool | str]:
    _, lat = act2_state(s)
    failing = active_failures(s)
    return {"context": s["context"], "seq_len": s["a1_seq"], "flash": s["a1_flash"],
            "attn_oom": "a1_attn_oom" in failing, "max_ctx": max_context(device(s["context"]), s["a1_flash"]),
            "depth": s["a2_layers"], "width": lat.d_model, "t_token_ms": lat.total_s * S.ms_per_s,
            "sla_fail": "a2_sla_fail" in failing}


RECORD = (
    MetricSpec("context", "Deployment context", "1", "num"),
    MetricSpec("seq_len", "Prompt length", "tokens", "tokens"),
    MetricSpec("flash", "FlashAttention on", "1", "yesno"),
    MetricSpec("attn_oom", "Prompt out of memory", "1", "yesno"),
    MetricSpec("max_ctx", "Longest prompt that fits", "tokens", "tokens"),
    MetricSpec("depth", "Depth (layers)", "layers", "int"),
    MetricSpec("width", "Width d", "1", "int"),
    MetricSpec("t_token_ms", "Time per token (ms)", "1", "num"),
    MetricSpec("sla_fail", "Per-token budget missed", "1", "yesno"),
)


def lab_takeaways() -> list[str]:
    naive = {k: max_context(BY_CONTEXT[k], False) for k in ("cloud", "edge")}
    flash = {k: max_context(BY_CONTEXT[k], True) for k in ("cloud", "edge")}
    f = act1_facts()
    return [
        f"Attention scores grow with the square of the prompt: doubling it multiplies them by "
        f"{fmt(act1_truth(), 'x')}, while the KV cache only doubles.",
        f"On a model of GPT-2 XL's shape, standard attention fits {fmt(naive['cloud'], 'tokens')} on an H100 and "
        f"{fmt(naive['edge'], 'tokens')} on an Orin NX; FlashAttention raises that to "
        f"{fmt(flash['cloud'], 'tokens')} and {fmt(flash['edge'], 'tokens')}.",
        f"At {f['target']} FlashAttention needs {f['flash_target']} instead of {f['naive_target']}; the KV cache "
        f"({f['kv_target']}) is the next wall.",
        f"At equal parameters, {S.deep_layers:.0f} narrow layers take {fmt(act2_truth(), 'x')} as long per token "
        f"as {S.wide_layers:.0f} wide ones on the Orin: every layer adds kernels, and every kernel a fixed cost.",
    ]


LAB = Lab(
    id="v1_06", volume=1, number=6, title="The Quadratic Wall",
    invariant="Attention memory grows with the **square** of the sequence length; at batch 1, "
              "**depth** multiplies fixed per-kernel costs that width does not.",
    minutes="30–35 min", chapter="DNN Architectures", url="vol1/06-quadratic-wall/",
    reading=(
        "**Attention**: queries, keys, values and the N × N score matrix.",
        "**Transformer blocks**: attention and MLP, and where the parameters live.",
        "**Efficient attention**: FlashAttention and the KV cache.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "**V1-05 The Activation Tax**: activations, the memory that grows with the input.",
        "**V1-07 The Kernel Fusion Dividend**: the per-kernel overhead of Act II, and how fusion removes it.",
        "**V1-08 The Training Memory Budget**: the activation memory that training adds to all this.",
    ),
    presets={"a2_device": {k: {"a2_launch": default_launch(BY_CONTEXT[k])} for k in ("edge", "cloud")}},
    record_metrics=RECORD,
    context_from=TRACK,
)
