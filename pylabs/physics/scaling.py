"""Time to train and scaling speedups.

Sources: Kaplan et al. 2020 (C = 6ND); Chowdhery et al. 2022 (PaLM MFU against the dense
peak); Amdahl 1967 (communication as the serial term). handbook/labs/v2_02.md §2 and handbook/labs/v2_01.md §2.
"""

import math

from pylabs.physics.validators import require, require_positive_fraction


def _check_gpus(name: str, gpus: float) -> None:
    require(math.isfinite(gpus) and gpus >= 1, name, gpus, ">= 1",
            "pass the number of GPUs (or nodes) the work is spread over")


def time_to_train_s(flops: float, gpus: float, peak_flops: float, mfu: float) -> float:
    """T = F / (N_gpu * C_peak * MFU)  (seconds; MFU already includes every inefficiency).

    Source: Kaplan et al. 2020; handbook/labs/v2_01.md §2 (scaling book: 6.3e24 FLOP in ~40 days).
    """
    require(flops >= 0, "flops", flops, ">= 0 FLOP",
            "pass the training compute, e.g. train_flops(params, tokens)")
    _check_gpus("gpus", gpus)
    require(peak_flops > 0, "peak_flops", peak_flops, "> 0 FLOP/s",
            "pass the dense peak, e.g. constants.H100_PEAK_BF16_DENSE")
    require_positive_fraction("mfu", mfu, "pass MFU as a fraction, e.g. 0.45")
    return flops / (gpus * peak_flops * mfu)


def strong_scaling_speedup(gpus: float, t_compute_one_gpu_s: float, t_comm_s: float) -> float:
    """S(N) = T1 / (T1/N + T_comm)  (fixed global batch; communication not overlapped).

    Source: handbook/labs/v2_01.md §2 (Amdahl form with communication as the serial term).
    """
    _check_gpus("gpus", gpus)
    require(t_compute_one_gpu_s > 0, "t_compute_one_gpu_s", t_compute_one_gpu_s, "> 0 s",
            "pass the compute time of the whole global batch on one GPU")
    require(t_comm_s >= 0, "t_comm_s", t_comm_s, ">= 0 s",
            "pass the exposed communication time per step at this GPU count")
    return t_compute_one_gpu_s / (t_compute_one_gpu_s / gpus + t_comm_s)


def weak_scaling_speedup(scale: float, t_step_base_s: float, t_step_scaled_s: float) -> float:
    """S(n) = n * T_step(base) / T_step(n)  (fixed work per GPU; n times the work done).

    Source: handbook/labs/v2_02.md §2 (speedup against one node).
    """
    _check_gpus("scale", scale)
    require(t_step_base_s > 0, "t_step_base_s", t_step_base_s, "> 0 s",
            "pass the step time of the baseline (e.g. one node)")
    require(t_step_scaled_s > 0, "t_step_scaled_s", t_step_scaled_s, "> 0 s",
            "pass the step time at the larger scale")
    return scale * t_step_base_s / t_step_scaled_s
