"""Lab V1-14 · The Silent Degradation Problem.

Core invariant: a deployed model decays without an error, so nothing on an operations dashboard
turns red; a drift statistic on the inputs moves weeks before the labels reveal the loss, and
the retraining cadence that costs least grows with the square root of the retrain's cost.

Act I (drift detection): a fraud model fell from 94 % to 87 % over 26 weeks with every dashboard
green. The transaction amount drifted 0.13 σ per week from launch; binned PSI on the training
deciles reaches 0.2 at 3.53 weeks, so a weekly check alarms at week 4 (accuracy still 92.9 %).
The monitor is **sampled** (a window of records per check, seeded, the same in CPython and
Pyodide), so the student sees sampling noise: n·PSI is about χ² with 9 degrees of freedom, and
a small window raises false alarms.
Act II (retraining economics): three products (cloud API, edge fleet, mobile app) lose accuracy
at different speeds and pay different prices per retrain. T* = √(2C/(V·r)), capped by an accuracy
floor at T_max = (A₀ − A_min)/r: about weekly, monthly and quarterly.

Questions, where this lab departs from the spec: the spec's Act I reflection (PSI is
the symmetric KL divergence) is stated by the act's own equations panel, and its Act II reflection
(PSI is a leading indicator) asks about Act I, not about what Act II showed. Act I's reflection now
asks how much sooner a halved threshold is reached (0.706 of the time: binned PSI grows about as
the shift squared, handbook/labs/v1_14.md §4's 0.3235 / 0.4583 σ); Act II's asks how retraining and staleness compare at
T* (equal, C/T* = V·r·T*/2, in every product). The keys are lettered C, D, A, B (the spec's Act II
key B is A here), and the context is named for the fraud team's three products.

Choices made where the spec leaves one: the Act I prediction asks for the population crossing
time (closed form, 3.53 weeks), not a sampled week, so its key does not depend on a random draw;
the instruments show the sampled monitor beside it. The accuracy curve is the one the team
measured (94 % → 87 % in 26 weeks); it does not move with the drift slider (no model links one
feature's shift to accuracy). The threshold offers the rule of thumb's 0.10 and 0.25 (Yurdakul
2018, after Lewis 1994) and the spec's 0.2. Act II's per-product inputs are the spec's scenario
figures, shown as adjustable assumptions; the edge fleet's retrain cost is the training run plus
one over-the-air update per device. The sampled monitor draws its records as a binary tree of fair
bits (``drift._BitTree``), exactly n uniform records per check at a fraction of the cost of listing
and sorting them.

Ledger fields: context, both predictions and reflections, delta_sigma_per_wk, check_interval_wk,
detect_wk, acc_at_detect, t_star_days, t_op_days, cadence_days, annual_cost_usd, floor_violated.
"""

from __future__ import annotations

import math

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option,
                              Prediction, Range, Reflection, Slider, State, failure, fmt, math_peek,
                              metric_grid)
from pylabs.framework.questions import Pick
from pylabs.labs.vol1.contexts import TRACK, deployment
from pylabs.labs.vol1.v1_14_charts import PRODUCT_NAMES, act1_chart, act2_cost_chart, act2_products_chart
from pylabs.labs.vol1.v1_14_model import (ACC_RATE, CADENCES, CLOUD, DAY, FEATURES, HORIZON, PP, PRODUCTS, THRESHOLDS,
                                          WEEK, WINDOWS, Monitor, Product, S, accuracy_at, act1_truth, act2_answer,
                                          beyond, crossing_s, nearest_cadence, retrain_usd,
                                          scenario_product)
from pylabs.physics import constants as C
from pylabs.physics import drift as D
from pylabs.physics.references import cite



# ---- context ----------------------------------------------------------------------

CONTEXT = deployment(("cloud", "edge", "mobile"), default="cloud", label="Product",
                     labels={"cloud": "Cloud API", "edge": "Edge fleet (in-store terminals)",
                             "mobile": "Mobile app"},
                     help="Sets how many records each drift check sees (an assumption) and the product whose "
                          "retraining Act II prices.")
TRACK_NOTES = {"tiny": "The fraud team's three products run in the cloud, on in-store terminals (Edge) and in a "
                       "phone app (Mobile); none runs on a microcontroller, so this lab has no TinyML product and "
                       "opens in Cloud."}

# ---- Act I · Drift detection ------------------------------------------------------

A1_FEATURE = Choice("a1_feature", "Feature the monitor watches",
                    tuple(Option(k, f"{n} (measured {fmt(d, 'num')} σ/week)") for k, (n, d) in FEATURES.items()),
                    default="amount", widget="select", help="Choosing a feature sets the drift slider to its "
                                                           "measured shift per week.")
A1_DRIFT = Slider("a1_drift", "Mean shift per week (training σ)", unit="σ/week", min=0, max=0.3, step=0.01,
                  default=FEATURES["amount"][1], fmt="num")
A1_CHECK = Slider("a1_check", "Check every (weeks)", unit="weeks", min=1, max=13, step=1, default=1, fmt="int")
A1_THRESHOLD = Choice("a1_threshold", "Alarm when PSI reaches", (
    Option("t10", f"{fmt(C.PSI_MINOR_SHIFT, 'num')}: rule of thumb, moderate shift"),
    Option("t20", f"{fmt(S.alarm_psi, 'num')}: the team's alarm"),
    Option("t25", f"{fmt(C.PSI_MAJOR_SHIFT, 'num')}: rule of thumb, significant shift"),
), default="t20")
A1_WINDOW = Slider("a1_window", "Records sampled per check", unit="records", min=50, max=10000, step=1,
                   default=WINDOWS["cloud"], fmt="int", scale="log", sig_figs=2,
                   help="The context sets how much production data reaches the monitor (an assumption).")
A1_DRAW = Slider("a1_draw", "Sample draw", unit="draw", min=1, max=20, step=1, default=1, fmt="int",
                 help="Another random draw of the same production data: watch what moves with a small window.")


def monitor(s: State) -> Monitor:
    return Monitor(s["a1_drift"], s["a1_check"], THRESHOLDS[s["a1_threshold"]], int(s["a1_window"]),
                   int(s["a1_draw"]))


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"Suppose the team had computed PSI for the transaction amount against its training deciles, with "
           f"an alarm at {fmt(S.alarm_psi, 'num')}. How long after launch would PSI have first reached "
           f"{fmt(S.alarm_psi, 'num')}, given the measured shift of {fmt(FEATURES['amount'][1], 'num')} σ per week?",
    quantity=f"time until the amount feature's PSI reaches {fmt(S.alarm_psi, 'num')}",
    unit_fmt="weeks",
    options=(
        Range("A", "{range}: by the very first weekly check", None, 1 * WEEK, 0.5 * WEEK,
              "After one week the mean has moved {shift_week1} σ and PSI reads {psi_week1}, a small fraction of "
              "{psi20}: few records have crossed a decile edge yet."),
        Range("B", "{range}: inside the first fortnight", 1 * WEEK, 2 * WEEK, 1.5 * WEEK,
              "A shift of {alarm_psi_as_shift} σ, the alarm's number read as a shift, comes at {linear_weeks}; "
              "but PSI is not the shift: at {alarm_psi_as_shift} σ it reads only {psi_at_linear}."),
        Range("C", "{range}: some weeks after launch", 2 * WEEK, 6 * WEEK, 4 * WEEK,
              "PSI reaches {psi20} once the mean has moved {shift20} σ, at {a1_crossing}. A weekly check on "
              "{window} records alarms at {a1_alarm}, accuracy still {a1_acc_at_alarm}, against the complaint "
              "at week {complaint}."),
        Range("D", "{range}: months, near the complaint", 6 * WEEK, None, 13 * WEEK,
              "The complaint needed labels and took {complaint} weeks; the inputs moved from the first week, "
              "and a statistic on the inputs sees that without waiting for a single label."),
    ),
    truth=act1_truth,
    shown_by="a1_crossing",
)


def context_alarm(context: str) -> D.Detection:
    """The weekly monitor on the amount feature at the team's alarm, with the context's window."""
    return Monitor(FEATURES["amount"][1], 1, S.alarm_psi, int(WINDOWS[context]), 1).run()


def act1_facts(context: str) -> dict[str, str]:
    shift20, shift10 = D.shift_for_psi(S.alarm_psi, S.bins), D.shift_for_psi(C.PSI_MINOR_SHIFT, S.bins)
    drift = FEATURES["amount"][1]
    alarm = context_alarm(context).alarm_s
    cross10 = crossing_s(drift, C.PSI_MINOR_SHIFT)
    return {"shift20": fmt(shift20, "num"), "shift10": fmt(shift10, "num"), "a1_crossing": fmt(act1_truth(), "weeks"),
            "cross10": fmt(cross10, "weeks"), "time_ratio": fmt(cross10 / act1_truth(), "pct"),
            "a1_alarm": fmt(alarm, "weeks"), "a1_acc_at_alarm": fmt(accuracy_at(alarm), "pct"),
            "window": fmt(WINDOWS[context], "int"), "complaint": fmt(S.complaint_weeks, "int"),
            "psi20": fmt(S.alarm_psi, "num"), "psi10": fmt(C.PSI_MINOR_SHIFT, "num"),
            "shift_week1": fmt(drift, "num"), "psi_week1": fmt(D.binned_psi(drift, S.bins), "num"),
            "alarm_psi_as_shift": fmt(S.alarm_psi, "num"), "linear_weeks": fmt(S.alarm_psi / drift * WEEK, "weeks"),
            "psi_at_linear": fmt(D.binned_psi(S.alarm_psi, S.bins), "num"),
            "square10": fmt(D.continuous_psi(shift10), "num")}


ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt=f"The team lowers its alarm from PSI {fmt(S.alarm_psi, 'num')} to the rule of thumb's "
           f"{fmt(C.PSI_MINOR_SHIFT, 'num')}. For the amount feature, when does the population's PSI now reach "
           "the alarm, compared with before?",
    options=(
        Claim("A", "At a quarter of the time: the time needed goes as the square of the threshold.",
              "The time goes as the shift needed, and the shift needed falls from {shift20} σ to {shift10} σ, not "
              "to a quarter: the population crosses {psi10} at {cross10} instead of {a1_crossing}."),
        Claim("B", "At half the time: PSI grows in step with the shift, so half the PSI is half the shift.",
              "PSI grows about as the shift squared (unbinned it is exactly Δ²), so half the PSI needs "
              "{shift10} σ instead of {shift20} σ: {cross10} instead of {a1_crossing}, {time_ratio} of the time."),
        Claim("C", "In the same week: PSI stays flat until records jump a decile, then passes both at once.",
              "Every decile's share moves a little from the first week, so PSI rises smoothly: it passes "
              "{psi10} at {cross10} and {psi20} at {a1_crossing}."),
        Claim("D", "At about seven tenths of the time: the shift it takes falls by about √2.",
              "PSI grows about as the shift squared, so half the PSI needs 1/√2 of the shift: {shift10} σ "
              "instead of {shift20} σ, {cross10} instead of {a1_crossing} ({time_ratio} of the time)."),
    ),
    answer_letter="D",
)


M = {m.name: m for m in (
    MetricSpec("a1_alarm", "First alarm", "s", "weeks", infinite="none"),
    MetricSpec("a1_acc_at_alarm", "Accuracy at the alarm", "1", "pct"),
    MetricSpec("a1_lead", "Warning before the complaint", "s", "weeks"),
    MetricSpec("a1_crossing", "Population PSI reaches the threshold", "s", "weeks", infinite="never"),
    MetricSpec("a1_noise_floor", "PSI from sampling noise alone", "1", "num"),
    MetricSpec("a1_psi_end", f"Sampled PSI at week {S.complaint_weeks:.0f}", "1", "num"),
    MetricSpec("a2_annual", "Cost per year at your cadence", "USD", "usd"),
    MetricSpec("a2_t_op", "Cheapest cadence that holds the floor", "s", "days"),
    MetricSpec("a2_lowest_acc", "Accuracy just before each retrain", "1", "pct"),
    MetricSpec("a2_extra", "Above the cheapest safe cadence", "1", "pct+"),
    MetricSpec("a2_t_star", "Cheapest cadence, T*", "s", "days"),
    MetricSpec("a2_t_max", "Longest cadence above the floor, T_max", "s", "days"),
    MetricSpec("a2_retrain", "Cost of one retrain", "USD", "usd"),
)}

FAILURES = (
    FailureSpec("a1_missed", "Missed: the complaint arrives before the alarm", act=1,
                reach={"a1_feature": "location", "a1_check": 13}, leave={"a1_check": 1}),
    FailureSpec("a1_false_alarm", "False alarm: noise crossed the threshold before the drift did", act=1,
                severity="warn",
                reach={"a1_window": 50}, leave={"a1_window": 5000}),
    FailureSpec("a2_floor_violated", "Below the accuracy floor before the next retrain", act=2,
                reach={}, leave={"a2_cadence": 6}, contexts=("cloud",)),
)
F = {f.name: f for f in FAILURES}


def alarm_status(mon: Monitor, det: D.Detection) -> dict[str, bool]:
    missed = det.alarm_s is None or not beyond(HORIZON, det.alarm_s)
    false_alarm = det.alarm_s is not None and det.alarm_s < mon.crossing_s
    return {"a1_missed": missed, "a1_false_alarm": false_alarm}


def act1_instruments(s: State) -> list:
    mon = monitor(s)
    det = mon.run()
    status = alarm_status(mon, det)
    alarm = det.alarm_s if det.alarm_s is not None else math.inf
    acc = accuracy_at(min(alarm, HORIZON))
    parts = [metric_grid(
        M["a1_alarm"].show(alarm, "danger" if status["a1_missed"] else "good",
                           "no check reached the threshold" if det.alarm_s is None else f"checks every "
                           f"{fmt(mon.check_weeks * WEEK, 'weeks')}"),
        M["a1_acc_at_alarm"].show(acc, None, "no alarm: the accuracy at the complaint" if det.alarm_s is None
                                  else f"from {fmt(S.acc_start, 'pct')} at launch"),
        M["a1_lead"].show(max(0.0, HORIZON - min(alarm, HORIZON)), note=f"complaint at week {S.complaint_weeks:.0f}"),
        M["a1_crossing"].show(mon.crossing_s, note=f"shift {fmt(D.shift_for_psi(mon.threshold, S.bins), 'num')} σ"),
        M["a1_noise_floor"].show(mon.noise_floor, "warn" if mon.noise_floor > mon.threshold / 4 else None,
                                 f"(B − 1)/n with n = {fmt(mon.window, 'int')}"),
        M["a1_psi_end"].show(det.checks[-1][1] if det.checks else 0.0),
    )]
    if status["a1_missed"]:
        parts.append(failure(F["a1_missed"], missed_text(s, mon)))
    if status["a1_false_alarm"]:
        parts.append(failure(F["a1_false_alarm"], false_alarm_text(mon, alarm)))
    parts.append(act1_chart(mon, det))
    return parts


def missed_text(s: State, mon: Monitor) -> str:
    """What would have caught the drift in time, naming only the levers not already at their limit."""
    crossing = (f"The population's PSI reaches {fmt(mon.threshold, 'num')} at {fmt(mon.crossing_s, 'weeks')}"
                if math.isfinite(mon.crossing_s) else "With no drift, PSI never reaches the threshold")
    levers = [text for text, free in (
        ("check more often", mon.check_weeks > A1_CHECK.min),
        ("lower the threshold", mon.threshold > C.PSI_MINOR_SHIFT),
        ("watch a faster-moving feature", s["a1_drift"] < max(d for _, d in FEATURES.values()))) if free]
    if not math.isfinite(mon.crossing_s) or not levers:
        return f"No check reached the threshold before the fraud team noticed. {crossing}."
    return (f"No check reached the threshold before the fraud team noticed. {crossing}: "
            f"{', '.join(levers[:-1]) + ' or ' if len(levers) > 1 else ''}{levers[-1]}.")


def false_alarm_text(mon: Monitor, alarm: float) -> str:
    said = (f"The alarm fired at {fmt(alarm, 'weeks')}, before the population's PSI reached "
            f"{fmt(mon.threshold, 'num')}" + (f" (at {fmt(mon.crossing_s, 'weeks')})" if math.isfinite(mon.crossing_s)
                                              else " (it never does: there is no drift)") +
            f". With {fmt(mon.window, 'int')} records a check reads about {fmt(mon.noise_floor, 'num')} of PSI from "
            "chance alone, and each check scatters around that")
    if mon.window < A1_WINDOW.max:
        return said + ": sample more records per check."
    if mon.threshold < max(THRESHOLDS.values()):
        return said + ": the window is at its largest, so a higher threshold is the lever left."
    return said + ": window and threshold are at their limits, and this close to the crossing a check's noise " \
                  "decides the week."


def act1_math(s: State):
    mon = monitor(s)
    return math_peek("The governing equations · Act I", (
        Equation(r"\mathrm{PSI} = \sum_{i=1}^{B} (a_i - e_i)\ln\frac{a_i}{e_i} = "
                 r"\mathrm{KL}(a\,\|\,e) + \mathrm{KL}(e\,\|\,a)",
                 "Production shares *a* against training shares *e* (deciles: every *e* is 1/10)."),
        Equation(r"a_i = \Phi(q_i - \Delta) - \Phi(q_{i-1} - \Delta),\quad \Delta(t) = \delta\,t",
                 "A feature N(0, 1) at training whose production mean has moved Δ training σ; "
                 "*q* are the training deciles."),
        Equation(r"n\cdot\widehat{\mathrm{PSI}} \approx \chi^2_{B-1}\ \Rightarrow\ "
                 r"\mathbb{E}[\widehat{\mathrm{PSI}}\mid\Delta=0] \approx \frac{B-1}{n}",
                 "A window of *n* records reads some PSI from chance alone."),
        Equation(rf"A(t) = A_0\,e^{{-\lambda t}},\quad \lambda = \ln(A_0/A_{{{HORIZON / WEEK:.0f}}})"
                 rf"/{HORIZON / WEEK:.0f}\ \text{{wk}}", "The accuracy the team measured, from launch to the complaint."),
    ), rows=(
        ("Drift, *δ*", f"{fmt(mon.drift_per_week, 'num')} σ/week"),
        ("Shift at the threshold", f"{fmt(D.shift_for_psi(mon.threshold, S.bins), 'num')} σ"),
        ("Population crossing", fmt(mon.crossing_s, "weeks") if math.isfinite(mon.crossing_s) else "never"),
        ("Records per check, *n*", fmt(mon.window, "int")),
        ("Noise floor, (B − 1)/n", fmt(mon.noise_floor, "num")),
        ("Decay, *λ*", f"{fmt(ACC_RATE * WEEK, 'num')} per week"),
    ), sources=(
        cite("yurdakul2018", f"the PSI formula, the {fmt(C.PSI_MINOR_SHIFT, 'num')} / {fmt(C.PSI_MAJOR_SHIFT, 'num')} "
                             "rule of thumb, n·PSI ≈ χ² with B − 1 degrees of freedom"),
        cite("jeffreys1946", "the symmetric divergence"),
        cite("dupisanie2023", "PSI in credit-scorecard monitoring"),
        "The sampled monitor draws each check's records with a fixed seed (Python's Mersenne Twister), so the "
        "browser and the tests see the same numbers.",
    ))


ACT1 = Act(
    number=1, title="The Green Dashboard", minutes="12–15 min",
    stakeholder_role="Head of Fraud Analytics",
    stakeholder=lambda: (
        f"Our fraud model scored {fmt(S.acc_start, 'pct')} at launch. Six months later the fraud team says it "
        f"misses cases: on last month's labels it scores {fmt(S.acc_complaint, 'pct')}. Latency, error rate and "
        "throughput stayed green the whole time. Looking back, transaction amounts started creeping up right "
        f"after launch, about {fmt(FEATURES['amount'][1], 'num')} training standard deviations per week. Could "
        "we have seen this coming?"),
    scenario=lambda: (
        "A model that degrades raises no exception: it keeps answering, just worse. Accuracy needs labels, and "
        "fraud labels arrive weeks late. The inputs, though, are there at once.",
        "The **population stability index** (PSI) compares where production records fall among the training "
        "data's deciles with the 10 % each that training put there. Production sees a sample, so each check "
        "reads the true PSI plus some noise.",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_FEATURE, A1_DRIFT, A1_CHECK, A1_THRESHOLD, A1_WINDOW, A1_DRAW),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Drift monitor",
)

# ---- Act II · Retraining economics -------------------------------------------------

A2_CADENCE = Slider("a2_cadence", "Retrain every (days)", unit="days", min=1, max=365, step=1,
                    default=S.cadence_days, fmt="int", scale="log", sig_figs=2)
A2_DRIFT_DAYS = Slider("a2_drift_days", f"Days to lose {fmt(S.drop / PP, 'num')} points of accuracy", unit="days",
                       min=3, max=365, step=1, default=CLOUD["drift_days"], fmt="int", scale="log", sig_figs=2,
                       help="How fast this product's world moves (assumed per product).")
A2_VALUE = Slider("a2_value", "Value of one point of accuracy for one day", unit="USD per pp·day", min=10,
                  max=10000, step=1, default=CLOUD["value"], fmt="usd", scale="log", sig_figs=2)
A2_FLOOR = Slider("a2_floor", "Accuracy floor", unit="1", min=0.80, max=0.935, step=0.005, default=CLOUD["floor"],
                  fmt="pct")
A2_RETRAIN = Slider("a2_retrain", "Training and release, per retrain", unit="USD", min=1000, max=200000, step=1,
                    default=CLOUD["retrain"], fmt="usd", scale="log", sig_figs=2)
A2_DEVICES = Slider("a2_devices", "Edge devices updated over the air", unit="devices", min=10, max=100000,
                    step=1, default=PRODUCTS["edge"]["devices"], fmt="int", scale="log", sig_figs=2,
                    help=f"Each over-the-air update costs {fmt(S.ota_usd, 'usd')} per device (assumed).")


def product(s: State) -> Product:
    return Product(retrain_usd(s["context"], s["a2_retrain"], s["a2_devices"]), s["a2_drift_days"], s["a2_value"],
                   s["a2_floor"])


def _inputs(context: str) -> str:
    p, prod = PRODUCTS[context], scenario_product(context)
    cost = (f"{fmt(p['retrain'], 'usd')} + {fmt(p['devices'], 'int')} devices × {fmt(S.ota_usd, 'usd')}"
            if context == "edge" else fmt(prod.retrain_usd, "usd"))
    return (f"the {PRODUCT_NAMES[context]} loses {fmt(S.drop, 'pp')} in {fmt(p['drift_days'], 'int')} days, "
            f"costs {cost} per retrain, values a point of accuracy at {fmt(p['value'], 'usd')} a day, and must not "
            f"fall below {fmt(p['floor'], 'pct')}")


ACT2_PREDICTION = Pick(
    id="a2_predict", act=2,
    prompt=f"Starting from {fmt(S.acc_start, 'pct')} after each retrain, on the team's estimates: {_inputs('cloud')}; {_inputs('edge')}; "
           f"{_inputs('mobile')}. Which schedule costs least while no product falls below its floor?",
    quantity="the cheapest cadences that hold every floor (cloud / edge / mobile)",
    options=(
        Claim("A", "Cloud API weekly, edge fleet monthly, mobile app quarterly.",
              "The cheapest safe cadences are {cloud_op}, {edge_op} and {mobile_op}. The edge fleet would "
              "prefer {edge_star}, but its floor comes first, at {edge_max}."),
        Claim("B", "Cloud API weekly, edge fleet weekly, mobile app monthly.",
              "Weekly, the edge fleet pays {edge_cost} per retrain {weekly_runs} times a year: {edge_weekly} "
              "against {edge_annual} at {edge_op}. Monthly, the mobile app pays {mobile_monthly} against "
              "{mobile_annual} at {mobile_op}."),
        Claim("C", "Cloud API monthly, edge fleet weekly, mobile app quarterly.",
              "The cloud API falls below its {cloud_floor} floor after {cloud_max}, so a monthly cycle breaks it; "
              "weekly, the edge fleet pays {edge_weekly} a year against {edge_annual} at {edge_op}."),
        Claim("D", "Cloud API weekly, edge fleet quarterly, mobile app quarterly.",
              "The edge fleet falls below its {edge_floor} floor after {edge_max}: even its cheapest interval, "
              "{edge_star}, is past the floor, and a quarter of a year is further still."),
    ),
    decide=act2_answer,
)


def act2_facts(context: str) -> dict[str, str]:
    prods = {c: scenario_product(c) for c in PRODUCTS}
    facts = {f"{c}_{k}": fmt(getattr(p, f"t_{k}"), "days") for c, p in prods.items() for k in ("op", "star", "max")}
    edge, mob, own = prods["edge"], prods["mobile"], prods[context]
    facts.update(edge_weekly=fmt(edge.annual(CADENCES["weekly"] * DAY), "usd"),
                 edge_annual=fmt(edge.annual(edge.t_op), "usd"), edge_cost=fmt(edge.retrain_usd, "usd"),
                 mobile_monthly=fmt(mob.annual(CADENCES["monthly"] * DAY), "usd"),
                 mobile_annual=fmt(mob.annual(mob.t_op), "usd"),
                 weekly_runs=fmt(D.SECONDS_PER_YEAR / (CADENCES["weekly"] * DAY), "int"),
                 cloud_floor=fmt(prods["cloud"].floor, "pct"), edge_floor=fmt(edge.floor, "pct"),
                 product=PRODUCT_NAMES[context], star=fmt(own.t_star, "days"),
                 retrain_star=fmt(D.retrain_usd_per_year(own.t_star, own.retrain_usd), "usd"),
                 stale_star=fmt(D.staleness_usd_per_year(own.t_star, own.value, own.rate), "usd"),
                 retrain_2star=fmt(D.retrain_usd_per_year(2 * own.t_star, own.retrain_usd), "usd"),
                 stale_2star=fmt(D.staleness_usd_per_year(2 * own.t_star, own.value, own.rate), "usd"),
                 star_root2=fmt(own.t_star / math.sqrt(2), "days"), half_star=fmt(own.t_star / 2, "days"),
                 total_root2=fmt(own.annual(own.t_star / math.sqrt(2)), "usd"),
                 total_half=fmt(own.annual(own.t_star / 2), "usd"),
                 root2_extra=fmt(own.annual(own.t_star / math.sqrt(2)) / own.annual(own.t_star) - 1, "pct"),
                 half_extra=fmt(own.annual(own.t_star / 2) / own.annual(own.t_star) - 1, "pct"))
    return facts


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt="On the cost chart the total is lowest at T∗. There, how does a year's retraining spend compare with "
           "the value lost to staleness?",
    options=(
        Claim("A", "Staleness is about half of retraining: the average loss is half the loss at a cycle's end.",
              "The half is already in the staleness term, V·r·T/2. For the {product}, at T∗ = {star} staleness "
              "costs {stale_star} a year and retraining {retrain_star}; staleness is half of retraining only at "
              "T∗/√2 = {star_root2}, where the total is {total_root2}, {root2_extra} above the lowest."),
        Claim("B", "They are equal: one falls as 1/T while the other grows in proportion to T.",
              "C/T and V·r·T/2 meet where their sum is lowest: for the {product}, at T∗ = {star}, "
              "{retrain_star} of retraining and {stale_star} of staleness a year. At twice T∗ they are "
              "{retrain_2star} and {stale_2star}."),
        Claim("C", "Retraining is several times larger: the total is lowest while the losses are still small.",
              "Retraining is four times staleness at T∗/2 = {half_star}, where the total is {total_half}, "
              "{half_extra} above the lowest. At T∗ = {star} the {product} spends {retrain_star} on "
              "retraining and {stale_star} on staleness."),
        Claim("D", "It depends on the product: a cheap retrain tips the balance toward staleness.",
              "A cheap retrain moves T∗ shorter, not the balance: at T∗ = {star} the {product} spends "
              "{retrain_star} on retraining and {stale_star} on staleness, and so does every product at its T∗."),
    ),
    answer_letter="B",
)


def act2_overridden(s: State) -> dict[str, str]:
    if s["context"] == "edge":
        return {}
    return {"a2_devices": f"Only the edge fleet pays per device; the {PRODUCT_NAMES[s['context']]} ships one "
                          "build, so its retrain cost is the training and release alone."}


def act2_instruments(s: State) -> list:
    p, t = product(s), s["a2_cadence"] * DAY
    best = p.annual(p.t_op) if p.t_op > 0 else math.inf
    violated = beyond(t, p.t_max)
    zero = S.acc_start / p.rate  # the straight line reaches 0 % here; the model says nothing past it
    past = beyond(t, zero)
    outside = f"outside the model: the straight line reaches 0 % after {fmt(zero, 'days')}"
    parts = [metric_grid(
        M["a2_annual"].show(p.annual(t), "danger" if violated else None, outside if past else
                            f"{fmt(D.retrain_usd_per_year(t, p.retrain_usd), 'usd')} retraining + "
                            f"{fmt(D.staleness_usd_per_year(t, p.value, p.rate), 'usd')} staleness"),
        M["a2_t_op"].show(p.t_op, "good", f"{nearest_cadence(p.t_op)} is the nearest habit" if p.t_op > 0
                          else "the floor is above the starting accuracy"),
        M["a2_lowest_acc"].show(p.lowest_acc(t), "danger" if violated else "good",
                                outside if past else f"floor {fmt(p.floor, 'pct')}"),
        M["a2_extra"].show(p.annual(t) / best - 1 if math.isfinite(best) else 0.0, "danger" if violated else None,
                           outside if past else
                           "cheaper only by breaking the floor" if violated and p.annual(t) < best else ""),
        M["a2_t_star"].show(p.t_star),
        M["a2_t_max"].show(p.t_max),
        M["a2_retrain"].show(p.retrain_usd, note=f"{fmt(s['a2_devices'], 'int')} × {fmt(S.ota_usd, 'usd')} OTA + "
                             f"{fmt(s['a2_retrain'], 'usd')}" if s["context"] == "edge" else "training and release"),
    )]
    if violated:
        lever = ("Retrain at least that often." if p.t_max >= A2_CADENCE.min * DAY else
                 f"No cadence here is that short (the slider stops at {fmt(A2_CADENCE.min * DAY, 'days')}): "
                 "lower the floor, or slow the drift.")
        parts.append(failure(F["a2_floor_violated"],
                             f"Retraining every {fmt(t, 'days')}, accuracy falls "
                             + (f"to 0 % after {fmt(zero, 'days')}, long before each retrain (the straight-line "
                                "decay and the costs above mean nothing past that)" if past else
                                f"to {fmt(p.lowest_acc(t), 'pct')} before each retrain")
                             + f", below the {fmt(p.floor, 'pct')} floor (it gets there after "
                             f"{fmt(p.t_max, 'days')}). {lever}"))
    parts.append(act2_cost_chart(p, t))
    parts.append(act2_products_chart())
    return parts


def act2_math(s: State):
    p = product(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"\text{cost per day} = \frac{C}{T} + \frac{V\,r\,T}{2}",
                 "A retrain costs *C* every *T* days; between retrains accuracy falls at *r* points a day and "
                 "each point lost costs *V* a day, so the average loss over a cycle is *rT*/2."),
        Equation(r"T^{*} = \sqrt{\frac{2C}{V\,r}},\qquad T_{\max} = \frac{A_0 - A_{\min}}{r},\qquad "
                 r"T_{\text{op}} = \min(T^{*}, T_{\max})",
                 "Setting the derivative to zero gives *T*∗; the floor caps the interval."),
    ), rows=(
        ("Cost per retrain, *C*", fmt(p.retrain_usd, "usd")),
        ("Decay, *r*", f"{fmt(p.rate * DAY, 'pp')} per day"),
        ("Value, *V*", f"{fmt(p.value_per_pp_day, 'usd')} per point per day"),
        ("*T*∗", fmt(p.t_star, "days")),
        ("*T*max", fmt(p.t_max, "days")),
    ), sources=(
        cite("harris1913", "the square-root trade-off of a fixed cost per run against a cost that grows between runs"),
        "Per-product costs, drift speeds, values and floors are the scenario's assumptions.",
    ))


ACT2 = Act(
    number=2, title="The Retraining Clock", minutes="15–20 min",
    stakeholder_role="VP of ML Platform",
    stakeholder=lambda: (
        f"We retrain every model every {fmt(S.cadence_days, 'int')} days, on one calendar. Finance wants to know if "
        "that is right for all three products: the cloud fraud API, the edge fleet of in-store terminals, and "
        "the mobile app. Each loses accuracy at its own speed and pays its own price to ship a new model."),
    scenario=lambda: (
        "Retrain too often and the training and release bills pile up; too rarely and the model spends most of "
        "its life stale. Somewhere between lies the cheapest interval.",
        "Each product also has an accuracy floor below which it must never fall, whatever the cost.",
    ),
    prediction=ACT2_PREDICTION,
    controls=(A2_CADENCE, A2_DRIFT_DAYS, A2_VALUE, A2_FLOOR, A2_RETRAIN, A2_DEVICES),
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    overridden=act2_overridden,
    instruments_title="Retraining economics",
)

# ---- the whole lab -------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    mon = monitor(s)
    status = alarm_status(mon, mon.run())
    p = product(s)
    status["a2_floor_violated"] = beyond(s["a2_cadence"] * DAY, p.t_max)
    return frozenset(name for name, on in status.items() if on)


RECORD = (
    MetricSpec("delta_sigma_per_wk", "Drift (σ per week)", "σ/week", "num"),
    MetricSpec("check_interval_wk", "Check interval (weeks)", "weeks", "num"),
    MetricSpec("detect_wk", "First alarm (week)", "weeks", "num"),
    MetricSpec("acc_at_detect", "Accuracy at the alarm", "1", "pct"),
    MetricSpec("t_star_days", "T* (days)", "days", "num"),
    MetricSpec("t_op_days", "Cheapest safe cadence (days)", "days", "num"),
    MetricSpec("cadence_days", "Chosen cadence (days)", "days", "num"),
    MetricSpec("annual_cost_usd", "Cost per year", "USD", "usd"),
    MetricSpec("floor_violated", "Floor broken", "1", "yesno"),
)


def results(s: State) -> dict[str, float | bool | None]:
    mon, p = monitor(s), product(s)
    det = mon.run()
    return {"delta_sigma_per_wk": mon.drift_per_week, "check_interval_wk": mon.check_weeks,
            "detect_wk": None if det.alarm_s is None else det.alarm_s / WEEK,
            "acc_at_detect": None if det.alarm_s is None else accuracy_at(det.alarm_s),
            "t_star_days": p.t_star / DAY, "t_op_days": p.t_op / DAY, "cadence_days": s["a2_cadence"],
            "annual_cost_usd": p.annual(s["a2_cadence"] * DAY),
            "floor_violated": beyond(s["a2_cadence"] * DAY, p.t_max)}


def lab_takeaways(context: str) -> list[str]:
    f = {**act1_facts(context), **act2_facts(context)}
    return [
        f"Binned PSI is the symmetric KL divergence, about the shift squared; it reaches {f['psi20']} once the mean "
        f"has moved {f['shift20']} σ. At {fmt(FEATURES['amount'][1], 'num')} σ a week that is {f['a1_crossing']}: "
        f"a weekly check on {f['window']} records alarms at {f['a1_alarm']} with accuracy still "
        f"{f['a1_acc_at_alarm']}, long before the complaint at week {f['complaint']}.",
        "A sampled check reads (B − 1)/n of PSI from chance alone: small windows raise false alarms, and the "
        f"{fmt(C.PSI_MINOR_SHIFT, 'num')} / {fmt(C.PSI_MAJOR_SHIFT, 'num')} rule of thumb ignores the sample size.",
        f"The cheapest retraining interval is T∗ = √(2C/(V·r)): a hundred times the cost is ten times the "
        f"interval, and at T∗ retraining and staleness cost the same ({f['retrain_star']} each per year for the "
        f"{f['product']}).",
        f"A floor caps the interval: cloud {f['cloud_op']}, edge {f['edge_op']} (it would prefer {f['edge_star']}), "
        f"mobile {f['mobile_op']}. An edge fleet pays its per-device update once per device.",
    ]


LAB = Lab(
    id="v1_14", volume=1, number=14, title="The Silent Degradation Problem",
    invariant="A degrading model raises no error: **watch the inputs**, which move weeks before the labels do, "
              "and retrain on a clock set by **√(retrain cost ÷ cost of decay)**.",
    minutes="30–35 min", chapter="ML Operations", url="vol1/14-silent-degradation/",
    description="A fraud model degrades while every dashboard stays green. How soon could a drift statistic on its "
                "inputs have warned the team, and how often should each of its products retrain?",
    reading=(
        "**Data drift and concept drift**: what changes in production, and what a model can notice.",
        "**Monitoring**: population stability index, KL divergence, and thresholds.",
        "**Retraining strategies**: schedules, triggers and their costs.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "**V1-13 The Tail Latency Trap**: the operational metrics that stayed green here.",
        "**V1-15 There Is No Free Fairness**: a model can drift apart for one group while the average holds.",
        "**V1-16 The Architect's Audit**: monitoring and retraining as part of a whole system's budget.",
    ),
    presets={
        "context": {c: {"a1_window": WINDOWS[c], "a2_drift_days": p["drift_days"], "a2_value": p["value"],
                        "a2_floor": p["floor"], "a2_retrain": p["retrain"]} for c, p in PRODUCTS.items()},
        "a1_feature": {k: {"a1_drift": d} for k, (_, d) in FEATURES.items()},
    },
    context_from=TRACK,
    record_metrics=RECORD,
    track_notes=TRACK_NOTES,
    hook=f"A fraud model slid from {fmt(S.acc_start, 'pct')} to {fmt(S.acc_complaint, 'pct')} in six months while "
         "every dashboard stayed green. How soon could a statistic on its inputs have warned the team, and how "
         "often should each of its products retrain?",
)
