"""Moving a dataset: golden vectors of VOL1_00-08 §V1-04 (4), Act II rows."""

import pytest

from pylabs.physics import constants as C
from pylabs.physics import transfer

TB = 1e12


def test_50_tb_at_100_gbps_section_4():
    """§V1-04 (4): 50 TB, 100 Gb/s, η = 1: 4,000 s (66.7 min); η = 0.8: 1.389 h."""
    assert transfer.transfer_time_s(50 * TB, 100e9) == pytest.approx(4000.0, rel=1e-12)
    assert transfer.transfer_time_s(50 * TB, 100e9, 0.8) / 3600 == pytest.approx(1.389, abs=5e-4)


def test_50_tb_fees_section_4():
    """§V1-04 (4): $1,000 at the inter-region $0.02/GB; $4,500 at the internet $0.09/GB."""
    assert transfer.transfer_cost_usd(50 * TB, C.AWS_INTER_REGION_USD_PER_GB) == pytest.approx(1000.0)
    assert transfer.transfer_cost_usd(50 * TB, C.AWS_INTERNET_EGRESS_USD_PER_GB) == pytest.approx(4500.0)


def test_slow_link_and_a_petabyte_break_a_6_hour_budget_section_4():
    """§V1-04 (4): 50 TB at 10 Gb/s is 11.11 h; 1 PB at 100 Gb/s is 22.22 h and $20,000."""
    assert transfer.transfer_time_s(50 * TB, 10e9) / 3600 == pytest.approx(11.11, abs=5e-3)
    assert transfer.transfer_time_s(1000 * TB, 100e9) / 3600 == pytest.approx(22.22, abs=5e-3)
    assert transfer.transfer_cost_usd(1000 * TB, C.AWS_INTER_REGION_USD_PER_GB) == pytest.approx(20000.0)


def test_upstream_banner_was_a_petabyte_section_2b():
    """§V1-04 (2b) error 7: '23 hours, $90,000+' is about 1 PB at $0.08-0.09/GB, not 50 TB."""
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
