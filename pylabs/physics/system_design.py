"""One production design against every constraint at once (V2-17, the Volume II capstone).

Each check reuses the corrected model of the lab it comes from: training memory and time (V2-05,
V1-08), serving fleet and time to first token (V2-10), checkpoint goodput (V2-07, in
``reliability``), regional availability (V2-08's redundancy), the DP accountant (V2-11/13, in
``privacy``), the fairness identity (V2-16, in ``fairness``) and clean-energy matching (V2-15).

Source: handbook/labs/v2_17.md §2, corrected model and golden vectors (4).
"""

from __future__ import annotations

import math
from functools import partial

from pylabs.physics.validators import require

SECONDS_PER_DAY = 86_400.0


# this module's messages lead with the argument and its value: "tp=0: must be >= 1"
_require = partial(require, form="{name}={value!r}: must be {rule}")


# ---- training --------------------------------------------------------------------------


def training_memory_per_gpu_bytes(params: float, tp: int, pp: int, dp: int, activation_bytes: float,
                                  weight_grad_bytes_per_param: float = 4.0,
                                  optimizer_bytes_per_param: float = 12.0) -> float:
    """M = 4P/(TP·PP) + 12P/(TP·PP·DP) + activations: BF16 weights and gradients sharded by tensor and
    pipeline parallelism, FP32 Adam state (master weights, m, v) also sharded over data parallelism
    (ZeRO stage 1).
    Source: Rajbhandari et al. 2020 (ZeRO), 16 B per parameter; handbook/labs/v2_17.md §2."""
    for name, value in (("tp", tp), ("pp", pp), ("dp", dp)):
        _require(value >= 1, name, value, ">= 1")
    _require(params > 0 and activation_bytes >= 0, "params", params, "> 0 with activations >= 0")
    model_shards = tp * pp
    return (weight_grad_bytes_per_param * params / model_shards
            + optimizer_bytes_per_param * params / (model_shards * dp) + activation_bytes)


def training_days(active_params: float, tokens: float, gpus: float, peak_flops: float, mfu: float,
                  goodput: float = 1.0) -> float:
    """Days = 6·P_active·D / (N·C·MFU) / 86,400 / goodput (6 FLOP per active parameter per token;
    a mixture of experts pays only for the experts each token visits).
    Source: Kaplan et al. 2020 (C ≈ 6ND); handbook/labs/v2_17.md §2."""
    _require(gpus > 0 and peak_flops > 0, "gpus", gpus, "> 0 with a positive peak")
    _require(0 < mfu <= 1 and 0 < goodput <= 1, "mfu/goodput", (mfu, goodput), "in (0, 1]")
    return 6 * active_params * tokens / (gpus * peak_flops * mfu) / SECONDS_PER_DAY / goodput


# ---- serving ---------------------------------------------------------------------------


def peak_requests_per_s(users: float, requests_per_user_day: float, peak_factor: float,
                        cloud_fraction: float) -> float:
    """Q = users · requests per day · peak factor / 86,400 · f_cloud (the rest is answered on device).
    Source: handbook/labs/v2_17.md §2."""
    _require(0 <= cloud_fraction <= 1, "cloud_fraction", cloud_fraction, "in [0, 1]")
    return users * requests_per_user_day * peak_factor / SECONDS_PER_DAY * cloud_fraction


def serving_gpus_busy(requests_per_s: float, active_params: float, prompt_tokens: float, output_tokens: float,
                      peak_flops: float, mfu: float) -> float:
    """GPUs kept fully busy = Q · 2·P_active·(s_in + s_out) / (C·MFU): every token of a request costs
    2 FLOP per active parameter.
    Source: Kaplan et al. 2020 (2N FLOP per token forward); handbook/labs/v2_17.md §2."""
    _require(peak_flops > 0 and 0 < mfu <= 1, "peak/mfu", (peak_flops, mfu), "positive, MFU in (0, 1]")
    return requests_per_s * 2 * active_params * (prompt_tokens + output_tokens) / (peak_flops * mfu)


def ttft_p99_s(prefill_s: float, load: float) -> float:
    """P99 time to first token = t_pf·(1 + ln(100ρ)/(1 − ρ)) for ρ > 0.01, t_pf below: the prefill plus
    the M/M/1 waiting-time tail at load ρ (inf at ρ ≥ 1).
    Source: Kleinrock 1975, Vol. I §3.2; handbook/labs/v2_10.md §2 and handbook/labs/v2_17.md §2."""
    _require(prefill_s > 0 and load >= 0, "prefill_s/load", (prefill_s, load), "positive / non-negative")
    if load >= 1:
        return math.inf
    return prefill_s * (1 + max(0.0, math.log(100 * load)) / (1 - load))


def availability_k_of_n(regions: int, needed: int, region_availability: float) -> float:
    """A = Σ_{k ≥ m} C(R, k)·a^k·(1 − a)^(R − k): the service is up while at least m of R independent
    regions are (each up with probability a).
    Source: standard k-out-of-n reliability (e.g. Barlow and Proschan 1965); handbook/labs/v2_17.md §2."""
    _require(1 <= needed <= regions, "needed", needed, f"between 1 and regions={regions}")
    _require(0 <= region_availability <= 1, "region_availability", region_availability, "in [0, 1]")
    a = region_availability
    return sum(math.comb(regions, k) * a ** k * (1 - a) ** (regions - k) for k in range(needed, regions + 1))


# ---- carbon and cost ---------------------------------------------------------------------


def matched_intensity(cfe_fraction: float, grid: float, clean: float) -> float:
    """Intensity = (1 − f)·grid + f·clean, for a share f of every hour matched by clean supply.
    Source: handbook/labs/v2_15.md §2 and handbook/labs/v2_17.md §2 (an internal 24/7 carbon-free-energy policy
    proxy)."""
    _require(0 <= cfe_fraction <= 1, "cfe_fraction", cfe_fraction, "in [0, 1]")
    return (1 - cfe_fraction) * grid + cfe_fraction * clean


def annual_gpu_cost_usd(gpus: float, usd_per_gpu_hour: float, hours_per_year: float) -> float:
    """Rented GPUs running all year: N · price · hours.
    Source: handbook/labs/v2_17.md §2."""
    return gpus * usd_per_gpu_hour * hours_per_year
