"""Total cost of ownership and breakevens."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pylabs.physics import economics as e

FAST = settings(max_examples=200, deadline=None)
ON_PREM = dict(capex_per_gpu=40000, kw_max=0.7, kw_idle=0.1, pue=1.4, usd_per_kwh=0.10,
               staff_usd_per_gpu_year=2000)


def on_prem(utilization: float, gpus: float = 1000, years: float = 3) -> float:
    return e.tco_on_prem_usd(gpus, utilization, years, **ON_PREM)


def test_on_demand_formula() -> None:
    assert e.tco_on_demand_usd(2, 0.5, 1, 3.0) == pytest.approx(2 * 0.5 * 8760 * 3.0)


def test_reserved_ignores_utilization() -> None:
    assert e.tco_reserved_usd(2, 1, 3.0, 0.25) == pytest.approx(2 * 8760 * 3.0 * 0.75)


def test_on_prem_idle_energy_is_paid_at_zero_utilization() -> None:
    idle_energy = 1000 * 3 * 8760 * 0.1 * 1.4 * 0.10
    fixed = 1000 * 40000 + 2000 * 1000 * 3
    assert on_prem(0.0) == pytest.approx(fixed + idle_energy, rel=1e-12)


def test_energy_formula() -> None:
    got = e.on_prem_energy_usd(10, 0.5, 2, 1.0, 0.2, 1.25, 0.08)
    assert got == pytest.approx(10 * 2 * 8760 * (0.2 + 0.5 * 0.8) * 1.25 * 0.08, rel=1e-12)


def test_reserved_breakeven_is_one_minus_discount() -> None:
    assert e.breakeven_reserved_vs_on_demand(0.35) == pytest.approx(0.65)


def test_on_prem_breakeven_is_where_costs_cross() -> None:
    u_star = e.breakeven_on_prem_vs_on_demand(1000, 3, 2.10, **ON_PREM)
    assert on_prem(u_star) == pytest.approx(e.tco_on_demand_usd(1000, u_star, 3, 2.10), rel=1e-9)


def test_on_prem_never_pays_back_when_price_below_energy() -> None:
    assert e.breakeven_on_prem_vs_on_demand(1000, 3, 0.01, **ON_PREM) == math.inf


# ---- errors ----


def test_utilization_above_one_is_rejected() -> None:
    with pytest.raises(ValueError, match=r"utilization must be in \[0, 1\] \(got 60\).*0.6"):
        e.tco_on_demand_usd(1000, 60, 3, 2.10)


def test_discount_outside_unit_interval_is_rejected() -> None:
    with pytest.raises(ValueError, match=r"discount must be in \[0, 1\] \(got 35\)"):
        e.tco_reserved_usd(1000, 3, 2.10, 35)


def test_pue_below_one_is_rejected() -> None:
    with pytest.raises(ValueError, match=r"pue must be >= 1 \(got 0.9\)"):
        e.tco_on_prem_usd(1000, 0.6, 3, 40000, 0.7, 0.1, 0.9, 0.10, 2000)


def test_idle_above_max_power_is_rejected() -> None:
    with pytest.raises(ValueError, match=r"kw_max must be >= kw_idle \(0.8\)"):
        e.on_prem_energy_usd(1000, 0.6, 3, 0.7, 0.8, 1.3, 0.10)


def test_negative_gpus_are_rejected() -> None:
    with pytest.raises(ValueError, match=r"gpus must be >= 0 \(got -1\)"):
        e.tco_on_demand_usd(-1, 0.5, 3, 2.10)


def test_breakeven_needs_a_fleet() -> None:
    with pytest.raises(ValueError, match=r"gpus must be > 0 \(got 0\)"):
        e.breakeven_on_prem_vs_on_demand(0, 3, 2.10, **ON_PREM)


# ---- properties ----


@FAST
@given(u=st.floats(0, 1), gpus=st.integers(0, 100_000), years=st.floats(0, 10),
       price=st.floats(0, 20))
def test_on_demand_is_linear_in_utilization(u, gpus, years, price) -> None:
    full = e.tco_on_demand_usd(gpus, 1.0, years, price)
    partial = e.tco_on_demand_usd(gpus, u, years, price)
    assert partial == pytest.approx(u * full, rel=1e-12, abs=1e-9)


@FAST
@given(u=st.floats(0, 0.99), du=st.floats(0.001, 0.01))
def test_on_prem_cost_rises_with_utilization(u, du) -> None:
    assert on_prem(min(1.0, u + du)) > on_prem(u)


@FAST
@given(discount=st.floats(0, 1), u=st.floats(0, 1))
def test_reserved_cheaper_exactly_above_breakeven(discount, u) -> None:
    reserved = e.tco_reserved_usd(100, 1, 2.0, discount)
    on_demand = e.tco_on_demand_usd(100, u, 1, 2.0)
    u_star = e.breakeven_reserved_vs_on_demand(discount)
    if u > u_star + 1e-9:
        assert reserved < on_demand
    elif u < u_star - 1e-9:
        assert reserved > on_demand
