"""Lab V1-04 · The Data Gravity Trap.

Core invariant: a training job runs at the rate of its slowest stage. With prefetching, storage,
CPU decode and the GPU work at once, so the GPU is busy r / r_gpu of the time, where r is the
smallest of the three rates; and a dataset moves between sites at 8·D / (link · η) seconds, so
past some size the compute must go to the data.

Act I (the pipeline): ResNet-50 on an A100 at NVIDIA's measured rate (2,470 images/s, MFU 19.5 %)
is fed by six decode workers (1,200 images/s) and one hard disk (1,364): the GPU is busy 48.5 %
of the time. The prediction asks which stage limits the job (A, CPU decode: the disk streams
13.6 % more); the reflection asks which of four purchases fills the GPU (B: a SATA SSD with 16 workers).
Act II (data gravity): 50 TB over the context's link at full line rate: 4,000 s between AWS regions
at 100 Gb/s (C, 1 h to 6 h), 4.63 days over the edge site's 1 Gb/s LAN (D). The reflection: with
1 PB and a 6-hour budget, move the compute, because no link offered copies it in time (D).

Where the lab departs from the spec (handbook/labs/v1_04.md §5), and why:
- MFU: the spec's 0.40 gives 5,073 images/s on one A100; NVIDIA DeepLearningExamples (ResNet50
  v1.5, PyTorch, 1x A100 80GB, mixed precision) measures 2,470, i.e. MFU 0.195, the default here.
  The spec's golden utilisations (23.65 %, 26.88 %, 63.08 %) were at 0.40.
- Internet egress is tiered (AWS: $0.09, $0.085, $0.07, then $0.05 per GB above 150 TB a month):
  1 PB costs about $53.8k, not $90k, and the spec's "50 TB at $0.09 → $4,500" is $4,300.
- The Act I prediction names the four stages (decode, disk, GPU, PCIe copy) so the student must
  compare their rates; the spec's "data loading" against "the GPU" was readable from the story.
  The reflection offers four concrete purchases instead of "both fixes", which form gave away.
- Act II's prediction and reflection follow the context (the cloud's inter-region link with its
  fee, the edge site's free LAN). Mobile and TinyML are explained on the page: a phone or an MCU
  neither trains on 10 TB nor receives a 50 TB copy.
- Storage and access pattern are one control (flash and RAM have no seek, as the help says); the
  disk's random-read rate is an instrument (150 IOPS assumed, handbook/errata.md#e7), used only for small files.

Ledger: context, the four answers, the controls, and results storage, workers, util, bottleneck,
dataset_tb, transfer_h, egress_usd, gravity_triggered.
"""

from __future__ import annotations

import math

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option, Pick,
                              Prediction, Range, Reflection, Slider, State, failure, fmt, math_peek,
                              metric_grid, tone)
from pylabs.labs.vol1.contexts import TRACK, deployment
from pylabs.labs.vol1.v1_04_charts import STAGE_NAMES, act1_chart, act2_chart
from pylabs.labs.vol1.v1_04_model import (CONTEXT_LINK, FLOP_PER_IMAGE, GPUS, LINKS, SCENARIO_LOADER, STORAGE,
                                          TARIFFS, Loader, Move, S, act1_answer, act2_truth, fix,
                                          scenario_move, tensor_bytes, util_with)
from pylabs.physics import constants as C
from pylabs.physics import storage as io
from pylabs.physics import transfer
from pylabs.physics import units as U
from pylabs.physics.references import cite


STAGE_SUBJECTS = {"gpu": "The GPU", "storage": "Storage", "cpu_decode": "CPU decode"}


# ---- context ------------------------------------------------------------------------

CONTEXT = deployment(("cloud", "edge"), default="cloud", labels={"cloud": "Cloud (A100s, AWS regions)",
                                                                  "edge": "Edge (A100s on the site)"}, help=(
    f"Sets Act II's network. Cloud: the data crosses between AWS regions over a {fmt(S.act2_link_bits, 'bit/s')} "
    f"link and pays a per-GB fee. Edge: it crosses a site's own {fmt(S.lan_bits, 'bit/s')} LAN, free. Act I's "
    "training server is the same in both."))

TRACK_NOTES = {
    track: (f"{name} is not offered here: this lab trains ResNet-50 on {fmt(S.act1_dataset_bytes, 'B')} of images "
            f"on A100 GPUs and copies {fmt(S.act2_dataset_bytes, 'B')} between sites, work that runs in a data "
            f"centre or on a site's servers, not on a {device}. The lab opens in Cloud; before your first lock "
            "you can pick Edge (a site's own servers and LAN) above.")
    for track, name, device in (("mobile", "Mobile", "phone"), ("tiny", "TinyML", "microcontroller"))}

ROUTES = {"cloud": "the link between the two AWS regions", "edge": "the site's own LAN"}


def terms(context: str) -> dict[str, str]:
    """The words the questions name: the context's link (Act II), the reflection's worker counts."""
    return {"route": ROUTES[context], "link": fmt(CONTEXT_LINK[context], "bit/s"),
            "workers": fmt(S.workers, "words"), **{f"w_{k}": str(getattr(S, f"fix_{k}")[1]) for k in "abcd"}}


# ---- Act I · The pipeline ------------------------------------------------------------

A1_GPU = Choice("a1_gpu", "Accelerator", tuple(
    Option(k, f"{d.name} · {fmt(d.peak_ops, 'FLOP/s')} {d.precision}") for k, d in GPUS.items()),
    default="a100", widget="select")
A1_MFU = Slider("a1_mfu", "GPU utilisation (MFU)", unit="1", min=0.1, max=0.6, step=S.mfu_step,
                default=S.mfu, fmt="pct",
                help=f"NVIDIA measures ResNet-50 v1.5 training at {fmt(C.RESNET50_A100_AMP_TRAIN_IMAGES_PER_S, 'images/s')} "
                     f"on one A100 80GB with mixed precision: {fmt(S.mfu, 'pct')} of its peak. The same share on "
                     "the H100 is assumed.")
A1_STORAGE = Choice("a1_storage", "Where the JPEGs are read from", tuple(
    Option(k, f"{name} · {fmt(bw, 'B/s')}") for k, (name, bw, _) in STORAGE.items()),
    default="hdd_seq", widget="select", unit="B/s",
    help="Flash and RAM have no seek: reading a whole image at random runs near their bandwidth (assumed).")
A1_IOPS = Slider("a1_iops", "Disk random reads/s (assumed)", unit="1/s", min=C.HDD_RANDOM_IOPS_LOW,
                 max=C.HDD_RANDOM_IOPS_HIGH, step=10, default=C.HDD_RANDOM_IOPS, fmt="num",
                 help=f"Each small file costs a seek and half a rotation; {fmt(C.HDD_RANDOM_IOPS_LOW, 'num')} to "
                      f"{fmt(C.HDD_RANDOM_IOPS_HIGH, 'num')} per second is the usual range.")
A1_IMAGE = Slider("a1_image", "Stored JPEG per image", unit="B", min=50e3, max=500e3, step=10e3,
                  default=S.image_bytes, fmt="B",
                  help=f"ImageNet: {fmt(C.IMAGENET_BYTES, 'B')} for {fmt(C.IMAGENET_TRAIN_IMAGES, 'int')} training "
                       f"images, about {fmt(C.IMAGENET_BYTES / C.IMAGENET_TRAIN_IMAGES, 'B')} each.")
A1_WORKERS = Slider("a1_workers", "Data-loader workers (CPU processes)", unit="1", min=1, max=32, step=1,
                    default=S.workers, fmt="int")
A1_PER_WORKER = Slider("a1_per_worker", "Decode per worker (assumed)", unit="images/s",
                       min=50, max=600, step=10, default=S.decode_per_worker, fmt="images/s",
                       help="JPEG decode plus random-resized crop on one CPU core; an estimate, not a measurement.")


def loader(s: State) -> Loader:
    return Loader(s["a1_gpu"], s["a1_mfu"], s["a1_storage"], s["a1_iops"], s["a1_image"],
                  s["a1_workers"], s["a1_per_worker"])


def a1_overridden(s: State) -> dict[str, str]:
    if STORAGE[s["a1_storage"]][2]:
        return {}
    return {"a1_iops": "Not used: only a hard disk reading one small file per image is limited by "
                       "its random reads."}


def act1_facts() -> dict[str, str]:
    """The same in both contexts: Act I's training server does not change with the network."""
    pipe = SCENARIO_LOADER.pipeline()
    fixes = {k: fix(getattr(S, f"fix_{k}")).pipeline() for k in "abcd"}
    pcie_need = pipe.gpu_per_s * tensor_bytes()
    return {
        "a1_gpu_rate": M["a1_gpu_rate"].text(pipe.gpu_per_s), "a1_rate": M["a1_rate"].text(pipe.samples_per_s),
        "a1_decode_rate": M["a1_decode_rate"].text(pipe.decode_per_s),
        "a1_storage_rate": M["a1_storage_rate"].text(pipe.storage_per_s),
        "a1_util": M["a1_util"].text(pipe.gpu_utilization), "mfu": fmt(S.mfu, "pct"),
        "a1_util_more": M["a1_util_more"].text(util_with(SCENARIO_LOADER, S.more_gpus)), "more": f"{S.more_gpus}×",
        "workers": fmt(S.workers, "words"), "per_worker": fmt(S.decode_per_worker, "images/s"),
        "disk": fmt(C.HDD_SEQ_BW, "B/s"), "jpeg": fmt(S.image_bytes, "B"),
        "a1_need_bw": M["a1_need_bw"].text(pipe.gpu_per_s * S.image_bytes),
        "decode_gap": fmt(pipe.storage_per_s / pipe.decode_per_s - 1, "pct"),
        "decode_below": fmt(1 - pipe.decode_per_s / pipe.storage_per_s, "pct"),
        "gpu_over": fmt(pipe.gpu_per_s / pipe.samples_per_s, "x"),
        "tensor": fmt(tensor_bytes(), "B"), "pcie": fmt(C.PCIE4_X16_BW, "B/s"), "pcie_need": fmt(pcie_need, "B/s"),
        "pcie_share": fmt(pcie_need / C.PCIE4_X16_BW, "pct"),
        "gpu_flop": fmt(FLOP_PER_IMAGE, "GFLOP"), "peak": fmt(GPUS["a100"].peak_ops, "FLOP/s"),
        **{f"fix_{k}_{part}": fmt(value, form) for k, p in fixes.items() for part, value, form in (
            ("storage", p.storage_per_s, "images/s"), ("decode", p.decode_per_s, "images/s"),
            ("util", p.gpu_utilization, "pct"))},
        **{k: v for k, v in terms("cloud").items() if k.startswith("w_")},
        "need_workers": str(math.ceil(pipe.gpu_per_s / S.decode_per_worker)),
    }


ACT1_PREDICTION = Pick(
    id="a1_predict", act=1,
    prompt="At the team's settings, which stage sets how many images per second the job trains?",
    quantity="the stage that limits training throughput",
    options=(
        Claim("A", "**CPU decode**: the workers decode fewer images per second than the disk or GPU.",
              "The {workers} workers at {per_worker} each give {a1_decode_rate}; the disk streams {disk} ÷ {jpeg} = "
              "{a1_storage_rate}, {decode_gap} more, and the A100 could train {a1_gpu_rate}. The job runs at "
              "the slowest: {a1_rate}, the GPU busy {a1_util}."),
        Claim("B", "**Storage**: the hard disk streams fewer images per second than decode or the GPU.",
              "The disk streams {disk} ÷ {jpeg} = {a1_storage_rate}, close, but the {workers} workers at "
              "{per_worker} each give only {a1_decode_rate}: decode binds first, {decode_below} below the disk."),
        Claim("C", "**The GPU**: ResNet-50's forward and backward passes are the slowest step.",
              "Training one image costs {gpu_flop}; at {mfu} of {peak} the A100 could train {a1_gpu_rate}, "
              "{gpu_over} what the loader delivers ({a1_rate}). With {more} the GPUs on the same loader, each would be "
              "busy "
              "{a1_util_more}."),
        Claim("D", "**The PCIe link**: copying decoded images to the GPU is slower than the rest.",
              "A decoded crop in FP32 is {tensor}: at the {a1_gpu_rate} the GPU could train that is {pcie_need}, "
              "{pcie_share} of PCIe 4.0 x16 ({pcie}). The copy is not the slow stage here."),
    ),
    decide=act1_answer,
)

ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="Keeping the team's MFU and JPEGs, which purchase lets the A100 train at its full rate?",
    options=(
        Claim("A", "An NVMe SSD in place of the hard disk, keeping the {workers} workers.",
              "NVMe streams {fix_a_storage}, but the {workers} workers still decode {fix_a_decode}: busy {fix_a_util}. "
              "The disk was never the slowest stage."),
        Claim("B", "A SATA SSD in place of the hard disk, and {w_b} decode workers.",
              "SATA streams {fix_b_storage} and {w_b} workers decode {fix_b_decode}: both outrun the "
              "{a1_gpu_rate} the A100 trains, so it is busy {fix_b_util}. It needs at least {need_workers} "
              "workers on storage faster than its {a1_need_bw}."),
        Claim("C", "The hard disk kept, with {w_c} decode workers instead of {workers}.",
              "With {w_c} workers decode gives {fix_c_decode}, but the disk still streams {fix_c_storage}: busy "
              "{fix_c_util}. Fixing decode alone moves the bottleneck to storage."),
        Claim("D", "An NVMe SSD in place of the hard disk, and {w_d} decode workers.",
              "NVMe streams {fix_d_storage}, far more than needed, but {w_d} workers decode {fix_d_decode}: busy "
              "{fix_d_util}. At {per_worker} each the A100 needs {need_workers} workers."),
    ),
    answer_letter="B",
)

M = {m.name: m for m in (
    MetricSpec("a1_util", "GPU busy", "1", "pct"),
    MetricSpec("a1_rate", "Images trained per second", "images/s", "images/s"),
    MetricSpec("a1_gpu_rate", "GPU could train", "images/s", "images/s"),
    MetricSpec("a1_storage_rate", "Storage delivers", "images/s", "images/s"),
    MetricSpec("a1_decode_rate", "CPU workers decode", "images/s", "images/s"),
    MetricSpec("a1_util_more", f"GPU busy with {S.more_gpus}× the GPUs on this loader", "1", "pct"),
    MetricSpec("a1_epoch_s", f"One pass over {fmt(S.act1_dataset_bytes, 'B')}", "s", "s"),
    MetricSpec("a1_need_bw", "JPEG bandwidth the GPU needs", "B/s", "B/s"),
    MetricSpec("a2_transfer_s", "Transfer time", "s", "s"),
    MetricSpec("a2_fee_usd", "Transfer fee", "USD", "usd"),
    MetricSpec("a2_budget_share", "Transfer ÷ time budget", "1", "x"),
    MetricSpec("a2_goodput", "Data moved per second", "B/s", "B/s"),
    MetricSpec("a2_bought_s", "Compute next to the data the fee would buy", "s", "h"),
)}

FAILURES = (
    FailureSpec("a1_gpu_starved",
                f"GPU starved: it waits for data more than {fmt(1 - S.starved_below, 'fraction')} of the time",
                act=1, severity="warn",
                reach={}, leave={"a1_storage": "sata", "a1_workers": 16}),
    FailureSpec("a2_data_gravity", "Data gravity: the data cannot arrive before the run must start", act=2,
                reach={"a2_link": "10"}, leave={"a2_link": "100"}),
)
F = {f.name: f for f in FAILURES}


def act1_instruments(s: State) -> list:
    ld = loader(s)
    pipe = ld.pipeline()
    limit = pipe.bottleneck
    warn = lambda stage: "danger" if limit == stage and stage != "gpu" else None  # noqa: E731
    parts = [metric_grid(
        M["a1_util"].show(pipe.gpu_utilization, tone(pipe.gpu_utilization)),
        M["a1_rate"].show(pipe.samples_per_s, note=f"limited by {STAGE_NAMES[limit]}"),
        M["a1_gpu_rate"].show(pipe.gpu_per_s, "good" if limit == "gpu" else None),
        M["a1_storage_rate"].show(pipe.storage_per_s, warn("storage")),
        M["a1_decode_rate"].show(pipe.decode_per_s, warn("cpu_decode")),
        M["a1_need_bw"].show(pipe.gpu_per_s * ld.image_bytes),
        M["a1_util_more"].show(util_with(ld, S.more_gpus), tone(util_with(ld, S.more_gpus))),
        M["a1_epoch_s"].show(S.act1_dataset_bytes / ld.image_bytes / pipe.samples_per_s),
    )]
    if pipe.gpu_utilization < S.starved_below:
        parts.append(failure(F["a1_gpu_starved"],
                             f"{STAGE_SUBJECTS[limit]} delivers {fmt(pipe.samples_per_s, 'images/s')}, "
                             f"the GPU could train {fmt(pipe.gpu_per_s, 'images/s')}. {starved_lever(ld, pipe)}"))
    parts.append(act1_chart(pipe, ld))
    return parts


def starved_lever(ld: Loader, pipe: io.Pipeline) -> str:
    """The lever that lifts the slowest stage, or why the instruments have none left."""
    if pipe.bottleneck == "cpu_decode":
        need = math.ceil(pipe.gpu_per_s / ld.per_worker)
        if need <= A1_WORKERS.max:
            then = (f"; storage, at {fmt(pipe.storage_per_s, 'images/s')}, would then set the pace"
                    if pipe.storage_per_s < pipe.gpu_per_s else "")
            return f"{fmt(need, 'int')} workers at {fmt(ld.per_worker, 'images/s')} each would decode enough{then}."
        return (f"Even {fmt(A1_WORKERS.max, 'int')} workers decode only {fmt(A1_WORKERS.max * ld.per_worker, 'images/s')}"
                ": this GPU needs faster decoding per worker than these CPUs give.")
    then = (f" Decode, at {fmt(pipe.decode_per_s, 'images/s')}, would then set the pace."
            if pipe.decode_per_s < pipe.gpu_per_s else "")
    if ld.storage == "hdd_random":
        return "Shard the small files so the disk reads them in order, or move them to flash." + then
    if ld.storage != "ram":
        return (f"The GPU needs {fmt(pipe.gpu_per_s * ld.image_bytes, 'B/s')} of JPEG: move them to faster "
                "storage." + then)
    return (f"Even RAM delivers only {fmt(pipe.storage_per_s, 'images/s')} of images this size: store smaller "
            "JPEGs.")


def act1_math(s: State):
    ld = loader(s)
    pipe = ld.pipeline()
    _, bandwidth, random = STORAGE[ld.storage]
    return math_peek("The governing equations · Act I", (
        Equation(r"r_{\text{gpu}} = \frac{R\,u}{F},\quad F = 3 \times 2 \times M = 3 \times \text{"
                 + fmt(2 * C.RESNET50_MACS, "GFLOP") + "} = \\text{" + fmt(FLOP_PER_IMAGE, "GFLOP") + "}",
                 "Peak *R* times utilisation *u*, over the work *F* of training on one image: *M* multiply-adds "
                 "forward at 2 FLOP each, and the backward pass costs twice the forward."),
        Equation(r"r_{\text{io}} = \frac{B}{s}\quad\text{or}\quad \min\!\left(\frac{B}{s},\ \text{IOPS}\right)",
                 "Storage bandwidth over the bytes of one JPEG; one small file per image on a disk is capped by "
                 "its random reads per second."),
        Equation(r"r_{\text{cpu}} = w\,r_w", "Workers add decode throughput; they cannot make the disk faster."),
        Equation(r"r = \min(r_{\text{gpu}}, r_{\text{io}}, r_{\text{cpu}}),\quad U = \frac{r}{r_{\text{gpu}}}",
                 "With prefetching every stage runs at once, so the slowest sets the pace (stages are not summed). "
                 "An idealisation: it assumes perfect overlap, so *U* is an upper bound; NVIDIA measures "
                 f"the whole job, loading included, at {fmt(C.RESNET50_A100_AMP_TRAIN_IMAGES_PER_S, 'images/s')} on one A100."),
    ), rows=(
        ("Peak *R*", fmt(GPUS[ld.gpu].peak_ops, "FLOP/s")),
        ("Multiply-adds forward *M*", fmt(C.RESNET50_MACS, "GFLOP").replace("FLOP", " MAC")),
        ("Work per image *F*", fmt(FLOP_PER_IMAGE, "GFLOP")),
        ("Storage *B*", fmt(bandwidth, "B/s") + (f", {fmt(ld.iops, 'num')} reads/s" if random else "")),
        ("*r*gpu, *r*io, *r*cpu", " · ".join(fmt(v, "images/s") for v in pipe.rates.values())),
        ("GPU busy *U*", fmt(pipe.gpu_utilization, "pct")),
    ), sources=(
        C.REGISTRY["RESNET50_MACS"].source,
        cite("he2016", "ResNet-50's cost in multiply-adds"),
        C.REGISTRY["A100_PEAK_BF16_DENSE"].source,
        C.REGISTRY["HDD_SEQ_BW"].source, C.REGISTRY["HDD_RANDOM_IOPS"].source,
        C.REGISTRY["NVME_GEN4_BW"].source, C.REGISTRY["RESNET50_A100_AMP_TRAIN_IMAGES_PER_S"].source,
        C.REGISTRY["PCIE4_X16_BW"].source,
    ))


ACT1 = Act(
    number=1, title="The Pipeline Nobody Profiled", minutes="12–15 min",
    stakeholder_role="ML Team Lead",
    stakeholder=lambda: (
        f"We train ResNet-50 on {fmt(S.act1_dataset_bytes, 'B')} of JPEG images on A100s, and the dashboard "
        f"says each GPU is busy only {fmt(SCENARIO_LOADER.pipeline().gpu_utilization, 'pct')} of the time. "
        f"ResNet-50 is a big model, so I want {S.more_gpus}× more GPUs. Can you sign off the order?"),
    scenario=lambda: (
        f"Each A100 is fed by a data loader: {fmt(S.workers, 'words')} CPU worker processes read JPEG files "
        f"(about {fmt(S.image_bytes, 'B')} each) from a hard disk that streams {fmt(C.HDD_SEQ_BW, 'B/s')}, "
        f"decode and crop them, each worker about {fmt(S.decode_per_worker, 'images/s')} (an estimate), and hand "
        "batches to the GPU while it trains on the previous one (**prefetching**).",
        f"Papers quote ResNet-50 at about {fmt(C.RESNET50_MACS, 'GFLOP')}s per image. That figure counts "
        "multiply-adds, and it is the forward pass only: training also runs the backward pass.",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_GPU, A1_MFU, A1_STORAGE, A1_IOPS, A1_IMAGE, A1_WORKERS, A1_PER_WORKER),
    overridden=a1_overridden,
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Input pipeline analyzer",
)

# ---- Act II · Data gravity ------------------------------------------------------------

def per_gb(usd: float) -> str:
    """A per-GB price to the tenth of a cent, as AWS lists it ($0.085/GB; the usd format rounds to cents)."""
    return f"${usd:.3f}".rstrip("0").rstrip(".") + "/GB"


PRICE_LABELS = {"inter": f"Between AWS regions · {per_gb(C.AWS_INTER_REGION_USD_PER_GB)}",
                "internet": (f"Out to the internet · {per_gb(C.AWS_INTERNET_EGRESS_USD_PER_GB)} falling to "
                             f"{per_gb(C.AWS_EGRESS_TIER4_USD_PER_GB)} (tiered)"),
                "lan": f"Own network, no fee · {per_gb(0.0)}"}

A2_DATASET = Slider("a2_dataset", "Dataset to move", unit="B", min=1e12, max=1e15, step=1, default=S.act2_dataset_bytes,
                    fmt="B", scale="log", steps=300, sig_figs=2)
A2_LINK = Choice("a2_link", "Link between the sites", tuple(
    Option(k, fmt(v, "bit/s")) for k, v in LINKS.items()), default="100", unit="bit/s")
A2_EFFICIENCY = Slider("a2_efficiency", "Share of line rate achieved", unit="1", min=0.5, max=1.0,
                       step=0.05, default=1.0, fmt="pct", help="Protocol overhead, retries and other traffic; "
                       f"sustained copies often reach about {fmt(S.sustained_share, 'pct')} (an estimate).")
A2_PRICE = Choice("a2_price", "Transfer price", tuple(Option(k, v) for k, v in PRICE_LABELS.items()),
                  default="inter", widget="select", unit="USD/GB",
                  help="AWS bills internet egress in monthly tiers, each GB at its tier's rate (nothing else "
                       "sent that month): " + "; ".join(
                           f"{'above ' + fmt(low, 'B') if hi == math.inf else 'to ' + fmt(hi, 'B')} at {per_gb(p)}"
                           for low, (hi, p) in zip((0.0, *(b for b, _ in TARIFFS['internet'])), TARIFFS["internet"])) + ".")
A2_BUDGET = Slider("a2_budget", "Time until the run must start", unit="s", min=3600, max=72 * 3600, step=3600,
                   default=S.budget_s, fmt="h")
A2_COMPUTE = Slider("a2_compute", "Extra cost of GPUs next to the data", unit="USD/h", min=5, max=100, step=5,
                    default=S.compute_usd_per_h, fmt="usd/h",
                    help="What renting GPUs in the data's region (or on the site) costs above the ones you have.")


def tariff_of(s: State) -> str:
    """On the edge site's own LAN nobody bills per GB."""
    return "lan" if s["context"] == "edge" else s["a2_price"]


def move(s: State) -> Move:
    return Move(s["a2_dataset"], LINKS[s["a2_link"]], s["a2_efficiency"], tariff_of(s), s["a2_budget"], s["a2_compute"])


def a2_overridden(s: State) -> dict[str, str]:
    if s["context"] != "edge":
        return {}
    return {"a2_price": "Not used at the edge: nobody bills per GB on the site's own LAN, so the fee is $0."}


ACT2_PREDICTION = Prediction(
    id="a2_predict", act=2,
    prompt=f"How long does copying the {fmt(S.act2_dataset_bytes, 'B')} over {{route}} ({{link}}) take at its full "
           "line rate?",
    quantity=f"time to move {fmt(S.act2_dataset_bytes, 'B')} at the link's full line rate",
    unit_fmt="s",
    options=(
        Range("A", "{range}: a link this fast empties any disk quickly", None, 600, 300,
              "A link's rate is in bits: {link} carries {link_bytes} of data, not {link_as_bytes}; {data} takes "
              "{a2_transfer_s}."),
        Range("B", "{range}: about as long as a long meeting", 600, 3600, 1800,
              "In an hour {link} moves {per_hour}, less than the {data}: the copy takes {a2_transfer_s}."),
        Range("C", "{range}: long, but the run can still start", 3600, 21600, 7200,
              "{byte_bits} bits per byte: {data} is {bits}, and {link} moves them in {a2_transfer_s}."),
        Range("D", "{range}: longer than the run can wait", 21600, None, 86400,
              "In the {budget} before the run, {link} moves {per_budget} of the {data}: the copy takes "
              "{a2_transfer_s}."),
    ),
    truth=act2_truth,
    shown_by="a2_transfer_s",
)


def act2_facts(context: str) -> dict[str, str]:
    mv, link = scenario_move(context), CONTEXT_LINK[context]
    bytes_per_s = link / transfer.BITS_PER_BYTE
    pb, top = scenario_move(context, S.pb_bytes), Move(S.pb_bytes, max(LINKS.values()))
    return {
        "link": fmt(link, "bit/s"), "link_bytes": fmt(bytes_per_s, "B/s"), "link_as_bytes": fmt(link, "B/s"),
        "data": fmt(S.act2_dataset_bytes, "B"), "byte_bits": fmt(transfer.BITS_PER_BYTE, "words").capitalize(),
        "bits": f"{fmt(transfer.BITS_PER_BYTE * S.act2_dataset_bytes / U.B_PER_TB, 'num')} Tb",
        "per_hour": fmt(bytes_per_s * U.S_PER_HOUR, "B"), "per_budget": fmt(bytes_per_s * S.budget_s, "B"),
        "a2_transfer_s": M["a2_transfer_s"].text(mv.time_s), "a2_fee_usd": M["a2_fee_usd"].text(mv.fee_usd),
        "budget": fmt(S.budget_s, "h"), "pb": fmt(S.pb_bytes, "B"), "pb_time": fmt(pb.time_s, "s"),
        "pb_fee": fmt(pb.fee_usd, "usd"), "pb_bought": fmt(pb.bought_s, "h"), "compute": fmt(S.compute_usd_per_h, "usd/h"),
        "fee_clause": (f"whatever its fee ({fmt(pb.fee_usd, 'usd')}, which would pay {fmt(pb.bought_s, 'h')} of GPUs "
                       f"at {fmt(S.compute_usd_per_h, 'usd/h')})" if pb.fee_usd > 0 else
                       "and on a free LAN this rule would never move the compute"),
        "fast_link": fmt(link * S.faster_link, "bit/s"),
        "fast_time": fmt(scenario_move(context, S.pb_bytes, S.faster_link).time_s, "s"),
        "packed": fmt(S.pb_bytes * C.LEPTON_SIZE_RATIO, "B"), "lepton": fmt(C.LEPTON_SIZE_RATIO, "pct"),
        "packed_time": fmt(scenario_move(context, S.pb_bytes * C.LEPTON_SIZE_RATIO).time_s, "s"),
        "top_link": fmt(top.link_bits, "bit/s"), "top_time": fmt(top.time_s, "s"),
        "model": fmt(C.RESNET50_PARAMS * S.fp32_bytes, "B"),
        "model_time": fmt(transfer.transfer_time_s(C.RESNET50_PARAMS * S.fp32_bytes, link), "s"),
    }


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt=f"Next year the dataset is {fmt(S.pb_bytes, 'B')} and the run must still start within "
           f"{fmt(S.budget_s, 'h')}. What should the team do?",
    options=(
        Claim("A", "Lease a link twice as fast as today's and copy all of it.",
              "At {fast_link} and full line rate {pb} takes {fast_time}, still past the {budget}."),
        Claim("B", "Recompress the JPEGs losslessly, then copy all of it as today.",
              "Lossless recompression (Lepton) leaves {lepton} of the bytes on average: {packed} still takes {packed_time} "
              "over {link}, past the {budget}."),
        Claim("C", "Move the compute only if the copy's fee costs more than GPUs there.",
              "The clock decides before the bill: the copy takes {pb_time} over {link}, past the {budget}, "
              "{fee_clause}."),
        Claim("D", "Move the compute: no link offered here copies it in time.",
              "Even {top_link} at full line rate copies {pb} in {top_time}, past the {budget}. The trained "
              "model is {model}: {model_time} to send back over {link}."),
    ),
    answer_letter="D",
)


def act2_instruments(s: State) -> list:
    mv = move(s)
    share = mv.time_s / mv.budget_s
    parts = [metric_grid(
        M["a2_transfer_s"].show(mv.time_s, "danger" if mv.too_slow else "good"),
        M["a2_fee_usd"].show(mv.fee_usd, note=fee_note(mv)),
        M["a2_budget_share"].show(share, "danger" if mv.too_slow else tone(1 - share, 0.5, 0.0),
                                  f"of {fmt(mv.budget_s, 'h')}"),
        M["a2_goodput"].show(mv.link_bits * mv.efficiency / transfer.BITS_PER_BYTE),
        M["a2_bought_s"].show(mv.bought_s, note=f"at {fmt(mv.compute_usd_per_h, 'usd/h')}" if mv.fee_usd > 0
                              else "no fee to spend"),
    )]
    if mv.too_slow:
        parts.append(failure(F["a2_data_gravity"],
                             f"Moving {fmt(mv.data_bytes, 'B')} at {fmt(mv.link_bits, 'bit/s')} takes "
                             f"{fmt(mv.time_s, 's')}, past the {fmt(mv.budget_s, 'h')} budget"
                             f"{gravity_lever(mv)}"))
    parts.append(act2_chart(mv))
    return parts


def fee_note(mv: Move) -> str:
    """The price times the data; a tiered tariff shows its average price per GB."""
    tiered = len(TARIFFS[mv.tariff]) > 1
    price = mv.fee_usd / (mv.data_bytes / transfer.BYTES_PER_GB) if tiered else TARIFFS[mv.tariff][0][1]
    return f"{per_gb(price)}{' on average' if tiered else ''} × {fmt(mv.data_bytes, 'B')}"


def gravity_lever(mv: Move) -> str:
    """What the instruments can still change: the largest lever first (the link, then the line share)."""
    fastest = max(LINKS.values())
    best = Move(mv.data_bytes, fastest, 1.0, mv.tariff, mv.budget_s, mv.compute_usd_per_h)
    if mv.link_bits < fastest or mv.efficiency < 1.0:
        verdict = "would fit" if not best.too_slow else "still would not fit"
        return f"; at {fmt(fastest, 'bit/s')} and the full line rate it takes {fmt(best.time_s, 's')}, which {verdict}."
    return f"; {fmt(fastest, 'bit/s')} is the fastest link offered, already at its full line rate."


def act2_math(s: State):
    mv = move(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"T = \frac{8\,D}{L\,\eta}", "*D* bytes over a link of *L* bits per second that carries a share "
                 "*η* of its line rate."),
        Equation(r"\text{fee} = \sum_k D_k \cdot p_k", "The provider bills each gigabyte that leaves the region at "
                 "the price *p*ₖ of its tier: one price between regions, falling tiers to the internet."),
        Equation(r"t_{\text{compute}} = \frac{\text{fee}}{c}", "Hours of GPUs next to the data the fee would pay "
                 "for, at *c* per hour."),
    ), rows=(
        ("Dataset *D*", fmt(mv.data_bytes, "B")),
        ("Link *L* · share *η*", f"{fmt(mv.link_bits, 'bit/s')} · {fmt(mv.efficiency, 'pct')}"),
        ("Transfer time *T*", fmt(mv.time_s, "s")),
        ("Price *p* · fee", f"{fee_note(mv)} = {fmt(mv.fee_usd, 'usd')}"),
    ), sources=(
        C.REGISTRY["AWS_INTER_REGION_USD_PER_GB"].source,
        C.REGISTRY["AWS_INTERNET_EGRESS_USD_PER_GB"].source,
    ))


GPU_PLACES = {"cloud": "reserved in another AWS region", "edge": "in another building of the site"}
SCENES = {
    "cloud": ("The data sits in one AWS region (us-east-1) and the reserved GPUs in another (us-west-2). AWS bills "
              f"data leaving a region: {per_gb(C.AWS_INTER_REGION_USD_PER_GB)} to another region, "
              f"{per_gb(C.AWS_INTERNET_EGRESS_USD_PER_GB)} falling to "
              f"{per_gb(C.AWS_EGRESS_TIER4_USD_PER_GB)} in monthly tiers to the internet."),
    "edge": ("The data sits on the servers of the site that collected it; the GPUs sit in another building of "
             "the same site, across its own LAN. Nobody bills per GB."),
}

ACT2 = Act(
    number=2, title="Data Gravity", minutes="12–15 min",
    stakeholder_role="Head of Data Platform",
    stakeholder=lambda context: (
        f"New training data has piled up where it was collected: {fmt(S.act2_dataset_bytes, 'B')}. The GPUs that "
        f"will train on it are {GPU_PLACES[context]}, and the run must start within {fmt(S.budget_s, 'h')}. Our "
        f"link is {fmt(CONTEXT_LINK[context], 'bit/s')}. Copying it over is routine, right?"),
    scenario=lambda context: (SCENES[context],),
    prediction=ACT2_PREDICTION,
    controls=(A2_DATASET, A2_LINK, A2_EFFICIENCY, A2_PRICE, A2_BUDGET, A2_COMPUTE),
    overridden=a2_overridden,
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="Data movement planner",
)

# ---- the whole lab -------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    active = {"a1_gpu_starved": loader(s).pipeline().gpu_utilization < S.starved_below,
              "a2_data_gravity": move(s).too_slow}
    return frozenset(name for name, on in active.items() if on)


def results(s: State) -> dict[str, float | str | bool]:
    pipe, mv = loader(s).pipeline(), move(s)
    return {"storage": s["a1_storage"], "workers": s["a1_workers"], "util": pipe.gpu_utilization,
            "bottleneck": STAGE_SUBJECTS[pipe.bottleneck], "dataset_tb": mv.data_bytes / U.B_PER_TB, "transfer_h": mv.time_s / U.S_PER_HOUR,
            "egress_usd": mv.fee_usd, "gravity_triggered": mv.too_slow}


RECORD = (
    MetricSpec("storage", "Storage", "", "num"), MetricSpec("workers", "Loader workers", "1", "int"),
    MetricSpec("util", "GPU busy", "1", "pct"), MetricSpec("bottleneck", "Bottleneck stage", "", "num"),
    MetricSpec("dataset_tb", "Dataset (TB)", "TB", "num"), MetricSpec("transfer_h", "Transfer time (h)", "h", "num"),
    MetricSpec("egress_usd", "Transfer fee", "USD", "usd"),
    MetricSpec("gravity_triggered", "Transfer past the budget", "", "yesno"),
)


def lab_takeaways() -> list[str]:
    f, cloud, edge = act1_facts(), act2_facts("cloud"), act2_facts("edge")
    random = Loader(storage="hdd_random", workers=S.fix_b[1]).pipeline()
    return [
        f"ResNet-50's \"{fmt(C.RESNET50_MACS, 'GFLOP')}s\" count multiply-adds of the forward pass: training one "
        f"image costs {f['gpu_flop']}, so an A100 at NVIDIA's measured {f['mfu']} MFU trains {f['a1_gpu_rate']} and "
        f"needs {f['a1_need_bw']} of JPEG.",
        f"A prefetching pipeline runs at its slowest stage: {f['workers']} workers decode {f['a1_decode_rate']}, the "
        f"disk streams {f['a1_storage_rate']}, so the GPU is busy {f['a1_util']}; {f['more']} the GPUs on the same disk and "
        f"CPUs would each be busy {f['a1_util_more']}.",
        f"Fix every stage below the GPU: NVMe alone leaves {f['fix_a_util']}, {f['w_c']} workers on the disk "
        f"{f['fix_c_util']}; a {STORAGE[S.fix_b[0]][0]} with {f['w_b']} workers reaches {f['fix_b_util']}.",
        f"One small file per image on a hard disk is capped by its random reads: "
        f"{fmt(random.storage_per_s, 'images/s')}, {fmt(random.gpu_utilization, 'pct')} busy. Shard the dataset.",
        f"{cloud['data']} takes {cloud['a2_transfer_s']} between AWS regions at {cloud['link']} and "
        f"{cloud['a2_fee_usd']}; over a {edge['link']} LAN it takes {edge['a2_transfer_s']}. {cloud['pb']} takes "
        f"{cloud['pb_time']} even at {cloud['link']}: past some size, the compute goes to the data.",
    ]


LAB = Lab(
    id="v1_04", volume=1, number=4, title="The Data Gravity Trap",
    invariant="A pipeline runs at its **slowest stage**, and data moves at **8·D / link**: past some size, "
              "compute goes to the data.",
    minutes="25–30 min", chapter="Data Engineering", url="vol1/04-data-gravity/",
    description="Why a training job runs at the pace of its slowest pipeline stage, and why past some size the "
                "compute must move to the data.",
    reading=(
        "**Data pipelines**: storage, decode and augmentation in front of the accelerator.",
        "**Storage formats**: sharded records against one small file per sample.",
        "**Data gravity**: moving data across regions and sites, its time and its egress fees.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "**V1-08 The Training Memory Budget**: what the GPU holds once the data arrives.",
        "**V1-09 The Data Selection Tradeoff**: how much of the data a model needs at all.",
        "**V2-04 The I/O Bottleneck**: the same pipeline at thousands of GPUs, where metadata breaks first.",
    ),
    presets={"context": {"cloud": {"a2_link": "100", "a2_price": "inter"},
                         "edge": {"a2_link": "1", "a2_price": "lan"}}},
    record_metrics=RECORD,
    context_from=TRACK,
    terms=terms,
    track_notes=TRACK_NOTES,
    hook=f"A team wants {S.more_gpus}× more GPUs for a ResNet-50 job whose GPUs sit half idle, and {fmt(S.act2_dataset_bytes, 'B')} "
         "of new data lies far from them. What sets the pace, and should the data travel?",
)
