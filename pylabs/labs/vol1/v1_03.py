"""Lab V1-03 · The Constraint Tax (ML workflow).

Core invariant: a constraint that is not written down at problem definition is paid for with every
stage built on top of it; and iteration speed beats a head start only while each iteration still
buys something.

Act I (the constraint tax): a rural clinic's model is ready for deployment when the team learns that
the tablets have far less memory than the model needs. The prediction asks how many days must be
redone: the limit surfaces as stage N begins, so stages 2..N−1 were built without it,
W = Σ_{i=2..N−1} d_i = 130 days at N = 5, and delivery moves from day 150 to day 280. The spec
(handbook/labs/v1_03.md §5) sums Σ_{i=2..N} (140 days, 90 at N = 3, 145 at N = 6), counting a stage that had not
begun (handbook/errata.md#e4); upstream summed the stages *after* the discovery (15 days). The chapter's
rule of thumb, 2^(N−1) times a stage-1 fix, is shown beside it as a heuristic; the reflection asks
what the days showed against its doubling from stage 5 to 6 (130 → 140 days).
Act II (the iteration race): a large model (weekly cycle) against a small one (hourly cycle) with
diminishing returns r per iteration; the prediction asks when the small one draws level (52 h), the
reflection what a phone's once-a-day cycle does to that (66 runs, 66 days: more runs, not the
same 52). Upstream's default r = 0.95 caps the small model at 92 %, below
the large one's start, so its promised crossover never happened; this lab's default r = 0.999
(handbook/labs/v1_03.md §2) makes the crossover real, and the r slider shows it vanish. The deployment context moves
neither curve: on a phone it decides which retraining cycles the battery allows (energy per day against a
budget), which is the design decision of Act II. Edge and TinyML are explained in ``TRACK_NOTES``.

Ledger fields (results): discovery_stage, multiplier, invalidated_days, t_cycle_small, t_cycle_large,
r, crossover_h, gates, energy_fail.
"""

from __future__ import annotations

import math

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option,
                              Prediction, Range, Reflection, Slider, State, callout, chart, failure, fmt,
                              math_peek, metric_grid)
from pylabs.framework import charts as ch
from pylabs.framework.components import bullets
from pylabs.labs.vol1.contexts import TRACK, deployment
from pylabs.labs.vol1.v1_03_model import (DAILY_RACE, DAY, HOUR, LARGE_CYCLES, SCENARIO_RACE, SCENARIO_STAGES,
                                          SCENARIO_TAX, SMALL_CYCLES, TRACK_NOTES, UPSTREAM_RACE, S, Race,
                                          act1_truth, act2_truth, crossover_note, cycle_label, learners,
                                          race_times, when)
from pylabs.physics import constants as C
from pylabs.physics import workflow as w
from pylabs.physics.references import cite

CONTEXT = deployment(("cloud", "mobile"), default="cloud",
                     help="Where the small model is retrained: in a datacentre, or on each user's phone.")

# ---- Act I · The constraint tax -----------------------------------------------------


A1_STAGE = Slider("a1_stage", "Stage at which the memory limit surfaces", unit="stage", min=1, max=6, step=1,
                  default=S.discovery_stage, fmt="int",
                  help="1 is problem definition (written down on day one), 5 deployment, 6 monitoring.")
STAGE_SLIDERS = tuple(
    Slider(f"a1_days_{i + 1}", f"Stage {i + 1} · {S.stage_names[i]}", unit="s", min=86400, max=120 * 86400,
           step=86400, default=S.stage_days[i] * DAY, fmt="days")
    for i in (1, 2, 3, 4))


def stage_durations(s: State) -> list[float]:
    """All six stages in seconds: the first and last from the scenario, the middle four from the sliders."""
    middle = [s[c.name] for c in STAGE_SLIDERS]
    return [S.stage_days[0] * DAY, *middle, S.stage_days[5] * DAY]


def tax(s: State) -> w.ConstraintTax:
    return w.constraint_tax(stage_durations(s), int(s["a1_stage"]))


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"The memory limit surfaced as stage {S.discovery_stage} ({S.stage_names[S.discovery_stage - 1].lower()}) "
           "began. Given the plan, how many days of work must the team redo before it can ship?",
    quantity=f"work redone when the limit surfaces at stage {S.discovery_stage}",
    unit_fmt="days",
    shown_by="a1_redone",
    options=(
        Range("A", "{range}: redeploy the same pipeline with a smaller model", None, 20 * DAY, 10 * DAY,
              "Deployment has not begun, so there is nothing of it to redo. A model that fits {tablet} is "
              "a new model: it must be trained and evaluated again, and in this lab's model on data collected for it."),
        Range("B", "{range}: only model development, retrained for the tablet", 20 * DAY, 80 * DAY, 60 * DAY,
              "Retraining is {train_days}, but a new model needs a new evaluation ({eval_days}), and in this "
              "lab's model the data were collected for the large model's inputs too."),
        Range("C", "{range}: model development and evaluation, on the same data", 80 * DAY, 120 * DAY,
              100 * DAY,
              "Training and evaluation are {model_eval}. In this lab's model the data stage was also built for "
              "a model the tablets cannot hold, so it is redone as well."),
        Range("D", "{range}: every stage since problem definition, data included", 120 * DAY, None, 130 * DAY,
              "Stages 2 to {before} were all built without the limit: {stage_sum} = **{a1_redone}** of the "
              "{project}-day plan ({share}). Stage {stage} had not begun, so none of it is redone; delivery "
              "moves from day {project} to day {delivery}."),
    ),
    truth=act1_truth,
)

ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt=f"The rule of thumb says a stage-6 discovery costs twice a stage-{S.discovery_stage} one. For the "
           "clinic's plan, what do the days redone show for those two stages, and why?",
    options=(
        Claim("A", "A small rise: the long stages come before deployment and are redone in both cases.",
              "From stage {stage} to stage 6 the work redone goes from {a1_redone} to {redone6}: only the "
              "{deploy_days} of deployment is added. Rework is the sum of the stages already built, and the "
              "30-, 60- and 40-day stages lie early. The doubling is a rule of thumb for cost, not a count "
              "of days."),
        Claim("B", "Twice as many days: each stage rebuilds all earlier ones, so rework doubles.",
              "The days redone went from {a1_redone} to {redone6}, not double. Rework adds the stages already "
              "built; it does not multiply them. Only the rule of thumb doubles."),
        Claim("C", "No more days: a model already in service is patched in place, not rebuilt.",
              "Found in monitoring, the limit still invalidates every stage built on it: {redone6}, "
              "{deploy_days} more than at stage {stage}, since deployment is now redone too."),
        Claim("D", "Many times more: monitoring runs for the model's whole life, and all of it is redone.",
              "Monitoring has just begun when the limit surfaces at stage 6, so none of it is redone; the "
              "rework is stages 2 to 5, {redone6}."),
    ),
    answer_letter="A",
)

M = {m.name: m for m in (
    MetricSpec("a1_multiplier", "Cost to fix vs stage 1 (rule of thumb)", "1", "x"),
    MetricSpec("a1_redone", "Work redone (stages 2 to N−1)", "s", "days"),
    MetricSpec("a1_share", "Share of the project redone", "1", "pct"),
    MetricSpec("a1_found", "Limit surfaces after", "s", "days"),
    MetricSpec("a1_delivery", "Delivery, with the rework", "s", "days"),
    MetricSpec("a2_crossover", "Small model catches the large one at", "s", "h", infinite="never"),
    MetricSpec("a2_energy_ratio", "Retraining energy ÷ daily budget", "1", "x"),
    MetricSpec("a2_small_final", "Small model at the end", "1", "pct1"),
    MetricSpec("a2_large_final", "Large model at the end", "1", "pct1"),
    MetricSpec("a2_small_ceiling", "Small model's ceiling", "1", "pct1"),
    MetricSpec("a2_energy_day", "Retraining energy per day (phone)", "J", "Wh"),
    MetricSpec("a2_small_to_target", "Small model reaches the target after", "s", "h", infinite="never"),
    MetricSpec("a2_large_to_target", "Large model reaches the target after", "s", "h", infinite="never"),
)}

FAILURES = (
    FailureSpec("a1_most_redone", "Most of the project is thrown away", act=1,
                reach={}, leave={"a1_stage": 2}),
    FailureSpec("a2_no_crossover", "The fast model saturates below its rival's start", act=2, severity="warn",
                reach={"a2_decay": 0.95}, leave={"a2_decay": 0.999}),
    FailureSpec("a2_energy_budget", "Retraining drains the phone: over the daily energy budget", act=2,
                reach={}, leave={"a2_small_cycle": "24"}, contexts=("mobile",)),
)
F = {f.name: f for f in FAILURES}


def act1_instruments(s: State) -> list:
    t = tax(s)
    parts = [metric_grid(
        M["a1_redone"].show(t.redone_s, note=f"of {fmt(t.project_s, 'days')} planned"),
        M["a1_delivery"].show(t.project_s + t.redone_s, note=f"planned: {fmt(t.project_s, 'days')}"),
        M["a1_share"].show(t.share, "danger" if t.share > 0.5 else None),
        M["a1_found"].show(t.found_s, note="from the start of the project"),
        M["a1_multiplier"].show(t.multiplier, "danger" if t.multiplier >= 8 else None),
    )]
    if t.share > 0.5:
        parts.append(failure(F["a1_most_redone"],
                             f"Found at stage {t.stage}, the memory limit invalidates {fmt(t.redone_s, 'days')} "
                             f"of the {fmt(t.project_s, 'days')} planned ({fmt(t.share, 'pct')}). Record the limit "
                             "earlier: checked before data collection begins (stage 2 or earlier), it costs no "
                             "rework at all."))
    parts.append(act1_chart(t, stage_durations(s)))
    return parts


def act1_chart(t: w.ConstraintTax, durations: list[float]):
    names = list(S.stage_short)
    taxes = [w.constraint_tax(durations, n) for n in range(1, len(names) + 1)]
    days = [x.redone_s / DAY for x in taxes]
    text = [fmt(x.redone_s, "days") for x in taxes]
    others = [0.0 if x.stage == t.stage else d for x, d in zip(taxes, days)]
    mine = [d if x.stage == t.stage else 0.0 for x, d in zip(taxes, days)]
    figure = ch.figure(
        [ch.bars("Days redone", names, others, "series1", text=[("" if x.stage == t.stage else m)
                                                               for x, m in zip(taxes, text)]),
         ch.bars("Your stage", names, mine, "accent", text=[(m if x.stage == t.stage else "")
                                                             for x, m in zip(taxes, text)])],
        x=ch.axis("Stage at which the limit surfaces", "category", tickangle=0),
        y=ch.axis("Days of work redone"), stacked=True)
    summary = (f"Found at stage {t.stage}, the limit costs {fmt(t.redone_s, 'days')} of redone work "
               f"({fmt(t.multiplier, 'x')} by the rule of thumb); found at stage 2 it would cost "
               f"{fmt(taxes[1].redone_s, 'days')}, at stage {len(taxes)}, {fmt(taxes[-1].redone_s, 'days')}.")
    rows = [(S.stage_names[x.stage - 1], fmt(x.multiplier, "x"), fmt(x.redone_s, "days"), fmt(x.found_s, "days"))
            for x in taxes]
    return chart("a1_rework", "What the same constraint costs, by the stage that finds it", figure, summary,
                 table=(("Stage", "Rule of thumb", "Days redone", "Surfaces after"), rows))


def act1_facts() -> dict[str, str]:
    """The feedback's numbers at the scenario's plan (Act I has one context: the clinic's tablets)."""
    t, n, days = SCENARIO_TAX, S.discovery_stage, S.stage_days
    later = w.constraint_tax(SCENARIO_STAGES, n + 1)
    built = days[1:n - 1]
    return {"a1_redone": fmt(t.redone_s, "days"), "project": fmt(t.project_s / DAY, "int"),
            "share": fmt(t.share, "pct"), "delivery": fmt((t.project_s + t.redone_s) / DAY, "int"),
            "stage": str(n), "before": str(n - 1), "redone6": fmt(later.redone_s, "days"),
            "stage_sum": " + ".join(fmt(d, "int") for d in built),
            "deploy_days": fmt(SCENARIO_STAGES[n - 1], "days"), "tablet": fmt(S.tablet_bytes, "B"),
            "train_days": fmt(SCENARIO_STAGES[2], "days"), "eval_days": fmt(SCENARIO_STAGES[3], "days"),
            "model_eval": fmt(SCENARIO_STAGES[2] + SCENARIO_STAGES[3], "days")}


def act1_math(s: State):
    t = tax(s)
    return math_peek("The governing equations · Act I", (
        Equation(r"m(N) = 2^{\,N-1}",
                 "The chapter's rule of thumb for constraint propagation: each stage the constraint passes "
                 "unrecorded doubles the cost of the fix. A heuristic, not a measurement."),
        Equation(r"W(N) = \sum_{i=2}^{N-1} d_i",
                 "Work redone: problem definition stands, and every stage from data collection up to the one "
                 "before *N* was built for the wrong target. Stage *N* has not begun, so none of it is redone."),
        Equation(r"D(N) = \sum_{i<N} d_i",
                 "The day stage *N* begins, when a constraint first checked there surfaces."),
    ), rows=(
        ("Stage, *N*", str(t.stage)),
        ("Rule of thumb, *m*", fmt(t.multiplier, "x")),
        ("Work redone, *W*", fmt(t.redone_s, "days")),
        ("Surfaces after, *D*", fmt(t.found_s, "days")),
        ("After delivery, software defects (Boehm and Basili)", fmt(C.DEFECT_COST_RATIO_AFTER_DELIVERY, "x")),
    ), sources=(
        cite("mlsysbook_workflow", "six stages; m = 2^(N−1)"),
        cite("boehm_basili2001", "item 1: often 100× after delivery, about 5:1 for small systems"),
        cite("stecklein2004", "escalation from three cost-estimation methods: 3–8× at design, 21–78× at test, 29 to over 1,500× in operation"),
    ))


ACT1 = Act(
    number=1, title="The Constraint Tax", minutes="12–15 min",
    stakeholder_role="Program Lead, rural clinic network",
    stakeholder=lambda: (
        f"Our diagnostic model reached {fmt(S.validation_accuracy, 'pct')} validation accuracy during "
        f"evaluation. Then, {fmt(SCENARIO_TAX.found_s, 'days')} into the project, deployment began and we "
        f"learned that the clinics' tablets have {fmt(S.tablet_bytes, 'B')} of memory. The model needs "
        f"{fmt(S.model_bytes, 'B')}. Nobody asked about the tablets at the start. How much is this going to cost us?"),
    scenario=lambda: (
        "The ML workflow runs through six stages: problem definition, data collection, model development, "
        "evaluation, deployment and monitoring. Each stage builds on the decisions of the ones before.",
        "The plan: " + ", ".join(f"{n.lower()} {fmt(d * DAY, 'days')}" for n, d in zip(S.stage_names, S.stage_days))
        + ".",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_STAGE, *STAGE_SLIDERS),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Constraint tax calculator",
)

# ---- Act II · The iteration race -------------------------------------------------------


A2_SMALL_CYCLE = Choice("a2_small_cycle", "Small model: one iteration every",
                        tuple(Option(v, cycle_label(v)) for v in SMALL_CYCLES), default=S.small_cycle_h,
                        widget="select", unit="h")
A2_LARGE_CYCLE = Choice("a2_large_cycle", "Large model: one iteration every",
                        tuple(Option(v, cycle_label(v)) for v in LARGE_CYCLES), default=S.large_cycle_h,
                        widget="select", unit="h")
A2_DECAY = Slider("a2_decay", "Diminishing returns, r", unit="1", min=S.upstream_decay, max=1.0, step=0.001,
                  default=S.decay, fmt="num", help="Each iteration gains r times what the one before gained; "
                                                   "1 means no diminishing returns (the chapter's linear race).")
A2_WINDOW = Slider("a2_window", "Project window", unit="s", min=4 * 604800, max=52 * 604800, step=604800,
                   default=S.window_s, fmt="weeks")
A2_POWER = Slider("a2_power", "Training power (assumed)", unit="W", min=1, max=6, step=0.5,
                  default=S.train_power_w, fmt="W",
                  help=f"An estimate, not a vendor figure: phones hold about {fmt(C.PHONE_SUSTAINED_POWER_W, 'num')} "
                       f"to {fmt(C.PHONE_SUSTAINED_POWER_HIGH_W, 'W')} before they throttle.")
A2_BUDGET = Slider("a2_budget", "Daily energy budget (assumed)", unit="J", min=3600, max=36000,
                   step=1800, default=S.budget_j, fmt="Wh",
                   help=f"Retraining energy allowed per phone per day; the default is "
                        f"{fmt(S.budget_j / C.PHONE_BATTERY_J, 'pct')} of a {fmt(C.PHONE_BATTERY_J, 'Wh')} battery.")


def race(s: State) -> Race:
    return Race(*learners(float(s["a2_small_cycle"]) * HOUR, float(s["a2_large_cycle"]) * HOUR, s["a2_decay"]),
                s["a2_window"])


def energy_j(s: State) -> float:
    return w.daily_retraining_energy_j(float(s["a2_small_cycle"]) * HOUR, S.train_s, s["a2_power"])


def energy_over(s: State) -> bool:
    return s["context"] == "mobile" and energy_j(s) > s["a2_budget"]


ACT2_PREDICTION = Prediction(
    id="a2_predict", act=2,
    prompt=f"With r = {fmt(S.decay, 'num')}, one small-model run an hour and one large-model run a week, how long "
           "after the start does the small model first draw level with the large one?",
    quantity="time until the small model catches the large one",
    unit_fmt="h",
    shown_by="a2_crossover",
    options=(
        Range("A", "{range}: a day of hourly runs closes the gap", None, DAY, 12 * HOUR,
              "A day is {day_runs} runs of at most {small_gain}: {day_gain}, about half the {head_start} head "
              "start."),
        Range("B", "{range}: a few days of hourly runs", DAY, S.week_s, 50 * HOUR,
              "The gap is {head_start}; each hourly run adds a little under {small_gain}, so it closes after "
              "**{a2_crossover}**, before the large model's first weekly run."),
        Range("C", "{range}: weeks of runs, each gaining less than the last", S.week_s, 8 * S.week_s,
              4 * S.week_s,
              "Returns diminish slowly at r = {r}: run {hourly_runs} still adds {late_share} of what the first "
              "added, so the gap closes after **{a2_crossover}**, before the large model's first weekly run."),
        Range("D", "{range}, or never: the head start is too large", 8 * S.week_s, None, 26 * S.week_s,
              "At r = {r} the small model's hourly gains add up to {head_start} after {a2_crossover}; the large "
              "model's head start is a few days of its rival's runs."),
    ),
    truth=act2_truth,
)


def act2_facts() -> dict[str, str]:
    """The feedback's numbers at the scenario's inputs; the context moves neither curve."""
    r, daily = SCENARIO_RACE, DAILY_RACE
    day_runs = round(DAY / r.small.cycle_s)
    return {
        "r": fmt(S.decay, "num"), "a2_crossover": fmt(r.crossover_s, "h"),
        "head_start": fmt(S.large_start - S.small_start, "pp"), "small_gain": fmt(S.small_gain, "pp"),
        "day_runs": fmt(day_runs, "int"), "day_gain": fmt(w.accuracy_after(r.small, day_runs) - S.small_start, "pp"),
        "week": fmt(r.large.cycle_s, "h"),
        # in the card's unit (h) first, as the instruments show it at a 24 h cycle
        "daily_crossover": f"{fmt(daily.crossover_s, 'h')} ({fmt(daily.crossover_s, 'days')})",
        "daily_runs": fmt(daily.crossover_s / DAY, "int"),
        "hourly_runs": fmt(r.crossover_s / HOUR, "int"),
        "late_share": fmt(S.decay ** (r.crossover_s / r.small.cycle_s - 1), "pct"), "daily_ratio": fmt(daily.crossover_s / r.crossover_s, "x"),
        "large_by_then": fmt(w.accuracy_at_s(daily.large, daily.crossover_s), "pct1"),
        "daily_final": fmt(daily.final(daily.small), "pct1"), "cap": fmt(S.cap, "pct"),
        "window": fmt(r.window_s, "weeks"),
    }


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt="A phone's energy budget allows one small-model run a day, not one an hour. Run daily, with the "
           "other inputs as given, when does the small model catch the large one?",
    options=(
        Claim("A", "Never: one run a day cannot close the head start within the window.",
              "It does: after {daily_crossover}, well inside the {window}, and it ends the window at "
              "{daily_final}."),
        Claim("B", "After the same number of runs as hourly, each now a day long.",
              "Hourly, it took {hourly_runs} runs. Daily it takes {daily_runs}: while it climbs, the large model "
              "gains too, to {large_by_then}."),
        Claim("C", "After more runs than hourly: the large model gains while it climbs.",
              "After {daily_runs} runs, {daily_crossover}, instead of {hourly_runs}: by then the large model has "
              "had its weekly runs and stands at {large_by_then}. A cycle 24× slower draws level {daily_ratio} "
              "later."),
        Claim("D", "Only at the end, when both models meet at the accuracy ceiling.",
              "The small model draws level after {daily_crossover}, long before either reaches {cap}."),
    ),
    answer_letter="C",
)


def a2_overridden(s: State) -> dict[str, str]:
    """In the cloud the small model retrains on mains power: the phone's energy controls do not apply."""
    if s["context"] == "mobile":
        return {}
    reason = "Not used in the Cloud context: retraining runs in a datacentre, with no battery to drain."
    return {"a2_power": reason, "a2_budget": reason}


GATE_WORDS = {"target": "accuracy", "crossover": "iteration", "energy": "energy"}  # as the ledger page prints them


def gates(s: State, r: Race) -> list[tuple[str, bool | None, str]]:
    """The constraints the small-model plan must clear, each recorded at stage 1: name, passed, why."""
    small_t = r.to_target_s(r.small)
    energy = energy_j(s)
    on_phone = s["context"] == "mobile"
    return [
        ("target", small_t <= r.window_s,
         f"Accuracy: reach {fmt(S.target, 'pct')} within the window (small model: {when(small_t)})"),
        ("crossover", math.isfinite(r.crossover_s),
         f"Iteration: catch the large model within the window ({when(r.crossover_s)})"),
        ("energy", (energy <= s["a2_budget"]) if on_phone else None,
         f"Energy: retraining within {fmt(s['a2_budget'], 'Wh')} a day on the phone "
         f"({fmt(energy, 'Wh')} a day)" if on_phone else "Energy: not a constraint in the datacentre"),
    ]


def act2_instruments(s: State) -> list:
    r = race(s)
    on_phone = s["context"] == "mobile"
    energy = energy_j(s)
    ceiling = w.accuracy_ceiling(r.small)
    crossed = math.isfinite(r.crossover_s)
    # a crossover bought at a cycle the phone cannot afford is no success: not green beside the energy failure
    over = energy_over(s)
    note = crossover_note(r) + (", at a cycle over the energy budget" if over and crossed else "")
    cards = [M["a2_crossover"].show(r.crossover_s, "danger" if not crossed else None if over else "good", note)]
    if on_phone:
        cards.append(M["a2_energy_ratio"].show(energy / s["a2_budget"], "danger" if energy_over(s) else "good",
                                               f"{fmt(energy, 'Wh')} against {fmt(s['a2_budget'], 'Wh')}"))
    cards += [M["a2_small_final"].show(r.final(r.small)), M["a2_large_final"].show(r.final(r.large)),
              M["a2_small_ceiling"].show(ceiling, "danger" if ceiling < r.large.start else None,
                                         f"the large model starts at {fmt(r.large.start, 'pct1')}")]
    if on_phone:
        cards.append(M["a2_energy_day"].show(energy, note=f"{fmt(energy / C.PHONE_BATTERY_J, 'pct')} of a "
                                                          f"{fmt(C.PHONE_BATTERY_J, 'Wh')} battery"))
    cards += [M["a2_small_to_target"].show(r.to_target_s(r.small), note=f"target {fmt(S.target, 'pct')}"),
              M["a2_large_to_target"].show(r.to_target_s(r.large), note=f"target {fmt(S.target, 'pct')}")]
    parts = [metric_grid(*cards), act2_chart(r)]
    if ceiling < r.large.start:
        parts.append(failure(F["a2_no_crossover"],
                             f"At r = {fmt(r.small.decay, 'num')} the small model's gains add up to at most "
                             f"{fmt(ceiling, 'pct1')}, below the {fmt(r.large.start, 'pct1')} the large model "
                             "starts from: no cycle speed can make it catch up. Raise r."))
    if energy_over(s):
        parts.append(failure(F["a2_energy_budget"],
                             f"A {fmt(S.train_s, 'h')} run at {fmt(s['a2_power'], 'W')} every "
                             f"{cycle_label(s['a2_small_cycle'])} costs {fmt(energy, 'Wh')} a day, "
                             f"{fmt(energy / s['a2_budget'], 'x')} the budget. Retrain less often."))
    parts.append(callout("info", "Constraint gates for the small-model plan",
                         bullets(f"{'✓ pass' if ok else '✗ fail' if ok is False else '– n/a'} · {text}"
                                 for _, ok, text in gates(s, r))))
    return parts


def act2_chart(r: Race):
    times = race_times(r)
    hours = [t / HOUR for t in times]
    small = ch.line("Small model", hours, [w.accuracy_at_s(r.small, t) for t in times], "series2")
    large = ch.line("Large model", hours, [w.accuracy_at_s(r.large, t) for t in times], "series1")
    for trace in (small, large):
        trace["line"]["shape"] = "hv"
    target_line, target_note = ch.hline(S.target, "muted", f"target {fmt(S.target, 'pct')}")
    target_note.update(x=0, xanchor="left")  # the left end: the curves are still below the target there
    shapes, notes = [target_line], [target_note]
    if math.isfinite(r.crossover_s) and r.crossover_s > 0:
        # Plotly places shapes in data units but annotations on a log axis in log10 units
        line, note = ch.vline(math.log10(r.crossover_s / HOUR), "accent", f"catches up · {fmt(r.crossover_s, 'h')}")
        line["x0"] = line["x1"] = r.crossover_s / HOUR
        note.update(y=0, yanchor="bottom", xanchor="left", xshift=4)
        shapes.append(line)
        notes.append(note)
    ticks = [(v, text) for v, text in S.tick_hours if v * HOUR <= r.window_s]
    span = [0, math.log10(r.window_s / HOUR) + S.axis_pad]
    figure = ch.figure([large, small], x=ch.axis("Time since the race began", "log", tickvals=[v for v, _ in ticks],
                                                  ticktext=[text for _, text in ticks], range=span),
                       y=ch.axis("Accuracy", range=list(S.accuracy_axis), tickformat=".0%"),
                       shapes=shapes, annotations=notes)
    summary = (f"The small model starts at {fmt(r.small.start, 'pct1')} and ends the window at "
               f"{fmt(r.final(r.small), 'pct1')}; the large one goes from {fmt(r.large.start, 'pct1')} to "
               f"{fmt(r.final(r.large), 'pct1')}. "
               + (f"The small model catches up after {fmt(r.crossover_s, 'h')}." if math.isfinite(r.crossover_s)
                  else "The small model never catches up within the window."))
    marks = sorted({t for t in (HOUR, DAY, S.week_s, 4 * S.week_s, r.window_s) if t <= r.window_s})
    rows = [(fmt(t, "h"), fmt(w.accuracy_at_s(r.small, t), "pct1"), fmt(w.accuracy_at_s(r.large, t), "pct1"))
            for t in marks]
    return chart("a2_race", "Accuracy against time, log scale", figure, summary,
                 table=(("Time", "Small model", "Large model"), rows))


def act2_math(s: State):
    r = race(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"A(k) = \min\!\Big(A_{\text{cap}},\ A_0 + g\,\frac{1 - r^{k}}{1 - r}\Big)",
                 "Accuracy after *k* iterations when the *k*-th adds *g·r*^(k−1); with *r* = 1, *A*₀ + *g·k*."),
        Equation(r"A_\infty = A_0 + \frac{g}{1 - r}",
                 "Where the gains lead: if the small model's ceiling lies below the large one's start, no "
                 "cycle speed makes it catch up."),
        Equation(r"k^{*} = \Big\lceil \frac{\ln\!\big(1 - \Delta A\,(1 - r)/g\big)}{\ln r} \Big\rceil",
                 "Iterations to gain Δ*A*; multiply by the cycle time for hours."),
        Equation(r"E_{\text{day}} = \frac{24\ \text{h}}{t_{\text{cycle}}}\cdot P_{\text{train}}\cdot t_{\text{train}}",
                 "Energy a phone spends retraining per day, against a budget *B*."),
    ), rows=(
        ("Small model: *A*₀, *g*", f"{fmt(S.small_start, 'pct')}, {fmt(S.small_gain, 'pp')}"),
        ("Large model: *A*₀, *g*", f"{fmt(S.large_start, 'pct')}, {fmt(S.large_gain, 'pp')}"),
        ("Diminishing returns, *r*", fmt(r.small.decay, "num")),
        ("Small model's ceiling, *A*∞", fmt(w.accuracy_ceiling(r.small), "pct1")),
        ("Training run on the phone, *t*_train", fmt(S.train_s, "h")),
        ("Phone battery (reported)", fmt(C.PHONE_BATTERY_J, "Wh")),
    ), sources=(
        cite("mlsysbook_workflow", "the iteration race: 95 % at +0.15 per weekly iteration vs 90 % at +0.10 "
                                   "per hourly iteration, with linear gains"),
        C.REGISTRY["PHONE_BATTERY_J"].source,
        C.REGISTRY["PHONE_SUSTAINED_POWER_W"].source,
    ))


ACT2 = Act(
    number=2, title="The Iteration Race", minutes="20–25 min",
    stakeholder_role="ML Lead, clinic app",
    stakeholder=lambda: (
        f"This time the tablets' limit is recorded on day one, and two candidates fit it. The large one is at "
        f"{fmt(S.large_start, 'pct')} and each training run, one a week, adds {fmt(S.large_gain, 'pp')}. The "
        f"small one is at {fmt(S.small_start, 'pct')}, adds {fmt(S.small_gain, 'pp')} per run, and retrains in "
        f"an hour. We have {fmt(S.window_s, 'weeks')}. Which one do we bet on?"),
    scenario=lambda: (
        f"Returns diminish: each run gains *r* = {fmt(S.decay, 'num')} times what the previous one gained, "
        f"and no model passes {fmt(S.cap, 'pct')}. The target is {fmt(S.target, 'pct')}.",
        f"In the Mobile context the small model retrains on each user's phone: a {fmt(S.train_s, 'h')} run "
        f"per cycle, against a daily energy budget (by default {fmt(S.budget_j, 'Wh')}, "
        f"{fmt(S.budget_j / C.PHONE_BATTERY_J, 'pct')} of a {fmt(C.PHONE_BATTERY_J, 'Wh')} battery, an assumption).",
    ),
    prediction=ACT2_PREDICTION,
    controls=(A2_SMALL_CYCLE, A2_LARGE_CYCLE, A2_DECAY, A2_WINDOW, A2_POWER, A2_BUDGET),
    overridden=a2_overridden,
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="Iteration race simulator",
)

# ---- the whole lab ------------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    r = race(s)
    active = {"a1_most_redone": tax(s).share > 0.5,
              "a2_no_crossover": w.accuracy_ceiling(r.small) < r.large.start,
              "a2_energy_budget": energy_over(s)}
    return frozenset(name for name, on in active.items() if on)


def results(s: State) -> dict[str, float | str | bool | None]:
    t, r = tax(s), race(s)
    passed = [GATE_WORDS[name] for name, ok, _ in gates(s, r) if ok]
    return {"discovery_stage": float(t.stage), "multiplier": t.multiplier, "invalidated_days": t.redone_s / DAY,
            "t_cycle_small": r.small.cycle_s, "t_cycle_large": r.large.cycle_s, "r": r.small.decay,
            "crossover_h": r.crossover_s / HOUR, "gates": ", ".join(passed) or "none", "energy_fail": energy_over(s)}


RECORD = (
    MetricSpec("discovery_stage", "Stage at which the constraint surfaced", "1", "int"),
    MetricSpec("multiplier", "Cost to fix vs stage 1 (rule of thumb)", "1", "x"),
    MetricSpec("invalidated_days", "Days of work redone", "1", "num"),
    MetricSpec("t_cycle_small", "Small model's iteration cycle", "s", "h"),
    MetricSpec("t_cycle_large", "Large model's iteration cycle", "s", "h"),
    MetricSpec("r", "Diminishing returns, r", "1", "num"),
    MetricSpec("crossover_h", "Small model catches up after (hours)", "1", "num"),
    MetricSpec("gates", "Constraint gates passed", "1", "num"),
    MetricSpec("energy_fail", "Over the phone's daily energy budget", "1", "yesno"),
)


def lab_takeaways() -> list[str]:
    t, r, low, daily = SCENARIO_TAX, SCENARIO_RACE, UPSTREAM_RACE, DAILY_RACE
    hourly = w.daily_retraining_energy_j(HOUR, S.train_s, S.train_power_w)
    once = w.daily_retraining_energy_j(DAY, S.train_s, S.train_power_w)
    return [
        f"A constraint found as stage N begins invalidates every stage built since problem definition: at "
        f"deployment, {fmt(t.redone_s, 'days')} of the {fmt(t.project_s / DAY, 'int')}-day plan are redone and "
        f"delivery moves to day {fmt((t.project_s + t.redone_s) / DAY, 'int')}. The chapter's rule of thumb, "
        f"2^(N−1), prices it at {fmt(t.multiplier, 'x')}; the days barely grow after deployment, because the "
        "long stages come first.",
        f"Fast iteration wins while the returns last: at r = {fmt(S.decay, 'num')} the hourly small model "
        f"catches the weekly large one after {fmt(r.crossover_s, 'h')}; at r = {fmt(A2_DECAY.min, 'num')} it "
        f"saturates at {fmt(w.accuracy_ceiling(low.small), 'pct1')} and never does.",
        f"The deployment context moves no curve; it decides which cycles are allowed. On a phone, hourly "
        f"retraining costs {fmt(hourly, 'Wh')} a day ({fmt(hourly / S.budget_j, 'x')} the budget); daily "
        f"retraining costs {fmt(once, 'Wh')} ({fmt(once / S.budget_j, 'x')}) and still catches up after "
        f"{fmt(daily.crossover_s, 'days')}.",
    ]


LAB = Lab(
    id="v1_03", volume=1, number=3, title="The Constraint Tax",
    invariant="A constraint not recorded at **problem definition** is paid for by every stage built on it; "
              "iteration speed beats a head start only **while each iteration still buys accuracy**.",
    minutes="35–40 min", chapter="ML Workflow", url="vol1/03-constraint-tax/",
    description="What a constraint found late costs an ML project, and whether a fast-iterating small model can "
                "overtake a slow large one.",
    reading=(
        "**The six lifecycle stages**: their order, and the feedback between them.",
        "**Constraint propagation**: the chapter's rule of thumb for what a requirement found late costs.",
        "**Iteration velocity**: cycle time, diminishing returns, and whether a weaker model that trains fast can win.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "**V1-00 The Architect's Portal**: where you chose the deployment context this lab opens in.",
        "**V1-04 The Data Gravity Trap**: the data this workflow collects, fed to a GPU and moved between sites.",
        "**V1-08 The Training Memory Budget**: what decides whether a model fits a device at all.",
    ),
    record_metrics=RECORD,
    context_from=TRACK,
    track_notes=TRACK_NOTES,
    hook="A clinic's model is ready to ship when the team learns the tablets hold an eighth of it. What does "
         "that cost, and can a weak model that retrains hourly overtake a strong one that retrains weekly?",
)
