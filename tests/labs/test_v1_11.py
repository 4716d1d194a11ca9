"""V1-11 The Roofline: answer keys proven by the physics (VOL1_09-16 §V1-11), the spec's golden
vectors on the instruments, the roofline chart, the decode analyzer, the OOM failure reached and
left, context, edges and the ledger record."""

from __future__ import annotations

import importlib
import itertools
import json
import math
import re

import pytest

from pylabs.framework.render import record, render_lab
from pylabs.labs.vol1 import v1_11 as lab
from pylabs.labs.vol1 import v1_11_model as model
from pylabs.physics import constants as C
from tests.labs.helpers import answered, assert_key_proven, rendered

LAB = lab.LAB


def all_open(**controls):
    return answered(LAB, {}, through="a2_reflect", controls=controls)


def metric(html: str, name: str) -> float:
    return float(re.search(rf'data-metric="{name}" data-value="([^"]+)"', html).group(1))


def figure(html: str, name: str) -> dict:
    block = html.split(f'data-chart="{name}"')[1]
    spec = block.split('class="pl-chart__spec">')[1].split("</script>")[0]
    return json.loads(spec.replace("<\\/", "</"))


# ---- answer keys (§V1-11.3 story, §V1-11.4 golden vectors) ---------------------------------


def test_act1_key_is_a_the_kernel_is_already_at_2_7_pct():
    """§V1-11.3: 'projection kernel at 26.7 TF = 2.7 % of peak'; memory-bound, AI ≈ 8 ≪ 295."""
    assert model.act1_truth() == pytest.approx(0.02698, abs=5e-6)
    assert_key_proven(lab.ACT1_PREDICTION, "A")
    assert model.SCENARIO_KERNEL.regime == "memory"


def test_act2_key_is_c_batch_64_gives_42x():
    """§V1-11.4: 206.9 → 8,698 tok/s at context 1,024, BF16, H100: 42.0×."""
    assert model.act2_truth() == pytest.approx(8698 / 206.9, rel=1e-3)
    assert_key_proven(lab.ACT2_PREDICTION, "C")


def test_reflection_keys():
    assert lab.ACT1_REFLECTION.answer() == "B" and lab.ACT2_REFLECTION.answer() == "B"


def test_reflection_feedback_numbers():
    """Raising M to 64 gives 207.9 TF (§V1-11.4); INT8 only doubles; the chain is under 1 % of decode."""
    f1, f2 = lab.act1_facts(), lab.act2_facts()
    assert f1["big_rate"] == "208 TFLOP/s" and f1["int8_gain"] == "2×"
    assert f2["attn_ai"] == "4" and f2["weight_ai"] == "64"
    assert float(f2["chain_share"].rstrip(" %")) < 1


def test_every_wrong_option_has_feedback():
    for q in (lab.ACT1_PREDICTION, lab.ACT2_PREDICTION):
        assert all(o.feedback for o in q.options)
    for q in (lab.ACT1_REFLECTION, lab.ACT2_REFLECTION):
        facts = {**lab.act1_facts(), **lab.act2_facts()}
        for o in q.options:
            assert o.feedback.format_map(facts)


# ---- Act I instruments: §V1-11.4 golden vectors ----------------------------------------------


def test_defaults_show_the_scenario_kernel():
    """M=8, K=N=4096, BF16, H100: AI 7.969; 26.696 TF; MFU 2.698 %."""
    html = rendered(LAB, all_open())
    assert metric(html, "a1_ai") == pytest.approx(7.969, abs=5e-4)
    assert metric(html, "a1_rate") == pytest.approx(26.696e12, rel=1e-4)
    assert metric(html, "a1_mfu") == pytest.approx(0.02698, abs=5e-6)
    assert metric(html, "a1_ridge") == pytest.approx(295.3, abs=0.05)
    assert "memory-bound" in html


@pytest.mark.parametrize("m, tflops, mfu", [(64, 207.9, 0.210), (512, 989.4, 1.0)])
def test_more_tokens_per_call(m, tflops, mfu):
    html = rendered(LAB, all_open(a1_m=m))
    assert metric(html, "a1_rate") / 1e12 == pytest.approx(tflops, abs=0.05)
    assert metric(html, "a1_mfu") == pytest.approx(mfu, abs=5e-4)


def test_the_same_kernel_on_orin():
    """M=8, BF16, Orin (15.04 TF, 102.4 GB/s): 0.816 TF; MFU 5.43 %."""
    html = rendered(LAB, all_open(context="edge"))
    assert metric(html, "a1_rate") == pytest.approx(0.816e12, rel=1e-3)
    assert metric(html, "a1_mfu") == pytest.approx(0.0543, abs=5e-5)
    assert metric(html, "a1_ridge") == pytest.approx(147, abs=0.5)


def test_square_512_bf16_and_fp32():
    """Square N=512: BF16 571.7 TF (57.8 %); FP32 AI 85.3 → 66.9 TF, compute-bound (ridge 20)."""
    bf16 = rendered(LAB, all_open(a1_square=True, a1_hidden=512))
    assert metric(bf16, "a1_rate") == pytest.approx(571.7e12, rel=1e-4)
    fp32 = rendered(LAB, all_open(a1_square=True, a1_hidden=512, a1_precision="fp32"))
    assert metric(fp32, "a1_ai") == pytest.approx(85.33, abs=0.01)
    assert metric(fp32, "a1_rate") == C.H100_PEAK_FP32
    assert metric(fp32, "a1_ridge") == pytest.approx(20.0, abs=0.05)
    assert "compute-bound" in fp32


def test_int8_ridge_uses_the_dense_peak():
    """§V1-11.2 error 3: dense INT8 is 1,978.9 TOPS, ridge 591 (not 3,958 and 1,181)."""
    html = rendered(LAB, all_open(a1_precision="int8"))
    assert metric(html, "a1_ridge") == pytest.approx(590.7, abs=0.05)
    assert metric(html, "a1_ai") == pytest.approx(2 * 7.969, abs=1e-3)


def test_square_toggle_overrides_m_with_a_reason():
    state = all_open(a1_square=True, a1_m=8)
    assert lab.shape(state) == (4096.0, 4096.0, 4096.0)
    assert "Not used while the GEMM is square" in rendered(LAB, state)
    assert lab.a1_overridden(all_open()) == {}


def test_fusion_multiplies_the_chain_intensity_by_its_length():
    unfused, fused = rendered(LAB, all_open()), rendered(LAB, all_open(a1_fused=True))
    assert metric(fused, "a1_chain_ai") == pytest.approx(lab.S.chain_ops * metric(unfused, "a1_chain_ai"))
    assert metric(fused, "a1_chain_time") == pytest.approx(metric(unfused, "a1_chain_time") / lab.S.chain_ops)


def test_roofline_chart_is_log_log_with_roofs_and_kernels():
    fig = figure(rendered(LAB, all_open()), "a1_roofline")
    assert fig["layout"]["xaxis"]["type"] == "log" and fig["layout"]["yaxis"]["type"] == "log"
    names = [t["name"] for t in fig["data"]]
    assert names[0] == "H100 · 16-bit" and "Orin NX · 16-bit" in names and "Your GEMM" in names
    yours = next(t for t in fig["data"] if t["name"] == "Your GEMM")
    assert yours["x"][0] == pytest.approx(7.969, abs=5e-4) and yours["y"][0] == pytest.approx(26.696e12, rel=1e-4)
    main = fig["data"][0]
    assert C.H100_PEAK_BF16_DENSE / C.H100_HBM_BW in main["x"]  # drawn through the ridge point


def test_context_changes_the_roofline():
    fig = figure(rendered(LAB, all_open(context="edge")), "a1_roofline")
    assert fig["data"][0]["name"] == "Orin NX · 16-bit"


# ---- Act II: decode on the roofline (§V1-11.4) ----------------------------------------------


@pytest.mark.parametrize("batch, ms, tok_s", [(1, 4.834, 206.9), (8, 5.115, 1564), (64, 7.358, 8698)])
def test_decode_golden_rows_on_the_instruments(batch, ms, tok_s):
    html = rendered(LAB, all_open(a2_batch=batch))
    assert metric(html, "a2_step_s") * 1e3 == pytest.approx(ms, abs=5e-4)
    assert metric(html, "a2_tok_s") == pytest.approx(tok_s, rel=5e-4)


def test_orin_int4_golden_row():
    """Orin INT4 g128, B=1, ctx 1,024: W 4.14 GB; 41.74 ms; 23.95 tok/s (the edge preset picks INT4)."""
    assert LAB.parse({"controls": {"context": "edge"}}, changed="context")["a2_weights"] == "int4"
    d = lab.act2_decode(LAB.parse({"controls": {"context": "edge", "a2_weights": "int4", "a2_batch": 1}}))
    assert d.weight_bytes / 1e9 == pytest.approx(4.14, abs=0.005)
    assert d.step_s * 1e3 == pytest.approx(41.74, abs=0.005) and d.tok_s == pytest.approx(23.95, abs=0.005)


def test_gqa_off_makes_the_kv_cache_four_times_larger():
    """§V1-11.2 error 7: 32 KV heads give 4× the cache (upstream's mistake); B=64, S=2,048: 17.2 → 68.7 GB."""
    gqa = lab.act2_decode(all_open(a2_batch=64, a2_context=2048))
    mha = lab.act2_decode(all_open(a2_batch=64, a2_context=2048, a2_mha=True))
    assert gqa.kv_bytes / 1e9 == pytest.approx(17.18, abs=0.01) and mha.kv_bytes == 4 * gqa.kv_bytes
    assert mha.attention_ai == 1.0 and gqa.attention_ai == 4.0


def test_decode_stays_memory_bound_until_large_batches():
    for batch in (1, 8, 64, 256):
        d = lab.act2_decode(all_open(a2_batch=batch))
        assert d.ai < C.H100_PEAK_BF16_DENSE / C.H100_HBM_BW


def test_throughput_chart_marks_oom_batches_and_the_current_setting():
    fig = figure(rendered(LAB, all_open()), "a2_throughput")
    names = [t["name"] for t in fig["data"]]
    assert "Your setting" in names and "Does not fit in memory" in names  # batch 512 at 1,024 tokens
    ours = next(t for t in fig["data"] if t["name"] == "Your setting")
    assert ours["y"][0] == pytest.approx(8698, rel=5e-4)


def test_decode_roofline_has_the_steps_kernels():
    fig = figure(rendered(LAB, all_open()), "a2_roofline")
    names = [t["name"] for t in fig["data"]]
    assert names == ["H100 · 16-bit", "Weight matmuls", "Attention (KV cache)", "Decode step"]


# ---- failure state: reached and left through the instruments --------------------------------


def test_oom_reached_and_left_on_the_h100():
    big = all_open(a2_batch=512, a2_context=1024)
    assert "a2_out_of_memory" in LAB.failures_now(big)
    assert 'data-failure="a2_out_of_memory"' in render_lab(LAB, big)
    assert "a2_out_of_memory" not in LAB.failures_now(all_open(a2_batch=256))
    assert 'data-failure="a2_out_of_memory"' not in render_lab(LAB, all_open())


def test_bf16_llama_does_not_fit_the_orin_but_int4_does():
    """§V1-11.2 error 6: upstream's Edge was OOM at every setting; here quantising leaves the failure."""
    assert "a2_out_of_memory" in LAB.failures_now(all_open(context="edge", a2_weights="bf16", a2_batch=1))
    assert "a2_out_of_memory" not in LAB.failures_now(all_open(context="edge", a2_weights="int4", a2_batch=1))
    assert "a2_out_of_memory" not in LAB.failures_now(all_open(context="edge", a2_weights="int8", a2_batch=1))


def test_oom_shows_zero_throughput_not_a_fictional_rate():
    html = rendered(LAB, all_open(a2_batch=512))
    assert metric(html, "a2_tok_s") == 0.0
    assert lab.results(all_open(a2_batch=512))["tok_s"] == 0.0


# ---- gating, edges, context, ledger ----------------------------------------------------------


def test_nothing_answers_act2_in_act1s_instruments():
    html = rendered(LAB, answered(LAB, {}, through="a1_reflect"))
    assert "42×" not in html


def test_extreme_settings_render_finite_numbers():
    corners = itertools.product(("cloud", "edge"), (1, 8192), (256, 16384), ("fp32", "int8"), (False, True),
                                (1, 512), (128, 32768), ("bf16", "int4"), (False, True))
    names = ("context", "a1_m", "a1_hidden", "a1_precision", "a1_fused", "a2_batch", "a2_context",
             "a2_weights", "a2_mha")
    for i, values in enumerate(corners):
        state = all_open(**dict(zip(names, values)))
        for value in lab.results(state).values():
            assert not isinstance(value, float) or (math.isfinite(value) and value >= 0)
        if i % 16 == 0:
            html = rendered(LAB, state)
            assert all(math.isfinite(float(v)) and float(v) >= 0
                       for v in re.findall(r'data-value="([^"]+)"', html))


def test_context_preset_picks_a_weight_format_that_fits():
    edge = LAB.parse({"controls": {"context": "edge", "a2_weights": "bf16"}}, changed="context")
    cloud = LAB.parse({"controls": {"context": "cloud", "a2_weights": "int4"}}, changed="context")
    assert edge["a2_weights"] == "int4" and cloud["a2_weights"] == "bf16"


def test_record_holds_the_spec_ledger_fields():
    """§V1-11 ledger: device, precision, M, K, N, ai, attainable_tflops, mfu, regime, fused, tok_s, oom."""
    rec = record(LAB, all_open(a2_batch=512))
    results = rec["results"]
    assert set(results) == {"device", "precision", "m", "k", "n", "ai", "attainable_tflops", "mfu", "regime",
                            "fused", "tok_s", "oom"}
    assert results["device"] == "NVIDIA H100 SXM" and results["precision"] == "bf16"
    assert (results["m"], results["k"], results["n"]) == (8, 4096, 4096)
    assert results["attainable_tflops"] == pytest.approx(26.696, abs=5e-4)
    assert results["regime"] == "memory" and results["fused"] is False and results["oom"] is True
    assert rec["answers"]["a1_predict"]["correct"] is True and rec["complete"] is True
    assert "a2_out_of_memory" in rec["failures_active"]


def test_throughput_summary_speaks_of_the_batches_that_fit():
    html = rendered(LAB, all_open())
    assert "at batch 256, the largest batch that fits" in html
    assert "No batch fits the Orin NX" in rendered(LAB, all_open(context="edge", a2_weights="bf16"))


# ---- the text follows its source (nothing typed) ---------------------------------------------------


def test_the_int8_claim_quotes_the_registrys_peak_ratio(monkeypatch):
    """Reflection A's "twice the operations per second" is the H100's INT8 over BF16 tensor peak."""
    assert lab.ACT1_REFLECTION.options[0].text == ("Run it in INT8: the tensor cores do twice the operations per "
                                                   "second.")
    monkeypatch.setattr(C, "H100_PEAK_INT8_DENSE", 2 * C.H100_PEAK_INT8_DENSE)
    try:
        importlib.reload(model)
        text = importlib.reload(lab).ACT1_REFLECTION.options[0].text
    finally:
        monkeypatch.undo()
        importlib.reload(model)
        importlib.reload(lab)
    assert text == "Run it in INT8: the tensor cores do 4× the operations per second."
    assert lab.ACT1_REFLECTION.options[0].text.endswith("do twice the operations per second.")
