"""V2-02 The Interconnect Wall: answer keys proven by the physics, feedback, gating, failures."""

from __future__ import annotations

import pytest

from pylabs.framework.render import record, render_lab
from pylabs.labs.vol2 import v2_02 as lab
from tests.labs.helpers import answered, assert_key_proven, rendered

LAB = lab.LAB


# ---- answer keys -------------------------------------------------------------------


def test_act1_answer_is_proven_by_the_physics():
    truth = lab.act1_truth()
    assert truth == pytest.approx(5.3226, rel=1e-4)  # AUDIT §1d: 87.6 % vs 16.5 %, 5.3×
    assert_key_proven(lab.ACT1_PREDICTION, "C")


def test_act1_efficiencies_match_the_audit():
    steps = {k: lab.single_node_step(13e9, 4096, k).efficiency for k in ("nvlink", "pcie5", "pcie4", "eth100")}
    assert steps == pytest.approx({"nvlink": 0.876, "pcie5": 0.498, "pcie4": 0.332, "eth100": 0.165}, abs=6e-4)


def test_model_size_cancels_in_the_act1_ratio():
    ratios = {p: lab.single_node_step(p, 4096, "eth100").ratio for p in lab.MODEL_SIZES.values()}
    assert max(ratios.values()) == pytest.approx(min(ratios.values()), rel=1e-12)


def test_act2_answer_is_proven_by_the_physics():
    assert lab.SCENARIO_CLUSTER.speedup(16) == pytest.approx(6.34, abs=0.005)  # AUDIT §1c weak scaling
    assert lab.act2_truth() == pytest.approx(13.44, abs=0.005)
    assert_key_proven(lab.ACT2_PREDICTION, "C")


def test_strong_scaling_matches_the_audit():
    strong = lab.Cluster(16, 8, lab.C.IB_NDR_BW, 3072, True)
    assert strong.speedup(16) == pytest.approx(10.04, abs=0.005)
    assert strong.speedup(64) == pytest.approx(18.33, abs=0.005)


def test_reflection_c_fact_is_computed_from_the_cluster():
    facts = lab.act2_facts()
    bigger = lab.Cluster(16, 1, lab.C.IB_NDR_BW, 4 * 3072, False).speedup(16)
    assert facts["bigger_speedup"] == lab.fmt(bigger, "x")
    assert bigger > lab.SCENARIO_CLUSTER.speedup(16)


# ---- feedback for every option ------------------------------------------------------


# ---- gating ------------------------------------------------------------------------


# ---- failure states -------------------------------------------------------------------


def all_open(**controls):
    return answered(LAB, {"a1_predict": "C", "a1_reflect": "B", "a2_predict": "C", "a2_reflect": "C"},
                    through="a2_reflect", controls=controls)


def test_act2_network_wall_is_reached_at_the_scenario_and_left_with_rails():
    assert "a2_network_wall" in LAB.failures_now(all_open())
    assert "a2_network_wall" not in LAB.failures_now(all_open(a2_nics="8"))


def test_act1_failures_reach_and_leave():
    assert "a1_comm_bound" in LAB.failures_now(all_open(a1_fabric="eth100"))
    assert "a1_comm_bound" not in LAB.failures_now(all_open(a1_fabric="nvlink"))
    assert "a1_out_of_memory" in LAB.failures_now(all_open(a1_model="70b"))
    assert "a1_out_of_memory" not in LAB.failures_now(all_open(a1_model="13b"))


def test_failure_callouts_render_only_while_active():
    assert 'data-failure="a2_network_wall"' in render_lab(LAB, all_open())
    assert 'data-failure="a2_network_wall"' not in render_lab(LAB, all_open(a2_nics="8"))


# ---- context presets and the ledger record ----------------------------------------------


def test_context_preset_moves_the_token_sliders():
    state = LAB.parse({"controls": {"context": "finetune", "a1_tokens": 8192}}, changed="context")
    assert state["a1_tokens"] == 1024 and state["a2_tokens"] == 1024
    state = LAB.parse({"controls": {"context": "finetune", "a1_tokens": 8192}}, changed="a1_tokens")
    assert state["a1_tokens"] == 8192


def test_record_holds_answers_results_and_failures():
    rec = record(LAB, all_open(a2_nics="1"))
    assert rec["complete"] is True
    assert rec["answers"]["a1_predict"]["correct"] is True
    assert rec["answers"]["a1_reflect"]["correct"] is True
    assert rec["results"]["a2_speedup"] == pytest.approx(lab.SCENARIO_CLUSTER.speedup(16))
    assert "a2_network_wall" in rec["failures_active"]


# ---- corrections found in review (issue 10, issue 8 items 8-9) ------------------------------


def test_reflection_a_states_what_one_xdr_nic_per_node_gives():
    """Double 50 GB/s is 100 GB/s (800 Gb/s XDR), not 800 GB/s; one XDR NIC per node gives 9.1×,
    less than more tokens per step (11.2×), so the key stays C."""
    facts = lab.act2_facts()
    assert facts["xdr_port"] == "100 GB/s" and facts["xdr_speedup"] == "9.08×"
    assert lab.XDR_CLUSTER.speedup(16) == pytest.approx(9.0777, rel=1e-4)
    assert lab.XDR_CLUSTER.speedup(16) < lab.Cluster(16, 1, lab.C.IB_NDR_BW, 4 * 3072, False).speedup(16)
    option = lab.ACT2_REFLECTION.option("A")
    assert "800 GB/s each" not in option.text and "no such port" not in option.feedback
    assert "50 GB/s to 100 GB/s" in option.text
    assert lab.ACT2_REFLECTION.answer() == "C"


def _control(html, name):
    start = html.index(f'data-control="{name}"')
    return html[html.rindex("<div", 0, start):html.index("</div>", start)]


def test_tokens_slider_is_disabled_with_the_reason_under_a_fixed_batch():
    """Issue 10: 3,072 tokens stayed on the slider while 512 were used."""
    strong = answered(LAB, {}, "a2_reflect", {"a2_strong": True, "a2_nodes": 64})
    html = _control(rendered(LAB, strong), "a2_tokens")
    assert " disabled" in html and "= 512 tokens" in html and "pl-control__help--reason" in html
    weak = _control(rendered(LAB, answered(LAB, {}, "a2_reflect", {"a2_nodes": 64})), "a2_tokens")
    assert " disabled" not in weak


def test_nic_counts_read_as_english_and_the_rails_sentence_does_not_repeat():
    one = rendered(LAB, answered(LAB, {}, "a2_reflect", {"a2_nics": "1"}))
    assert "1 NICs" not in one and "1 NIC/node" in one and "1 NIC per node" in one
    eight = rendered(LAB, answered(LAB, {}, "a2_reflect", {"a2_nics": "8"}))
    summary = eight[eight.index('data-chart="a2_scaling"'):]
    summary = summary[summary.index('class="pl-chart__summary"'):summary.index("</p>", summary.index('class="pl-chart__summary"'))]
    assert summary.count("rails") == 0 and summary.count("8 NICs per node") == 1


def test_every_bar_colour_has_a_legend_entry():
    import json
    import re
    html = str(lab.act1_chart(13e9, 4096, "eth100"))
    figure = json.loads(re.search(r'pl-chart__spec">(.*?)</script>', html, re.S).group(1).replace("<\\/", "</"))
    colours = [t["marker"]["color"] for t in figure["data"]]
    assert all(isinstance(c, str) for c in colours)  # one colour per trace, so the legend names each
    assert "All-reduce longer than compute" in [t["name"] for t in figure["data"]]
