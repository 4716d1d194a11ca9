"""The Iron Law of ML system latency, and the light barrier of a network round trip.

One request's latency is the sum of three terms: the bytes it moves over the memory bus, the
operations it runs on the compute units, and a fixed overhead (launches, framework, scheduling):

    T = D / BW + O / R + L        with O = I · D  (I: arithmetic intensity, op/B)

The sum assumes no overlap of memory and compute, so it is an upper bound on a well-pipelined
kernel; the roofline (``devices.attainable``) is the fully overlapped limit, max instead of sum.
Both agree on which term dominates. Below the ridge point R / BW the memory term is the larger.

A remote service adds the round trip of light in fibre: 2·d·k / v_f with v_f = c / n_g (group
index n_g of silica fibre) and k ≥ 1 the route's detour over the straight-line distance.

Units: bytes, operations, seconds, metres, B/s, op/s. Used by V1-02 (The Iron Law).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import constants as c
from .devices import Device


@dataclass(frozen=True)
class IronLaw:
    """The three terms of one request's latency, in seconds."""

    memory_s: float
    compute_s: float
    overhead_s: float

    @property
    def total_s(self) -> float:
        return self.memory_s + self.compute_s + self.overhead_s

    @property
    def memory_share(self) -> float:
        """The memory term's share of the whole latency (0–1)."""
        return self.memory_s / self.total_s

    @property
    def bound(self) -> str:
        """"memory" or "compute": the larger of the two data terms (overhead aside)."""
        return "memory" if self.memory_s >= self.compute_s else "compute"


def iron_law(bytes_moved: float, ops: float, mem_bw: float, peak_ops: float, overhead_s: float = 0.0) -> IronLaw:
    """T = D/BW + O/R + L, each term kept.
    Source: Williams, Waterman and Patterson 2009 (roofline terms), summed without overlap as the
    textbook's Iron Law of ML systems performance."""
    if bytes_moved < 0 or ops < 0 or overhead_s < 0:
        raise ValueError(f"bytes, ops and overhead must be non-negative, got {bytes_moved}, {ops}, {overhead_s}")
    return IronLaw(bytes_moved / mem_bw, ops / peak_ops, overhead_s)


def speedup(before_s: float, after_s: float) -> float:
    """How many times faster: T_before / T_after. Source: definition."""
    return before_s / after_s


def latency_reduction(before_s: float, after_s: float) -> float:
    """The share of latency removed, 1 − T_after / T_before (0.08 is "8 % lower"). Source: definition."""
    return 1.0 - after_s / before_s


def overhead_for_speedup_s(target: float, before: IronLaw, after: IronLaw) -> float:
    """The fixed overhead L (the same on both devices) at which the speedup falls to ``target``:
    (m₀ + c₀ + L) / (m₁ + c₁ + L) = s  ⇒  L = (m₀ + c₀ − s·(m₁ + c₁)) / (s − 1).
    Source: solving the Iron Law for L."""
    if target <= 1:
        raise ValueError(f"a speedup target must exceed 1, got {target}")
    data_before = before.memory_s + before.compute_s
    data_after = after.memory_s + after.compute_s
    return max(0.0, (data_before - target * data_after) / (target - 1))


def on_device(device: Device, bytes_moved: float, ops: float, overhead_s: float = 0.0) -> IronLaw:
    """The Iron Law on one device of the device table (its dense peak and memory bandwidth).
    Source: ``iron_law``."""
    return iron_law(bytes_moved, ops, device.mem_bw, device.peak_ops, overhead_s)


@dataclass(frozen=True)
class Upgrade:
    """One request before and after moving from device ``old`` to device ``new``."""

    before: IronLaw
    after: IronLaw
    old: Device
    new: Device

    @property
    def speedup(self) -> float:
        return speedup(self.before.total_s, self.after.total_s)

    @property
    def cut(self) -> float:
        return latency_reduction(self.before.total_s, self.after.total_s)

    @property
    def compute_ratio(self) -> float:
        """The upgrade on paper: new dense peak over old."""
        return self.new.peak_ops / self.old.peak_ops

    @property
    def bandwidth_ratio(self) -> float:
        return self.new.mem_bw / self.old.mem_bw


def compare(old: Device, new: Device, bytes_moved: float, ops: float, overhead_s: float = 0.0) -> Upgrade:
    """The same request on two devices. Source: ``on_device``."""
    return Upgrade(on_device(old, bytes_moved, ops, overhead_s), on_device(new, bytes_moved, ops, overhead_s), old, new)


# ---- the light barrier ------------------------------------------------------------------


def fibre_speed_m_per_s(group_index: float = c.FIBRE_GROUP_INDEX) -> float:
    """Speed of a light pulse in fibre, v = c / n_g.
    Source: SI definition of c; group index of standard single-mode fibre (ITU-T G.652 class)."""
    return c.SPEED_OF_LIGHT / group_index


def fibre_rtt_s(distance_m: float, route_factor: float = 1.0, group_index: float = c.FIBRE_GROUP_INDEX) -> float:
    """Round trip of light in fibre over a route ``route_factor`` times the straight distance:
    RTT = 2·d·k / v_f. Source: propagation delay only (no queueing, serialisation or switching)."""
    if distance_m < 0 or route_factor < 1:
        raise ValueError(f"need distance >= 0 and route factor >= 1, got {distance_m}, {route_factor}")
    return 2.0 * distance_m * route_factor / fibre_speed_m_per_s(group_index)


def max_distance_m(sla_s: float, inference_s: float, route_factor: float = 1.0,
                   group_index: float = c.FIBRE_GROUP_INDEX) -> float:
    """The farthest a service may sit and still answer within the SLA:
    d_max = (SLA − t_inf)·v_f / (2k), and 0 when inference alone misses the SLA.
    Source: ``fibre_rtt_s`` solved for d."""
    return max(0.0, sla_s - inference_s) * fibre_speed_m_per_s(group_index) / (2.0 * route_factor)
