"""Lab V2-05 · The Parallelism Paradox.

Core invariant: with a fixed global batch, adding data-parallel GPUs shrinks each GPU's
compute while the gradient all-reduce stays the same size, so MFU falls; a model too big
for one GPU must be cut by tensor and pipeline parallelism, and each cut has its own
price (node-crossing tensor traffic, the pipeline bubble, memory).

Act I (spreading one batch wider): a 7B model with ZeRO-1 on DGX H100 nodes (8 NDR rails), global
batch fixed at 512K tokens: the step model gives MFU ~51 % on 8 GPUs, ~44 % on 64 and 21.0 % on 512,
one sequence per GPU. The context is the training phase: in the batch warm-up (a quarter of the batch,
[assumed share]; GPT-3 ramped its batch, Brown et al. 2020 App. B) the question asks about 128 GPUs
(21.3 %). Act II: GPT-3 175B on 1,024 H100s; of four TP × PP × DP layouts, each breaking one limit but
Megatron's TP 8 × PP 16 × DP 8 (key D); the reflection asks why a deeper pipeline barely raises the
bubble (m = B/DP grows as DP falls). Act II keeps Megatron's batch in both contexts: at the warm-up's
384 sequences no layout meets the three limits.

The Act I options claim the all-reduce's share of the step (they named the
reflection's mechanism); the scenario no longer says that compute shrinks and the gradient does not;
Act II's options are the layouts alone (their blurbs said which broke the TP limit) with no value
shared by a majority; its reflection was stated by the page (TP across nodes); failure texts offer only
levers not at their limit; the MFU the stakeholder quotes is the step model's at an [assumed] 52 %.

Independent review: a lever is offered only if moving it alone clears its failure; the warm-up's
stakeholder quotes 8 and 16 GPUs (8 and 64 extrapolated in log N onto the key); the TP and PP sliders stop
at 32, which divides the 96 heads and layers; no green MFU beside a broken limit.

Ledger fields: context, both predictions and reflections, the final instrument settings,
MFU of both acts, memory and bubble of the Act II layout, failure states reached.
"""

from __future__ import annotations

from dataclasses import replace

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option, Pick,
                              Prediction, Range, Reflection, Slider, State, Toggle, callout, failure,
                              fmt, math_peek, metric_grid, prose)
from pylabs.framework.components import tone
from pylabs.labs.vol2.v2_05_model import (BATCH, CANDIDATES, DEEP, DEFAULT_FABRIC, DGX_RAILS, GPT3_BATCH, HBM,
                                         HEADS, INSIDE_TP_S, LAYERS, MBS, MEGATRON, MODEL_SIZES, SEQ, SHALLOW,
                                         A2_BATCHES, TP_CALLS, WARMUP_BATCH, DPRun, Layout, S, act1_target, act1_truth, act2_answer,
                                         measured, mfu_or_none, quoted, scenario_run)
from pylabs.labs.vol2.v2_05_charts import COUNTS, act1_chart, act2_chart
from pylabs.labs.vol2.v2_05_levers import a2_oom_levers, bubble_levers, comm_levers, oom_levers
from pylabs.labs.vol2.v2_05_network import FABRICS, NICS, ledger_note, resolve_fabric
from pylabs.physics import constants as C
from pylabs.physics.references import cite

# ---- context ----------------------------------------------------------------------

CONTEXT = Choice("context", "Training phase", (
    Option("full", f"Steady state: a global batch of {fmt(BATCH['full'], 'tokens')}"),
    Option("warmup", f"Batch warm-up: {fmt(BATCH['warmup'], 'tokens')}, a quarter of it [assumed share]"),
), default="full", help="Sets Act I's global batch, and so the widest run its question asks about. GPT-3 ramped "
                        "its batch up over its first billions of tokens (Brown et al. 2020, App. B).")


def terms(context: str) -> dict[str, str]:
    return {"batch": fmt(BATCH[context], "tokens"), "target": fmt(act1_target(context), "int")}


# ---- Act I · Spreading one batch wider ---------------------------------------------------

A1_GPUS = Slider("a1_gpus", "Data-parallel GPUs", unit="GPUs", min=S.act1_gpus[0], max=S.act1_gpus[1], step=1,
                 default=act1_target(CONTEXT.default), fmt="int", scale="log2")
A1_BATCH = Slider("a1_batch", "Global batch (fixed across GPU counts)", unit="tokens", min=S.act1_batches[0],
                  max=S.act1_batches[1], step=1, default=S.act1_batch, fmt="tokens", scale="log2")
A1_FABRIC = Choice("a1_fabric", "Network between nodes", tuple(Option(k, v) for k, v in FABRICS.items()),
                   default=f"{DEFAULT_FABRIC[0]}ndr", widget="select")
A1_MODEL = Choice("a1_model", "Model", tuple(Option(k, f"{fmt(v, 'params')} parameters") for k, v in MODEL_SIZES.items()),
                  default="7b")
A1_ZERO = Choice("a1_zero", "ZeRO stage", (
    Option("0", "0 · plain DDP"), Option("1", "1 · shard Adam state"),
    Option("2", "2 · + gradients"), Option("3", "3 · + weights"),
), default=str(S.act1_zero))
A1_OVERLAP = Toggle("a1_overlap", "Overlap the all-reduce with the backward pass (bucketed DDP)",
                    help="The next forward pass needs the reduced gradients, so at most the backward pass can "
                         "hide it (an idealised upper bound: real overlap is partial).")


def act1_run(s: State, gpus: int | None = None) -> DPRun:
    nics, nic, _ = resolve_fabric(s)
    return DPRun(MODEL_SIZES[s["a1_model"]], int(gpus or s["a1_gpus"]), s["a1_batch"], nics, NICS[nic][1],
                 int(s["a1_zero"]), s["a1_overlap"])


# the all-reduce share of the step above which MFU is under option A's bound: u (1 − share) < bound
A_BOUND, C_BOUND = 0.15, 0.30

ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"Global batch {{batch}}, ZeRO-1, {DEFAULT_FABRIC[0]} NDR rails per node, and the all-reduce starts "
           f"after the backward pass. What MFU will the {fmt(S.act1_params, 'params')} run reach on {{target}} "
           "GPUs, one sequence each?",
    quantity="MFU at one sequence per GPU", unit_fmt="pct1",
    options=(
        Range("A", "{range}: the gradient exchange takes over almost every step", None, A_BOUND, 0.10,
              "Under {a_bound} needs the all-reduce to fill more than {a_share} of the step; on {target} GPUs "
              "it fills {ar_share}: {a1_allreduce_s} against {a1_compute_s} of compute."),
        Range("B", "{range}: compute and gradient exchange take similar time", A_BOUND, C_BOUND, 0.22,
              "On {target} GPUs a step computes for {a1_compute_s} and all-reduces for {a1_allreduce_s}: "
              "MFU = {u} × {a1_compute_s} ÷ ({a1_compute_s} + {a1_allreduce_s}) = {a1_mfu}."),
        Range("C", "{range}: the exchange costs about a third of the compute", C_BOUND, 0.40, S.mfu * 3 / 4,
              "An all-reduce of a third of the compute would leave three quarters of {u}, {third}; on {target} GPUs the all-reduce costs {ar_over_compute} the "
              "compute: {a1_allreduce_s} against {a1_compute_s}."),
        Range("D", "{range}: the exchange stays a small tax on each step", 0.40, None, 0.45,
              "A small tax would leave MFU near {u}; on {target} GPUs the all-reduce fills {ar_share} of the "
              "step: {a1_allreduce_s} against {a1_compute_s} of compute."),
    ),
    truth=act1_truth,
    shown_by="a1_mfu",
    gives="The step model gives",  # a model at an [assumed] utilisation, not a measurement
)


def act1_facts(context: str) -> dict[str, str]:
    few, mid = measured(context)
    many = scenario_run(act1_target(context), context)
    step = many.compute_s + many.allreduce_s
    return {"a1_mfu": fmt(many.mfu, "pct1"), "a1_compute_s": fmt(many.compute_s, "s"),
            "a1_allreduce_s": fmt(many.allreduce_s, "s"), "target": fmt(many.gpus, "int"),
            "u": fmt(S.mfu, "pct1"), "a_bound": fmt(A_BOUND, "pct1"), "a_share": fmt(1 - A_BOUND / S.mfu, "pct"),
            "ar_share": fmt(many.allreduce_s / step, "pct"), "ar_over_compute": fmt(many.allreduce_s / many.compute_s, "x"),
            "third": fmt(S.mfu * 3 / 4, "pct1"),
            "compute_few": fmt(few.compute_s, "s"), "ar_few": fmt(few.allreduce_s, "s"),
            "ar_mid": fmt(mid.allreduce_s, "s"), "gpus_mid": fmt(mid.gpus, "int"),
            "ar_growth": fmt(many.allreduce_s / few.allreduce_s, "x"), "n_growth": fmt(many.gpus / few.gpus, "x"),
            "compute_shrink": fmt(few.compute_s / many.compute_s, "x"),
            "mfu_few": fmt(few.mfu, "pct1"), "gpus_few": fmt(few.gpus, "int"),
            "ring_few": fmt(2 * (few.gpus - 1) / few.gpus, "num"),
            "ring_many": fmt(2 * (many.gpus - 1) / many.gpus, "num")}


ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="Why does MFU fall as the same global batch is spread over more data-parallel GPUs?",
    options=(
        Claim("A", "The all-reduce time grows in proportion to N; each GPU's compute is unchanged.",
              "Both halves are the other way round: on {gpus_few} GPUs a step computes for {compute_few} against "
              "an all-reduce of {ar_few}; on {target} GPUs, {a1_compute_s} against {a1_allreduce_s}. N grows "
              "{n_growth}, the all-reduce {ar_growth}, and the compute shrinks {compute_shrink}."),
        Claim("B", "A longer ring makes every GPU send more gradient bytes per step.",
              "The ring factor 2(N−1)/N goes from {ring_few} to only {ring_many}: every GPU sends about "
              "twice its gradient whatever N is."),
        Claim("C", "Each GPU computes less per step; the all-reduce does not shrink with it.",
              "On {gpus_few} GPUs a step computes for {compute_few} against an all-reduce of {ar_few}; on "
              "{target} GPUs it computes for {a1_compute_s} against {a1_allreduce_s}. The all-reduce grows "
              "{ar_growth} in all, most of it by {gpus_mid} GPUs ({ar_mid}), as the gradients leave the node "
              "and the ring across nodes lengthens; the compute it is measured against shrinks {compute_shrink}."),
        # a compute-side distractor, so the key is not the only option that looks at the compute (class 18)
        Claim("D", "Smaller slices of the batch run each GPU's matrix multiplies less efficiently.",
              "Small matrix multiplies do run less efficiently on real GPUs, but this step model holds the compute "
              "phase at {u}: the compute shrinks exactly {compute_shrink} with {n_growth} the GPUs, and MFU "
              "still falls from {mfu_few} on {gpus_few} GPUs to {a1_mfu} on {target}."),
    ),
    answer_letter="C",
)

M = {m.name: m for m in (
    MetricSpec("a1_mfu", "Model FLOPs utilisation", "1", "pct1"),
    MetricSpec("a1_tokens_per_gpu", "Tokens per GPU per step", "tokens", "tokens"),
    MetricSpec("a1_compute_s", "Compute per step", "s", "s"),
    MetricSpec("a1_allreduce_s", "Gradient all-reduce per step", "s", "s"),
    MetricSpec("a1_memory", "Model state per GPU", "B", "B"),
    MetricSpec("a1_node_egress", "Network bandwidth out of each node", "B/s", "GB/s"),
    MetricSpec("a2_dp", "Data-parallel replicas, DP", "1", "int"),
    MetricSpec("a2_microbatches", "Microbatches per step, m", "1", "int"),
    MetricSpec("a2_memory", "Memory per GPU", "B", "B"),
    MetricSpec("a2_bubble", "Pipeline bubble, (p−1)/m", "1", "pct"),
    MetricSpec("a2_tp_comm", "Tensor-parallel traffic per layer", "s", "ms"),
    MetricSpec("a2_layer_compute", "Compute per layer", "s", "ms"),
    MetricSpec("a2_step_s", "Step time", "s", "s"),
    MetricSpec("a2_mfu", "Model FLOPs utilisation", "1", "pct1"),
)}

FAILURES = (
    FailureSpec("a1_out_of_memory", f"Out of memory: the model state does not fit in {fmt(HBM, 'B')}", act=1,
                reach={"a1_zero": "0"}, leave={"a1_zero": "1"}),
    FailureSpec("a1_comm_bound", "Communication-bound: the GPUs wait longer than they compute", act=1,
                reach={}, leave={"a1_gpus": 64}),
    FailureSpec("a2_out_of_memory", f"Out of memory: the layout does not fit in {fmt(HBM, 'B')}", act=2,
                reach={}, leave={"a2_pp": 16}),
    FailureSpec("a2_tp_across_nodes", "Tensor parallelism crosses the node boundary", act=2,
                reach={"a2_tp": 16}, leave={"a2_tp": 8}),
    FailureSpec("a2_bubble", "Pipeline bubble above the ceiling", act=2,
                reach={"a2_tp": 4}, leave={"a2_tp": 8}),
)
F = {f.name: f for f in FAILURES}


def tone_for(mfu: float) -> str:
    """Measured against the compute phases' own utilisation, the best the step can do."""
    return tone(mfu / S.mfu)


def act1_instruments(s: State) -> list:
    run = act1_run(s)
    memory = M["a1_memory"].show(run.memory, None if run.fits else "danger",
                                 f"ZeRO-{run.zero}, of {fmt(HBM, 'B')} HBM")
    egress = M["a1_node_egress"].show(run.nics * run.nic_bw, note=f"{run.nics} × {fmt(run.nic_bw, 'GB/s')}")
    parts = ledger_note(s)
    if not run.fits:
        parts += [metric_grid(memory, egress), failure(F["a1_out_of_memory"],
                  f"Weights, gradients and Adam state need {fmt(run.memory, 'B')} per GPU with ZeRO-{run.zero} "
                  f"on {run.gpus} GPUs. The run is refused. {oom_levers(run)}")]
    elif not run.splits:
        parts += [metric_grid(memory, egress), callout("warn", "The batch cannot be split further",
                  prose(f"{fmt(run.batch, 'tokens')} make {fmt(run.batch / S.act1_seq, 'int')} sequences of "
                        f"{fmt(S.act1_seq, 'tokens')}: fewer than {run.gpus} GPUs. Each GPU needs a whole "
                        "sequence; with a fixed batch, this is where data parallelism stops."))]
    else:
        parts.append(metric_grid(
            M["a1_mfu"].show(run.mfu, tone_for(run.mfu), f"of {fmt(S.mfu, 'pct1')} in the compute phase"),
            M["a1_tokens_per_gpu"].show(run.tokens_per_gpu),
            M["a1_compute_s"].show(run.compute_s),
            M["a1_allreduce_s"].show(run.allreduce_s, "danger" if run.exposed_s > run.compute_s else None,
                                     f"{fmt(run.hidden_s, 's')} hidden" if run.overlap else "none hidden"),
            memory, egress))
        if run.exposed_s > run.compute_s:
            parts.append(failure(F["a1_comm_bound"],
                         f"Each step computes for {fmt(run.compute_s, 's')} and then waits "
                         f"{fmt(run.exposed_s, 's')} for gradients. {comm_levers(run)}"))
    parts.append(act1_chart(run, [mfu_or_none(act1_run(s, n)) for n in COUNTS]))
    return parts


def act1_math(s: State):
    run = act1_run(s)
    return math_peek("The governing equations · Act I", (
        Equation(r"T_{\text{comp}} = \frac{6\,P\,G/N}{C_{\text{peak}}\,u}",
                 "Each of *N* GPUs processes its share of the global batch of *G* tokens at 6 FLOP per "
                 "parameter per token; *u* is the utilisation of the compute phase."),
        Equation(r"T_{\text{AR}} = 2\,\frac{g-1}{g}\cdot\frac{2P}{B_{\text{NVLink}}} + "
                 r"2\,\frac{n-1}{n}\cdot\frac{2P}{L\,B_{\text{NIC}}}",
                 "Hierarchical all-reduce of the bf16 gradients: inside each node of *g* GPUs, then across "
                 "*n* nodes through *L* NICs per node."),
        Equation(r"\text{MFU} = u\cdot\frac{T_{\text{comp}}}{T_{\text{comp}} + T_{\text{AR}} - T_{\text{hidden}}}",
                 "Only the exposed part of the all-reduce costs time; overlap can hide at most the backward "
                 "pass, 4 of the 6 FLOP per token (an idealised bound). *u* = "
                 f"{fmt(S.mfu, 'pct1')} is the scenario's [assumed] utilisation of the compute phase."),
        Equation(r"M = P\left(2 + 2 + \frac{12}{N}\right)\ \text{(ZeRO-1)}",
                 "bf16 weights and gradients, and 12 bytes of fp32 Adam state sharded across *N* GPUs."),
    ), rows=(
        ("Tokens per GPU, *G/N*", fmt(run.tokens_per_gpu, "tokens")),
        ("Compute per step", fmt(run.compute_s, "s")),
        ("All-reduce per step", fmt(run.allreduce_s, "s")),
        ("Node egress, *L·B*", fmt(run.nics * run.nic_bw, "GB/s")),
        ("MFU", fmt(run.mfu, "pct1")),
    ), sources=(
        cite("kaplan2020", "C = 6ND"),
        cite("thakur2005"),
        cite("zero2020", "4 + 12/N bytes per parameter with stage 1; 1.5× traffic with stage 3"),
        cite("palm2022", "App. B, model FLOPs utilisation"),
        C.REGISTRY["H100_PEAK_BF16_DENSE"].source,
        C.REGISTRY["DGX_H100_NICS"].source,
    ))


ACT1 = Act(
    number=1, title="Spreading One Batch Wider", minutes="12–15 min",
    stakeholder_role="Training Infrastructure Lead",
    stakeholder=lambda context: (
        f"Our {fmt(S.act1_params, 'params')} run uses ZeRO-1 on DGX H100 nodes with {DEFAULT_FABRIC[0]} NDR rails "
        f"each, and a {'warm-up ' if context == 'warmup' else ''}global batch fixed at "
        f"{fmt(BATCH[context], 'tokens')}, {fmt(S.act1_seq, 'tokens')} a sequence. "
        f"Our step model, at {fmt(S.mfu, 'pct1')} utilisation in the compute phase [assumed], gives MFU "
        f"{fmt(quoted(context)[0].mfu, 'pct1')} on {quoted(context)[0].gpus} GPUs and "
        f"{fmt(quoted(context)[1].mfu, 'pct1')} on {quoted(context)[1].gpus}. Leadership wants the run as wide as the "
        f"batch allows, one sequence per GPU: {act1_target(context):,} GPUs. What MFU should I promise?"),
    scenario=lambda: (
        "In data parallelism every GPU holds the whole model, processes its slice of the global batch, then "
        f"joins an **all-reduce** of the bf16 gradients ({fmt(S.act1_params * C.BYTES_PER_BF16, 'B')}) before "
        f"the optimizer step. ZeRO-1 shards the Adam state so that the model state fits "
        f"({fmt(scenario_run(S.act1_measured[0]).memory, 'B')} per GPU on {S.act1_measured[0]} GPUs).",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_GPUS, A1_BATCH, A1_FABRIC, A1_MODEL, A1_ZERO, A1_OVERLAP),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Data-parallel scaling explorer",
)

# ---- Act II · 3D parallelism ----------------------------------------------------------

A2_TP = Slider("a2_tp", "Tensor parallelism, TP", unit="GPUs", min=1, max=S.act2_tp_max, step=1, default=8, fmt="int",
               scale="log2", help=f"A DGX H100 node has {S.gpus_per_node} GPUs on NVLink. TP must divide the {HEADS} "
                                  f"attention heads: the slider stops at {S.act2_tp_max}.")
A2_PP = Slider("a2_pp", "Pipeline parallelism, PP", unit="stages", min=1, max=S.act2_pp_max, step=1, default=4,
               fmt="int", scale="log2", help=f"Equal stages need PP to divide the {LAYERS} layers: the slider stops "
                                             f"at {S.act2_pp_max}.")
A2_DISTOPT = Toggle("a2_distopt", "Distributed optimizer (shard the Adam state across DP, like ZeRO-1)")
A2_BATCH = Choice("a2_batch", "Global batch", tuple(Option(str(b), f"{b:,} sequences") for b in A2_BATCHES),
                  default=str(GPT3_BATCH), unit="sequences",
                  help=f"Micro-batch {MBS} sequence; m = global batch ÷ (DP × micro-batch).")


def layout_name(lay: Layout) -> str:
    return f"TP {lay.tp} × PP {lay.pp} × DP {lay.dp}"


def verdict_line(lay: Layout) -> str:
    return (f"{layout_name(lay)}: {fmt(lay.memory, 'B')} per GPU, bubble {fmt(lay.bubble, 'pct')}, "
            f"TP {'across nodes' if lay.crosses_nodes else 'inside a node'}.")


def candidate(letter: str, why: str) -> Claim:
    lay = CANDIDATES[letter]
    return Claim(letter, f"**{layout_name(lay)}**", f"{verdict_line(lay)} {why}")


def _why() -> dict[str, str]:
    """Each candidate's own physics, in its feedback (computed, so a changed candidate changes it)."""
    a, b, c = CANDIDATES["A"], CANDIDATES["B"], CANDIDATES["C"]
    return {
        "A": f"m = {a.batch:,} ÷ {a.dp} = {a.m} microbatches for {a.pp} stages: the bubble (p − 1)/m is "
             f"{fmt(a.bubble, 'pct')}, above the {fmt(S.bubble_limit, 'pct')} ceiling.",
        "B": f"Without the distributed optimizer each GPU keeps all the Adam state of its shard: "
             f"{fmt(b.state - b.weights_grads, 'B')}, on top of {fmt(b.weights_grads, 'B')} of weights and "
             f"gradients and {fmt(b.activations, 'B')} of activations.",
        "C": f"A DGX H100 node has {S.gpus_per_node} GPUs, so a tensor group of {c.tp} spans "
             f"{c.tp // S.gpus_per_node} nodes: memory and bubble pass, the third limit does not.",
        "D": "This is Megatron-LM's own GPT-3 175B layout (NVIDIA's example script).",
    }


ACT2_PREDICTION = Pick(
    id="a2_predict", act=2,
    prompt=f"With the distributed optimizer off and Megatron's batch of {GPT3_BATCH:,} sequences, which layout "
           f"fits in {fmt(HBM, 'B')}, keeps the bubble at or below {fmt(S.bubble_limit, 'pct')} and keeps "
           "tensor parallelism inside a node?",
    quantity="the layout that meets all three limits",
    options=tuple(candidate(letter, why) for letter, why in _why().items()),
    decide=act2_answer,
)


def act2_facts() -> dict[str, str]:
    inside, across = MEGATRON, CANDIDATES["C"]
    return {"tp_across_n": str(across.tp), "tp_in": fmt(inside.layer_tp_s, "ms"), "tp_across": fmt(across.layer_tp_s, "ms"),
            "tp_ratio": fmt(across.layer_tp_s / inside.layer_tp_s, "x"),
            "mfu_in": fmt(inside.mfu, "pct1"), "mfu_across": fmt(across.mfu, "pct1"),
            "tp": str(SHALLOW.tp), "m_shallow": fmt(SHALLOW.m, "int"), "m_deep": fmt(DEEP.m, "int"),
            "pp_shallow": str(SHALLOW.pp), "pp_deep": str(DEEP.pp), "gpus": f"{S.act2_gpus:,}",
            "batch": f"{GPT3_BATCH:,}", "bubble_cap": fmt(S.act2_gpus * MBS / (SHALLOW.tp * GPT3_BATCH), "pct")}


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt=f"At TP {SHALLOW.tp}, deepening the pipeline from {SHALLOW.pp} to {DEEP.pp} stages raises the bubble "
           f"only from {fmt(SHALLOW.bubble, 'pct')} to {fmt(DEEP.bubble, 'pct')}, though p − 1 grows from "
           f"{SHALLOW.pp - 1} to {DEEP.pp - 1}. Why so little?",
    options=(
        Claim("A", "Each doubling of PP halves DP, and so doubles each pipeline's microbatches.",
              "DP = {gpus} ÷ (TP × PP) and m = {batch} ÷ DP: m grows from {m_shallow} at PP {pp_shallow} to "
              "{m_deep} at PP {pp_deep}, in proportion to p. At TP {tp} the bubble (p − 1)/m approaches "
              "{bubble_cap} however deep the pipeline."),
        Claim("B", "Fewer layers per stage make each idle slot of the fill and drain shorter.",
              "Shorter slots shorten the useful work by the same factor: the bubble counts p − 1 idle slots "
              "against m slots of work, whatever a slot lasts. It is m that grows, from {m_shallow} to {m_deep}."),
        Claim("C", "The 1F1B schedule fills the next step's pipeline while this one drains.",
              "Megatron-LM's 1F1B schedule flushes the pipeline before every optimizer step (PipeDream-Flush, "
              "Narayanan et al. 2021), so every step pays its fill and drain. It is m that grows, from "
              "{m_shallow} to {m_deep}."),
        Claim("D", "Stages pass activations point to point, so added stages add little traffic.",
              "So they do, but the bubble is idle time, not traffic: p − 1 fill and drain slots against m slots of "
              "work. It is m that grows, from {m_shallow} to {m_deep}, as DP falls."),
    ),
    answer_letter="A",
)


def layout_of(s: State) -> Layout:
    return Layout(int(s["a2_tp"]), int(s["a2_pp"]), s["a2_distopt"], int(s["a2_batch"]))


def act2_metrics(lay: Layout, broken: dict[str, bool]):
    return metric_grid(
        M["a2_dp"].show(lay.dp, note=f"{S.act2_gpus:,} ÷ (TP × PP)"),
        M["a2_microbatches"].show(lay.m, note=f"{lay.batch:,} ÷ {lay.dp}"),
        M["a2_memory"].show(lay.memory, "danger" if broken["a2_out_of_memory"] else None,
                            f"of {fmt(HBM, 'B')}"),
        M["a2_bubble"].show(lay.bubble, "danger" if broken["a2_bubble"] else None,
                            f"ceiling {fmt(S.bubble_limit, 'pct')}"),
        M["a2_tp_comm"].show(lay.layer_tp_s, "danger" if broken["a2_tp_across_nodes"] else None,
                             "per microbatch, " + ("NVLink and the rails" if lay.crosses_nodes else "over NVLink")),
        M["a2_layer_compute"].show(lay.layer_compute_s, note="per microbatch"),
        # a layout that does not fit does not run: no step time, no MFU
        *([] if broken["a2_out_of_memory"] else [
            M["a2_step_s"].show(lay.step_s, note=f"an upper bound: {fmt(lay.dp_allreduce_s, 's')} of DP "
                                                 "all-reduce, one rail per GPU, none overlapped"),
            M["a2_mfu"].show(lay.mfu, mfu_tone(lay, broken))]))


def mfu_tone(lay: Layout, broken: dict[str, bool]) -> str:
    """Never green beside a broken limit (review: TP 4 x PP 32 showed a green 41.7 % beside 'Pipeline
    bubble above the ceiling')."""
    shown = tone_for(lay.mfu)
    return "warn" if shown == "good" and any(broken.values()) else shown


def act2_failures(lay: Layout, broken: dict[str, bool]) -> list:
    parts = []
    if broken["a2_out_of_memory"]:
        parts.append(failure(F["a2_out_of_memory"],
                     f"Weights and gradients {fmt(lay.weights_grads, 'B')}, Adam state "
                     f"{fmt(lay.state - lay.weights_grads, 'B')}, activations {fmt(lay.activations, 'B')}: "
                     f"{fmt(lay.memory, 'B')} per GPU. {a2_oom_levers(lay)}"))
    if broken["a2_tp_across_nodes"]:
        parts.append(failure(F["a2_tp_across_nodes"],
                     f"TP = {lay.tp} spans {lay.tp // S.gpus_per_node} nodes: each of a layer's {TP_CALLS} "
                     f"all-reduces runs inside the node over NVLink and then across nodes through all "
                     f"{DGX_RAILS} rails ({fmt(C.DGX_H100_NICS * C.IB_NDR_BW, 'GB/s')} out of each node). "
                     f"They cost {fmt(lay.layer_tp_s, 'ms')} per layer against {fmt(lay.layer_compute_s, 'ms')} of "
                     f"compute, {fmt(lay.layer_tp_s / INSIDE_TP_S, 'x')} the "
                     f"{fmt(INSIDE_TP_S, 'ms')} of TP {S.gpus_per_node} on NVLink alone, on the critical path of "
                     f"every microbatch. Keep TP at {S.gpus_per_node} or below."))
    if broken["a2_bubble"]:
        parts.append(failure(F["a2_bubble"],
                     f"{lay.pp} stages and {lay.m} microbatches leave the pipeline idle for "
                     f"{fmt(lay.bubble, 'pct')} of the useful time. {bubble_levers(lay)}"))
    return parts


def act2_instruments(s: State) -> list:
    lay = layout_of(s)
    problem = lay.problem()
    if problem:
        return [callout("warn", "Not a valid layout", prose(problem)), act2_chart(lay)]
    broken = lay.limits()
    parts = [act2_metrics(lay, broken), *act2_failures(lay, broken)]
    if lay.satisfies:
        parts.append(callout("success", "All three limits met", prose(verdict_line(lay))))
    parts.append(act2_chart(lay))
    return parts


def act2_math(s: State):
    lay = layout_of(s)
    valid = not lay.problem()
    return math_peek("The governing equations · Act II", (
        Equation(r"M = \frac{P}{t\,p}\left(4 + \frac{12}{d_{\text{opt}}}\right) + L\cdot\frac{34\,s\,b\,h}{t}",
                 "Model state of one shard (bf16 weights and gradients, fp32 Adam state divided by "
                 "*d*_opt = DP with the distributed optimizer, else 1), plus the activations the "
                 "first 1F1B stage keeps with selective recompute and sequence parallelism."),
        Equation(r"m = \frac{B}{d\,b},\qquad \text{bubble} = \frac{p-1}{m}",
                 "Microbatches per step follow from the global batch *B*; the bubble is measured against the "
                 "useful pipeline time."),
        Equation(r"T_{\text{TP}} = 4\cdot 2\,\frac{t-1}{t}\cdot\frac{2\,s\,b\,h}{B_{\text{link}}},\qquad "
                 r"T_{\text{layer}} = \frac{72\,b\,s\,h^2\,(1 + s/6h)}{t\,C_{\text{peak}}\,u}",
                 "Four activation all-reduces per layer per microbatch: a ring over NVLink inside a node; a "
                 "group that spans nodes adds a ring across them through every rail of each node (hierarchical "
                 "all-reduce). The layer's forward and backward FLOPs split over *t* GPUs."),
        Equation(r"T_{\text{step}} = m\,\frac{L}{p}\,(T_{\text{layer}} + T_{\text{TP}})\,(1 + \text{bubble}) + "
                 r"T_{\text{AR}}^{\text{DP}},\qquad "
                 r"\text{MFU} = u\,\frac{m\,\frac{L}{p}\,T_{\text{layer}}}{T_{\text{step}}}",
                 "Pipeline-to-pipeline transfers are ignored; the data-parallel all-reduce of each GPU's "
                 "gradient shard, over one 400G rail per GPU, is counted as exposed, so the step time is an "
                 "upper bound (Megatron-LM overlaps part of it)."),
    ), rows=(
        ("Layout", layout_name(lay) if valid else lay.problem()),
        ("Microbatches, *m*", str(lay.m) if valid else "—"),
        ("Model state per GPU", fmt(lay.state, "B")),
        ("Activations per GPU", fmt(lay.activations, "B")),
        ("Bubble", fmt(lay.bubble, "pct") if valid else "—"),
        ("MFU", fmt(lay.mfu, "pct1") if valid and lay.fits else "—"),
    ), sources=(
        cite("narayanan2021", "bubble (p−1)/m, 72bsh² FLOPs per layer, B = b·m·d"),
        cite("korthikanti2022", "34sbh/t bytes per layer; the all-reduces of tensor parallelism"),
        cite("zero2020", "16 bytes per parameter for mixed-precision Adam"),
        C.REGISTRY["GPT3_PARAMS"].source,
        C.REGISTRY["MEGATRON_GPT3_PP"].source,
        C.REGISTRY["MEGATRON_GPT3_GPUS"].source,
    ))


ACT2 = Act(
    number=2, title="The 3D Parallelism Design Challenge", minutes="20–25 min",
    stakeholder_role="MLOps Architect",
    stakeholder=lambda: (
        f"We train GPT-3 ({fmt(C.GPT3_PARAMS, 'params')} parameters, {LAYERS} layers, {HEADS} heads) on "
        f"{S.act2_gpus:,} H100s in {S.act2_gpus // S.gpus_per_node} DGX nodes. Mixed-precision Adam needs "
        f"{fmt(C.ADAM_MIXED_PRECISION_BYTES_PER_PARAM, 'num')} bytes per parameter, "
        f"{fmt(C.GPT3_PARAMS * C.ADAM_MIXED_PRECISION_BYTES_PER_PARAM, 'B')} of model state. The global batch "
        f"is {GPT3_BATCH:,} sequences of {fmt(SEQ, 'tokens')}, micro-batch {MBS}, and our distributed "
        f"optimizer is not ready yet. Give me TP × PP × DP that fits in {fmt(HBM, 'B')}, keeps the bubble at "
        f"or below {fmt(S.bubble_limit, 'pct')}, and does not run tensor parallelism over the network."),
    scenario=lambda: (
        "**Tensor parallelism** (TP) splits every weight matrix across *t* GPUs that exchange activations "
        f"{TP_CALLS} times per layer. **Pipeline parallelism** (PP) gives each of *p* stages a block of layers and "
        "streams microbatches through them; the stages idle while the pipeline fills and drains, a bubble of "
        "(p − 1)/m. **Data parallelism** (DP) copies the whole TP × PP group and splits the batch among the copies.",
        f"TP × PP × DP = {S.act2_gpus:,} GPUs, and each pipeline gets m = {GPT3_BATCH:,} ÷ DP microbatches.",
    ),
    prediction=ACT2_PREDICTION,
    controls=(A2_TP, A2_PP, A2_DISTOPT, A2_BATCH),
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="3D parallelism configurator",
)

# ---- the whole lab -------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    run, lay = act1_run(s), layout_of(s)
    active = {"a1_out_of_memory": not run.fits,
              "a1_comm_bound": run.fits and run.splits and run.exposed_s > run.compute_s}
    if not lay.problem():
        active.update(lay.limits())
    return frozenset(name for name, on in active.items() if on)


def results(s: State) -> dict[str, float]:
    run, lay = act1_run(s), layout_of(s)
    out = {"a1_mfu": run.mfu if run.fits and run.splits else None}  # a refused run has no MFU, not 0 %
    if not lay.problem():
        out.update({"a2_mfu": lay.mfu if lay.fits else None, "a2_memory": lay.memory, "a2_bubble": lay.bubble})
    return out


def lab_takeaways(context: str) -> list[str]:
    few, mid = measured(context)
    many = scenario_run(act1_target(context), context)
    alt = replace(CANDIDATES["B"], distopt=True)
    return [
        f"With a global batch fixed at {fmt(BATCH[context], 'tokens')}, data-parallel MFU falls from {fmt(few.mfu, 'pct1')} on {few.gpus} GPUs to "
        f"{fmt(mid.mfu, 'pct1')} on {mid.gpus} and {fmt(many.mfu, 'pct1')} on {many.gpus}: compute per GPU "
        f"shrinks from {fmt(few.compute_s, 's')} to {fmt(many.compute_s, 's')}, while the all-reduce grows "
        f"{fmt(mid.allreduce_s / few.allreduce_s, 'x')} as the gradients leave the node and the ring across nodes "
        f"lengthens ({fmt(few.allreduce_s, 's')} on {few.gpus} GPUs, {fmt(mid.allreduce_s, 's')} on {mid.gpus}) "
        f"and then stays near {fmt(many.allreduce_s, 's')}.",
        f"Mixed-precision Adam needs {fmt(C.ADAM_MIXED_PRECISION_BYTES_PER_PARAM, 'num')} bytes per parameter; "
        f"ZeRO-1 and the distributed optimizer shard the {fmt(C.ADAM_OPTIMIZER_BYTES_PER_PARAM, 'num')} bytes of "
        "Adam state without adding traffic; ZeRO-3, which also shards the weights, adds a third ring phase.",
        f"Megatron-LM's GPT-3 layout, {layout_name(MEGATRON)}, needs {fmt(MEGATRON.memory, 'B')} per GPU with a "
        f"{fmt(MEGATRON.bubble, 'pct')} bubble; with the distributed optimizer, {layout_name(alt)} also fits "
        f"({fmt(alt.memory, 'B')}, bubble {fmt(alt.bubble, 'pct')}).",
        f"The global batch sets the bubble: m = B ÷ DP, so a batch warm-up to {WARMUP_BATCH:,} sequences "
        f"raises Megatron's bubble to {fmt(replace(MEGATRON, batch=WARMUP_BATCH).bubble, 'pct')}.",
        f"Tensor parallelism belongs inside the node: at TP {act2_facts()['tp_across_n']}, across nodes, its "
        f"all-reduces take {act2_facts()['tp_ratio']} as long per layer as at TP {MEGATRON.tp} on NVLink.",
    ]


LAB = Lab(
    id="v2_05", volume=2, number=5, title="The Parallelism Paradox",
    invariant="With a fixed batch, more data-parallel GPUs means **less compute per GPU against the same "
              "all-reduce**; models too big for one GPU are cut by TP × PP × DP, and each cut has a price.",
    minutes="35–40 min", chapter="Distributed Training Systems", url="vol2/05-parallelism-paradox/",
    description="Why a fixed global batch on more data-parallel GPUs lowers MFU, and how tensor, pipeline and data "
                "parallelism split a model too big for one GPU.",
    reading=(
        "**Data parallelism**: the gradient all-reduce and the communication-to-computation ratio.",
        "**Memory of training**: weights, gradients, Adam state and activations; ZeRO sharding.",
        "**3D parallelism**: tensor parallelism inside a node, the pipeline bubble (p−1)/m, and data "
        "parallelism across replicas.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "[**V2-02 The Interconnect Wall**](../02-interconnect-wall/): the node egress that sets this lab's all-reduce time, and the "
        "NICs you chose there.",
        "[**V2-06 The Bandwidth Invariant**](../06-bandwidth-invariant/): what a ring all-reduce costs, and when other "
        "algorithms win.",
        "V2-07 The Checkpoint Reckoning (a later lab): the model state sized here is what every checkpoint writes.",
    ),
    # the context sets Act I's batch and opens its instruments where the question asks (Act II keeps
    # Megatron's batch: at the warm-up's no layout meets the three limits, so its question is the same)
    presets={"context": {c: {"a1_batch": BATCH[c], "a1_gpus": act1_target(c)} for c in BATCH}},
    reads=("v2_02",),
    terms=terms,
    hook=f"A {fmt(S.act1_params, 'params')} run is asked to spread one fixed batch over "
         f"{act1_target(CONTEXT.default):,} GPUs; then GPT-3 must be cut to fit {S.act2_gpus:,} H100s. "
         "What does each cut cost?",
)
