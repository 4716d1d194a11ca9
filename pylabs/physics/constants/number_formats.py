"""Bytes per value and per parameter: number formats, quantisation groups, optimizer state."""

from pylabs.physics.constants.registry import spec

_ZERO_URL = "https://arxiv.org/abs/1910.02054"
_VLLM_ARGS_URL = "https://docs.vllm.ai/en/latest/models/engine_args.html"
_GPTQ_URL = "https://arxiv.org/abs/2210.17323"

# Number formats
BYTES_PER_FP32 = spec(
    4.0, "B", "IEEE 754 binary32: 32 bits per value", "https://doi.org/10.1109/IEEESTD.2019.8766229")
BYTES_PER_BF16 = spec(
    2.0, "B", "bfloat16 format: 16 bits per value (1 sign, 8 exponent, 7 mantissa bits)",
    "https://cloud.google.com/tpu/docs/bfloat16", label="Size of one BF16 value")
BYTES_PER_FP8 = spec(1.0, "B", "FP8 (E4M3/E5M2): 8 bits per value; vLLM --kv-cache-dtype fp8", _VLLM_ARGS_URL)
BYTES_PER_INT8 = spec(
    1.0, "B", "8-bit integer quantisation: 8 bits per value", "https://arxiv.org/abs/1712.05877",
    note="Jacob et al. 2018, integer-arithmetic-only inference")
QUANT_GROUP_WEIGHTS = spec(
    128.0, "1",
    "GPTQ/AWQ grouped 4-bit quantisation: one scale per group of 128 weights (the usual group_size, e.g. "
    "transformers GPTQConfig)", _GPTQ_URL, label="Weights per quantisation group (INT4 g128)")
QUANT_SCALE_BYTES = spec(
    2.0, "B",
    "GPTQ/AWQ grouped quantisation: each group's scale is stored in FP16 (2 bytes; zero points are left out here)",
    _GPTQ_URL, label="Bytes per quantisation scale (FP16)")

# Optimizer state
ADAM_MIXED_PRECISION_BYTES_PER_PARAM = spec(
    16.0, "B", "Rajbhandari et al. 2020, ZeRO, Sec. 3.1: (2 + 2 + K) bytes/param with K = 12", _ZERO_URL,
    note="bf16 weights 2 + bf16 grads 2 + fp32 master weights, momentum, variance 12",
    label="Mixed-precision Adam training state per parameter")
ADAM_OPTIMIZER_BYTES_PER_PARAM = spec(
    12.0, "B", "Rajbhandari et al. 2020, ZeRO, Sec. 3.1: K = 12 for mixed-precision Adam", _ZERO_URL,
    note="fp32 master weights 4 + momentum 4 + variance 4", label="Adam optimizer state per parameter")
