"""V1-04 The Data Gravity Trap: answer keys proven by the physics (VOL1_00-08 §V1-04), feedback,
gating, failure states, the context, and the ledger record."""

from __future__ import annotations


import pytest

from pylabs.framework.render import record, render_lab
from pylabs.labs.vol1 import v1_04 as lab
from pylabs.labs.vol1 import v1_04_model as model
from pylabs.physics import constants
from tests.labs.helpers import answered, assert_key_proven, rendered

LAB = lab.LAB


def all_open(**controls):
    return answered(LAB, {}, through="a2_reflect", controls=controls)


# ---- answer keys -------------------------------------------------------------------


def test_act1_key_is_data_loading_section_4():
    """§V1-04 (4): at the defaults the A100 is busy 23.65 %, CPU-decode-bound, storage close behind."""
    pipe = model.SCENARIO_LOADER.pipeline()
    assert pipe.gpu_per_s == pytest.approx(5073.2, abs=0.05)
    assert pipe.gpu_utilization == pytest.approx(0.2365, abs=5e-5)
    assert pipe.bottleneck == "cpu_decode"
    assert pipe.storage_per_s < pipe.gpu_per_s  # storage would be the next wall
    assert lab.ACT1_PREDICTION.answer() == "B"


def test_act1_reflection_both_fixes_are_needed_section_4():
    """§V1-04 (3): NVMe alone stays CPU-bound; 16 workers on the disk stay storage-bound (26.88 %);
    NVMe with 16 workers gives 63.08 %, with 32 workers 100 %."""
    assert model.Loader(storage="nvme").pipeline().gpu_utilization == pytest.approx(0.2365, abs=5e-5)
    assert model.Loader(workers=16).pipeline().gpu_utilization == pytest.approx(0.2688, abs=5e-5)
    assert model.Loader(storage="nvme", workers=16).pipeline().gpu_utilization == pytest.approx(0.6308, abs=5e-5)
    assert model.Loader(storage="nvme", workers=32).pipeline().gpu_utilization == 1.0
    assert lab.ACT1_REFLECTION.answer() == "C"


def test_more_gpus_on_the_same_loader_only_wait_longer():
    assert model.util_with(model.SCENARIO_LOADER, 4) == pytest.approx(0.2365 / 4, abs=5e-5)
    assert model.Loader(gpu="h100").pipeline().gpu_per_s == pytest.approx(16087.8, abs=0.05)


def test_random_small_files_on_a_disk_section_4():
    """§V1-04 (4): HDD random, 150 IOPS, 16 workers: 150 images/s, 2.96 %."""
    pipe = model.Loader(storage="hdd_random", workers=16).pipeline()
    assert pipe.storage_per_s == 150 and pipe.gpu_utilization == pytest.approx(0.0296, abs=5e-5)


def test_act2_key_is_about_an_hour_section_4():
    """§V1-04 (4): 50 TB at 100 Gb/s, η = 1: 4,000 s (66.7 min), $1,000 at $0.02/GB."""
    assert model.act2_truth() == pytest.approx(4000.0)
    assert model.SCENARIO_MOVE.fee_usd == pytest.approx(1000.0)
    assert_key_proven(lab.ACT2_PREDICTION, "B")


def test_act2_reflection_facts_section_4():
    """§V1-04 (4): 1 PB at 100 Gb/s is 22.22 h and $20,000, past the 6 h budget."""
    assert model.PETABYTE_MOVE.time_s / 3600 == pytest.approx(22.22, abs=5e-3)
    assert model.PETABYTE_MOVE.fee_usd == pytest.approx(20000.0) and model.PETABYTE_MOVE.too_slow
    facts = lab.act2_facts()
    assert facts["pb_time"] == "22.2 h" and facts["pb_fee"] == "$20k" and facts["lan_time"] == "4.63 days"
    assert lab.ACT2_REFLECTION.answer() == "B"


def test_a_faster_link_claim_is_stated_truthfully():
    """Reflection A's feedback: a 400 Gb/s link would fit 1 PB inside 6 h at full rate (5.56 h)."""
    facts = lab.act2_facts()
    assert facts["fast_time"] == "5.56 h"
    assert "inside the" in lab.ACT2_REFLECTION.option("A").feedback


# ---- the page: instruments follow the controls ------------------------------------------


def metric_value(html: str, name: str) -> float:
    start = html.index(f'data-metric="{name}"')
    value = html[html.index('data-value="', start) + len('data-value="'):]
    return float(value[:value.index('"')])


def test_instruments_show_the_golden_numbers():
    html = rendered(LAB, all_open())
    assert metric_value(html, "a1_util") == pytest.approx(0.236538, rel=1e-5)
    assert metric_value(html, "a1_gpu_rate") == pytest.approx(5073.17, rel=1e-5)
    assert metric_value(html, "a2_transfer_s") == pytest.approx(4000.0)
    assert metric_value(html, "a2_fee_usd") == pytest.approx(1000.0)
    html = rendered(LAB, all_open(a2_efficiency=0.8, a2_price="internet"))
    assert metric_value(html, "a2_transfer_s") / 3600 == pytest.approx(1.389, abs=5e-4)
    assert metric_value(html, "a2_fee_usd") == pytest.approx(4500.0)


def test_edge_values_stay_finite():
    for controls in ({"a1_workers": 1, "a1_per_worker": 50, "a1_image": 500e3, "a1_mfu": 0.2, "a1_storage": "hdd_random",
                      "a1_iops": 50, "a2_dataset": 1e15, "a2_link": "1", "a2_efficiency": 0.5, "a2_budget": 3600},
                     {"a1_workers": 32, "a1_per_worker": 600, "a1_image": 50e3, "a1_mfu": 0.6, "a1_storage": "ram",
                      "a1_gpu": "h100", "a2_dataset": 1e12, "a2_link": "100", "a2_efficiency": 1.0,
                      "a2_budget": 72 * 3600, "a2_compute": 5}):
        html = rendered(LAB, all_open(**controls))
        assert "nan" not in html.lower().replace("nanosecond", "") and "inf" not in html.split("data-value=")[1][:20]
        res = record(LAB, all_open(**controls))["results"]
        assert 0 < res["util"] <= 1 and res["transfer_h"] > 0 and res["egress_usd"] >= 0


def test_iops_slider_is_disabled_unless_the_disk_reads_small_files():
    def control(html):
        start = html.index('data-control="a1_iops"')
        return html[html.rindex("<div", 0, start):html.index("</div>", start)]
    seq = control(rendered(LAB, all_open()))
    assert " disabled" in seq and "Not used" in seq
    assert " disabled" not in control(rendered(LAB, all_open(a1_storage="hdd_random")))


# ---- gating and failure states ------------------------------------------------------------


def test_nothing_shows_before_the_first_lock():
    html = rendered(LAB, LAB.default_state())
    assert 'data-metric="a1_util"' not in html and not LAB.failures_now(LAB.default_state())


def test_gpu_starved_is_reached_and_left():
    assert "a1_gpu_starved" in LAB.failures_now(all_open())
    assert "a1_gpu_starved" not in LAB.failures_now(all_open(a1_storage="nvme", a1_workers=32))
    assert 'data-failure="a1_gpu_starved"' not in render_lab(LAB, all_open(a1_storage="nvme", a1_workers=32))


def test_data_gravity_is_reached_and_left_section_4():
    """§V1-04 (3): the failure fires past the budget, e.g. a 10 Gb/s link or 1 PB."""
    assert "a2_data_gravity" not in LAB.failures_now(all_open())
    assert "a2_data_gravity" in LAB.failures_now(all_open(a2_link="10"))
    assert "a2_data_gravity" in LAB.failures_now(all_open(a2_dataset=1e15))
    assert "a2_data_gravity" not in LAB.failures_now(all_open(a2_dataset=1e15, a2_budget=24 * 3600))
    assert 'data-failure="a2_data_gravity"' in render_lab(LAB, all_open(a2_link="10"))


# ---- the context ----------------------------------------------------------------------


def test_edge_context_moves_data_over_a_free_lan():
    state = LAB.parse({"controls": {"context": "edge"}}, changed="context")
    assert state["a2_link"] == "1" and state["a2_price"] == "lan"
    edge = answered(LAB, {}, through="a2_reflect", controls={"context": "edge", "a2_link": "1", "a2_price": "inter"})
    assert lab.move(edge).fee_usd == 0.0 and lab.move(edge).too_slow
    html = rendered(LAB, edge)
    start = html.index('data-control="a2_price"')
    assert " disabled" in html[html.rindex("<", 0, start):start + 200] or "Not used at the edge" in html
    back = LAB.parse({"controls": {"context": "cloud"}}, changed="context")
    assert back["a2_link"] == "100" and back["a2_price"] == "inter"


# ---- the ledger -----------------------------------------------------------------------------


def test_record_holds_the_spec_fields():
    rec = record(LAB, all_open(a2_link="10"))
    assert rec["complete"] is True
    res = rec["results"]
    assert set(res) == {"storage", "workers", "util", "bottleneck", "dataset_tb", "transfer_h", "egress_usd",
                        "gravity_triggered"}
    assert res["storage"] == "hdd_seq" and res["bottleneck"] == "cpu_decode"
    assert res["dataset_tb"] == pytest.approx(50) and res["transfer_h"] == pytest.approx(11.11, abs=5e-3)
    assert res["gravity_triggered"] is True and "a2_data_gravity" in rec["failures_active"]


def test_upstream_errors_are_gone():
    """§V1-04 (2b): no 312 'FP32', no 0.84 ms compute, no $0.08/GB; 4 GFLOPs named as multiply-adds."""
    html = rendered(LAB, all_open())
    assert "FP32" not in html and "$0.08" not in html and "0.841" not in html
    assert "multiply-adds" in html and "BF16 dense" in html


# ---- text follows its source -------------------------------------------------------------


def test_workers_starvation_and_line_share_in_the_text_follow_the_scenario(relabelled):
    """"the six workers", "more than half of the time" and "about 80 %" are S.workers, S.starved_below and
    S.sustained_share."""
    before = rendered(LAB, answered(LAB, {"a1_reflect": "B"}, through="a2_reflect"))
    assert "but the six workers still decode" in before and "sustained copies often reach about 80 %" in before
    assert "GPU starved: it waits for data more than half of the time" in before
    changed = relabelled(workers=4, starved_below=0.4, sustained_share=0.9)
    after = rendered(changed.LAB, answered(changed.LAB, {"a1_reflect": "B"}, through="a2_reflect"))
    assert "but the four workers still decode" in after and "sustained copies often reach about 90 %" in after
    assert changed.F["a1_gpu_starved"].title == "GPU starved: it waits for data more than 60 % of the time"
    assert "six workers" not in after and "about 80 %" not in after


def test_the_disk_read_range_follows_the_registry(relabelled, monkeypatch):
    """The random-read slider spans C.HDD_RANDOM_IOPS_LOW to _HIGH, and its help quotes the same two."""
    assert (lab.A1_IOPS.min, lab.A1_IOPS.max) == (50, 200)
    assert "50 to 200 per second is the usual range" in rendered(LAB, all_open(a1_storage="hdd_random"))
    monkeypatch.setattr(constants, "HDD_RANDOM_IOPS_LOW", 80.0)
    monkeypatch.setattr(constants, "HDD_RANDOM_IOPS_HIGH", 250.0)
    changed = relabelled()
    assert (changed.A1_IOPS.min, changed.A1_IOPS.max) == (80, 250)
    page = answered(changed.LAB, {}, through="a2_reflect", controls={"a1_storage": "hdd_random"})
    assert "80 to 250 per second is the usual range" in rendered(changed.LAB, page)
