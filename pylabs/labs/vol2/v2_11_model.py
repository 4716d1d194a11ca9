"""The scenario and model of V2-11 (The Federation Paradox): the keyboard team's inputs, a day of
federated traffic against uploading the text, and the DP-FedAvg deployments the accountant rates.
The lab module (``v2_11``) reads like its page; this is its model."""

from __future__ import annotations

import math
from dataclasses import dataclass

from pylabs.framework import fmt
from pylabs.physics import constants as C
from pylabs.physics import federated, privacy


@dataclass(frozen=True)
class Scenario:
    """The keyboard team's stated inputs; [A] marks the spec's scenario assumptions."""

    users: float = 1e8                   # phones that could take part
    raw_bytes_per_user_day: float = 5e3  # [A] typed text a user would upload per day
    clients: float = 1e4                 # Act I: clients per round K
    rounds_per_day: float = 24.0
    params: float = 50e6                 # a server-class keyboard LM (not the upstream's 1B)
    compression: float = 1.0
    downlink_bytes_per_s: float = 2.5e6  # [A] 20 Mb/s to a phone on Wi-Fi
    uplink_bytes_per_s: float = 1.25e6   # [A] 10 Mb/s from it
    team_clients: float = 1e3            # Act II: the team's current DP-FedAvg setting
    team_z: float = 1.0
    rounds_total: float = 2000.0         # T
    delta: float = 1e-9                  # ≈ 1/N^1.1, below 1/N
    eps_target: float = 1.0              # the privacy policy
    acc_anchor: float = 0.08             # heuristic: 8 pp accuracy drop at the anchor setting
    acc_limit: float = 0.05              # 5 pp is the product team's limit
    daily_budget_bytes: float = 50e12    # 50 TB/day is the network team's budget
    client_options: tuple = (1e2, 1e3, 1e4, 1e5, 1e6)
    model_options: tuple = (("10m", 10e6), ("50m", 50e6), ("200m", 200e6), ("1b", 1e9))
    curve_clients: tuple = (1e3, 1e4, 1e5)  # the ε-against-z curves always drawn
    reflect_compression: float = 10.0      # Act I reflection: top-K plus int8 on every upload
    # Act II's four candidate plans (clients per round K, noise multiplier z), letters A-D
    plans: tuple = (("A", 1e3, 3.0), ("B", 1e4, 1.5), ("C", 1e5, 0.6), ("D", 1e6, 2.0))
    informed_prior: float = 0.9            # Act II reflection: an attacker already 90 % sure


S = Scenario()
MODELS = {"gboard": C.GBOARD_CIFG_PARAMS, **dict(S.model_options)}
PRECISIONS = {"4": ("fp32", C.BYTES_PER_FP32), "2": ("bf16", C.BYTES_PER_BF16), "1": ("int8", C.BYTES_PER_INT8)}
CENTRAL = federated.central_bytes_per_day(S.users, S.raw_bytes_per_user_day)
CONTEXT_MODEL = {"server": (S.params, C.BYTES_PER_BF16), "gboard": (C.GBOARD_CIFG_PARAMS, C.BYTES_PER_FP32)}


# ---- Act I · the bandwidth paradox -------------------------------------------------

def fl_day(clients: float, params: float, bytes_per_param: float, rounds: float = S.rounds_per_day,
           compression: float = S.compression) -> float:
    return federated.fl_bytes_per_day(rounds, clients, params, bytes_per_param, compression)


def ratio(fl_bytes: float) -> float:
    return federated.transfer_ratio(fl_bytes, CENTRAL)


@dataclass(frozen=True)
class Traffic:
    clients: float
    rounds: float
    params: float
    bytes_per_param: float
    compression: float

    @property
    def per_day(self) -> float:
        return fl_day(self.clients, self.params, self.bytes_per_param, self.rounds, self.compression)

    @property
    def download_share(self) -> float:
        down = self.rounds * federated.round_download_bytes(self.clients, self.params, self.bytes_per_param)
        return down / self.per_day


def scenario_traffic(context: str = "server") -> Traffic:
    """Act I's question: the team's K, R and r with the context's model."""
    params, size = CONTEXT_MODEL[context]
    return Traffic(S.clients, S.rounds_per_day, params, size, S.compression)


def act1_truth(context: str = "server") -> float:
    return ratio(scenario_traffic(context).per_day)


def act1_facts(context: str) -> dict[str, str]:
    params, size = CONTEXT_MODEL[context]
    t = Traffic(S.clients, S.rounds_per_day, params, size, S.compression)
    r10 = Traffic(S.clients, S.rounds_per_day, params, size, S.reflect_compression)
    return {"a1_ratio": fmt(ratio(t.per_day), "x"), "ratio_r1": fmt(ratio(t.per_day), "x"),
            "r10": fmt(S.reflect_compression, "num"), "ratio_r10": fmt(ratio(r10.per_day), "x"),
            "download_share": fmt(t.download_share, "pct"), "model_mb": fmt(federated.model_bytes(params, size), "B"),
            "round_bytes": fmt(federated.round_bytes(S.clients, params, size, S.compression), "B"),
            "fl_day": fmt(t.per_day, "B"), "central": fmt(CENTRAL, "B"), "raw": fmt(S.raw_bytes_per_user_day, "B"),
            "clients": fmt(S.clients, "int"), "rounds": fmt(S.rounds_per_day, "int"),
            "fedavg_low": fmt(C.FEDAVG_ROUND_REDUCTION_LOW, "x"), "fedavg_high": fmt(C.FEDAVG_ROUND_REDUCTION_HIGH, "x")}


# ---- Act II · the privacy budget -------------------------------------------------

@dataclass(frozen=True)
class Deployment:
    clients: float
    z: float
    conversion: str = "classic"

    @property
    def q(self) -> float:
        return self.clients / S.users

    @property
    def epsilon(self) -> float:
        return privacy.epsilon(self.q, self.z, S.rounds_total, S.delta, self.conversion)

    @property
    def best_order(self) -> int:
        return privacy.epsilon_and_order(self.q, self.z, S.rounds_total, S.delta, self.conversion)[1]

    @property
    def acc_drop(self) -> float:
        """Labelled heuristic: Δacc ∝ z/K, anchored at 8 pp for the team's K = 1,000, z = 1."""
        return S.acc_anchor * (self.z / self.clients) / (S.team_z / S.team_clients)

    @property
    def z_needed(self) -> float:
        return privacy.noise_multiplier_for_epsilon(self.q, S.rounds_total, S.delta, S.eps_target, self.conversion)


def z_to_set(d: Deployment, step: float) -> float:
    """The smallest slider setting that meets the ε target: z_needed rounded *up* to the slider's step
    (rounded to nearest, K = 10⁴ read "at least 1.09", where ε is 1.013: review of V2-11)."""
    return math.ceil(round(d.z_needed / step, 9)) * step


TEAM = Deployment(S.team_clients, S.team_z)
PLANS = {letter: Deployment(k, z) for letter, k, z in S.plans}


def meets_policy(d: Deployment) -> bool:
    """ε within the policy under both conversions (so no conversion flips the verdict), and the
    accuracy drop within the product's limit."""
    tighter = Deployment(d.clients, d.z, "tight")
    return max(d.epsilon, tighter.epsilon) <= S.eps_target and d.acc_drop <= S.acc_limit


def act2_answer() -> str:
    """The one plan that meets both limits (a test proves it is unique); the same in every context:
    neither ε nor the accuracy drop depends on the keyboard model."""
    (letter,) = [k for k, d in PLANS.items() if meets_policy(d)]
    return letter


def no_amplification_epsilon(z: float, conversion: str = "classic") -> float:
    """ε if sampling earns no amplification (q = 1: one user could be in every round).
    Amplification needs each phone to join each round independently at random (Poisson, q = K/N), the
    draw kept secret; Gboard's DP models use DP-FTRL for that reason and claim none (Xu et al. 2023)."""
    return privacy.epsilon(1.0, z, S.rounds_total, S.delta, conversion)


def posterior(prior: float, eps: float, delta: float) -> float:
    """The most an attacker's belief that one user took part can rise from ``prior`` under
    (ε, δ)-DP: posterior odds ≤ e^ε × prior odds (δ added as a share; Kairouz et al. 2015)."""
    odds = math.exp(eps) * prior / (1 - prior)
    return min(1.0, odds / (1 + odds) + delta)


Z_GRID = tuple(0.5 + 0.25 * i for i in range(11))  # the noise multipliers the ε chart draws
