"""Lab V2-10 · The KV-Cache Memory Wall.

Core invariant: on a served model the KV cache each conversation reserves, not the weights, bounds
how many conversations fit; decode steps are bandwidth-bound and shared by a batch, prefills are
compute-bound and are not, so the batching policy trades time to first token (TTFT) against output.

Act I (how many users fit): Llama-3.1-70B in BF16 on 8 H100s, every conversation reserving a
32K-token window. Grouped-query attention (8 KV heads for 64 query heads) makes a token cost
2·80·8·128·2 = 327,680 B, not the 8× larger multi-head figure of the upstream lab.
Act II (two products, one server each): chat promises P99 TTFT under 200 ms at 4 requests/s; a bulk
tier needs over 1,000 output tokens/s. The student picks among engineering's three plans, or none.

Where the lab departs from the spec (handbook/labs/v2_10.md §5), and why:
- The model is **Llama-3.1**-70B (and -8B): the same layers, heads and parameters as Llama 3, whose
  own window is 8,192 tokens (its config.json), too short for the story's 32K; Llama 3.1's is 131,072.
- Bulk throughput counts every sequence's prefill: B·out / (B·t_pf + out·t_step), prefills and decode
  steps taking turns on the server (vLLM without chunked prefill; Agrawal et al. 2024). The spec's
  B / t_step leaves prefill out: 8,303 tokens/s at B = 64 is 3,782 with prefills (handbook/errata.md#e24).
  The same count sets how many requests/s a batcher completes, static or continuous (the spec
  checked no capacity; a continuous batcher also pauses its decodes for each prefill).
- The static TTFT, out·t_step(B) + B·t_pf, is a typical wait behind a full running batch, not a P99;
  its card says so. The continuous P99 adds to the spec's M/M/1 prefill queue an M/M/c wait for a
  free slot, each held B/λ_max (review: 16 slots at 4 requests/s showed 153 ms; a simulated batcher
  gives 0.33 s). Plan A's 32 slots are rarely all busy: 153.2 ms as in the spec.
- Document Q&A (4,096-token prompts): no batching keeps a 200 ms P99 at 4 requests/s (prefill alone
  takes 152 ms; even with perfectly regular prefills, M/D/1, over half the requests miss). Its key is
  D, "none", and the prompt names the prompt length ("say the SLO is out of reach").
- The window runs from Llama 3's 8,192 tokens to 131,072; the tokens a chat holds stop at 8,192, so
  they never exceed the window (the slider reached 131,072 beside a 32K window). A document
  conversation fills the window.
- Questions re-lettered and rewritten (pylabs/ledger_letters.py): Act I's ranges
  A < 10 (multi-head), B 10–25, C 25–100 (key, 40), D ≥ 100 (the paging reveal, 324); the Act I
  reflection asks why Llama-3.1-8B holds only about 3× as many conversations; Act II's plans are
  all two-tier and D says no plan can; its reflection asks why a 4× bulk batch gives far less than 4×.

Ledger fields (handbook/labs/v2_10.md §1; kv_per_user_GB is kept as kv_per_user_gb): the controls hold model,
context_len (``a1_window``), lat_mode, lat_batch, tput_batch; ``results`` holds context_len,
kv_per_user_gb, max_users, lat_batch, ttft_p99_ms (the static figure for a static batcher; null when
the queue is unbounded), tput_batch, tokens_per_s, kv_oom and constraint_hit; the answers hold
act1_prediction, act1_correct and act2_decision.
"""

from __future__ import annotations

import math

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option, Pick,
                              Prediction, Range, Reflection, Slider, State, callout, chart, failure, fmt,
                              math_peek, metric_grid, prose, tone)
from pylabs.framework import charts as ch
from pylabs.framework.formats import plural
from pylabs.labs.vol2.v2_10_facts import a_span, act1_facts, act2_facts, slots_busy, span, ttft_lever
from pylabs.labs.vol2.v2_10_model import (EIGHT, KV_BYTES, MODELS, PROMPT, SEVENTY, Memory, S, Serving,
                                          act1_truth, act2_decide, budget, kv_token, usable, users, weights)
from pylabs.physics import constants as C
from pylabs.physics import units as U
from pylabs.physics.references import cite


# ---- context ----------------------------------------------------------------------

CONTEXT = Choice("context", "Workload", (
    Option("chat", "Chat: conversations hold a few thousand tokens, prompts are short"),
    Option("docs", "Document Q&A: conversations fill the window, prompts carry long documents"),
), default="chat", help="Sets what a conversation holds (Act I) and the prompt length (Act II).")


def terms(context: str) -> dict[str, str]:
    return {"prompt": span(PROMPT[context])}


# ---- Act I · How many users fit? ------------------------------------------------------

def dtype_label(name: str, key: str) -> str:
    """A precision as its option reads: 'BF16, 2 bytes' (the registry's bytes per element)."""
    return f"{name}, {plural(KV_BYTES[key], 'byte', count_fmt='int')}"


A1_MODEL = Choice("a1_model", "Model", tuple(Option(k, m.label) for k, m in MODELS.items()), default="70b")
A1_DTYPE = Choice("a1_dtype", "KV cache precision", (Option("bf16", dtype_label("BF16", "bf16")),
                                                      Option("fp8", dtype_label("FP8", "fp8"))),
                  default="bf16", unit="B per element")
A1_GPUS = Choice("a1_gpus", "H100 GPUs", (Option("8", "8 (one server)"), Option("1", "1")), default="8", unit="GPUs")
A1_WINDOW = Slider("a1_window", "Context window", unit="tokens", min=C.LLAMA3_SEQ, max=C.LLAMA31_CONTEXT_TOKENS,
                   step=1, default=S.window, fmt="tokens", scale="log2",
                   help="From Llama 3's window to Llama 3.1's.")
A1_ALLOC = Choice("a1_alloc", "KV allocation", (
    Option("contiguous", "Contiguous: reserve the whole window"),
    Option("paged", "Paged: blocks as the conversation grows"),
), default="contiguous")
A1_USED = Slider("a1_used", "Tokens a chat conversation holds", unit="tokens", min=256, max=A1_WINDOW.min, step=1,
                 default=S.used_chat, fmt="tokens", scale="log2",
                 help="Up to the shortest window, so never more than the window. Counts with paged allocation.")


def memory(s: State) -> Memory:
    window = s["a1_window"]
    used = window if s["context"] == "docs" else s["a1_used"]
    return Memory(MODELS[s["a1_model"]], s["a1_dtype"], int(s["a1_gpus"]), window, s["a1_alloc"] == "paged", used)


def act1_overridden(s: State) -> dict[str, str]:
    if s["context"] == "docs":
        return {"a1_used": "A document conversation fills the window: it holds all of it."}
    if s["a1_alloc"] == "contiguous":
        return {"a1_used": "Contiguous allocation reserves the whole window, whatever a conversation holds."}
    return {}


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"One server of {S.gpus} H100s serves {SEVENTY.label} in BF16, and every conversation reserves KV "
           f"cache for the full {span(S.window)} window. How many conversations can it hold at once?",
    quantity=f"concurrent conversations on {S.gpus} H100s at {a_span(S.window)} window",
    unit_fmt="int",
    options=(
        Range("A", "{range}: each cache rivals the weights in size", None, 10, 5,
              "That is the multi-head figure: if each of the {query_heads} query heads kept its own K and V, a "
              "conversation would need {mha_user} and only {mha_users} would fit. The model shares {kv_heads} KV "
              "heads among its {query_heads} query heads (grouped-query attention), {ratio} less: {kv_user}."),
        Range("B", "{range}: each cache runs to tens of GB", 10, 25, 18,
              "A reserved {window} window costs {kv_token} per token, {kv_user} in all, not tens of GB: the "
              "weights are {weights_x} one conversation's cache, and the {budget} left holds {users}."),
        Range("C", "{range}: each cache is around ten GB", 25, 100, 50,
              "Each token keeps {kv_token} of keys and values across all layers, so a {window} window reserves "
              "{kv_user}; the {budget} left after the weights holds {users} of them."),
        Range("D", "{range}: each cache is a gigabyte or two", 100, None, 324,
              "A gigabyte or two is what a short chat holds, not what it reserves: a reserved {window} window "
              "costs {kv_user}, so the {budget} left holds {users}. Hundreds fit only when a conversation reserves "
              "what it holds: {paging}."),
    ),
    truth=act1_truth,
    shown_by="a1_users",
)

ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt=f"Switch to {EIGHT.label}: the 70B has {fmt(SEVENTY.params / EIGHT.params, 'x')} its parameters, but at "
           f"the same reserved window the server holds {fmt(users(EIGHT, S.window), 'int')} of its conversations, only "
           f"{fmt(users(EIGHT, S.window) / act1_truth(), 'x')} the 70B's {fmt(act1_truth(), 'int')}. Why not "
           f"{fmt(SEVENTY.params / EIGHT.params, 'x')} as many?",
    options=(
        Claim("A", "The 70B's weights filled most of the usable HBM, so the 8B frees little room.",
              "The 70B's weights take only {weights} of the {usable} usable. With the 8B's {weights8} instead, the "
              "budget grows {budget_x}, from {budget} to {budget8}: most of the gain comes from the cache."),
        Claim("B", "A conversation's cache is set by the window alone, the same for any model.",
              "If it were, the 8B's {budget8} would hold {n_same}. It keeps {kv8} per token against {kv_token}, "
              "{kv_x} less, which gives {n8}."),
        Claim("C", "A smaller model needs more activation memory for each conversation.",
              "Activations grow with the model's width, and the 8B's hidden size is half the 70B's ({width8} against "
              "{width70}): it needs less, not more. What changes is the cache per token ({kv8} against "
              "{kv_token}) and the budget ({budget8} against {budget})."),
        Claim("D", "Its cache per token shrinks only with the layers; the KV heads are alike.",
              "KV per token is 2 × layers × KV heads × head size × bytes: both models keep {kv_heads} KV heads of "
              "the same size, so {layers70} layers against {layers8} make it only {kv_x} smaller. The budget "
              "grows {budget_x}: {users} becomes {n8}."),
    ),
    answer_letter="D",
)

M = {m.name: m for m in (
    MetricSpec("a1_users", "Conversations that fit", "1", "int"),
    MetricSpec("a1_kv_per_user", "KV reserved per conversation", "B", "B"),
    MetricSpec("a1_budget", "HBM left for KV after the weights", "B", "GB"),
    MetricSpec("a1_waste", "Reserved KV holding no token", "1", "pct"),
    MetricSpec("a1_kv_token", "KV per token (bytes)", "B", "int"),
    MetricSpec("a1_users_mha", "Conversations without GQA", "1", "int"),
    MetricSpec("a2_ttft", "Chat time to first token", "s", "s"),  # unbounded where the queue grows without end
    MetricSpec("a2_tput", "Bulk output, prefills included", "tokens/s", "tokens/s"),
    MetricSpec("a2_capacity", "Chat requests/s the batcher completes", "1/s", "req/s"),
    MetricSpec("a2_kv_used", "KV cache of the larger batch", "B", "B"),
    MetricSpec("a2_prefill", "Prefill of one prompt", "s", "ms"),
    MetricSpec("a2_step", "Bulk decode step", "s", "ms"),
)}

RECORD = (
    MetricSpec("context_len", "Context window", "tokens", "tokens"),
    MetricSpec("kv_per_user_gb", "KV reserved per conversation (GB)", "GB", "num"),
    MetricSpec("max_users", "Conversations that fit", "1", "int"),
    MetricSpec("lat_batch", "Chat batch size or slots", "1", "int"),
    MetricSpec("ttft_p99_ms", "Chat time to first token (ms; P99 when continuous)", "ms", "num"),
    MetricSpec("tput_batch", "Bulk batch size", "1", "int"),
    MetricSpec("tokens_per_s", "Bulk output, prefills included", "tokens/s", "tokens/s"),
    MetricSpec("kv_oom", "A batch's KV cache over the budget", "1", "yesno"),
    MetricSpec("constraint_hit", "A promise or the memory broken", "1", "yesno"),
)

FAILURES = (
    FailureSpec("a1_no_room", "No room for a single conversation: the weights fill the usable HBM", act=1,
                reach={"a1_gpus": "1"}, leave={"a1_gpus": "8"}),
    FailureSpec("a2_ttft_slo", "Chat SLO broken: time to first token over the promise", act=2,
                reach={}, leave={"a2_lat_mode": "continuous", "a2_lat_batch": 32}, contexts=("chat",)),
    FailureSpec("a2_kv_oom", "Out of memory: a batch's KV cache exceeds the budget", act=2,
                reach={"a2_tput_batch": 256, "a2_prompt": 8192}, leave={"a2_tput_batch": 64}),
)
F = {f.name: f for f in FAILURES}


def gpus_text(n: int) -> str:
    return plural(n, "GPU", count_fmt="int")


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
        M["a1_users_mha"].show(m.users_without_gqa(), note=f"if all {fmt(m.model.query_heads, 'int')} heads kept K and V"),
    )]
    if m.users < 1:
        parts.append(failure(F["a1_no_room"],
                             f"{m.model.label} needs {fmt(weights(m.model), 'GB')} of BF16 weights; "
                             f"{gpus_text(m.gpus)} {'offers' if m.gpus == 1 else 'offer'} {fmt(usable(m.gpus), 'GB')} "
                             "usable, which leaves "
                             f"{fmt(max(0.0, m.budget), 'GB')} for KV cache, less than one conversation's "
                             f"{fmt(m.per_user, 'B')}. " + ("The weights alone do not fit: add GPUs or pick the "
                             "smaller model." if m.budget <= 0 else "Add GPUs, shorten the window, or pick the "
                             "smaller model.")))
    parts.append(act1_chart(m, s["context"] == "docs"))
    return parts


def act1_chart(m: Memory, fills: bool):
    windows = [2.0 ** k for k in range(round(math.log2(A1_WINDOW.min)), round(math.log2(A1_WINDOW.max)) + 1)]
    def fits(window: float, heads: float | None = None) -> int | None:
        case = Memory(m.model, m.dtype, m.gpus, window, m.paged, window if fills else m.used)
        n = case.users if heads is None else case.users_without_gqa()
        return n if n > 0 else None   # a log axis has no zero: an empty point means none fit
    gqa = [fits(w) for w in windows]
    mha = [fits(w, m.model.query_heads) for w in windows]
    figure = ch.figure(
        [ch.line(f"{fmt(m.model.kv_heads, 'int')} KV heads (GQA)", windows, gqa, "series1", markers=True),
         ch.line(f"{fmt(m.model.query_heads, 'int')} KV heads (no GQA)", windows, mha, "series2", dash="dash"),
         ch.point("Your setting", m.window, m.users if m.users > 0 else None, "accent")],
        x=ch.axis("Context window (tokens)", "log", tickvals=windows,
                  ticktext=[f"{int(w) // U.KIBI}K" for w in windows]),
        y=ch.axis("Conversations that fit", "log", dtick=1))
    held = (f"Paged, each conversation reserves the {fmt(m.reserved_tokens, 'tokens')} it holds."
            if m.paged else f"Contiguous, each reserves its whole {span(m.window)} window.")
    summary = (f"{m.model.label} on {gpus_text(m.gpus)}: {fmt(m.users, 'int')} conversations at {a_span(m.window)} "
               f"window, against {fmt(m.users_without_gqa(), 'int')} if every query head kept its own keys and "
               f"values. {held}")
    rows = [(fmt(w, "tokens"), fmt(a or 0, "int"), fmt(b or 0, "int")) for w, a, b in zip(windows, gqa, mha)]
    return chart("a1_users", "Conversations that fit against context window", figure, summary,
                 table=(("Window", "GQA", "No GQA"), rows))


def act1_math(s: State):
    m = memory(s)
    return math_peek("The governing equations · Act I", (
        Equation(r"KV_{\text{tok}} = 2\,L\,n_{\text{kv}}\,d_h\,b",
                 "A key and a value per KV head per layer; *b* bytes per element."),
        Equation(r"B_{\text{KV}} = f\,n\,M_{\text{HBM}} - 2P",
                 f"HBM the server may use, vLLM's default share *f* of each GPU's {fmt(C.H100_HBM_BYTES, 'GB')} "
                 "(the datasheet's figure), minus the BF16 weights. vLLM also takes the activation peak out of "
                 "this share; the count leaves it out."),
        Equation(r"N = \left\lfloor \frac{B_{\text{KV}}}{KV_{\text{tok}}\cdot s_{\text{reserved}}} \right\rfloor",
                 "Contiguous allocation reserves the window; paging reserves whole blocks of what is used."),
    ), rows=(
        ("Layers *L*, KV heads *n_kv*, head size *d_h*",
         f"{fmt(m.model.layers, 'int')}, {fmt(m.model.kv_heads, 'int')}, {fmt(C.LLAMA3_HEAD_DIM, 'int')}"),
        ("KV per token", f"{fmt(kv_token(m.model, m.dtype), 'int')} bytes"),
        ("Usable share *f*, GPUs *n*", f"{fmt(C.VLLM_GPU_MEMORY_UTILIZATION, 'pct')}, {m.gpus}"),
        ("Weights *2P*", fmt(weights(m.model), "GB")),
        ("Tokens reserved per conversation", fmt(m.reserved_tokens, "tokens")),
        ("Conversations *N*", fmt(m.users, "int")),
    ), sources=(
        cite("ainslie2023", "grouped-query attention: KV heads shared by groups of query heads"),
        cite("kwon2023", "PagedAttention: KV blocks allocated on demand"),
        C.REGISTRY["LLAMA3_70B_KV_HEADS"].source,
        C.REGISTRY["LLAMA31_CONTEXT_TOKENS"].source,
        C.REGISTRY["VLLM_GPU_MEMORY_UTILIZATION"].source,
        C.REGISTRY["H100_HBM_BYTES"].source,
    ))


def act1_story(context: str) -> str:
    held = (f"A chat holds about {fmt(S.used_chat, 'tokens')}, but" if context == "chat"
            else "A document conversation fills it, and")
    return (f"We are launching {SEVENTY.label} on one server of {S.gpus} H100s "
            f"({fmt(S.gpus * C.H100_HBM_BYTES, 'GB')} of HBM); the BF16 weights take {fmt(weights(SEVENTY), 'GB')}. "
            f"Marketing promises {a_span(S.window)} window. {held} our serving stack reserves the whole "
            "window for every conversation. How many users does one server carry?")


ACT1 = Act(
    number=1, title="How Many Users Fit?", minutes="12–15 min",
    stakeholder_role="Head of Inference Platform",
    stakeholder=act1_story,
    scenario=lambda: (
        "While it writes a reply, the model keeps the **keys and values** of every earlier token in HBM, so it "
        "does not recompute them at each new token. This **KV cache** lives as long as the conversation.",
        f"{SEVENTY.label} has {fmt(SEVENTY.layers, 'int')} layers and {fmt(SEVENTY.query_heads, 'int')} query heads "
        f"of {fmt(C.LLAMA3_HEAD_DIM, 'int')} dimensions, but only {fmt(SEVENTY.kv_heads, 'int')} key/value heads: "
        "groups of query heads share one (grouped-query attention).",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_MODEL, A1_DTYPE, A1_GPUS, A1_WINDOW, A1_ALLOC, A1_USED),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="HBM budget explorer",
    overridden=act1_overridden,
)

# ---- Act II · Latency or throughput? -------------------------------------------------

A2_MODE = Choice("a2_lat_mode", "Chat batching", (
    Option("static", "Static: a batch runs to the end before the next starts"),
    Option("continuous", "Continuous: new requests join at the next step"),
), default="static")
A2_LAT_BATCH = Slider("a2_lat_batch", "Chat batch size (slots)", unit="sequences", min=1, max=256, step=1,
                      default=S.plan_static, fmt="int", scale="log2")
A2_ARRIVAL = Slider("a2_arrival", "Chat arrivals", unit="requests/s", min=0.5, max=16, step=0.5, default=S.arrival,
                    fmt="req/s")
A2_TPUT_BATCH = Slider("a2_tput_batch", "Bulk batch size", unit="sequences", min=1, max=256, step=1,
                       default=S.bulk_plan, fmt="int", scale="log2",
                       help="The bulk tier always has jobs queued, so its batches run full.")
A2_PROMPT = Slider("a2_prompt", "Prompt length", unit="tokens", min=256, max=8192, step=1, default=S.prompt_chat,
                   fmt="tokens", scale="log2")


def serving(s: State) -> Serving:
    return Serving(s["a2_lat_mode"], s["a2_lat_batch"], s["a2_arrival"], s["a2_tput_batch"], s["a2_prompt"])


ACT2_PREDICTION = Pick(
    id="a2_predict", act=2,
    prompt=f"With {{prompt}} prompts at {fmt(S.arrival, 'req/s')}, which plan keeps both promises: chat P99 "
           f"time to first token under {fmt(S.ttft_slo_s, 's')}, and bulk output over {fmt(S.tput_target, 'tokens/s')}?",
    quantity="the plan that keeps both promises",
    options=(
        Claim("A", f"Chat: continuous batching, {fmt(S.plan_slots, 'int')} slots. Bulk: batches of "
                   f"{fmt(S.bulk_plan, 'int')}.",
              "{A_wait} Bulk: batches of {A_bulk} deliver {A_tput}, prefills included."),
        Claim("B", f"Chat: static batches of {fmt(S.plan_static, 'int')}. Bulk: batches of {fmt(S.bulk_more, 'int')}.",
              "With static batches, {B_wait}. Bulk: batches of {B_bulk} deliver {B_tput}."),
        Claim("C", f"Chat: continuous batching, {fmt(S.plan_few_slots, 'int')} slots. Bulk: batches of "
                   f"{fmt(S.bulk_most, 'int')}.",
              "Each of the {C_slots} slots is held for a prefill and a whole reply, so they complete only {C_cap} "
              "of the {arrival} arriving: the chat queue grows without bound. Bulk: batches of {C_bulk} deliver "
              "{C_tput}."),
        Claim("D", f"None: no batching keeps chat's P99 under {fmt(S.ttft_slo_s, 's')} here.", "{D_why}"),
    ),
    decide=act2_decide,
)

ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt=f"Quadruple the bulk batch from {fmt(S.bulk_plan, 'int')} to {fmt(S.bulk_most, 'int')} sequences: bulk "
           "output rises far less than fourfold. Why?",
    options=(
        Claim("A", f"Past {fmt(S.bulk_plan, 'int')} sequences decode turns compute-bound, so each step takes "
                   "four times as long.",
              "At {most} sequences a step takes {step_most}, against {step_few} at {few}: still bandwidth-bound "
              "(its arithmetic takes {compute_most})."),
        Claim("B", "Each sequence still needs its own prefill, and batching cannot share that work.",
              "A batch of {most} spends {share_most} of its time in prefill, against {share_few} for {few}: decode "
              "steps are shared by the batch, prefills are not. Output: {out_few} becomes {out_most}."),
        Claim("C", f"The cache of {fmt(S.bulk_most, 'int')} sequences no longer fits, so the server swaps part of it out.",
              "{most} sequences of {seq} hold {kv_most} of KV, inside the {budget} budget: nothing is swapped."),
        Claim("D", "Every decode step reads the weights once for each sequence in the batch.",
              "The weights are read once per step for the whole batch: the step grows only from {step_few} to "
              "{step_most}."),
    ),
    answer_letter="B",
)


def act2_instruments(s: State) -> list:
    v = serving(s)
    over = "this batch does not fit in HBM"
    what = (over if not v.fits(v.lat_batch) else "the queue grows without bound" if not math.isfinite(v.ttft) else
            "P99: prefill queue and wait for a slot" if v.mode == "continuous" else "static: behind a full batch")
    parts = [metric_grid(
        M["a2_ttft"].show(v.ttft, "good" if v.ttft < S.ttft_slo_s and v.fits(v.lat_batch) else "danger",
                          f"{what}; promise: P99 under {fmt(S.ttft_slo_s, 's')}"),
        M["a2_tput"].show(v.tokens_per_s, "danger" if not v.fits(v.tput_batch) else
                          "good" if v.tokens_per_s > S.tput_target else "warn",
                          over if not v.fits(v.tput_batch) else f"target: over {fmt(S.tput_target, 'tokens/s')}"),
        M["a2_capacity"].show(v.capacity, "danger" if v.arrival >= v.capacity or not v.fits(v.lat_batch) else None,
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
        if v.arrival >= v.capacity:
            why = (f"{fmt(v.arrival, 'req/s')} arrive but this batcher completes only {fmt(v.capacity, 'req/s')}, "
                   "so the queue grows without bound.")
        elif v.slot_bound:
            why = (f"The P99 is {fmt(v.ttft, 's')} against a promise of {fmt(S.ttft_slo_s, 's')}: {slots_busy(v)} "
                   "before their prefill.")
        elif v.mode == "continuous":
            why = (f"The P99 is {fmt(v.ttft, 's')} against a promise of {fmt(S.ttft_slo_s, 's')}: each "
                   f"{span(v.prompt)} prefill takes {fmt(v.prefill, 's')} and the prefill queue is {fmt(v.rho, 'pct')} busy.")
        else:
            why = (f"A request that arrives as a full batch starts to decode waits {fmt(v.ttft, 's')}, against a "
                   f"promise of {fmt(S.ttft_slo_s, 's')} for 99 % of requests.")
        parts.append(failure(F["a2_ttft_slo"], why, ttft_lever(v)))
    if v.kv_oom:
        parts.append(failure(F["a2_kv_oom"], f"{fmt(max(v.lat_batch, v.tput_batch), 'int')} sequences of "
                             f"{fmt(v.prompt + S.output, 'tokens')} need {fmt(v.kv_used, 'GB')} of KV cache; the "
                             f"budget is {fmt(budget(SEVENTY), 'GB')}. Shrink a batch or the prompts."))
    if v.tokens_per_s <= S.tput_target:
        ceiling = S.output / v.prefill
        fix = (f"Each {span(v.prompt)} prefill takes {fmt(v.prefill, 's')}, so no batch passes "
               f"{fmt(ceiling, 'tokens/s')}: shorten the prompts." if ceiling <= S.tput_target else
               f"A batch of {plural(v.tput_batch, 'sequence', count_fmt='int')} shares each decode step among too "
               "few: a larger batch makes more tokens per step.")
        parts.append(callout("warn", "Bulk tier below target",
                             prose(f"{fmt(v.tokens_per_s, 'tokens/s')} against {fmt(S.tput_target, 'tokens/s')}. {fix}")))
    return parts


def act2_chart(v: Serving):
    rates = [A2_ARRIVAL.min * k for k in range(1, round(A2_ARRIVAL.max / A2_ARRIVAL.min) + 1)]
    def curve(mode: str) -> list:
        values = [Serving(mode, v.lat_batch, r, v.tput_batch, v.prompt).ttft for r in rates]
        return [t if math.isfinite(t) else None for t in values]
    cont, static = curve("continuous"), curve("static")
    slo, note = ch.hline(S.ttft_slo_s, "danger", f"promise {fmt(S.ttft_slo_s, 's')}", log=True)
    note |= {"x": 0, "xanchor": "left"}  # the continuous curve climbs through the right-hand end
    shown = [t for t in cont + static if t is not None] + [S.ttft_slo_s]
    span_y = [math.log10(min(shown)) - 0.15, math.log10(max(shown)) + 0.15]
    slots = fmt(v.lat_batch, "int")
    figure = ch.figure(
        [ch.line(f"Continuous, {slots} slots: P99", rates, cont, "series1", markers=True),
         ch.line(f"Static, batch {slots}: behind a full batch", rates, static, "series2", markers=True),
         ch.point("Your setting", v.arrival, v.ttft if math.isfinite(v.ttft) else None, "accent")],
        x=ch.axis("Chat arrivals (requests/s)"), y=ch.axis("Time to first token (s)", "log", dtick=1, range=span_y),
        shapes=[slo], annotations=[note])
    at = {mode: Serving(mode, v.lat_batch, v.arrival, v.tput_batch, v.prompt).ttft for mode in ("continuous", "static")}
    said = {mode: M["a2_ttft"].text(t) for mode, t in at.items()}   # "unbounded" where the queue never drains
    summary = (f"At {fmt(v.arrival, 'req/s')} with {span(v.prompt)} prompts: continuous batching's P99 "
               f"{said['continuous']}; static, behind a full batch of {slots}, {said['static']}. "
               "A curve stops where the batcher can no longer keep up and the queue grows without bound.")
    waited = M["a2_ttft"].text   # a curve's missing point (None) is a rate past the batcher's capacity
    rows = [(fmt(r, "req/s"), waited(math.inf if a is None else a), waited(math.inf if b is None else b))
            for r, a, b in zip(rates[::2], cont[::2], static[::2])]
    return chart("a2_ttft", "Chat time to first token against arrivals", figure, summary,
                 table=(("Arrivals", "Continuous (P99)", "Static (full batch)"), rows))


def act2_math(s: State):
    v = serving(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"t_{\text{pf}} = \frac{2P\,s + 2L\,s^2 d}{n\,C\,u}",
                 "Prefill pushes the whole prompt through at once: compute-bound. The attention term counts "
                 "every token against the whole prompt, a slight overcount under causal masking."),
        Equation(r"t_{\text{step}} = \max\!\left(\frac{2P + B\,KV_{\text{tok}}\,\bar s}{n\,BW\,\eta},"
                 r"\ \frac{2P\,B}{n\,C\,u}\right)",
                 "Each decode step reads every weight and the batch's KV cache; bandwidth wins until B is large."),
        Equation(r"\lambda_{\max} = \frac{B}{B\,t_{\text{pf}} + \text{out}\cdot t_{\text{step}}},\quad"
                 r"\text{output} = \text{out}\cdot\lambda_{\max}",
                 "A batch of B: its prefills and its decode steps take turns on the server (no chunked "
                 "prefill), static or continuous. More arrivals than this queue without bound."),
        Equation(r"P(W_{\text{pf}} > t) = \rho\,e^{-(1-\rho)\,t/t_{\text{pf}}},\quad \rho = \lambda\,t_{\text{pf}}",
                 "The prefill queue: the M/M/1 waiting-time tail (conservative for fixed-length prompts)."),
        Equation(r"P(W_{\text{slot}} > t) = C\!\left(B, \tfrac{\lambda B}{\lambda_{\max}}\right)e^{-(\lambda_{\max}-\lambda)\,t}",
                 "The wait for one of *B* slots, each held B/λ_max for a reply: M/M/c, with Erlang's *C* the "
                 "chance that every slot is busy."),
        Equation(r"\text{TTFT}_{99} = t_{\text{pf}} + \text{P99 of}\ (W_{\text{pf}} + W_{\text{slot}})",
                 "Continuous batching: both waits, taken as independent; with slots to spare it is the prefill "
                 "queue's tail, t_pf + ln(100ρ)·t_pf/(1 − ρ)."),
        Equation(r"\text{TTFT}_{\text{static}} = \text{out}\cdot t_{\text{step}}(B) + B\,t_{\text{pf}}",
                 "Static batching, behind a full batch: its whole reply, then the new batch's prefills."),
    ), rows=(
        ("Peak dense BF16 *C*, utilisation *u* (assumed)", f"{fmt(C.H100_PEAK_BF16_DENSE, 'FLOP/s')}, {fmt(S.prefill_mfu, 'pct')}"),
        ("HBM bandwidth *BW*, efficiency *η* (assumed)", f"{fmt(C.H100_HBM_BW, 'B/s')}, {fmt(S.bw_efficiency, 'pct')}"),
        ("Prompt *s*, reply *out*", f"{fmt(v.prompt, 'tokens')}, {fmt(S.output, 'tokens')}"),
        ("Prefill *t_pf*", fmt(v.prefill, "ms")),
        ("Chat decode step", fmt(v.step(v.lat_batch), "ms")),
        ("Utilisation of the prefill queue *ρ*", fmt(v.rho, "pct")),
        ("Requests that find every chat slot busy *C*",
         fmt(v.slots_full, "pct") if v.mode == "continuous" else "static batches"),
    ), sources=(
        cite("kaplan2020", "2N + 2·n_layer·n_ctx·d FLOP per token"),
        cite("williams2009", "the roofline: the slower of compute and memory sets the time"),
        cite("agrawal2024", "a prefill pauses the running batch's decodes unless it is chunked"),
        cite("kleinrock1975", "M/M/1 wait in queue: P(W_q > t) = ρ·exp(−(μ − λ)t); M/M/c: C·exp(−(cμ − λ)t)"),
        cite("franx2001", "Erlang's M/D/1 waiting time: every prefill the same length"),
        cite("little1961"),
        cite("yu2022", "iteration-level (continuous) batching"),
        C.REGISTRY["H100_HBM_BW"].source,
    ))


def act2_story(context: str) -> str:
    load = (f"Chat gets {fmt(S.arrival, 'req/s')} with prompts of about {fmt(PROMPT[context], 'tokens')}"
            if context == "chat" else f"Chat about documents gets {fmt(S.arrival, 'req/s')}, each prompt a document "
            f"excerpt and a question of about {fmt(PROMPT[context], 'tokens')}")
    return (f"Each of our two products gets its own {S.gpus}-H100 {SEVENTY.label} server. {load}; replies run "
            f"{fmt(S.output, 'tokens')}. We promise the first token within {fmt(S.ttft_slo_s, 's')} for 99 % of requests. "
            f"The bulk summariser, with prompts and replies as long, needs over {fmt(S.tput_target, 'tokens/s')} of "
            "output. Engineering sent three plans.")


ACT2 = Act(
    number=2, title="Latency or Throughput?", minutes="20–25 min",
    stakeholder_role="Product Lead, Assistant",
    stakeholder=act2_story,
    scenario=lambda: (
        "A request has two phases. **Prefill** runs the whole prompt through the model in one pass and produces "
        f"the first token, at an assumed {fmt(S.prefill_mfu, 'pct')} of the server's "
        f"{fmt(S.gpus * C.H100_PEAK_BF16_DENSE, 'FLOP/s')} BF16 peak. **Decode** then makes one token per step for "
        f"each sequence in the batch, reading HBM at an assumed {fmt(S.bw_efficiency, 'pct')} of the server's "
        f"{fmt(S.gpus * C.H100_HBM_BW, 'B/s')}.",
        "A **static** batcher runs a batch to its last token before starting the next. A **continuous** batcher "
        "admits new requests at the next step, up to a number of slots.",
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
    return {"context_len": m.window, "kv_per_user_gb": m.per_user / U.B_PER_GB, "max_users": float(m.users),
            "lat_batch": v.lat_batch, "ttft_p99_ms": v.ttft / U.S_PER_MS, "tput_batch": v.tput_batch,
            "tokens_per_s": v.tokens_per_s, "kv_oom": float(v.kv_oom), "constraint_hit": float(hit)}


def lab_takeaways() -> list[str]:
    one, chat, docs = act1_facts("chat"), act2_facts("chat"), act2_facts("docs")
    return [
        f"{SEVENTY.label} keeps {one['kv_token']} of KV per token with shared KV heads; without them it would be "
        f"{one['ratio']} more. A reserved {one['window']} window then holds {one['users']} conversations on "
        f"{S.gpus} H100s; reserving what {a_span(S.used_chat)} chat holds (paging) raises that to "
        f"{fmt(users(SEVENTY, S.used_chat), 'int')}.",
        f"The cache per token follows layers and KV heads, not parameters: at the same window {EIGHT.label} "
        f"holds {one['n8']} conversations against the 70B's {one['users']}, though the 70B has {one['params_x']} "
        "its parameters.",
        f"Decode steps are bandwidth-bound and shared by a batch ({chat['step_few']} for {chat['few']} sequences, "
        f"{chat['step_most']} for {chat['most']}); prefills are compute-bound and each sequence pays its own, so "
        f"bulk output with {span(S.prompt_chat)} prompts only rises from {chat['out_few']} to {chat['out_most']}.",
        f"With {span(S.prompt_chat)} prompts continuous batching with {chat['A_slots']} slots keeps chat's P99 at "
        f"{chat['A_ttft']}; with half the slots, each held for a whole reply, requests wait for a free one "
        f"({fmt(Serving('continuous', S.plan_slots / 2, S.arrival, S.bulk_plan).ttft, 's')}). With "
        f"{span(S.prompt_docs)} prompts each prefill takes {docs['pf']} and the prefill queue alone puts the P99 "
        f"at {docs['queue']}: no batching keeps that promise on one server.",
    ]


LAB = Lab(
    id="v2_10", volume=2, number=10, title="The KV-Cache Memory Wall",
    invariant="On a served model the KV cache each conversation reserves, not the weights, bounds how many "
              "conversations fit; decode steps are bandwidth-bound and shared by a batch, prefills are "
              "compute-bound and are not, so the batching policy trades time to first token against output.",
    hook="Eight H100s serve a 70-billion-parameter model. How many people can it talk with at once, and how "
         "soon does each reply begin?",
    minutes="35–45 min", chapter="Inference at Scale", url="vol2/10-kv-cache-wall/",
    description="Eight H100s serve a 70-billion-parameter model. How many conversations fit at once, and how soon "
                "does each reply begin?",
    reading=(
        "**The KV cache**: what attention keeps per token, and grouped-query attention.",
        "**Prefill and decode**: one pass over the prompt, then one token per step.",
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
    presets={"context": {"chat": {"a2_prompt": S.prompt_chat}, "docs": {"a2_prompt": S.prompt_docs}}},
    record_metrics=RECORD,
    terms=terms,
)
