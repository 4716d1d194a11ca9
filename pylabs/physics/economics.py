"""Total cost of ownership: on-demand, reserved and on-prem GPUs, and their breakevens.

Money is in US dollars; power follows the fixed API in kW and prices in USD/kWh and
USD per GPU-hour; a year is constants.HOURS_PER_YEAR = 8,760 h.
Source: handbook/labs/v2_01.md §2 (corrected TCO model; idle power draws even when no job runs).
"""

import math

from pylabs.physics.constants import HOURS_PER_YEAR
from pylabs.physics.validators import require, require_fraction, require_non_negative


def _check_fleet(gpus: float, years: float) -> None:
    require_non_negative("gpus", gpus, "pass the number of GPUs in the fleet")
    require_non_negative("years", years, "pass the planning horizon in years")


def _check_utilization(utilization: float) -> None:
    require_fraction("utilization", utilization,
                     "pass the busy share of wall-clock hours, e.g. 0.6 for 60 %")


def _check_power(kw_max: float, kw_idle: float, pue: float, usd_per_kwh: float) -> None:
    require_non_negative("kw_idle", kw_idle, "pass the idle draw per GPU in kW")
    require(kw_max >= kw_idle, "kw_max", kw_max, f">= kw_idle ({kw_idle!r})",
            "pass the busy draw per GPU in kW, at least the idle draw")
    require(pue >= 1, "pue", pue, ">= 1", "pass the facility PUE, e.g. 1.3")
    require_non_negative("usd_per_kwh", usd_per_kwh, "pass the electricity price in USD/kWh")


def tco_on_demand_usd(
    gpus: float, utilization: float, years: float, usd_per_gpu_hour: float
) -> float:
    """OD = G * U * H * Y * P  (pay only for busy hours).

    Source: handbook/labs/v2_01.md §2.
    """
    _check_fleet(gpus, years)
    _check_utilization(utilization)
    require_non_negative("usd_per_gpu_hour", usd_per_gpu_hour, "pass the on-demand price")
    return gpus * utilization * HOURS_PER_YEAR * years * usd_per_gpu_hour


def tco_reserved_usd(gpus: float, years: float, usd_per_gpu_hour: float, discount: float) -> float:
    """RES = G * H * Y * P * (1 - D)  (every hour paid, busy or not; renewed at the same price).

    Source: handbook/labs/v2_01.md §2.
    """
    _check_fleet(gpus, years)
    require_non_negative("usd_per_gpu_hour", usd_per_gpu_hour, "pass the on-demand list price")
    require_fraction("discount", discount, "pass the reservation discount, e.g. 0.35 for 35 %")
    return gpus * HOURS_PER_YEAR * years * usd_per_gpu_hour * (1 - discount)


def on_prem_energy_usd(
    gpus: float,
    utilization: float,
    years: float,
    kw_max: float,
    kw_idle: float,
    pue: float,
    usd_per_kwh: float,
) -> float:
    """E = G * Y * H * [P_idle + U*(P_max - P_idle)] * PUE * $/kWh.

    Source: handbook/labs/v2_01.md §2.
    """
    _check_fleet(gpus, years)
    _check_utilization(utilization)
    _check_power(kw_max, kw_idle, pue, usd_per_kwh)
    mean_kw = kw_idle + utilization * (kw_max - kw_idle)
    return gpus * years * HOURS_PER_YEAR * mean_kw * pue * usd_per_kwh


def tco_on_prem_usd(
    gpus: float,
    utilization: float,
    years: float,
    capex_per_gpu: float,
    kw_max: float,
    kw_idle: float,
    pue: float,
    usd_per_kwh: float,
    staff_usd_per_gpu_year: float,
) -> float:
    """PREM = G*capex + G*Y*H*[P_idle + U(P_max - P_idle)]*PUE*$/kWh + staff*G*Y.

    Source: handbook/labs/v2_01.md §2.
    """
    require_non_negative("capex_per_gpu", capex_per_gpu, "pass the purchase cost per GPU")
    require_non_negative("staff_usd_per_gpu_year", staff_usd_per_gpu_year,
                         "pass the operations staff cost per GPU-year")
    energy = on_prem_energy_usd(gpus, utilization, years, kw_max, kw_idle, pue, usd_per_kwh)
    return gpus * capex_per_gpu + energy + staff_usd_per_gpu_year * gpus * years


def breakeven_reserved_vs_on_demand(discount: float) -> float:
    """U* = 1 - D  (reserved is cheaper than on-demand above this utilization).

    Source: handbook/labs/v2_01.md §2.
    """
    require_fraction("discount", discount, "pass the reservation discount, e.g. 0.35 for 35 %")
    return 1 - discount


def breakeven_on_prem_vs_on_demand(
    gpus: float,
    years: float,
    usd_per_gpu_hour: float,
    capex_per_gpu: float,
    kw_max: float,
    kw_idle: float,
    pue: float,
    usd_per_kwh: float,
    staff_usd_per_gpu_year: float,
) -> float:
    """U* = fixed / (G*H*Y*(P - (P_max - P_idle)*PUE*$/kWh)), fixed = capex + idle energy + staff.

    On-prem is cheaper above U*. A value above 1 means it never pays back within the horizon;
    math.inf when an on-demand hour costs no more than the marginal energy of a busy hour.
    Source: handbook/labs/v2_01.md §2.
    """
    require(gpus > 0, "gpus", gpus, "> 0", "pass the number of GPUs in the fleet")
    require(years > 0, "years", years, "> 0", "pass the planning horizon in years")
    require_non_negative("usd_per_gpu_hour", usd_per_gpu_hour, "pass the on-demand price")
    fixed = tco_on_prem_usd(gpus, 0.0, years, capex_per_gpu, kw_max, kw_idle, pue,
                            usd_per_kwh, staff_usd_per_gpu_year)
    marginal_usd_per_hour = (kw_max - kw_idle) * pue * usd_per_kwh
    margin_usd = gpus * HOURS_PER_YEAR * years * (usd_per_gpu_hour - marginal_usd_per_hour)
    if margin_usd <= 0:
        return math.inf
    return fixed / margin_usd
