"""The scenario and the model of V2-17 (The Constraints Never Lie): the board's requirements, the
domains of the Design Ledger, a design and its nine checks, the board's draft and the four candidate
designs. The lab module (``v2_17``) reads like its page; this is its model.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from pylabs.physics import constants as C
from pylabs.physics import fairness as F
from pylabs.physics import privacy, reliability, serving
from pylabs.physics import system_design as sd


@dataclass(frozen=True)
class Scenario:
    """The board's requirements and the story's inputs; [A] marks assumptions of the story."""

    params: float = 1e12                 # the board's 1 T-parameter model
    moe_active: float = 100e9            # a mixture of experts: 100 B parameters active per token
    tokens_per_month: float = 1e12       # monthly retraining on 1 T tokens
    activation_bytes: float = 20e9       # [A] activations per GPU with selective recomputation
    train_mfu: float = 0.40
    users: float = 5e9
    requests_per_user_day: float = 2.0
    peak_factor: float = 2.0
    prompt_tokens: float = 500.0
    output_tokens: float = 200.0
    serve_mfu: float = 0.40              # serving utilisation of compute while busy
    prefill_mfu: float = 0.50            # as V2-10
    replica_gpus: float = 16.0
    region_availability: float = 0.999   # [A] one region's availability
    storage_bw: float = 400e9            # checkpoint writes, as V2-07
    d2h_bw: float = 50e9
    restart_s: float = 600.0             # [A] requeue and reload, as V2-07
    dp_sampling_rate: float = 1e-3       # [A] DP-SGD on user data: sampling rate q ...
    dp_steps: float = 1e4                # ... steps per monthly retrain ...
    dp_delta: float = 1e-10              # ... and δ, below 1/users
    base_a: float = 0.20                 # fairness: base rates of two groups (V2-16 identity)
    base_b: float = 0.35
    tpr: float = 0.85
    fpr: float = 0.10
    grid_g_per_kwh: float = 255.0        # [A] the regions' grid mix
    clean_g_per_kwh: float = 20.0        # [A] a wind, solar and hydro portfolio (lifecycle)
    usd_per_gpu_hour: float = 3.50       # [A] rented H100 price
    # the board's requirements (company policy, not law)
    hbm_limit: float = C.H100_HBM_BYTES
    days_limit: float = 30.0
    goodput_limit: float = 0.90
    ttft_limit_s: float = 0.5
    availability_limit: float = 0.9999
    epsilon_limit: float = 2.0
    fairness_tolerance: float = 0.02     # |ΔTPR|, |ΔFPR| at most 2 pp
    carbon_limit: float = 50.0           # g CO2e/kWh, hour by hour
    budget_usd: float = 10e9
    train_gpus: int = 16_384
    # units and drawing
    tiny: float = 1e-12                  # keeps a ratio finite when a share reaches zero
    chart_floor: float = 1e-3            # the check chart's range: a thousandth to a thousand times the limit
    chart_height_px: float = 320.0
    pct_per_unit: float = 100.0
    bytes_per_gb: float = 1e9
    ms_per_s: float = 1e3
    per_billion: float = 1e9             # the page writes 5 billion users, 100 B parameters, $10 B
    per_trillion: float = 1e12           # ... and 1 T parameters, 1 T tokens


S = Scenario()
SECONDS_PER_DAY = sd.SECONDS_PER_DAY
GPU_MTBF_S = reliability.gpu_mtbf_from_run_s(C.LLAMA3_405B_GPUS, C.LLAMA3_405B_SNAPSHOT_S,
                                             C.LLAMA3_405B_UNEXPECTED_INTERRUPTIONS)

# ---- the domains of the Design Ledger ---------------------------------------------------

DOMAINS: dict[str, tuple[str, ...]] = {
    "Memory": ("v1_02", "v1_05", "v1_08", "v1_10", "v2_04", "v2_10"),
    "Compute": ("v1_01", "v1_06", "v1_07", "v1_11", "v2_09"),
    "Serving": ("v1_00", "v1_13", "v2_12"),
    "Networking": ("v1_04", "v2_02", "v2_03", "v2_06"),
    "Reliability": ("v1_14", "v2_07", "v2_14"),
    "Scale": ("v1_12", "v2_01", "v2_05"),
    "Ethics": ("v1_15", "v2_11", "v2_13", "v2_16"),
    "Economics": ("v1_03", "v1_09", "v2_08", "v2_15"),
}
READS = tuple(sorted(lab for labs in DOMAINS.values() for lab in labs))


# ---- a design and its nine checks ---------------------------------------------------------

@lru_cache(maxsize=None)
def training_goodput(gpus: int) -> float:
    """V2-07's model: asynchronous checkpoints of 16 B per parameter at Young's interval."""
    costs = reliability.checkpoint_costs(16 * S.params, gpus, GPU_MTBF_S, S.storage_bw, S.d2h_bw,
                                         S.restart_s, interval_s=1.0, asynchronous=True)
    best = reliability.young_interval_s(costs.stall_s, costs.mtbf_s)
    return reliability.checkpoint_costs(16 * S.params, gpus, GPU_MTBF_S, S.storage_bw, S.d2h_bw,
                                        S.restart_s, best, True).goodput_frac


@lru_cache(maxsize=None)
def dp_epsilon(noise: float) -> float:
    """The V2-11 accountant (subsampled Gaussian RDP, classic conversion) for a month of DP-SGD."""
    return privacy.epsilon(S.dp_sampling_rate, noise, S.dp_steps, S.dp_delta)


SHARDINGS = {"tp8pp4": (8, 4), "tp8pp8": (8, 8), "tp8pp16": (8, 16), "tp8pp32": (8, 32)}
REGIONS = {"r1": (1, 1), "r2m2": (2, 2), "r2m1": (2, 1), "r3m2": (3, 2), "r5m4": (5, 4)}


@dataclass(frozen=True)
class Design:
    moe: bool = False
    gpus: int = S.train_gpus
    sharding: str = "tp8pp16"
    cloud_fraction: float = 0.3
    load: float = 0.7
    regions: str = "r1"
    noise: float = 1.0
    fairness: str = "ppv"
    cfe: float = 0.4

    @property
    def active(self) -> float:
        return S.moe_active if self.moe else S.params

    @property
    def dp(self) -> int:
        tp, pp = SHARDINGS[self.sharding]
        return max(1, self.gpus // (tp * pp))

    @property
    def memory(self) -> float:
        tp, pp = SHARDINGS[self.sharding]
        return sd.training_memory_per_gpu_bytes(S.params, tp, pp, self.dp, S.activation_bytes)

    @property
    def goodput(self) -> float:
        return training_goodput(self.gpus)

    @property
    def days(self) -> float:
        return sd.training_days(self.active, S.tokens_per_month, self.gpus, C.H100_PEAK_BF16_DENSE, S.train_mfu,
                                max(self.goodput, S.tiny))

    @property
    def prefill_s(self) -> float:
        return serving.prefill_s(2 * self.active * S.prompt_tokens, S.replica_gpus, C.H100_PEAK_BF16_DENSE,
                                 S.prefill_mfu)

    @property
    def ttft(self) -> float:
        return sd.ttft_p99_s(self.prefill_s, self.load)

    @property
    def busy_gpus(self) -> float:
        q = sd.peak_requests_per_s(S.users, S.requests_per_user_day, S.peak_factor, self.cloud_fraction)
        return sd.serving_gpus_busy(q, self.active, S.prompt_tokens, S.output_tokens, C.H100_PEAK_BF16_DENSE,
                                    S.serve_mfu)

    @property
    def serving_gpus(self) -> float:
        regions, needed = REGIONS[self.regions]
        return self.busy_gpus / self.load * regions / needed

    @property
    def availability(self) -> float:
        return sd.availability_k_of_n(*REGIONS[self.regions], S.region_availability)

    @property
    def epsilon(self) -> float:
        return dp_epsilon(self.noise)

    @property
    def fairness_gap(self) -> float:
        """The error-rate gap (max of |ΔTPR|, |ΔFPR|) of the chosen rule; the other rule's price is PPV."""
        if self.fairness == "single":
            return 0.0
        ppv_b = F.ppv(S.base_b, S.tpr, S.fpr)
        return abs(F.fpr_from_identity(S.base_a, ppv_b, S.tpr) - S.fpr)

    @property
    def ppv_gap(self) -> float:
        return abs(F.ppv(S.base_b, S.tpr, S.fpr) - F.ppv(S.base_a, S.tpr, S.fpr)) if self.fairness == "single" else 0.0

    @property
    def carbon(self) -> float:
        return sd.matched_intensity(self.cfe, S.grid_g_per_kwh, S.clean_g_per_kwh)

    @property
    def cost(self) -> float:
        return sd.annual_gpu_cost_usd(self.gpus + self.serving_gpus, S.usd_per_gpu_hour, C.HOURS_PER_YEAR)

    def checks(self) -> dict[str, bool]:
        return {"memory": self.memory <= S.hbm_limit, "days": self.days <= S.days_limit,
                "goodput": self.goodput >= S.goodput_limit, "ttft": self.ttft <= S.ttft_limit_s,
                "availability": self.availability >= S.availability_limit,
                "privacy": self.epsilon <= S.epsilon_limit, "fairness": self.fairness_gap <= S.fairness_tolerance,
                "carbon": self.carbon <= S.carbon_limit, "budget": self.cost <= S.budget_usd}

    @property
    def feasible(self) -> bool:
        return all(self.checks().values())


DRAFT = Design()


def act1_truth() -> str:
    passed = sum(DRAFT.checks().values())
    return "A" if passed <= 1 else "B" if passed <= 3 else "C" if passed <= 5 else "D"


def usage(d: Design) -> dict[str, float]:
    """Each check as a share of its limit (1 = at the limit; above 1 fails)."""
    unavailable = max(1 - d.availability, S.tiny)
    return {"memory": d.memory / S.hbm_limit, "days": d.days / S.days_limit,
            "goodput": (1 - d.goodput) / (1 - S.goodput_limit), "ttft": d.ttft / S.ttft_limit_s,
            "availability": unavailable / (1 - S.availability_limit), "privacy": d.epsilon / S.epsilon_limit,
            "fairness": max(d.fairness_gap, S.chart_floor) / S.fairness_tolerance, "carbon": d.carbon / S.carbon_limit,
            "budget": d.cost / S.budget_usd}


DESIGNS = {
    "A": Design(moe=False, regions="r3m2", noise=1.2, fairness="single", cfe=0.9),
    "B": Design(moe=True, regions="r1", noise=1.2, fairness="single", cfe=0.9),
    "C": Design(moe=True, regions="r3m2", noise=1.2, fairness="single", cfe=0.9),
    "D": Design(moe=True, regions="r3m2", noise=0.8, fairness="ppv", cfe=0.9),
}


def act2_answer() -> str:
    """The one design of the four that passes every check (a test proves it is unique)."""
    return next(k for k, d in DESIGNS.items() if d.feasible)
