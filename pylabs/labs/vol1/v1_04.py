"""Lab V1-04 · The Data Gravity Trap.

Core invariant: a training job runs at the rate of its slowest stage. With prefetching, storage,
CPU decode and the GPU work at once, so the GPU is busy r / r_gpu of the time, where r is the
smallest of the three rates; and a dataset moves between sites at 8·D / (link · η) seconds for
D·p dollars, so past some size it is cheaper and faster to move the compute to the data.

Act I (the pipeline): ResNet-50 on an A100 trains 5,073 images/s at 40 % MFU, but six decode
workers give 1,200 images/s and one hard disk 1,364: the GPU is busy 23.7 % of the time, and 4×
the GPUs on the same storage and CPUs would only wait longer. Only fast storage *and* enough
workers together fill the GPU.
Act II (data gravity): 50 TB over a 100 Gb/s link takes 4,000 s (1.11 h) and $1,000 between AWS
regions; 1 PB, or a 10 Gb/s link, breaks a 6-hour budget.

Choices the spec left open, and why:
- Storage and access pattern are one control: the access pattern only matters on a disk (flash
  and RAM have no seek; a whole-image read runs near their bandwidth, an assumption the help
  states). The disk's random-read rate is an instrument (150 IOPS assumed, ERRATA) and is
  disabled, with the reason, unless the disk reads one small file per image.
- Act I's prediction is a diagnosis (``Pick``): the lesson is *which* stage binds, and ``decide``
  proves it from the three stage rates at the scenario's inputs.
- The context (Cloud or Edge) sets Act II's network: between AWS regions over 100 Gb/s with a
  per-GB fee, or over a site's own 1 Gb/s LAN with none (the fee control is then disabled).
  Act I's training server is the same in both contexts.
- "Compute in place" is priced per hour; the lab shows how many hours of it the transfer fee
  would buy, instead of inventing a run length.

Ledger: context, the four answers, the controls, and results storage, workers, util, bottleneck,
dataset_tb, transfer_h, egress_usd, gravity_triggered.
"""

from __future__ import annotations

import math

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option, Pick,
                              Prediction, Range, Reflection, Slider, State, chart, failure, fmt, math_peek,
                              metric_grid, tone)
from pylabs.framework import charts as ch
from pylabs.labs.vol1.contexts import TRACK, deployment
from pylabs.labs.vol1.v1_04_model import (FLOP_PER_IMAGE, GPUS, LINKS, PETABYTE_MOVE, PRICES, SCENARIO_LOADER,
                                          SCENARIO_MOVE, STORAGE, Loader, Move, S, act1_answer, act2_truth,
                                          util_with)
from pylabs.physics import constants as C
from pylabs.physics import storage as io
from pylabs.physics import transfer
from pylabs.physics.references import cite


STAGE_NAMES = {"gpu": "the GPU", "storage": "storage", "cpu_decode": "CPU decode"}
STAGE_SUBJECTS = {"gpu": "The GPU", "storage": "Storage", "cpu_decode": "CPU decode"}


# ---- context ------------------------------------------------------------------------

CONTEXT = deployment(("cloud", "edge"), default="cloud", help=(
    f"Sets Act II's network. Cloud: the data crosses between AWS regions over a {fmt(S.act2_link_bits, 'bit/s')} "
    f"link and pays a per-GB fee. Edge: it crosses a site's own {fmt(S.lan_bits, 'bit/s')} LAN, free. Act I's "
    "training server is "
    "the same in both."))

# ---- Act I · The pipeline ------------------------------------------------------------

A1_GPU = Choice("a1_gpu", "Accelerator", tuple(
    Option(k, f"{d.name} · {fmt(d.peak_ops, 'FLOP/s')} {d.precision}") for k, d in GPUS.items()),
    default="a100", widget="select")
A1_MFU = Slider("a1_mfu", "GPU utilisation (MFU)", unit="1", min=0.2, max=0.6, step=0.05,
                default=S.mfu, fmt="pct")
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
                       min=50, max=600, step=10, default=S.decode_per_worker, fmt="num",
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
    pipe = SCENARIO_LOADER.pipeline()
    nvme6 = Loader(storage="nvme")
    nvme32 = Loader(storage="nvme", workers=S.fixed_workers)
    hdd16 = Loader(workers=S.disk_workers)
    h100 = Loader(gpu="h100")
    return {
        "gpu_rate": fmt(pipe.gpu_per_s, "images/s"), "rate": fmt(pipe.samples_per_s, "images/s"),
        "decode_rate": fmt(pipe.decode_per_s, "images/s"), "storage_rate": fmt(pipe.storage_per_s, "images/s"),
        "idle": fmt(1 - pipe.gpu_utilization, "pct"), "mfu": fmt(S.mfu, "pct"),
        "util_more": fmt(util_with(SCENARIO_LOADER, S.more_gpus), "pct"), "more": f"{S.more_gpus}×",
        "workers": fmt(S.workers, "words"),
        "need": fmt(pipe.gpu_per_s * S.image_bytes, "B/s"),
        "h100_rate": fmt(h100.pipeline().gpu_per_s, "images/s"), "h100_util": fmt(h100.pipeline().gpu_utilization, "pct"),
        "nvme_rate": fmt(nvme6.pipeline().storage_per_s, "images/s"),
        "nvme6_util": fmt(nvme6.pipeline().gpu_utilization, "pct"),
        "w32_rate": fmt(nvme32.pipeline().decode_per_s, "images/s"), "w32": str(S.fixed_workers),
        "nvme32_util": fmt(nvme32.pipeline().gpu_utilization, "pct"),
        "w16": str(S.disk_workers), "hdd16_util": fmt(hdd16.pipeline().gpu_utilization, "pct"),
    }


ACT1_PREDICTION = Pick(
    id="a1_predict", act=1,
    prompt="What limits how many images per second the team trains on?",
    quantity="the stage that limits training throughput",
    options=(
        Claim("A", "**The GPU**: ResNet-50 is heavy, so more GPUs will train proportionally more images.",
              "One A100 could train {gpu_rate} at {mfu} MFU, but the job receives only {rate}. With {more} the "
              "GPUs on the same disks and CPUs, each would be busy {util_more}."),
        Claim("B", "**Data loading**: the disk and the CPU workers that decode JPEGs deliver fewer images "
                   "per second than the GPU can train on.",
              "The workers decode {decode_rate} and the disk streams {storage_rate}, against the {gpu_rate} "
              "the A100 could train: it waits {idle} of the time. Both stages sit below the GPU."),
        Claim("C", "**GPU memory**: the batch is too small to keep the GPU busy.",
              "Batch size groups the GPU's work; it does not change how many images reach it: {rate} "
              "arrive whatever the batch, against the {gpu_rate} it could train."),
        Claim("D", "**Gradient synchronisation** between GPUs stalls every step.",
              "The stall is upstream of the GPU: storage and decode deliver {rate} before any gradient "
              "moves, against the {gpu_rate} one A100 could train."),
    ),
    decide=act1_answer,
)

ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="Which change lets the A100 train at its full rate?",
    options=(
        Claim("A", "Upgrade to H100s: faster GPUs finish each batch sooner.",
              "An H100 could train {h100_rate}, so it waits even longer for the same {rate}: busy {h100_util}."),
        Claim("B", "Replace the hard disk with an NVMe SSD.",
              "NVMe streams {nvme_rate}, but the {workers} workers still decode only {decode_rate}: busy "
              "{nvme6_util}. The bottleneck moved to the CPUs."),
        Claim("C", "Fast storage *and* enough decode workers: every stage must outrun the GPU.",
              "NVMe with {w32} workers decodes {w32_rate}: the GPU is busy {nvme32_util}. Either fix alone "
              "moves the bottleneck: {w16} workers on the disk give {hdd16_util}, NVMe alone {nvme6_util}."),
        Claim("D", "Raise the batch size, so each step does more work per image loaded.",
              "Every image in a batch must still be read and decoded: the loader delivers {rate} whatever "
              "the batch."),
    ),
    answer_letter="C",
)

M = {m.name: m for m in (
    MetricSpec("a1_util", "GPU busy", "1", "pct"),
    MetricSpec("a1_rate", "Images trained per second", "images/s", "images/s"),
    MetricSpec("a1_gpu_rate", "GPU could train", "images/s", "images/s"),
    MetricSpec("a1_storage_rate", "Storage delivers", "images/s", "images/s"),
    MetricSpec("a1_decode_rate", "CPU workers decode", "images/s", "images/s"),
    MetricSpec("a1_util_more", f"GPU busy with {S.more_gpus}× the GPUs", "1", "pct"),
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
                act=1, severity="warn"),
    FailureSpec("a2_data_gravity", "Data gravity: the data cannot arrive before the run must start", act=2),
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
                             f"the GPU could train {fmt(pipe.gpu_per_s, 'images/s')}. Speed up the slowest stage "
                             "until every stage outruns the GPU."))
    parts.append(act1_chart(pipe, ld))
    return parts


def act1_chart(pipe: io.Pipeline, ld: Loader):
    names = [f"GPU<br>({GPUS[ld.gpu].name.split()[1]})", "Storage", "CPU<br>decode"]
    stages = ("gpu", "storage", "cpu_decode")
    values = [pipe.rates[k] for k in stages]
    colors = ["danger" if k == pipe.bottleneck and k != "gpu" else "good" if k == pipe.bottleneck else "series1"
              for k in stages]
    bars = {**ch.bars("Stage rate", names, values, colors), "showlegend": False}
    job = ch.line(f"Job runs at {fmt(pipe.samples_per_s, 'images/s')}", names, [pipe.samples_per_s] * len(names),
                  "accent", dash="dash")
    figure = ch.figure([bars, job], x=ch.axis("", "category", tickangle=0),
                       y=ch.axis("Images per second", "log", range=decade_range(values),
                                 **ch.decade_ticks([v / 10 for v in values] + values)))
    summary = (f"The GPU could train {fmt(pipe.gpu_per_s, 'images/s')}, storage delivers "
               f"{fmt(pipe.storage_per_s, 'images/s')} and the workers decode {fmt(pipe.decode_per_s, 'images/s')}; "
               f"the job runs at the slowest, {STAGE_NAMES[pipe.bottleneck]}.")
    rows = [(n.replace("<br>", " "), fmt(v, "images/s")) for n, v in zip(names, values)]
    return chart("a1_stages", "Rate of each pipeline stage", figure, summary, table=(("Stage", "Images per second"), rows))


def decade_range(values: list[float]) -> list[float]:
    """A log axis's range in exponents, from one decade below the smallest value to the decade above
    the largest, so bars keep visible heights and every decade tick shows."""
    low, high = min(values), max(values)
    return [math.floor(math.log10(low)) - 1, math.ceil(math.log10(high))]


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
                 "With prefetching every stage runs at once, so the slowest sets the pace (stages are not summed)."),
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
        C.REGISTRY["NVME_GEN4_BW"].source,
    ))


ACT1 = Act(
    number=1, title="The Pipeline Nobody Profiled", minutes="12–15 min",
    stakeholder_role="ML Team Lead",
    stakeholder=lambda: (
        f"We train ResNet-50 on {fmt(S.act1_dataset_bytes, 'B')} of JPEG images on A100s, and the dashboard "
        f"says the GPUs are busy only {fmt(SCENARIO_LOADER.pipeline().gpu_utilization, 'pct')} of the time. "
        f"ResNet-50 is a big model, so I want {S.more_gpus}× more GPUs. Can you sign off the order?"),
    scenario=lambda: (
        f"Each A100 is fed by a data loader: {S.workers} CPU worker processes read JPEG files "
        f"(about {fmt(S.image_bytes, 'B')} each) from a hard-disk volume, decode and crop them, and hand "
        "batches to the GPU while it trains on the previous one (**prefetching**).",
        f"Papers quote ResNet-50 at about {fmt(C.RESNET50_MACS, 'GFLOP')}s per image. That figure counts "
        "multiply-adds, and it is "
        "the forward pass only: training also runs the backward pass.",
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

PRICE_LABELS = {"inter": "Between AWS regions", "internet": "Out to the internet", "lan": "Own network, no fee"}

A2_DATASET = Slider("a2_dataset", "Dataset to move", unit="B", min=1e12, max=1e15, step=1, default=S.act2_dataset_bytes,
                    fmt="B", scale="log", steps=300, sig_figs=2)
A2_LINK = Choice("a2_link", "Link between the sites", tuple(
    Option(k, fmt(v, "bit/s")) for k, v in LINKS.items()), default="100", unit="bit/s")
A2_EFFICIENCY = Slider("a2_efficiency", "Share of line rate achieved", unit="1", min=0.5, max=1.0,
                       step=0.05, default=1.0, fmt="pct", help="Protocol overhead, retries and other traffic; "
                       f"sustained copies often reach about {fmt(S.sustained_share, 'pct')}.")
A2_PRICE = Choice("a2_price", "Transfer price", (
    *(Option(k, f"{PRICE_LABELS[k]} · {fmt(v, 'usd/GB')}") for k, v in PRICES.items()),
    Option("lan", f"{PRICE_LABELS['lan']} · {fmt(0.0, 'usd/GB')}")), default="inter", widget="select", unit="USD/GB")
A2_BUDGET = Slider("a2_budget", "Time until the run must start", unit="s", min=3600, max=72 * 3600, step=3600,
                   default=S.budget_s, fmt="h")
A2_COMPUTE = Slider("a2_compute", "Extra cost of GPUs next to the data", unit="USD/h", min=5, max=100, step=5,
                    default=S.compute_usd_per_h, fmt="usd/h",
                    help="What renting GPUs in the data's region (or on the site) costs above the ones you have.")


def price_of(s: State) -> float:
    """Per-GB fee; on the edge site's own LAN nobody bills per GB."""
    return 0.0 if s["context"] == "edge" or s["a2_price"] == "lan" else PRICES[s["a2_price"]]


def move(s: State) -> Move:
    return Move(s["a2_dataset"], LINKS[s["a2_link"]], s["a2_efficiency"], price_of(s), s["a2_budget"], s["a2_compute"])


def a2_overridden(s: State) -> dict[str, str]:
    if s["context"] != "edge":
        return {}
    return {"a2_price": "Not used at the edge: nobody bills per GB on the site's own LAN, so the fee is $0."}


ACT2_PREDICTION = Prediction(
    id="a2_predict", act=2,
    prompt=f"How long does copying the {fmt(S.act2_dataset_bytes, 'B')} take over a "
           f"{fmt(S.act2_link_bits, 'bit/s')} link running at its full line rate?",
    quantity=f"time to move {fmt(S.act2_dataset_bytes, 'B')} at {fmt(S.act2_link_bits, 'bit/s')}",
    unit_fmt="s",
    options=(
        Range("A", "{range}: a fast link makes it a coffee break", None, 900, 500,
              "A link's rate is in bits: {link} carries {link_bytes} of data, not {link_as_bytes}."),
        Range("B", "{range}: a long meeting", 900, 10800, 3600,
              "{byte_bits} bits per byte: {data} is {bits}, and the link moves {link} of them."),
        Range("C", "{range}: most of a working day or more", 10800, 172800, 80000,
              "Hours are what a petabyte takes at this speed ({pb_time}), or {data} over a {ten_link} link "
              "({ten_time})."),
        Range("D", "{range}: ship the disks instead", 172800, None, 400000,
              "Days are what {data} takes over a {lan_link} LAN: {lan_time}."),
    ),
    truth=act2_truth,
)


def act2_facts() -> dict[str, str]:
    lan = Move(S.act2_dataset_bytes, S.lan_bits, 1.0, 0.0, S.budget_s, S.compute_usd_per_h)
    return {
        "link": fmt(S.act2_link_bits, "bit/s"), "link_bytes": fmt(S.act2_link_bits / transfer.BITS_PER_BYTE, "B/s"),
        "link_as_bytes": fmt(S.act2_link_bits, "B/s"), "ten_link": fmt(LINKS["10"], "bit/s"),
        "lan_link": fmt(S.lan_bits, "bit/s"),
        "ten_time": fmt(transfer.transfer_time_s(S.act2_dataset_bytes, LINKS["10"]), "s"),
        "data": fmt(S.act2_dataset_bytes, "B"), "byte_bits": fmt(transfer.BITS_PER_BYTE, "words").capitalize(),
        "bits": f"{fmt(transfer.BITS_PER_BYTE * S.act2_dataset_bytes / S.tb, 'num')} Tb",
        "pb": fmt(S.pb_bytes, "B"), "pb_time": fmt(PETABYTE_MOVE.time_s, "s"),
        "pb_fee": fmt(PETABYTE_MOVE.fee_usd, "usd"),
        "pb_internet": fmt(transfer.transfer_cost_usd(S.pb_bytes, C.AWS_INTERNET_EGRESS_USD_PER_GB), "usd"),
        "pb_bought": fmt(transfer.time_bought_s(PETABYTE_MOVE.fee_usd, S.compute_usd_per_h), "h"),
        "compute": fmt(S.compute_usd_per_h, "usd/h"), "budget": fmt(S.budget_s, "h"),
        "lan_time": fmt(lan.time_s, "s"),
        "fast_time": fmt(transfer.transfer_time_s(S.pb_bytes, 4 * S.act2_link_bits), "s"),
        "fast_link": fmt(4 * S.act2_link_bits, "bit/s"),
    }


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt=f"Next year the dataset is {fmt(S.pb_bytes, 'B')} and the run must still start within "
           f"{fmt(S.budget_s, 'h')}. What should the team do?",
    options=(
        Claim("A", "Lease a faster link between the regions.",
              "Only a {fast_link} link at its full line rate would squeeze {pb} into {fast_time}, inside the "
              "{budget}; the fee stays {pb_fee} on every copy, and next year's dataset is bigger again."),
        Claim("B", "Move the compute to the data: train where the data already lives.",
              "Copying {pb} takes {pb_time} and costs {pb_fee}; that fee alone pays for {pb_bought} of GPUs "
              "next to the data at {compute} extra. Past a size, data does not move: compute does."),
        Claim("C", "Compress the JPEGs harder before the copy.",
              "JPEG is already compressed; a second pass saves little, and shrinking the images changes the "
              "training data."),
        Claim("D", "Copy over the public internet instead of the inter-region link.",
              "Internet egress is billed at the higher rate: {pb_internet} for {pb}, and no faster."),
    ),
    answer_letter="B",
)


def act2_instruments(s: State) -> list:
    mv = move(s)
    share = mv.time_s / mv.budget_s
    parts = [metric_grid(
        M["a2_transfer_s"].show(mv.time_s, "danger" if mv.too_slow else "good"),
        M["a2_fee_usd"].show(mv.fee_usd, note=f"{fmt(mv.usd_per_gb, 'usd/GB')} × {fmt(mv.data_bytes, 'B')}"),
        M["a2_budget_share"].show(share, "danger" if mv.too_slow else tone(1 - share, 0.5, 0.0),
                                  f"of {fmt(mv.budget_s, 'h')}"),
        M["a2_goodput"].show(mv.link_bits * mv.efficiency / transfer.BITS_PER_BYTE),
        M["a2_bought_s"].show(transfer.time_bought_s(mv.fee_usd, mv.compute_usd_per_h),
                              note=f"at {fmt(mv.compute_usd_per_h, 'usd/h')}"),
    )]
    if mv.too_slow:
        parts.append(failure(F["a2_data_gravity"],
                             f"Moving {fmt(mv.data_bytes, 'B')} at {fmt(mv.link_bits, 'bit/s')} takes "
                             f"{fmt(mv.time_s, 's')}, past the {fmt(mv.budget_s, 'h')} budget. Move the compute "
                             "to the data, or move less data."))
    parts.append(act2_chart(mv))
    return parts


def act2_chart(mv: Move):
    sizes = [10 ** (12 + k / 4) for k in range(13)]
    colours = dict(zip(LINKS.values(), ("series3", "series2", "series1")))
    traces = [ch.line(f"{fmt(bits, 'bit/s')}" + (" (yours)" if bits == mv.link_bits else ""), sizes,
                      [transfer.transfer_time_s(d, bits, mv.efficiency) for d in sizes],
                      colours[bits], dash="solid" if bits == mv.link_bits else "dot")
              for bits in LINKS.values()]
    traces.append({**ch.point("Your dataset", mv.data_bytes, mv.time_s, "danger" if mv.too_slow else "accent"),
                   "showlegend": False})
    shape, note = ch.hline(mv.budget_s, "danger", f"budget {fmt(mv.budget_s, 'h')}", log=True)
    ticks = {"tickvals": [t for t, _ in S.time_ticks], "ticktext": [label for _, label in S.time_ticks]}
    span = [math.log10(sizes[0]) - S.axis_pad, math.log10(sizes[-1]) + S.axis_pad]
    figure = ch.figure(traces, x=ch.axis("Dataset", "log", range=span, **ch.decade_ticks(sizes, lambda v: fmt(v, "B"))),
                       y=ch.axis("Transfer time", "log", **ticks), shapes=[shape], annotations=[note])
    summary = (f"At {fmt(mv.efficiency, 'pct')} of the line rate, {fmt(mv.data_bytes, 'B')} takes "
               f"{fmt(mv.time_s, 's')} over {fmt(mv.link_bits, 'bit/s')}; the budget is {fmt(mv.budget_s, 'h')}.")
    rows = [(fmt(d, "B"), *(fmt(transfer.transfer_time_s(d, b, mv.efficiency), "s") for b in LINKS.values()))
            for d in sizes[::4]]
    return chart("a2_transfer", "Transfer time against dataset size", figure, summary,
                 table=(("Dataset", *(fmt(b, "bit/s") for b in LINKS.values())), rows))


def act2_math(s: State):
    mv = move(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"T = \frac{8\,D}{L\,\eta}", "*D* bytes over a link of *L* bits per second that carries a share "
                 "*η* of its line rate."),
        Equation(r"\text{fee} = D \cdot p", "The provider bills each gigabyte that leaves the region at *p* per GB."),
        Equation(r"t_{\text{compute}} = \frac{\text{fee}}{c}", "Hours of GPUs next to the data the fee would pay "
                 "for, at *c* per hour."),
    ), rows=(
        ("Dataset *D*", fmt(mv.data_bytes, "B")),
        ("Link *L* · share *η*", f"{fmt(mv.link_bits, 'bit/s')} · {fmt(mv.efficiency, 'pct')}"),
        ("Transfer time *T*", fmt(mv.time_s, "s")),
        ("Price *p* · fee", f"{fmt(mv.usd_per_gb, 'usd/GB')} · {fmt(mv.fee_usd, 'usd')}"),
    ), sources=(
        C.REGISTRY["AWS_INTER_REGION_USD_PER_GB"].source,
        C.REGISTRY["AWS_INTERNET_EGRESS_USD_PER_GB"].source,
    ))


ACT2 = Act(
    number=2, title="Data Gravity", minutes="12–15 min",
    stakeholder_role="Head of Data Platform",
    stakeholder=lambda: (
        f"New training data has piled up where it was collected: {fmt(S.act2_dataset_bytes, 'B')}. The GPUs that "
        f"will train on it are somewhere else, and the run must start within {fmt(S.budget_s, 'h')}. Our link "
        f"is {fmt(S.act2_link_bits, 'bit/s')}. Copying it over is routine, right?"),
    scenario=lambda: (
        "In the cloud, the data sits in one AWS region (us-east-1) and the reserved GPUs in another "
        f"(us-west-2); AWS bills data leaving a region: {fmt(C.AWS_INTER_REGION_USD_PER_GB, 'usd/GB')} to another "
        f"region, {fmt(C.AWS_INTERNET_EGRESS_USD_PER_GB, 'usd/GB')} to the internet. At the edge, the data sits on "
        "a site's servers and crosses the site's own LAN for free.",
        "Datasets have **gravity**: the bigger they are, the more it costs to move them, and the more "
        "sense it makes to bring the computation to them instead.",
    ),
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
            "bottleneck": pipe.bottleneck, "dataset_tb": mv.data_bytes / S.tb, "transfer_h": mv.time_s / S.hour_s,
            "egress_usd": mv.fee_usd, "gravity_triggered": mv.too_slow}


RECORD = (
    MetricSpec("storage", "Storage", "", "num"), MetricSpec("workers", "Loader workers", "1", "int"),
    MetricSpec("util", "GPU busy", "1", "pct"), MetricSpec("bottleneck", "Bottleneck stage", "", "num"),
    MetricSpec("dataset_tb", "Dataset (TB)", "TB", "num"), MetricSpec("transfer_h", "Transfer time (h)", "h", "num"),
    MetricSpec("egress_usd", "Transfer fee", "USD", "usd"),
    MetricSpec("gravity_triggered", "Transfer past the budget", "", "yesno"),
)


def lab_takeaways() -> list[str]:
    pipe = SCENARIO_LOADER.pipeline()
    facts, moves = act1_facts(), act2_facts()
    random = Loader(storage="hdd_random", workers=S.disk_workers).pipeline()
    return [
        f"ResNet-50's \"{fmt(C.RESNET50_MACS, 'GFLOP')}s\" count multiply-adds of the forward pass: training "
        f"one image costs "
        f"{fmt(FLOP_PER_IMAGE, 'GFLOP')}, so an A100 at {facts['mfu']} MFU trains {facts['gpu_rate']} and needs "
        f"{facts['need']} of JPEG.",
        f"A prefetching pipeline runs at its slowest stage: the team's loader delivers {facts['rate']}, so the "
        f"GPU is busy {fmt(pipe.gpu_utilization, 'pct')}; {facts['more']} the GPUs would each be busy "
        f"{facts['util_more']}.",
        f"Fix every stage: NVMe alone leaves {facts['nvme6_util']}, NVMe with {facts['w32']} workers reaches "
        f"{facts['nvme32_util']}.",
        f"One small file per image on a hard disk is capped by its random reads: "
        f"{fmt(random.storage_per_s, 'images/s')}, {fmt(random.gpu_utilization, 'pct')} busy. Shard the dataset.",
        f"{moves['data']} takes {fmt(SCENARIO_MOVE.time_s, 's')} at {moves['link']} and "
        f"{fmt(SCENARIO_MOVE.fee_usd, 'usd')} between AWS regions; {moves['pb']} takes {moves['pb_time']} and "
        f"{moves['pb_fee']}; over a {moves['lan_link']} LAN {moves['data']} takes {moves['lan_time']}.",
    ]


LAB = Lab(
    id="v1_04", volume=1, number=4, title="The Data Gravity Trap",
    invariant="A pipeline runs at its **slowest stage**, and data moves at **8·D / link**: past some size, "
              "compute goes to the data.",
    minutes="25–30 min", chapter="Data Engineering", url="vol1/04-data-gravity/",
    reading=(
        "**Data pipelines**: storage, decode and augmentation in front of the accelerator.",
        "**Storage formats**: sharded records against one small file per sample.",
        "**Data gravity**: moving data across regions, egress pricing, and bringing compute to the data.",
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
        "**V1-09 The Data Selection Tradeoff**: train on less data instead of moving all of it.",
        "**V2-04 The I/O Bottleneck**: the same pipeline at thousands of GPUs, where metadata breaks first.",
    ),
    presets={"context": {"cloud": {"a2_link": "100", "a2_price": "inter"},
                         "edge": {"a2_link": "1", "a2_price": "lan"}}},
    record_metrics=RECORD,
    context_from=TRACK,
)
