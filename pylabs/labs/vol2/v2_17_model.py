"""The scenario and the model of V2-17 (The Constraints Never Lie): the board's requirements, the
domains of the Design Ledger, a design and its ten checks, the board's draft and the four candidate
designs. The lab module (``v2_17``) reads like its page; this is its model.

Where this departs from the spec (handbook/labs/v2_17.md §5), and why:
* Act I's question has a key: how many checks the draft passes. The seven checks become ten: training
  memory, time and goodput apart, and serving memory added: a 16-GPU replica holds
  1.28 TB, a 1 T model's BF16 weights are 2 TB, dense or mixture of experts (every expert is
  resident); FP8 (1 TB) fits, as NVIDIA's FP8 Llama 3.1 405B cuts its memory by about half (its linear layers are FP8); BF16 needs 25 GPUs.
* Privacy: the tighter RDP conversion (Balle et al.), δ = 1/(10 N), a draft's z every accountant fails (see DP_CONVERSION).
* Serving GPUs = busy/ρ·R/m: latency bought with idle GPUs costs budget. The spec calls edge offload
  necessary; in its own model a mixture of experts served wholly in the cloud fits the budget.
* Clean supply is new wind at the IPCC AR5 median (11 g/kWh), as in V2-15 whose decision feeds the
  default, not an assumed 20 g/kWh; training MFU is the Llama 3 405B run's 41 % at this very layout
  (Table 4), not an assumed 40 %.
* Privacy and fairness limits are company policy (ε ≤ 2, error-rate gap ≤ 2 pp), not law; the carbon
  limit is an internal 24/7 clean-energy proxy (≤ 50 g/kWh).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property, lru_cache

from pylabs.physics import carbon
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
    train_mfu: float = C.LLAMA3_405B_MFU_16K  # the Llama 3 405B run's MFU at this very layout (dense)
    users: float = 5e9
    requests_per_user_day: float = 2.0
    peak_factor: float = 2.0
    prompt_tokens: float = 500.0
    output_tokens: float = 200.0
    serve_mfu: float = 0.40              # [A] serving utilisation of compute while busy
    prefill_mfu: float = 0.50            # [A] as V2-10
    replica_gpus: float = 16.0           # one serving replica, as the spec sets it
    far_user_m: float = 10e6             # [A] a user 10,000 km of fibre from the region
    region_availability: float = 0.999   # [A] one region's availability
    storage_bw: float = 400e9            # checkpoint writes, as V2-07
    d2h_bw: float = 50e9
    restart_s: float = 600.0             # [A] requeue and reload, as V2-07
    dp_sampling_rate: float = 1e-3       # [A] DP-SGD on user data: sampling rate q ...
    dp_steps: float = 1e4                # ... steps per monthly retrain ...
    dp_delta_margin: float = 10.0        # ... and δ = 1/(10 N): δ must be far below 1/N (Dwork and Roth 2014, §2.3)
    base_a: float = 0.20                 # fairness: base rates of two groups (V2-16 identity)
    base_b: float = 0.35
    tpr: float = 0.85
    fpr: float = 0.10
    grid_g_per_kwh: float = 255.0        # [A] the regions' grid mix
    usd_per_gpu_hour: float = 3.50       # [A] rented H100 price
    # the board's requirements (company policy, not law)
    hbm_limit: float = C.H100_HBM_BYTES
    days_limit: float = 30.0
    goodput_limit: float = 0.90
    ttft_limit_s: float = 0.5
    availability_limit: float = 0.9999
    epsilon_limit: float = 2.0
    fairness_tolerance: float = 0.02     # |ΔTPR|, |ΔFPR| at most 2 pp
    carbon_limit_g_per_kwh: float = 50.0  # g CO2e/kWh, hour by hour
    budget_usd: float = 10e9
    train_gpus: int = 16_384
    # units and drawing
    tiny: float = 1e-12                  # keeps a ratio finite when a share reaches zero
    chart_floor: float = 1e-3            # the check chart's range: a thousandth to a thousand times the limit
    chart_height_px: float = 320.0


S = Scenario()
SECONDS_PER_DAY = sd.SECONDS_PER_DAY
GPU_MTBF_S = reliability.gpu_mtbf_from_run_s(C.LLAMA3_405B_GPUS, C.LLAMA3_405B_SNAPSHOT_S,
                                             C.LLAMA3_405B_UNEXPECTED_INTERRUPTIONS)
# Privacy. The V2-11 accountant (subsampled Gaussian RDP at integer orders 2-256) converts RDP to (ε, δ)
# with the tighter conversion of Balle et al. 2020 (the privacy module calls it "tight"), as TF-Privacy and
# dp-accounting do (dp-accounting 0.6.0's RdpAccountant over the same orders gives the same ε to four
# figures; its default orders, fractional ones included, a slightly smaller one). δ = 1/(10 N) = 2 × 10⁻¹¹:
# the spec's 10⁻¹⁰ is only 2× below 1/N (Dwork and Roth 2014, §2.3: δ of order 1/n is "very dangerous").
# The RDP ε is an upper bound: a privacy-loss-distribution accountant (dp-accounting's PLD, Doroshenko et
# al. 2022) proves a smaller one. So the draft's z is 0.8, where every accountant puts ε above 2 (RDP 3.70
# classic, 3.27 Balle et al.; the PLD brackets the mechanism's own ε in 2.44-2.45, so no accountant can
# prove 2). At δ = 2 × 10⁻¹¹ and the spec's z = 1 the classic 2.18 fails but Balle et al.'s 1.88 passes,
# and at z = 0.9 the RDP 2.50 fails but the PLD proves 1.51: either way the Act I key would rest on the
# accountant, not on the physics.
DP_CONVERSION = "tight"  # RDP → (ε, δ): Balle et al. 2020, as TF-Privacy and dp-accounting convert today
CLEAN_INTENSITY = C.IPCC_LIFECYCLE_WIND  # hour-matched new wind, as V2-15's clean supply (kg/J)


def dp_delta() -> float:
    """δ = 1/(10 N) for N users: one user in ten expected to be exposed, not one in two."""
    return 1 / (S.dp_delta_margin * S.users)


def grid_intensity() -> float:
    return carbon.g_per_kwh_to_kg_per_j(S.grid_g_per_kwh)


def carbon_limit() -> float:
    return carbon.g_per_kwh_to_kg_per_j(S.carbon_limit_g_per_kwh)


def replica_hbm() -> float:
    """The memory of one serving replica: every GPU's HBM."""
    return S.replica_gpus * C.H100_HBM_BYTES


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


# ---- a design and its ten checks ---------------------------------------------------------

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
    """The V2-11 accountant (subsampled Gaussian RDP) for a month of DP-SGD, converted to (ε, δ) with
    the tighter conversion of Balle et al. 2020."""
    return privacy.epsilon(S.dp_sampling_rate, noise, S.dp_steps, dp_delta(), DP_CONVERSION)


SHARDINGS = {"tp8pp4": (8, 4), "tp8pp8": (8, 8), "tp8pp16": (8, 16), "tp8pp32": (8, 32)}
# regions and how many must be up to carry the peak; every setting provisions a different fleet (R/m)
REGIONS = {"r1": (1, 1), "r2m1": (2, 1), "r3m2": (3, 2), "r5m4": (5, 4)}
WEIGHT_BYTES = {"bf16": C.BYTES_PER_BF16, "fp8": C.BYTES_PER_FP8}
CHECKS = ("memory", "days", "goodput", "serving", "ttft", "availability", "privacy", "fairness", "carbon",
          "budget")
# checks that describe a system only if another one holds: a run that does not fit is not timed,
# a model whose weights do not fit its replica is not served (their numbers read "if it fit")
NEEDS = {"days": "memory", "goodput": "memory", "ttft": "serving"}


@dataclass(frozen=True)
class Design:
    """One design: its decisions, and every number the checks read (each computed once per design)."""

    moe: bool = False
    gpus: int = S.train_gpus
    sharding: str = "tp8pp16"
    cloud_fraction: float = 0.3
    load: float = 0.7
    regions: str = "r1"
    noise: float = 0.8  # every accountant puts ε above 2 here (see DP_CONVERSION)
    fairness: str = "ppv"
    cfe: float = 0.4
    weights: str = "bf16"

    @property
    def active(self) -> float:
        return S.moe_active if self.moe else S.params

    @property
    def dp(self) -> int:
        tp, pp = SHARDINGS[self.sharding]
        return max(1, self.gpus // (tp * pp))

    @cached_property
    def memory(self) -> float:
        tp, pp = SHARDINGS[self.sharding]
        return sd.training_memory_per_gpu_bytes(S.params, tp, pp, self.dp, S.activation_bytes)

    @cached_property
    def goodput(self) -> float:
        return training_goodput(self.gpus)

    @cached_property
    def days(self) -> float:
        return sd.training_days(self.active, S.tokens_per_month, self.gpus, C.H100_PEAK_BF16_DENSE, S.train_mfu,
                                max(self.goodput, S.tiny))

    @property
    def serving_weights(self) -> float:
        """Every expert is resident in every replica: the bytes follow total parameters, not active ones."""
        return S.params * WEIGHT_BYTES[self.weights]

    @cached_property
    def prefill_s(self) -> float:
        return serving.prefill_s(2 * self.active * S.prompt_tokens, S.replica_gpus, C.H100_PEAK_BF16_DENSE,
                                 S.prefill_mfu)

    @cached_property
    def ttft(self) -> float:
        return sd.ttft_p99_s(self.prefill_s, self.load)

    @cached_property
    def busy_gpus(self) -> float:
        q = sd.peak_requests_per_s(S.users, S.requests_per_user_day, S.peak_factor, self.cloud_fraction)
        return sd.serving_gpus_busy(q, self.active, S.prompt_tokens, S.output_tokens, C.H100_PEAK_BF16_DENSE,
                                    S.serve_mfu)

    @cached_property
    def serving_gpus(self) -> float:
        regions, needed = REGIONS[self.regions]
        return self.busy_gpus / self.load * regions / needed

    @cached_property
    def availability(self) -> float:
        return sd.availability_k_of_n(*REGIONS[self.regions], S.region_availability)

    @cached_property
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

    @cached_property
    def carbon(self) -> float:
        """Intensity in kg/J of the energy used, hour by hour."""
        return sd.matched_intensity(self.cfe, grid_intensity(), CLEAN_INTENSITY)

    @cached_property
    def cost(self) -> float:
        return sd.annual_gpu_cost_usd(self.gpus + self.serving_gpus, S.usd_per_gpu_hour, C.HOURS_PER_YEAR)

    def checks(self) -> dict[str, bool]:
        """Each check of its own physics; ``NEEDS`` says which of them describe a system that exists."""
        return dict(self._checks)

    @cached_property
    def _checks(self) -> dict[str, bool]:
        return {"memory": self.memory <= S.hbm_limit, "days": self.days <= S.days_limit,
                "goodput": self.goodput >= S.goodput_limit, "serving": self.serving_weights <= replica_hbm(),
                "ttft": self.ttft <= S.ttft_limit_s, "availability": self.availability >= S.availability_limit,
                "privacy": self.epsilon <= S.epsilon_limit, "fairness": self.fairness_gap <= S.fairness_tolerance,
                "carbon": self.carbon <= carbon_limit(), "budget": self.cost <= S.budget_usd}

    def hypothetical(self) -> frozenset[str]:
        """Checks whose numbers describe a system that cannot run (its prerequisite check fails)."""
        ok = self.checks()
        return frozenset(k for k, needed in NEEDS.items() if not ok[needed])

    @property
    def passed(self) -> int:
        return sum(self.checks().values())

    @property
    def feasible(self) -> bool:
        return all(self.checks().values())


DRAFT = Design()


def act1_truth() -> str:
    """How many of the ten checks the board's draft passes, as the option holding that count."""
    passed = DRAFT.passed
    return "A" if passed <= 1 else "B" if passed <= 3 else "C" if passed <= 5 else "D"


def usage(d: Design) -> dict[str, float]:
    """Each check as a share of its limit (1 = at the limit; above 1 fails)."""
    unavailable = max(1 - d.availability, S.tiny)
    return {"memory": d.memory / S.hbm_limit, "days": d.days / S.days_limit,
            "goodput": (1 - d.goodput) / (1 - S.goodput_limit), "serving": d.serving_weights / replica_hbm(),
            "ttft": d.ttft / S.ttft_limit_s, "availability": unavailable / (1 - S.availability_limit),
            "privacy": d.epsilon / S.epsilon_limit,
            "fairness": max(d.fairness_gap, S.chart_floor) / S.fairness_tolerance,
            "carbon": d.carbon / carbon_limit(), "budget": d.cost / S.budget_usd}


# ---- Act II: four designs, and what one change of the feasible one breaks ------------------

_FEASIBLE = Design(moe=True, regions="r2m1", noise=1.2, fairness="single", cfe=0.9, weights="fp8")
# every decision splits the four 2-2 (model, weights, regions), so neither the majority nor the odd one
# out points to a design, and the key is not the one with "the most of everything": A and B have more
# regions than it. Only the physics picks one (BF16 does not fit even experts; dense is too slow).
DESIGNS = {
    "A": replace(_FEASIBLE, weights="bf16", regions="r3m2"),
    "B": replace(_FEASIBLE, moe=False, regions="r3m2"),
    "C": replace(_FEASIBLE, moe=False, weights="bf16"),
    "D": _FEASIBLE,
}


def act2_answer() -> str:
    """The one design of the four that passes every check (a test proves it is unique)."""
    return next(k for k, d in DESIGNS.items() if d.feasible)


# the reflection's four single changes from the design that passes, as its options name them
CHANGES = {
    "A": replace(_FEASIBLE, moe=False),
    "B": replace(_FEASIBLE, weights="bf16"),
    "C": replace(_FEASIBLE, regions="r1"),
    "D": replace(_FEASIBLE, gpus=2 * _FEASIBLE.gpus),
}


def broken_by(change: str) -> list[str]:
    """The checks one change of the feasible design makes fail."""
    return [k for k, ok in CHANGES[change].checks().items() if not ok]


def act2_reflect_truth() -> str:
    """The change that breaks the most checks at once (a test proves it is the only one)."""
    return max(CHANGES, key=lambda k: len(broken_by(k)))


@lru_cache(maxsize=2 ** 8)  # the settings a student has just moved through
def designed(*decisions) -> Design:
    """One Design per setting, so its numbers are computed once however often a page reads them."""
    return Design(*decisions)
