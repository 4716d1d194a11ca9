"""Lab V2-15 · The Jevons Reckoning.

Core invariant: emissions are work ÷ efficiency × carbon intensity, ΔC = D/η − 1. An η-fold gain
in work per joule lowers carbon only while demand grows less than η-fold; beyond that the gain is
taken back (rebound (D − 1)/(η − 1) > 100 %: Jevons' backfire). Moving flexible work to cleaner
hours is a real but bounded lever: the deadline window and the night's spare capacity cap it.

Act I: a 2× FLOP/W upgrade and carbon up 40 % means work grew 2.8× (rebound 180 %; the upstream's
D = 3 gave +50 %, not its story's +40 %, and a "400 %" rebound). Act II: 1,000 H100s at 75 %
utilisation, 30 % of jobs flexible by 8 h, days 70 % coal + 30 % gas (721 g/kWh) and nights 90 %
wind + 10 % coal (91.9 g/kWh), IPCC AR5 lifecycle medians. Shifting saves 15.5 % at the stated plan
(the Act II prediction, key B), 23.2 % with a 12 h window and at most 25.8 % (night headroom); the
−40 % target needs clean supply (the upstream marked "shifting achieves 40 %", false even in its
own model: 28.5 %). Shifting is credited at the night's average intensity; extra load is served at
the margin (Siler-Evans et al. 2012), so the savings are upper bounds and the page says so.

Where the spec is wrong, and what this lab does instead: the spec's deadline rule
("requested shift above the window or the headroom", read as F > F_eff) fired for every plan with
F > 0 and W < 12 h, including the stakeholder's own 30 % / 8 h, and its levers did not clear it. The
plan holds F·min(1, W/H_d) of the day's load (the flexible jobs that arrive within W of nightfall;
the others run at once and miss nothing); a deadline breaks only when that exceeds
min(W/H_d, headroom), which is the headroom.

Review (independent): the reflection's own setting (every job flexible, 12 h) fires the
deadline failure, so until the Act II reflection is locked its text gives the symptom and the levers
that clear it alone (fewer jobs, a shorter window) without the cause, and the equations panel gives
the window's bound without the headroom formula (classes 34, 45); the prompt states the
average-intensity accounting the key rests on (class 16: at the margin the key would be A); the total
card is not green while deadlines break.

Questions: Act I asks for the work growth (ranges < 1.2×, 1.2–2×, 2–2.5× for the
additive mistake 2 + 0.4, ≥ 2.5×; key D, 2.8×, and 2.54× at the datasheets' 1.81×); Act II asks for the stated plan's saving (ranges
< 10 %, 10–25 %, 25–40 % for the upstream's 28.5 %, ≥ 40 %; key B, 15.5 %), where the window binds
and the night's capacity does not, so the Act II reflection (key C, the headroom) is not answered by
the prediction. The context scales tonnes, never a ratio: every key holds in both.

Choices the spec left open, and why: Act I's demand growth starts at 1× (the work the team
planned), not the spec's 2.8, because a slider showing 2.8× would print the answer before the
prediction; the student moves it until the carbon change matches the story. Act I's energy is
scaled to last year's fleet, 1,250 A100s at 400 W, so that 2.8× the work at 2× FLOP/W is exactly
the spec's 1,000 H100s at 700 W (117,600 kWh a week). Act II adds one lever the answer names,
clean supply matched hour by hour (a labelled assumption at onshore wind's lifecycle intensity),
so the warning can be left by the right decision. The context is the accounting boundary: GPU
board power (the spec's) or the whole facility at the industry-average PUE; it scales every
absolute figure and no ratio, which is itself a lesson.

Ledger (handbook/labs/v2_15.md §1): results eff_gain, demand_growth, net_carbon_change, rebound, flex_frac, window_h,
util, shift_eff, savings_frac (time shifting alone), target_met (with clean supply), plus
procured_frac and total_savings_frac; answers a1_predict (act1_prediction, act1_correct) and
a2_predict (the stated plan's saving); failures_active (constraint_hit).
"""

from __future__ import annotations


from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option,
                              Prediction, Range, Reflection, Slider, State, chart, failure, fmt, math_peek,
                              metric_grid)
from pylabs.framework import charts as ch
from pylabs.physics import carbon
from pylabs.physics import constants as C
from pylabs.physics import units as U
from pylabs.physics.references import cite

from .v2_15_model import (BEST_SHIFT, DATASHEET_GAIN, DAY_H, HOUR_S, I_CLEAN, I_DAY, I_NIGHT, OLD_ENERGY_J, PCT, PUE,
                          SOURCES, TEAM, Plan, S, Upgrade)



TARGET = fmt(S.target, "pct")
FULL = fmt(1.0, "pct")  # a rebound of 100 % takes back the whole saving

# ---- context ----------------------------------------------------------------------

CONTEXT = Choice("context", "Accounting boundary", (
    Option("board", "GPU board power only (the sustainability report's method)"),
    Option("facility", f"Whole facility: cooling and power delivery at the industry-average PUE of "
                       f"{fmt(C.PUE_INDUSTRY_AVG_2023, 'num')}"),
), default="board", help="Sets Act I's PUE and Act II's; scales every energy and tonnage, no percentage.")

# ---- Act I · The rebound ------------------------------------------------------------

A1_EFF = Slider("a1_eff", "Efficiency gain, η (work per joule)", unit="1", min=1.1, max=5, step=0.1,
                default=S.eff_claim, fmt="x", help=f"The vendor claims 2×; dense BF16 per watt at maximum power gives "
                                          f"{fmt(DATASHEET_GAIN, 'x')} (NVIDIA datasheets).")
A1_DEMAND = Slider("a1_demand", "Demand growth, D (work this year ÷ last year)", unit="1", min=1, max=10,
                   step=0.1, default=S.demand_planned, fmt="x")
A1_SOURCE = Choice("a1_source", "Electricity the fleet runs on",
                   tuple(Option(k, f"{name} · {fmt(i, 'g/kWh')}") for k, (name, i) in SOURCES.items()),
                   default="coal", widget="select", unit="kg/J",
                   help="IPCC AR5 lifecycle medians of one source; changes tonnes, not the percentage change.")
A1_PUE = Slider("a1_pue", "Facility PUE (facility energy ÷ IT energy)", unit="1", min=1.0, max=2.0, step=0.01,
                default=PUE["board"], fmt="num", help="1 counts GPU board power only; set by the context.")


def a1_truth() -> float:
    return carbon.demand_growth_for_change(S.eff_claim, S.carbon_rise)


RISE = fmt(S.carbon_rise, "pct")
ETA = fmt(S.eff_claim, "x")

ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"The new H100 fleet does {ETA} the work per joule of the old A100s, on the same grid. A year "
           f"later the fleet's carbon is up {RISE}. How much more work must the fleet be doing?",
    quantity="work this year ÷ work last year, D",
    unit_fmt="x",
    options=(
        Range("A", "{range}: about last year's work; the chips explain the rise", None, S.edge_a, S.a_demand,
              "Power per GPU sets how fast work gets done, not the energy per unit of work: each H100 draws "
              "{h100_w} against the A100's {a100_w} yet does {gain_ds} the work per joule. The same work "
              "would have cut carbon by {same_work}."),
        Range("B", "{range}: the work grew about as much as the carbon did", S.edge_a, S.edge_b, S.b_demand,
              "{b_demand} the work at {eta} the work per joule changes carbon by {b_change}: any growth below "
              "η still lowers it. A rise needs D above η."),
        Range("C", "{range}: the efficiency gain plus the measured rise", S.edge_b, S.edge_c, S.c_demand,
              "{c_demand} the work (the gain plus the rise) changes carbon by {c_change}: growth and "
              "efficiency divide, D/η, they do not add."),
        Range("D", "{range}: the gain compounded by the measured rise", S.edge_c, None, S.d_demand,
              "D = η·(1 + ΔC) = {a1_demand_for_rise}. Cheaper work per joule invited more runs, more experiments "
              "and more deployments: the rebound is {rebound} of the expected saving, past {full}: backfire."),
    ),
    truth=a1_truth,
    shown_by="a1_demand_for_rise",
)


def act1_facts() -> dict[str, str]:
    return {"h100_w": fmt(C.H100_TDP_W, "W"), "a100_w": fmt(C.A100_TDP_W, "W"), "gain_ds": fmt(DATASHEET_GAIN, "x"),
            "same_work": fmt(-carbon.net_carbon_change(S.eff_claim, 1.0), "pct"),
            "b_demand": fmt(S.b_demand, "x"), "b_change": fmt(carbon.net_carbon_change(S.eff_claim, S.b_demand), "pct+"),
            "c_demand": fmt(S.c_demand, "x"), "c_change": fmt(carbon.net_carbon_change(S.eff_claim, S.c_demand), "pct+"),
            "a1_demand_for_rise": fmt(a1_truth(), "x"), "rebound": fmt(carbon.rebound(S.eff_claim, a1_truth()), "pct"),
            "eta": ETA, "rise": RISE, "next_gen": fmt(carbon.net_carbon_change(S.eff_claim, a1_truth()), "pct+"),
            "per_flop": fmt(1 - 1 / S.eff_claim, "pct"), "budget_growth": fmt(S.eff_claim, "x"), "full": FULL}


ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="Efficiency alone let the fleet's carbon rise. Which policy keeps it from rising again, next "
           "year and after?",
    options=(
        Claim("A", "An absolute budget: a cap on tonnes a year that all growth in work must fit inside.",
              "A cap turns efficiency into room to grow: held at last year's tonnes, with a {eta} gain work can "
              "grow up to {budget_growth} before the cap binds, and beyond it the team must choose which runs matter, or buy clean energy."),
        Claim("B", "Buy the next generation as soon as it ships, for another doubling of work per joule.",
              "If demand keeps growing as it did, another {eta} gain gives the same {next_gen} again. Efficiency "
              "moves the price of work, not the amount of it."),
        Claim("C", "Report carbon per FLOP instead of total carbon, so each upgrade's gain is credited.",
              "Carbon per FLOP fell {per_flop}, which is exactly why the total rose unnoticed. An intensity metric "
              "cannot see a rebound."),
        Claim("D", "Move the fleet once to a region whose grid emits a fraction of this one's carbon.",
              "A one-off cut in intensity helps now, but the same growth eats it: with work growing as it did, "
              "emissions climb again from the lower base, {next_gen} with each generation. It is a lever, not a limit."),
    ),
    answer_letter="A",
)

M = {m.name: m for m in (
    MetricSpec("a1_net_change", "Change in weekly carbon", "1", "pct+"),
    MetricSpec("a1_rebound", "Rebound (share of the saving taken back)", "1", "pct"),
    MetricSpec("a1_co2e_week", "Weekly emissions, this year", "kg", "CO2e"),
    MetricSpec("a1_energy_week", "Weekly energy, this year", "J", "Wh"),
    MetricSpec("a1_demand_for_rise", f"Work growth behind a {fmt(S.carbon_rise, 'pct+')} carbon change", "1", "x"),
    MetricSpec("a1_break_even", "Demand growth that cancels the gain", "1", "x"),
    MetricSpec("a1_h100s", "H100s at maximum power this energy buys", "GPUs", "int"),
    MetricSpec("a2_total_savings", "Emissions saved, total", "1", "pct"),
    MetricSpec("a2_shift_savings", "Saved by time shifting", "1", "pct"),
    MetricSpec("a2_shift_eff", "Day load moved to night, F_eff", "1", "pct"),
    MetricSpec("a2_headroom", "Night spare capacity (share of day load)", "1", "pct"),
    MetricSpec("a2_procure_needed", "Clean supply needed for the target", "1", "pct"),
    MetricSpec("a2_co2e_week", "Weekly emissions after", "kg", "CO2e"),
)}
RECORD = (
    MetricSpec("eff_gain", "Efficiency gain η", "1", "x"), MetricSpec("demand_growth", "Demand growth D", "1", "x"),
    MetricSpec("net_carbon_change", "Change in carbon", "1", "pct+"), MetricSpec("rebound", "Rebound", "1", "pct"),
    MetricSpec("flex_frac", "Flexible share of jobs", "1", "pct"), MetricSpec("window_h", "Delay window (h)", "h", "num"),
    MetricSpec("util", "Utilisation", "1", "pct"), MetricSpec("shift_eff", "Day load moved, F_eff", "1", "pct"),
    MetricSpec("savings_frac", "Saved by shifting", "1", "pct"), MetricSpec("target_met", "Target met", "1", "yesno"),
    MetricSpec("procured_frac", "Clean supply matched", "1", "pct"),
    MetricSpec("total_savings_frac", "Saved in total", "1", "pct"),
)

FAILURES = (
    FailureSpec("a2_sla", "Deadline broken: held jobs would miss their window", act=2,
                reach={"a2_flex": 0.6}, leave={"a2_flex": 0.45}),
    FailureSpec("a2_target", f"Below the −{TARGET} target", act=2, severity="warn",
                reach={}, leave={"a2_procure": 0.35}),
)
F = {f.name: f for f in FAILURES}


def upgrade(s: State) -> Upgrade:
    return Upgrade(s["a1_eff"], s["a1_demand"], SOURCES[s["a1_source"]][1], s["a1_pue"])


def act1_instruments(s: State) -> list:
    u = upgrade(s)
    h100s = u.energy_j / u.pue / carbon.fleet_energy_j(1, C.H100_TDP_W, S.week_s)
    before = carbon.emissions_kg(OLD_ENERGY_J * u.pue, u.intensity)
    return [metric_grid(
        M["a1_net_change"].show(u.change, "danger" if u.change > 0 else "good", f"vs {fmt(before, 'CO2e')} last year"),
        M["a1_rebound"].show(carbon.rebound(u.eff, u.demand), "danger" if u.demand > u.eff else None,
                             f"above {FULL} is backfire"),
        M["a1_demand_for_rise"].show(carbon.demand_growth_for_change(u.eff, S.carbon_rise),
                                     note=f"D = η × (1 + ΔC) at η = {fmt(u.eff, 'x')}"),
        M["a1_co2e_week"].show(u.co2e_kg, note=f"at {fmt(u.intensity, 'g/kWh')}, PUE {fmt(u.pue, 'num')}"),
        M["a1_energy_week"].show(u.energy_j),
        M["a1_break_even"].show(u.eff, note="D = η"),
        M["a1_h100s"].show(h100s, note=f"{fmt(C.H100_TDP_W, 'W')} (TDP) each, all week [assumed]"),
    ), act1_chart(u)]


def act1_chart(u: Upgrade):
    ds = [1 + 0.5 * i for i in range(19)]
    etas = sorted({*S.curve_etas, round(u.eff, 1)})
    colours = dict(zip(etas, ("series1", "series2", "series3", "series4")))
    traces = [ch.line(f"η = {fmt(e, 'x')}", ds, [PCT * carbon.net_carbon_change(e, d) for d in ds], colours[e],
                      dash="solid" if e == round(u.eff, 1) else "dot") for e in etas]
    traces.append(ch.point("Your setting", u.demand, PCT * u.change, "accent"))
    zero, zero_note = ch.hline(0, "muted", "no change")
    figure = ch.figure(traces, x=ch.axis("Demand growth, D (×)"), y=ch.axis("Change in carbon (%)"),
                       shapes=[zero], annotations=[zero_note])
    summary = (f"Carbon rises once demand grows faster than efficiency: at η = {fmt(u.eff, 'x')} the break-even "
               f"is D = {fmt(u.eff, 'x')}; your D = {fmt(u.demand, 'x')} gives {fmt(u.change, 'pct+')}.")
    rows = [(fmt(d, "x"), *(fmt(carbon.net_carbon_change(e, d), "pct+") for e in etas)) for d in ds[::2]]
    return chart("a1_rebound", "Change in carbon against demand growth, per efficiency gain", figure, summary,
                 table=(("Demand growth", *(f"η = {fmt(e, 'x')}" for e in etas)), rows))


def act1_math(s: State):
    u = upgrade(s)
    return math_peek("The governing equations · Act I", (
        Equation(r"C = E \cdot I = \frac{W}{\eta_{\text{J}}}\cdot \text{PUE}\cdot I",
                 "Emissions are work *W* over work per joule, times facility overhead and the grid's intensity *I*."),
        Equation(r"\frac{C_1}{C_0} - 1 = \frac{D}{\eta} - 1",
                 "Work grows *D*-fold and work per joule *η*-fold on the same grid: PUE and *I* cancel."),
        Equation(r"R = \frac{\text{expected saving} - \text{actual saving}}{\text{expected saving}} = \frac{D-1}{\eta-1}",
                 f"The standard rebound: 0 keeps the whole saving, {FULL} loses it, above {FULL} is Jevons' backfire."),
    ), rows=(
        (f"Last year, {fmt(S.old_gpus, 'int')} A100s at their {fmt(C.A100_TDP_W, 'W')} maximum (TDP) [assumed]",
         fmt(OLD_ENERGY_J, "Wh")),
        ("This year, × *D*/*η* × PUE", fmt(u.energy_j, "Wh")),
        ("Intensity, *I*", fmt(u.intensity, "g/kWh")),
        ("Rebound, *R*", fmt(carbon.rebound(u.eff, u.demand), "pct")),
        ("Datasheet gain (dense BF16 per watt at TDP)", fmt(DATASHEET_GAIN, "x")),
    ), sources=(
        cite("jevons1865", "cheaper use of a resource raises its total use"),
        cite("sorrell2009", "the rebound as the share of the expected saving taken back"),
        cite("ipcc_ar5_annex3", "lifecycle medians: coal 820, gas 490, solar PV 48, hydro 24, nuclear 12, wind 11 g/kWh"),
        cite("uptime2023", "industry-average PUE 1.58"),
        "NVIDIA H100 and A100 SXM datasheets: dense BF16 throughput and maximum power (see Sources).",
    ))


ACT1 = Act(
    number=1, title="The Upgrade", minutes="12–15 min",
    stakeholder_role="Head of Sustainability",
    stakeholder=lambda: (
        f"We replaced our A100s with H100s last year: {ETA} the work per watt, the vendor said. I promised the "
        f"board our compute carbon would fall. This year's report says it rose {RISE}, same data centre, same "
        "grid. Did the new chips draw more power? Did the grid get dirtier? What happened?"),
    scenario=lambda: (
        f"Last year the fleet was **{fmt(S.old_gpus, 'int')} A100s** at maximum power (TDP) all week [assumed]. This year it is H100s, and the "
        "teams that share it were free to run whatever they needed.",
        "Emissions are the energy drawn times the carbon intensity of the electricity. The instruments "
        "show last year's work scaled by demand growth *D* and divided by the efficiency gain *η*.",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_EFF, A1_DEMAND, A1_SOURCE, A1_PUE),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Fleet carbon calculator",
)

# ---- Act II · The shifting limit ----------------------------------------------------

A2_FLEX = Slider("a2_flex", "Flexible share of the day's jobs, F", unit="1", min=0, max=1, step=0.05,
                 default=S.flex, fmt="pct", help="Jobs the scheduler may hold for the night.")
A2_WINDOW = Slider("a2_window", "Delay window, W", unit="s", min=0, max=S.day_s, step=U.S_PER_HOUR / 2,
                   default=S.window_h * U.S_PER_HOUR, fmt="h", help="Hours a flexible job may wait; a job submitted more than W hours before "
                                   "nightfall cannot wait for the night.")
A2_UTIL = Slider("a2_util", "Cluster utilisation, u", unit="1", min=0.5, max=0.95, step=0.05, default=S.util,
                 fmt="pct", help="Share of the cluster's GPUs busy, day and night alike.")
A2_PROCURE = Slider("a2_procure", "Clean supply matched hour by hour", unit="1", min=0, max=1, step=0.05,
                    default=0.0, fmt="pct", help="Share of every hour's energy met by new wind at "
                                                 f"{fmt(I_CLEAN, 'g/kWh')} [assumption: additional, hourly matched].")


def plan(s: State) -> Plan:
    return Plan(s["a2_flex"], s["a2_window"] / HOUR_S, s["a2_util"], s["a2_procure"], PUE[s["context"]])


def a2_truth() -> float:
    """The stated plan's saving by shifting (30 % flexible, 8 h, 75 % utilisation): the window binds, not
    the night's capacity, so the reflection's cause is not the prediction's."""
    return TEAM.shift_savings


ACT2_PREDICTION = Prediction(
    id="a2_predict", act=2,
    prompt=f"The board wants the cluster's emissions down {TARGET}. At the stated plan ({fmt(S.flex, 'pct')} "
           f"of jobs held up to {fmt(S.window_h, 'num')} h for the night), what share of the week's emissions "
           "does carbon-aware shifting save, each moved kWh counted at the night mix's intensity?",
    quantity="emissions saved by shifting",
    unit_fmt="pct",
    options=(
        Range("A", "{range}: a small dent in the week's emissions", None, S.a2_edge_a, S.a2_a,
              "The plan moves {a2_shift_eff} of the day's load, and each moved kWh emits {i_night} instead of "
              "{i_day}, a cut of {cut}: that is {a2_shift_savings} of the week, more than a dent."),
        Range("B", "{range}: a real cut, well short of the target", S.a2_edge_a, S.a2_edge_b, S.a2_b,
              "{a2_shift_eff} of the day's load moves ({flex} of jobs × the {reach} of the day within "
              "{window} h of nightfall); each kWh saves {i_day} − {i_night}, against a baseline whose nights "
              "already run at {i_night}: {a2_shift_savings}, an upper bound at the night's average intensity."),
        Range("C", "{range}: within reach of the target, still short", S.a2_edge_b, S.target, S.a2_c,
              "Charging every hour at the day mix, as a common shortcut does, gives {naive}. Counting the "
              "nights the cluster already runs on the night mix, the plan saves {a2_shift_savings}."),
        Range("D", "{range}: the target or more, by shifting alone", S.target, None, S.a2_d,
              "The plan saves {a2_shift_savings}. Saving {target} by shifting would take {needed_move} of the "
              "day's load moved to the night, {needed_x} what this plan moves."),
    ),
    truth=a2_truth,
    shown_by="a2_shift_savings",
)


def act2_facts() -> dict[str, str]:
    team12 = Plan(S.flex, DAY_H, S.util)
    move = S.target * (I_DAY + I_NIGHT) / (I_DAY - I_NIGHT)  # F_eff that saves the target, capacity aside
    return {"a2_shift_savings": fmt(TEAM.shift_savings, "pct"), "a2_shift_eff": fmt(TEAM.shift_eff, "pct"),
            "team12": fmt(team12.shift_savings, "pct"), "flex": fmt(S.flex, "pct"), "window": fmt(S.window_h, "num"),
            "reach": fmt(min(1.0, S.window_h / DAY_H), "pct"), "cut": fmt(1 - I_NIGHT / I_DAY, "pct"),
            "headroom": fmt(BEST_SHIFT.headroom, "pct"), "best": fmt(BEST_SHIFT.shift_savings, "pct"),
            "naive": fmt(carbon.naive_shift_savings(S.flex, carbon.g_per_kwh_to_kg_per_j(S.upstream_day_g),
                                                    carbon.g_per_kwh_to_kg_per_j(S.upstream_night_g)), "pct"),
            "target": TARGET, "needed_move": fmt(move, "pct"), "needed_x": fmt(move / TEAM.shift_eff, "x"),
            "i_day": fmt(I_DAY, "g/kWh"), "i_night": fmt(I_NIGHT, "g/kWh"),
            "needed": fmt(team12.procure_needed, "pct"), "window12": fmt(DAY_H, "num"),
            "pue_f": fmt(PUE["facility"], "num")}


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt=f"With a {fmt(DAY_H, 'num')} h window, making every job flexible instead of {fmt(S.flex, 'pct')} "
           "raises the charted saving only a little. Why?",
    options=(
        Claim("A", "The window, not the flexible share, sets how much work can reach the night.",
              "A {window12} h window is the whole day: every flexible job can reach the night, so the window "
              "holds nothing back here; the limit is elsewhere."),
        Claim("B", "Past the first jobs moved, the night grid is hardly cleaner than the day's.",
              "This model credits every moved kWh at the night's average, {i_night} against {i_day}, the first "
              "or the last; what stops is the load moved, F_eff, at {headroom}. Counted at the margin each kWh "
              "would save less, which lowers the whole curve (an upper bound), not flattens it at one share."),
        Claim("C", "Most night GPUs are already busy, so the night can take little more work.",
              "Idle night capacity is (1 − u)/u × H_n/H_d = {headroom} of the day's load, so F_eff stops there "
              "and the saving at {best}. Lower utilisation buys room, at the price of idle GPUs."),
        Claim("D", "Running the extra work at night raises the facility's PUE and cancels the gain.",
              "PUE multiplies day and night alike in this model (1 on the board, {pue_f} for the facility; "
              "cooler nights, if anything, lower it); the saving stops at {best} in both."),
    ),
    answer_letter="C",
)


def act2_instruments(s: State) -> list:
    p = plan(s)
    met = p.total_savings >= S.target
    parts = [metric_grid(
        M["a2_total_savings"].show(p.total_savings, ("warn" if p.sla_broken else "good") if met else "warn",
                                   f"target {TARGET}" + ("; deadlines broken" if met and p.sla_broken else "")),
        M["a2_shift_savings"].show(p.shift_savings, note=f"upper bound: night at its average {fmt(I_NIGHT, 'g/kWh')}"),
        M["a2_shift_eff"].show(p.shift_eff, "danger" if p.sla_broken else None, f"of {fmt(p.held, 'pct')} held"),
        M["a2_headroom"].show(p.headroom),
        M["a2_procure_needed"].show(p.procure_needed, note="on top of this shift" if p.procure_needed > 0
                                     else "none: shifting alone meets the target"),
        M["a2_co2e_week"].show(p.co2e_week, note=f"PUE {fmt(p.pue, 'num')}; busy GPUs at TDP [assumed]"),
    )]
    if p.sla_broken:
        parts.append(sla_failure(p, s.locked(ACT2_REFLECTION.id)))
    if p.total_savings < S.target:
        parts.append(failure(F["a2_target"], f"{fmt(p.total_savings, 'pct')} saved against the {TARGET} target. "
                             f"Matching {fmt(p.procure_needed, 'pct')} of each hour's energy with clean supply closes the gap."))
    parts.append(act2_chart(p))
    return parts


def sla_failure(p: Plan, reveal: bool):
    """The deadline failure. Its cause (the busy night) and the lever that follows from it (lower
    utilisation) are the Act II reflection's key, and the reflection's own setting (every job, 12 h)
    fires this failure: until the reflection is locked, the text gives the symptom and the levers that
    clear it alone without naming the cause (classes 34 and 44)."""
    held, runs, window = fmt(p.held, "pct"), fmt(p.shift_eff, "pct"), fmt(p.window_h, "num")
    if not reveal:
        return failure(F["a2_sla"], f"The plan holds {held} of the day's load for the night; {runs} of the day's "
                                    f"load runs in time, and the rest would wait past their {window} h deadline. The savings "
                                    "shown count only what runs. Hold fewer jobs, or shorten the window.")
    return failure(F["a2_sla"], f"The plan holds {held} of the day's load for the night, but the night's idle GPUs "
                                f"can run only {runs}; the rest would wait past their {window} h deadline. The savings "
                                "shown count only what runs. Hold fewer jobs, shorten the window, or lower "
                                "utilisation.")


def act2_chart(p: Plan):
    fs = [0.05 * i for i in range(21)]
    windows = sorted({p.window_h, DAY_H})
    colours = dict(zip(windows, ("series1", "series2")))
    traces = [ch.line(f"Shifting, W = {fmt(w, 'num')} h", fs,
                      [PCT * Plan(f, w, p.util).shift_savings for f in fs], colours[w],
                      dash="solid" if w == p.window_h else "dot") for w in windows]
    if p.procured > 0:
        traces.append(ch.line(f"With {fmt(p.procured, 'pct')} clean supply", fs,
                              [PCT * Plan(f, p.window_h, p.util, p.procured).total_savings for f in fs], "good"))
    traces.append(ch.point("Your plan", p.flex, PCT * p.total_savings, "accent"))
    line, note = ch.hline(PCT * S.target, "danger", "target")
    figure = ch.figure(traces, x=ch.axis("Flexible share of the day's jobs, F", tickformat=".0%"),
                       y=ch.axis("Emissions saved (%)", range=[0, PCT]), shapes=[line], annotations=[note])
    at_w = " and ".join(f"W = {fmt(w, 'num')} h" for w in windows)
    summary = (f"Emissions saved against the flexible share F at {at_w} and {fmt(p.util, 'pct')} utilisation, "
               f"against a {TARGET} target; your plan "
               f"saves {fmt(p.total_savings, 'pct')}.")
    rows = [(fmt(f, "pct"), *(fmt(Plan(f, w, p.util).shift_savings, "pct") for w in windows)) for f in fs[::2]]
    return chart("a2_shift", "Emissions saved against the flexible share", figure, summary,
                 table=(("Flexible share", *(f"W = {fmt(w, 'num')} h" for w in windows)), rows))


def moved_equation(reveal: bool) -> Equation:
    """F_eff's equation. Its second term, the night's idle capacity, is the Act II reflection's formula
    (class 45): until the reflection is locked the panel gives the window's bound, which the card shows
    F_eff can fall below, and not the formula."""
    if not reveal:
        return Equation(r"F_{\text{eff}} \le F\cdot\min\big(1, \tfrac{W}{H_d}\big)",
                        "Jobs arrive evenly over the *H_d* day hours and only those within *W* of nightfall can "
                        "wait; the card *Day load moved to night* shows how much of that moves. The full "
                        "equation appears once the reflection is locked.")
    return Equation(r"F_{\text{eff}} = \min\!\Big(F\cdot\min\big(1, \tfrac{W}{H_d}\big),\; \frac{1-u}{u}\cdot\frac{H_n}{H_d}\Big)",
                    "Jobs arrive evenly over the *H_d* day hours and only those within *W* of nightfall can wait; "
                    "the night's idle GPUs, (1 − *u*)/*u* of the busy ones for *H_n* hours, can take no more.")


def act2_math(s: State):
    p, reveal = plan(s), s.locked(ACT2_REFLECTION.id)
    return math_peek("The governing equations · Act II", (
        moved_equation(reveal),
        Equation(r"\text{saved} = \frac{H_d\,F_{\text{eff}}\,(I_d - I_n)}{H_d I_d + H_n I_n}",
                 "The baseline runs its day hours on the day mix and its night hours on the night mix "
                 "(charging every hour at the day mix would overstate the saving). Each moved kWh is "
                 "credited at the night's *average* intensity; extra load is served at the margin, usually by "
                 "the plant that follows load (here coal), so unless wind would otherwise be curtailed this "
                 "is an upper bound."),
        Equation(r"\text{total} = 1 - \Big[(1-p)(1-\text{saved}) + p\,\frac{I_{\text{clean}}}{\bar I}\Big]",
                 "A share *p* of every hour's energy matched by new wind [assumption: additional and hourly matched]."),
    ), rows=(
        ("Day mix, *I_d* (coal and gas)", fmt(I_DAY, "g/kWh")),
        ("Night mix, *I_n* (wind and coal)", fmt(I_NIGHT, "g/kWh")),
        *((("Night headroom", fmt(p.headroom, "pct")),) if reveal else ()),
        ("*F_eff*", fmt(p.shift_eff, "pct")),
        ("Saved by shifting; in total", f"{fmt(p.shift_savings, 'pct')}; {fmt(p.total_savings, 'pct')}"),
    ), sources=(
        cite("ipcc_ar5_annex3", "lifecycle medians of generation, not grid averages"),
        cite("radovanovic2021", "shifting flexible load in time to cleaner hours"
                                + (", within capacity limits" if reveal else "")),
        cite("silerevans2012", "average emissions factors can grossly misestimate the emissions a change in "
                               "load avoids; marginal factors measure them"),
        "Day and night mixes, utilisation, the flexible share and the window are the scenario's stated inputs.",
    ))


ACT2 = Act(
    number=2, title="The Night Shift", minutes="15–20 min",
    stakeholder_role="VP of Infrastructure",
    stakeholder=lambda: (
        f"The board wants our training cluster's emissions down {TARGET}. Our grid is mostly coal by day and "
        f"mostly wind at night. {fmt(S.flex, 'pct')} of our jobs can wait up to {fmt(S.window_h, 'num')} hours. "
        "Can a carbon-aware scheduler get us there, or do we need something else?"),
    scenario=lambda: (
        f"**{fmt(S.new_gpus, 'int')} H100s** run at {fmt(S.util, 'pct')} utilisation around the clock. Days "
        f"({fmt(DAY_H, 'num')} h) draw {fmt(S.day_coal, 'pct')} coal and the rest gas, {fmt(I_DAY, 'g/kWh')}; nights "
        f"draw {fmt(S.night_wind, 'pct')} wind and the rest coal, {fmt(I_NIGHT, 'g/kWh')} (IPCC AR5 lifecycle medians).",
        "Jobs arrive evenly over the day; a flexible job can wait for the night only if it arrives within its "
        "window of nightfall.",
    ),
    prediction=ACT2_PREDICTION,
    controls=(A2_FLEX, A2_WINDOW, A2_UTIL, A2_PROCURE),
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="Carbon-aware scheduler",
)

# ---- the whole lab -------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    p = plan(s)
    return frozenset(n for n, on in (("a2_sla", p.sla_broken), ("a2_target", p.total_savings < S.target)) if on)


def results(s: State) -> dict[str, float | bool]:
    u, p = upgrade(s), plan(s)
    return {"eff_gain": u.eff, "demand_growth": u.demand, "net_carbon_change": u.change,
            "rebound": carbon.rebound(u.eff, u.demand), "flex_frac": p.flex, "window_h": p.window_h,
            "util": p.util, "shift_eff": p.shift_eff, "savings_frac": p.shift_savings,
            "target_met": p.total_savings >= S.target, "procured_frac": p.procured,
            "total_savings_frac": p.total_savings}


def lab_takeaways() -> list[str]:
    f1, f2 = act1_facts(), act2_facts()
    return [
        f"A {ETA} gain in work per joule with carbon up {RISE} means the work grew {f1['a1_demand_for_rise']}: the rebound "
        f"took back {f1['rebound']} of the expected saving. Carbon falls only while demand grows slower than efficiency.",
        "Efficiency lowers the price of work, and cheaper work gets used. Only an absolute budget turns an "
        "efficiency gain into lower emissions.",
        f"Carbon-aware shifting is real but bounded: {f2['a2_shift_savings']} at the stated plan, {f2['team12']} with a "
        f"{f2['window12']} h window, and at most {f2['best']} at {fmt(S.util, 'pct')} utilisation, where the night's spare room binds; "
        "credited at the night's average intensity, these are upper bounds.",
        f"The rest of a {TARGET} cut needs cleaner supply: {f2['needed']} of every hour matched by new wind "
        f"on top of a {f2['window12']} h window.",
        "PUE scales every tonne but no percentage; IPCC lifecycle medians describe generators, not a grid's average.",
    ]


LAB = Lab(
    id="v2_15", volume=2, number=15, title="The Jevons Reckoning",
    invariant="Emissions are **work ÷ efficiency × intensity**: efficiency gains are outrun when demand grows "
              "faster, and shifting work to clean hours is a lever **bounded by deadlines and spare capacity**.",
    minutes="30–35 min", chapter="Sustainable AI", url="vol2/15-jevons-reckoning/",
    description="Why a more efficient GPU fleet can emit more carbon (the rebound), and why carbon-aware scheduling "
                "is a real but bounded lever.",
    reading=(
        "**Energy and carbon accounting**: power × time × PUE × carbon intensity.",
        "**The rebound effect**: how much of an efficiency saving survives a change in demand.",
        "**Carbon-aware scheduling**: moving flexible work in time and space.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "**V2-01 The Scale Illusion**: the same power × time × PUE arithmetic, priced in dollars.",
        "**V2-17 Constraints Never Lie**: carbon as one constraint among many; it reads this lab's ledger entry.",
    ),
    record_metrics=RECORD,
    hook="Twice the work per joule, and the carbon report went up. What happened, and how much can a scheduler "
         "that waits for the night's wind win back?",
    presets={"context": {k: {"a1_pue": v} for k, v in PUE.items()}},
)
