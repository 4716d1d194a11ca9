"""The one registry of cited constants: hardware, model-shape and published-run facts.

Every entry is a frozen ``Spec`` with its value in SI units, the unit string, a short
citation and, where one exists, a public URL. The module-level names below repeat
``REGISTRY[name].value`` so that readers and linters see every name; a test checks that
the two agree. Pedagogical defaults (prices, slider positions) do not belong here.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Spec:
    """One cited constant: value in SI units, its unit, and where it comes from."""

    value: float
    unit: str
    source: str
    url: str = ""
    note: str = ""


_H100_URL = "https://www.nvidia.com/en-us/data-center/h100/"
_H100_KLOCKWOOD_URL = "https://www.glennklockwood.com/garden/processors/H100"
_A100_URL = "https://www.nvidia.com/en-us/data-center/a100/"
_SCALING_BOOK_GPUS_URL = "https://jax-ml.github.io/scaling-book/gpus/"
_SCALING_BOOK_TRAINING_URL = "https://jax-ml.github.io/scaling-book/applied-training/"
_PCIE_URL = "https://pcisig.com/specifications"
_DGX_H100_URL = "https://docs.nvidia.com/dgx/dgxh100-user-guide/introduction-to-dgxh100.html"
_ZERO_URL = "https://arxiv.org/abs/1910.02054"
_GPT3_URL = "https://arxiv.org/abs/2005.14165"
_MEGATRON_GPT3_URL = (
    "https://github.com/NVIDIA/Megatron-LM/blob/main/examples/gpt3/"
    "train_gpt3_175b_distributed.sh"
)
_MEGATRON_README_URL = "https://github.com/NVIDIA/Megatron-LM#readme"
_EPOCH_URL = "https://epoch.ai/data/notable-ai-models"

_PCIE_ENCODING = 128 / 130  # 128b/130b line code used by PCIe 3.0 and later

REGISTRY: dict[str, Spec] = {
    # ---- H100 SXM compute and memory ----
    "H100_PEAK_BF16_DENSE": Spec(
        989.4e12, "FLOP/s",
        "NVIDIA H100 SXM datasheet, BF16/FP16 tensor core (dense; 1,979 is with sparsity)",
        _H100_URL,
        "datasheet footnote: 'shown with sparsity; specifications 1/2 lower without'",
    ),
    "H100_PEAK_BF16_SPARSE": Spec(
        1978.9e12, "FLOP/s",
        "NVIDIA H100 SXM datasheet, BF16/FP16 tensor core with 2:4 sparsity",
        _H100_KLOCKWOOD_URL,
        "the seeds misused this as the dense peak; kept only to explain that error",
    ),
    "H100_PEAK_FP8_DENSE": Spec(
        1978.9e12, "FLOP/s",
        "NVIDIA H100 SXM datasheet, FP8 tensor core (dense; 3,958 is with sparsity)",
        _H100_URL,
    ),
    "H100_HBM_BYTES": Spec(
        80e9, "B", "NVIDIA H100 SXM datasheet (80 GB HBM3)", _H100_URL,
    ),
    "H100_HBM_BW": Spec(
        3.35e12, "B/s", "NVIDIA H100 SXM datasheet (HBM3, 3.35 TB/s)", _H100_URL,
    ),
    "H100_TDP_W": Spec(
        700.0, "W", "NVIDIA H100 SXM datasheet (max thermal design power)", _H100_URL,
    ),
    "A100_PEAK_BF16_DENSE": Spec(
        312e12, "FLOP/s",
        "NVIDIA A100 datasheet, BF16/FP16 tensor core (dense; 624 is with sparsity)",
        _A100_URL,
    ),
    # ---- interconnect, per GPU or per port, per direction ----
    "NVLINK4_BW": Spec(
        450e9, "B/s",
        "Austin et al., How to Scale Your Model, 'How to Think About GPUs' (NVLink 4)",
        _SCALING_BOOK_GPUS_URL,
        "18 links x 25 GB/s per GPU per direction; the datasheet's 900 GB/s sums both",
    ),
    "NVLINK4_ALLREDUCE_BUSBW_MEASURED": Spec(
        370e9, "B/s",
        "Austin et al., How to Scale Your Model (NCCL AllReduce on 8xH100, no SHARP)",
        _SCALING_BOOK_GPUS_URL,
        "read off an empirical plot; about 480 GB/s with NVLS (in-switch reduction)",
    ),
    "IB_NDR_BW": Spec(
        50e9, "B/s",
        "InfiniBand NDR port, 400 Gb/s per direction (scaling book 'NDR 50GB/s')",
        _SCALING_BOOK_GPUS_URL, "400e9 bit/s / 8",
    ),
    "IB_HDR_BW": Spec(
        25e9, "B/s", "InfiniBand HDR port, 200 Gb/s per direction", _SCALING_BOOK_GPUS_URL,
        "200e9 bit/s / 8",
    ),
    "PCIE4_X16_BW": Spec(
        16e9 * 16 * _PCIE_ENCODING / 8, "B/s",
        "PCI-SIG PCIe 4.0 base spec: 16 GT/s per lane, 128b/130b encoding", _PCIE_URL,
        "16e9 transfers/s x 16 lanes x 128/130 / 8 bits, per direction (31.5 GB/s)",
    ),
    "PCIE5_X16_BW": Spec(
        32e9 * 16 * _PCIE_ENCODING / 8, "B/s",
        "PCI-SIG PCIe 5.0 base spec: 32 GT/s per lane, 128b/130b encoding", _PCIE_URL,
        "32e9 transfers/s x 16 lanes x 128/130 / 8 bits, per direction (63.0 GB/s); "
        "the H100 datasheet's 128 GB/s is both directions",
    ),
    "ETH_100G_BW": Spec(
        12.5e9, "B/s", "IEEE 802.3 100 Gigabit Ethernet, per direction",
        "https://www.ieee802.org/3/ba/", "100e9 bit/s / 8",
    ),
    "IB_ALPHA_S": Spec(
        1.5e-6, "s",
        "per-message inter-node latency assumed by the V2-06 seed lab, typical of InfiniBand",
        "",
        "a teaching assumption, not a measured figure for one fabric",
    ),
    # ---- DGX H100 node ----
    "DGX_H100_GPUS_PER_NODE": Spec(
        8.0, "GPUs", "NVIDIA DGX H100 user guide (8x H100 SXM per system)", _DGX_H100_URL,
    ),
    "DGX_H100_NICS": Spec(
        8.0, "NICs",
        "NVIDIA DGX H100 user guide: 8x ConnectX-7 400 Gb/s, one per GPU (rail-optimised)",
        _DGX_H100_URL,
        "8 x IB_NDR_BW = 400 GB/s node egress per direction",
    ),
    "DGX_H100_SYSTEM_POWER_W": Spec(
        10.2e3, "W", "NVIDIA DGX H100 datasheet (system power ~10.2 kW max)",
        "https://www.nvidia.com/en-us/data-center/dgx-h100/",
        "cited from the datasheet, not re-verified in the audit; about 1.28 kW per GPU",
    ),
    # ---- numeric formats and optimizer state ----
    "BYTES_PER_BF16": Spec(
        2.0, "B", "bfloat16 format: 16 bits per value (1 sign, 8 exponent, 7 mantissa bits)",
        "https://cloud.google.com/tpu/docs/bfloat16",
    ),
    "ADAM_MIXED_PRECISION_BYTES_PER_PARAM": Spec(
        16.0, "B",
        "Rajbhandari et al. 2020, ZeRO, Sec. 3.1: (2 + 2 + K) bytes/param with K = 12",
        _ZERO_URL,
        "bf16 weights 2 + bf16 grads 2 + fp32 master weights, momentum, variance 12",
    ),
    "ADAM_OPTIMIZER_BYTES_PER_PARAM": Spec(
        12.0, "B", "Rajbhandari et al. 2020, ZeRO, Sec. 3.1: K = 12 for mixed-precision Adam",
        _ZERO_URL, "fp32 master weights 4 + momentum 4 + variance 4",
    ),
    # ---- GPT-3 175B shape (Brown et al. 2020, Table 2.1) ----
    "GPT3_PARAMS": Spec(
        175e9, "params", "Brown et al. 2020, Language Models are Few-Shot Learners, Table 2.1",
        _GPT3_URL,
    ),
    "GPT3_LAYERS": Spec(96.0, "layers", "Brown et al. 2020, Table 2.1", _GPT3_URL),
    "GPT3_HIDDEN": Spec(12288.0, "1", "Brown et al. 2020, Table 2.1 (d_model)", _GPT3_URL),
    "GPT3_HEADS": Spec(96.0, "heads", "Brown et al. 2020, Table 2.1", _GPT3_URL),
    "GPT3_SEQ": Spec(2048.0, "tokens", "Brown et al. 2020, Sec. 2.1 (context window)", _GPT3_URL),
    "GPT3_TOKENS": Spec(
        300e9, "tokens", "Brown et al. 2020, Sec. 2.2 (training tokens)", _GPT3_URL,
    ),
    # ---- Megatron-LM's GPT-3 175B example run ----
    "MEGATRON_GPT3_GLOBAL_BATCH": Spec(
        1536.0, "sequences",
        "NVIDIA Megatron-LM examples/gpt3/train_gpt3_175b_distributed.sh (--global-batch-size)",
        _MEGATRON_GPT3_URL,
    ),
    "MEGATRON_GPT3_MICRO_BATCH": Spec(
        1.0, "sequences",
        "NVIDIA Megatron-LM examples/gpt3/train_gpt3_175b_distributed.sh (--micro-batch-size)",
        _MEGATRON_GPT3_URL,
    ),
    "MEGATRON_GPT3_TP": Spec(
        8.0, "GPUs",
        "NVIDIA Megatron-LM examples/gpt3/train_gpt3_175b_distributed.sh "
        "(--tensor-model-parallel-size)",
        _MEGATRON_GPT3_URL,
    ),
    "MEGATRON_GPT3_PP": Spec(
        16.0, "GPUs",
        "NVIDIA Megatron-LM examples/gpt3/train_gpt3_175b_distributed.sh "
        "(--pipeline-model-parallel-size)",
        _MEGATRON_GPT3_URL,
    ),
    "MEGATRON_GPT3_GPUS": Spec(
        1024.0, "GPUs",
        "NVIDIA Megatron-LM README: the GPT-3 175B example runs 'on 1024 GPUs'",
        _MEGATRON_README_URL,
        "data-parallel degree = 1024 / (8 x 16) = 8",
    ),
    # ---- published training runs and compute estimates ----
    "LLAMA3_70B_PARAMS": Spec(
        70e9, "params", "Meta Llama 3 model card (70B)",
        "https://github.com/meta-llama/llama3/blob/main/MODEL_CARD.md",
    ),
    "LLAMA3_70B_TOKENS": Spec(
        15e12, "tokens", "Meta Llama 3 model card (pretrained on over 15T tokens)",
        "https://github.com/meta-llama/llama3/blob/main/MODEL_CARD.md",
    ),
    "LLAMA3_70B_TRAIN_FLOPS": Spec(
        6.3e24, "FLOP",
        "Austin et al., How to Scale Your Model (Llama-3-70B-class run, 6ND)",
        _SCALING_BOOK_TRAINING_URL, "6 x 70e9 params x 15e12 tokens",
    ),
    "GPT4_TRAIN_FLOPS": Spec(
        2.1e25, "FLOP", "Epoch AI, Notable AI Models database (GPT-4 estimate)", _EPOCH_URL,
        "an outside estimate; OpenAI has not published the figure",
    ),
    # ---- time ----
    "HOURS_PER_YEAR": Spec(
        8760.0, "h/year", "365-day year x 24 h (convention used by the TCO labs)", "",
        "365 x 24",
    ),
    # ---- seed-lab corrections (V2-01, V2-02, V2-09; issue 10) ----
    "LLAMA3_70B_LAYERS": Spec(
        80.0, "layers", "Meta Llama 3 70B config.json (num_hidden_layers)",
        "https://huggingface.co/meta-llama/Meta-Llama-3-70B/blob/main/config.json",
    ),
    "LLAMA3_SEQ": Spec(
        8192.0, "tokens", "Meta Llama 3 70B config.json (max_position_embeddings, the training context)",
        "https://huggingface.co/meta-llama/Meta-Llama-3-70B/blob/main/config.json",
    ),
    "IB_XDR_BW": Spec(
        100e9, "B/s", "NVIDIA ConnectX-8 SuperNIC user manual: InfiniBand XDR at up to 800 Gb/s",
        "https://docs.nvidia.com/networking/display/connectx8supernic/introduction",
        "800 Gb/s / 8 = 100 GB/s per direction",
    ),
}

# ---- module-level names (each equals REGISTRY[name].value; a test checks this) ----
H100_PEAK_BF16_DENSE = REGISTRY["H100_PEAK_BF16_DENSE"].value
H100_PEAK_BF16_SPARSE = REGISTRY["H100_PEAK_BF16_SPARSE"].value
H100_PEAK_FP8_DENSE = REGISTRY["H100_PEAK_FP8_DENSE"].value
H100_HBM_BYTES = REGISTRY["H100_HBM_BYTES"].value
H100_HBM_BW = REGISTRY["H100_HBM_BW"].value
H100_TDP_W = REGISTRY["H100_TDP_W"].value
A100_PEAK_BF16_DENSE = REGISTRY["A100_PEAK_BF16_DENSE"].value
NVLINK4_BW = REGISTRY["NVLINK4_BW"].value
NVLINK4_ALLREDUCE_BUSBW_MEASURED = REGISTRY["NVLINK4_ALLREDUCE_BUSBW_MEASURED"].value
IB_NDR_BW = REGISTRY["IB_NDR_BW"].value
IB_HDR_BW = REGISTRY["IB_HDR_BW"].value
PCIE4_X16_BW = REGISTRY["PCIE4_X16_BW"].value
PCIE5_X16_BW = REGISTRY["PCIE5_X16_BW"].value
ETH_100G_BW = REGISTRY["ETH_100G_BW"].value
IB_ALPHA_S = REGISTRY["IB_ALPHA_S"].value
DGX_H100_GPUS_PER_NODE = REGISTRY["DGX_H100_GPUS_PER_NODE"].value
DGX_H100_NICS = REGISTRY["DGX_H100_NICS"].value
DGX_H100_SYSTEM_POWER_W = REGISTRY["DGX_H100_SYSTEM_POWER_W"].value
BYTES_PER_BF16 = REGISTRY["BYTES_PER_BF16"].value
ADAM_MIXED_PRECISION_BYTES_PER_PARAM = REGISTRY["ADAM_MIXED_PRECISION_BYTES_PER_PARAM"].value
ADAM_OPTIMIZER_BYTES_PER_PARAM = REGISTRY["ADAM_OPTIMIZER_BYTES_PER_PARAM"].value
GPT3_PARAMS = REGISTRY["GPT3_PARAMS"].value
GPT3_LAYERS = REGISTRY["GPT3_LAYERS"].value
GPT3_HIDDEN = REGISTRY["GPT3_HIDDEN"].value
GPT3_HEADS = REGISTRY["GPT3_HEADS"].value
GPT3_SEQ = REGISTRY["GPT3_SEQ"].value
GPT3_TOKENS = REGISTRY["GPT3_TOKENS"].value
MEGATRON_GPT3_GLOBAL_BATCH = REGISTRY["MEGATRON_GPT3_GLOBAL_BATCH"].value
MEGATRON_GPT3_MICRO_BATCH = REGISTRY["MEGATRON_GPT3_MICRO_BATCH"].value
MEGATRON_GPT3_TP = REGISTRY["MEGATRON_GPT3_TP"].value
MEGATRON_GPT3_PP = REGISTRY["MEGATRON_GPT3_PP"].value
MEGATRON_GPT3_GPUS = REGISTRY["MEGATRON_GPT3_GPUS"].value
LLAMA3_70B_PARAMS = REGISTRY["LLAMA3_70B_PARAMS"].value
LLAMA3_70B_TOKENS = REGISTRY["LLAMA3_70B_TOKENS"].value
LLAMA3_70B_TRAIN_FLOPS = REGISTRY["LLAMA3_70B_TRAIN_FLOPS"].value
GPT4_TRAIN_FLOPS = REGISTRY["GPT4_TRAIN_FLOPS"].value
HOURS_PER_YEAR = REGISTRY["HOURS_PER_YEAR"].value
LLAMA3_70B_LAYERS = REGISTRY["LLAMA3_70B_LAYERS"].value
LLAMA3_SEQ = REGISTRY["LLAMA3_SEQ"].value
IB_XDR_BW = REGISTRY["IB_XDR_BW"].value
