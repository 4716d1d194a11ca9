"""V1-05 The Activation Tax: answer keys proven by the physics in every context (handbook/labs/v1_05.md,
with the departures the module docstring names), the memory-bound reveal, the Memory Ledger,
failure states, contexts, numbers as a textbook prints them, and the ledger record."""

from __future__ import annotations

import itertools

import pytest

from pylabs.framework.render import record
from pylabs.labs.vol1 import v1_05 as lab
from pylabs.labs.vol1 import v1_05_model as model
from pylabs.physics import constants as C
from tests.labs.helpers import answered, assert_key_proven, rendered
from tests.labs.reading import page_text

LAB = lab.LAB
CONTEXTS = ("cloud", "edge", "mobile")


def all_open(**controls):
    return answered(LAB, {}, through="a2_reflect", controls=controls)


def in_context(context: str, through: str = "a2_reflect", choices: dict | None = None, **controls):
    """Locked in ``context`` with its presets, its keys (or ``choices``) and ``controls``."""
    answers = {q.id: {"choice": (choices or {}).get(q.id, q.answer(context)), "locked_at": "2026-01-01T00:00:00Z"}
               for q in LAB.questions[:[q.id for q in LAB.questions].index(through) + 1]}
    base = LAB.parse({"controls": {"context": context}}, "context")
    raw = {"controls": {**{c.name: base[c.name] for c in LAB.controls}, **controls}, "answers": answers}
    return LAB.parse(raw)


# ---- Act I prediction: the four sigmoid layers' share of the frame -----------------------


@pytest.mark.parametrize("context,letter,share", [
    ("mobile", "B", 0.001505), ("edge", "B", 0.001505), ("cloud", "A", 0.0000460)])
def test_act1_key_is_the_frame_share_of_the_context(context, letter, share):
    """handbook/labs/v1_05.md §4: NPU 35 T / 51.2 GB/s, 56×56×256 INT8, B_rw = 2 → 31.36 µs a layer, 4 layers 0.1505 %
    of 83.3 ms. The Orin NX moves FP16 (2 B) at 102.4 GB/s (datasheet): the same 31.36 µs. The H100 moves FP16 at
    3.35 TB/s: 0.9586 µs a layer, 0.0046 %."""
    assert model.frame_share(context) == pytest.approx(share, rel=2e-3)
    assert_key_proven(lab.ACT1_PREDICTION, letter, context)
    assert lab.ACT1_PREDICTION.answer() == "B"  # the default context, mobile


def test_act1_layers_are_memory_bound_at_the_scenario_in_every_context():
    for context in CONTEXTS:
        layer = model.scenario_layer(context)
        assert layer.time_s == layer.memory_s > layer.compute_s
    assert model.scenario_layer("mobile").time_s == pytest.approx(31.36e-6, rel=1e-4)


def test_the_phone_key_needs_the_bytes_not_only_the_arithmetic():
    """A student who counts arithmetic only lands in A on the phone and the Orin NX: the key needs the roofline."""
    for context in ("mobile", "edge"):
        layer = model.scenario_layer(context)
        arithmetic_share = 4 * layer.compute_s / model.FRAME_S
        assert lab.ACT1_PREDICTION.option("A").holds(arithmetic_share)


def test_the_phone_key_holds_up_to_77_gb_per_s():
    """The phone's 51.2 GB/s is an assumption (handbook/errata.md#e7): the key B holds until the bandwidth passes 77
    GB/s."""
    layer = model.scenario_layer("mobile")
    for bw in (C.A17_PRO_MEM_BW, 60e9, 77e9):
        share = 4 * 2 * layer.bytes_per_value * layer.elements / bw / model.FRAME_S
        assert lab.ACT1_PREDICTION.option("B").holds(share)


def test_the_act1_key_holds_over_the_whole_exponential_slider():
    """Defect class 16: the assumed cost of an exponential (4 to 30 operations) never moves the frame share,
    since sigmoid stays under every context's crossover."""
    for context in CONTEXTS:
        shares = {4 * model.act_layer(context, "sigmoid", model.PRESET_PRECISION[context], exp_ops=k).time_s
                  for k in range(int(lab.A1_EXP.min), int(lab.A1_EXP.max) + 1)}
        assert len(shares) == 1


def test_the_prompt_names_the_device_its_rate_and_its_bandwidth():
    prompts = {c: lab.ACT1_PREDICTION.prompt.format_map(LAB.terms(c)) for c in CONTEXTS}
    assert "A17 Pro phone" in prompts["mobile"] and "35 TOP/s" in prompts["mobile"]
    assert "51.2 GB/s (assumed)" in prompts["mobile"] and "INT8" in prompts["mobile"]
    assert "1.88 TFLOP/s" in prompts["edge"] and "FP16" in prompts["edge"]
    assert "3.35 TB/s" in prompts["cloud"] and "66.9 TFLOP/s" in prompts["cloud"]


# ---- Act I reflection: GELU's extra arithmetic ---------------------------------------------


def test_act1_reflection_key_is_c_in_every_context():
    """GELU's 24 operations per element stay under every context's crossover (H100 FP16 80, Orin NX FP16 73,
    phone INT8 1,367): its arithmetic hides under the traffic."""
    assert lab.ACT1_REFLECTION.answer() == "C"
    for context in CONTEXTS:
        gelu = model.scenario_layer(context, "gelu")
        assert gelu.ops == 24 and gelu.crossover_ops > gelu.ops and gelu.time_s == gelu.memory_s


def test_compute_bound_is_reachable_only_at_the_extremes():
    """INT8 on the H100's CUDA cores: GELU at 30 operations per exponential passes the 40-op crossover."""
    state = all_open(context="cloud", a1_precision="int8", a1_activation="gelu", a1_exp_ops=30)
    layer = lab.layer_of(state, "gelu")
    assert layer.compute_s > layer.memory_s
    assert "compute-bound" in rendered(LAB, state)


def test_fusion_removes_the_traffic_and_the_arithmetic_ratio_shows():
    state = all_open(a1_fused=True)
    sig, relu = lab.layer_of(state, "sigmoid"), lab.layer_of(state, "relu")
    assert sig.memory_s == 0 and sig.time_s / relu.time_s == pytest.approx(14)
    assert sig.time_s < lab.layer_of(all_open(), "sigmoid").time_s


def test_the_swap_cannot_reach_the_target_frame_rate():
    for context, activation in itertools.product(CONTEXTS, lab.NAMES):
        state = in_context(context, a1_activation=activation)
        saved = 4 * (lab.layer_of(state, activation).time_s - lab.layer_of(state, "relu").time_s)
        assert model.fps_with(model.FRAME_S, saved) < model.S.fps_target


def test_the_phone_rates_follow_the_precision():
    """Defect class 1: Apple's 35 TOPS is read as INT8 (coremltools); FP16 on the Neural Engine is the assumed
    half, FP32 runs on the GPU (assumed 2.15 TFLOP/s). The old lab ran FP16 and FP32 at 35 T."""
    assert model.engine("mobile", "int8").rate == C.A17_PRO_NPU_OPS
    assert model.engine("mobile", "int8").unit_fmt == "OP/s"
    assert model.engine("mobile", "fp16").rate == C.A17_PRO_NPU_FP16_ASSUMED == 17.5e12
    assert model.engine("mobile", "fp32").rate == C.A17_PRO_GPU_FP32_ASSUMED
    html = rendered(LAB, all_open(a1_precision="fp32"))
    assert "2.15 TFLOP/s (A17 Pro GPU, FP32 (assumed clock))" in page_text(html)


def test_crossover_metric_matches_the_spec():
    """handbook/labs/v1_05.md §5: INT8 on 35 TOPS / 51.2 GB/s is compute-bound only above ~1,370 ops/element."""
    assert 'data-metric="a1_crossover_ops" data-value="1367.1875"' in rendered(LAB, all_open())


# ---- Act II prediction: the ledger's first map against the buffer ---------------------------


def test_act2_key_is_d_the_first_map_is_196x_the_buffer():
    """8 × 224² × 64 × 4 B = 102,760,448 B = 196 × 524,288 B (the spec's 224×224×256 single-image map, 98×, is
    this map for one image at four times the channels)."""
    assert model.pyramid()[0] == 102_760_448
    assert model.first_map_ratio() == 196
    for context in CONTEXTS:
        assert_key_proven(lab.ACT2_PREDICTION, "D", context)


def test_act2_distractors_are_the_usual_slips():
    """Pixels × bytes (0.38×) in A, one image's values as bytes (6.1×) in B, one image's map (24.5×) in C."""
    facts = lab.act2_facts()
    assert (facts["pixel_ratio"], facts["values_ratio"], facts["one_image_ratio"]) == ("0.383×", "6.13×", "24.5×")
    assert [lab.ACT2_PREDICTION.option(x).holds(v) for x, v in (("A", 0.383), ("B", 6.125), ("C", 24.5))] == [True] * 3


def test_the_ledger_at_the_defaults_matches_the_spec():
    """handbook/labs/v1_05.md §4: b 8, 224, C0 64, FP32: layers 102.76 / 51.38 / 25.69 / 12.85 / 6.42 / 3.21 MB; Σ
    202.31 MB; peak pair 154.14 MB; all five layers spill a 512 KiB buffer."""
    led = lab.ledger(all_open())
    assert [round(m / 1e6, 2) for m in led.maps] == [102.76, 51.38, 25.69, 12.85, 6.42, 3.21]
    assert led.peak / 1e6 == pytest.approx(202.31, abs=0.005)
    assert lab.ledger(all_open(a2_mode="inference")).peak / 1e6 == pytest.approx(154.14, abs=0.005)
    assert sum(led.spilled) == 5 and not led.oom


# ---- Act II reflection: why training's peak is close to inference's --------------------------


def test_act2_reflection_key_is_a_the_maps_halve():
    train, infer = model.peaks()
    assert train / infer == 1.3125 and lab.ACT2_REFLECTION.answer() == "A"
    maps = model.pyramid()
    assert all(b / a == 0.5 for a, b in zip(maps, maps[1:]))          # A: each map halves (B: not one size)
    assert sum(maps[:2]) / train == pytest.approx(0.7619, abs=1e-4)  # A: the first two hold most bytes
    assert maps[-1] < maps[0]                                          # C: the deepest map is the smallest
    fp16 = model.pyramid(bytes_per_value=2)
    assert sum(fp16) / max(a + b for a, b in zip(fp16, fp16[1:])) == 1.3125  # D: the same at any precision


def test_the_l2_of_an_h100_holds_the_smaller_layers():
    led = lab.ledger(all_open(context="cloud", a2_buffer="h100_l2"))
    assert led.spilled == [True, True, False, False, False]


# ---- failure states ------------------------------------------------------------------


def test_oom_is_reached_and_left_on_the_phone():
    """handbook/labs/v1_05.md §4: b 128, 512, C0 64, FP32, 8 GB → training 16.91 GB and inference 12.88 GB: OOM."""
    big = dict(a2_batch=128, a2_image=512, a2_channels=64)
    for mode, peak in (("training", 16.91e9), ("inference", 12.88e9)):
        state = all_open(a2_mode=mode, **big)
        assert lab.ledger(state).peak == pytest.approx(peak, rel=5e-4)
        assert "a2_out_of_memory" in LAB.failures_now(state)
    assert "a2_out_of_memory" not in LAB.failures_now(all_open(a2_mode="inference", a2_batch=32, a2_image=512))
    assert "a2_out_of_memory" not in LAB.failures_now(all_open(a2_mode="training", **big, context="cloud"))
    assert "a2_out_of_memory" in LAB.failures_now(all_open(a2_mode="training", **big, context="edge"))


def test_the_oom_text_offers_only_levers_not_at_their_limit():
    """Defect class 3: at batch 1, INT8 and inference the text does not offer those levers."""
    text = page_text(rendered(LAB, all_open(a2_batch=1, a2_image=512, a2_channels=512, a2_precision="int8",
                                            a2_mode="inference", context="mobile")))
    if "Out of memory" in text:
        assert "the batch" not in text and "fewer bytes" not in text and "recompute" not in text
    state = all_open(a2_batch=128, a2_image=512, a2_channels=512, a2_mode="training")
    text = page_text(rendered(LAB, state))
    assert "Shrink the batch, the image, the channels, use fewer bytes per value or recompute" in text


# ---- numbers as a textbook prints them --------------------------------------------


def test_the_frame_note_reads_an_not_a():
    """The page's "of a 83.3 ms frame" should read "an" (here: "of the 83.3 ms frame")."""
    for context in CONTEXTS:
        text = page_text(rendered(LAB, in_context(context)))
        assert "of the 83.3 ms frame" in text and "a 83" not in text


def test_a_tiny_frame_share_is_not_a_string_of_zeros():
    """Small maps printed "0.0000359 %" (H100, 7×7×256 INT8: 3.6e-7 of the frame)."""
    state = all_open(context="cloud", a1_side=7, a1_precision="int8")
    share = 4 * lab.layer_of(state, "sigmoid").time_s / model.FRAME_S
    assert share == pytest.approx(3.59e-7, rel=1e-2)
    text = page_text(rendered(LAB, state))
    assert "< 0.001 %" in text and "0.0000" not in text


def test_a_map_far_smaller_than_the_buffer_reads_as_a_share():
    """The smallest ledger (28 px, 1 channel, batch 1, INT8) against the H100's L2 printed "0.0000157×"."""
    state = all_open(context="cloud", a2_image=28, a2_channels=1, a2_batch=1, a2_precision="int8",
                     a2_buffer="h100_l2")
    html = rendered(LAB, state)
    assert 'data-metric="a2_buffer_share"' in html and 'data-metric="a2_buffer_ratio"' not in html
    assert "0.0000" not in page_text(html)


# ---- every option's feedback, in every context ------------------------------------------------


@pytest.mark.parametrize("context", CONTEXTS)
def test_every_option_earns_feedback_with_its_numbers(context):
    for q in LAB.questions:
        for letter in "ABCD":
            html = rendered(LAB, in_context(context, through=q.id, choices={q.id: letter}))
            verdict = "correct" if letter == q.answer(context) else "incorrect"
            assert f'data-feedback="{q.id}" data-verdict="{verdict}"' in html
            assert "{" not in page_text(html)


# ---- context, tracks and the ledger record ----------------------------------------------------


def test_context_preset_sets_the_precision():
    for context, precision in (("cloud", "fp16"), ("edge", "fp16"), ("mobile", "int8")):
        state = LAB.parse({"controls": {"context": context, "a1_precision": "fp32"}}, changed="context")
        assert state["a1_precision"] == precision


def test_context_follows_the_v1_00_track_and_explains_tiny():
    for track in CONTEXTS:
        earlier = {"v1_00": {"controls": {"track": track}, "results": {}, "complete": True}}
        assert LAB.context_defaults(earlier) == {"context": track}
    assert LAB.context_defaults({"v1_00": {"controls": {"track": "tiny"}, "results": {}, "complete": True}}) == {}
    assert "803 KB" in LAB.track_notes["tiny"] and "512 KiB" in LAB.track_notes["tiny"]


def test_context_changes_the_instruments():
    grab = lambda html: html.split('data-metric="a1_layer_s" data-value="')[1].split('"')[0]
    assert len({grab(rendered(LAB, in_context(c))) for c in CONTEXTS}) == 2  # the Orin NX ties the phone
    grab = lambda html: html.split('data-metric="a2_device_share" data-value="')[1].split('"')[0]
    assert len({grab(rendered(LAB, in_context(c))) for c in CONTEXTS}) == 3


def test_record_holds_the_spec_ledger_fields():
    """handbook/labs/v1_05.md ledger: context, activations, fused, act_ratio, batch, bytes, mode, spilled_layers,
    oom."""
    rec = record(LAB, all_open(a2_batch=128, a2_image=512))
    assert rec["context"] == "mobile" and rec["complete"] is True
    results = rec["results"]
    assert results["activations"] == "sigmoid"
    assert results["act_ratio"] == 14 and results["act_time_ratio"] == 1
    assert results["fused"] is False and results["batch"] == 128 and results["bytes"] == 4
    assert results["mode"] == "training" and results["spilled_layers"] == 5 and results["oom"] is True
    assert rec["answers"]["a1_predict"]["correct"] is True


def test_nothing_answers_act2_in_act1s_instruments():
    html = rendered(LAB, answered(LAB, {}, through="a1_reflect"))
    assert "196×" not in html


# ---- independent review ----------------------------------------------------------


def test_act2_story_does_not_give_the_h100_a_512_kib_buffer():
    """Review: in Cloud the story said "Our accelerator keeps data on chip in a 512 KiB buffer" while the device
    is the H100, whose on-chip cache is a 50 MB L2 (NVIDIA Hopper architecture in-depth). The 512 KiB buffer is the
    scenario's assumption: in Cloud it belongs to the small accelerator the model also ships to."""
    for context in CONTEXTS:
        text = page_text(rendered(LAB, in_context(context, through="a1_reflect")))
        story = text[text.index("Incoming message", text.index("The Memory Ledger")):]
        story = story[:story.index("Your prediction")]
        assert "512 KiB" in story and model.SHORT[context] in story
        assert ("H100's 50 MB L2" in story) == (context == "cloud")
        assert ("Our accelerator" in story) == (context != "cloud")


@pytest.mark.parametrize("context", CONTEXTS)
def test_the_act1_key_holds_at_any_achieved_share_of_the_peak_bandwidth(context):
    """Defect class 20: the layer time is a bound at peak bandwidth with no measured time beside it. The key holds
    for any achieved bandwidth from 10 % of the peak to the peak (the phone's B up to 2 %, the H100's A below
    0.1 %), and the page says that no measured time is shown."""
    layer = model.scenario_layer(context)
    assert model.S.bandwidth_floor == 0.1
    for achieved in (model.S.bandwidth_floor, 0.25, 0.5, 1.0):
        share = 4 * max(layer.compute_s, layer.memory_s / achieved) / model.FRAME_S
        assert lab.ACT1_PREDICTION.option(lab.ACT1_PREDICTION.answer(context)).holds(share)
    text = page_text(rendered(LAB, in_context(context)))
    assert "no measured time" in text and "No measured time is on this page" in text


def test_a_fused_layer_reads_as_no_traffic_not_zero_seconds():
    """Review (format): the fused callout read "memory traffic 0 s"; nothing spilling read "0 s at 51.2 GB/s"."""
    text = page_text(rendered(LAB, all_open(a1_fused=True, a2_image=28, a2_channels=1, a2_batch=1)))
    assert "memory traffic 0 s" not in text and "adds no memory traffic" in text
    assert "nothing spills" in text


def test_on_the_h100_the_page_says_a_small_layer_fits_the_l2():
    """Defect class 13: Act II's rule says maps that fit on chip never touch DRAM, yet Act I times the H100's
    3.21 MB layer at HBM's 3.35 TB/s although its 50 MB L2 (NVIDIA Hopper in-depth) holds it. The page says so."""
    text = page_text(rendered(LAB, in_context("cloud")))
    assert "also fit its 50 MB L2" in text and "3.21 MB" in text
    assert "also fit its" not in page_text(rendered(LAB, in_context("mobile")))
    assert "also fit its" not in page_text(rendered(LAB, in_context("cloud", a1_side=448)))  # 103 MB: it does not
