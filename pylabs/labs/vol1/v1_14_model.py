"""The scenario and the model of V1-14 (The Silent Degradation Problem): the fraud model's drift and
accuracy, the sampled PSI monitor, and the three products' retraining economics. The lab module
(``v1_14``) reads like its page; this is its model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from pylabs.physics import constants as C
from pylabs.physics import drift as D

WEEK = D.SECONDS_PER_WEEK
DAY = D.SECONDS_PER_DAY


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs (pedagogical defaults, not measured facts)."""

    acc_start: float = 0.94            # accuracy at launch
    acc_complaint: float = 0.87        # accuracy when the fraud team complained ...
    complaint_weeks: float = 26.0      # ... six months after launch
    alarm_psi: float = 0.2             # the team's alarm threshold (the spec's; a common variant)
    bins: int = 10                     # training deciles
    seed: int = 16                     # the sampled monitor's fixed seed
    features: tuple[tuple[str, str, float], ...] = (
        ("amount", "Transaction amount", 0.13), ("merchant", "Merchant category", 0.06),
        ("location", "Location", 0.03))  # σ per week
    windows: tuple[tuple[str, float], ...] = (("cloud", 5000.0), ("edge", 1000.0), ("mobile", 500.0))
    # Act II: each product loses drop of accuracy in drift_days (days)
    drop: float = 0.07
    ota_usd: float = 50.0              # one over-the-air update of one edge device
    products: tuple[tuple[str, float, float, float, float, float], ...] = (
        # context, training/release $ per retrain, drift days, $ per pp·day, floor, devices
        ("cloud", 8000.0, 14.0, 1000.0, 0.90, 0.0),
        ("edge", 8000.0, 30.0, 200.0, 0.87, 1000.0),
        ("mobile", 30000.0, 180.0, 200.0, 0.85, 0.0))
    cadence_days: float = 28.0         # the team's habit: every four weeks, everywhere
    cadences: tuple[tuple[str, float], ...] = (("weekly", 7.0), ("monthly", 30.0), ("quarterly", 91.0))
    # chart furniture: the lowest PSI a log axis shows, and the day ticks of the cadence axes
    psi_floor: float = 1e-3
    psi_ticks: tuple[float, ...] = (1e-3, 1e-2, 0.1, 1.0, 10.0)
    day_ticks: tuple[tuple[float, str], ...] = ((1.0, "1 d"), (7.0, "1 wk"), (30.0, "1 mo"), (91.0, "1 qtr"),
                                                (365.0, "1 yr"))


S = Scenario()
FEATURES = {key: (name, drift) for key, name, drift in S.features}
WINDOWS = dict(S.windows)
HORIZON = S.complaint_weeks * WEEK
ACC_RATE = D.decay_rate_per_s(S.acc_start, S.acc_complaint, HORIZON)
PP = 0.01  # one percentage point of accuracy, as a fraction


def beyond(value: float, limit: float) -> bool:
    """``value`` is past ``limit``, not merely equal to it up to rounding."""
    return value > limit and not math.isclose(value, limit)


def accuracy_at(t_s: float) -> float:
    return D.accuracy_exponential(S.acc_start, ACC_RATE, t_s)


def crossing_s(drift_per_week: float, threshold: float = S.alarm_psi) -> float:
    return D.crossing_time_s(threshold, drift_per_week / WEEK, S.bins)


# ---- Act I · Drift detection ------------------------------------------------------

THRESHOLDS = {"t10": C.PSI_MINOR_SHIFT, "t20": S.alarm_psi, "t25": C.PSI_MAJOR_SHIFT}


@dataclass(frozen=True)
class Monitor:
    """One monitor's settings, in the units the page shows."""

    drift_per_week: float
    check_weeks: float
    threshold: float
    window: int
    draw: int

    def run(self) -> D.Detection:
        return D.detect(self.drift_per_week / WEEK, self.check_weeks * WEEK, HORIZON, self.threshold,
                        self.window, S.seed + self.draw - 1, S.bins)

    @property
    def crossing_s(self) -> float:
        return crossing_s(self.drift_per_week, self.threshold)

    @property
    def noise_floor(self) -> float:
        return D.null_psi_mean(self.window, S.bins)


def act1_truth() -> float:
    return crossing_s(FEATURES["amount"][1])


# ---- Act II · Retraining economics -------------------------------------------------

PRODUCTS = {name: dict(zip(("retrain", "drift_days", "value", "floor", "devices"), rest))
            for name, *rest in S.products}
CLOUD = PRODUCTS["cloud"]  # the default context's row: Act II's slider defaults
CADENCES = dict(S.cadences)  # days


@dataclass(frozen=True)
class Product:
    """One product's retraining economics, SI inside: seconds, fractions, dollars."""

    retrain_usd: float
    drift_days: float
    value_per_pp_day: float
    floor: float

    @property
    def rate(self) -> float:
        return S.drop / (self.drift_days * DAY)

    @property
    def value(self) -> float:
        return self.value_per_pp_day / (PP * DAY)

    @property
    def t_star(self) -> float:
        return D.optimal_interval_s(self.retrain_usd, self.value, self.rate)

    @property
    def t_max(self) -> float:
        return D.floor_interval_s(S.acc_start, self.floor, self.rate)

    @property
    def t_op(self) -> float:
        return min(self.t_star, self.t_max)

    def annual(self, t: float) -> float:
        return D.annual_cost_usd(t, self.retrain_usd, self.value, self.rate)

    def lowest_acc(self, t: float) -> float:
        """Accuracy just before the next retrain (a straight-line decay, stopped at zero)."""
        return max(0.0, S.acc_start - self.rate * t)


COST_DAYS = tuple(10 ** (k / 10) for k in range(0, 27))  # the cost chart's x: 1 to about 400 days


@lru_cache(maxsize=16)
def cost_curve(p: Product) -> tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]:
    """The cost chart's data: retraining and staleness dollars per year against the interval in days
    (kept per product: moving the cadence moves only its point)."""
    retrain = tuple(D.retrain_usd_per_year(d * DAY, p.retrain_usd) for d in COST_DAYS)
    stale = tuple(D.staleness_usd_per_year(d * DAY, p.value, p.rate) for d in COST_DAYS)
    return COST_DAYS, retrain, stale


def retrain_usd(context: str, base: float, devices: float) -> float:
    return base + (devices * S.ota_usd if context == "edge" else 0.0)


def scenario_product(context: str) -> Product:
    p = PRODUCTS[context]
    return Product(retrain_usd(context, p["retrain"], p["devices"]), p["drift_days"], p["value"], p["floor"])


def nearest_cadence(t_s: float) -> str:
    return min(S.cadences, key=lambda c: abs(math.log(t_s / (c[1] * DAY))))[0]


# Act II's four schedules (cloud, edge, mobile): each product has one plausible miss, and no
# position's majority nor any option's odd one out singles out the key
PATTERNS = {"A": ("weekly", "monthly", "quarterly"), "B": ("weekly", "weekly", "monthly"),
            "C": ("monthly", "weekly", "quarterly"), "D": ("weekly", "quarterly", "quarterly")}


def act2_answer() -> str:
    found = tuple(nearest_cadence(scenario_product(c).t_op) for c in ("cloud", "edge", "mobile"))
    return next(letter for letter, pattern in PATTERNS.items() if pattern == found)
