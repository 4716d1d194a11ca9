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
    note: str = ""   # for maintainers (why this value, what it replaced); not shown to students
    label: str = ""  # what a student reads on the Sources page; empty: derived from the name


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
_LLAMA3_70B_HF_URL = "https://huggingface.co/meta-llama/Meta-Llama-3-70B"
_LLAMA3_70B_CONFIG_URL = "https://huggingface.co/meta-llama/Meta-Llama-3-70B/blob/main/config.json"
_LLAMA3_8B_HF_URL = "https://huggingface.co/meta-llama/Meta-Llama-3-8B"
_LLAMA3_8B_CONFIG_URL = "https://huggingface.co/meta-llama/Meta-Llama-3-8B/blob/main/config.json"
_VLLM_ARGS_URL = "https://docs.vllm.ai/en/latest/models/engine_args.html"

_PCIE_ENCODING = 128 / 130  # 128b/130b line code used by PCIe 3.0 and later

REGISTRY: dict[str, Spec] = {
    # ---- H100 SXM compute and memory ----
    "H100_PEAK_BF16_DENSE": Spec(
        989.4e12, "FLOP/s",
        "NVIDIA H100 SXM datasheet, BF16/FP16 tensor core (dense; 1,979 is with sparsity)",
        _H100_URL,
        "datasheet footnote: 'shown with sparsity; specifications 1/2 lower without'",
        label='H100 SXM peak, BF16 dense',
    ),
    "H100_PEAK_BF16_SPARSE": Spec(
        1978.9e12, "FLOP/s",
        "NVIDIA H100 SXM datasheet, BF16/FP16 tensor core with 2:4 sparsity",
        _H100_KLOCKWOOD_URL,
        "the seeds misused this as the dense peak; kept only to explain that error",
        label='H100 SXM peak, BF16 with 2:4 sparsity',
    ),
    "H100_PEAK_FP8_DENSE": Spec(
        1978.9e12, "FLOP/s",
        "NVIDIA H100 SXM datasheet, FP8 tensor core (dense; 3,958 is with sparsity)",
        _H100_URL,
        label='H100 SXM peak, FP8 dense',
    ),
    "H100_HBM_BYTES": Spec(
        80e9, "B", "NVIDIA H100 SXM datasheet (80 GB HBM3)", _H100_URL,
        label='H100 SXM memory (HBM3)',
    ),
    "H100_HBM_BW": Spec(
        3.35e12, "B/s", "NVIDIA H100 SXM datasheet (HBM3, 3.35 TB/s)", _H100_URL,
        label='H100 SXM memory bandwidth',
    ),
    "H100_TDP_W": Spec(
        700.0, "W", "NVIDIA H100 SXM datasheet (max thermal design power)", _H100_URL,
        label='H100 SXM maximum power',
    ),
    "A100_PEAK_BF16_DENSE": Spec(
        312e12, "FLOP/s",
        "NVIDIA A100 datasheet, BF16/FP16 tensor core (dense; 624 is with sparsity)",
        _A100_URL,
        label='A100 peak, BF16 dense',
    ),
    # ---- interconnect, per GPU or per port, per direction ----
    "NVLINK4_BW": Spec(
        450e9, "B/s",
        "Austin et al., How to Scale Your Model, 'How to Think About GPUs' (NVLink 4)",
        _SCALING_BOOK_GPUS_URL,
        "18 links x 25 GB/s per GPU per direction; the datasheet's 900 GB/s sums both",
        label='NVLink 4 bandwidth per GPU, per direction',
    ),
    "NVLINK4_ALLREDUCE_BUSBW_MEASURED": Spec(
        370e9, "B/s",
        "Austin et al., How to Scale Your Model (NCCL AllReduce on 8xH100, no SHARP)",
        _SCALING_BOOK_GPUS_URL,
        "read off an empirical plot; about 480 GB/s with NVLS (in-switch reduction)",
        label='Measured NVLink all-reduce bus bandwidth, 8 × H100',
    ),
    "IB_NDR_BW": Spec(
        50e9, "B/s",
        "InfiniBand NDR port, 400 Gb/s per direction (scaling book 'NDR 50GB/s')",
        _SCALING_BOOK_GPUS_URL, "400e9 bit/s / 8",
        label='InfiniBand NDR port, per direction',
    ),
    "IB_HDR_BW": Spec(
        25e9, "B/s", "InfiniBand HDR port, 200 Gb/s per direction", _SCALING_BOOK_GPUS_URL,
        "200e9 bit/s / 8",
        label='InfiniBand HDR port, per direction',
    ),
    "PCIE4_X16_BW": Spec(
        16e9 * 16 * _PCIE_ENCODING / 8, "B/s",
        "PCI-SIG PCIe 4.0 base spec: 16 GT/s per lane, 128b/130b encoding", _PCIE_URL,
        "16e9 transfers/s x 16 lanes x 128/130 / 8 bits, per direction (31.5 GB/s)",
        label='PCIe 4.0 ×16 link, per direction',
    ),
    "PCIE5_X16_BW": Spec(
        32e9 * 16 * _PCIE_ENCODING / 8, "B/s",
        "PCI-SIG PCIe 5.0 base spec: 32 GT/s per lane, 128b/130b encoding", _PCIE_URL,
        "32e9 transfers/s x 16 lanes x 128/130 / 8 bits, per direction (63.0 GB/s); "
        "the H100 datasheet's 128 GB/s is both directions",
        label='PCIe 5.0 ×16 link, per direction',
    ),
    "ETH_100G_BW": Spec(
        12.5e9, "B/s", "IEEE 802.3 100 Gigabit Ethernet, per direction",
        "https://www.ieee802.org/3/ba/", "100e9 bit/s / 8",
        label='100 Gigabit Ethernet, per direction',
    ),
    "IB_ALPHA_S": Spec(
        1.5e-6, "s",
        "per-message inter-node latency typical of InfiniBand (an assumption of the collective-algorithm lab)",
        "",
        "a teaching assumption, not a measured figure for one fabric",
        label='Inter-node message latency (α)',
    ),
    # ---- DGX H100 node ----
    "DGX_H100_GPUS_PER_NODE": Spec(
        8.0, "GPUs", "NVIDIA DGX H100 user guide (8x H100 SXM per system)", _DGX_H100_URL,
        label='GPUs in one DGX H100',
    ),
    "DGX_H100_NICS": Spec(
        8.0, "NICs",
        "NVIDIA DGX H100 user guide: 8x ConnectX-7 400 Gb/s, one per GPU (rail-optimised)",
        _DGX_H100_URL,
        "8 x IB_NDR_BW = 400 GB/s node egress per direction",
        label='Network ports in one DGX H100',
    ),
    "DGX_H100_SYSTEM_POWER_W": Spec(
        10.2e3, "W", "NVIDIA DGX H100 datasheet (system power ~10.2 kW max)",
        "https://www.nvidia.com/en-us/data-center/dgx-h100/",
        "cited from the datasheet, not re-verified in the audit; about 1.28 kW per GPU",
        label='DGX H100 system power',
    ),
    # ---- numeric formats and optimizer state ----
    "BYTES_PER_BF16": Spec(
        2.0, "B", "bfloat16 format: 16 bits per value (1 sign, 8 exponent, 7 mantissa bits)",
        "https://cloud.google.com/tpu/docs/bfloat16",
        label='Size of one BF16 value',
    ),
    "ADAM_MIXED_PRECISION_BYTES_PER_PARAM": Spec(
        16.0, "B",
        "Rajbhandari et al. 2020, ZeRO, Sec. 3.1: (2 + 2 + K) bytes/param with K = 12",
        _ZERO_URL,
        "bf16 weights 2 + bf16 grads 2 + fp32 master weights, momentum, variance 12",
        label='Mixed-precision Adam training state per parameter',
    ),
    "ADAM_OPTIMIZER_BYTES_PER_PARAM": Spec(
        12.0, "B", "Rajbhandari et al. 2020, ZeRO, Sec. 3.1: K = 12 for mixed-precision Adam",
        _ZERO_URL, "fp32 master weights 4 + momentum 4 + variance 4",
        label='Adam optimizer state per parameter',
    ),
    # ---- GPT-3 175B shape (Brown et al. 2020, Table 2.1) ----
    "GPT3_PARAMS": Spec(
        175e9, "params", "Brown et al. 2020, Language Models are Few-Shot Learners, Table 2.1",
        _GPT3_URL,
        label='GPT-3 parameters',
    ),
    "GPT3_LAYERS": Spec(96.0, "layers", "Brown et al. 2020, Table 2.1", _GPT3_URL, label='GPT-3 layers'),
    "GPT3_HIDDEN": Spec(12288.0, "1", "Brown et al. 2020, Table 2.1 (d_model)", _GPT3_URL, label='GPT-3 model width (d_model)'),
    "GPT3_HEADS": Spec(96.0, "heads", "Brown et al. 2020, Table 2.1", _GPT3_URL, label='GPT-3 attention heads'),
    "GPT3_SEQ": Spec(2048.0, "tokens", "Brown et al. 2020, Sec. 2.1 (context window)", _GPT3_URL, label='GPT-3 context length'),
    "GPT3_TOKENS": Spec(
        300e9, "tokens", "Brown et al. 2020, Sec. 2.2 (training tokens)", _GPT3_URL,
        label='GPT-3 training tokens',
    ),
    # ---- Megatron-LM's GPT-3 175B example run ----
    "MEGATRON_GPT3_GLOBAL_BATCH": Spec(
        1536.0, "sequences",
        "NVIDIA Megatron-LM examples/gpt3/train_gpt3_175b_distributed.sh (--global-batch-size)",
        _MEGATRON_GPT3_URL,
        label='Megatron-LM GPT-3 175B example: global batch',
    ),
    "MEGATRON_GPT3_MICRO_BATCH": Spec(
        1.0, "sequences",
        "NVIDIA Megatron-LM examples/gpt3/train_gpt3_175b_distributed.sh (--micro-batch-size)",
        _MEGATRON_GPT3_URL,
        label='Megatron-LM GPT-3 175B example: micro-batch',
    ),
    "MEGATRON_GPT3_TP": Spec(
        8.0, "GPUs",
        "NVIDIA Megatron-LM examples/gpt3/train_gpt3_175b_distributed.sh "
        "(--tensor-model-parallel-size)",
        _MEGATRON_GPT3_URL,
        label='Megatron-LM GPT-3 175B example: tensor-parallel size',
    ),
    "MEGATRON_GPT3_PP": Spec(
        16.0, "GPUs",
        "NVIDIA Megatron-LM examples/gpt3/train_gpt3_175b_distributed.sh "
        "(--pipeline-model-parallel-size)",
        _MEGATRON_GPT3_URL,
        label='Megatron-LM GPT-3 175B example: pipeline-parallel size',
    ),
    "MEGATRON_GPT3_GPUS": Spec(
        1024.0, "GPUs",
        "NVIDIA Megatron-LM README: the GPT-3 175B example runs 'on 1024 GPUs'",
        _MEGATRON_README_URL,
        "data-parallel degree = 1024 / (8 x 16) = 8",
        label='Megatron-LM GPT-3 175B example: GPUs',
    ),
    # ---- published training runs and compute estimates ----
    "LLAMA3_70B_PARAMS": Spec(
        70e9, "params", "Meta Llama 3 model card (70B)",
        "https://github.com/meta-llama/llama3/blob/main/MODEL_CARD.md",
        label='Llama 3 70B parameters',
    ),
    "LLAMA3_70B_TOKENS": Spec(
        15e12, "tokens", "Meta Llama 3 model card (pretrained on over 15T tokens)",
        "https://github.com/meta-llama/llama3/blob/main/MODEL_CARD.md",
        label='Llama 3 70B training tokens',
    ),
    "LLAMA3_70B_TRAIN_FLOPS": Spec(
        6.3e24, "FLOP",
        "Austin et al., How to Scale Your Model (Llama-3-70B-class run, 6ND)",
        _SCALING_BOOK_TRAINING_URL, "6 x 70e9 params x 15e12 tokens",
        label='Llama 3 70B training compute',
    ),
    "GPT4_TRAIN_FLOPS": Spec(
        2.1e25, "FLOP", "Epoch AI, Notable AI Models database (GPT-4 estimate)", _EPOCH_URL,
        "an outside estimate; OpenAI has not published the figure",
        label='GPT-4 training compute (estimate)',
    ),
    # ---- time ----
    "HOURS_PER_YEAR": Spec(
        8760.0, "h/year", "365-day year x 24 h (convention used by the TCO labs)", "",
        "365 x 24",
        label='Hours in a year',
    ),
    # ---- V2-10 The KV-Cache Memory Wall: model shapes and serving defaults ----
    "LLAMA3_70B_PARAMS_COUNTED": Spec(
        70_553_706_496.0, "params",
        "Meta-Llama-3-70B checkpoint on Hugging Face: 70,553,706,496 parameters (safetensors total, shown "
        "as 70.6B)",
        _LLAMA3_70B_HF_URL,
        "config.json's shapes give the same count: 80 layers x 855,654,400 (attention 8192x8192 twice and "
        "8192x1024 twice, MLP 3 x 8192 x 28,672, two norms) + untied embeddings 2 x 128,256 x 8192 + the "
        "final norm; the model card's '70B' rounds it; 2 B each in BF16 = 141.1 GB",
    ),
    "LLAMA3_70B_LAYERS": Spec(80.0, "layers", "Meta-Llama-3-70B config.json (num_hidden_layers)",
                              _LLAMA3_70B_CONFIG_URL),
    "LLAMA3_70B_QUERY_HEADS": Spec(64.0, "heads", "Meta-Llama-3-70B config.json (num_attention_heads)",
                                   _LLAMA3_70B_CONFIG_URL),
    "LLAMA3_70B_KV_HEADS": Spec(
        8.0, "heads", "Meta-Llama-3-70B config.json (num_key_value_heads: grouped-query attention)",
        _LLAMA3_70B_CONFIG_URL, "8 query heads share each K/V head",
    ),
    "LLAMA3_70B_D_MODEL": Spec(8192.0, "1", "Meta-Llama-3-70B config.json (hidden_size)",
                               _LLAMA3_70B_CONFIG_URL),
    "LLAMA3_HEAD_DIM": Spec(
        128.0, "1", "Meta-Llama-3 config.json: hidden_size / num_attention_heads (8192/64, 4096/32)",
        _LLAMA3_70B_CONFIG_URL,
    ),
    "LLAMA3_8B_PARAMS_COUNTED": Spec(
        8.03e9, "params", "Meta-Llama-3-8B checkpoint on Hugging Face: 8,030,261,248 parameters",
        _LLAMA3_8B_HF_URL,
    ),
    "LLAMA3_8B_LAYERS": Spec(32.0, "layers", "Meta-Llama-3-8B config.json (num_hidden_layers)",
                             _LLAMA3_8B_CONFIG_URL),
    "LLAMA3_8B_KV_HEADS": Spec(8.0, "heads", "Meta-Llama-3-8B config.json (num_key_value_heads)",
                               _LLAMA3_8B_CONFIG_URL),
    "LLAMA3_8B_D_MODEL": Spec(4096.0, "1", "Meta-Llama-3-8B config.json (hidden_size)",
                              _LLAMA3_8B_CONFIG_URL),
    "BYTES_PER_FP8": Spec(
        1.0, "B", "FP8 (E4M3/E5M2): 8 bits per value; vLLM --kv-cache-dtype fp8", _VLLM_ARGS_URL,
    ),
    "VLLM_BLOCK_TOKENS": Spec(
        16.0, "tokens", "vLLM engine arguments: --block-size {8,16,32}, default 16 tokens per KV block",
        _VLLM_ARGS_URL,
    ),
    "VLLM_GPU_MEMORY_UTILIZATION": Spec(
        0.9, "1", "vLLM engine arguments: --gpu-memory-utilization, default 0.9 of each GPU's memory",
        _VLLM_ARGS_URL, "vLLM's worker sizes the KV cache as total_gpu_memory x gpu_memory_utilization - peak_memory "
        "(the weights, the profiled activation peak and non-torch memory): activations come out of this share; "
        "the rest of the GPU is left unused (headroom for other processes)",
    ),
    "LLAMA31_CONTEXT_TOKENS": Spec(
        131072.0, "tokens",
        "Llama-3.1-70B and Llama-3.1-8B config.json (max_position_embeddings: 131,072, the 128K window); "
        "the same layers, heads and parameter counts as Llama 3, whose own window is 8,192",
        "https://huggingface.co/meta-llama/Llama-3.1-70B/blob/main/config.json",
        "Hugging Face, 'Llama 3.1 - 405B, 70B & 8B with multilinguality and long context' (2024): 128K context",
        label="Llama 3.1 context window",
    ),
    # ---- V2-03 The Bisection Bandwidth Wall: Ethernet ports and leaf switches ----
    "ETH_400G_BW": Spec(
        50e9, "B/s", "IEEE 802.3bs 400 Gigabit Ethernet, per direction",
        "https://www.ieee802.org/3/bs/", "400e9 bit/s / 8; the same line rate as an NDR port",
    ),
    "IB_NDR_SWITCH_PORTS": Spec(
        64.0, "1",
        "NVIDIA QM9700/QM9790 1U NDR InfiniBand switch user manual: 32 OSFP cages, "
        "each 2 logical 400 Gb/s ports",
        "https://docs.nvidia.com/networking/display/QM97X0PUB/Interfaces",
        "a non-blocking leaf gives half its ports (32) to GPUs and half to the spine",
    ),
    # ---- V2-11 The Federation Paradox ----
    "GBOARD_CIFG_PARAMS": Spec(
        1.4e6, "params",
        "Hard et al. 2018, Federated Learning for Mobile Keyboard Prediction "
        "(the CIFG next-word model has 1.4 M parameters)",
        "https://arxiv.org/abs/1811.03604",
    ),
    "BYTES_PER_FP32": Spec(
        4.0, "B", "IEEE 754 binary32: 32 bits per value", "https://doi.org/10.1109/IEEESTD.2019.8766229",
    ),
    "BYTES_PER_INT8": Spec(
        1.0, "B", "8-bit integer quantisation: 8 bits per value",
        "https://arxiv.org/abs/1712.05877", "Jacob et al. 2018, integer-arithmetic-only inference",
    ),
    "FEDAVG_ROUND_REDUCTION_LOW": Spec(
        10.0, "1",
        "McMahan et al. 2017, Communication-Efficient Learning of Deep Networks from Decentralized "
        "Data, abstract: FedAvg needs 10-100x fewer communication rounds than synchronised SGD",
        "https://arxiv.org/abs/1602.05629",
    ),
    "FEDAVG_ROUND_REDUCTION_HIGH": Spec(
        100.0, "1", "McMahan et al. 2017, abstract (upper end of the 10-100x range)",
        "https://arxiv.org/abs/1602.05629",
    ),
    # ---- seed-lab corrections (V2-01, V2-02, V2-09; issue 10) ----
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

# ---- V2-07 The Checkpoint Reckoning: the Llama 3 405B run (Dubey et al. 2024, sec. 3.3.4) ----
_LLAMA3_PAPER_URL = "https://arxiv.org/abs/2407.21783"

REGISTRY.update({
    "LLAMA3_405B_GPUS": Spec(
        16384.0, "GPUs", "Dubey et al. 2024, The Llama 3 Herd of Models, sec. 3.3.4 (16K H100 GPUs)",
        _LLAMA3_PAPER_URL,
    ),
    "LLAMA3_405B_SNAPSHOT_S": Spec(
        54 * 86400.0, "s", "Dubey et al. 2024, sec. 3.3.4 (a 54-day snapshot of pre-training)",
        _LLAMA3_PAPER_URL, "54 days x 86,400 s",
    ),
    "LLAMA3_405B_UNEXPECTED_INTERRUPTIONS": Spec(
        419.0, "1", "Dubey et al. 2024, sec. 3.3.4, Table 5 (419 unexpected of 466 interruptions)",
        _LLAMA3_PAPER_URL, "47 further interruptions were planned maintenance",
    ),
    "LLAMA3_405B_EFFECTIVE_TRAINING": Spec(
        0.90, "1", "Dubey et al. 2024, sec. 3.3.4 ('higher than 90% effective training time')",
        _LLAMA3_PAPER_URL, "a lower bound as reported",
    ),
    "TECTONIC_SUSTAINED_BW": Spec(
        2e12, "B/s", "Dubey et al. 2024, sec. 3.3.1 (Tectonic: 2 TB/s sustained, 7 TB/s peak)",
        _LLAMA3_PAPER_URL,
    ),
    "TECTONIC_PEAK_BW": Spec(
        7e12, "B/s", "Dubey et al. 2024, sec. 3.3.1 (Tectonic peak throughput)", _LLAMA3_PAPER_URL,
    ),
    "PYTORCH_DCP_ASYNC_STAGING_S": Spec(
        0.78, "s", "Wright et al. (Meta and Crusoe), PyTorch blog 2025, '6x faster Async Checkpointing in "
        "PyTorch': GPU training blocked 0.78 s while DCP staged a Llama3-70B checkpoint to CPU memory",
        "https://pytorch.org/blog/6x-faster-async-checkpointing/",
        "1,856 H200 GPUs, HSDP2 with TorchTitan; the background write then slowed training for about 67 s",
        label="Measured blocking time of one asynchronous PyTorch DCP save (staging), 1,856 GPUs",
    ),
    "PYTORCH_DCP_ASYNC_STAGING_GPUS": Spec(
        1856.0, "GPUs", "Wright et al. (Meta and Crusoe), PyTorch blog 2025 (1,856 H200 GPUs, Llama3-70B)",
        "https://pytorch.org/blog/6x-faster-async-checkpointing/",
        label="GPUs in the PyTorch DCP asynchronous-save measurement",
    ),
    "LLAMA3_CKPT_MAX_BYTES_PER_GPU": Spec(
        4e9, "B", "Dubey et al. 2024, sec. 3.3.1 (checkpoints from 1 MB to 4 GB per GPU)",
        _LLAMA3_PAPER_URL,
    ),
})

LLAMA3_405B_GPUS = REGISTRY["LLAMA3_405B_GPUS"].value
LLAMA3_405B_SNAPSHOT_S = REGISTRY["LLAMA3_405B_SNAPSHOT_S"].value
LLAMA3_405B_UNEXPECTED_INTERRUPTIONS = REGISTRY["LLAMA3_405B_UNEXPECTED_INTERRUPTIONS"].value
LLAMA3_405B_EFFECTIVE_TRAINING = REGISTRY["LLAMA3_405B_EFFECTIVE_TRAINING"].value
PYTORCH_DCP_ASYNC_STAGING_S = REGISTRY["PYTORCH_DCP_ASYNC_STAGING_S"].value
PYTORCH_DCP_ASYNC_STAGING_GPUS = REGISTRY["PYTORCH_DCP_ASYNC_STAGING_GPUS"].value
TECTONIC_SUSTAINED_BW = REGISTRY["TECTONIC_SUSTAINED_BW"].value
TECTONIC_PEAK_BW = REGISTRY["TECTONIC_PEAK_BW"].value
LLAMA3_CKPT_MAX_BYTES_PER_GPU = REGISTRY["LLAMA3_CKPT_MAX_BYTES_PER_GPU"].value
# ---- V2-17 The Constraints Never Lie: the Llama 3 405B run's utilisation at 16K GPUs ----
REGISTRY.update({
    "LLAMA3_405B_MFU_16K": Spec(
        0.41, "1", "Dubey et al. 2024, sec. 3.3.2, Table 4 (16,384 H100s, TP 8, CP 1, PP 16, DP 128: "
        "400 TFLOPs/GPU, BF16 MFU 41 %)", _LLAMA3_PAPER_URL,
        "the paper reports 38-43 % over its three stages", label="Llama 3 405B BF16 MFU on 16,384 H100s",
    ),
})
LLAMA3_405B_MFU_16K = REGISTRY["LLAMA3_405B_MFU_16K"].value
# ---- V2-10 The KV-Cache Memory Wall ----
LLAMA3_70B_PARAMS_COUNTED = REGISTRY["LLAMA3_70B_PARAMS_COUNTED"].value
LLAMA3_70B_LAYERS = REGISTRY["LLAMA3_70B_LAYERS"].value
LLAMA3_70B_QUERY_HEADS = REGISTRY["LLAMA3_70B_QUERY_HEADS"].value
LLAMA3_70B_KV_HEADS = REGISTRY["LLAMA3_70B_KV_HEADS"].value
LLAMA3_70B_D_MODEL = REGISTRY["LLAMA3_70B_D_MODEL"].value
LLAMA3_HEAD_DIM = REGISTRY["LLAMA3_HEAD_DIM"].value
LLAMA3_8B_PARAMS_COUNTED = REGISTRY["LLAMA3_8B_PARAMS_COUNTED"].value
LLAMA3_8B_LAYERS = REGISTRY["LLAMA3_8B_LAYERS"].value
LLAMA3_8B_KV_HEADS = REGISTRY["LLAMA3_8B_KV_HEADS"].value
LLAMA3_8B_D_MODEL = REGISTRY["LLAMA3_8B_D_MODEL"].value
BYTES_PER_FP8 = REGISTRY["BYTES_PER_FP8"].value
VLLM_BLOCK_TOKENS = REGISTRY["VLLM_BLOCK_TOKENS"].value
VLLM_GPU_MEMORY_UTILIZATION = REGISTRY["VLLM_GPU_MEMORY_UTILIZATION"].value
LLAMA31_CONTEXT_TOKENS = REGISTRY["LLAMA31_CONTEXT_TOKENS"].value
# V2-03 The Bisection Bandwidth Wall
ETH_400G_BW = REGISTRY["ETH_400G_BW"].value
IB_NDR_SWITCH_PORTS = REGISTRY["IB_NDR_SWITCH_PORTS"].value
# ---- V2-11 The Federation Paradox ----
GBOARD_CIFG_PARAMS = REGISTRY["GBOARD_CIFG_PARAMS"].value
BYTES_PER_FP32 = REGISTRY["BYTES_PER_FP32"].value
BYTES_PER_INT8 = REGISTRY["BYTES_PER_INT8"].value
FEDAVG_ROUND_REDUCTION_LOW = REGISTRY["FEDAVG_ROUND_REDUCTION_LOW"].value
FEDAVG_ROUND_REDUCTION_HIGH = REGISTRY["FEDAVG_ROUND_REDUCTION_HIGH"].value
# ---- V2-04 The I/O Bottleneck: object-store request limits ----
REGISTRY.update({
    "S3_GET_PER_PREFIX_PER_S": Spec(
        5500.0, "1/s",
        "AWS, Amazon S3 User Guide, 'Best practices design patterns: optimizing Amazon S3 performance'",
        "https://docs.aws.amazon.com/AmazonS3/latest/userguide/optimizing-performance.html",
        "at least 3,500 PUT/COPY/POST/DELETE or 5,500 GET/HEAD requests per second per partitioned "
        "prefix; more prefixes scale the rate (S3 partitions them automatically over time)",
    ),
    "S3_PUT_PER_PREFIX_PER_S": Spec(
        3500.0, "1/s",
        "AWS, Amazon S3 User Guide, 'Best practices design patterns: optimizing Amazon S3 performance'",
        "https://docs.aws.amazon.com/AmazonS3/latest/userguide/optimizing-performance.html",
        "PUT/COPY/POST/DELETE requests per second per partitioned prefix",
    ),
    "S3_GET_BW_PER_CONNECTION": Spec(
        90e6, "B/s",
        "AWS whitepaper 'Best Practices Design Patterns: Optimizing Amazon S3 Performance', 'Horizontal Scaling "
        "and Request Parallelization for High Throughput'",
        "https://docs.aws.amazon.com/whitepapers/latest/s3-optimizing-performance-best-practices/"
        "horizontal-scaling-and-request-parallelization-for-high-throughput.html",
        "'Make one concurrent request for each 85-90 MB/s of desired network throughput' (within a Region, "
        "S3 to EC2); the upper end, so the store is not understated",
        label="Amazon S3 throughput of one GET connection (AWS guidance, upper end)",
    ),
})

S3_GET_PER_PREFIX_PER_S = REGISTRY["S3_GET_PER_PREFIX_PER_S"].value
S3_PUT_PER_PREFIX_PER_S = REGISTRY["S3_PUT_PER_PREFIX_PER_S"].value
S3_GET_BW_PER_CONNECTION = REGISTRY["S3_GET_BW_PER_CONNECTION"].value
LLAMA3_SEQ = REGISTRY["LLAMA3_SEQ"].value
IB_XDR_BW = REGISTRY["IB_XDR_BW"].value
# ---- V2-15 The Jevons Reckoning: device power, facility overhead, lifecycle carbon ----
_IPCC_AR5_ANNEX_III_URL = "https://www.ipcc.ch/site/assets/uploads/2018/02/ipcc_wg3_ar5_annex-iii.pdf"
_IPCC_AR5_SOURCE = ("IPCC AR5 WGIII (2014), Annex III, Table A.III.2: lifecycle emissions of electricity "
                    "supply technologies, median, gCO2eq/kWh")
_G_PER_KWH = 1e-3 / 3.6e6  # one gram per kilowatt-hour, in kg per joule
REGISTRY.update({
    "A100_TDP_W": Spec(
        400.0, "W", "NVIDIA A100 SXM datasheet (max thermal design power, 400 W)", _A100_URL,
        label="A100 SXM maximum power",
    ),
    "PUE_INDUSTRY_AVG_2023": Spec(
        1.58, "1", "Uptime Institute Global Data Center Survey 2023: industry average PUE",
        "https://intelligence.uptimeinstitute.com/resource/large-data-centers-are-mostly-more-efficient-analysis-confirms",
        "flat at 1.55-1.59 since about 2020; hyperscalers report about 1.1",
        label="Data-centre PUE, industry average (2023)",
    ),
    "IPCC_LIFECYCLE_COAL": Spec(820 * _G_PER_KWH, "kg/J", _IPCC_AR5_SOURCE + " (coal, pulverised: 820)",
                                _IPCC_AR5_ANNEX_III_URL, "a generation figure, not a grid average",
                                label="Lifecycle carbon, coal (820 g/kWh)"),
    "IPCC_LIFECYCLE_GAS": Spec(490 * _G_PER_KWH, "kg/J", _IPCC_AR5_SOURCE + " (gas, combined cycle: 490)",
                               _IPCC_AR5_ANNEX_III_URL, label="Lifecycle carbon, gas (490 g/kWh)"),
    "IPCC_LIFECYCLE_SOLAR_PV": Spec(48 * _G_PER_KWH, "kg/J", _IPCC_AR5_SOURCE + " (solar PV, utility: 48; rooftop 41)",
                                    _IPCC_AR5_ANNEX_III_URL, label="Lifecycle carbon, utility solar PV (48 g/kWh)"),
    "IPCC_LIFECYCLE_HYDRO": Spec(24 * _G_PER_KWH, "kg/J", _IPCC_AR5_SOURCE + " (hydropower: 24)",
                                 _IPCC_AR5_ANNEX_III_URL, label="Lifecycle carbon, hydropower (24 g/kWh)"),
    "IPCC_LIFECYCLE_NUCLEAR": Spec(12 * _G_PER_KWH, "kg/J", _IPCC_AR5_SOURCE + " (nuclear: 12)",
                                   _IPCC_AR5_ANNEX_III_URL, label="Lifecycle carbon, nuclear (12 g/kWh)"),
    "IPCC_LIFECYCLE_WIND": Spec(11 * _G_PER_KWH, "kg/J", _IPCC_AR5_SOURCE + " (wind onshore: 11; offshore 12)",
                                _IPCC_AR5_ANNEX_III_URL, label="Lifecycle carbon, onshore wind (11 g/kWh)"),
})

A100_TDP_W = REGISTRY["A100_TDP_W"].value
PUE_INDUSTRY_AVG_2023 = REGISTRY["PUE_INDUSTRY_AVG_2023"].value
IPCC_LIFECYCLE_COAL = REGISTRY["IPCC_LIFECYCLE_COAL"].value
IPCC_LIFECYCLE_GAS = REGISTRY["IPCC_LIFECYCLE_GAS"].value
IPCC_LIFECYCLE_SOLAR_PV = REGISTRY["IPCC_LIFECYCLE_SOLAR_PV"].value
IPCC_LIFECYCLE_HYDRO = REGISTRY["IPCC_LIFECYCLE_HYDRO"].value
IPCC_LIFECYCLE_NUCLEAR = REGISTRY["IPCC_LIFECYCLE_NUCLEAR"].value
IPCC_LIFECYCLE_WIND = REGISTRY["IPCC_LIFECYCLE_WIND"].value
# ---- V2-14 The Adversarial Wall: CIFAR-10, L∞ ε = 8/255, WideResNet models ----
_MADRY_URL = "https://arxiv.org/abs/1706.06083"
_TRADES_URL = "https://github.com/yaodongyu/TRADES"
REGISTRY.update({
    "CIFAR10_EPS_LINF": Spec(
        8.0 / 255.0, "1", "Madry et al. 2018, Towards Deep Learning Models Resistant to Adversarial Attacks "
        "(CIFAR-10 threat model: each pixel moved by at most 8 of 255 levels)", _MADRY_URL,
        label="CIFAR-10 L∞ perturbation budget ε (fraction of pixel range)"),
    "MADRY_NATURAL_CLEAN_ACC": Spec(
        0.952, "1", "Madry et al. 2018, CIFAR-10 naturally trained wide ResNet, clean test accuracy",
        _MADRY_URL, "confirmed via Raghunathan et al. 2019 (curriculum ERRATA)",
        label="Naturally trained CIFAR-10 model, clean accuracy"),
    "MADRY_NATURAL_PGD_ACC": Spec(
        0.035, "1", "Madry et al. 2018, CIFAR-10 naturally trained model under PGD at ε = 8/255",
        _MADRY_URL, "confirmed via Raghunathan et al. 2019 (curriculum ERRATA)",
        label="Naturally trained CIFAR-10 model, accuracy under PGD"),
    "MADRY_AT_CLEAN_ACC": Spec(
        0.873, "1", "Madry et al. 2018, CIFAR-10 PGD adversarially trained model, clean accuracy",
        _MADRY_URL, label="PGD adversarial training (Madry), clean accuracy"),
    "MADRY_AT_PGD20_ACC": Spec(
        0.458, "1", "Madry et al. 2018, CIFAR-10 PGD adversarially trained model under 20-step PGD",
        _MADRY_URL, label="PGD adversarial training (Madry), accuracy under PGD-20"),
    "TRADES_BETA6_CLEAN_ACC": Spec(
        0.8492, "1", "Zhang et al. 2019 (TRADES), official repository README, WRN-34-10 white-box "
        "leaderboard, natural accuracy", _TRADES_URL, label="TRADES (1/λ = 6), clean accuracy"),
    "TRADES_BETA6_PGD20_ACC": Spec(
        0.5661, "1", "Zhang et al. 2019 (TRADES), official repository README, WRN-34-10 under the "
        "20-step PGD attack (listed as 'FGSM-20'), ε = 0.031", _TRADES_URL,
        label="TRADES (1/λ = 6), accuracy under PGD-20"),
    "TRADES_BETA6": Spec(
        6.0, "1", "Zhang et al. 2019 (TRADES), the released CIFAR-10 model's trade-off weight β = 1/λ",
        _TRADES_URL, label="TRADES trade-off weight β = 1/λ of the released model"),
})

CIFAR10_EPS_LINF = REGISTRY["CIFAR10_EPS_LINF"].value
MADRY_NATURAL_CLEAN_ACC = REGISTRY["MADRY_NATURAL_CLEAN_ACC"].value
MADRY_NATURAL_PGD_ACC = REGISTRY["MADRY_NATURAL_PGD_ACC"].value
MADRY_AT_CLEAN_ACC = REGISTRY["MADRY_AT_CLEAN_ACC"].value
MADRY_AT_PGD20_ACC = REGISTRY["MADRY_AT_PGD20_ACC"].value
TRADES_BETA6_CLEAN_ACC = REGISTRY["TRADES_BETA6_CLEAN_ACC"].value
TRADES_BETA6_PGD20_ACC = REGISTRY["TRADES_BETA6_PGD20_ACC"].value
TRADES_BETA6 = REGISTRY["TRADES_BETA6"].value
# ---- V2-16 The Fairness Impossibility: the legal screens the lab checks against ----
_UGESP_URL = "https://www.law.cornell.edu/cfr/text/29/1607.4"
_EU_AI_ACT_URL = "https://eur-lex.europa.eu/eli/reg/2024/1689/oj"
REGISTRY.update({
    "UGESP_FOUR_FIFTHS": Spec(
        0.8, "1",
        "US Uniform Guidelines on Employee Selection Procedures, 29 CFR 1607.4(D): a selection rate "
        "below four-fifths of the highest group's rate is generally regarded as evidence of adverse impact",
        _UGESP_URL,
        "a selection-rate (demographic-parity-type) screen, not equalized odds; the upstream lab confused the two",
        label="US four-fifths rule (impact ratio screen)",
    ),
    "EU_AI_ACT_FINE_HIGH_RISK_EUR": Spec(
        15e6, "EUR",
        "Regulation (EU) 2024/1689 (AI Act), Art. 99(4): up to EUR 15 M or 3 % of worldwide annual "
        "turnover, whichever is higher, for breaches of operators' obligations such as high-risk requirements",
        _EU_AI_ACT_URL, "the upstream lab said 6 %",
        label="EU AI Act fine ceiling, operator obligations (fixed amount)",
    ),
    "EU_AI_ACT_FINE_HIGH_RISK_TURNOVER": Spec(
        0.03, "1", "Regulation (EU) 2024/1689 (AI Act), Art. 99(4): 3 % of total worldwide annual turnover",
        _EU_AI_ACT_URL, label="EU AI Act fine ceiling, operator obligations (share of turnover)",
    ),
    "EU_AI_ACT_FINE_PROHIBITED_EUR": Spec(
        35e6, "EUR", "Regulation (EU) 2024/1689 (AI Act), Art. 99(3): up to EUR 35 M for prohibited practices (Art. 5)",
        _EU_AI_ACT_URL, label="EU AI Act fine ceiling, prohibited practices (fixed amount)",
    ),
    "EU_AI_ACT_FINE_PROHIBITED_TURNOVER": Spec(
        0.07, "1", "Regulation (EU) 2024/1689 (AI Act), Art. 99(3): 7 % of total worldwide annual turnover",
        _EU_AI_ACT_URL, label="EU AI Act fine ceiling, prohibited practices (share of turnover)",
    ),
})

UGESP_FOUR_FIFTHS = REGISTRY["UGESP_FOUR_FIFTHS"].value
EU_AI_ACT_FINE_HIGH_RISK_EUR = REGISTRY["EU_AI_ACT_FINE_HIGH_RISK_EUR"].value
EU_AI_ACT_FINE_HIGH_RISK_TURNOVER = REGISTRY["EU_AI_ACT_FINE_HIGH_RISK_TURNOVER"].value
EU_AI_ACT_FINE_PROHIBITED_EUR = REGISTRY["EU_AI_ACT_FINE_PROHIBITED_EUR"].value
EU_AI_ACT_FINE_PROHIBITED_TURNOVER = REGISTRY["EU_AI_ACT_FINE_PROHIBITED_TURNOVER"].value
# ---- V2-13 The Privacy Measurement Gap ----
REGISTRY.update({
    "HIPAA_SAFE_HARBOR_IDENTIFIERS": Spec(
        18.0, "1",
        "45 CFR 164.514(b)(2)(i) (HIPAA Privacy Rule, de-identification: the Safe Harbor method)",
        "https://www.ecfr.gov/current/title-45/subtitle-A/subchapter-C/part-164/subpart-E/section-164.514",
        "Safe Harbor removes 18 kinds of identifiers; the alternative, 164.514(b)(1), is Expert Determination "
        "that re-identification risk is very small. Neither names a differential-privacy ε",
    ),
})

HIPAA_SAFE_HARBOR_IDENTIFIERS = REGISTRY["HIPAA_SAFE_HARBOR_IDENTIFIERS"].value
# ---- V2-12 The SLO Composition Trap ----
_TAIL_URL = "https://doi.org/10.1145/2408776.2408794"
_SRE_OVERLOAD_URL = "https://sre.google/sre-book/handling-overload/"
REGISTRY.update({
    "TAIL_AT_SCALE_LEAVES": Spec(
        100.0, "1", "Dean and Barroso 2013, 'The Tail at Scale', CACM 56(2): the fan-out example", _TAIL_URL,
        "a request that must wait for 100 servers", label="Tail at scale: fan-out leaves in the example"),
    "TAIL_AT_SCALE_LEAF_SLOW": Spec(
        0.01, "1", "Dean and Barroso 2013, 'The Tail at Scale', CACM 56(2): each server slow 1 in 100 times",
        _TAIL_URL, label="Tail at scale: share of slow answers per leaf"),
    "TAIL_AT_SCALE_SLOW_REQUESTS": Spec(
        0.63, "1", "Dean and Barroso 2013, 'The Tail at Scale', CACM 56(2): 63 % of user requests are slow",
        _TAIL_URL, "1 - 0.99**100 = 0.634", label="Tail at scale: share of slow user requests (published)"),
    "SRE_RETRY_BUDGET_RATIO": Spec(
        0.10, "1", "Beyer et al. 2016, Site Reliability Engineering, ch. 21 'Handling Overload': a per-client "
        "retry budget keeps retries below 10 % of requests", _SRE_OVERLOAD_URL,
        "the same chapter caps each request at three attempts", label="Per-client retry budget (Google SRE)"),
    "SRE_RETRY_ATTEMPTS_PER_REQUEST": Spec(
        3.0, "1", "Beyer et al. 2016, Site Reliability Engineering, ch. 21 'Handling Overload': a per-request "
        "retry budget of up to three attempts; a request that failed three times bubbles up to the caller",
        _SRE_OVERLOAD_URL, label="Per-request retry budget, attempts (Google SRE)"),
    "K8S_HPA_SYNC_PERIOD": Spec(
        15.0, "s", "Kubernetes documentation, Horizontal Pod Autoscaling: the controller runs every 15 s by "
        "default (--horizontal-pod-autoscaler-sync-period)",
        "https://kubernetes.io/docs/concepts/workloads/autoscaling/horizontal-pod-autoscale/",
        label="Kubernetes HPA sync period (default)"),
})

TAIL_AT_SCALE_LEAVES = REGISTRY["TAIL_AT_SCALE_LEAVES"].value
TAIL_AT_SCALE_LEAF_SLOW = REGISTRY["TAIL_AT_SCALE_LEAF_SLOW"].value
TAIL_AT_SCALE_SLOW_REQUESTS = REGISTRY["TAIL_AT_SCALE_SLOW_REQUESTS"].value
SRE_RETRY_BUDGET_RATIO = REGISTRY["SRE_RETRY_BUDGET_RATIO"].value
SRE_RETRY_ATTEMPTS_PER_REQUEST = REGISTRY["SRE_RETRY_ATTEMPTS_PER_REQUEST"].value
K8S_HPA_SYNC_PERIOD = REGISTRY["K8S_HPA_SYNC_PERIOD"].value
# ---- Volume I: the device table (VOL1_00-08 §0.1, VOL1_09-16 §0.1) ----
# One "peak" per device: the dense rate on its main ML path. Values the vendor does not publish
# are labelled assumptions on the Sources page ("assumed") and labs show them as such.
_ORIN_NX_URL = "https://www.nvidia.com/en-us/autonomous-machines/embedded-systems/jetson-orin/"
_ORIN_NANO_SUPER_URL = "https://developer.nvidia.com/blog/nvidia-jetson-orin-nano-developer-kit-gets-a-super-boost/"
_ORIN_NX_SUPER_URL = ("https://developer.nvidia.com/blog/"
                      "nvidia-jetpack-6-2-brings-super-mode-to-nvidia-jetson-orin-nano-and-jetson-orin-nx-modules/")
_A17_URL = "https://www.apple.com/newsroom/2023/09/apple-unveils-iphone-15-pro-and-iphone-15-pro-max/"
_STM32H743_URL = "https://www.st.com/en/microcontrollers-microprocessors/stm32h743-753.html"
_FIBRE_URL = "https://www.itu.int/rec/T-REC-G.652"
REGISTRY.update({
    "H100_PEAK_FP32": Spec(
        66.9e12, "FLOP/s", "NVIDIA H100 SXM datasheet, FP32 (non-tensor)", _H100_KLOCKWOOD_URL,
        label="H100 SXM peak, FP32 without tensor cores"),
    "A100_HBM_BW": Spec(
        2.039e12, "B/s", "NVIDIA A100 SXM 80 GB datasheet (HBM2e, 2,039 GB/s; the PCIe card is 1,935 GB/s)",
        _A100_URL, label="A100 SXM 80 GB memory bandwidth"),
    "A100_HBM_BYTES": Spec(80e9, "B", "NVIDIA A100 SXM datasheet (80 GB HBM2e)", _A100_URL,
                           label="A100 SXM memory (HBM2e)"),
    "ORIN_NX_PEAK_INT8_SPARSE_TOTAL": Spec(
        100e12, "OP/s", "NVIDIA Jetson Orin NX 16 GB: 'up to 100 TOPS' (INT8 with 2:4 sparsity, GPU plus two DLAs)",
        _ORIN_NX_URL, "the upstream labs used this as an FP16 FLOP/s rate; it is neither dense nor FP16",
        label="Jetson Orin NX 16 GB advertised AI rate (INT8, sparse, GPU + DLAs)"),
    "ORIN_NX_PEAK_FP16_DENSE": Spec(
        15.04e12, "FLOP/s",
        "Derived: 8 SM x 0.918 GHz x 2,048 FP16 FLOP per clock per SM (dense tensor cores); the same GA10B "
        "SM gives the Orin Nano Super's published 67 sparse INT8 TOPS at 1.02 GHz",
        _ORIN_NANO_SUPER_URL, "VOL1 §0.1 [der]: 8 * 0.918e9 * 2048 = 15.04e12",
        label="Jetson Orin NX 16 GB GPU peak, FP16 dense (derived from the GPU's clock and SMs)"),
    "ORIN_NX_PEAK_INT8_DENSE": Spec(
        30.08e12, "OP/s", "Derived: twice the FP16 dense tensor rate on the same GPU (8 SM x 0.918 GHz x 4,096)",
        _ORIN_NANO_SUPER_URL, label="Jetson Orin NX 16 GB GPU peak, INT8 dense (derived)"),
    "ORIN_NX_MEM_BW": Spec(
        102.4e9, "B/s", "NVIDIA Jetson Orin NX 16 GB: 128-bit LPDDR5 at 6,400 MT/s (128/8 x 6.4e9 = 102.4 GB/s)",
        _ORIN_NX_URL, label="Jetson Orin NX 16 GB memory bandwidth"),
    "ORIN_NX_MEM_BYTES": Spec(16e9, "B", "NVIDIA Jetson Orin NX 16 GB module (16 GB LPDDR5)", _ORIN_NX_URL,
                              label="Jetson Orin NX 16 GB memory"),
    "ORIN_NX_POWER_MAX_W": Spec(25.0, "W", "NVIDIA Jetson Orin NX 16 GB: configurable 10 W to 25 W", _ORIN_NX_URL,
                                "JetPack 6.2 (Jan 2025) adds a 40 W mode and MAXN SUPER: ORIN_NX_SUPER_POWER_W",
                                label="Jetson Orin NX 16 GB power, top of the datasheet's 10 to 25 W modes"),
    "ORIN_NX_SUPER_POWER_W": Spec(
        40.0, "W", "NVIDIA technical blog, 'JetPack 6.2 Brings Super Mode to NVIDIA Jetson Orin Nano and Jetson "
        "Orin NX Modules' (Jan 2025): the Orin NX 16 GB gains a 40 W mode and an uncapped MAXN SUPER mode at "
        "higher clocks", _ORIN_NX_SUPER_URL,
        "a user report reads GPU 1,173 MHz under MAXN_SUPER on an Orin NX 16 GB (L4T 36.4.7), against the 918 MHz "
        "ORIN_NX_PEAK_FP16_DENSE counts; Seeed's reComputer wiki (JetPack 6.2) tells Orin NX 16 GB users of its "
        "industrial boxes not to enable MAXN SUPER", label="Jetson Orin NX 16 GB power, 40 W Super mode (JetPack 6.2)"),
    "ORIN_NX_POWER_MIN_W": Spec(10.0, "W", "NVIDIA Jetson Orin NX 16 GB: configurable 10 W to 25 W", _ORIN_NX_URL,
                                label="Jetson Orin NX 16 GB power, lowest mode"),
    "A17_PRO_NPU_OPS": Spec(
        35e12, "OP/s", "Apple, iPhone 15 Pro announcement (Sept 2023): Neural Engine, 35 trillion operations per "
        "second (precision not stated)", _A17_URL,
        label="Apple A17 Pro Neural Engine rate (precision not stated by Apple)"),
    "A17_PRO_MEM_BW": Spec(
        51.2e9, "B/s", "Assumed: LPDDR5-6400 on a 64-bit bus (6.4e9 x 8 B), the figure third-party spec "
        "databases list for the A16; Apple publishes neither chip's memory bandwidth", _A17_URL,
        "ERRATA: a labelled assumption (est); V1-05 review: the source said 'as published for the A16', but "
        "Apple publishes no A16 figure either",
        label="Apple A17 Pro memory bandwidth (assumed, not published)"),
    "A17_PRO_MEM_BYTES": Spec(
        8e9, "B", "iPhone 15 Pro, 8 GB LPDDR5 as reported by teardowns and benchmarks (Apple does not publish RAM)",
        _A17_URL, label="iPhone 15 Pro memory (reported, not published by Apple)"),
    "PHONE_SUSTAINED_POWER_W": Spec(
        3.0, "W", "Assumed: a phone holds about 3 W (3 to 5 W) before it throttles; an engineering estimate, "
        "not a vendor figure", "", "VOL1 §0.1 (est); ERRATA keeps it an assumption",
        label="Phone sustained power (assumed, 3 to 5 W)"),
    "PHONE_SUSTAINED_POWER_HIGH_W": Spec(
        5.0, "W", "Assumed: the top of the 3 to 5 W a phone holds before it throttles; an engineering estimate, "
        "not a vendor figure", "", "VOL1 §0.1 (est); ERRATA keeps it an assumption; the range V1-03's power help "
        "quotes", label="Phone sustained power, top of the range (assumed)"),
    "PHONE_BATTERY_J": Spec(
        12.7 * 3600, "J", "iPhone 15 Pro battery, 3,274 mAh and 12.70 Wh in a Chinese regulatory database listing, "
        "as reported in September 2023 (Apple does not publish Wh)",
        "https://thetechnext.com/mobiles/iphone-15-pro-models-feature-enhanced-battery-capacities-and-wattage/",
        label="iPhone 15 Pro battery energy (reported)"),
    "STM32H743_CLOCK_HZ": Spec(480e6, "Hz", "ST STM32H743 product page: Arm Cortex-M7 at up to 480 MHz",
                               _STM32H743_URL, label="STM32H743 (Cortex-M7) clock"),
    "STM32H743_PEAK_FP32": Spec(
        0.96e9, "FLOP/s", "Derived: one single-precision fused multiply-add (2 FLOP) per cycle x 480 MHz",
        _STM32H743_URL, "library FMA loops take 5 to 6 cycles, about 0.17 GFLOP/s in practice",
        label="STM32H743 peak, FP32 (one FMA per cycle)"),
    "STM32H743_PEAK_INT8": Spec(
        1.92e9, "OP/s", "Derived: 2 INT8 multiply-accumulates per cycle with the Cortex-M7's SIMD (SMLAD) x 480 MHz",
        _STM32H743_URL, label="STM32H743 peak, INT8 SIMD (2 MAC per cycle)"),
    "STM32H743_SRAM_BYTES": Spec(1024 * 1024.0, "B", "ST STM32H743 product page: 1 MB of RAM in total",
                                 _STM32H743_URL, label="STM32H743 RAM, total"),
    "STM32H743_AXI_SRAM_BYTES": Spec(
        512 * 1024.0, "B", "ST STM32H743 reference manual: 512 KB AXI SRAM, the largest contiguous block",
        _STM32H743_URL, label="STM32H743 largest contiguous SRAM (AXI)"),
    "STM32H743_FLASH_BYTES": Spec(2 * 1024 * 1024.0, "B", "ST STM32H743 product page: 2 MB of flash",
                                  _STM32H743_URL, label="STM32H743 flash"),
    "STM32H743_ONCHIP_BW": Spec(
        1.9e9, "B/s", "Assumed: on-chip SRAM bus about 1.9 GB/s (an estimate; 0.05 GB/s is only the external "
        "QSPI flash)", _STM32H743_URL, "VOL1 §0.1 (est)", label="STM32H743 on-chip memory bandwidth (assumed)"),
    "STM32H743_QSPI_BW": Spec(
        0.05e9, "B/s", "Derived: external quad-SPI flash, 4 bits x 100 MHz = 50 MB/s", _STM32H743_URL,
        label="STM32H743 external QSPI flash bandwidth"),
    "MCU_ACTIVE_POWER_W": Spec(
        0.1, "W", "Assumed: a Cortex-M7 MCU running flat out draws on the order of 0.1 W (0.1 to 0.3 W); an "
        "order-of-magnitude estimate, shown as an adjustable instrument", _STM32H743_URL,
        "ERRATA: ST's run-mode table was not retrievable; at 0.3 W a CR2032 lasts 46.1 days",
        label="MCU active power (assumed, order of magnitude)"),
    "CR2032_ENERGY_J": Spec(0.675 * 3600, "J", "A CR2032 lithium coin cell: about 225 mAh at 3 V", "",
                             label="CR2032 coin cell energy"),
    "CR2032_PULSE_MAX_W": Spec(
        15e-3 * 3.0, "W", "A CR2032 is rated for pulses of about 15 mA at most (3 mA continuous) at its nominal "
        "3 V: about 45 mW. Manufacturers' ratings as summarised by Wikipedia's 'CR2032 battery' entry",
        "https://en.wikipedia.org/wiki/CR2032_battery",
        "a secondary summary and the largest rating: Energizer's CR2032 datasheet allows 2 s pulses of 6.8 mA "
        "(continuous 0.19 mA), as quoted by J. Cook, 'CR2032 Maximum Current Capacity', Embedded Computing "
        "Design, Jan 2025 (independent reviews of V1-00)",
        label="CR2032 coin cell, largest rated pulse power (about 15 mA at 3 V)"),
    "AA_PAIR_ENERGY_J": Spec(7.5 * 3600, "J", "Two alkaline AA cells: about 2,500 mAh at 1.5 V each", "",
                              label="Two AA cells, energy"),
    "FIBRE_GROUP_INDEX": Spec(
        1.468, "1", "Standard single-mode fibre (ITU-T G.652 class, e.g. Corning SMF-28) group index at 1,550 nm",
        _FIBRE_URL, "v = c / 1.468 = 204,200 km/s, about 4.9 us per km",
        label="Optical fibre group index"),
    "SPEED_OF_LIGHT": Spec(299_792_458.0, "m/s", "SI definition of the metre", "https://www.bipm.org/en/si-base-units",
                           label="Speed of light in vacuum"),
})

H100_PEAK_FP32 = REGISTRY["H100_PEAK_FP32"].value
A100_HBM_BW = REGISTRY["A100_HBM_BW"].value
A100_HBM_BYTES = REGISTRY["A100_HBM_BYTES"].value
ORIN_NX_PEAK_INT8_SPARSE_TOTAL = REGISTRY["ORIN_NX_PEAK_INT8_SPARSE_TOTAL"].value
ORIN_NX_PEAK_FP16_DENSE = REGISTRY["ORIN_NX_PEAK_FP16_DENSE"].value
ORIN_NX_PEAK_INT8_DENSE = REGISTRY["ORIN_NX_PEAK_INT8_DENSE"].value
ORIN_NX_MEM_BW = REGISTRY["ORIN_NX_MEM_BW"].value
ORIN_NX_MEM_BYTES = REGISTRY["ORIN_NX_MEM_BYTES"].value
ORIN_NX_POWER_MAX_W = REGISTRY["ORIN_NX_POWER_MAX_W"].value
ORIN_NX_POWER_MIN_W = REGISTRY["ORIN_NX_POWER_MIN_W"].value
ORIN_NX_SUPER_POWER_W = REGISTRY["ORIN_NX_SUPER_POWER_W"].value
A17_PRO_NPU_OPS = REGISTRY["A17_PRO_NPU_OPS"].value
A17_PRO_MEM_BW = REGISTRY["A17_PRO_MEM_BW"].value
A17_PRO_MEM_BYTES = REGISTRY["A17_PRO_MEM_BYTES"].value
PHONE_SUSTAINED_POWER_W = REGISTRY["PHONE_SUSTAINED_POWER_W"].value
PHONE_SUSTAINED_POWER_HIGH_W = REGISTRY["PHONE_SUSTAINED_POWER_HIGH_W"].value
PHONE_BATTERY_J = REGISTRY["PHONE_BATTERY_J"].value
STM32H743_CLOCK_HZ = REGISTRY["STM32H743_CLOCK_HZ"].value
STM32H743_PEAK_FP32 = REGISTRY["STM32H743_PEAK_FP32"].value
STM32H743_PEAK_INT8 = REGISTRY["STM32H743_PEAK_INT8"].value
STM32H743_SRAM_BYTES = REGISTRY["STM32H743_SRAM_BYTES"].value
STM32H743_AXI_SRAM_BYTES = REGISTRY["STM32H743_AXI_SRAM_BYTES"].value
STM32H743_FLASH_BYTES = REGISTRY["STM32H743_FLASH_BYTES"].value
STM32H743_ONCHIP_BW = REGISTRY["STM32H743_ONCHIP_BW"].value
STM32H743_QSPI_BW = REGISTRY["STM32H743_QSPI_BW"].value
MCU_ACTIVE_POWER_W = REGISTRY["MCU_ACTIVE_POWER_W"].value
CR2032_ENERGY_J = REGISTRY["CR2032_ENERGY_J"].value
CR2032_PULSE_MAX_W = REGISTRY["CR2032_PULSE_MAX_W"].value
AA_PAIR_ENERGY_J = REGISTRY["AA_PAIR_ENERGY_J"].value
FIBRE_GROUP_INDEX = REGISTRY["FIBRE_GROUP_INDEX"].value
SPEED_OF_LIGHT = REGISTRY["SPEED_OF_LIGHT"].value
# ---- V1-05 The Activation Tax ----
_HOPPER_BLOG_URL = "https://developer.nvidia.com/blog/nvidia-hopper-architecture-in-depth/"
REGISTRY.update({
    "H100_L2_BYTES": Spec(
        50e6, "B", "NVIDIA Hopper Architecture In-Depth (technical blog): a 50 MB L2 cache in H100, 1.25x the "
        "A100's 40 MB", _HOPPER_BLOG_URL, "VOL1 §V1-05 error 5: upstream showed 40 MB, the A100's L2",
        label="H100 SXM L2 cache"),
})
H100_L2_BYTES = REGISTRY["H100_L2_BYTES"].value
# ---- V1-01 The Magnitude Awakening: the H100's other dense rates, and the two workloads ----
_TORCHVISION_RESNET50_URL = "https://pytorch.org/vision/stable/models/generated/torchvision.models.resnet50.html"
_MLPERF_TINY_URL = "https://arxiv.org/abs/2106.07597"
_HELLO_EDGE_URL = "https://arxiv.org/abs/1711.07128"
REGISTRY.update({
    "H100_PEAK_INT8_DENSE": Spec(
        1978.9e12, "OP/s", "NVIDIA H100 SXM datasheet, INT8 tensor core: 3,958 TOPS with sparsity, half without "
        "(Klockwood's table: 1,978.9 dense)", _H100_KLOCKWOOD_URL,
        "numerically equal to the sparse BF16 figure, which is how the upstream '2,000,000x' arose",
        label="H100 SXM peak, INT8 dense"),
    "H100_PEAK_TF32_DENSE": Spec(
        494.7e12, "FLOP/s", "NVIDIA H100 SXM datasheet, TF32 tensor core: 989 TFLOPS with sparsity, half without "
        "(Klockwood's table: 494.7 dense)", _H100_KLOCKWOOD_URL,
        label="H100 SXM peak, TF32 dense (FP32 inputs on tensor cores)"),
    "RESNET50_PARAMS": Spec(
        25_557_032.0, "params", "torchvision ResNet50_Weights.IMAGENET1K_V1: num_params 25,557,032 (He et al. 2016)",
        _TORCHVISION_RESNET50_URL, "the spec's golden vectors round to 25.6 M; the upstream lab used 50 M",
        label="ResNet-50 parameters"),
    "RESNET50_MACS": Spec(
        4.1e9, "MAC", "torchvision ResNet-50 at 224 x 224: '4.09 GFLOPS', counted as multiply-adds, the "
        "convention of He et al. 2016 ('FLOPs (multiply-adds)'); rounded to 4.1 G (8.2 GFLOP forward) as the "
        "curriculum's golden vectors use",
        _TORCHVISION_RESNET50_URL, "VOL1 §0.2 error 4: the '4 GFLOPs' of the upstream labs are multiply-adds",
        label="ResNet-50 multiply-accumulates per image (224 x 224)"),
    "KWS_DSCNN_PARAMS": Spec(
        38.6e3, "params", "Banbury et al. 2021, MLPerf Tiny: the keyword-spotting DS-CNN has 38.6 K parameters",
        _MLPERF_TINY_URL, label="DS-CNN keyword spotter parameters (MLPerf Tiny)"),
    "KWS_DSCNN_MACS": Spec(
        2.7e6, "MAC", "Zhang et al. 2017, Hello Edge: DS-CNN (small) 5.4 M operations per inference, multiplies "
        "and adds counted separately, so 2.7 M multiply-accumulates", _HELLO_EDGE_URL,
        "cross-check: the MLPerf Tiny DS-CNN's layers (10x4 conv to 25x5x64, four depthwise-separable 64-channel "
        "blocks, FC 64->12) count 2.66 M MACs", label="DS-CNN keyword spotter multiply-accumulates per inference"),
})

H100_PEAK_INT8_DENSE = REGISTRY["H100_PEAK_INT8_DENSE"].value
H100_PEAK_TF32_DENSE = REGISTRY["H100_PEAK_TF32_DENSE"].value
RESNET50_PARAMS = REGISTRY["RESNET50_PARAMS"].value
RESNET50_MACS = REGISTRY["RESNET50_MACS"].value
KWS_DSCNN_PARAMS = REGISTRY["KWS_DSCNN_PARAMS"].value
KWS_DSCNN_MACS = REGISTRY["KWS_DSCNN_MACS"].value
# ---- V1-03 The Constraint Tax ----
_BOEHM_BASILI_URL = "https://www.cs.umd.edu/projects/SoftEng/ESEG/papers/82.78.pdf"
REGISTRY.update({
    "DEFECT_COST_RATIO_AFTER_DELIVERY": Spec(
        100.0, "1", "Boehm and Basili 2001, 'Software Defect Reduction Top 10 List', IEEE Computer 34(1), item 1: "
        "finding and fixing a software problem after delivery is often 100 times more expensive than during "
        "requirements and design (about 5:1 for small, non-critical systems)", _BOEHM_BASILI_URL,
        "VOL1 V1-03 (mem) confirmed; an empirical software figure, not the chapter's 2^(N-1) heuristic",
        label="Cost to fix a software defect after delivery vs during requirements (Boehm and Basili)"),
})

DEFECT_COST_RATIO_AFTER_DELIVERY = REGISTRY["DEFECT_COST_RATIO_AFTER_DELIVERY"].value

# ---- V1-04 The Data Gravity Trap: ResNet-50, ImageNet, storage tiers, AWS transfer prices ----
_TORCHVISION_RESNET50_URL = "https://pytorch.org/vision/stable/models/generated/torchvision.models.resnet50.html"
_IMAGENET_URL = "https://julsimon.medium.com/imagenet-part-1-going-on-an-adventure-c0a62976dc72"
_AWS_EC2_PRICING_URL = "https://aws.amazon.com/ec2/pricing/on-demand/"
_SAMSUNG_990_PRO_URL = ("https://www.slashcam.com/news/single/Samsung-990-PRO--New-NVMe-SSD-top-model-reaches-th-17407.html")
REGISTRY.update({
    "IMAGENET_TRAIN_IMAGES": Spec(
        1_281_167.0, "1", "ImageNet ILSVRC-2012: 1,281,167 training images in 1,000 classes (Russakovsky et al. 2015; "
        "J. Simon, 'ImageNet part 1', 2017)", _IMAGENET_URL, label="ImageNet-1k training images"),
    "IMAGENET_BYTES": Spec(
        150e9, "B", "ImageNet ILSVRC-2012 as JPEG files: about 150 GB (J. Simon, 'ImageNet part 1', 2017; "
        "NVIDIA DALI material quotes the same)", _IMAGENET_URL,
        "150 GB / 1.28 M images is about 117 KB per image; the lab's default JPEG is 110 KB (VOL1 §0.1)",
        label="ImageNet-1k JPEG dataset size (about)"),
    "HDD_SEQ_BW": Spec(
        150e6, "B/s", "Assumed: one 7,200 rpm hard disk streaming large files, 150 MB/s (typical drives give "
        "120 to 220 MB/s, faster on outer tracks)", "https://www.toolnova.io/tools/cheat-sheets/disk-io-reference",
        "VOL1 V1-04 storage table; a typical figure, not one drive's datasheet",
        label="Hard disk sequential read (assumed, typical)"),
    "HDD_RANDOM_IOPS": Spec(
        150.0, "1/s", "Assumed: a 7,200 rpm disk completes about 150 random reads per second (seek plus half a "
        "rotation, about 8 ms); the published range is 50 to 200", "https://www.toolnova.io/tools/cheat-sheets/disk-io-reference",
        "ERRATA: a labelled assumption (est), the top of the 50-200 IOPS range",
        label="Hard disk random reads per second (assumed)"),
    "HDD_RANDOM_IOPS_LOW": Spec(
        50.0, "1/s", "Hard disks complete 50 to 200 random reads per second (seek plus half a rotation): the bottom "
        "of the published range", "https://www.toolnova.io/tools/cheat-sheets/disk-io-reference",
        "V1-04's random-read slider spans this range and its help quotes it",
        label="Hard disk random reads per second, bottom of the usual range"),
    "HDD_RANDOM_IOPS_HIGH": Spec(
        200.0, "1/s", "Hard disks complete 50 to 200 random reads per second (seek plus half a rotation): the top "
        "of the published range", "https://www.toolnova.io/tools/cheat-sheets/disk-io-reference",
        "V1-04's random-read slider spans this range and its help quotes it",
        label="Hard disk random reads per second, top of the usual range"),
    "SATA_SSD_BW": Spec(
        550e6, "B/s", "SATA III SSD sequential read, about 550 MB/s: the 6 Gb/s link with 8b/10b coding carries "
        "600 MB/s and drives reach 550 to 560 MB/s", "https://sata-io.org/",
        label="SATA SSD sequential read (typical)"),
    "NVME_GEN4_BW": Spec(
        7.0e9, "B/s", "PCIe 4.0 x4 NVMe SSD sequential read, about 7 GB/s (Samsung 990 PRO: up to 7,450 MB/s; "
        "the x4 link carries 7.9 GB/s)", _SAMSUNG_990_PRO_URL,
        label="NVMe Gen4 SSD sequential read (typical)"),
    "PAGE_CACHE_BW": Spec(
        20e9, "B/s", "Assumed: a dataset held in the operating system's page cache (RAM) is read at about "
        "20 GB/s by a loader's memory copies; an estimate, not a measured figure", "",
        "VOL1 V1-04 storage table (est)", label="Page cache (RAM) read bandwidth (assumed)"),
    "AWS_INTER_REGION_USD_PER_GB": Spec(
        0.02, "USD/GB", "AWS EC2 on-demand pricing, Data Transfer: out to another AWS region, $0.02 per GB from "
        "US regions (2026 pricing guides agree)", _AWS_EC2_PRICING_URL,
        "upstream used $0.08/GB; 'between regions $0.02 to $0.08' depending on the pair",
        label="AWS data transfer between regions, per GB"),
    "AWS_INTERNET_EGRESS_USD_PER_GB": Spec(
        0.09, "USD/GB", "AWS EC2 on-demand pricing, Data Transfer: out to the internet, $0.09 per GB for the first "
        "10 TB a month (US East)", _AWS_EC2_PRICING_URL, label="AWS data transfer out to the internet, per GB"),
    # the rest of the tiered internet rate (US East): every GB is billed at the rate of the tier it falls in
    "AWS_EGRESS_TIER1_BYTES": Spec(
        10e12, "B", "AWS EC2 on-demand pricing, Data Transfer out to the internet: the first tier is the first "
        "10 TB a month ($0.09 per GB)", _AWS_EC2_PRICING_URL,
        "issue 24: 1 PB was priced at the first tier ($90k); the tiers give about $54k", label="AWS internet egress, end of the first tier"),
    "AWS_EGRESS_TIER2_BYTES": Spec(
        50e12, "B", "AWS EC2 on-demand pricing, Data Transfer out to the internet: the next 40 TB a month, to 50 TB",
        _AWS_EC2_PRICING_URL, label="AWS internet egress, end of the second tier"),
    "AWS_EGRESS_TIER3_BYTES": Spec(
        150e12, "B", "AWS EC2 on-demand pricing, Data Transfer out to the internet: the next 100 TB a month, to 150 TB",
        _AWS_EC2_PRICING_URL, label="AWS internet egress, end of the third tier"),
    "AWS_EGRESS_TIER2_USD_PER_GB": Spec(
        0.085, "USD/GB", "AWS EC2 on-demand pricing, Data Transfer out to the internet (US East): $0.085 per GB for "
        "the next 40 TB a month", _AWS_EC2_PRICING_URL, label="AWS internet egress, 10 to 50 TB a month, per GB"),
    "AWS_EGRESS_TIER3_USD_PER_GB": Spec(
        0.07, "USD/GB", "AWS EC2 on-demand pricing, Data Transfer out to the internet (US East): $0.07 per GB for "
        "the next 100 TB a month", _AWS_EC2_PRICING_URL, label="AWS internet egress, 50 to 150 TB a month, per GB"),
    "AWS_EGRESS_TIER4_USD_PER_GB": Spec(
        0.05, "USD/GB", "AWS EC2 on-demand pricing, Data Transfer out to the internet (US East): $0.05 per GB above "
        "150 TB a month", _AWS_EC2_PRICING_URL, label="AWS internet egress, above 150 TB a month, per GB"),
    "LEPTON_SIZE_RATIO": Spec(
        0.77, "1", "Horn et al., NSDI 2017 (Lepton): losslessly compresses JPEG images to 77 % of their original "
        "size on average", "https://www.usenix.org/conference/nsdi17/technical-sessions/presentation/horn",
        label="Lossless JPEG recompression (Lepton), size after ÷ before"),
})

IMAGENET_TRAIN_IMAGES = REGISTRY["IMAGENET_TRAIN_IMAGES"].value
IMAGENET_BYTES = REGISTRY["IMAGENET_BYTES"].value
HDD_SEQ_BW = REGISTRY["HDD_SEQ_BW"].value
HDD_RANDOM_IOPS = REGISTRY["HDD_RANDOM_IOPS"].value
HDD_RANDOM_IOPS_LOW = REGISTRY["HDD_RANDOM_IOPS_LOW"].value
HDD_RANDOM_IOPS_HIGH = REGISTRY["HDD_RANDOM_IOPS_HIGH"].value
SATA_SSD_BW = REGISTRY["SATA_SSD_BW"].value
NVME_GEN4_BW = REGISTRY["NVME_GEN4_BW"].value
PAGE_CACHE_BW = REGISTRY["PAGE_CACHE_BW"].value
AWS_INTER_REGION_USD_PER_GB = REGISTRY["AWS_INTER_REGION_USD_PER_GB"].value
AWS_INTERNET_EGRESS_USD_PER_GB = REGISTRY["AWS_INTERNET_EGRESS_USD_PER_GB"].value
AWS_EGRESS_TIER1_BYTES = REGISTRY["AWS_EGRESS_TIER1_BYTES"].value
AWS_EGRESS_TIER2_BYTES = REGISTRY["AWS_EGRESS_TIER2_BYTES"].value
AWS_EGRESS_TIER3_BYTES = REGISTRY["AWS_EGRESS_TIER3_BYTES"].value
AWS_EGRESS_TIER2_USD_PER_GB = REGISTRY["AWS_EGRESS_TIER2_USD_PER_GB"].value
AWS_EGRESS_TIER3_USD_PER_GB = REGISTRY["AWS_EGRESS_TIER3_USD_PER_GB"].value
AWS_EGRESS_TIER4_USD_PER_GB = REGISTRY["AWS_EGRESS_TIER4_USD_PER_GB"].value
LEPTON_SIZE_RATIO = REGISTRY["LEPTON_SIZE_RATIO"].value
# ---- V1-06 The Quadratic Wall: the GPT-2 XL shape (Hugging Face gpt2-xl config.json) ----
_GPT2_XL_CONFIG_URL = "https://huggingface.co/openai-community/gpt2-xl/blob/main/config.json"
REGISTRY.update({
    "GPT2_XL_LAYERS": Spec(48.0, "layers", "OpenAI GPT-2 XL, Hugging Face config.json (n_layer)", _GPT2_XL_CONFIG_URL,
                           label="GPT-2 XL layers"),
    "GPT2_XL_HIDDEN": Spec(1600.0, "1", "OpenAI GPT-2 XL, Hugging Face config.json (n_embd)", _GPT2_XL_CONFIG_URL,
                           "the upstream lab used 1,024 (GPT-2 Medium's width)",
                           label="GPT-2 XL model width (d_model)"),
    "GPT2_XL_HEADS": Spec(25.0, "heads", "OpenAI GPT-2 XL, Hugging Face config.json (n_head)", _GPT2_XL_CONFIG_URL,
                          "the upstream lab used 16 (GPT-2 Medium's heads)", label="GPT-2 XL attention heads"),
    "GPT2_XL_CONTEXT": Spec(1024.0, "tokens", "OpenAI GPT-2 XL, Hugging Face config.json (n_positions)",
                            _GPT2_XL_CONFIG_URL, label="GPT-2 XL trained context length"),
    "GPT2_XL_VOCAB": Spec(50257.0, "tokens", "OpenAI GPT-2 XL, Hugging Face config.json (vocab_size)",
                          _GPT2_XL_CONFIG_URL, label="GPT-2 XL vocabulary size"),
})

GPT2_XL_LAYERS = REGISTRY["GPT2_XL_LAYERS"].value
GPT2_XL_HIDDEN = REGISTRY["GPT2_XL_HIDDEN"].value
GPT2_XL_HEADS = REGISTRY["GPT2_XL_HEADS"].value
GPT2_XL_CONTEXT = REGISTRY["GPT2_XL_CONTEXT"].value
GPT2_XL_VOCAB = REGISTRY["GPT2_XL_VOCAB"].value
# ---- V1-08 The Training Memory Budget: the model presets' shapes ----
_GPT2_HF_URL = "https://huggingface.co/openai-community/gpt2/blob/main/config.json"
_GPT2_XL_HF_URL = "https://huggingface.co/openai-community/gpt2-xl/blob/main/config.json"
_LLAMA2_7B_URL = "https://arxiv.org/abs/2307.09288"
REGISTRY.update({
    "GPT2_SMALL_PARAMS": Spec(124e6, "params", "OpenAI GPT-2 (124M) on Hugging Face: 124 M parameters",
                              _GPT2_HF_URL, label="GPT-2 (small) parameters"),
    "GPT2_SMALL_LAYERS": Spec(12.0, "layers", "GPT-2 config.json (n_layer)", _GPT2_HF_URL, label="GPT-2 (small) layers"),
    "GPT2_SMALL_HIDDEN": Spec(768.0, "1", "GPT-2 config.json (n_embd)", _GPT2_HF_URL, label="GPT-2 (small) width"),
    "GPT2_SMALL_HEADS": Spec(12.0, "heads", "GPT-2 config.json (n_head)", _GPT2_HF_URL, label="GPT-2 (small) heads"),
    "GPT2_XL_PARAMS": Spec(1.5576e9, "params", "OpenAI GPT-2 XL on Hugging Face: 1,557,611,200 parameters",
                           _GPT2_XL_HF_URL, label="GPT-2 XL parameters"),
    "GPT3_XL_PARAMS": Spec(1.3e9, "params", "Brown et al. 2020, Table 2.1 (GPT-3 XL)", _GPT3_URL,
                           label="GPT-3 XL parameters"),
    "GPT3_XL_LAYERS": Spec(24.0, "layers", "Brown et al. 2020, Table 2.1 (GPT-3 XL)", _GPT3_URL,
                           label="GPT-3 XL layers"),
    "GPT3_XL_HIDDEN": Spec(2048.0, "1", "Brown et al. 2020, Table 2.1 (GPT-3 XL d_model)", _GPT3_URL,
                           label="GPT-3 XL width (d_model)"),
    "GPT3_XL_HEADS": Spec(
        24.0, "heads", "Brown et al. 2020, Table 2.1 (GPT-3 XL: 24 heads of 128)", _GPT3_URL,
        "ERRATA V1-08: the spec's 16 heads is the Megatron-DeepSpeed / Cerebras-GPT 1.3B config",
        label="GPT-3 XL attention heads"),
    "LLAMA2_7B_PARAMS": Spec(6.74e9, "params", "Llama-2-7b checkpoint: 6,738,415,616 parameters (Touvron et al. 2023 call it 7B)",
                             _LLAMA2_7B_URL, label="Llama 2 7B parameters"),
    "LLAMA2_7B_LAYERS": Spec(32.0, "layers", "Llama-2-7b config.json (num_hidden_layers)", _LLAMA2_7B_URL,
                             label="Llama 2 7B layers"),
    "LLAMA2_7B_HIDDEN": Spec(4096.0, "1", "Llama-2-7b config.json (hidden_size)", _LLAMA2_7B_URL,
                             label="Llama 2 7B width"),
    "LLAMA2_7B_HEADS": Spec(32.0, "heads", "Llama-2-7b config.json (num_attention_heads)", _LLAMA2_7B_URL,
                            label="Llama 2 7B attention heads"),
})

GPT2_SMALL_PARAMS = REGISTRY["GPT2_SMALL_PARAMS"].value
GPT2_SMALL_LAYERS = REGISTRY["GPT2_SMALL_LAYERS"].value
GPT2_SMALL_HIDDEN = REGISTRY["GPT2_SMALL_HIDDEN"].value
GPT2_SMALL_HEADS = REGISTRY["GPT2_SMALL_HEADS"].value
GPT2_XL_PARAMS = REGISTRY["GPT2_XL_PARAMS"].value
GPT3_XL_PARAMS = REGISTRY["GPT3_XL_PARAMS"].value
GPT3_XL_LAYERS = REGISTRY["GPT3_XL_LAYERS"].value
GPT3_XL_HIDDEN = REGISTRY["GPT3_XL_HIDDEN"].value
GPT3_XL_HEADS = REGISTRY["GPT3_XL_HEADS"].value
LLAMA2_7B_PARAMS = REGISTRY["LLAMA2_7B_PARAMS"].value
LLAMA2_7B_LAYERS = REGISTRY["LLAMA2_7B_LAYERS"].value
LLAMA2_7B_HIDDEN = REGISTRY["LLAMA2_7B_HIDDEN"].value
LLAMA2_7B_HEADS = REGISTRY["LLAMA2_7B_HEADS"].value
# ---- V1-07 The Kernel Fusion Dividend: launch overhead ----
_HTA_URL = ("https://github.com/facebookresearch/HolisticTraceAnalysis/blob/main/docs/source/features/"
            "cuda_kernel_launch_stats.rst")
_CUDAJL_GRAPHS_URL = "https://cuda.juliagpu.org/dev/usage/graphs/"
REGISTRY.update({
    "KERNEL_LAUNCH_CPU_LOW_S": Spec(
        5e-6, "s", "Meta, Holistic Trace Analysis docs, 'CUDA kernel launch statistics': the CPU side of a "
        "launch usually takes 5 to 20 microseconds", _HTA_URL,
        "VOL1 §V1-07 uses 10 us for the cloud (the chapter's 5-20 us range); confirmed by HTA",
        label="CPU time of one kernel launch, low end of the usual range"),
    "KERNEL_LAUNCH_CPU_HIGH_S": Spec(
        20e-6, "s", "Meta, Holistic Trace Analysis docs, 'CUDA kernel launch statistics': the CPU side of a "
        "launch usually takes 5 to 20 microseconds", _HTA_URL,
        label="CPU time of one kernel launch, high end of the usual range"),
    "CUDA_GRAPH_PER_KERNEL_S": Spec(
        1e-6, "s", "CUDA.jl documentation, 'Graphs': 80 small broadcast kernels launched as one CUDA graph run "
        "in 70 us (under 0.9 us per kernel, execution included) against 260 us launched one by one",
        _CUDAJL_GRAPHS_URL, "VOL1 §V1-07 (3): 'CUDA graphs: t_cpu -> ~1 us'; an upper figure per kernel",
        label="Cost per kernel inside a replayed CUDA graph (about 1 us)"),
})

KERNEL_LAUNCH_CPU_LOW_S = REGISTRY["KERNEL_LAUNCH_CPU_LOW_S"].value
KERNEL_LAUNCH_CPU_HIGH_S = REGISTRY["KERNEL_LAUNCH_CPU_HIGH_S"].value
CUDA_GRAPH_PER_KERNEL_S = REGISTRY["CUDA_GRAPH_PER_KERNEL_S"].value
# ---- V1-09 The Data Selection Tradeoff ----
_TORCHVISION_RESNET50_URL = "https://pytorch.org/vision/stable/models/generated/torchvision.models.resnet50.html"
_DLE_RESNET50_URL = ("https://github.com/NVIDIA/DeepLearningExamples/blob/master/PyTorch/Classification/ConvNets/"
                     "resnet50v1.5/README.md")
REGISTRY.update({
    "RESNET50_A100_AMP_TRAIN_IMAGES_PER_S": Spec(
        2470.0, "1/s", "NVIDIA DeepLearningExamples, ResNet50 v1.5 for PyTorch, 'Training performance: NVIDIA DGX A100 "
        "(8x A100 80GB)', 1 GPU, mixed precision: 2470 img/s (pytorch-21.03 NGC container)", _DLE_RESNET50_URL,
        "a measured training rate: V1-09 sets it beside its assumed utilisation (2,470 x 24.6 GFLOP / 312 TFLOP/s = "
        "19.5 % of the A100's dense peak), and V1-04 takes its MFU from it (issue 24: the spec's 0.40 gave 5,073 img/s)",
        label="ResNet-50 v1.5 training on one A100 80 GB, mixed precision (NVIDIA, measured)"),
})
RESNET50_A100_AMP_TRAIN_IMAGES_PER_S = REGISTRY["RESNET50_A100_AMP_TRAIN_IMAGES_PER_S"].value
# ---- V1-10 The Compression Frontier ----
_TV_RESNET50_URL = "https://pytorch.org/vision/stable/models/generated/torchvision.models.resnet50.html"
_TV_MOBILENET_V2_URL = "https://pytorch.org/vision/stable/models/generated/torchvision.models.mobilenet_v2.html"
_LLAMA32_1B_CONFIG_URL = "https://huggingface.co/meta-llama/Llama-3.2-1B/blob/main/config.json"
_TV_QUANT_RESNET50_URL = ("https://pytorch.org/vision/stable/models/generated/"
                          "torchvision.models.quantization.resnet50.html")
_TV_QUANT_MOBILENET_V2_URL = ("https://pytorch.org/vision/stable/models/generated/"
                              "torchvision.models.quantization.mobilenet_v2.html")
_LLAMA32_3B_CONFIG_URL = "https://huggingface.co/meta-llama/Llama-3.2-3B/blob/main/config.json"
REGISTRY.update({
    "RESNET50_TOP1": Spec(
        0.7613, "1", "torchvision ResNet50_Weights.IMAGENET1K_V1: acc@1 76.13 % on ImageNet-1K", _TV_RESNET50_URL,
        label="ResNet-50 top-1 accuracy (FP32, torchvision)"),
    "MOBILENETV2_PARAMS": Spec(
        3_504_872.0, "params", "torchvision MobileNet_V2_Weights.IMAGENET1K_V1: num_params 3,504,872",
        _TV_MOBILENET_V2_URL, label="MobileNetV2 parameters"),
    "MOBILENETV2_FLOP": Spec(
        2 * 0.30e9, "FLOP", "torchvision MobileNet_V2_Weights.IMAGENET1K_V1: 0.30 GFLOPS per image, counted as "
        "multiply-accumulates; 2 FLOP each", _TV_MOBILENET_V2_URL, label="MobileNetV2 arithmetic per image (FLOP)"),
    "MOBILENETV2_TOP1": Spec(
        0.71878, "1", "torchvision MobileNet_V2_Weights.IMAGENET1K_V1: acc@1 71.878 % on ImageNet-1K",
        _TV_MOBILENET_V2_URL, label="MobileNetV2 top-1 accuracy (FP32, torchvision)"),
    "LLAMA32_1B_PARAMS": Spec(
        1.236e9, "params", "Derived from Llama-3.2-1B config.json (hidden 2,048, 16 layers, MLP 8,192, vocab "
        "128,256, tied embeddings): 1,235,814,400 parameters", _LLAMA32_1B_CONFIG_URL,
        label="Llama 3.2 1B parameters"),
    "LLAMA32_1B_LAYERS": Spec(16.0, "layers", "Llama-3.2-1B config.json (num_hidden_layers)",
                              _LLAMA32_1B_CONFIG_URL),
    "LLAMA32_1B_KV_HEADS": Spec(8.0, "heads", "Llama-3.2-1B config.json (num_key_value_heads)",
                                _LLAMA32_1B_CONFIG_URL),
    "LLAMA32_1B_HEAD_DIM": Spec(64.0, "1", "Llama-3.2-1B config.json (head_dim; hidden 2,048 / 32 heads)",
                                _LLAMA32_1B_CONFIG_URL),
    "LLAMA32_3B_PARAMS": Spec(
        3.213e9, "params", "Derived from Llama-3.2-3B config.json (hidden 3,072, 28 layers, MLP 8,192, vocab "
        "128,256, tied embeddings): 3,212,749,824 parameters", _LLAMA32_3B_CONFIG_URL,
        label="Llama 3.2 3B parameters"),
    "LLAMA32_3B_LAYERS": Spec(28.0, "layers", "Llama-3.2-3B config.json (num_hidden_layers)",
                              _LLAMA32_3B_CONFIG_URL),
    "LLAMA32_3B_KV_HEADS": Spec(8.0, "heads", "Llama-3.2-3B config.json (num_key_value_heads)",
                                _LLAMA32_3B_CONFIG_URL),
    "RESNET50_INT8_PTQ_TOP1": Spec(
        0.7592, "1", "torchvision ResNet50_QuantizedWeights.IMAGENET1K_FBGEMM_V1 (post-training quantization, "
        "fbgemm: per-channel INT8 weights): acc@1 75.920 % on ImageNet-1K, from IMAGENET1K_V1 at 76.130 %",
        _TV_QUANT_RESNET50_URL, "issue 24: replaces the lab's representative 0.2 pp (est)",
        label="ResNet-50 top-1 accuracy, INT8 post-training quantized (torchvision, fbgemm)"),
    "MOBILENETV2_INT8_QAT_TOP1": Spec(
        0.71658, "1", "torchvision MobileNet_V2_QuantizedWeights.IMAGENET1K_QNNPACK_V1 (quantization-aware "
        "training, qnnpack): acc@1 71.658 % on ImageNet-1K, from IMAGENET1K_V1 at 71.878 %. PyTorch's "
        "get_default_qat_qconfig('qnnpack') fake-quantizes weights per_tensor_symmetric "
        "(default_fused_wt_fake_quant)", _TV_QUANT_MOBILENET_V2_URL,
        "issue 24: the lab showed 1.5 pp (est) for per-tensor QAT",
        label="MobileNetV2 top-1 accuracy, INT8 per-tensor QAT (torchvision, qnnpack)"),
})
RESNET50_TOP1 = REGISTRY["RESNET50_TOP1"].value
RESNET50_INT8_PTQ_TOP1 = REGISTRY["RESNET50_INT8_PTQ_TOP1"].value
MOBILENETV2_INT8_QAT_TOP1 = REGISTRY["MOBILENETV2_INT8_QAT_TOP1"].value
MOBILENETV2_PARAMS = REGISTRY["MOBILENETV2_PARAMS"].value
MOBILENETV2_FLOP = REGISTRY["MOBILENETV2_FLOP"].value
MOBILENETV2_TOP1 = REGISTRY["MOBILENETV2_TOP1"].value
LLAMA32_1B_PARAMS = REGISTRY["LLAMA32_1B_PARAMS"].value
LLAMA32_1B_LAYERS = REGISTRY["LLAMA32_1B_LAYERS"].value
LLAMA32_1B_KV_HEADS = REGISTRY["LLAMA32_1B_KV_HEADS"].value
LLAMA32_1B_HEAD_DIM = REGISTRY["LLAMA32_1B_HEAD_DIM"].value
LLAMA32_3B_PARAMS = REGISTRY["LLAMA32_3B_PARAMS"].value
LLAMA32_3B_LAYERS = REGISTRY["LLAMA32_3B_LAYERS"].value
LLAMA32_3B_KV_HEADS = REGISTRY["LLAMA32_3B_KV_HEADS"].value
# ---- V1-11 The Roofline ----
_ORIN_DEVICEQUERY_URL = "https://gist.github.com/atinfinity/8cede915acda05d0ff427c09604735dd"
_GPTQ_URL = "https://arxiv.org/abs/2210.17323"
_COREML_QUANT_PERF_URL = "https://apple.github.io/coremltools/docs-guides/source/opt-quantization-perf.html"
REGISTRY.update({
    "ORIN_NX_PEAK_FP32": Spec(
        1024 * 2 * 0.918e9, "FLOP/s",
        "Derived: 1,024 CUDA cores x one FMA (2 FLOP) per cycle x 918 MHz, the Orin NX 16 GB GPU's core count "
        "and maximum clock as CUDA deviceQuery reports them (8 SM x 128 cores)", _ORIN_DEVICEQUERY_URL,
        "no tensor cores in FP32; 1.88 TFLOP/s",
        label="Jetson Orin NX 16 GB GPU peak, FP32 without tensor cores (derived)"),
    "LLAMA3_8B_QUERY_HEADS": Spec(32.0, "heads", "Meta-Llama-3-8B config.json (num_attention_heads)",
                                  _LLAMA3_8B_CONFIG_URL, label="Llama-3-8B attention (query) heads"),
    "QUANT_GROUP_WEIGHTS": Spec(
        128.0, "1", "GPTQ/AWQ grouped 4-bit quantisation: one scale per group of 128 weights (the usual "
        "group_size, e.g. transformers GPTQConfig)", _GPTQ_URL,
        label="Weights per quantisation group (INT4 g128)"),
    "QUANT_SCALE_BYTES": Spec(
        2.0, "B", "GPTQ/AWQ grouped quantisation: each group's scale is stored in FP16 (2 bytes; zero points "
        "are left out here)", _GPTQ_URL, label="Bytes per quantisation scale (FP16)"),
    "LLAMA3_8B_MAX_CONTEXT": Spec(8192.0, "tokens", "Meta-Llama-3-8B config.json (max_position_embeddings)",
                                  _LLAMA3_8B_CONFIG_URL, label="Llama-3-8B context window"),
    "A17_PRO_NPU_FP16_ASSUMED": Spec(
        REGISTRY["A17_PRO_NPU_OPS"].value / 2, "FLOP/s",
        "Assumed: half of Apple's 35 trillion operations per second. Apple states no precision; coremltools "
        "(Quantization: Performance) says the A17 Pro's Neural Engine has 'increased throughput possible for "
        "int8-int8 compute' over earlier ones, so the headline 35 is read as the INT8 rate and FP16 taken at "
        "half of it, the 2:1 INT8:FP16 ratio of matrix units", _COREML_QUANT_PERF_URL,
        "V1-11 review: the lab first took the whole 35 as FP16, an upper bound at best (Apple would headline "
        "the faster INT8 rate)",
        label="Apple A17 Pro Neural Engine FP16 peak (assumed: half of Apple's 35 TOPS)"),
})
ORIN_NX_PEAK_FP32 = REGISTRY["ORIN_NX_PEAK_FP32"].value
LLAMA3_8B_MAX_CONTEXT = REGISTRY["LLAMA3_8B_MAX_CONTEXT"].value
A17_PRO_NPU_FP16_ASSUMED = REGISTRY["A17_PRO_NPU_FP16_ASSUMED"].value
LLAMA3_8B_QUERY_HEADS = REGISTRY["LLAMA3_8B_QUERY_HEADS"].value
QUANT_GROUP_WEIGHTS = REGISTRY["QUANT_GROUP_WEIGHTS"].value
QUANT_SCALE_BYTES = REGISTRY["QUANT_SCALE_BYTES"].value

# ---- V1-08 The Training Memory Budget ----
_METAL_BENCHMARKS_URL = "https://github.com/philipturner/metal-benchmarks"
_HMC_A17_GPU_URL = "https://hmc-tech.com/gpu/apple-6-core-a17-pro-vs-imagination-img-axe-2-16"
REGISTRY.update({
    "A17_PRO_GPU_CORES": Spec(6.0, "1", "Apple, iPhone 15 Pro announcement (Sept 2023): 'the new 6-core GPU "
                              "in A17 Pro'", _A17_URL, label="Apple A17 Pro GPU cores"),
    "APPLE_GPU_ALUS_PER_CORE": Spec(
        128.0, "1", "Third-party measurements, not Apple: metal-benchmarks (P. Turner) gives 128 ALUs per core for "
        "the Apple 7 and 8 GPU families (its table: A15, 5 cores, 1,710 GFLOPS FP32 at 1,336 MHz = 128 a core) "
        "and F16 no faster than F32; hmc-tech lists the A17 Pro GPU with 768 shaders (6 x 128)",
        _METAL_BENCHMARKS_URL, label="ALUs per Apple GPU core"),
    "A17_PRO_GPU_CLOCK_HZ_ASSUMED": Spec(
        1.398e9, "Hz", "Assumed: 1,398 MHz as third-party GPU databases list the A17 Pro GPU (hmc-tech: 768 "
        "shaders, 1,398 MHz, 2.15 TFLOPS FP32 and FP16); metal-benchmarks gives 1,398 MHz for the M2 GPU and "
        "at least 1,336 MHz for the A15 and A16. Apple does not publish GPU clocks", _HMC_A17_GPU_URL,
        label="Apple A17 Pro GPU clock (assumed; Apple does not publish it)"),
})
REGISTRY.update({
    "A17_PRO_GPU_FP32_ASSUMED": Spec(
        REGISTRY["A17_PRO_GPU_CORES"].value * REGISTRY["APPLE_GPU_ALUS_PER_CORE"].value * 2
        * REGISTRY["A17_PRO_GPU_CLOCK_HZ_ASSUMED"].value, "FLOP/s",
        "Derived and assumed: 6 cores (Apple) x 128 ALUs (third-party) x 2 FLOP per fused multiply-add x 1.398 GHz "
        "(assumed clock) = 2.15 TFLOP/s, FP32 and FP16 alike. Apple publishes no GPU rate. Training frameworks on Apple "
        "devices run on the CPU or the GPU (MLX and ML Compute name no other device), not the Neural Engine",
        _METAL_BENCHMARKS_URL,
        "V1-08 review (issue 24): the lab first trained on the Neural Engine's 35 TOPS, an inference rate with no "
        "stated precision", label="Apple A17 Pro GPU peak, FP32 and FP16 (derived, clock assumed)"),
})
A17_PRO_GPU_CORES = REGISTRY["A17_PRO_GPU_CORES"].value
APPLE_GPU_ALUS_PER_CORE = REGISTRY["APPLE_GPU_ALUS_PER_CORE"].value
A17_PRO_GPU_CLOCK_HZ_ASSUMED = REGISTRY["A17_PRO_GPU_CLOCK_HZ_ASSUMED"].value
A17_PRO_GPU_FP32_ASSUMED = REGISTRY["A17_PRO_GPU_FP32_ASSUMED"].value

# ---- V1-14 The Silent Degradation Problem ----
_YURDAKUL_URL = "https://scholarworks.wmich.edu/dissertations/3208"
REGISTRY.update({
    "PSI_MINOR_SHIFT": Spec(
        0.10, "1", "Yurdakul 2018, Statistical Properties of Population Stability Index (WMU dissertation): "
        "the credit-scoring rule of thumb, PSI below 0.10 is little change", _YURDAKUL_URL,
        "The 0.10 / 0.25 convention goes back to Lewis 1994 (credit scoring); a practitioner convention, "
        "not a statistical test. Spec V1-14 error 4.", label="PSI rule of thumb: moderate shift above"),
    "PSI_MAJOR_SHIFT": Spec(
        0.25, "1", "Yurdakul 2018, Statistical Properties of Population Stability Index (WMU dissertation): "
        "the credit-scoring rule of thumb, PSI above 0.25 is a significant shift, action required",
        _YURDAKUL_URL, label="PSI rule of thumb: significant shift above"),
})

PSI_MINOR_SHIFT = REGISTRY["PSI_MINOR_SHIFT"].value
PSI_MAJOR_SHIFT = REGISTRY["PSI_MAJOR_SHIFT"].value
