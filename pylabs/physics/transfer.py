"""Moving a dataset between sites: how long the link takes and what the provider charges.

SI units except where the unit is in the name: a link is quoted in bits per second, a cloud
price in US dollars per decimal gigabyte (10⁹ bytes), as the providers bill it.
"""

from __future__ import annotations

BITS_PER_BYTE = 8.0
BYTES_PER_GB = 1e9


def transfer_time_s(data_bytes: float, link_bits_per_s: float, efficiency: float = 1.0) -> float:
    """T = 8·D / (L·η): D bytes over a link of L bit/s that carries η of its line rate.

    Source: definition (a byte is 8 bits; η folds in protocol overhead and contention).
    """
    if link_bits_per_s <= 0 or not 0 < efficiency <= 1:
        raise ValueError(f"link_bits_per_s must be > 0 and efficiency in (0, 1] "
                         f"(got {link_bits_per_s!r}, {efficiency!r}); pass e.g. 100e9 and 0.8")
    return BITS_PER_BYTE * data_bytes / (link_bits_per_s * efficiency)


def transfer_cost_usd(data_bytes: float, usd_per_gb: float) -> float:
    """Cost = D·p: the provider bills each decimal gigabyte that leaves the region.

    Source: AWS EC2 on-demand pricing, 'Data Transfer' (per-GB rates).
    """
    if data_bytes < 0 or usd_per_gb < 0:
        raise ValueError(f"data_bytes and usd_per_gb must be >= 0 (got {data_bytes!r}, {usd_per_gb!r})")
    return data_bytes / BYTES_PER_GB * usd_per_gb


def tiered_cost_usd(data_bytes: float, tiers: tuple[tuple[float, float], ...]) -> float:
    """Cost under a tiered per-GB tariff: each gigabyte is billed at the rate of the tier it falls in.

    ``tiers`` are ``(upper bound in bytes, USD per GB)`` in increasing order; the last bound may be
    ``math.inf``. A flat price is one tier, ``((inf, p),)``. Source: AWS EC2 on-demand pricing, 'Data
    Transfer OUT to the internet' (first 10 TB, next 40 TB, next 100 TB, above 150 TB a month).
    """
    if data_bytes < 0 or any(p < 0 for _, p in tiers):
        raise ValueError(f"data_bytes and every tier's price must be >= 0 (got {data_bytes!r}, {tiers!r})")
    bounds = [b for b, _ in tiers]
    if bounds != sorted(bounds) or bounds[-1] < data_bytes:
        raise ValueError(f"tier bounds must increase and the last must reach {data_bytes!r} (got {bounds!r}); "
                         "end with math.inf")
    cost, below = 0.0, 0.0
    for bound, usd_per_gb in tiers:
        cost += transfer_cost_usd(max(0.0, min(data_bytes, bound) - below), usd_per_gb)
        below = bound
        if data_bytes <= bound:
            break
    return cost


def time_bought_s(cost_usd: float, usd_per_h: float) -> float:
    """How long a sum pays for a resource billed per hour: t = cost / price × 3,600 s.

    Source: definition.
    """
    if usd_per_h <= 0:
        raise ValueError(f"usd_per_h must be > 0 (got {usd_per_h!r}); pass an hourly price, e.g. 20")
    return cost_usd / usd_per_h * 3600.0
