"""The scenario and model of V1-00 (The Architect's Portal): the light barrier (signal speed, round trip,
reach, and which fixes meet the car's deadline) and the energy wall (battery life, the four candidate
regimes for the sepsis sensor). The lab module (``v1_00``) reads like its page; this is its model.
"""

from __future__ import annotations

from dataclasses import dataclass

from pylabs.physics import constants as C
from pylabs.physics import deployment as dep


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs (pedagogical, not hardware facts)."""

    distance_m: float = 2000e3           # car to the datacentre
    measured_rtt_s: float = 40e-3        # what the team measures
    loop_budget_s: float = 10e-3         # the control loop's deadline
    car_speed_mph: float = 60.0
    mph_m_per_s: float = 0.44704         # exact: 1 mile = 1,609.344 m, 1 h = 3,600 s
    result_s: float = 2e-3               # sepsis sensor: one inference, awake this long
    period_s: float = 1.0                # one reading a second
    sleep_w: float = 10e-6               # asleep between readings
    required_life_s: float = 0.5 * 365.25 * 86400  # six months
    month_s: float = 365.25 / 12 * 86400  # a twelfth of a Julian year, to say the life in months
    cloud_region_m: float = 500e3        # the hospital's nearest cloud region
    tiny_average_budget_w: float = 1e-3  # TinyML north star: average power via duty cycling
    validation_accuracy: float = 0.94    # Check 1: accuracy at validation ...
    drifted_accuracy: float = 0.81       # ... and three months later
    chart_max_m: float = 5000e3
    per_distance_m: float = 1000e3       # the chart summary quotes the round trip per 1,000 km
    chart_periods_s: tuple[float, float] = (0.01, 60.0)
    table_periods_s: tuple[float, ...] = (0.01, 0.1, 1.0, 10.0, 60.0)
    day_s: float = 86400.0               # units the charts and notes use
    km_m: float = 1000.0
    ms_s: float = 1e-3
    kib_bytes: float = 1024.0


S = Scenario()
DAY = S.day_s
CAR_SPEED = S.car_speed_mph * S.mph_m_per_s

# ---- context: the signal's medium -----------------------------------------------------

MEDIA = {"fibre": ("Optical fibre", C.FIBRE_GROUP_INDEX), "vacuum": ("Free space", 1.0)}


def speed(medium: str) -> float:
    return dep.signal_speed_m_per_s(C.SPEED_OF_LIGHT, MEDIA[medium][1])


FIBRE = speed("fibre")

# ---- Act I · The Light Barrier ----------------------------------------------------------


def rtt_s(distance_m: float, medium: str = "fibre", route: float = 1.0) -> float:
    return dep.propagation_rtt_s(distance_m, speed(medium), route)


def act1_truth() -> float:
    return rtt_s(S.distance_m)


REACH_M = dep.max_distance_m(S.loop_budget_s, 0.0, FIBRE)   # the farthest server at zero compute

FIXES = {"gpu": "a faster GPU", "compress": "compressed frames", "closer": "a closer server",
         "vehicle": "running on the vehicle"}
COMBOS = {"A": ("gpu", "compress"), "B": ("closer", "vehicle"), "C": ("vehicle",),
          "D": ("gpu", "compress", "closer", "vehicle")}


def fix_works(fix: str) -> bool:
    """Does this fix alone meet the loop deadline? Compute and bandwidth fixes leave the light in
    the fibre; a server at half the reach, or none at all, leaves room to compute."""
    floor = {"gpu": act1_truth(), "compress": act1_truth(), "closer": rtt_s(REACH_M / 2), "vehicle": 0.0}[fix]
    return floor < S.loop_budget_s


def act1_reflect_key() -> str:
    working = tuple(f for f in FIXES if fix_works(f))
    return next(letter for letter, combo in COMBOS.items() if combo == working)


@dataclass(frozen=True)
class Trip:
    """Act I at the instruments' settings."""

    rtt_s: float
    response_s: float
    reach_m: float
    budget_s: float


# ---- Act II · The Energy Wall ----------------------------------------------------------


def life_s(energy_j: float, active_w: float, awake_s: float = S.result_s, period_s: float = S.period_s,
           sleep_w: float = S.sleep_w) -> float:
    return dep.battery_life_s(energy_j, dep.average_power_w(active_w, sleep_w, awake_s, period_s))


@dataclass(frozen=True)
class Regime:
    """A candidate home for the sepsis model, checked against the three requirements."""

    letter: str
    name: str
    active_w: float
    on_premises: bool
    distance_m: float = 0.0

    @property
    def response_s(self) -> float:
        return S.result_s + rtt_s(self.distance_m)

    @property
    def life_s(self) -> float:
        return life_s(C.AA_PAIR_ENERGY_J, self.active_w)

    @property
    def meets(self) -> bool:
        return self.on_premises and self.response_s <= S.result_s and self.life_s >= S.required_life_s


REGIMES = {r.letter: r for r in (
    Regime("A", "Cloud", C.H100_TDP_W, False, S.cloud_region_m),
    Regime("B", "Edge", C.ORIN_NX_POWER_MIN_W, True),
    Regime("C", "Mobile", C.PHONE_SUSTAINED_POWER_W, True),
    Regime("D", "TinyML", C.MCU_ACTIVE_POWER_W, True),
)}


def act2_answer() -> str:
    """The one regime that meets all three requirements (a test proves it is unique)."""
    return next(r.letter for r in REGIMES.values() if r.meets)


@dataclass(frozen=True)
class Budget:
    """Act II at the instruments' settings."""

    avg_w: float
    life_s: float
    always_on_s: float
    duty: float
