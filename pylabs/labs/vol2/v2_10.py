"""Lab V2-10 · The KV-Cache Memory Wall.

Core invariant: when a large model is served, the KV cache, not the weights, bounds how many
conversations fit; prefill is compute-bound and decode is bandwidth-bound, so batching policy
decides time to first token (TTFT) and throughput.

Act I (how many users fit): Llama-3-70B in BF16 on 8 H100s, every conversation reserving a
32K-token window. Llama-3 uses grouped-query attention (8 KV heads for 64 query heads), so a
token costs 2·80·8·128·2 = 327,680 B, not the 8× larger multi-head figure of the upstream lab.
Act II (two products, two configurations): chat needs P99 TTFT under 200 ms at 4 requests/s; a
bulk tier needs over 1,000 tokens/s. Static batching buys throughput with head-of-line blocking;
continuous batching serves the prefill queue at once, and a large decode batch shares each
step's weight read.

Choices where the spec left room, and why:
- Act I's options run in ascending order (A ~5, the multi-head mistake; B ~40, the key; C ~400;
  D ~2,000), so the key stays B as in the spec while the ranges read naturally.
- Act I's prediction reserves the whole window per user (contiguous allocation), as the spec's
  formula does; a paged-allocation switch and a "tokens actually used" slider then show the
  spec's 4K reveal (324 users) as the payoff of PagedAttention, not as a different question.
- Act II's decision is a ``Pick`` of four configuration pairs, each checked by the physics.
  Beyond the spec's formulas the lab checks that each batcher can keep up with the arrivals
  (utilisation below one; for continuous batching, Little's law on its B slots). Without it a
  continuous batch of 1 would "meet" the SLO at 4 requests/s while each reply holds its slot for
  seconds. No golden vector changes: the spec's configurations are all inside capacity.
- Act II gives each product its own 8-H100 server (the spec compares configurations, not a
  shared GPU), so the KV check applies to the larger of the two batches, with paged allocation.
- The static TTFT is the spec's best case (no time to fill the batch), which only strengthens
  its verdict. Throughput below target is a warning, as the spec asks, not a failure state.

Ledger fields (spec §V2-10.3; ledger names are lower case, so kv_per_user_GB is kept as
kv_per_user_gb): the controls hold model, context_len (``a1_window``), lat_mode,
lat_batch, tput_batch; ``results`` holds context_len, kv_per_user_gb, max_users, lat_batch,
ttft_p99_ms (null when the queue is unbounded), tput_batch, tokens_per_s, kv_oom and
constraint_hit; the answers hold act1_prediction, act1_correct and act2_decision.
"""

from __future__ import annotations

import math

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option, Pick,
                              Prediction, Range, Reflection, Slider, State, callout, chart, failure, fmt,
                              math_peek, metric_grid, prose, tone)
from pylabs.framework import charts as ch
from pylabs.framework.formats import plural
from pylabs.labs.vol2.v2_10_model import (CONFIGS, KV_BYTES, MODELS, SEVENTY, Memory, S, Serving, act1_truth,
                                          act2_decide, budget, kv_token, users, weights)
from pylabs.physics import constants as C
from pylabs.physics.references import cite


def span(tokens: float) -> str:
    """A token count as an adjective: "32,768-token"."""
    return f"{fmt(tokens, 'int')}-token"


# ---- context ----------------------------------------------------------------------

CONTEXT = Choice("context", "Workload", (
    Option("chat", "Chat: conversations hold a few thousand tokens, prompts are short"),
    Option("docs", "Document Q&A: long prompts fill the context window"),
), default="chat", help="Sets the tokens a conversation actually holds (Act I) and the prompt length (Act II).")

# ---- Act I · How many users fit? ------------------------------------------------------

def dtype_label(name: str, key: str) -> str:
    """A precision as its option reads: 'BF16, 2 bytes' (the registry's bytes per element)."""
    return f"{name}, {plural(KV_BYTES[key], 'byte', count_fmt='int')}"


A1_MODEL = Choice("a1_model", "Model", tuple(Option(k, m.label) for k, m in MODELS.items()), default="70b")
A1_DTYPE = Choice("a1_dtype", "KV cache precision", (Option("bf16", dtype_label("BF16", "bf16")),
                                                      Option("fp8", dtype_label("FP8", "fp8"))),
                  default="bf16", unit="B per element")
A1_GPUS = Choice("a1_gpus", "H100 GPUs", (Option("8", "8 (one server)"), Option("1", "1")), default="8", unit="GPUs")
A1_WINDOW = Slider("a1_window", "Context window", unit="tokens", min=512, max=131072, step=1, default=S.window,
                   fmt="tokens", scale="log2")
A1_ALLOC = Choice("a1_alloc", "KV allocation", (
    Option("contiguous", "Contiguous: reserve the whole window"),
    Option("paged", "Paged: blocks as the conversation grows"),
), default="contiguous")
A1_USED = Slider("a1_used", "Tokens a conversation actually holds", unit="tokens", min=256, max=131072, step=1,
                 default=S.used_chat, fmt="tokens", scale="log2",
                 help="Counts only with paged allocation (and never beyond the window): a contiguous "
                      "allocator reserves the whole window however short the conversation.")


def memory(s: State) -> Memory:
    return Memory(MODELS[s["a1_model"]], s["a1_dtype"], int(s["a1_gpus"]), s["a1_window"],
                  s["a1_alloc"] == "paged", s["a1_used"])


def act1_facts() -> dict[str, str]:
    kv = kv_token(SEVENTY)
    mha = kv_token(SEVENTY, heads=SEVENTY.query_heads)
    return {
        "kv_token": f"{fmt(kv, 'int')} bytes", "kv_user": fmt(kv * S.window, "GB"), "budget": fmt(budget(SEVENTY), "GB"),
        "users": fmt(act1_truth(), "int"), "weights": fmt(weights(SEVENTY), "GB"),
        "mha_user": fmt(mha * S.window, "GB"), "mha_users": fmt(users(SEVENTY, S.window, heads=SEVENTY.query_heads), "int"),
        "users_chat": fmt(users(SEVENTY, S.used_chat), "int"), "chat_tokens": span(S.used_chat),
        "ratio": fmt(SEVENTY.query_heads / SEVENTY.kv_heads, "x"), "window": span(S.window),
        "chat_ratio": fmt(S.window / S.used_chat, "x"), "params": fmt(SEVENTY.params, "params"),
        "query_heads": fmt(SEVENTY.query_heads, "int"), "kv_heads": fmt(SEVENTY.kv_heads, "int"),
    }


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"One server of {S.gpus} H100s serves {SEVENTY.label} in BF16, and every conversation reserves KV "
           f"cache for the full {span(S.window)} window. How many conversations can it hold at once?",
    quantity=f"concurrent conversations on {S.gpus} H100s at a {span(S.window)} window",
    unit_fmt="int",
    options=(
        Range("A", "{range}: a handful, since each conversation's cache rivals the weights", None, 15, 5,
              "That is the multi-head figure: with a K and a V for each of the {query_heads} query heads a "
              "conversation would need {mha_user} and only {mha_users} would fit. Llama-3 shares {kv_heads} KV "
              "heads among its {query_heads} query heads (grouped-query attention), {ratio} less."),
        Range("B", "{range}: a few dozen conversations", 15, 120, 40,
              "Each token keeps {kv_token} of keys and values across all layers, so a {window} window reserves "
              "{kv_user}; the {budget} left after the weights holds {users} of them."),
        Range("C", "{range}: a few hundred conversations", 120, 1000, 400,
              "A few hundred fit only when a conversation reserves what it uses: {chat_tokens} chats give "
              "{users_chat}. Reserving the whole {window} window costs {chat_ratio} that."),
        Range("D", "{range}: thousands, since most of the HBM is free once the weights are loaded", 1000, None, 2000,
              "The free memory is large, but a reserved {window} window costs {kv_user}: the budget divides "
              "into tens of conversations, not thousands."),
    ),
    truth=act1_truth,
)

ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt=f"Double the window from {fmt(S.window, 'tokens')} to {fmt(2 * S.window, 'tokens')} and the server "
           "holds about half as many conversations, though the weights have not changed. Why?",
    options=(
        Claim("A", "A longer window needs larger weight matrices for the positions.",
              "Rotary position embeddings add no weights: the {params} parameters are the same at any window."),
        Claim("B", "Every token a conversation holds keeps a key and a value vector in every layer, so its "
                   "cache grows in proportion to its length.",
              "KV per token is 2 × layers × KV heads × head size × bytes = {kv_token}; a conversation's "
              "cache is that times its tokens."),
        Claim("C", "Attention compares every token with every other, so memory grows with the square of "
                   "the length.",
              "The compute of attention grows with the square of the length; the cache keeps one K and V "
              "per token, so memory grows linearly."),
        Claim("D", "Longer conversations must be padded to the longest one in the batch.",
              "Padding wastes memory in naive batching, but the halving happens even when every "
              "conversation is the same length."),
    ),
    answer_letter="B",
)

M = {m.name: m for m in (
    MetricSpec("a1_users", "Conversations that fit", "1", "int"),
    MetricSpec("a1_kv_per_user", "KV reserved per conversation", "B", "GB"),
    MetricSpec("a1_budget", "HBM left for KV after the weights", "B", "GB"),
    MetricSpec("a1_waste", "Reserved KV holding no token", "1", "pct"),
    MetricSpec("a1_kv_token", "KV per token (bytes)", "B", "int"),
    MetricSpec("a1_users_mha", "Conversations without GQA", "1", "int"),
    MetricSpec("a2_ttft", "Chat P99 time to first token", "s", "s"),
    MetricSpec("a2_tput", "Bulk decode throughput", "tokens/s", "tokens/s"),
    MetricSpec("a2_capacity", "Chat requests/s the batcher sustains", "1/s", "req/s"),
    MetricSpec("a2_kv_used", "KV cache of the larger batch", "B", "GB"),
    MetricSpec("a2_prefill", "Prefill of one prompt", "s", "ms"),
    MetricSpec("a2_step", "Bulk decode step", "s", "ms"),
)}

FAILURES = (
    FailureSpec("a1_no_room", "No room for a single conversation: the weights fill the usable HBM", act=1),
    FailureSpec("a2_ttft_slo", "Chat SLO broken: P99 time to first token over the limit", act=2),
    FailureSpec("a2_kv_oom", "Out of memory: a batch's KV cache exceeds the budget", act=2),
)
F = {f.name: f for f in FAILURES}


def act1_instruments(s: State) -> list:
    m = memory(s)
    parts = [metric_grid(
        M["a1_users"].show(m.users, "danger" if m.users < 1 else None),
        M["a1_kv_per_user"].show(m.per_user, note=f"{fmt(m.reserved_tokens, 'tokens')} reserved"),
        M["a1_budget"].show(max(0.0, m.budget), "danger" if m.budget <= 0 else None,
                            f"{fmt(C.VLLM_GPU_MEMORY_UTILIZATION, 'pct')} of {fmt(m.gpus * C.H100_HBM_BYTES, 'GB')} "
                            f"minus {fmt(weights(m.model), 'GB')} of weights"),
        M["a1_waste"].show(m.waste, tone(1 - m.waste), f"paged: blocks of {fmt(C.VLLM_BLOCK_TOKENS, 'tokens')}"
                           if m.paged else "contiguous: the whole window"),
        M["a1_kv_token"].show(kv_token(m.model, m.dtype)),
        M["a1_users_mha"].show(m.users_without_gqa(), note=f"if all {m.model.query_heads:.0f} heads kept K and V"),
    )]
    if m.users < 1:
        parts.append(failure(F["a1_no_room"],
                             f"{m.model.label} needs {fmt(weights(m.model), 'GB')} of BF16 weights; "
                             f"{m.gpus} GPU{'s' if m.gpus > 1 else ''} offer "
                             f"{fmt(C.VLLM_GPU_MEMORY_UTILIZATION * m.gpus * C.H100_HBM_BYTES, 'GB')} usable, "
                             f"which leaves {fmt(max(0.0, m.budget), 'GB')} for KV cache, less than one "
                             f"conversation's {fmt(m.per_user, 'GB')}. Add GPUs, "
                             "shorten the window, or pick the smaller model."))
    parts.append(act1_chart(m))
    return parts


def act1_chart(m: Memory):
    windows = [2.0 ** k for k in range(9, 18)]
    def fits(window: float, heads: float | None = None) -> int | None:
        case = Memory(m.model, m.dtype, m.gpus, window, m.paged, m.used)
        n = case.users if heads is None else case.users_without_gqa()
        return n if n > 0 else None   # a log axis has no zero: an empty point means none fit
    gqa = [fits(w) for w in windows]
    mha = [fits(w, m.model.query_heads) for w in windows]
    figure = ch.figure(
        [ch.line(f"{m.model.kv_heads:.0f} KV heads (GQA)", windows, gqa, "series1", markers=True),
         ch.line(f"{m.model.query_heads:.0f} KV heads (no GQA)", windows, mha, "series2", dash="dash"),
         ch.point("Your setting", m.window, m.users if m.users > 0 else None, "accent")],
        x=ch.axis("Context window (tokens)", "log", tickvals=windows[::2],
                  ticktext=[f"{int(w) // S.kilo_tokens}K" if w >= S.kilo_tokens else str(int(w))
                            for w in windows[::2]]),
        y=ch.axis("Conversations that fit", "log", dtick=1))
    summary = (f"{m.model.label} on {m.gpus} GPU{'s' if m.gpus > 1 else ''}: {fmt(m.users, 'int')} conversations "
               f"at a {span(m.window)} window, against {fmt(m.users_without_gqa(), 'int')} if every "
               "query head kept its own keys and values. "
               + (f"Paged, a conversation reserves only the {fmt(m.held, 'tokens')} it holds, so a longer window "
                  "costs nothing more." if m.paged else "Each doubling of the reserved window halves the count."))
    rows = [(fmt(w, "tokens"), fmt(a or 0, "int"), fmt(b or 0, "int")) for w, a, b in zip(windows, gqa, mha)]
    return chart("a1_users", "Conversations that fit against context window", figure, summary,
                 table=(("Window", "GQA", "No GQA"), rows))


def act1_math(s: State):
    m = memory(s)
    return math_peek("The governing equations · Act I", (
        Equation(r"KV_{\text{tok}} = 2\,L\,n_{\text{kv}}\,d_h\,b",
                 "A key and a value per KV head per layer; *b* bytes per element."),
        Equation(r"B_{\text{KV}} = f\,n\,M_{\text{HBM}} - 2P",
                 "HBM the server may use, minus BF16 weights (*f* leaves room for activations)."),
        Equation(r"N = \left\lfloor \frac{B_{\text{KV}}}{KV_{\text{tok}}\cdot s_{\text{reserved}}} \right\rfloor",
                 "Contiguous allocation reserves the window; paging reserves whole blocks of what is used."),
    ), rows=(
        ("Layers *L*, KV heads *n_kv*, head size *d_h*",
         f"{m.model.layers:.0f}, {m.model.kv_heads:.0f}, {C.LLAMA3_HEAD_DIM:.0f}"),
        ("KV per token", f"{fmt(kv_token(m.model, m.dtype), 'int')} bytes"),
        ("Usable share *f*, GPUs *n*", f"{fmt(C.VLLM_GPU_MEMORY_UTILIZATION, 'pct')}, {m.gpus}"),
        ("Weights *2P*", fmt(weights(m.model), "GB")),
        ("Tokens reserved per conversation", fmt(m.reserved_tokens, "tokens")),
        ("Conversations *N*", fmt(m.users, "int")),
    ), sources=(
        cite("ainslie2023", "grouped-query attention: KV heads shared by groups of query heads"),
        cite("kwon2023", "PagedAttention: KV blocks allocated on demand"),
        C.REGISTRY["LLAMA3_70B_KV_HEADS"].source,
        C.REGISTRY["VLLM_GPU_MEMORY_UTILIZATION"].source,
        C.REGISTRY["H100_HBM_BYTES"].source,
    ))


ACT1 = Act(
    number=1, title="How Many Users Fit?", minutes="12–15 min",
    stakeholder_role="Head of Inference Platform",
    stakeholder=lambda: (
        f"We are launching {SEVENTY.label} on one server of {S.gpus} H100s "
        f"({fmt(S.gpus * C.H100_HBM_BYTES, 'GB')} of HBM). The BF16 weights take {fmt(weights(SEVENTY), 'GB')}. "
        f"Marketing promises a {span(S.window)} context window, and our serving stack reserves the whole "
        "window for every conversation. Finance wants to know how many users one server carries."),
    scenario=lambda: (
        "While it writes a reply, the model keeps the **keys and values** of every earlier token of the "
        "conversation in HBM, so it does not recompute them at each new token. This **KV cache** lives as long "
        "as the conversation.",
        f"{SEVENTY.label} has {SEVENTY.layers:.0f} layers and {SEVENTY.query_heads:.0f} query heads of "
        f"{C.LLAMA3_HEAD_DIM:.0f} dimensions, but only {SEVENTY.kv_heads:.0f} key/value heads: groups of query "
        "heads share one (grouped-query attention).",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_MODEL, A1_DTYPE, A1_GPUS, A1_WINDOW, A1_ALLOC, A1_USED),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="HBM budget explorer",
)

# ---- Act II · Latency or throughput? -------------------------------------------------

A2_MODE = Choice("a2_lat_mode", "Chat batching", (
    Option("static", "Static: a batch runs to the end before the next starts"),
    Option("continuous", "Continuous: new requests join at the next step"),
), default="static")
A2_LAT_BATCH = Slider("a2_lat_batch", "Chat batch size (slots)", unit="sequences", min=1, max=256, step=1,
                      default=S.large_batch, fmt="int", scale="log2")
A2_ARRIVAL = Slider("a2_arrival", "Chat arrivals", unit="requests/s", min=0.5, max=16, step=0.5, default=S.arrival,
                    fmt="req/s")
A2_TPUT_BATCH = Slider("a2_tput_batch", "Bulk batch size", unit="sequences", min=1, max=256, step=1,
                       default=S.large_batch, fmt="int", scale="log2",
                       help="The bulk tier runs continuous batches full of queued jobs, so only its size matters.")
A2_PROMPT = Slider("a2_prompt", "Prompt length", unit="tokens", min=256, max=8192, step=1, default=S.prompt,
                   fmt="tokens", scale="log2")


def serving(s: State) -> Serving:
    return Serving(s["a2_lat_mode"], s["a2_lat_batch"], s["a2_arrival"], s["a2_tput_batch"], s["a2_prompt"])


def act2_facts() -> dict[str, str]:
    facts = {}
    for k, c in CONFIGS.items():
        facts |= {f"{k}_ttft": fmt(c.ttft, "s"), f"{k}_tput": fmt(c.tokens_per_s, "tokens/s"),
                  f"{k}_cap": fmt(c.capacity, "req/s"), f"{k}_lat": fmt(c.lat_batch, "int")}
    b = CONFIGS["B"]
    facts |= {"slo": fmt(S.ttft_slo_s, "ms"), "target": fmt(S.tput_target, "tokens/s"),
              "arrival": fmt(S.arrival, "req/s"), "prefill": fmt(b.prefill, "ms"),
              "step_small": fmt(CONFIGS["D"].step(S.tiny_batch), "ms"), "step_large": fmt(b.step(S.large_batch), "ms"),
              "weights": fmt(weights(SEVENTY), "GB"), "large": fmt(S.large_batch, "int"),
              "small": fmt(S.tiny_batch, "int"),
              "kv_large": fmt(S.large_batch * kv_token(SEVENTY) * (S.prompt + S.output / 2), "GB")}
    return facts


ACT2_PREDICTION = Pick(
    id="a2_predict", act=2,
    prompt=f"Which configuration meets both promises: chat P99 TTFT under {fmt(S.ttft_slo_s, 'ms')} at "
           f"{fmt(S.arrival, 'req/s')}, and bulk throughput over {fmt(S.tput_target, 'tokens/s')}?",
    quantity="the configuration that meets both promises",
    options=(
        Claim("A", f"One setting for both: static batches of {S.large_batch:.0f}, the most work per step.",
              "Bulk reaches {A_tput}, but a chat request waits for the running batch's whole reply and then "
              "for {A_lat} prefills: its first token comes after {A_ttft}, against a {slo} promise."),
        Claim("B", f"Chat: continuous batching with {S.small_batch:.0f} slots. Bulk: a continuous batch of "
                   f"{S.large_batch:.0f}.",
              "New chat requests are prefilled at the next step, so only the prefill queue delays them: "
              "{B_ttft} at P99 ({prefill} per prompt), and {B_lat} slots sustain {B_cap}. Bulk: {B_tput}."),
        Claim("C", f"Chat: one request at a time for the lowest latency. Bulk: static batches of "
                   f"{S.huge_batch:.0f}.",
              "Bulk is fast ({C_tput}), but one request at a time completes only {C_cap} against {arrival} "
              "arriving: the chat queue grows without bound (TTFT {C_ttft})."),
        Claim("D", f"One setting for both: continuous batching with {S.tiny_batch:.0f} slots.",
              "{D_lat} sequences per step give the bulk tier only {D_tput}, under {target}; and {D_lat} chat slots, each "
              "held for a whole reply, sustain {D_cap} against {arrival}, so the chat queue grows without bound."),
    ),
    decide=act2_decide,
)

ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt=f"A decode step for {S.large_batch:.0f} sequences takes barely longer than one for {S.tiny_batch:.0f}. Why?",
    options=(
        Claim("A", "Each step must read all the weights from HBM whatever the batch; more sequences add only "
                   "their KV reads, so decode is bandwidth-bound and batching shares the weight read.",
              "A step reads {weights} of weights for any batch; {large} sequences add {kv_large} of KV. "
              "Step time: {step_small} at {small}, {step_large} at {large}."),
        Claim("B", "Larger batches switch the tensor cores to FP8.",
              "Precision is a deployment choice, not a function of batch size."),
        Claim("C", "The KV cache of each sequence shrinks when more sequences share the GPU.",
              "Each sequence keeps its own keys and values; batching does not compress them."),
        Claim("D", "Prefill and decode of the batch overlap perfectly.",
              "Prefill is compute-bound and can hide behind decode only partly; the step time is set "
              "by reading the weights."),
    ),
    answer_letter="A",
)


def act2_instruments(s: State) -> list:
    v = serving(s)
    slo_met = v.ttft < S.ttft_slo_s
    parts = [metric_grid(
        M["a2_ttft"].show(v.ttft, "good" if slo_met else "danger", f"promise: under {fmt(S.ttft_slo_s, 'ms')}"),
        M["a2_tput"].show(v.tokens_per_s, "good" if v.tokens_per_s > S.tput_target else "warn",
                          f"target: over {fmt(S.tput_target, 'tokens/s')}"),
        M["a2_capacity"].show(v.capacity, "danger" if v.arrival >= v.capacity else None,
                              f"{fmt(v.arrival, 'req/s')} arrive"),
        M["a2_kv_used"].show(v.kv_used, "danger" if v.kv_oom else None,
                             f"of {fmt(budget(SEVENTY), 'GB')}; paged, {span(v.prompt + S.output)} sequences"),
        M["a2_prefill"].show(v.prefill, note="compute-bound"),
        M["a2_step"].show(v.step(v.tput_batch), note=v.bound(v.tput_batch)),
    )]
    parts += act2_alerts(v)
    parts.append(act2_chart(v))
    return parts


def act2_alerts(v: Serving) -> list:
    parts = []
    if v.ttft >= S.ttft_slo_s:
        why = (f"{fmt(v.arrival, 'req/s')} arrive but this batcher completes only {fmt(v.capacity, 'req/s')}, "
               "so the queue grows without bound." if v.arrival >= v.capacity else
               f"{'P99 ' if v.mode == 'continuous' else 'At best the '}TTFT is {fmt(v.ttft, 's')} against a "
               f"promise of {fmt(S.ttft_slo_s, 'ms')}.")
        parts.append(failure(F["a2_ttft_slo"], why, "Continuous batching prefills a new request at the next "
                             "step; enough slots keep up with the arrivals; shorter prompts shorten the prefill."))
    if v.kv_oom:
        parts.append(failure(F["a2_kv_oom"], f"{fmt(max(v.lat_batch, v.tput_batch), 'int')} sequences of "
                             f"{fmt(v.prompt + S.output, 'tokens')} need {fmt(v.kv_used, 'GB')} of KV cache; the "
                             f"budget is {fmt(budget(SEVENTY), 'GB')}. Shrink a batch or the prompts."))
    if v.tokens_per_s <= S.tput_target:
        parts.append(callout("warn", "Bulk tier below target",
                             prose(f"{fmt(v.tokens_per_s, 'tokens/s')} against {fmt(S.tput_target, 'tokens/s')}: "
                                   "each step reads all the weights for only "
                                   f"{fmt(v.tput_batch, 'int')} sequence(s). A larger batch shares that read.")))
    return parts


def act2_chart(v: Serving):
    rates = [0.5 * k for k in range(1, 33)]
    def curve(mode: str) -> list:
        values = [Serving(mode, v.lat_batch, r, v.tput_batch, v.prompt).ttft for r in rates]
        return [t if math.isfinite(t) else None for t in values]
    cont, static = curve("continuous"), curve("static")
    slo, note = ch.hline(S.ttft_slo_s, "danger", f"SLO {fmt(S.ttft_slo_s, 'ms')}", log=True)
    note |= {"x": 0, "xanchor": "left"}  # the continuous curve climbs through the right-hand end
    shown = [t for t in cont + static if t is not None] + [S.ttft_slo_s]
    span_y = [math.log10(min(shown)) - 0.15, math.log10(max(shown)) + 0.15]
    figure = ch.figure(
        [ch.line(f"Continuous, {fmt(v.lat_batch, 'int')} slots", rates, cont, "series1", markers=True),
         ch.line(f"Static, batch {fmt(v.lat_batch, 'int')}", rates, static, "series2", markers=True),
         ch.point("Your setting", v.arrival, v.ttft if math.isfinite(v.ttft) else None, "accent")],
        x=ch.axis("Chat arrivals (requests/s)"), y=ch.axis("P99 time to first token (s)", "log", dtick=1, range=span_y),
        shapes=[slo], annotations=[note])
    summary = (f"At {fmt(v.arrival, 'req/s')} with {span(v.prompt)} prompts: continuous batching "
               f"{fmt(Serving('continuous', v.lat_batch, v.arrival, v.tput_batch, v.prompt).ttft, 's')}, static "
               f"{fmt(Serving('static', v.lat_batch, v.arrival, v.tput_batch, v.prompt).ttft, 's')}. A curve stops "
               "where the batcher can no longer keep up and the queue grows without bound.")
    rows = [(fmt(r, "req/s"), fmt(a if a is not None else math.inf, "s"),
             fmt(b if b is not None else math.inf, "s")) for r, a, b in zip(rates[::2], cont[::2], static[::2])]
    return chart("a2_ttft", "Chat P99 time to first token against arrivals", figure, summary,
                 table=(("Arrivals", "Continuous", "Static"), rows))


def act2_math(s: State):
    v = serving(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"t_{\text{pf}} = \frac{2P\,s + 2L\,s^2 d}{n\,C\,u}",
                 "Prefill pushes the whole prompt through at once: compute-bound. The attention term counts "
                 "every token against the whole prompt, a slight overcount under causal masking."),
        Equation(r"t_{\text{step}} = \max\!\left(\frac{2P + B\,KV_{\text{tok}}\,\bar s}{n\,BW\,\eta},"
                 r"\ \frac{2P\,B}{n\,C\,u}\right)",
                 "Each decode step reads every weight and the batch's KV cache; bandwidth wins until B is large."),
        Equation(r"\text{TTFT}_{99} = t_{\text{pf}} + \max\!\left(0, \ln(100\rho)\right)\frac{t_{\text{pf}}}{1-\rho},"
                 r"\quad \rho = \lambda\,t_{\text{pf}}",
                 "Continuous batching: the M/M/1 waiting-time tail of the prefill queue (conservative)."),
        Equation(r"\text{TTFT}_{\text{static}} = \text{out}\cdot t_{\text{step}}(B) + B\,t_{\text{pf}}",
                 "Static batching: wait for the running batch's reply, then for the new batch's prefills."),
        Equation(r"\lambda < \frac{B}{t_{\text{pf}} + \text{out}\cdot t_{\text{step}}}",
                 "Little's law: B slots, each held for a prefill and a whole reply, must keep up with arrivals."),
    ), rows=(
        ("Peak dense BF16 *C*, utilisation *u* (assumed)", f"{fmt(C.H100_PEAK_BF16_DENSE, 'FLOP/s')}, {fmt(S.prefill_mfu, 'pct')}"),
        ("HBM bandwidth *BW*, efficiency *η* (assumed)", f"{fmt(C.H100_HBM_BW, 'B/s')}, {fmt(S.bw_efficiency, 'pct')}"),
        ("Prompt *s*, reply *out*", f"{fmt(v.prompt, 'tokens')}, {fmt(S.output, 'tokens')}"),
        ("Prefill *t_pf*", fmt(v.prefill, "ms")),
        ("Chat decode step", fmt(v.step(v.lat_batch), "ms")),
        ("Utilisation of the prefill queue *ρ*", fmt(v.arrival * v.prefill, "pct")),
    ), sources=(
        cite("kaplan2020", "2N + 2·n_layer·n_ctx·d FLOP per token"),
        cite("williams2009", "the roofline: the slower of compute and memory sets the time"),
        cite("kleinrock1975", "M/M/1 wait in queue: P(W_q > t) = ρ·exp(−(μ − λ)t)"),
        cite("little1961"),
        cite("yu2022", "iteration-level (continuous) batching"),
        C.REGISTRY["H100_HBM_BW"].source,
    ))


ACT2 = Act(
    number=2, title="Latency or Throughput?", minutes="20–25 min",
    stakeholder_role="Product Lead, Assistant",
    stakeholder=lambda: (
        f"Each of our two products gets its own {S.gpus}-H100 {SEVENTY.label} server. Chat gets {fmt(S.arrival, 'req/s')} with prompts "
        f"of about {fmt(S.prompt, 'tokens')} and replies of {fmt(S.output, 'tokens')}, and we promise the first "
        f"token within {fmt(S.ttft_slo_s, 'ms')} for 99 % of requests. The bulk summariser needs over "
        f"{fmt(S.tput_target, 'tokens/s')}. Engineering proposes one configuration for both. Does that work?"),
    scenario=lambda: (
        "A request has two phases. **Prefill** pushes the whole prompt through the model in one pass and "
        "produces the first token. **Decode** then makes one token per step, and every step reads all the "
        "weights from HBM, for however many sequences share the step.",
        "A **static** batcher runs a batch to its last token before starting the next. A **continuous** "
        "batcher lets new requests join at the next step, up to a number of slots.",
    ),
    prediction=ACT2_PREDICTION,
    controls=(A2_MODE, A2_LAT_BATCH, A2_ARRIVAL, A2_TPUT_BATCH, A2_PROMPT),
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="Batching policy simulator",
)

# ---- the whole lab -------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    v = serving(s)
    active = {"a1_no_room": memory(s).users < 1, "a2_ttft_slo": v.ttft >= S.ttft_slo_s, "a2_kv_oom": v.kv_oom}
    return frozenset(name for name, on in active.items() if on)


def results(s: State) -> dict[str, float]:
    m, v = memory(s), serving(s)
    hit = v.ttft >= S.ttft_slo_s or v.kv_oom or v.tokens_per_s <= S.tput_target
    return {"context_len": m.window, "kv_per_user_gb": m.per_user / S.gb, "max_users": float(m.users),
            "lat_batch": v.lat_batch, "ttft_p99_ms": v.ttft / S.ms, "tput_batch": v.tput_batch,
            "tokens_per_s": v.tokens_per_s, "kv_oom": float(v.kv_oom), "constraint_hit": float(hit)}


def lab_takeaways() -> list[str]:
    facts = act1_facts() | act2_facts()
    return [
        f"{SEVENTY.label} keeps {facts['kv_token']} of KV per token with shared KV heads; without GQA it would be "
        f"{facts['ratio']} more.",
        f"At a reserved {facts['window']} window one {S.gpus}-GPU server holds {facts['users']} conversations; "
        f"reserving only what a "
        f"{facts['chat_tokens']} chat uses (paging) raises that to {facts['users_chat']}.",
        f"Prefill is compute-bound ({facts['prefill']} per prompt); decode is bandwidth-bound: a step takes "
        f"{facts['step_small']} for {facts['small']} sequences and {facts['step_large']} for {facts['large']}.",
        f"Static batches of {facts['large']} make chat wait {facts['A_ttft']} for a first token; continuous batching "
        f"gives {facts['B_ttft']} at P99 while a large bulk batch delivers {facts['B_tput']}.",
    ]


LAB = Lab(
    id="v2_10", volume=2, number=10, title="The KV-Cache Memory Wall",
    invariant="When a large model is served, the **KV cache, not the weights**, bounds how many users fit; "
              "prefill is compute-bound and decode is bandwidth-bound.",
    minutes="35–45 min", chapter="Inference at Scale", url="vol2/10-kv-cache-wall/",
    reading=(
        "**The KV cache**: what attention keeps per token, and grouped-query attention.",
        "**Prefill and decode**: one compute-bound pass, then many bandwidth-bound steps.",
        "**Batching for serving**: static and continuous batching, and paged KV memory.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "**V2-08 The Utilization Trap**: the queueing behind a P99 target, in general.",
        "**V2-12 The SLO Composition Trap**: this lab's TTFT inside a chain of services.",
        "**V2-17 Constraints Never Lie**: the capstone reads this lab's ledger entry.",
    ),
    presets={"context": {"chat": {"a1_used": S.used_chat, "a2_prompt": S.prompt},
                         "docs": {"a1_used": S.used_docs, "a2_prompt": S.prompt_docs}}},
)
