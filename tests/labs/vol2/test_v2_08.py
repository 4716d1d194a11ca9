"""V2-08 The Utilization Trap: golden vectors (handbook/labs/v2_08.md §4), answer keys proven by the
physics, feedback for every option, failure states reached and left, presets, the ledger record."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import pytest

from pylabs.framework.render import record
from pylabs.labs.vol2 import v2_08 as lab
from pylabs.labs.vol2 import v2_08_model as model
from pylabs.physics import queueing as q
from tests.labs.helpers import answered, assert_key_proven, rendered

LAB = lab.LAB
H = 3600.0


def all_open(**controls):
    return answered(LAB, {}, through="a2_reflect", controls=controls)


def locked_in(context: str, choices: dict, through: str):
    """Questions up to ``through`` locked (the key unless ``choices`` says), in ``context`` with its presets."""
    answers = {}
    for question in LAB.questions:
        answers[question.id] = {"choice": choices.get(question.id, question.answer(context)),
                                "locked_at": "2026-01-01T00:00:00Z"}
        if question.id == through:
            break
    return LAB.parse({"answers": answers, "controls": {"context": context}}, changed="context")


# ---- handbook/labs/v2_08.md §4 golden vectors through the lab's own models -------------------------------------


def test_section4_act1_scenario_wait():
    assert model.SCENARIO.slots == 16 and model.SCENARIO.rho == pytest.approx(0.95, rel=1e-12)
    assert model.SCENARIO.p_wait == pytest.approx(0.7802, abs=5e-5)
    assert model.SCENARIO.mean_wait_s() / H == pytest.approx(3.1695, abs=5e-5)


def test_section4_added_gpus_wait():
    more = model.MORE_GPUS
    assert more.slots == 20 and more.rho == pytest.approx(0.76, rel=1e-12)
    assert more.mean_wait_s() / H == pytest.approx(0.1199, abs=5e-5)


def test_section4_small_jobs_context_c128():
    state = LAB.parse({"controls": {"context": "small", "a1_added_gpus": 0}}, changed="context")
    c = lab.cluster(state)
    assert c.slots == 128 and c.mean_wait_s() / H == pytest.approx(0.0715, abs=5e-5)
    assert model.today("small").mean_wait_s() == c.mean_wait_s()


def erlang_c_direct(c: int, a: float) -> float:
    """Erlang C from its textbook sum (Allen 1978, p. 276; Kleinrock 1975, ch. 3), in exact fractions:
    an independent check of the lab's Erlang B recursion."""
    a = Fraction(a).limit_denominator(10**9)
    terms = [a**n / math.factorial(n) for n in range(c)]
    top = a**c / math.factorial(c) * c / (c - a)
    return float(top / (sum(terms) + top))


def wait_direct_s(c: int, rho: float, service_s: float, scv: float) -> float:
    """W_q = P_W·S/(c(1−ρ))·(1 + Cₛ²)/2 (Allen–Cunneen with Poisson arrivals)."""
    return erlang_c_direct(c, c * rho) * service_s / (c * (1 - rho)) * (1 + scv) / 2


def test_section4_one_slot_model_overstates_by_hundreds():
    """handbook/labs/v2_08.md §2: M/M/1 at 95 % with 1 h jobs gives 19 h; Erlang C with c = 128 gives 0.07 h."""
    state = LAB.parse({"controls": {"context": "small"}}, changed="context")
    c = lab.cluster(state)
    assert q.mm1_mean_wait_s(0.95 / H, H) / H == pytest.approx(19.0, rel=1e-12)
    assert model.one_slot_wait_s(model.today("small")) / model.today("small").mean_wait_s() > 260
    assert c.units == 1280  # the scenario opens at Finance's offer


def test_independent_erlang_c_agrees_with_the_lab():
    for context, (_, s_len, scv) in model.JOBS.items():
        for pool in (model.today(context), model.with_added(context)):
            assert pool.mean_wait_s() == pytest.approx(wait_direct_s(pool.slots, pool.rho, s_len, scv), rel=1e-9)


def test_section4_knee():
    """handbook/labs/v2_08.md §4: 0.8378 for the gangs' half-hour promise. Small jobs get a one-minute promise
    (review): with
    c = 128, S = 1 h, Cₛ² = 1 the mean wait reaches 1 min at ρ = 0.9072 (independent check below)."""
    assert model.knee() == pytest.approx(0.8378, abs=5e-5)
    assert model.knee("small") == pytest.approx(0.9072, abs=5e-5)
    assert wait_direct_s(128, 0.9071, H, 1.0) < 60 < wait_direct_s(128, 0.9073, H, 1.0)


def test_section4_pools():
    a, c = model.LAYOUTS["A"], model.Layout(64, 192, 768)
    assert a.interactive.slots == 4 and a.interactive_late() == pytest.approx(0.2491, abs=5e-5)
    assert c.interactive.slots == 8 and c.interactive_late() == pytest.approx(0.0018, abs=5e-5)
    assert c.training.slots == 3 and c.training.rho == pytest.approx(0.75, rel=1e-12)
    assert c.training.mean_wait_s() / H == pytest.approx(13.63, abs=5e-3)
    assert c.training_late() == pytest.approx(0.0768, abs=5e-5)
    assert model.Layout(64, 128, 768).search.mean_wait_s() / H == pytest.approx(0.0878, abs=5e-5)


def test_section3_gpu_utilisation_is_62_percent():
    assert model.gpu_utilization() == pytest.approx(15304 / 24576, rel=1e-12)


# ---- corrections from public sources ---------------------------------------------------------------------------


def test_small_jobs_wait_share_is_not_floored():
    """With small jobs and +256 GPUs the page said "Wait cut 258×" beside 4.29 min → 49.8 ms,
    because the wait was floored at 1 s. The true ratio is 5,168× (Erlang C, c = 128 → 160 at ρ 95 % → 76 %):
    the card now shows the share 1/5,168 = 0.0193 %, unfloored."""
    state = LAB.parse({"controls": {"context": "small"}}, changed="context")
    html = rendered(LAB, locked_in("small", {}, "a1_predict"))
    share = float(html.split('data-metric="a1_wait_share" data-value="')[1].split('"')[0])
    before, after = wait_direct_s(128, 0.95, H, 1.0), wait_direct_s(160, 0.76, H, 1.0)
    assert before / 60 == pytest.approx(4.29, abs=5e-3) and after * 1e3 == pytest.approx(49.8, abs=0.05)
    assert 1 / share == pytest.approx(5168, rel=1e-3) and share == pytest.approx(after / before, rel=1e-9)
    assert "0.0193 %" in html and state["a1_added_gpus"] == 256


def test_one_slot_is_labelled_one_slot_beside_the_pooled_server():
    """The page's "One big server (M/M/1) would predict 2.57 days" is one slot running one job at a time
    with the job's own length; the whole cluster pooled into one server of rate c/S predicts 3.86 h."""
    html = rendered(LAB, answered(LAB, {}, through="a1_predict", controls={"a1_added_gpus": 0}))
    card = html.split('data-metric="a1_one_slot_s"')[1].split("</div>")[0]
    assert "One slot (M/G/1)" in card and "big server" not in html and "upstream" not in html
    assert "2.57 days" in card and "3.86 h" in card
    assert model.one_slot_wait_s(model.SCENARIO) / H == pytest.approx(61.75, rel=1e-9)
    assert model.pooled_server_wait_s(model.SCENARIO) / H == pytest.approx(3.859375, rel=1e-9)


def test_nothing_before_the_lock_argues_against_the_single_server():
    """Review (defect class 24): the reading list said "why a cluster of gang jobs is not a single server"
    before the Act I lock, refuting range B (one server's law) in advance; the busy chart's title set
    "GPUs against slots", the Act II reflection's key, over the chart."""
    html = rendered(LAB, LAB.parse({}))
    assert "not a single server" not in html
    html = rendered(LAB, answered(LAB, {}, through="a2_pick"))
    assert "GPUs against slots" not in html


def test_the_notebooks_daily_count_behind_the_gpu_utilisation_is_stated():
    """Review (defect class 36): the 62.3 % counts notebooks at 50 a day (15,304 of 24,576 GPU-hours), a
    number the page never gave (only "5 an hour at peak")."""
    html = rendered(LAB, answered(LAB, {}, through="a1_reflect"))
    assert "5 an hour at peak, 50 a day" in html


def test_small_tail_shares_never_read_zero():
    """Review: one-decimal shares printed the notebook tail of a 72–88-GPU pool (0.0404 % … 0.0021 %) as
    "0.0 %" beside "< 0.001 %" at 96 GPUs; shares now keep three significant figures."""
    html = rendered(LAB, all_open(a2_interactive_gpus=72))
    assert "0.0 %" not in html and "0.0404 %" in html


def test_overloaded_pools_read_as_words_not_numbers():
    """An overloaded pool's slots are not "225 %" busy and its wait is not "0 s"."""
    html = rendered(LAB, all_open(a2_interactive_gpus=8, a2_training_gpus=256))
    for name, word in (("a2_training_rho", "overloaded"), ("a2_interactive_rho", "overloaded")):
        assert word in html.split(f'data-metric="{name}"')[1].split("</div>")[0]
    html = rendered(LAB, all_open(a2_interactive_gpus=256, a2_training_gpus=768))
    assert "no bound" in html.split('data-metric="a2_search_wait_s"')[1].split("</div>")[0]
    assert "1 slots" not in html and "1 gang slots" not in html


# ---- answer keys, in every context --------------------------------------------------------


@pytest.mark.parametrize("context,share", [("gangs", 0.03783), ("small", 0.0001935)])
def test_act1_key_is_proven_in_each_context(context, share):
    assert model.act1_truth(context) == pytest.approx(share, rel=2e-3)
    assert_key_proven(lab.ACT1_PREDICTION, "A", context)


def test_act1_key_holds_for_every_job_size_and_the_one_server_belief_lands_in_b():
    """At the scenario's demand the share stays under 10 % for every gang size the slider offers
    (256-GPU gangs: 8.97 %), while one server (W ∝ ρ/(1−ρ)) gives 16.7 %, range B."""
    for g in (8, 16, 32, 64, 128, 256):
        now, more = model.act1_pool(g, 7200, 0.95, 0, 2.25), model.act1_pool(g, 7200, 0.95, 256, 2.25)
        assert model.wait_share(more, now) < 0.1
    for scv in (0.0, 1.0, 4.0):  # the variability and the length assumptions cancel in the share
        for length in (1800, 86400):
            now, more = model.act1_pool(64, length, 0.95, 0, scv), model.act1_pool(64, length, 0.95, 256, scv)
            assert model.wait_share(more, now) == pytest.approx(model.act1_truth("gangs"), rel=1e-9)
    one = model.one_slot_wait_s(model.MORE_GPUS) / model.one_slot_wait_s(model.SCENARIO)
    assert one == pytest.approx((0.76 / 0.24) / (0.95 / 0.05)) and lab.ACT1_PREDICTION.option("B").holds(one)


def test_act2_pick_is_proven_by_the_physics():
    verdicts = {k: lay.meets_limits() for k, lay in model.LAYOUTS.items()}
    assert verdicts == {"A": False, "B": False, "C": True, "D": False}
    assert lab.ACT2_PICK.answer("gangs") == lab.ACT2_PICK.answer("small") == "C"


def test_each_wrong_layout_fails_for_its_own_reason():
    a, b, d = model.LAYOUTS["A"], model.LAYOUTS["B"], model.LAYOUTS["D"]
    assert a.interactive_late() > 0.05 and a.training_late() <= 0.2
    for lay in (b, d):  # two gang slots for 2.25 busy gangs: the training queue grows without end
        assert not lay.training.stable and lay.training_late() == 1.0 and lay.interactive_late() <= 0.05


def test_no_majority_finds_the_pick():
    """Review (defect class 7): the key's pool sizes were the options' majority (notebooks 48 in B and C,
    training 768 in A, C and D), so "pick the option most like the others" found it alone. Now every
    option shares the same number of pool sizes with the others, and no size is held by three options."""
    layouts = list(model.S.layouts)
    key = layouts["ABCD".index(lab.ACT2_PICK.answer())]
    shared = [sum(a == b for other in layouts if other != lay for a, b in zip(lay, other)) for lay in layouts]
    assert [lay for lay, n in zip(layouts, shared) if n == max(shared)] != [key]
    for axis in range(3):
        values = [lay[axis] for lay in layouts]
        assert max(values.count(v) for v in values) <= 2


def test_smallest_passing_notebook_pool_is_48_gpus_and_the_key_uses_it():
    assert lab.act2_facts()["smallest_pool"] == "48" and model.LAYOUTS["C"].interactive_gpus == 48
    assert model.Layout(48, 208, 768).interactive_late() == pytest.approx(0.0265, abs=5e-4)
    assert not model.Layout(40, 216, 768).meets_limits()


def test_reflection_distractors_are_wrong_in_both_contexts():
    """a1_reflect: today's 95 % breaks the context's promise in both contexts (review: with one half-hour
    promise the small jobs' 4.29 min kept it, so "keep 95 %" was a plan that worked); 60 % is below the
    knee in both; at 99 % the wait breaks the promise in both."""
    for context in ("gangs", "small"):
        g, s_len, scv = model.JOBS[context]
        promise = model.PROMISE_S[context]
        assert model.today(context).mean_wait_s() > promise
        assert model.act1_pool(g, s_len, 0.6, 0, scv).p_wait > 0
        assert 0.6 < model.knee(context) < model.S.utilization
        assert model.act1_pool(g, s_len, 0.99, 0, scv).mean_wait_s() > promise
        assert model.act1_pool(g, s_len, model.knee(context) - 1e-4, 0, scv).mean_wait_s() < promise


@pytest.mark.parametrize("context,whole", [("gangs", "83 %"), ("small", "90 %")])
def test_every_knee_option_names_a_utilisation(context, whole):
    """Review (defect class 18): the key B was the only option of the knee reflection with no number;
    it now names the knee of the context's jobs, in whole percent, which the wait chart lets one find."""
    html = rendered(LAB, locked_in(context, {}, "a1_predict"))
    question = html.split('data-question="a1_reflect"')[1].split("</section>")[0]
    assert f"About {whole}, just under" in question
    for letter in "ABCD":
        assert any(ch.isdigit() for ch in lab.ACT1_REFLECTION.text_of(letter, lab.terms(context)))


def test_act2_reflection_names_the_training_pool_it_asks_about():
    """Review: the prompt did not say which training pool; at the slider's 512 GPUs distractor C ("more
    gangs busy than the pool holds") is true. The prompt names the key's 768 GPUs (3 slots, 2.25 busy)."""
    assert "training pool at 768 GPUs" in lab.ACT2_REFLECTION.prompt
    assert model.LAYOUTS["C"].training.load_erlangs < model.LAYOUTS["C"].training.slots


# ---- feedback for every option ---------------------------------------------------------------


def test_wrong_act1_prediction_says_by_how_much():
    html = rendered(LAB, answered(LAB, {"a1_predict": "D"}, through="a1_predict"))
    assert "3.78 %" in html and "below the bottom of your range" in html


def test_act1_feedback_follows_the_context():
    html = rendered(LAB, locked_in("small", {"a1_predict": "A"}, "a1_predict"))
    feedback = html.split('data-feedback="a1_predict"')[1].split("</div>")[0]
    assert "4.29 min" in feedback and "49.8 ms" in feedback and "3.17 h" not in feedback


def test_act2_pick_feedback_quotes_each_layouts_numbers():
    html = rendered(LAB, answered(LAB, {"a2_pick": "A"}, through="a2_pick"))
    feedback = html.split('data-feedback="a2_pick"')[1].split("</div>")[0]
    assert "24.9 %" in feedback and "The physics picks C" in feedback


def test_gang_and_notebook_sizes_in_the_text_follow_the_scenario(monkeypatch):
    """The takeaway's slot size and the math peek's node count read the Scenario's job classes."""
    state = all_open()
    assert "few 256-GPU slots" in " ".join(lab.lab_takeaways("gangs"))
    assert "the 8-GPU notebook job is one node" in str(lab.act2_math(state))
    patched = dataclasses.replace(model.S, training=(128,) + model.S.training[1:],
                                  interactive=(16,) + model.S.interactive[1:])
    monkeypatch.setattr(lab, "S", patched)
    assert "few 128-GPU slots" in " ".join(lab.lab_takeaways("gangs"))
    assert "the 16-GPU notebook job is 2 nodes" in str(lab.act2_math(state))


# ---- nothing given away before its question is locked ---------------------------------------


@pytest.mark.parametrize("context", ["gangs", "small"])
def test_default_page_gives_no_answer_away(context):
    """The Act I share, its after-wait, the knee and the Act II pool numbers stay hidden until locked."""
    html = rendered(LAB, LAB.parse({"controls": {"context": context}}, changed="context"))
    facts = lab.act1_facts(context)
    for secret in (facts["a1_wait_share"], facts["wait_more"], facts["knee"], "75 %", "2.6 %"):
        assert secret not in html, secret


def test_act2_prediction_options_state_no_computed_tail():
    html = rendered(LAB, answered(LAB, {}, through="a1_reflect"))
    question = html.split('data-question="a2_pick"')[1].split("</section>")[0]
    assert "24.9" not in question and "7.7" not in question and "2.6" not in question


# ---- failure states --------------------------------------------------------------------------


def test_act1_failure_offers_only_levers_not_at_their_limit():
    state = all_open(a1_added_gpus=0)
    text = lab.wait_failure_text(state, lab.cluster(state), lab.cluster(state).mean_wait_s())
    assert "Add GPUs" in text and "lower the demand" in text and "smaller jobs" not in text
    state = all_open(a1_added_gpus=0, a1_utilization=0.5, a1_job_gpus=256, a1_service_s=86400)
    text = lab.wait_failure_text(state, lab.cluster(state), 1.0)
    assert "lower the demand" not in text and "Add GPUs" in text
    state = all_open(a1_added_gpus=1024, a1_utilization=0.5, a1_job_gpus=256)
    text = lab.wait_failure_text(state, lab.cluster(state), 1.0)
    assert "Add GPUs" not in text and "lower the demand" not in text and "smaller jobs" in text


def test_training_tail_is_a_warning_and_the_others_danger():
    html = rendered(LAB, all_open(a2_training_gpus=512, a2_interactive_gpus=32))
    tail = html.split('data-failure="a2_training_tail"')[0].rsplit("<div", 1)[1]
    sla = html.split('data-failure="a2_interactive_sla"')[0].rsplit("<div", 1)[1]
    assert "pl-callout--warn" in tail and "pl-callout--danger" in sla


# ---- edges: every instrument at its extremes ------------------------------------------------


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
    """handbook/labs/v2_08.md §1 ledger: context, pool_sizes, rho_by_pool, interactive_p_wait_gt_5min,
    train_p_wait_gt_48h,
    gpu_util, act1_prediction, act1_correct, act2_decision, constraint_hit."""
    rec = record(LAB, answered(LAB, {"a1_predict": "B", "a2_pick": "C"}, through="a2_reflect",
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
    assert rec["answers"]["a1_predict"] == {"choice": "B", "locked_at": rec["answers"]["a1_predict"]["locked_at"],
                                            "correct": False}
    assert rec["answers"]["a2_pick"]["choice"] == "C" and rec["answers"]["a2_pick"]["correct"] is True
    assert "a2_interactive_sla" in rec["failures_active"]
