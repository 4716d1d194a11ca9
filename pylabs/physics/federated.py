"""Data movement in federated learning (FedAvg) against shipping raw data to a data centre.

Each round, the server broadcasts the full model to the K clients it sampled and each
client uploads one model update, optionally compressed r-fold. Centralised training
instead uploads each user's raw data once. Bytes, seconds and bytes/s throughout.
"""

from __future__ import annotations

from functools import partial

from pylabs.physics.validators import check


class FederatedError(ValueError):
    """A count or size that cannot describe a federated round (zero clients, compression below 1)."""


_check = partial(check, error=FederatedError)


def model_bytes(params: float, bytes_per_param: float) -> float:
    """Size of one model (or one uncompressed update): P·b.
    Source: definition (parameters × bytes per parameter)."""
    _check(params > 0 and bytes_per_param > 0, f"params {params} and bytes per param {bytes_per_param} must be positive")
    return params * bytes_per_param


def round_bytes(clients: float, params: float, bytes_per_param: float, upload_compression: float = 1.0) -> float:
    """Bytes one FedAvg round moves: K·P·b·(1 + 1/r), a full-model download plus an r-fold compressed upload per client.
    Source: McMahan et al. 2017 (FedAvg: broadcast the model, average the client updates)."""
    _check(clients >= 1, f"clients per round {clients} must be at least 1")
    _check(upload_compression >= 1, f"upload compression {upload_compression} must be at least 1 (1 = none)")
    return clients * model_bytes(params, bytes_per_param) * (1.0 + 1.0 / upload_compression)


def round_download_bytes(clients: float, params: float, bytes_per_param: float) -> float:
    """The broadcast share of a round: K·P·b (compressing uploads does not touch it).
    Source: McMahan et al. 2017."""
    return clients * model_bytes(params, bytes_per_param)


def fl_bytes_per_day(rounds_per_day: float, clients: float, params: float, bytes_per_param: float,
                     upload_compression: float = 1.0) -> float:
    """Federated traffic per day: R·K·P·b·(1 + 1/r).
    Source: handbook/labs/v2_11.md §2 (corrected model)."""
    _check(rounds_per_day >= 0, f"rounds per day {rounds_per_day} must not be negative")
    return rounds_per_day * round_bytes(clients, params, bytes_per_param, upload_compression)


def central_bytes_per_day(users: float, bytes_per_user_per_day: float) -> float:
    """Centralised collection per day: every user uploads their raw data once, N·d.
    Source: handbook/labs/v2_11.md §2 (corrected model)."""
    _check(users >= 0 and bytes_per_user_per_day >= 0, "users and bytes per user must not be negative")
    return users * bytes_per_user_per_day


def transfer_ratio(fl_bytes: float, central_bytes: float) -> float:
    """How many times more bytes federated learning moves than centralised collection.
    Source: definition (FL bytes ÷ centralised bytes)."""
    _check(central_bytes > 0, f"centralised bytes {central_bytes} must be positive to form a ratio")
    return fl_bytes / central_bytes


def transfer_seconds(size_bytes: float, link_bytes_per_s: float) -> float:
    """Time to move ``size_bytes`` over one link at ``link_bytes_per_s``: S/B (no latency term).
    Source: definition of bandwidth."""
    _check(link_bytes_per_s > 0, f"link bandwidth {link_bytes_per_s} must be positive")
    return size_bytes / link_bytes_per_s


def client_download_s(params: float, bytes_per_param: float, downlink_bytes_per_s: float) -> float:
    """One client's model download per round: P·b / B_down.
    Source: definition of bandwidth."""
    return transfer_seconds(model_bytes(params, bytes_per_param), downlink_bytes_per_s)


def client_upload_s(params: float, bytes_per_param: float, upload_compression: float,
                    uplink_bytes_per_s: float) -> float:
    """One client's update upload per round: P·b / (r·B_up).
    Source: definition of bandwidth."""
    _check(upload_compression >= 1, f"upload compression {upload_compression} must be at least 1")
    return transfer_seconds(model_bytes(params, bytes_per_param) / upload_compression, uplink_bytes_per_s)
