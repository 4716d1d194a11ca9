"""V1-16 The Architect's Audit: the golden vectors through the lab (handbook/labs/v1_16.md §4), both keys
proven, a search of the fleet's controls proving a feasible design exists and that every check can
fail and pass, the ledger radar with an empty, partial and corrupt ledger, and the record
(handbook/labs/v1_16.md §2)."""

from __future__ import annotations

import itertools
import math

import pytest

from pylabs import ledger
from pylabs.framework.render import record
from pylabs.labs.vol1 import audit
from pylabs.labs.vol1 import v1_16 as lab
from tests.labs.helpers import LOCKED_AT, answered, assert_key_proven, rendered

LAB = lab.LAB
FEASIBLE = {"a2_cloud": "int4", "a2_batch": 256, "a2_load": 0.5, "a2_mobile": "ternary", "a2_tiny": "kws"}


def all_open(earlier=None, **controls):
    state = answered(LAB, {}, through="a2_reflect", controls=controls)
    if earlier is None:
        return state
    raw = {"answers": {q: {"choice": a.choice, "locked_at": a.locked_at} for q, a in state.answers.items()},
           "controls": controls, "earlier": earlier}
    return LAB.parse(raw)


# ---- golden vectors through the lab (handbook/labs/v1_16.md §4) ------------------------


def test_spec_4_cloud_bf16_and_int4_through_the_lab():
    assert audit.KV == 131_072 and audit.MEAN_CONTEXT == 640 and audit.HELD_CONTEXT == 768
    b64, b256 = audit.Cloud("bf16", 64), audit.Cloud("bf16", 256)
    assert b64.step_s * 1e3 == pytest.approx(5.782, abs=1e-3) and b256.step_s * 1e3 == pytest.approx(10.590, abs=1e-3)
    assert b64.memory_b / 1e9 == pytest.approx(20.44, abs=0.01) and b256.memory_b / 1e9 == pytest.approx(39.77, abs=0.01)
    assert audit.Cloud("int4", 256).step_s * 1e3 == pytest.approx(7.488, abs=1e-3)
    assert b64.prefill_s * 1e3 == pytest.approx(14.49, abs=0.01)


def test_spec_4_devices_through_the_lab():
    assert audit.OnDevice("edge", "int4").step_s * 1e3 == pytest.approx(36.07, abs=0.01)
    assert audit.OnDevice("mobile", "int4").step_s * 1e3 == pytest.approx(72.13, abs=0.01)
    assert audit.OnDevice("mobile", "int4").memory_b / 1e9 == pytest.approx(4.178, abs=1e-3)
    assert audit.OnDevice("mobile", "int4").budget_b == pytest.approx(4e9)
    assert audit.Tiny("llm").flash_b / 1e9 == pytest.approx(1.75, abs=1e-3)     # 2 bits a weight, not 1.58


def test_a_ternary_weight_is_stored_in_two_bits_and_the_7bs_quality_is_assumed():
    """bitnet.cpp's I2_S packs a ternary weight in 2 bits (log2 3 = 1.58 is its information),
    and BitNet b1.58 (Ma et al. 2024, arXiv 2402.17764) reports quality only up to 3.9B: the page labels
    a ternary 7B's quality an assumption (review: "hypothetical" was too strong, see below). At 2 bits the phone still passes: 1.75 + 0.268 + 0.3 = 2.32 GB of 4 GB,
    (1.75 + 0.0839) GB / 51.2 GB/s = 35.8 ms a token."""
    assert audit.weights("ternary") == pytest.approx(7e9 * 2 / 8)
    phone = audit.OnDevice("mobile", "ternary")
    assert phone.memory_b / 1e9 == pytest.approx(2.318, abs=1e-3) and phone.step_s * 1e3 == pytest.approx(35.8, abs=0.05)
    assert "quality assumed" in audit.PRECISIONS["ternary"][0]
    assert audit.Tiny("llm").flash_b / audit.C.STM32H743_FLASH_BYTES == pytest.approx(834.4, abs=0.1)


def test_ternary_is_not_called_the_floor_of_precision():
    """Binary weights exist (XNOR-Net, Rastegari et al. 2016; BitNet, Wang et al. 2023)."""
    html = rendered(LAB, all_open()).lower()
    assert "floor of precision" not in html and "the smallest it gets" not in html


def test_a_tier_that_cannot_store_the_weights_is_named_not_timed():
    """The MCU's 2 MiB of flash cannot store a 14 GB model, so no time is shown for it (was
    "2.07 h", "29,167 ms per token"); the external flash's token time is given in seconds (35 s)."""
    html = rendered(LAB, all_open(context="tiny"))
    assert "2.07 h" not in html and "29,167 ms" not in html and "29.2 s" not in html
    assert "does not fit" in html
    assert lab.act2_facts()["qspi"] == "35 s"


def test_the_families_put_each_lab_under_what_it_teaches():
    """V1-03 (The Constraint Tax) teaches late-found constraints, not drift; V1-07 (The Kernel
    Fusion Dividend) teaches launches and memory trips, not parallelism."""
    of = {lab_id: name for name, labs in audit.FAMILIES.items() for lab_id in labs}
    assert of["v1_03"] == "Workflow" and of["v1_07"] == "Memory" and of["v1_14"] == "Drift"
    assert of["v1_12"] == "Parallelism"


def test_the_fleet_provisions_prefill_and_decode_at_a_load():
    """A correction of the spec's count (decode only, at full load): prefill occupies GPUs too, and GPUs
    run at load ρ so that the first-token queue stays finite."""
    c = audit.Cloud("bf16", 64, 0.7)
    busy = 1000 * (c.prefill_s + 256 * c.step_s / 64)
    assert c.gpus == math.ceil(busy / 0.7) == 54
    assert c.ttft_s * 1e3 == pytest.approx(219.7, abs=0.1)    # 14.49 ms × (1 + ln 70 / 0.3)


# ---- answer keys ------------------------------------------------------------------------


def test_act1_key_one_stream_writes_238_tokens_a_second_in_every_context():
    """(14e9 + 131,072 × 640) B / 3.35 TB/s = 4.204 ms a token: 237.9 tokens/s, 1.076 s for 256 tokens;
    the draft needs 256 / 0.1 s = 2,560 tokens/s. The prompt names the H100, so every context keys A."""
    assert lab.act1_truth() == pytest.approx(237.86, abs=0.01)
    assert 256 / lab.act1_truth() == pytest.approx(1.0763, abs=1e-4) and lab.NEED == 2560
    for ctx in LAB.context.values:
        assert LAB.question("a1_predict").answer(ctx) == "A"
        state = all_open(context=ctx)
        assert f'data-metric="a1_rate" data-value="{lab.act1_truth()!r}"' in rendered(LAB, state)
    assert_key_proven(LAB.question("a1_predict"), "A")


def test_act2_key_only_the_phone_needs_weights_below_four_bits():
    """The pick no longer hands the student the MCU's 2 MiB; at INT4 the phone holds 4.178 GB
    of its 4 GB share and takes 72.1 ms a token, while the edge (36.1 ms, 4.18 of 12 GB) and the cloud
    (INT4, batch 256, load 50 %) pass."""
    assert audit.tiers_without_a_fit() == ["tiny"]
    assert audit.tiers_without_a_fit(audit.FOUR_BITS_OR_MORE) == ["mobile", "tiny"]
    for ctx in LAB.context.values:
        assert LAB.question("a2_pick").answer(ctx) == "C"
    assert "MiB" not in LAB.question("a2_pick").prompt
    assert not audit.Fleet(mobile=audit.OnDevice("mobile", "int4")).checks()["mobile_memory"]
    assert audit.Fleet(mobile=audit.OnDevice("mobile", "ternary")).checks()["mobile_tpot"]


SPACE = {"cloud": ("bf16", "int8", "int4"), "batch": (1, 16, 64, 256, 1024, 4096), "load": (0.1, 0.5, 0.7, 0.95),
         "edge": tuple(audit.PRECISIONS), "mobile": tuple(audit.PRECISIONS), "tiny": ("llm", "kws")}


@pytest.fixture(scope="module")
def searched():
    """Every fleet on a grid of the controls: which checks each passes."""
    keys = list(SPACE)
    out = []
    for values in itertools.product(*(SPACE[k] for k in keys)):
        v = dict(zip(keys, values))
        f = audit.Fleet(audit.Cloud(v["cloud"], v["batch"], v["load"]), audit.OnDevice("edge", v["edge"]),
                      audit.OnDevice("mobile", v["mobile"]), audit.Tiny(v["tiny"]))
        out.append((f, f.checks()))
    return out


def test_a_feasible_fleet_exists_and_every_check_can_fail(searched):
    assert any(all(c.values()) for _, c in searched)
    for check in audit.CHECK_TITLES:
        assert any(not c[check] for _, c in searched), f"{check} never fails"
        assert any(c[check] for _, c in searched), f"{check} never passes"


def test_no_fleet_with_the_7b_on_the_mcu_is_feasible(searched):
    assert not any(all(c.values()) for f, c in searched if f.tiny.job == "llm")
    assert not any(all(c.values()) for f, c in searched if f.mobile.precision != "ternary")


def test_every_state_of_the_grid_is_finite(searched):
    for f, _ in searched[::53]:
        for value in f.usage().values():
            assert math.isfinite(value) and value > 0


# ---- the ledger radar ---------------------------------------------------------------------


def attempt(correct: list[bool]):
    qids = ("a1_predict", "a1_reflect", "a2_predict", "a2_reflect")
    return {"controls": {}, "results": {},
            "answers": {q: {"choice": "A", "locked_at": LOCKED_AT, "correct": c} for q, c in zip(qids, correct)}}


def test_an_empty_ledger_is_ungraded_and_reads_no_data():
    state = all_open()
    html = rendered(LAB, state)
    assert "no data" in html and "Ungraded: no family has two answers yet" in html
    rec = record(LAB, state)["results"]
    assert rec["graded"] is False and rec["weakest_family"] is None and rec["accuracy_memory"] is None


def test_the_weakest_family_needs_two_answers():
    earlier = {"v1_13": attempt([False, True, False, True]),
               "v1_02": attempt([True, True, False, True]), "v1_04": attempt([True, False, True, False])}
    rows = {r.name: r for r in audit.families(earlier, False)}
    assert (rows["Memory"].right, rows["Memory"].answered) == (1, 2)
    assert (rows["Queuing"].right, rows["Queuing"].answered) == (0, 2)     # a1_predict and a2_predict
    low = audit.weakest(audit.families({"v1_13": {**attempt([False]), "answers": {
        "a1_predict": {"choice": "A", "locked_at": LOCKED_AT, "correct": False}}}}, False))
    assert low is None
    assert audit.weakest(list(rows.values())).name == "Queuing"


def test_the_page_names_the_weakest_family_and_records_it():
    earlier = {"v1_08": attempt([True, False, True, True]), "v1_15": attempt([False, True, False, True])}
    state = all_open(earlier=earlier, a1_count="all")
    html = rendered(LAB, state)
    assert "Your weakest family: Fairness" in html
    rec = record(LAB, state)["results"]
    assert rec["weakest_family"] == "Fairness" and rec["graded"] is True
    assert rec["accuracy_memory"] == 0.75 and rec["accuracy_fairness"] == 0.5


def test_a_corrupt_earlier_attempt_counts_nothing():
    earlier = {"v1_02": {"controls": {}, "results": {}, "answers": {"a1_predict": "junk", "x": {"correct": "yes"}}}}
    assert audit.families(earlier, True)[0].answered == 0


def test_every_volume_1_lab_but_the_portal_and_the_capstone_is_on_the_radar():
    assert set(audit.READS) == {f"v1_{n:02d}" for n in range(1, 16)}
    assert set(LAB.reads) == set(audit.READS) | {"v1_00"}


def test_every_track_chosen_in_v1_00_opens_the_lab():
    for track in ("cloud", "edge", "mobile", "tiny"):
        earlier = {"v1_00": {"controls": {"track": track}, "results": {}, "complete": True}}
        assert LAB.context_defaults(earlier) == {"context": track}


def test_the_context_changes_act1s_tier_card():
    cloud = rendered(LAB, all_open(context="cloud"))
    edge = rendered(LAB, all_open(context="edge", a1_precision="int4"))
    tiny = rendered(LAB, all_open(context="tiny"))
    assert "NVIDIA H100 SXM, batch 1" in cloud and "Jetson Orin NX 16 GB, batch 1" in edge
    assert "STM32H743 (Cortex-M7) gives the model 2 MiB" in tiny
    two = lab.answer_step_s("cloud", "bf16", 2)
    assert two == pytest.approx(lab.answer_step_s("cloud", "bf16") / 2, rel=1e-3)
    assert lab.answer_step_s("tiny", "bf16", 8) == lab.answer_step_s("tiny", "bf16", 1)


# ---- failures and the record -----------------------------------------------------------------


def test_the_scenario_fails_five_checks_and_a_feasible_fleet_none():
    assert LAB.failures_now(all_open()) == {"a2_cloud_ttft", "a2_mobile_memory", "a2_mobile_tpot", "a2_tiny_flash",
                                            "a2_tiny_ram"}
    assert LAB.failures_now(all_open(**FEASIBLE)) == frozenset()
    assert {"a2_cloud_memory", "a2_cloud_tpot"} <= LAB.failures_now(all_open(**{**FEASIBLE, "a2_batch": 4096,
                                                                                 "a2_cloud": "bf16"}))
    assert "a2_cloud_cost" in LAB.failures_now(all_open(**{**FEASIBLE, "a2_batch": 1, "a2_load": 0.1}))
    assert {"a2_edge_memory", "a2_edge_tpot"} <= LAB.failures_now(all_open(**{**FEASIBLE, "a2_edge": "bf16"}))


def test_the_record_has_every_check_and_the_verdict():
    rec = record(LAB, all_open(**FEASIBLE))
    results = rec["results"]
    assert results["system_valid"] is True and results["tier_violations"] == 0
    assert all(results[f"{k}_ok"] is True for k in audit.CHECK_TITLES)
    assert results["cloud_batch"] == 256 and results["cloud_gpus"] == lab.GOOD_CLOUD.gpus
    assert results["tpot_s"] == pytest.approx(7.488e-3, abs=1e-6)
    assert results["cost_per_1k"] <= 1.0 and "keyword spotter" in results["tier_configs"]
    ledger.validate_attempt("v1_16-test", {**rec, "id": "v1_16-test", "started_at": LOCKED_AT,
                                           "updated_at": LOCKED_AT, "archived_at": None, "failures_hit": []})


def test_the_weakest_family_names_its_labs_in_good_english():
    """The page's "across 1 lab(s)" reads "across 1 lab"."""
    earlier = {"v1_08": attempt([True, False, True, True]), "v1_15": attempt([False, True, False, True])}
    html = rendered(LAB, all_open(earlier=earlier, a1_count="all"))
    assert "lab(s)" not in html and "across 1 lab." in html


# ---- independent review ----------------------------------------------------


def before_lock(question_id: str, context: str = "cloud") -> str:
    """The page's text with every question before ``question_id`` locked at its key."""
    from tests.labs.reading import page_text
    answers = {}
    for q in LAB.questions:
        if q.id == question_id:
            break
        answers[q.id] = {"choice": q.answer(context), "locked_at": LOCKED_AT}
    return page_text(rendered(LAB, LAB.parse({"answers": answers, "controls": {"context": context}})))


def test_the_slo_reflection_does_not_claim_what_the_instruments_refute():
    """Review: INT4 over eight H100s (communication left out) writes the answer in 35.3 ms, which the
    card shows green, so the prompt may not say the draft "cannot be met as written"."""
    assert audit.S.output_tokens * audit.answer_step_s("cloud", "int4", 8) < audit.S.draft_answer_s
    assert "cannot be met" not in lab.ACT1_REFLECTION.prompt


def test_the_slo_reflection_key_is_not_the_odd_one_out():
    """Review, class 18/7: three distractors began "Keep one limit", so the odd one out was the key.
    No two options may open with the same three words."""
    for q in (lab.ACT1_REFLECTION, lab.ACT2_REFLECTION):
        openings = [" ".join(o.text.split()[:3]).lower() for o in q.options]
        assert len(set(openings)) == len(openings), openings


def test_every_mcu_option_answers_why_not_what_to_do():
    """Review, class 18: "Stream the weights…" and "Prune nine weights in ten…" were remedies, so the key
    was the only option that answered "why"; every option now names a cause."""
    for o in lab.ACT2_REFLECTION.options:
        assert o.text.split()[0] not in {"Stream", "Prune", "Use", "Buy", "Add", "Keep"}, o.text


def test_a_ternary_7b_is_an_assumption_not_hypothetical():
    """Review: TII released ternary 7B and 10B models trained on from BF16 parents (Falcon3-7B-Base-1.58bit,
    Falcon3-10B-Instruct-1.58bit, Dec 2024, huggingface.co/tiiuae), so "a ternary 7B is hypothetical" is
    stronger than the sources; the lab assumes such a 7B keeps the assistant's quality, and says so."""
    html = rendered(LAB, all_open())
    assert "hypothetical" not in html and "a 7B's quality here is [assumed]" in html
    assert "Falcon3" in lab.ACT2_REFLECTION.options[2].feedback and "assumed" in audit.PRECISIONS["ternary"][0]


def test_the_ternary_note_is_on_no_single_device_control():
    """Review: the help on ternary weights sat on the phone's control only, pointing at the phone (the
    Act II key) before the lock; the note is now in Act II's equations panel, after the lock."""
    assert lab.A2_EDGE.help == lab.A2_MOBILE.help == ""
    assert "Falcon3" not in before_lock("a2_reflect")   # it would refute a2_reflect's C before its lock


def test_an_empty_ledger_shows_no_accuracy_not_zero():
    """Review: with no locked answers the card read "0 %", a score the student never earned."""
    html = rendered(LAB, all_open())
    card = html.split('data-metric="a1_accuracy"', 1)[1].split("</div>", 1)[0]
    assert "0 %" not in card and "no answers yet" in card


def test_nothing_before_the_act1_lock_says_what_sets_a_decode_step():
    """Review, class 24: Connections read "bytes over bandwidth, the term that sets every decode step"
    before Act I's lock, which rules out the compute-bound option for the student."""
    assert "sets every decode step" not in before_lock("a1_predict")
    assert "Each GPU reads its share of the weights" not in before_lock("a1_predict")


def test_the_math_peek_names_labs_by_their_codes():
    """Review, F: the families were listed as raw ids ("v1_01, v1_02")."""
    text = before_lock("a1_reflect")
    assert "v1_01" not in text and "V1-01" in text


def test_the_cloud_memory_failure_offers_only_levers_that_can_clear_it():
    """Review, classes 3 and 21: at INT4 (the fewest bytes the cloud offers) and batch 4,096 the KV cache
    (412 GB) dwarfs the weights (3.61 GB); the failure offered "fewer bytes per weight"."""
    state = all_open(a2_cloud="int4", a2_batch=4096)
    html = rendered(LAB, state)
    text = html.split('data-failure="a2_cloud_memory"', 1)[1].split("</div>", 1)[0]
    assert "fewer bytes per weight" not in text and "fewer sequences per GPU" in text


def test_act1_says_it_counts_the_weights_alone_where_act2_fails_the_same_phone():
    """Review, class 13: Act I showed the phone at INT4 as fitting ("Weights fit: yes", 18.5 s) while Act II
    fails the same phone on memory (4.18 GB with the KV cache and runtime, of 4 GB): Act I now says it counts
    the weights alone."""
    html = rendered(LAB, all_open(context="mobile", a1_precision="int4"))
    assert "Weights alone fit" in html and "Act II adds each device" in html
    assert "Apple A17 Pro (iPhone 15 Pro), batch 1; weights alone" in html
    assert not audit.Fleet(mobile=audit.OnDevice("mobile", "int4")).checks()["mobile_memory"]


def test_nothing_before_the_pick_presupposes_a_tier_fails():
    """Review, class 24: the Chief Architect asked "which tier ordinary quantisation does not carry", which
    strikes out D ("None of the three") before the lock, the MCU being set aside."""
    text = before_lock("a2_pick")
    assert "does not carry" not in text and "if any" in lab.ACT2_PREDICTION.prompt


def test_the_mcu_reflection_prompt_does_not_strike_out_a_distractor():
    """Review, class 31: "The phone passed once its weights took 2 bits each" told the student a ternary 7B
    runs, striking out C ("no 7B has been trained that way") in the prompt itself."""
    assert "phone" not in lab.ACT2_REFLECTION.prompt.lower()
