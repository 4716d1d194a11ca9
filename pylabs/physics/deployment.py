"""Deployment physics for the orientation lab: the light barrier and the duty-cycle energy budget.

Two limits that no faster chip removes. A signal cannot cross a distance faster than light in its
medium, so a round trip to a far server costs time before any computing starts; and a battery
holds a fixed energy, so a device's life is that energy over its *average* power, which only
sleeping between inferences brings down. SI units throughout: metres, seconds, watts, joules.

Source: handbook/labs/v1_00.md §2; group index and battery energies in the registry.
"""

from __future__ import annotations


def signal_speed_m_per_s(speed_of_light_m_per_s: float, group_index: float) -> float:
    """Speed of a light pulse in a medium: v = c / n_g (n_g = 1 for vacuum, about 1.468 for fibre).
    Source: ITU-T G.652 single-mode fibre; Corning SMF-28 group index 1.4682 at 1,550 nm."""
    return speed_of_light_m_per_s / group_index


def propagation_rtt_s(distance_m: float, speed_m_per_s: float, route_factor: float = 1.0) -> float:
    """Round-trip propagation time: RTT = 2 · d · k_route / v (no routing, queueing or compute).
    Source: handbook/labs/v1_00.md §2, the light barrier."""
    return 2.0 * distance_m * route_factor / speed_m_per_s


def max_distance_m(budget_s: float, local_s: float, speed_m_per_s: float, route_factor: float = 1.0) -> float:
    """Farthest server that can answer within the budget: d_max = (T − t_local) · v / (2 · k_route),
    zero when local work alone uses the budget. Source: handbook/labs/v1_00.md §2."""
    return max(0.0, budget_s - local_s) * speed_m_per_s / (2.0 * route_factor)


def travel_m(speed_m_per_s: float, time_s: float) -> float:
    """Distance a vehicle covers while it waits: x = v · t. Source: kinematics (handbook/labs/v1_00.md §4)."""
    return speed_m_per_s * time_s


def duty_cycle(active_s: float, period_s: float) -> float:
    """Share of time awake: δ = t_active / T_period, capped at 1 (a task longer than its period
    never sleeps). Source: handbook/labs/v1_00.md §2."""
    return min(1.0, active_s / period_s)


def average_power_w(active_w: float, sleep_w: float, active_s: float, period_s: float) -> float:
    """Average power of a duty-cycled device: P_avg = δ · P_active + (1 − δ) · P_sleep.
    Source: handbook/labs/v1_00.md §2."""
    delta = duty_cycle(active_s, period_s)
    return delta * active_w + (1.0 - delta) * sleep_w


def battery_life_s(energy_j: float, average_w: float) -> float:
    """Time a battery lasts at a constant average power: life = E / P_avg (ideal cell: no
    self-discharge, full capacity at any load). Source: handbook/labs/v1_00.md §2."""
    return energy_j / average_w


def max_active_power_w(average_w: float, sleep_w: float, active_s: float, period_s: float) -> float:
    """The most a duty-cycled device may draw while active and still average ``average_w``: the
    inverse of ``average_power_w``, P_active = (P_avg − (1 − δ) · P_sleep) / δ, and zero when sleep
    alone already averages more. Source: handbook/labs/v1_00.md §2, solved for P_active."""
    delta = duty_cycle(active_s, period_s)
    return max(0.0, (average_w - (1.0 - delta) * sleep_w) / delta)
