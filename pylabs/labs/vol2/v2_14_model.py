"""V2-14 The Adversarial Wall: the scenario and the model behind the page (see v2_14.py's docstring for
the sources and the corrections to the spec)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from pylabs.framework import State
from pylabs.physics import constants as C
from pylabs.physics import robustness as rb


@dataclass(frozen=True)
class Scenario:
    """The hospital's stated inputs; [A] marks scenario assumptions."""

    clean_acc: float = 0.973            # the scan model's clean accuracy
    observed_acc: float = 0.034         # the red team's measurement under PGD at ε = 8/255
    num_classes: int = 10
    pixel_levels: float = 255.0
    eps_levels: float = 8.0             # ε in pixel levels (8/255)
    image_dims: tuple = (224, 224, 3)   # the scans' input size
    cifar_dims: tuple = (32, 32, 3)     # a CIFAR-10 image's input size
    fgsm_anchor_acc: float = 0.327      # [A] natural CIFAR-10 model under FGSM (unconfirmed)
    robust_req: float = 0.50            # the CISO: at least this under PGD
    eval_steps: int = 20                # ... with this many PGD steps
    clean_floor: float = 0.88           # [A] the clinical lead's floor (spec: 0.90, infeasible)
    narrow_window: float = 0.05         # [A] a feasible window thinner than this needs precise tuning
    team_steps: int = 7                 # PGD-7 adversarial training
    trades_steps: int = 10              # TRADES' K = 10 inner steps
    team_target: float = 0.40           # the team's first tuned trade-off


S = Scenario()
EPS = S.eps_levels / S.pixel_levels
CHANCE = rb.chance_accuracy(S.num_classes)
INPUT_DIMS = math.prod(S.image_dims)
NATURAL = (C.MADRY_NATURAL_PGD_ACC, C.MADRY_NATURAL_CLEAN_ACC)
PGD_AT = (C.MADRY_AT_PGD20_ACC, C.MADRY_AT_CLEAN_ACC)
TRADES = (C.TRADES_BETA6_PGD20_ACC, C.TRADES_BETA6_CLEAN_ACC)
ANCHORS = (NATURAL, PGD_AT, TRADES)
SHIFT = S.clean_acc - C.MADRY_NATURAL_CLEAN_ACC   # the hospital's clean lead over CIFAR-10 [assumed]
QIN = (C.QIN2019_LLR_AA_ACC, C.QIN2019_LLR_CLEAN_ACC + SHIFT)  # a later recipe, shifted the same way
# measured beside the idealised 1 + k: PGD-AT against "free" AT, which costs about a natural run (Shafahi et al.)
MEASURED_COST = C.WONG2020_PGD_AT_SECONDS / C.WONG2020_FREE_AT_SECONDS
EPS0 = {"pgd": rb.attack_scale(C.CIFAR10_EPS_LINF, C.MADRY_NATURAL_CLEAN_ACC, C.MADRY_NATURAL_PGD_ACC),
        "fgsm": rb.attack_scale(C.CIFAR10_EPS_LINF, C.MADRY_NATURAL_CLEAN_ACC, S.fgsm_anchor_acc)}
# Madry et al. do not state the step count of the natural model's 3.5 %: Act I's curve is "PGD"
ATTACK_NAMES = {"pgd": "PGD", "fgsm": "FGSM"}
EVAL = f"PGD-{S.eval_steps}"  # Act II's evaluation: Madry's 45.8 % and TRADES' 56.61 % are PGD-20


def attacked(clean: float, eps: float, attack: str) -> float:
    return rb.adversarial_accuracy(clean, eps, EPS0[attack])


def clean_at(robust: float, baseline: float = S.clean_acc) -> float:
    return rb.clean_on_frontier(robust, baseline, ANCHORS)


CONTEXT_CLEAN = {"medical": S.clean_acc, "cifar": C.MADRY_NATURAL_CLEAN_ACC}
CONTEXT_DIMS = {"medical": INPUT_DIMS, "cifar": math.prod(S.cifar_dims)}  # D in Act I's linear argument


@dataclass(frozen=True)
class Design:
    method: str
    target: float
    steps: int

    @property
    def robust(self) -> float:
        return {"natural": NATURAL[0], "pgd_at": PGD_AT[0], "trades": TRADES[0]}.get(self.method, self.target)

    @property
    def clean(self) -> float:
        return clean_at(self.robust)

    @property
    def cost(self) -> float:
        return 1.0 if self.method == "natural" else rb.training_cost_multiplier(self.steps)

    @property
    def security_met(self) -> bool:
        return self.robust >= S.robust_req

    @property
    def clinical_met(self) -> bool:
        return self.clean >= S.clean_floor


def design(s: State) -> Design:
    return Design(s["a2_method"], s["a2_target"], int(s["a2_steps"]))


MAX_ROBUST = rb.max_robust_for_clean(S.clean_acc, S.clean_floor, ANCHORS)
