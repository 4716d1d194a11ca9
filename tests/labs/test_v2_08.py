"""V2-08 The Utilization Trap: golden vectors (VOL2_03-17 §V2-08 §4), answer keys proven by the
physics, feedback for every option, failure states reached and left, presets, the ledger record."""

from __future__ import annotations

import dataclasses
import math
import re

import pytest

from pylabs.framework.render import record, render_lab
from pylabs.labs.vol2 import v2_08 as lab
from pylabs.labs.vol2 import v2_08_model as model
from pylabs.physics import queueing as q
from tests.labs.helpers import answered, assert_key_proven, rendered

LAB = lab.LAB
H = 3600.0


def all_open(**controls):
    return answered(LAB, {}, through="a2_reflect", controls=controls)


# ---- §4 golden vectors through the lab's own models -------------------------------------


def test_section4_act1_scenario_wait():
    assert model.SCENARIO.slots == 16 and model.SCENARIO.rho == pytest.approx(0.95, rel=1e-12)
    assert model.SCENARIO.p_wait == pytest.approx(0.7802, abs=5e-5)
    assert model.SCENARIO.mean_wait_s() / H == pytest.approx(3.1695, abs=5e-5)


def test_section4_added_gpus_wait():
    more = model.MORE_GPUS
    assert more.slots == 20 and more.rho == pytest.approx(0.76, rel=1e-12)
    assert more.mean_wait_s() / H == pytest.approx(0.1199, abs=5e-5)


def test_section4_small_jobs_context_c128():
    state = LAB.parse({"controls": {"context": "small"}}, changed="context")
    c = lab.cluster(state)
    assert c.slots == 128 and c.mean_wait_s() / H == pytest.approx(0.0715, abs=5e-5)


def test_section4_one_server_model_overstates_by_hundreds():
    """Spec §2 error 1: M/M/1 at 95 % with 1 h jobs gives 19 h; Erlang C with c = 128 gives 0.07 h."""
    state = LAB.parse({"controls": {"context": "small"}}, changed="context")
    c = lab.cluster(state)
    assert q.mm1_mean_wait_s(0.95 / H, H) / H == pytest.approx(19.0, rel=1e-12)
    assert model.one_server_wait_s(c) / c.mean_wait_s() > 260


def test_section4_knee():
    assert model.knee() == pytest.approx(0.8378, abs=5e-5)


def test_section4_pools():
    a, c = model.LAYOUTS["A"], model.LAYOUTS["C"]
    assert a.interactive.slots == 4 and a.interactive_late() == pytest.approx(0.2491, abs=5e-5)
    assert c.interactive.slots == 8 and c.interactive_late() == pytest.approx(0.0018, abs=5e-5)
    assert c.training.slots == 3 and c.training.rho == pytest.approx(0.75, rel=1e-12)
    assert c.training.mean_wait_s() / H == pytest.approx(13.63, abs=5e-3)
    assert c.training_late() == pytest.approx(0.0768, abs=5e-5)
    assert model.Layout(64, 128, 768).search.mean_wait_s() / H == pytest.approx(0.0878, abs=5e-5)


def test_section3_gpu_utilisation_is_62_percent():
    assert model.gpu_utilization() == pytest.approx(15304 / 24576, rel=1e-12)


# ---- answer keys ------------------------------------------------------------------------


def test_act1_key_is_proven_by_the_physics():
    assert model.act1_truth() == pytest.approx(3.1695 / 0.1199, rel=1e-3)
    assert_key_proven(lab.ACT1_PREDICTION, "C")


def test_act2_pick_is_proven_by_the_physics():
    verdicts = {k: lay.meets_limits() for k, lay in model.LAYOUTS.items()}
    assert verdicts == {"A": False, "B": False, "C": True, "D": True}
    assert model.LAYOUTS["C"].search_gpus > model.LAYOUTS["D"].search_gpus
    assert lab.ACT2_PICK.answer() == "C"


def test_each_wrong_layout_fails_for_its_own_reason():
    a, b = model.LAYOUTS["A"], model.LAYOUTS["B"]
    assert a.interactive_late() > 0.05 and a.training_late() <= 0.2
    assert not b.training.stable and b.training_late() == 1.0 and b.interactive_late() <= 0.05


def test_smallest_passing_notebook_pool_is_48_gpus():
    facts = lab.act2_facts()
    assert facts["smallest_pool"] == "48"
    assert model.Layout(48, 208, 768).meets_limits() and not model.Layout(40, 216, 768).meets_limits()


# ---- feedback for every option ---------------------------------------------------------------


@pytest.mark.parametrize("qid", ["a1_predict", "a1_reflect", "a2_pick", "a2_reflect"])
@pytest.mark.parametrize("letter", "ABCD")
def test_every_option_has_feedback_with_numbers(qid, letter):
    html = rendered(LAB, answered(LAB, {qid: letter}, through=qid))
    feedback = html.split(f'data-feedback="{qid}"')[1].split("</div>")[0]
    assert "{" not in feedback and any(ch.isdigit() for ch in feedback)


def test_wrong_act1_prediction_says_by_how_much():
    html = rendered(LAB, answered(LAB, {"a1_predict": "A"}, through="a1_predict"))
    assert "26.4×" in html and "above the top of your range" in html


def test_act2_pick_feedback_quotes_each_layouts_numbers():
    html = rendered(LAB, answered(LAB, {"a2_pick": "A"}, through="a2_pick"))
    feedback = html.split('data-feedback="a2_pick"')[1].split("</div>")[0]
    assert "24.9 %" in feedback and "The physics picks C" in feedback


def test_gang_and_notebook_sizes_in_the_text_follow_the_scenario(monkeypatch):
    """The takeaway's slot size and the math peek's node count read the Scenario's job classes."""
    state = all_open()
    assert "few 256-GPU slots" in " ".join(lab.lab_takeaways())
    assert "the 8-GPU notebook job is one node" in str(lab.act2_math(state))
    patched = dataclasses.replace(model.S, training=(128,) + model.S.training[1:],
                                  interactive=(16,) + model.S.interactive[1:])
    monkeypatch.setattr(lab, "S", patched)
    assert "few 128-GPU slots" in " ".join(lab.lab_takeaways())
    assert "the 16-GPU notebook job is 2 nodes" in str(lab.act2_math(state))


# ---- nothing given away before its question is locked ---------------------------------------


def test_default_page_gives_no_answer_away():
    """The Act I truth, its after-wait, the knee and the Act II pool numbers stay hidden until locked."""
    html = rendered(LAB, LAB.default_state())
    facts = lab.act1_facts()
    for secret in (lab.fmt(model.act1_truth(), "x"), facts["wait_more"], facts["knee"], "75 %", "31.2 %"):
        assert secret not in html, secret


def test_act2_prediction_options_state_no_computed_tail():
    html = rendered(LAB, answered(LAB, {}, through="a1_reflect"))
    question = html.split('data-question="a2_pick"')[1].split("</section>")[0]
    assert "24.9" not in question and "7.7" not in question


# ---- failure states --------------------------------------------------------------------------


def test_act1_wait_exceeds_job_is_reached_at_the_scenario_and_left_with_more_gpus():
    assert "a1_wait_exceeds_job" in LAB.failures_now(all_open())
    assert "a1_wait_exceeds_job" not in LAB.failures_now(all_open(a1_added_gpus=256))
    assert "a1_wait_exceeds_job" not in LAB.failures_now(all_open(a1_utilization=0.8))


def test_act2_notebook_sla_reached_and_left():
    assert "a2_interactive_sla" in LAB.failures_now(all_open(a2_interactive_gpus=32))
    assert "a2_interactive_sla" not in LAB.failures_now(all_open(a2_interactive_gpus=64))


def test_act2_training_tail_reached_and_left():
    assert "a2_training_tail" in LAB.failures_now(all_open(a2_training_gpus=512))
    assert "a2_training_tail" not in LAB.failures_now(all_open(a2_training_gpus=768))


def test_act2_search_overload_reached_and_left():
    assert "a2_search_overloaded" in LAB.failures_now(all_open(a2_interactive_gpus=256, a2_training_gpus=768))
    assert "a2_search_overloaded" not in LAB.failures_now(all_open(a2_interactive_gpus=64, a2_training_gpus=768))


def test_training_tail_is_a_warning_and_the_others_danger():
    html = rendered(LAB, all_open(a2_training_gpus=512, a2_interactive_gpus=32))
    tail = html.split('data-failure="a2_training_tail"')[0].rsplit("<div", 1)[1]
    sla = html.split('data-failure="a2_interactive_sla"')[0].rsplit("<div", 1)[1]
    assert "pl-callout--warn" in tail and "pl-callout--danger" in sla


def test_failure_callouts_render_only_while_active():
    assert 'data-failure="a2_interactive_sla"' in str(render_lab(LAB, all_open(a2_interactive_gpus=32)))
    assert 'data-failure="a2_interactive_sla"' not in str(render_lab(LAB, all_open(a2_interactive_gpus=64)))


# ---- edges: every instrument at its extremes ------------------------------------------------


EXTREMES = [
    {"a1_utilization": 0.99, "a1_added_gpus": 0, "a1_job_gpus": 256, "a1_service_s": 86400, "a1_service_scv": 4},
    {"a1_utilization": 0.5, "a1_added_gpus": 1024, "a1_job_gpus": 8, "a1_service_s": 1800, "a1_service_scv": 0},
    {"a1_utilization": 0.99, "a1_added_gpus": 64, "a1_job_gpus": 128, "a1_service_s": 1800, "a1_service_scv": 0},
    {"a2_interactive_gpus": 8, "a2_training_gpus": 256},
    {"a2_interactive_gpus": 256, "a2_training_gpus": 768},
    {"a2_interactive_gpus": 8, "a2_training_gpus": 768},
]


@pytest.mark.parametrize("controls", EXTREMES)
def test_extremes_show_finite_non_negative_numbers(controls):
    html = rendered(LAB, all_open(**controls))
    values = [float(v) for v in html.split('data-value="')[1:] for v in [v.split('"')[0]]]
    assert values and all(math.isfinite(v) and v >= 0 for v in values)
    assert "∞" not in html and not re.search(r"\bnan\b", html, re.IGNORECASE)
    assert all(0 <= r <= 1 for k, r in LAB.results(all_open(**controls)).items() if k.startswith("rho_"))


def test_act1_utilisation_stays_below_one_for_every_setting():
    for job in (8, 16, 32, 64, 128, 256):
        for added in range(0, 1025, 64):
            c = model.act1_pool(job, 7200, 0.99, added, 2.25)
            assert c.rho < 1 and math.isfinite(c.mean_wait_s())


# ---- context presets and the ledger record ------------------------------------------------------


def test_context_preset_moves_act1_instruments():
    state = LAB.parse({"controls": {"context": "small"}}, changed="context")
    assert (state["a1_job_gpus"], state["a1_service_s"], state["a1_service_scv"]) == (8, 3600, 1.0)
    state = LAB.parse({"controls": {"context": "small", "a1_job_gpus": 32}}, changed="a1_job_gpus")
    assert state["a1_job_gpus"] == 32


def test_record_holds_the_spec_ledger_fields():
    """Spec §3 ledger: context, pool_sizes, rho_by_pool, interactive_p_wait_gt_5min, train_p_wait_gt_48h,
    gpu_util, act1_prediction, act1_correct, act2_decision, constraint_hit."""
    rec = record(LAB, answered(LAB, {"a1_predict": "A", "a2_pick": "C"}, through="a2_reflect",
                               controls={"a2_interactive_gpus": 32}))
    assert rec["context"] == "gangs"
    assert rec["controls"]["a2_interactive_gpus"] == 32 and rec["controls"]["a2_training_gpus"] == 768
    results = rec["results"]
    assert (results["pool_gpus_interactive"], results["pool_gpus_search"], results["pool_gpus_training"]) == (
        32, 224, 768)
    assert results["rho_training"] == pytest.approx(0.75)
    assert results["interactive_p_wait_gt_5min"] == pytest.approx(0.2491, abs=5e-5)
    assert results["train_p_wait_gt_48h"] == pytest.approx(0.0768, abs=5e-5)
    assert results["gpu_util"] == pytest.approx(model.gpu_utilization())
    assert rec["answers"]["a1_predict"] == {"choice": "A", "locked_at": rec["answers"]["a1_predict"]["locked_at"],
                                            "correct": False}
    assert rec["answers"]["a2_pick"]["choice"] == "C" and rec["answers"]["a2_pick"]["correct"] is True
    assert "a2_interactive_sla" in rec["failures_active"]
