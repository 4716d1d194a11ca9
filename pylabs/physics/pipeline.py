"""Pipeline bubble, microbatch count, and per-layer tensor-parallel time.

Sources: Narayanan et al. 2021, "Efficient Large-Scale Language Model Training on GPU
Clusters Using Megatron-LM" (bubble (p-1)/m, interleaving by v, 72bsh^2 layer FLOPs);
Korthikanti et al. 2022 (4 all-reduces per layer under tensor parallelism). handbook/labs/v2_05.md §2.
"""

from pylabs.physics.collectives import hierarchical_allreduce_s, ring_allreduce_s
from pylabs.physics.validators import require, require_count, require_positive_fraction


def _check_schedule(pp: float, microbatches: float, interleave: float) -> None:
    require_count("pp", pp, "pass the number of pipeline stages (1 means no pipelining)")
    require_count("microbatches", microbatches,
                  "pass the microbatches per step, e.g. microbatch_count(global_batch, dp, mbs)")
    require_count("interleave", interleave,
                  "pass the virtual stages per GPU (1 = plain 1F1B schedule)")


def bubble_over_ideal(pp: float, microbatches: float, interleave: float = 1) -> float:
    """t_bubble / t_ideal = (p-1) / (v*m).

    Source: Narayanan et al. 2021, Sec. 2.2.1 (1F1B) and 2.2.2 (interleaved, divided by v).
    """
    _check_schedule(pp, microbatches, interleave)
    return (pp - 1) / (interleave * microbatches)


def bubble_fraction_of_step(pp: float, microbatches: float, interleave: float = 1) -> float:
    """t_bubble / t_step = (p-1) / (v*m + p - 1).

    Source: Narayanan et al. 2021, Sec. 2.2 (step = ideal + bubble).
    """
    _check_schedule(pp, microbatches, interleave)
    return (pp - 1) / (interleave * microbatches + pp - 1)


def microbatch_count(global_batch: float, dp: float, micro_batch: float) -> int:
    """m = global_batch / (dp * micro_batch)  (sequences; must divide exactly).

    Source: Narayanan et al. 2021, Sec. 3 (B = b * m * d).
    """
    require_count("global_batch", global_batch, "pass the global batch in sequences")
    require_count("dp", dp, "pass the data-parallel degree")
    require_count("micro_batch", micro_batch, "pass the microbatch size in sequences")
    per_step = dp * micro_batch
    require(global_batch % per_step == 0, "global_batch", global_batch,
            f"a multiple of dp * micro_batch = {per_step:g}",
            "change the global batch, dp or micro_batch so they divide evenly")
    return int(global_batch // per_step)


def tp_comm_per_layer_s(
    seq: float,
    micro_batch: float,
    hidden: float,
    tp: float,
    bw: float,
    bytes_per_value: float = 2,
) -> float:
    """T = 4 * ring_allreduce_s(s*b*h*bytes_per_value, tp, bw)  (0 when tp = 1).

    Two all-reduces in the forward pass and two in the backward pass per layer (with
    sequence parallelism: the same volume as reduce-scatter + all-gather pairs).
    Source: Narayanan et al. 2021, Sec. 2.3; Korthikanti et al. 2022, Sec. 4.2.2.
    """
    for name, value in (("seq", seq), ("micro_batch", micro_batch), ("hidden", hidden)):
        require(value > 0, name, value, "> 0", f"pass the model's {name}")
    require_count("tp", tp, "pass the tensor-parallel degree (1 means none)")
    require(bytes_per_value > 0, "bytes_per_value", bytes_per_value, "> 0",
            "pass 2 for bf16 activations")
    activation_bytes = seq * micro_batch * hidden * bytes_per_value
    return 4 * ring_allreduce_s(activation_bytes, tp, bw)


def tp_comm_per_layer_multinode_s(
    seq: float,
    micro_batch: float,
    hidden: float,
    tp: float,
    gpus_per_node: float,
    intra_bw: float,
    nic_bw: float,
    nics_per_node: float,
    bytes_per_value: float = 2,
) -> float:
    """T = 4 * AR(s*b*h*bytes): a ring over NVLink when tp <= g, else hierarchical over tp/g nodes.

    A tensor-parallel group larger than one node spans tp/g whole nodes and uses every rail:
    each all-reduce runs as reduce-scatter and all-gather inside the node plus a ring across
    the nodes through their L NICs (the same hierarchical all-reduce as data parallelism).
    Source: Korthikanti et al. 2022, Sec. 4.2.2 (4 all-reduces per layer); handbook/labs/v2_05.md §2.
    """
    require_count("tp", tp, "pass the tensor-parallel degree (1 means none)")
    require_count("gpus_per_node", gpus_per_node, "pass the GPUs per node (DGX H100: 8)")
    if tp <= gpus_per_node:
        return tp_comm_per_layer_s(seq, micro_batch, hidden, tp, intra_bw, bytes_per_value)
    require(tp % gpus_per_node == 0, "tp", tp, f"a multiple of gpus_per_node = {gpus_per_node:g} when it "
            "spans nodes", "use whole nodes for a tensor-parallel group that leaves one node")
    for name, value in (("seq", seq), ("micro_batch", micro_batch), ("hidden", hidden)):
        require(value > 0, name, value, "> 0", f"pass the model's {name}")
    activation_bytes = seq * micro_batch * hidden * bytes_per_value
    return 4 * hierarchical_allreduce_s(activation_bytes, gpus_per_node, tp // gpus_per_node,
                                        intra_bw, nic_bw, nics_per_node)


def compute_time_per_layer_s(
    seq: float, micro_batch: float, hidden: float, tp: float, peak_flops: float, mfu: float
) -> float:
    """T = 72*b*s*h^2*(1 + s/(6h)) / (tp * C_peak * u)  (forward + backward, no recompute).

    Source: Narayanan et al. 2021, Sec. 5.1 (96bslh^2(1 + s/6h) includes recomputation;
    without it the factor is 72).
    """
    for name, value in (("seq", seq), ("micro_batch", micro_batch), ("hidden", hidden)):
        require(value > 0, name, value, "> 0", f"pass the model's {name}")
    require_count("tp", tp, "pass the tensor-parallel degree (1 means none)")
    require(peak_flops > 0, "peak_flops", peak_flops, "> 0 FLOP/s",
            "pass the dense peak, e.g. constants.H100_PEAK_BF16_DENSE")
    require_positive_fraction("mfu", mfu, "pass MFU as a fraction, e.g. 0.5")
    layer_flops = 72 * micro_batch * seq * hidden**2 * (1 + seq / (6 * hidden))
    return layer_flops / (tp * peak_flops * mfu)


def interleaved_schedule_runs(pp: float, microbatches: float, group: float) -> bool:
    """Megatron-LM's checks on the interleaved 1F1B schedule: p <= N <= m, and m mod N is 0 or >= p.

    N is the number of micro-batches run together per virtual stage
    (--microbatch-group-size-per-virtual-pipeline-stage, default p); a last group shorter than p
    would add dependency bubbles, so Megatron refuses it. With the default N = p this is the
    older rule "m must be a multiple of p".
    Source: NVIDIA Megatron-LM, megatron/core/pipeline_parallel/schedules.py (2026),
    forward_backward_pipelining_with_interleaving; model_parallel_config.py (default N = p).
    """
    for name, value in (("pp", pp), ("microbatches", microbatches), ("group", group)):
        require_count(name, value, "pass whole numbers of stages and micro-batches")
    if not pp <= group <= microbatches:
        return False
    rest = microbatches % group
    return rest == 0 or rest >= pp


def interleaved_group_size(pp: float, microbatches: float) -> int:
    """The smallest micro-batch group N that Megatron-LM accepts for (p, m); 0 when none does (m < p).

    Source: as ``interleaved_schedule_runs`` (Megatron-LM schedules.py).
    """
    require_count("pp", pp, "pass the number of pipeline stages")
    require_count("microbatches", microbatches, "pass the micro-batches per step")
    return next((n for n in range(int(pp), int(microbatches) + 1)
                 if interleaved_schedule_runs(pp, microbatches, n)), 0)


def interleave_degrees(layers: float, pp: float) -> list[int]:
    """The virtual stages per GPU, v, that cut every pipeline stage's layers into equal chunks.

    Megatron-LM requires the layers per pipeline stage to divide by v (equal model chunks).
    Source: NVIDIA Megatron-LM, megatron/training/arguments.py and transformer_config.py (2026).
    """
    require_count("layers", layers, "pass the model's transformer layers")
    require_count("pp", pp, "pass the number of pipeline stages")
    require(layers % pp == 0, "layers", layers, f"a multiple of pp = {pp:g}", "use a pp that divides the layers")
    per_stage = int(layers // pp)
    return [v for v in range(1, per_stage + 1) if per_stage % v == 0]
