"""V1-12 The Speedup Ceiling: answer keys proven by the physics (handbook/labs/v1_12.md), the
golden vectors on the instruments, Gustafson's mode, the rank-inversion failure reached and
left, the context, edges and the ledger record."""

from __future__ import annotations

import itertools

import pytest

from pylabs.framework import fmt
from pylabs.framework.render import record, render_lab
from pylabs.labs.vol1 import v1_12 as lab
from pylabs.labs.vol1 import v1_12_model as model
from pylabs.physics import constants as C
from tests.labs.helpers import answered, assert_key_proven, rendered

LAB = lab.LAB


def all_open(**controls):
    return answered(LAB, {}, through="a2_reflect", controls=controls)


def metric(html: str, name: str) -> float:
    return float(html.split(f'data-metric="{name}" data-value="')[1].split('"')[0])


# ---- answer keys (handbook/labs/v1_12.md §2, §4), proven in every context -----------------

CONTEXTS = LAB.context.values


@pytest.mark.parametrize("context", CONTEXTS)
def test_act1_key_is_a_6_12x_not_64x(context):
    """handbook/labs/v1_12.md §2: "≈6.1×, ≈16.3 h" (upstream's 6.4× / 15.6 h needs s = 0.143, error 1); the lowest
    range."""
    assert LAB.question("a1_predict").value_in(context) == pytest.approx(6.1244, abs=5e-5)
    assert_key_proven(lab.ACT1_PREDICTION, "A", context)
    assert model.serial_for(6.4) == pytest.approx(0.143, abs=5e-4)


@pytest.mark.parametrize("context", CONTEXTS)
def test_act2_key_is_c_the_vendors_tie_at_batch_9_4(context):
    """handbook/labs/v1_12.md §2, §4: crossover b* = 9.418, in C (8 to 16)."""
    assert LAB.question("a2_predict").value_in(context) == pytest.approx(9.418, abs=5e-4)
    assert_key_proven(lab.ACT2_PREDICTION, "C", context)


def test_reflection_keys_are_b_and_d():
    """Act I: asynchronous checkpoints (B); Act II: a replay of production's traffic (D)."""
    assert lab.ACT1_REFLECTION.answer() == "B" and lab.ACT2_REFLECTION.answer() == "D"


def test_ranges_run_from_lowest_to_highest():
    """V1-12's Act I ranges ran from highest (A, 60× or more) to lowest (D, under 4×)."""
    for p in (lab.ACT1_PREDICTION, lab.ACT2_PREDICTION):
        highs = [o.high for o in p.options[:-1]]
        assert p.options[0].low is None and p.options[-1].high is None and highs == sorted(highs)


def test_act1_reflection_key_finishes_soonest_of_the_four_proposals():
    """B (s 15 % → 10 %) gives 8.77× (11.4 h); A's 1,024 GPUs only 6.63× (15.1 h); C's scaled job still takes
    100 h; D's interconnect cannot improve a split that is already perfect (e = 1)."""
    fix, big, base = model.fixed_run(serial=0.10), model.fixed_run(workers=1024), model.fixed_run()
    assert fix.speedup == pytest.approx(8.767, abs=5e-4) and big.speedup == pytest.approx(6.630, abs=5e-4)
    assert fix.wall_s < big.wall_s < base.wall_s
    assert model.Run(0.15, 64, 1.0, True).wall_s == lab.S.one_worker_s
    assert base.e == 1.0
    assert big.speedup < 1 / 0.15 < fix.speedup


def test_gustafson_answer_sits_in_option_d_not_the_key():
    """handbook/labs/v1_12.md §5: 54.55 is a scaled job's speedup; option D holds it, so the confusion is testable."""
    scaled = model.Run(model.S.serial, model.S.workers, 1.0, True).speedup
    assert scaled == pytest.approx(54.55)
    assert lab.ACT1_PREDICTION.option("D").holds(scaled)
    assert lab.ACT1_PREDICTION.option("B").holds(1 / model.S.serial)  # the ceiling 1/s, not reached on 64


# ---- The two measurements are ratios; A's costs are stated ------------------------


def crossover_for(r: float) -> float:
    """b* for A's fixed ÷ per-sample cost r, B fitted to the stated ratios (1.2× at batch 1, 72/85 at 32)."""
    la1, la32 = r + 1, r + 32                 # A's latencies in units of its per-sample cost
    lb1, lb32 = la1 / 1.2, la32 * 85 / 72
    t1b = (lb32 - lb1) / 31
    return (r - (lb1 - t1b)) / (t1b - 1)


def test_the_crossover_depends_on_as_costs_so_the_prompt_states_them():
    """The page's "the two measurements fix both costs" is false: they are ratios to A, and
    b* = 1 + 372(r + 1)/(25r + 428) with r = t0/t1 of A (the review's closed form). The prompt states A's
    2 ms + 0.1 ms per sample, and the key C (8 to 16) holds for every r from 13.3 up (b* → 15.9)."""
    for r in (1.5, 8.0, 20.0, 44.7, 1000.0):
        assert crossover_for(r) == pytest.approx(1 + 372 * (r + 1) / (25 * r + 428))
    assert crossover_for(lab.S.a_fixed_s / lab.S.a_per_sample_s) == pytest.approx(model.crossover())
    assert crossover_for(13.2) < 8 <= crossover_for(13.4) and crossover_for(1e9) < 16
    prompt = lab.ACT2_PREDICTION.prompt
    assert "fix both costs" not in prompt
    assert f"{fmt(lab.S.a_fixed_s, 'ms')} plus {fmt(lab.S.a_per_sample_s, 'ms')} per sample" in prompt
    assert "2 ms plus 0.1 ms per sample" in rendered(LAB, answered(LAB, {}, through="a1_reflect"))


def test_every_option_s_feedback_quotes_its_own_physics():
    facts = lab.act2_facts()
    assert facts["ratio_b_low"] == fmt(model.ratio_b_over_a(3), "x") and model.ratio_b_over_a(3) > 1
    assert facts["ratio_c_low"] == fmt(model.ratio_b_over_a(8), "x") and model.ratio_b_over_a(8) > 1
    assert facts["ratio_d_low"] == fmt(1 / model.ratio_b_over_a(16), "x") and model.ratio_b_over_a(16) < 1
    assert facts["fixed_gap"] == "392 µs" and facts["per_gap"] == "41.6 µs" and facts["gap_used"] == "333 µs"
    one = lab.act1_facts("cloud")
    assert (one["a1_speedup"], one["of_ceiling"], one["n_for_a"]) == ("6.12×", "91.9 %", "221")
    assert (one["big_speedup"], one["fix_speedup"], one["fix_h"], one["linear_less"]) == \
        ("6.63×", "8.77×", "11.4 h", "54.4×")
    for context in CONTEXTS:
        for q in LAB.questions:
            for letter in "ABCD":
                state = answered(LAB, {q.id: letter}, through=q.id, controls={"context": context})
                html = rendered(LAB, state)
                feedback = html.split(f'data-feedback="{q.id}"')[1].split("</p>")[0]
                assert "{" not in feedback and "None" not in feedback, (context, q.id, letter)


# ---- Act I instruments against the golden vectors ----------------------------------------


def test_defaults_show_the_golden_fixed_job():
    """handbook/labs/v1_12.md §4: s=0.15, N=64, e=1 → S 6.1244; 16.328 h; E 9.57 %; ceiling 6.667; s' 0.91866."""
    html = rendered(LAB, all_open())
    assert metric(html, "a1_speedup") == pytest.approx(6.1244, abs=5e-5)
    assert metric(html, "a1_wall_s") / 3600 == pytest.approx(16.328, abs=5e-4)
    assert metric(html, "a1_efficiency_out") == pytest.approx(0.0957, abs=5e-5)
    assert metric(html, "a1_ceiling") == pytest.approx(6.6667, abs=5e-5)
    assert metric(html, "a1_run_share") == pytest.approx(0.91866, abs=5e-6)


def test_a_quarter_serial_gives_3_82x():
    """handbook/labs/v1_12.md §4: s = 0.25, N = 64 → 3.8209."""
    assert metric(rendered(LAB, all_open(a1_serial=0.25)), "a1_speedup") == pytest.approx(3.8209, abs=5e-5)


def test_scaled_mode_shows_gustafson_54_55x_in_the_same_100_h():
    html = rendered(LAB, all_open(a1_mode="scaled"))
    assert metric(html, "a1_speedup") == pytest.approx(54.55)
    assert metric(html, "a1_wall_s") == lab.S.one_worker_s
    assert "Gustafson's speedup is a different job" in html


def test_efficiency_lowers_the_speedup_but_not_the_ceiling():
    low, full = rendered(LAB, all_open(a1_efficiency=0.7)), rendered(LAB, all_open())
    assert metric(low, "a1_speedup") < metric(full, "a1_speedup")
    assert metric(low, "a1_ceiling") == metric(full, "a1_ceiling")


def test_one_worker_is_exactly_the_one_device_run_at_any_efficiency():
    html = rendered(LAB, all_open(a1_workers=1, a1_efficiency=0.7))
    assert metric(html, "a1_speedup") == 1.0 and metric(html, "a1_wall_s") == lab.S.one_worker_s


def test_efficiency_is_disabled_with_one_worker():
    html = rendered(LAB, all_open(a1_workers=1))
    assert " disabled" in html.split('data-control="a1_efficiency"')[1].split(">")[0]
    assert " disabled" not in rendered(LAB, all_open()).split('data-control="a1_efficiency"')[1].split(">")[0]


def test_energy_is_workers_times_wall_clock_times_rated_power():
    html = rendered(LAB, all_open())
    assert metric(html, "a1_energy") == pytest.approx(64 * 16.328125 * 3600 * C.H100_TDP_W)


def test_the_serial_share_starts_at_one_percent_so_the_ceiling_is_finite():
    """At s = 0 the ceiling card read "∞"; the slider now starts at 1 %."""
    html = rendered(LAB, all_open(a1_serial=0.0, a1_workers=1024))
    assert metric(html, "a1_ceiling") == pytest.approx(100.0) and "∞" not in html
    assert metric(html, "a1_wall_s") >= 3600  # the shortest run is over an hour: "h" never reads 0.0977 h


# ---- Act II: the rank inversion ------------------------------------------------------------


def test_vendor_rates_match_the_golden_vectors():
    """handbook/labs/v1_12.md §4: b=1 A 476.2/s, B 571.4/s; b=32 A 6,153.8/s, B 5,212.7/s (A/B = 85/72)."""
    assert model.throughput("A", 1) == pytest.approx(476.19, abs=5e-3)
    assert model.throughput("B", 1) == pytest.approx(571.43, abs=5e-3)
    assert model.throughput("A", 32) == pytest.approx(6153.85, abs=5e-3)
    assert model.throughput("B", 32) == pytest.approx(5212.67, abs=5e-3)
    assert model.throughput("A", 32) / model.throughput("B", 32) == pytest.approx(85 / 72)


def test_the_default_benchmark_ranks_backwards_and_single_stream_fixes_it():
    """handbook/labs/v1_12.md §5: upstream's failure could never be left; here the scenario leaves it."""
    assert "a2_rank_inverted" in LAB.failures_now(all_open())
    assert 'data-failure="a2_rank_inverted"' in str(render_lab(LAB, all_open()))
    fixed = all_open(a2_scenario="single")
    assert "a2_rank_inverted" not in LAB.failures_now(fixed)
    assert metric(rendered(LAB, fixed), "a2_rank_valid") == 1.0


def test_server_batch_decides_which_side_of_the_crossover():
    assert "a2_rank_inverted" not in LAB.failures_now(all_open(a2_scenario="server", a2_batch_bench=8))
    assert "a2_rank_inverted" in LAB.failures_now(all_open(a2_scenario="server", a2_batch_bench=16))
    # production at a large batch agrees with the Offline benchmark
    assert "a2_rank_inverted" not in LAB.failures_now(all_open(a2_batch_prod=64))


def test_bench_slider_is_disabled_outside_server():
    html = rendered(LAB, all_open())
    slider = html.split('data-control="a2_batch_bench"')[1].split(">")[0]
    assert " disabled" in slider and "Choose Server" in html
    html = rendered(LAB, all_open(a2_scenario="server"))
    assert " disabled" not in html.split('data-control="a2_batch_bench"')[1].split(">")[0]


# ---- context and the ledger record ----------------------------------------------------


def test_context_changes_the_energy_on_screen():
    cloud, edge = rendered(LAB, all_open()), rendered(LAB, all_open(context="edge"))
    assert metric(cloud, "a1_energy") / metric(edge, "a1_energy") == pytest.approx(C.H100_TDP_W / C.ORIN_NX_POWER_MAX_W)
    assert "Jetson Orin NX" in edge


def test_record_holds_the_spec_ledger_fields():
    """handbook/labs/v1_12.md ledger: s, N, speedup, efficiency, b_bench, b_prod, crossover_b, rank_valid."""
    rec = record(LAB, all_open())
    res = rec["results"]
    assert {"s", "n", "speedup", "efficiency", "b_bench", "b_prod", "crossover_b", "rank_valid"} <= set(res)
    assert res["s"] == 0.15 and res["n"] == 64 and res["speedup"] == pytest.approx(6.1244, abs=5e-5)
    assert res["b_bench"] == 32 and res["b_prod"] == 1 and res["rank_valid"] is False
    assert res["crossover_b"] == pytest.approx(9.418, abs=5e-4)
    assert rec["failures_active"] == ["a2_rank_inverted"] and rec["complete"] is True
    assert all(k == k.lower() for k in res)


def test_mobile_and_tiny_are_explained_on_the_page():
    html = rendered(lab.LAB, LAB.parse({}, None))
    assert set(LAB.track_notes) == {"mobile", "tiny"} and all("opens in Cloud" in n for n in LAB.track_notes.values())
    assert LAB.hook and "6.12" not in LAB.hook and "9.42" not in LAB.hook
    assert html


def test_nothing_answers_act2_in_act1s_instruments():
    html = rendered(LAB, answered(LAB, {}, through="a1_reflect"))
    assert "9.42" not in html


# ---- text follows its source -------------------------------------------------------------


def test_worker_count_in_the_text_follows_the_scenario(relabelled):
    """The context help and the reflection's proposals are computed from the scenario."""
    before = rendered(LAB, all_open())
    assert "the 64 workers are" in before and "Sixteen times the GPUs: 1,024 of them instead of 64." in before
    changed = relabelled(workers=32.0, big_cluster=512.0)
    after = rendered(changed.LAB, answered(changed.LAB, {}, through="a2_reflect"))
    assert "the 32 workers are" in after and "Sixteen times the GPUs: 512 of them instead of 32." in after
    assert "the 64 workers" not in after and "1,024 of them" not in after


def test_feedback_quotes_the_efficiency_it_computes_at(monkeypatch):
    monkeypatch.setattr(lab, "E_LOW", 0.8)
    one = lab.act1_facts("cloud")
    assert one["e_low"] == "80 %" and one["e_low_speedup"] == fmt(model.Run(0.15, 64, 0.8, False).speedup, "x")


def test_edge_names_its_boards_in_the_story_and_the_questions():
    """One context per question: the prompt and the feedback name the context's device."""
    state = answered(LAB, {}, through="a1_reflect", controls={"context": "edge"})
    html = rendered(LAB, state)
    assert "100 h on one Orin NX board" in html and "64 Orin NX boards" in html
    assert "Sixteen times the Orin NX boards" in html and "the run on 64 Orin NX boards gives 8.77×" in html


# ---- independent review -------------------------------------------------


def test_act2_key_holds_over_every_control_a_student_can_move():
    """Review: b* depends only on the stated costs, so no control, Act I's or Act II's, in either
    context moves the key C or the card that shows it (9.418, both vendors' lines through the stated
    ratios: 1.2× at batch 1, 72/85 at batch 32, A = 2 ms + 0.1 ms per sample)."""
    extremes = {"a1_serial": (0.01, 0.5), "a1_workers": (1, 1024), "a1_efficiency": (0.7, 1.0),
                "a1_mode": ("fixed", "scaled"), "a2_scenario": ("offline", "single", "server"),
                "a2_batch_bench": (1, 256), "a2_batch_prod": (1, 256)}
    for context in CONTEXTS:
        for values in itertools.product(*extremes.values()):
            controls = dict(zip(extremes, values), context=context)
            html = rendered(LAB, answered(LAB, {}, through="a2_predict", controls=controls))
            assert metric(html, "a2_crossover") == pytest.approx(9.4181, abs=5e-4), controls
        assert LAB.question("a2_predict").answer(context) == "C"


def test_act2_reflection_has_a_production_option_that_is_wrong():
    """Review: the key was the only option naming production, so "pick
    the odd one out" found it. Option A runs the pilot's own queries at batch 256, where A leads 1.37×
    (far above b* = 9.42), while the pilot's one-at-a-time traffic has B ahead 1.2×: the same queries,
    the wrong regime."""
    a = lab.ACT2_REFLECTION.option("A")
    assert "pilot's own queries" in a.text and "256" in a.text
    assert 1 / model.ratio_b_over_a(256) == pytest.approx(1.371, abs=5e-4)
    facts = lab.act2_facts()
    assert (facts["big"], facts["big_lead"], facts["b_one"]) == ("256", "1.37×", "1.2×")
    assert not lab.ACT2_REFLECTION.option("A").text.startswith("Throughput under a replay")


def test_option_d_says_what_gustafson_counts():
    """Review: Gustafson (1988) measures s′ on the parallel run and grows the job; his 54.55× does not
    "treat the serial work as if it split", nor does N(1 − s)."""
    feedback = lab.ACT1_PREDICTION.option("D").feedback
    assert "as if it split" not in feedback and "grows with the" in feedback


def test_act1_feedback_does_not_name_the_reflection_s_fix():
    """Review (defect class 24): options B's and C's feedback said 6.5× "needs under 14 % serial work"
    and 12× "under 6.88 %", naming the Act I reflection's key (cut the serial share) before its lock.
    They now say what the GPU count does: 6.5× takes 221 GPUs at 15 % (Amdahl solved for N:
    0.85 / (1/6.5 − 0.15) = 221), and 12× is above 1/s = 6.67×, which no GPU count reaches."""
    assert model.workers_for(6.5) == 221 and model.fixed_run(workers=221).speedup >= 6.5 > \
        model.fixed_run(workers=220).speedup
    before_reflection = rendered(LAB, answered(LAB, {}, through="a1_predict"))
    for letter in "ABCD":
        feedback = lab.ACT1_PREDICTION.option(letter).feedback
        assert "serial work." not in feedback and "need under" not in feedback
    assert "needs under" not in before_reflection and "would need under" not in before_reflection
