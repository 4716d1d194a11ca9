"""Lab V2-05 · The Parallelism Paradox.

Core invariant: with a fixed global batch, adding data-parallel GPUs shrinks each GPU's
compute while the gradient all-reduce stays the same size, so MFU falls; a model too big
for one GPU must be cut by tensor and pipeline parallelism, and each cut has its own
price (node-crossing tensor traffic, the pipeline bubble, memory).

Act I (the data-parallel wall): a 7B model with ZeRO-1 on DGX H100 nodes, global batch
fixed at 512K tokens: MFU falls from ~51 % on 8 GPUs to ~44 % on 64 and ~21 % on 512.
The instruments open on the question's fabric (8 NDR rails per node); the network the student
chose in V2-02 is one option away, and the page says so when the ledger holds one.
Act II (3D parallelism): GPT-3 175B on 1,024 H100s. TP × PP × DP with m derived from
Megatron's global batch; memory, bubble and tensor-parallel traffic decide the layout. A tensor
group wider than a node spans whole nodes and all-reduces hierarchically over all 8 rails.

Ledger fields: context, both predictions and reflections, the final instrument settings,
MFU of both acts, memory and bubble of the Act II layout, failure states reached.
"""

from __future__ import annotations

from dataclasses import replace

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option, Pick,
                              Prediction, Range, Reflection, Slider, State, Toggle, callout, chart, failure,
                              fmt, math_peek, metric_grid, prose)
from pylabs.framework import charts as ch
from pylabs.framework.components import tone
from pylabs.labs.vol2.v2_05_model import (CANDIDATES, DEFAULT_FABRIC, DGX_RAILS, GB, GPT3_BATCH, HBM, HEADS,
                                         INSIDE_TP_S, LAYERS, MBS, MEASURED, MEGATRON, MODEL_SIZES, PCT, SEQ,
                                         STEP, TP_CALLS, WARMUP_BATCH, DPRun, Layout, S, act1_truth,
                                         act2_answer, mfu_or_none, scenario_run)
from pylabs.labs.vol2.v2_05_network import FABRICS, NICS, ledger_note, resolve_fabric
from pylabs.physics import constants as C
from pylabs.physics.references import cite

# ---- context ----------------------------------------------------------------------

CONTEXT = Choice("context", "Training phase", (
    Option("full", "Steady state: the full global batch"),
    Option("warmup", "Batch warm-up: a quarter of the global batch, as early in a run"),
), default="full", help="Sets the global batch of both acts' instruments. GPT-3 ramped its batch up "
                        "over the first billions of tokens (Brown et al. 2020, App. B).")

# ---- Act I · The data-parallel wall ---------------------------------------------------

A1_GPUS = Slider("a1_gpus", "Data-parallel GPUs", unit="GPUs", min=8, max=1024, step=1, default=8,
                 fmt="int", scale="log2")
A1_BATCH = Slider("a1_batch", "Global batch (fixed across GPU counts)", unit="tokens", min=131072,
                  max=2097152, step=1, default=S.act1_batch, fmt="tokens", scale="log2")
A1_FABRIC = Choice("a1_fabric", "Network between nodes", tuple(Option(k, v) for k, v in FABRICS.items()),
                   default=f"{DEFAULT_FABRIC[0]}ndr", widget="select")
A1_MODEL = Choice("a1_model", "Model", tuple(Option(k, f"{fmt(v, 'params')} parameters") for k, v in MODEL_SIZES.items()),
                  default="7b")
A1_ZERO = Choice("a1_zero", "ZeRO stage", (
    Option("0", "0 · plain DDP"), Option("1", "1 · shard Adam state"),
    Option("2", "2 · + gradients"), Option("3", "3 · + weights"),
), default=str(S.act1_zero))
A1_OVERLAP = Toggle("a1_overlap", "Overlap the all-reduce with the backward pass (bucketed DDP)",
                    help="The next forward pass needs the reduced gradients, so only the backward pass can hide it.")


def act1_run(s: State, gpus: int | None = None) -> DPRun:
    nics, nic, _ = resolve_fabric(s)
    return DPRun(MODEL_SIZES[s["a1_model"]], int(gpus or s["a1_gpus"]), s["a1_batch"], nics, NICS[nic][1],
                 int(s["a1_zero"]), s["a1_overlap"])


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"Same {fmt(S.act1_params, 'params')} model, same global batch, ZeRO-1, {DEFAULT_FABRIC[0]} NDR rails per node, and the "
           f"all-reduce starts after the backward pass. What MFU will the run reach on {S.act1_target} GPUs?",
    quantity=f"MFU on {S.act1_target} GPUs", unit_fmt="pct1",
    options=(
        Range("A", "{range}: the all-reduce swamps the step; the GPUs mostly wait", None, 0.15, 0.10,
              "Communication does not swamp everything: compute still takes a large share of each step."),
        Range("B", "{range}: each GPU's work shrinks while the all-reduce stays put", 0.15, 0.30, 0.22,
              f"Each GPU computes {STEP}× less than on {S.act1_measured[1]} GPUs, while the all-reduce costs "
              "about the same."),
        Range("C", f"{{range}}: another step down, like the one from {S.act1_measured[0]} to {S.act1_measured[1]}",
              0.30, 0.40, 0.37,
              f"The fall is not a fixed step per {STEP}× more GPUs: compute per GPU shrinks {STEP}× each time "
              "while the all-reduce barely moves, so each step down is bigger than the last."),
        Range("D", "{range}: past the node boundary, little changes", 0.40, None, 0.43,
              "The all-reduce does stay nearly flat; but with a fixed batch the compute it is measured "
              "against keeps shrinking."),
    ),
    truth=act1_truth,
)


def act1_facts() -> dict[str, str]:
    few, many = scenario_run(S.act1_measured[0]), scenario_run(S.act1_target)
    return {"compute_few": fmt(few.compute_s, "s"), "compute_many": fmt(many.compute_s, "s"),
            "ar_few": fmt(few.allreduce_s, "s"), "ar_many": fmt(many.allreduce_s, "s"),
            "ar_mid": fmt(MEASURED[1].allreduce_s, "s"), "gpus_mid": fmt(MEASURED[1].gpus, "int"),
            "ar_growth": fmt(many.allreduce_s / few.allreduce_s, "x"),
            "compute_shrink": fmt(few.compute_s / many.compute_s, "x"),
            "gpus_few": fmt(few.gpus, "int"), "gpus_many": fmt(many.gpus, "int"),
            "ring_few": fmt(2 * (few.gpus - 1) / few.gpus, "num"),
            "ring_many": fmt(2 * (many.gpus - 1) / many.gpus, "num")}


ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="Why does MFU fall as the same global batch is spread over more data-parallel GPUs?",
    options=(
        Claim("A", "NCCL's software overhead grows with the number of ranks.",
              "Per-message overhead is microseconds; the all-reduce here moves gigabytes, so bandwidth "
              "sets its time, not the library."),
        Claim("B", "Each GPU must send more gradient bytes when there are more GPUs.",
              "The ring factor 2(N−1)/N goes from {ring_few} to only {ring_many}: every GPU sends about "
              "twice its gradient whatever N is."),
        Claim("C", "Each GPU's compute shrinks in proportion to 1/N while the all-reduce time, once it "
                   "crosses nodes, stays nearly constant.",
              "On {gpus_few} GPUs a step computes for {compute_few} against an all-reduce of {ar_few}; on "
              "{gpus_many} GPUs it computes for {compute_many} against {ar_many}. The all-reduce grows "
              "{ar_growth} in all, nearly all of it once, where the gradients first leave the node "
              "({ar_mid} on {gpus_mid} GPUs); the compute it hides behind shrinks {compute_shrink}."),
        Claim("D", "More GPUs put more pressure on each GPU's HBM and caches.",
              "Each GPU runs the same kernels on fewer tokens; its memory traffic per token is unchanged."),
    ),
    answer_letter="C",
)

M = {m.name: m for m in (
    MetricSpec("a1_mfu", "Model FLOPs utilisation", "1", "pct1"),
    MetricSpec("a1_tokens_per_gpu", "Tokens per GPU per step", "tokens", "tokens"),
    MetricSpec("a1_compute_s", "Compute per step", "s", "s"),
    MetricSpec("a1_allreduce_s", "Gradient all-reduce per step", "s", "s"),
    MetricSpec("a1_memory", "Model state per GPU", "B", "GB"),
    MetricSpec("a1_node_egress", "Network bandwidth out of each node", "B/s", "GB/s"),
    MetricSpec("a2_dp", "Data-parallel replicas, DP", "1", "int"),
    MetricSpec("a2_microbatches", "Microbatches per step, m", "1", "int"),
    MetricSpec("a2_memory", "Memory per GPU", "B", "GB"),
    MetricSpec("a2_bubble", "Pipeline bubble, (p−1)/m", "1", "pct"),
    MetricSpec("a2_tp_comm", "Tensor-parallel traffic per layer", "s", "ms"),
    MetricSpec("a2_layer_compute", "Compute per layer", "s", "ms"),
    MetricSpec("a2_step_s", "Step time", "s", "s"),
    MetricSpec("a2_mfu", "Model FLOPs utilisation", "1", "pct1"),
)}

FAILURES = (
    FailureSpec("a1_out_of_memory", f"Out of memory: the model state does not fit in {fmt(HBM, 'GB')}", act=1),
    FailureSpec("a1_comm_bound", "Communication-bound: the GPUs wait longer than they compute", act=1),
    FailureSpec("a2_out_of_memory", f"Out of memory: the layout does not fit in {fmt(HBM, 'GB')}", act=2),
    FailureSpec("a2_tp_across_nodes", "Tensor parallelism crosses the node boundary", act=2),
    FailureSpec("a2_bubble", "Pipeline bubble above the ceiling", act=2),
)
F = {f.name: f for f in FAILURES}


def tone_for(mfu: float) -> str:
    """Measured against the compute phases' own utilisation, the best the step can do."""
    return tone(mfu / S.mfu)


def act1_instruments(s: State) -> list:
    run = act1_run(s)
    memory = M["a1_memory"].show(run.memory, None if run.fits else "danger",
                                 f"ZeRO-{run.zero}, of {fmt(HBM, 'GB')} HBM")
    egress = M["a1_node_egress"].show(run.nics * run.nic_bw, note=f"{run.nics} × {fmt(run.nic_bw, 'GB/s')}")
    parts = ledger_note(s)
    if not run.fits:
        parts += [metric_grid(memory, egress), failure(F["a1_out_of_memory"],
                  f"Weights, gradients and Adam state need {fmt(run.memory, 'GB')} per GPU with ZeRO-{run.zero} "
                  f"on {run.gpus} GPUs. The run is refused. Shard more (a higher ZeRO stage), or add GPUs "
                  "when the stage divides the state by N.")]
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
                         f"{fmt(run.exposed_s, 's')} for gradients. Use fewer GPUs, a larger global batch, "
                         "or overlap the all-reduce with the backward pass."))
    parts.append(act1_chart(s, run))
    return parts


TOP_LEGEND = {"y": 1.02, "yanchor": "bottom", "x": 0, "xanchor": "left"}


def act1_chart(s: State, run: DPRun):
    counts = [2 ** k for k in range(3, 11)]
    yours = [mfu_or_none(act1_run(s, n)) for n in counts]
    rails = [mfu_or_none(DPRun(run.params, n, run.batch, DEFAULT_FABRIC[0], C.IB_NDR_BW, run.zero, run.overlap))
             for n in counts]
    pct = [None if v is None else PCT * v for v in yours]
    traces = [ch.line("Your settings", counts, pct, "series1", markers=True)]
    if (run.nics, run.nic_bw) != (DEFAULT_FABRIC[0], C.IB_NDR_BW):
        traces.append(ch.line(f"{DEFAULT_FABRIC[0]} NDR rails per node", counts, [None if v is None else PCT * v for v in rails],
                              "series2", dash="dash"))
    if mfu_or_none(run) is not None:
        traces.append(ch.point("Current setting", run.gpus, PCT * run.mfu, "accent"))
    shape, note = ch.hline(PCT * S.mfu, "muted", f"compute phase alone: {fmt(S.mfu, 'pct1')}")
    x = ch.axis("Data-parallel GPUs", "log", tickvals=counts, ticktext=[str(n) for n in counts])
    figure = ch.figure(traces, x=x,
                       y=ch.axis("MFU (%)", range=[0, PCT * S.mfu * 1.15]), shapes=[shape], annotations=[note])
    figure["layout"]["legend"].update(TOP_LEGEND)
    shown = [(n, v) for n, v in zip(counts, yours) if v is not None]
    summary = (f"With a fixed batch of {fmt(run.batch, 'tokens')}, MFU goes from {fmt(shown[0][1], 'pct1')} on "
               f"{shown[0][0]} GPUs to {fmt(shown[-1][1], 'pct1')} on {shown[-1][0]}." if shown else
               f"No GPU count between {counts[0]:,} and {counts[-1]:,} runs this model with this ZeRO stage.")
    if shown and len(traces) > 1 and rails[counts.index(shown[-1][0])] is not None:
        summary += (f" With the scenario's {DEFAULT_FABRIC[0]} NDR rails per node it would be "
                    f"{fmt(rails[counts.index(shown[-1][0])], 'pct1')} there.")
    rows = [(str(n), "—" if v is None else fmt(v, "pct1"), "—" if r is None else fmt(r, "pct1"))
            for n, v, r in zip(counts, yours, rails)]
    return chart("a1_mfu_scaling", "MFU against data-parallel GPUs (fixed global batch)", figure, summary,
                 table=(("GPUs", "Your settings", f"{DEFAULT_FABRIC[0]} NDR rails"), rows))


def act1_math(s: State):
    run = act1_run(s)
    return math_peek("The governing equations · Act I", (
        Equation(r"T_{\text{comp}} = \frac{6\,P\,G/N}{C_{\text{peak}}\,u}",
                 "Each of *N* GPUs processes its share of the global batch of *G* tokens at 6 FLOP per "
                 "parameter per token; *u* is the utilisation of the compute phase."),
        Equation(r"T_{\text{AR}} = 2\,\frac{g-1}{g}\cdot\frac{2P}{B_{\text{NVLink}}} + "
                 r"2\,\frac{n-1}{n}\cdot\frac{2P}{L\,B_{\text{NIC}}}",
                 "Hierarchical all-reduce of the bf16 gradients: inside each node of *g* GPUs, then across "
                 "*n* nodes through *L* NICs per node. It hardly depends on *N*."),
        Equation(r"\text{MFU} = u\cdot\frac{T_{\text{comp}}}{T_{\text{comp}} + T_{\text{AR}} - T_{\text{hidden}}}",
                 "Only the exposed part of the all-reduce costs time; overlap can hide at most the backward "
                 "pass, 4 of the 6 FLOP per token."),
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
    number=1, title="The Data-Parallel Wall", minutes="12–15 min",
    stakeholder_role="Training Infrastructure Lead",
    stakeholder=lambda: (
        f"Our {fmt(S.act1_params, 'params')} run uses ZeRO-1 on DGX H100 nodes with {DEFAULT_FABRIC[0]} NDR rails "
        f"each, and a global batch fixed at {fmt(S.act1_batch, 'tokens')} ({fmt(S.act1_seq, 'tokens')} per sequence). "
        f"MFU was {fmt(MEASURED[0].mfu, 'pct1')} on {MEASURED[0].gpus} GPUs and {fmt(MEASURED[1].mfu, 'pct1')} "
        f"on {MEASURED[1].gpus}. Leadership wants the run on {S.act1_target} GPUs so it finishes sooner. "
        "Nothing about the model or the batch changes. What MFU should I promise?"),
    scenario=lambda: (
        "In data parallelism every GPU holds the whole model, processes its slice of the global batch, and "
        "then joins an **all-reduce** of the gradients before the optimizer step. With the global batch "
        "fixed (**strong scaling**), more GPUs means fewer tokens, and less compute, per GPU per step.",
        f"The gradients of a {fmt(S.act1_params, 'params')} model in bf16 are "
        f"{fmt(S.act1_params * C.BYTES_PER_BF16, 'GB')}, whatever the number of GPUs. ZeRO-1 shards the Adam "
        f"state so that the model state fits ({fmt(MEASURED[0].memory, 'GB')} per GPU on "
        f"{MEASURED[0].gpus} GPUs) without changing that traffic.",
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

A2_TP = Slider("a2_tp", "Tensor parallelism, TP", unit="GPUs", min=1, max=64, step=1, default=8, fmt="int",
               scale="log2", help=f"A DGX H100 node has {S.gpus_per_node} GPUs on NVLink.")
A2_PP = Slider("a2_pp", "Pipeline parallelism, PP", unit="stages", min=1, max=128, step=1, default=4,
               fmt="int", scale="log2")
A2_DISTOPT = Toggle("a2_distopt", "Distributed optimizer (shard the Adam state across DP, like ZeRO-1)")
A2_BATCH = Choice("a2_batch", "Global batch", tuple(Option(str(b), f"{b:,} sequences") for b in
                                                    (WARMUP_BATCH, GPT3_BATCH // 2, GPT3_BATCH, GPT3_BATCH * 2)),
                  default=str(GPT3_BATCH), unit="sequences",
                  help=f"Micro-batch {MBS} sequence; m = global batch ÷ (DP × micro-batch).")


def layout_name(lay: Layout) -> str:
    return f"TP {lay.tp} × PP {lay.pp} × DP {lay.dp}"


def verdict_line(lay: Layout) -> str:
    return (f"{layout_name(lay)}: {fmt(lay.memory, 'GB')} per GPU, bubble {fmt(lay.bubble, 'pct')}, "
            f"TP {'across nodes' if lay.crosses_nodes else 'inside a node'}.")


def candidate(letter: str, blurb: str, why: str) -> Claim:
    lay = CANDIDATES[letter]
    return Claim(letter, f"**{layout_name(lay)}**: {blurb}", f"{verdict_line(lay)} {why}")


ACT2_PREDICTION = Pick(
    id="a2_predict", act=2,
    prompt=f"With the distributed optimizer off and Megatron's batch of {GPT3_BATCH:,} sequences, which layout "
           f"fits in {fmt(HBM, 'GB')}, keeps the bubble at or below {fmt(S.bubble_limit, 'pct')} and keeps "
           "tensor parallelism inside a node?",
    quantity="the layout that meets all three limits",
    options=(
        candidate("A", "one node per tensor group, a short pipeline, many replicas",
                  "Without the distributed optimizer every GPU keeps the full Adam state of its shard."),
        candidate("B", f"tensor groups spanning {CANDIDATES['B'].tp // S.gpus_per_node} nodes, "
                              "so each layer is cut finer",
                  "Every layer's tensor-parallel all-reduces now leave the node through its InfiniBand rails."),
        candidate("C", "one node per tensor group, a deeper pipeline, fewer replicas",
                  "This is Megatron-LM's own GPT-3 175B configuration."),
        candidate("D", f"{CANDIDATES['D'].tp} GPUs per tensor group, a very deep pipeline",
                  "With few replicas each pipeline gets many microbatches, but not enough for so many stages."),
    ),
    decide=act2_answer,
)


def act2_facts() -> dict[str, str]:
    inside, across = MEGATRON, CANDIDATES["B"]
    return {"tp_across_n": str(across.tp), "tp_in": fmt(inside.layer_tp_s, "ms"), "tp_across": fmt(across.layer_tp_s, "ms"),
            "compute_in": fmt(inside.layer_compute_s, "ms"), "compute_across": fmt(across.layer_compute_s, "ms"),
            "tp_ratio": fmt(across.layer_tp_s / inside.layer_tp_s, "x"),
            "mfu_in": fmt(inside.mfu, "pct1"), "mfu_across": fmt(across.mfu, "pct1"),
            "calls": fmt(TP_CALLS * LAYERS, "int")}


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt="Why must tensor parallelism stay inside one DGX node?",
    options=(
        Claim("A", "The frameworks cannot run tensor parallelism across nodes.",
              "Megatron-LM and DeepSpeed run it over InfiniBand without complaint; it works, slowly."),
        Claim("B", f"Every layer does {TP_CALLS} all-reduces of its activations per microbatch, and across "
                   "nodes each one must also cross the slower InfiniBand rails between the nodes.",
              "That is {calls} all-reduces per microbatch through the whole model. Inside a node they cost "
              "{tp_in} per layer against {compute_in} of compute; at TP {tp_across_n} they cost {tp_across} against "
              "{compute_across}, {tp_ratio} more, and MFU falls from {mfu_in} to {mfu_across}."),
        Claim("C", "Tensor parallelism needs the GPUs to share one memory space.",
              "Each GPU keeps its own slice of every weight matrix and exchanges partial results by "
              "message passing; no memory is shared."),
        Claim("D", "Reductions across nodes lose floating-point precision.",
              "NCCL reduces in the same bf16 or fp32 arithmetic whichever link carries the bytes."),
    ),
    answer_letter="B",
)


def layout_of(s: State) -> Layout:
    return Layout(int(s["a2_tp"]), int(s["a2_pp"]), s["a2_distopt"], int(s["a2_batch"]))


def act2_metrics(lay: Layout, broken: dict[str, bool]):
    return metric_grid(
        M["a2_dp"].show(lay.dp, note=f"{S.act2_gpus:,} ÷ (TP × PP)"),
        M["a2_microbatches"].show(lay.m, note=f"{lay.batch:,} ÷ {lay.dp}"),
        M["a2_memory"].show(lay.memory, "danger" if broken["a2_out_of_memory"] else None,
                            f"of {fmt(HBM, 'GB')}"),
        M["a2_bubble"].show(lay.bubble, "danger" if broken["a2_bubble"] else None,
                            f"ceiling {fmt(S.bubble_limit, 'pct')}"),
        M["a2_tp_comm"].show(lay.layer_tp_s, "danger" if broken["a2_tp_across_nodes"] else None,
                             "per microbatch, " + ("NVLink and the rails" if lay.crosses_nodes else "over NVLink")),
        M["a2_layer_compute"].show(lay.layer_compute_s, note="per microbatch"),
        M["a2_step_s"].show(lay.step_s, note=f"{fmt(lay.dp_allreduce_s, 's')} of it DP all-reduce"),
        M["a2_mfu"].show(lay.mfu, tone_for(lay.mfu)))


def act2_failures(lay: Layout, broken: dict[str, bool]) -> list:
    parts = []
    if broken["a2_out_of_memory"]:
        parts.append(failure(F["a2_out_of_memory"],
                     f"Weights and gradients {fmt(lay.weights_grads, 'GB')}, Adam state "
                     f"{fmt(lay.state - lay.weights_grads, 'GB')}, activations {fmt(lay.activations, 'GB')}: "
                     f"{fmt(lay.memory, 'GB')} per GPU. Add pipeline stages or turn on the distributed optimizer."))
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
                     f"{fmt(lay.bubble, 'pct')} of the useful time. Fewer stages, or more microbatches "
                     "(a larger batch, or fewer replicas), shrink it."))
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


def act2_chart(lay: Layout):
    rows = [x for x in (Layout(lay.tp, 2 ** k, lay.distopt, lay.batch) for k in range(8)) if not x.problem()]
    names = [f"{x.pp}" + (" ◀" if x.pp == lay.pp else "") for x in rows]
    parts = (("Weights + gradients", "series1", lambda x: x.weights_grads),
             ("Adam state", "series2", lambda x: x.state - x.weights_grads),
             ("Activations", "series3", lambda x: x.activations))
    traces = [ch.bars(label, names, [part(x) / GB for x in rows], color) for label, color, part in parts]
    bubble = ch.line("Bubble (right axis)", names, [PCT * x.bubble for x in rows], "ink", markers=True)
    traces.append(ch.on_right(bubble))
    top = max([HBM] + [x.memory for x in rows]) / GB * 1.15  # the tallest bar and its label fit
    hbm, hbm_note = ch.hline(HBM / GB, "danger", f"{fmt(HBM, 'GB')} HBM")
    # the ceiling sits halfway up (right axis), well clear of the 80 GB line and its label
    top2 = max([2 * PCT * S.bubble_limit] + [PCT * x.bubble * 1.1 for x in rows])
    limit, limit_note = ch.hline(PCT * S.bubble_limit, "muted", f"bubble ceiling {fmt(S.bubble_limit, 'pct')}")
    limit["yref"] = limit_note["yref"] = "y2"
    # totals as bare numbers (the axis says GB) so eight labels fit side by side on a phone
    totals = [{"x": i, "y": x.memory / GB, "text": fmt(x.memory / GB, "num"), "showarrow": False,
               "yanchor": "bottom", "font": {"size": 10}} for i, x in enumerate(rows)]
    figure = ch.figure(traces, x=ch.axis(f"Pipeline stages, PP (at TP {lay.tp})", "category"),
                       y=ch.axis("GB per GPU", range=[0, top]), stacked=True, shapes=[hbm, limit],
                       annotations=[hbm_note, limit_note, *totals], height=S.chart_height)
    figure = ch.with_right_axis(figure, {"title": {"text": f"Bubble (%), ceiling {fmt(S.bubble_limit, 'pct')}"},
                                         "range": [0, top2], "dtick": top2 / 4, "tickformat": ".0f", "zeroline": False})
    figure["layout"]["legend"].update(TOP_LEGEND, traceorder="normal")
    bubbles = [x.bubble for x in rows] or [0.0]
    summary = (f"At TP {lay.tp} the {len(rows)} valid pipeline depths need from {fmt(rows[-1].memory, 'GB')} "
               f"to {fmt(rows[0].memory, 'GB')} per GPU; the bubble ranges from {fmt(min(bubbles), 'pct')} "
               f"to {fmt(max(bubbles), 'pct')}." if rows else
               f"No pipeline depth makes a valid layout at TP {lay.tp}.")
    table = [(f"PP {x.pp}", str(x.dp), str(x.m), fmt(x.memory, "GB"), fmt(x.bubble, "pct"), fmt(x.mfu, "pct1"))
             for x in rows]
    return chart("a2_memory", "Memory per GPU and pipeline bubble by pipeline depth", figure, summary,
                 table=(("Layout", "DP", "m", "Memory", "Bubble", "MFU"), table))


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
                 "gradient shard is counted as exposed."),
    ), rows=(
        ("Layout", layout_name(lay) if valid else lay.problem()),
        ("Microbatches, *m*", str(lay.m) if valid else "—"),
        ("Model state per GPU", fmt(lay.state, "GB")),
        ("Activations per GPU", fmt(lay.activations, "GB")),
        ("Bubble", fmt(lay.bubble, "pct") if valid else "—"),
        ("MFU", fmt(lay.mfu, "pct1") if valid else "—"),
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
        f"optimizer is not ready yet. Give me TP × PP × DP that fits in {fmt(HBM, 'GB')}, keeps the bubble at "
        f"or below {fmt(S.bubble_limit, 'pct')}, and does not run tensor parallelism over the network."),
    scenario=lambda: (
        "**Tensor parallelism** (TP) splits every weight matrix across *t* GPUs that exchange activations "
        f"{TP_CALLS} times per layer. **Pipeline parallelism** (PP) gives each of *p* stages a block of layers and "
        "streams microbatches through them; the stages idle while the pipeline fills and drains. **Data "
        "parallelism** (DP) copies the whole TP × PP group and splits the batch among the copies.",
        f"The three multiply to the GPU count, so choosing two fixes the third, and the global batch fixes "
        f"how many microbatches each pipeline gets: m = {GPT3_BATCH:,} ÷ DP.",
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
    out = {"a1_mfu": run.mfu if run.fits and run.splits else 0.0}
    if not lay.problem():
        out.update({"a2_mfu": lay.mfu, "a2_memory": lay.memory, "a2_bubble": lay.bubble})
    return out


def lab_takeaways() -> list[str]:
    few, mid, many = MEASURED[0], MEASURED[1], scenario_run(S.act1_target)
    alt = replace(CANDIDATES["A"], distopt=True)
    return [
        f"With a fixed global batch, data-parallel MFU falls from {fmt(few.mfu, 'pct1')} on {few.gpus} GPUs to "
        f"{fmt(mid.mfu, 'pct1')} on {mid.gpus} and {fmt(many.mfu, 'pct1')} on {many.gpus}: compute per GPU "
        f"shrinks from {fmt(few.compute_s, 's')} to {fmt(many.compute_s, 's')}, while the all-reduce grows "
        f"{fmt(mid.allreduce_s / few.allreduce_s, 'x')} where it first leaves the node ({fmt(few.allreduce_s, 's')} "
        f"on {few.gpus} GPUs, {fmt(mid.allreduce_s, 's')} on {mid.gpus}) and then stays near "
        f"{fmt(many.allreduce_s, 's')}.",
        f"Mixed-precision Adam needs {fmt(C.ADAM_MIXED_PRECISION_BYTES_PER_PARAM, 'num')} bytes per parameter; "
        f"ZeRO and the distributed optimizer shard the {fmt(C.ADAM_OPTIMIZER_BYTES_PER_PARAM, 'num')} bytes of "
        "Adam state without adding traffic.",
        f"Megatron-LM's GPT-3 layout, {layout_name(MEGATRON)}, needs {fmt(MEGATRON.memory, 'GB')} per GPU with a "
        f"{fmt(MEGATRON.bubble, 'pct')} bubble; with the distributed optimizer, {layout_name(alt)} also fits "
        f"({fmt(alt.memory, 'GB')}, bubble {fmt(alt.bubble, 'pct')}).",
        f"The global batch sets the bubble: m = B ÷ DP, so a batch warm-up to {WARMUP_BATCH:,} sequences "
        f"raises Megatron's bubble to {fmt(replace(MEGATRON, batch=WARMUP_BATCH).bubble, 'pct')}.",
        f"Tensor parallelism belongs inside the node: across nodes its per-layer traffic grows "
        f"{act2_facts()['tp_ratio']}.",
    ]


LAB = Lab(
    id="v2_05", volume=2, number=5, title="The Parallelism Paradox",
    invariant="With a fixed batch, more data-parallel GPUs means **less compute per GPU against the same "
              "all-reduce**; models too big for one GPU are cut by TP × PP × DP, and each cut has a price.",
    minutes="35–40 min", chapter="Distributed Training Systems", url="vol2/05-parallelism-paradox/",
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
        "[**V2-06 The Bandwidth Invariant**](../06-bandwidth-invariant/): why the ring all-reduce costs 2(N−1)/N of the data, and when "
        "other algorithms win.",
        "V2-07 The Checkpoint Reckoning (a later lab): the model state sized here is what every checkpoint writes.",
    ),
    presets={"context": {"full": {"a1_batch": S.act1_batch, "a2_batch": str(GPT3_BATCH)},
                         "warmup": {"a1_batch": S.act1_batch * S.warmup_share, "a2_batch": str(WARMUP_BATCH)}}},
    reads=("v2_02",),
)
