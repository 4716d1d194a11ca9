"""The scenario and model of V2-13 (The Privacy Measurement Gap): the hospital's inputs, the DP bound
on any membership attack, and the DP-SGD training runs the accountant rates. The lab module
(``v2_13``) reads like its page; this is its model."""

from __future__ import annotations

from dataclasses import dataclass

from pylabs.physics import privacy


@dataclass(frozen=True)
class Scenario:
    """The hospital's stated inputs; [A] marks scenario assumptions."""

    act1_records: float = 1e7          # the diagnosis model's training set
    train_acc: float = 0.995           # the audit's numbers (spec §3, re-cast stakeholder)
    test_acc: float = 0.70
    vendor_cap: float = 0.55           # the vendor's (and upstream's) "50–55 % at ε ≤ 1"
    question_eps: float = 1.0          # Act I asks about ε = 1
    delta: float = 1e-6
    eps_options: tuple = (0.1, 0.2, 1.0, 3.0, 10.0)
    delta_options: tuple = (1e-5, 1e-6, 1e-7)
    records: float = 1e6               # Act II: N
    batch: float = 1000.0              # B
    epochs: float = 10.0               # E
    z: float = 1.15                    # the team's noise multiplier
    clip: float = 1.0                  # C: scales signal and noise alike, so ε does not depend on it
    policy_eps: float = 1.0            # the privacy board's rule (not HIPAA's)
    acc_no_dp: float = 0.94            # heuristic anchor: accuracy without DP
    acc_drop_anchor: float = 0.08      # heuristic: 8 pp at N = 1 M, ε = 1
    anchor_records: float = 1e6
    anchor_eps: float = 1.0
    clinical_floor: float = 0.90
    more_data: float = 10.0            # option B: 10× the records
    relaxed_z: float = 0.8             # option C: less noise
    record_options: tuple = (1e5, 3e5, 1e6, 3e6, 1e7, 3e7, 1e8)
    curve_z: tuple = (0.8, 1.15)       # ε-against-N curves always drawn
    examples_per_s: tuple = (("on_prem", 2e3), ("cloud", 2e4))  # [A] DP-SGD throughput per context
    pct: float = 100.0                 # percent per unit fraction (charts plot percent)
    pct_axis_low: float = 45.0         # Act I's attack axis: just below chance ...
    pct_axis_top: float = 101.0        # ... to just above certainty


S = Scenario()
THROUGHPUT = dict(S.examples_per_s)
NAIVE = privacy.gap_attack_accuracy(S.train_acc, S.test_acc)


def cap(eps: float, delta: float = S.delta) -> float:
    return privacy.membership_advantage_bound(eps, delta)


# ---- Act I · The measurement gap -----------------------------------------------------

def act1_truth() -> float:
    return cap(S.question_eps)


EPS_GRID = tuple(10 ** (k / 4) for k in range(-8, 5))  # 0.01 … 10, four points a decade


# ---- Act II · The privacy budget -----------------------------------------------------

@dataclass(frozen=True)
class Training:
    """One DP-SGD run: N records, noise z, the scenario's batch, epochs and δ."""

    records: float
    z: float
    conversion: str = "classic"

    @property
    def q(self) -> float:
        return S.batch / self.records

    @property
    def steps(self) -> float:
        return S.epochs * self.records / S.batch

    @property
    def epsilon(self) -> float:
        return privacy.epsilon(self.q, self.z, self.steps, S.delta, self.conversion)

    @property
    def order(self) -> int:
        return privacy.epsilon_and_order(self.q, self.z, self.steps, S.delta, self.conversion)[1]

    @property
    def accuracy(self) -> float:
        """Labelled heuristic (spec §3): 0.94 − 0.08·(10⁶/N)/ε, anchored at 86 % for N = 1 M, ε = 1."""
        drop = S.acc_drop_anchor * (S.anchor_records / self.records) * (S.anchor_eps / self.epsilon)
        return max(0.0, S.acc_no_dp - drop)

    @property
    def policy_ok(self) -> bool:
        return self.epsilon <= S.policy_eps

    @property
    def clinical_ok(self) -> bool:
        return self.accuracy >= S.clinical_floor


TEAM = Training(S.records, S.z)
CANDIDATES = {"A": TEAM, "B": Training(S.records * S.more_data, S.z), "C": Training(S.records, S.relaxed_z),
              "D": None}  # D: federated, no noise: nothing bounds ε


def act2_answer() -> str:
    """The one plan that meets both ε ≤ policy and the clinical floor (a test proves it is unique)."""
    return next(k for k, t in CANDIDATES.items() if t is not None and t.policy_ok and t.clinical_ok)
