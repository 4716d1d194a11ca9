"""V1-07 The Kernel Fusion Dividend: keys proven by the corrected model (handbook/labs/v1_07.md §5), the
spec's golden vectors through the lab, failures reached and left, presets, the ledger record."""

from __future__ import annotations

import math
import re

import pytest

from pylabs.framework.render import record
from pylabs.labs.vol1 import v1_07 as lab
from pylabs.labs.vol1 import v1_07_model as model
from tests.labs.helpers import answered, assert_key_proven, rendered
from tests.labs.reading import page_text

LAB = lab.LAB
RIGHT = {"a1_predict": "D", "a1_reflect": "A", "a2_predict": "B", "a2_reflect": "C"}
KEYS = {"cloud": RIGHT, "edge": {**RIGHT, "a2_predict": "D"}}


def all_open(**controls):
    return answered(LAB, RIGHT, through="a2_reflect", controls=controls)


def metric(html: str, name: str) -> float:
    start = html.index(f'data-metric="{name}"')
    value = html[start:].split('data-value="')[1].split('"')[0]
    return float(value)


# ---- answer keys, in every context ------------------------------------------------------


@pytest.mark.parametrize("context", ["cloud", "edge"])
def test_act1_key_is_d_the_cpu_dispatches_all_the_time(context):
    """Asynchronous launches (CUDA Programming Guide): each kernel costs max(t_cpu, t_gpu); with 10 µs (cloud)
    or 50 µs (edge) of dispatch behind 5 µs kernels, the CPU dispatches 100 % of the time."""
    assert model.act1_truth(context) == pytest.approx(1.0)
    assert_key_proven(lab.ACT1_PREDICTION, "D", context)


@pytest.mark.parametrize("cpu_us", range(5, 51))
def test_act1_key_holds_for_any_dispatch_the_kernel_does_not_cover(cpu_us):
    """The edge's 50 µs is an assumption: the key holds for every dispatch of 4.75 µs or more."""
    st = model.stream("kws", cpu_us * 1e-6, "async", False)
    assert lab.ACT1_PREDICTION.option("D").holds(model.dispatch_share(st, "async", cpu_us * 1e-6))


@pytest.mark.parametrize("context", ["cloud", "edge"])
def test_the_synchronous_misconception_lands_off_the_key(context):
    """Synchronising after every kernel: 10/15 = 66.7 % (cloud), 50/55 = 90.9 % (edge): both in C, not D."""
    sync = model.scenario_stream(context, "sync")
    share = model.dispatch_share(sync, "sync", model.DISPATCH_S[context])
    assert share == pytest.approx({"cloud": 2 / 3, "edge": 50 / 55}[context])
    assert lab.ACT1_PREDICTION.option("C").holds(share)


def test_act2_key_is_b_in_the_cloud_and_d_on_the_edge():
    """handbook/labs/v1_07.md §4: N* = 133,607 images, 19.2 min at 10 M a day (B: 10 min to 1 h); edge 150 → 222
    images/s: 13,875 images, 5.78 days at 100 an hour (D: a day or more, so the daily deployment never pays back)."""
    assert model.CLOUD.breakeven == pytest.approx(133_607, abs=1)
    assert model.act2_truth("cloud") / 60 == pytest.approx(19.24, abs=0.01)
    assert_key_proven(lab.ACT2_PREDICTION, "B", "cloud")
    assert model.EDGE.breakeven == pytest.approx(13_875, abs=0.5)
    assert model.act2_truth("edge") / 86400 == pytest.approx(5.78, abs=0.005)
    assert_key_proven(lab.ACT2_PREDICTION, "D", "edge")


def test_the_rate_difference_mistake_lands_in_a_in_the_cloud():
    """30 s × (2,150 − 1,450) images/s = 21,000 images = 3.02 min of cloud traffic: option A, not the key."""
    images = model.S.compile_s * (model.S.cloud_compiled_rate - model.S.cloud_eager_rate)
    assert images == pytest.approx(21_000)
    assert lab.ACT2_PREDICTION.option("A").holds(images / model.S.cloud_requests_per_s)


@pytest.mark.parametrize("context", ["cloud", "edge"])
def test_reflection_keys_and_their_numbers_in_each_context(context):
    assert lab.ACT1_REFLECTION.answer(context) == "A"
    assert lab.ACT2_REFLECTION.answer(context) == "C"
    facts = lab.act1_facts(context)
    assert facts["fast_time"] == {"cloud": "10 ms", "edge": "50 ms"}[context]
    assert (facts["a1_busy"], facts["fast_busy"]) == {"cloud": ("50 %", "25 %"), "edge": ("10 %", "5 %")}[context]
    f2 = lab.act2_facts(context)
    assert f2["speedup"] == "3×"
    assert (f2["t_un"], f2["t_f"]) == {"cloud": ("30 µs", "10 µs"), "edge": ("150 µs", "50 µs")}[context]


def test_cuda_graph_chain_on_the_a100():
    """handbook/labs/v1_07.md §4: graphs 4.628 → 1.543 µs (3.0×)."""
    f2 = lab.act2_facts("cloud")
    assert f2["g_un"] == "4.63 µs" and f2["g_f"] == "1.54 µs"


@pytest.mark.parametrize("context", ["cloud", "edge"])
def test_locking_the_keys_in_each_context_earns_correct(context):
    state = LAB.parse({"answers": {q: {"choice": k, "locked_at": "2026-01-01T00:00:00Z"}
                                   for q, k in KEYS[context].items()},
                       "controls": {"context": context}}, changed="context")
    html = rendered(LAB, state)
    for qid in KEYS[context]:
        assert f'data-feedback="{qid}" data-verdict="correct"' in html, (context, qid)


# ---- the spec's golden vectors through the lab ------------------------------------------


@pytest.mark.parametrize("controls,time_s,busy,cpu", [
    ({}, 10e-3, 0.5, 1.0),                                              # async
    ({"a1_mode": "sync"}, 15e-3, 1 / 3, 2 / 3),                         # sync
    ({"a1_fast": True}, 10e-3, 0.25, 1.0),                              # GPU 2× faster
    ({"context": "edge", "a1_cpu_s": 50e-6}, 50e-3, 0.10, 1.0),         # edge dispatch
    ({"a1_mode": "fused"}, 5e-3, 1.0, 1.0),                             # f = 0.5
    ({"a1_model": "resnet"}, 10e-3, 1.0, 0.2),                          # 200 × 50 µs behind 10 µs
    ({"a1_mode": "graphs"}, 5e-3, 1.0, 10e-6 / 5e-3),                   # one launch for the graph
])
def test_act1_golden_vectors_on_the_page(controls, time_s, busy, cpu):
    """handbook/labs/v1_07.md §4 rows 1-4, and the CPU's dispatching share n·t_cpu / T beside them."""
    html = rendered(LAB, all_open(**controls))
    assert metric(html, "a1_time_s") == pytest.approx(time_s)
    assert metric(html, "a1_busy") == pytest.approx(busy)
    assert metric(html, "a1_cpu_share") == pytest.approx(cpu)


def test_graph_mode_overrides_the_dispatch_slider_and_says_so():
    html = rendered(LAB, all_open(a1_mode="graphs", a1_cpu_s=50e-6))
    assert metric(html, "a1_time_s") == pytest.approx(1000 * 5e-6)  # 1 µs per kernel < 5 µs of work
    start = html.index('data-control="a1_cpu_s"')
    assert " disabled" in html[html.rindex("<div", 0, start):start + 400]
    assert "Not used with a CUDA graph" in html


def test_fusion_panel_golden_vector_on_the_a100():
    """handbook/labs/v1_07.md §4: 3 ops, S = 1,572,864 B at 2.039 TB/s; 10 µs dispatch: 30 → 10 µs (3.0×)."""
    html = rendered(LAB, all_open())
    assert model.TENSOR_BYTES == 1_572_864
    assert metric(html, "a2_unfused_s") == pytest.approx(30e-6)
    assert metric(html, "a2_fused_s") == pytest.approx(10e-6)
    assert metric(html, "a2_fusion_speedup") == pytest.approx(3.0)
    assert metric(html, "a2_bytes_saved") == pytest.approx(4 * 1_572_864)


@pytest.mark.parametrize("ops", [1, 3, 8])
@pytest.mark.parametrize("context", ["cloud", "edge"])
def test_fusion_speedup_is_the_chain_length_on_either_device(ops, context):
    html = rendered(LAB, all_open(context=context, a2_ops=ops))
    assert metric(html, "a2_fusion_speedup") == pytest.approx(ops)


def test_compile_golden_vectors_on_the_page():
    """handbook/labs/v1_07.md §4: 4 replicas → 534,429; edge 150 → 222: 13,875 (5.78 days at 2,400/day); 120 s →
    55,500."""
    html = rendered(LAB, all_open(a2_compiles=4))
    assert metric(html, "a2_breakeven") == pytest.approx(534_429, abs=1)
    edge = LAB.parse({"answers": {k: vars(v) for k, v in all_open().answers.items()},
                      "controls": {"context": "edge"}}, changed="context")
    html = rendered(LAB, edge)
    assert metric(html, "a2_breakeven") == pytest.approx(13_875, abs=0.5)
    assert metric(html, "a2_breakeven_time_s") / 86400 == pytest.approx(5.78, abs=0.005)
    html = rendered(LAB, all_open(context="edge", a2_eager=150, a2_compiled=222, a2_compile_s=120))
    assert metric(html, "a2_breakeven") == pytest.approx(55_500, abs=1)


def test_cloud_breakeven_is_reached_in_minutes():
    """handbook/labs/v1_07.md §4: 19.2 min at 10 M requests a day."""
    assert model.CLOUD.breakeven_s / 60 == pytest.approx(19.2, abs=0.05)


# ---- failure states ------------------------------------------------------------------


def test_a_compiled_model_no_faster_never_pays_back_and_says_so_in_words():
    """No "0 µs saved", no bare ∞: the page says "never" and "nothing"."""
    state = all_open(a2_eager=2000, a2_compiled=1500)
    assert "a2_no_payback" in LAB.failures_now(state)
    html = rendered(LAB, state)
    assert math.isinf(metric(html, "a2_breakeven")) and math.isinf(metric(html, "a2_breakeven_time_s"))
    assert "no volume of traffic" in html and "the compiled model is no faster" in html
    assert "saves nothing per image" in html and not re.search(r"(?<![\d.,])0 µs", html)
    assert record(LAB, state)["results"]["breakeven"] is None  # infinity is stored as null


@pytest.mark.parametrize("context", ["cloud", "edge"])
def test_the_break_even_cards_say_never_in_words_not_a_bare_infinity(context):
    """Review (defect class 22): a compiled model no faster than the eager one left both break-even cards,
    and the key strip that repeats them, reading a bare "∞" (with "never" only in a note). The cards now
    read "never"; their data-value stays Infinity for the scripts."""
    html = rendered(LAB, all_open(context=context, a2_eager=2000, a2_compiled=1500))
    for name in ("a2_breakeven", "a2_breakeven_time_s"):
        card = html.split(f'data-metric="{name}"')[1].split("</div>")[0]
        assert 'pl-metric__value">never<' in card, card
    assert "∞" not in page_text(html)


def test_the_no_payback_failure_offers_only_levers_with_room():
    """At a year between recompilations and one compilation, neither lever is offered."""
    text = lab.no_payback_text(lab.deployment_of(all_open(a2_compiles=64, a2_compile_s=300)))
    assert "Keep the process alive longer, compile once and share the artefact, or stay eager." in text
    stuck = all_open(context="edge", a2_eager=150, a2_compiled=151, a2_duration_s=lab.A2_DURATION.max)
    text = lab.no_payback_text(lab.deployment_of(stuck))
    assert text.endswith("Stay eager.") and "alive longer" not in text and "compile once" not in text


def test_the_launch_bound_failure_does_not_offer_fusion_once_fused():
    edge = rendered(LAB, all_open(context="edge", a1_cpu_s=50e-6, a1_mode="fused"))
    text = edge.split('data-failure="a1_launch_bound"')[1].split("</div>")[0]
    assert "a CUDA graph" in text and "(fusion)" not in text


# ---- context, presets, ledger ----------------------------------------------------------------


def test_the_context_sets_dispatch_and_throughputs():
    edge = LAB.parse({"controls": {"context": "edge"}}, changed="context")
    assert edge["a1_cpu_s"] == pytest.approx(50e-6)
    assert (edge["a2_eager"], edge["a2_compiled"]) == (150, 222)
    cloud = LAB.parse({"controls": {"context": "cloud", "a1_cpu_s": 30e-6}}, changed="context")
    assert cloud["a1_cpu_s"] == pytest.approx(10e-6) and cloud["a2_eager"] == 1450


def test_opening_in_the_edge_track_brings_the_edge_defaults():
    defaults = LAB.earlier_defaults({"v1_00": {"controls": {"track": "edge"}, "results": {}, "complete": True}})
    assert defaults["context"] == "edge" and defaults["a1_cpu_s"] == pytest.approx(50e-6)
    assert LAB.earlier_defaults({"v1_00": {"controls": {"track": "tiny"}, "results": {}, "complete": True}}) == {}


def test_the_cloud_is_labelled_a100_and_the_edge_assumptions_are_labelled():
    html = rendered(LAB, LAB.default_state())
    assert "Cloud (NVIDIA A100)" in html and "Cloud (NVIDIA H100)" not in html
    assert "50 µs, is an assumption" in html  # the edge dispatch, in the slider's help
    edge = rendered(LAB, LAB.parse({"controls": {"context": "edge"}}, changed="context"))
    assert "assumed for the Jetson" in edge


def test_record_holds_the_spec_ledger_fields():
    """handbook/labs/v1_07.md §2: {context, model, mode, util, fusion_speedup, breakeven, roi_positive}, and the CPU's
    share."""
    rec = record(LAB, all_open(a1_mode="sync"))
    assert rec["complete"] is True
    assert {"context", "a1_model", "a1_mode"} <= set(rec["controls"])
    assert rec["results"]["util"] == pytest.approx(1 / 3)
    assert rec["results"]["cpu_share"] == pytest.approx(2 / 3)
    assert rec["results"]["fusion_speedup"] == pytest.approx(3.0)
    assert rec["results"]["breakeven"] == pytest.approx(133_607, abs=1)
    assert rec["results"]["roi_positive"] is True
    assert "a1_launch_bound" in rec["failures_active"]
    assert {m.name for m in LAB.record_metrics} == set(rec["results"])


@pytest.mark.parametrize("context", ["cloud", "edge"])
def test_no_answer_is_on_the_page_before_its_lock(context):
    html = rendered(LAB, LAB.parse({"controls": {"context": context}}, changed="context"))
    assert 'data-metric="a1_cpu_share"' not in html and "19.2 min" not in html and "5.78 days" not in html
    act1_done = rendered(LAB, answered(LAB, KEYS[context], through="a1_reflect", controls={"context": context}))
    assert "133,607" not in act1_done and "13,875" not in act1_done


def test_the_story_does_not_say_when_the_cpu_waits():
    """"only a synchronisation makes the CPU wait" plus "nothing synchronises" gave D
    without the numbers, and "the CPU goes on to the next operator" refuted C before the lock; the scenario now
    says only that a launch puts the kernel in the GPU's queue."""
    html = rendered(LAB, LAB.default_state())
    assert "makes the CPU wait" not in html and "goes on to the next operator" not in html
    assert "into the GPU's queue" in html


@pytest.mark.parametrize("context", ["cloud", "edge"])
def test_tracks_the_lab_cannot_offer_are_explained(context):
    assert set(LAB.track_notes) == {"mobile", "tiny"}
    assert all("opens in Cloud (NVIDIA A100)" in note for note in LAB.track_notes.values())


def test_feedback_quotes_the_physics():
    html = rendered(LAB, answered(LAB, {"a1_predict": "C"}, through="a1_predict"))
    feedback = html.split('data-feedback="a1_predict"')[1].split("</div>")[0]
    assert "66.7 %" in feedback and "100 %" in feedback
    assert "incorrect" in html.split('data-feedback="a1_predict"')[1][:40]
    html = rendered(LAB, answered(LAB, {"a2_predict": "A"}, through="a2_predict"))
    feedback = html.split('data-feedback="a2_predict"')[1].split("</div>")[0]
    assert "21,000 images" in feedback and "19.2 min" in feedback
    html = rendered(LAB, answered(LAB, {"a2_reflect": "D"}, through="a2_reflect"))
    feedback = html.split('data-feedback="a2_reflect"')[1].split("</div>")[0]
    assert "3×" in feedback and "30 µs" in feedback


# ---- the text follows its source (nothing typed) ---------------------------------------------------


def test_the_ratio_words_follow_the_scenario(relabelled):
    assert lab.A1_FAST.label == "A GPU 2× as fast (every kernel takes half of the time)"
    assert lab.MODES["fused"] == "Fused: half of the kernels merged into the others"
    assert lab.A2_OPS.help.startswith("LayerNorm → Dropout → ReLU is three;")
    new = relabelled(fast_gpu=3.0, fused_fraction=0.25, chain_ops=4)
    assert new.A1_FAST.label == "A GPU 3× as fast (every kernel takes a third of the time)"
    assert new.MODES["fused"] == "Fused: a quarter of the kernels merged into the others"
    assert new.A2_OPS.help.startswith("LayerNorm → Dropout → ReLU is four;")
    claims = {c.letter: c.text for c in new.ACT1_REFLECTION.options}
    assert claims["B"].startswith("Its time shrinks 3×") and "busy share shrinks 3×" in claims["A"]
    html = rendered(new.LAB, answered(new.LAB, {"a1_reflect": "B"}, through="a1_reflect"))
    assert "The GPU's work shrinks 3×" in html


def test_the_modelled_fusion_speedup_has_a_measured_one_beside_it():
    """Review (defect class 20): the 3× was the model's ideal with no measurement beside it. Triton's fused-softmax
    tutorial (triton-lang.org, 02-fused-softmax) cuts the unfused softmax's DRAM traffic from 8MN + 4M to 2MN
    elements (~4×) and reports the fused kernel "4x faster" than the unfused one; an earlier version of the same
    tutorial reported 2-3x against a ~5× traffic cut."""
    html = rendered(LAB, all_open())
    panel = page_text(html.split("Fusion panel")[1].split("Nothing to fuse")[0])
    assert "Triton" in panel and "measured" in panel and "2–3×" in panel and "4×" in panel
    assert "Fused Softmax" in html  # the source, in the math peek


@pytest.mark.parametrize("context", ["cloud", "edge"])
def test_the_asynchronous_launch_is_stated_before_the_lock_and_no_option_is_refuted_by_it(context):
    """Review: the model the key rests on, that a launch returns once its kernel is queued (CUDA C++
    Programming Guide, "Asynchronous Concurrent Execution": kernel launches return to the host before the device
    completes), was left to the word "nothing synchronises". The scenario now states it; C's gloss was "the CPU
    waits", which that sentence would refute, so C now carries the additive belief (dispatch plus work, 66.7 %)."""
    html = rendered(LAB, LAB.parse({"controls": {"context": context}}, changed="context"))
    assert "returns when its kernel is in the queue, not when the kernel has run" in page_text(html)
    gloss = lab.ACT1_PREDICTION.option("C").text
    assert "waits" not in gloss and "adds" in gloss


@pytest.mark.parametrize("context", ["cloud", "edge"])
def test_the_story_inputs_of_act_ii_are_labelled_before_the_lock(context):
    """Review: the cloud rates and the 30 s compilation have no public source (the spec's "per
    the chapter" is not a benchmark); the prompt labelled the rates but not the compile time. Both are now the
    team's measurements (cloud) or assumptions (edge) in the prompt and in the sliders' help."""
    state = answered(LAB, KEYS[context], through="a1_reflect", controls={"context": context})
    text = page_text(rendered(LAB, state))
    label = {"cloud": "the team's measurements, not a published benchmark", "edge": "assumed figures"}[context]
    assert f"each compilation takes 30 s ({label})" in text
    assert "Compile time, per compilation" in text and "no published benchmark" in lab.A2_COMPILE.help


def test_the_synchronised_failure_names_the_larger_lever_when_dropping_the_sync_is_not_enough():
    """Review (defect class 21): synchronising on the edge (50 µs dispatch, 5 µs kernels) offered only "drop the
    synchronisation", which leaves the GPU busy 10 %: still launch-bound. The text now says so and names fusion or
    a CUDA graph; in the cloud (10 µs) dropping it gives 50 %, at the failure's own threshold."""
    edge = rendered(LAB, all_open(context="edge", a1_cpu_s=50e-6, a1_mode="sync"))
    text = page_text(edge.split('data-failure="a1_launch_bound"')[1].split("</div>")[0])
    assert "Drop the synchronisation" in text and "10 %" in text and "fusion or a CUDA graph" in text
    cloud = rendered(LAB, all_open(a1_mode="sync", a1_cpu_s=6e-6))
    text = page_text(cloud.split('data-failure="a1_launch_bound"')[1].split("</div>")[0])
    assert "83.3 %" in text and "fusion or a CUDA graph" not in text


def test_a_net_loss_on_compiling_is_called_a_loss():
    """Review: "GPU time saved, net of compiling −29.5 s" carried no word for the sign."""
    html = rendered(LAB, all_open(context="edge"))
    card = page_text(html.split('data-metric="a2_net_gpu_s"')[1].split("</div>")[0])
    assert "−" in card and "a loss: compiling costs more than it saves" in card
