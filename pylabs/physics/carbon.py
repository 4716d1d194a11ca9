"""Operational carbon of a compute fleet: energy from power and time, PUE, grid mixes, the
rebound (Jevons) effect of an efficiency gain, and carbon-aware time shifting.

SI throughout: power in W, time in s, energy in J, carbon in kg CO₂e, carbon intensity in
kg CO₂e per J (1 g/kWh = 1e-3 kg / 3.6e6 J). Fractions are plain numbers in [0, 1].
"""

from __future__ import annotations

import math
from functools import partial
from typing import Iterable

from pylabs.physics.validators import require

J_PER_KWH = 3.6e6
KG_PER_J_PER_G_PER_KWH = 1e-3 / J_PER_KWH  # one g/kWh expressed in kg/J


# this module's messages put the value beside its name: "pue = 0.9 must be >= 1 (...)"
_require = partial(require, form="{name} = {value!r} must be {rule}")


def g_per_kwh_to_kg_per_j(g_per_kwh: float) -> float:
    """Convert a published intensity in gCO₂e/kWh to SI kg/J.
    Source: definition of the kWh (3.6 MJ)."""
    return g_per_kwh * KG_PER_J_PER_G_PER_KWH


def fleet_energy_j(gpus: float, power_w: float, duration_s: float, pue: float = 1.0) -> float:
    """E = N · P · t · PUE: energy a fleet draws from the grid at a constant per-device power.
    Source: definition of power usage effectiveness (facility energy ÷ IT energy), The Green Grid."""
    _require(pue >= 1.0, "pue", pue, ">= 1 (facility energy cannot be below IT energy)")
    _require(gpus >= 0 and power_w >= 0 and duration_s >= 0, "inputs", (gpus, power_w, duration_s), ">= 0")
    return gpus * power_w * duration_s * pue


def emissions_kg(energy_j: float, intensity_kg_per_j: float) -> float:
    """C = E · I: operational emissions of energy drawn at a carbon intensity.
    Source: GHG Protocol Scope 2 (location-based) arithmetic."""
    return energy_j * intensity_kg_per_j


def mix_intensity(shares_and_intensities: Iterable[tuple[float, float]]) -> float:
    """I = Σ sᵢ Iᵢ: intensity of a generation mix whose shares sum to one.
    Source: energy-weighted average of lifecycle intensities (IPCC AR5 WGIII Annex III)."""
    pairs = list(shares_and_intensities)
    total = sum(s for s, _ in pairs)
    _require(all(s >= 0 for s, _ in pairs), "shares", total, "non-negative")
    _require(math.isclose(total, 1.0, abs_tol=1e-9), "sum of shares", total, "1")
    return sum(s * i for s, i in pairs)


def perf_per_watt_gain(new_flops: float, new_power_w: float, old_flops: float, old_power_w: float) -> float:
    """η = (F_new / P_new) ÷ (F_old / P_old): the gain in work per joule between two devices.
    Source: datasheet peak throughput at maximum board power."""
    return (new_flops / new_power_w) / (old_flops / old_power_w)


def net_carbon_change(eff_gain: float, demand_growth: float) -> float:
    """ΔC = D/η − 1: change in emissions when work grows D-fold and work per joule grows η-fold,
    on the same grid. Source: Jevons 1865; Sorrell 2009, 'Jevons' Paradox revisited'."""
    _require(eff_gain > 0, "eff_gain", eff_gain, "> 0")
    _require(demand_growth >= 0, "demand_growth", demand_growth, ">= 0")
    return demand_growth / eff_gain - 1.0


def rebound(eff_gain: float, demand_growth: float) -> float:
    """R = (expected saving − actual saving) ÷ expected saving = (D − 1)/(η − 1).
    R = 0: no rebound; R = 1: the saving is fully taken back; R > 1: backfire (Jevons).
    Source: Sorrell 2009, the standard rebound definition, with expected saving 1 − 1/η."""
    _require(eff_gain > 1.0, "eff_gain", eff_gain, "> 1 (no gain, no expected saving to take back)")
    expected = 1.0 - 1.0 / eff_gain
    actual = 1.0 - demand_growth / eff_gain
    return (expected - actual) / expected


def demand_growth_for_change(eff_gain: float, carbon_change: float) -> float:
    """D = η · (1 + ΔC): the growth in work that turns an η-fold efficiency gain into ΔC.
    Source: inverse of net_carbon_change."""
    return eff_gain * (1.0 + carbon_change)


def night_headroom_frac(util: float, day_s: float, night_s: float) -> float:
    """(1 − u)/u · H_n/H_d: the spare night capacity, as a fraction of the day's load, of a
    cluster running at utilisation u around the clock. Source: capacity balance (handbook/labs/v2_15.md §2)."""
    _require(0 < util <= 1, "util", util, "in (0, 1]")
    return (1.0 - util) / util * night_s / day_s


def shiftable_frac(flex_frac: float, window_s: float, util: float, day_s: float, night_s: float) -> float:
    """F_eff = min(F · min(1, W/H_d), headroom): the share of day load that can move to the night.
    Jobs submitted more than W before nightfall would miss their deadline; the night cannot
    take more than its spare capacity. Source: handbook/labs/v2_15.md §2 (uniform arrivals over the day)."""
    _require(0 <= flex_frac <= 1, "flex_frac", flex_frac, "in [0, 1]")
    _require(window_s >= 0, "window_s", window_s, ">= 0")
    reachable = flex_frac * min(1.0, window_s / day_s)
    return min(reachable, night_headroom_frac(util, day_s, night_s))


def day_night_mean_intensity(i_day: float, i_night: float, day_s: float, night_s: float) -> float:
    """Time-weighted mean intensity for a constant load: (H_d I_d + H_n I_n)/(H_d + H_n).
    Source: energy-weighted average."""
    return (day_s * i_day + night_s * i_night) / (day_s + night_s)


def shift_savings(shift_frac: float, i_day: float, i_night: float, day_s: float, night_s: float) -> float:
    """H_d F_eff (I_d − I_n) / (H_d I_d + H_n I_n): emissions saved by moving F_eff of the day's
    load into the night, as a share of the baseline that runs all 24 h on their real grids.
    Source: handbook/labs/v2_15.md §2 (corrected baseline; the upstream's used I_d for every hour)."""
    baseline = day_s * i_day + night_s * i_night
    return day_s * shift_frac * (i_day - i_night) / baseline


def naive_shift_savings(flex_frac: float, i_day: float, i_night: float) -> float:
    """F (I_d − I_n)/I_d: the upstream lab's saving, which assumes the baseline runs every hour at
    the daytime intensity and ignores the window and the night headroom. Kept to show its error.
    Source: handbook/labs/v2_15.md §2."""
    return flex_frac * (i_day - i_night) / i_day


def procured_savings(shift_saving: float, procured_frac: float, clean_intensity: float,
                     baseline_intensity: float) -> float:
    """1 − [(1 − p)(1 − s) + p · I_clean / Ī]: total saving when a share p of every hour's energy
    is matched by new clean generation (hour by hour) on top of a time-shift saving s.
    Source: location-based accounting of hourly-matched supply (a labelled assumption of the lab)."""
    _require(0 <= procured_frac <= 1, "procured_frac", procured_frac, "in [0, 1]")
    return 1.0 - ((1.0 - procured_frac) * (1.0 - shift_saving) + procured_frac * clean_intensity / baseline_intensity)


def procured_frac_for_target(target: float, shift_saving: float, clean_intensity: float,
                             baseline_intensity: float) -> float:
    """The procured share p at which procured_savings reaches ``target`` (0 if shifting alone does).
    Source: inverse of procured_savings."""
    if shift_saving >= target:
        return 0.0
    return (target - shift_saving) / ((1.0 - shift_saving) - clean_intensity / baseline_intensity)
