"""V1-11 The Roofline: every answer key proven by the physics in every context (computed here
independently of the lab's model), the spec's golden vectors on the instruments (handbook/labs/v1_11.md §4), the fixes
of questions that test and numbers a teacher would sign, the OOM failure reached and left in every context, and the
ledger record."""

from __future__ import annotations

import math

import pytest

from pylabs.framework.formats import fmt
from pylabs.framework.render import record
from pylabs.labs.vol1 import v1_11 as lab
from pylabs.labs.vol1 import v1_11_model as model
from pylabs.physics import constants as C
from tests.labs.helpers import LOCKED_AT, card, feedback, metric, rendered
from tests.labs.reading import page_text

LAB = lab.LAB
CONTEXTS = ("cloud", "edge", "mobile")
# what each context's device is, from the registry (the lab reads the same entries)
# The phone: Apple's 35 trillion operations per second, read as INT8 (coremltools: the A17 Pro gained
# int8-int8 throughput on the Neural Engine); its FP16 peak is assumed at half of it.
PEAK_16 = {"cloud": C.H100_PEAK_BF16_DENSE, "edge": C.ORIN_NX_PEAK_FP16_DENSE, "mobile": C.A17_PRO_NPU_OPS / 2}
BW = {"cloud": C.H100_HBM_BW, "edge": C.ORIN_NX_MEM_BW, "mobile": C.A17_PRO_MEM_BW}
MEMORY = {"cloud": C.H100_HBM_BYTES, "edge": C.ORIN_NX_MEM_BYTES, "mobile": C.A17_PRO_MEM_BYTES}
KV_PER_TOKEN = 2 * 32 * 8 * 128 * 2  # K and V × 32 layers × 8 KV heads × 128 dims × 2 bytes (config.json)
INT4_G128 = 0.5 + 2 / 128            # bytes per weight: 4 bits and an FP16 scale per 128 weights


def state(context="cloud", through="a2_reflect", choices=None, **controls):
    """``context`` chosen (its presets applied), every question up to ``through`` locked with the key
    of that context unless ``choices`` says otherwise, then ``controls`` moved."""
    answers = {}
    for q in LAB.questions:
        answers[q.id] = {"choice": (choices or {}).get(q.id, q.answer(context)), "locked_at": LOCKED_AT}
        if q.id == through:
            break
    chosen = LAB.parse({"controls": {"context": context}}, "context")
    return LAB.parse({"answers": answers, "controls": {**chosen.controls, **controls}})


# ---- Act I prediction: tokens per call to reach the peak, in each context -------------------


def tokens_to_peak(context: str, n: float = 4096, b: float = 2) -> int:
    """The fewest whole tokens M at which 2MN²/(b(2MN + N²)) reaches peak ÷ bandwidth (a search)."""
    ridge = PEAK_16[context] / BW[context]
    return next(m for m in range(1, 100_000) if 2 * m * n * n / (b * (2 * m * n + n * n)) >= ridge)


@pytest.mark.parametrize("context, tokens, key", [("cloud", 346, "D"), ("edge", 159, "C"), ("mobile", 411, "D")])
def test_act1_key_is_the_tokens_per_call_that_reach_the_ridge(context, tokens, key):
    """H100 BF16: ridge 989.4 ÷ 3.35 = 295.3 op/B, reached at M = 346; Orin FP16: 146.9 → 159; A17 Pro
    (FP16 assumed at half of Apple's 35 TOP/s, 51.2 GB/s assumed): 341.8 → 411. The key letter follows
    the context."""
    assert tokens_to_peak(context) == tokens
    assert model.act1_truth(context) == tokens
    assert lab.ACT1_PREDICTION.answer(context) == key
    assert [o.letter for o in lab.ACT1_PREDICTION.options if o.holds(tokens)] == [key]


def test_act1_default_key_is_d_and_the_phone_keeps_d_whichever_precision_apple_counts():
    """The module docstring's claim: read as FP16, Apple's whole 35 TOPS would put the ridge at 684 and
    1,027 tokens would reach it; at the assumed half, 342 and 411. Both are D."""
    assert lab.ACT1_PREDICTION.answer() == "D"
    for rate, ridge, tokens in ((C.A17_PRO_NPU_OPS, 684, 1027), (C.A17_PRO_NPU_OPS / 2, 342, 411)):
        r = rate / C.A17_PRO_MEM_BW
        rows = math.ceil(model.K.gemm_rows_to_ridge(4096, 4096, 2, r))
        assert round(r) == ridge and rows == tokens and lab.ACT1_PREDICTION.option("D").holds(rows)


def test_the_phone_s_16_bit_peak_is_half_of_apple_s_figure_and_says_so():
    """Review of V1-11: the page printed Apple's Neural Engine figure as "35 TFLOP/s (Apple's figure,
    assumed 16-bit)". Apple states "35 trillion operations per second" with no precision, and
    coremltools (Quantization: Performance) says the A17 Pro has "increased throughput possible for
    int8-int8 compute on Neural Engine": Apple's headline is the INT8 rate, and 16-bit is at most that.
    The lab assumes half (17.5 TFLOP/s), says so beside every use, and never calls Apple's figure FLOP/s."""
    assert model.PEAKS["mobile"]["bf16"] == C.A17_PRO_NPU_OPS / 2 == 17.5e12
    text = page_text(rendered(LAB, state("mobile")))
    assert "35 TFLOP/s" not in text and "Apple's figure, assumed 16-bit" not in text
    assert text.count("17.5 TFLOP/s (assumed: half of Apple's 35 TOP/s, read as INT8)") >= 4
    assert model.scenario_decode("mobile").peak_ops == C.A17_PRO_NPU_OPS / 2  # Act II's compute roof too


@pytest.mark.parametrize("context", CONTEXTS)
def test_the_card_shows_the_act1_answer_and_the_feedback_quotes_the_cards(context):
    """In Edge the feedback said "2.7 %" above a card reading 5.43 %. Every number the
    feedback quotes is now the context's, and equals its card."""
    for letter in "ABCD":
        html = rendered(LAB, state(context, through="a1_predict", choices={"a1_predict": letter}))
        assert metric(html, "a1_m_star") == model.act1_truth(context)
        said = feedback(html, "a1_predict")
        assert card(html, "a1_ridge") in said and fmt(model.act1_truth(context), "int") in said
        if letter == "A":
            assert card(html, "a1_ai") in said
        if letter in "CD":
            assert card(html, "a1_m_star") in said
        verdict = "correct" if letter == lab.ACT1_PREDICTION.answer(context) else "incorrect"
        assert f'data-feedback="a1_predict" data-verdict="{verdict}"' in html


def test_edge_feedback_no_longer_quotes_the_h100():
    html = rendered(LAB, state("edge", through="a1_reflect", choices={"a1_predict": "A", "a1_reflect": "B"}))
    said = feedback(html, "a1_predict") + feedback(html, "a1_reflect")
    assert card(html, "a1_mfu") == "5.43 %" and "2.7 %" not in said and "295" not in said and "H100" not in said


def test_no_tokens_reach_the_peak_when_the_matrix_is_too_narrow():
    """256 wide in BF16 on the H100: the intensity tops out at 128 op/B, under the ridge of 295."""
    html = rendered(LAB, state(a1_hidden=256))
    assert math.isinf(metric(html, "a1_m_star")) and "tops out at 128 FLOP/B" in html


# ---- Act I reflection: which kernels a chip with twice the peak speeds up ----------------------


@pytest.mark.parametrize("context", CONTEXTS)
def test_act1_reflection_only_the_square_gemm_gains_from_twice_the_peak(context):
    n, peak, bw = 4096, PEAK_16[context], BW[context]

    def gain(flop, traffic):
        return max(traffic / bw, flop / peak) / max(traffic / bw, flop / (2 * peak))
    kernels = {"gemm": (2 * 8 * n * n, 2 * (2 * 8 * n + n * n)), "gemv": (2 * n * n, 2 * (2 * n + n * n)),
               "square": (2 * n ** 3, 2 * 3 * n * n), "chain": (4 * 2 * n * 8, 2 * n * 8 * 2 * 4)}
    gains = {name: gain(*k) for name, k in kernels.items()}
    assert gains["square"] > 1.99 and all(gains[k] == 1 for k in ("gemm", "gemv", "chain"))
    assert lab.ACT1_REFLECTION.answer(context) == "A"
    facts = lab.act1_facts(context)
    assert facts["square_gain"] == "2×" and facts["square_ai"] == "1,365"


@pytest.mark.parametrize("context", CONTEXTS)
def test_act1_reflection_wrong_options_say_how_much_their_kernels_gain(context):
    """Review of V1-11 (item 4): each wrong option's feedback says by how much it missed, in the
    question's terms (how much faster a kernel runs): the memory-bound kernels gain 1×."""
    for letter in "BCD":
        html = rendered(LAB, state(context, through="a1_reflect", choices={"a1_reflect": letter}))
        said = feedback(html, "a1_reflect").split("The answer is")[0]
        assert "1×" in said
    said = feedback(rendered(LAB, state(context, through="a1_reflect", choices={"a1_reflect": "D"})), "a1_reflect")
    assert "gains, 2×" in said


# ---- Act II prediction: each sequence's share of its solo speed --------------------------------


def share_alone(context: str) -> float:
    weights = {"cloud": 2, "edge": INT4_G128, "mobile": INT4_G128}[context] * C.LLAMA3_8B_PARAMS_COUNTED
    batch, cache = {"cloud": 64, "edge": 16, "mobile": 4}[context], 4096 * KV_PER_TOKEN
    return (weights + cache) / (weights + batch * cache)  # memory-bound steps: t(1) / t(B)


@pytest.mark.parametrize("context, share, key", [("cloud", 0.3292, "B"), ("edge", 0.3674, "B"),
                                                 ("mobile", 0.7439, "C")])
def test_act2_key_is_each_sequences_share_of_its_solo_speed(context, share, key):
    """H100 BF16 at batch 64, 4,096 tokens: (16.06 + 0.537) / (16.06 + 34.36) GB = 32.9 %; Orin INT4 at 16:
    36.7 %; A17 Pro INT4 at 4: 74.4 %. Every step stays memory-bound at these batches."""
    assert share_alone(context) == pytest.approx(share, abs=5e-5)
    assert model.act2_truth(context) == pytest.approx(share_alone(context), rel=1e-9)
    assert lab.ACT2_PREDICTION.answer(context) == key
    d = model.scenario_decode(context)
    assert not d.oom and d.memory < MEMORY[context]
    assert 2 * C.LLAMA3_8B_PARAMS_COUNTED * d.batch / PEAK_16[context] < d.step_s  # the bytes set the step


@pytest.mark.parametrize("context", CONTEXTS)
def test_the_card_shows_the_act2_answer_and_the_feedback_quotes_the_context(context):
    for letter in "ABCD":
        html = rendered(LAB, state(context, through="a2_predict", choices={"a2_predict": letter}))
        assert metric(html, "a2_per_seq") == pytest.approx(model.act2_truth(context), rel=1e-12)
        said = feedback(html, "a2_predict")
        assert card(html, "a2_per_seq") in said
        d = model.scenario_decode(context)
        if letter in "ABC":
            assert fmt(d.step_s / d.at(1).step_s, "x") in said
        verdict = "correct" if letter == lab.ACT2_PREDICTION.answer(context) else "incorrect"
        assert f'data-feedback="a2_predict" data-verdict="{verdict}"' in html


def test_edge_act2_feedback_quotes_edge_numbers_not_the_h100s():
    """Edge's Act II feedback said "42×" above a card reading 21.5×."""
    html = rendered(LAB, state("edge", choices={"a2_predict": "D", "a2_reflect": "A"}))
    assert card(html, "a2_speedup") == "5.88×"
    prompt = page_text(html.split('data-question="a2_reflect"')[1].split("</legend>")[0])
    assert "5.88×" in prompt and "Jetson Orin NX" in prompt and "42×" not in html


def share_changed(context: str, weights: float = 1.0, cache: float = 1.0) -> float:
    """(W + Lκ) / (W + BLκ) with the bytes per weight or per cached token scaled (memory-bound steps)."""
    w = {"cloud": 2, "edge": INT4_G128, "mobile": INT4_G128}[context] * C.LLAMA3_8B_PARAMS_COUNTED * weights
    batch, kv = {"cloud": 64, "edge": 16, "mobile": 4}[context], 4096 * KV_PER_TOKEN * cache
    return (w + kv) / (w + batch * kv)


@pytest.mark.parametrize("context, half_cache, half_weights", [("cloud", 0.4912, 0.2021), ("edge", 0.5227, 0.2446),
                                                               ("mobile", 0.8456, 0.6181)])
def test_act2_reflection_fewer_cache_bytes_per_token_raise_the_share_most(context, half_cache, half_weights):
    """Review of V1-11: the reflection asked 'what holds the batch back?' after the prediction's own
    options (caches vs shared weights) and feedback had named the caches: recall, not physics. It now asks
    which change raises each sequence's share of its solo speed most. Half the bytes per cached token
    (4 K/V heads, Ainslie et al. 2023) lifts it (H100: 32.9 → 49.1 %); half the bytes per weight lowers it
    (→ 20.2 %: the caches become more of each step); twice the peak leaves it (every step memory-bound);
    the elementwise chain is under 1 % of a step."""
    share = share_alone(context)
    assert share_changed(context, cache=0.5) == pytest.approx(half_cache, abs=5e-5) and half_cache > share
    assert share_changed(context, weights=0.5) == pytest.approx(half_weights, abs=5e-5) and half_weights < share
    d = model.scenario_decode(context)
    assert model.share_if(d, cache=0.5) == pytest.approx(share_changed(context, cache=0.5), rel=1e-9)
    assert model.share_if(d, weights=0.5) == pytest.approx(share_changed(context, weights=0.5), rel=1e-9)
    assert model.share_if(d, peak=2) == pytest.approx(share, rel=1e-9)
    assert model.chain_share(d) < 0.01
    assert lab.ACT2_REFLECTION.answer(context) == "C"
    facts = lab.act2_facts(context)
    assert facts["share_half_cache"] == fmt(half_cache, "pct") and facts["share_half_weights"] == fmt(half_weights, "pct")


def test_every_option_of_every_question_has_feedback_in_every_context():
    for context in CONTEXTS:
        facts = {**lab.act1_facts(context), **lab.act2_facts(context)}
        for q in LAB.questions:
            for o in q.options:
                assert o.feedback and "{" not in o.feedback.format_map(facts)


# ---- the story states no answer ---------------------------------------------


@pytest.mark.parametrize("context", CONTEXTS)
def test_the_story_quotes_no_profiler_rate(context):
    """The profiler's "26.7 TFLOP/s" was 100 % of the H100's HBM roof (3.35 TB/s × 7.97), which
    no measured kernel reaches; questions that test: ÷ the peak it was the Act I answer. The story now quotes no
    measured rate: before the lock neither the ceiling nor its share of the peak is on the page."""
    html = rendered(LAB, LAB.parse({"controls": {"context": context}}, "context"))
    kern = model.scenario_kernel(context)
    text = page_text(html)
    assert fmt(kern.rate, "FLOP/s") not in text and fmt(kern.mfu, "pct") not in text
    assert fmt(model.act1_truth(context), "int") not in text


@pytest.mark.parametrize("context", CONTEXTS)
def test_the_act2_story_gives_the_solo_speed_as_the_memory_cap_not_a_measurement(context):
    """Review of V1-11 (as the profiler's 26.7 TFLOP/s in Act I): the inference lead
    quoted '202 tokens/s per GPU', which is the memory roof itself (W + Lκ read at 3.35 TB/s)."""
    one = model.scenario_decode(context).at(1)
    text = page_text(rendered(LAB, state(context, through="a1_reflect")))
    assert f"which memory bandwidth caps at {fmt(one.tok_s, 'tokens/s')}" in text


def test_the_raw_flop_counts_read_in_scaled_units():
    """The kernel time's note printed "268,435,456 FLOP" (M = 8) and "274,877,906,944 FLOP"
    (M = 8,192)."""
    small, large = rendered(LAB, state()), rendered(LAB, state(a1_m=8192))
    assert "268 MFLOP over 33.7 MB" in small and "275 GFLOP over" in large
    assert "268,435,456" not in small and "274,877,906,944" not in large


# ---- Act I instruments: handbook/labs/v1_11.md §4 golden vectors ----------------------------------------------


def test_defaults_show_the_scenario_kernel():
    """M=8, K=N=4096, BF16, H100: AI 7.969; 26.696 TF; MFU 2.698 %."""
    html = rendered(LAB, state())
    assert metric(html, "a1_ai") == pytest.approx(7.969, abs=5e-4)
    assert metric(html, "a1_rate") == pytest.approx(26.696e12, rel=1e-4)
    assert metric(html, "a1_mfu") == pytest.approx(0.02698, abs=5e-6)
    assert metric(html, "a1_ridge") == pytest.approx(295.3, abs=0.05)
    assert "memory-bound" in html


@pytest.mark.parametrize("m, tflops, mfu", [(64, 207.9, 0.210), (512, 989.4, 1.0)])
def test_more_tokens_per_call(m, tflops, mfu):
    html = rendered(LAB, state(a1_m=m))
    assert metric(html, "a1_rate") / 1e12 == pytest.approx(tflops, abs=0.05)
    assert metric(html, "a1_mfu") == pytest.approx(mfu, abs=5e-4)


def test_the_same_kernel_on_orin():
    """M=8, BF16, Orin (15.04 TF, 102.4 GB/s): 0.816 TF; MFU 5.43 %."""
    html = rendered(LAB, state("edge"))
    assert metric(html, "a1_rate") == pytest.approx(0.816e12, rel=1e-3)
    assert metric(html, "a1_mfu") == pytest.approx(0.0543, abs=5e-5)
    assert metric(html, "a1_ridge") == pytest.approx(147, abs=0.5)


def test_square_512_bf16_and_fp32():
    """Square N=512: BF16 571.7 TF (57.8 %); FP32 AI 85.3 → 66.9 TF, compute-bound (ridge 20)."""
    bf16 = rendered(LAB, state(a1_square=True, a1_hidden=512))
    assert metric(bf16, "a1_rate") == pytest.approx(571.7e12, rel=1e-4)
    fp32 = rendered(LAB, state(a1_square=True, a1_hidden=512, a1_precision="fp32"))
    assert metric(fp32, "a1_ai") == pytest.approx(85.33, abs=0.01)
    assert metric(fp32, "a1_rate") == C.H100_PEAK_FP32
    assert metric(fp32, "a1_ridge") == pytest.approx(20.0, abs=0.05)
    assert "compute-bound" in fp32


def test_int8_ridge_uses_the_dense_peak_and_rates_read_in_top_s():
    """handbook/labs/v1_11.md §5: dense INT8 is 1,978.9 TOPS, ridge 591; INT8 counts integer operations (TOP/s)."""
    html = rendered(LAB, state(a1_precision="int8"))
    assert metric(html, "a1_ridge") == pytest.approx(590.7, abs=0.05)
    assert metric(html, "a1_ai") == pytest.approx(2 * 7.969, abs=1e-3)
    assert card(html, "a1_rate") == "53.4 TOP/s"
    assert "268 MOP over 16.8 MB" in html and "MFLOP" not in html  # review: INT8 counted as MFLOP
    assert "Peak, P 1,979 TOP/s" in page_text(html).replace("*", "")


def test_the_math_peek_names_a_float_peak_in_flop_s():
    """Edge's math peek printed "Peak, P 15 TOP/s" for the FP16 peak: a unit slip."""
    html = page_text(rendered(LAB, state("edge")))
    assert "Peak, P 15 TFLOP/s" in html.replace("*", "") and "15 TOP/s" not in html


def test_the_phone_runs_16_bit_and_says_why():
    s = state("mobile", a1_precision="fp32")
    assert lab.a1_precision(s) == "bf16" and "a1_precision" in lab.a1_overridden(s)
    html = rendered(LAB, s)
    assert metric(html, "a1_ridge") == pytest.approx(341.8, abs=0.05)
    assert "half of Apple's 35 TOP/s" in page_text(html) and "assumed: Apple does not publish it" in html
    assert "of 8 GB (reported, not published by Apple" in html


def test_the_roofline_hover_names_flop_for_floats_and_op_for_int8():
    """The kernels' hover text read TOP/s for floating-point kernels."""
    bf16 = " ".join(t.get("text", [""])[0] or "" for t in figure(rendered(LAB, state()), "a1_roofline")["data"]
                    if t.get("text"))
    int8 = " ".join(t.get("text", [""])[0] or "" for t in
                    figure(rendered(LAB, state(a1_precision="int8")), "a1_roofline")["data"] if t.get("text"))
    assert "GEMV: 1 FLOP/B, 3.35 TFLOP/s" in bf16 and "TOP/s" not in bf16
    assert "GEMV: 2 op/B, 6.7 TOP/s" in int8


def test_square_toggle_overrides_m_with_a_reason():
    s = state(a1_square=True, a1_m=8)
    assert lab.shape(s) == (4096.0, 4096.0, 4096.0)
    assert "Not used while the GEMM is square" in rendered(LAB, s)
    assert lab.a1_overridden(state()) == {}


def test_fusion_multiplies_the_chain_intensity_by_its_length():
    unfused, fused = rendered(LAB, state()), rendered(LAB, state(a1_fused=True))
    assert metric(fused, "a1_chain_ai") == pytest.approx(lab.S.chain_ops * metric(unfused, "a1_chain_ai"))
    assert metric(fused, "a1_chain_time") == pytest.approx(metric(unfused, "a1_chain_time") / lab.S.chain_ops)


def figure(html: str, name: str) -> dict:
    import json
    block = html.split(f'data-chart="{name}"')[1]
    spec = block.split('class="pl-chart__spec">')[1].split("</script>")[0]
    return json.loads(spec.replace("<\\/", "</"))


def test_roofline_chart_draws_the_three_devices_and_the_kernels():
    fig = figure(rendered(LAB, state()), "a1_roofline")
    assert fig["layout"]["xaxis"]["type"] == "log" and fig["layout"]["yaxis"]["type"] == "log"
    names = [t["name"] for t in fig["data"]]
    assert names[0] == "H100 · 16-bit" and "Orin NX · 16-bit" in names and "A17 Pro · 16-bit" in names
    yours = next(t for t in fig["data"] if t["name"] == "Your GEMM")
    assert yours["x"][0] == pytest.approx(7.969, abs=5e-4) and yours["y"][0] == pytest.approx(26.696e12, rel=1e-4)
    assert C.H100_PEAK_BF16_DENSE / C.H100_HBM_BW in fig["data"][0]["x"]  # drawn through the ridge point
    phone = [t["name"] for t in figure(rendered(LAB, state("mobile")), "a1_roofline")["data"]]
    assert phone[0] == "A17 Pro · 16-bit" and not any("FP32" in n for n in phone)


# ---- Act II instruments (handbook/labs/v1_11.md §4) and the OOM state --------------------------------


@pytest.mark.parametrize("batch, ms, tok_s", [(1, 4.834, 206.9), (8, 5.115, 1564), (64, 7.358, 8698)])
def test_decode_golden_rows_on_the_instruments(batch, ms, tok_s):
    """handbook/labs/v1_11.md §4: BF16 on the H100 at 1,024 tokens of context."""
    html = rendered(LAB, state(a2_batch=batch, a2_context=1024))
    assert metric(html, "a2_step_s") * 1e3 == pytest.approx(ms, abs=5e-4)
    assert metric(html, "a2_tok_s") == pytest.approx(tok_s, rel=5e-4)


def test_orin_int4_golden_row():
    """Orin INT4 g128, B=1, ctx 1,024: W 4.14 GB; 41.74 ms; 23.95 tok/s."""
    d = lab.act2_decode(state("edge", a2_batch=1, a2_context=1024))
    assert d.weight_bytes / 1e9 == pytest.approx(4.14, abs=0.005)
    assert d.step_s * 1e3 == pytest.approx(41.74, abs=0.005) and d.tok_s == pytest.approx(23.95, abs=0.005)


def test_context_presets_set_each_stakeholders_plan():
    for context, weights, batch in (("cloud", "bf16", 64), ("edge", "int4", 16), ("mobile", "int4", 4)):
        s = LAB.parse({"controls": {"context": context, "a2_weights": "int8", "a2_batch": 2}}, "context")
        assert (s["a2_weights"], s["a2_batch"], s["a2_context"]) == (weights, batch, 4096)


def test_the_context_slider_stops_at_llama_3_8b_s_window():
    """Llama-3-8B config.json: max_position_embeddings 8,192 (the spec's slider went to 32,768)."""
    assert lab.A2_CONTEXT.max == C.LLAMA3_8B_MAX_CONTEXT == 8192


def test_gqa_off_makes_the_kv_cache_four_times_larger():
    """handbook/labs/v1_11.md §5: 32 KV heads give 4× the cache; B=64, S=2,048: 17.2 → 68.7 GB."""
    gqa = lab.act2_decode(state(a2_batch=64, a2_context=2048))
    mha = lab.act2_decode(state(a2_batch=64, a2_context=2048, a2_mha=True))
    assert gqa.kv_bytes / 1e9 == pytest.approx(17.18, abs=0.01) and mha.kv_bytes == 4 * gqa.kv_bytes
    assert mha.attention_ai == 1.0 and gqa.attention_ai == 4.0


OOM = {"cloud": {"a2_batch": 512, "a2_context": 8192}, "edge": {"a2_batch": 64}, "mobile": {"a2_batch": 8}}


@pytest.mark.parametrize("context", CONTEXTS)
def test_out_of_memory_shows_no_speed_no_step_and_no_gain(context):
    """At batch 512 / 32K (and on Edge at batch 64) "0 tokens/s, does not fit" sat beside
    "Throughput over batch 1 4.7×" (31.4× on Edge) and a step time. A batch that does not fit runs
    nothing: its cards, table rows and chart points are blank."""
    s = state(context, **OOM[context])
    html = rendered(LAB, s)
    assert "a2_out_of_memory" in LAB.failures_now(s)
    assert metric(html, "a2_tok_s") == 0.0 and "does not fit" in html
    for name in ("a2_per_seq", "a2_speedup", "a2_step_s", "a2_mfu", "a2_ai"):
        assert f'data-metric="{name}"' not in html
    fig = figure(html, "a2_throughput")
    assert not any(t["name"].startswith("Your setting") for t in fig["data"])
    assert "— — —" in page_text(html)
    assert lab.results(s)["tok_s"] is None and lab.results(s)["oom"] == "does not fit"


def test_out_of_memory_names_whose_memory_it_is():
    """Review of V1-11: the failure read "more than the Apple A17 Pro (iPhone 15 Pro)'s 8 GB"."""
    text = page_text(rendered(LAB, state("mobile", **OOM["mobile"])))
    assert "more than the iPhone 15 Pro's 8 GB" in text and ")'s" not in text
    assert "against the A17 Pro's ridge of 342" in text


def test_out_of_memory_offers_only_the_levers_left_and_scales_a_small_cache():
    """Review of V1-11: the failure always said "Use fewer sequences or a shorter
    context, quantise the weights, or keep grouped-query attention", also at batch 1 with 4-bit weights;
    and a 128-token cache read "0.0168 GB"."""
    phone = page_text(rendered(LAB, state("mobile", a2_batch=1, a2_context=8192, a2_mha=True)))
    assert "To fit, keep a shorter context or turn grouped-query attention back on." in phone
    orin = page_text(rendered(LAB, state("edge", a2_weights="bf16", a2_batch=1, a2_context=128)))
    assert "16.8 MB of KV cache" in orin and "To fit, quantise the weights." in orin and "0.0168 GB" not in orin
    h100 = page_text(rendered(LAB, state(a2_batch=128)))
    assert "To fit, decode fewer sequences, keep a shorter context or quantise the weights." in h100


def test_throughput_summary_says_when_the_compute_ceiling_bends_the_curve():
    """Review of V1-11 (class 6): at 128 tokens of context batch 512 reaches the H100's compute ceiling,
    yet the summary said the curve falls below linear 'as the KV caches grow'."""
    html = page_text(rendered(LAB, state(a2_batch=512, a2_context=128)))
    assert "until the step reaches the compute ceiling of 61,610 tokens/s" in html
    assert "until the step reaches" not in page_text(rendered(LAB, state()))


def test_bf16_llama_does_not_fit_the_orin_but_int4_does():
    """handbook/labs/v1_11.md §5: upstream's Edge was OOM at every setting; here quantising leaves the failure."""
    assert "a2_out_of_memory" in LAB.failures_now(state("edge", a2_weights="bf16", a2_batch=1))
    assert "a2_out_of_memory" not in LAB.failures_now(state("edge", a2_weights="int8", a2_batch=1))


def test_throughput_summary_speaks_of_the_batches_that_fit():
    assert "at batch 64, the largest batch that fits" in rendered(LAB, state())
    assert "No batch fits the Orin NX" in rendered(LAB, state("edge", a2_weights="bf16"))


def test_decode_roofline_has_the_steps_kernels_and_a_plural_that_agrees():
    html = rendered(LAB, state("edge"))
    names = [t["name"] for t in figure(html, "a2_roofline")["data"]]
    assert names == ["Orin NX · 16-bit", "Weight matmuls", "Attention (KV cache)", "Decode step"]
    assert "(0.516 bytes per weight)" in page_text(html)
    assert "(1 byte per weight)" in page_text(rendered(LAB, state(a2_weights="int8")))


# ---- tracks, the hook, the ledger ----------------------------------------------------------------


def test_three_tracks_are_offered_and_tinyml_is_explained_on_the_page():
    assert LAB.context.values == CONTEXTS and set(LAB.track_notes) == {"tiny"}
    earlier = {"v1_00": {"complete": True, "controls": {"track": "tiny"}}}
    s = LAB.parse({"earlier": earlier})
    html = rendered(LAB, s)
    assert s["context"] == "cloud" and 'data-track-note="tiny"' in html
    assert "4.14 GB even at 4 bits" in page_text(html) and "2 MiB of flash" in page_text(html)
    assert LAB.earlier_defaults({"v1_00": {"complete": True, "controls": {"track": "mobile"}}}) == {
        "context": "mobile", "a1_precision": "bf16", "a2_weights": "int4", "a2_batch": 4.0, "a2_context": 4096.0}


def test_the_invariant_names_both_levers_of_the_memory_roof():
    """Review of V1-11: below the ridge the ceiling is bandwidth × intensity (Williams et al. 2009), so
    more bandwidth raises it too; the invariant said 'only more operations per byte raise it'."""
    assert "or more bandwidth, raise it" in LAB.invariant


def test_the_takeaways_speak_of_every_context_with_its_own_numbers():
    text = " ".join(lab.lab_takeaways())
    for context in CONTEXTS:
        assert fmt(model.act1_truth(context), "tokens") in text
        assert fmt(model.act2_truth(context), "pct") in text


def test_record_holds_the_spec_ledger_fields_labelled():
    """handbook/labs/v1_11.md ledger: device, precision, M, K, N, ai, attainable_tflops, mfu, regime, fused, tok_s,
    oom."""
    rec = record(LAB, state(a2_batch=512))
    results = rec["results"]
    assert set(results) == {"device", "precision", "m", "k", "n", "ai", "attainable_tflops", "mfu", "regime",
                            "fused", "tok_s", "oom"}
    assert results["device"] == "NVIDIA H100 SXM" and results["precision"] == "BF16 / FP16"
    assert (results["m"], results["k"], results["n"]) == (8, 4096, 4096)
    assert results["attainable_tflops"] == pytest.approx(26.696, abs=5e-4)
    assert (results["regime"], results["fused"], results["oom"]) == ("memory-bound", "4 separate kernels",
                                                                     "does not fit")
    assert results["tok_s"] is None
    assert rec["answers"]["a1_predict"]["correct"] is True and rec["complete"] is True
    assert record(LAB, state())["results"]["tok_s"] == pytest.approx(4252, abs=1)
