"""Lab V2-04 · The I/O Bottleneck.

Core invariant: a synchronous loader delivers bytes in flight ÷ latency (Little's law), so small
reads at queue depth 1 starve a GPU on idle storage; and a job's requests grow with its GPUs, so at
scale the metadata target (or an object store's per-prefix request limit) breaks before bandwidth.

Act I (the utilisation puzzle): 128 H100s at 12.7 % (Lustre) or 0.255 % (object store, 20 ms a GET);
the storage would be 1.52 % busy at full speed and a node's 25 GB/s port 2.56 %: the loader binds (A).
The reflection asks what the two levers differ in: workers needed grow with the latency (8 at 0.4 ms,
392 at 20 ms), one whole-sample read pays it once (B). Act II (the scale-out plan): 4,096 GPUs on 48
OSTs have a 4.1× bandwidth margin, but one file per sample is 245,760 metadata operations a second,
4.92× one MDT (object store: 81,920 GETs, 14.9× one prefix) (C). The reflection asks why shards keep
working as the job grows (D): at 16,384 GPUs one file per sample needs 20 MDTs or 60 prefixes.

Choices the spec left open, departures from it, and why:
- Demand is 80 MB/s per GPU (16 × 4 MB per 0.8 s step), so story and simulator agree (upstream:
  5.12 GB/s consumed while 80 MB/s was claimed; 1.1 % computed while 12 % was claimed).
- Both predictions are diagnoses (``Pick``) whose ``decide`` proves the key from every resource's
  headroom in the context locked in, which the feedback and text follow.
- The context is the storage (the ledger's storage_type): an object store has no open or close but a
  slower first byte (AWS: small GETs have median latencies "in the tens of milliseconds"; 20 ms
  assumed), a GET connection streams 90 MB/s (AWS: "one concurrent request for each 85-90 MB/s";
  review: the Lustre stream's 2 GB/s had been used), and its Act II limit is GETs per partitioned
  prefix (5,500/s, AWS) instead of an MDT.
  The spec's Act II reflection (would an object store remove the wall?) asks nothing in the object
  context, so it asks why shards outlast more MDTs or prefixes.
- Shards hold 250 samples (1 GB), the size WebDataset's own examples and Hugging Face's WebDataset page
  describe ("often ~1GB"); the spec's 10,000-sample 40 GB shards are not a usual size (its golden
  vector, 24.6 ops/s, is kept in the tests with 40 GB shards).
- The spec's [A] figures are Scenario inputs; latency and MDT capacity are labelled instruments. A
  loader receives at most its GPU's share of the node's storage port (the spec had no such cap).

Ledger: storage_type, the answers, the controls, io_per_gpu, gpu_util, workers, gpu_count,
mds_ops_per_s, mds_util, and the failure states reached (constraint_hit).
"""

from __future__ import annotations

import math
from dataclasses import replace

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option, Pick,
                              Reflection, Slider, State, callout, chart, failure, fmt, math_peek,
                              metric_grid, prose, tone)
from pylabs.framework import charts as ch
from pylabs.framework.formats import plural
from pylabs.labs.vol2.v2_04_model import (DEMAND, NODE_LINK, PORT_SHARE, TERMS, Cluster, Loader, S, act1_answer,
                                          act1_headroom, act2_answer, scenario_cluster, scenario_loader, terms,
                                          workers_needed)
from pylabs.physics import constants as C
from pylabs.physics.references import cite


# ---- context ------------------------------------------------------------------------

CONTEXT = Choice("storage_type", "Where the dataset lives", (
    Option("lustre", "Lustre parallel file system (POSIX: open, stat, close per file)"),
    Option("object", "S3-style object store (one GET per object, no open or close)"),
), default="lustre", help="Changes the request latency in Act I and the storage services in Act II.")


def object_store(s: State) -> bool:
    return s["storage_type"] == "object"


# ---- Act I · The utilisation puzzle ---------------------------------------------------

A1_WORKERS = Slider("a1_workers", "Loader workers per GPU", unit="workers", min=1, max=16, step=1,
                    default=1, fmt="int")
A1_PATTERN = Choice("a1_pattern", "How each sample is read", (
    Option("records", f"{S.record_label} records, one request after another"),
    Option("whole", "One sequential read of the whole sample"),
), default="records")
A1_LATENCY = Slider("a1_latency", "Latency per request", unit="s", min=0.05e-3, max=25e-3,
                    step=0.05e-3, default=S.lustre_latency_s, fmt="ms",
                    help=f"Assumptions. Defaults: {fmt(S.lustre_latency_s, 'ms')} for Lustre; "
                         f"{fmt(S.object_latency_s, 'ms')} for an object store (AWS: requests under 512 KB often "
                         f"have median latencies in the tens of ms). Each request then streams at "
                         f"{fmt(S.stream_bytes_per_s, 'B/s')} from Lustre (assumed) or "
                         f"{fmt(S.object_stream_bytes_per_s, 'B/s')} from the object store (AWS: one request per "
                         f"85–90 MB/s); Lustre adds {fmt(S.open_close_s, 'ms')} to open and close each file.")
A1_OSTS = Slider("a1_osts", "Storage targets (Lustre OSTs)", unit="OSTs", min=4, max=48, step=1,
                 default=S.act1_osts, fmt="int",
                 help=f"Each streams {fmt(S.ost_bytes_per_s, 'B/s')}. For the object store, an assumption: "
                      "the same bandwidth, spread over its servers.")


def loader(s: State, workers: float | None = None, pattern: str | None = None) -> Loader:
    pattern = pattern or s["a1_pattern"]
    request = S.record_bytes if pattern == "records" else S.sample_bytes
    open_s = 0.0 if object_store(s) else S.open_close_s
    return Loader(s["a1_workers"] if workers is None else workers, request, s["a1_latency"], open_s,
                  s["a1_osts"], S.act1_gpus, S.stream(object_store(s)))


def act1_facts(context: str) -> dict[str, str]:
    ld, h = scenario_loader(context), act1_headroom(context)
    whole = replace(ld, request_bytes=S.sample_bytes)
    return {
        "storage_util": fmt(ld.storage_util, "pct"), "aggregate": fmt(ld.aggregate, "B/s"),
        "consumed": fmt(S.act1_gpus * DEMAND, "B/s"), "demand": fmt(DEMAND, "B/s"),
        "supply": fmt(ld.supply, "B/s"), "util": fmt(ld.util, "pct"), "requests": fmt(ld.requests, "int"),
        "latency": fmt(ld.latency_s, "ms"), "wait_share": fmt(ld.wait_share, "pct"),
        "link_util": fmt(1 / h["network"], "pct"), "link": fmt(NODE_LINK, "B/s"),
        "node_demand": fmt(C.DGX_H100_GPUS_PER_NODE * DEMAND, "B/s"),
        "whole_supply": fmt(whole.supply, "B/s"), "workers_needed": fmt(workers_needed(ld), "int"),
        "targets": TERMS[context]["targets"],
        "max_workers": fmt(A1_WORKERS.max, "int"), "max_supply": fmt(A1_WORKERS.max * ld.supply, "B/s"),
        "transfer": fmt(S.record_bytes / ld.stream_bytes_per_s, "us"),
        "transfer_whole": fmt(S.sample_bytes / ld.stream_bytes_per_s, "ms"),
        "stream": fmt(ld.stream_bytes_per_s, "B/s"),
        "whole_keeps_up": ("so one worker keeps up" if whole.supply >= DEMAND else
                           f"so {fmt(workers_needed(whole), 'int')} workers keep up"),
    }


ACT1_PREDICTION = Pick(
    id="a1_predict", act=1,
    prompt="The dashboards show the storage, the network and the GPUs all healthy, yet the GPUs compute only a "
           "small share of the time. What holds them back?",
    quantity="the resource that limits the GPUs",
    options=(
        Claim("A", f"**The loader**: each {S.record_label} request waits out its latency before the next is sent.",
              "Right. A sample takes {requests} requests; each waits {latency} and then transfers for {transfer}, "
              "so {wait_share} of the worker's time is waiting. One worker delivers {supply} of the {demand} a "
              "GPU consumes."),
        Claim("B", f"**The storage**: {{store}} cannot stream what {S.act1_gpus} GPUs read at full speed.",
              "At full speed all the GPUs together would read {consumed} of the {aggregate} the storage "
              "streams: {storage_util}. More {targets} would sit idle too."),
        Claim("C", f"**The network**: one {fmt(NODE_LINK, 'B/s')} storage port per node cannot carry eight GPUs' "
                   "reads.",
              "Eight GPUs at full speed read {node_demand} through a {link} port: {link_util} busy. The "
              "network has room to spare."),
        Claim("D", "**Nothing**: utilisation this low is normal for data-heavy training, and no fix exists.",
              "Not here: the storage would be {storage_util} busy and the node's port {link_util}; the GPU "
              "waits on a loader that delivers {supply} of the {demand} it consumes."),
    ),
    decide=act1_answer,
)

ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="The explorer offers two levers against the starved GPU: more loader workers, and whole-sample "
           "reads. Which statement about them holds?",
    options=(
        Claim("A", "Each added worker delivers less than the last, since all of them share the same {targets}.",
              "The record line is straight: {max_workers} workers deliver {max_supply}, {max_workers} times one "
              "worker. The storage would be only {storage_util} busy at full speed: nothing is shared enough to slow."),
        Claim("B", "Workers needed grow in step with the latency; one whole-sample read pays it once.",
              "Right. Each worker keeps one request in flight, so at {latency} per request it takes "
              "{workers_needed} workers (move the latency and watch). A whole-sample read waits once and then "
              "streams: one worker delivers {whole_supply}, {whole_keeps_up}."),
        Claim("C", "A whole-sample read is striped over many {targets}, so one request reads many disks at once.",
              "Every request streams at the same {stream} per worker here; the sample's bytes take {transfer_whole} "
              "either way. What the large read saves is {requests} waits of {latency}, one per record."),
        Claim("D", "More workers shorten the latency of each request, since the storage serves several at once.",
              "Each request still waits {latency}, with one worker or {max_workers} (the time per sample does not "
              "move): {max_workers} workers keep {max_workers} requests in flight and deliver {max_supply}, "
              "{max_workers} times one worker. Supply grows with the requests in flight, not with a shorter wait."),
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
    MetricSpec("a2_meta_util", "Load on the MDTs or prefixes", "1", "pct"),
    MetricSpec("a2_meta_ops", "Metadata operations or GETs", "1/s", "int"),
    MetricSpec("a2_needed", "MDTs or prefixes needed", "servers", "int"),
    MetricSpec("a2_gpu_util", "GPU utilisation", "1", "pct"),
    MetricSpec("a2_files", "Files or objects read per second", "1/s", "int"),
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
SHARD_BYTES = S.samples_per_shard * S.sample_bytes


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
        M["a1_wait_share"].show(ld.wait_share, note=f"{plural(ld.requests, 'request', count_fmt='int')} per sample"),
    )]
    if ld.util < S.starved_util:  # whole-sample reads never starve (at most 69 ms a sample, 57.6 MB/s), records may
        need = workers_needed(ld)
        fix = (f"It takes {fmt(need, 'int')} workers at this request size to keep up, or one read per sample."
               if need <= A1_WORKERS.max else
               f"At this request size it would take {fmt(need, 'int')} workers, more than the "
               f"{fmt(A1_WORKERS.max, 'int')} a loader here runs: read each sample in one request.")
        parts.append(failure(F["a1_starved"], f"Each worker delivers {fmt(S.sample_bytes / ld.sample_s, 'B/s')}; "
                                              f"the GPU consumes {fmt(DEMAND, 'B/s')}. {fix}"))
    parts.append(act1_chart(s, ld))
    return parts


def act1_chart(s: State, ld: Loader):
    workers = list(range(1, int(A1_WORKERS.max) + 1))
    series = {p: [loader(s, w, p).supply for w in workers] for p in ("records", "whole")}
    shape, note = ch.hline(DEMAND, "danger", f"GPU demand {fmt(DEMAND, 'B/s')}")
    # Plotly places annotations on a log axis in log10 units; the label sits under the line at the right,
    # where both curves have passed above it or stay far below (at the left, on a phone, it hid the records).
    note.update(y=math.log10(DEMAND), x=0.99, xanchor="right", yanchor="top")
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
               f"with whole-sample reads; {verdict}. No loader gets more than {fmt(PORT_SHARE, 'B/s')}, its GPU's share "
               "of the node's storage port.")
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
                 "With prefetching, the GPU waits only when its loader or its share of storage falls short: an "
                 "upper bound that assumes loading overlaps compute perfectly. *X* is at most the GPU's share of "
                 "its node's storage port."),
    ), rows=(
        ("Demand per GPU, *R*", fmt(DEMAND, "B/s")),
        ("Requests per sample", fmt(ld.requests, "int")),
        ("Time per sample, *t_s*", fmt(ld.sample_s, "s")),
        ("Supply, *X*", fmt(ld.supply, "B/s")),
        ("Utilisation, *U*", fmt(ld.util, "pct")),
        ("Storage bandwidth, *B_agg*", fmt(ld.aggregate, "B/s")),
        ("HBM bandwidth ÷ input demand", fmt(C.H100_HBM_BW / DEMAND, "x")),
        ("Peak FLOP per input byte", fmt(flop_per_byte, "sci")),
    ), sources=(
        cite("little1961", "throughput = requests in flight ÷ time per request"),
        cite("thakur2005", "the α + n·β cost of one transfer"),
        cite("aws_s3_latency", "small GETs: median latency in the tens of milliseconds"),
        cite("lustre_manual", "files striped over OSTs; metadata on MDTs"),
        C.REGISTRY["H100_PEAK_BF16_DENSE"].source,
        C.REGISTRY["H100_HBM_BW"].source,
    ))


def act1_stakeholder(context: str) -> str:
    ld = scenario_loader(context)
    where = (f"on {S.act1_osts} Lustre OSTs rated at {fmt(ld.aggregate, 'B/s')} together" if context == "lustre"
             else f"in an S3-style object store that streams {fmt(ld.aggregate, 'B/s')} (we assume as much as "
                  f"{S.act1_osts} Lustre OSTs)")
    return (f"Our {S.act1_gpus} H100s train a vision model at {fmt(ld.util, 'pct')} GPU utilisation. Each GPU "
            f"consumes {fmt(DEMAND, 'B/s')}: {S.samples_per_step} samples of {fmt(S.sample_bytes, 'B')} every "
            f"{fmt(S.step_s, 's')}. The dataset sits {where}; each node of eight GPUs reaches it through one "
            f"{fmt(NODE_LINK, 'B/s')} port. Our loader runs one worker per GPU and reads each sample's records "
            f"{S.record_label} at a time. Procurement wants more storage. What is holding the GPUs back?")


ACT1 = Act(
    number=1, title="The Utilisation Puzzle", minutes="12–15 min",
    stakeholder_role="ML Platform Lead",
    stakeholder=act1_stakeholder,
    scenario=lambda: (
        "A GPU does not read files; a **data loader** does, in worker processes that fetch samples, decode "
        "them and hand batches to the GPU ahead of time.",
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

# ---- Act II · The scale-out plan ------------------------------------------------------------

A2_GPUS = Slider("a2_gpus", "GPUs", unit="GPUs", min=128, max=16384, step=1, default=S.act2_gpus, fmt="int",
                 scale="log2")
A2_LAYOUT = Choice("a2_layout", "Dataset layout", (
    Option("files", "One file (or object) per sample"),
    Option("shards", f"Tar shards of {S.samples_per_shard:,} samples ({fmt(SHARD_BYTES, 'B')})"),
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
A2_OSTS = Slider("a2_osts", "Storage targets (Lustre OSTs)", unit="OSTs", min=4, max=96, step=4,
                 default=S.act2_osts, fmt="int", help=A1_OSTS.help)


def cluster(s: State) -> Cluster:
    return Cluster(s["a2_gpus"], s["a2_layout"] == "shards", s["a2_servers"], s["a2_mdt_ops"], s["a2_workers"],
                   s["a2_osts"], object_store(s))


def act2_facts(context: str) -> dict[str, str]:
    c = scenario_cluster(context)
    shards = replace(c, shards=True)
    headroom = c.headroom()
    loader_supply = headroom["loader"] * DEMAND
    return {
        "bw_demand": fmt(S.act2_gpus * DEMAND, "B/s"), "aggregate": fmt(c.aggregate, "B/s"),
        "margin": fmt(headroom["bandwidth"], "x"), "files": fmt(c.files, "int"), "file": TERMS[context]["file"],
        "ops": fmt(c.meta_ops, "int"), "ops_word": "GETs" if c.objects else "metadata operations",
        "capacity": fmt(c.per_server, "int"), "server": "key prefix" if c.objects else "MDT",
        "servers": TERMS[context]["servers"], "service": TERMS[context]["service"],
        "overload": fmt(c.meta_util, "x"), "needed": fmt(c.needed, "int"), "gpu_util": fmt(c.util, "pct"),
        "shard_ops": fmt(shards.meta_ops, "num"), "shard_share": fmt(shards.meta_util, "pct"),
        "loader_supply": fmt(loader_supply, "B/s"), "loader_margin": fmt(headroom["loader"], "x"),
        "workers": fmt(S.act2_workers, "int"), "shard": f"{S.samples_per_shard:,}",
        "max_gpus": fmt(A2_GPUS.max, "int"), "max_needed": fmt(replace(c, gpus=A2_GPUS.max).needed, "int"),
        "max_shard_share": fmt(replace(shards, gpus=A2_GPUS.max).meta_util, "pct"),
    }


ACT2_PREDICTION = Pick(
    id="a2_predict", act=2,
    prompt=f"The CTO's plan: {S.act2_gpus:,} GPUs on {{a2_on}}, one {{file}} per sample, each loader "
           f"reading whole samples with {S.act2_workers} workers. What stops the job from running at full speed?",
    quantity=f"the limit the {S.act2_gpus:,}-GPU job hits first",
    options=(
        Claim("A", f"**Bandwidth**: {S.act2_gpus:,} GPUs read more than {{a2_store}} can stream together.",
              "The GPUs read {bw_demand} of the {aggregate} the storage streams: a {margin} margin. Bandwidth is "
              "not what binds."),
        Claim("B", "**The loaders**: per-request latency starves each GPU again at this larger scale.",
              "Each loader reads whole samples and delivers {loader_supply} (at most its share of the node's port), "
              "{loader_margin} what its GPU consumes; one GPU's latency does not grow with the number of GPUs."),
        Claim("C", "**{limit}**: {outrun}.",
              "Right. {files} {file}s a second mean {ops} {ops_word} a second against the {capacity} one "
              "{server} serves: {overload} its capacity, so each GPU gets {gpu_util} of its data. It takes "
              "{needed} {servers}, or shards."),
        Claim("D", "**Nothing**: with the bandwidth margin, every GPU runs at full speed and room to grow.",
              "The bandwidth margin is {margin}, but {ops} {ops_word} a second meet one {server} that serves "
              "{capacity}: each GPU gets {gpu_util} of its data."),
    ),
    decide=act2_answer,
)

ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt=f"The analyzer shows two ways past the limit: more {{servers}}, or shards of {S.samples_per_shard:,} "
           "samples. Why do shards keep working as the job grows?",
    options=(
        Claim("A", "Shards are read sequentially, so the {targets} seek less and stream more bytes per second.",
              "Bandwidth had a {margin} margin already. The {service} counts {ops_word}, not bytes: {ops} a "
              "second with one {file} per sample."),
        Claim("B", "Shards compress many samples together, so fewer bytes cross the storage network.",
              "A tar shard holds the same encoded samples: the GPUs read {bw_demand} either way. What changes is "
              "the {ops_word} per second, from {ops} to {shard_ops}."),
        Claim("C", "Shards spread their samples over all the {servers}, so each one's load stays flat as the job "
                   "grows.",
              "With a single {server}, shards still pass: {shard_ops} {ops_word} a second, {shard_share} of its "
              "capacity, and that load grows with the GPUs ({max_shard_share} at {max_gpus}). Spreading balances "
              "a load; shards cut it."),
        Claim("D", "Shards hold many samples per {file}, and requests follow samples consumed ÷ samples per {file}.",
              "Right. At {max_gpus} GPUs one {file} per sample needs {max_needed} {servers}, and the count grows "
              "with the GPUs; shards of {shard} use {max_shard_share} of a single {server}."),
    ),
    answer_letter="D",
)


def act2_instruments(s: State) -> list:
    c = cluster(s)
    unit, (one, many) = ("GETs", ("prefix", "prefixes")) if c.objects else ("ops", ("MDT", "MDTs"))
    parts = [metric_grid(
        M["a2_meta_util"].show(c.meta_util, "danger" if c.meta_util > 1 else "warn" if c.meta_util > S.warn_share
                               else None, f"{plural(c.servers, one, many, 'int')} × {fmt(c.per_server, 'int')} {unit}/s"),
        M["a2_meta_ops"].show(c.meta_ops, note="1 GET per object, per second" if c.objects
                              else "open, stat and close per file, per second"),
        M["a2_needed"].show(c.needed, note=many if c.needed != 1 else one),
        M["a2_gpu_util"].show(c.util, tone(c.util)),
        M["a2_bw_margin"].show(c.headroom()["bandwidth"], "danger" if c.headroom()["bandwidth"] < 1 else None),
        M["a2_files"].show(c.files, note=f"{plural(c.workers, 'worker', count_fmt='int')} per GPU: no effect"),
        M["a2_bw_demand"].show(c.gpus * DEMAND, note=f"of {fmt(c.aggregate, 'B/s')}"),
    )]
    parts += act2_alerts(c)
    parts.append(act2_chart(c))
    return parts


def act2_alerts(c: Cluster) -> list:
    """Above capacity only one file per sample is possible (shards stay under 40 % of one server at every
    setting), so shards are always a lever; more servers only while the slider still offers enough."""
    word, verb = ("prefixes", "Spread the keys over") if c.objects else ("MDTs", "Spread the files over")
    more = (f"{verb} {fmt(c.needed, 'int')} {word}, or pack samples into shards."
            if c.needed <= A2_SERVERS.max else
            f"It would take {fmt(c.needed, 'int')} {word}, more than the {fmt(A2_SERVERS.max, 'int')} offered "
            "here: pack samples into shards.")
    if c.meta_util > 1 and c.objects:
        return [failure(F["a2_requests_throttled"],
                        f"{fmt(c.meta_ops, 'int')} GETs a second against {fmt(c.servers, 'int')} × "
                        f"{fmt(c.per_server, 'int')}: the store throttles the rest, and each GPU gets "
                        f"{fmt(c.util, 'pct')} of its data. {more}")]
    if c.meta_util > 1:
        return [failure(F["a2_metadata_saturated"],
                        f"{fmt(c.meta_ops, 'int')} metadata operations a second against "
                        f"{fmt(c.servers * c.per_server, 'int')}: each GPU gets {fmt(c.util, 'pct')} of its "
                        f"data. {more}")]
    if c.meta_util > S.warn_share:
        what = "The request limit is close" if c.objects else "Metadata service running hot"
        return [callout("warn", what,
                        prose(f"{fmt(c.meta_util, 'pct')} busy: queues, and so request latency, grow steeply "
                              f"above {fmt(S.warn_share, 'pct')}. Twice the GPUs would need "
                              f"{fmt(2 * c.meta_util, 'pct')}."))]
    return []


def act2_chart(c: Cluster):
    gpus = [2 ** k for k in range(7, 15)]
    layouts = {k: [replace(c, gpus=n, shards=k == "shards").meta_ops for n in gpus] for k in ("files", "shards")}
    capacity = c.servers * c.per_server
    what, one = ("GET requests", "object") if c.objects else ("Metadata operations", "file")
    shape, note = ch.hline(capacity, "danger", f"capacity {fmt(capacity, 'int')}/s")
    note["y"] = math.log10(capacity)
    figure = ch.figure(
        [ch.line(f"One {one} per sample", gpus, layouts["files"], "series2", markers=True),
         ch.line(f"Shards of {S.samples_per_shard:,}", gpus, layouts["shards"], "series1", markers=True),
         ch.point("Your setting", c.gpus, c.meta_ops, "accent")],
        x=ch.axis("GPUs", "log", tickvals=gpus, ticktext=[f"{n:,}" for n in gpus]),
        y=ch.axis(f"{what} per second", "log", exponentformat="SI"), shapes=[shape], annotations=[note])
    summary = (f"{what} grow in proportion to the GPUs: one {one} per sample needs {fmt(layouts['files'][-1], 'int')}"
               f"/s at {gpus[-1]:,} GPUs, shards {fmt(layouts['shards'][-1], 'num')}/s, against a capacity of "
               f"{fmt(capacity, 'int')}/s.")
    rows = [(f"{n:,}", fmt(a, "int"), fmt(b, "num")) for n, a, b in zip(gpus, layouts["files"], layouts["shards"])]
    return chart("a2_metadata", f"{what} against GPU count", figure, summary,
                 table=(("GPUs", f"One {one} per sample", "Shards"), rows))


def act2_math(s: State):
    c = cluster(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"F = \frac{N\,R}{s_{\text{file}}}",
                 "Files (or objects) read per second by *N* GPUs; *s*_file is the bytes in one file."),
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
        cite("webdataset_sharding", "shards of about 1 GB"),
        C.REGISTRY["S3_GET_PER_PREFIX_PER_S"].source,
    ))


def act2_stakeholder(context: str) -> str:
    c = scenario_cluster(context)
    layout = ("one file per sample, on one metadata target" if context == "lustre"
              else "one object per sample, under one key prefix")
    return (f"Act I's fix worked: every loader now reads whole samples, with {S.act2_workers} workers. Next "
            f"quarter we scale to {S.act2_gpus:,} GPUs on {TERMS[context]['a2_on']}, {fmt(c.aggregate, 'B/s')} of "
            f"bandwidth against the {fmt(S.act2_gpus * DEMAND, 'B/s')} the GPUs will consume: a "
            f"{fmt(c.headroom()['bandwidth'], 'x')} margin. The dataset stays {layout}. I see no risk. Do you?")


def act2_scenario(context: str) -> tuple[str, ...]:
    if context == "object":
        return ("An object store has no open or close: each GET names one object by its key and returns it. "
                "The store serves keys in **partitioned prefixes**, and each prefix answers a limited number "
                "of requests a second (below).",
                "Bytes come from the store's servers; every GET also counts against its prefix's request rate.")
    return ("Lustre keeps file data on OSTs and everything else (names, permissions, the layout of each file) "
            "on **metadata targets** (MDTs). Before a client reads a byte, it asks the metadata server to open "
            "the file; afterwards it closes it.",
            "Reads go straight to the OSTs; opens, stats and closes go to the MDT.")


ACT2 = Act(
    number=2, title="The Scale-Out Plan", minutes="15–20 min",
    stakeholder_role="CTO",
    stakeholder=act2_stakeholder,
    scenario=act2_scenario,
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


def lab_takeaways(context: str) -> list[str]:
    f1, f2 = act1_facts(context), act2_facts(context)
    return [
        f"A GPU can compute only {f1['util']} of the time on storage that could feed it while {f1['storage_util']} "
        "busy: the loader, not the storage, sets the rate.",
        f"Throughput = bytes in flight ÷ latency. At {f1['latency']} per request, one worker reading "
        f"{S.record_label} records supplies {f1['supply']}, and it takes {f1['workers_needed']} such workers to keep up; "
        f"one worker reading whole samples supplies {f1['whole_supply']}.",
        f"Requests grow with the GPUs: {f2['files']} {f2['file']}s a second at {S.act2_gpus:,} GPUs, {f2['ops']} "
        f"{f2['ops_word']}, {f2['overload']} what one {f2['server']} serves, with a {f2['margin']} bandwidth margin "
        "to spare.",
        f"Shards of {f2['shard']} samples cut that to {f2['shard_ops']} {f2['ops_word']} a second; one {f2['file']} "
        f"per sample needs {f2['needed']} {f2['servers']} at {f2['capacity']} a second each.",
    ]


RECORD_METRICS = (
    MetricSpec("io_per_gpu_bytes_per_s", "Act I data delivered per GPU", "B/s", "B/s"),
    MetricSpec("gpu_util", "Act I GPU utilisation at your setting", "1", "pct"),
    MetricSpec("workers", "Act I loader workers per GPU", "workers", "int"),
    MetricSpec("gpu_count", "Act II GPUs in the job", "GPUs", "int"),
    MetricSpec("mds_ops_per_s", "Act II metadata operations or GETs a second", "1/s", "int"),
    MetricSpec("mds_util", "Act II load on the metadata target or prefixes", "1", "pct"))
HOOK = (f"{S.act1_gpus} H100s compute a small share of the time, and procurement wants more storage. Is that the "
        f"fix? And what breaks first when the same job grows to {S.act2_gpus:,} GPUs?")


LAB = Lab(
    id="v2_04", volume=2, number=4, title="The I/O Bottleneck",
    invariant="A loader delivers **bytes in flight ÷ latency**, and a job's requests grow with its GPUs: the "
              "access pattern, then metadata (or an object store's request limit), starve GPUs long before "
              "storage bandwidth does.",
    minutes="30–35 min", chapter="Storage", url="vol2/04-io-bottleneck/",
    description="Why GPUs starve on an idle file system, and why file opens, not bandwidth, break first at scale.",
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
    record_metrics=RECORD_METRICS,
    terms=terms,
    hook=HOOK,
    connections=(
        "**V2-02 The Interconnect Wall**: moving bytes between GPUs, where this lab moves them from storage.",
        "**V2-07 The Checkpoint Reckoning**: writing state back to the same storage, at scale.",
        "**V2-09 You Can't Optimize What You Can't Measure**: profiling where a training step's time goes.",
    ),
    presets={"storage_type": {"lustre": {"a1_latency": S.lustre_latency_s},
                              "object": {"a1_latency": S.object_latency_s}}},
)
