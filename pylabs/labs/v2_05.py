"""Lab V2-05 · The Parallelism Paradox.

Core invariant: with a fixed global batch, adding data-parallel GPUs shrinks each GPU's
compute while the gradient all-reduce stays the same size, so MFU falls; a model too big
for one GPU must be cut by tensor and pipeline parallelism, and each cut has its own
price (node-crossing tensor traffic, the pipeline bubble, memory).

Act I (the data-parallel wall): a 7B model with ZeRO-1 on DGX H100 nodes, global batch
fixed at 512K tokens: MFU falls from ~51 % on 8 GPUs to ~44 % on 64 and ~21 % on 512.
The default fabric is the one the student chose in V2-02 (8 NDR rails if none).
Act II (3D parallelism): GPT-3 175B on 1,024 H100s. TP × PP × DP with m derived from
Megatron's global batch; memory, bubble and tensor-parallel traffic decide the layout.

Ledger fields: context, both predictions and reflections, the final instrument settings,
MFU of both acts, memory and bubble of the Act II layout, failure states reached.
"""

from __future__ import annotations

from dataclasses import dataclass

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option,
                              Prediction, Range, Reflection, Slider, State, Toggle, callout, chart, failure,
                              fmt, math_peek, metric_grid, prose)
from pylabs.framework import charts as ch
from pylabs.physics import collectives, pipeline, training
from pylabs.physics import constants as C


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs (pedagogical defaults, not hardware facts)."""

    mfu: float = 0.52                    # utilisation of the compute phases (the seed's 52 %)
    gpus_per_node: int = 8
    act1_params: float = 7e9
    act1_zero: int = 1
    act1_seq: float = 1024.0             # tokens per sequence in Act I
    act1_batch: float = 524288.0         # global batch, tokens (512K)
    act1_measured: tuple = (8, 64)       # GPU counts the stakeholder has measured
    act1_target: int = 512               # the GPU count the prediction asks about
    act2_gpus: int = 1024
    bubble_limit: float = 0.10           # the stakeholder's ceiling on (p−1)/m
    warmup_share: float = 0.25           # batch warm-up: a quarter of the global batch


S = Scenario()
PEAK, HBM = C.H100_PEAK_BF16_DENSE, C.H100_HBM_BYTES
MODEL_SIZES = {"7b": 7e9, "13b": 13e9, "70b": 70e9}
NICS = {"hdr": ("InfiniBand HDR 200G", C.IB_HDR_BW), "ndr": ("InfiniBand NDR 400G", C.IB_NDR_BW)}
GPT3_BATCH = int(C.MEGATRON_GPT3_GLOBAL_BATCH)
WARMUP_BATCH = int(GPT3_BATCH * S.warmup_share)

# ---- context ----------------------------------------------------------------------

CONTEXT = Choice("context", "Training phase", (
    Option("full", "Steady state: the full global batch"),
    Option("warmup", "Batch warm-up: a quarter of the global batch, as early in a run"),
), default="full", help="Sets the global batch of both acts' instruments. GPT-3 ramped its batch up "
                        "over the first billions of tokens (Brown et al. 2020, App. B).")

# ---- Act I · The data-parallel wall ---------------------------------------------------

FABRICS = {"v2_02": "Your V2-02 cluster (8 × NDR if none in your ledger)",
           "8ndr": "8 × NDR 400G per node (DGX rails)", "4ndr": "4 × NDR 400G per node",
           "1ndr": "1 × NDR 400G per node", "1hdr": "1 × HDR 200G per node"}
DEFAULT_FABRIC = (int(C.DGX_H100_NICS), "ndr")

A1_GPUS = Slider("a1_gpus", "Data-parallel GPUs", unit="GPUs", min=8, max=1024, step=1, default=8,
                 fmt="int", scale="log2")
A1_BATCH = Slider("a1_batch", "Global batch (fixed across GPU counts)", unit="tokens", min=131072,
                  max=2097152, step=1, default=S.act1_batch, fmt="tokens", scale="log2")
A1_FABRIC = Choice("a1_fabric", "Network between nodes", tuple(Option(k, v) for k, v in FABRICS.items()),
                   default="v2_02", widget="select")
A1_MODEL = Choice("a1_model", "Model", tuple(Option(k, f"{k[:-1]}B parameters") for k in MODEL_SIZES),
                  default="7b")
A1_ZERO = Choice("a1_zero", "ZeRO stage", (
    Option("0", "0 · plain DDP"), Option("1", "1 · shard Adam state"),
    Option("2", "2 · + gradients"), Option("3", "3 · + weights"),
), default=str(S.act1_zero))
A1_OVERLAP = Toggle("a1_overlap", "Overlap the all-reduce with the backward pass (bucketed DDP)",
                    help="The next forward pass needs the reduced gradients, so only the backward pass can hide it.")


def resolve_fabric(s: State) -> tuple[int, str, str]:
    """(NICs per node, NIC type, where it came from) for Act I."""
    choice = s["a1_fabric"]
    if choice != "v2_02":
        return int(choice[0]), choice[1:], "chosen"
    nics, nic = s.earlier_control("v2_02", "a2_nics"), s.earlier_control("v2_02", "a2_nic")
    if nics is None and nic is None:
        return DEFAULT_FABRIC + ("default",)
    nics_ok = str(nics) in ("1", "2", "4", "8")
    return (int(nics) if nics_ok else DEFAULT_FABRIC[0]), (nic if nic in NICS else "ndr"), "ledger"


def fabric_text(nics: int, nic: str) -> str:
    return f"{nics} × {NICS[nic][0]} per node ({fmt(nics * NICS[nic][1], 'GB/s')} out of each node)"


@dataclass(frozen=True)
class DPRun:
    """Data-parallel training with a fixed global batch on DGX H100 nodes."""

    params: float
    gpus: int
    batch: float      # tokens per step, whole cluster
    nics: int
    nic_bw: float
    zero: int
    overlap: bool = False

    @property
    def tokens_per_gpu(self) -> float:
        return self.batch / self.gpus

    @property
    def splits(self) -> bool:
        """Every GPU needs at least one whole sequence."""
        return self.gpus <= self.batch / S.act1_seq

    @property
    def memory(self) -> float:
        return training.model_state_bytes(self.params, 1, 1, self.gpus, self.zero)

    @property
    def fits(self) -> bool:
        return self.memory <= HBM

    @property
    def compute_s(self) -> float:
        return training.compute_time_s(self.params, self.tokens_per_gpu, PEAK, S.mfu)

    @property
    def allreduce_s(self) -> float:
        g = min(self.gpus, S.gpus_per_node)
        t = collectives.hierarchical_allreduce_s(self.params * C.BYTES_PER_BF16, g, self.gpus // g,
                                                 C.NVLINK4_BW, self.nic_bw, self.nics)
        return t * 3 / 2 if self.zero == 3 else t   # ZeRO-3: three ring phases instead of two

    @property
    def hidden_s(self) -> float:
        """The part of the all-reduce hidden behind the backward pass (4 of the 6 FLOP per token)."""
        return min(self.allreduce_s, self.compute_s * 4 / 6) if self.overlap else 0.0

    @property
    def exposed_s(self) -> float:
        return self.allreduce_s - self.hidden_s

    @property
    def mfu(self) -> float:
        overlap = self.hidden_s / self.allreduce_s if self.allreduce_s else 0.0
        return training.mfu_with_exposed_comm(S.mfu, self.compute_s, self.allreduce_s, overlap)


def scenario_run(gpus: int) -> DPRun:
    return DPRun(S.act1_params, gpus, S.act1_batch, DEFAULT_FABRIC[0], C.IB_NDR_BW, S.act1_zero)


def act1_truth() -> float:
    return scenario_run(S.act1_target).mfu


def act1_run(s: State, gpus: int | None = None) -> DPRun:
    nics, nic, _ = resolve_fabric(s)
    return DPRun(MODEL_SIZES[s["a1_model"]], int(gpus or s["a1_gpus"]), s["a1_batch"], nics, NICS[nic][1],
                 int(s["a1_zero"]), s["a1_overlap"])


MEASURED = tuple(scenario_run(n) for n in S.act1_measured)

ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"Same 7B model, same global batch, ZeRO-1, eight NDR rails per node, and the all-reduce starts "
           f"after the backward pass. What MFU will the run reach on {S.act1_target} GPUs?",
    quantity=f"MFU on {S.act1_target} GPUs", unit_fmt="pct",
    options=(
        Range("A", "{range}: the all-reduce swamps the step; the GPUs mostly wait", None, 0.15, 0.10,
              "Communication does not swamp everything: compute still takes a large share of each step."),
        Range("B", "{range}: each GPU's work shrinks while the all-reduce stays put", 0.15, 0.30, 0.22,
              "Each GPU computes 8× less than on 64 GPUs, while the all-reduce costs about the same."),
        Range("C", "{range}: another step down, like the one from 8 to 64", 0.30, 0.40, 0.37,
              "The fall is not a fixed step per 8× more GPUs: compute per GPU shrinks 8× each time while "
              "the all-reduce barely moves, so each step down is bigger than the last."),
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
        Claim("C", "Each GPU's compute shrinks in proportion to 1/N while the all-reduce time stays "
                   "nearly constant.",
              "On {gpus_few} GPUs a step computes for {compute_few} against an all-reduce of {ar_few}; on "
              "{gpus_many} GPUs it computes for {compute_many} against {ar_many}. The all-reduce did not "
              "grow much; the compute it hides behind vanished."),
        Claim("D", "More GPUs put more pressure on each GPU's HBM and caches.",
              "Each GPU runs the same kernels on fewer tokens; its memory traffic per token is unchanged."),
    ),
    answer_letter="C",
)

M = {m.name: m for m in (
    MetricSpec("a1_mfu", "Model FLOPs utilisation", "1", "pct"),
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
    MetricSpec("a2_mfu", "Model FLOPs utilisation", "1", "pct"),
)}

FAILURES = (
    FailureSpec("a1_out_of_memory", "Out of memory: the model state does not fit in 80 GB", act=1),
    FailureSpec("a1_comm_bound", "Communication-bound: the GPUs wait longer than they compute", act=1),
    FailureSpec("a2_out_of_memory", "Out of memory: the layout does not fit in 80 GB", act=2),
    FailureSpec("a2_tp_across_nodes", "Tensor parallelism crosses the node boundary", act=2),
    FailureSpec("a2_bubble", "Pipeline bubble above the ceiling", act=2),
)
F = {f.name: f for f in FAILURES}


def tone_for(mfu: float) -> str:
    return "good" if mfu >= 0.8 * S.mfu else "warn" if mfu >= 0.5 * S.mfu else "danger"


def ledger_note(s: State) -> list:
    nics, nic, source = resolve_fabric(s)
    if source == "ledger":
        return [callout("info", "From your V2-02 ledger",
                        prose(f"From your V2-02 ledger: {fabric_text(nics, nic)}. Pick another network "
                              "above to compare."))]
    if source == "default":
        return [callout("info", "Default network",
                        prose(f"Default: {nics} NDR rails per node (no V2-02 entry in your ledger).") )]
    return []


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
            M["a1_mfu"].show(run.mfu, tone_for(run.mfu), f"of {fmt(S.mfu, 'pct')} in the compute phase"),
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


def mfu_or_none(run: DPRun) -> float | None:
    return run.mfu if run.fits and run.splits else None


def act1_chart(s: State, run: DPRun):
    counts = [2 ** k for k in range(3, 11)]
    yours = [mfu_or_none(act1_run(s, n)) for n in counts]
    rails = [mfu_or_none(DPRun(run.params, n, run.batch, *DEFAULT_FABRIC[:1], C.IB_NDR_BW, run.zero, run.overlap))
             for n in counts]
    pct = [None if v is None else 100 * v for v in yours]
    traces = [ch.line("Your settings", counts, pct, "series1", markers=True)]
    if (run.nics, run.nic_bw) != (DEFAULT_FABRIC[0], C.IB_NDR_BW):
        traces.append(ch.line("8 NDR rails per node", counts, [None if v is None else 100 * v for v in rails],
                              "series2", dash="dash"))
    if mfu_or_none(run) is not None:
        traces.append(ch.point("Current setting", run.gpus, 100 * run.mfu, "accent"))
    shape, note = ch.hline(100 * S.mfu, "muted", f"compute phase alone: {fmt(S.mfu, 'pct')}")
    figure = ch.figure(traces, x=ch.axis("Data-parallel GPUs", "log", tickvals=counts, ticktext=[str(n) for n in counts]),
                       y=ch.axis("MFU (%)", range=[0, 100 * S.mfu * 1.15]), shapes=[shape], annotations=[note])
    shown = [(n, v) for n, v in zip(counts, yours) if v is not None]
    summary = (f"With a fixed batch of {fmt(run.batch, 'tokens')}, MFU goes from {fmt(shown[0][1], 'pct')} on "
               f"{shown[0][0]} GPUs to {fmt(shown[-1][1], 'pct')} on {shown[-1][0]}." if shown else
               "No GPU count between 8 and 1,024 runs this model with this ZeRO stage.")
    rows = [(str(n), "—" if v is None else fmt(v, "pct"), "—" if r is None else fmt(r, "pct"))
            for n, v, r in zip(counts, yours, rails)]
    return chart("a1_mfu_scaling", "MFU against data-parallel GPUs (fixed global batch)", figure, summary,
                 table=(("GPUs", "Your settings", "8 NDR rails"), rows))


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
        ("MFU", fmt(run.mfu, "pct")),
    ), sources=(
        "Kaplan et al. 2020, *Scaling Laws for Neural Language Models* (C = 6ND).",
        "Thakur, Rabenseifner and Gropp 2005, *Optimization of Collective Communication Operations in MPICH*.",
        "Rajbhandari et al. 2020, *ZeRO* (4 + 12/N bytes per parameter with stage 1; 1.5× traffic with stage 3).",
        "Chowdhery et al. 2022, *PaLM*, App. B (model FLOPs utilisation).",
        C.REGISTRY["H100_PEAK_BF16_DENSE"].source,
        C.REGISTRY["DGX_H100_NICS"].source,
    ))


ACT1 = Act(
    number=1, title="The Data-Parallel Wall", minutes="12–15 min",
    stakeholder_role="Training Infrastructure Lead",
    stakeholder=lambda: (
        f"Our {S.act1_params / 1e9:.0f}B run uses ZeRO-1 on DGX H100 nodes with eight NDR rails each, and a "
        f"global batch fixed at {fmt(S.act1_batch, 'tokens')} ({fmt(S.act1_seq, 'tokens')} per sequence). "
        f"MFU was {fmt(MEASURED[0].mfu, 'pct')} on {MEASURED[0].gpus} GPUs and {fmt(MEASURED[1].mfu, 'pct')} "
        f"on {MEASURED[1].gpus}. Leadership wants the run on {S.act1_target} GPUs so it finishes sooner. "
        "Nothing about the model or the batch changes. What MFU should I promise?"),
    scenario=lambda: (
        "In data parallelism every GPU holds the whole model, processes its slice of the global batch, and "
        "then joins an **all-reduce** of the gradients before the optimizer step. With the global batch "
        "fixed (**strong scaling**), more GPUs means fewer tokens, and less compute, per GPU per step.",
        f"The gradients of a {S.act1_params / 1e9:.0f}B model in bf16 are "
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
