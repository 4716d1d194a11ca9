"""Training compute, data-parallel communication ratio, memory per GPU, and MFU.

Sources: Kaplan et al. 2020 (C = 6ND); Rajbhandari et al. 2020 (ZeRO, 16 B/param and the
per-stage partitioning); Korthikanti et al. 2022 (activation memory); Chowdhery et al.
2022 (PaLM, App. B, MFU). handbook/labs/v2_02.md §2 and handbook/labs/v2_05.md §2 give the corrected models.
"""

from dataclasses import dataclass

from pylabs.physics.constants import ADAM_OPTIMIZER_BYTES_PER_PARAM, BYTES_PER_BF16, BYTES_PER_FP32
from pylabs.physics.validators import (require, require_count, require_fraction, require_non_negative,
                                       require_positive, require_positive_fraction)

ACTIVATION_MODES = ("none", "full_tp_sp", "selective_tp_sp")
ZERO_STAGES = (0, 1, 2, 3)


def _check_degree(name: str, value: float) -> None:
    require_count(name, value,
            f"pass the {name} parallel degree (1 means no {name} parallelism)")


def _check_mfu(mfu: float) -> None:
    require_positive_fraction("mfu", mfu,
            "pass model FLOPs utilization as a fraction, e.g. 0.45 for 45 %")


def _check_peak(peak_flops: float) -> None:
    require_positive("peak_flops", peak_flops,
                     "pass the dense peak in FLOP/s, e.g. constants.H100_PEAK_BF16_DENSE")


def train_flops(params: float, tokens: float) -> float:
    """C = 6*N*D  (FLOP; forward 2ND + backward 4ND).

    Source: Kaplan et al. 2020, Sec. 2.1; Hoffmann et al. 2022.
    """
    require_non_negative("params", params, "pass the parameter count, e.g. 70e9")
    require_non_negative("tokens", tokens, "pass the number of training tokens, e.g. 15e12")
    return 6 * params * tokens


def compute_time_s(params: float, tokens: float, peak_flops: float, mfu: float) -> float:
    """T = 6*N*D / (C_peak * u)  (seconds on one GPU).

    Source: Kaplan et al. 2020 (6ND); handbook/labs/v2_02.md §2.
    """
    _check_peak(peak_flops)
    _check_mfu(mfu)
    return train_flops(params, tokens) / (peak_flops * mfu)


def dp_critical_tokens(
    gpus: float, bw: float, peak_flops: float, mfu: float, bytes_per_grad: float = 2
) -> float:
    """t* = (2/3)*((n-1)/n) * C*u * (bytes_per_grad/2) / B  (tokens per GPU per step).

    Above t* the ring all-reduce of the gradients takes less time than the 6*N*t compute.
    Source: handbook/labs/v2_02.md §2; scaling book "How to Think About GPUs" (C/W rule).
    """
    require_count("gpus", gpus,
            "pass the number of data-parallel GPUs")
    require_positive("bw", bw, "pass a per-direction bandwidth in bytes/s")
    _check_peak(peak_flops)
    _check_mfu(mfu)
    require_positive("bytes_per_grad", bytes_per_grad, "pass 2 for bf16, 4 for fp32 gradients")
    return (2 / 3) * ((gpus - 1) / gpus) * peak_flops * mfu * (bytes_per_grad / 2) / bw


def dp_comm_compute_ratio(
    tokens_per_gpu: float,
    gpus: float,
    bw: float,
    peak_flops: float,
    mfu: float,
    bytes_per_grad: float = 2,
) -> float:
    """R = (2/3)*((n-1)/n) * C*u * (bytes_per_grad/2) / (t*B) = t*/t  (model size cancels).

    Source: handbook/labs/v2_02.md §2 (ring all-reduce time over 6*N*t compute time).
    """
    require_positive("tokens_per_gpu", tokens_per_gpu,
                     "pass the tokens each GPU processes per optimizer step")
    critical = dp_critical_tokens(gpus, bw, peak_flops, mfu, bytes_per_grad)
    return critical / tokens_per_gpu


def zero_bytes_per_param(stage: int, dp: float) -> float:
    """16, 4 + 12/dp, 2 + 14/dp, 16/dp bytes per parameter for ZeRO stages 0, 1, 2, 3.

    Mixed-precision Adam: 2 B bf16 weights + 2 B bf16 gradients + K = 12 B fp32 optimizer
    state; stage 1 shards the optimizer state, stage 2 also the gradients, stage 3 all.
    Source: Rajbhandari et al. 2020 (ZeRO), Sec. 3.1 and 5.
    """
    require(stage in ZERO_STAGES, "stage", stage, "one of 0, 1, 2, 3",
            "pass the ZeRO stage (0 = plain data parallel)")
    _check_degree("dp", dp)
    weights, grads, optimizer = BYTES_PER_BF16, BYTES_PER_BF16, ADAM_OPTIMIZER_BYTES_PER_PARAM
    if stage == 0:
        return weights + grads + optimizer
    if stage == 1:
        return weights + grads + optimizer / dp
    if stage == 2:
        return weights + (grads + optimizer) / dp
    return (weights + grads + optimizer) / dp


def model_state_bytes(params: float, tp: float, pp: float, dp: float, zero_stage: int) -> float:
    """M = N/(tp*pp) * zero_bytes_per_param(stage, dp)  (weights, grads, Adam state per GPU).

    Source: Rajbhandari et al. 2020 (ZeRO); Narayanan et al. 2021 (TP and PP shard N).
    """
    require_non_negative("params", params, "pass the parameter count, e.g. 175e9")
    _check_degree("tp", tp)
    _check_degree("pp", pp)
    return params / (tp * pp) * zero_bytes_per_param(zero_stage, dp)


def activation_bytes_per_layer(
    seq: float,
    micro_batch: float,
    hidden: float,
    heads: float,
    tp: float = 1,
    mode: str = "full_tp_sp",
) -> float:
    """none: s*b*h*(34 + 5*a*s/h); full_tp_sp: that / t; selective_tp_sp: 34*s*b*h / t.

    Bytes of activations one transformer layer keeps for the backward pass (16-bit values).
    "none" is the unsharded baseline with no recomputation, so tp does not divide it;
    "full_tp_sp" is tensor + sequence parallelism; "selective_tp_sp" also recomputes the
    attention score/softmax/dropout block, removing the 5*a*s/h term.
    Source: Korthikanti et al. 2022, "Reducing Activation Recomputation", Table 2.
    """
    for name, value in (("seq", seq), ("micro_batch", micro_batch),
                        ("hidden", hidden), ("heads", heads)):
        require_positive(name, value, f"pass the model's {name} (a positive size)")
    _check_degree("tp", tp)
    require(mode in ACTIVATION_MODES, "mode", mode, f"one of {ACTIVATION_MODES}",
            "pick the recomputation/parallelism scheme")
    sbh = seq * micro_batch * hidden
    if mode == "selective_tp_sp":
        return 34 * sbh / tp
    unsharded = sbh * (34 + 5 * heads * seq / hidden)
    return unsharded if mode == "none" else unsharded / tp


def first_stage_activation_bytes(
    seq: float,
    micro_batch: float,
    hidden: float,
    heads: float,
    layers: float,
    tp: float = 1,
    mode: str = "full_tp_sp",
) -> float:
    """A = L * activation_bytes_per_layer(...)  (first pipeline stage under 1F1B).

    The first of p stages holds p microbatches in flight, each through L/p layers, so it
    stores L layers' worth of activations whatever p is.
    Source: Korthikanti et al. 2022, Sec. 4.2.3.
    """
    require_count("layers", layers,
            "pass the number of transformer layers, e.g. 96 for GPT-3")
    return layers * activation_bytes_per_layer(seq, micro_batch, hidden, heads, tp, mode)


def mfu(tokens_per_s: float, params: float, gpus: float, peak_flops: float) -> float:
    """MFU = tokens/s * 6N / (gpus * C_peak)  (dense peak; attention FLOPs ignored).

    Source: Chowdhery et al. 2022 (PaLM), App. B, without the attention term.
    """
    require_non_negative("tokens_per_s", tokens_per_s, "pass the measured training throughput")
    require_non_negative("params", params, "pass the parameter count")
    require_positive("gpus", gpus, "pass the number of GPUs")
    _check_peak(peak_flops)
    return tokens_per_s * 6 * params / (gpus * peak_flops)


def palm_mfu(
    tokens_per_s: float,
    params: float,
    gpus: float,
    peak_flops: float,
    layers: float,
    heads: float,
    head_dim: float,
    seq: float,
) -> float:
    """MFU = tokens/s * (6N + 12*L*H*Q*T) / (gpus * C_peak)  (with attention FLOPs).

    Source: Chowdhery et al. 2022 (PaLM), App. B.
    """
    for name, value in (("layers", layers), ("heads", heads),
                        ("head_dim", head_dim), ("seq", seq)):
        require_non_negative(name, value, f"pass the model's {name}")
    attention_flops_per_token = 12 * layers * heads * head_dim * seq
    dense = mfu(tokens_per_s, params, gpus, peak_flops)
    return dense + tokens_per_s * attention_flops_per_token / (gpus * peak_flops)


def tokens_per_s(params: float, gpus: float, peak_flops: float, mfu: float) -> float:
    """tokens/s = gpus * C_peak * u / (6N)  (the inverse of mfu()).

    Source: Chowdhery et al. 2022 (PaLM), App. B.
    """
    require_positive("params", params, "pass the parameter count")
    require_positive("gpus", gpus, "pass the number of GPUs")
    _check_peak(peak_flops)
    _check_mfu(mfu)
    return gpus * peak_flops * mfu / (6 * params)


def mfu_with_exposed_comm(
    mfu_ref: float, t_compute_s: float, t_comm_s: float, overlap: float = 0.0
) -> float:
    """MFU = u_ref * T_comp / (T_comp + T_comm*(1 - overlap)).

    u_ref is the MFU of the compute phase alone; overlap is the hidden share of T_comm.
    Source: handbook/labs/v2_05.md §2, Act I.
    """
    _check_mfu(mfu_ref)
    require_positive("t_compute_s", t_compute_s, "pass the compute time per step in seconds")
    require_non_negative("t_comm_s", t_comm_s, "pass the communication time per step")
    require_fraction("overlap", overlap,
            "pass the fraction of communication hidden behind compute")
    return mfu_ref / (1 + t_comm_s * (1 - overlap) / t_compute_s)


# ---- V1-04 The Data Gravity Trap: training work per image of a CNN ----

def cnn_train_flop_per_sample(forward_macs: float) -> float:
    """F = 3 × 2 × MACs: a multiply-add is 2 FLOP, and the backward pass costs twice the forward.

    Papers and torchvision quote ResNet-50 as "4.1 GFLOPs", which counts multiply-adds.
    Source: He et al. 2016 (Table 1 counts multiply-adds); Kaplan et al. 2020 (backward = 2 × forward).
    """
    require_non_negative("forward_macs", forward_macs, "pass the forward pass's multiply-adds, e.g. 4.1e9")
    return 6 * forward_macs
# ---- V1-08 The Training Memory Budget: static bytes per parameter, activations with
# recomputation, and gradient-accumulation throughput (handbook/labs/v1_08.md §2) ----

PRECISIONS = ("fp32", "mixed", "bf16")
OPTIMIZERS = ("sgd", "momentum", "adam")
RECOMPUTE_MODES = ("none", "selective", "full")
_OPTIMIZER_STATES = {"sgd": 0, "momentum": 1, "adam": 2}  # values kept per parameter


@dataclass(frozen=True)
class StaticBytes:
    """Bytes per parameter that live for the whole run, by role."""

    weights_b: float
    grads_b: float
    master_b: float      # the FP32 copy mixed precision updates (0 otherwise)
    optimizer_b: float   # momentum and/or variance

    @property
    def total_b(self) -> float:
        return self.weights_b + self.grads_b + self.master_b + self.optimizer_b


def static_bytes_per_param(precision: str, optimizer: str) -> StaticBytes:
    """fp32: 4 + 4 + 4k; mixed: 2 + 2 + 4 (master) + 4k; bf16: 2 + 2 + 2k, for k optimizer states.

    k = 0 (SGD), 1 (momentum), 2 (Adam: momentum and variance). Mixed-precision Adam is
    2 + 2 + 12 = 16 B/param, the same as FP32 Adam: the FP32 master copy cancels the saving.
    Source: Rajbhandari et al. 2020 (ZeRO), Sec. 3.1; Micikevicius et al. 2018 (master weights).
    """
    require(precision in PRECISIONS, "precision", precision, f"one of {PRECISIONS}",
            "pick fp32, mixed (bf16 compute, fp32 master) or bf16 (pure)")
    require(optimizer in OPTIMIZERS, "optimizer", optimizer, f"one of {OPTIMIZERS}",
            "pick sgd, momentum or adam")
    states = _OPTIMIZER_STATES[optimizer]
    if precision == "fp32":
        return StaticBytes(BYTES_PER_FP32, BYTES_PER_FP32, 0.0, BYTES_PER_FP32 * states)
    if precision == "mixed":
        return StaticBytes(BYTES_PER_BF16, BYTES_PER_BF16, BYTES_PER_FP32, BYTES_PER_FP32 * states)
    return StaticBytes(BYTES_PER_BF16, BYTES_PER_BF16, 0.0, BYTES_PER_BF16 * states)


def activation_bytes_per_value(precision: str) -> float:
    """4 B for FP32 training, 2 B when the forward pass runs in BF16 (mixed or pure).

    Source: Korthikanti et al. 2022, Sec. 4.1 (16-bit activations in mixed precision).
    """
    require(precision in PRECISIONS, "precision", precision, f"one of {PRECISIONS}",
            "pick fp32, mixed or bf16")
    return BYTES_PER_FP32 if precision == "fp32" else BYTES_PER_BF16


def layer_activation_bytes(seq: float, micro_batch: float, hidden: float, heads: float,
                           selective: bool = False, bytes_per_value: float = BYTES_PER_BF16) -> float:
    """sbh(16v + 2) + a s^2 b (2v + 1); at v = 2 bytes: sbh(34 + 5as/h). Selective: sbh(16v + 2).

    Korthikanti's per-tensor count for one GPT layer without parallelism: 16 sbh-sized values and
    2 a s^2 b-sized values of v bytes each, plus 1-byte dropout masks (2 sbh + a s^2 b). Selective
    recomputation (or FlashAttention) keeps none of the s^2 tensors.
    Source: Korthikanti et al. 2022, Sec. 4.1, Eq. 1 and Sec. 5 (selective recomputation).
    """
    for name, value in (("seq", seq), ("micro_batch", micro_batch), ("hidden", hidden),
                        ("heads", heads), ("bytes_per_value", bytes_per_value)):
        require_positive(name, value, f"pass the model's {name} (a positive size)")
    sbh = seq * micro_batch * hidden
    linear = sbh * (16 * bytes_per_value + 2)
    if selective:
        return linear
    return linear + heads * seq * seq * micro_batch * (2 * bytes_per_value + 1)


def model_activation_bytes(seq: float, micro_batch: float, hidden: float, heads: float, layers: float,
                           mode: str = "none", bytes_per_value: float = BYTES_PER_BF16) -> float:
    """none: L*layer; selective: L*layer without s^2 terms; full: L*v*sbh + one full layer.

    Full recomputation keeps only each layer's input (v*s*b*h) and rebuilds one layer at a
    time in the backward pass, which needs that layer's activations again.
    Source: Korthikanti et al. 2022, Sec. 5 ("2sbhL" for full recomputation); Chen et al. 2016.
    """
    require_count("layers", layers,
            "pass the number of transformer layers, e.g. 24 for GPT-3 XL")
    require(mode in RECOMPUTE_MODES, "mode", mode, f"one of {RECOMPUTE_MODES}",
            "pick none, selective or full recomputation")
    one_layer = layer_activation_bytes(seq, micro_batch, hidden, heads, mode == "selective", bytes_per_value)
    if mode == "full":
        inputs = layers * bytes_per_value * seq * micro_batch * hidden
        return inputs + layer_activation_bytes(seq, micro_batch, hidden, heads, False, bytes_per_value)
    return layers * one_layer


def recompute_compute_factor(mode: str, seq: float = 1, hidden: float = 1) -> float:
    """none 1; selective (1 + s/3h)/(1 + s/6h); full 4/3 = (fwd + bwd + fwd)/(fwd + bwd), bwd = 2 fwd.

    Selective recomputation repeats only the attention-score work (the s/h terms of the
    model FLOPs; the vocabulary term is left out).
    Source: Korthikanti et al. 2022, Sec. 6 (model vs hardware FLOPs); Chen et al. 2016.
    """
    require(mode in RECOMPUTE_MODES, "mode", mode, f"one of {RECOMPUTE_MODES}",
            "pick none, selective or full recomputation")
    if mode == "full":
        return 4 / 3
    if mode == "selective":
        require_positive("seq", seq, "pass the sequence length in tokens")
        require_positive("hidden", hidden, "pass the model width")
        return (1 + seq / (3 * hidden)) / (1 + seq / (6 * hidden))
    return 1.0


def micro_step_s(params: float, micro_batch: float, seq: float, peak_flops: float, mfu: float) -> float:
    """t_fb = 6 * P * b * s / (R * u)  (forward and backward of one micro-batch).

    Source: Kaplan et al. 2020 (6 FLOP per parameter per token); handbook/labs/v1_08.md §2.
    """
    require_positive("micro_batch", micro_batch, "pass the sequences per micro-batch")
    require_positive("seq", seq, "pass the sequence length in tokens")
    return compute_time_s(params, micro_batch * seq, peak_flops, mfu)


def accumulate_s(params: float, mem_bw: float) -> float:
    """t_acc = (4 + 2 + 4) * P / BW: read the FP32 accumulator and the BF16 gradient, write FP32.

    Source: handbook/labs/v1_08.md §2; a memory-bound element-wise add (Williams et al. 2009).
    """
    require_non_negative("params", params, "pass the parameter count")
    require_positive("mem_bw", mem_bw, "pass the memory bandwidth in bytes/s")
    return (2 * BYTES_PER_FP32 + BYTES_PER_BF16) * params / mem_bw


def accumulation_throughput_ratio(params: float, micro_batch: float, seq: float, steps: float,
                                  peak_flops: float, mfu: float, mem_bw: float,
                                  compute_factor: float = 1.0) -> float:
    """K*t_fb / (f*K*t_fb + (K - 1)*t_acc): throughput against one native batch of K*b.

    f is the recomputation factor; the native batch is assumed to run at the same MFU and
    without recomputation. The parameter count cancels: only b*s, the device's
    FLOP/s-to-bandwidth ratio and u matter.
    Source: handbook/labs/v1_08.md §2; Korthikanti et al. 2022 for f.
    """
    require_count("steps", steps,
            "pass the number of micro-batches accumulated per optimizer step")
    require(compute_factor >= 1, "compute_factor", compute_factor, ">= 1",
            "pass recompute_compute_factor(mode)")
    work = steps * micro_step_s(params, micro_batch, seq, peak_flops, mfu)
    return work / (compute_factor * work + (steps - 1) * accumulate_s(params, mem_bw))
