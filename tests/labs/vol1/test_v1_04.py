"""V1-04 The Data Gravity Trap: answer keys proven by the physics in every context (handbook/labs/v1_04.md, with
the corrections from public sources), every option's feedback, gating, failure states, the context, the ledger."""

from __future__ import annotations

import pytest

from pylabs.framework.questions import fill
from pylabs.framework.render import record, render_lab
from pylabs.labs.vol1 import v1_04 as lab
from pylabs.labs.vol1 import v1_04_model as model
from pylabs.physics import constants
from tests.labs.helpers import answered, assert_key_proven, rendered

LAB = lab.LAB
CONTEXTS = LAB.context.values


def all_open(context="cloud", **controls):
    return answered(LAB, {}, through="a2_reflect", controls={"context": context, **controls})


# ---- the measured GPU rate ----------------------------------------------------


def test_the_default_mfu_is_nvidias_measured_rate_not_the_specs_0_40():
    """MFU 0.40 gave 5,073 images/s. NVIDIA DeepLearningExamples, ResNet50 v1.5 for PyTorch,
    DGX A100 (A100 80GB), 1 GPU, mixed precision: 2,470 img/s, i.e. MFU 2,470 × 24.6 GFLOP / 312 TFLOP/s
    = 0.1947; the slider's step puts the default at 0.195 (2,473 images/s) and the GPU busy 48.5 %."""
    assert constants.RESNET50_A100_AMP_TRAIN_IMAGES_PER_S == 2470.0
    assert model.measured_mfu() == pytest.approx(0.19475, abs=1e-5)
    assert model.S.mfu == pytest.approx(0.195)
    pipe = model.SCENARIO_LOADER.pipeline()
    assert pipe.gpu_per_s == pytest.approx(2470, rel=2e-3) and pipe.gpu_per_s != pytest.approx(5073.2, rel=0.1)
    assert pipe.gpu_utilization == pytest.approx(0.4852, abs=5e-5)
    assert lab.A1_MFU.parse(lab.A1_MFU.default) == lab.A1_MFU.default  # on the slider's grid
    assert "2,470 images/s" in lab.A1_MFU.help and "19.5 %" in lab.A1_MFU.help


def test_the_spec_golden_rates_still_hold_at_mfu_0_40():
    """handbook/labs/v1_04.md §4 at its own MFU 0.40: r_gpu 5,073.2 (A100) and 16,087.8 (H100); 23.65 % busy,
    16 workers on the disk 26.88 %, NVMe with 16 workers 63.08 %, random small files 2.96 %."""
    at = lambda **kw: model.Loader(mfu=0.40, **kw).pipeline()  # noqa: E731
    assert at().gpu_per_s == pytest.approx(5073.2, abs=0.05)
    assert at(gpu="h100").gpu_per_s == pytest.approx(16087.8, abs=0.05)
    assert at().gpu_utilization == pytest.approx(0.2365, abs=5e-5)
    assert at(workers=16).gpu_utilization == pytest.approx(0.2688, abs=5e-5)
    assert at(storage="nvme", workers=16).gpu_utilization == pytest.approx(0.6308, abs=5e-5)
    assert at(storage="hdd_random", workers=16).gpu_utilization == pytest.approx(0.0296, abs=5e-5)


# ---- answer keys, in every context ----------------------------------------------------------


@pytest.mark.parametrize("context", CONTEXTS)
def test_act1_key_is_cpu_decode_by_the_stage_rates(context):
    """Six workers at 200 images/s decode 1,200; the disk streams 150 MB/s ÷ 110 KB = 1,364; the A100
    could train 2,473; a decoded FP32 crop over PCIe needs 4.73 % of 31.5 GB/s. Decode binds: A."""
    pipe = model.SCENARIO_LOADER.pipeline()
    assert pipe.rates == pytest.approx({"gpu": 2473.17, "storage": 1363.64, "cpu_decode": 1200.0}, abs=0.01)
    assert pipe.bottleneck == "cpu_decode"
    need = pipe.gpu_per_s * model.tensor_bytes()
    assert model.tensor_bytes() == 224 * 224 * 3 * 4 and need / constants.PCIE4_X16_BW < 0.05
    assert lab.ACT1_PREDICTION.answer(context) == "A"


@pytest.mark.parametrize("context", CONTEXTS)
def test_act1_reflection_only_sata_with_16_workers_fills_the_gpu(context):
    """A: NVMe, six workers, 48.5 %; B: SATA, 16 workers, 100 %; C: disk, 32 workers, 55.1 %;
    D: NVMe, 10 workers, 80.9 %. The A100 needs ceil(2,473 / 200) = 13 workers on storage above
    272 MB/s. No distractor is B moved less far on every axis (D has faster storage, C more workers)."""
    utils = {k: model.fix(getattr(model.S, f"fix_{k}")).pipeline().gpu_utilization for k in "abcd"}
    assert utils == pytest.approx({"a": 0.4852, "b": 1.0, "c": 0.5514, "d": 0.8087}, abs=5e-5)
    order = ["hdd_seq", "sata", "nvme", "ram"]
    b_storage, b_workers = model.S.fix_b
    for k in "cd":
        storage, workers = getattr(model.S, f"fix_{k}")
        assert order.index(storage) > order.index(b_storage) or workers > b_workers
    assert [k for k, u in utils.items() if u == 1.0] == ["b"]
    assert lab.ACT1_REFLECTION.answer(context) == "B"


def test_act1_reflection_holds_up_to_mfu_0_25():
    """B's 16 workers (3,200 images/s) fill the A100 up to MFU 0.252; A, C and D do not fill it from 0.195."""
    at = lambda mfu, k: model.Loader(mfu=mfu, storage=getattr(model.S, f"fix_{k}")[0],  # noqa: E731
                                     workers=getattr(model.S, f"fix_{k}")[1]).pipeline().gpu_utilization
    for mfu in (0.195, 0.2, 0.22, 0.25):
        assert at(mfu, "b") == 1.0 and max(at(mfu, k) for k in "acd") < 1.0


@pytest.mark.parametrize("context,seconds,key", [("cloud", 4000.0, "C"), ("edge", 400000.0, "D")])
def test_act2_key_follows_the_contexts_link(context, seconds, key):
    """handbook/labs/v1_04.md §4: 50 TB at 100 Gb/s, η = 1: 4,000 s (66.7 min), in C (1 h to 6 h); the edge site's
    1 Gb/s LAN: 400,000 s (4.63 days), in D (6 h or more)."""
    assert model.act2_truth(context) == pytest.approx(seconds)
    assert_key_proven(lab.ACT2_PREDICTION, key, context)


def test_act2_ranges_are_ordered_and_meet_at_the_budget():
    bounds = [(o.low, o.high) for o in lab.ACT2_PREDICTION.options]
    assert bounds == [(None, 600), (600, 3600), (3600, model.S.budget_s), (model.S.budget_s, None)]


@pytest.mark.parametrize("context", CONTEXTS)
def test_act2_reflection_no_offered_link_copies_a_petabyte_in_time(context):
    """1 PB at the fastest link offered (100 Gb/s) is 22.2 h > 6 h; twice today's link and Lepton's 77 %
    (Horn et al., NSDI 2017) do not fit either; the fee is $20k in the cloud and $0 on the LAN."""
    top = model.Move(model.S.pb_bytes, max(model.LINKS.values()))
    assert top.time_s / 3600 == pytest.approx(22.22, abs=5e-3) and top.too_slow
    assert model.scenario_move(context, model.S.pb_bytes, model.S.faster_link).too_slow
    assert model.scenario_move(context, model.S.pb_bytes * constants.LEPTON_SIZE_RATIO).too_slow
    assert model.scenario_move(context, model.S.pb_bytes).fee_usd == {"cloud": 20000.0, "edge": 0.0}[context]
    assert lab.ACT2_REFLECTION.answer(context) == "D"


def test_a_petabyte_to_the_internet_costs_the_tiered_price():
    """1 PB out to the internet was priced at the first tier ($90k). AWS EC2 on-demand
    pricing (US East) bills $0.09, $0.085, $0.07 per GB for the first 10, next 40 and next 100 TB a month and
    $0.05 above 150 TB: $53,800. The spec's "50 TB at $0.09 → $4,500" is $4,300."""
    assert model.Move(1e15, 100e9, tariff="internet").fee_usd == pytest.approx(53_800.0)
    html = rendered(LAB, all_open(a2_efficiency=0.8, a2_price="internet"))
    assert metric_value(html, "a2_fee_usd") == pytest.approx(4300.0) and "$0.086/GB on average × 50 TB" in html
    assert "$0.085/GB" in lab.A2_PRICE.help and "$90k" not in rendered(LAB, all_open(a2_dataset=1e15,
                                                                                    a2_price="internet"))


# ---- every option's feedback gives its physics, in every context --------------------------------


@pytest.mark.parametrize("context", CONTEXTS)
def test_every_feedback_fills_and_quotes_the_contexts_numbers(context):
    facts = {**lab.act1_facts(), **lab.act2_facts(context)}
    texts = {q.id: {o.letter: fill(o.feedback, facts) for o in q.options} for q in LAB.questions}
    assert "1,200 images/s" in texts["a1_predict"]["A"] and "1,364 images/s" in texts["a1_predict"]["B"]
    assert "4.73 %" in texts["a1_predict"]["D"] and "at least 13" in texts["a1_reflect"]["B"]
    assert "on average" in texts["a2_reflect"]["B"]
    link = {"cloud": "100 Gb/s", "edge": "1 Gb/s"}[context]
    time = {"cloud": "1.11 h", "edge": "4.63 days"}[context]
    assert all(time in texts["a2_predict"][k] for k in "ABCD") and link in texts["a2_predict"]["C"]
    assert "22.2 h" in texts["a2_reflect"]["D"] and "past the 6 h" in texts["a2_reflect"]["A"]
    fee = {"cloud": "$20k", "edge": "free LAN"}[context]
    assert fee in texts["a2_reflect"]["C"]


def test_the_prompt_of_act2_names_the_link_of_its_context():
    prompts = {c: lab.ACT2_PREDICTION.prompt.format_map(LAB.terms(c)) for c in CONTEXTS}
    assert "(100 Gb/s)" in prompts["cloud"] and "LAN (1 Gb/s)" in prompts["edge"]


# ---- the page: instruments follow the controls ------------------------------------------


def metric_value(html: str, name: str) -> float:
    start = html.index(f'data-metric="{name}"')
    value = html[html.index('data-value="', start) + len('data-value="'):]
    return float(value[:value.index('"')])


def test_instruments_show_the_golden_numbers():
    html = rendered(LAB, all_open())
    assert metric_value(html, "a1_util") == pytest.approx(0.48521, rel=1e-4)
    assert metric_value(html, "a1_gpu_rate") == pytest.approx(2473.17, rel=1e-5)
    assert metric_value(html, "a2_transfer_s") == pytest.approx(4000.0)
    assert metric_value(html, "a2_fee_usd") == pytest.approx(1000.0)
    html = rendered(LAB, all_open(a2_efficiency=0.8))
    assert metric_value(html, "a2_transfer_s") / 3600 == pytest.approx(1.389, abs=5e-4)


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


def failure_text(html: str, name: str) -> str:
    start = html.index(f'data-failure="{name}"')
    return html[start:html.index("</div>", start)]


def test_gpu_starved_is_reached_and_left_and_names_a_lever_that_is_left():
    """The failure names the lever that lifts the slowest stage, and says so
    when the instruments have none (32 workers at 50 images/s cannot feed an H100)."""
    assert "a1_gpu_starved" in LAB.failures_now(all_open())
    assert ("13 workers at 200 images/s each would decode enough; storage, at 1,364 images/s, would then set the "
            "pace") in failure_text(rendered(LAB, all_open()), "a1_gpu_starved")
    html = rendered(LAB, all_open(a1_gpu="h100", a1_workers=32, a1_per_worker=50, a1_storage="nvme"))
    assert "Even 32 workers decode only" in failure_text(html, "a1_gpu_starved")
    html = rendered(LAB, all_open(a1_workers=32))
    assert "move them to faster storage" in failure_text(html, "a1_gpu_starved")
    fixed = all_open(a1_storage="sata", a1_workers=16)
    assert "a1_gpu_starved" not in LAB.failures_now(fixed)
    assert 'data-failure="a1_gpu_starved"' not in render_lab(LAB, fixed)
    assert "a1_gpu_starved" in LAB.failures_now(all_open(a1_storage="nvme", a1_workers=10))  # 80.9 %: starved


def test_data_gravity_is_reached_and_left_section_4():
    """handbook/labs/v1_04.md §2: the failure fires past the budget, e.g. a 10 Gb/s link or 1 PB; its text names the
    largest lever left (the fastest link) and never the reflection's answer."""
    assert "a2_data_gravity" not in LAB.failures_now(all_open())
    assert "a2_data_gravity" in LAB.failures_now(all_open(a2_link="10"))
    slow = failure_text(rendered(LAB, all_open(a2_link="10")), "a2_data_gravity")
    assert "at 100 Gb/s and the full line rate it takes 1.11 h, which would fit" in slow
    pb = failure_text(rendered(LAB, all_open(a2_dataset=1e15)), "a2_data_gravity")
    assert "the fastest link offered, already at its full line rate" in pb and "compute" not in pb
    assert "no link offered here" not in pb  # review, class 6: key D's own words, read as the instruments' verdict
    assert "a2_data_gravity" not in LAB.failures_now(all_open(a2_dataset=1e15, a2_budget=24 * 3600))


# ---- the context ----------------------------------------------------------------------


def test_edge_context_moves_data_over_a_free_lan():
    state = LAB.parse({"controls": {"context": "edge"}}, changed="context")
    assert state["a2_link"] == "1" and state["a2_price"] == "lan"
    edge = all_open("edge", a2_link="1", a2_price="inter")
    assert lab.move(edge).fee_usd == 0.0 and lab.move(edge).too_slow
    html = rendered(LAB, edge)
    assert "Not used at the edge" in html and "another building of the site" in html
    back = LAB.parse({"controls": {"context": "cloud"}}, changed="context")
    assert back["a2_link"] == "100" and back["a2_price"] == "inter"


def test_mobile_and_tiny_tracks_are_explained():
    assert set(LAB.track_notes) == {"mobile", "tiny"}
    assert all("opens in Cloud" in note for note in LAB.track_notes.values())


# ---- the ledger -----------------------------------------------------------------------------


def test_record_holds_the_spec_fields_with_readable_values():
    rec = record(LAB, all_open(a2_link="10"))
    assert rec["complete"] is True
    res = rec["results"]
    assert set(res) == {"storage", "workers", "util", "bottleneck", "dataset_tb", "transfer_h", "egress_usd",
                        "gravity_triggered"}
    assert res["storage"] == "hdd_seq" and res["bottleneck"] == "CPU decode"
    assert res["dataset_tb"] == pytest.approx(50) and res["transfer_h"] == pytest.approx(11.11, abs=5e-3)
    assert res["gravity_triggered"] is True and "a2_data_gravity" in rec["failures_active"]


def test_upstream_errors_are_gone():
    """handbook/labs/v1_04.md §5: no 312 'FP32', no 0.84 ms compute, no $0.08/GB; 4 GFLOPs named as multiply-adds."""
    html = rendered(LAB, all_open())
    assert "FP32 ·" not in html and "$0.08/" not in html and "0.841" not in html
    assert "multiply-adds" in html and "BF16 dense" in html


# ---- text follows its source -------------------------------------------------------------


def test_workers_starvation_and_line_share_in_the_text_follow_the_scenario(relabelled):
    """"the six workers", "more than 10 % of the time" and "about 80 %" are S.workers, S.starved_below
    and S.sustained_share."""
    before = rendered(LAB, answered(LAB, {"a1_reflect": "A"}, through="a2_reflect"))
    assert "but the six workers still decode" in before and "sustained copies often reach about 80 %" in before
    assert "GPU starved: it waits for data more than 10 % of the time" in before
    changed = relabelled(workers=4, starved_below=0.75, sustained_share=0.9)
    after = rendered(changed.LAB, answered(changed.LAB, {"a1_reflect": "A"}, through="a2_reflect"))
    assert "but the four workers still decode" in after and "sustained copies often reach about 90 %" in after
    assert changed.F["a1_gpu_starved"].title == "GPU starved: it waits for data more than a quarter of the time"
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


def test_track_notes_and_scenes_never_state_a_key():
    """The notes and the Act II scenes name no answer: not 'move the compute', no transfer time."""
    text = " ".join([*LAB.track_notes.values(), *lab.SCENES.values()]).lower()
    assert "compute" not in text and "1.11 h" not in text


# ---- independent review ---------------------------------------------------------------------


def pre_lock_text(context="cloud"):
    from tests.labs.reading import page_text
    return page_text(str(rendered(LAB, LAB.parse({"controls": {"context": context}}, "context"))))


def test_act1_story_states_the_stage_rates_the_key_rests_on_before_the_lock():
    """Review, class 16: key A rests on 6 × 200 = 1,200 images/s against 150 MB/s ÷ 110 KB = 1,364 (13.6 %
    apart); it flips above 227 images/s per worker, below 132 MB/s or above 125 KB. The scenario states the
    decode rate (an estimate) and the disk's stream before the lock, not only the dimmed locked controls."""
    story = " ".join(lab.ACT1.scenario())
    assert "about 200 images/s (an estimate)" in story and "150 MB/s" in story and "110 KB" in story
    for per_worker in range(50, 228):  # A holds up to the flip, and the flip is where the physics puts it
        assert model.Loader(per_worker=per_worker).pipeline().bottleneck == "cpu_decode"
    assert model.Loader(per_worker=230).pipeline().bottleneck == "storage"
    for mfu in (0.1, 0.195, 0.6):  # over the whole MFU slider and both GPUs
        for gpu in model.GPUS:
            assert model.Loader(gpu=gpu, mfu=mfu).pipeline().bottleneck == "cpu_decode"


def test_wrong_storage_pick_gives_the_gap_from_the_right_side():
    """Review: 1,200 is 12.0 % below 1,364 (the disk streams 13.6 % more); "13.6 % below the disk" was wrong."""
    facts = lab.act1_facts()
    b = fill(lab.ACT1_PREDICTION.options[1].feedback, facts)
    assert "12 % below" in b or "12.0 % below" in b
    assert "13.6 % below" not in b


def test_the_measurement_is_not_said_to_use_the_fastest_loader():
    """Review: the DeepLearningExamples README gives 2,470 img/s (DGX A100, 1 GPU, AMP) without naming the
    data backend it used; "with its fastest loader" was unsupported. It measures the whole training job."""
    html = rendered(LAB, all_open())
    assert "fastest loader" not in html and "loading included" in html


def test_nothing_before_the_lock_paraphrases_act2s_reflection():
    """Review, classes 6 and 24: the reading list said "bringing compute to the data" (key D in other
    words) and the V1-09 connection "instead of moving all of it" (refuting A and B, "copy all of it")."""
    for context in CONTEXTS:
        text = pre_lock_text(context).lower()
        assert "compute to the data" not in text and "moving all of it" not in text


def test_a_storage_bound_starvation_also_names_the_stage_behind_it():
    """Review, class 21: when the disk binds the lever names storage, and when decode is also below the
    GPU (six workers behind one small file per image) it says decode sets the pace next, as the
    decode-bound text already did for storage."""
    text = failure_text(rendered(LAB, all_open(a1_storage="hdd_random", a1_workers=6)), "a1_gpu_starved")
    assert "Shard the small files" in text and "Decode, at 1,200 images/s, would then set the pace" in text
    text = failure_text(rendered(LAB, all_open(a1_workers=32)), "a1_gpu_starved")
    assert "move them to faster storage" in text and "would then set the pace" not in text


def test_a_free_copy_buys_no_compute_and_says_so():
    """Review (F): on a free LAN the card read "0 h at $20/h"; it says there is no fee to spend."""
    html = rendered(LAB, all_open("edge", a2_link="1", a2_price="lan"))
    start = html.index('data-metric="a2_bought_s"')
    assert "no fee to spend" in html[start:html.index("</div>", html.index("</div>", start) + 6) + 200]


def test_four_times_the_gpus_says_they_share_this_loader():
    """Review (S3): "GPU busy with 4× the GPUs 12.1 %" holds only if the new GPUs share the same disk and
    decode workers (util_with); GPUs bought with their own servers would stay at 48.5 %. Say so."""
    html = rendered(LAB, all_open())
    assert "GPU busy with 4× the GPUs on this loader" in html
    c = fill(lab.ACT1_PREDICTION.options[2].feedback, lab.act1_facts())
    assert "4× the GPUs on the same loader, each would be busy 12.1 %" in c
