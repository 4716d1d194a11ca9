"""V2-04 The I/O Bottleneck: keys proven by the physics, the spec's golden vectors, feedback,
failure states reached and left, context presets, edge values, and the ledger record.

Golden vectors: curriculum VOL2_03-17.md §V2-04.4 (corrected model §V2-04.3)."""

from __future__ import annotations

import dataclasses
import math
import re

import pytest

from pylabs.framework.render import record, render_lab
from pylabs.labs.vol2 import v2_04 as lab
from pylabs.labs.vol2 import v2_04_model as model
from pylabs.physics import constants as C
from tests.labs.helpers import answered, rendered

LAB = lab.LAB
RIGHT = {"a1_predict": "B", "a1_reflect": "B", "a2_predict": "B", "a2_reflect": "B"}


def all_open(**controls):
    return answered(LAB, RIGHT, through="a2_reflect", controls=controls)


def metric(html: str, name: str) -> float:
    return float(re.search(rf'data-metric="{name}" data-value="([^"]+)"', html).group(1))


# ---- the spec's golden vectors (§V2-04.4) ---------------------------------------------


def test_v2_04_3_demand_is_80_MBps_per_gpu_and_consistent_with_the_story():
    """§V2-04.2 error 2 corrected: the simulator consumes what the prose says, 80 MB/s per GPU."""
    assert model.DEMAND == pytest.approx(80e6, rel=1e-12)
    html = rendered(LAB, all_open())
    assert metric(html, "a1_demand") == pytest.approx(80e6)


def test_v2_04_4_defaults_give_12_7_percent_not_1_1():
    """§V2-04.2 error 1 corrected: W = 1, 4 KiB, t_o = 1 ms → X = 10.16 MB/s, U = 0.127."""
    html = rendered(LAB, all_open())
    assert metric(html, "a1_supply") == pytest.approx(10.16e6, rel=5e-4)
    assert metric(html, "a1_gpu_util") == pytest.approx(0.127, abs=5e-4)
    assert metric(html, "a1_storage_util") == pytest.approx(10.24e9 / 672e9, rel=1e-12)


@pytest.mark.parametrize("workers, util", [(4, 0.508), (8, 1.0)])
def test_v2_04_4_workers(workers, util):
    """§V2-04.4: W = 4 → 0.508; W = 8 → 1.0 (X = 81.3 MB/s)."""
    html = rendered(LAB, all_open(a1_workers=workers))
    assert metric(html, "a1_gpu_util") == pytest.approx(util, abs=5e-4)


def test_v2_04_4_one_sequential_read():
    """§V2-04.4: W = 1, q = s → X = 1,176 MB/s, U = 1.0."""
    html = rendered(LAB, all_open(a1_pattern="whole"))
    assert metric(html, "a1_supply") == pytest.approx(1176.47e6, rel=1e-5)
    assert metric(html, "a1_gpu_util") == 1.0


def test_v2_04_4_512_gpus_warn_at_61_percent():
    """§V2-04.4: N = 512, files → F = 10,240/s, D = 30,720 ops/s, 61 % (warning, not failure)."""
    html = rendered(LAB, all_open(a2_gpus=512))
    assert metric(html, "a2_files") == pytest.approx(10240)
    assert metric(html, "a2_meta_ops") == pytest.approx(30720)
    assert metric(html, "a2_meta_util") == pytest.approx(0.6144)
    assert "Metadata service running hot" in html
    assert "data-failure=" not in html.split('data-act="2"')[1]


def test_v2_04_4_4096_gpus():
    """§V2-04.4: N = 4,096 → F = 81,920/s, D = 245,760 (4.9×), 5 MDTs, 327.7 of 1,344 GB/s, 15 prefixes."""
    c = model.SCENARIO_CLUSTER
    assert c.files == pytest.approx(81920)
    assert c.meta_ops == pytest.approx(245760)
    assert c.meta_util == pytest.approx(4.9152)
    assert c.needed == 5
    assert c.gpus * model.DEMAND == pytest.approx(327.68e9)
    assert c.aggregate == pytest.approx(1344e9)
    objects = model.Cluster(4096, False, 1, 50e3, 8, 48, True)
    assert objects.needed == 15


def test_v2_04_4_shards_cut_metadata_to_24_6_ops():
    """§V2-04.4: N = 4,096, 40 GB shards → D = 24.6 ops/s."""
    html = rendered(LAB, all_open(a2_layout="shards"))
    assert metric(html, "a2_meta_ops") == pytest.approx(24.576)


def test_workers_do_not_change_the_file_rate():
    """§V2-04.2 error 6 corrected: F is set by what the GPUs consume, not by workers."""
    one, many = (rendered(LAB, all_open(a2_workers=w)) for w in (1, 16))
    for name in ("a2_files", "a2_meta_ops", "a2_meta_util"):
        assert metric(one, name) == metric(many, name)


# ---- answer keys proven by the physics ---------------------------------------------------


def test_act1_key_is_the_loader_and_only_the_loader_binds():
    headroom = model.act1_headroom()
    assert headroom["B"] < 1 < min(headroom["A"], headroom["C"])
    assert headroom["A"] == pytest.approx(672e9 / 10.24e9)
    assert lab.ACT1_PREDICTION.answer() == "B"


def test_act2_key_is_metadata_with_a_4x_bandwidth_margin():
    headroom = model.SCENARIO_CLUSTER.headroom()
    assert headroom["metadata"] < 1 < headroom["bandwidth"] < headroom["loader"]
    assert headroom["bandwidth"] == pytest.approx(1344 / 327.68)
    assert lab.ACT2_PREDICTION.answer() == "B"


def test_act2_key_moves_with_the_physics(monkeypatch):
    """decide() is not typed in: with enough MDTs and few OSTs the binding limit becomes bandwidth."""
    monkeypatch.setattr(model, "SCENARIO_CLUSTER", model.Cluster(4096, False, 8, 50e3, 8, 8, False))
    assert model.act2_answer() == "A"
    monkeypatch.setattr(model, "SCENARIO_CLUSTER", model.Cluster(4096, True, 1, 50e3, 8, 48, False))
    assert model.act2_answer() == "C"


def test_reflection_keys():
    assert lab.ACT1_REFLECTION.answer() == "B" and lab.ACT2_REFLECTION.answer() == "B"


# ---- feedback for every option ----------------------------------------------------------


@pytest.mark.parametrize("qid", sorted(RIGHT))
@pytest.mark.parametrize("letter", "ABCD")
def test_every_option_has_filled_feedback_with_numbers(qid, letter):
    html = rendered(LAB, answered(LAB, {qid: letter}, through=qid))
    box = html.split(f'data-feedback="{qid}"')[1].split("</div>")[0]
    assert "{" not in box
    assert re.search(r"\d", box), f"{qid} {letter}: feedback quotes no number"
    assert ('data-verdict="correct"' in html.split(f'data-feedback="{qid}"')[0][-40:] + box[:40]) == (letter == "B")


def test_act1_wrong_answer_a_quotes_the_storage_share():
    html = rendered(LAB, answered(LAB, {"a1_predict": "A"}, through="a1_predict"))
    assert lab.act1_facts()["storage_util"] in html and lab.act1_facts()["supply"] in html


# ---- nothing gives the answer away before the lock -----------------------------------------


def without_takeaways(html: str) -> str:
    """The page minus the takeaways block (the framework shows takeaways only once the lab is complete)."""
    head, rest = html.split('data-block="takeaways"')
    return head + rest.split('data-block="hud"')[1]


def test_default_page_shows_no_computed_diagnosis():
    html = without_takeaways(rendered(LAB, LAB.default_state()))
    facts = lab.act1_facts()
    for key in ("storage_util", "supply", "wait_share", "eight_util", "whole_supply"):
        assert facts[key] not in html, key


def test_act2_page_before_its_lock_shows_no_metadata_numbers():
    html = without_takeaways(rendered(LAB, answered(LAB, RIGHT, through="a1_reflect")))
    act2 = html.split('data-act="2"')[1]
    facts = lab.act2_facts()
    for key in ("files", "ops", "overload"):
        assert facts[key] not in act2, key


# ---- failure states reached and left ------------------------------------------------------


def test_act1_starved_reached_at_defaults_and_left_with_workers_or_whole_reads():
    assert "a1_starved" in LAB.failures_now(all_open())
    assert "a1_starved" not in LAB.failures_now(all_open(a1_workers=4))
    assert "a1_starved" not in LAB.failures_now(all_open(a1_pattern="whole"))


def test_starved_line_is_the_scenario_field(monkeypatch):
    """The default loader keeps the GPUs 12.7 % busy: starved against a 50 % line, not against a 10 % one;
    the title states the line."""
    assert lab.F["a1_starved"].title.endswith(f"more than {lab.fmt(1 - model.S.starved_util, 'pct')} of the time")
    monkeypatch.setattr(lab, "S", dataclasses.replace(model.S, starved_util=0.1))
    assert "a1_starved" not in LAB.failures_now(all_open())
    assert 'data-failure="a1_starved"' not in render_lab(LAB, all_open())
    monkeypatch.setattr(lab, "S", dataclasses.replace(model.S, starved_util=0.2))
    assert 'data-failure="a1_starved"' in render_lab(LAB, all_open())

def test_metadata_saturated_reached_and_left_with_mdts_or_shards():
    assert "a2_metadata_saturated" in LAB.failures_now(all_open())
    assert "a2_metadata_saturated" not in LAB.failures_now(all_open(a2_servers=5))
    assert "a2_metadata_saturated" not in LAB.failures_now(all_open(a2_layout="shards"))
    assert "a2_metadata_saturated" not in LAB.failures_now(all_open(a2_gpus=512))


def test_more_osts_do_not_leave_the_metadata_wall():
    assert "a2_metadata_saturated" in LAB.failures_now(all_open(a2_osts=96))


def test_object_store_throttles_and_prefixes_release_it():
    state = all_open(storage_type="object")
    assert LAB.failures_now(state) >= {"a2_requests_throttled"}
    assert "a2_metadata_saturated" not in LAB.failures_now(state)
    assert "a2_requests_throttled" not in LAB.failures_now(all_open(storage_type="object", a2_servers=15))
    assert "a2_requests_throttled" in LAB.failures_now(all_open(storage_type="object", a2_servers=14))


def test_failure_callouts_render_only_while_active():
    assert 'data-failure="a1_starved"' in render_lab(LAB, all_open())
    assert 'data-failure="a1_starved"' not in render_lab(LAB, all_open(a1_workers=8))


# ---- context: the storage system ------------------------------------------------------------


def test_context_preset_moves_the_latency_and_changes_both_acts():
    state = LAB.parse({"controls": {"storage_type": "object"}}, changed="storage_type")
    assert state["a1_latency"] == pytest.approx(model.S.object_latency_s)
    back = LAB.parse({"controls": {"storage_type": "lustre", "a1_latency": 0.02}}, changed="storage_type")
    assert back["a1_latency"] == pytest.approx(model.S.lustre_latency_s)
    answers = {"answers": {q: {"choice": c, "locked_at": "2026-01-01T00:00:00Z"} for q, c in RIGHT.items()}}
    lustre = str(render_lab(LAB, LAB.parse({**answers, "controls": {}})))
    objects = str(render_lab(LAB, LAB.parse({**answers, "controls": {"storage_type": "object"}},
                                            changed="storage_type")))
    assert metric(objects, "a1_supply") < metric(lustre, "a1_supply")
    assert metric(objects, "a2_meta_ops") == pytest.approx(metric(lustre, "a2_meta_ops") / 3)
    assert metric(objects, "a2_meta_util") == pytest.approx(81920 / C.S3_GET_PER_PREFIX_PER_S)


def test_object_store_has_no_open_cost():
    lustre = model.Loader(1, 4e6, 0.4e-3, model.S.open_close_s, 24, 128)
    assert lab.loader(all_open(storage_type="object", a1_latency=0.4e-3, a1_pattern="whole")).sample_s == \
        pytest.approx(lustre.sample_s - model.S.open_close_s)


# ---- edge values of every instrument -----------------------------------------------------------


EXTREMES = [dict(a1_workers=w, a1_pattern=p, a1_latency=lat, a1_osts=o, a2_gpus=n, a2_layout=lay,
                 a2_servers=sv, a2_mdt_ops=ops, a2_workers=w, a2_osts=o2, storage_type=ctx)
            for w in (1, 16) for p in ("records", "whole") for lat in (0.05e-3, 25e-3) for o in (4, 48)
            for n in (128, 16384) for lay in ("files", "shards") for sv in (1, 32) for ops in (10e3, 200e3)
            for o2 in (4, 96) for ctx in ("lustre", "object")][::37]


@pytest.mark.parametrize("controls", EXTREMES)
def test_extremes_give_finite_sensible_numbers(controls):
    html = rendered(LAB, all_open(**controls))
    values = [float(v) for v in re.findall(r'data-metric="\w+" data-value="([^"]+)"', html)]
    assert values and all(math.isfinite(v) and v >= 0 for v in values)
    for name in ("a1_gpu_util", "a2_gpu_util"):
        assert 0 < metric(html, name) <= 1
    assert "nan" not in html.lower().replace("nano", "")


# ---- the ledger record (spec §V2-04.3 ledger fields) -----------------------------------------


def test_record_holds_every_field_the_spec_lists():
    """context, storage_type, gpu_count, workers, io_per_gpu, gpu_util, mds_ops_per_s, mds_util,
    act1_prediction, act1_correct, act2_decision, constraint_hit."""
    rec = record(LAB, all_open(a2_gpus=8192, a1_workers=2))
    assert rec["context"] == rec["controls"]["storage_type"] == "lustre"
    assert rec["results"]["gpu_count"] == 8192 and rec["results"]["workers"] == 2
    assert rec["results"]["io_per_gpu_bytes_per_s"] == pytest.approx(2 * 10.157e6, rel=1e-3)
    assert rec["results"]["gpu_util"] == pytest.approx(0.254, abs=1e-3)
    assert rec["results"]["mds_ops_per_s"] == pytest.approx(2 * 245760)
    assert rec["results"]["mds_util"] == pytest.approx(2 * 4.9152)
    assert rec["answers"]["a1_predict"] == {"choice": "B", "locked_at": "2026-01-01T00:00:00Z", "correct": True}
    assert rec["answers"]["a2_predict"]["choice"] == "B"
    assert set(rec["failures_active"]) == {"a1_starved", "a2_metadata_saturated"}
    assert rec["complete"] is True
