"""Lab V2-01 · The Scale Illusion.

Core invariant: with a fixed global batch, N GPUs split each step's compute N ways but not its
gradient all-reduce, so speedup bends away from N and never passes T1/T_comm. What the fleet
costs depends on utilization (pay per hour or commit) and on price, horizon and capex (rent or own).

Act I: a Llama-3-70B-class run on 1,024 H100s; the CFO assumed linear scaling.
Act II: on-demand, reserved and on-prem cost of that fleet, the breakevens, a budget.

Ledger fields: context, predictions and reflections, final instrument settings, speedup,
efficiency and time to train, the three costs and breakevens, failure states reached.
"""

from __future__ import annotations

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option,
                              Prediction, Range, Reflection, Slider, State, callout, chart, failure,
                              fmt, math_peek, metric_grid, prose)
from pylabs.framework import charts as ch
from pylabs.framework.components import tone
from pylabs.framework.formats import listed, plural
from pylabs.labs.vol2.v2_01_model import (CONTEXT_FABRIC, CONTEXT_UTILIZATION, FABRICS, GPN, GPU_AXIS,
                                         GRAD_BYTES, HYPERSCALER_FLEET, LOAD_W, NODES, PLAN_S, PLANS,
                                         SCENARIO_FLEET, SINGLE_GPU_S, UTIL_AXIS, Fleet, Run, S,
                                         BUSY, LEVER_WORDS, act1_truth, act2_truth, comm_multiple_for,
                                         levers_alone, linear, own_vs_demand_text, own_vs_reserved_text,
                                         scenario_run, sequence_note, terms)
from pylabs.physics import constants as C
from pylabs.physics.references import cite


# ---- context ----------------------------------------------------------------------

CONTEXT = Choice("context", "Organisation", (
    Option("frontier", "Frontier lab: rail-optimised fabric, one long run keeps the fleet busy"),
    Option("startup", "Start-up: one 400G NIC per node, experiments come and go"),
), default="frontier", help="Sets Act I's fabric and Act II's utilization.")

# ---- Act I · The scale illusion -----------------------------------------------------


def fabric_label(key: str) -> str:
    name, nics, bw = FABRICS[key]
    return f"{name}: {fmt(nics * bw, 'GB/s')} per node"


A1_GPUS = Slider("a1_gpus", "H100 GPUs on the job", unit="GPUs", min=1, max=16384, step=1,
                 default=S.gpus, fmt="int", scale="log2", help=f"{GPN} GPUs per node, joined by NVLink.")
A1_BATCH = Slider("a1_batch", "Global batch per step", unit="tokens", min=65536, max=16777216,
                  step=1, default=S.global_batch_tokens, fmt="tokens", scale="log2",
                  help="Fixed while GPUs are added (strong scaling). Past the critical batch size, "
                       "bigger steps need more tokens to reach the same loss.")
A1_FABRIC = Choice("a1_fabric", "Network between nodes",
                   tuple(Option(k, fabric_label(k)) for k in FABRICS), default="ndr8", widget="select",
                   unit="B/s per node per direction")


def act1_feedback(low: float | None, high: float | None) -> str:
    """What a range needs of the step, then what the context's run shows (true in every context)."""
    times = {v: fmt(comm_multiple_for(v), "num") for v in (low, high) if v is not None}
    if low is None:
        need = f"Under {fmt(high, 'x')} the all-reduce would take more than {times[high]} times a step's compute."
    elif high is None:
        need = f"{fmt(low, 'x')} or more needs an all-reduce under {times[low]} times a step's compute."
    else:
        need = (f"{fmt(low, 'x')} to {fmt(high, 'x')} needs an all-reduce of {times[high]} to "
                f"{times[low]} times a step's compute.")
    return need + (" On {fabric_nodes}, each GPU computes for {compute} per step and the all-reduce takes "
                   "{allreduce}: the run reaches {a1_speedup}, and no GPU count passes {a1_ceiling}.")


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"The team keeps its global batch of {fmt(S.global_batch_tokens, 'tokens')} per step and runs on "
           f"{fmt(S.gpus, 'int')} H100s ({fmt(NODES, 'int')} nodes of {GPN} GPUs, {{fabric}} each). What "
           "speedup over one GPU will the run reach?",
    quantity=f"speedup on {fmt(S.gpus, 'int')} GPUs",
    unit_fmt="x",
    options=(
        Range("A", "{range}: the network swallows nearly everything", None, 100.0, 50.0, act1_feedback(None, 100.0)),
        Range("B", "{range}: communication takes most of every step", 100.0, 300.0, 200.0,
              act1_feedback(100.0, 300.0)),
        Range("C", "{range}: a good cluster still loses a third or more", 300.0, 700.0, 500.0,
              act1_feedback(300.0, 700.0)),
        Range("D", "{range}: close to the CFO's linear plan", 700.0, None, 1000.0, act1_feedback(700.0, None)),
    ),
    truth=lambda context: act1_truth(context),
    shown_by="a1_speedup",
)

ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="Why does the efficiency keep falling as the VP adds GPUs to the same run?",
    options=(
        Claim("A", "Each GPU added lengthens the ring, so the all-reduce grows in proportion to the GPU count.",
              "A ring all-reduce costs 2(N−1)/N of the bytes over the bandwidth, which is nearly flat in N: "
              "{ar_small} at {gpus_small} GPUs, {ar_big} at {gpus_big}."),
        Claim("B", "GPUs in a large cluster run their matrix multiplies at a lower MFU than on one node.",
              "In this model a GPU computes at the same {mfu} MFU on one node or a thousand, and Meta measured "
              "{mfu_meta} training Llama 3 405B on 16,384 H100s. The loss is the time a GPU spends idle, "
              "waiting for the all-reduce."),
        Claim("C", "Each GPU's slice of the fixed batch shrinks as 1/N; the gradient exchange barely changes.",
              "Each GPU computes for {c_small} per step at {gpus_small} GPUs and {c_big} at {gpus_big}, while "
              "the all-reduce stays near {ar_big}. A batch of {big_batch} per step gives **{big_eff}** "
              "efficiency on {gpus_big} GPUs instead of {eff}."),
        Claim("D", "A large fleet draws more power than the hall delivers, so every GPU throttles its clock.",
              "A hall is built for the fleet it powers, and in this model each GPU computes at the same rate in a "
              "fleet of any size. The lost time is the {ar_big} all-reduce beside {c_big} of compute per step."),
    ),
    answer_letter="C",
)

M = {m.name: m for m in (
    MetricSpec("a1_speedup", "Speedup over one GPU", "1", "x"),
    MetricSpec("a1_efficiency", "Scaling efficiency (speedup ÷ GPUs)", "1", "pct"),
    MetricSpec("a1_train_s", "Time to train", "s", "s"),
    MetricSpec("a1_vs_plan", "Against the CFO's plan", "1", "x"),
    MetricSpec("a1_tokens_per_gpu", "Tokens per GPU per step", "tokens", "tokens"),
    MetricSpec("a1_compute_s", "Compute per step", "s", "s"),
    MetricSpec("a1_allreduce_s", "Gradient all-reduce per step", "s", "s"),
    MetricSpec("a1_ceiling", "Speedup ceiling, T1 ÷ all-reduce", "1", "x"),
    MetricSpec("a2_on_demand_usd", "On-demand", "USD", "usd"),
    MetricSpec("a2_reserved_usd", "Reserved", "USD", "usd"),
    MetricSpec("a2_on_prem_usd", "On-prem (owned)", "USD", "usd"),
    MetricSpec("a2_plan_usd", "Your plan", "USD", "usd"),
    MetricSpec("a2_breakeven_reserved", "Breakeven utilization, reserved against on-demand", "1", "pct"),
    MetricSpec("a2_breakeven_on_prem", "Breakeven utilization, owning against on-demand", "1", "pct"),
    MetricSpec("a2_on_prem_per_hour", "On-prem cost per useful GPU-hour", "USD/h", "usd/h"),
)}

FAILURES = (
    FailureSpec("a1_schedule_blown", f"Schedule blown: the run takes more than {fmt(S.schedule_slack, 'x')} the plan",
                act=1),
    FailureSpec("a2_over_budget", "Over budget: your plan costs more than the board approved", act=2),
    FailureSpec("a2_never_pays_back", "Owning never pays back at this price", act=2),
)
F = {f.name: f for f in FAILURES}


def act1_state(s: State) -> tuple[Run, float]:
    return Run(s["a1_batch"], s["a1_fabric"]), s["a1_gpus"]


def act1_instruments(s: State) -> list:
    run, gpus = act1_state(s)
    speedup, train = run.speedup(gpus), run.train_s(gpus)
    efficiency, compute, comm = speedup / gpus, run.one_gpu_step_s / gpus, run.allreduce_s(gpus)
    late = train / PLAN_S
    parts = [metric_grid(
        M["a1_speedup"].show(speedup, note=f"ideal {linear(gpus)}"),
        M["a1_efficiency"].show(efficiency, tone(efficiency)),
        M["a1_train_s"].show(train, "danger" if late > S.schedule_slack else None,
                             f"plan {fmt(PLAN_S, 's')}"),
        M["a1_allreduce_s"].show(comm, "danger" if comm > compute else None),
        M["a1_ceiling"].show(run.ceiling()),  # in the strip: at one GPU the fabric moves only this card
        M["a1_compute_s"].show(compute),
        M["a1_vs_plan"].show(late, "danger" if late > S.schedule_slack else None),
        M["a1_tokens_per_gpu"].show(run.batch / gpus, note=sequence_note(run.batch / gpus)),
    )]
    if late > S.schedule_slack:
        parts.append(failure(F["a1_schedule_blown"], schedule_blown_text(run, gpus, compute, comm)))
    parts.append(act1_chart(run, gpus))
    return parts


def schedule_blown_text(run: Run, gpus: float, compute: float, comm: float) -> str:
    """Say what dominates the step, and offer only the levers not already at their limit."""
    late = f"The run needs {fmt(run.train_s(gpus), 's')} against the plan's {fmt(PLAN_S, 's')}. "
    if comm > compute:
        levers = (["raise the global batch per step"] if run.batch < A1_BATCH.max else [])
        if FABRICS[run.fabric][1] * FABRICS[run.fabric][2] < max(n * bw for _, n, bw in FABRICS.values()):
            levers.append("move to a faster network between nodes")
        fix = " " + (text := " or ".join(levers))[0].upper() + text[1:] + "." if levers else ""
        return late + (f"Each GPU computes for {fmt(compute, 's')} per step and then waits {fmt(comm, 's')} for "
                       "the all-reduce: the wait dominates, so more GPUs barely help." + fix)
    wait = ("one GPU has no all-reduce to wait for" if gpus <= 1 else
            f"the all-reduce takes {fmt(comm, 's')}, {fmt(comm / (compute + comm), 'pct')} of the step")
    return late + (f"Compute dominates: each step computes for {fmt(compute, 's')} and {wait}. "
                   f"{plural(gpus, 'GPU', count_fmt='int')} {'is' if gpus == 1 else 'are'} too few for a plan made for "
                   f"{fmt(S.gpus, 'int')}: add GPUs.")


def act1_chart(run: Run, gpus: float):
    physics = [run.speedup(n) for n in GPU_AXIS]
    ceiling = run.ceiling()
    shape, note = ch.hline(ceiling, "danger", f"ceiling {fmt(ceiling, 'x')}", log=True)
    # every fifth power of two (with the scenario's fleet) and the axis end: four labels that fit
    # unrotated on a 375 px phone, where eight rotated and dropped "16,384"
    ticks = sorted({*GPU_AXIS[::5], int(S.gpus), GPU_AXIS[-1]})
    labels = [fmt(t, "int") for t in ticks]
    figure = ch.figure(
        [ch.line("Linear (the CFO's plan)", GPU_AXIS, [float(n) for n in GPU_AXIS], "muted", dash="dot"),
         ch.line("Strong-scaling model (no overlap)", GPU_AXIS, physics, "series1", markers=True),
         ch.point("Your setting", gpus, run.speedup(gpus), "accent")],
        x=ch.axis("H100 GPUs", "log", tickvals=ticks, ticktext=labels, tickangle=0),
        y=ch.axis("Speedup over one GPU", "log", **ch.decade_ticks(GPU_AXIS, lambda v: fmt(v, "x"))),
        shapes=[shape], annotations=[note])  # one label style per decade: Plotly mixed "1000" and "10k"
    figure["layout"]["margin"].update(r=S.chart_right_px)
    summary = (f"At {fmt(run.batch, 'tokens')} per step the speedup reaches {fmt(run.speedup(gpus), 'x')} on "
               f"{plural(gpus, 'GPU', count_fmt='int')} against {linear(gpus)} for linear scaling, and never passes "
               f"{fmt(ceiling, 'x')} however many GPUs are added.")
    rows = [(fmt(n, "int"), linear(n), fmt(p, "x"), fmt(p / n, "pct")) for n, p in zip(GPU_AXIS, physics)]
    return chart("a1_speedup", "Speedup against GPU count", figure, summary,
                 table=(("GPUs", "Linear", "Model", "Efficiency"), rows))


def act1_facts(context: str) -> dict[str, str]:
    """Act I's feedback numbers on the organisation's fabric (each one a card's, at the scenario)."""
    small, run, big = S.small_fleet_gpus, scenario_run(context), scenario_run(context, S.big_batch_tokens)
    nodes = plural(NODES, "node", count_fmt="int")
    return {
        "fabric_nodes": f"{nodes} with {FABRICS[run.fabric][0]} each",
        "compute": fmt(run.one_gpu_step_s / S.gpus, "s"), "allreduce": fmt(run.allreduce_s(S.gpus), "s"),
        "a1_speedup": fmt(run.speedup(S.gpus), "x"), "a1_ceiling": fmt(run.ceiling(), "x"),
        "gpus_small": fmt(small, "int"), "gpus_big": fmt(S.gpus, "int"),
        "ar_small": fmt(run.allreduce_s(small), "s"), "ar_big": fmt(run.allreduce_s(S.gpus), "s"),
        "c_small": fmt(run.one_gpu_step_s / small, "s"), "c_big": fmt(run.one_gpu_step_s / S.gpus, "s"),
        "big_batch": fmt(S.big_batch_tokens, "tokens"), "big_eff": fmt(big.speedup(S.gpus) / S.gpus, "pct"),
        "eff": fmt(run.speedup(S.gpus) / S.gpus, "pct"), "mfu": fmt(S.mfu, "pct"),
        "mfu_meta": fmt(C.LLAMA3_405B_MFU_16K, "pct"),
    }


def act1_math(s: State):
    run, gpus = act1_state(s)
    _, nics, bw = FABRICS[run.fabric]
    return math_peek("The governing equations · Act I", (
        Equation(r"T_{\text{train}}(1) = \frac{6\,P\,D}{C_{\text{peak}}\,u}",
                 "One GPU: 6 FLOP per parameter per token over *D* training tokens, at utilisation *u*."),
        Equation(r"T_1 = \frac{6\,P\,G}{C_{\text{peak}}\,u},\qquad "
                 r"T_{\text{AR}} = 2\,\frac{g-1}{g}\cdot\frac{2P}{B_{\text{NVLink}}} + "
                 r"2\,\frac{n-1}{n}\cdot\frac{2P}{L\,B_{\text{NIC}}}",
                 "One step of the global batch *G* on one GPU, and the hierarchical all-reduce of 2-byte "
                 "gradients over *n* nodes of *g* GPUs with *L* NICs each. *P* cancels in their ratio."),
        Equation(r"S(N) = \frac{T_1}{T_1/N + T_{\text{AR}}(N)} \;<\; \frac{T_1}{T_{\text{AR}}}",
                 "Strong scaling with the global batch held fixed. The all-reduce here waits for the whole backward "
                 "pass; PyTorch DDP overlaps it with the backward pass, which can lift *S(N)* towards its bound, "
                 "never past it."),
    ), rows=(
        ("Training compute, *6PD*", fmt(C.LLAMA3_70B_TRAIN_FLOPS, "FLOP")),
        ("One H100, whole run", fmt(SINGLE_GPU_S, "s")),
        ("One-GPU step, *T₁*", fmt(run.one_gpu_step_s, "s")),
        ("Node egress, *L·B*", fmt(nics * bw, "GB/s")),
        ("All-reduce per step", fmt(run.allreduce_s(gpus), "s")),
        ("Speedup *S(N)*", fmt(run.speedup(gpus), "x")),
    ), sources=(
        C.REGISTRY["LLAMA3_70B_TRAIN_FLOPS"].source + ".",
        cite("kaplan2020", "C = 6ND"),
        cite("thakur2005"),
        cite("li2020_ddp", "gradient all-reduce overlapped with the backward pass"),
        cite("mccandlish2018", "the critical batch size"),
        C.REGISTRY["H100_PEAK_BF16_DENSE"].source + f"; the {fmt(S.mfu, 'pct')} MFU is this lab's assumption.",
        C.REGISTRY["LLAMA3_405B_MFU_16K"].source + ".",
        C.REGISTRY["DGX_H100_NICS"].source + ".",
    ))


ACT1 = Act(
    number=1, title="The Scale Illusion", minutes="12–15 min",
    stakeholder_role="VP Engineering",
    stakeholder=lambda: (
        f"We are training a Llama-3-70B-class model, a {fmt(C.LLAMA3_70B_TRAIN_FLOPS, 'FLOP')} run. On one H100 at an assumed {fmt(S.mfu, 'pct')} MFU it would take "
        f"{fmt(SINGLE_GPU_S, 's')}. We have {fmt(S.gpus, 'int')} H100s, so the CFO has booked "
        f"{fmt(PLAN_S, 's')} ({fmt(PLAN_S, 'years')}) for the run. Can I promise that date?"),
    scenario=lambda: (
        f"The CFO divided {fmt(SINGLE_GPU_S, 's')} by {fmt(S.gpus, 'int')}: that is **linear scaling**, which "
        "assumes the GPUs never wait for each other. In data-parallel training they do. Every step ends with "
        f"an all-reduce of the whole model's gradients, {fmt(GRAD_BYTES, 'GB')} in BF16, inside "
        "each node over NVLink and then between nodes through the NICs.",
        f"The team's global batch is {fmt(S.global_batch_tokens, 'tokens')} per step, the size that trained "
        "well on one node, and it stays fixed as GPUs are added.",
        f"Left out: the 70B model must be sharded to fit in {fmt(C.H100_HBM_BYTES, 'GB')}, and a step's "
        f"{fmt(S.global_batch_tokens / C.LLAMA3_SEQ, 'int')} sequences of {fmt(C.LLAMA3_SEQ, 'int')} tokens are fewer than the {fmt(S.gpus, 'int')} GPUs, so a real "
        "run splits each one over several GPUs. Both add traffic; splitting also shrinks each GPU's gradient exchange.",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_GPUS, A1_BATCH, A1_FABRIC),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Scale efficiency explorer",
)

# ---- Act II · The fleet bill ----------------------------------------------------------


A2_PLAN = Choice("a2_plan", "The plan you put to the board",
                 tuple(Option(k, v) for k, v in PLANS.items()), default="on_demand")
A2_SLIDERS = (  # each sets the ``Fleet`` field named after its "a2_" prefix
    Slider("a2_utilization", "Utilization", "1", 0.05, 1.0, 0.01, S.utilization, "pct",
           help="The busy share of wall-clock hours."),
    Slider("a2_price", "On-demand price per GPU-hour", "USD/h", 1.0, 8.0, 0.05, S.usd_per_gpu_hour, "usd/h",
           help="Assumption: a mid-market H100 price."),
    Slider("a2_discount", "Reserved discount", "1", 0.0, 0.6, 0.01, S.reserved_discount, "pct",
           help="Assumption: one-year terms, renewed at this price."),
    Slider("a2_years", "Planning horizon (years)", "year", 1, 6, 1, S.years, "int",
           help=f"Assumption: the budget scales with it, {fmt(S.budget_usd, 'usd')} per {fmt(S.years, 'int')} years."),
    Slider("a2_capex", "Purchase cost per GPU", "USD", 20_000, 100_000, 1_000, S.capex_per_gpu, "usd",
           help="Assumption: the GPU plus its share of server, NICs, switches and storage."),
    Slider("a2_load_w", "Power per GPU at load", "W", 700, 1600, 25, LOAD_W, "W",
           help=f"Default: 1/{GPN} of a DGX H100's {fmt(C.DGX_H100_SYSTEM_POWER_W, 'W')} maximum (datasheet)."),
    Slider("a2_idle_w", "Power per GPU when idle", "W", 0, 600, 25, S.idle_w, "W",
           help="Assumption: server and GPU at rest still draw power."),
    Slider("a2_pue", "Facility PUE", "1", 1.05, 1.8, 0.05, S.pue, "num", help="Assumption: facility power ÷ IT power."),
    Slider("a2_kwh", "Electricity price per kWh", "USD/kWh", 0.03, 0.25, 0.01, S.usd_per_kwh, "usd",
           help="Assumption."),
    Slider("a2_staff", "Operations staff per GPU-year", "USD", 0, 10_000, 250, S.staff_usd_per_gpu_year, "usd",
           help="Assumption."),
)
A2 = {c.name: c for c in A2_SLIDERS}


def fleet(s: State) -> Fleet:
    return Fleet(**{c.name[3:]: s[c.name] for c in A2_SLIDERS})


_D = fmt(S.reserved_discount, "pct")
_KEEP = fmt(1 - S.reserved_discount, "pct")

ACT2_PREDICTION = Prediction(
    id="a2_predict", act=2,
    prompt=f"Reserved capacity costs {_D} less per hour than on-demand, but every hour is paid for, busy or "
           "idle. Above what utilization does reserving cost less than paying on demand?",
    quantity="utilization where reserved and on-demand cost the same",
    unit_fmt="pct",
    options=(
        Range("A", "{range}: almost any steady use justifies committing", None, 0.3, 0.2,
              "Under 30 % busy, on-demand bills under 30 % of the hours at the full price, while a reservation "
              f"bills all of them at {_KEEP} of it: reserving costs more than twice as much there."),
        Range("B", "{range}: busy about a third of the time is enough", 0.3, 0.45, S.reserved_discount,
              f"The {_D} discount is not the breakeven. A reservation also pays for the idle hours, so at "
              f"{_D} busy it bills every hour at {_KEEP} of the price to use {_D} of them."),
        Range("C", "{range}: busy about half the time is enough", 0.45, 0.6, 0.5,
              f"Half-busy, a reservation pays for twice the hours you use; a {_D} discount does not cover that."),
        Range("D", "{range}: only a mostly busy fleet should commit", 0.6, None, 0.7,
              f"Reserved costs {_KEEP} of the list price for every hour; on-demand costs the full price for "
              "busy hours only. They tie when the busy share U equals 1 − D: **{a2_breakeven_reserved}**."),
    ),
    truth=act2_truth,
    shown_by="a2_breakeven_reserved",
)


def act2_facts(context: str) -> dict[str, str]:
    """Act II's feedback numbers at the organisation's utilization, beside the other's."""
    f = Fleet(utilization=CONTEXT_UTILIZATION[context])
    other = next(u for c, u in CONTEXT_UTILIZATION.items() if c != context)
    return {
        "fixed_share": fmt(f.on_prem(0.0) / f.on_prem(), "pct"), "energy_share": fmt(f.energy() / f.on_prem(), "pct"),
        "a2_on_prem_per_hour": fmt(f.per_useful_hour(), "usd/h"), "u_here": fmt(f.utilization, "pct"),
        "hour_other": fmt(f.per_useful_hour(other), "usd/h"), "u_other": fmt(other, "pct"),
        "pue": fmt(f.pue, "num"), "years": fmt(f.years, "int"),
        "a2_breakeven_reserved": fmt(f.breakeven_reserved(), "pct"),
    }


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt="On demand, a useful GPU-hour always costs the list price. Owned, it costs more the less busy the "
           "fleet is. Why?",
    options=(
        Claim("A", "Purchase, idle power and staff cost the same at any load, so fewer useful hours share them.",
              "The part that does not depend on use is {fixed_share} of the {years}-year on-prem bill at {u_here} "
              "busy. Spread over the useful hours only, the bill comes to {a2_on_prem_per_hour} per GPU at {u_here} "
              "busy and {hour_other} at {u_other}."),
        Claim("B", "Idle GPUs wear out faster than busy ones, so repair bills rise as utilization falls.",
              "Wear is not in the bill at all. Owned, a useful GPU-hour costs {a2_on_prem_per_hour} at {u_here} "
              "busy and {hour_other} at {u_other}, with the same hardware."),
        Claim("C", "Electricity dominates the owned fleet's bill, and idle GPUs waste most of the power they draw.",
              "All the electricity together is {energy_share} of the {years}-year on-prem bill at {u_here} busy; "
              "the purchase and staff dwarf it."),
        Claim("D", "A lightly loaded hall runs at a worse PUE, and that overhead raises each useful hour.",
              "PUE is one setting here, {pue} at any load, and all the electricity together is {energy_share} of "
              "the {years}-year on-prem bill at {u_here} busy, too small a part to explain the gap between "
              "{a2_on_prem_per_hour} at {u_here} and {hour_other} at {u_other}."),
    ),
    answer_letter="A",
)


def act2_instruments(s: State) -> list:
    f = fleet(s)
    plan_cost, budget = f.cost(s["a2_plan"]), f.budget()
    never = f.breakeven_on_prem() > 1
    cheapest, horizon = f.cheapest(), plural(f.years, "year", count_fmt="int")
    parts = [metric_grid(*cost_metrics(f, s["a2_plan"]),
                         M["a2_breakeven_reserved"].show(f.breakeven_reserved(), note="reserving wins above it"),
                         M["a2_breakeven_on_prem"].show(f.breakeven_on_prem(), "danger" if never else None,
                                                        "beyond full use: owning never wins" if never else
                                                        "owning wins above it"),
                         M["a2_on_prem_per_hour"].show(f.per_useful_hour(), note=f"on-demand {fmt(f.price, 'usd/h')}"))]
    parts.append(callout("info", f"Cheapest at these inputs: {PLANS[cheapest]}",
                         prose(f"{PLANS[cheapest]} costs **{fmt(f.cost(cheapest), 'usd')}** over "
                               f"{horizon} at {fmt(f.utilization, 'pct')} utilization; "
                               f"the budget is {fmt(budget, 'usd')}.")))
    if plan_cost > budget:
        parts.append(failure(F["a2_over_budget"],
                             f"{PLANS[s['a2_plan']]} costs {fmt(plan_cost, 'usd')} over "
                             f"{horizon} against a budget of {fmt(budget, 'usd')}. " + budget_way_out(s)))
    if never:
        parts.append(failure(F["a2_never_pays_back"],
                             f"Even busy every hour, the owned fleet costs {fmt(f.on_prem(1.0), 'usd')} against "
                             f"{fmt(f.on_demand(1.0), 'usd')} on demand over {horizon}. " + payback_levers(s)))
    parts.append(act2_chart(f, s["a2_plan"]))
    return parts


def single_levers(s: State, works) -> list[str]:
    """The settings that, each moved alone to the end of its slider, make ``works(fleet)`` true."""
    return levers_alone(fleet(s), {(n, e): getattr(A2[n], e) for n, e in LEVER_WORDS}, works)


def payback_levers(s: State) -> str:
    """The settings that alone make owning pay back within the horizon, or that none does."""
    levers = single_levers(s, lambda f: f.breakeven_on_prem() <= 1)
    if not levers:
        return "No single setting here, moved to the end of its slider, makes owning pay back."
    return f"Owning pays back with {listed(levers)}, any one alone."


def budget_way_out(s: State) -> str:
    """The other paths that fit the budget, then the settings that alone bring this plan within it."""
    plan, f = s["a2_plan"], fleet(s)
    others = [PLANS[k] for k in PLANS if k != plan and f.cost(k) <= f.budget()]
    levers = single_levers(s, lambda g: g.cost(plan) <= g.budget())
    text = (f"{listed(others)} {'fit' if len(others) > 1 else 'fits'} it." if others else
            "No path fits this budget at these inputs.")
    return text + (f" This plan fits with {listed(levers)}, any one alone." if levers else "")


def cost_metrics(f: Fleet, plan: str) -> list:
    cheapest = f.cheapest()
    tone = {k: "good" if k == cheapest else None for k in PLANS}
    over = f.cost(plan) > f.budget()
    return [M["a2_on_demand_usd"].show(f.on_demand(), tone["on_demand"]),
            M["a2_reserved_usd"].show(f.reserved(), tone["reserved"]),
            M["a2_on_prem_usd"].show(f.on_prem(), tone["on_prem"]),
            M["a2_plan_usd"].show(f.cost(plan), "danger" if over else "good", f"budget {fmt(f.budget(), 'usd')}")]


def act2_chart(f: Fleet, plan: str):
    top = 1.05 * max(f.on_demand(1.0), f.reserved(), f.on_prem(1.0), f.budget())
    marks = [(f.breakeven_reserved(), "series2", "Reserved = on-demand"),
             (f.breakeven_on_prem(), "series3", "Owning = on-demand"),
             (f.breakeven_own_vs_reserved(), "muted", "Owning = reserved")]
    lines = [ch.line(f"{label} at {fmt(x, 'pct')}", [x, x], [0, top], color, dash="dot")
             for x, color, label in marks if 0 <= x <= 1]
    figure = ch.figure(
        [ch.line("On-demand", UTIL_AXIS, [f.on_demand(u) for u in UTIL_AXIS], "series1"),
         ch.line("Reserved", UTIL_AXIS, [f.reserved()] * len(UTIL_AXIS), "series2"),
         ch.line("On-prem", UTIL_AXIS, [f.on_prem(u) for u in UTIL_AXIS], "series3"),
         ch.line(f"Budget {fmt(f.budget(), 'usd')}", [0, 1], [f.budget()] * 2, "danger", dash="dash"),
         *lines, ch.point("Your plan", f.utilization, f.cost(plan), "accent")],
        x=ch.axis("Utilization", tickformat=".0%", range=[-S.axis_pad, 1 + S.axis_pad], tickvals=UTIL_AXIS[::4]),
        y=ch.axis(f"{fmt(f.years, 'int')}-year cost", tickformat="$~s", range=[0, top]), height=S.tco_chart_px)
    # padding either side keeps "100 %" inside the plot and moves "0 %" clear of the "$0" tick
    figure["layout"]["margin"].update(r=S.chart_right_px)
    summary = (f"On-demand grows with utilization from zero to {fmt(f.on_demand(1.0), 'usd')}; reserved stays at "
               f"{fmt(f.reserved(), 'usd')}; on-prem moves only from {fmt(f.on_prem(0.0), 'usd')} to "
               f"{fmt(f.on_prem(1.0), 'usd')}. Reserved beats on-demand above {fmt(f.breakeven_reserved(), 'pct')}.")
    rows = [(fmt(u, "pct"), fmt(f.on_demand(u), "usd"), fmt(f.reserved(), "usd"), fmt(f.on_prem(u), "usd"))
            for u in UTIL_AXIS[::2]]
    return chart("a2_tco", "Cost over the horizon against utilization", figure, summary,
                 table=(("Utilization", "On-demand", "Reserved", "On-prem"), rows))


def act2_math(s: State):
    f = fleet(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"\text{OD} = G\,U\,H\,Y\,p,\qquad \text{RES} = G\,H\,Y\,p\,(1-D)",
                 "*G* GPUs, utilization *U*, *H* hours a year, *Y* years, on-demand price *p*, discount *D*."),
        Equation(r"\text{PREM} = G\,K + G\,H\,Y\,[W_0 + U(W_1 - W_0)]\,\text{PUE}\,c + G\,Y\,s",
                 "Purchase *K*, power idle *W₀* and at load *W₁*, electricity price *c*, staff *s* per GPU-year."),
        Equation(r"U^{*}_{\text{RES}} = 1 - D,\qquad "
                 r"U^{*}_{\text{PREM}} = \frac{K + H\,Y\,W_0\,\text{PUE}\,c + Y\,s}{H\,Y\,[p - (W_1-W_0)\,\text{PUE}\,c]}",
                 "Above each breakeven the committed path is cheaper than on-demand; a breakeven beyond full "
                 "utilization means never within the horizon."),
    ), rows=(
        ("Hours a year, *H*", fmt(C.HOURS_PER_YEAR, "int")),
        ("Reserved breakeven", fmt(f.breakeven_reserved(), "pct")),
        ("Owning beats on-demand", own_vs_demand_text(f.breakeven_on_prem())),
        ("Owning beats reserved", own_vs_reserved_text(f.breakeven_own_vs_reserved())),
    ), sources=(
        "Barroso, Hölzle and Ranganathan, *The Datacenter as a Computer* (3rd ed.), ch. 6: capital and "
        "operating costs, PUE.",
        C.REGISTRY["DGX_H100_SYSTEM_POWER_W"].source + f" (default power at load: 1/{GPN}, one GPU's share).",
        "Prices, discount, purchase cost, idle power, PUE, electricity and staff are stated assumptions of "
        "this lab, not quotes; move them to your own numbers.",
    ))


ACT2 = Act(
    number=2, title="The Fleet Bill", minutes="20–25 min",
    stakeholder_role="CFO",
    stakeholder=lambda context: (
        f"The board approved {fmt(S.budget_usd, 'usd')} for {fmt(S.years, 'int')} years of this "
        f"{fmt(S.gpus, 'int')}-GPU fleet, and {BUSY[context]} it busy "
        f"{fmt(CONTEXT_UTILIZATION[context], 'pct')} of the time. I can rent on "
        f"demand at {fmt(S.usd_per_gpu_hour, 'usd/h')} per GPU, reserve at {_D} off, or buy at "
        f"{fmt(S.capex_per_gpu, 'usd')} per GPU with servers and network. Which is cheapest, and what "
        "utilization do we need before buying pays off?"),
    scenario=lambda: (
        "**On-demand** bills only busy hours. **Reserved** bills every hour at a discount, busy or not. "
        "**On-prem** bills the purchase up front, then the power the fleet draws and the staff who run it.",
        "The defaults are **stated assumptions**, not quotes: the utilization above, "
        f"{fmt(S.usd_per_gpu_hour, 'usd/h')} on demand, {_D} reserved discount on renewed one-year terms, "
        f"{fmt(S.capex_per_gpu, 'usd')} per GPU including its share of servers and network, "
        f"{fmt(LOAD_W, 'W')} at load (1/{GPN} of a DGX H100's maximum) and {fmt(S.idle_w, 'W')} idle, PUE "
        f"{fmt(S.pue, 'num')}, ${S.usd_per_kwh:.2f} per kWh, {fmt(S.staff_usd_per_gpu_year, 'usd')} "
        "of staff per GPU-year. Every one of them is an instrument below.",
    ),
    prediction=ACT2_PREDICTION,
    controls=(A2_PLAN,) + A2_SLIDERS,
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="Fleet TCO calculator",
)

# ---- the whole lab -------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    run, gpus = act1_state(s)
    f = fleet(s)
    active = {"a1_schedule_blown": run.train_s(gpus) > S.schedule_slack * PLAN_S,
              "a2_over_budget": f.cost(s["a2_plan"]) > f.budget(),
              "a2_never_pays_back": f.breakeven_on_prem() > 1}
    return frozenset(name for name, on in active.items() if on)


def results(s: State) -> dict[str, float]:
    run, gpus = act1_state(s)
    f = fleet(s)
    return {"a1_speedup": run.speedup(gpus), "a1_efficiency": run.speedup(gpus) / gpus,
            "a1_train_s": run.train_s(gpus), "a2_on_demand_usd": f.on_demand(), "a2_reserved_usd": f.reserved(),
            "a2_on_prem_usd": f.on_prem(), "a2_plan_usd": f.cost(s["a2_plan"]),
            "a2_breakeven_reserved": f.breakeven_reserved(), "a2_breakeven_on_prem": f.breakeven_on_prem()}


def lab_takeaways(context: str) -> list[str]:
    run = scenario_run(context)
    truth, big = run.speedup(S.gpus), scenario_run(context, S.big_batch_tokens).speedup(S.gpus)
    f, hi = SCENARIO_FLEET, HYPERSCALER_FLEET
    horizon = plural(f.years, "year", count_fmt="int")
    return [
        f"Linear scaling is the illusion: one H100 needs {fmt(SINGLE_GPU_S, 's')} for the "
        f"{fmt(C.LLAMA3_70B_TRAIN_FLOPS, 'FLOP')} run, and dividing by {fmt(S.gpus, 'int')} GPUs gives the "
        f"CFO's {fmt(PLAN_S, 's')}.",
        f"With a fixed batch of {fmt(S.global_batch_tokens, 'tokens')}, {fmt(S.gpus, 'int')} GPUs on "
        f"{FABRICS[run.fabric][0]} per node reach "
        f"{fmt(truth, 'x')} ({fmt(truth / S.gpus, 'pct')} efficiency): compute splits N ways, the all-reduce does "
        f"not, and the speedup can never pass {fmt(run.ceiling(), 'x')}.",
        f"Tokens per GPU are the lever: {fmt(S.big_batch_tokens, 'tokens')} per step gives {fmt(big, 'x')} "
        f"({fmt(big / S.gpus, 'pct')}) on the same fleet, as long as the model still learns well at that batch.",
        f"Utilization decides pay-per-use against commitment: reserving at {_D} off beats on-demand only above "
        f"{fmt(f.breakeven_reserved(), 'pct')} busy.",
        f"Price, horizon and purchase cost decide renting against owning: at {fmt(f.price, 'usd/h')} owning "
        f"never beats on-demand within {horizon} (breakeven {fmt(f.breakeven_on_prem(), 'pct')}); "
        f"at {fmt(hi.price, 'usd/h')} it does above {fmt(hi.breakeven_on_prem(), 'pct')}.",
    ]


LAB = Lab(
    id="v2_01", volume=2, number=1, title="The Scale Illusion",
    invariant="With a fixed global batch, compute splits across **N** GPUs but the all-reduce does not, so "
              "speedup bends away from N; **utilization, price and horizon** decide what the fleet costs.",
    minutes="35–40 min", chapter="Introduction", url="vol2/01-scale-illusion/",
    description="Do a thousand GPUs train a thousand times faster, and should the company rent, reserve or own the "
                "fleet?",
    reading=(
        "**The scale moment**: why a frontier training run needs a fleet, not a faster GPU.",
        "**Strong and weak scaling**: Amdahl's law with communication as the serial part.",
        "**Total cost of ownership**: capital against operating cost, and why utilization matters.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "[**V2-02 The Interconnect Wall**](../02-interconnect-wall/): what the fabric inside and between nodes does to the all-reduce.",
        "[**V2-05 The Parallelism Paradox**](../05-parallelism-paradox/): tensor and pipeline parallelism for when data parallelism stops scaling.",
        "V2-08 The Utilization Trap (a later lab): what running a shared fleet near full utilization does to queueing delay.",
    ),
    terms=terms,
    hook=f"The CFO divided one H100's training time by {fmt(S.gpus, 'int')} and booked the date. Will "
         "the fleet keep it, and should the company rent that fleet or buy it?",
    presets={"context": {c: {"a1_fabric": CONTEXT_FABRIC[c], "a2_utilization": CONTEXT_UTILIZATION[c]}
                         for c in CONTEXT_FABRIC}},
)
