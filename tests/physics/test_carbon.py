"""Carbon physics: the spec's golden vectors (handbook/labs/v2_15.md §4) and the IPCC AR5 lifecycle medians
as published (Annex III, Table A.III.2)."""

from __future__ import annotations

import math

import pytest

from pylabs.physics import carbon
from pylabs.physics import constants as C

H = 3600.0
G = carbon.g_per_kwh_to_kg_per_j  # g/kWh -> kg/J
I_DAY = carbon.mix_intensity([(0.7, C.IPCC_LIFECYCLE_COAL), (0.3, C.IPCC_LIFECYCLE_GAS)])
I_NIGHT = carbon.mix_intensity([(0.9, C.IPCC_LIFECYCLE_WIND), (0.1, C.IPCC_LIFECYCLE_COAL)])


@pytest.mark.parametrize("name, g_per_kwh", [
    ("IPCC_LIFECYCLE_COAL", 820), ("IPCC_LIFECYCLE_GAS", 490), ("IPCC_LIFECYCLE_SOLAR_PV", 48),
    ("IPCC_LIFECYCLE_HYDRO", 24), ("IPCC_LIFECYCLE_NUCLEAR", 12), ("IPCC_LIFECYCLE_WIND", 11),
])
def test_ipcc_ar5_lifecycle_medians_as_published(name, g_per_kwh):
    """IPCC AR5 WGIII Annex III Table A.III.2 medians (handbook/devices.md §4)."""
    assert getattr(C, name) == pytest.approx(G(g_per_kwh), rel=1e-12)
    assert getattr(C, name) * 3.6e9 == pytest.approx(g_per_kwh, rel=1e-12)


@pytest.mark.parametrize("eff, demand, change, reb", [(2.0, 3.0, 0.50, 2.0), (2.0, 2.8, 0.40, 1.8)])
def test_spec_4_net_change_and_rebound(eff, demand, change, reb):
    """handbook/labs/v2_15.md §4: η = 2, D = 3 → +50 %, rebound 200 % (not the upstream's 400 %); D = 2.8 → +40 %."""
    assert carbon.net_carbon_change(eff, demand) == pytest.approx(change, rel=1e-12)
    assert carbon.rebound(eff, demand) == pytest.approx(reb, rel=1e-12)
    assert carbon.demand_growth_for_change(eff, change) == pytest.approx(demand, rel=1e-12)


def test_rebound_reference_points():
    assert carbon.rebound(2.0, 1.0) == 0.0                      # no demand growth: the full saving
    assert carbon.rebound(2.0, 2.0) == pytest.approx(1.0)       # demand eats the whole saving
    assert carbon.net_carbon_change(2.0, 2.0) == pytest.approx(0.0)
    with pytest.raises(ValueError):
        carbon.rebound(1.0, 2.0)


def test_spec_4_weekly_baseline():
    """handbook/labs/v2_15.md §4: 1,000 × 700 W × 168 h = 117,600 kWh → 96.43 t at 820 g/kWh."""
    e = carbon.fleet_energy_j(1000, C.H100_TDP_W, 168 * H)
    assert e / carbon.J_PER_KWH == pytest.approx(117_600, rel=1e-12)
    assert carbon.emissions_kg(e, C.IPCC_LIFECYCLE_COAL) / 1000 == pytest.approx(96.432, rel=1e-12)


def test_pue_scales_energy_and_must_be_at_least_one():
    assert carbon.fleet_energy_j(10, 700, H, 1.58) == pytest.approx(10 * 700 * H * 1.58)
    with pytest.raises(ValueError):
        carbon.fleet_energy_j(10, 700, H, 0.9)


def test_spec_3_grid_mixes():
    """handbook/labs/v2_15.md §2: 70 % coal + 30 % gas = 721 g/kWh; 90 % wind + 10 % coal = 91.9 g/kWh."""
    assert I_DAY * 3.6e9 == pytest.approx(721.0, rel=1e-12)
    assert I_NIGHT * 3.6e9 == pytest.approx(91.9, rel=1e-12)
    with pytest.raises(ValueError):
        carbon.mix_intensity([(0.5, 1.0), (0.4, 2.0)])


def test_h100_over_a100_perf_per_watt_is_1_81():
    """handbook/labs/v2_15.md §2: dense BF16 at TDP gives 1.81×, not exactly 2×."""
    gain = carbon.perf_per_watt_gain(C.H100_PEAK_BF16_DENSE, C.H100_TDP_W, C.A100_PEAK_BF16_DENSE, C.A100_TDP_W)
    assert gain == pytest.approx(1.812, abs=5e-4)


@pytest.mark.parametrize("flex, window_h, f_eff, saving", [
    (0.3, 8, 0.2, 0.1548), (0.3, 12, 0.3, 0.2322), (1.0, 12, 1 / 3, 0.2580),
])
def test_spec_4_shift_rows(flex, window_h, f_eff, saving):
    """handbook/labs/v2_15.md §4 Act II rows at u = 0.75, 12 h day and 12 h night."""
    got = carbon.shiftable_frac(flex, window_h * H, 0.75, 12 * H, 12 * H)
    assert got == pytest.approx(f_eff, rel=1e-12)
    assert carbon.shift_savings(got, I_DAY, I_NIGHT, 12 * H, 12 * H) == pytest.approx(saving, abs=5e-5)


def test_spec_2_upstream_model_gives_28_5_percent_not_40():
    """handbook/labs/v2_15.md §2: the upstream's own model at F = 0.3 (820 by day, 40 by night)."""
    assert carbon.naive_shift_savings(0.3, G(820), G(40)) == pytest.approx(0.2854, abs=5e-5)
    assert carbon.naive_shift_savings(0.35, G(820), G(40)) == pytest.approx(0.333, abs=5e-4)


def test_headroom_and_window_bounds():
    assert carbon.night_headroom_frac(0.75, 12 * H, 12 * H) == pytest.approx(1 / 3)
    assert carbon.night_headroom_frac(1.0, 12 * H, 12 * H) == 0.0
    assert carbon.shiftable_frac(1.0, 0.0, 0.5, 12 * H, 12 * H) == 0.0
    assert carbon.shiftable_frac(1.0, 12 * H, 0.5, 12 * H, 12 * H) == 1.0


def test_procurement_closes_the_gap_and_inverts():
    base = carbon.day_night_mean_intensity(I_DAY, I_NIGHT, 12 * H, 12 * H)
    s = carbon.shift_savings(0.3, I_DAY, I_NIGHT, 12 * H, 12 * H)
    p = carbon.procured_frac_for_target(0.4, s, C.IPCC_LIFECYCLE_WIND, base)
    assert 0 < p < 1
    assert carbon.procured_savings(s, p, C.IPCC_LIFECYCLE_WIND, base) == pytest.approx(0.4, rel=1e-12)
    assert carbon.procured_savings(s, 0.0, C.IPCC_LIFECYCLE_WIND, base) == pytest.approx(s)
    assert carbon.procured_savings(0.0, 1.0, base, base) == pytest.approx(0.0)
    assert carbon.procured_frac_for_target(0.1, 0.2, 0.0, base) == 0.0
    assert math.isfinite(carbon.procured_savings(1.0, 1.0, 0.0, base))
