"""V2-15's model: the scenario, the day and night mixes, last year's fleet, and the two plans
(an upgrade's carbon, a scheduler's shift). Numbers in, numbers out; the page is in v2_15.py."""

from __future__ import annotations

from dataclasses import dataclass

from pylabs.physics import carbon
from pylabs.physics import constants as C
from pylabs.physics import units as U


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs; [A] marks the lab's labelled assumptions."""

    sla_tolerance: float = 1e-12       # a held share above the night's room by more than rounding
    old_gpus: float = 1250.0           # last year's A100 fleet, at maximum power (TDP) all week [A]
    new_gpus: float = 1000.0           # this year's H100 fleet
    week_s: float = 168 * 3600.0
    eff_claim: float = 2.0             # the vendor's "2× FLOP per watt"
    carbon_rise: float = 0.40          # what the sustainability report measured
    demand_planned: float = 1.0        # the work the team planned: the same as last year
    util: float = 0.75                 # Act II cluster utilisation around the clock
    day_s: float = 12 * 3600.0
    night_s: float = 12 * 3600.0
    a2_edge_a: float = 0.10            # Act II ranges: a dent | a real cut | near the target | the target
    a2_edge_b: float = 0.25
    a2_a: float = 0.05                 # Act II feedback: a point inside each option
    a2_b: float = 0.155
    a2_c: float = 0.285                # the upstream's formula
    a2_d: float = 0.45
    flex: float = 0.30                 # share of the day's jobs that can wait
    window_h: float = 8.0              # how long they can wait
    target: float = 0.40               # the board's −40 % emissions target
    day_coal: float = 0.7              # days: 70 % coal, the rest gas
    night_wind: float = 0.9            # nights: 90 % wind, the rest coal
    upstream_day_g: float = 820.0      # the upstream's intensities (g/kWh), kept to show its error
    upstream_night_g: float = 40.0
    edge_a: float = 1.2                # Act I ranges: about the same work | work up as much as carbon |
    edge_b: float = 2.0                # the gain plus the rise (2.4×, the additive mistake) | more
    edge_c: float = 2.5                # D holds at the vendor's 2× (2.8×) and the datasheets' 1.81× (2.54×)
    a_demand: float = 1.0              # Act I feedback: a point inside each option
    b_demand: float = 1.4              # work up as much as carbon (1 + 40 %)
    c_demand: float = 2.4              # the gain plus the rise (2 + 0.4)
    d_demand: float = 2.8
    curve_etas: tuple = (1.5, 2.0, 3.0)


S = Scenario()
HOUR_S = U.S_PER_HOUR
DAY_H = S.day_s / HOUR_S
PCT = U.PERCENT
SOURCES = {"coal": ("Coal", C.IPCC_LIFECYCLE_COAL), "gas": ("Gas (combined cycle)", C.IPCC_LIFECYCLE_GAS),
           "solar": ("Solar PV (utility)", C.IPCC_LIFECYCLE_SOLAR_PV), "hydro": ("Hydropower", C.IPCC_LIFECYCLE_HYDRO),
           "nuclear": ("Nuclear", C.IPCC_LIFECYCLE_NUCLEAR), "wind": ("Wind (onshore)", C.IPCC_LIFECYCLE_WIND)}
I_DAY = carbon.mix_intensity([(S.day_coal, C.IPCC_LIFECYCLE_COAL), (1 - S.day_coal, C.IPCC_LIFECYCLE_GAS)])
I_NIGHT = carbon.mix_intensity([(S.night_wind, C.IPCC_LIFECYCLE_WIND), (1 - S.night_wind, C.IPCC_LIFECYCLE_COAL)])
I_MEAN = carbon.day_night_mean_intensity(I_DAY, I_NIGHT, S.day_s, S.night_s)
I_CLEAN = C.IPCC_LIFECYCLE_WIND
PUE = {"board": 1.0, "facility": C.PUE_INDUSTRY_AVG_2023}
DATASHEET_GAIN = carbon.perf_per_watt_gain(C.H100_PEAK_BF16_DENSE, C.H100_TDP_W, C.A100_PEAK_BF16_DENSE, C.A100_TDP_W)
OLD_ENERGY_J = carbon.fleet_energy_j(S.old_gpus, C.A100_TDP_W, S.week_s)


@dataclass(frozen=True)
class Upgrade:
    eff: float
    demand: float
    intensity: float
    pue: float

    @property
    def change(self) -> float:
        return carbon.net_carbon_change(self.eff, self.demand)

    @property
    def energy_j(self) -> float:
        return OLD_ENERGY_J * (1 + self.change) * self.pue

    @property
    def co2e_kg(self) -> float:
        return carbon.emissions_kg(self.energy_j, self.intensity)


@dataclass(frozen=True)
class Plan:
    flex: float
    window_h: float
    util: float
    procured: float = 0.0
    pue: float = 1.0

    @property
    def headroom(self) -> float:
        return carbon.night_headroom_frac(self.util, S.day_s, S.night_s)

    @property
    def shift_eff(self) -> float:
        return carbon.shiftable_frac(self.flex, self.window_h * HOUR_S, self.util, S.day_s, S.night_s)

    @property
    def shift_savings(self) -> float:
        return carbon.shift_savings(self.shift_eff, I_DAY, I_NIGHT, S.day_s, S.night_s)

    @property
    def total_savings(self) -> float:
        return carbon.procured_savings(self.shift_savings, self.procured, I_CLEAN, I_MEAN)

    @property
    def procure_needed(self) -> float:
        return carbon.procured_frac_for_target(S.target, self.shift_savings, I_CLEAN, I_MEAN)

    @property
    def held(self) -> float:
        """The share of the day's load the plan holds for the night: the flexible jobs that arrive within
        the window of nightfall (the others run at once and miss nothing)."""
        return self.flex * min(1.0, self.window_h / DAY_H)

    @property
    def sla_broken(self) -> bool:
        """A deadline breaks only when the plan holds more than the night can run: the held share above
        min(window share, headroom) (handbook/errata.md#e37; the spec's rule fired for every F > 0 with W < 12 h)."""
        return self.held > min(min(1.0, self.window_h / DAY_H), self.headroom) + S.sla_tolerance

    @property
    def co2e_week(self) -> float:
        energy = carbon.fleet_energy_j(S.new_gpus, C.H100_TDP_W * self.util, S.week_s, self.pue)
        return carbon.emissions_kg(energy, I_MEAN) * (1 - self.total_savings)


TEAM = Plan(S.flex, S.window_h, S.util)
BEST_SHIFT = Plan(1.0, DAY_H, S.util)          # every job flexible, the longest window
