"""The model of V2-04 (The I/O Bottleneck): the scenario and the GPU's input demand, Act I's
``Loader`` (one GPU's synchronous reads against shared OSTs) and Act II's ``Cluster`` (the files,
metadata operations and requests a whole job demands), each with the headroom that proves its
answer. The lab module (``v2_04``) reads like its page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pylabs.physics import constants as C
from pylabs.physics import storage as io


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs and labelled assumptions (handbook/labs/v2_04.md §3, [A])."""

    act1_gpus: int = 128
    act1_osts: int = 24
    ost_bytes_per_s: float = 28e9        # per OST, as the platform team quotes it
    act2_gpus: int = 4096
    act2_osts: int = 48
    sample_bytes: float = 4e6            # one training sample (a high-resolution image)
    samples_per_step: int = 16
    step_s: float = 0.8                  # compute time per step on one H100
    record_bytes: float = 4096.0         # the record format's read size (4 KiB)
    lustre_latency_s: float = 0.4e-3     # per request, client to OST and back [A]
    object_latency_s: float = 20e-3      # first byte of a small GET: "tens of ms" per AWS [A]
    stream_bytes_per_s: float = 2e9      # what one Lustre request stream can move [A]
    object_stream_bytes_per_s: float = C.S3_GET_BW_PER_CONNECTION  # one GET connection: AWS, 85-90 MB/s
    open_close_s: float = 1e-3           # open + close of one file on Lustre [A]
    ops_per_file: float = 3.0            # open, stat, close [A]
    mdt_ops_per_s: float = 50e3          # metadata operations one MDT sustains [A]
    samples_per_shard: int = 250         # a 1 GB tar shard, WebDataset's usual size (the spec's 40 GB is not)
    act2_workers: int = 8
    storage_ports_per_node: int = 1      # one 200 Gb/s HDR port per node for storage [A]
    warn_share: float = 0.6              # metadata utilisation that deserves a warning
    starved_util: float = 0.5            # Act I's failure line: below it the GPUs wait for input most of the time

    @property
    def record_label(self) -> str:
        return f"{self.record_bytes / 1024:g} KiB"

    def stream(self, objects: bool) -> float:
        """What one request stream moves: a Lustre client stream [A], or one S3 GET connection (AWS)."""
        return self.object_stream_bytes_per_s if objects else self.stream_bytes_per_s


S = Scenario()
DEMAND = io.pipeline_demand_bytes_per_s(S.samples_per_step, S.sample_bytes, S.step_s)
NODE_LINK = S.storage_ports_per_node * C.IB_HDR_BW
# what one GPU's loader can receive at most: its share of the node's storage port
PORT_SHARE = NODE_LINK / C.DGX_H100_GPUS_PER_NODE

# the words each storage context puts into the prompts and options
TERMS = {
    "lustre": {"store": f"{S.act1_osts} OSTs", "targets": "OSTs", "a2_on": f"{S.act2_osts} OSTs",
               "a2_store": f"the {S.act2_osts} OSTs", "file": "file", "limit": "The metadata target",
               "outrun": "the files opened per second outrun what one MDT serves",
               "servers": "MDTs", "service": "metadata target"},
    "object": {"store": "the object store", "targets": "storage servers",
               "a2_on": f"an object store as fast as {S.act2_osts} OSTs", "a2_store": "the object store",
               "file": "object", "limit": "The request limit",
               "outrun": "the GETs per second outrun what one key prefix serves",
               "servers": "key prefixes", "service": "request limit"},
}


def terms(context: str) -> dict[str, str]:
    return TERMS[context]


@dataclass(frozen=True)
class Loader:
    """One GPU's input pipeline against the shared storage of ``gpus`` GPUs."""

    workers: float
    request_bytes: float
    latency_s: float
    open_s: float
    osts: float
    gpus: float
    stream_bytes_per_s: float = S.stream_bytes_per_s

    @property
    def sample_s(self) -> float:
        return io.sample_read_s(S.sample_bytes, self.request_bytes, self.latency_s, self.stream_bytes_per_s,
                                self.open_s)

    @property
    def supply(self) -> float:
        """X = W·s/t_s, at most the GPU's share of its node's storage port."""
        return min(io.loader_supply_bytes_per_s(self.workers, S.sample_bytes, self.sample_s), PORT_SHARE)

    @property
    def aggregate(self) -> float:
        return io.aggregate_bandwidth_bytes_per_s(self.osts, S.ost_bytes_per_s)

    @property
    def util(self) -> float:
        return io.gpu_utilization(self.supply, DEMAND, self.aggregate, self.gpus)

    @property
    def storage_util(self) -> float:
        """Share of the OSTs' bandwidth the GPUs would use at full speed."""
        return io.storage_utilization(self.gpus, DEMAND, self.aggregate)

    @property
    def requests(self) -> int:
        return io.requests_per_sample(S.sample_bytes, self.request_bytes)

    @property
    def wait_share(self) -> float:
        """Share of a sample's read time spent waiting on latency."""
        return self.requests * self.latency_s / self.sample_s


def scenario_loader(context: str) -> Loader:
    """The platform lead's loader (one worker, 4 KiB records) on the context's storage: Lustre pays a
    short latency and an open and close per file; an object store a longer first byte, no open, and
    streams at one GET connection's rate."""
    objects = context == "object"
    return Loader(1, S.record_bytes, S.object_latency_s if objects else S.lustre_latency_s,
                  0.0 if objects else S.open_close_s, S.act1_osts, S.act1_gpus, S.stream(objects))


SCENARIO_LOADER = scenario_loader("lustre")
# Act I's diagnoses, as the options letter them: the loader, the storage, the node's storage link
ACT1_LETTERS = {"loader": "A", "storage": "B", "network": "C"}


def act1_headroom(context: str = "lustre") -> dict[str, float]:
    """Supply ÷ demand of each resource at the scenario's inputs (below 1 = the bottleneck)."""
    ld = scenario_loader(context)
    return {"loader": ld.supply / DEMAND, "storage": ld.aggregate / (S.act1_gpus * DEMAND),
            "network": NODE_LINK / (C.DGX_H100_GPUS_PER_NODE * DEMAND)}


def act1_answer(context: str = "lustre") -> str:
    headroom = act1_headroom(context)
    worst = min(headroom, key=headroom.get)
    return ACT1_LETTERS[worst] if headroom[worst] < 1 else "D"


def workers_needed(ld: Loader) -> int:
    """Synchronous workers one GPU needs at this loader's request size: ⌈R ÷ (s / t_s)⌉."""
    return math.ceil(round(DEMAND * ld.sample_s / S.sample_bytes, 6))  # round: 8.000000001 is 8 workers


@dataclass(frozen=True)
class Cluster:
    """The whole job's demand on storage: bandwidth, files opened, and the service that opens them."""

    gpus: float
    shards: bool
    servers: float
    mdt_ops: float
    workers: float
    osts: float
    objects: bool

    @property
    def files(self) -> float:
        file_bytes = S.sample_bytes * (S.samples_per_shard if self.shards else 1)
        return io.files_per_s(self.gpus, DEMAND, file_bytes)

    @property
    def meta_ops(self) -> float:
        """Lustre: open, stat, close per file. Object store: one GET per object."""
        return self.files if self.objects else io.metadata_ops_per_s(self.files, S.ops_per_file)

    @property
    def per_server(self) -> float:
        return C.S3_GET_PER_PREFIX_PER_S if self.objects else self.mdt_ops

    @property
    def meta_util(self) -> float:
        return self.meta_ops / (self.servers * self.per_server)

    @property
    def needed(self) -> int:
        return io.servers_needed(self.meta_ops, self.per_server)

    @property
    def aggregate(self) -> float:
        return io.aggregate_bandwidth_bytes_per_s(self.osts, S.ost_bytes_per_s)

    def headroom(self) -> dict[str, float]:
        """Supply ÷ demand per resource; each loader reads whole samples (Act I's fix)."""
        latency, open_s = (S.object_latency_s, 0.0) if self.objects else (S.lustre_latency_s, S.open_close_s)
        read = io.sample_read_s(S.sample_bytes, S.sample_bytes, latency, S.stream(self.objects), open_s)
        return {"bandwidth": self.aggregate / (self.gpus * DEMAND), "metadata": 1 / self.meta_util,
                "loader": min(io.loader_supply_bytes_per_s(self.workers, S.sample_bytes, read), PORT_SHARE) / DEMAND}

    @property
    def util(self) -> float:
        return min(1.0, *self.headroom().values())


def scenario_cluster(context: str) -> Cluster:
    """The CTO's plan on the context's storage: one file (or object) per sample, one MDT (or prefix)."""
    return Cluster(S.act2_gpus, False, 1, S.mdt_ops_per_s, S.act2_workers, S.act2_osts, context == "object")


SCENARIO_CLUSTER = scenario_cluster("lustre")
# Act II's limits, as the options letter them; "C" names the context's request service
ACT2_LETTERS = {"bandwidth": "A", "loader": "B", "metadata": "C"}


def act2_answer(context: str = "lustre") -> str:
    headroom = scenario_cluster(context).headroom()
    worst = min(headroom, key=headroom.get)
    return ACT2_LETTERS[worst] if headroom[worst] < 1 else "D"
