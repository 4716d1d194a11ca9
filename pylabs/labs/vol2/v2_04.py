"""Lab V2-04 · The I/O Bottleneck.

Core invariant: a synchronous loader delivers bytes in flight ÷ latency (Little's law), so small
reads at queue depth 1 starve a GPU on an idle file system; and a job opens files at a rate set
by its GPUs, so at scale the metadata service (or an object store's request limit) breaks long
before bandwidth does.

Act I (the idle file system): 128 H100s at 12.7 % utilisation; 24 Lustre OSTs would be 1.5 % busy
even at full speed. Act II (the metadata wall): 4,096 GPUs on 48 OSTs have a 4.1× bandwidth margin,
but one file per sample is 245,760 metadata operations a second, 4.9× one MDT.

Choices the spec left open, and why:
- Demand is 80 MB/s per GPU (16 × 4 MB per 0.8 s step), so story and simulator agree (upstream:
  5.12 GB/s consumed while 80 MB/s was claimed; 1.1 % computed while 12 % was claimed).
- Both predictions are diagnoses (``Pick``): the lesson is *which* limit binds, and ``decide``
  proves it from every resource's headroom at the scenario's inputs.
- The context is the storage system (the ledger's storage_type): an object store has no open or
  close but a slower first byte (AWS: small GETs take tens of ms; 20 ms assumed), and its Act II
  limit is GETs per partitioned prefix (5,500/s, AWS) instead of operations per MDT.
- The spec's [A] figures are Scenario inputs; latency and MDT capacity are instruments with those
  defaults, since real systems differ by an order of magnitude. "MDS above 60 %" is a warning
  callout; demand above capacity (either system) and GPUs below 50 % are failure states.

Ledger: context (= storage_type), the four answers with correctness (act2 decision = a2_predict),
the controls, results io_per_gpu, gpu_util, workers, gpu_count, mds_ops_per_s, mds_util, and the
failure states reached (constraint_hit).
"""

from __future__ import annotations

import math
from dataclasses import replace

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option, Pick,
                              Reflection, Slider, State, callout, chart, failure, fmt, math_peek,
                              metric_grid, prose, tone)
from pylabs.framework import charts as ch
from pylabs.framework.formats import plural
from pylabs.labs.vol2.v2_04_model import (DEMAND, NODE_LINK, SCENARIO_CLUSTER, SCENARIO_LOADER, Cluster, Loader, S,
                                          act1_answer, act1_headroom, act2_answer)
from pylabs.physics import constants as C
from pylabs.physics.references import cite


# ---- context ------------------------------------------------------------------------

CONTEXT = Choice("storage_type", "Where the dataset lives", (
    Option("lustre", "Lustre parallel file system (POSIX: open, stat, close per file)"),
    Option("object", "S3-style object store (one GET per object, no open or close)"),
), default="lustre", help="Changes the request latency in Act I and the storage services in Act II.")


def object_store(s: State) -> bool:
    return s["storage_type"] == "object"


# ---- Act I · The idle file system -----------------------------------------------------

A1_WORKERS = Slider("a1_workers", "Loader workers per GPU", unit="workers", min=1, max=16, step=1,
                    default=1, fmt="int")
A1_PATTERN = Choice("a1_pattern", "How each sample is read", (
    Option("records", f"{S.record_label} records, one request after another"),
    Option("whole", "One sequential read of the whole sample"),
), default="records")
A1_LATENCY = Slider("a1_latency", "Latency per request", unit="s", min=0.05e-3, max=25e-3,
                    step=0.05e-3, default=S.lustre_latency_s, fmt="ms",
                    help=f"An assumption. Defaults: {fmt(S.lustre_latency_s, 'ms')} for Lustre; "
                         f"{fmt(S.object_latency_s, 'ms')} for an object store, whose small GETs take tens of "
                         "milliseconds to their first byte.")
A1_OSTS = Slider("a1_osts", "Lustre object storage targets (OSTs)", unit="OSTs", min=4, max=48, step=1,
                 default=S.act1_osts, fmt="int",
                 help=f"Each OST streams {fmt(S.ost_bytes_per_s, 'B/s')}.")


def loader(s: State, workers: float | None = None, pattern: str | None = None) -> Loader:
    pattern = pattern or s["a1_pattern"]
    request = S.record_bytes if pattern == "records" else S.sample_bytes
    open_s = 0.0 if object_store(s) else S.open_close_s
    return Loader(s["a1_workers"] if workers is None else workers, request, s["a1_latency"], open_s,
                  s["a1_osts"], S.act1_gpus)


def act1_facts() -> dict[str, str]:
    ld, h = SCENARIO_LOADER, act1_headroom()
    eight, whole = replace(ld, workers=8), replace(ld, request_bytes=S.sample_bytes)
    return {
        "storage_util": fmt(ld.storage_util, "pct"), "aggregate": fmt(ld.aggregate, "B/s"),
        "consumed": fmt(S.act1_gpus * DEMAND, "B/s"), "demand": fmt(DEMAND, "B/s"),
        "supply": fmt(ld.supply, "B/s"), "util": fmt(ld.util, "pct"), "requests": fmt(ld.requests, "int"),
        "latency": fmt(S.lustre_latency_s, "ms"), "wait_share": fmt(ld.wait_share, "pct"),
        "link_util": fmt(1 / h["C"], "pct"), "link": fmt(NODE_LINK, "B/s"),
        "eight_util": fmt(eight.util, "pct"), "whole_supply": fmt(whole.supply, "B/s"),
        "transfer": fmt(S.record_bytes / S.stream_bytes_per_s, "us"),
    }


ACT1_PREDICTION = Pick(
    id="a1_predict", act=1,
    prompt="Storage, network and GPUs all look healthy on the vendor dashboards, yet the GPUs compute "
           "only a small share of the time. Where is the bottleneck?",
    quantity="the resource that limits the GPUs",
    options=(
        Claim("A", f"**Lustre is saturated**: {S.act1_osts} OSTs cannot feed {S.act1_gpus} GPUs.",
              "Even at full speed all the GPUs together would consume {consumed} of the {aggregate} the OSTs "
              "stream: {storage_util}. More OSTs would sit idle too."),
        Claim("B", f"**Small reads at queue depth 1**: each {S.record_label} request waits out the full "
                   "latency before the next one starts.",
              "A sample takes {requests} requests; each waits {latency} and transfers for only "
              "{transfer}, so {wait_share} of the loader's time is waiting. One worker delivers "
              "{supply} against the {demand} a GPU consumes."),
        Claim("C", "**The network**: the storage fabric between the nodes and Lustre is congested.",
              "Eight GPUs per node need {demand} each; one {link} storage port per node would be "
              "{link_util} busy."),
        Claim("D", "**Nothing is wrong**: low utilisation is normal for data-heavy training.",
              "Not here: with eight workers the same loader reaches {eight_util}. Low utilisation "
              "is a symptom with a cause, not a property of the workload."),
    ),
    decide=act1_answer,
)

ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="Packing the samples into large sequential shards (WebDataset, TFRecord) fixes the loader "
           "even with one worker. Why?",
    options=(
        Claim("A", "Sequential files are striped over more OSTs, so more disks work in parallel.",
              "Striping was never short: at full speed the GPUs would need {storage_util} of the OSTs."),
        Claim("B", f"The latency is paid once per sample instead of once per {S.record_label} record.",
              "One read of the whole sample waits one latency and then streams, so a single worker "
              "delivers {whole_supply}: throughput is bytes in flight ÷ latency, and a large request "
              "puts many bytes in flight."),
        Claim("C", "Sequential data compresses better, so fewer bytes cross the network.",
              "Shards hold the same encoded samples; the bytes are the same, only the requests change."),
        Claim("D", "The operating system's page cache keeps sequential data, so reads never reach storage.",
              "Each sample is read once per epoch; there is nothing to hit in a cache between passes."),
    ),
    answer_letter="B",
)

M = {m.name: m for m in (
    MetricSpec("a1_gpu_util", "GPU utilisation", "1", "pct"),
    MetricSpec("a1_supply", "Loader supply per GPU", "B/s", "B/s"),
    MetricSpec("a1_demand", "Demand per GPU", "B/s", "B/s"),
    MetricSpec("a1_storage_util", "Storage bandwidth needed at full speed", "1", "pct"),
    MetricSpec("a1_sample_s", "Time to read one sample, per worker", "s", "s"),
    MetricSpec("a1_wait_share", "Share of that time spent waiting", "1", "pct"),
    MetricSpec("a2_meta_util", "Metadata service utilisation", "1", "pct"),
    MetricSpec("a2_meta_ops", "Metadata operations demanded", "1/s", "int"),
    MetricSpec("a2_needed", "Servers needed", "servers", "int"),
    MetricSpec("a2_gpu_util", "GPU utilisation", "1", "pct"),
    MetricSpec("a2_files", "Files opened per second", "1/s", "int"),
    MetricSpec("a2_bw_demand", "Bandwidth the GPUs consume", "B/s", "B/s"),
    MetricSpec("a2_bw_margin", "Bandwidth margin", "1", "x"),
)}

FAILURES = (
    FailureSpec("a1_starved", f"Data-starved: the GPUs wait for input more than {fmt(1 - S.starved_util, 'pct')} "
                "of the time", act=1),
    FailureSpec("a2_metadata_saturated", "Metadata server saturated: opens queue behind each other", act=2),
    FailureSpec("a2_requests_throttled", "Request limit exceeded: the object store answers 503 Slow Down", act=2),
)
F = {f.name: f for f in FAILURES}


def act1_instruments(s: State) -> list:
    ld = loader(s)
    parts = [metric_grid(
        M["a1_gpu_util"].show(ld.util, tone(ld.util, warn=S.starved_util)),
        M["a1_supply"].show(ld.supply, "danger" if ld.supply < DEMAND else None,
                            f"{fmt(s['a1_workers'], 'int')} × {fmt(S.sample_bytes / ld.sample_s, 'B/s')}"),
        M["a1_demand"].show(DEMAND, note=f"{S.samples_per_step} × {fmt(S.sample_bytes, 'B')} per "
                                         f"{fmt(S.step_s, 's')}"),
        M["a1_storage_util"].show(ld.storage_util, note=f"of {fmt(ld.aggregate, 'B/s')}"),
        M["a1_sample_s"].show(ld.sample_s),
        M["a1_wait_share"].show(ld.wait_share, note=f"{fmt(ld.requests, 'int')} requests per sample"),
    )]
    if ld.util < S.starved_util:
        need = DEMAND * ld.sample_s / S.sample_bytes
        parts.append(failure(F["a1_starved"],
                             f"Each worker delivers {fmt(S.sample_bytes / ld.sample_s, 'B/s')}; the GPU "
                             f"consumes {fmt(DEMAND, 'B/s')}. It takes {math.ceil(need)} workers at this request "
                             "size, or larger requests, to keep up."))
    parts.append(act1_chart(s, ld))
    return parts


def act1_chart(s: State, ld: Loader):
    workers = list(range(1, int(A1_WORKERS.max) + 1))
    series = {p: [loader(s, w, p).supply for w in workers] for p in ("records", "whole")}
    shape, note = ch.hline(DEMAND, "danger", f"GPU demand {fmt(DEMAND, 'B/s')}")
    # Plotly places annotations on a log axis in log10 units; the label sits above the line at the
    # left, between the two curves.
    note.update(y=math.log10(DEMAND), x=0.01, xanchor="left", yanchor="bottom")
    figure = ch.figure(
        [ch.line(f"{S.record_label} records", workers, series["records"], "series2", markers=True),
         ch.line("Whole-sample reads", workers, series["whole"], "series1", markers=True),
         ch.point("Your setting", s["a1_workers"], ld.supply, "accent")],
        x=ch.axis("Loader workers per GPU"), y=ch.axis("Supply per GPU, bytes/s", "log", exponentformat="SI"),
        shapes=[shape], annotations=[note])
    crossing = next((w for w, x in zip(workers, series["records"]) if x >= DEMAND), None)
    verdict = (f"record reads need {crossing} workers to keep up" if crossing
               else f"record reads never keep up within {workers[-1]} workers")
    summary = (f"At {fmt(s['a1_latency'], 'ms')} per request one worker supplies "
               f"{fmt(series['records'][0], 'B/s')} with {S.record_label} records and {fmt(series['whole'][0], 'B/s')} "
               f"with whole-sample reads; {verdict}.")
    rows = [(str(w), fmt(a, "B/s"), fmt(b, "B/s")) for w, a, b in zip(workers, series["records"], series["whole"])]
    return chart("a1_supply", "Loader supply against workers", figure, summary,
                 table=(("Workers", f"{S.record_label} records", "Whole sample"), rows))


def act1_math(s: State):
    ld = loader(s)
    flop_per_byte = C.H100_PEAK_BF16_DENSE * S.step_s / (S.samples_per_step * S.sample_bytes)
    return math_peek("The governing equations · Act I", (
        Equation(r"R = \frac{b\,s}{t_c}", "Input demand of one GPU: *b* samples of *s* bytes per step of *t_c*."),
        Equation(r"t_s = \left\lceil \frac{s}{q} \right\rceil \left(\ell + \frac{q}{B_s}\right) + t_o",
                 "One worker reads a sample in requests of *q* bytes: each waits the latency ℓ, then streams "
                 "at *B_s*; *t_o* opens and closes the file."),
        Equation(r"X = \frac{W\,s}{t_s}",
                 "Little's law: *W* synchronous workers keep *W* requests in flight."),
        Equation(r"U = \min\left(1,\ \frac{X}{R},\ \frac{B_{\text{agg}}}{N\,R}\right)",
                 "With prefetching, the GPU waits only when its loader or its share of storage falls short."),
    ), rows=(
        ("Demand per GPU, *R*", fmt(DEMAND, "B/s")),
        ("Requests per sample", fmt(ld.requests, "int")),
        ("Time per sample, *t_s*", fmt(ld.sample_s, "s")),
        ("Supply, *X*", fmt(ld.supply, "B/s")),
        ("Utilisation, *U*", fmt(ld.util, "pct")),
        ("Storage bandwidth, *B_agg*", fmt(ld.aggregate, "B/s")),
        ("HBM bandwidth ÷ input demand", fmt(C.H100_HBM_BW / DEMAND, "x")),
        ("Peak FLOP per input byte", fmt(flop_per_byte, "num")),
    ), sources=(
        cite("little1961", "throughput = requests in flight ÷ time per request"),
        cite("thakur2005", "the α + n·β cost of one transfer"),
        cite("aws_s3_latency", "small GETs: median latency in the tens of milliseconds"),
        cite("lustre_manual", "files striped over OSTs; metadata on MDTs"),
        C.REGISTRY["H100_PEAK_BF16_DENSE"].source,
        C.REGISTRY["H100_HBM_BW"].source,
    ))


ACT1 = Act(
    number=1, title="The Idle File System", minutes="12–15 min",
    stakeholder_role="ML Platform Lead",
    stakeholder=lambda: (
        f"Our {S.act1_gpus} H100s train a vision model at {fmt(SCENARIO_LOADER.util, 'pct')} GPU utilisation. "
        f"Each GPU consumes {fmt(DEMAND, 'B/s')}: a step of {S.samples_per_step} samples of "
        f"{fmt(S.sample_bytes, 'B')} every {fmt(S.step_s, 's')}. The dataset sits on {S.act1_osts} Lustre OSTs "
        f"rated at {fmt(SCENARIO_LOADER.aggregate, 'B/s')} together. Our loader runs one worker per GPU and "
        f"reads each sample's records {S.record_label} at a time. Procurement wants to buy more OSTs. "
        "What is actually holding the GPUs back?"),
    scenario=lambda: (
        "A GPU does not read files; a **data loader** does, in worker processes that fetch samples, decode "
        "them and hand batches to the GPU ahead of time. A worker issues one request, waits for the answer, "
        "then issues the next.",
        "The storage, the network and the loader each have a capacity; the slowest of them sets the pace "
        "of the GPU.",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_WORKERS, A1_PATTERN, A1_LATENCY, A1_OSTS),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Data-loader explorer",
)

# ---- Act II · The metadata wall ------------------------------------------------------------

A2_GPUS = Slider("a2_gpus", "GPUs", unit="GPUs", min=128, max=16384, step=1, default=S.act2_gpus, fmt="int",
                 scale="log2")
A2_LAYOUT = Choice("a2_layout", "Dataset layout", (
    Option("files", "One file per sample"),
    Option("shards", f"Tar shards of {S.samples_per_shard:,} samples"),
), default="files")
A2_SERVERS = Slider("a2_servers", "Metadata targets (Lustre) or key prefixes (object store)", unit="servers",
                    min=1, max=32, step=1, default=1, fmt="int",
                    help="Lustre: MDTs, each serving the operations below. Object store: partitioned "
                         f"prefixes, each serving {fmt(C.S3_GET_PER_PREFIX_PER_S, 'int')} GETs per second.")
A2_MDT_OPS = Slider("a2_mdt_ops", "Operations per second one MDT sustains (assumption)", unit="1/s",
                    min=10e3, max=200e3, step=5e3, default=S.mdt_ops_per_s, fmt="int",
                    help="Lustre only (ignored for the object store). An assumption: metadata servers "
                         "differ by an order of magnitude with hardware and with the operation.")
A2_WORKERS = Slider("a2_workers", "Loader workers per GPU", unit="workers", min=1, max=16, step=1,
                    default=S.act2_workers, fmt="int", help="Watch which numbers change, and which do not.")
A2_OSTS = Slider("a2_osts", "Lustre OSTs", unit="OSTs", min=4, max=96, step=4, default=S.act2_osts, fmt="int")


def cluster(s: State) -> Cluster:
    return Cluster(s["a2_gpus"], s["a2_layout"] == "shards", s["a2_servers"], s["a2_mdt_ops"], s["a2_workers"],
                   s["a2_osts"], object_store(s))


def act2_facts() -> dict[str, str]:
    c = SCENARIO_CLUSTER
    shards, objects = replace(c, shards=True), replace(c, objects=True)
    return {
        "bw_demand": fmt(S.act2_gpus * DEMAND, "B/s"), "aggregate": fmt(c.aggregate, "B/s"),
        "margin": fmt(c.headroom()["bandwidth"], "x"), "files": fmt(c.files, "int"),
        "ops": fmt(c.meta_ops, "int"), "capacity": fmt(S.mdt_ops_per_s, "int"),
        "overload": fmt(c.meta_util, "x"), "mdts": fmt(c.needed, "int"), "prefixes": fmt(objects.needed, "int"),
        "shard_ops": fmt(shards.meta_ops, "num"), "loader_margin": fmt(c.headroom()["loader"], "x"),
        "get_limit": fmt(C.S3_GET_PER_PREFIX_PER_S, "int"), "workers": fmt(S.act2_workers, "int"),
    }


ACT2_PREDICTION = Pick(
    id="a2_predict", act=2,
    prompt=f"The CTO signs off {S.act2_gpus:,} GPUs on {S.act2_osts} OSTs, one file per sample, the loaders "
           "fixed as in Act I. What stops the job from running at full speed?",
    quantity=f"the limit the {S.act2_gpus:,}-GPU job hits first",
    options=(
        Claim("A", f"**Aggregate bandwidth**: {S.act2_gpus:,} GPUs outrun {S.act2_osts} OSTs.",
              "The GPUs consume {bw_demand} of the {aggregate} the OSTs stream: a {margin} margin."),
        Claim("B", "**The metadata server**: every sample is a file to open, stat and close.",
              "{files} files a second mean {ops} metadata operations a second against the {capacity} one MDT "
              "serves: {overload} its capacity. It takes {mdts} MDTs, or shards."),
        Claim("C", "**Nothing**: the bandwidth margin covers it, and OSTs can be added later.",
              "Bandwidth is fine, but OSTs serve data, not metadata: adding them leaves every open queued "
              "behind one MDT."),
        Claim("D", "**The loaders**: per-request latency stalls every GPU again at this scale.",
              "Each GPU's loader reads whole samples and runs {loader_margin} ahead of its GPU with "
              "{workers} workers; per-GPU latency does not grow with the GPU count in this model."),
    ),
    decide=act2_answer,
)

ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt="A colleague proposes moving the one-object-per-sample dataset to an S3-style object store, "
           "since object stores have no metadata server. Does that remove the wall?",
    options=(
        Claim("A", "Yes: objects are addressed by content hash, so there is no metadata to look up.",
              "S3 keys are names chosen by the writer, not hashes, and every GET is a request that counts "
              "against a rate limit."),
        Claim("B", "Not by itself: every GET counts against a per-prefix request rate, so the dataset must "
                   "be spread over prefixes or packed into shards.",
              "At {get_limit} GETs per second per partitioned prefix, {files} objects a second need "
              "{prefixes} prefixes. Shards cut the request rate by the samples per shard, on either system."),
        Claim("C", "Yes: the object store caches popular objects near the GPUs.",
              "A training epoch touches every sample once; there are no popular objects to cache."),
        Claim("D", "No: object stores have less bandwidth than Lustre, so bandwidth becomes the limit.",
              "Bandwidth was never the limit; the request rate is."),
    ),
    answer_letter="B",
)


def act2_instruments(s: State) -> list:
    c = cluster(s)
    unit = "GETs" if c.objects else "ops"
    server = servers_word(c)
    parts = [metric_grid(
        M["a2_meta_util"].show(c.meta_util, "danger" if c.meta_util > 1 else "warn" if c.meta_util > S.warn_share
                               else None, f"{fmt(c.servers, 'int')} {server} × {fmt(c.per_server, 'int')} {unit}/s"),
        M["a2_meta_ops"].show(c.meta_ops, note=f"{unit} per second"),
        M["a2_needed"].show(c.needed, note=servers_word(c, c.needed)),
        M["a2_gpu_util"].show(c.util, tone(c.util)),
        M["a2_bw_margin"].show(c.headroom()["bandwidth"], "danger" if c.headroom()["bandwidth"] < 1 else None),
        M["a2_files"].show(c.files, note=f"{plural(c.workers, 'worker', count_fmt='int')} per GPU: no effect"),
        M["a2_bw_demand"].show(c.gpus * DEMAND, note=f"of {fmt(c.aggregate, 'B/s')}"),
    )]
    parts += act2_alerts(c)
    parts.append(act2_chart(c))
    return parts


def servers_word(c: Cluster, n: float | None = None) -> str:
    one, many = ("prefix", "prefixes") if c.objects else ("MDT", "MDTs")
    return one if (c.servers if n is None else n) == 1 else many


def act2_alerts(c: Cluster) -> list:
    if c.meta_util > 1 and c.objects:
        return [failure(F["a2_requests_throttled"],
                        f"{fmt(c.meta_ops, 'int')} GETs a second against {fmt(c.servers, 'int')} × "
                        f"{fmt(c.per_server, 'int')}: the store throttles the rest. Spread keys over "
                        f"{fmt(c.needed, 'int')} prefixes, or pack samples into shards.")]
    if c.meta_util > 1:
        return [failure(F["a2_metadata_saturated"],
                        f"{fmt(c.meta_ops, 'int')} metadata operations a second against "
                        f"{fmt(c.servers * c.per_server, 'int')}: each GPU gets {fmt(c.util, 'pct')} of its "
                        f"data. Add MDTs ({fmt(c.needed, 'int')} needed) or pack samples into shards.")]
    if c.meta_util > S.warn_share:
        what = "The request limit is close" if c.objects else "Metadata service running hot"
        return [callout("warn", what,
                        prose(f"{fmt(c.meta_util, 'pct')} busy: queues, and so request latency, grow steeply "
                              f"above {fmt(S.warn_share, 'pct')}. A few more GPUs will tip it over."))]
    return []


def act2_chart(c: Cluster):
    gpus = [2 ** k for k in range(7, 15)]
    layouts = {k: [replace(c, gpus=n, shards=k == "shards").meta_ops for n in gpus] for k in ("files", "shards")}
    capacity = c.servers * c.per_server
    what = "GET requests" if c.objects else "Metadata operations"
    shape, note = ch.hline(capacity, "danger", f"capacity {fmt(capacity, 'int')}/s")
    note["y"] = math.log10(capacity)
    figure = ch.figure(
        [ch.line("One file per sample", gpus, layouts["files"], "series2", markers=True),
         ch.line(f"Shards of {S.samples_per_shard:,}", gpus, layouts["shards"], "series1", markers=True),
         ch.point("Your setting", c.gpus, c.meta_ops, "accent")],
        x=ch.axis("GPUs", "log", tickvals=gpus, ticktext=[f"{n:,}" for n in gpus]),
        y=ch.axis(f"{what} per second", "log", exponentformat="SI"), shapes=[shape], annotations=[note])
    summary = (f"{what} grow in proportion to the GPUs: one file per sample needs {fmt(layouts['files'][-1], 'int')}"
               f"/s at {gpus[-1]:,} GPUs, shards {fmt(layouts['shards'][-1], 'num')}/s, against a capacity of "
               f"{fmt(capacity, 'int')}/s.")
    rows = [(f"{n:,}", fmt(a, "int"), fmt(b, "num")) for n, a, b in zip(gpus, layouts["files"], layouts["shards"])]
    return chart("a2_metadata", f"{what} against GPU count", figure, summary,
                 table=(("GPUs", "One file per sample", "Shards"), rows))


def act2_math(s: State):
    c = cluster(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"F = \frac{N\,R}{s_{\text{file}}}",
                 "Files opened per second: what *N* GPUs consume, divided by the bytes per file. The worker "
                 "count does not appear."),
        Equation(rf"D_{{\text{{Lustre}}}} = {S.ops_per_file:g}F \qquad D_{{\text{{object}}}} = F",
                 "Lustre opens, stats and closes each file; an object store serves one GET per object."),
        Equation(r"\text{servers} = \left\lceil \frac{D}{C_{\text{server}}} \right\rceil",
                 "MDTs at *C* operations per second each, or prefixes at the store's request limit."),
    ), rows=(
        ("Files per second, *F*", fmt(c.files, "int")),
        ("Demand, *D*", fmt(c.meta_ops, "int")),
        ("Capacity per server", fmt(c.per_server, "int")),
        ("Servers needed", fmt(c.needed, "int")),
        ("MDTs (Lustre) / prefixes (object store) for this rate",
         f"{fmt(replace(c, objects=False).needed, 'int')} / {fmt(replace(c, objects=True).needed, 'int')}"),
        ("Bandwidth margin", fmt(c.headroom()["bandwidth"], "x")),
    ), sources=(
        cite("lustre_manual", "metadata servers and targets"),
        cite("aws_s3_perf", "GET/HEAD requests per second per partitioned prefix"),
        cite("webdataset", "sequential tar shards for deep-learning I/O"),
        C.REGISTRY["S3_GET_PER_PREFIX_PER_S"].source,
    ))


ACT2 = Act(
    number=2, title="The Metadata Wall", minutes="15–20 min",
    stakeholder_role="CTO",
    stakeholder=lambda: (
        "Act I's fix worked: every loader now reads whole samples. "
        f"Next quarter we scale to {S.act2_gpus:,} GPUs on {S.act2_osts} OSTs, "
        f"{fmt(SCENARIO_CLUSTER.aggregate, 'B/s')} of bandwidth against the "
        f"{fmt(S.act2_gpus * DEMAND, 'B/s')} the GPUs will consume: a "
        f"{fmt(SCENARIO_CLUSTER.headroom()['bandwidth'], 'x')} margin. The dataset stays one file per sample, "
        "on one metadata target. I see no risk. Do you?"),
    scenario=lambda: (
        "Lustre keeps file data on OSTs and everything else (names, permissions, the layout of each file) "
        "on **metadata targets** (MDTs). Before a client reads a byte, it asks the metadata server to open "
        "the file; afterwards it closes it.",
        "Reads go straight to the OSTs; opens, stats and closes go to the MDT.",
    ),
    prediction=ACT2_PREDICTION,
    controls=(A2_GPUS, A2_LAYOUT, A2_SERVERS, A2_MDT_OPS, A2_WORKERS, A2_OSTS),
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="Storage scaling analyzer",
)

# ---- the whole lab ------------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    c = cluster(s)
    active = {"a1_starved": loader(s).util < S.starved_util,
              "a2_metadata_saturated": c.meta_util > 1 and not c.objects,
              "a2_requests_throttled": c.meta_util > 1 and c.objects}
    return frozenset(name for name, on in active.items() if on)


def results(s: State) -> dict[str, float]:
    ld, c = loader(s), cluster(s)
    return {"io_per_gpu_bytes_per_s": ld.util * DEMAND, "gpu_util": ld.util, "workers": s["a1_workers"],
            "gpu_count": c.gpus, "mds_ops_per_s": c.meta_ops, "mds_util": c.meta_util, "a2_gpu_util": c.util}


def lab_takeaways() -> list[str]:
    f1, f2 = act1_facts(), act2_facts()
    return [
        f"A GPU can compute only {f1['util']} of the time on a file system that could feed it while "
        f"{f1['storage_util']} busy: the loader, not the storage, sets the rate.",
        f"Throughput = bytes in flight ÷ latency. One worker reading {S.record_label} records supplies "
        f"{f1['supply']}; "
        f"whole-sample reads supply {f1['whole_supply']}.",
        f"Files opened per second grow with the GPUs: {f2['files']} at {S.act2_gpus:,} GPUs, {f2['ops']} "
        f"metadata operations, {f2['overload']} what one MDT serves, with a {f2['margin']} bandwidth margin to spare.",
        f"Shards of {S.samples_per_shard:,} samples cut metadata traffic to {f2['shard_ops']} operations a second; "
        f"an object store without shards needs {f2['prefixes']} prefixes at {f2['get_limit']} GETs/s each.",
    ]


LAB = Lab(
    id="v2_04", volume=2, number=4, title="The I/O Bottleneck",
    invariant="A loader delivers **bytes in flight ÷ latency**, and a job opens files at a rate set by its "
              "GPUs: access pattern and metadata starve GPUs long before storage bandwidth does.",
    minutes="30–35 min", chapter="Storage", url="vol2/04-io-bottleneck/",
    reading=(
        "**The data pipeline**: loaders, prefetching and what a GPU consumes per step.",
        "**Parallel file systems**: OSTs for data, MDTs for names and opens.",
        "**Object stores and shards**: request limits, prefixes, and sequential formats such as WebDataset.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "**V2-02 The Interconnect Wall**: the same bytes-in-flight arithmetic sets the all-reduce time.",
        "**V2-07 The Checkpoint Reckoning**: writing state back to the same storage, at scale.",
        "**V2-09 You Can't Optimize What You Can't Measure**: find the data-loading share before buying disks.",
    ),
    presets={"storage_type": {"lustre": {"a1_latency": S.lustre_latency_s},
                              "object": {"a1_latency": S.object_latency_s}}},
)
