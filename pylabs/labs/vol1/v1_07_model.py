"""The scenario and the model of V1-07 (The Kernel Fusion Dividend): the kernel streams of Act I in each
launch mode, and the elementwise chain and the compile break-even of Act II. The lab module (``v1_07``)
reads like its page; this is its model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pylabs.physics import constants as C
from pylabs.physics import kernels
from pylabs.physics import units as U
from pylabs.physics.devices import A100, ORIN_NX, Device
from pylabs.physics.kernels import CompiledDeployment as Deployment
from pylabs.physics.kernels import KernelStream


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs (handbook/labs/v1_07.md); hardware facts come from the device table."""

    # Act I: each model as a stream of identical kernels: (key, name, kernels, GPU time per kernel)
    models: tuple[tuple[str, str, int, float], ...] = (
        ("kws", "Keyword spotting", 1000, 5e-6),
        ("resnet", "ResNet-50", 200, 50e-6),
        ("gpt2", "GPT-2 layer", 20, 500e-6),
    )
    cloud_cpu_s: float = 10e-6        # the chapter's 5–20 µs range (HTA confirms it)
    edge_cpu_s: float = 50e-6         # assumed: slower Arm cores; no published figure
    fused_fraction: float = 0.5       # the "fused" mode merges half the kernels away
    fast_gpu: float = 2.0             # the faster GPU's speed-up
    # Act II: fusion panel, LayerNorm → Dropout → ReLU on a 1024 × 768 FP16 activation
    chain_ops: int = 3
    tensor_rows: int = 1024
    tensor_cols: int = 768
    gemm_dim: float = 4096.0          # one large square FP16 GEMM, for contrast
    fp16_bytes: float = 2.0
    # Act II: compile break-even (ResNet-50 with torch.compile)
    compile_s: float = 30.0
    cloud_eager_rate: float = 1450.0  # images/s, the chapter's A100 figures
    cloud_compiled_rate: float = 2150.0
    edge_eager_rate: float = 150.0    # assumed (spec estimate for the Orin NX)
    edge_compiled_rate: float = 222.0
    cloud_requests_per_s: float = 10e6 / 86400.0   # 10 M requests a day
    edge_requests_per_s: float = 100 / 3600      # 100 requests an hour
    deployment_s: float = 86400.0     # one day between recompilations
    replicas_example: int = 4
    upstream_fusion_x: float = 5.0    # upstream's reflection key: "~5× wall-clock" for 3 ops fused


S = Scenario()
TENSOR_BYTES = S.tensor_rows * S.tensor_cols * S.fp16_bytes
MODELS = {key: (name, n, gpu_s) for key, name, n, gpu_s in S.models}
DEVICES: dict[str, Device] = {"cloud": A100, "edge": ORIN_NX}
REQUESTS_PER_S = {"cloud": S.cloud_requests_per_s, "edge": S.edge_requests_per_s}
DISPATCH_S = {"cloud": S.cloud_cpu_s, "edge": S.edge_cpu_s}  # the context's eager dispatch per kernel


# ---- Act I · The launch tax ----------------------------------------------------------


def stream(model: str, cpu_s: float, mode: str, fast: bool) -> KernelStream:
    """One inference of ``model`` launched in ``mode``."""
    _, n, gpu_s = MODELS[model]
    gpu_s = gpu_s / S.fast_gpu if fast else gpu_s
    if mode == "graphs":
        cpu_s = C.CUDA_GRAPH_PER_KERNEL_S
    base = KernelStream(n, cpu_s, gpu_s, synchronous=mode == "sync")
    return kernels.fused_stream(base, S.fused_fraction) if mode == "fused" else base


def dispatch_share(st: KernelStream, mode: str, launch_s: float) -> float:
    """Share of the inference time the CPU spends dispatching: n · t_cpu / T; a CUDA graph is one
    launch (``launch_s``) for the whole stream, its per-kernel cost being the GPU's, not the CPU's."""
    busy_s = launch_s if mode == "graphs" else st.n_kernels * st.cpu_s
    return min(1.0, busy_s / st.seconds)


def scenario_stream(context: str, mode: str = "async", fast: bool = False) -> KernelStream:
    """The question's keyword-spotting inference at the context's dispatch time."""
    return stream("kws", DISPATCH_S[context], mode, fast)


def act1_truth(context: str) -> float:
    """The CPU's dispatching share of one inference, launched asynchronously, in ``context``."""
    return dispatch_share(scenario_stream(context), "async", DISPATCH_S[context])


def busy_sweep(model: str, modes: tuple[str, ...], fast: bool) -> tuple[list[float], dict[str, list[float]]]:
    """The busy-share chart's data: dispatch times from 1 to 50 µs, and the busy share in each mode at each."""
    cpus = [c / U.US_PER_S for c in range(1, 51)]
    return cpus, {m: [stream(model, c, m, fast).busy for c in cpus] for m in modes}


# ---- Act II · The compile break-even ------------------------------------------------

CLOUD = Deployment(S.compile_s, S.cloud_eager_rate, S.cloud_compiled_rate, 1, S.deployment_s, S.cloud_requests_per_s)
EDGE = Deployment(S.compile_s, S.edge_eager_rate, S.edge_compiled_rate, 1, S.deployment_s, S.edge_requests_per_s)


DEPLOYMENTS = {"cloud": CLOUD, "edge": EDGE}


def act2_truth(context: str) -> float:
    """Seconds of the context's traffic before one compilation has paid for itself in GPU time."""
    return DEPLOYMENTS[context].breakeven_s


def chain_s(device: Device, ops: int, cpu_s: float, fused: bool) -> float:
    return kernels.elementwise_chain_seconds(TENSOR_BYTES, ops, device.mem_bw, cpu_s, fused)


def chain_speedup(device: Device, ops: int, cpu_s: float) -> float:
    """The chain's time with one kernel per op over its time fused."""
    return chain_s(device, ops, cpu_s, False) / chain_s(device, ops, cpu_s, True)


def volume_sweep(d: Deployment) -> tuple[list[float], float, float]:
    """The break-even chart's image counts: 61 on a log scale from 30 times below the smaller of the
    volume and the break-even to 30 times above the larger, with those two ends."""
    marks = [v for v in (d.volume, d.breakeven) if math.isfinite(v)]
    low, high = min(marks) / 30, max(marks) * 30
    return [low * (high / low) ** (i / 60) for i in range(61)], low, high


def gemm_s(device: Device) -> float:
    """One large square FP16 GEMM on the device, at its roofline (the fusion panel's contrast)."""
    n = S.gemm_dim
    return kernels.gemm_seconds(n, n, n, S.fp16_bytes, device.peak_ops, device.mem_bw)
