"""V2-05 The Parallelism Paradox: answer keys proven by the physics, feedback, gating, failures."""

from __future__ import annotations

import importlib
import itertools
from dataclasses import replace

import pytest

from pylabs.framework.questions import in_context, worded
from pylabs.framework.render import record
from pylabs.labs.vol2 import v2_05 as lab
from pylabs.labs.vol2 import v2_05_model as model
from pylabs.labs.vol2 import v2_05_network as network
from pylabs.physics import constants as C
from tests.labs.helpers import answered, assert_key_proven, rendered

LAB = lab.LAB
GB = 1e9


# ---- Act I: answer key and the audit's golden vectors ------------------------------------


def test_act1_mfu_matches_the_audit_at_8_64_512_gpus():
    mfu = [model.scenario_run(n).mfu for n in (8, 64, 512)]
    assert mfu == pytest.approx([0.5148, 0.4433, 0.2101], abs=5e-4)  # handbook/labs/v2_05.md §4: 51.5 / 44.3 / 21.0 %


def test_act1_single_node_step_matches_the_audit_golden_vector():
    run = model.scenario_run(8)  # 65,536 tokens per GPU: T_comp 5.350 s, T_AR 54.44 ms
    assert run.compute_s == pytest.approx(5.350, abs=5e-4)
    assert run.allreduce_s == pytest.approx(0.054444, rel=1e-4)


@pytest.mark.parametrize("context,target,mfu", [("full", 512, 0.2101), ("warmup", 128, 0.2134)])
def test_act1_answer_is_proven_by_the_physics_in_each_context(context, target, mfu):
    """One sequence per GPU: 512 GPUs at 512K tokens, 128 at the warm-up's 128K; both 1,024 tokens per GPU."""
    assert model.act1_target(context) == target
    assert lab.ACT1_PREDICTION.value_in(context) == pytest.approx(mfu, abs=5e-4)
    assert_key_proven(lab.ACT1_PREDICTION, "B", context)


def test_act1_key_holds_whatever_the_assumed_utilisation():
    """u = 52 % is [assumed]: from 40 % to 60 % the key stays in B (15–30 %) in both contexts."""
    for u in (0.40, 0.52, 0.60):
        for context in model.BATCH:
            run = model.scenario_run(model.act1_target(context), context)
            compute = run.compute_s * model.S.mfu / u
            assert 0.15 <= u * compute / (compute + run.allreduce_s) < 0.30, (u, context)


def test_act1_options_claim_the_all_reduce_share_that_bounds_them():
    """Each range is a belief about the all-reduce's share of the step: MFU = u (1 − share)."""
    a, _, c, _ = lab.ACT1_PREDICTION.options
    assert a.high == pytest.approx(model.S.mfu * (1 - 0.712), abs=2e-3)   # "almost every step"
    assert c.guess == pytest.approx(model.S.mfu * 3 / 4, abs=0.02)         # a third of the compute
    facts = lab.act1_facts("full")
    assert (facts["a1_compute_s"], facts["a1_allreduce_s"], facts["ar_share"]) == ("83.6 ms", "123 ms", "59.6 %")


def test_act1_memory_is_zero1_model_state():
    assert model.scenario_run(8).memory == pytest.approx(38.5 * GB)  # (4 + 12/8) B × 7e9
    assert model.DPRun(7e9, 8, 524288, 8, model.C.IB_NDR_BW, 0).memory == pytest.approx(112 * GB)


def test_act1_prediction_does_not_depend_on_the_ledger():
    before = lab.act1_truth("full")
    state = LAB.parse({"controls": {"a1_fabric": "v2_02"},
                       "earlier": {"v2_02": {"controls": {"a2_nics": "1", "a2_nic": "hdr"}}}})
    assert lab.resolve_fabric(state)[:2] == (1, "hdr")
    assert lab.act1_truth("full") == before


def test_fabric_defaults_to_the_questions_eight_rails_even_with_a_ledger_entry():
    """The instruments open on the stated scenario, so caption and feedback agree."""
    assert lab.resolve_fabric(LAB.default_state()) == (8, "ndr", "chosen")
    with_entry = LAB.parse({"earlier": {"v2_02": {"controls": {"a2_nics": "1", "a2_nic": "ndr"}, "results": {}}}})
    assert lab.resolve_fabric(with_entry) == (8, "ndr", "chosen")
    asked = LAB.parse({"controls": {"a1_fabric": "v2_02"}})
    assert lab.resolve_fabric(asked) == (8, "ndr", "default")
    chosen = LAB.parse({"controls": {"a1_fabric": "1ndr"}})
    assert lab.resolve_fabric(chosen) == (1, "ndr", "chosen")


def test_default_caption_agrees_with_the_feedback():
    raw = {"answers": {"a1_predict": {"choice": "B", "locked_at": "2026-01-01T00:00:00Z"}},
           "earlier": {"v2_02": {"controls": {"a2_nics": "1", "a2_nic": "ndr"}, "results": {}}}}
    html = rendered(LAB, LAB.parse(raw))
    truth = lab.fmt(lab.act1_truth("full"), "pct1")
    assert f"to {truth} on 512." in html
    assert f"<strong>{truth}</strong>" in html  # the verdict
    assert "pick “From your V2-02 ledger” above" in html


def test_ledger_fabric_is_named_on_the_page():
    asked = {"a1_fabric": "v2_02"}
    opened = answered(LAB, {}, through="a1_predict", controls=asked)
    assert "No V2-02 entry in your ledger: using 8 NDR rails per node" in rendered(LAB, opened)
    raw = {"answers": {"a1_predict": {"choice": "B", "locked_at": "2026-01-01T00:00:00Z"}}, "controls": asked,
           "earlier": {"v2_02": {"controls": {"a2_nics": "1", "a2_nic": "ndr"}, "results": {}}}}
    html = rendered(LAB, LAB.parse(raw))
    assert "From your V2-02 ledger: 1 × InfiniBand NDR 400G per node" in html
    truth = lab.fmt(lab.act1_truth("full"), "pct1")
    assert f"With the scenario's 8 NDR rails per node it would be {truth} there." in html
    one_nic = lab.DPRun(7e9, 64, 524288, 1, lab.C.IB_NDR_BW, 1).mfu
    assert one_nic < lab.scenario_run(64).mfu


def test_overlap_hides_at_most_the_backward_pass():
    run = model.DPRun(7e9, 512, 524288, 8, model.C.IB_NDR_BW, 1, overlap=True)
    assert run.hidden_s == pytest.approx(run.compute_s * 4 / 6)
    assert model.scenario_run(512).mfu < run.mfu < model.S.mfu


def test_model_size_and_sequences_refuse_runs():
    assert not model.DPRun(70e9, 8, 524288, 8, model.C.IB_NDR_BW, 1).fits
    assert not model.DPRun(7e9, 1024, 524288, 8, model.C.IB_NDR_BW, 1).splits  # 512 sequences


# ---- Act II: every candidate evaluated with the physics ------------------------------------


def test_exactly_one_candidate_meets_all_three_limits_and_each_other_breaks_one():
    verdicts = {k: (lay.memory <= 80 * GB, lay.bubble <= 0.10, lay.tp <= 8, not lay.problem())
                for k, lay in model.CANDIDATES.items()}
    assert verdicts == {"A": (True, False, True, True), "B": (False, True, True, True),
                        "C": (True, True, False, True), "D": (True, True, True, True)}
    assert [k for k, lay in model.CANDIDATES.items() if lay.satisfies] == ["D"]


def test_act2_answer_is_megatrons_layout_and_proven_by_the_physics():
    for context in lab.CONTEXT.values:
        assert lab.ACT2_PREDICTION.answer(context) == lab.act2_answer() == "D"
    answer = lab.CANDIDATES[lab.ACT2_PREDICTION.answer()]
    assert (answer.tp, answer.pp, answer.dp) == (lab.C.MEGATRON_GPT3_TP, lab.C.MEGATRON_GPT3_PP, 8)


def test_no_majority_or_odd_one_out_points_to_the_key():
    """Counting how many other layouts share each of TP, PP and DP gives every
    candidate the same score, so 'pick the majority' finds nothing."""
    lays = model.CANDIDATES
    shared = {k: sum(getattr(lay, f) == getattr(other, f) for f in ("tp", "pp", "dp")
                     for j, other in lays.items() if j != k) for k, lay in lays.items()}
    assert len(set(shared.values())) == 1, shared


def test_act2_feedback_names_each_layouts_numbers():
    a, b = lab.CANDIDATES["A"], lab.CANDIDATES["B"]
    for letter, lay in lab.CANDIDATES.items():
        assert lab.fmt(lay.memory, "GB") in lab.ACT2_PREDICTION.option(letter).feedback
    assert "m = 1,536 ÷ 16 = 96 microbatches for 16 stages" in lab.ACT2_PREDICTION.option("A").feedback
    assert lab.fmt(a.bubble, "pct") == "15.6 %"
    assert f"{lab.fmt(b.state - b.weights_grads, 'GB')}, on top of" in lab.ACT2_PREDICTION.option("B").feedback


def test_act2_reflection_numbers_follow_the_bubble_formula():
    """Narayanan et al. 2021: bubble (p − 1)/m with m = B/(d·b); d = N/(t·p), so (p − 1)/m → N·b/(t·B)."""
    assert (model.SHALLOW.m, model.DEEP.m) == (48, 384)
    assert (model.SHALLOW.bubble, model.DEEP.bubble) == (pytest.approx(3 / 48), pytest.approx(31 / 384))
    facts = lab.act2_facts()
    assert facts["bubble_cap"] == "8.33 %" and facts["m_deep"] == "384"
    assert "6.25 % to 8.07 %" in lab.ACT2_REFLECTION.prompt
    assert lab.ACT2_REFLECTION.answer() == "A"


def test_every_options_feedback_fills_in_every_context():
    for q in LAB.questions:
        for context in lab.CONTEXT.values:
            act = LAB.acts[q.act - 1]
            facts = in_context(act.facts, context)
            for o in q.options:
                assert "{" not in o.feedback.format_map(facts), (q.id, o.letter)


def test_megatron_layout_matches_the_audit():
    lay = model.MEGATRON
    assert lay.m == 192 and lay.bubble == pytest.approx(0.078125)
    assert lay.state == pytest.approx(21.875 * GB) and lay.activations == pytest.approx(10.2677 * GB, rel=1e-4)
    assert lay.memory == pytest.approx(32.14 * GB, rel=1e-3)


def test_distributed_optimizer_makes_tp8_pp4_fit():
    off, on = model.Layout(8, 4), model.Layout(8, 4, distopt=True)
    assert off.memory == pytest.approx((87.5 + 10.2677) * GB, rel=1e-4)
    assert on.memory == pytest.approx((23.9258 + 10.2677) * GB, rel=1e-4)
    assert on.m == 48 and on.bubble == pytest.approx(0.0625) and on.satisfies


def test_tp_traffic_inside_and_across_nodes_matches_the_audit():
    """handbook/labs/v2_05.md §2 (corrected): a TP 16 group spans two DGX nodes and uses all 8 rails,
    0.322 ms per all-reduce, 1.29 ms per layer, 1.6× TP 8 over NVLink; MFU 41.8 % → 34.0 %."""
    inside, across = model.Layout(8, 16), model.Layout(16, 8)
    assert inside.layer_tp_s == pytest.approx(0.782937e-3, rel=1e-5)
    assert across.layer_tp_s == pytest.approx(4 * 0.321563e-3, rel=1e-5)
    assert across.layer_tp_s / inside.layer_tp_s == pytest.approx(1.6428, rel=1e-4)
    assert inside.layer_compute_s == pytest.approx(5.78219e-3 * 0.5 / model.S.mfu, rel=1e-5)
    assert (round(inside.mfu, 3), round(across.mfu, 3)) == (0.418, 0.340)


def test_tp_across_nodes_failure_and_reflection_state_the_rail_physics():
    html = rendered(LAB, answered(LAB, {}, through="a2_reflect", controls={"a2_tp": 16, "a2_pp": 8}))
    alert = html[html.index('data-failure="a2_tp_across_nodes"'):]
    alert = alert[:alert.index("</div>")]
    assert "through all 8 rails (400 GB/s out of each node)" in alert
    assert "1.29 ms per layer" in alert and "1.64× the 0.783 ms of TP 8" in alert
    assert "50 GB/s instead of" not in html
    facts = lab.act2_facts()
    assert (facts["tp_across"], facts["tp_ratio"], facts["mfu_across"]) == ("1.29 ms", "1.64×", "33.8 %")


@pytest.mark.parametrize("tp,pp,batch,reason", [
    (64, 4, 1536, "heads"), (8, 64, 1536, "equal stages"), (1, 1, 1536, "split evenly"),
    (32, 64, 1536, "equal stages"),
])
def test_invalid_layouts_say_why(tp, pp, batch, reason):
    assert reason in model.Layout(tp, pp, batch=batch).problem()


def test_step_time_model_is_documented_arithmetic():
    lay = model.MEGATRON
    ideal = lay.m * 96 / lay.pp * (lay.layer_compute_s + lay.layer_tp_s)
    assert lay.step_s == pytest.approx(ideal * (1 + lay.bubble) + lay.dp_allreduce_s)
    assert lay.mfu == pytest.approx(model.S.mfu * lay.m * 6 * lay.layer_compute_s / lay.step_s)


# ---- failure states -------------------------------------------------------------------


def all_open(**controls):
    return answered(LAB, {}, through="a2_reflect", controls=controls)


def test_failure_texts_offer_only_levers_not_at_their_limit():
    """A lever already at its limit is not offered."""
    from pylabs.labs.vol2 import v2_05_levers as levers
    at_limit = model.DPRun(7e9, 512, 2097152, 8, model.C.IB_NDR_BW, 1, overlap=True)
    assert levers.comm_levers(at_limit) == "Try fewer GPUs."
    assert "overlapping" in levers.comm_levers(model.scenario_run(512))
    stage3 = model.DPRun(70e9, 8, 524288, 8, model.C.IB_NDR_BW, 3)
    assert not stage3.fits and levers.oom_levers(stage3) == "Try more GPUs, since the stage divides the state by N."
    ddp = model.DPRun(70e9, 8, 524288, 8, model.C.IB_NDR_BW, 0)
    # plain DDP never shards, and ZeRO-3 on 8 GPUs still needs 140 GB: neither lever fits it alone
    assert levers.oom_levers(ddp).startswith("No single setting fits it: combine ZeRO-3")
    assert levers.oom_levers(replace(ddp, params=7e9)) == "Try a higher ZeRO stage."
    sharded = model.Layout(8, 1, distopt=True)
    assert sharded.limits()["a2_out_of_memory"] and "distributed optimizer" not in levers.a2_oom_levers(sharded)
    assert "larger global batch" not in levers.bubble_levers(model.Layout(4, 32, batch=3072))


def _act1_runs():
    nets = [(8, model.C.IB_NDR_BW), (4, model.C.IB_NDR_BW), (1, model.C.IB_NDR_BW), (1, model.C.IB_HDR_BW)]
    for gpus, batch, (nics, bw), params, zero, overlap in itertools.product(
            [2 ** k for k in range(3, 11)], [2 ** k for k in range(17, 22)], nets, model.MODEL_SIZES.values(),
            range(4), (False, True)):
        yield model.DPRun(params, gpus, batch, nics, bw, zero, overlap)


def _comm_bound(run):
    return run.fits and run.splits and run.exposed_s > run.compute_s


def test_every_offered_lever_clears_its_failure_alone():
    """Review: each lever a failure text offers, moved alone as far as the page lets it,
    clears that failure (before: 'Try a higher ZeRO stage' for a 70B on 8 GPUs, where ZeRO-3 needs 140 GB;
    'Try ... a larger global batch' where the largest batch still waits longer than it computes; 'Add
    pipeline stages' where the deepest valid pipeline still does not fit)."""
    from pylabs.labs.vol2 import v2_05_levers as levers
    fewer = lambda r: [replace(r, gpus=n) for n in (8, 16, 32, 64, 128, 256, 512) if n < r.gpus]
    moves1 = {"fewer GPUs": fewer, "a larger global batch": lambda r: [replace(r, batch=2 ** 21)],
              "overlapping": lambda r: [replace(r, overlap=True)],
              "more network rails": lambda r: [replace(r, nics=8, nic_bw=model.C.IB_NDR_BW)]}
    checked = 0
    for run in _act1_runs():
        if not run.fits:
            text = levers.oom_levers(run)
            if "higher ZeRO stage" in text:
                assert replace(run, zero=3).fits, run
            if "more GPUs, since" in text:
                assert any(replace(run, gpus=n).fits and replace(run, gpus=n).splits for n in (16, 32, 64, 128,
                                                                                              256, 512, 1024)), run
            checked += 1
        elif _comm_bound(run):
            text = levers.comm_levers(run)
            for name, moved in moves1.items():
                if name in text and not text.startswith("No single"):
                    assert any(m.fits and not _comm_bound(m) for m in moved(run)), (name, run)
            checked += 1
    depths = (1, 2, 4, 8, 16, 32, 64, 128)
    for tp, pp, distopt, batch in itertools.product((1, 2, 4, 8, 16, 32, 64), depths, (False, True),
                                                    model.A2_BATCHES):
        lay = model.Layout(tp, pp, distopt, batch)
        if lay.problem():
            continue
        valid = lambda layouts: [x for x in layouts if not x.problem()]
        if not lay.fits:
            text = levers.a2_oom_levers(lay).lower()
            for name, moved in {"distributed optimizer": [replace(lay, distopt=True)],
                                "add pipeline stages": [replace(lay, pp=p) for p in depths if p > pp],
                                "widen tensor": [replace(lay, tp=8)]}.items():
                if name in text and not text.startswith("no single"):
                    assert any(x.fits for x in valid(moved)), (name, lay)
            checked += 1
        if lay.bubble > model.S.bubble_limit:
            text = levers.bubble_levers(lay).lower()
            for name, moved in {"fewer stages": [replace(lay, pp=p) for p in depths if p < pp],
                                "larger global batch": [replace(lay, batch=max(model.A2_BATCHES))],
                                "wider tensor": [replace(lay, tp=8)]}.items():
                if name in text and not text.startswith("no single"):
                    assert any(x.bubble <= model.S.bubble_limit for x in valid(moved)), (name, lay)
            checked += 1
    assert checked > 2000


def test_a_refused_run_records_no_mfu_rather_than_zero():
    """A state outside the model is not an ordinary number in the ledger."""
    assert lab.results(all_open(a1_zero="0"))["a1_mfu"] is None
    assert lab.results(all_open())["a1_mfu"] == pytest.approx(lab.act1_truth("full"))


def test_a_layout_that_does_not_fit_is_not_timed():
    """TP 8 × PP 4 without the distributed optimizer needs 97.8 GB; it shows no step
    time or MFU, and the chart's table says it does not fit."""
    html = rendered(LAB, all_open(a2_tp=8, a2_pp=4))
    assert 'data-failure="a2_out_of_memory"' in html
    assert 'data-metric="a2_mfu"' not in html and 'data-metric="a2_step_s"' not in html
    assert "does not fit" in html and lab.results(all_open(a2_tp=8, a2_pp=4))["a2_mfu"] is None
    fits = rendered(LAB, all_open(a2_tp=8, a2_pp=16))
    assert 'data-metric="a2_mfu"' in fits and 'data-metric="a2_step_s"' in fits


def test_refused_runs_show_no_mfu():
    html = rendered(LAB, all_open(a1_zero="0"))
    assert 'data-metric="a1_mfu"' not in html and 'data-metric="a1_memory"' in html
    html = rendered(LAB, all_open(a1_gpus=1024))
    assert "cannot be split further" in html and 'data-metric="a1_mfu"' not in html
    html = rendered(LAB, all_open(a2_tp=1, a2_pp=1))   # DP 1,024 does not divide 1,536 sequences
    assert "Not a valid layout" in html and 'data-metric="a2_mfu"' not in html


# ---- context presets and the ledger record ----------------------------------------------


def test_warmup_context_shrinks_act1s_batch_and_asks_about_one_sequence_per_gpu():
    state = LAB.parse({"controls": {"context": "warmup"}}, changed="context")
    assert state["a1_batch"] == 131072 and state["a1_gpus"] == 128 and state["a2_batch"] == "1536"
    assert "Global batch 131,072 tokens" in worded(lab.ACT1_PREDICTION.prompt, LAB.terms("warmup"))
    assert "on 128 GPUs, one sequence each" in worded(lab.ACT1_PREDICTION.prompt, LAB.terms("warmup"))


def test_act2_keeps_megatrons_batch_because_no_layout_meets_the_limits_at_the_warm_up():
    """Why the context leaves Act II alone: at 384 sequences no layout on the sliders meets all three."""
    layouts = [model.Layout(2 ** i, 2 ** j, batch=model.WARMUP_BATCH) for i in range(7) for j in range(8)]
    assert not [x for x in layouts if not x.problem() and x.satisfies]
    warm = model.Layout(8, 16, batch=model.WARMUP_BATCH)
    assert warm.bubble == pytest.approx(15 / 48) and warm.limits()["a2_bubble"]


def test_record_holds_answers_results_and_failures():
    rec = record(LAB, all_open(a1_gpus=512, a2_pp=16))
    assert rec["complete"] is True
    assert all(a["correct"] for a in rec["answers"].values())
    assert rec["results"]["a1_mfu"] == pytest.approx(lab.act1_truth("full"))
    assert rec["results"]["a2_memory"] == pytest.approx(lab.MEGATRON.memory)
    assert rec["failures_active"] == ["a1_comm_bound"]


def test_memory_chart_holds_its_tallest_bar_and_labels_the_ceiling_line():
    """The 360 GB bar was cut at 220 GB; the dashed bubble ceiling had no label."""
    figure = _figure(lab.act2_chart(lab.Layout(8, 1)))
    tallest = max(a["y"] for a in figure["layout"]["annotations"] if a.get("yanchor") == "bottom" and "xref" not in a
                  and a.get("yref") != "y2")
    assert tallest == pytest.approx(lab.Layout(8, 1).memory / GB) and tallest > 300
    assert figure["layout"]["yaxis"]["range"][1] > tallest
    notes = [a["text"] for a in figure["layout"]["annotations"]]
    assert "bubble ceiling 10 %" in notes and "80 GB HBM" in notes
    assert all(len(a["text"]) <= 4 for a in figure["layout"]["annotations"] if "xref" not in a and a.get("yref") != "y2")


def test_takeaway_says_the_allreduce_grows_at_the_node_boundary():
    """The page's 'the all-reduce stays near 123 ms' while it grows 2.3× from 54.4 ms at 8 GPUs."""
    text = lab.lab_takeaways("full")[0]
    assert "54.4 ms on 8 GPUs" in text and "then stays near 123 ms" in text
    feedback = lab.ACT1_REFLECTION.option("C").feedback.format_map(lab.act1_facts("full"))
    assert "grows 2.27× in all" in feedback and "did not grow" not in feedback


def _figure(markup):
    import json
    import re
    return json.loads(re.search(r'class="pl-chart__spec">(.*?)</script>', markup, re.S).group(1).replace("<\\/", "</"))


def test_act2_text_reads_the_candidates_and_megatron_not_typed_layouts(monkeypatch):
    """The takeaways and facts follow CANDIDATES and MEGATRON: change a candidate and the sentences change."""
    assert "TP 8 × PP 4 × DP 32 also fits" in lab.lab_takeaways("full")[2]
    monkeypatch.setitem(lab.CANDIDATES, "C", model.Layout(32, 4))
    monkeypatch.setitem(lab.CANDIDATES, "B", model.Layout(8, 8))
    monkeypatch.setattr(lab, "MEGATRON", model.Layout(8, 32))
    facts = lab.act2_facts()
    assert facts["tp_across"] == lab.fmt(model.Layout(32, 4).layer_tp_s, "ms")
    assert facts["mfu_in"] == lab.fmt(model.Layout(8, 32).mfu, "pct1")
    takeaways = lab.lab_takeaways("full")
    assert "TP 8 × PP 8 × DP 16 also fits" in takeaways[2] and "TP 8 × PP 32 × DP 4" in takeaways[2]
    assert lab.fmt(model.Layout(8, 32, batch=model.WARMUP_BATCH).bubble, "pct") in takeaways[3]


def reload_lab():
    from pylabs.labs.vol2 import v2_05_charts as charts, v2_05_levers as levers
    for module in (model, network, charts, levers, lab):
        importlib.reload(module)


def test_act1_text_reads_the_scenario_and_the_registry(monkeypatch):
    """HBM in the failure titles and the DGX rails in the prompt, the fabric option and the chart follow the
    registry (the modules reloaded with other constants), and the GPU counts follow the Scenario."""
    assert lab.F["a2_out_of_memory"].title == "Out of memory: the layout does not fit in 80 GB"
    assert "What MFU will the 7B run reach on {target} GPUs" in lab.ACT1_PREDICTION.prompt
    html = rendered(LAB, answered(LAB, {}, through="a1_reflect", controls={"a1_fabric": "1hdr"}))
    assert '"name":"8 NDR rails per node"' in html and '<th scope="col">8 NDR rails</th>' in html
    refused = rendered(LAB, answered(LAB, {}, through="a1_reflect", controls={"a1_model": "70b", "a1_zero": "0"}))
    assert "No GPU count between 8 and 1,024 runs this model" in refused
    monkeypatch.setattr(C, "H100_HBM_BYTES", 96e9)
    monkeypatch.setattr(C, "DGX_H100_NICS", 16.0)
    reload_lab()
    try:
        assert lab.F["a1_out_of_memory"].title == "Out of memory: the model state does not fit in 96 GB"
        assert "ZeRO-1, 16 NDR rails per node" in lab.ACT1_PREDICTION.prompt
        state = answered(lab.LAB, {}, through="a1_reflect", controls={"a1_fabric": "1hdr"})
        assert lab.resolve_fabric(lab.LAB.default_state()) == (16, "ndr", "chosen")
        html = rendered(lab.LAB, state)
        assert "16 × NDR 400G per node (DGX rails, the scenario)" in html
        assert '"name":"16 NDR rails per node"' in html and '<th scope="col">16 NDR rails</th>' in html
    finally:
        monkeypatch.undo()
        reload_lab()


def test_the_all_reduce_grows_in_steps_past_the_node_not_once():
    """Review: the gradients first leave the node at 16 GPUs (89.4 ms), not at 64 (116 ms); the key no
    longer says the all-reduce 'takes about as long' (it grows 2.27× from 8 to 512 GPUs) but that it
    does not shrink with the compute."""
    ar = {n: model.scenario_run(n).allreduce_s for n in (8, 16, 64, 512)}
    assert ar[16] == pytest.approx(0.0894, abs=5e-4) and ar[8] < ar[16] < ar[64] < ar[512]
    key = lab.ACT1_REFLECTION.options[2]
    assert "does not shrink" in key.text and ar[512] > ar[8]
    feedback = worded(key.feedback, lab.act1_facts("full"))
    assert "once" not in feedback and "most of it by 64 GPUs (116 ms)" in feedback


def test_each_control_moved_from_the_question_state_changes_a_number():
    """Review (check_layout reported 'changed 0'): from the state the questions are asked in, the
    network's next option is another network, not the ledger's (which without a V2-02 entry is the
    scenario's), and the TP and PP sliders stop at 32, which divides the 96 heads and layers (at 64 and
    128 every Act II control changed nothing: 'Not a valid layout')."""
    assert [o.value for o in lab.A1_FABRIC.options][:2] == ["8ndr", "4ndr"]
    assert lab.A2_TP.max == lab.A2_PP.max == 32
    problems = {model.Layout(2 ** t, 2 ** p).problem() for t in range(6) for p in range(6)}
    assert not any("heads" in x or "stages" in x for x in problems)
    base = lab.results(all_open())
    for name, value in (("a1_fabric", "4ndr"), ("a1_overlap", True), ("a2_tp", 16), ("a2_pp", 16),
                        ("a2_distopt", True), ("a2_batch", "3072")):
        assert lab.results(all_open(**{name: value})) != base, name


def test_no_green_mfu_beside_a_broken_limit():
    """Review: TP 4 × PP 32 × DP 8 reaches 41.7 % MFU, 80 % of the compute phase's,
    but breaks the bubble ceiling: its MFU card is not green beside the red failure."""
    html = rendered(LAB, all_open(a2_tp=4, a2_pp=32))
    assert 'data-failure="a2_bubble"' in html
    assert 'pl-metric--good" data-metric="a2_mfu"' not in html
    assert 'pl-metric--good" data-metric="a2_mfu"' in rendered(LAB, all_open(a2_tp=8, a2_pp=16))


@pytest.mark.parametrize("context", ["full", "warmup"])
def test_extrapolating_the_stakeholders_two_numbers_misses_the_key(context):
    """Review (every question needs the physics): a straight line in log N through the two MFUs
    the stakeholder quotes lands in C in both contexts; the key B needs compute ∝ 1/N against an
    all-reduce that does not shrink. In the warm-up, 8 and 64 GPUs (50.0 %, 30.7 %) extrapolated to 24.3 %
    at 128 GPUs, inside B: it now quotes 8 and 16 GPUs."""
    import math
    a, b = model.quoted(context)
    target = model.act1_target(context)
    guess = b.mfu + (b.mfu - a.mfu) * math.log(target / b.gpus) / math.log(b.gpus / a.gpus)
    letters = [o.letter for o in lab.ACT1_PREDICTION.options if o.holds(guess)]
    assert letters != ["B"] and lab.ACT1_PREDICTION.answer(context) == "B", (guess, letters)
    story = lab.ACT1.stakeholder(context)
    assert f"{lab.fmt(a.mfu, 'pct1')} on {a.gpus} GPUs and {lab.fmt(b.mfu, 'pct1')} on {b.gpus}." in story


def test_act1_reflection_key_is_not_the_only_option_about_compute():
    """Review (class 18): the distractors all blamed communication (a growing all-reduce, more bytes,
    stragglers), so 'the odd one out' found the key. D now blames the compute (smaller, slower GEMMs), and
    its feedback shows the compute shrinking exactly with N at the model's fixed utilisation."""
    d = lab.ACT1_REFLECTION.options[3]
    assert "matrix multiplies" in d.text
    feedback = worded(d.feedback, lab.act1_facts("full"))
    assert "shrinks exactly 64× with 64× the GPUs" in feedback and "52.0 %" in feedback


def test_reflection_options_open_with_different_words():
    """Review: three of Act I's reflection options opened 'Each GPU …'; no two options share their first
    two words."""
    for q in (lab.ACT1_REFLECTION, lab.ACT2_REFLECTION):
        openings = [" ".join(o.text.split()[:2]) for o in q.options]
        assert len(set(openings)) == len(openings), openings


def test_bubble_failure_does_not_state_the_reflections_mechanism():
    """Review (classes 6 and 34): the bubble failure offered 'wider tensor parallelism, which leaves fewer
    replicas and more microbatches each', Act II's reflection key (deeper PP halves DP, doubling m) before
    its lock."""
    from pylabs.labs.vol2 import v2_05_levers as levers
    text = levers.bubble_levers(model.Layout(4, 32))
    assert "wider tensor parallelism" in text.lower() and "replicas" not in text and "microbatches" not in text
