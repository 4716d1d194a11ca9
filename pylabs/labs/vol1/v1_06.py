"""Lab V1-06 · The Quadratic Wall.

Core invariant: attention scores every token against every other, so the score matrix grows with the
square of the prompt while the KV cache grows in step with it and the weights stay fixed; the total
grows between the two. FlashAttention removes the N × N matrix from memory, and the KV cache becomes
the wall. Depth has its own cost: layers run one after another, and at batch 1 every kernel pays a
fixed launch cost, so at equal parameters a deep, narrow network decodes slower than a wide, shallow
one, and the more so the faster the device reads its memory.

Act I (a longer prompt): a VP wants 100,000-token prompts on a GPT-2-XL-shaped model (48 layers,
d 1,600, 25 heads, FP16) that reads 4,096 today, and reckons memory grows with the prompt. The
prediction asks how many times today's memory the longer prompt needs with standard attention:
102× (weights fixed, KV cache ×24.4, scores ×596), key C, the same in both contexts. The
reflection asks what still fills the memory once FlashAttention stores no scores: the KV cache
(96 % of the H100's 80 GB at its longest prompt, 81 % of the Orin's 16 GB), key D.
Act II (depth against width): a 100 M-parameter text generator decodes at batch 1, 64 narrow layers
or 4 wide ones, on the context's device at its assumed launch cost. The prediction asks the wide
model's time per token as a share of the deep one's: 6.25 % on the H100 (5 µs a launch), 19.0 % on
the Orin NX (20 µs), key A in both. The reflection asks why depth costs more on the faster GPU: its
memory reads 32.7× faster but a launch is only 4× cheaper (key B).

Departures from the spec (handbook/labs/v1_06.md §5) and why:
* Act I's prediction was "4,096 → 8,192 multiplies the score memory by?" (4×, B), whose option B
  restated the prompt's own N × N matrix and whose answer the bold invariant stated. It
  now asks for the total at the VP's prompt, which needs every term's growth from the numbers the
  scenario gives; the 4× stays on the cards and in the math peek. Its key's gloss was the hedge
  "faster than the prompt, slower than its square", which a student finds by logic alone (weights
  fixed, scores squared) without the numbers (review); C and D now both say the scores take over, and
  only the sum (102× against 596×) tells them apart.
* Act I's reflection was "how does FlashAttention fit?", whose key the toggle's label stated. It now
  asks about what the act shows with FlashAttention on: what fills the memory at the longest prompt.
* Act II's prediction asks the wide/deep share (not deep/wide), so its key is the lowest range, and
  follows the context's device at the launch cost its prompt states. The Orin's 20 µs is an assumption
  (HTA gives 5 to 20 µs for any host), so the ranges put A under 60 % and the launch slider starts at
  HTA's 5 µs: A then holds over the whole slider on both devices (the Orin's share is 51.4 % at 5 µs;
  under 40 %, the review found, it flipped to B below 8 µs). A CUDA graph's 1 µs is another setup
  (84.6 % on the Orin, B), not the prompt's.
* Act II's reflection was "what makes depth cost time?" with the scenario stating the answer ("a
  layer cannot start before the previous one has finished"); it now asks why the H100 pays more.
* The story's "on-device classifier … 5 ms per token" was batch-1 decoding: it is a text generator.
  Launch costs come from the registry (HTA: the CPU side of a launch usually takes 5 to
  20 µs; a CUDA graph about 1 µs a kernel); which end each device sits at is a labelled assumption.
* Contexts: Cloud (H100) and Edge (Orin NX) set both acts' device (Act II's device choice follows the
  context and can be moved to compare). Mobile and TinyML are explained on the page (track_notes).

Ledger fields (handbook/labs/v1_06.md): context, seq_len, flash, attn_oom, max_ctx, depth, width,
t_token_ms, sla_fail.
"""

from __future__ import annotations

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option, Prediction,
                              Range, Reflection, Slider, State, Toggle, callout, failure, fmt, math_peek,
                              metric_grid, prose)
from pylabs.labs.vol1.contexts import LABELS, TRACK, deployment, device
from pylabs.labs.vol1.v1_06_charts import act1_chart, act2_chart
from pylabs.labs.vol1.v1_06_model import (CONTEXTS, HEADS, KERNELS_PER_LAYER, LAYERS, SHORT, WIDTH, XL_PARAMS, S,
                                          act1_truth, act2_truth, at_flash_cap, bytes_per_launch, default_launch,
                                          growth_to_target, max_context, memory, terms, token,
                                          training_activations, wide_share)
from pylabs.physics import constants as C
from pylabs.physics import transformer as tf
from pylabs.physics import units as U
from pylabs.physics.devices import BY_CONTEXT, Device
from pylabs.physics.references import cite

# ---- context ----------------------------------------------------------------------

CONTEXT = deployment(CONTEXTS, default="cloud",
                     help="Sets the device of both acts: the memory Act I's model must fit in (an H100's HBM or "
                          "the Orin's LPDDR5, which its CPU and OS share: the lab counts all "
                          f"{fmt(C.ORIN_NX_MEM_BYTES, 'B')}, so a real model gets less) and the device Act II's "
                          "models run on.")

# ---- Act I · A longer prompt -----------------------------------------------------------

A1_SEQ = Slider("a1_seq", "Prompt length N", unit="tokens", min=512, max=131072, step=1,
                default=S.act1_seq, fmt="tokens", scale="log2",
                help="Each step doubles the prompt.")
A1_FLASH = Toggle("a1_flash", "FlashAttention",
                  help="Computes the scores block by block in on-chip memory with a running softmax, and "
                       "gives the same outputs as standard attention.")
TODAY, TARGET = memory(S.act1_seq, False), memory(S.target_seq, False)
PROMPT_GROWTH = S.target_seq / S.act1_seq

ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"With standard attention, how many times today's memory does a {fmt(S.target_seq, 'int')}-token prompt "
           f"need, against today's {fmt(S.act1_seq, 'tokens')}?",
    quantity=f"memory at {fmt(S.target_seq, 'tokens')} ÷ memory at {fmt(S.act1_seq, 'tokens')}",
    unit_fmt="x",
    options=(
        Range("A", "{range}: the weights, which never grow, stay most of the total", None, 3.0, 1.5,
              "The weights stay at {weights}, but the rest grows past them: {kv_target} of KV cache and "
              "{scores_target} of scores, **{a1_vs_today}** the memory in all."),
        Range("B", "{range}: the total grows in step with the prompt's length", 3.0, 30.0, PROMPT_GROWTH,
              "The KV cache does grow {prompt_growth}, to {kv_target}; the scores grow with the square, "
              "{square}, to {scores_target}, **{a1_vs_today}** the memory in all."),
        Range("C", "{range}: the score matrices become most of the memory", 30.0, 300.0, 100.0,
              "Weights {weights} (fixed), KV cache {kv_today} → {kv_target} ({prompt_growth}), scores "
              "{scores_today} → {scores_target} ({square}): {total_target} against {total_today}, "
              "**{a1_vs_today}**."),
        Range("D", "{range}: the score matrices set the total, which grows as their square", 300.0, None,
              PROMPT_GROWTH ** 2,
              "The scores do fill most of the longer prompt's memory ({scores_target} of {total_target}), but "
              "today's {total_today} is mostly weights (fixed) and KV cache ({prompt_growth}): the total grows "
              "**{a1_vs_today}**, not the square's {square}."),
    ),
    truth=act1_truth,
    shown_by="a1_vs_today",
)


def act1_facts(context: str) -> dict[str, str]:
    truth, dev, cap = act1_truth(), device(context), at_flash_cap(context)
    return {"a1_vs_today": fmt(truth, "x"), "weights": fmt(TODAY.weights_b, "B"),
            "kv_today": fmt(TODAY.kv_b, "B"), "kv_target": fmt(TARGET.kv_b, "B"),
            "scores_today": fmt(TODAY.scores_b, "B"), "scores_target": fmt(TARGET.scores_b, "B"),
            "total_today": fmt(TODAY.total_b, "B"), "total_target": fmt(TARGET.total_b, "B"),
            "prompt_growth": fmt(PROMPT_GROWTH, "x"), "square": fmt(PROMPT_GROWTH ** 2, "x"),
            "device": SHORT[context], "mem": fmt(dev.mem_bytes, "B"),
            "flash_cap": fmt(max_context(dev, True), "tokens"), "naive_cap": fmt(max_context(dev, False), "tokens"),
            "kv_cap": fmt(cap.kv_b, "B"), "kv_share": fmt(cap.kv_b / cap.total_b, "pct"),
            "per_token": fmt(cap.kv_b / max_context(dev, True), "B"),
            "stats": fmt(S.softmax_stats * S.stat_bytes * HEADS * max_context(dev, True), "B"), "width": fmt(WIDTH, "int"),
            "layers": fmt(LAYERS, "int")}


ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="With FlashAttention on, the longest prompt that fits on the {device} ({mem}) is {flash_cap}. "
           "What fills the memory at that length?",
    options=(
        Claim("A", "Score matrices in a compact form: fewer bytes each, but still one per pair of tokens.",
              "FlashAttention stores no scores at all: the scores card reads 0 with it on. Each block of scores "
              "lives only in on-chip memory, and O(N) row statistics rescale the partial results."),
        Claim("B", "The model's weights, still the largest single part of the memory at that length.",
              "The weights stay at {weights} at every prompt length, a small part of the {device}'s {mem}: "
              "at {flash_cap} the KV cache holds {kv_cap}."),
        Claim("C", "The running softmax statistics, kept for every pair of tokens in every head.",
              "The running maximum and sum are kept per row, two numbers per token and head, not per pair: "
              "{stats} at {flash_cap}, against {kv_cap} of KV cache."),
        Claim("D", "Keys and values of all earlier tokens, held in each layer, growing with the prompt.",
              "At {flash_cap} the KV cache holds **{kv_cap}**, {kv_share} of the {device}'s {mem}: "
              "{per_token} for every token (a key and a value of width {width} in each of {layers} layers). "
              "It grows in step with the prompt, so it is the next wall; the weights are the rest."),
    ),
    answer_letter="D",
)

M = {m.name: m for m in (
    MetricSpec("a1_total", "Memory for this prompt", "B", "B"),
    MetricSpec("a1_vs_today", f"Memory at {fmt(S.target_seq, 'tokens')} ÷ at {fmt(S.act1_seq, 'tokens')}", "1", "x"),
    MetricSpec("a1_max_ctx", "Longest prompt that fits", "tokens", "tokens"),
    MetricSpec("a1_kv", "KV cache", "B", "B"),
    MetricSpec("a1_scores", "Attention scores (one layer)", "B", "B"),
    MetricSpec("a1_weights", "Weights (FP16)", "B", "B"),
    MetricSpec("a1_growth", f"Score memory ÷ at {fmt(S.act1_seq, 'tokens')}", "1", "x"),
    MetricSpec("a1_train_act", "Training activations (batch 1)", "B", "B"),
    MetricSpec("a1_attn_share", "Attention share of forward FLOPs", "1", "pct"),
    MetricSpec("a2_t_token", "Time per token", "s", "s"),
    MetricSpec("a2_wide_share", f"{S.wide_layers:.0f} wide layers' time ÷ this depth's", "1", "pct"),
    MetricSpec("a2_overhead", "Time not spent reading weights", "1", "pct"),
    MetricSpec("a2_launches", "Kernel launches per token", "1", "int"),
    MetricSpec("a2_floor", "Bandwidth floor (weights ÷ bandwidth)", "s", "s"),
    MetricSpec("a2_width", "Width d (from parameters and depth)", "1", "int"),
    MetricSpec("a2_weights", "Weights (FP16)", "B", "B"),
)}

FAILURES = (
    FailureSpec("a1_attn_oom", "Out of memory: this prompt does not fit", act=1,
                reach={"a1_seq": 65536}, leave={"a1_flash": True}, contexts=("cloud",)),
    FailureSpec("a2_sla_fail", "Over budget: each token takes longer than the per-token limit", act=2,
                severity="warn",
                reach={"a2_device": "edge"}, leave={"a2_layers": 4}),
    FailureSpec("a2_oom", "Out of memory: the weights do not fit on the device", act=2,
                reach={"a2_device": "edge", "a2_params": 10000000000}, leave={"a2_params": 100000000}),
)
F = {f.name: f for f in FAILURES}


def a1_levers(dev: Device, seq: float, flash: bool) -> str:
    """What brings the prompt back under the device's memory (FlashAttention only while it is off
    and would be enough)."""
    cap = fmt(max_context(dev, flash), "tokens")
    if not flash:
        with_flash = memory(seq, True).total_b
        if with_flash <= dev.mem_bytes:
            return f"With FlashAttention it needs {fmt(with_flash, 'B')} and fits; or shorten it to {cap}."
        return (f"FlashAttention alone is not enough ({fmt(with_flash, 'B')}): shorten the prompt to {cap}, or "
                f"to {fmt(max_context(dev, True), 'tokens')} with FlashAttention on.")
    return f"Shorten the prompt to {cap} or fewer."


def act1_instruments(s: State) -> list:
    dev, seq, flash = device(s["context"]), s["a1_seq"], s["a1_flash"]
    m = memory(seq, flash)
    fits = m.total_b <= dev.mem_bytes
    parts = [metric_grid(
        M["a1_total"].show(m.total_b, None if fits else "danger", f"of {fmt(dev.mem_bytes, 'B')} on the {dev.name}"),
        M["a1_vs_today"].show(growth_to_target(flash), note="FlashAttention" if flash else "standard attention"),
        M["a1_max_ctx"].show(max_context(dev, flash)),
        M["a1_kv"].show(m.kv_b),
        M["a1_scores"].show(m.scores_b, note="not stored: FlashAttention" if flash else ""),
        M["a1_weights"].show(m.weights_b, note=f"{fmt(XL_PARAMS, 'params')} parameters"),
        M["a1_growth"].show(memory(seq, False).scores_b / TODAY.scores_b, note="standard attention"),
        M["a1_train_act"].show(training_activations(seq, flash), note=f"{LAYERS:.0f} layers, Korthikanti et al."),
        M["a1_attn_share"].show(tf.attention_flop_share(XL_PARAMS, LAYERS, seq, WIDTH)),
    )]
    if not fits:
        parts.append(failure(F["a1_attn_oom"],
                             f"{fmt(seq, 'tokens')} need {fmt(m.total_b, 'B')}, more than the "
                             f"{fmt(dev.mem_bytes, 'B')} of the {dev.name}. " + a1_levers(dev, seq, flash)))
    parts.append(act1_chart(dev, seq, flash))
    if seq > C.GPT2_XL_CONTEXT:
        parts.append(callout("info", "A model of GPT-2 XL's shape",
                             prose(f"GPT-2 XL was trained on prompts of {fmt(C.GPT2_XL_CONTEXT, 'tokens')}; "
                                   "beyond that, read these numbers as those of a model with its shape "
                                   "(layers, width, heads) trained for longer prompts.")))
    return parts


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
        ("Layers *L*, width *d*, heads *h*", f"{LAYERS:.0f}, {fmt(WIDTH, 'int')}, {HEADS:.0f}"),
        ("Parameters *P*", fmt(XL_PARAMS, "int")),
        ("Weights", fmt(m.weights_b, "B")),
        ("KV cache", fmt(m.kv_b, "B")),
        ("Scores", fmt(m.scores_b, "B")),
        ("Memory of the device", fmt(dev.mem_bytes, "B")),
    ), sources=(
        C.REGISTRY["GPT2_XL_HIDDEN"].source,
        cite("vaswani2017", "scaled dot-product attention, softmax(QKᵀ/√d)V"),
        cite("korthikanti2022", "activation bytes per layer"),
        cite("dao2022", "tiled attention with an online softmax, O(N) extra memory"),
    ))


def act1_stakeholder() -> str:
    return (f"Our assistant runs on a model of GPT-2 XL's shape and reads prompts of {fmt(S.act1_seq, 'tokens')}. "
            f"Competitors advertise {fmt(S.target_seq, 'tokens')}. A prompt {fmt(PROMPT_GROWTH, 'x')} longer "
            f"needs {fmt(PROMPT_GROWTH, 'x')} the memory, surely: tell me how many GPUs that is.")


def act1_scenario() -> tuple[str, str]:
    return (
        f"The model has {LAYERS:.0f} layers of width {fmt(WIDTH, 'int')} with {HEADS:.0f} attention heads, in 16-bit "
        f"numbers. Reading today's prompt it holds {fmt(TODAY.total_b, 'B')}: its weights "
        f"({fmt(TODAY.weights_b, 'B')}), the **KV cache**, every token's key and value vectors in every layer "
        f"({fmt(TODAY.kv_b, 'B')}), and, with standard attention, one layer's **score matrices**, a score for "
        f"every pair of tokens in each head ({fmt(TODAY.scores_b, 'B')}).",
        "Pick the deployment context above: the same model on an H100 or on a Jetson Orin NX.",
    )


ACT1 = Act(
    number=1, title="A Longer Prompt", minutes="12–15 min",
    stakeholder_role="VP of Product",
    stakeholder=act1_stakeholder,
    scenario=act1_scenario,
    prediction=ACT1_PREDICTION,
    controls=(A1_SEQ, A1_FLASH),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Attention memory explorer",
)

# ---- Act II · Depth against width -----------------------------------------------------

A2_DEVICE = Choice("a2_device", "Device", tuple(Option(k, LABELS[k]) for k in CONTEXTS),
                   default=CONTEXT.default, help="Starts on the context's device; moving it sets the launch cost "
                                                 "to that device's assumed default.")
A2_LAYERS = Slider("a2_layers", "Depth L (layers)", unit="layers", min=2, max=100, step=1,
                   default=S.deep_layers, fmt="int")
A2_PARAMS = Slider("a2_params", "Parameters P", unit="params", min=10e6, max=10e9, step=1,
                   default=S.act2_params, fmt="params", scale="log", steps=60,
                   help="Width follows: d = √(P / 12L).")
A2_LAUNCH = Slider("a2_launch", "Launch cost per kernel (assumed)", unit="s", min=C.KERNEL_LAUNCH_CPU_LOW_S,
                   max=50e-6, step=1e-6, default=default_launch(CONTEXT.default), fmt="us",
                   help=f"The CPU side of a launch usually takes {fmt(C.KERNEL_LAUNCH_CPU_LOW_S, 'us')} to "
                        f"{fmt(C.KERNEL_LAUNCH_CPU_HIGH_S, 'us')} (Meta's trace-analysis docs); which end a device "
                        "sits at is this lab's assumption. Less than that per kernel takes a CUDA graph.")
A2_GRAPH = Toggle("a2_graph", f"Capture each token's kernels in one CUDA graph (about {fmt(S.launch_graph_s, 'us')} "
                              "a kernel)")


def launch_s(s: State) -> float:
    return S.launch_graph_s if s["a2_graph"] else s["a2_launch"]


def a2_overridden(s: State) -> dict[str, str]:
    if not s["a2_graph"]:
        return {}
    return {"a2_launch": f"Not used while the CUDA graph is on: the whole token launches at once, "
                         f"about {fmt(S.launch_graph_s, 'us')} per kernel."}


ACT2_PREDICTION = Prediction(
    id="a2_predict", act=2,
    prompt=f"Both models have {fmt(S.act2_params, 'params')} parameters and generate one token at a time on the "
           "{device}, at an assumed {launch} per kernel launch. What share of the "
           f"{S.deep_layers:.0f}-layer model's time per token does the {S.wide_layers:.0f}-layer model need?",
    quantity=f"time per token, {S.wide_layers:.0f} layers ÷ {S.deep_layers:.0f} layers",
    unit_fmt="pct",
    options=(
        Range("A", "{range}: small layers cost far more than their bytes", None, 0.6, 0.2,
              "The {deep}-layer model launches {deep_launches} kernels per token against {wide_launches}, at "
              "{launch} each: {deep_fixed} of fixed costs, while reading the weights takes {a2_floor} for "
              "either shape. The wide model needs **{a2_wide_share}** of the deep one's time."),
        Range("B", "{range}: the wide model saves some overhead per layer", 0.6, 0.9, 0.75,
              "The overhead is most of the deep model's time: {deep_launches} launches of {launch}, "
              "{deep_fixed}, against {a2_floor} of reading: the wide model needs **{a2_wide_share}** of its time."),
        Range("C", "{range}: same parameters, same bytes, so the same time", 0.9, 1.1, 1.0,
              "Same bytes, {a2_floor} of reading either way, but {deep_launches} launches against "
              "{wide_launches}: the wide model needs **{a2_wide_share}** of the deep one's time."),
        Range("D", "{range}: bigger matrices make the wide model slower", 1.1, None, 1.5,
              "Its matrices are bigger but fewer, and the bytes are the same ({a2_floor} of reading); the deep "
              "model pays {deep_launches} launches to its {wide_launches}: **{a2_wide_share}**."),
    ),
    truth=act2_truth,
    shown_by="a2_wide_share",
)

H100_SHARE, ORIN_SHARE = act2_truth("cloud"), act2_truth("edge")


def act2_facts(context: str) -> dict[str, str]:
    dev, launch, share = BY_CONTEXT[context], default_launch(context), act2_truth(context)
    deep = token(dev, S.deep_layers, S.act2_params, launch)
    h100, orin = BY_CONTEXT["cloud"], BY_CONTEXT["edge"]
    return {"a2_wide_share": fmt(share, "pct"), "a2_floor": fmt(deep.streaming_s, "s"), "launch": fmt(launch, "us"),
            "deep": fmt(S.deep_layers, "int"), "deep_launches": fmt(S.deep_layers * KERNELS_PER_LAYER, "int"),
            "wide_launches": fmt(S.wide_layers * KERNELS_PER_LAYER, "int"),
            "deep_fixed": fmt(S.deep_layers * KERNELS_PER_LAYER * launch, "s"),
            "bw_ratio": fmt(h100.mem_bw / orin.mem_bw, "x"),
            "launch_ratio": fmt(S.launch_edge_s / S.launch_cloud_s, "x"),
            "h100_launch": fmt(S.launch_cloud_s, "us"), "orin_launch": fmt(S.launch_edge_s, "us"),
            "h100_bytes": fmt(bytes_per_launch("cloud"), "B"), "orin_bytes": fmt(bytes_per_launch("edge"), "B"),
            "wide_gemv": fmt(max(tf.GEMMS_PER_LAYER) * tf.width_for_params(S.act2_params, S.wide_layers) ** 2
                             * S.bytes_per_value, "B"),
            "h100_ridge": fmt(h100.ridge, "num"), "orin_ridge": fmt(orin.ridge, "num")}


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt=f"At the assumed launch costs, the {S.wide_layers:.0f}-layer model needs {fmt(H100_SHARE, 'pct')} of the "
           f"{S.deep_layers:.0f}-layer model's time on the H100 but {fmt(ORIN_SHARE, 'pct')} on the Orin NX. Why "
           "does depth cost more on the faster GPU?",
    options=(
        Claim("A", "The H100 does more arithmetic per byte, so its narrow layers turn compute-bound.",
              "At batch 1 a GEMV does about 1 FLOP per byte read, far below the H100's ridge of {h100_ridge} "
              "FLOP/B (the Orin's: {orin_ridge}): neither shape is compute-bound on either device."),
        Claim("B", "Its memory got far faster than its launches did, so each fixed cost weighs more.",
              "The H100 reads {bw_ratio} faster than the Orin NX, but launches only {launch_ratio} faster "
              "(assumed): one launch is worth {h100_bytes} of reading there, {orin_bytes} on the Orin. The wide "
              "model's largest GEMV ({wide_gemv}) costs about one launch on the H100 but many on the Orin, so on "
              "the H100 both shapes pay only launches, and the ratio is the launch count's."),
        Claim("C", "A bigger GPU takes longer to start each kernel, since it has more cores to wake.",
              "The launch is set on the CPU side, by the host and driver: this lab assumes {h100_launch} on the "
              "H100 and {orin_launch} on the Orin, so the H100's launches are the cheaper ones."),
        Claim("D", "It runs the wide model's four layers side by side, which the deep model cannot do.",
              "No GPU runs a model's layers side by side: each needs the previous one's output. The H100 is "
              "faster per layer, not across layers."),
    ),
    answer_letter="B",
)


def act2_state(s: State) -> tuple[Device, tf.TokenLatency]:
    dev = BY_CONTEXT[s["a2_device"]]
    return dev, token(dev, s["a2_layers"], s["a2_params"], launch_s(s))


def a2_levers(s: State, dev: Device, lat: tf.TokenLatency) -> str:
    """What brings a token under the budget, the largest term first and only levers not at their limit."""
    if lat.streaming_s > S.sla_s:
        faster = [k for k in CONTEXTS if BY_CONTEXT[k].mem_bw > dev.mem_bw]
        return (f"Reading the weights alone takes {fmt(lat.streaming_s, 's')}, over the budget at any depth: "
                "fewer parameters" + (f", or the {SHORT[faster[0]]}'s faster memory." if faster else "."))
    levers = []
    if s["a2_layers"] > A2_LAYERS.min:
        levers.append("fewer, wider layers")
    if not s["a2_graph"]:
        levers.append("a CUDA graph")
    if not levers:
        return "Every lever here is at its limit; pick fewer parameters."
    text = " or ".join(levers)
    return text[0].upper() + text[1:] + " cut the fixed costs."


def act2_instruments(s: State) -> list:
    dev, lat = act2_state(s)
    weights = tf.weights_bytes(s["a2_params"], S.bytes_per_value)
    fits = weights <= dev.mem_bytes
    over = fits and lat.total_s > S.sla_s
    parts = [metric_grid(
        M["a2_t_token"].show(lat.total_s, ("warn" if over else "good") if fits else None,
                             f"budget {fmt(S.sla_s, 's')}" if fits else "if the weights fit, which they do not"),
        M["a2_wide_share"].show(wide_share(dev, s["a2_layers"], s["a2_params"], launch_s(s)),
                                note=f"on the {SHORT[dev.key]}"),
        M["a2_overhead"].show(lat.overhead_share),
        M["a2_launches"].show(lat.layers * KERNELS_PER_LAYER, note=f"{fmt(launch_s(s), 'us')} each"),
        M["a2_floor"].show(lat.streaming_s),
        M["a2_width"].show(lat.d_model),
        M["a2_weights"].show(weights, None if weights <= dev.mem_bytes else "danger",
                             f"of {fmt(dev.mem_bytes, 'B')}"),
    )]
    if not fits:
        parts.append(failure(F["a2_oom"], f"{fmt(s['a2_params'], 'params')} parameters in FP16 are "
                                          f"{fmt(weights, 'B')}, more than the {fmt(dev.mem_bytes, 'B')} of the "
                                          f"{dev.name}. Pick fewer parameters."))
    if over:
        parts.append(failure(F["a2_sla_fail"], f"Each token takes {fmt(lat.total_s, 's')} against a budget of "
                                               f"{fmt(S.sla_s, 's')}. " + a2_levers(s, dev, lat)))
    parts.append(act2_chart(dev, s["a2_layers"], s["a2_params"], launch_s(s), s["a2_graph"],
                            list(range(int(A2_LAYERS.min), int(A2_LAYERS.max) + 1, 2))))
    return parts


def act2_math(s: State):
    dev, lat = act2_state(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"d = \sqrt{\frac{P}{12\,L}}",
                 "Each block holds about 12*d²* weights (4*d²* in attention, 8*d²* in the MLP)."),
        Equation(r"T = L\left[\sum_{m \in \{3,1,4,4\}} \max\!\left(t_{\text{launch}},\ \frac{m\,d^2\,b}{B}\right) "
                 r"+ 6\,t_{\text{launch}}\right]",
                 "Per layer, four GEMVs (QKV, output, MLP up and down) each take at least one launch or the time to "
                 "read their weights at bandwidth *B*; six small kernels (norms, softmax, activation, residuals) "
                 "cost one launch each. This counts every launch in series with the GPU's work; a host that "
                 "queues launches while a long GEMV runs hides some of them, so the wide model's time is an "
                 "upper bound and its share of the deep one's lower still."),
        Equation(r"T_{\min} = \frac{12\,L\,d^2\,b}{B} = \frac{P\,b}{B}",
                 "The bandwidth floor is the same for every depth: only the launches depend on *L*."),
    ), rows=(
        ("Device bandwidth *B*", fmt(dev.mem_bw, "GB/s")),
        ("Device peak (dense)", fmt(dev.peak_ops, "FLOP/s")),
        ("Width *d*", fmt(lat.d_model, "num")),
        ("Launch cost", fmt(launch_s(s), "us") + " (assumed)"),
        ("GEMVs, all layers", fmt(lat.gemm_s, "s")),
        ("Small kernels, all layers", fmt(lat.small_kernels_s, "s")),
    ), sources=(
        cite("williams2009", "roofline: a batch-1 GEMV does about 1 FLOP per byte"),
        cite("kaplan2020", "about 12·d² parameters per layer"),
        C.REGISTRY["KERNEL_LAUNCH_CPU_LOW_S"].source,
        C.REGISTRY["CUDA_GRAPH_PER_KERNEL_S"].source,
        C.REGISTRY["H100_PEAK_BF16_SPARSE"].source + " (the sparse figure; this lab uses the dense one)",
        C.REGISTRY["ORIN_NX_PEAK_FP16_DENSE"].source,
    ))


def act2_stakeholder(context: str) -> str:
    return (f"Our text generator has a budget of {fmt(S.act2_params, 'params')} parameters and must produce each "
            f"token within {fmt(S.sla_s, 's')}, one request at a time, on the {BY_CONTEXT[context].name}. One team "
            f"proposes {S.deep_layers:.0f} narrow layers, the other {S.wide_layers:.0f} wide ones. Same parameters, "
            "same bytes: surely the speed is the same? Pick one.")


def act2_scenario(context: str) -> tuple[str, str]:
    return (
        "At batch 1, each generated token passes through every layer, and each layer multiplies one vector by "
        "its weight matrices: four matrix-vector products (QKV, attention output, MLP up, MLP down) and six "
        "small kernels (two norms, attention, softmax, activation, residual adds).",
        f"Each kernel launch has a fixed cost; this lab assumes {terms(context)['launch']} on the "
        f"{SHORT[context]}. The {SHORT[context]} reads its memory at {fmt(BY_CONTEXT[context].mem_bw, 'GB/s')}.",
    )


ACT2 = Act(
    number=2, title="Depth against Width", minutes="15–20 min",
    stakeholder_role="ML Lead",
    stakeholder=act2_stakeholder,
    scenario=act2_scenario,
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
    a2_oom = tf.weights_bytes(s["a2_params"], S.bytes_per_value) > dev.mem_bytes
    active = {"a1_attn_oom": memory(s["a1_seq"], s["a1_flash"]).total_b > device(s["context"]).mem_bytes,
              "a2_sla_fail": not a2_oom and lat.total_s > S.sla_s,  # a model that cannot load is not timed
              "a2_oom": a2_oom}
    return frozenset(name for name, on in active.items() if on)


def results(s: State) -> dict[str, float | bool | str]:
    _, lat = act2_state(s)
    failing = active_failures(s)
    return {"context": s["context"], "seq_len": s["a1_seq"], "flash": s["a1_flash"],
            "attn_oom": "a1_attn_oom" in failing, "max_ctx": max_context(device(s["context"]), s["a1_flash"]),
            "depth": s["a2_layers"], "width": lat.d_model, "t_token_ms": lat.total_s * U.MS_PER_S,
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

TRACK_NOTES = {
    "mobile": ("Mobile is not offered here: Act II times every kernel a token launches, and Apple publishes "
               "neither the A17 Pro's memory bandwidth nor what one GPU dispatch costs on it, the two numbers "
               "that question turns on. The lab opens in Cloud (NVIDIA H100); before your first lock you can "
               "pick Edge (Jetson Orin NX), the on-device context, above."),
    "tiny": (f"TinyML is not offered here: a model of GPT-2 XL's shape has {fmt(TODAY.weights_b, 'B')} of FP16 "
             f"weights, and even Act II's smallest model ({fmt(A2_PARAMS.min, 'params')} parameters, "
             f"{fmt(tf.weights_bytes(A2_PARAMS.min, S.bytes_per_value), 'B')}) is beyond the STM32H743's "
             f"{fmt(C.STM32H743_FLASH_BYTES, 'iB')} of flash. The lab opens in Cloud (NVIDIA H100); before your "
             "first lock you can pick Edge (Jetson Orin NX) above."),
}


def lab_takeaways() -> list[str]:
    naive = {k: fmt(max_context(BY_CONTEXT[k], False), "tokens") for k in CONTEXTS}
    flash = {k: fmt(max_context(BY_CONTEXT[k], True), "tokens") for k in CONTEXTS}
    return [
        f"A prompt {fmt(PROMPT_GROWTH, 'x')} longer needs {fmt(act1_truth(), 'x')} the memory with standard "
        f"attention ({fmt(TODAY.total_b, 'B')} → {fmt(TARGET.total_b, 'B')}): the weights stay, the KV cache grows "
        f"{fmt(PROMPT_GROWTH, 'x')} and the scores {fmt(PROMPT_GROWTH ** 2, 'x')}. With FlashAttention it is "
        f"{fmt(growth_to_target(True), 'x')}.",
        f"On a model of GPT-2 XL's shape, standard attention fits {naive['cloud']} on an H100 and {naive['edge']} "
        f"on an Orin NX; FlashAttention raises that to {flash['cloud']} and {flash['edge']}, where the KV cache "
        "fills the memory.",
        f"At equal parameters and batch 1, {S.deep_layers:.0f} narrow layers take "
        f"{fmt(1 / act2_truth('edge'), 'x')} as long per token as {S.wide_layers:.0f} wide ones on the Orin NX and "
        f"{fmt(1 / act2_truth('cloud'), 'x')} on the H100: every layer adds kernels, every kernel a fixed cost, "
        "and the faster the memory, the more that cost weighs.",
    ]


LAB = Lab(
    id="v1_06", volume=1, number=6, title="The Quadratic Wall",
    invariant="Attention scores grow with the **square** of the prompt and the KV cache in step with it; at "
              "batch 1, **depth** multiplies fixed per-kernel costs that width does not.",
    minutes="30–35 min", chapter="DNN Architectures", url="vol1/06-quadratic-wall/",
    description="A VP wants prompts 24 times longer. What that does to a transformer's memory, what FlashAttention "
                "changes, and what depth costs a small model that generates text one token at a time.",
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
        "**V1-07 The Kernel Fusion Dividend**: fusing a model's kernels, and what that buys.",
        "**V1-08 The Training Memory Budget**: the activation memory that training adds to all this.",
    ),
    presets={"context": {k: {"a2_device": k, "a2_launch": default_launch(k)} for k in CONTEXTS},
             "a2_device": {k: {"a2_launch": default_launch(k)} for k in CONTEXTS}},
    record_metrics=RECORD,
    context_from=TRACK,
    terms=terms,
    track_notes=TRACK_NOTES,
    hook=f"A VP wants prompts of {fmt(S.target_seq, 'tokens')} from a model that reads {fmt(S.act1_seq, 'tokens')} "
         "today: how much more memory is that? And does a deep, narrow model generate text as fast as a "
         "shallow, wide one of the same size?",
)
