"""Lab V1-07 · The Kernel Fusion Dividend.

Core invariant: a framework runs a model as a stream of kernels, and every kernel costs the CPU a
dispatch. CUDA launches are asynchronous, so each kernel costs max(dispatch, GPU work): when the
kernels are shorter than their dispatch, the CPU sets the pace, the GPU idles, and a faster GPU
only idles more. Fusion and compilation attack the count of kernels and of trips to memory; a
compilation is paid once per process and replica, so it pays back only above a break-even volume.

Act I (the launch tax): a keyword-spotting model of 1,000 kernels of 5 µs with 10 µs of dispatch
each. Upstream keyed 33 % (every launch synchronised) and its instrument crashed; with
asynchronous launches the GPU is busy 5 of every 10 µs, 50 %.
Act II (the compile break-even): fusing LayerNorm → Dropout → ReLU divides launches and memory
traffic by the chain length (3×, not upstream's 5×), and torch.compile's 30 s pay back after
N* = k · t_c / (1/R_e − 1/R_c) images: 133,607 for ResNet-50 at 1,450 → 2,150 images/s.

Choices where the spec leaves room: the cloud runs on an A100 (the spec's story and its fusion
golden vector), the edge on the Orin NX of the device table. The edge dispatch time (50 µs) and
edge throughputs (150 → 222 images/s) are the spec's estimates: they are slider defaults labelled
as assumptions. Each prediction asks about the cloud scenario it states; the instruments follow
the context. The spec's two Act II reflections become one (fusion: 3× traffic and 3× time); the
other (no gain on one large GEMM) is a computed note in the fusion panel.

Ledger fields: context, model and mode (controls), and the results util, fusion_speedup,
breakeven and roi_positive.
"""

from __future__ import annotations

import math

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option, Prediction,
                              Range, Reflection, Slider, State, Toggle, callout, chart, failure, fmt, math_peek,
                              metric_grid, prose, tone)
from pylabs.framework import charts as ch
from pylabs.framework.formats import shrinks
from pylabs.labs.vol1.contexts import TRACK, deployment
from pylabs.labs.vol1.v1_07_model import (CLOUD, DEVICES, DISPATCH_S, EDGE, MODELS, REQUESTS_PER_S, S, SCENARIO_STREAM,
                                          TENSOR_BYTES, act1_truth, act2_truth, busy_sweep, chain_s, chain_speedup,
                                          gemm_s, stream, volume_sweep)
from pylabs.physics import constants as C
from pylabs.physics import kernels
from pylabs.physics.devices import A100, Device
from pylabs.physics.kernels import CompiledDeployment as Deployment, KernelStream
from pylabs.physics.references import cite

CHAIN_X = fmt(S.chain_ops, "x")

# ---- context ------------------------------------------------------------------------

CONTEXT = deployment(("cloud", "edge"), default="cloud", labels={"cloud": "Cloud (NVIDIA A100)"},
                     help="Sets the CPU dispatch time, the GPU's memory bandwidth, the measured throughputs "
                          "and the traffic of both acts.")

# ---- Act I · The launch tax ----------------------------------------------------------

MODES = {
    "async": "Eager, asynchronous launches (CUDA's default)",
    "sync": "Eager, synchronise after every kernel",
    "fused": f"Fused: {fmt(S.fused_fraction, 'fraction')} of the kernels merged into the others",
    "graphs": "CUDA graph: the whole stream replayed as one launch",
}
SHORT_MODES = {"async": "Async", "sync": "Sync", "fused": "Fused", "graphs": "Graph"}


def model_label(key: str) -> str:
    name, n, gpu_s = MODELS[key]
    return f"{name}: {fmt(n, 'int')} kernels × {fmt(gpu_s, 'us')}"


A1_MODEL = Choice("a1_model", "Model", tuple(Option(k, model_label(k)) for k in MODELS), default="kws")
A1_CPU = Slider("a1_cpu_s", "CPU dispatch per kernel", unit="s", min=1e-6, max=50e-6, step=1e-6,
                default=S.cloud_cpu_s, fmt="us",
                help=f"Framework, driver and launch call. The cloud default sits in the "
                     f"{fmt(C.KERNEL_LAUNCH_CPU_LOW_S * S.us_per_s, 'num')}–{fmt(C.KERNEL_LAUNCH_CPU_HIGH_S, 'us')} "
                     f"a launch usually costs (Meta's trace analysis); the edge default, {fmt(S.edge_cpu_s, 'us')}, "
                     "is an assumption (assumed for the Jetson's slower Arm cores; no published figure).")
A1_MODE = Choice("a1_mode", "How the kernels are launched", tuple(Option(k, v) for k, v in MODES.items()),
                 default="async", widget="select")
A1_FAST = Toggle("a1_fast", f"A GPU {fmt(S.fast_gpu, 'x')} as fast (every kernel takes "
                            f"{fmt(1 / S.fast_gpu, 'fraction')} of the time)")


def act1_stream(s: State) -> KernelStream:
    return stream(s["a1_model"], s["a1_cpu_s"], s["a1_mode"], s["a1_fast"])


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"One keyword-spotting inference is {fmt(MODELS['kws'][1], 'int')} kernels. Each runs "
           f"{fmt(MODELS['kws'][2], 'us')} on the GPU and costs the CPU {fmt(S.cloud_cpu_s, 'us')} to dispatch; "
           "the framework launches them one after another, with no synchronisation in between. What share "
           "of the inference time is the GPU busy?",
    quantity="GPU busy share of the inference time",
    unit_fmt="pct",
    options=(
        Range("A", "{range}: every kernel waits for its own dispatch, so the dispatch adds to the work",
              None, 0.40, 0.33,
              "That adds dispatch and work, which holds only if every launch waits for the previous kernel "
              "to finish. CUDA launches return as soon as the kernel is queued: the CPU dispatches the next "
              "kernel while the GPU runs this one."),
        Range("B", "{range}: the dispatch overlaps the work but takes longer than it", 0.40, 0.60, 0.50,
              "The CPU and GPU work side by side, so each kernel costs the longer of the two: the "
              "{cpu} dispatch. The GPU runs {gpu} of every {cpu}."),
        Range("C", "{range}: overlap hides most of the dispatch", 0.60, 0.90, 0.75,
              "Overlap hides the dispatch only behind a kernel at least as long. A {gpu} kernel cannot "
              "cover a {cpu} dispatch, so the GPU waits at every launch."),
        Range("D", "{range}: asynchronous launches keep the GPU fed", 0.90, None, 0.97,
              "They do while each kernel lasts longer than its dispatch. Here the CPU needs {cpu} to "
              "queue a kernel the GPU finishes in {gpu}: the queue runs dry after every kernel."),
    ),
    truth=act1_truth,
)


def act1_facts() -> dict[str, str]:
    fast = stream("kws", S.cloud_cpu_s, "async", True)
    return {"cpu": fmt(S.cloud_cpu_s, "us"), "gpu": fmt(SCENARIO_STREAM.gpu_s, "us"), "shrinks": shrinks(S.fast_gpu),
            "time": fmt(SCENARIO_STREAM.seconds, "ms"), "fast_time": fmt(fast.seconds, "ms"),
            "fast_busy": fmt(fast.busy, "pct"), "busy": fmt(SCENARIO_STREAM.busy, "pct")}


ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt=f"Finance buys a GPU {fmt(S.fast_gpu, 'x')} as fast for the same keyword-spotting service, with the "
           "same asynchronous launches. What happens to each inference?",
    options=(
        Claim("A", f"It takes {fmt(1 / S.fast_gpu, 'fraction')} of the time: the GPU does all the work.",
              "The GPU's work {shrinks}, but it was never the critical path: each kernel still waits for its "
              "{cpu} dispatch, so an inference still takes {fast_time}."),
        Claim("B", "It gets a little faster, and the GPU's busy share rises.",
              "Nothing on the critical path changed: the time stays at {fast_time}, and the busy share "
              "falls, from {busy} to {fast_busy}."),
        Claim("C", f"It takes the same time and the GPU's busy share {shrinks(S.fast_gpu)}: the CPU's dispatch "
                   "sets the pace.",
              "Each kernel still costs its {cpu} dispatch, so an inference takes {fast_time} on either GPU, "
              "and the faster one is busy {fast_busy} of it instead of {busy}. Buy fewer launches, "
              "not a faster GPU."),
        Claim("D", "It gets slower: the faster GPU drains the queue and stalls.",
              "An empty queue costs idle time, not extra time: the inference still takes {fast_time}."),
    ),
    answer_letter="C",
)

M = {m.name: m for m in (
    MetricSpec("a1_busy", "GPU busy", "1", "pct"),
    MetricSpec("a1_time_s", "Time per inference", "s", "s"),
    MetricSpec("a1_idle_s", "GPU idle per inference", "s", "s"),
    MetricSpec("a1_rate", "Inferences per second (one stream)", "1/s", "num"),
    MetricSpec("a1_kernels", "Kernel launches per inference", "1", "int"),
    MetricSpec("a1_gpu_s", "GPU time per kernel", "s", "us"),
    MetricSpec("a2_breakeven", "Break-even: images before compiling pays", "images", "int"),
    MetricSpec("a2_breakeven_time_s", "Time to reach it at this traffic", "s", "s"),
    MetricSpec("a2_volume", "Images served in the deployment", "images", "int"),
    MetricSpec("a2_net_gpu_s", "GPU time saved, net of compiling", "s", "s"),
    MetricSpec("a2_fusion_speedup", "Fusion speedup of the chain", "1", "x"),
    MetricSpec("a2_unfused_s", "Chain time, one kernel per op", "s", "us"),
    MetricSpec("a2_fused_s", "Chain time, fused", "s", "us"),
    MetricSpec("a2_bytes_saved", "Memory traffic saved per chain", "B", "B"),
)}

FAILURES = (
    FailureSpec("a1_launch_bound", "Launch-bound: the GPU idles more than it works", act=1, severity="warn"),
    FailureSpec("a2_no_payback", "Compiling never pays back in this deployment", act=2),
)
F = {f.name: f for f in FAILURES}


def act1_overridden(s: State) -> dict[str, str]:
    return {} if s["a1_mode"] != "graphs" else {
        "a1_cpu_s": f"Not used with a CUDA graph: the stream is launched once and each kernel in it costs about "
                    f"{fmt(C.CUDA_GRAPH_PER_KERNEL_S, 'us')}."}


def act1_instruments(s: State) -> list:
    st = act1_stream(s)
    parts = [metric_grid(
        M["a1_busy"].show(st.busy, tone(st.busy), "" if math.isclose(st.busy, act1_truth()) else
                          f"{fmt(act1_truth(), 'pct')} at the question's settings"),
        M["a1_time_s"].show(st.seconds),
        M["a1_idle_s"].show(st.idle_s, "warn" if st.idle_s > st.gpu_work_s else None),
        M["a1_rate"].show(1 / st.seconds),
        M["a1_kernels"].show(st.n_kernels),
        M["a1_gpu_s"].show(st.gpu_s),
    )]
    if st.busy < 0.5:
        parts.append(failure(F["a1_launch_bound"], launch_bound_text(st)))
    parts.append(act1_chart(s))
    parts.append(act1_sweep(s))
    return parts


def launch_bound_text(st: KernelStream) -> str:
    if st.synchronous:
        return (f"Every launch waits for its kernel, so each kernel costs {fmt(st.cpu_s, 'us')} of dispatch "
                f"plus {fmt(st.gpu_s, 'us')} of work. Drop the synchronisation and the dispatch overlaps "
                "the work.")
    return (f"Each kernel costs the CPU {fmt(st.cpu_s, 'us')} to dispatch and the GPU {fmt(st.gpu_s, 'us')} to "
            "run, so the GPU waits for every launch. Fewer, larger kernels (fusion) or one launch for the "
            "whole stream (a CUDA graph) bring the GPU back on top.")


def act1_chart(s: State):
    streams = {m: stream(s["a1_model"], s["a1_cpu_s"], m, s["a1_fast"]) for m in MODES}
    names = [("▶ " if m == s["a1_mode"] else "") + SHORT_MODES[m] for m in MODES]
    busy = [streams[m].gpu_work_s * S.ms_per_s for m in MODES]
    idle = [streams[m].idle_s * S.ms_per_s for m in MODES]
    figure = ch.figure([ch.bars("GPU busy", names, busy, "series1"), ch.bars("GPU idle", names, idle, "warn")],
                       x=ch.axis("", "category", tickangle=0), y=ch.axis("Milliseconds per inference"),
                       stacked=True)
    name = MODELS[s["a1_model"]][0]
    a, y = streams["async"], streams["sync"]
    summary = (f"{name}: asynchronous launches take {fmt(a.seconds, 's')} per inference with the GPU busy "
               f"{fmt(a.busy, 'pct')}; synchronising after every kernel takes {fmt(y.seconds, 's')} "
               f"({fmt(y.busy, 'pct')} busy); a CUDA graph takes {fmt(streams['graphs'].seconds, 's')}.")
    rows = [(MODES[m], fmt(streams[m].n_kernels, "int"), fmt(streams[m].seconds, "s"), fmt(streams[m].busy, "pct"))
            for m in MODES]
    return chart("a1_modes", "Where an inference's time goes, by launch mode", figure, summary,
                 table=(("Launch mode", "Kernels", "Time", "GPU busy"), rows))


def act1_sweep(s: State):
    """Busy share against dispatch time: flat while the kernels cover the dispatch, then t_gpu / t_cpu.
    A CUDA graph is the asynchronous curve at its own per-kernel cost, so its point sits on that curve."""
    model, fast, mode = s["a1_model"], s["a1_fast"], s["a1_mode"]
    curves = {"async": ("Asynchronous", "series1", "solid"), "sync": ("Synchronised", "series2", "dash")}
    if mode == "fused":
        curves["fused"] = ("Fused", "good", "dot")
    cpus, busy = busy_sweep(model, tuple(curves), fast)
    st = act1_stream(s)
    traces = [ch.line(name, [c * S.us_per_s for c in cpus], busy[m], color, dash=dash)
              for m, (name, color, dash) in curves.items()]
    traces.append(ch.point("Your setting", st.cpu_s * S.us_per_s, st.busy, "accent"))
    figure = ch.figure(traces, x=ch.axis("CPU dispatch per kernel (µs)"),
                       y=ch.axis("GPU busy", tickformat=".0%", range=[0, 1.05]))
    gpu = stream(model, S.cloud_cpu_s, "async", fast).gpu_s
    summary = (f"With {fmt(gpu, 'us')} kernels, asynchronous launches keep the GPU fully busy while the dispatch "
               f"is {fmt(gpu, 'us')} or less; beyond that the busy share is kernel ÷ dispatch.")
    rows = [(fmt(c, "us"), *(fmt(busy[m][i], "pct") for m in curves)) for i, c in enumerate(cpus) if i % 7 == 0]
    return chart("a1_sweep", "GPU busy share against dispatch time", figure, summary,
                 table=(("Dispatch", *(name for name, _, _ in curves.values())), rows))


def act1_math(s: State):
    st = act1_stream(s)
    return math_peek("The governing equations · Act I", (
        Equation(r"T_{\text{async}} = n\cdot\max(t_{\text{cpu}},\ t_{\text{gpu}})",
                 "Launches return at once: the CPU dispatches kernel *k*+1 while the GPU runs kernel *k*, so "
                 "the slower of the two sets the pace (steady state)."),
        Equation(r"T_{\text{sync}} = n\cdot(t_{\text{cpu}} + t_{\text{gpu}})",
                 "Only when every launch waits for its kernel do the two add up."),
        Equation(r"u = \frac{n\,t_{\text{gpu}}}{T},\qquad n' = n(1-f),\quad "
                 r"t'_{\text{gpu}} = \frac{t_{\text{gpu}}}{1-f}",
                 "Busy share; fusing a fraction *f* of the kernels away keeps the GPU work (conservatively)."),
    ), rows=(
        ("Kernels, *n*", fmt(st.n_kernels, "int")),
        ("Dispatch, *t*cpu", fmt(st.cpu_s, "us")),
        ("GPU per kernel, *t*gpu", fmt(st.gpu_s, "us")),
        ("Time, *T*", fmt(st.seconds, "s")),
        ("Busy share, *u*", fmt(st.busy, "pct")),
    ), sources=(
        cite("cuda_guide_async", "kernel launches are asynchronous with respect to the host"),
        C.REGISTRY["KERNEL_LAUNCH_CPU_LOW_S"].source,
        C.REGISTRY["CUDA_GRAPH_PER_KERNEL_S"].source,
    ))


ACT1 = Act(
    number=1, title="The Launch Tax", minutes="12–15 min",
    stakeholder_role="Inference Platform Lead",
    stakeholder=lambda: (
        f"Our keyword-spotting model answers {fmt(S.cloud_requests_per_s * S.day_s, 'num')} requests a day on A100s. "
        f"Profiling shows {fmt(MODELS['kws'][1], 'int')} kernels per inference, each about "
        f"{fmt(MODELS['kws'][2], 'us')} of GPU work, and about {fmt(S.cloud_cpu_s, 'us')} of CPU time in "
        "PyTorch and the driver to dispatch each one. The dashboard says the GPUs are far from busy, and "
        "finance asks whether faster GPUs would help. How busy are they, really?"),
    scenario=lambda: (
        "A framework in eager mode runs a model one operator at a time: for each, the CPU walks through "
        "Python, the dispatcher and the CUDA driver, then **launches** a kernel. A launch returns as soon as "
        "the kernel sits in the GPU's queue; the CPU moves on to the next operator while the GPU works. "
        "Only a synchronisation (reading a value back, `torch.cuda.synchronize()`) makes the CPU wait.",
        f"On the edge box, a Jetson Orin NX, the same service takes {fmt(S.edge_requests_per_s * S.hour_s, 'num')} "
        "requests an hour and its Arm cores "
        f"dispatch more slowly: this lab assumes {fmt(S.edge_cpu_s, 'us')} per kernel there (no published figure).",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_MODEL, A1_CPU, A1_MODE, A1_FAST),
    overridden=act1_overridden,
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Kernel launch timeline",
)

# ---- Act II · The compile break-even ------------------------------------------------

A2_OPS = Slider("a2_ops", "Elementwise kernels in the chain", unit="1", min=1, max=8, step=1, default=S.chain_ops,
                fmt="int", help=f"LayerNorm → Dropout → ReLU is {fmt(S.chain_ops, 'words')}; one is a lone "
                                "kernel with nothing to fuse.")
A2_COMPILE = Slider("a2_compile_s", "Compile time, per compilation", unit="s", min=5, max=300, step=5,
                    default=S.compile_s, fmt="s")
A2_EAGER = Slider("a2_eager", "Eager throughput (images/s)", unit="1/s", min=10, max=5000, step=1,
                  default=S.cloud_eager_rate, fmt="num", scale="log", sig_figs=3,
                  help="Cloud: the chapter's A100 figure. Edge: an assumed Orin NX figure (the spec's estimate).")
A2_COMPILED = Slider("a2_compiled", "Compiled throughput (images/s)", unit="1/s", min=10, max=5000, step=1,
                     default=S.cloud_compiled_rate, fmt="num", scale="log", sig_figs=3,
                     help="Cloud: the chapter's A100 figure with torch.compile. Edge: assumed, like the eager one.")
A2_COMPILES = Slider("a2_compiles", "Compilations paid", unit="1",
                     min=1, max=64, step=1, default=1, fmt="int",
                     help="Replicas × restarts × new input shapes: every process compiles for itself.")
A2_DURATION = Slider("a2_duration_s", "Time between recompilations", unit="s", min=3600,
                     max=365 * S.day_s, step=1, default=S.deployment_s, fmt="h", scale="log", sig_figs=3,
                     help="The traffic over this time is what the compilation must pay back from.")


def deployment_of(s: State) -> Deployment:
    return Deployment(s["a2_compile_s"], s["a2_eager"], s["a2_compiled"], s["a2_compiles"], s["a2_duration_s"],
                      REQUESTS_PER_S[s["context"]])


def act2_facts() -> dict[str, str]:
    saved = 1 / S.cloud_eager_rate - 1 / S.cloud_compiled_rate
    ops = S.chain_ops
    return {
        "saved": fmt(saved, "us"), "compile": fmt(S.compile_s, "s"), "breakeven": fmt(CLOUD.breakeven, "int"),
        "breakeven_time": fmt(CLOUD.breakeven_s, "s"), "traffic": fmt(S.cloud_requests_per_s * S.day_s, "num"),
        "replicas": fmt(S.replicas_example, "int"),
        "replicas_breakeven": fmt(S.replicas_example * CLOUD.breakeven, "int"),
        "bytes_un": fmt(kernels.elementwise_bytes(TENSOR_BYTES, ops, False), "B"),
        "bytes_f": fmt(kernels.elementwise_bytes(TENSOR_BYTES, ops, True), "B"),
        "t_un": fmt(chain_s(A100, ops, S.cloud_cpu_s, False), "us"),
        "t_f": fmt(chain_s(A100, ops, S.cloud_cpu_s, True), "us"),
        "g_un": fmt(chain_s(A100, ops, C.CUDA_GRAPH_PER_KERNEL_S, False), "us"),
        "g_f": fmt(chain_s(A100, ops, C.CUDA_GRAPH_PER_KERNEL_S, True), "us"),
        "speedup": fmt(chain_speedup(A100, ops, S.cloud_cpu_s), "x"),
        "ops": fmt(ops, "int"),
    }


ACT2_PREDICTION = Prediction(
    id="a2_predict", act=2,
    prompt=f"On the A100, ResNet-50 serves {fmt(S.cloud_eager_rate, 'num')} images/s in eager mode and "
           f"{fmt(S.cloud_compiled_rate, 'num')} images/s after torch.compile, which takes {fmt(S.compile_s, 's')} "
           "to compile. How many images must the service process before the compilation has paid for itself "
           "in GPU time?",
    quantity="images to break even",
    unit_fmt="int",
    options=(
        Range("A", "{range}: the faster model repays the compilation almost at once", None, 10_000, 3000,
              "Each image saves only {saved} of GPU time (1/R_eager − 1/R_compiled), so {compile} of "
              "compiling takes far more images to earn back than the faster rate suggests."),
        Range("B", "{range}: a short burst of traffic repays it", 10_000, 100_000, 40_000,
              "The right shape of reasoning with too large a saving: per image it is the difference of the "
              "two times, {saved}, not the difference of the rates."),
        Range("C", "{range}: it takes minutes of the service's traffic", 100_000, 1_000_000, 300_000,
              "{compile} ÷ {saved} per image = {breakeven} images; at {traffic} requests a day that is "
              "{breakeven_time} of traffic."),
        Range("D", "{range}: compiling is for long training runs", 1_000_000, None, 3_000_000,
              "The saving per image is small ({saved}), but so is one compilation: {breakeven} images "
              "repay it. Only many compilations (replicas, restarts, new shapes) push it past a million."),
    ),
    truth=act2_truth,
)

ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt=f"Fusing LayerNorm → Dropout → ReLU on a {fmt(S.tensor_rows, 'int')} × {fmt(S.tensor_cols, 'int')} "
           "FP16 activation into one kernel: what happens to its memory traffic and its time?",
    options=(
        Claim("A", "Neither changes much: the arithmetic is the same, so the time is the same.",
              "Elementwise ops do almost no arithmetic per byte: their time is launches and memory traffic, "
              "and fusion cuts both ({t_un} → {t_f})."),
        Claim("B", f"Both fall about {CHAIN_X}: one read and one write of the tensor instead of one of each per "
                   "op, and one launch instead of one per op.",
              "Traffic {bytes_un} → {bytes_f}; time {t_un} → {t_f} with eager launches and {g_un} → {g_f} "
              "in a CUDA graph: {speedup} either way, whether launches or bandwidth set the pace."),
        Claim("C", f"Traffic falls {CHAIN_X}, but the time barely moves: these ops are compute-bound.",
              "An elementwise op does a few FLOP per element it reads and writes, far below any GPU's "
              "ridge point: it is memory- or launch-bound, so {speedup} less traffic and launches is "
              "{speedup} less time."),
        Claim("D", f"Traffic falls {CHAIN_X} and the time about {fmt(S.upstream_fusion_x, 'x')}, because the "
                   "launches disappear as well.",
              "Launches and traffic both shrink by the chain length, no more: {t_un} → {t_f} is {speedup}. "
              "Removing launches is already in the count."),
    ),
    answer_letter="B",
)


def act2_instruments(s: State) -> list:
    d = deployment_of(s)
    parts = [metric_grid(
        M["a2_breakeven"].show(d.breakeven, None if d.pays_back else "danger",
                               "" if math.isclose(d.breakeven, act2_truth()) else
                               f"{fmt(act2_truth(), 'int')} at the question's A100 figures"),
        M["a2_breakeven_time_s"].show(d.breakeven_s, note=f"at {fmt(d.requests_per_s * S.day_s, 'num')} images a day"),
        M["a2_volume"].show(d.volume, "good" if d.pays_back else "danger"),
        M["a2_net_gpu_s"].show(d.net_gpu_s, "good" if d.pays_back else "danger"),
        M["a2_fusion_speedup"].show(fusion_speedup(s), note="the chain below"),
    )]
    if not d.pays_back:
        parts.append(failure(F["a2_no_payback"], no_payback_text(d)))
    parts.append(act2_chart(d))
    parts.extend(fusion_panel(s))
    return parts


def no_payback_text(d: Deployment) -> str:
    if d.compiled_rate <= d.eager_rate:
        return "The compiled model is no faster than the eager one, so no volume of traffic repays the compilation."
    return (f"The deployment serves {fmt(d.volume, 'int')} images before the next recompilation, but "
            f"{fmt(d.compiles, 'int')} × {fmt(d.compile_s, 's')} of compiling needs {fmt(d.breakeven, 'int')} to "
            f"pay back: compiling costs {fmt(-d.net_gpu_s, 's')} of GPU time more than it saves. Keep the "
            "process alive longer, compile once and share the artefact, or stay eager.")


def act2_chart(d: Deployment):
    xs, low, high = volume_sweep(d)
    eager = ch.line("Eager", xs, [d.gpu_s(x, False) for x in xs], "series2")
    compiled = ch.line("Compiled (compile time included)", xs, [d.gpu_s(x, True) for x in xs], "series1")
    shapes, notes = [], []
    for x, color, label in ((d.breakeven, "muted", "break-even"), (d.volume, "good" if d.pays_back else "danger",
                                                                     "deployment")):
        if math.isfinite(x):
            line, note = ch.vline(x, color, label)
            shapes.append(line)
            # on a log x axis Plotly places annotations in log10 units (shapes in data units)
            right = math.log(x / low) / math.log(high / low) > 2 / 3  # keep the label on a phone screen
            notes.append({**note, "x": math.log10(x), "yanchor": "top", "xanchor": "right" if right else "left",
                          "xshift": -3 if right else 3, "y": 0.98 if label == "deployment" else 0.88})
    ys = [y for t in (eager, compiled) for y in t["y"]]
    figure = ch.figure([eager, compiled], x=ch.axis("Images served", "log", **ch.decade_ticks(xs)),
                       y=ch.axis("GPU time (s)", "log", **ch.decade_ticks(ys)), shapes=shapes, annotations=notes)
    summary = (f"Compiling costs {fmt(d.compiles * d.compile_s, 's')} up front and saves "
               f"{fmt(1 / d.eager_rate - 1 / d.compiled_rate, 'us')} per image; the lines cross at "
               f"{fmt(d.breakeven, 'int')} images, and this deployment serves {fmt(d.volume, 'int')}.")
    rows = [(fmt(x, "int"), fmt(d.gpu_s(x, False), "s"), fmt(d.gpu_s(x, True), "s")) for x in xs[::10]]
    return chart("a2_breakeven", "GPU time to serve the traffic, eager against compiled", figure, summary,
                 table=(("Images", "Eager", "Compiled"), rows))


def fusion_speedup(s: State) -> float:
    """The chain's time with one kernel per op over its time fused, on the context's device."""
    return chain_speedup(DEVICES[s["context"]], int(s["a2_ops"]), DISPATCH_S[s["context"]])


def fusion_panel(s: State) -> list:
    device, ops, cpu = DEVICES[s["context"]], int(s["a2_ops"]), DISPATCH_S[s["context"]]
    un, fu = chain_s(device, ops, cpu, False), chain_s(device, ops, cpu, True)
    g_un, g_f = (chain_s(device, ops, C.CUDA_GRAPH_PER_KERNEL_S, f) for f in (False, True))
    saved = kernels.elementwise_bytes(TENSOR_BYTES, ops, False) - kernels.elementwise_bytes(TENSOR_BYTES, ops, True)
    memory_s = kernels.elementwise_bytes(TENSOR_BYTES, 1, True) / device.mem_bw
    bound = "bandwidth" if memory_s > cpu else "the launches"
    grid = metric_grid(
        M["a2_unfused_s"].show(un, note=f"{fmt(ops, 'int')} × max({fmt(cpu, 'us')}, {fmt(memory_s, 'us')})"),
        M["a2_fused_s"].show(fu, note=f"set by {bound}"),
        M["a2_bytes_saved"].show(saved),
    )
    names = ["Eager launches", "CUDA graph"]
    figure = ch.figure([ch.bars("One kernel per op", names, [un * S.us_per_s, g_un * S.us_per_s], "series2"),
                        ch.bars("Fused into one", names, [fu * S.us_per_s, g_f * S.us_per_s], "series1")],
                       x=ch.axis("", "category", tickangle=0), y=ch.axis("Microseconds per chain"))
    summary = (f"On the {device.name}, the {fmt(ops, 'int')}-kernel chain takes {fmt(un, 'us')} with eager "
               f"launches and {fmt(fu, 'us')} fused; in a CUDA graph {fmt(g_un, 'us')} and {fmt(g_f, 'us')}.")
    rows = [("Eager launches", fmt(un, "us"), fmt(fu, "us")), ("CUDA graph", fmt(g_un, "us"), fmt(g_f, "us"))]
    return [callout("info", f"Fusion panel · LayerNorm → Dropout → ReLU on the {device.name}",
                    prose(f"Each kernel reads the {fmt(TENSOR_BYTES, 'B')} activation and writes it back, and costs "
                          f"a launch: {fmt(cpu, 'us')} of dispatch, this context's default from Act I.")),
            grid,
            chart("a2_fusion", "Time of the elementwise chain, one kernel per op against fused", figure, summary,
                  table=(("Launches", "One kernel per op", "Fused"), rows)),
            gemm_note(device, cpu)]


def gemm_note(device: Device, cpu_s: float):
    n, t = S.gemm_dim, gemm_s(device)
    return callout("info", "Nothing to fuse in one large GEMM",
                   prose(f"A {fmt(n, 'int')}³ FP16 matrix multiply does about {fmt(n / 3, 'int')} FLOP per byte, "
                         f"above the {device.name}'s ridge point of {fmt(device.ridge, 'int')}: it runs at the compute "
                         f"roof for {fmt(t, 's')}. Its one launch ({fmt(cpu_s, 'us')}) is "
                         f"{fmt(cpu_s / t, 'pct')} of that, so fusing or compiling it gains almost nothing."))


def act2_math(s: State):
    d = deployment_of(s)
    device = DEVICES[s["context"]]
    return math_peek("The governing equations · Act II", (
        Equation(r"T_{\text{unfused}} = n\cdot\max\!\left(t_{\text{cpu}},\ \frac{2S}{B}\right),\qquad "
                 r"T_{\text{fused}} = \max\!\left(t_{\text{cpu}},\ \frac{2S}{B}\right)",
                 "Each elementwise kernel reads and writes the *S*-byte tensor at bandwidth *B*; fusion keeps "
                 "one kernel, so the speedup is the chain length *n* in either regime."),
        Equation(r"N^{*} = \frac{k\,t_{c}}{1/R_{e} - 1/R_{c}}",
                 "Break-even images: *k* compilations of *t*c seconds against the GPU time each image saves."),
    ), rows=(
        ("Tensor, *S*", fmt(TENSOR_BYTES, "B")),
        ("Bandwidth, *B*", fmt(device.mem_bw, "GB/s")),
        ("Compilations, *k*", fmt(d.compiles, "int")),
        ("Saved per image", fmt(1 / d.eager_rate - 1 / d.compiled_rate, "us")),
        ("Break-even, *N\\**", fmt(d.breakeven, "int")),
    ), sources=(
        cite("ansel2024", "torch.compile: TorchDynamo and TorchInductor fuse elementwise chains"),
        cite("williams2009", "memory-bound kernels run at bandwidth × intensity"),
        C.REGISTRY["A100_HBM_BW"].source,
        C.REGISTRY["ORIN_NX_MEM_BW"].source,
    ))


ACT2 = Act(
    number=2, title="The Compile Break-Even", minutes="15–20 min",
    stakeholder_role="ML Platform Engineer",
    stakeholder=lambda: (
        f"torch.compile took ResNet-50 from {fmt(S.cloud_eager_rate, 'num')} to "
        f"{fmt(S.cloud_compiled_rate, 'num')} images/s on our A100s, but each compilation takes "
        f"{fmt(S.compile_s, 's')}. We redeploy often, run several replicas, and the edge team wants the same "
        "flag on boxes that see a few requests an hour. When is compiling worth it?"),
    scenario=lambda: (
        "A compiler such as torch.compile captures the model as a graph and **fuses** chains of operators into "
        "single kernels: fewer launches, and intermediate tensors that stay on chip instead of going back to "
        "memory. The price is paid at start-up, in every process that runs the model: each replica, each "
        "restart, each new input shape.",
        f"On the edge box the same model is assumed to serve {fmt(S.edge_eager_rate, 'num')} images/s eagerly and "
        f"{fmt(S.edge_compiled_rate, 'num')} compiled. At low traffic the GPU sits idle between requests either "
        "way: compiling buys latency per image and GPU time, not throughput anyone needs.",
    ),
    prediction=ACT2_PREDICTION,
    controls=(A2_OPS, A2_COMPILE, A2_EAGER, A2_COMPILED, A2_COMPILES, A2_DURATION),
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="Compile break-even and fusion panel",
)

# ---- the whole lab --------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    active = {"a1_launch_bound": act1_stream(s).busy < 0.5, "a2_no_payback": not deployment_of(s).pays_back}
    return frozenset(name for name, on in active.items() if on)


def results(s: State) -> dict[str, float | bool]:
    d = deployment_of(s)
    return {"util": act1_stream(s).busy, "fusion_speedup": fusion_speedup(s), "breakeven": d.breakeven,
            "roi_positive": d.pays_back}


def lab_takeaways() -> list[str]:
    facts, f2 = act1_facts(), act2_facts()
    sync = stream("kws", S.cloud_cpu_s, "sync", False)
    return [
        f"CUDA launches are asynchronous: each kernel costs max(dispatch, work). {facts['gpu']} kernels behind "
        f"{facts['cpu']} dispatches keep the GPU busy {facts['busy']} of the time; {fmt(sync.busy, 'pct')} holds "
        "only if every launch synchronises.",
        f"When the dispatch is longer than the kernel, a faster GPU buys nothing: the inference stays at "
        f"{facts['fast_time']} and the GPU's busy share drops to {facts['fast_busy']}.",
        f"Fusing {f2['ops']} elementwise kernels cuts launches and memory traffic {f2['speedup']}: "
        f"{f2['bytes_un']} → {f2['bytes_f']}, {f2['t_un']} → {f2['t_f']} on the A100.",
        f"Compiling ResNet-50 pays back after {f2['breakeven']} images ({f2['breakeven_time']} of cloud traffic); "
        f"{f2['replicas']} replicas need {f2['replicas_breakeven']}. On the edge box it takes "
        f"{fmt(EDGE.breakeven, 'int')} images, {fmt(EDGE.breakeven_s, 's')} of its traffic.",
    ]


LAB = Lab(
    id="v1_07", volume=1, number=7, title="The Kernel Fusion Dividend",
    invariant="Every kernel costs a **launch** and a trip to memory; fusion and compilation remove both, "
              "but a compilation pays back only above a **break-even volume**.",
    minutes="30–35 min", chapter="AI Frameworks", url="vol1/07-kernel-fusion/",
    reading=(
        "**Eager execution and graphs**: how a framework turns operators into kernel launches.",
        "**Kernel fusion**: why elementwise chains are memory- and launch-bound.",
        "**Compilation**: torch.compile, its start-up cost, and when it pays.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "**V1-05 The Activation Tax**: elementwise activations are memory-bound, "
        "whatever the function.",
        "**V1-06 The Quadratic Wall**: depth against width when each layer pays a launch.",
        "**V1-08 The Training Memory Budget**: what training adds to the memory "
        "each kernel touches.",
    ),
    presets={"context": {
        "cloud": {"a1_cpu_s": S.cloud_cpu_s, "a2_eager": S.cloud_eager_rate, "a2_compiled": S.cloud_compiled_rate},
        "edge": {"a1_cpu_s": S.edge_cpu_s, "a2_eager": S.edge_eager_rate, "a2_compiled": S.edge_compiled_rate},
    }},
    context_from=TRACK,
    record_metrics=(
        MetricSpec("util", "GPU busy share (Act I)", "1", "pct"),
        MetricSpec("fusion_speedup", "Fusion speedup of the chain", "1", "x"),
        MetricSpec("breakeven", "Images to break even on compiling", "images", "int"),
        MetricSpec("roi_positive", "Compiling pays back in the deployment", "1", "yesno"),
    ),
)
