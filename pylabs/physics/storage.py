"""The training input pipeline: what the GPUs demand, what a loader delivers, what storage allows.

All quantities are SI: bytes, seconds, bytes/s, operations or requests per second, fractions.
A loader worker is modelled as one synchronous stream: it issues a request, waits for it, then
issues the next. ``workers`` streams run side by side, so by Little's law the data in flight is
``workers`` requests and the throughput is ``workers × sample ÷ time per sample``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


def pipeline_demand_bytes_per_s(samples_per_step: float, sample_bytes: float, step_s: float) -> float:
    """Input bytes one GPU consumes per second: R = b·s / t_c.

    Source: definition (a step of b samples of s bytes takes t_c seconds of compute).
    """
    return samples_per_step * sample_bytes / step_s


def requests_per_sample(sample_bytes: float, request_bytes: float) -> int:
    """Reads needed for one sample: ⌈s / q⌉ (a request never spans two samples).

    Source: definition.
    """
    return max(1, math.ceil(sample_bytes / request_bytes))


def sample_read_s(sample_bytes: float, request_bytes: float, latency_s: float,
                  stream_bytes_per_s: float, open_s: float = 0.0) -> float:
    """Time for one synchronous stream to read a sample: t_s = ⌈s/q⌉·(ℓ + q/B_s) + t_o.

    Each request waits its latency ℓ, then transfers q bytes at the stream bandwidth B_s;
    t_o is the cost of opening and closing the sample's file (0 inside a shard).
    Source: the α + n·β cost of one message (Thakur, Rabenseifner & Gropp 2005), per request.
    """
    return requests_per_sample(sample_bytes, request_bytes) * (latency_s + request_bytes / stream_bytes_per_s) + open_s


def loader_supply_bytes_per_s(workers: float, sample_bytes: float, read_s: float) -> float:
    """Bytes per second ``workers`` synchronous streams deliver: X = W·s / t_s.

    Source: Little's law, throughput = requests in flight ÷ time per request (Little 1961).
    """
    return workers * sample_bytes / read_s


def aggregate_bandwidth_bytes_per_s(targets: float, bytes_per_s_per_target: float) -> float:
    """Bandwidth of a striped file system: B_agg = targets × per-target bandwidth.

    Source: definition (Lustre stripes files across object storage targets).
    """
    return targets * bytes_per_s_per_target


def gpu_utilization(supply_bytes_per_s: float, demand_bytes_per_s: float,
                    aggregate_bytes_per_s: float, gpus: float) -> float:
    """Share of time a prefetching GPU computes: U = min(1, X/R, B_agg/(N·R)).

    With prefetching, loading overlaps compute, so the GPU waits only when its loader, or its
    share of the storage, delivers less than it consumes.
    Source: bottleneck analysis of a pipelined producer and consumer (the slower stage sets the rate).
    """
    return min(1.0, supply_bytes_per_s / demand_bytes_per_s,
               aggregate_bytes_per_s / (gpus * demand_bytes_per_s))


def storage_utilization(gpus: float, consumed_bytes_per_s: float, aggregate_bytes_per_s: float) -> float:
    """Share of the storage bandwidth in use: N·(bytes each GPU consumes) / B_agg.

    Source: definition.
    """
    return gpus * consumed_bytes_per_s / aggregate_bytes_per_s


def files_per_s(gpus: float, demand_bytes_per_s: float, file_bytes: float) -> float:
    """Files the job opens per second: F = N·R / s_file (set by consumption, not by workers).

    Source: definition (each file is opened once per epoch pass over it).
    """
    return gpus * demand_bytes_per_s / file_bytes


def metadata_ops_per_s(files_opened_per_s: float, ops_per_file: float) -> float:
    """Metadata operations per second: D = (ops per file) × F, e.g. open, stat and close.

    Source: definition.
    """
    return ops_per_file * files_opened_per_s


def servers_needed(demand_per_s: float, capacity_per_s_per_server: float) -> int:
    """Servers (metadata targets, or partitioned prefixes) to carry a rate: ⌈demand / capacity⌉, at least 1.

    Source: definition.
    """
    return max(1, math.ceil(demand_per_s / capacity_per_s_per_server))


# ---- V1-04 The Data Gravity Trap: a prefetching pipeline as the slowest of its stages ----------

PIPELINE_STAGES = ("gpu", "storage", "cpu_decode")


def gpu_samples_per_s(peak_flops: float, mfu: float, flop_per_sample: float) -> float:
    """Samples per second the accelerator can train on: r_gpu = R·u / F.

    Source: definition (peak rate R times utilisation u, divided by the work per sample F).
    """
    return peak_flops * mfu / flop_per_sample


def storage_samples_per_s(read_bytes_per_s: float, sample_bytes: float) -> float:
    """Samples per second storage can stream: r_io = B / s.

    Source: definition (bandwidth divided by the bytes of one stored sample).
    """
    return read_bytes_per_s / sample_bytes


def random_read_samples_per_s(read_bytes_per_s: float, sample_bytes: float, iops: float) -> float:
    """Samples per second from one small file per sample at random: r_io = min(B / s, IOPS).

    Each sample costs one positioning (a seek and half a rotation on a disk), so the device's
    random-read operations per second cap the rate before its bandwidth does.
    Source: definition (one read per file; a disk completes IOPS positioned reads per second).
    """
    return min(read_bytes_per_s / sample_bytes, iops)


def decode_samples_per_s(workers: float, samples_per_s_per_worker: float) -> float:
    """Samples per second the loader's CPU workers decode and augment: r_cpu = w·r_w.

    Workers add decode throughput; they cannot make the disk faster.
    Source: definition (independent worker processes, as in PyTorch's DataLoader).
    """
    return workers * samples_per_s_per_worker


@dataclass(frozen=True)
class Pipeline:
    """Steady state of a prefetching input pipeline: every stage runs at once, so the job moves
    at the slowest stage's rate and the GPU is busy rate / r_gpu of the time."""

    gpu_per_s: float
    storage_per_s: float
    decode_per_s: float

    @property
    def rates(self) -> dict[str, float]:
        return {"gpu": self.gpu_per_s, "storage": self.storage_per_s, "cpu_decode": self.decode_per_s}

    @property
    def samples_per_s(self) -> float:
        """r = min(r_gpu, r_io, r_cpu). Source: bottleneck analysis of a pipeline with buffers
        between stages (the slowest stage sets the throughput)."""
        return min(self.rates.values())

    @property
    def gpu_utilization(self) -> float:
        """U = r / r_gpu. Source: definition."""
        return self.samples_per_s / self.gpu_per_s

    @property
    def bottleneck(self) -> str:
        """The slowest stage; on a tie the stage listed first in PIPELINE_STAGES."""
        rates = self.rates
        return min(PIPELINE_STAGES, key=lambda stage: rates[stage])
