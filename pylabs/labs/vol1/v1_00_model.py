"""The scenario and model of V1-00 (The Architect's Portal): the light barrier (signal speed, round trip,
reach, and which fixes meet the car's deadline) and the energy wall (battery life, the four candidate
regimes for the sepsis sensor, and the levers that stretch a coin cell). The lab module (``v1_00``)
reads like its page; this is its model.
"""

from __future__ import annotations

from dataclasses import dataclass

from pylabs.framework.formats import SECONDS_PER_YEAR, fmt
from pylabs.physics import constants as C
from pylabs.physics import deployment as dep
from pylabs.physics import units as U


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs (pedagogical, not hardware facts)."""

    distance_m: float = 2000e3           # car to the datacentre
    measured_rtt_s: float = 40e-3        # what the team measures
    loop_budget_s: float = 10e-3         # the control loop's deadline
    car_speed_mph: float = 60.0
    result_s: float = 2e-3               # sepsis sensor: one inference, awake this long
    period_s: float = 1.0                # one reading a second
    sleep_w: float = 10e-6               # asleep between readings
    # six months, in the site's one year (formats.SECONDS_PER_YEAR, 365 days): 182.5 days
    required_life_s: float = 0.5 * SECONDS_PER_YEAR
    month_s: float = SECONDS_PER_YEAR / 12  # to say the life in months
    cloud_region_m: float = 500e3        # the hospital's nearest cloud region
    tiny_average_budget_w: float = 1e-3  # TinyML north star: average power via duty cycling
    # Act II's reflection: the levers the team weighs for a coin cell, as the options state them
    deep_sleep_w: float = 1e-6           # A: deeper sleep
    clock_factor: float = 0.5            # B: a half-speed clock (half the power, twice as long awake)
    light_sleep_w: float = 1e-3          # C: light sleep instead of deep sleep
    lean_result_s: float = 1e-3          # D: a leaner model, awake 1 ms
    chart_max_m: float = 5000e3
    per_distance_m: float = 1000e3       # the chart summary quotes the round trip per 1,000 km
    chart_periods_s: tuple[float, float] = (0.01, 60.0)
    table_periods_s: tuple[float, ...] = (0.01, 0.1, 1.0, 10.0, 60.0)


S = Scenario()


def per_reading(lead: str) -> str:
    """The sensor's reading period in a sentence: "{lead} second" at one reading a second, else "every 2 s"."""
    return f"{lead} second" if S.period_s == 1.0 else f"every {fmt(S.period_s, 's')}"

DAY = U.S_PER_DAY
CAR_SPEED = S.car_speed_mph * U.M_PER_S_PER_MPH

# ---- context: the signal's medium -----------------------------------------------------

MEDIA = {"fibre": ("Optical fibre", C.FIBRE_GROUP_INDEX), "vacuum": ("Free space", 1.0)}


def speed(medium: str) -> float:
    return dep.signal_speed_m_per_s(C.SPEED_OF_LIGHT, MEDIA[medium][1])


# ---- Act I · The Light Barrier ----------------------------------------------------------


def rtt_s(distance_m: float, medium: str = "fibre", route: float = 1.0) -> float:
    return dep.propagation_rtt_s(distance_m, speed(medium), route)


def reach_m(medium: str = "fibre", local_s: float = 0.0) -> float:
    """The farthest server that answers within the loop's deadline on a straight link."""
    return dep.max_distance_m(S.loop_budget_s, local_s, speed(medium))


def act1_truth(medium: str) -> float:
    """Act I's prediction: the reach at zero compute, in the medium predicted in."""
    return reach_m(medium)


FIXES = {"gpu": "a faster GPU", "compress": "compressed frames", "closer": "a closer server",
         "vehicle": "running on the vehicle"}
COMBOS = {"A": ("gpu", "compress"), "B": ("closer", "vehicle"), "C": ("vehicle",),
          "D": ("gpu", "compress", "closer", "vehicle")}


def fix_works(fix: str, medium: str = "fibre") -> bool:
    """Does this fix alone meet the loop deadline? Compute and bandwidth fixes leave the light's round
    trip over the full distance; a server at half the reach leaves half the deadline to compute; on the
    vehicle the light's share is zero."""
    floor = {"gpu": rtt_s(S.distance_m, medium), "compress": rtt_s(S.distance_m, medium),
             "closer": rtt_s(reach_m(medium) / 2, medium), "vehicle": 0.0}[fix]
    return floor < S.loop_budget_s


def act1_reflect_key(medium: str = "fibre") -> str:
    working = tuple(f for f in FIXES if fix_works(f, medium))
    return next(letter for letter, combo in COMBOS.items() if combo == working)


@dataclass(frozen=True)
class Trip:
    """Act I at the instruments' settings."""

    rtt_s: float
    local_s: float
    reach_m: float
    budget_s: float

    @property
    def response_s(self) -> float:
        return self.rtt_s + self.local_s

    @property
    def late(self) -> bool:
        return self.response_s > self.budget_s


# ---- Act II · The Energy Wall ----------------------------------------------------------


def life_s(energy_j: float, active_w: float, awake_s: float, period_s: float, sleep_w: float) -> float:
    return dep.battery_life_s(energy_j, dep.average_power_w(active_w, sleep_w, awake_s, period_s))


@dataclass(frozen=True)
class Regime:
    """A candidate home for the sepsis model, checked against the three requirements."""

    name: str
    active_w: float
    on_premises: bool
    distance_m: float = 0.0

    def response_s(self, medium: str = "fibre") -> float:
        return S.result_s + rtt_s(self.distance_m, medium)

    @property
    def life_s(self) -> float:
        return life_s(C.AA_PAIR_ENERGY_J, self.active_w, S.result_s, S.period_s, S.sleep_w)

    def meets(self, medium: str = "fibre") -> bool:
        return self.on_premises and self.response_s(medium) <= S.result_s and self.life_s >= S.required_life_s


# The candidates the feedback and the takeaways weigh: the three processors on the strap, from the
# largest to the smallest, then the one off the patient.
REGIMES = {
    "edge": Regime("Edge", C.ORIN_NX_POWER_MIN_W, True),
    "mobile": Regime("Mobile", C.PHONE_SUSTAINED_POWER_W, True),
    "tiny": Regime("TinyML", C.MCU_ACTIVE_POWER_W, True),
    "cloud": Regime("Cloud", C.H100_TDP_W, False, S.cloud_region_m),
}


def act2_regime(medium: str = "fibre") -> str:
    """The one regime that meets all three requirements (a test proves it is unique)."""
    return next(key for key, r in REGIMES.items() if r.meets(medium))


def allowed_average_w(energy_j: float) -> float:
    """The average power at which the battery lasts exactly the required life."""
    return energy_j / S.required_life_s


def power_ceiling_w(energy_j: float, awake_s: float, period_s: float, sleep_w: float) -> float:
    """The most the processor may draw while computing for the battery to last the required life."""
    return dep.max_active_power_w(allowed_average_w(energy_j), sleep_w, awake_s, period_s)


def act2_truth() -> float:
    """Act II's prediction: that ceiling on two AA cells at the scenario's duty cycle (no medium in it)."""
    return power_ceiling_w(C.AA_PAIR_ENERGY_J, S.result_s, S.period_s, S.sleep_w)


@dataclass(frozen=True)
class Lever:
    """A change to the microcontroller's duty cycle (Act II's reflection), as its option states it."""

    active_w: float
    awake_s: float
    sleep_w: float

    def life_s(self, energy_j: float) -> float:
        return life_s(energy_j, self.active_w, self.awake_s, S.period_s, self.sleep_w)


TINY = REGIMES["tiny"]
AS_IS = Lever(TINY.active_w, S.result_s, S.sleep_w)
LEVERS = {
    "A": Lever(TINY.active_w, S.result_s, S.deep_sleep_w),
    "B": Lever(TINY.active_w * S.clock_factor, S.result_s / S.clock_factor, S.sleep_w),
    "C": Lever(TINY.active_w, S.result_s, S.light_sleep_w),
    "D": Lever(TINY.active_w, S.lean_result_s, S.sleep_w),
}


def act2_reflect_key() -> str:
    """The lever that buys the coin cell the most life."""
    return max(LEVERS, key=lambda letter: LEVERS[letter].life_s(C.CR2032_ENERGY_J))


@dataclass(frozen=True)
class Budget:
    """Act II at the instruments' settings."""

    avg_w: float
    life_s: float
    always_on_s: float
    duty: float
    needed_w: float      # the average power that lasts exactly the required life on this battery
    ceiling_w: float     # the most the processor may draw while computing for that life (0: none)


def coin_pulse(active_w: float) -> str:
    """The power a coin cell must give while the processor computes, against its rated pulse."""
    within = active_w <= C.CR2032_PULSE_MAX_W
    return (f"{fmt(active_w, 'watts')}, {'within' if within else 'beyond'} the largest pulses coin cells are "
            f"rated for (about {fmt(C.CR2032_PULSE_MAX_W, 'watts')}, 15 mA at 3 V; some makers rate less)"
            + ("" if within else ": a real strap draws the bursts from a buffer capacitor"))
