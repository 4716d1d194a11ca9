"""Lab V1-12 · The Speedup Ceiling.

Core invariant: the part of a job that does not split sets a ceiling on its speedup (1/s for a
serial share s, however many workers), and a benchmark ranks machines correctly only in the
regime (here: the batch size) that production runs in.

Act I (the ceiling): a 100 h job with 15 % serial work (rank 0 writes the checkpoint and runs the
evaluation while the other ranks wait) runs on 64 GPUs; the CTO expects 64×. Amdahl gives
6.12× (16.3 h). A toggle shows Gustafson's scaled job, whose 54.6× answers a different question:
his serial share is measured on the 64-GPU run, where this job's is 91.9 %.
Act II (the benchmark that ranks backwards): vendor A wins the synthetic benchmark (batch 32,
85 to 72), vendor B is 20 % faster in production (batch 1). Each accelerator's batch time is a
fixed cost plus a per-sample cost; the two throughput curves cross at batch 9.4, so any
benchmark batch on the other side of the crossover from production inverts the ranking.

Contexts: Cloud (64 H100s) and Edge (64 Jetson Orin NX boards): the device sets the words of the
story and the power, so the energy of the run; Amdahl's law and Act II's vendors are the same in
both, so every key is. Mobile and TinyML are explained on the page (track_notes).

Choices made where the spec leaves one, and departures (handbook/labs/v1_12.md §5):
- Vendor B's fixed and per-sample costs are fitted exactly to the two stated ratios (1.2× at batch 1,
  85:72 at batch 32), which gives the spec's 1.608 ms and 0.1416 ms after rounding and its crossover
  9.418. Those measurements are ratios: they fix B's costs only with A's, b* = 1 + 372(r + 1)/(25r + 428)
  for r = t0/t1 of A (review). The spec never states A's 2 ms + 0.1 ms per sample to the
  student; the prompt does, and the key (8 to 16) holds for every r ≥ 13.3 (b* tends to 15.9).
- Prediction ranges run from lowest (A) to highest (D); the spec's ran from highest to lowest.
- The Act I reflection asks which of four proposals finishes the job soonest (the instruments
  compare them), not which "raises the ceiling", which the equations panel states (1/s).
- The Act II reflection's key is a replay of production's arrivals: the act shows batch regimes,
  not tail latency, so the spec's "P99" is left to V1-13.
- The serial share starts at 1 %: at 0 the ceiling is unbounded and the card would read "∞".
- The upstream validity score, the "Bedchamber Effect" and the MLPerf committee as a procurement
  advisor are not kept. With one worker the parallel efficiency is 1 by definition.

Ledger fields: s, n, speedup, efficiency (S/N), b_bench, b_prod, crossover_b, rank_valid.
"""

from __future__ import annotations

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option,
                              Prediction, Range, Reflection, Slider, State, callout, chart, failure,
                              fmt, math_peek, metric_grid, prose)
from pylabs.framework import charts as ch
from pylabs.framework.formats import plural
from pylabs.labs.vol1.contexts import TRACK, deployment, device
from pylabs.labs.vol1.v1_12_model import (BATCH_TICKS, VENDORS, WORKER_TICKS, Run, S, act1_truth, act2_truth,
                                          crossover, fixed_run, padded, rank_valid, rated_power_w, ratio_b_over_a,
                                          throughput, workers_for)
from pylabs.physics import amdahl
from pylabs.physics import constants as C
from pylabs.physics import units as U
from pylabs.physics.references import cite


# ---- context ----------------------------------------------------------------------

CONTEXT = deployment(("cloud", "edge"), default="cloud",
                     help=f"Sets the device the {fmt(S.workers, 'int')} workers are: its name and the power each "
                          "draws, so the energy of the run. Amdahl's law is the same on both.")


def track_note(track: str, device_words: str) -> str:
    return (f"{track} is not offered here: Act I's job trains on {fmt(S.workers, 'int')} accelerators at once and Act "
            f"II buys accelerators for a data-centre service; {device_words} does neither. Amdahl's law is the same "
            "on any device, so the lab opens in Cloud.")


TRACK_NOTES = {"mobile": track_note("Mobile", "a phone"), "tiny": track_note("TinyML", "a microcontroller")}
WORDS = {"cloud": ("GPU", "GPUs"), "edge": ("Orin NX board", "Orin NX boards")}


def terms(context: str) -> dict[str, str]:
    """The words of each context that the questions name (the device, never an answer)."""
    one, many = WORDS[context]
    return {"gpu": one, "gpus": many}

# ---- Act I · The speedup ceiling -------------------------------------------------------

A1_SERIAL = Slider("a1_serial", "Serial share, s", unit="fraction", min=0.01, max=0.5,
                   step=0.01, default=S.serial, fmt="pct",
                   help="The share of the one-device time that only rank 0 does while the others wait: a "
                        "synchronous checkpoint, the evaluation.")
A1_WORKERS = Slider("a1_workers", "Workers, N", unit="devices", min=1, max=1024, step=1, default=S.workers,
                    fmt="int", scale="log2")
A1_EFFICIENCY = Slider("a1_efficiency", "Parallel efficiency, e", unit="fraction",
                       min=0.7, max=1, step=0.01, default=1, fmt="pct",
                       help="The share of ideal speed the split work keeps (communication, stragglers). "
                            "With one worker nothing is split, so it is 1.")
A1_MODE = Choice("a1_mode", "What grows with N", (
    Option("fixed", "Nothing: the same job, faster (Amdahl)"),
    Option("scaled", "The job: more work in the same time (Gustafson)"),
), default="fixed", help="In Gustafson's mode the slider's s is the serial share of the N-worker run.")


def run(s: State) -> Run:
    return Run(s["a1_serial"], s["a1_workers"], s["a1_efficiency"], s["a1_mode"] == "scaled")


SPEED_B, SPEED_C, SPEED_D = 6.5, 12.0, 40.0  # the edges of the prediction's ranges (speedups), quoted in feedback
E_LOW = 0.9                              # the efficiency option D's feedback quotes


def act1_facts(context: str) -> dict[str, str]:
    base = fixed_run()
    serial_s, parallel_s = base.hours()[1]
    big, fix = fixed_run(workers=S.big_cluster), fixed_run(serial=S.async_serial)
    ceiling = amdahl.parallel_ceiling(S.serial)
    return {**terms(context), "serial_h": fmt(serial_s, "h"), "parallel_h": fmt(parallel_s, "h"),
            "total_h": fmt(base.wall_s, "h"),
            "a1_speedup": fmt(base.speedup, "x"), "of_ceiling": fmt(base.speedup / ceiling, "pct"),
            "gustafson": fmt(amdahl.gustafson_speedup(S.serial, S.workers), "x"),
            "linear_less": fmt(S.workers * (1 - S.serial), "x"),
            "ceiling": fmt(ceiling, "x"), "n": fmt(S.workers, "int"), "s": fmt(S.serial, "pct"),
            "one_h": fmt(S.one_worker_s, "h"), "a_high": fmt(SPEED_B, "x"), "c_low": fmt(SPEED_C, "x"),
            "n_for_a": fmt(workers_for(SPEED_B), "int"),
            "big_n": fmt(big.workers, "int"), "big_speedup": fmt(big.speedup, "x"), "big_h": fmt(big.wall_s, "h"),
            "fix_s": fmt(fix.serial, "pct"), "fix_speedup": fmt(fix.speedup, "x"), "fix_h": fmt(fix.wall_s, "h"),
            "fix_ceiling": fmt(amdahl.parallel_ceiling(fix.serial), "x"),
            "e_low": fmt(E_LOW, "pct"), "e_low_speedup": fmt(fixed_run(efficiency=E_LOW).speedup, "x")}


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"The job takes {fmt(S.one_worker_s, 'h')} on one {{gpu}}; {fmt(S.serial, 'pct')} of that time is serial "
           f"(rank 0 checkpoints and evaluates while the others wait) and the rest splits perfectly over "
           f"{fmt(S.workers, 'int')} {{gpus}}. What speedup does the run on {fmt(S.workers, 'int')} {{gpus}} achieve?",
    quantity=f"speedup on {fmt(S.workers, 'int')} devices (one device's time ÷ the "
             f"{fmt(S.workers, 'int')}-device time)",
    unit_fmt="x",
    options=(
        Range("A", "{range}: the serial hours dominate the run", None, SPEED_B, 6.0,
              "The {serial_h} of serial work stays; the split part shrinks to {parallel_h}: {total_h} in all, "
              "{a1_speedup}. That is {of_ceiling} of 1/s = {ceiling}, the limit with unlimited {gpus}."),
        Range("B", "{range}: about one over the serial share", SPEED_B, SPEED_C, 6.67,
              "1/s = {ceiling} is the limit with unlimited {gpus}. On {n} the split part still takes {parallel_h}, "
              "so the run gives {a1_speedup}, below {a_high}: at {s} serial work that takes {n_for_a} {gpus}."),
        Range("C", "{range}: a large part of linear lost to waiting", SPEED_C, SPEED_D, 20.0,
              "{c_low} is above 1/s = {ceiling}: with {s} serial work no number of {gpus} reaches it. The run is "
              "{serial_h} of serial work plus {parallel_h} of split work: {a1_speedup}."),
        Range("D", "{range}: close to linear, less the serial share", SPEED_D, None, 54.0,
              "{n} × (1 − s) = {linear_less} only takes the serial share off linear, and Gustafson's {gustafson} "
              "is for a job that grows with the {gpus}, its s measured on the {n}-{gpu} run. Here the serial "
              "{serial_h} runs on one {gpu} while the others wait, whatever their number: {a1_speedup}."),
    ),
    truth=act1_truth,
    shown_by="a1_speedup",
)

ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="The CTO still wants the job much sooner and can fund one change. Which finishes it soonest?",
    options=(
        Claim("A", f"Sixteen times the {{gpus}}: {fmt(S.big_cluster, 'int')} of them instead of "
                   f"{fmt(S.workers, 'int')}.",
              "{big_n} {gpus} give {big_speedup}: {big_h}. The serial {serial_h} stays, so no cluster size "
              "beats 1/s = {ceiling}."),
        Claim("B", f"Asynchronous checkpoints, cutting serial work from {fmt(S.serial, 'pct')} to "
                   f"{fmt(S.async_serial, 'pct')}.",
              "With s = {fix_s} the run on {n} {gpus} gives {fix_speedup}: {fix_h}, the soonest of the four. The "
              "limit 1/s rises to {fix_ceiling}."),
        Claim("C", "Grow the job with the {gpus}, as Gustafson's scaled speedup counts it.",
              "The scaled job does {gustafson} one {gpu}'s work in the same {one_h}: more work, not a sooner "
              "finish. This job still takes {total_h}."),
        Claim("D", "A faster interconnect, so the split part loses nothing to communication.",
              "The scenario's split is already perfect (e = 100 %): the run stays {total_h}. Efficiency scales only "
              "the split part: at {e_low} the run gives {e_low_speedup}."),
    ),
    answer_letter="B",
)

M = {m.name: m for m in (
    MetricSpec("a1_speedup", "Speedup, one device ÷ N devices", "1", "x"),
    MetricSpec("a1_wall_s", "Wall clock of the N-device run", "s", "h"),
    MetricSpec("a1_ceiling", "Ceiling with unlimited devices, 1/s", "1", "x"),
    MetricSpec("a1_efficiency_out", "Efficiency, S/N", "1", "pct"),
    MetricSpec("a1_run_share", "Serial share of the N-device run, s′", "1", "pct"),
    MetricSpec("a1_energy", "Energy of the run at rated power", "J", "Wh"),
    MetricSpec("a2_ratio_bench", "B ÷ A at the benchmark's batch", "1", "x"),
    MetricSpec("a2_ratio_prod", "B ÷ A at production's batch", "1", "x"),
    MetricSpec("a2_rank_valid", "Benchmark ranks as production does", "1", "yesno"),
    MetricSpec("a2_crossover", "Batch at which A and B tie, b*", "samples", "num"),
    MetricSpec("a2_latency_a", "A's batch latency in production", "s", "ms"),
    MetricSpec("a2_latency_b", "B's batch latency in production", "s", "ms"),
)}

FAILURES = (
    FailureSpec("a2_rank_inverted", "The benchmark ranks the vendors backwards", act=2,
                reach={}, leave={"a2_scenario": "single"}),
)
F = {f.name: f for f in FAILURES}


def act1_instruments(s: State) -> list:
    r = run(s)
    dev = device(s["context"])
    power = rated_power_w(s["context"])
    energy = r.workers * r.wall_s * power
    ceiling = amdahl.parallel_ceiling(r.serial)
    share = r.speedup / r.workers
    parts = [metric_grid(
        M["a1_speedup"].show(r.speedup, "good" if share >= 0.8 else "warn" if share >= 0.5 else "danger",
                             f"{'Gustafson, scaled job' if r.scaled else 'Amdahl, fixed job'}; "
                             f"{fmt(r.workers, 'int')} would be linear"),
        M["a1_wall_s"].show(r.wall_s, note=f"{fmt(S.one_worker_s, 'h')} on one device"
                            + (f", for {fmt(r.speedup, 'x')} the work" if r.scaled else "")),
        M["a1_ceiling"].show(ceiling, note="the fixed job's; the scaled job has none" if r.scaled else "fixed job"),
        M["a1_efficiency_out"].show(share),
        M["a1_run_share"].show(r.run_serial_share, note=f"s = {fmt(r.serial, 'pct')} of one device's time"
                               if not r.scaled else "held fixed as the job grows"),
        M["a1_energy"].show(energy, note=f"{fmt(r.workers, 'int')} × {dev.name} at {fmt(power, 'W')}; "
                                         f"{fmt(r.workers / r.speedup, 'x')} one device's for the same work"),
    ), act1_curve(r), act1_hours(r)]
    if r.scaled:
        parts.append(callout("info", "Gustafson's speedup is a different job", prose(
            f"In this mode the job grows with N so that the serial share of the {fmt(r.workers, 'int')}-device "
            f"run stays {fmt(r.serial, 'pct')}: the run does {fmt(r.speedup, 'x')} one device's work in the same "
            f"{fmt(S.one_worker_s, 'h')}. The fixed job at the same settings is sped up "
            f"{fmt(r.amdahl, 'x')}.")))
    return parts


def act1_curve(r: Run):
    amdahl_y = [Run(r.serial, n, r.efficiency, False).speedup for n in WORKER_TICKS]
    gustafson_y = [Run(r.serial, n, r.efficiency, True).speedup for n in WORKER_TICKS]
    traces = [ch.line("Linear, N×", WORKER_TICKS, WORKER_TICKS, "muted", dash="dot"),
              ch.line("Fixed job (Amdahl)", WORKER_TICKS, amdahl_y, "series1"),
              ch.line("Scaled job (Gustafson)", WORKER_TICKS, gustafson_y, "series2", dash="dash"),
              ch.point("This run", r.workers, r.speedup, "accent")]
    ceiling = amdahl.parallel_ceiling(r.serial)  # finite: the serial share starts at 1 %
    shape, note = ch.hline(ceiling, "danger", f"ceiling 1/s = {fmt(ceiling, 'x')}", log=True)
    figure = ch.figure(traces, x=ch.axis("Workers, N", "log", range=padded(WORKER_TICKS),
                                         **ch.ticks_at(WORKER_TICKS[::2], lambda v: fmt(v, "int"))),
                       y=ch.axis("Speedup", "log", **ch.decade_ticks([1.0, max(WORKER_TICKS)], lambda v: fmt(v, "x"))),
                       shapes=[shape], annotations=[note], height=S.curve_px)
    summary = (f"With s = {fmt(r.serial, 'pct')} the fixed job's speedup flattens towards 1/s = {fmt(ceiling, 'x')}: "
               f"{fmt(amdahl_y[6], 'x')} on {fmt(WORKER_TICKS[6], 'int')} devices and {fmt(amdahl_y[-1], 'x')} on "
               f"{fmt(WORKER_TICKS[-1], 'int')}; the scaled job keeps climbing, to {fmt(gustafson_y[-1], 'x')}.")
    rows = [(fmt(n, "int"), fmt(a, "x"), fmt(g, "x")) for n, a, g in zip(WORKER_TICKS, amdahl_y, gustafson_y)]
    return chart("a1_speedup_curve", "Speedup against the number of workers", figure, summary,
                 table=(("Workers", "Fixed job", "Scaled job"), rows))


def act1_hours(r: Run):
    (serial_1, parallel_1), (serial_n, parallel_n) = r.hours()
    labels = ["One device", plural(r.workers, "device", count_fmt="int")]
    traces = [ch.bars("Serial (rank 0 only)", labels, [serial_1 / U.S_PER_HOUR, serial_n / U.S_PER_HOUR], "danger",
                      horizontal=True),
              ch.bars("Parallel (split over N)", labels, [parallel_1 / U.S_PER_HOUR, parallel_n / U.S_PER_HOUR], "series1",
                      horizontal=True)]
    figure = ch.figure(traces, x=ch.axis("Hours of wall clock"),
                       y=ch.axis("", "category", autorange="reversed"), stacked=True, height=S.bars_px)
    summary = (f"The serial {fmt(serial_n, 'h')} is the same on one device and on {fmt(r.workers, 'int')}; "
               f"the parallel part is {fmt(parallel_1, 'h')} on one device and {fmt(parallel_n, 'h')} on "
               f"{fmt(r.workers, 'int')}" + (" (the scaled job does more of it)." if r.scaled else "."))
    rows = [(lab, fmt(a, "h"), fmt(b, "h")) for lab, a, b in zip(labels, (serial_1, serial_n), (parallel_1, parallel_n))]
    return chart("a1_hours", "Where the hours go, for the same work", figure, summary,
                 table=(("Run", "Serial", "Parallel"), rows))


def a1_overridden(s: State) -> dict[str, str]:
    if s["a1_workers"] > 1:
        return {}
    return {"a1_efficiency": "Not used with one worker: nothing is split, so the efficiency is 1."}


def act1_math(s: State):
    r = run(s)
    return math_peek("The governing equations · Act I", (
        Equation(r"S = \frac{1}{s + \dfrac{1 - s}{N\,e}},\qquad S_{\max} = \lim_{N\to\infty} S = \frac{1}{s}",
                 "Amdahl: a fixed job whose serial share *s* of the one-device time stays on one device while "
                 "the rest splits over *N* devices at efficiency *e*. However many devices, never more than 1/*s*."),
        Equation(r"E = \frac{S}{N},\qquad s' = \frac{s}{s + (1 - s)/(N e)} = s\,S",
                 "Efficiency, and the serial share of the *N*-device run's wall clock: Gustafson's *s′*, the serial "
                 "share he measures on the parallel system."),
        Equation(r"S_G = s' + (1 - s')\,N e \;=\; N - s'(N - 1)\ \ (e = 1)",
                 "Gustafson: the job grows so that the *N*-device run keeps serial share *s′*; *S_G* is how many "
                 "times one device's work it finishes in the same time. With *s′* of the same job it "
                 "gives Amdahl's *S* again."),
    ), rows=(
        ("Serial share, *s*", fmt(r.serial, "pct")),
        ("Workers, *N*", fmt(r.workers, "int")),
        ("Efficiency, *e*", fmt(r.e, "pct")),
        ("Fixed job, *S*", fmt(r.amdahl, "x")),
        ("Ceiling, 1/*s*", fmt(amdahl.parallel_ceiling(r.serial), "x")),
        ("Scaled job, *S_G* (s′ = s)", fmt(r.gustafson, "x")),
        ("Rated power per device", fmt(rated_power_w(s["context"]), "W")),
    ), sources=(
        cite("amdahl1967", "the fixed-job speedup and its ceiling"),
        cite("gustafson1988", "the scaled speedup, with the serial share measured on the parallel run"),
        C.REGISTRY["H100_TDP_W"].source,
        C.REGISTRY["ORIN_NX_POWER_MAX_W"].source,
    ))


ACT1 = Act(
    number=1, title="The Speedup Ceiling", minutes="12–15 min",
    stakeholder_role="CTO",
    stakeholder=lambda context: (
        f"Our training job takes {fmt(S.one_worker_s, 'h')} on one {terms(context)['gpu']}. We now have "
        f"{fmt(S.workers, 'int')} {terms(context)['gpus']}, so I expect it to finish {fmt(S.workers, 'int')} times "
        f"faster. The team says {fmt(S.serial, 'pct')} of the job is serial work that cannot be split. Surely that "
        "is a detail?"),
    scenario=lambda: (
        "In data-parallel training every rank processes its own share of the data. What does not split is the "
        "work one rank does while the others wait for it: a synchronous checkpoint written by rank 0, an "
        "evaluation pass run on one device.",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_SERIAL, A1_WORKERS, A1_EFFICIENCY, A1_MODE),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Speedup calculator",
    overridden=a1_overridden,
)

# ---- Act II · The benchmark that ranks backwards ---------------------------------------

SCENARIOS = {  # option -> (label, batch or None for the slider)
    "offline": (f"Offline at batch {fmt(S.bench_batch, 'int')}: how the synthetic score was measured", S.bench_batch),
    "single": (f"SingleStream: one query at a time (batch {fmt(S.prod_batch, 'int')})", S.prod_batch),
    "server": ("Server: queries arrive at random and the scheduler batches them (set the batch)", None),
}
A2_SCENARIO = Choice("a2_scenario", "Benchmark scenario", tuple(Option(k, v[0]) for k, v in SCENARIOS.items()),
                     default="offline")
A2_BATCH_BENCH = Slider("a2_batch_bench", "Batch the Server benchmark forms", unit="samples", min=1, max=256,
                        step=1, default=8, fmt="int", scale="log2",
                        help="Under a latency bound, how many queued queries the scheduler groups into one batch.")
A2_BATCH_PROD = Slider("a2_batch_prod", "Batch production traffic forms", unit="samples", min=1, max=256, step=1,
                       default=S.prod_batch, fmt="int", scale="log2",
                       help="Interactive requests arriving one by one are served one at a time; a nightly bulk job can "
                            "fill large batches.")


def bench_batch(s: State) -> float:
    fixed = SCENARIOS[s["a2_scenario"]][1]
    return s["a2_batch_bench"] if fixed is None else fixed


def a2_overridden(s: State) -> dict[str, str]:
    if s["a2_scenario"] == "server":
        return {}
    return {"a2_batch_bench": f"Not used: this scenario runs at batch {fmt(bench_batch(s), 'int')}. "
                              "Choose Server to set the batch."}


BATCH_B, BATCH_C, BATCH_D = 3.0, 8.0, 16.0  # the edges of the prediction's ranges (batches), quoted in feedback


def act2_facts() -> dict[str, str]:
    (fa, pa), (fb, pb) = VENDORS["A"], VENDORS["B"]
    return {"fixed_gap": fmt(fa - fb, "us"), "per_gap": fmt(pb - pa, "us"), "a2_crossover": fmt(crossover(), "num"),
            "b_low": fmt(BATCH_B, "int"), "ratio_b_low": fmt(ratio_b_over_a(BATCH_B), "x"),
            "c_low": fmt(BATCH_C, "int"), "ratio_c_low": fmt(ratio_b_over_a(BATCH_C), "x"),
            "gap_used": fmt(BATCH_C * (pb - pa), "us"),
            "d_low": fmt(BATCH_D, "int"), "ratio_d_low": fmt(1 / ratio_b_over_a(BATCH_D), "x"),
            "bench": fmt(S.bench_batch, "int"), "ceiling_a": fmt(1 / pa, "num"), "ceiling_b": fmt(1 / pb, "num"),
            "peak_ratio": fmt(pb / pa, "x"), "big": fmt(A2_BATCH_PROD.max, "int"),
            "big_lead": fmt(1 / ratio_b_over_a(A2_BATCH_PROD.max), "x"), "b_one": fmt(ratio_b_over_a(S.prod_batch), "x"),
            "lat_a": fmt(amdahl.batch_latency_s(S.prod_batch, fa, pa), "ms"),
            "lat_b": fmt(amdahl.batch_latency_s(S.prod_batch, fb, pb), "ms"), "prod": fmt(S.prod_batch, "int")}


ACT2_PREDICTION = Prediction(
    id="a2_predict", act=2,
    prompt=f"A's time per batch is {fmt(S.a_fixed_s, 'ms')} plus {fmt(S.a_per_sample_s, 'ms')} per sample. B's is "
           f"also a fixed cost plus a cost per sample, and it serves {fmt(S.b_lead_at_one, 'x')} A's samples per "
           f"second at batch {fmt(S.prod_batch, 'int')} and {fmt(S.score_b, 'int')}/{fmt(S.score_a, 'int')} of "
           f"them at batch {fmt(S.bench_batch, 'int')}. At what batch size do A and B serve the same number of "
           "samples per second?",
    quantity="the batch at which A's and B's throughputs tie",
    unit_fmt="num",
    options=(
        Range("A", "{range}: one query, or two at most", None, BATCH_B, 1.5,
              "At batch {b_low} B still serves {ratio_b_low} A's rate: its smaller fixed cost is shared by only "
              "{b_low} samples, and its extra per-sample cost has not caught up yet."),
        Range("B", "{range}: a handful of queries at once", BATCH_B, BATCH_C, 5.0,
              "At batch {c_low} B still serves {ratio_c_low} A's rate: its per-sample handicap, {c_low} × {per_gap} "
              "= {gap_used}, has not yet used up A's extra {fixed_gap} of fixed cost."),
        Range("C", "{range}: around ten queries at once", BATCH_C, BATCH_D, 10.0,
              "A's fixed cost is {fixed_gap} larger; B's per-sample cost is {per_gap} larger. They tie where B's "
              "extra per-sample time has used up its fixed-cost head start: b* = {fixed_gap} ÷ {per_gap} = "
              "{a2_crossover}."),
        Range("D", "{range}: halfway to the benchmark's batch", BATCH_D, None, 24.0,
              "At batch {d_low} A already serves {ratio_d_low} B's rate. The tie comes where B's extra "
              "{per_gap} per sample has used up A's extra {fixed_gap} of fixed cost: batch {a2_crossover}."),
    ),
    truth=act2_truth,
    shown_by="a2_crossover",
)

ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt="What should the benchmark the team trusts measure, to predict this deployment?",
    options=(
        Claim("A", f"Throughput on the pilot's own queries, run offline in batches of {fmt(A2_BATCH_PROD.max, 'int')}.",
              "The same queries in batches of {big} sit far above b* = {a2_crossover}: the fixed cost is shared "
              "and A leads {big_lead}, near 1 ÷ per-sample cost ({ceiling_a} samples/s for A, {ceiling_b} for B). "
              "The pilot served them one at a time, where B leads {b_one}: the batch the arrivals form decides the "
              "ranking, not which queries run."),
        Claim("B", "The synthetic score, averaged over many more models.",
              "More models measured at batch {bench} repeat the same bias: the batch regime, not the number of "
              "models, decides the ranking here."),
        Claim("C", "The datasheet's peak rate, which no batch setting can skew.",
              "A peak rate speaks only to the per-sample cost (B's is {peak_ratio} A's here) and says "
              "nothing of the fixed cost per batch, which one-at-a-time traffic pays on every query."),
        Claim("D", "Throughput under a replay of production's query arrivals.",
              "A replay forms production's batches (batch {prod} in the pilot), where the fixed cost dominates: "
              "{lat_a} for A against {lat_b} for B per query, so it ranks B first, as the pilot did. The synthetic "
              "score ran at batch {bench}, on the other side of b* = {a2_crossover}. MLPerf Inference's "
              "SingleStream and Server scenarios model such traffic."),
    ),
    answer_letter="D",
)


def act2_instruments(s: State) -> list:
    bench, prod = bench_batch(s), s["a2_batch_prod"]
    valid = rank_valid(bench, prod)
    leader = {True: "B", False: "A"}
    parts = [metric_grid(
        M["a2_ratio_bench"].show(ratio_b_over_a(bench), note=f"batch {fmt(bench, 'int')}: {leader[ratio_b_over_a(bench) > 1]} ahead"),
        M["a2_ratio_prod"].show(ratio_b_over_a(prod), note=f"batch {fmt(prod, 'int')}: {leader[ratio_b_over_a(prod) > 1]} ahead"),
        M["a2_rank_valid"].show(float(valid), "good" if valid else "danger"),
        M["a2_crossover"].show(crossover(), note="B leads below it, A above it"),
        M["a2_latency_a"].show(amdahl.batch_latency_s(prod, *VENDORS["A"]),
                               note=f"{fmt(throughput('A', prod), 'num')} samples/s"),
        M["a2_latency_b"].show(amdahl.batch_latency_s(prod, *VENDORS["B"]),
                               note=f"{fmt(throughput('B', prod), 'num')} samples/s"),
    )]
    if not valid:
        parts.append(failure(F["a2_rank_inverted"],
                             f"The benchmark runs at batch {fmt(bench, 'int')} and production at batch "
                             f"{fmt(prod, 'int')}, on opposite sides of the crossover at batch "
                             f"{fmt(crossover(), 'num')}: "
                             f"the benchmark puts {leader[ratio_b_over_a(bench) > 1]} first, production "
                             f"{leader[ratio_b_over_a(prod) > 1]}. To leave this state, put the two batches on one "
                             "side of it: another scenario, the Server batch, or production's batch."))
    parts.append(act2_chart(bench, prod))
    return parts


def act2_chart(bench: float, prod: float):
    ys = {v: [throughput(v, b) for b in BATCH_TICKS] for v in VENDORS}
    traces = [ch.line("Vendor A", BATCH_TICKS, ys["A"], "series1"),
              ch.line("Vendor B", BATCH_TICKS, ys["B"], "series2"),
              ch.point("Benchmark", bench, max(throughput(v, bench) for v in VENDORS), "warn", symbol="diamond"),
              ch.point("Production", prod, max(throughput(v, prod) for v in VENDORS), "accent")]
    shape, note = ch.vline(crossover(), "danger", f"tie, b* = {fmt(crossover(), 'num')}", log=True)
    note.update(y=0, yanchor="bottom", xanchor="left", xshift=4)  # inside the plot, clear of the legend
    figure = ch.figure(traces, x=ch.axis("Batch size (samples)", "log", range=padded(BATCH_TICKS),
                                         **ch.ticks_at(BATCH_TICKS, lambda v: fmt(v, "int"))),
                       y=ch.axis("Throughput (samples/s)"), shapes=[shape], annotations=[note], height=S.curve_px)
    summary = (f"B serves more samples per second below batch {fmt(crossover(), 'num')} and A above it: at batch "
               f"{fmt(BATCH_TICKS[0], 'int')} B leads {fmt(ratio_b_over_a(BATCH_TICKS[0]), 'x')}, at batch "
               f"{fmt(S.bench_batch, 'int')} A leads {fmt(1 / ratio_b_over_a(S.bench_batch), 'x')}. Both curves "
               "flatten towards 1 ÷ their per-sample cost.")
    rows = [(fmt(b, "int"), fmt(a, "num"), fmt(v, "num"), fmt(v / a, "x")) for b, a, v in zip(BATCH_TICKS, ys["A"], ys["B"])]
    return chart("a2_throughput", "Throughput against batch size, both vendors", figure, summary,
                 table=(("Batch", "A (samples/s)", "B (samples/s)", "B ÷ A"), rows))


def act2_math(s: State):
    (fa, pa), (fb, pb) = VENDORS["A"], VENDORS["B"]
    return math_peek("The governing equations · Act II", (
        Equation(r"\Theta(b) = \frac{b}{t_0 + b\,t_1}\ \xrightarrow{\;b\to\infty\;}\ \frac{1}{t_1}",
                 "Throughput at batch *b* with a fixed cost *t₀* per batch and *t₁* per sample: Amdahl's law "
                 "again, with the fixed cost as the part a larger batch cannot shrink."),
        Equation(r"b^{*} = \frac{t_{0,A} - t_{0,B}}{t_{1,B} - t_{1,A}}",
                 "The batch at which the two throughputs tie. A benchmark batch and a production batch on "
                 "opposite sides of this crossover rank the vendors in opposite orders."),
        Equation(r"t_{1,B} = \frac{L_B(b_2) - L_B(b_1)}{b_2 - b_1},\quad t_{0,B} = L_B(b_1) - b_1\,t_{1,B}",
                 f"B's costs from its two measured batch latencies: {fmt(S.b_lead_at_one, 'x')} A's rate at "
                 f"*b₁* = {fmt(S.prod_batch, 'int')}, {fmt(S.score_b, 'int')}/{fmt(S.score_a, 'int')} of it at "
                 f"*b₂* = {fmt(S.bench_batch, 'int')}."),
    ), rows=(
        ("Vendor A, *t₀* / *t₁*", f"{fmt(fa, 'ms')} / {fmt(pa, 'us')}"),
        ("Vendor B, *t₀* / *t₁*", f"{fmt(fb, 'ms')} / {fmt(pb, 'us')}"),
        ("Crossover batch", fmt(crossover(), "num")),
        ("Benchmark batch", fmt(bench_batch(s), "int")),
        ("Production batch", fmt(s["a2_batch_prod"], "int")),
    ), sources=(
        cite("reddi2020", "the SingleStream, MultiStream, Server and Offline scenarios"),
        cite("amdahl1967", "the fixed part that more parallel work cannot shrink"),
        "Vendor A's costs and the two measured ratios are the scenario's; B's costs are fitted to them.",
    ))


ACT2 = Act(
    number=2, title="The Benchmark That Ranks Backwards", minutes="12–15 min",
    stakeholder_role="Head of ML Infrastructure",
    stakeholder=lambda: (
        f"Procurement is down to two inference accelerators. On the synthetic benchmark (Offline, batch "
        f"{fmt(S.bench_batch, 'int')}) vendor A scores {fmt(S.score_a, 'int')} and vendor B "
        f"{fmt(S.score_b, 'int')}. In our production pilot, where requests arrive one at a time, B serves "
        f"{fmt(S.b_lead_at_one - 1, 'pct')} more queries per second than A. The benchmark team says their number "
        "is the objective one. Which should we believe?"),
    scenario=lambda: (
        "The synthetic score is throughput at a large batch, scaled so that A's is "
        f"{fmt(S.score_a, 'int')}. In production, interactive requests arriving "
        "one by one are served one by one.",
        "A batch costs a fixed time plus a time per sample, so throughput rises with the batch and flattens.",
    ),
    prediction=ACT2_PREDICTION,
    controls=(A2_SCENARIO, A2_BATCH_BENCH, A2_BATCH_PROD),
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="Benchmark regime explorer",
    overridden=a2_overridden,
)

# ---- the whole lab -------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    return frozenset() if rank_valid(bench_batch(s), s["a2_batch_prod"]) else frozenset({"a2_rank_inverted"})


def results(s: State) -> dict[str, float | str | bool]:
    r = run(s)
    bench = bench_batch(s)
    return {"s": r.serial, "n": r.workers, "mode": s["a1_mode"], "speedup": r.speedup,
            "efficiency": r.speedup / r.workers, "b_bench": bench, "b_prod": s["a2_batch_prod"],
            "crossover_b": crossover(), "rank_valid": rank_valid(bench, s["a2_batch_prod"])}


RECORD = (
    MetricSpec("s", "Serial share of the one-device time", "1", "pct"),
    MetricSpec("n", "Workers", "1", "int"),
    MetricSpec("speedup", "Speedup", "1", "x"),
    MetricSpec("efficiency", "Efficiency, S/N", "1", "pct"),
    MetricSpec("b_bench", "Benchmark batch", "samples", "int"),
    MetricSpec("b_prod", "Production batch", "samples", "int"),
    MetricSpec("crossover_b", "Crossover batch", "samples", "num"),
    MetricSpec("mode", "What grows with N", "1", "num"),
    MetricSpec("rank_valid", "Act II benchmark ranks as production does", "1", "yesno"),
)


def lab_takeaways() -> list[str]:
    f1, f2 = act1_facts(CONTEXT.default), act2_facts()
    base = fixed_run()
    return [
        f"With {f1['s']} serial work, {f1['n']} devices speed the job up {f1['a1_speedup']}, not {f1['n']}×: "
        f"{f1['serial_h']} stays serial and the run takes {f1['total_h']}. No number of devices beats 1/s = "
        f"{f1['ceiling']}; cutting s to {f1['fix_s']} gives {f1['fix_speedup']}, more than {f1['big_n']} devices "
        f"({f1['big_speedup']}).",
        f"Gustafson's {f1['gustafson']} is for a job that grows with the devices; for this fixed job the serial "
        f"share of the {f1['n']}-device run is {fmt(base.run_serial_share, 'pct')}, not {f1['s']}.",
        f"Batch time = fixed cost + per-sample cost, so throughput rankings depend on the batch: A and B tie at "
        f"batch {f2['a2_crossover']}, and a benchmark at batch {f2['bench']} ranks them opposite to "
        f"production at batch {fmt(S.prod_batch, 'int')}.",
        "A benchmark is a proxy: trust it only when it runs in production's regime (its traffic pattern, batch "
        "and latency bound).",
    ]


LAB = Lab(
    id="v1_12", volume=1, number=12, title="The Speedup Ceiling",
    invariant="The part that does not split sets the **ceiling**, 1/s; a benchmark ranks correctly only in "
              "production's **regime**.",
    minutes="25–30 min", chapter="Benchmarking AI", url="vol1/12-speedup-ceiling/",
    description="What 64 GPUs buy a training job with a serial share, how Gustafson's scaled speedup differs from "
                "Amdahl's, and when a benchmark's batch size ranks two accelerators the way production does.",
    reading=(
        "**Amdahl's law**: speedup of a fixed job with a serial share, and its ceiling.",
        "**Gustafson's law**: scaled speedup, when the job grows with the machine.",
        "**Benchmark scenarios**: single-stream, server and offline inference, and what each measures.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "**V1-11 The Roofline**: what sets a kernel's time on a given chip, from its peak and its memory bandwidth.",
        "**V1-13 The Tail Latency Trap**: what a service's users wait at the 99th percentile, beyond the mean.",
        "**V2-09 You Can't Optimize What You Can't Measure**: Amdahl's law over a training step's components.",
    ),
    record_metrics=RECORD,
    context_from=TRACK,
    terms=terms,
    track_notes=TRACK_NOTES,
    hook=f"A CTO expects {fmt(S.workers, 'int')} GPUs to run a {fmt(S.one_worker_s, 'h')} training job "
         f"{fmt(S.workers, 'int')} times faster, and a synthetic benchmark and a production pilot disagree on "
         "which accelerator is faster. What do the GPUs buy, and which number should procurement trust?",
)
