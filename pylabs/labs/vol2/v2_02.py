"""Lab V2-02 · The Interconnect Wall.

Core invariant: in data-parallel training, the ratio of all-reduce time to
compute time depends on tokens per GPU and link bandwidth, not on model size;
crossing the node boundary divides the bandwidth, so the NICs per node set
the scaling wall.

Act I (the interconnect cliff): a 13B model with ZeRO-2 on 8 H100s; one DGX
(NVLink) against cheaper boxes (PCIe, or 8 servers on 100 GbE).
Act II (the multi-node wall): 1 → 16 DGX nodes gives ~6× instead of 16×,
because each node has one 400G NIC instead of eight rails.

Ledger fields: context, both predictions and reflections, the final
instrument settings, the slowdown and speedup results, failure states reached.
"""

from __future__ import annotations

from dataclasses import dataclass

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option,
                              Prediction, Range, Reflection, Slider, State, Toggle, callout, chart, failure,
                              fmt, math_peek, metric_grid, prose)
from pylabs.framework import charts as ch
from pylabs.framework.components import tone
from pylabs.framework.formats import plural
from pylabs.physics import collectives, training
from pylabs.physics import constants as C
from pylabs.physics.references import cite


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs (pedagogical defaults, not hardware facts)."""

    params: float = 13e9                 # a 13B model: fits 8 × 80 GB with ZeRO-2
    mfu: float = 0.45                    # utilisation of the compute phases
    gpus_per_node: int = 8
    zero_stage: int = 2
    act1_tokens: float = 4096.0          # tokens per GPU per step (pretraining)
    act2_tokens: float = 3072.0
    act2_nodes: int = 16
    finetune_tokens: float = 1024.0      # the fine-tuning context's shorter steps
    global_batch_tokens: float = 262144.0  # strong scaling: 2^18 tokens per step
    bytes_per_grad: float = 2.0          # bf16 gradients
    model_sizes: tuple[tuple[str, float], ...] = (("7b", 7e9), ("13b", 13e9), ("70b", 70e9))


S = Scenario()
MODEL_SIZES = dict(S.model_sizes)


def gradient_bytes(params: float) -> float:
    return params * S.bytes_per_grad


def compute_s(params: float, tokens: float) -> float:
    return training.compute_time_s(params, tokens, C.H100_PEAK_BF16_DENSE, S.mfu)


# ---- context ----------------------------------------------------------------------

CONTEXT = Choice("context", "Workload", (
    Option("pretrain", "Pretraining: long sequences, many tokens per GPU per step"),
    Option("finetune", "Fine-tuning: short sequences, few tokens per GPU per step"),
), default="pretrain", help="Sets the tokens per GPU of both acts' instruments.")

# ---- Act I · The interconnect cliff ----------------------------------------------

FABRICS = {
    "nvlink": ("NVLink 4 inside one DGX H100", C.NVLINK4_BW),
    "pcie5": ("PCIe Gen5 ×16 inside one server", C.PCIE5_X16_BW),
    "pcie4": ("PCIe Gen4 ×16 inside one server", C.PCIE4_X16_BW),
    "ndr": ("8 servers, one 400G NDR NIC each", C.IB_NDR_BW),
    "eth100": ("8 servers, 100 GbE each", C.ETH_100G_BW),
}
# two short lines each, so five categories fit side by side on a 375 px phone
SHORT_NAMES = {"nvlink": "NVLink", "pcie5": "PCIe<br>Gen5", "pcie4": "PCIe<br>Gen4", "ndr": "8 ×<br>NDR", "eth100": "8 ×<br>100GbE"}


def fabric_label(key: str) -> str:
    name, bw = FABRICS[key]
    return f"{name} · {fmt(bw, 'GB/s')}"


A1_FABRIC = Choice("a1_fabric", "Interconnect between the 8 GPUs",
                   tuple(Option(k, fabric_label(k)) for k in FABRICS), default="eth100", widget="select",
                   unit="B/s per GPU per direction")
A1_TOKENS = Slider("a1_tokens", "Tokens per GPU per step", unit="tokens", min=512, max=16384, step=1,
                   default=S.act1_tokens, fmt="tokens", scale="log2")
A1_MODEL = Choice("a1_model", "Model size", (
    Option("7b", "7B parameters"), Option("13b", "13B parameters"), Option("70b", "70B parameters"),
), default="13b", help="Watch which numbers change, and which do not.")


@dataclass(frozen=True)
class Sync:
    """One data-parallel step on 8 GPUs: compute, ring all-reduce, and what follows."""

    compute_s: float
    allreduce_s: float

    @property
    def efficiency(self) -> float:
        return self.compute_s / (self.compute_s + self.allreduce_s)

    @property
    def ratio(self) -> float:
        return self.allreduce_s / self.compute_s


def single_node_step(params: float, tokens: float, fabric: str) -> Sync:
    bw = FABRICS[fabric][1]
    return Sync(compute_s(params, tokens),
                collectives.ring_allreduce_s(gradient_bytes(params), S.gpus_per_node, bw))


def slowdown(params: float, tokens: float, fabric: str) -> float:
    """DGX throughput ÷ this fabric's throughput (same GPUs, same work)."""
    return single_node_step(params, tokens, "nvlink").efficiency / single_node_step(params, tokens, fabric).efficiency


def memory_per_gpu_bytes(params: float) -> float:
    return training.model_state_bytes(params, 1, 1, S.gpus_per_node, S.zero_stage)


def act1_truth() -> float:
    return slowdown(S.params, S.act1_tokens, "eth100")


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt="Same 8 H100s, same 13B model, same tokens per GPU. How many times lower is training "
           "throughput on 8 servers linked by 100 GbE than inside one NVLink DGX?",
    quantity="DGX throughput ÷ 100 GbE throughput",
    unit_fmt="x",
    options=(
        Range("A", "{range}: barely any difference; gradient compression will hide it", None, 1.25, 1.1,
              "Compression helps at the margin, but the gap here is a bandwidth ratio of tens, not percent."),
        Range("B", "{range}: slower, but practical for production", 1.25, 3.0, 2.0,
              "That is the size of the PCIe Gen5 gap inside one box; separate servers talk through their NICs."),
        Range("C", "{range}: communication dominates the step", 3.0, 10.0, 4.0,
              "The all-reduce moves the same bytes on every fabric; only the bandwidth changes."),
        Range("D", "{range}: training becomes impractical", 10.0, None, 20.0,
              "Slow, but not hopeless: compute still takes a visible share of the step."),
    ),
    truth=act1_truth,
)

ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="In a ring all-reduce over 8 GPUs, each GPU sends almost twice its gradient bytes. Why?",
    options=(
        Claim("A", "Weights travel forward and gradients travel back: two trips over the network.",
              "Data parallelism never ships weights: every GPU already holds them. Only gradients move."),
        Claim("B", "Reduce-scatter sends (N−1)/N of the gradient, then all-gather sends (N−1)/N again.",
              "Each phase passes N−1 chunks of size 1/N around the ring, so each GPU sends "
              "2(N−1)/N of its gradient: **{ring_factor}** at N = 8, {ring_bytes} for the 13B model."),
        Claim("C", "Low-precision gradients need twice as many bytes to keep their accuracy.",
              "BF16 gradients take half the bytes of FP32, not twice."),
        Claim("D", "Gradient accumulation doubles the synchronisation volume.",
              "Accumulation syncs once per step after several micro-batches, so it cuts traffic per token."),
    ),
    answer_letter="B",
)

M = {m.name: m for m in (
    MetricSpec("a1_compute_s", "Compute per step", "s", "s"),
    MetricSpec("a1_allreduce_s", "Ring all-reduce per step", "s", "s"),
    MetricSpec("a1_efficiency", "Time spent computing", "1", "pct"),
    MetricSpec("a1_slowdown", "Throughput lost against NVLink", "1", "x"),
    MetricSpec("a1_memory_per_gpu", "Model state per GPU (ZeRO-2)", "B", "GB"),
    MetricSpec("a1_critical_tokens", "Tokens per GPU where all-reduce equals compute", "tokens", "tokens"),
    MetricSpec("a2_speedup", "Speedup over one node", "1", "x"),
    MetricSpec("a2_efficiency", "Scaling efficiency", "1", "pct"),
    MetricSpec("a2_tokens_per_gpu", "Tokens per GPU per step", "tokens", "tokens"),
    MetricSpec("a2_compute_s", "Compute per step", "s", "s"),
    MetricSpec("a2_allreduce_s", "Hierarchical all-reduce per step", "s", "s"),
    MetricSpec("a2_node_egress", "Network bandwidth out of each node", "B/s", "GB/s"),
)}

FAILURES = (
    FailureSpec("a1_comm_bound", "Communication-bound: the GPUs wait more than they compute", act=1),
    FailureSpec("a1_out_of_memory", "Out of memory: the model state does not fit", act=1),
    FailureSpec("a2_network_wall", "The network wall: all-reduce takes longer than compute", act=2),
)
F = {f.name: f for f in FAILURES}


def act1_state(s: State) -> tuple[float, float, Sync]:
    params, tokens = MODEL_SIZES[s["a1_model"]], s["a1_tokens"]
    return params, tokens, single_node_step(params, tokens, s["a1_fabric"])


def act1_instruments(s: State) -> list:
    params, tokens, sync = act1_state(s)
    memory = memory_per_gpu_bytes(params)
    bw = FABRICS[s["a1_fabric"]][1]
    critical = training.dp_critical_tokens(S.gpus_per_node, bw, C.H100_PEAK_BF16_DENSE, S.mfu)
    fits = memory <= C.H100_HBM_BYTES
    parts = [metric_grid(
        M["a1_compute_s"].show(sync.compute_s),
        M["a1_allreduce_s"].show(sync.allreduce_s, "danger" if sync.ratio > 1 else None),
        M["a1_efficiency"].show(sync.efficiency, tone_for(sync.efficiency)),
        M["a1_slowdown"].show(slowdown(params, tokens, s["a1_fabric"])),
        M["a1_memory_per_gpu"].show(memory, None if fits else "danger",
                                    f"of {fmt(C.H100_HBM_BYTES, 'GB')} HBM"),
        M["a1_critical_tokens"].show(critical),
    )]
    if not fits:
        parts.append(failure(F["a1_out_of_memory"],
                             f"{fmt(params, 'params')} parameters need {fmt(memory, 'GB')} of weights, "
                             f"gradients and optimizer state per GPU even with ZeRO-2 sharding, more than "
                             f"the {fmt(C.H100_HBM_BYTES, 'GB')} of an H100. Pick a smaller model or shard more "
                             "(ZeRO-3, tensor or pipeline parallelism)."))
    if sync.efficiency < 0.5:
        parts.append(failure(F["a1_comm_bound"],
                             f"Each step spends {fmt(sync.allreduce_s, 's')} in all-reduce against "
                             f"{fmt(sync.compute_s, 's')} of compute. More tokens per GPU or a faster fabric "
                             "brings compute back on top."))
    parts.append(act1_chart(params, tokens, s["a1_fabric"]))
    other = "7b" if s["a1_model"] != "7b" else "13b"
    parts.append(callout("info", "Model size cancels",
                         prose(f"Switch between model sizes: compute and all-reduce both scale with the "
                               f"parameter count, so their ratio stays at **{fmt(sync.ratio, 'num')}** "
                               f"(the {fmt(MODEL_SIZES[other], 'params')} model gives "
                               f"{fmt(single_node_step(MODEL_SIZES[other], tokens, s['a1_fabric']).ratio, 'num')}). "
                               "Tokens per GPU and bandwidth are the levers.")))
    return parts


def act1_chart(params: float, tokens: float, selected: str):
    steps = {k: single_node_step(params, tokens, k) for k in FABRICS}
    names = [("▶ " if k == selected else "") + SHORT_NAMES[k] for k in FABRICS]
    slow = {k: steps[k].ratio > 1 for k in FABRICS}
    traces = [ch.bars("Compute", names, [steps[k].compute_s for k in FABRICS], "series1"),
              ch.bars("All-reduce", names, [0.0 if slow[k] else steps[k].allreduce_s for k in FABRICS], "series2")]
    if any(slow.values()):
        traces.append(ch.bars("All-reduce longer than compute", names,
                              [steps[k].allreduce_s if slow[k] else 0.0 for k in FABRICS], "danger"))
    figure = ch.figure(traces, x=ch.axis("", "category", tickangle=0), y=ch.axis("Seconds per step"), stacked=True)
    fastest, slowest = steps["nvlink"], steps["eth100"]
    summary = (f"At {fmt(tokens, 'tokens')} per GPU each step computes for {fmt(fastest.compute_s, 's')} on "
               f"every fabric; the all-reduce takes {fmt(fastest.allreduce_s, 's')} over NVLink and "
               f"{fmt(slowest.allreduce_s, 's')} over 100 GbE.")
    rows = [(FABRICS[k][0], fmt(steps[k].compute_s, "s"), fmt(steps[k].allreduce_s, "s"),
             fmt(steps[k].efficiency, "pct")) for k in FABRICS]
    return chart("a1_step_time", "Step time by interconnect", figure, summary,
                 table=(("Interconnect", "Compute", "All-reduce", "Computing"), rows))


def act1_facts() -> dict[str, str]:
    factor = 2 * (S.gpus_per_node - 1) / S.gpus_per_node
    return {"ring_factor": fmt(factor, "x"), "ring_bytes": fmt(factor * gradient_bytes(S.params), "GB")}


def act1_math(s: State):
    params, tokens, sync = act1_state(s)
    return math_peek("The governing equations · Act I", (
        Equation(r"T_{\text{comp}} = \frac{6\,P\,t}{C_{\text{peak}}\,u}",
                 "Training costs 6 FLOP per parameter per token (forward and backward); *t* is tokens per "
                 "GPU per step, *u* the utilisation of the compute phases."),
        Equation(r"T_{\text{ring}} = 2\,\frac{N-1}{N}\cdot\frac{2P}{B}",
                 "Ring all-reduce of 2-byte gradients over *N* GPUs at *B* bytes/s per direction."),
        Equation(r"\frac{T_{\text{ring}}}{T_{\text{comp}}} = \frac{2}{3}\cdot\frac{N-1}{N}\cdot\frac{C_{\text{peak}}\,u}{t\,B}",
                 "Divide the two: the parameter count *P* cancels."),
    ), rows=(
        ("Peak dense BF16, *C*", fmt(C.H100_PEAK_BF16_DENSE, "FLOP/s")),
        ("Utilisation of compute, *u*", fmt(S.mfu, "pct")),
        ("Bandwidth, *B*", fmt(FABRICS[s["a1_fabric"]][1], "GB/s")),
        ("Gradient bytes, *2P*", fmt(gradient_bytes(params), "GB")),
        ("All-reduce ÷ compute", fmt(sync.ratio, "num")),
    ), sources=(
        cite("kaplan2020", "C = 6ND"),
        cite("nccl_tests", "ring all-reduce moves 2(N−1)/N of the data"),
        cite("zero2020", "2 + 14/N bytes per parameter with stage 2"),
        C.REGISTRY["H100_PEAK_BF16_DENSE"].source,
        C.REGISTRY["NVLINK4_BW"].source,
    ))


ACT1 = Act(
    number=1, title="The Interconnect Cliff", minutes="12–15 min",
    stakeholder_role="Infrastructure Architect",
    stakeholder=lambda: (
        f"We will train a {fmt(S.params, 'params')} model on {S.gpus_per_node} H100s, with ZeRO-2 so the model state fits "
        f"({fmt(memory_per_gpu_bytes(S.params), 'GB')} per GPU). Two quotes are on my desk: one DGX H100, or "
        f"eight single-GPU servers on 100 GbE for much less money. Each GPU will process "
        f"{fmt(S.act1_tokens, 'tokens')} per step. Does the interconnect really matter?"),
    scenario=lambda: (
        "After every backward pass the GPUs must agree on the gradients. A **ring all-reduce** does it "
        "in two phases: a reduce-scatter, in which each GPU ends up owning the sum of one slice, and an "
        "all-gather, in which the slices travel round the ring again.",
        f"The gradients of a {fmt(S.params, 'params')} model in BF16 are {fmt(gradient_bytes(S.params), 'GB')}. "
        "Whether moving them is cheap or ruinous depends on the link, and on how much compute each step "
        "does to pay for it.",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_FABRIC, A1_MODEL, A1_TOKENS),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Bandwidth explorer",
)

# ---- Act II · The multi-node wall -------------------------------------------------

NICS = {"hdr": ("InfiniBand HDR, 200 Gb/s", C.IB_HDR_BW), "ndr": ("InfiniBand NDR, 400 Gb/s", C.IB_NDR_BW)}

A2_NODES = Slider("a2_nodes", "DGX H100 nodes", unit="nodes", min=1, max=64, step=1, default=S.act2_nodes,
                  fmt="int", scale="log2")
A2_NICS = Choice("a2_nics", "NICs per node", tuple(Option(str(n), str(n)) for n in (1, 2, 4, 8)),
                 default="1", unit="NICs")
A2_NIC = Choice("a2_nic", "NIC type",
                tuple(Option(k, f"{name} · {fmt(bw, 'GB/s')} per port") for k, (name, bw) in NICS.items()),
                default="ndr", widget="select", unit="B/s per port per direction")
A2_TOKENS = Slider("a2_tokens", "Tokens per GPU per step", unit="tokens", min=512, max=16384, step=512,
                   default=S.act2_tokens, fmt="tokens")
A2_STRONG = Toggle("a2_strong", f"Fix the global batch at {fmt(S.global_batch_tokens, 'tokens')} (strong scaling)")


@dataclass(frozen=True)
class Cluster:
    nodes: int
    nics: int
    nic_bw: float
    tokens: float      # per GPU per step, weak scaling
    strong: bool

    def tokens_per_gpu(self, nodes: int) -> float:
        if self.strong:
            return S.global_batch_tokens / (S.gpus_per_node * nodes)
        return self.tokens

    def step_s(self, nodes: int) -> tuple[float, float]:
        compute = compute_s(S.params, self.tokens_per_gpu(nodes))
        comm = collectives.hierarchical_allreduce_s(gradient_bytes(S.params), S.gpus_per_node, nodes,
                                                    C.NVLINK4_BW, self.nic_bw, self.nics)
        return compute, comm

    def speedup(self, nodes: int) -> float:
        """Throughput of ``nodes`` over one node; under strong scaling, time to a fixed batch."""
        one = sum(self.step_s(1))
        many = sum(self.step_s(nodes))
        return one / many if self.strong else nodes * one / many


def a2_overridden(s: State) -> dict[str, str]:
    """With the global batch fixed, each GPU's tokens follow from the node count, not the slider."""
    if not s["a2_strong"]:
        return {}
    c = cluster(s)
    return {"a2_tokens": f"Not used while the global batch is fixed: each GPU gets "
                         f"{fmt(S.global_batch_tokens, 'tokens')} ÷ ({S.gpus_per_node} × {c.nodes}) = "
                         f"{fmt(c.tokens_per_gpu(c.nodes), 'tokens')}."}


def cluster(s: State) -> Cluster:
    return Cluster(int(s["a2_nodes"]), int(s["a2_nics"]), NICS[s["a2_nic"]][1], s["a2_tokens"], s["a2_strong"])


SCENARIO_CLUSTER = Cluster(S.act2_nodes, 1, C.IB_NDR_BW, S.act2_tokens, False)
XDR_CLUSTER = Cluster(S.act2_nodes, 1, C.IB_XDR_BW, S.act2_tokens, False)
RAILS_CLUSTER = Cluster(S.act2_nodes, C.DGX_H100_NICS, C.IB_NDR_BW, S.act2_tokens, False)


def act2_truth() -> float:
    return RAILS_CLUSTER.speedup(S.act2_nodes)


ACT2_PREDICTION = Prediction(
    id="a2_predict", act=2,
    prompt="The team re-cables every node with eight 400G NICs, one per GPU (rails), and changes nothing "
           "else. What speedup over one node will 16 nodes reach?",
    quantity="16-node speedup with 8 NICs per node",
    unit_fmt="x",
    options=(
        Range("A", "{range}: the NICs were never the problem", None, 8.0, 6.5,
              "The inter-node term is divided by the NIC count, so more rails cut it directly."),
        Range("B", "{range}: better, but still far from linear", 8.0, 12.0, 10.0,
              "Eight rails give each node eight times the egress, which removes most of the wall."),
        Range("C", "{range}: close to linear, with a visible gap", 12.0, 15.0, 13.5,
              "Even with eight rails the inter-node all-reduce still costs about as much as the one inside the node."),
        Range("D", "{range}: essentially linear", 15.0, None, 16.0,
              "Communication does not vanish: the hierarchical all-reduce still crosses the fabric every step."),
    ),
    truth=act2_truth,
)


def act2_facts() -> dict[str, str]:
    bigger = Cluster(S.act2_nodes, 1, C.IB_NDR_BW, 4 * S.act2_tokens, False)
    return {
        "bigger_tokens": fmt(bigger.tokens, "tokens"),
        "bigger_speedup": fmt(bigger.speedup(S.act2_nodes), "x"),
        "scenario_speedup": fmt(SCENARIO_CLUSTER.speedup(S.act2_nodes), "x"),
        "ndr_port": fmt(C.IB_NDR_BW, "GB/s"), "xdr_port": fmt(C.IB_XDR_BW, "GB/s"),
        "xdr_speedup": fmt(XDR_CLUSTER.speedup(S.act2_nodes), "x"), "pcie5": fmt(C.PCIE5_X16_BW, "GB/s"),
    }


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt="No budget for more NICs this quarter. Which change raises the 16-node speedup of the one-NIC "
           "cluster the most?",
    options=(
        Claim("A", f"Swap each node's NIC for an 800 Gb/s XDR one, which doubles the port from "
                   f"{fmt(C.IB_NDR_BW, 'GB/s')} to {fmt(C.IB_XDR_BW, 'GB/s')}.",
              "XDR ports exist (800 Gb/s is {xdr_port} per direction), but that is buying NICs too, and one "
              "per node still funnels the node's share through one port: **{xdr_speedup}**, against "
              "{bigger_speedup} from more tokens per step (and that only if the server's PCIe keeps up: a "
              "Gen5 ×16 slot carries {pcie5}). Mind the units: 800 Gb/s is {xdr_port}, not 800 GB/s."),
        Claim("B", "Switch to pipeline parallelism, which stops gradients from crossing nodes.",
              "Pipeline stages still run data-parallel replicas that all-reduce their gradient shards; "
              "pipelining divides the per-GPU volume by the number of stages, it does not remove it."),
        Claim("C", "Process more tokens per GPU per step (gradient accumulation), so compute grows while "
                   "the all-reduce bytes stay the same.",
              "At {bigger_tokens} per GPU the one-NIC cluster reaches **{bigger_speedup}**, up from "
              "{scenario_speedup}: the all-reduce is paid once per step, however many tokens the step holds."),
        Claim("D", "Train a smaller model, so there are fewer gradients to send.",
              "Fewer gradients, but proportionally less compute: the ratio, and so the speedup, stays put "
              "(Act I showed that the parameter count cancels)."),
    ),
    answer_letter="C",
)


def act2_instruments(s: State) -> list:
    c = cluster(s)
    n = c.nodes
    compute, comm = c.step_s(n)
    speedup = c.speedup(n)
    efficiency = speedup / n
    parts = [metric_grid(
        M["a2_speedup"].show(speedup, tone_for(efficiency)),
        M["a2_efficiency"].show(efficiency, tone_for(efficiency)),
        M["a2_tokens_per_gpu"].show(c.tokens_per_gpu(n)),
        M["a2_compute_s"].show(compute),
        M["a2_allreduce_s"].show(comm, "danger" if comm > compute else None),
        M["a2_node_egress"].show(c.nics * c.nic_bw, note=f"{plural(c.nics, 'NIC')} × {fmt(c.nic_bw, 'GB/s')}"),
    )]
    if comm > compute:
        parts.append(failure(F["a2_network_wall"],
                             f"The all-reduce takes {fmt(comm, 's')}, the compute {fmt(compute, 's')}. "
                             "Every GPU idles more than half of each step. Add NICs per node, or give each "
                             "GPU more tokens per step."))
    parts.append(act2_chart(c))
    return parts


def act2_chart(c: Cluster):
    nodes = [2 ** k for k in range(7)]
    rails = Cluster(c.nodes, C.DGX_H100_NICS, c.nic_bw, c.tokens, c.strong)
    ideal = [float(n) for n in nodes]
    current = [c.speedup(n) for n in nodes]
    railed = [rails.speedup(n) for n in nodes]
    rails_too = c.nics == C.DGX_H100_NICS
    traces = [ch.line("Linear (ideal)", nodes, ideal, "muted", dash="dot"),
              ch.line(f"{plural(C.DGX_H100_NICS, 'NIC')} per node" + (" (yours)" if rails_too else ""), nodes,
                      railed, "series1", markers=True)]
    if not rails_too:
        traces.append(ch.line(f"{plural(c.nics, 'NIC')} per node (yours)", nodes, current, "series2", markers=True))
    figure = ch.figure(
        [*traces, ch.point("Your setting", c.nodes, c.speedup(c.nodes), "accent")],
        x=ch.axis("DGX H100 nodes", "log", tickvals=nodes, ticktext=[str(n) for n in nodes]),
        y=ch.axis("Speedup over one node", "log", tickvals=nodes, ticktext=[f"{n}×" for n in nodes]))
    against = "" if rails_too else f"{fmt(railed[-1], 'x')} with {DGX_NICS_LABEL} rails and "
    summary = (f"With {plural(c.nics, 'NIC')} per node the speedup reaches {fmt(current[-1], 'x')} at "
               f"{nodes[-1]} nodes, against {against}{nodes[-1]}× for perfect scaling.")
    rows = [(str(n), fmt(a, "x"), fmt(b, "x")) for n, a, b in zip(nodes, current, railed)]
    return chart("a2_scaling", "Speedup against node count", figure, summary,
                 table=(("Nodes", f"{plural(c.nics, 'NIC')}/node", f"{plural(C.DGX_H100_NICS, 'NIC')}/node"), rows))


DGX_NICS_LABEL = f"{C.DGX_H100_NICS:.0f}"


def act2_math(s: State):
    c = cluster(s)
    compute, comm = c.step_s(c.nodes)
    return math_peek("The governing equations · Act II", (
        Equation(r"T_{\text{AR}} = 2\,\frac{g-1}{g}\cdot\frac{S}{B_{\text{NVLink}}} + "
                 r"2\,\frac{n-1}{n}\cdot\frac{S}{L\,B_{\text{NIC}}}",
                 "Hierarchical all-reduce: reduce-scatter and all-gather inside each node of *g* GPUs, "
                 "and a ring across *n* nodes through *L* NICs per node."),
        Equation(r"\text{speedup}(n) = n\cdot\frac{T_{\text{step}}(1)}{T_{\text{step}}(n)}",
                 "Weak scaling: every GPU keeps its tokens per step, so *n* nodes do *n* times the work."),
        Equation(r"\text{speedup}(n) = \frac{T_{\text{step}}(1)}{T_{\text{step}}(n)},\quad t = \frac{G}{g\,n}",
                 "Strong scaling: the global batch *G* is fixed and split across more GPUs."),
    ), rows=(
        ("Gradient bytes, *S*", fmt(gradient_bytes(S.params), "GB")),
        ("Node egress, *L·B*", fmt(c.nics * c.nic_bw, "GB/s")),
        ("All-reduce per step", fmt(comm, "s")),
        ("Compute per step", fmt(compute, "s")),
    ), sources=(
        cite("thakur2005"),
        cite("scaling_book", "GPUs chapter: 8 × 400G NICs per DGX H100 node, node egress, "
                             "the data-parallel critical batch"),
        C.REGISTRY["IB_NDR_BW"].source,
        C.REGISTRY["DGX_H100_NICS"].source,
    ))


ACT2 = Act(
    number=2, title="The Multi-Node Wall", minutes="20–25 min",
    stakeholder_role="ML Infrastructure Lead",
    stakeholder=lambda: (
        f"We moved the {fmt(S.params, 'params')} run from one DGX H100 to {S.act2_nodes} of them and expected "
        f"{S.act2_nodes}× the throughput. We measure about "
        f"{fmt(SCENARIO_CLUSTER.speedup(S.act2_nodes), 'x')}. Each GPU still processes "
        f"{fmt(S.act2_tokens, 'tokens')} per step, and each node reaches the fabric through one 400G NIC. "
        "Is the software broken?"),
    scenario=lambda: (
        "Inside a node the GPUs share NVLink. Between nodes every byte leaves through the node's NICs, "
        "so a **hierarchical all-reduce** first reduces inside each node, then runs a ring across nodes, "
        "then shares the result inside each node again.",
        f"A DGX H100 has room for {DGX_NICS_LABEL} NICs, one per GPU. With only one, the whole node's "
        "share of the inter-node ring squeezes through a single port.",
    ),
    prediction=ACT2_PREDICTION,
    controls=(A2_NODES, A2_NICS, A2_NIC, A2_TOKENS, A2_STRONG),
    overridden=a2_overridden,
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="Multi-node scaling analyzer",
)

# ---- the whole lab -------------------------------------------------------------------


def tone_for(efficiency: float) -> str:
    return tone(efficiency)


def active_failures(s: State) -> frozenset[str]:
    params, _, sync = act1_state(s)
    c = cluster(s)
    compute, comm = c.step_s(c.nodes)
    active = {"a1_comm_bound": sync.efficiency < 0.5,
              "a1_out_of_memory": memory_per_gpu_bytes(params) > C.H100_HBM_BYTES,
              "a2_network_wall": comm > compute}
    return frozenset(name for name, on in active.items() if on)


def results(s: State) -> dict[str, float]:
    params, tokens, sync = act1_state(s)
    c = cluster(s)
    return {"a1_efficiency": sync.efficiency, "a1_slowdown": slowdown(params, tokens, s["a1_fabric"]),
            "a2_speedup": c.speedup(c.nodes), "a2_efficiency": c.speedup(c.nodes) / c.nodes}


def lab_takeaways() -> list[str]:
    nvl = training.dp_critical_tokens(S.gpus_per_node, C.NVLINK4_BW, C.H100_PEAK_BF16_DENSE, S.mfu)
    eth = training.dp_critical_tokens(S.gpus_per_node, C.ETH_100G_BW, C.H100_PEAK_BF16_DENSE, S.mfu)
    strong = Cluster(S.act2_nodes, C.DGX_H100_NICS, C.IB_NDR_BW, S.act2_tokens, True)
    return [
        f"A ring all-reduce sends 2(N−1)/N of the gradient from every GPU: {act1_facts()['ring_factor']} "
        "at N = 8, nearly constant in N.",
        f"Model size cancels in the data-parallel ratio of communication to compute. Tokens per GPU and "
        f"bandwidth decide: NVLink is compute-bound above {fmt(nvl, 'tokens')} per GPU, 100 GbE only above "
        f"{fmt(eth, 'tokens')}.",
        f"Eight servers on 100 GbE deliver {fmt(act1_truth(), 'x')} less throughput than one DGX at "
        f"{fmt(S.act1_tokens, 'tokens')} per GPU.",
        f"Across nodes the NICs per node set the wall: {fmt(SCENARIO_CLUSTER.speedup(S.act2_nodes), 'x')} on "
        f"{S.act2_nodes} nodes with one NIC, {fmt(act2_truth(), 'x')} with {DGX_NICS_LABEL} rails.",
        f"With a fixed global batch the wall grows with scale: {fmt(strong.speedup(16) / 16, 'pct')} "
        f"efficiency at 16 nodes, {fmt(strong.speedup(64) / 64, 'pct')} at 64, even with eight rails.",
    ]


LAB = Lab(
    id="v2_02", volume=2, number=2, title="The Interconnect Wall",
    invariant="Communication time ÷ compute time depends on **tokens per GPU and bandwidth**, not on "
              "model size; the node boundary divides the bandwidth.",
    minutes="35–40 min", chapter="Compute Infrastructure", url="vol2/02-interconnect-wall/",
    reading=(
        "**The bandwidth hierarchy**: HBM, NVLink, PCIe, InfiniBand, and the gaps between them.",
        "**All-reduce and the ring**: why each GPU sends 2(N−1)/N of its gradient.",
        "**Node and pod boundaries**: hierarchical all-reduce and rail-optimised networks.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "[**V2-01 The Scale Illusion**](../01-scale-illusion/): the same communication term turns 1,000 GPUs into far less than 1,000×.",
        "[**V2-05 The Parallelism Paradox**](../05-parallelism-paradox/): tensor and pipeline parallelism, and what crossing nodes does to them.",
        "[**V2-06 The Bandwidth Invariant**](../06-bandwidth-invariant/): ring, tree and halving-doubling all-reduce, and when each wins.",
    ),
    presets={"context": {"pretrain": {"a1_tokens": S.act1_tokens, "a2_tokens": S.act2_tokens},
                         "finetune": {"a1_tokens": S.finetune_tokens, "a2_tokens": S.finetune_tokens}}},
)
