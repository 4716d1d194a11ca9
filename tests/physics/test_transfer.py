"""Moving a dataset: golden vectors of handbook/labs/v1_04.md §4, Act II rows."""

import math

import pytest

from pylabs.physics import constants as C
from pylabs.physics import transfer

TB = 1e12


def test_50_tb_at_100_gbps_section_4():
    """handbook/labs/v1_04.md §4: 50 TB, 100 Gb/s, η = 1: 4,000 s (66.7 min); η = 0.8: 1.389 h."""
    assert transfer.transfer_time_s(50 * TB, 100e9) == pytest.approx(4000.0, rel=1e-12)
    assert transfer.transfer_time_s(50 * TB, 100e9, 0.8) / 3600 == pytest.approx(1.389, abs=5e-4)


INTERNET = ((C.AWS_EGRESS_TIER1_BYTES, C.AWS_INTERNET_EGRESS_USD_PER_GB),
            (C.AWS_EGRESS_TIER2_BYTES, C.AWS_EGRESS_TIER2_USD_PER_GB),
            (C.AWS_EGRESS_TIER3_BYTES, C.AWS_EGRESS_TIER3_USD_PER_GB),
            (math.inf, C.AWS_EGRESS_TIER4_USD_PER_GB))


def test_50_tb_fees_section_4():
    """handbook/labs/v1_04.md §4: $1,000 at the inter-region $0.02/GB. The spec's "$4,500 at $0.09" bills all 50 TB at
    the first tier; AWS bills internet egress in tiers (aws.amazon.com/ec2/pricing/on-demand: first 10 TB
    $0.09, next 40 TB $0.085): $900 + $3,400 = $4,300."""
    assert transfer.transfer_cost_usd(50 * TB, C.AWS_INTER_REGION_USD_PER_GB) == pytest.approx(1000.0)
    assert transfer.tiered_cost_usd(50 * TB, INTERNET) == pytest.approx(4300.0)


def test_a_petabyte_to_the_internet_is_billed_in_tiers():
    """1 PB out to the internet is not $90k. AWS EC2 on-demand pricing (US East): first 10 TB
    $0.09/GB, next 40 TB $0.085, next 100 TB $0.07, above 150 TB $0.05: 900 + 3,400 + 7,000 + 42,500 =
    $53,800 (the free 100 GB a month aside)."""
    assert transfer.tiered_cost_usd(1000 * TB, INTERNET) == pytest.approx(53_800.0)
    assert transfer.tiered_cost_usd(5 * TB, INTERNET) == pytest.approx(450.0)
    assert transfer.tiered_cost_usd(0.0, INTERNET) == 0.0


def test_a_flat_price_is_one_tier():
    assert transfer.tiered_cost_usd(50 * TB, ((math.inf, 0.02),)) == transfer.transfer_cost_usd(50 * TB, 0.02)
    with pytest.raises(ValueError, match="tier bounds"):
        transfer.tiered_cost_usd(2 * TB, ((1 * TB, 0.02),))


def test_slow_link_and_a_petabyte_break_a_6_hour_budget_section_4():
    """handbook/labs/v1_04.md §4: 50 TB at 10 Gb/s is 11.11 h; 1 PB at 100 Gb/s is 22.22 h and $20,000."""
    assert transfer.transfer_time_s(50 * TB, 10e9) / 3600 == pytest.approx(11.11, abs=5e-3)
    assert transfer.transfer_time_s(1000 * TB, 100e9) / 3600 == pytest.approx(22.22, abs=5e-3)
    assert transfer.transfer_cost_usd(1000 * TB, C.AWS_INTER_REGION_USD_PER_GB) == pytest.approx(20000.0)


def test_upstream_banner_was_a_petabyte_section_2b():
    """handbook/labs/v1_04.md §5: '23 hours, $90,000+' is about 1 PB at $0.08-0.09/GB, not 50 TB."""
    assert transfer.transfer_time_s(50 * TB, 100e9) / 3600 < 1.2
    assert transfer.transfer_cost_usd(50 * TB, 0.08) == pytest.approx(4000.0)


def test_time_bought_by_a_fee():
    assert transfer.time_bought_s(1000.0, 20.0) == pytest.approx(50 * 3600)


@pytest.mark.parametrize("args", [(1e12, 0.0), (1e12, 1e9, 0.0), (1e12, 1e9, 1.5)])
def test_bad_links_are_refused(args):
    with pytest.raises(ValueError, match="link_bits_per_s"):
        transfer.transfer_time_s(*args)


def test_negative_prices_are_refused():
    with pytest.raises(ValueError, match="usd_per_gb"):
        transfer.transfer_cost_usd(1e12, -0.01)
    with pytest.raises(ValueError, match="usd_per_h"):
        transfer.time_bought_s(10.0, 0.0)
