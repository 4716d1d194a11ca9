"""The Volume I device table: one device per deployment context, from the one registry.

Each device has one "peak": the dense rate on its main ML data path (handbook/devices.md). Sparse
and advertised figures stay in the registry only to explain the errors they caused. The ridge
point of a device is where its roofline turns: peak / memory bandwidth, in operations per byte.

Source: handbook/devices.md; each value's citation is its registry entry.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import constants as c


@dataclass(frozen=True)
class Device:
    """A device as the labs model it; rates in operations per second, SI units throughout."""

    key: str            # the deployment context it serves: cloud, edge, mobile, tiny
    name: str
    peak_ops: float     # dense, on the main ML path (FLOP/s or OP/s; see ``precision``)
    precision: str      # what ``peak_ops`` counts, e.g. "BF16 dense"
    mem_bw: float       # B/s
    mem_bytes: float    # B, what a model may occupy (for the MCU: the largest contiguous SRAM)
    power_w: float      # W, sustained or maximum as the context reads it
    assumed: tuple[str, ...] = ()  # fields that are labelled assumptions, not vendor figures

    @property
    def ridge(self) -> float:
        """Operations per byte at which the device stops being memory-bound (Williams et al. 2009)."""
        return ridge_point(self.peak_ops, self.mem_bw)


def ridge_point(peak_ops: float, mem_bw: float) -> float:
    """Arithmetic intensity (op/B) where peak compute equals bandwidth × intensity.
    Source: Williams, Waterman and Patterson 2009, 'Roofline', CACM 52(4)."""
    return peak_ops / mem_bw


def attainable(peak_ops: float, mem_bw: float, intensity: float) -> float:
    """Roofline: the attainable rate min(peak, bandwidth × intensity) in op/s.
    Source: Williams, Waterman and Patterson 2009, 'Roofline', CACM 52(4)."""
    return min(peak_ops, mem_bw * intensity)


H100 = Device("cloud", "NVIDIA H100 SXM", c.H100_PEAK_BF16_DENSE, "BF16 dense",
              c.H100_HBM_BW, c.H100_HBM_BYTES, c.H100_TDP_W)
A100 = Device("cloud", "NVIDIA A100 SXM 80 GB", c.A100_PEAK_BF16_DENSE, "BF16 dense",
              c.A100_HBM_BW, c.A100_HBM_BYTES, c.A100_TDP_W)
ORIN_NX = Device("edge", "NVIDIA Jetson Orin NX 16 GB", c.ORIN_NX_PEAK_FP16_DENSE, "FP16 dense (GPU)",
                 c.ORIN_NX_MEM_BW, c.ORIN_NX_MEM_BYTES, c.ORIN_NX_POWER_MAX_W)
A17_PRO = Device("mobile", "Apple A17 Pro (iPhone 15 Pro)", c.A17_PRO_NPU_OPS, "Neural Engine, precision not stated",
                 c.A17_PRO_MEM_BW, c.A17_PRO_MEM_BYTES, c.PHONE_SUSTAINED_POWER_W,
                 assumed=("mem_bw", "power_w"))
STM32H743 = Device("tiny", "ST STM32H743 (Cortex-M7)", c.STM32H743_PEAK_FP32, "FP32 (one FMA per cycle)",
                   c.STM32H743_ONCHIP_BW, c.STM32H743_AXI_SRAM_BYTES, c.MCU_ACTIVE_POWER_W,
                   assumed=("mem_bw", "power_w"))

BY_CONTEXT: dict[str, Device] = {d.key: d for d in (H100, ORIN_NX, A17_PRO, STM32H743)}
