"""Kernel launches, fusion and compilation: where a framework's time goes between the kernels.

A model runs as a stream of kernels. The CPU spends ``cpu_s`` dispatching each one (framework,
driver, launch call); the GPU spends ``gpu_s`` running it. CUDA launches are asynchronous: the
CPU queues the next kernel while the GPU runs the last one, so in steady state each kernel costs
max(cpu, gpu). Only when every launch waits for its kernel to finish (a synchronisation after
each one) do the two add up. Fusion merges kernels (fewer launches, fewer trips to memory);
compilation pays a one-off cost for a faster per-item rate.

Source: handbook/labs/v1_07.md §2; NVIDIA CUDA Programming Guide, asynchronous
execution and CUDA Graphs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


def async_stream_seconds(n_kernels: float, cpu_s: float, gpu_s: float) -> float:
    """Steady-state time of ``n_kernels`` launched asynchronously: n · max(t_cpu, t_gpu)
    (one pipeline fill of at most one kernel is left out).
    Source: handbook/labs/v1_07.md §2; CUDA Programming Guide, 'Asynchronous Concurrent Execution'."""
    return n_kernels * max(cpu_s, gpu_s)


def sync_stream_seconds(n_kernels: float, cpu_s: float, gpu_s: float) -> float:
    """Time of ``n_kernels`` when each launch waits for its kernel: n · (t_cpu + t_gpu).
    Source: handbook/labs/v1_07.md §2."""
    return n_kernels * (cpu_s + gpu_s)


def busy_fraction(gpu_work_s: float, total_s: float) -> float:
    """Share of the wall-clock time the GPU is running kernels: Σt_gpu / T (0 when T is 0).
    Source: handbook/labs/v1_07.md §2."""
    return gpu_work_s / total_s if total_s > 0 else 0.0


@dataclass(frozen=True)
class KernelStream:
    """One inference as a stream of identical kernels: count, CPU dispatch and GPU time each (s)."""

    n_kernels: float
    cpu_s: float
    gpu_s: float
    synchronous: bool = False

    @property
    def seconds(self) -> float:
        if self.synchronous:
            return sync_stream_seconds(self.n_kernels, self.cpu_s, self.gpu_s)
        return async_stream_seconds(self.n_kernels, self.cpu_s, self.gpu_s)

    @property
    def gpu_work_s(self) -> float:
        return self.n_kernels * self.gpu_s

    @property
    def busy(self) -> float:
        return busy_fraction(self.gpu_work_s, self.seconds)

    @property
    def idle_s(self) -> float:
        return self.seconds - self.gpu_work_s

    @property
    def launch_bound(self) -> bool:
        """The CPU's dispatch, not the GPU, sets the pace (asynchronous launches only)."""
        return not self.synchronous and self.cpu_s > self.gpu_s


def fused_stream(stream: KernelStream, fused_fraction: float) -> KernelStream:
    """Merge a fraction f of the kernels away: n' = n(1 − f) kernels, each doing the GPU work of
    the kernels it replaced (conservative: the memory traffic fusion saves is not subtracted).
    Source: handbook/labs/v1_07.md §2."""
    if not 0 <= fused_fraction < 1:
        raise ValueError(f"fused fraction must be in [0, 1), got {fused_fraction}")
    kept = stream.n_kernels * (1 - fused_fraction)
    return KernelStream(kept, stream.cpu_s, stream.gpu_work_s / kept, stream.synchronous)


# ---- fusing a chain of elementwise kernels ------------------------------------------------


def elementwise_bytes(tensor_bytes: float, n_ops: int, fused: bool) -> float:
    """Memory traffic of a chain of ``n_ops`` elementwise kernels on one tensor of S bytes: each
    kernel reads it once and writes it once (2S); fused, the chain reads and writes it once.
    Source: handbook/labs/v1_07.md §2; Williams, Waterman and Patterson 2009 (traffic sets the time)."""
    return 2 * tensor_bytes * (1 if fused else n_ops)


def elementwise_chain_seconds(tensor_bytes: float, n_ops: int, mem_bw: float, cpu_s: float,
                              fused: bool) -> float:
    """Asynchronous time of the chain: each kernel costs max(t_cpu, 2S/B); fused, one kernel.
    T_unfused = n · max(t_cpu, 2S/B), T_fused = max(t_cpu, 2S/B), so fusion gives n× whether
    the chain is launch-bound or bandwidth-bound. Source: handbook/labs/v1_07.md §2."""
    kernels = 1 if fused else n_ops
    return kernels * max(cpu_s, elementwise_bytes(tensor_bytes, 1, True) / mem_bw)


def gemm_seconds(m: float, n: float, k: float, bytes_per_value: float, peak_flops: float,
                 mem_bw: float) -> float:
    """Roofline time of one GEMM (M×K by K×N): 2MNK FLOP at min(peak, B · intensity), where the
    intensity counts one read of A and B and one write of C. Source: Williams et al. 2009."""
    flop = 2 * m * n * k
    traffic = bytes_per_value * (m * k + k * n + m * n)
    rate = min(peak_flops, mem_bw * flop / traffic)
    return flop / rate


# ---- compilation break-even -------------------------------------------------------------


def compile_breakeven_items(compile_s: float, eager_rate: float, compiled_rate: float,
                            compiles: float = 1) -> float:
    """Items after which compiling has paid for itself in GPU time:
    N* = k · t_compile / (1/R_eager − 1/R_compiled); infinite if compiling is no faster.
    Source: handbook/labs/v1_07.md §2; Ansel et al. 2024 (PyTorch 2, torch.compile)."""
    saved_per_item = 1 / eager_rate - 1 / compiled_rate
    if saved_per_item <= 0:
        return math.inf
    return compiles * compile_s / saved_per_item


def compile_net_seconds_saved(items: float, compile_s: float, eager_rate: float, compiled_rate: float,
                              compiles: float = 1) -> float:
    """GPU time saved by compiling, net of the compilations: N(1/R_e − 1/R_c) − k · t_compile.
    Source: handbook/labs/v1_07.md §2."""
    return items * (1 / eager_rate - 1 / compiled_rate) - compiles * compile_s


@dataclass(frozen=True)
class CompiledDeployment:
    """A compiled model in service between two recompilations: ``compiles`` compilations of
    ``compile_s`` each against the GPU time ``requests_per_s`` of traffic saves over ``duration_s``.
    Rates in items per second. Source: handbook/labs/v1_07.md §2; failure when volume < N*."""

    compile_s: float
    eager_rate: float
    compiled_rate: float
    compiles: float
    duration_s: float
    requests_per_s: float

    @property
    def saved_per_item(self) -> float:
        """GPU time each item saves once compiled: 1/R_eager − 1/R_compiled (s; negative if slower)."""
        return 1 / self.eager_rate - 1 / self.compiled_rate

    @property
    def saves(self) -> bool:
        """Is the compiled model faster, so that some volume repays the compilations?"""
        return self.saved_per_item > 0

    @property
    def breakeven(self) -> float:
        return compile_breakeven_items(self.compile_s, self.eager_rate, self.compiled_rate, self.compiles)

    @property
    def volume(self) -> float:
        return self.requests_per_s * self.duration_s

    @property
    def breakeven_s(self) -> float:
        """Time for the traffic to reach the break-even volume (infinite if it never pays back)."""
        return self.breakeven / self.requests_per_s

    @property
    def net_gpu_s(self) -> float:
        return compile_net_seconds_saved(self.volume, self.compile_s, self.eager_rate, self.compiled_rate,
                                         self.compiles)

    @property
    def pays_back(self) -> bool:
        return self.volume >= self.breakeven

    def gpu_s(self, items: float, compiled: bool) -> float:
        """Cumulative GPU time to serve ``items``, the compilations included when compiled."""
        if compiled:
            return self.compiles * self.compile_s + items / self.compiled_rate
        return items / self.eager_rate
