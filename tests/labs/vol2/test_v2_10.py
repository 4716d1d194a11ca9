"""V2-10 The KV-Cache Memory Wall: keys proven by the physics in both contexts (handbook/labs/v2_10.md §2 and §4,
corrected where handbook/labs/v2_10.md §5 found the spec wrong), feedback for every option,
failure states reached and left, edges, presets, the ledger record."""

from __future__ import annotations

import itertools
import math
import re

import pytest

from pylabs.framework.render import record, render_lab
from pylabs.labs.vol2 import v2_10 as lab
from pylabs.labs.vol2 import v2_10_model as model
from pylabs.physics import constants as C
from pylabs.physics import queueing
from tests.labs.helpers import LOCKED_AT, rendered
from tests.labs.reading import page_text

LAB = lab.LAB
S = model.S
CONTEXTS = ("chat", "docs")


def locked(through: str, context: str = "chat", choices: dict | None = None, **controls):
    """Questions up to ``through`` locked (the key in ``context`` unless ``choices`` says otherwise),
    the context picked as a student picks it (its presets applied), then ``controls`` moved."""
    answers = {}
    for q in LAB.questions:
        answers[q.id] = {"choice": (choices or {}).get(q.id, q.answer(context)), "locked_at": LOCKED_AT}
        if q.id == through:
            break
    state = LAB.parse({"controls": {"context": context}}, changed="context")
    return LAB.parse({"answers": answers, "controls": {**state.controls, **controls}})


def all_open(context: str = "chat", **controls):
    return locked("a2_reflect", context, **controls)


def feedback(qid: str, letter: str, context: str = "chat") -> str:
    html = rendered(LAB, locked(qid, context, {qid: letter}))
    section = html.split(f'data-feedback="{qid}"')[1]
    return page_text(section.split("</div>")[0] if qid.endswith("reflect") else section.split("data-instruments")[0])


# ---- Act I: the key and the spec's golden vectors ------------------------------------------


@pytest.mark.parametrize("context", CONTEXTS)
def test_act1_key_is_c_in_every_context(context):
    """handbook/labs/v2_10.md §4: 10.737 GB per conversation at 32K on 434.88 GB -> 40, inside C (25 to 100)."""
    p = lab.ACT1_PREDICTION
    assert p.value_in(context) == 40
    assert [o.letter for o in p.options if o.holds(40)] == ["C"] == [p.answer(context)]
    html = rendered(LAB, locked("a1_predict", context))
    assert 'data-feedback="a1_predict" data-verdict="correct"' in html
    assert re.search(r'data-metric="a1_users" data-value="40.0"', html)


def test_act1_ranges_hold_the_beliefs_their_feedback_names():
    """A: the multi-head count (handbook/labs/v2_10.md §4: 85.9 GB per user -> 5); D: the paged 4K reveal (324)."""
    p = lab.ACT1_PREDICTION
    assert p.option("A").holds(model.users(model.SEVENTY, S.window, heads=model.SEVENTY.query_heads)) is True
    assert p.option("D").holds(model.users(model.SEVENTY, S.used_chat)) is True
    assert [o.guess for o in p.options] == sorted(o.guess for o in p.options)


def test_act1_instrument_reproduces_the_spec_reveal_at_4k():
    """handbook/labs/v2_10.md §4: 4,096 tokens -> 1.342 GB per user -> 324 users (paged, a chat that holds 4K)."""
    m = lab.memory(all_open(a1_alloc="paged", a1_used=4096))
    assert m.users == 324 and m.per_user == pytest.approx(1.342e9, abs=0.0005e9) and m.waste == 0


def test_a_document_conversation_fills_the_window_so_paging_buys_nothing():
    paged = lab.memory(all_open("docs", a1_alloc="paged", a1_used=256))
    assert paged.held == S.window and paged.users == 40 and paged.waste == 0
    assert "a1_used" in lab.act1_overridden(all_open("docs", a1_alloc="paged"))
    assert "even paged the server holds 40" in feedback("a1_predict", "D", "docs")
    assert "4,096-token chats would give 324" in feedback("a1_predict", "D", "chat")


def test_act1_contiguous_ignores_the_tokens_held_and_counts_the_waste():
    short, long = lab.memory(all_open(a1_used=256)), lab.memory(all_open(a1_used=8192))
    assert short.users == long.users == 40
    assert short.waste == pytest.approx(1 - 256 / 32768) and long.waste == pytest.approx(0.75)
    assert "a1_used" in lab.act1_overridden(all_open())


def test_the_tokens_held_never_exceed_the_window():
    """The slider reached 131,072 tokens beside a 32,768-token window. It now stops at the
    shortest window, and a link asking for more is clamped."""
    assert lab.A1_USED.max <= lab.A1_WINDOW.min
    assert all_open(a1_used=131072)["a1_used"] == lab.A1_WINDOW.min
    for window, used in itertools.product((lab.A1_WINDOW.min, lab.A1_WINDOW.max), (lab.A1_USED.min, lab.A1_USED.max)):
        m = lab.memory(all_open(a1_window=window, a1_used=used, a1_alloc="paged"))
        assert m.used <= m.window


def test_the_model_is_one_whose_window_holds_the_story():
    """Meta-Llama-3-70B's config.json has max_position_embeddings 8,192, too short for a 32K window;
    Llama-3.1-70B's has 131,072 with the same 80 layers, 64 heads, 8 KV heads and 70,553,706,496
    parameters (huggingface.co/meta-llama/Llama-3.1-70B, config.json; Dubey et al. 2024)."""
    assert C.LLAMA3_SEQ < S.window <= C.LLAMA31_CONTEXT_TOKENS == lab.A1_WINDOW.max
    assert all(m.label.startswith("Llama-3.1-") for m in model.MODELS.values())
    assert "Llama-3-70B" not in page_text(rendered(LAB, all_open()))


def test_act1_multi_head_figure_is_the_option_a_trap():
    """handbook/labs/v2_10.md §4: with 64 KV heads, 85.9 GB per user -> 5 users."""
    m = lab.memory(all_open())
    assert m.users_without_gqa() == 5 and m.per_user * 8 == pytest.approx(85.9e9, abs=0.05e9)


def test_act1_fp8_kv_and_the_8b_model():
    assert lab.memory(all_open(a1_dtype="fp8")).users == 81
    small = lab.memory(all_open(a1_model="8b"))
    assert small.per_user == 131_072 * 32768 and small.users == 130


# ---- Act I reflection: why the 8B holds only ~3x as many ---------------------------------------


def test_act1_reflection_key_d_is_the_physics():
    """KV per token = 2·L·n_kv·d_h·b: both models keep 8 KV heads of 128 dimensions (config.json),
    so the 8B's cache per token is 80/32 = 2.5x smaller, not 8.8x; the budget grows 1.29x."""
    seventy, eight = model.SEVENTY, model.EIGHT
    assert seventy.kv_heads == eight.kv_heads
    assert model.kv_token(seventy) / model.kv_token(eight) == seventy.layers / eight.layers == 2.5
    assert seventy.params / eight.params == pytest.approx(8.79, abs=0.005)
    assert model.budget(eight) / model.budget(seventy) == pytest.approx(1.288, abs=0.001)
    assert model.users(eight, S.window) / model.act1_truth() == pytest.approx(3.25)
    # option A's premise is false: the 70B's weights are under a quarter of the usable HBM
    assert model.weights(seventy) / model.usable() < 0.25
    assert LAB.question("a1_reflect").answer() == "D"


@pytest.mark.parametrize("letter,needles", [
    ("A", ["141 GB", "576 GB", "16.1 GB", "1.29×", "435 GB", "560 GB"]),
    ("B", ["560 GB", "52", "131,072 bytes", "327,680 bytes", "2.5×", "130"]),
    ("C", ["hidden size is half", "4,096 against 8,192", "131,072 bytes"]), ("D", ["80 layers against 32", "2.5×", "40 becomes 130"]),
])
def test_act1_reflection_feedback_quotes_the_physics(letter, needles):
    text = feedback("a1_reflect", letter)
    assert all(n in text for n in needles), text


# ---- Act II: the decision in each context --------------------------------------------------


def test_act2_key_is_a_with_chat_prompts_and_d_with_document_prompts():
    """Chat (1,024-token prompts): only plan A keeps both promises. Document Q&A (4,096): none does."""
    assert [k for k, v in model.plans("chat").items() if v.meets()] == ["A"]
    assert [k for k, v in model.plans("docs").items() if v.meets()] == []
    assert {c: LAB.question("a2_predict").answer(c) for c in CONTEXTS} == {"chat": "A", "docs": "D"}


def test_document_context_no_longer_says_correct_above_a_broken_slo():
    """In Document Q&A the key said "Correct … 153 ms at P99" above "Chat
    SLO broken: 1.73 s". Locked there, the key is D and its feedback quotes 1.73 s, not 153 ms."""
    html = rendered(LAB, locked("a2_predict", "docs"))
    assert 'data-feedback="a2_predict" data-verdict="correct"' in html
    text = feedback("a2_predict", "D", "docs")
    assert "1.73 s" in text and "153 ms" not in text and "152 ms" in text
    assert "1.73 s" in feedback("a2_predict", "A", "docs")


def test_the_document_promise_is_out_of_reach_whatever_the_queue_model():
    """Even with every 4,096-token prefill exactly 151.6 ms (M/D/1, Erlang 1909 as in Franx 2001:
    P(W <= t) = (1 - rho)·e^(lambda·t) for t < D), 52 % of requests wait past 200 ms; chat stays clear."""
    docs, chat = model.plans("docs")["A"], model.plans("chat")["A"]
    slack = S.ttft_slo_s - docs.prefill
    assert slack < docs.prefill
    closed = 1 - (1 - docs.rho) * math.exp(S.arrival * slack)
    assert docs.missed_if_regular() == pytest.approx(closed) == pytest.approx(0.5224, abs=0.0005)
    assert chat.missed_if_regular() < 1e-3


def test_bulk_output_counts_every_prefill():
    """handbook/errata.md#e24: "8,302 tokens/s" (14,487 at 128) left out each sequence's 36.9 ms
    prefill. Prefills and decode steps taking turns (Agrawal et al. 2024, vLLM's generation stalls):
    64·256 / (64·t_pf + 256·t_step) = 3,782 tokens/s; the bound 256/t_pf is 6,946 (8,303 and 6,946 with the
    checkpoint's 70,553,706,496 parameters, where the spec's 70.56e9 gave 8,302 and 6,945)."""
    a = model.plans("chat")["A"]
    assert a.decode_only(64) == pytest.approx(8303, abs=0.5)  # handbook/labs/v2_10.md §4: the spec's B / t_step
    assert a.decode_only(128) == pytest.approx(14487, abs=1)  # 14,487.6 with the checkpoint's count
    assert a.tokens_per_s == pytest.approx(3782, abs=0.5)
    assert S.output / a.prefill == pytest.approx(6946, abs=0.5)
    assert all(v.tokens_per_s < S.output / v.prefill for c in CONTEXTS for v in model.plans(c).values())
    assert "3,782 tokens/s" in page_text(rendered(LAB, all_open(a2_lat_mode="continuous", a2_lat_batch=32)))


def test_the_static_figure_is_not_called_a_p99():
    """The static batcher's full-batch wait was labelled "Chat P99 time to first token"."""
    card = re.compile(r'data-metric="a2_ttft".*?</div>', re.S)
    static = page_text(card.search(rendered(LAB, all_open())).group(0))
    assert "P99 of" not in static and "behind a full batch" in static
    cont = page_text(card.search(rendered(LAB, all_open(a2_lat_mode="continuous", a2_lat_batch=32))).group(0))
    assert "P99: prefill queue and wait for a slot" in cont
    assert "P99" not in LAB.metric("a2_ttft").label


def test_act2_spec_golden_vectors():
    """handbook/labs/v2_10.md §4: t_pf 36.86 / 74.42 / 151.61 ms; continuous P99 86.8 / 116.4 / 153.2 ms at 1, 2, 4 per
    s;
    t_step at s̄ = 1,152 6.653 ms (B = 4) and 7.709 ms (B = 64); static TTFT at B = 64 4.333 s. The spec
    counted 70.56e9 parameters; the checkpoint has 70,553,706,496 (Hugging Face safetensors total, and
    config.json's shapes), which gives 74.41 / 151.60 ms, 6.652 / 7.708 ms and 4.332 s."""
    pf = {n: model.Serving("continuous", 32, 4, 64, n).prefill for n in (1024, 2048, 4096)}
    assert [round(pf[n] * 1e3, 2) for n in (1024, 2048, 4096)] == [36.86, 74.41, 151.60]
    assert [model.Serving("continuous", 32, r, 64).ttft * 1e3 for r in (1, 2, 4)] == pytest.approx([86.8, 116.4, 153.2],
                                                                                       abs=0.06)
    v = model.Serving("static", 64, 4, 64)
    assert (round(v.step(4) * 1e3, 3), round(v.step(64) * 1e3, 3)) == (6.652, 7.708)
    assert v.ttft == pytest.approx(4.332, abs=0.0005)


def test_act2_capacity_separates_the_plans():
    a, b, c = (model.plans("chat")[k] for k in "ABC")
    assert c.capacity < S.arrival and c.ttft == math.inf
    assert a.capacity > S.arrival and b.capacity > S.arrival and b.ttft > 10 * S.ttft_slo_s


def test_plan_a_rarely_waits_for_a_slot():
    """With 32 slots each held for about t_pf + out·t_step, the slots are rarely all busy: Erlang C
    (M/M/c, Kleinrock 1975) < 10⁻⁴ by either holding time, so the P99 is the prefill queue's."""
    a = model.plans("chat")["A"]
    residence = a.prefill + S.output * a.step(a.lat_batch) / (1 - a.rho)
    assert queueing.erlang_c(int(a.lat_batch), S.arrival * residence) < 1e-4 and a.slots_full < 1e-4
    assert a.ttft == pytest.approx(a.queue_p99, abs=0.01e-3)


@pytest.mark.parametrize("controls,simulated_s", [
    ({"a2_lat_batch": 16}, 0.334), ({"a2_lat_batch": 4, "a2_arrival": 2}, 21.6),
    ({"a2_lat_batch": 16, "a2_arrival": 6}, 3.59), ({"a2_lat_batch": 1, "a2_arrival": 0.5, "a2_prompt": 256}, 28.7),
])
def test_a_continuous_batcher_short_of_slots_breaks_the_promise(controls, simulated_s):
    """Review: the card showed the prefill queue's P99 alone (green: 153 ms with 16 slots at 4 requests/s,
    116 ms with 4 at 2, 183 ms with 16 at 6, 9.15 ms with one slot at 0.5 requests/s and 256-token
    prompts), though every slot is held for a whole reply. A
    discrete-event simulation of the batcher (prefills first, Poisson arrivals; the reviewer's) gives
    the P99s in the parameters; the model, with an M/M/c wait for a slot, is above each and over 200 ms."""
    state = all_open(a2_lat_mode="continuous", **controls)
    v = lab.serving(state)
    assert simulated_s < v.ttft and v.slot_bound
    assert v.queue_p99 < S.ttft_slo_s          # the prefill queue alone would have passed
    assert "a2_ttft_slo" in LAB.failures_now(state)
    assert 'pl-metric--danger" data-metric="a2_ttft"' in rendered(LAB, state)
    text = page_text(rendered(LAB, state))
    assert ("the one slot, held" if v.lat_batch == 1 else f"the {int(v.lat_batch)} slots, each held") in text
    assert "1 slots" not in text


@pytest.mark.parametrize("context,letter,needles", [
    ("chat", "A", ["36.9 ms", "14.7 %", "153 ms", "10.6 requests/s", "rarely waits", "3,782 tokens/s"]),
    ("chat", "B", ["1.76 s", "590 ms", "2.35 s", "4,695 tokens/s"]),
    ("chat", "C", ["2.16 requests/s", "5,339 tokens/s"]),
    ("chat", "D", ["Plan A keeps it", "153 ms"]),
    ("docs", "A", ["152 ms", "60.6 %", "7.06 s", "39.2 %", "7.35 s", "1.73 s", "1,317 tokens/s"]),
    ("docs", "B", ["3.66 requests/s", "1,412 tokens/s"]),
    ("docs", "C", ["1.7 requests/s", "1,465 tokens/s"]),
    ("docs", "D", ["152 ms", "1.73 s", "52.2 %"]),
])
def test_act2_feedback_quotes_the_physics_of_its_context(context, letter, needles):
    text = feedback("a2_predict", letter, context)
    assert all(n in text for n in needles), text
    verdict = "correct" if letter == LAB.question("a2_predict").answer(context) else "incorrect"
    assert f'data-verdict="{verdict}"' in rendered(LAB, locked("a2_predict", context, {"a2_predict": letter}))


# ---- Act II reflection: why four times the batch gives far less than four times the output -------


@pytest.mark.parametrize("context", CONTEXTS)
def test_act2_reflection_key_b_is_the_physics(context):
    v = model.plans(context)["A"]
    few, most = S.bulk_plan, S.bulk_most
    gain = v.completes(most) / v.completes(few)
    assert gain < 1.5
    assert v.bound(most) == "bandwidth-bound" and v.step(most) / v.step(few) < 0.6 * most / few  # not A, not D
    assert most * model.kv_token(model.SEVENTY) * (v.prompt + S.output) < model.budget(model.SEVENTY)  # not C
    assert v.prefill_share(most) > 0.75 and v.prefill_share(most) > v.prefill_share(few)  # B
    assert LAB.question("a2_reflect").answer(context) == "B"


@pytest.mark.parametrize("letter,needles", [
    ("A", ["11.1 ms", "7.71 ms", "9.13 ms"]), ("B", ["76.9 %", "54.4 %", "3,782 tokens/s", "5,339 tokens/s"]),
    ("C", ["1,280 tokens", "107 GB", "435 GB"]), ("D", ["7.71 ms", "11.1 ms"]),
])
def test_act2_reflection_feedback_quotes_the_physics(letter, needles):
    text = feedback("a2_reflect", letter)
    assert all(n in text for n in needles), text


# ---- failure states: reached and left through the instruments ----------------------------


def test_document_prompts_break_the_promise_until_the_prompts_shrink():
    assert "a2_ttft_slo" in LAB.failures_now(all_open("docs", a2_lat_mode="continuous", a2_lat_batch=32))
    assert "a2_ttft_slo" not in LAB.failures_now(all_open("docs", a2_lat_mode="continuous", a2_lat_batch=32,
                                                          a2_prompt=1024))


@pytest.mark.parametrize("context,controls,lever", [
    ("chat", {}, "continuous batching, with enough slots, admits"),
    ("chat", {"a2_lat_mode": "static", "a2_lat_batch": 4}, "continuous batching, with enough slots, admits"),
    ("chat", {"a2_lat_mode": "continuous", "a2_lat_batch": 4}, "More slots complete more requests per second"),
    ("chat", {"a2_lat_mode": "continuous", "a2_lat_batch": 128, "a2_prompt": 4096}, "No batching keeps it here"),
    ("chat", {"a2_lat_mode": "continuous", "a2_lat_batch": 16}, "let more replies run at once"),
    ("chat", {"a2_lat_mode": "continuous", "a2_lat_batch": 256, "a2_arrival": 16, "a2_prompt": 4096},
     "no batch completes more than 6.6 requests/s"),
    ("docs", {"a2_lat_mode": "continuous", "a2_lat_batch": 4}, "No batching keeps it here"),
    ("docs", {"a2_lat_mode": "static", "a2_lat_batch": 64}, "No batching keeps it here"),
])
def test_the_failure_names_the_lever_that_works_there(context, controls, lever):
    """Second review (a lever that cannot work): 'A larger batch completes more
    requests per second' was offered with the batch at its maximum of 256 and arrivals past what the
    prefills allow (16 requests/s against 1/t_pf = 6.6 at 4,096 tokens), to a static batcher (whose
    TTFT is at least a whole reply, 1.7 s, whatever its size) and where the prefill queue alone
    breaks the promise (document prompts: 1.73 s); 'Continuous batching admits …' was offered
    there too."""
    text = page_text(re.search(r'data-failure="a2_ttft_slo".*?</div>', rendered(LAB, all_open(context, **controls)),
                               re.S).group(0))
    assert lever in text and "A larger batch" not in text
    if lever == "No batching keeps it here":
        assert "continuous batching" not in text.lower().split("over the promise", 1)[1]


def test_no_room_offers_no_shorter_window_when_the_weights_alone_do_not_fit():
    """Second review: the only state that reaches a1_no_room is the 70B's 141 GB
    of weights on one GPU's 72 GB usable; no window makes room, yet the failure said 'shorten the
    window'."""
    text = page_text(re.search(r'data-failure="a1_no_room".*?</div>', rendered(LAB, all_open(a1_gpus="1")),
                               re.S).group(0))
    assert "The weights alone do not fit: add GPUs or pick the smaller model." in text
    assert "shorten the window" not in text


def test_a_batch_that_does_not_fit_is_not_shown_as_an_ordinary_number():
    """A bulk batch whose KV cache exceeds the budget showed its output like any other."""
    html = rendered(LAB, all_open(a2_lat_mode="continuous", a2_lat_batch=32, a2_tput_batch=256, a2_prompt=8192))
    card = page_text(re.search(r'data-metric="a2_tput".*?</div>', html, re.S).group(0))
    assert "does not fit in HBM" in card and 'pl-metric--danger" data-metric="a2_tput"' in html
    fitting = rendered(LAB, all_open(a2_lat_mode="continuous", a2_lat_batch=32, a2_tput_batch=64, a2_prompt=8192))
    assert "does not fit" not in page_text(re.search(r'data-metric="a2_tput".*?</div>', fitting, re.S).group(0))


def test_review_wording_and_units():
    """Review: "1 GPU offer 72 GB" (the only state that reaches a1_no_room); a paged 256-token chat's
    reserve as "0.0839 GB" and a one-sequence batch's KV as "0.168 GB" (83.9 MB, 168 MB); the document
    story's "fills it, but … reserves the whole window" (no contrast there); the bulk tier's prompt
    length, which the model takes from the chat's, unstated."""
    text = page_text(rendered(LAB, all_open(a1_gpus="1")))
    assert "1 GPU offers 72 GB usable" in text
    small = page_text(rendered(LAB, all_open(a1_alloc="paged", a1_used=256, a2_lat_batch=1, a2_tput_batch=1,
                                             a2_prompt=256)))
    assert "KV reserved per conversation 83.9 MB" in small and "KV cache of the larger batch 168 MB" in small
    assert "0.0839 GB" not in small and "0.168 GB" not in small
    assert "fills it, and our serving stack" in page_text(rendered(LAB, all_open("docs")))
    assert "A chat holds about 4,096 tokens, but our serving stack" in page_text(rendered(LAB, all_open()))
    assert "The bulk summariser, with prompts and replies as long" in page_text(rendered(LAB, all_open()))


def test_the_usable_share_is_not_called_room_for_activations():
    """Second review (S3, a source read too strongly): vLLM sizes the KV cache as
    total_gpu_memory x gpu_memory_utilization - peak_memory, the peak being the weights, the profiled
    activation peak and non-torch memory (vllm/worker/worker.py, determine_num_available_blocks). The
    activations come out of the share f, not out of the 10 % left over, so the page must not call
    that 10 % a reserve for activations, and it says the count leaves the activation peak out."""
    for context in CONTEXTS:
        text = page_text(rendered(LAB, all_open(context)))
        assert "room for activations" not in text and "reserve for activations" not in text
        assert "vLLM also takes the activation peak out of this share; the count leaves it out" in text
    assert "reserve for activations" not in feedback("a1_reflect", "C")
    assert "activations" not in C.REGISTRY["VLLM_GPU_MEMORY_UTILIZATION"].note.split("peak_memory")[0]


@pytest.mark.parametrize("controls,fix", [
    ({"a2_tput_batch": 4}, "a larger batch makes more tokens per step"),
    ({"a2_tput_batch": 256, "a2_prompt": 8192}, "no batch passes"),
])
def test_throughput_shortfall_is_a_warning_with_its_own_fix(controls, fix):
    html = str(render_lab(LAB, all_open(a2_lat_mode="continuous", a2_lat_batch=32, **controls)))
    assert "Bulk tier below target" in html and fix in page_text(html)
    assert "a2_ttft_slo" not in LAB.failures_now(all_open(a2_lat_mode="continuous", a2_lat_batch=32, **controls)) \
        or controls.get("a2_prompt") == 8192


# ---- context, presets and the ledger ---------------------------------------------------------


def test_context_preset_moves_the_prompt_and_what_a_conversation_holds():
    state = LAB.parse({"controls": {"context": "docs"}}, changed="context")
    assert state["a2_prompt"] == S.prompt_docs and lab.memory(state).held == state["a1_window"]
    assert lab.serving(state).prefill > 4 * lab.serving(LAB.parse({}, changed="context")).prefill


def test_record_holds_every_spec_ledger_field():
    """handbook/labs/v2_10.md §1 ledger: model, context_len, kv_per_user_GB, max_users, lat_mode, lat_batch,
    ttft_p99_ms,
    tput_batch, tokens_per_s, kv_oom, act1_prediction, act1_correct, act2_decision, constraint_hit."""
    rec = record(LAB, all_open(a2_lat_mode="continuous", a2_lat_batch=32))
    results, controls, answers = rec["results"], rec["controls"], rec["answers"]
    assert controls["a1_model"] == "70b" and controls["a1_window"] == 32768
    assert controls["a2_lat_mode"] == "continuous"
    assert results["context_len"] == 32768 and results["max_users"] == 40
    assert results["kv_per_user_gb"] == pytest.approx(10.737, abs=0.0005)
    assert results["lat_batch"] == 32 and results["tput_batch"] == 64
    assert results["ttft_p99_ms"] == pytest.approx(153.2, abs=0.05)
    assert results["tokens_per_s"] == pytest.approx(3782, abs=0.5)
    assert results["kv_oom"] == 0 and results["constraint_hit"] == 0
    assert answers["a1_predict"] == {"choice": "C", "locked_at": LOCKED_AT, "correct": True}
    assert answers["a2_predict"]["choice"] == "A"


def test_record_keeps_an_unbounded_ttft_as_null():
    rec = record(LAB, all_open(a2_lat_mode="continuous", a2_lat_batch=1))
    assert rec["results"]["ttft_p99_ms"] is None and rec["results"]["constraint_hit"] == 1
    assert "a2_ttft_slo" in rec["failures_active"]
