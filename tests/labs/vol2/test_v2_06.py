"""V2-06 The Bandwidth Invariant: answer keys proven by the physics, feedback, gating, failures."""

from __future__ import annotations

import pytest

from pylabs.framework.render import record, render_lab
from pylabs.labs.vol2 import v2_06 as lab
from pylabs.labs.vol2 import v2_06_model as model
from tests.labs.helpers import answered, assert_key_proven, rendered

LAB = lab.LAB
NDR = lab.C.IB_NDR_BW


# ---- answer keys and the audit's golden vectors ------------------------------------


def test_act1_answer_is_the_ring_time_in_each_context():
    """The ring's time for 14 GB over NDR: handbook/labs/v2_06.md §2's 14 GB row at 128 GPUs (0.556006 s); at 1,024
    GPUs 2·1023·1.5 µs + 2·1023/1024·0.28 s = 0.562522 s (Thakur, Rabenseifner & Gropp 2005)."""
    assert model.act1_truth("cluster") == pytest.approx(0.556006, rel=1e-6)
    assert model.act1_truth("frontier") == pytest.approx(0.562522125, rel=1e-9)
    for context in ("cluster", "frontier"):
        assert_key_proven(lab.ACT1_PREDICTION, "C", context)
    assert model.act1_ratio("cluster") == pytest.approx(71.120381 / 0.556006, rel=1e-6)


def test_act1_ranges_separate_each_belief_from_the_key_in_every_context():
    """Every option's belief (1/N slices, one pass, whole-gradient hops) lands in its own range, never
    in the key's, at 128 and at 1,024 GPUs."""
    p = lab.ACT1_PREDICTION
    for context, n in model.GPUS.items():
        beliefs = {"A": 2 * 14e9 / (n * NDR), "B": 14e9 / NDR, "D": (n - 1) * 14e9 / NDR}
        for letter, value in beliefs.items():
            assert [o.letter for o in p.options if o.holds(value)] == [letter], (context, letter)


def test_naive_over_ring_is_exactly_n_without_latency_and_halves_when_pipelined():
    c = lab.collectives
    for p in (8, 128):
        serial = c.naive_master_allreduce_s(14e9, p, NDR) / c.ring_allreduce_s(14e9, p, NDR)
        piped = c.naive_master_allreduce_s(14e9, p, NDR, pipelined=True) / c.ring_allreduce_s(14e9, p, NDR)
        assert serial == pytest.approx(p, rel=1e-12)
        assert piped == pytest.approx(p / 2, rel=1e-12)
    assert model.PIPELINED == pytest.approx(63.956, abs=1e-3)


def test_act1_stakeholder_times_match_the_audit():
    assert model.naive_s(14e9, 128, NDR) == pytest.approx(71.120381, rel=1e-9)
    assert model.ring_s(14e9, 128, NDR) == pytest.approx(0.556006, rel=1e-9)
    assert model.naive_s(14e9, 8, NDR) == pytest.approx(3.920021, rel=1e-9)


def test_busbw_stays_at_the_link_while_algbw_falls_to_half():
    c = lab.collectives
    for p in (2, 128, 1024):
        t = c.ring_allreduce_s(350e9, p, NDR)
        assert c.busbw(350e9, t, p) == pytest.approx(NDR, rel=1e-12)
        assert c.algbw(350e9, t) == pytest.approx(NDR * p / (2 * (p - 1)), rel=1e-12)


def test_act2_answer_is_the_ring_s_extra_time_over_halving_doubling():
    """350 GB at 128 GPUs: handbook/labs/v2_06.md §2 gives ring 13.891006 s and Rabenseifner 13.890646 s, a 0.0026 %
    gap; at 1,024 GPUs (2,046 − 20)·1.5 µs over 13.99 s is 0.0217 %. Under 1 % in both: A."""
    assert model.act2_truth("cluster") == pytest.approx(13.891006 / 13.890646 - 1, rel=1e-3)
    assert model.act2_truth("frontier") == pytest.approx(2026 * 1.5e-6 / (20 * 1.5e-6 + 2 * 1023 / 1024 * 7), rel=1e-9)
    for context in ("cluster", "frontier"):
        assert_key_proven(lab.ACT2_PREDICTION, "A", context)


def test_act2_feedback_sizes_where_the_gap_reaches_one_and_ten_percent():
    x = model.act2_sync("cluster")
    for share in (0.01, 0.1):
        m = x.size_for_ring_over_hd(share)
        assert model.Sync(m).ring_over_hd == pytest.approx(share, rel=1e-9)
    assert lab.act2_facts("cluster")["one_pct"] == "907 MB"


def test_a2_ring_over_hd_card_is_the_key_s_value_in_each_context():
    for context in ("cluster", "frontier"):
        state = LAB.parse({"controls": {"context": context}}, changed="context")
        assert lab.sync(state).ring_over_hd == pytest.approx(model.act2_truth(context), rel=1e-12)


def test_crossover_depends_on_n():
    assert model.crossover(8) == pytest.approx(141_176, abs=1)
    assert model.crossover(1024) == pytest.approx(8_440_750, abs=1)


def test_algorithm_times_match_the_audit_golden_vectors():
    golden = {350e9: (13.891006, 13.890646, 49.0000105, 98.000021),
              14e9: (0.556006, 0.555646, 1.9600105, 3.920021),
              1e6: (420.6875e-6, 60.6875e-6, 150.5e-6, 301e-6)}
    for size, expected in golden.items():
        x = model.Sync(size)
        assert tuple(x.time(k) for k in ("ring", "rab", "rd", "tree")) == pytest.approx(expected, rel=1e-6)


def test_ring_ties_halving_doubling_for_large_messages_and_loses_at_1_mb():
    big, small = model.Sync(350e9), model.Sync(1e6)
    assert big.time("ring") / big.time("rab") - 1 < 4e-5
    assert small.fastest() == "rab"
    assert small.time("ring") / small.time("rab") == pytest.approx(6.932, abs=1e-3)


def test_workloads_set_the_message_sizes():
    state = LAB.parse({"controls": {"a2_workload": "175b"}})
    assert lab.sync(state).message == 350e9
    assert lab.sync(LAB.parse({"controls": {"a2_workload": "7b"}})).message == 14e9
    assert lab.sync(LAB.parse({"controls": {"a2_workload": "small"}})).message == 1e6


def test_compute_comes_from_six_n_d_at_dense_peak():
    x = model.Sync(350e9)
    assert x.compute_s == pytest.approx(6 * 175e9 * 8192 / (989.4e12 * 0.45), rel=1e-12)


# ---- feedback for every option ------------------------------------------------------


def test_reflection_facts_are_computed():
    facts = lab.act2_facts("cluster")
    assert facts["x_mid"] == lab.fmt(model.crossover(128), "B") == "1.5 MB"
    assert facts["small_rab"] == "60.7 µs"
    assert lab.act2_facts("frontier")["small_ring"] == lab.fmt(model.Sync(1e6, 1024).time("ring"), "s") == "3.11 ms"
    assert lab.act1_facts("cluster")["a1_master_bytes"] == lab.fmt(2 * 127 * 14e9, "B")


@pytest.mark.parametrize("context,gpus", [("cluster", "128"), ("frontier", "1,024")])
def test_act1_reflection_feedback_quotes_the_context_s_cards(context, gpus):
    html = rendered(LAB, answered(LAB, {"a1_reflect": "A"}, through="a1_reflect", controls={"context": context}))
    feedback = html.split('data-feedback="a1_reflect"')[1].split("</div>")[0]
    latency = model.ring_s(0.0, model.GPUS[context], NDR)
    assert f"{lab.fmt(latency, 's')} of the {lab.fmt(model.act1_truth(context), 's')} at {gpus} GPUs" in feedback


def test_reflection_claims_hold_in_the_model():
    """A1: latency is a sliver of the ring's time and busbw is the whole link; A2: the GPU-count rule
    is backwards for 1 MB (ring over tree at 8 GPUs, tree over ring at 1,024)."""
    for n in (128, 1024):
        t = model.ring_s(14e9, n, NDR)
        assert model.ring_s(0.0, n, NDR) / t < 0.01
        assert lab.collectives.busbw(14e9, t, n) == pytest.approx(NDR, rel=0.01)
    assert model.Sync(1e6, 8).time("ring") < model.Sync(1e6, 8).time("tree")
    assert model.Sync(1e6, 1024).time("tree") < model.Sync(1e6, 1024).time("ring")


def test_link_rates_model_sizes_and_fp32_bytes_come_from_the_registry():
    """Line rates are the registry's bytes/s in bits; model sizes are computed."""
    assert lab.line_rate(NDR) == "400 Gb/s" and lab.line_rate(lab.C.IB_HDR_BW) == "200 Gb/s"
    assert lab.line_rate(2 * NDR) == "800 Gb/s"
    for key in ("ndr", "hdr"):
        label, bw = lab.LINKS[key]
        assert label.endswith(lab.line_rate(bw))
    assert f"same {lab.line_rate(NDR)} ports" in lab.ACT1_PREDICTION.prompt
    assert [label for label, _ in lab.WORKLOADS.values()][:2] == ["175B model gradient", "7B model gradient"]
    assert lab.params(13e9) == "13B"


# ---- failure states -------------------------------------------------------------------


def all_open(**controls):
    return answered(LAB, {}, through="a2_reflect", controls=controls)


def test_default_scenario_is_healthy():
    assert LAB.failures_now(all_open()) == frozenset()
    assert lab.sync(all_open()).ring_over_hd == pytest.approx(model.act2_truth("cluster"))
    assert lab.sync(all_open()).share == pytest.approx(13.891006 / (13.891006 + 19.319453), rel=1e-6)


def test_slow_link_or_a_tree_reaches_the_failure_for_large_messages():
    assert "a2_comm_bound" in LAB.failures_now(all_open(a2_link="hdr"))
    assert "a2_comm_bound" in LAB.failures_now(all_open(a2_algorithm="tree"))
    assert "a2_comm_bound" not in LAB.failures_now(all_open(a2_link="nvlink"))


def failure_text(**controls):
    html = render_lab(LAB, all_open(**controls))
    return html.split('data-failure="a2_comm_bound"')[1].split("</div>")[0]


def test_failure_offers_only_the_levers_not_at_their_limit():
    """Class 3 and 21: the failure names the algorithm switch only when another is faster and clears it,
    the tokens that clear it when the slider reaches them, and the slowest faster link that clears it."""
    text = failure_text(a2_workload="small")
    assert "Give each GPU at least 62,434 tokens per step: that alone clears it." in text
    assert "Switching to halving + doubling cuts the all-reduce to 60.7 µs, not enough alone." in text
    assert "move to" not in text.lower() and "latency steps that no faster link removes" in text
    text = failure_text(a2_link="hdr")
    assert "Give each GPU at least 11,780 tokens per step or move to InfiniBand NDR: any one alone" in text
    assert "witch to" not in text
    text = failure_text(a2_custom=lab.A2_CUSTOM.min, a2_workload="custom", a2_algorithm="rd", a2_tokens=lab.A2_TOKENS.max,
                        a2_link="nvlink")
    assert "already at their best: this message is too small" in text


def test_review_failure_levers_each_clear_it_alone_and_none_is_withheld():
    """Review, each lever moved alone to its end in every failing state of a
    grid: 1 MB on 16 GPUs over NDR at 8,192 tokens (ring 82.5 µs, compute 55.2 µs) was told 'no faster
    link' though NVLink alone clears it, and 8 KB on 4 GPUs over HDR at 65,536 tokens was told 'every
    lever here is at its limit' though NVLink clears it. A lever the text names clears the failure on its
    own; a lever that would is named; 'together' and 'at their best' are true, over every algorithm on
    the fastest link (where recursive doubling can overtake halving + doubling)."""
    nvlink, top = lab.LINKS["nvlink"][1], lab.A2_TOKENS.max
    messages = [model.grad_bytes(p) for _, p in lab.WORKLOADS.values()] + lab.CUSTOM_SIZES[::3]
    checked = 0
    for m in messages:
        for g in (4, 16, 128, 1024):
            for link, (_, bw) in lab.LINKS.items():
                for alg in lab.ALGORITHMS:
                    for t in (1024.0, 8192.0, 65536.0):
                        x = model.Sync(m, g, bw, alg, t)
                        if x.share <= 0.5:
                            continue
                        text = lab.comm_bound_text({"a2_tokens": t, "a2_link": link}, x, x.fastest()).lower()
                        f = x.fastest()
                        alone = {"switch to": model.Sync(m, g, bw, f, t), "at least": model.Sync(m, g, bw, alg, top),
                                 "move to": model.Sync(m, g, nvlink, alg, t)}
                        tie = x.time() <= x.time(f) * (1 + model.S.tie)
                        for words, y in alone.items():
                            if words in text:
                                assert y.share <= 0.5, (m, g, link, alg, t, text)
                            elif not (words == "switch to" and tie):
                                assert y.share > 0.5, (m, g, link, alg, t, text)
                        best = min(model.Sync(m, g, nvlink, a, top).share for a in lab.ALGORITHMS) <= 0.5
                        assert ("together do" in text) <= best and ("communication-bound:" in text) <= (not best)
                        checked += 1
    assert checked > 1000


# ---- context presets, the custom slider and the ledger record ------------------------------


def test_context_preset_moves_both_gpu_sliders():
    state = LAB.parse({"controls": {"context": "frontier"}}, changed="context")
    assert state["a1_gpus"] == 1024 and state["a2_gpus"] == 1024
    state = LAB.parse({"controls": {"context": "frontier", "a1_gpus": 64}}, changed="a1_gpus")
    assert state["a1_gpus"] == 64


def test_moving_the_custom_slider_selects_the_custom_workload():
    state = LAB.parse({"controls": {"a2_workload": "175b", "a2_custom": 1024}}, changed="a2_custom")
    assert state["a2_workload"] == "custom"
    assert lab.sync(state).message == 1024
    state = LAB.parse({"controls": {"a2_workload": "7b", "a2_custom": 1024}}, changed="a2_workload")
    assert lab.sync(state).message == 14e9


def test_custom_slider_reaches_the_latency_regime():
    assert lab.A2_CUSTOM.min <= 1024
    tiny = model.Sync(lab.A2_CUSTOM.min)
    assert tiny.fastest() == "rd"


def test_record_holds_answers_results_and_failures():
    rec = record(LAB, all_open(a2_workload="small"))
    assert rec["complete"] is True
    assert all(a["correct"] for a in rec["answers"].values())
    assert rec["results"]["a1_ratio"] == pytest.approx(model.act1_ratio("cluster"))
    assert rec["results"]["a2_crossover"] == pytest.approx(model.crossover(128))
    assert "a2_comm_bound" in rec["failures_active"]


def test_legends_sit_above_the_plot_clear_of_the_axis_titles():
    """At 375 px the legends below the plot covered the x-axis titles of all three charts."""
    import json
    import re
    html = rendered(LAB, answered(LAB, {}, through="a2_reflect"))
    specs = re.findall(r'class="pl-chart__spec">(.*?)</script>', html, re.S)
    assert len(specs) == 3
    for spec in specs:
        layout = json.loads(spec.replace("<\\/", "</"))["layout"]
        assert layout["legend"]["y"] >= 1 and layout["legend"]["yanchor"] == "bottom"
        assert all(a.get("yanchor") != "bottom" or a.get("y") != 1 for a in layout.get("annotations", []))
        assert layout["xaxis"].get("tickangle") == 0 or layout["xaxis"]["type"] != "log" or len(layout["xaxis"]["tickvals"]) <= 5


def test_review_story_and_callout_state_what_their_numbers_are():
    """Review (classes 5 and 37): the researcher's naive-master times are the α–β model's at full line
    rate, not a measurement, so the story says so; the measured 370 GB/s busbw (Austin et al., How to
    Scale Your Model, GPUs chapter: 8 × H100, SHARP off) is reached only near 10 GB per device."""
    story = lab.ACT1.stakeholder("cluster")
    assert "at full rate" in story and "took" not in story
    html = rendered(LAB, answered(LAB, {}, through="a1_predict"))
    assert "with in-switch reduction off" in html and "only for messages of about 10 GB" in html


def test_review_act2_reflection_asks_about_the_ring_whose_crossovers_grow_with_n():
    """Review: asked about 'picking the algorithm', key B's 'crossover that grows with the GPU count'
    was false for the boundary the selector's chart names (recursive doubling against halving +
    doubling: 180 KB at 8 GPUs, 105 KB at 128, 94 KB at 1,024). Whether to run the ring is decided by
    crossovers that do grow with N: against the tree and against recursive doubling."""
    assert "should run the ring" in lab.ACT2_REFLECTION.prompt
    c = lab.collectives
    for vs in (c.ring_binomial_crossover_bytes, c.ring_rd_crossover_bytes):
        sizes = [vs(n, model.ALPHA, NDR) for n in (8, 128, 1024)]
        assert sizes == sorted(sizes) and sizes[0] < sizes[-1]
    rd_hd = [c.rabenseifner_rd_crossover_bytes(n, model.ALPHA, NDR) for n in (8, 128, 1024)]
    assert rd_hd == sorted(rd_hd, reverse=True)


def test_review_equations_panel_does_not_gloss_the_act1_reflection_key():
    """Review (class 6): 'busbw equals B when the ring reaches its bound' beside busbw = algbw·2(N−1)/N
    spelt out why algbw reads half the link (key D) before the reflection's lock; the compute card
    names its 45 % utilisation as an assumption (class 8)."""
    html = rendered(LAB, answered(LAB, {}, through="a2_predict"))
    assert "busbw equals B" not in html
    assert "of peak [assumed]" in html


def test_review_a_sliced_175b_job_keeps_the_step_share():
    """Review (class 33): one GPU cannot hold a 175B replica, so the scenario says a real job slices it
    (tensor and pipeline parallelism). A slice of 1/k scales both the gradient and the compute by 1/k,
    so the all-reduce's share of the step stays (latency steps aside), as the scenario now says."""
    whole = model.Sync(350e9)
    for k in (8, 64):
        assert model.Sync(350e9 / k).share == pytest.approx(whole.share, rel=2e-3)
    assert "the share of the step stays" in " ".join(lab.ACT2.scenario())
