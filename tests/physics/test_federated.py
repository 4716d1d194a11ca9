"""Federated vs centralised data movement: the curriculum's golden vectors (handbook/labs/v2_11.md §4)."""

from __future__ import annotations

import pytest

from pylabs.physics import federated as F
from pylabs.physics.constants import BYTES_PER_BF16, BYTES_PER_FP32, GBOARD_CIFG_PARAMS

USERS, RAW_PER_USER = 1e8, 5e3      # 100 M devices, 5 KB of text per user per day [A]
ROUNDS, PARAMS = 24, 50e6           # V2-11 handbook/labs/v2_11.md §2 defaults


def central() -> float:
    return F.central_bytes_per_day(USERS, RAW_PER_USER)


@pytest.mark.parametrize("clients, compression, tb, ratio", [
    (1e4, 1, 48.0, 96.0), (1e4, 10, 26.4, 52.8), (1e3, 1, 4.8, 9.6), (1e5, 1, 480.0, 960.0),
])
def test_golden_fl_traffic_and_ratio(clients, compression, tb, ratio):
    fl = F.fl_bytes_per_day(ROUNDS, clients, PARAMS, BYTES_PER_BF16, compression)
    assert fl == pytest.approx(tb * 1e12, rel=1e-12)
    assert F.transfer_ratio(fl, central()) == pytest.approx(ratio, rel=1e-12)


def test_centralised_collection_is_500_gb_per_day():
    assert central() == pytest.approx(500e9)


def test_gboard_size_model():
    """1.4 M parameters in fp32, K = 1e4 → 2.688 TB/day, 5.38× the centralised bytes."""
    fl = F.fl_bytes_per_day(ROUNDS, 1e4, GBOARD_CIFG_PARAMS, BYTES_PER_FP32)
    assert fl == pytest.approx(2.688e12, rel=1e-12)
    assert F.transfer_ratio(fl, central()) == pytest.approx(5.376, rel=1e-12)


def test_compression_only_touches_the_upload_half():
    full = F.round_bytes(1e4, PARAMS, 2.0, 1.0)
    assert F.round_download_bytes(1e4, PARAMS, 2.0) == pytest.approx(full / 2)
    assert F.round_bytes(1e4, PARAMS, 2.0, 1e9) == pytest.approx(full / 2, rel=1e-8)


def test_client_link_times():
    assert F.client_download_s(50e6, 2.0, 2.5e6) == pytest.approx(40.0)
    assert F.client_upload_s(50e6, 2.0, 10.0, 1.25e6) == pytest.approx(8.0)


@pytest.mark.parametrize("call, message", [
    (lambda: F.round_bytes(0, 1e6, 2.0), "clients per round 0"),
    (lambda: F.round_bytes(10, 1e6, 2.0, 0.5), "upload compression 0.5"),
    (lambda: F.transfer_ratio(1.0, 0.0), "centralised bytes 0.0"),
    (lambda: F.transfer_seconds(1.0, 0.0), "link bandwidth 0.0"),
    (lambda: F.model_bytes(-1, 2.0), "params -1"),
])
def test_bad_inputs_name_the_value(call, message):
    with pytest.raises(F.FederatedError, match=message):
        call()
