"""Published training runs: their data, compute, scale, failures and checkpoints."""

from pylabs.physics.constants.registry import spec

_SCALING_BOOK_TRAINING_URL = "https://jax-ml.github.io/scaling-book/applied-training/"
_GPT3_URL = "https://arxiv.org/abs/2005.14165"
_MEGATRON_GPT3_URL = (
    "https://github.com/NVIDIA/Megatron-LM/blob/main/examples/gpt3/"
    "train_gpt3_175b_distributed.sh"
)
_MEGATRON_README_URL = "https://github.com/NVIDIA/Megatron-LM#readme"
_EPOCH_URL = "https://epoch.ai/data/notable-ai-models"
_LLAMA3_PAPER_URL = "https://arxiv.org/abs/2407.21783"
_DLE_RESNET50_URL = ("https://github.com/NVIDIA/DeepLearningExamples/blob/master/PyTorch/Classification/ConvNets/"
                     "resnet50v1.5/README.md")

# Tokens and compute
GPT3_TOKENS = spec(
    300e9, "tokens", "Brown et al. 2020, Sec. 2.2 (training tokens)", _GPT3_URL, label="GPT-3 training tokens")
LLAMA3_70B_TOKENS = spec(
    15e12, "tokens", "Meta Llama 3 model card (pretrained on over 15T tokens)",
    "https://github.com/meta-llama/llama3/blob/main/MODEL_CARD.md", label="Llama 3 70B training tokens")
LLAMA3_70B_TRAIN_FLOPS = spec(
    6.3e24, "FLOP", "Austin et al., How to Scale Your Model (Llama-3-70B-class run, 6ND)",
    _SCALING_BOOK_TRAINING_URL, note="6 x 70e9 params x 15e12 tokens", label="Llama 3 70B training compute")
GPT4_TRAIN_FLOPS = spec(
    2.1e25, "FLOP", "Epoch AI, Notable AI Models database (GPT-4 estimate)", _EPOCH_URL,
    note="an outside estimate; OpenAI has not published the figure", label="GPT-4 training compute (estimate)")

# Megatron-LM's GPT-3 175B example run
MEGATRON_GPT3_GLOBAL_BATCH = spec(
    1536.0, "sequences", "NVIDIA Megatron-LM examples/gpt3/train_gpt3_175b_distributed.sh (--global-batch-size)",
    _MEGATRON_GPT3_URL, label="Megatron-LM GPT-3 175B example: global batch")
MEGATRON_GPT3_MICRO_BATCH = spec(
    1.0, "sequences", "NVIDIA Megatron-LM examples/gpt3/train_gpt3_175b_distributed.sh (--micro-batch-size)",
    _MEGATRON_GPT3_URL, label="Megatron-LM GPT-3 175B example: micro-batch")
MEGATRON_GPT3_TP = spec(
    8.0, "GPUs", "NVIDIA Megatron-LM examples/gpt3/train_gpt3_175b_distributed.sh (--tensor-model-parallel-size)",
    _MEGATRON_GPT3_URL, label="Megatron-LM GPT-3 175B example: tensor-parallel size")
MEGATRON_GPT3_PP = spec(
    16.0, "GPUs",
    "NVIDIA Megatron-LM examples/gpt3/train_gpt3_175b_distributed.sh (--pipeline-model-parallel-size)",
    _MEGATRON_GPT3_URL, label="Megatron-LM GPT-3 175B example: pipeline-parallel size")
MEGATRON_GPT3_GPUS = spec(
    1024.0, "GPUs", "NVIDIA Megatron-LM README: the GPT-3 175B example runs 'on 1024 GPUs'", _MEGATRON_README_URL,
    note="data-parallel degree = 1024 / (8 x 16) = 8", label="Megatron-LM GPT-3 175B example: GPUs")

# The Llama 3 405B run (Dubey et al. 2024, sec. 3.3)
LLAMA3_405B_GPUS = spec(
    16384.0, "GPUs", "Dubey et al. 2024, The Llama 3 Herd of Models, sec. 3.3.4 (16K H100 GPUs)",
    _LLAMA3_PAPER_URL)
LLAMA3_405B_SNAPSHOT_S = spec(
    54 * 86400.0, "s", "Dubey et al. 2024, sec. 3.3.4 (a 54-day snapshot of pre-training)", _LLAMA3_PAPER_URL,
    note="54 days x 86,400 s")
LLAMA3_405B_UNEXPECTED_INTERRUPTIONS = spec(
    419.0, "1", "Dubey et al. 2024, sec. 3.3.4, Table 5 (419 unexpected of 466 interruptions)", _LLAMA3_PAPER_URL,
    note="47 further interruptions were planned maintenance")
LLAMA3_405B_EFFECTIVE_TRAINING = spec(
    0.90, "1", "Dubey et al. 2024, sec. 3.3.4 ('higher than 90% effective training time')", _LLAMA3_PAPER_URL,
    note="a lower bound as reported")
LLAMA3_405B_MFU_16K = spec(
    0.41, "1",
    "Dubey et al. 2024, sec. 3.3.2, Table 4 (16,384 H100s, TP 8, CP 1, PP 16, DP 128: 400 TFLOPs/GPU, BF16 MFU 41 "
    "%)", _LLAMA3_PAPER_URL, note="the paper reports 38-43 % over its three stages",
    label="Llama 3 405B BF16 MFU on 16,384 H100s")
LLAMA3_CKPT_MAX_BYTES_PER_GPU = spec(
    4e9, "B", "Dubey et al. 2024, sec. 3.3.1 (checkpoints from 1 MB to 4 GB per GPU)", _LLAMA3_PAPER_URL)

# Measured rates
PYTORCH_DCP_ASYNC_STAGING_S = spec(
    0.78, "s",
    "Wright et al. (Meta and Crusoe), PyTorch blog 2025, '6x faster Async Checkpointing in PyTorch': GPU training "
    "blocked 0.78 s while DCP staged a Llama3-70B checkpoint to CPU memory",
    "https://pytorch.org/blog/6x-faster-async-checkpointing/",
    note="1,856 H200 GPUs, HSDP2 with TorchTitan; the background write then slowed training for about 67 s",
    label="Measured blocking time of one asynchronous PyTorch DCP save (staging), 1,856 GPUs")
PYTORCH_DCP_ASYNC_STAGING_GPUS = spec(
    1856.0, "GPUs", "Wright et al. (Meta and Crusoe), PyTorch blog 2025 (1,856 H200 GPUs, Llama3-70B)",
    "https://pytorch.org/blog/6x-faster-async-checkpointing/",
    label="GPUs in the PyTorch DCP asynchronous-save measurement")
RESNET50_A100_AMP_TRAIN_IMAGES_PER_S = spec(
    2470.0, "1/s",
    "NVIDIA DeepLearningExamples, ResNet50 v1.5 for PyTorch, 'Training performance: NVIDIA DGX A100 (8x A100 "
    "80GB)', 1 GPU, mixed precision: 2470 img/s (pytorch-21.03 NGC container)", _DLE_RESNET50_URL,
    note="a measured training rate: V1-09 sets it beside its assumed utilisation (2,470 x 24.6 GFLOP / 312 TFLOP/s "
    "= 19.5 % of the A100's dense peak), and V1-04 takes its MFU from it (the spec's assumed 0.40 gave "
    "5,073 img/s, twice what NVIDIA measured)",
    label="ResNet-50 v1.5 training on one A100 80 GB, mixed precision (NVIDIA, measured)")

# Federated averaging
FEDAVG_ROUND_REDUCTION_LOW = spec(
    10.0, "1",
    "McMahan et al. 2017, Communication-Efficient Learning of Deep Networks from Decentralized Data, abstract: "
    "FedAvg needs 10-100x fewer communication rounds than synchronised SGD", "https://arxiv.org/abs/1602.05629")
FEDAVG_ROUND_REDUCTION_HIGH = spec(
    100.0, "1", "McMahan et al. 2017, abstract (upper end of the 10-100x range)",
    "https://arxiv.org/abs/1602.05629")
