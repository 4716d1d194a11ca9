"""The scenario and model of V1-06 (The Quadratic Wall): a GPT-2-XL-shaped model's memory while it
reads a prompt (Act I), and one decoded token's time at batch 1 for a model of a given depth and
size (Act II). The lab module (``v1_06``) reads like its page; this is its model.
"""

from __future__ import annotations

from dataclasses import dataclass

from pylabs.framework.formats import fmt
from pylabs.physics import constants as C
from pylabs.physics import training
from pylabs.physics import transformer as tf
from pylabs.physics.devices import BY_CONTEXT, Device


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs and the lab's labelled assumptions (not hardware facts)."""

    bytes_per_value: float = 2.0        # FP16 weights, KV cache and scores
    softmax_stats: float = 2.0          # FlashAttention's running maximum and sum per row (Dao et al. 2022)
    stat_bytes: float = 4.0             # kept in FP32
    act1_seq: float = 4096.0            # today's prompt length
    target_seq: float = 100_000.0       # what the VP asks for
    act2_params: float = 100e6          # the generator's parameter budget
    deep_layers: float = 64.0
    wide_layers: float = 4.0
    # per-kernel launch cost: the CPU side of a launch usually takes 5 to 20 µs (HTA); which end a
    # device sits at is an assumption (the Orin's Arm cores are the slower host)
    launch_cloud_s: float = C.KERNEL_LAUNCH_CPU_LOW_S
    launch_edge_s: float = C.KERNEL_LAUNCH_CPU_HIGH_S
    launch_graph_s: float = C.CUDA_GRAPH_PER_KERNEL_S  # the whole token replayed as one CUDA graph
    sla_s: float = 5e-3                 # per-token budget
    chart_height_px: int = 360          # room for a two-line legend on a phone


S = Scenario()
CONTEXTS = ("cloud", "edge")
SHORT = {"cloud": "H100", "edge": "Orin NX"}
LAYERS, WIDTH, HEADS = C.GPT2_XL_LAYERS, C.GPT2_XL_HIDDEN, C.GPT2_XL_HEADS
XL_PARAMS = tf.gpt2_params(LAYERS, WIDTH, C.GPT2_XL_VOCAB, C.GPT2_XL_CONTEXT)
KERNELS_PER_LAYER = len(tf.GEMMS_PER_LAYER) + tf.SMALL_KERNELS_PER_LAYER


# ---- Act I: memory while reading a prompt ---------------------------------------------------


def memory(seq: float, flash: bool) -> tf.PrefillMemory:
    return tf.prefill_memory(XL_PARAMS, LAYERS, WIDTH, HEADS, seq, S.bytes_per_value, flash)


def max_context(dev: Device, flash: bool) -> float:
    return tf.max_context_tokens(dev.mem_bytes, XL_PARAMS, LAYERS, WIDTH, HEADS, S.bytes_per_value, flash)


def training_activations(seq: float, flash: bool) -> float:
    """Korthikanti's per-layer activations × 48 layers at batch 1; FlashAttention drops the score term."""
    mode = "selective_tp_sp" if flash else "none"
    return LAYERS * training.activation_bytes_per_layer(seq, 1, WIDTH, HEADS, mode=mode)


def growth_to_target(flash: bool) -> float:
    """Memory for the VP's prompt ÷ memory for today's."""
    return memory(S.target_seq, flash).total_b / memory(S.act1_seq, flash).total_b


def act1_truth() -> float:
    """Act I's key: with standard attention, the VP's prompt needs this many times today's memory
    (the same model in every context; the device only decides whether it fits)."""
    return growth_to_target(False)


def at_flash_cap(context: str) -> tf.PrefillMemory:
    """What fills the context's memory at the longest prompt that fits with FlashAttention."""
    return memory(max_context(BY_CONTEXT[context], True), True)


# ---- Act II: one token at batch 1 ----------------------------------------------------------


def default_launch(context: str) -> float:
    return S.launch_edge_s if context == "edge" else S.launch_cloud_s


def token(dev: Device, layers: float, params: float, launch: float) -> tf.TokenLatency:
    return tf.decode_token_latency(layers, tf.width_for_params(params, layers), dev.peak_ops, dev.mem_bw,
                                   S.bytes_per_value, launch)


def wide_share(dev: Device, layers: float, params: float, launch: float) -> float:
    """The wide model's time per token as a share of a model of ``layers`` layers (same parameters)."""
    return token(dev, S.wide_layers, params, launch).total_s / token(dev, layers, params, launch).total_s


def act2_truth(context: str) -> float:
    """Act II's key: on the context's device at its assumed launch cost, the 4-layer model's time per
    token as a share of the 64-layer model's."""
    return wide_share(BY_CONTEXT[context], S.deep_layers, S.act2_params, default_launch(context))


def bytes_per_launch(context: str) -> float:
    """What the device could read from memory in the time of one launch (the launch's worth in bytes)."""
    return default_launch(context) * BY_CONTEXT[context].mem_bw


def terms(context: str) -> dict[str, str]:
    """The words of each context that the questions name (the scenario's, never an answer)."""
    return {"device": SHORT[context], "launch": fmt(default_launch(context), "us"),
            "flash_cap": fmt(max_context(BY_CONTEXT[context], True), "tokens"),
            "mem": fmt(BY_CONTEXT[context].mem_bytes, "B")}
