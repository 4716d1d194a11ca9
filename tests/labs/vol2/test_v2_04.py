"""V2-04 The I/O Bottleneck: keys proven by the physics, the spec's golden vectors, feedback,
failure states reached and left, context presets, edge values, and the ledger record.

Golden vectors: curriculum handbook/labs/v2_04.md §4 (corrected model handbook/labs/v2_04.md §2)."""

from __future__ import annotations

import dataclasses
import re

import pytest

from pylabs.framework.render import record, render_lab
from pylabs.labs.vol2 import v2_04 as lab
from pylabs.labs.vol2 import v2_04_model as model
from pylabs.physics import constants as C
from tests.labs.helpers import answered, feedback, metric, rendered
from tests.labs.reading import page_text

LAB = lab.LAB
RIGHT = {"a1_predict": "A", "a1_reflect": "B", "a2_predict": "C", "a2_reflect": "D"}
CONTEXTS = ("lustre", "object")


def all_open(**controls):
    return answered(LAB, RIGHT, through="a2_reflect", controls=controls)


# ---- the spec's golden vectors (handbook/labs/v2_04.md §4) ---------------------------------------------


def test_v2_04_3_demand_is_80_MBps_per_gpu_and_consistent_with_the_story():
    """handbook/labs/v2_04.md §2 corrected: the simulator consumes what the prose says, 80 MB/s per GPU."""
    assert model.DEMAND == pytest.approx(80e6, rel=1e-12)
    html = rendered(LAB, all_open())
    assert metric(html, "a1_demand") == pytest.approx(80e6)


def test_v2_04_4_defaults_give_12_7_percent_not_1_1():
    """handbook/labs/v2_04.md §2 corrected: W = 1, 4 KiB, t_o = 1 ms → X = 10.16 MB/s, U = 0.127."""
    html = rendered(LAB, all_open())
    assert metric(html, "a1_supply") == pytest.approx(10.16e6, rel=5e-4)
    assert metric(html, "a1_gpu_util") == pytest.approx(0.127, abs=5e-4)
    assert metric(html, "a1_storage_util") == pytest.approx(10.24e9 / 672e9, rel=1e-12)


@pytest.mark.parametrize("workers, util", [(4, 0.508), (8, 1.0)])
def test_v2_04_4_workers(workers, util):
    """handbook/labs/v2_04.md §4: W = 4 → 0.508; W = 8 → 1.0 (X = 81.3 MB/s)."""
    html = rendered(LAB, all_open(a1_workers=workers))
    assert metric(html, "a1_gpu_util") == pytest.approx(util, abs=5e-4)


def test_v2_04_4_one_sequential_read():
    """handbook/labs/v2_04.md §4: W = 1, q = s → X = 1,176 MB/s, U = 1.0."""
    html = rendered(LAB, all_open(a1_pattern="whole"))
    assert metric(html, "a1_supply") == pytest.approx(1176.47e6, rel=1e-5)
    assert metric(html, "a1_gpu_util") == 1.0


def test_v2_04_4_512_gpus_warn_at_61_percent():
    """handbook/labs/v2_04.md §4: N = 512, files → F = 10,240/s, D = 30,720 ops/s, 61 % (warning, not failure)."""
    html = rendered(LAB, all_open(a2_gpus=512))
    assert metric(html, "a2_files") == pytest.approx(10240)
    assert metric(html, "a2_meta_ops") == pytest.approx(30720)
    assert metric(html, "a2_meta_util") == pytest.approx(0.6144)
    assert "Metadata service running hot" in html
    assert "data-failure=" not in html.split('data-act="2"')[1]


def test_v2_04_4_4096_gpus():
    """handbook/labs/v2_04.md §4: N = 4,096 → F = 81,920/s, D = 245,760 (4.9×), 5 MDTs, 327.7 of 1,344 GB/s, 15
    prefixes."""
    c = model.SCENARIO_CLUSTER
    assert c.files == pytest.approx(81920)
    assert c.meta_ops == pytest.approx(245760)
    assert c.meta_util == pytest.approx(4.9152)
    assert c.needed == 5
    assert c.gpus * model.DEMAND == pytest.approx(327.68e9)
    assert c.aggregate == pytest.approx(1344e9)
    objects = model.Cluster(4096, False, 1, 50e3, 8, 48, True)
    assert objects.needed == 15


def test_v2_04_4_shards_cut_metadata_to_24_6_ops_with_the_spec_s_40_GB_shards(monkeypatch):
    """handbook/labs/v2_04.md §4: N = 4,096, 40 GB shards (10,000 samples) → D = 24.6 ops/s."""
    monkeypatch.setattr(model, "S", dataclasses.replace(model.S, samples_per_shard=10_000))
    assert dataclasses.replace(model.SCENARIO_CLUSTER, shards=True).meta_ops == pytest.approx(24.576)


def test_shards_are_1_GB_as_webdataset_describes_them():
    """Departure from the spec's 40 GB shards: WebDataset's docs ("Sharding, Parallel I/O, and DataLoader":
    OpenImages in 554 shards of about 1 GB) and Hugging Face's WebDataset page ("Each shard is often ~1GB").
    At 4,096 GPUs 1 GB shards are 983 metadata operations a second, 2 % of one MDT."""
    assert lab.SHARD_BYTES == pytest.approx(1e9)
    html = rendered(LAB, all_open(a2_layout="shards"))
    assert metric(html, "a2_meta_ops") == pytest.approx(4096 * 80e6 / 1e9 * 3)
    assert "Tar shards of 250 samples (1 GB)" in html


def test_workers_do_not_change_the_file_rate():
    """handbook/labs/v2_04.md §2 corrected: F is set by what the GPUs consume, not by workers."""
    one, many = (rendered(LAB, all_open(a2_workers=w)) for w in (1, 16))
    for name in ("a2_files", "a2_meta_ops", "a2_meta_util"):
        assert metric(one, name) == metric(many, name)


# ---- answer keys proven by the physics, in every context ---------------------------------


@pytest.mark.parametrize("context", CONTEXTS)
def test_act1_key_is_the_loader_and_only_the_loader_binds(context):
    headroom = model.act1_headroom(context)
    assert headroom["loader"] < 1 < min(headroom["storage"], headroom["network"])
    assert headroom["storage"] == pytest.approx(672e9 / 10.24e9)
    assert headroom["network"] == pytest.approx(25e9 / (8 * 80e6))
    assert lab.ACT1_PREDICTION.answer(context) == "A"


def test_act1_loader_in_each_context():
    """Lustre: 977 × (0.4 ms + 4,096 B ÷ 2 GB/s) + 1 ms = 393.8 ms a sample, 10.16 MB/s, 8 workers to keep
    up. Object store: 977 × (20 ms + 4,096 B ÷ 90 MB/s) = 19.58 s, 204 KB/s, 392 workers."""
    lustre, objects = model.scenario_loader("lustre"), model.scenario_loader("object")
    assert lustre.sample_s == pytest.approx(977 * (0.4e-3 + 4096 / 2e9) + 1e-3)
    assert objects.sample_s == pytest.approx(977 * (20e-3 + 4096 / 90e6))
    assert objects.supply == pytest.approx(204.2e3, rel=1e-3)
    assert (model.workers_needed(lustre), model.workers_needed(objects)) == (8, 392)


def test_an_object_store_get_streams_at_aws_s_85_to_90_MBps_per_connection():
    """Review (class 28, S2 in the object-store context): every request streamed at the Lustre stream's 2 GB/s,
    so one whole-sample GET delivered 182 MB/s. AWS, 'Horizontal Scaling and Request Parallelization for High
    Throughput' (S3 performance whitepaper): "Make one concurrent request for each 85-90 MB/s of desired network
    throughput". At 90 MB/s a 4 MB GET takes 20 ms + 44.4 ms: one worker delivers 62.1 MB/s, and two keep up;
    Act II's loaders keep a 6.21× margin, so the keys hold."""
    assert C.S3_GET_BW_PER_CONNECTION == 90e6
    whole = dataclasses.replace(model.scenario_loader("object"), request_bytes=4e6)
    assert whole.supply == pytest.approx(4e6 / (20e-3 + 4e6 / 90e6))
    assert model.workers_needed(whole) == 2
    assert model.scenario_cluster("object").headroom()["loader"] == pytest.approx(8 * whole.supply / 80e6)
    html = rendered(LAB, locked("object", {}, "a1_reflect"))
    assert "one worker delivers 62.1 MB/s, so 2 workers keep up" in feedback(html, "a1_reflect")
    assert "one worker delivers 1.18 GB/s, so one worker keeps up" in feedback(
        rendered(LAB, locked("lustre", {}, "a1_reflect")), "a1_reflect")


@pytest.mark.parametrize("context", CONTEXTS)
def test_act2_key_is_the_request_service_with_a_4x_bandwidth_margin(context):
    headroom = model.scenario_cluster(context).headroom()
    assert headroom["metadata"] < 1 < headroom["bandwidth"] < headroom["loader"]
    assert headroom["bandwidth"] == pytest.approx(1344 / 327.68)
    assert headroom["metadata"] == pytest.approx(50e3 / 245760 if context == "lustre" else 5500 / 81920)
    assert lab.ACT2_PREDICTION.answer(context) == "C"


def test_act2_key_moves_with_the_physics(monkeypatch):
    """decide() is not typed in: with enough MDTs and few OSTs the binding limit becomes bandwidth."""
    monkeypatch.setattr(model, "scenario_cluster", lambda context: model.Cluster(4096, False, 8, 50e3, 8, 8, False))
    assert model.act2_answer() == "A"
    monkeypatch.setattr(model, "scenario_cluster", lambda context: model.Cluster(4096, True, 1, 50e3, 8, 48, False))
    assert model.act2_answer() == "D"


def test_reflection_keys():
    assert lab.ACT1_REFLECTION.answer() == "B" and lab.ACT2_REFLECTION.answer() == "D"


@pytest.mark.parametrize("context", CONTEXTS)
def test_act1_reflection_key_holds_in_each_context(context):
    """B: the workers one GPU needs grow in step with the latency (ceil of R·t_s/s), and one whole-sample read
    pays one latency: one worker then keeps up."""
    ld = model.scenario_loader(context)
    slower = dataclasses.replace(ld, latency_s=2 * ld.latency_s)
    assert model.workers_needed(slower) >= 2 * model.workers_needed(ld) - 1
    whole = dataclasses.replace(ld, request_bytes=model.S.sample_bytes)
    assert whole.sample_s < 2 * (ld.latency_s + ld.open_s) + model.S.sample_bytes / ld.stream_bytes_per_s
    assert model.workers_needed(whole) <= 2 < model.workers_needed(ld)


@pytest.mark.parametrize("context", CONTEXTS)
def test_act2_reflection_key_holds_in_each_context(context):
    """D: servers needed for one file per sample grow with the GPUs (20 MDTs or 60 prefixes at 16,384),
    while 1 GB shards stay under a quarter of one server."""
    c = model.scenario_cluster(context)
    big = dataclasses.replace(c, gpus=16384)
    assert big.needed == (20 if context == "lustre" else 60)
    assert dataclasses.replace(big, shards=True).meta_util < 0.25


# ---- feedback for every option, in the context locked in -----------------------------------


def locked(context: str, choices: dict[str, str], through: str, **controls):
    """Every question through ``through`` locked (``choices`` where given, else the key) in ``context``,
    its presets applied as when the student picks it."""
    answers = {}
    for q in LAB.questions:
        answers[q.id] = {"choice": choices.get(q.id, RIGHT[q.id]), "locked_at": "2026-01-01T00:00:00Z"}
        if q.id == through:
            break
    return LAB.parse({"answers": answers, "controls": {"storage_type": context, **controls}}, "storage_type")


def test_object_store_feedback_quotes_the_object_store_s_cards():
    """In the object-store context the feedback kept Lustre's "10.2 MB/s" and "1.18 GB/s"
    while the cards showed 205 KB/s and 182 MB/s (204 KB/s and 62.1 MB/s since the review: a GET
    connection streams 90 MB/s)."""
    html = rendered(LAB, locked("object", {}, "a1_reflect"))
    cards = dict(re.findall(r'data-metric="(\w+)" data-value="[^"]*"><span class="pl-metric__label">[^<]*</span>'
                            r'<span class="pl-metric__value">([^<]*)<', html))
    assert cards["a1_supply"] == "204 KB/s"
    assert "One worker delivers 204 KB/s" in feedback(html, "a1_predict")
    assert "one worker delivers 62.1 MB/s" in feedback(html, "a1_reflect")
    assert "62.1 MB/s with whole-sample reads" in html                 # the chart's summary says the same
    for lustre in ("10.2 MB/s", "1.18 GB/s"):
        assert lustre not in feedback(html, "a1_predict") + feedback(html, "a1_reflect")
    act2 = rendered(LAB, locked("object", {}, "a2_reflect"))
    assert "81,920 GETs a second against the 5,500 one key prefix serves: 14.9×" in feedback(act2, "a2_predict")
    assert "60 key prefixes" in feedback(act2, "a2_reflect")


@pytest.mark.parametrize("context", CONTEXTS)
def test_wrong_storage_answer_quotes_the_storage_share_and_the_supply(context):
    html = rendered(LAB, locked(context, {"a1_predict": "B"}, "a1_predict"))
    facts = lab.act1_facts(context)
    assert facts["storage_util"] in feedback(html, "a1_predict")
    assert facts["supply"] == ("10.2 MB/s" if context == "lustre" else "204 KB/s")


def test_one_request_per_sample_is_singular():
    """whole-sample reads printed "1 requests per sample"."""
    html = rendered(LAB, all_open(a1_pattern="whole"))
    assert "1 request per sample" in page_text(html) and "1 requests" not in page_text(html)


# ---- nothing gives the answer away before the lock -----------------------------------------


def without_takeaways(html: str) -> str:
    """The page minus the takeaways block (the framework shows takeaways only once the lab is complete)."""
    head, rest = html.split('data-block="takeaways"')
    return head + rest.split('data-block="hud"')[1]


@pytest.mark.parametrize("context", CONTEXTS)
def test_default_page_shows_no_computed_diagnosis(context):
    html = without_takeaways(rendered(LAB, LAB.parse({"controls": {"storage_type": context}}, "storage_type")))
    facts = lab.act1_facts(context)
    for key in ("storage_util", "supply", "wait_share", "whole_supply", "link_util"):
        assert facts[key] not in page_text(html), key
    assert f"{facts['workers_needed']} workers" not in page_text(html)


@pytest.mark.parametrize("context", CONTEXTS)
def test_act2_page_before_its_lock_shows_no_metadata_numbers(context):
    html = without_takeaways(rendered(LAB, locked(context, {}, "a1_reflect")))
    act2 = page_text(html.split('data-act="2"')[1])
    facts = lab.act2_facts(context)
    for key in ("files", "ops", "overload", "gpu_util"):
        assert facts[key] not in act2, key
    assert f"{facts['needed']} {facts['servers']}" not in act2


def test_titles_and_index_card_ask_instead_of_answering():
    """The bold invariant (now held back until the last lock) answered both acts on the page and
    on the volume's index card, and Act II's title named its answer ("The Metadata Wall")."""
    titles = " ".join(act.title for act in LAB.acts).lower()
    for answer in ("metadata", "wall", "idle", "loader", "latency", "request"):
        assert answer not in titles
    assert LAB.hook and LAB.hook.endswith("?")
    assert "metadata" not in LAB.hook.lower() and "latency" not in LAB.hook.lower()
    assert LAB.manifest()["hook"] == LAB.hook and "invariant" not in LAB.manifest()
    before_last = page_text(rendered(LAB, locked("lustre", {}, "a2_predict")))
    assert "bytes in flight ÷ latency" not in before_last


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
    lustre = model.Loader(1, 4e6, 0.4e-3, model.S.open_close_s, 24, 128, C.S3_GET_BW_PER_CONNECTION)
    assert lab.loader(all_open(storage_type="object", a1_latency=0.4e-3, a1_pattern="whole")).sample_s == \
        pytest.approx(lustre.sample_s - model.S.open_close_s)


# ---- the ledger record (handbook/labs/v2_04.md §1 ledger fields) -----------------------------------------


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
    assert rec["answers"]["a1_predict"] == {"choice": "A", "locked_at": "2026-01-01T00:00:00Z", "correct": True}
    assert rec["answers"]["a2_predict"]["choice"] == "C"
    assert set(rec["failures_active"]) == {"a1_starved", "a2_metadata_saturated"}
    assert rec["complete"] is True


# ---- failure texts offer only levers that still work (defect class 3) ------------------------


def test_starved_text_does_not_offer_more_workers_than_a_loader_runs():
    lustre = page_text(rendered(LAB, locked("lustre", {}, "a1_predict")))
    assert "It takes 8 workers at this request size to keep up, or one read per sample." in lustre
    objects = page_text(rendered(LAB, locked("object", {}, "a1_predict")))
    assert "it would take 392 workers, more than the 16 a loader here runs: read each sample in one request" in objects


@pytest.mark.parametrize("context, needed, word", [("lustre", 99, "MDTs"), ("object", 60, "prefixes")])
def test_saturated_text_offers_shards_when_the_servers_needed_exceed_the_slider(context, needed, word):
    html = page_text(rendered(LAB, locked(context, {}, "a2_predict", a2_gpus=16384, a2_mdt_ops=10e3)))
    assert f"It would take {needed} {word}, more than the 32 offered here: pack samples into shards." in html
    html = page_text(rendered(LAB, locked(context, {}, "a2_predict")))
    assert "pack samples into shards" in html and "more than the 32" not in html


# ---- keys over the assumption sliders (defect class 16) and the node's port (class 13) ------


@pytest.mark.parametrize("context", CONTEXTS)
def test_act1_key_holds_over_the_whole_latency_slider(context):
    """The latency is an assumption (a slider): even at its 0.05 ms floor one worker reading 4 KiB records
    delivers under 80 MB/s (Lustre 77.1 MB/s with the 1 ms open; object store 78.6 MB/s), so the loader binds."""
    for latency in (lab.A1_LATENCY.min, lab.A1_LATENCY.max):
        ld = dataclasses.replace(model.scenario_loader(context), latency_s=latency)
        assert ld.supply < model.DEMAND < ld.aggregate / model.S.act1_gpus


def test_act2_key_holds_over_the_whole_mdt_slider():
    """At the slider's 200,000 operations a second one MDT still meets 245,760: 1.23× its capacity."""
    for ops in (lab.A2_MDT_OPS.min, lab.A2_MDT_OPS.max):
        assert dataclasses.replace(model.SCENARIO_CLUSTER, mdt_ops=ops).meta_util > 1


def test_a_loader_receives_at_most_its_share_of_the_node_port():
    """Option C's 25 GB/s port per node of eight GPUs caps each GPU's loader at 3.125 GB/s: 16 whole-sample
    workers (18.8 GB/s uncapped) deliver 3.125 GB/s, and Act II's loader margin is 39.1×, not 117.6×."""
    many = lab.loader(all_open(a1_workers=16, a1_pattern="whole"))
    assert many.supply == pytest.approx(25e9 / 8)
    assert model.SCENARIO_CLUSTER.headroom()["loader"] == pytest.approx(25e9 / 8 / 80e6)
    assert lab.act2_facts("lustre")["loader_margin"] == "39.1×"


def test_the_object_store_context_names_no_lustre_osts_in_act_ii_s_story_and_options():
    """Review (class 12): in the object-store context the CTO's message, the prompt and option A put the job
    "on 48 OSTs" and the reflection's options spoke of OSTs and files, though the dataset is in an object store."""
    html = rendered(LAB, locked("object", {}, "a2_reflect"))
    act2 = page_text(html.split('data-act="2"')[1].split('data-block="takeaways"')[0])
    assert "on 48 OSTs" not in act2 and "the 48 OSTs" not in act2 and "so the OSTs" not in act2
    assert "4,096 GPUs on an object store as fast as 48 OSTs" in act2
    assert "samples per object" in act2
    lustre = page_text(rendered(LAB, locked("lustre", {}, "a2_reflect")).split('data-act="2"')[1])
    assert "4,096 GPUs on 48 OSTs" in lustre and "more than the 48 OSTs can stream together" in lustre


def test_act1_reflection_key_is_not_the_only_option_about_latency():
    """Review (classes 18 and 24): the key was the only option that spoke of latency, the mechanism the Act I
    prediction's key had just named, and distractor D (header bytes) was refuted by that prediction's feedback
    ("99.2 % of the worker's time is waiting"). D is now the common belief that more workers shorten each wait;
    its feedback quotes the unchanged wait and the 16 workers' 163 MB/s."""
    options = [lab.ACT1_REFLECTION.text_of(letter, lab.terms("lustre")) for letter in "ABCD"]
    assert sum("latency" in text for text in options) >= 2
    html = rendered(LAB, locked("lustre", {"a1_reflect": "D"}, "a1_reflect"))
    assert "Each request still waits 0.4 ms, with one worker or 16" in feedback(html, "a1_reflect")
    assert "deliver 163 MB/s, 16 times one worker" in feedback(html, "a1_reflect")


def test_act2_reflection_distractor_c_also_speaks_to_growth():
    """Review (class 43): "as the job grows" in the prompt met only the key; option C (spreading) now claims
    each server's load stays flat as the job grows, and its feedback quotes the shard load growing with the
    GPUs: 1.97 % of one MDT at 4,096, 7.86 % at 16,384."""
    html = rendered(LAB, locked("lustre", {"a2_reflect": "C"}, "a2_reflect"))
    assert "983 metadata operations a second, 1.97 % of its capacity, and that load grows with the GPUs " \
           "(7.86 % at 16,384)" in feedback(html, "a2_reflect")
