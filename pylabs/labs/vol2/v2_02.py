"""Lab V2-02 · The Interconnect Wall.

Core invariant: in data-parallel training, the ratio of all-reduce time to
compute time depends on tokens per GPU and link bandwidth, not on model size;
crossing the node boundary divides the bandwidth, so the NICs per node set
the scaling wall. The model and scenario are in ``v2_02_model``.

Act I (the interconnect cliff): a 13B model with ZeRO-2 on 8 H100s; one DGX
(NVLink) against cheaper boxes (PCIe, or 8 servers on 100 GbE). The
prediction is asked at the context's tokens per GPU (5.32× pretraining, C;
13.6× fine-tuning, D); the reflection asks what 8 → 16 servers does to the
ring's time (+7 %, D). The model adds compute and all-reduce; the math peek
shows the bound with the backward fully overlapped (Megatron Core DDP), and
both keys hold under it.
Act II (the multi-node wall): 1 → 16 DGX nodes gives 6.34× instead of 16×,
because each node has one 400G NIC instead of eight rails. The prediction
asks the gain from eight rails (2.12× pretraining, A; 3.12× fine-tuning, B);
the reflection asks what a fixed global batch does from 16 to 64 nodes
(62.8 % → 28.6 %, B).

Departures from the seed spec (handbook/labs/v2_02.md §5): its
reflection key "more tokens per GPU" was the network-wall failure's own lever
and the Act I callout's words, stated before the lock; it stays a lever in
the failure text and the reflection asks about strong scaling, which the
spec's toggle shows. The Act II stakeholder's 6.34× is the step-time model's,
not a measurement.

Ledger fields: context, both predictions and reflections, the final
instrument settings, the slowdown and speedup results, failure states reached.
"""

from __future__ import annotations

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option,
                              Prediction, Range, Reflection, Slider, State, Toggle, callout, chart, failure,
                              fmt, math_peek, metric_grid, prose)
from pylabs.framework import charts as ch
from pylabs.framework.components import tone
from pylabs.framework.formats import plural
from pylabs.labs.vol2.v2_02_model import (FABRICS, MODEL_SIZES, NICS, SERVERS, Cluster, S, Sync, context_tokens, critical_tokens,
                                          gradient_bytes, memory_per_gpu_bytes, overlapped_slowdown, rails_gain, scenario_cluster, wall_fixes,
                                          single_node_step, slowdown)
from pylabs.physics import collectives, training
from pylabs.physics import constants as C
from pylabs.physics.references import cite


# ---- context ----------------------------------------------------------------------

CONTEXT = Choice("context", "Workload", (
    Option("pretrain", "Pretraining: long sequences, many tokens per GPU per step"),
    Option("finetune", "Fine-tuning: short sequences, few tokens per GPU per step"),
), default="pretrain", help="Sets the tokens per GPU of both acts' instruments.")

# ---- Act I · The interconnect cliff ----------------------------------------------

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


def terms(context: str) -> dict[str, str]:
    return {"a1_tokens": fmt(context_tokens(context, 1), "tokens"), "a2_tokens": fmt(context_tokens(context, 2), "tokens")}


def act1_truth(context: str) -> float:
    return slowdown(S.params, context_tokens(context, 1), "eth100")


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt="Same 8 H100s, same 13B model, {a1_tokens} per GPU per step. How many times lower is training "
           "throughput on 8 servers linked by 100 GbE than inside one NVLink DGX?",
    quantity="DGX throughput ÷ 100 GbE throughput",
    unit_fmt="x",
    options=(
        Range("A", "{range}: barely any difference; compute hides the transfer", None, 1.5, 1.2,
              "Compute can hide the transfer only while it outlasts it: here the all-reduce takes {eth_ar} against "
              "{compute} of compute."),
        Range("B", "{range}: slower, the size of a PCIe gap", 1.5, 4.0, 2.5,
              "Inside one box PCIe Gen5 costs {pcie5_slowdown}; separate servers share far less bandwidth: "
              "100 GbE is {eth_bw} per GPU against NVLink's {nvl_bw}."),
        Range("C", "{range}: the network takes most of the step", 4.0, 10.0, 6.0,
              "The all-reduce moves the same bytes on every fabric: {nvl_ar} over NVLink, {eth_ar} over "
              "100 GbE, against {compute} of compute, so the GPUs compute {nvl_eff} of the step on NVLink "
              "and {eth_eff} on 100 GbE."),
        Range("D", "{range}: compute almost vanishes from the step", 10.0, None, 20.0,
              "Compute fills {eth_eff} of the 100 GbE step ({compute} against {eth_ar} of all-reduce) and "
              "{nvl_eff} of the NVLink step; the loss is their ratio, below the {bw_ratio} bandwidth ratio."),
    ),
    truth=act1_truth,
    shown_by="a1_slowdown",
)

ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="The 100 GbE cluster grows from 8 to 16 single-GPU servers, same NICs, same tokens per GPU. "
           "What happens to the ring all-reduce time per step?",
    options=(
        Claim("A", "It stays the same: each GPU always sends exactly twice its gradient.",
              "Twice the gradient is the limit as N grows, not the value: 2(N−1)/N is {ring8} at 8 GPUs and "
              "{ring16} at 16, so {ar8} becomes {ar16}."),
        Claim("B", "It about doubles: each chunk must pass twice as many GPUs.",
              "Chunks do pass more GPUs, but in parallel, one ring step at a time, and each is half as big: "
              "{ar8} at 8 GPUs, {ar16} at 16."),
        Claim("C", "It grows about fourfold: the GPU pairs that exchange grow as N².",
              "A ring sends only to one neighbour, never to every other GPU: {ar8} at 8 GPUs, {ar16} at 16."),
        Claim("D", "It rises by under a tenth: twice the steps, each half the size.",
              "2(N−1)/N of the gradient leaves each GPU: {ring8} at N = 8, {ring16} at N = 16, so "
              "{ar8} becomes **{ar16}** for the {grad_bytes} of 13B gradients."),
    ),
    answer_letter="D",
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
    MetricSpec("a2_rails_gain", "Speedup with 8 NICs per node ÷ yours", "1", "x"),
)}

FAILURES = (
    FailureSpec("a1_comm_bound", "Communication-bound: the GPUs wait more than they compute", act=1,
                reach={}, leave={"a1_fabric": "nvlink"}),
    FailureSpec("a1_out_of_memory", "Out of memory: the model state does not fit", act=1,
                reach={"a1_model": "70b"}, leave={"a1_model": "13b"}),
    FailureSpec("a2_network_wall", "The network wall: all-reduce takes longer than compute", act=2,
                reach={}, leave={"a2_nics": "8"}, contexts=("pretrain",)),
)
F = {f.name: f for f in FAILURES}


def act1_state(s: State) -> tuple[float, float, Sync]:
    params, tokens = MODEL_SIZES[s["a1_model"]], s["a1_tokens"]
    return params, tokens, single_node_step(params, tokens, s["a1_fabric"])


def act1_instruments(s: State) -> list:
    params, tokens, sync = act1_state(s)
    memory = memory_per_gpu_bytes(params)
    critical = critical_tokens(s["a1_fabric"])
    fits = memory <= C.H100_HBM_BYTES
    # a state that does not fit is not timed as if it ran: its times are what it would take if it fitted
    unfit = "" if fits else f"if {fmt(params, 'params')} fitted: it does not"
    parts = [metric_grid(
        M["a1_compute_s"].show(sync.compute_s, note=unfit),
        M["a1_allreduce_s"].show(sync.allreduce_s, "danger" if sync.ratio > 1 and fits else None, unfit),
        M["a1_efficiency"].show(sync.efficiency, tone(sync.efficiency) if fits else None, unfit),
        M["a1_slowdown"].show(slowdown(params, tokens, s["a1_fabric"]), note=unfit),
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
        verb = "spends" if fits else "would spend, if the model fitted,"
        parts.append(failure(F["a1_comm_bound"],
                             f"Each step {verb} {fmt(sync.allreduce_s, 's')} in all-reduce against "
                             f"{fmt(sync.compute_s, 's')} of compute. {comm_levers(s)}"))
    parts.append(act1_chart(params, tokens, s["a1_fabric"]))
    parts.append(ring_chart(params, unfit))
    other = "7b" if s["a1_model"] != "7b" else "13b"
    parts.append(callout("info", "Model size cancels",
                         prose(f"Switch between model sizes: compute and all-reduce both scale with the "
                               f"parameter count, so their ratio stays at **{fmt(sync.ratio, 'num')}** "
                               f"(the {fmt(MODEL_SIZES[other], 'params')} model gives "
                               f"{fmt(single_node_step(MODEL_SIZES[other], tokens, s['a1_fabric']).ratio, 'num')}). "
                               "Tokens per GPU and bandwidth are the levers.")))
    return parts


def comm_levers(s: State) -> str:
    """The Act I levers that bring compute back on top on their own, at this state (
    none at its limit, none that cannot clear it: 100 GbE needs more tokens than the slider reaches)."""
    tokens, fabric = s["a1_tokens"], s["a1_fabric"]
    need = critical_tokens(fabric)
    if need <= A1_TOKENS.max:
        levers = [f"more tokens per GPU (above {fmt(need, 'tokens')})"]
    else:
        levers = [f"more tokens per GPU than this slider reaches (above {fmt(need, 'tokens')}, by accumulating "
                  "gradients over several micro-batches per all-reduce)"]
    faster = sorted((FABRICS[k][1], FABRICS[k][0]) for k in FABRICS if k != fabric and critical_tokens(k) < tokens)
    if faster:
        levers.append(f"a faster fabric ({faster[0][1]})")  # the slowest that clears it
    text = " or ".join(levers)
    return text[0].upper() + text[1:] + " brings compute back on top."


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


def ring_chart(params: float, unfit: str = ""):
    grad = gradient_bytes(params)
    times = {k: [collectives.ring_allreduce_s(grad, n, FABRICS[k][1]) for n in SERVERS] for k in ("ndr", "eth100")}
    figure = ch.figure(
        [ch.line(name, SERVERS, times[k], c, markers=True)
         for k, name, c in (("ndr", "One NDR NIC each", "series1"), ("eth100", "100 GbE each", "series2"))],
        x=ch.axis("Single-GPU servers in the ring", "log", tickvals=list(SERVERS), ticktext=[str(n) for n in SERVERS]),
        y=ch.axis("All-reduce per step (s)", rangemode="tozero"))
    summary = (f"The ring all-reduce of {fmt(grad, 'GB')} of gradients over 100 GbE takes {fmt(times['eth100'][0], 's')} "
               f"with {SERVERS[0]} servers and {fmt(times['eth100'][-1], 's')} with {SERVERS[-1]}" + (f" ({unfit})." if unfit else "."))
    rows = [(str(n), fmt(a, "s"), fmt(b, "s")) for n, a, b in zip(SERVERS, times["ndr"], times["eth100"])]
    return chart("a1_ring_servers", "Ring all-reduce against servers in the ring", figure, summary,
                 table=(("Servers", "One NDR NIC each", "100 GbE each"), rows))


def act1_facts(context: str) -> dict[str, str]:
    tokens, grad = context_tokens(context, 1), gradient_bytes(S.params)
    nvl, eth = single_node_step(S.params, tokens, "nvlink"), single_node_step(S.params, tokens, "eth100")
    ring = {n: 2 * (n - 1) / n for n in (8, 16)}
    return {"compute": fmt(eth.compute_s, "s"), "eth_ar": fmt(eth.allreduce_s, "s"), "nvl_ar": fmt(nvl.allreduce_s, "s"),
            "eth_eff": fmt(eth.efficiency, "pct"), "nvl_eff": fmt(nvl.efficiency, "pct"),
            "pcie5_slowdown": fmt(slowdown(S.params, tokens, "pcie5"), "x"), "eth_bw": fmt(C.ETH_100G_BW, "GB/s"),
            "nvl_bw": fmt(C.NVLINK4_BW, "GB/s"), "bw_ratio": fmt(C.NVLINK4_BW / C.ETH_100G_BW, "x"),
            "ring8": fmt(ring[8], "x"), "ring16": fmt(ring[16], "x"), "grad_bytes": fmt(grad, "GB"),
            "ar8": fmt(collectives.ring_allreduce_s(grad, 8, C.ETH_100G_BW), "s"),
            "ar16": fmt(collectives.ring_allreduce_s(grad, 16, C.ETH_100G_BW), "s")}


def act1_math(s: State):
    params, tokens, sync = act1_state(s)
    return math_peek("The governing equations · Act I", (
        Equation(r"T_{\text{comp}} = \frac{6\,P\,t}{C_{\text{peak}}\,u}",
                 "Training costs 6 FLOP per parameter per token (forward and backward); *t* is tokens per "
                 "GPU per step, *u* the utilisation of the compute phases."),
        Equation(r"T_{\text{ring}} = 2\,\frac{N-1}{N}\cdot\frac{2P}{B}",
                 "Ring all-reduce of 2-byte gradients over *N* GPUs at *B* bytes/s per direction, the link's "
                 "full rate: an idealisation, since measured bus bandwidth falls below it."),
        Equation(r"\frac{T_{\text{ring}}}{T_{\text{comp}}} = \frac{2}{3}\cdot\frac{N-1}{N}\cdot\frac{C_{\text{peak}}\,u}{t\,B}",
                 "Divide the two: the parameter count *P* cancels. The model adds the two phases; frameworks "
                 "can run the all-reduce in buckets under the backward pass, so at most the backward's "
                 "two-thirds of the compute can hide it."),
    ), rows=(
        ("Peak dense BF16, *C*", fmt(C.H100_PEAK_BF16_DENSE, "FLOP/s")),
        ("Utilisation of compute, *u*", fmt(S.mfu, "pct")),
        ("Bandwidth, *B*", fmt(FABRICS[s["a1_fabric"]][1], "GB/s")),
        ("Measured NCCL all-reduce bus bandwidth, 8 × H100 on NVLink", fmt(C.NVLINK4_ALLREDUCE_BUSBW_MEASURED, "GB/s")),
        ("Gradient bytes, *2P*", fmt(gradient_bytes(params), "GB")),
        ("All-reduce ÷ compute", fmt(sync.ratio, "num")),
        ("Throughput lost, phases added", fmt(slowdown(params, tokens, s["a1_fabric"]), "x")),
        ("…with the backward fully overlapped", fmt(overlapped_slowdown(params, tokens, s["a1_fabric"]), "x")),
    ), sources=(
        cite("kaplan2020", "C = 6ND"),
        cite("nccl_tests", "ring all-reduce moves 2(N−1)/N of the data"),
        cite("zero2020", "2 + 14/N bytes per parameter with stage 2"),
        cite("megatron_ddp", "bucketed all-reduce overlapped with the backward pass"),
        C.REGISTRY["H100_PEAK_BF16_DENSE"].source,
        C.REGISTRY["NVLINK4_BW"].source,
        C.REGISTRY["NVLINK4_ALLREDUCE_BUSBW_MEASURED"].source,
    ))


ACT1 = Act(
    number=1, title="The Interconnect Cliff", minutes="12–15 min",
    stakeholder_role="Infrastructure Architect",
    stakeholder=lambda context: (
        f"We will train a {fmt(S.params, 'params')} model on {S.gpus_per_node} H100s, with ZeRO-2 so the model state fits "
        f"({fmt(memory_per_gpu_bytes(S.params), 'GB')} per GPU). Two quotes are on my desk: one DGX H100, or "
        f"eight single-GPU servers on 100 GbE for much less money. Each GPU will process "
        f"{fmt(context_tokens(context, 1), 'tokens')} per step. Does the interconnect really matter?"),
    scenario=lambda: (
        "After every backward pass the GPUs must agree on the gradients. A **ring all-reduce** does it "
        "in two phases: a reduce-scatter, in which each GPU ends up owning the sum of one slice, and an "
        "all-gather, in which the slices travel round the ring again.",
        f"The gradients of a {fmt(S.params, 'params')} model in BF16 are {fmt(gradient_bytes(S.params), 'GB')}. "
        f"Each GPU computes at {fmt(S.mfu, 'pct')} of its {fmt(C.H100_PEAK_BF16_DENSE, 'FLOP/s')} dense BF16 "
        "peak [assumed utilisation].",
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


def act2_truth(context: str) -> float:
    return rails_gain(scenario_cluster(context), S.act2_nodes)


ACT2_PREDICTION = Prediction(
    id="a2_predict", act=2,
    prompt="At {a2_tokens} per GPU, the team re-cables every node with eight 400G NICs, one per GPU (rails), "
           "and changes nothing else. By what factor does the 16-node speedup grow?",
    quantity="16-node speedup with 8 NICs ÷ with 1 NIC",
    unit_fmt="x",
    options=(
        Range("A", "{range}: about double the one-NIC speedup", None, 2.5, 2.0,
              "With one NIC the step takes {one_step}; with eight, {rails_step}: the 16-node speedup goes from "
              "{one_speedup} to {rails_speedup}."),
        Range("B", "{range}: well over double, short of fourfold", 2.5, 4.0, 3.0,
              "Eight rails give {rails_speedup} against {one_speedup}; the gain is capped by "
              "16 ÷ {one_speedup} = {cap} even with a free network."),
        Range("C", "{range}: several times over, short of eight", 4.0, 6.0, 5.0,
              "Only the inter-node term shrinks eightfold; compute ({compute}) and the NVLink phase stay: "
              "{one_speedup} becomes {rails_speedup}."),
        Range("D", "{range}: close to eightfold, like the egress", 6.0, None, 8.0,
              "Eight times the egress divides only the inter-node term: the step falls from {one_step} to "
              "{rails_step}, and 16 nodes cap the speedup at 16×."),
    ),
    truth=act2_truth,
    shown_by="a2_rails_gain",
)


def act2_facts(context: str) -> dict[str, str]:
    one, rails = scenario_cluster(context), scenario_cluster(context, C.DGX_H100_NICS)
    strong = scenario_cluster(context, C.DGX_H100_NICS, strong=True)
    n = S.act2_nodes
    return {
        "one_speedup": fmt(one.speedup(n), "x"), "rails_speedup": fmt(rails.speedup(n), "x"),
        "one_step": fmt(sum(one.step_s(n)), "s"), "rails_step": fmt(sum(rails.step_s(n)), "s"),
        "compute": fmt(one.step_s(n)[0], "s"), "cap": fmt(n / one.speedup(n), "x"),
        "eff16": fmt(strong.speedup(16) / 16, "pct"), "eff64": fmt(strong.speedup(64) / 64, "pct"),
        "tok16": fmt(strong.tokens_per_gpu(16), "tokens"), "tok64": fmt(strong.tokens_per_gpu(64), "tokens"),
        "ar16": fmt(strong.step_s(16)[1], "s"), "ar64": fmt(strong.step_s(64)[1], "s"),
        "comp16": fmt(strong.step_s(16)[0], "s"), "comp64": fmt(strong.step_s(64)[0], "s"),
    }


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt=f"Keep the eight rails and fix the global batch at {fmt(S.global_batch_tokens, 'tokens')} per step. "
           "From 16 to 64 nodes, what happens to the scaling efficiency?",
    options=(
        Claim("A", "It holds: every node added brings eight more ports to the fabric.",
              "Ports grow with the nodes, but the work per GPU does not: efficiency goes from {eff16} to {eff64}."),
        Claim("B", "It falls steeply: each GPU's work shrinks, its gradient does not.",
              "Each GPU's share falls from {tok16} to {tok64}, so compute falls from {comp16} to {comp64}, "
              "while the all-reduce stays near {ar16} ({ar64} at 64 nodes): **{eff16} → {eff64}**."),
        Claim("C", "It rises: each GPU computes fewer tokens, so every step ends sooner.",
              "Steps do end sooner, but not four times sooner: the all-reduce ({ar64}) now dwarfs the "
              "compute ({comp64}), and efficiency goes from {eff16} to {eff64}."),
        Claim("D", "It dips a little: a longer ring adds a few hops between nodes.",
              "The ring's (n−1)/n barely moves ({ar16} → {ar64}); the loss comes from compute shrinking "
              "fourfold: {eff16} → {eff64}."),
    ),
    answer_letter="B",
)


def act2_instruments(s: State) -> list:
    c = cluster(s)
    n = c.nodes
    compute, comm = c.step_s(n)
    speedup = c.speedup(n)
    efficiency = speedup / n
    parts = [metric_grid(
        M["a2_speedup"].show(speedup, tone(efficiency)),
        M["a2_efficiency"].show(efficiency, tone(efficiency)),
        M["a2_rails_gain"].show(rails_gain(c, n)),
        M["a2_node_egress"].show(c.nics * c.nic_bw, note=f"{plural(c.nics, 'NIC')} × {fmt(c.nic_bw, 'GB/s')}"),
        M["a2_allreduce_s"].show(comm, "danger" if comm > compute else None),
        M["a2_compute_s"].show(compute),
        M["a2_tokens_per_gpu"].show(c.tokens_per_gpu(n)),
    )]
    if comm > compute:
        parts.append(failure(F["a2_network_wall"],
                             f"The all-reduce takes {fmt(comm, 's')}, the compute {fmt(compute, 's')}. "
                             f"Every GPU idles more than half of each step. {wall_levers(c)}"))
    parts.append(act2_chart(c))
    return parts


def wall_levers(c: Cluster) -> str:
    """The levers that clear the wall on their own at this state (none at its
    limit, none too small to clear it); if none does alone, say so."""
    fix, levers = wall_fixes(c, A2_TOKENS.max), []
    if fix.nics:
        levers.append(f"go to {plural(fix.nics, 'NIC')} per node")
    if fix.ndr:
        levers.append("switch to NDR NICs")
    if fix.nodes:
        levers.append(f"use at most {plural(fix.nodes, 'node')} for this global batch")
    if fix.tokens:
        levers.append(f"give each GPU at least {fmt(fix.tokens, 'tokens')} per step")
    if not levers:
        return "No single lever on this page clears it alone: combine more NICs per node with more tokens per GPU."
    text = " or ".join(levers)
    return text[0].upper() + text[1:] + "."


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
                 "and a ring across *n* nodes through *L* NICs per node, at the links' full rates on a "
                 "non-blocking fabric (an idealisation). The step adds this to the compute: no overlap."),
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
    stakeholder=lambda context: (
        f"We moved the {fmt(S.params, 'params')} run from one DGX H100 to {S.act2_nodes} of them and expected "
        f"{S.act2_nodes}× the throughput. Our step-time model puts it at about "
        f"{fmt(scenario_cluster(context).speedup(S.act2_nodes), 'x')}. Each GPU still processes "
        f"{fmt(context_tokens(context, 2), 'tokens')} per step, and each node reaches the fabric through one 400G NIC. "
        "Is the software broken?"),
    scenario=lambda: (
        "Inside a node the GPUs share NVLink. Between nodes every byte leaves through the node's NICs, "
        "so a **hierarchical all-reduce** first reduces inside each node, then runs a ring across nodes, "
        "then shares the result inside each node again.",
        f"A DGX H100 has {DGX_NICS_LABEL} single-port 400G NICs for the compute fabric, one per GPU. With only one "
        "of them cabled, the whole node's share of the inter-node ring squeezes through a single port. The "
        "switches are non-blocking: every cabled port gets its full rate at once.",
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


def lab_takeaways(context: str) -> list[str]:
    nvl = training.dp_critical_tokens(S.gpus_per_node, C.NVLINK4_BW, C.H100_PEAK_BF16_DENSE, S.mfu)
    eth = training.dp_critical_tokens(S.gpus_per_node, C.ETH_100G_BW, C.H100_PEAK_BF16_DENSE, S.mfu)
    f1, f2 = act1_facts(context), act2_facts(context)
    return [
        f"A ring all-reduce sends 2(N−1)/N of the gradient from every GPU: {f1['ring8']} at N = 8, "
        f"{f1['ring16']} at 16, nearly constant in N.",
        f"Model size cancels in the data-parallel ratio of communication to compute. Tokens per GPU and "
        f"bandwidth decide: NVLink is compute-bound above {fmt(nvl, 'tokens')} per GPU, 100 GbE only above "
        f"{fmt(eth, 'tokens')}.",
        f"Eight servers on 100 GbE deliver {fmt(act1_truth(context), 'x')} less throughput than one DGX at "
        f"{fmt(context_tokens(context, 1), 'tokens')} per GPU.",
        f"Across nodes the NICs per node set the wall: {f2['one_speedup']} on {S.act2_nodes} nodes with one "
        f"NIC, {f2['rails_speedup']} with {DGX_NICS_LABEL} rails.",
        f"With a fixed global batch the wall grows with scale: {f2['eff16']} efficiency at 16 nodes, "
        f"{f2['eff64']} at 64, even with eight rails.",
    ]


LAB = Lab(
    id="v2_02", volume=2, number=2, title="The Interconnect Wall",
    invariant="Communication time ÷ compute time depends on **tokens per GPU and bandwidth**, not on "
              "model size; the node boundary divides the bandwidth.",
    minutes="35–40 min", chapter="Compute Infrastructure", url="vol2/02-interconnect-wall/",
    description="Why data-parallel training is governed by tokens per GPU and bandwidth, and why the node boundary "
                "is a wall.",
    reading=(
        "**The bandwidth hierarchy**: HBM, NVLink, PCIe, InfiniBand, and the gaps between them.",
        "**All-reduce and the ring**: what each GPU sends in the reduce-scatter and the all-gather.",
        "**Node and pod boundaries**: hierarchical all-reduce and rail-optimised networks.",
    ),
    context=CONTEXT,
    terms=terms,
    hook="Eight GPUs in one box or in eight cheap servers: what does the wire between them cost a training run?",
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
