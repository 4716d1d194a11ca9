"""Datacenter accelerators: H100 and A100 rates, memory and power, and the DGX H100 node."""

from pylabs.physics.constants.registry import spec

_H100_URL = "https://www.nvidia.com/en-us/data-center/h100/"
_H100_KLOCKWOOD_URL = "https://www.glennklockwood.com/garden/processors/H100"
_A100_URL = "https://www.nvidia.com/en-us/data-center/a100/"
_DGX_H100_URL = "https://docs.nvidia.com/dgx/dgxh100-user-guide/introduction-to-dgxh100.html"
_HOPPER_BLOG_URL = "https://developer.nvidia.com/blog/nvidia-hopper-architecture-in-depth/"

# H100 SXM
H100_PEAK_BF16_DENSE = spec(
    989.4e12, "FLOP/s", "NVIDIA H100 SXM datasheet, BF16/FP16 tensor core (dense; 1,979 is with sparsity)",
    _H100_URL, note="datasheet footnote: 'shown with sparsity; specifications 1/2 lower without'",
    label="H100 SXM peak, BF16 dense")
H100_PEAK_BF16_SPARSE = spec(
    1978.9e12, "FLOP/s", "NVIDIA H100 SXM datasheet, BF16/FP16 tensor core with 2:4 sparsity", _H100_KLOCKWOOD_URL,
    note="the seeds misused this as the dense peak; kept only to explain that error",
    label="H100 SXM peak, BF16 with 2:4 sparsity")
H100_PEAK_FP8_DENSE = spec(
    1978.9e12, "FLOP/s", "NVIDIA H100 SXM datasheet, FP8 tensor core (dense; 3,958 is with sparsity)", _H100_URL,
    label="H100 SXM peak, FP8 dense")
H100_PEAK_INT8_DENSE = spec(
    1978.9e12, "OP/s",
    "NVIDIA H100 SXM datasheet, INT8 tensor core: 3,958 TOPS with sparsity, half without (Klockwood's table: "
    "1,978.9 dense)", _H100_KLOCKWOOD_URL,
    note="numerically equal to the sparse BF16 figure, which is how the upstream '2,000,000x' arose",
    label="H100 SXM peak, INT8 dense")
H100_PEAK_TF32_DENSE = spec(
    494.7e12, "FLOP/s",
    "NVIDIA H100 SXM datasheet, TF32 tensor core: 989 TFLOPS with sparsity, half without (Klockwood's table: 494.7 "
    "dense)", _H100_KLOCKWOOD_URL, label="H100 SXM peak, TF32 dense (FP32 inputs on tensor cores)")
H100_PEAK_FP32 = spec(
    66.9e12, "FLOP/s", "NVIDIA H100 SXM datasheet, FP32 (non-tensor)", _H100_KLOCKWOOD_URL,
    label="H100 SXM peak, FP32 without tensor cores")
H100_HBM_BYTES = spec(
    80e9, "B", "NVIDIA H100 SXM datasheet (80 GB HBM3)", _H100_URL, label="H100 SXM memory (HBM3)")
H100_HBM_BW = spec(
    3.35e12, "B/s", "NVIDIA H100 SXM datasheet (HBM3, 3.35 TB/s)", _H100_URL, label="H100 SXM memory bandwidth")
H100_L2_BYTES = spec(
    50e6, "B",
    "NVIDIA Hopper Architecture In-Depth (technical blog): a 50 MB L2 cache in H100, 1.25x the A100's 40 MB",
    _HOPPER_BLOG_URL, note="handbook/labs/v1_05.md §5: upstream showed 40 MB, the A100's L2", label="H100 SXM L2 cache")
H100_TDP_W = spec(
    700.0, "W", "NVIDIA H100 SXM datasheet (max thermal design power)", _H100_URL, label="H100 SXM maximum power")

# A100
A100_PEAK_BF16_DENSE = spec(
    312e12, "FLOP/s", "NVIDIA A100 datasheet, BF16/FP16 tensor core (dense; 624 is with sparsity)", _A100_URL,
    label="A100 peak, BF16 dense")
A100_HBM_BYTES = spec(
    80e9, "B", "NVIDIA A100 SXM datasheet (80 GB HBM2e)", _A100_URL, label="A100 SXM memory (HBM2e)")
A100_HBM_BW = spec(
    2.039e12, "B/s", "NVIDIA A100 SXM 80 GB datasheet (HBM2e, 2,039 GB/s; the PCIe card is 1,935 GB/s)", _A100_URL,
    label="A100 SXM 80 GB memory bandwidth")
A100_TDP_W = spec(
    400.0, "W", "NVIDIA A100 SXM datasheet (max thermal design power, 400 W)", _A100_URL,
    label="A100 SXM maximum power")

# DGX H100 node
DGX_H100_GPUS_PER_NODE = spec(
    8.0, "GPUs", "NVIDIA DGX H100 user guide (8x H100 SXM per system)", _DGX_H100_URL,
    label="GPUs in one DGX H100")
DGX_H100_NICS = spec(
    8.0, "NICs", "NVIDIA DGX H100 user guide: 8x ConnectX-7 400 Gb/s, one per GPU (rail-optimised)", _DGX_H100_URL,
    note="8 x IB_NDR_BW = 400 GB/s node egress per direction", label="Network ports in one DGX H100")
DGX_H100_SYSTEM_POWER_W = spec(
    10.2e3, "W", "NVIDIA DGX H100 datasheet (system power ~10.2 kW max)",
    "https://www.nvidia.com/en-us/data-center/dgx-h100/",
    note="cited from the datasheet, not re-verified in the audit; about 1.28 kW per GPU",
    label="DGX H100 system power")
