"""The scenario and model of V1-09 (The Data Selection Tradeoff): a training run's throughput and time under
an ordering, and what a label budget buys along the surrogate learning curve. The lab module (``v1_09``)
reads like its page; this is its model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pylabs.framework import MetricSpec, fmt
from pylabs.labs.vol1.contexts import device
from pylabs.physics import constants as C
from pylabs.physics import data_selection as ds


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs and the lab's surrogate parameters (not hardware facts)."""

    images: float = 1e6                 # the research lead's dataset
    epochs: float = 90.0                # a standard ImageNet-style schedule
    utilisation: float = 0.17           # assumed share of the dense peak (handbook/errata.md#e10: an assumption)
    vendor_claim: float = 3.0           # the curriculum vendor's promised speedup
    noisy_labels: float = 0.2           # the reflection's noisy run: 20 % wrong labels, trained to convergence
    short_budget: float = 0.3           # ... and its short run: clean labels, 30 % of a full run's time
    week_s: float = 7 * 86400.0         # the team's limit for one experiment
    h100_usd_per_h: float = 3.00        # scenario price (handbook/labs/v1_09.md §3), shown as an assumption
    pool: float = 1e6                   # unlabelled images on hand
    usd_per_label: float = 0.05         # scenario price (handbook/labs/v1_09.md §3), shown as an assumption
    budget_usd: float = 50_000.0        # the CTO's label budget
    bar: float = 0.70                   # the accuracy the product needs
    al_claimed: float = 1.85            # the AL vendor's claimed label efficiency (unsourced), taken at face value
    al_sceptical: float = 1.2           # a sceptical value, nearer strong-baseline studies
    pilot_labels: float = 100_000.0     # the learning curve's anchor the scenario quotes
    # the four plans the CTO weighs (strategy, labels): two random samples, two active-learning picks
    plans: tuple = (("random", 300_000.0), ("al", 150_000.0), ("random", 400_000.0), ("al", 250_000.0))
    curve_ceiling: float = 0.85         # surrogate learning curve: a_max − k/√n ...
    curve_coefficient: float = 90.0     # ... with 1M labels giving 0.76 (about ResNet-50's top-1)


S = Scenario()
RESNET50_FLOP = 2 * C.RESNET50_MACS  # two FLOP per multiply-accumulate (torchvision counts MACs)
# the utilisation NVIDIA's measured ResNet-50 training rate on one A100 implies (set beside the assumed u)
MEASURED_A100_UTIL = (C.RESNET50_A100_AMP_TRAIN_IMAGES_PER_S * ds.training_flop_per_sample(RESNET50_FLOP)
                      / C.A100_PEAK_BF16_DENSE)

# ---- Act I · Does the order of the data matter? -------------------------------------


def throughput(context: str, utilisation: float) -> float:
    """Training images per second on the context's device."""
    return ds.training_samples_per_s(device(context).peak_ops, utilisation,
                                     ds.training_flop_per_sample(RESNET50_FLOP))


@dataclass(frozen=True)
class Run:
    """One training run on the context's device with the chosen ordering."""

    images_per_s: float
    full_s: float        # E·N/Θ, random order, trained to convergence
    budget: float        # β
    speedup: float       # S (teaching surrogate)

    @property
    def budget_s(self) -> float:
        return self.budget * self.full_s

    @property
    def time_s(self) -> float:
        """Time this ordering needs to reach the quality random order reaches within the budget."""
        return self.budget_s / self.speedup

    @property
    def saved_share(self) -> float:
        return 1 - 1 / self.speedup


def act1_truth() -> float:
    return ds.ordering_speedup("curriculum", 0.0, 1.0)


def scenario_hours(context: str) -> float:
    return ds.training_time_s(S.epochs, S.images, throughput(context, S.utilisation))


# ---- Act II · The label budget --------------------------------------------------------


def accuracy(labels: float) -> float:
    return ds.accuracy_from_labels(labels, S.curve_ceiling, S.curve_coefficient)


def cost_to_bar(bar: float, usd_per_label: float, efficiency: float = 1.0) -> float:
    return ds.cost_to_accuracy_usd(bar, usd_per_label, S.pool, S.curve_ceiling, S.curve_coefficient, efficiency)


@dataclass(frozen=True)
class Plan:
    """What a budget buys with a strategy."""

    labels: float
    effective: float
    usd_per_label: float

    @property
    def acc(self) -> float:
        return accuracy(self.effective)

    @property
    def spend(self) -> float:
        return self.labels * self.usd_per_label


def efficiency(strategy: str, gain: float) -> float:
    return gain if strategy == "al" else 1.0


def plan(budget: float, usd_per_label: float, strategy: str, gain: float) -> Plan:
    n = ds.labels_bought(budget, usd_per_label, S.pool)
    return Plan(n, ds.al_effective_labels(n, S.pool, efficiency(strategy, gain)), usd_per_label)


@dataclass(frozen=True)
class PlanOption:
    """One of the CTO's plans at the scenario's price and the vendor's claimed k, taken at face value."""

    strategy: str
    labels: float
    cost: float
    acc: float


def scenario_plans() -> dict[str, PlanOption]:
    """The four plans of Act II's question, lettered A to D."""
    out = {}
    for letter, (strategy, labels) in zip("ABCD", S.plans):
        p = plan(labels * S.usd_per_label, S.usd_per_label, strategy, S.al_claimed)
        out[letter] = PlanOption(strategy, labels, p.spend, p.acc)
    return out


def plan_text(o: PlanOption) -> str:
    """A plan as Act II's question words it (the option's text)."""
    share = fmt(o.labels / S.pool, "pct")
    if o.strategy == "random":
        return f"A random {share} of the pool, {fmt(o.labels, 'int')} images: {fmt(o.cost, 'usd')} of labels."
    return f"Active learning's pick of {fmt(o.labels, 'int')} images: {fmt(o.cost, 'usd')} of labels."


def act2_decide() -> str:
    """The cheapest plan whose accuracy meets the bar."""
    plans = scenario_plans()
    meeting = [k for k, o in plans.items() if o.acc >= S.bar]
    return min(meeting, key=lambda k: plans[k].cost)


def efficiency_to_meet(labels: float, bar: float) -> float:
    """The smallest k at which ``labels`` chosen by active learning reach ``bar``:
    n·(1 + (k − 1)(1 − n/N)) = n*, solved for k (the inverse of ``ds.al_effective_labels`` in k)."""
    needed = ds.labels_for_accuracy(bar, S.curve_ceiling, S.curve_coefficient)
    return 1 + (needed / labels - 1) / (1 - labels / S.pool)


# ---- how the page words a few numbers -------------------------------------------------------


def usd(value: float) -> str:
    return "no budget" if math.isinf(value) else fmt(value, "usd")


def saved_note(r: Run) -> str:
    if r.speedup == 1:
        return "random order's time, no more, no less"
    return f"{fmt(abs(r.budget_s - r.time_s), 's')} {'saved' if r.speedup > 1 else 'lost'} per run"


# ---- what the ledger keeps with no card of its own (labels and units for the ledger page) ----

RECORD = (
    MetricSpec("ordering", "Act I data order", "1", "num"),
    MetricSpec("speedup", "Act I ordering speedup (surrogate)", "1", "x"),
    MetricSpec("budget_usd", "Act II label budget", "USD", "usd"),
    MetricSpec("strategy", "Act II labelling strategy", "1", "num"),
    MetricSpec("labels", "Act II labels bought", "labels", "int"),
    MetricSpec("acc", "Act II accuracy reached", "1", "pct1"),
    MetricSpec("cost_to_bar_usd", "Act II label cost to the bar", "USD", "usd"),
)


# ---- the tracks the lab does not offer (shown on the page when the V1-00 track is one of them) ----

TRACK_NOTES = {
    "mobile": ("Mobile is not offered here: this lab trains a ResNet-50 from scratch on "
               f"{fmt(S.images, 'int')} images, a job for a server or an edge box. Apple publishes no rate for the GPU "
               "of the A17 Pro, and training frameworks on Apple devices run on the CPU or GPU, not the Neural "
               "Engine, so the phone's time would rest on an assumed rate. The lab opens in Cloud (H100); before "
               "your first lock you can pick Edge (Jetson Orin NX) above."),
    "tiny": (f"TinyML is not offered here: ResNet-50's {fmt(C.RESNET50_PARAMS, 'params')} parameters take "
             f"{fmt(4 * C.RESNET50_PARAMS, 'B')} in FP32, and the Cortex-M7 board holds "
             f"{fmt(C.STM32H743_FLASH_BYTES, 'iB')} of flash and {fmt(C.STM32H743_SRAM_BYTES, 'iB')} of RAM: it "
             "cannot train this model at all. The lab opens in Cloud (H100); before your first lock you can pick "
             "Edge (Jetson Orin NX) above."),
}
