"""Lab V2-07 · The Checkpoint Reckoning.

Core invariant: a synchronous job fails whenever any GPU fails, so its MTBF is the per-GPU MTBF
over the GPU count. The least wasteful interval balances each checkpoint's stall against the
rework after a failure, T* = √(2δM) (Young); every failure also costs the restart.

Act I: a 70B job on 1,024 GPUs fails every 8 h, stalls 4 min per checkpoint and checkpoints
every 30 min; the optimum is about an hour (Young 62 min, Daly 59 min) and falls as 1/√N.
Act II: 1T parameters on 16,384 H100s at the Llama 3 run's per-GPU reliability fail every ~3 h;
a 14 TB checkpoint through 400 GB/s takes 35 s. Of four plans (synchronous every 5 or 30 min,
asynchronous every 10 min or hourly) only asynchronous every 10 min keeps the 90 % goodput Llama 3
reported, with either restart. Reflection: a shorter restart lifts every plan by the same R/M.

Corrected from upstream (handbook/labs/v2_07.md §5): 200 h per GPU over 16,384 GPUs is 44 s, not
44 min (we use the Llama 3 run's 50,677 h; default 50,000 h); 14 B per parameter make 14 TB, not
2 TB; restart R is its own term; asynchronous checkpoints lose the write time as lag per failure
and cannot come more often than they are written (T ≥ C_w).

Departures from the spec:
- "Even the Young–Daly synchronous optimum fails" holds only for the 10-min restart: with warm
  spares (2 min) it reaches 91.0 % goodput. The takeaways name the restart each claim is about.
- The spec's Act II options (synchronous every 5, 10 and 60 min, asynchronous at the write time)
  let "the odd one out" find the key, and with warm spares two pass. Now two synchronous and two
  asynchronous plans, exactly one passing with either restart; the team's synchronous 30 min fails.
- The run's time lost is C·W/(1 − W), not W·C: W is a share of the wall clock, C/(1 − W) long.

Choices: waste is the spec's first-order W = δ/T + (T/2 + L + R)/M, whose exact minimiser is
Young's √(2δM) (Daly's higher-order interval is shown beside it); W is capped at 1 where the
first-order model breaks down, and the cards say so. The context is the restart path (cold
requeue or warm spares, both [assumed]): it moves R in both acts, and every question's feedback
is computed with the restart of the context locked in.

Ledger: context, controls (a2_mode is the mode), both predictions and reflections, and results cluster_gpus,
cluster_mtbf_h, ckpt_bytes, write_s, stall_s, interval_s, optimal_interval_s, waste_frac, goodput,
async_mode, constraint_hit (goodput below 90 %), a1_optimal_interval_s, a1_waste_frac.
"""

from __future__ import annotations

import math

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option, Pick,
                              Prediction, Range, Reflection, Slider, State, chart, failure, fmt, math_peek,
                              metric_grid)
from pylabs.framework import charts as ch
from pylabs.framework.formats import shrinks
from pylabs.labs.vol2.v2_07_model import (A1_GPU_MTBF_S, GOODPUT_TARGET, HOUR, LLAMA3_GPU_MTBF_S, MINUTE, PLANS,
                                          RESTART_S, STATE_BYTES_PER_PARAM, TERMS, UPSTREAM_MTBF_S, Cluster, Interval,
                                          S, act1_truth, act2_answer, act2_setting, cluster, compute_s, plan_name, stall_budget_s,
                                          overlapping, team, time_lost_s)
from pylabs.physics import constants as C
from pylabs.physics import reliability as rel
from pylabs.physics.references import cite

# ---- context ----------------------------------------------------------------------

CONTEXT = Choice("context", "Restart path after a failure", (
    Option("cold", "Cold restart: requeue the job and reload the checkpoint from storage"),
    Option("warm", "Warm spares: swap in a standby node and reload from the other GPUs' memory"),
), default="cold", help=f"Sets the restart time R in both acts: {fmt(S.cold_restart_s, 's')} cold, "
                        f"{fmt(S.warm_restart_s, 's')} with warm spares [assumed values].")


def terms(context: str) -> dict[str, str]:
    return {"restart": fmt(RESTART_S[context], "s")}


# ---- Act I · The interval ---------------------------------------------------------

A1_INTERVAL = Slider("a1_interval", "Checkpoint interval, T", unit="s", min=300, max=14400, step=60,
                     default=S.a1_interval_s, fmt="s")
A1_STALL = Slider("a1_stall", "Checkpoint stall, δ", unit="s", min=30, max=1200, step=30,
                  default=S.a1_stall_s, fmt="s")
A1_GPUS = Slider("a1_gpus", "GPUs in the job, N", unit="GPUs", min=128, max=16384, step=1,
                 default=S.a1_gpus, fmt="int", scale="log2",
                 help=f"Each GPU keeps the team's reliability ({fmt(A1_GPU_MTBF_S, 'h')} between "
                      "failures); the job fails when any one of them does.")
A1_RESTART = Slider("a1_restart", "Restart time, R", unit="s", min=60, max=1800, step=60,
                    default=S.cold_restart_s, fmt="s")


def act1_interval(s: State) -> Interval:
    mtbf = rel.cluster_mtbf_s(A1_GPU_MTBF_S, s["a1_gpus"])
    return Interval(s["a1_interval"], s["a1_stall"], mtbf, s["a1_restart"])


SCALE_UP, ROOT_SCALE_UP = S.a1_scale_up, math.sqrt(S.a1_scale_up)


def act1_facts(context: str) -> dict[str, str]:
    job = team(context)
    best = job.at(job.young_s)
    scaled = Interval(job.interval_s, job.stall_s, job.mtbf_s / SCALE_UP, job.restart_s)
    return {
        "a1_cluster_mtbf": fmt(job.mtbf_s, "s"), "stall": fmt(job.stall_s, "s"), "restart": fmt(job.restart_s, "s"),
        "stall_share": fmt(job.stall_s / job.interval_s, "pct"), "team_interval": fmt(job.interval_s, "s"),
        "rework": fmt(job.interval_s / 2, "s"), "rework_share": fmt(job.interval_s / 2 / job.mtbf_s, "pct"),
        "a1_optimal_interval": fmt(job.young_s, "s"), "daly": fmt(job.daly_s, "s"),
        "a1_waste": fmt(job.waste, "pct"), "a1_waste_at_optimum": fmt(best.waste, "pct"),
        "restart_share": fmt(job.restart_s / job.mtbf_s, "pct"),
        "short": fmt(ACT1_PREDICTION.option("A").guess, "s"),
        "short_stalls": fmt(job.stall_s / ACT1_PREDICTION.option("A").guess, "pct"),
        "short_loss": fmt(job.at(ACT1_PREDICTION.option("A").guess).waste, "pct"),
        "near": fmt(ACT1_PREDICTION.option("C").guess, "s"),
        "near_loss": fmt(job.at(ACT1_PREDICTION.option("C").guess).waste, "pct"),
        "scale_up": fmt(SCALE_UP, "x"), "gpus_scaled": fmt(SCALE_UP * S.a1_gpus, "int"),
        "mtbf_scaled": fmt(scaled.mtbf_s, "s"), "young_scaled": fmt(scaled.young_s, "s"),
        "root_share": fmt(1 / ROOT_SCALE_UP, "fraction"), "scale_share": fmt(1 / SCALE_UP, "fraction"),
        "restart_share_scaled": fmt(job.restart_s / scaled.mtbf_s, "pct"),
    }


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"The team checkpoints every {fmt(S.a1_interval_s, 's')}. Which interval loses the least time to "
           "checkpoint stalls, rework and restarts?",
    quantity="the interval that wastes least",
    unit_fmt="s",
    options=(
        Range("A", "{range}: more often, since every failure destroys too much work", None, 1200, 600,
              "At {short} the stalls alone take {short_stalls} of the time, while a failure comes only every "
              "{a1_cluster_mtbf}: {short_loss} lost in all, against {a1_waste_at_optimum} at the optimum."),
        Range("B", "{range}: about where it is; the two costs are already level", 1200, 2400, 1800,
              "Every {team_interval} the job stalls {stall}, {stall_share} of its time, while rework costs "
              "{rework_share}: the stalls are the larger cost. {a1_waste} lost, against {a1_waste_at_optimum} "
              "at the optimum."),
        Range("C", "{range}: somewhat less often; the stalls cost a bit too much", 2400, 3300, 2700,
              "Closer, but the two costs still differ at {near}: {near_loss} lost. The stall term δ/T and the "
              "rework term T/2M meet at √(2δM) = {a1_optimal_interval}."),
        Range("D", "{range}: much less often; each stall buys too little safety", 3300, None, 7200,
              "The stall term δ/T falls and the rework term T/2M rises; they meet at √(2δM) = "
              "{a1_optimal_interval}, where {a1_waste_at_optimum} is lost against {a1_waste} today. Daly's "
              "higher-order estimate is {daly}."),
    ),
    truth=act1_truth,
    shown_by="a1_optimal_interval",
)

ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt=f"The same job moves to {fmt(SCALE_UP, 'x')} as many GPUs, each as reliable as before, with the same "
           "checkpoint stall. What happens to the best interval?",
    options=(
        Claim("A", f"It {shrinks(ROOT_SCALE_UP)}: the best interval follows the square root of M.",
              "M falls to {mtbf_scaled} at {gpus_scaled} GPUs, and T* = √(2δM) to {young_scaled}: "
              "{root_share} of {a1_optimal_interval}."),
        Claim("B", f"It {shrinks(SCALE_UP)}: failures come {fmt(SCALE_UP, 'x')} as often, so checkpoints must too.",
              "Failures do come {scale_up} as often, but the optimum follows the square root of M: "
              "{young_scaled} at {gpus_scaled} GPUs against {a1_optimal_interval}, {root_share}, not {scale_share}."),
        Claim("C", "It stays the same: the stall per checkpoint has not changed.",
              "The stall is the same, the failure rate is not: T* = √(2δM) falls to {young_scaled}."),
        Claim("D", "It grows: restarts take more of the time, so checkpoint less.",
              "Restarts do take more of the time ({restart_share_scaled} against {restart_share}), but R/M is "
              "the same at every interval, so it does not move the optimum: T* falls to {young_scaled}."),
    ),
    answer_letter="A",
)

M = {m.name: m for m in (
    MetricSpec("a1_optimal_interval", "Best interval, T* = √(2δM)", "s", "s"),
    MetricSpec("a1_waste", "Time lost at your interval", "1", "pct"),
    MetricSpec("a1_waste_at_optimum", "Time lost at T*", "1", "pct"), MetricSpec("a1_cluster_mtbf", "Job MTBF, M", "s", "s"),
    MetricSpec("a2_goodput", "Goodput", "1", "pct"), MetricSpec("a2_waste", "Time lost", "1", "pct"),
    MetricSpec("a2_time_lost", "Added to the run by losses", "s", "s", infinite="all: the run never ends"),
    MetricSpec("a2_optimal_interval", "Best interval for this mode", "s", "s"),
    MetricSpec("a2_stall", "Training stall per checkpoint", "s", "s"),
    MetricSpec("a2_write", "Write to storage, C_w", "s", "s"), MetricSpec("a2_cluster_mtbf", "Job MTBF, M", "s", "s"),
    MetricSpec("a2_ckpt_bytes", "Checkpoint size", "B", "B"),
)}


FAILURES = (
    FailureSpec("a1_collapse", f"More than {fmt(S.collapse_waste, 'fraction')} of the cluster's time is lost", act=1,
                reach={"a1_interval": 300}, leave={"a1_interval": 14400}),
    FailureSpec("a2_below_target", "Goodput below the target", act=2,
                reach={}, leave={"a2_mode": "async", "a2_interval": 600}),
    FailureSpec("a2_writes_overlap", "Checkpoints overlap: the next starts before the last is on storage", act=2,
                reach={"a2_mode": "async", "a2_interval": 15}, leave={"a2_interval": 600}),
)
F = {f.name: f for f in FAILURES}
CAPPED = "the first-order model's limit: the job makes no progress"
ROUGH = "a rough first-order estimate: restarts and rework are not small against M"


def act1_instruments(s: State) -> list:
    job = act1_interval(s)
    best = job.at(job.young_s)
    parts = [metric_grid(
        M["a1_optimal_interval"].show(job.young_s, note=f"Daly's higher-order estimate: {fmt(job.daly_s, 's')}"),
        M["a1_waste"].show(job.waste, "danger" if job.waste >= S.collapse_waste else None,
                           CAPPED if job.waste >= 1 else f"{fmt(job.waste / best.waste, 'x')} the minimum"),
        M["a1_waste_at_optimum"].show(best.waste, note=CAPPED if best.waste >= 1 else ""),
        M["a1_cluster_mtbf"].show(job.mtbf_s, note=f"{fmt(A1_GPU_MTBF_S, 'h')} ÷ {fmt(s['a1_gpus'], 'int')}"),
    )]
    if job.waste >= S.collapse_waste:
        parts.append(failure(F["a1_collapse"], act1_collapse_text(s, job, best)))
    parts.append(act1_chart(job))
    return parts


def act1_collapse_text(s: State, job: Interval, best: Interval) -> str:
    said = (f"The job fails every {fmt(job.mtbf_s, 's')} and loses {fmt(job.waste, 'pct')} of its time to "
            "stalls, rework and restarts.")
    if best.waste < S.collapse_waste:
        return f"{said} An interval near T* = {fmt(job.young_s, 's')} brings it back to {fmt(best.waste, 'pct')}."
    levers = [text for control, text in ((A1_GPUS, "fewer GPUs"), (A1_STALL, "a shorter stall"),
                                         (A1_RESTART, "a faster restart")) if s[control.name] > control.min]
    fix = f"{' or '.join(levers)} can bring it back" if levers else "every other lever is at its limit"
    return f"{said} No interval alone can: even T* loses {fmt(best.waste, 'pct')}. {fix[0].upper() + fix[1:]}."


def act1_chart(job: Interval):
    grid = [A1_INTERVAL.min * (A1_INTERVAL.max / A1_INTERVAL.min) ** (k / 40) for k in range(41)]
    xs = [t / MINUTE for t in grid]
    total = [job.at(t).waste for t in grid]
    stalls = [min(1.0, job.stall_s / t) for t in grid]
    failures = [min(1.0, (t / 2 + job.restart_s) / job.mtbf_s) for t in grid]
    figure = ch.figure(
        [ch.line("Total", xs, total, "series1"),
         ch.line("Stalls δ/T", xs, stalls, "series2", dash="dash"),
         ch.line("Rework + restart", xs, failures, "series3", dash="dot"),
         {**ch.point("T*", job.young_s / MINUTE, job.at(job.young_s).waste, "good", "diamond", "T*"),
          "showlegend": False, "textposition": "bottom center"},
         {**ch.point("Yours", job.interval_s / MINUTE, job.waste, "accent", text="you"), "showlegend": False}],
        x=ch.axis("Checkpoint interval (min)", "log", tickvals=list(S.chart_ticks_min)),
        y=ch.axis("Time lost", rangemode="tozero", tickformat=".0%"))
    summary = (f"Stalls fall and rework rises with the interval; the total is lowest at "
               f"{fmt(job.young_s, 's')} ({fmt(job.at(job.young_s).waste, 'pct')} lost) and is "
               f"{fmt(job.waste, 'pct')} at your {fmt(job.interval_s, 's')}.")
    rows = [(fmt(grid[k], "s"), fmt(total[k], "pct"), fmt(stalls[k], "pct"), fmt(failures[k], "pct"))
            for k in range(0, 41, 5)]
    return chart("a1_waste_curve", "Time lost against checkpoint interval", figure, summary,
                 table=(("Interval", "Total", "Stalls", "Rework + restart"), rows))


def act1_math(s: State):
    job = act1_interval(s)
    return math_peek("The governing equations · Act I", (
        Equation(r"M = \frac{\text{MTBF}_{\text{GPU}}}{N}",
                 "Any one GPU failing stops a synchronous job, so failure rates add."),
        Equation(r"W(T) = \frac{\delta}{T} + \frac{T/2 + R}{M}",
                 "Per unit of time: a stall δ every interval *T*, and per failure half an interval of rework "
                 "plus the restart *R* (first order, valid while *T* and *R* are small against *M*)."),
        Equation(r"T_{\text{Y}} = \sqrt{2\,\delta\,M}",
                 "Young: set dW/dT = 0. It is the exact minimiser of this first-order W."),
        Equation(r"T_{\text{D}} = \sqrt{2\delta M}\left[1 + \tfrac{1}{3}\sqrt{\tfrac{\delta}{2M}} + "
                 r"\tfrac{1}{9}\,\tfrac{\delta}{2M}\right] - \delta",
                 "Daly: the higher-order optimum for exponential failures (for δ < 2M)."),
    ), rows=(
        ("Job MTBF, *M*", fmt(job.mtbf_s, "s")),
        ("Stall, *δ*", fmt(job.stall_s, "s")),
        ("Restart, *R*", fmt(job.restart_s, "s")),
        ("Young, *T_Y*", fmt(job.young_s, "s")),
        ("Daly, *T_D*", fmt(job.daly_s, "s")),
        ("*W* at your *T*", fmt(job.waste, "pct")),
    ), sources=(
        cite("young1974", "T = √(2δM)"),
        cite("daly2006", "higher-order optimum, eq. 37 (as LLNL SCR's scr_ckpt_interval.py computes it)"),
    ))


ACT1 = Act(
    number=1, title="The Interval", minutes="12–15 min",
    stakeholder_role="Training Lead",
    stakeholder=lambda context: (
        f"Our {fmt(S.a1_params, 'params')} job runs on {fmt(S.a1_gpus, 'int')} GPUs and the cluster fails about "
        f"every {fmt(S.a1_cluster_mtbf_s, 's')}. Each checkpoint stops training for {fmt(S.a1_stall_s, 's')}, and a "
        f"restart takes {fmt(RESTART_S[context], 's')}. We checkpoint every {fmt(S.a1_interval_s, 's')} to be safe. "
        "Is that the right interval?"),
    scenario=lambda: (
        "Checkpoints cost time twice. Each one **stalls** training while the state is written; each failure "
        "throws away the work done since the last one (**rework**) and then waits for the **restart**.",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_INTERVAL, A1_STALL, A1_GPUS, A1_RESTART),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Interval explorer",
)

# ---- Act II · Fleet scale ---------------------------------------------------------

def act2_facts(context: str) -> dict[str, str]:
    plans, base = PLANS[context], cluster(context)
    facts = {f"{name}_{k.lower()}": fmt(getattr(p, field), "pct") for k, p in plans.items()
             for name, field in (("waste", "waste_frac"), ("goodput", "goodput_frac"), ("stalls", "stall_frac"),
                                 ("rework", "rework_frac"), ("restart", "restart_frac"))}
    opt = plans["sync_opt"]
    sync_note = (f"With a restart of {fmt(base.restart_s, 's')} no synchronous interval reaches "
                 f"{fmt(GOODPUT_TARGET, 'pct')}: the best, every {fmt(opt.interval_s, 's')}, gives {fmt(opt.goodput_frac, 'pct')}."
                 if opt.goodput_frac < GOODPUT_TARGET else
                 f"With a restart of {fmt(base.restart_s, 's')} a synchronous plan can pass, but only near its optimum, "
                 f"every {fmt(opt.interval_s, 's')} ({fmt(opt.goodput_frac, 'pct')}).")
    gain = (S.cold_restart_s - S.warm_restart_s) / opt.mtbf_s
    return facts | {
        "a2_write": fmt(opt.write_s, "s"), "a2_ckpt_bytes": fmt(base.state_bytes, "B"),
        "a2_cluster_mtbf": fmt(opt.mtbf_s, "s"), "stall_async": fmt(plans["B"].stall_s, "s"),
        "restart": fmt(base.restart_s, "s"), "sync_note": sync_note,
        "five": fmt(plans["A"].interval_s, "s"), "half_c": fmt(plans["C"].interval_s / 2, "s"),
        "half_d": fmt(plans["D"].interval_s / 2, "s"), "lag_b": fmt(plans["B"].lag_frac, "pct"),
        "largest_b": max(TERMS, key=lambda t: getattr(plans["B"], TERMS[t])).lower(),
        "cold": fmt(S.cold_restart_s, "s"), "warm": fmt(S.warm_restart_s, "s"), "gain": fmt(gain, "pp"),
        "stall_budget": fmt(stall_budget_s(context), "s"), "dcp_staging": fmt(C.PYTORCH_DCP_ASYNC_STAGING_S, "s"),
        "dcp_gpus": fmt(C.PYTORCH_DCP_ASYNC_STAGING_GPUS, "int"),
        "restart_of_b": fmt(PLANS["cold"]["B"].restart_frac / PLANS["cold"]["B"].waste_frac, "pct"),
        "restart_of_c": fmt(PLANS["cold"]["C"].restart_frac / PLANS["cold"]["C"].waste_frac, "pct"),
    }


ACT2_PREDICTION = Pick(
    id="a2_predict", act=2,
    prompt=f"The run: {fmt(S.a2_params, 'params')} parameters on {fmt(S.a2_gpus, 'int')} H100s, "
           f"{fmt(S.gpu_mtbf_s, 'h')} between failures per GPU, a restart of {{restart}} after each failure and "
           f"{fmt(S.storage_bw, 'GB/s')} of storage. Which checkpoint plan keeps goodput at or above "
           f"{fmt(GOODPUT_TARGET, 'pct')}?",
    quantity="the plan that keeps goodput on target",
    options=(
        Claim("A", f"{plan_name('A')}: little work is lost when a failure strikes.",
              "Stalling {a2_write} every {five} costs {stalls_a} of the time on its own: {waste_a} lost, "
              "goodput {goodput_a}. {sync_note}"),
        Claim("B", f"{plan_name('B')}: tiny stalls, {fmt(HOUR / S.option_plans[1][1], 'num')} writes an hour.",
              "Each snapshot stops training for {stall_async} (the host copy alone, an idealisation); the write "
              "lands {a2_write} later, which adds {lag_b} of unsaved lag. {waste_b} lost, goodput {goodput_b}: on "
              "target, and it stays there with any stall up to {stall_budget} (PyTorch measured {dcp_staging} "
              "of staging on {dcp_gpus} GPUs). The largest loss left is the {largest_b}."),
        Claim("C", f"{plan_name('C')}: few stalls, and a modest bill for rework.",
              "Stalls cost {stalls_c} and {half_c} of rework per failure costs {rework_c}: {waste_c} lost, "
              "goodput {goodput_c}. {sync_note}"),
        Claim("D", f"{plan_name('D')}: hardly any stalls, and few writes to storage.",
              "The stalls vanish, but with a failure every {a2_cluster_mtbf}, {half_d} of rework per failure "
              "costs {rework_d}: {waste_d} lost, goodput {goodput_d}."),
    ),
    decide=act2_answer,
)

ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt=f"Cutting the restart from {fmt(S.cold_restart_s, 's')} to {fmt(S.warm_restart_s, 's')} (warm spares) "
           "raises the goodput of each of the four plans on the stakeholder's run. Which describes the gains?",
    options=(
        Claim("A", "Each gains the same share of its loss: restarts are part of every plan's loss.",
              "With a restart of {cold}, restarts are {restart_of_b} of what plan B loses and {restart_of_c} of what "
              "plan C loses, yet both gain the same {gain}: the same points, not the same share."),
        Claim("B", "The asynchronous plans gain more points: restarts are most of what they lose.",
              "Restarts are a larger share of what the asynchronous plans lose, but every plan gains the same "
              "{gain}: the restart term R/M holds neither T nor the stall."),
        Claim("C", "Each gains the same points: a failure costs one restart, whatever the plan.",
              "To first order the restart adds R/M to the waste, a term of its own: ({cold} − {warm}) ÷ "
              "{a2_cluster_mtbf} = {gain} for every plan. Which plans pass then depends only on where they started."),
        Claim("D", "The longest intervals gain more points: each failure costs them the most.",
              "A failure costs long intervals more rework, not more restart: failures come every "
              "{a2_cluster_mtbf} whatever the interval, so every plan gains the same {gain}."),
    ),
    answer_letter="C",
)

A2_MODE = Choice("a2_mode", "Checkpoint mode", (
    Option("sync", "Synchronous: training waits until the checkpoint is on storage"),
    Option("async", "Asynchronous: copy to host memory, write in the background"),
), default="sync")
A2_INTERVAL = Slider("a2_interval", "Checkpoint interval, T", unit="s", min=15, max=7200, step=15,
                     default=S.a2_interval_s, fmt="s",
                     help="Asynchronous checkpoints cannot come faster than storage writes them: a shorter "
                          "interval is raised to the write time.")
A2_STORAGE = Slider("a2_storage", "Storage write bandwidth", unit="B/s", min=100e9, max=2000e9, step=50e9,
                    default=S.storage_bw, fmt="GB/s")
A2_RESTART = Slider("a2_restart", "Restart time, R", unit="s", min=60, max=1800, step=60,
                    default=S.cold_restart_s, fmt="s")
A2_GPUS = Slider("a2_gpus", "GPUs in the job, N", unit="GPUs", min=1024, max=32768, step=1,
                 default=S.a2_gpus, fmt="int", scale="log2")
A2_GPU_MTBF = Slider("a2_gpu_mtbf", "Per-GPU MTBF", unit="s", min=1e4 * 3600, max=1e5 * 3600, step=5000 * 3600,
                     default=S.gpu_mtbf_s, fmt="h")


def act2_instruments(s: State) -> list:
    setting, plan = act2_setting(s)
    on_target = plan.goodput_frac >= GOODPUT_TARGET
    lost = time_lost_s(plan.waste_frac)
    parts = [metric_grid(
        M["a2_goodput"].show(plan.goodput_frac, "good" if on_target else "danger",
                             CAPPED if plan.waste_frac >= 1 else f"target {fmt(GOODPUT_TARGET, 'pct')}"),
        M["a2_waste"].show(plan.waste_frac, note="of the wall-clock time"),
        M["a2_time_lost"].show(lost, "danger" if math.isinf(lost) else None,
                               "the run never finishes" if math.isinf(lost) else
                               f"W/(1 − W) = {fmt(lost / compute_s(), 'pct')} of {fmt(compute_s(), 's')} of compute"
                               + (f"; {ROUGH}" if plan.waste_frac >= S.collapse_waste else "")),
        M["a2_optimal_interval"].show(plan.optimal_interval_s),
        M["a2_stall"].show(plan.stall_s, note=f"host copy alone at {fmt(S.d2h_bw, 'GB/s')} [assumed]"
                           if s["a2_mode"] == "async" else "the whole write"),
        M["a2_write"].show(plan.write_s),
        M["a2_cluster_mtbf"].show(plan.mtbf_s),
        M["a2_ckpt_bytes"].show(setting.state_bytes, note=f"{fmt(STATE_BYTES_PER_PARAM, 'num')} B per parameter"),
    )]
    if not on_target:
        parts.append(failure(F["a2_below_target"], below_target_text(s, plan, setting)))
    if overlapping(s, plan):
        more = " or add storage bandwidth" if s["a2_storage"] < A2_STORAGE.max else ""
        parts.append(failure(F["a2_writes_overlap"],
                             f"A checkpoint every {fmt(s['a2_interval'], 's')} cannot finish: each takes "
                             f"{fmt(plan.write_s, 's')} to write, so the job checkpoints every "
                             f"{fmt(plan.write_s, 's')} instead. Lengthen the interval{more}."))
    parts.append(act2_chart(setting, plan))
    return parts


def below_target_text(s: State, plan: rel.CheckpointCosts, setting: Cluster) -> str:
    largest, best = max(TERMS, key=lambda t: getattr(plan, TERMS[t])), setting.sync_optimum()
    shortest = plan.write_s if s["a2_mode"] == "async" else A2_INTERVAL.min
    levers = {
        "Stalls": "asynchronous snapshots" if s["a2_mode"] == "sync" else "a longer interval",
        "Rework": "a shorter interval" if plan.interval_s > shortest else "faster storage, so checkpoints can come sooner",
        "Unsaved lag": "faster storage" if s["a2_storage"] < A2_STORAGE.max else "fewer GPUs or more reliable ones",
        "Restart": "a faster restart path" if s["a2_restart"] > A2_RESTART.min else "fewer GPUs or more reliable ones",
    }
    return (f"Goodput is {fmt(plan.goodput_frac, 'pct')}, below the {fmt(GOODPUT_TARGET, 'pct')} the Llama 3 run "
            f"reported. The largest loss is {largest.lower()} ({fmt(getattr(plan, TERMS[largest]), 'pct')} of the "
            f"time); the lever for it is {levers[largest]}." + ("" if s["a2_mode"] == "async" or best.goodput_frac
            >= GOODPUT_TARGET else f" No synchronous interval reaches the target on this cluster: the best, every "
            f"{fmt(best.interval_s, 's')}, gives {fmt(best.goodput_frac, 'pct')}."))


def act2_chart(setting: Cluster, yours: rel.CheckpointCosts):
    options = setting.plans()
    plans = {**{plan_name(k).replace("Synchronous", "Sync").replace("Asynchronous", "Async"): options[k]
                for k in "ABCD"},
             "Sync at T*": options["sync_opt"], "Async every C_w": options["async_fast"], "▶ Yours": yours}
    names = list(plans)
    colours = dict(zip(TERMS, ("series2", "series1", "accent", "series3")))
    traces = [ch.bars(term, names, [getattr(p, field) for p in plans.values()], colours[term], horizontal=True)
              for term, field in TERMS.items()]
    limit = 1 - GOODPUT_TARGET
    traces.append(ch.line(f"Target ≤ {fmt(limit, 'pct')}", [limit, limit], [names[0], names[-1]], "ink", dash="dot"))
    figure = ch.figure(traces, x=ch.axis("Time lost", rangemode="tozero", tickformat=".0%"),
                       y=ch.axis("", "category", autorange="reversed"), stacked=True)
    summary = (f"On this cluster the synchronous optimum loses {fmt(options['sync_opt'].waste_frac, 'pct')}, "
               f"asynchronous checkpoints as often as storage allows {fmt(options['async_fast'].waste_frac, 'pct')}, "
               f"and your plan {fmt(yours.waste_frac, 'pct')}; the target allows {fmt(1 - GOODPUT_TARGET, 'pct')}.")
    rows = [(name, *(fmt(getattr(p, field), "pct") for field in TERMS.values()), fmt(p.waste_frac, "pct"))
            for name, p in plans.items()]
    return chart("a2_waste_breakdown", "Where the time goes, by plan", figure, summary,
                 table=(("Plan", *TERMS, "Total"), rows))


def act2_math(s: State):
    setting, plan = act2_setting(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"C_w = \frac{s\,P}{B_{\text{storage}}}",
                 f"The restartable state, *s* = {fmt(STATE_BYTES_PER_PARAM, 'num')} bytes per parameter (bf16 "
                 "weights, fp32 master weights, Adam's two moments; gradients are not saved), through the storage."),
        Equation(r"\delta_{\text{sync}} = C_w,\qquad \delta_{\text{async}} = \frac{s\,P}{N\,B_{\text{d2h}}}",
                 "Asynchronous: each GPU copies its shard to host memory, then training resumes. An idealisation: "
                 "the copy alone, at an assumed bandwidth, and a background write that costs training nothing. "
                 f"PyTorch measured {fmt(C.PYTORCH_DCP_ASYNC_STAGING_S, 's')} of blocking staging on "
                 f"{fmt(C.PYTORCH_DCP_ASYNC_STAGING_GPUS, 'int')} GPUs, and slower steps while the write ran."),
        Equation(r"W = \frac{\delta}{T} + \frac{T/2 + L + R}{M},\quad L = \begin{cases}0 & \text{sync}\\ "
                 r"C_w & \text{async}\end{cases}",
                 "Work done while a write is in flight is lost too when a failure strikes."),
        Equation(r"T^{*} = \sqrt{2\,\delta\,M}\ \text{(sync)},\qquad T^{*} = \max\!\left(C_w, \sqrt{2\,\delta\,M}\right)"
                 r"\ \text{(async)}", "An asynchronous checkpoint cannot start before the last one is written."),
        Equation(r"\text{time lost} = \frac{W}{1 - W}\,C_{\text{compute}}",
                 "*W* is a share of the wall clock, and the wall clock is the compute time over 1 − *W*."),
    ), rows=(
        ("State, *sP*", fmt(setting.state_bytes, "B")),
        ("Write, *C_w*", fmt(plan.write_s, "s")),
        ("Stall, *δ*" + (f" (host copy at *B_d2h* = {fmt(S.d2h_bw, 'GB/s')}, assumed)" if plan.lag_s else " = *C_w*"),
         fmt(plan.stall_s, "s")),
        ("Job MTBF, *M*", fmt(plan.mtbf_s, "s")),
        ("Interval used, *T*", fmt(plan.interval_s, "s")),
        ("Best interval, T*", fmt(plan.optimal_interval_s, "s")),
        ("Goodput, 1 − *W*", fmt(plan.goodput_frac, "pct")),
    ), sources=(
        cite("llama3_2024", "interruptions, effective training time, storage bandwidth and checkpoint sizes "
                            "of the 405B run, sec. 3.3"),
        cite("zero2020", "mixed-precision Adam state"),
        cite("young1974"),
        cite("pytorch_dcp_async", "asynchronous checkpoints stage to CPU memory, then write while training runs"),
        cite("pytorch_async_2025", "0.78 s of blocking staging on 1,856 GPUs; the background write slows training"),
        C.REGISTRY["PCIE5_X16_BW"].source,
    ))


ACT2 = Act(
    number=2, title="Fleet Scale", minutes="20–25 min",
    stakeholder_role="Infrastructure Lead",
    stakeholder=lambda context: (
        f"Next quarter we train {fmt(S.a2_params, 'params')} parameters on {fmt(S.a2_gpus, 'int')} H100s: about "
        f"{fmt(compute_s(), 'days')} of pure compute if we hold {fmt(S.mfu, 'pct')} MFU. We plan to checkpoint "
        f"synchronously every {fmt(S.a2_interval_s, 's')}; a restart takes {fmt(RESTART_S[context], 's')}. Meta "
        f"reported more than {fmt(GOODPUT_TARGET, 'pct')} effective training time on "
        f"{fmt(C.LLAMA3_405B_GPUS, 'int')} H100s; I want the same."),
    scenario=lambda: (
        f"An old planning sheet assumes {fmt(S.upstream_gpu_mtbf_s, 'h')} between failures per GPU and "
        f"says the cluster would fail every {fmt(UPSTREAM_MTBF_S, 'int')} min. Do the division: it is "
        f"{fmt(UPSTREAM_MTBF_S, 's')}, and no job could train. The Llama 3 run "
        f"had {fmt(C.LLAMA3_405B_UNEXPECTED_INTERRUPTIONS, 'int')} unexpected interruptions in "
        f"{fmt(C.LLAMA3_405B_SNAPSHOT_S, 'days')} on {fmt(C.LLAMA3_405B_GPUS, 'int')} GPUs: "
        f"{fmt(LLAMA3_GPU_MTBF_S, 'h')} per GPU.",
        f"A restartable checkpoint holds {fmt(STATE_BYTES_PER_PARAM, 'num')} bytes per parameter. A synchronous "
        "checkpoint stops training until all of it is on storage; an asynchronous one stops only while each GPU "
        "copies its shard to host memory, then writes in the background.",
    ),
    prediction=ACT2_PREDICTION,
    controls=(A2_MODE, A2_INTERVAL, A2_STORAGE, A2_RESTART, A2_GPUS, A2_GPU_MTBF),
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="Checkpoint planner",
)

# ---- the whole lab -------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    _, plan = act2_setting(s)
    active = {"a1_collapse": act1_interval(s).waste >= S.collapse_waste,
              "a2_below_target": plan.goodput_frac < GOODPUT_TARGET,
              "a2_writes_overlap": overlapping(s, plan)}
    return frozenset(name for name, on in active.items() if on)


def results(s: State) -> dict[str, float]:
    job, (setting, plan) = act1_interval(s), act2_setting(s)
    return {
        "a1_optimal_interval_s": job.young_s, "a1_waste_frac": job.waste,
        "cluster_gpus": float(setting.gpus), "cluster_mtbf_h": plan.mtbf_s / HOUR,
        "ckpt_bytes": setting.state_bytes, "write_s": plan.write_s, "stall_s": plan.stall_s,
        "interval_s": plan.interval_s, "optimal_interval_s": plan.optimal_interval_s, "waste_frac": plan.waste_frac,
        "goodput": plan.goodput_frac, "async_mode": 1.0 if s["a2_mode"] == "async" else 0.0,
        "constraint_hit": 1.0 if plan.goodput_frac < GOODPUT_TARGET else 0.0,
    }


RECORD_METRICS = (
    MetricSpec("a1_optimal_interval_s", "Best interval, T*", "s", "s"),
    MetricSpec("a1_waste_frac", "Time lost at the chosen interval", "1", "pct"),
    MetricSpec("cluster_gpus", "Act II GPUs in the job", "1", "int"), MetricSpec("ckpt_bytes", "Act II checkpoint size", "B", "B"),
    MetricSpec("cluster_mtbf_h", "Act II job MTBF (h)", "h", "num"), MetricSpec("goodput", "Act II goodput", "1", "pct"),
    MetricSpec("write_s", "Act II write to storage", "s", "s"), MetricSpec("stall_s", "Act II stall per checkpoint", "s", "s"),
    MetricSpec("interval_s", "Act II interval used", "s", "s"), MetricSpec("waste_frac", "Act II time lost", "1", "pct"),
    MetricSpec("optimal_interval_s", "Act II best interval for the mode", "s", "s"),
    MetricSpec("async_mode", "Act II asynchronous checkpoints", "1", "yesno"),
    MetricSpec("constraint_hit", "Act II goodput below the target", "1", "yesno"),
)


def lab_takeaways() -> list[str]:
    cold, warm = PLANS["cold"], PLANS["warm"]
    lost, old = time_lost_s(cold["C"].waste_frac), cold["C"].waste_frac * compute_s()
    return [
        "A synchronous job fails when any GPU fails: its MTBF is the per-GPU MTBF divided by the GPU count, "
        f"{fmt(cold['B'].mtbf_s, 's')} for {fmt(S.a2_gpus, 'int')} GPUs at {fmt(S.gpu_mtbf_s, 'h')} each.",
        "The interval that wastes least balances stalls against rework at √(2δM) (Young); Daly's higher-order "
        "estimate is a few per cent lower. It falls as 1/√N as the job grows, and the restart does not move it.",
        f"With a restart of {fmt(S.cold_restart_s, 's')} no synchronous interval reaches {fmt(GOODPUT_TARGET, 'pct')}: "
        f"the best loses {fmt(cold['sync_opt'].waste_frac, 'pct')}. Asynchronous snapshots stall only for the host "
        f"copy ({fmt(cold['B'].stall_s, 's')} in this idealised model); every {fmt(cold['B'].interval_s, 's')} they lose "
        f"{fmt(cold['B'].waste_frac, 'pct')}.",
        f"The restart is a term of its own: warm spares ({fmt(S.warm_restart_s, 's')}) lift every plan by the same "
        f"{fmt(cold['B'].waste_frac - warm['B'].waste_frac, 'pp')}, enough for the synchronous optimum to reach "
        f"{fmt(warm['sync_opt'].goodput_frac, 'pct')}.",
        f"Goodput is a share of the wall clock, which is the compute time over 1 − W: the team's plan loses "
        f"{fmt(lost, 's')} over the run, not the {fmt(old, 's')} that W × compute suggests.",
    ]


LAB = Lab(
    id="v2_07", volume=2, number=7, title="The Checkpoint Reckoning",
    invariant="A job's MTBF is the per-GPU MTBF **divided by the GPU count**; the best checkpoint interval "
              "**balances stalls against rework**, and the restart sets the floor.",
    minutes="35–40 min", chapter="Fault Tolerance", url="vol2/07-checkpoint-reckoning/",
    description="Why a training job's MTBF shrinks with every GPU, how often it should checkpoint, and what a "
                "fleet-scale run needs to keep its goodput.",
    reading=(
        "**Failure at scale**: why a synchronous job's MTBF shrinks with every GPU added.",
        "**Checkpointing**: what a restartable checkpoint holds, and synchronous against asynchronous writes.",
        "**The Young–Daly interval**: balancing checkpoint cost against rework.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "**V2-05 The Parallelism Paradox**: the model state sized there is what every checkpoint writes.",
        "**V2-04 The I/O Bottleneck**: the storage bandwidth that sets the write time.",
        "**V2-01 The Scale Illusion**: failures are one more reason a cluster's speedup falls short of its size.",
    ),
    presets={"context": {"cold": {"a1_restart": S.cold_restart_s, "a2_restart": S.cold_restart_s},
                         "warm": {"a1_restart": S.warm_restart_s, "a2_restart": S.warm_restart_s}}},
    record_metrics=RECORD_METRICS,
    terms=terms,
    hook=f"A team stops its {fmt(S.a1_gpus, 'int')}-GPU job for {fmt(S.a1_stall_s, 's')} every "
         f"{fmt(S.a1_interval_s, 's')} to save its state. Is that too often or too rarely? And next quarter, on "
         f"{fmt(S.a2_gpus, 'int')} GPUs that fail every few hours, can any plan keep {fmt(GOODPUT_TARGET, 'pct')} "
         "of the time for training?",
)
