"""Failures, checkpoints and goodput of a synchronous training job.

A synchronous job stops when any one of its GPUs fails, so the job's mean time between
failures is the per-GPU figure divided by the GPU count. Checkpoints bound the work a
failure destroys, at the price of a stall each time one is taken. Young (1974) balanced the
two to first order; Daly (2006) added the higher-order terms for exponential failures.

The waste model is the first-order one of handbook/labs/v2_07.md §2: per unit of
wall-clock time the job loses stall/T to checkpoints and (T/2 + lag + restart)/M to
failures. It is valid while T, the lag and the restart are small against M; the fraction
is capped at 1 where they are not (the job then makes no progress).
"""

import math
from dataclasses import dataclass
from functools import partial

from pylabs.physics.validators import require, require_finite_positive

# a duration, rate or size here must be finite too, and its messages say so
_positive = partial(require_finite_positive, rule="> 0 and finite")


def cluster_mtbf_s(gpu_mtbf_s: float, n_gpus: float) -> float:
    """M = MTBF_gpu / N  (any one GPU failing stops a synchronous job; independent failures).

    Source: exponential failures in series (rates add); Dubey et al. 2024, Llama 3, sec. 3.3.4.
    """
    _positive("gpu_mtbf_s", gpu_mtbf_s, "pass the mean time between failures of one GPU, in seconds")
    require(math.isfinite(n_gpus) and n_gpus >= 1, "n_gpus", n_gpus, ">= 1",
            "pass the number of GPUs the job runs on")
    return gpu_mtbf_s / n_gpus


def gpu_mtbf_from_run_s(n_gpus: float, duration_s: float, interruptions: float) -> float:
    """MTBF_gpu = N * duration / interruptions  (the per-GPU figure a fleet's record implies).

    Source: Dubey et al. 2024, Llama 3, sec. 3.3.4 (16,384 GPUs, 54 days, 419 interruptions).
    """
    require(n_gpus >= 1, "n_gpus", n_gpus, ">= 1", "pass the GPU count of the run")
    _positive("duration_s", duration_s, "pass the length of the observed period in seconds")
    _positive("interruptions", interruptions, "pass the number of unexpected interruptions")
    return n_gpus * duration_s / interruptions


def checkpoint_write_s(state_bytes: float, storage_bytes_per_s: float) -> float:
    """C_w = S / B_storage  (the whole restartable state through the storage system's bandwidth).

    Source: handbook/labs/v2_07.md §2; storage-bound writes as in Dubey et al. 2024, sec. 3.3.4.
    """
    require(math.isfinite(state_bytes) and state_bytes >= 0, "state_bytes", state_bytes, ">= 0",
            "pass the bytes of one checkpoint")
    _positive("storage_bytes_per_s", storage_bytes_per_s, "pass the aggregate write bandwidth in B/s")
    return state_bytes / storage_bytes_per_s


def snapshot_stall_s(state_bytes: float, n_gpus: float, d2h_bytes_per_s: float) -> float:
    """delta_async = S / (N * B_d2h)  (each GPU copies its shard to host memory, all in parallel).

    Source: handbook/labs/v2_07.md §2 (asynchronous checkpointing: snapshot, then persist in the background).
    """
    require(math.isfinite(state_bytes) and state_bytes >= 0, "state_bytes", state_bytes, ">= 0",
            "pass the bytes of one checkpoint")
    require(n_gpus >= 1, "n_gpus", n_gpus, ">= 1", "pass the number of GPUs holding shards")
    _positive("d2h_bytes_per_s", d2h_bytes_per_s, "pass one GPU's device-to-host bandwidth in B/s")
    return state_bytes / (n_gpus * d2h_bytes_per_s)


def young_interval_s(stall_s: float, mtbf_s: float) -> float:
    """T_Y = sqrt(2 * delta * M)  (first order; exact minimiser of waste_fraction's T terms).

    Source: Young 1974, A first order approximation to the optimum checkpoint interval, CACM 17(9).
    """
    require(math.isfinite(stall_s) and stall_s >= 0, "stall_s", stall_s, ">= 0",
            "pass the time the job stops for one checkpoint")
    _positive("mtbf_s", mtbf_s, "pass the job's mean time between failures in seconds")
    return math.sqrt(2.0 * stall_s * mtbf_s)


def daly_interval_s(stall_s: float, mtbf_s: float) -> float:
    """T_D = sqrt(2 delta M) * [1 + sqrt(delta/2M)/3 + (delta/2M)/9] - delta for delta < 2M, else M.

    Source: Daly 2006, A higher order estimate of the optimum checkpoint interval for restart
    dumps, FGCS 22(3), eq. 37 (as implemented in LLNL SCR's scr_ckpt_interval.py).
    """
    young = young_interval_s(stall_s, mtbf_s)
    if stall_s >= 2.0 * mtbf_s:
        return mtbf_s
    ratio = stall_s / (2.0 * mtbf_s)
    return young * (1.0 + math.sqrt(ratio) / 3.0 + ratio / 9.0) - stall_s


def waste_fraction(interval_s: float, stall_s: float, mtbf_s: float, restart_s: float,
                   lag_s: float = 0.0) -> float:
    """W = delta/T + (T/2 + L + R)/M, capped at 1  (checkpoint stalls plus expected loss per failure).

    Each failure costs half an interval of rework on average, the lag L of work computed but not
    yet persisted (asynchronous checkpoints: the write time) and the restart R.
    Source: Young 1974 (first-order model); handbook/labs/v2_07.md §2 for the lag and restart terms.
    """
    _positive("interval_s", interval_s, "pass the time between checkpoints in seconds")
    require(math.isfinite(stall_s) and stall_s >= 0, "stall_s", stall_s, ">= 0",
            "pass the time the job stops for one checkpoint")
    _positive("mtbf_s", mtbf_s, "pass the job's mean time between failures in seconds")
    require(math.isfinite(restart_s) and restart_s >= 0, "restart_s", restart_s, ">= 0",
            "pass the time from a failure to training again (reschedule and reload)")
    require(math.isfinite(lag_s) and lag_s >= 0, "lag_s", lag_s, ">= 0",
            "pass 0 for synchronous checkpoints, the write time for asynchronous ones")
    waste = stall_s / interval_s + (interval_s / 2.0 + lag_s + restart_s) / mtbf_s
    return min(1.0, waste)


def goodput_fraction(interval_s: float, stall_s: float, mtbf_s: float, restart_s: float,
                     lag_s: float = 0.0) -> float:
    """G = 1 - W  (the share of wall-clock time that advances training; 0 when W reaches 1).

    Source: Young 1974; handbook/labs/v2_07.md §2.
    """
    return 1.0 - waste_fraction(interval_s, stall_s, mtbf_s, restart_s, lag_s)


def time_lost_s(compute_s: float, waste_frac: float) -> float:
    """L = C * W / (1 - W)  (wall-clock time lost by a run of C seconds of pure compute; inf once W reaches 1).

    W is a share of wall-clock time, and the run's wall clock is C / (1 - W), not C: the loss is
    W * C / (1 - W), more than W * C.
    Source: goodput = useful time / wall-clock time (Dubey et al. 2024, Llama 3, sec. 3.3.4,
    "effective training time"); the algebra follows from the definition.
    """
    require(math.isfinite(compute_s) and compute_s >= 0, "compute_s", compute_s, ">= 0",
            "pass the run's pure compute time in seconds")
    require(0 <= waste_frac <= 1, "waste_frac", waste_frac, "between 0 and 1",
            "pass the share of wall-clock time lost (1 - goodput)")
    return math.inf if waste_frac >= 1 else compute_s * waste_frac / (1.0 - waste_frac)


@dataclass(frozen=True)
class CheckpointCosts:
    """One checkpoint plan on one cluster: its times (s) and the shares of time (0-1) it loses."""

    mtbf_s: float
    write_s: float
    stall_s: float
    lag_s: float
    interval_s: float           # the interval actually used (async: never below the write time)
    optimal_interval_s: float   # Young's optimum for this mode (async: at least the write time)
    stall_frac: float
    rework_frac: float
    lag_frac: float
    restart_frac: float
    waste_frac: float           # the sum of the four shares, capped at 1

    @property
    def goodput_frac(self) -> float:
        return 1.0 - self.waste_frac


def checkpoint_costs(state_bytes: float, n_gpus: float, gpu_mtbf_s: float, storage_bytes_per_s: float,
                     d2h_bytes_per_s: float, restart_s: float, interval_s: float,
                     asynchronous: bool) -> CheckpointCosts:
    """W = delta/T + (T/2 + L + R)/M with delta = C_w, L = 0 (sync) or delta = S/(N B_d2h), L = C_w, T >= C_w (async).

    Source: handbook/labs/v2_07.md §2; Young 1974 for the optimum.
    """
    mtbf = cluster_mtbf_s(gpu_mtbf_s, n_gpus)
    write = checkpoint_write_s(state_bytes, storage_bytes_per_s)
    stall = snapshot_stall_s(state_bytes, n_gpus, d2h_bytes_per_s) if asynchronous else write
    lag = write if asynchronous else 0.0
    floor = write if asynchronous else 0.0
    used = max(interval_s, floor)
    waste = waste_fraction(used, stall, mtbf, restart_s, lag)
    shares = (stall / used, used / 2.0 / mtbf, lag / mtbf, restart_s / mtbf)
    scale = waste / sum(shares)  # 1 unless the first-order model was capped
    return CheckpointCosts(mtbf, write, stall, lag, used, max(young_interval_s(stall, mtbf), floor),
                           *(share * scale for share in shares), waste)
