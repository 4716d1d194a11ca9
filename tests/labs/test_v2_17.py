"""V2-17 The Constraints Never Lie: the golden vectors through the lab (VOL2 §V2-17 §4), both keys
proven, a search of the design space proving a feasible design exists and that every check can
fail, the ledger radar with an empty, partial and corrupt ledger, and the ledger record (§3)."""

from __future__ import annotations

import dataclasses
import itertools
import math

import pytest

from pylabs import ledger
from pylabs.framework.render import record
from pylabs.labs.vol2 import v2_17 as lab
from pylabs.labs.vol2 import v2_17_model as model
from tests.labs.helpers import LOCKED_AT, answered, rendered

LAB = lab.LAB
Design = model.Design


def all_open(earlier=None, **controls):
    state = answered(LAB, {}, through="a2_reflect", controls=controls)
    if earlier is None:
        return state
    raw = {"answers": {q: {"choice": a.choice, "locked_at": a.locked_at} for q, a in state.answers.items()},
           "controls": controls, "earlier": earlier}
    return LAB.parse(raw)


# ---- golden vectors through the lab's design (spec §4) --------------------------------


def test_spec_4_the_draft_training_checks():
    d = model.DRAFT
    assert d.dp == 128 and d.memory / 1e9 == pytest.approx(51.98, abs=0.01)
    assert d.days * d.goodput == pytest.approx(10.71, abs=0.01)             # the spec's 10.71 days at goodput 1
    assert Design(moe=True).days * Design(moe=True).goodput == pytest.approx(1.071, abs=0.001)


def test_spec_4_serving_busy_gpus_and_ttft():
    assert Design(moe=True).busy_gpus == pytest.approx(24_566, abs=1)
    assert model.DRAFT.busy_gpus == pytest.approx(245_660, abs=5)
    assert Design(moe=True).ttft * 1e3 == pytest.approx(191.6, abs=0.3)
    assert model.DRAFT.ttft * 1e3 == pytest.approx(1916, rel=2e-3)
    assert Design(load=0.3).ttft * 1e3 == pytest.approx(740, rel=2e-3)


def test_spec_4_availability_and_carbon():
    assert Design(regions="r3m2").availability == pytest.approx(0.999997, abs=1e-6)
    assert Design(regions="r1").availability == pytest.approx(0.999)
    assert Design(regions="r2m2").availability == pytest.approx(0.998, abs=1e-5)
    assert Design(cfe=0.4).carbon == pytest.approx(161.0) and Design(cfe=0.9).carbon == pytest.approx(43.5)


def test_the_goodput_is_the_v2_07_model_at_the_llama3_failure_rate():
    assert model.GPU_MTBF_S / 3600 == pytest.approx(50_677, rel=1e-3)
    assert model.DRAFT.goodput == pytest.approx(0.94, abs=0.005)
    assert Design(gpus=32768).goodput < 0.9


# ---- answer keys ----------------------------------------------------------------------


def test_act1_key_the_draft_passes_three_of_nine():
    assert [k for k, ok in model.DRAFT.checks().items() if ok] == ["memory", "days", "goodput"]
    assert LAB.question("a1_predict").answer() == "B"


def test_act2_key_is_the_only_feasible_design_of_the_four():
    feasible = [k for k, d in model.DESIGNS.items() if d.feasible]
    assert feasible == ["C"] == [LAB.question("a2_pick").answer()]
    failing = {k: [c for c, ok in d.checks().items() if not ok] for k, d in model.DESIGNS.items()}
    assert failing == {"A": ["ttft", "budget"], "B": ["availability"], "C": [], "D": ["privacy", "fairness"]}


SPACE = {
    "moe": (False, True), "gpus": (4096, 16384, 32768), "sharding": tuple(model.SHARDINGS),
    "cloud_fraction": (0.3, 1.0), "load": (0.1, 0.7, 0.9), "regions": tuple(model.REGIONS),
    "noise": (0.5, 1.2), "fairness": ("single", "ppv"), "cfe": (0.4, 0.9),
}


def designs():
    keys = list(SPACE)
    for values in itertools.product(*(SPACE[k] for k in keys)):
        yield Design(**dict(zip(keys, values)))


@pytest.fixture(scope="module")
def searched():
    """Every design on a grid of the controls' range: which checks each fails."""
    return [(d, d.checks()) for d in designs()]


def test_a_feasible_design_exists_and_every_check_can_fail(searched):
    assert any(all(c.values()) for _, c in searched)
    for check in lab.CHECK_TITLES:
        assert any(not c[check] for _, c in searched), f"{check} never fails"
        assert any(c[check] for _, c in searched), f"{check} never passes"


def test_no_dense_design_is_feasible(searched):
    """The reflection's point: only the sparse model meets latency and budget together."""
    assert not any(all(c.values()) for d, c in searched if not d.moe)
    assert any(all(c.values()) for d, c in searched if d.moe and d.cloud_fraction == 1.0)  # edge offload helps, not needed


def test_every_state_of_the_grid_is_finite(searched):
    for d, _ in searched[::97]:
        for value in (d.memory, d.days, d.goodput, d.ttft, d.availability, d.epsilon, d.carbon, d.cost):
            assert math.isfinite(value) and value >= 0


# ---- the ledger radar -------------------------------------------------------------------


def attempt(correct: list[bool]):
    qids = ("a1_predict", "a1_reflect", "a2_predict", "a2_reflect")
    return {"controls": {}, "results": {},
            "answers": {q: {"choice": "A", "locked_at": LOCKED_AT, "correct": c} for q, c in zip(qids, correct)}}


def test_an_empty_ledger_reads_no_data_everywhere():
    html = rendered(LAB, all_open())
    assert "no data" in html and "Your ledger has no answers to count yet" in html
    rows = lab.domains({}, False, "both")
    assert all(r.accuracy is None for r in rows)


def test_the_radar_counts_predictions_or_everything():
    earlier = {"v2_02": attempt([True, False, False, True]), "v2_07": attempt([True, True, True, True])}
    only = {r.name: r for r in lab.domains(earlier, False, "both")}
    assert (only["Networking"].right, only["Networking"].answered) == (1, 2)
    both = {r.name: r for r in lab.domains(earlier, True, "both")}
    assert (both["Networking"].right, both["Networking"].answered) == (2, 4)
    assert both["Reliability"].accuracy == 1.0 and both["Memory"].accuracy is None
    assert all(r.accuracy is None for r in lab.domains(earlier, True, "1"))


def test_a_corrupt_earlier_attempt_counts_nothing():
    earlier = {"v2_02": {"controls": {}, "results": {}, "answers": {"a1_predict": "junk", "x": {"correct": "yes"}}}}
    assert lab.domains(earlier, True, "both")[3].answered == 0


def test_the_page_reads_the_ledger_and_records_accuracy():
    earlier = {"v2_07": attempt([True, False, True, True])}
    state = all_open(earlier=earlier, context="all")
    html = rendered(LAB, state)
    assert "your lowest is Reliability at 75 %" in html
    rec = record(LAB, state)
    assert rec["results"]["accuracy_reliability"] == 0.75 and rec["results"]["accuracy_memory"] is None


def test_every_lab_of_both_volumes_but_the_capstones_is_on_the_radar():
    on_radar = set(lab.READS)
    assert on_radar == {f"v1_{n:02d}" for n in range(16)} | {f"v2_{n:02d}" for n in range(1, 17)}
    assert set(LAB.reads) >= on_radar


def test_defaults_come_from_the_students_earlier_decisions():
    earlier = {"v2_11": {"controls": {"a2_z": 1.3}, "results": {}, "complete": True},
               "v2_15": {"controls": {"a2_procure": 0.95}, "results": {}, "complete": True},
               "v2_16": {"controls": {"a2_eu_rule": "single"}, "results": {}, "complete": True}}
    assert LAB.earlier_defaults(earlier) == {"a2_noise": 1.3, "a2_cfe": 0.95, "a2_fair": "single"}
    assert LAB.earlier_defaults({"v2_16": {"controls": {"a2_eu_rule": "dp"}, "results": {}, "complete": True}}) == {}


# ---- failures and the record ------------------------------------------------------------


def test_every_failure_is_reached_and_left():
    draft = all_open()
    assert LAB.failures_now(draft) == {"a2_ttft", "a2_availability", "a2_privacy", "a2_fairness", "a2_carbon",
                                       "a2_budget"}
    feasible = dict(a2_arch="moe", a2_regions="r3m2", a2_noise=1.2, a2_fair="single", a2_cfe=0.9)
    assert LAB.failures_now(all_open(**feasible)) == frozenset()
    assert "a2_memory" in LAB.failures_now(all_open(**{**feasible, "a2_sharding": "tp8pp8"}))
    assert "a2_days" in LAB.failures_now(all_open(a2_gpus="4096"))
    assert "a2_goodput" in LAB.failures_now(all_open(**{**feasible, "a2_gpus": "32768"}))


def test_the_record_has_every_check_and_the_verdict():
    rec = record(LAB, all_open(a2_arch="moe", a2_regions="r3m2", a2_noise=1.2, a2_fair="single", a2_cfe=0.9))
    results = rec["results"]
    assert results["system_valid"] is True
    assert all(results[f"{k}_ok"] is True for k in lab.CHECK_TITLES)
    assert results["annual_cost_b"] == pytest.approx(2.116, abs=0.001)
    ledger.validate_attempt("v2_17-test", {**rec, "id": "v2_17-test", "started_at": LOCKED_AT, "updated_at": LOCKED_AT,
                                        "archived_at": None, "failures_hit": []})


# ---- the text follows the scenario ------------------------------------------------------


def test_the_board_s_numbers_in_the_text_follow_the_scenario(monkeypatch):
    """The scenario, the limits under the cards, the option feedback and the takeaways read the board's
    requirements from the Scenario: change them and every sentence follows."""
    board = dataclasses.replace(model.S, users=4e9, tokens_per_month=2e12, ttft_limit_s=0.3, availability_limit=0.999,
                                budget_usd=8e9, days_limit=20.0, goodput_limit=0.85, carbon_limit=40.0,
                                epsilon_limit=3.0, prompt_tokens=800.0, replica_gpus=32.0)
    monkeypatch.setattr(lab, "S", board)
    scenario = " ".join(lab.ACT1.scenario())
    assert ("**4 billion users**" in scenario and "on 1 T tokens" not in scenario and "on 2 T tokens" in scenario
            and "under 300 ms, 99.9 % availability" in scenario and "**$8 B a year**" in scenario)
    html = rendered(LAB, all_open())
    assert all(f"limit {v}" in html for v in ("20 days", "85 %", "40", "300 ms"))
    assert "limit 30 days" not in html and "limit 90 %" not in html
    facts = lab.act1_facts()
    assert lab.ACT1_REFLECTION.option("A").feedback.format_map(facts).startswith(
        "A dense 1 T model prefills a 800-token prompt in")
    assert "on 32 GPUs; the queue at 70 % load" in lab.ACT1_REFLECTION.option("A").feedback.format_map(facts)
    d = lab.ACT2_PREDICTION.option("D").feedback.format_map(lab.act2_facts())
    assert "z = 0.8 gives" in d and "over the policy's 3," in d
    assert "short of 99.9 %." in lab.ACT2_PREDICTION.option("B").feedback.format_map(lab.act2_facts())
    assert "serve a P99 under 300 ms" in lab.lab_takeaways()[0]


def test_the_counts_in_the_text_follow_the_checks_and_the_regions(monkeypatch):
    """"Nine checks", "nine controls" and the designs' regions are counted, not typed: give the designs
    other region settings and the options, their feedback and the takeaways say so."""
    assert lab.CHECKS == "nine" == ("nine" if len(model.DRAFT.checks()) == 9 else "")
    assert "Of the nine checks on the right" in lab.ACT1_PREDICTION.prompt
    assert " ".join(lab.ACT2.scenario()).startswith("Nine controls, nine checks.")
    assert lab.region_count("r1") == "one region" and lab.regions("r1") == "one region"
    assert lab.regions("r3m2") == "three regions (any two carry the peak)"
    assert lab.regions("r2m1") == "two regions (either carries the peak)"
    assert lab.regions("r2m2") == "two regions (both needed at the peak)"
    assert [o.label for o in lab.A2_REGIONS.options] == [lab.region_label(k) for k in model.REGIONS]
    assert lab.region_label("r3m2") == "3 regions, any 2 carry the peak" and lab.region_label("r1") == "1 region"
    designs = {**model.DESIGNS, "A": dataclasses.replace(model.DESIGNS["A"], regions="r5m4"),
               "C": dataclasses.replace(model.DESIGNS["C"], regions="r2m1")}
    monkeypatch.setattr(lab, "DESIGNS", designs)
    assert "five regions of dense replicas" in lab.ACT2_PREDICTION.option("A").feedback.format_map(lab.act2_facts())
    assert "regions multiply the fleet: two regions (either carries the peak) give" in lab.lab_takeaways()[2]


def test_availability_shows_the_decimals_its_nines_need():
    assert lab.nines(0.9999) == "99.99 %" and lab.nines(0.999) == "99.9 %" and lab.nines(0.99) == "99.0 %"
    assert lab.nines(model.DESIGNS["C"].availability) == "99.9997 %" and lab.nines(1.0) == "100 %"
    assert lab.CHECK_TITLES["availability"] == "Availability at least 99.99 %"
    assert lab.size(1e12) == "1 T" and lab.size(1e11) == "100 B"
