"""The training input pipeline: what the GPUs demand, what a loader delivers, what storage allows.

All quantities are SI: bytes, seconds, bytes/s, operations or requests per second, fractions.
A loader worker is modelled as one synchronous stream: it issues a request, waits for it, then
issues the next. ``workers`` streams run side by side, so by Little's law the data in flight is
``workers`` requests and the throughput is ``workers × sample ÷ time per sample``.
"""

from __future__ import annotations

import math


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
