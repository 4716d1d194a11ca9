"""Lab V1-00 · The Architect's Portal (orientation).

Core invariant: two limits no faster chip removes sort ML systems into their deployment regimes: light
(a round trip costs 2·d/v before any computing) and a battery's energy over *average* power.

How the spec's checks map onto the protocol (and why):
- Act I, the light barrier (spec Check 2). The prediction is the reach: how far from the car the server
  may be for the 10 ms loop with zero compute (d_max, 1,021.1 km in fibre). Forgetting the return trip
  (2,042 km) or using the vacuum speed in glass (1,499 km) lands one range too high; "light is instant"
  at the top. The team's measured 40 ms is stated only in the reflection: scaled as if it were all light
  (10/40 of 2,000 km = 500 km, handbook/labs/v1_00.md §5) it would land in the key's range (independent review). The
  reflection is the spec's multi-select ("which fixes work?") as one choice among four sets of fixes.
  The failure "deadline missed" is where the student starts; moving the server closer leaves it.
- Act II, the energy wall (spec Check 3). As a pick of the regime the check was answered by the story
  (the cloud broke the prompt's privacy rule, a Jetson on a wrist strap is absurd, "TinyML for a
  wearable" is the slogan: independent review). The prediction is the number that picks the regime:
  the most the strap's processor may draw while computing, awake 2 ms a second, for two AA cells to last
  six months (851 mW, C). Never sleeping gives 1.7 mW (A), a microcontroller's draw as the limit B, and
  "sleep rescues a phone-class processor" D. Every feedback names the candidates under the ceiling
  (only TinyML's microcontroller). The reflection asks which lever buys a CR2032 the most life
  (handbook/labs/v1_00.md §5): being awake is most of the average, so a leaner model wins.
- The track is the lab's design decision, a control in Act II (not the context, fixed at the first lock).
- The context is the signal's medium: Act I's question, key, feedback and instruments follow it
  (1,021 km, key A; 1,499 km, key B), as does Act II's cloud round trip; Act II's keys are the same.

Departures from the spec (handbook/labs/v1_00.md §5), and why: Check 1 (drift, serving and monitoring) is not
asked, since no instrument here shows drift (V1-14 teaches it); Check 3 asks for the ceiling rather than
the regime; six months is half the site's 365-day year, 182.5 days, so the spec's "2×AA 4.07 years"
(Julian years) reads 4.08 years; the Edge track's 25 W is the top of the datasheet's 10 W to 25 W modes,
not the Orin NX's highest: JetPack 6.2 (Jan 2025) added 40 W and an uncapped MAXN SUPER.

Assumptions, labelled on the page: the microcontroller's active power (handbook/errata.md#e1: ST's run-mode table not
retrieved) is an instrument; Act II's key does not depend on it, and the reflection's key holds from
0.05 to 0.5 W (tests). Battery lives assume an ideal cell (no self-discharge, the full rated energy at
any load and pulse): upper bounds; the math peek says when a CR2032 is asked for more than its rated
pulse. Ledger (handbook/labs/v1_00.md): ``track`` is a control; Check 2 = ``a1_reflect`` (result ``check2_fixes``),
Check 3 = ``a2_predict``; results keep the round trip, reach, battery life, average power and ceiling.
"""

from __future__ import annotations

from dataclasses import replace

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option, Prediction,
                              Range, Reflection, Slider, State, chart, failure, fmt, math_peek, metric_grid)
from pylabs.framework import charts as ch
from pylabs.labs.vol1.v1_00_model import (AS_IS, CAR_SPEED, COMBOS, DAY, FIXES, LEVERS, MEDIA, REGIMES, TINY, Budget, S,
                                          Trip, act1_reflect_key, act1_truth, act2_reflect_key, act2_truth,
                                          allowed_average_w, coin_pulse, life_s, per_reading, power_ceiling_w,
                                          reach_m, rtt_s, speed)
from pylabs.labs.vol1.contexts import LABELS
from pylabs.labs.vol1.v1_00_track import TRACK_CHOICE, TRACK_METRICS, north_star, track_cards
from pylabs.physics import constants as C
from pylabs.physics import deployment as dep
from pylabs.physics import units as U


LIFE_MONTHS = f"{fmt(S.required_life_s / S.month_s, 'words')} months"  # "six months", the stated life
LIFE_DAYS = fmt(S.required_life_s, "days")
BUDGET = fmt(S.loop_budget_s, "ms")


# ---- context: the signal's medium -----------------------------------------------------

CONTEXT = Choice("context", "Signal path (Act I)", (
    Option("fibre", "Optical fibre, slowed by the glass"),
    Option("vacuum", "Free space (radio or laser), at the vacuum speed"),
), default="fibre", help="How the car's data travels in Act I.")

MEDIUM_WORDS = {"fibre": ("straight optical fibre", "fibre"),
                "vacuum": ("straight free-space link (radio or laser)", "free space")}


def terms(context: str) -> dict[str, str]:
    link, short = MEDIUM_WORDS[context]
    return {"medium": link, "in_medium": f"in {short}"}


# ---- Act I · The Light Barrier ----------------------------------------------------------

A1_DISTANCE = Slider("a1_distance", "Distance to the server", unit="m", min=0, max=5e6, step=1e4,
                     default=S.distance_m, fmt="km")
A1_ROUTE = Slider("a1_route", "Route stretch", unit="1", min=1.0, max=2.0,
                  step=0.05, default=1.0, fmt="x",
                  help="Cable length ÷ straight-line distance: cables follow roads, coasts and sea beds.")
A1_LOCAL = Slider("a1_local", "Compute and queueing time", unit="s", min=0, max=0.02,
                  step=0.0005, default=0, fmt="ms", help="Everything in the answer except the light's travel.")
A1_BUDGET = Slider("a1_budget", "Control-loop deadline", unit="s", min=0.001, max=0.1, step=0.001,
                   default=S.loop_budget_s, fmt="ms")


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"With no time spent computing or queueing and a {{medium}}, how far from the car can the "
           f"server be and still answer within {BUDGET}?",
    quantity="the farthest server that meets the deadline",
    unit_fmt="km",
    options=(
        Range("A", "{range}: a server in the test track's own region", None, 1200e3, 1000e3,
              "Light {in_medium} covers {km_per_ms} in a millisecond, and the {budget} must pay for the trip "
              "out and back: the server can be at most {a1_reach} away."),
        Range("B", "{range}: a server as far away as a large country is wide", 1200e3, 2500e3, 2000e3,
              "The answer must come back: in {budget} light {in_medium} covers {one_way} one way, so the "
              "reach is half that, {a1_reach}. {other_medium}"),
        Range("C", "{range}: a server anywhere on the same continent", 2500e3, 10000e3, 5000e3,
              "A continent is thousands of kilometres across; {budget} of light {in_medium}, out and back, "
              "reaches only {a1_reach}."),
        Range("D", "{range}: a server anywhere on Earth, light being instant", 10000e3, None, 20000e3,
              "Light is fast, not instant: {km_per_ms} per millisecond {in_medium}, so even with zero "
              "compute the server must be within {a1_reach}."),
    ),
    truth=act1_truth,
    shown_by="a1_reach",
)


ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt=f"The team measures a {fmt(S.measured_rtt_s, 'ms')} round trip to the datacentre; the loop must "
           f"answer within {BUDGET}. Which fixes can meet it? Choose the set that holds every fix that works, "
           "and nothing else.",
    options=(
        Claim("A", "A faster GPU or compressed frames; the server can stay where it is.",
              "Both shrink the time spent computing or sending; neither shortens the {trip} the light "
              "travels, which alone takes {a1_rtt}, beyond the {budget}."),
        Claim("B", "A server much nearer the track, or the model on the car itself.",
              "Only distance moves the floor. A server at half the reach ({half}) leaves {half_left} of the "
              "{budget} for computing and queueing, if they fit in it; on the car the light's share is zero."),
        Claim("C", "Only the model on the car itself: no server could be near enough.",
              "A server at half the reach ({half}) still leaves {half_left} of the {budget} for computing and "
              "queueing: a nearer server is a real option if they fit in it."),
        Claim("D", "Any of the four: a faster GPU, smaller frames, a nearer server or the car.",
              "A faster GPU and smaller frames leave the {a1_rtt} of light in place, already beyond the "
              "{budget}."),
    ),
    answer_letter=act1_reflect_key(),
)

M = {m.name: m for m in (
    MetricSpec("a1_reach", "Farthest server inside the deadline", "m", "length"),
    MetricSpec("a1_rtt", "Round trip of light alone", "s", "ms"),
    MetricSpec("a1_response", "Fastest possible answer", "s", "ms"),
    MetricSpec("a1_travel", "Car travel before the answer arrives", "m", "length"),
    MetricSpec("a1_speed", "Signal speed in this medium", "m/s", "m/s"),
    MetricSpec("a2_life", "Battery life (ideal cell)", "s", "s"),
    MetricSpec("a2_avg_power", "Average power", "W", "watts"),
    MetricSpec("a2_duty", "Share of time awake", "1", "pct"),
    MetricSpec("a2_always_on", "Battery life if it never slept", "s", "s"),
    MetricSpec("a2_ceiling", f"Most power while computing for {LIFE_MONTHS}", "W", "watts"),
)} | TRACK_METRICS

FAILURES = (
    FailureSpec("a1_loop_missed", "Deadline missed: the answer cannot arrive in time", act=1,
                reach={}, leave={"a1_distance": 500000}),
    FailureSpec("a2_battery_short", f"Battery flat before {LIFE_MONTHS}", act=2, severity="warn",
                reach={}, leave={"a2_active_w": 0.001}),
)
F = {f.name: f for f in FAILURES}


def act1_trip(s: State) -> Trip:
    v = speed(s["context"])
    return Trip(dep.propagation_rtt_s(s["a1_distance"], v, s["a1_route"]), s["a1_local"],
                dep.max_distance_m(s["a1_budget"], s["a1_local"], v, s["a1_route"]), s["a1_budget"])


def act1_instruments(s: State) -> list:
    trip = act1_trip(s)
    parts = [metric_grid(
        M["a1_reach"].show(trip.reach_m, note="" if trip.reach_m else "none: computing alone uses up the deadline"),
        M["a1_rtt"].show(trip.rtt_s, "danger" if trip.rtt_s > trip.budget_s else None,
                         f"{fmt(s['a1_distance'] * s['a1_route'], 'km')} of path each way"),
        M["a1_response"].show(trip.response_s, "danger" if trip.late else "good",
                              f"deadline {fmt(trip.budget_s, 'ms')}"),
        M["a1_travel"].show(dep.travel_m(CAR_SPEED, trip.response_s),
                            note=f"at {fmt(S.car_speed_mph, 'num')} mph"),
        M["a1_speed"].show(speed(s["context"]), note=MEDIA[s["context"]][0]),
    )]
    if trip.late:
        parts.append(failure(F["a1_loop_missed"], loop_missed(trip)))
    parts.append(act1_chart(s, trip))
    return parts


def loop_missed(trip: Trip) -> str:
    """Why the answer is late: the light alone, the computing alone, or the two together."""
    rtt, budget = fmt(trip.rtt_s, "ms"), fmt(trip.budget_s, "ms")
    if trip.rtt_s > trip.budget_s:
        return (f"Light alone needs {rtt} for the round trip, more than the {budget} deadline: the answer is "
                "late before any computing starts.")
    if trip.local_s >= trip.budget_s:
        share = "more than the" if trip.local_s > trip.budget_s else "all of the"
        return (f"Computing and queueing alone take {fmt(trip.local_s, 'ms')}, {share} {budget} deadline: the "
                "answer is late wherever the server is.")
    return (f"Light needs {rtt} and computing {fmt(trip.local_s, 'ms')}: {fmt(trip.response_s, 'ms')} in all, "
            f"beyond the {budget} deadline. With that computing the server must be within "
            f"{fmt(trip.reach_m, 'length')}.")


def act1_chart(s: State, trip: Trip):
    xs = [S.chart_max_m * i / 50 for i in range(51)]
    lines = [ch.line(MEDIA[m][0], [x / U.M_PER_KM for x in xs],
                     [(rtt_s(x, m, s["a1_route"]) + s["a1_local"]) / U.S_PER_MS for x in xs],
                     "series1" if m == "fibre" else "series2", "solid" if m == s["context"] else "dash")
             for m in MEDIA]
    here = ch.point("Your setting", s["a1_distance"] / U.M_PER_KM, trip.response_s / U.S_PER_MS, "accent")
    line, note = ch.hline(trip.budget_s / U.S_PER_MS, "danger", f"deadline {fmt(trip.budget_s, 'ms')}")
    figure = ch.figure(lines + [here], x=ch.axis("Distance to the server (km)"),
                       y=ch.axis("Fastest answer (ms)"), shapes=[line], annotations=[note])
    per = S.per_distance_m
    met = (f"met up to {fmt(trip.reach_m, 'length')}" if trip.reach_m else "met only at 0 km, with nothing to spare"
           if trip.local_s <= trip.budget_s else "missed at any distance")
    summary = (f"The fastest answer grows in a straight line with distance: {fmt(rtt_s(per, 'fibre', s['a1_route']), 'ms')} "
               f"per {fmt(per, 'km')} in fibre and {fmt(rtt_s(per, 'vacuum', s['a1_route']), 'ms')} in free space. "
               f"The {fmt(trip.budget_s, 'ms')} deadline is {met} in {MEDIA[s['context']][0].lower()}.")
    rows = [(fmt(d, "km"), fmt(rtt_s(d, "fibre", s["a1_route"]) + s["a1_local"], "ms"),
             fmt(rtt_s(d, "vacuum", s["a1_route"]) + s["a1_local"], "ms")) for d in xs[::10]]
    return chart("a1_light", "Fastest possible answer by distance", figure, summary,
                 table=(("Distance", "Fibre", "Free space"), rows))


def act1_facts(context: str) -> dict[str, str]:
    """Act I's feedback, in the medium predicted in; a1_reach and a1_rtt read as their cards do."""
    reach, other = reach_m(context), "vacuum" if context == "fibre" else "fibre"
    other_medium = (f"At the vacuum speed, with no glass, it would be {fmt(reach_m(other), 'km')}."
                    if context == "fibre" else
                    f"In fibre, slowed by its group index of {C.FIBRE_GROUP_INDEX:.3f}, it would be "
                    f"{fmt(reach_m(other), 'km')}.")
    return {"a1_reach": fmt(reach, "length"), "a1_rtt": fmt(rtt_s(S.distance_m, context), "ms"),
            "in_medium": terms(context)["in_medium"], "km_per_ms": fmt(speed(context) * U.S_PER_MS, "km"),
            "one_way": fmt(2 * reach, "km"), "other_medium": other_medium, "budget": BUDGET,
            "trip": fmt(2 * S.distance_m, "km"), "half": fmt(reach / 2, "km"),
            "half_left": fmt(S.loop_budget_s - rtt_s(reach / 2, context), "ms")}


def act1_math(s: State):
    trip = act1_trip(s)
    return math_peek("The governing equations · Act I", (
        Equation(r"v = \frac{c}{n_g}", "Light in a medium travels at the vacuum speed *c* divided by the "
                                       f"group index *n_g* ({C.FIBRE_GROUP_INDEX:.3f} for silica fibre, 1 for free space)."),
        Equation(r"\text{RTT}_{\text{prop}} = \frac{2\,d\,k_{\text{route}}}{v}",
                 "Out and back over a distance *d*, stretched by the route factor *k*."),
        Equation(r"d_{\max} = \frac{(T - t_{\text{local}})\,v}{2\,k_{\text{route}}}",
                 "The farthest server that can still answer within the deadline *T*."),
    ), rows=(
        ("Group index, *n_g*", f"{MEDIA[s['context']][1]:.3f}"),
        ("Signal speed, *v*", fmt(speed(s["context"]), "m/s")),
        ("Distance, *d*", fmt(s["a1_distance"], "km")),
        ("Round trip, light only", fmt(trip.rtt_s, "ms")),
        ("Farthest server, *d_max*", fmt(trip.reach_m, "length")),
    ), sources=(C.REGISTRY["FIBRE_GROUP_INDEX"].source, C.REGISTRY["SPEED_OF_LIGHT"].source))


ACT1 = Act(
    number=1, title="The Light Barrier", minutes="8–10 min",
    stakeholder_role="Autonomous Driving Lead",
    stakeholder=lambda: (
        f"Our perception model runs in a datacentre {fmt(S.distance_m, 'km')} from the test track, and its "
        f"answers arrive too late for the braking loop, which needs one within {BUDGET}. The vendor says next "
        "year's GPU will close the gap. Will it?"),
    scenario=lambda: (
        f"Every camera frame travels to the server and back. Light sets a floor on that trip: it crosses a "
        f"vacuum at {fmt(C.SPEED_OF_LIGHT, 'm/s')}, and glass slows it by its group index, "
        f"{C.FIBRE_GROUP_INDEX:.3f} for standard fibre.",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_DISTANCE, A1_ROUTE, A1_LOCAL, A1_BUDGET),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="The light-barrier calculator",
)

# ---- Act II · The Energy Wall ----------------------------------------------------------

BATTERIES = {"cr2032": ("CR2032 coin cell", C.CR2032_ENERGY_J), "aa2": ("Two AA cells", C.AA_PAIR_ENERGY_J),
             "phone": ("A phone battery", C.PHONE_BATTERY_J)}
A2_BATTERY = Choice("a2_battery", "Battery", tuple(
    Option(k, f"{name} · {fmt(energy, 'Wh')}") for k, (name, energy) in BATTERIES.items()), default="aa2")
# Log sliders: a step of about 10 %, so each arrow-key press changes the two-figure value. The power
# opens on the phone-class processor, a candidate that fails, not on the answer's microcontroller.
A2_ACTIVE = Slider("a2_active_w", "Power while computing", unit="W", min=0.001, max=100, step=0.001,
                   default=C.PHONE_SUSTAINED_POWER_W, fmt="watts", scale="log", steps=100,
                   help="While the processor computes one inference.")
A2_AWAKE = Slider("a2_awake_s", "Awake per reading", unit="s", min=0.0001, max=0.1,
                  step=0.0001, default=S.result_s, fmt="ms", scale="log", steps=60, help="One inference, then back to sleep.")
A2_PERIOD = Slider("a2_period_s", "Time between readings", unit="s", min=0.01, max=60, step=0.01,
                   default=S.period_s, fmt="s", scale="log", steps=90)
A2_SLEEP = Slider("a2_sleep_w", "Power while asleep", unit="W", min=1e-6, max=1e-3, step=1e-6,
                  default=S.sleep_w, fmt="watts", scale="log", steps=60)


ACT2_PREDICTION = Prediction(
    id="a2_predict", act=2,
    prompt=f"The model runs on the strap: awake {fmt(S.result_s, 'ms')} for each reading, once "
           f"{per_reading('a')}, and drawing {fmt(S.sleep_w, 'watts')} asleep. At most how much may its processor "
           f"draw while computing, for two AA cells ({fmt(C.AA_PAIR_ENERGY_J, 'Wh')}) to last {LIFE_MONTHS}?",
    quantity="the most power the processor may draw while computing",
    unit_fmt="watts",
    options=(
        Range("A", "{range}: what the cells could feed it nonstop", None, 10e-3,
              C.AA_PAIR_ENERGY_J / S.required_life_s,
              "That is what the cells could feed a processor that never sleeps: {allowed} on average over "
              "{life_days}. Awake only {duty} of the time, it may draw {ceiling} while computing. {under}"),
        Range("B", "{range}: about a microcontroller's draw, no more", 10e-3, 300e-3, 100e-3,
              "A microcontroller fits, but it is not the limit: the cells allow {allowed} on average; sleep takes "
              "{sleep_part} of it, and the rest, spread over the {duty} of the time awake, allows {ceiling} while "
              "computing. {under} {over}"),
        Range("C", "{range}: above a microcontroller, below a phone", 300e-3, 3.0, 1.0,
              "The cells allow {allowed} on average over {life_days}; sleep takes {sleep_part} of it, and the "
              "rest, spread over the {duty} of the time awake, allows {ceiling} while computing. {under} {over} "
              "The cloud is out twice: "
              "patient data would leave, and light alone needs {cloud_rtt} {in_medium} for the round trip."),
        Range("D", "{range}: enough for a phone-class processor", 3.0, None, C.PHONE_SUSTAINED_POWER_W,
              "Sleeping between readings does not rescue a {mobile_w} processor: awake {duty} of the time it "
              "averages {mobile_avg}, and the cells last {mobile_life}. The most any processor may draw while "
              "computing is {ceiling}. {under}"),
    ),
    truth=act2_truth,
    shown_by="a2_ceiling",
)


def fits_text(ceiling: float) -> dict[str, str]:
    """Which of the strap's candidate processors are under the ceiling, and how long the cells last on each."""
    words = {"tiny": "a Cortex-M7 microcontroller at {w} (assumed), {life}",
             "mobile": "a phone-class processor at {w} (assumed), {life}",
             "edge": "a Jetson Orin NX at its lowest mode, {w}, {life} (even at the microcontroller's sleep power)"}

    def said(keys: list[str]) -> str:
        return "; ".join(f"{REGIMES[k].name}, " + words[k].format(w=fmt(REGIMES[k].active_w, "watts"),
                                                                  life=fmt(REGIMES[k].life_s, "s")) for k in keys)
    under = [k for k in ("tiny", "mobile", "edge") if REGIMES[k].active_w <= ceiling]
    over = [k for k in ("tiny", "mobile", "edge") if k not in under]
    return {"under": f"Under it: {said(under)}." if under else "None of the strap's candidates is under it.",
            "over": f"Over it, awake the same {fmt(S.result_s, 'ms')}: {said(over)}." if over else ""}


def act2_facts(context: str) -> dict[str, str]:
    cloud, ceiling = REGIMES["cloud"], act2_truth()
    duty = dep.duty_cycle(S.result_s, S.period_s)
    facts = {"result": fmt(S.result_s, "ms"), "life_days": LIFE_DAYS, "months": LIFE_MONTHS,
             "in_medium": terms(context)["in_medium"], "duty": fmt(duty, "pct"),
             "cloud_rtt": fmt(cloud.response_s(context) - S.result_s, "ms"),
             "allowed": fmt(allowed_average_w(C.AA_PAIR_ENERGY_J), "watts"), "ceiling": fmt(ceiling, "watts"),
             "sleep_part": fmt(S.sleep_w * (1 - duty), "watts")}
    mobile = REGIMES["mobile"]
    facts |= {"mobile_w": fmt(mobile.active_w, "watts"), "mobile_life": fmt(mobile.life_s, "s"),
              "mobile_avg": fmt(dep.average_power_w(mobile.active_w, S.sleep_w, S.result_s, S.period_s), "watts")}
    return facts | fits_text(ceiling) | lever_facts()


COIN = BATTERIES["cr2032"]


def lever_facts() -> dict[str, str]:
    """The coin cell's life under each lever of Act II's reflection, at the scenario's inputs."""
    duty = dep.duty_cycle(S.result_s, S.period_s)
    lean = LEVERS["D"].life_s(COIN[1])
    verdict = (f"past {LIFE_MONTHS} on an ideal cell" if lean >= S.required_life_s else f"still short of {LIFE_MONTHS}")
    facts = {f"life_{k.lower()}": fmt(lever.life_s(COIN[1]), "s") for k, lever in LEVERS.items()}
    return facts | {
        "life_now": fmt(AS_IS.life_s(COIN[1]), "s"), "lean": fmt(S.lean_result_s, "ms"), "lean_verdict": verdict,
        "avg_now": fmt(dep.average_power_w(AS_IS.active_w, AS_IS.sleep_w, AS_IS.awake_s, S.period_s), "watts"),
        "awake_part": fmt(TINY.active_w * duty, "watts"), "sleep_part": fmt(S.sleep_w * (1 - duty), "watts"),
        "light_sleep": fmt(S.light_sleep_w, "watts")}


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt=f"The next strap only has room for a {COIN[0]} ({fmt(COIN[1], 'Wh')}). On it the microcontroller "
           f"({fmt(TINY.active_w, 'watts')} while computing, assumed; awake {fmt(S.result_s, 'ms')} "
           f"{per_reading('a')}) lasts {fmt(AS_IS.life_s(COIN[1]), 's')}. Which change buys it the most life?",
    options=(
        Claim("A", f"Deeper sleep: {fmt(S.deep_sleep_w, 'watts')} between readings instead of "
                   f"{fmt(S.sleep_w, 'watts')}.",
              "Asleep is already the small part: {sleep_part} of the {avg_now} average. Deeper sleep gives "
              "{life_a} against {life_now} today."),
        Claim("B", f"A slower clock: {fmt(S.clock_factor, 'fraction')} the power, "
                   f"{fmt(1 / S.clock_factor, 'x')} the time awake.",
              "The power falls by the same factor as the time awake grows: the same energy per reading, so "
              "{life_b} against {life_now} today."),
        Claim("C", f"Light sleep at {fmt(S.light_sleep_w, 'watts')} between readings, to wake instantly.",
              "Light sleep draws {light_sleep} all the time between readings, more than the whole {avg_now} "
              "average today: the coin cell lasts only {life_c}."),
        Claim("D", f"A leaner model: {fmt(S.lean_result_s, 'ms')} awake per reading instead of "
                   f"{fmt(S.result_s, 'ms')}.",
              "Being awake is most of the average ({awake_part} of {avg_now}): cutting it to {lean} gives "
              "{life_d}, {lean_verdict}."),
    ),
    answer_letter=act2_reflect_key(),
)


def act2_budget(s: State) -> Budget:
    energy = BATTERIES[s["a2_battery"]][1]
    avg = dep.average_power_w(s["a2_active_w"], s["a2_sleep_w"], s["a2_awake_s"], s["a2_period_s"])
    return Budget(avg, dep.battery_life_s(energy, avg), dep.battery_life_s(energy, s["a2_active_w"]),
                  dep.duty_cycle(s["a2_awake_s"], s["a2_period_s"]), allowed_average_w(energy),
                  power_ceiling_w(energy, s["a2_awake_s"], s["a2_period_s"], s["a2_sleep_w"]))


def act2_instruments(s: State) -> list:
    b = act2_budget(s)
    short = b.life_s < S.required_life_s
    # The track's cards follow the battery's in the first grid, so the strip that stays in view on a
    # phone shows them change while the student picks a track at the foot of the controls.
    # The ceiling (Act II's answer) comes second; the card for a device that never sleeps goes last, so
    # the strip's six still hold two of the track's.
    parts = [metric_grid(
        M["a2_life"].show(b.life_s, "warn" if short else "good", f"needed: {LIFE_MONTHS} ({LIFE_DAYS})"),
        ceiling_card(s, b),
        M["a2_avg_power"].show(b.avg_w),
        M["a2_duty"].show(b.duty),
        *track_cards(s["track"]),
        M["a2_always_on"].show(b.always_on_s),
    )]
    if short:
        parts.append(failure(F["a2_battery_short"], battery_short(s, b)))
    parts += [north_star(s["track"]), act2_chart(s, b)]
    return parts


def ceiling_card(s: State, b: Budget):
    """The most the processor may draw while computing for the required life; none once sleep alone
    averages more than the battery allows."""
    if not b.ceiling_w:
        none = "none: asleep it already draws more than the battery allows"
        return replace(M["a2_ceiling"], fmt="W").show(0.0, "warn", none)  # "0 W", where "watts" reads "0 nW"
    under = s["a2_active_w"] <= b.ceiling_w
    awake = ("never asleep (awake longer than the time between readings)" if b.duty >= 1 else
             f"awake {fmt(s['a2_awake_s'], 'ms')} every {fmt(s['a2_period_s'], 's')}")
    return M["a2_ceiling"].show(b.ceiling_w, "good" if under else "warn",
                                f"{awake}; your {fmt(s['a2_active_w'], 'watts')} is {'under' if under else 'over'} it")


def battery_short(s: State, b: Budget) -> str:
    """How far the average is from what the battery allows; whether sleep alone already exceeds it."""
    text = (f"An average of {fmt(b.avg_w, 'watts')} empties the battery in {fmt(b.life_s, 's')}; {LIFE_MONTHS} "
            f"on it allow an average of at most {fmt(b.needed_w, 'watts')}.")
    if b.duty >= 1:
        text += " It never sleeps: awake longer than the time between readings, it draws its full power throughout."
    elif s["a2_sleep_w"] >= b.needed_w:
        text += f" Even asleep, the {fmt(s['a2_sleep_w'], 'watts')} it draws is more than that."
    return text


def act2_chart(s: State, b: Budget):
    lo, hi = S.chart_periods_s
    periods = [lo * (hi / lo) ** (i / 40) for i in range(41)]
    colours = {"cr2032": "series1", "aa2": "series2", "phone": "series3"}
    lines = [ch.line(name, periods, [life_s(energy, s["a2_active_w"], s["a2_awake_s"], p, s["a2_sleep_w"]) / DAY
                                     for p in periods], colours[k], "solid" if k == s["a2_battery"] else "dash")
             for k, (name, energy) in BATTERIES.items()]
    here = ch.point("Your setting", s["a2_period_s"], b.life_s / DAY, "accent")
    line, note = ch.hline(S.required_life_s / DAY, "danger", LIFE_MONTHS, log=True)
    values = [y for t in lines for y in t["y"]] + [S.required_life_s / DAY]
    figure = ch.figure(lines + [here], x=ch.axis("Time between readings (s)", "log", **ch.decade_ticks(periods)),
                       y=ch.axis("Battery life (days)", "log", **ch.decade_ticks(values)),
                       shapes=[line], annotations=[note])
    summary = (f"Battery life grows with the time between readings until sleep power dominates. With "
               f"{fmt(s['a2_period_s'], 's')} between readings, the chosen battery lasts {fmt(b.life_s, 's')}; "
               f"{LIFE_MONTHS} is {LIFE_DAYS}.")
    rows = [(fmt(p, "s"), *(fmt(life_s(e, s["a2_active_w"], s["a2_awake_s"], p, s["a2_sleep_w"]), "s")
                            for _, e in BATTERIES.values())) for p in S.table_periods_s]
    return chart("a2_battery_life", "Battery life by time between readings", figure, summary,
                 table=(("Between readings", *(n for n, _ in BATTERIES.values())), rows))


def act2_math(s: State):
    b = act2_budget(s)
    rows = [("Battery energy, *E*", fmt(BATTERIES[s["a2_battery"]][1], "Wh")),
            ("Share awake, *δ*", fmt(b.duty, "pct")),
            ("Average power", fmt(b.avg_w, "watts")),
            ("Battery life", fmt(b.life_s, "s")),
            (f"Most power while computing for {LIFE_MONTHS}", fmt(b.ceiling_w, "watts") if b.ceiling_w else "none")]
    if s["a2_battery"] == "cr2032":
        rows.append(("Power the coin cell gives while computing", coin_pulse(s["a2_active_w"])))
    return math_peek("The governing equations · Act II", (
        Equation(r"\delta = \frac{t_{\text{awake}}}{T_{\text{period}}}", "The share of time awake (at most 1)."),
        Equation(r"P_{\text{avg}} = \delta\,P_{\text{active}} + (1-\delta)\,P_{\text{sleep}}",
                 "Average power: the time awake's part plus the time asleep's. Sleep's part is the larger only "
                 "once the awake part, *δ* times the power while computing, falls below the power asleep."),
        Equation(r"\text{life} = \frac{E_{\text{battery}}}{P_{\text{avg}}}",
                 "An ideal cell: no self-discharge, and the full rated energy at any load and any pulse, so long "
                 "lives here are upper bounds."),
        Equation(r"P_{\text{active}} \le \frac{E_{\text{battery}}/T_{\text{life}} - (1-\delta)\,P_{\text{sleep}}}"
                 r"{\delta}",
                 "The most the processor may draw while computing for the battery to last the required life "
                 "*T*: the average the battery allows, less sleep's share, spread over the time awake."),
    ), rows=tuple(rows), sources=tuple(C.REGISTRY[n].source for n in (
        "CR2032_ENERGY_J", "CR2032_PULSE_MAX_W", "AA_PAIR_ENERGY_J", "PHONE_BATTERY_J", "MCU_ACTIVE_POWER_W",
        "PHONE_SUSTAINED_POWER_W")))


ACT2 = Act(
    number=2, title="The Energy Wall", minutes="10–12 min",
    stakeholder_role="Clinical Engineering Lead",
    stakeholder=lambda: (
        f"We want a wearable sepsis-risk sensor on every ward patient. It reads vital signs once "
        f"{per_reading('a')} and must flag risk within {fmt(S.result_s, 'ms')} of each reading. Patient data may "
        f"not leave the hospital, and nobody will change batteries more often than every {LIFE_MONTHS}; two AA "
        "cells is the most the strap can carry. What processor can it run on?"),
    scenario=lambda: (
        "A battery holds a fixed energy; the device's *average* power decides how long it lasts.",
        "After the check, the calculator is yours, and so is this lab's last decision: the deployment "
        "track you will follow through Volume I.",
    ),
    prediction=ACT2_PREDICTION,
    controls=(A2_BATTERY, A2_ACTIVE, A2_AWAKE, A2_PERIOD, A2_SLEEP, TRACK_CHOICE),
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="The battery calculator and your track",
)

# ---- the lab -----------------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    active = set()
    if act1_trip(s).late:
        active.add("a1_loop_missed")
    if act2_budget(s).life_s < S.required_life_s:
        active.add("a2_battery_short")
    return frozenset(active)


def results(s: State) -> dict[str, float | str | None]:
    trip, b = act1_trip(s), act2_budget(s)
    chosen = s.answers.get("a1_reflect")
    fixes = ", ".join(FIXES[f] for f in COMBOS[chosen.choice]) if chosen else None
    return {"track": LABELS[s["track"]], "check2_fixes": fixes,
            "a1_rtt": trip.rtt_s, "a1_reach": trip.reach_m, "a2_life": b.life_s, "a2_avg_power": b.avg_w,
            "a2_ceiling": b.ceiling_w or None}  # none (the ledger's "—") once sleep alone is too much


def lab_takeaways() -> list[str]:
    rtt, tiny_avg = rtt_s(S.distance_m), dep.average_power_w(TINY.active_w, S.sleep_w, S.result_s, S.period_s)
    mobile = REGIMES["mobile"]
    return [
        f"A {BUDGET} loop cannot use a server beyond {fmt(reach_m(), 'km')} of fibre, even with zero compute: "
        f"light must go there and back. Over the car's {fmt(S.distance_m, 'km')}, light alone needs "
        f"{fmt(rtt, 'ms')}, {fmt(rtt / S.measured_rtt_s, 'pct')} of the measured {fmt(S.measured_rtt_s, 'ms')}; "
        "no GPU removes it.",
        f"At the vacuum speed of light the reach is still only {fmt(reach_m('vacuum'), 'km')}: distance, not "
        "the medium, is the lever.",
        f"Battery life is energy over *average* power. Two AA cells for {LIFE_MONTHS} allow "
        f"{fmt(allowed_average_w(C.AA_PAIR_ENERGY_J), 'watts')} on average, so a processor awake "
        f"{fmt(S.result_s, 'ms')} {per_reading('a')} may draw up to {fmt(act2_truth(), 'watts')} while computing: "
        f"a microcontroller at {fmt(TINY.active_w, 'watts')} (assumed) averages {fmt(tiny_avg, 'watts')} and lasts "
        f"{fmt(TINY.life_s, 's')}; a phone-class processor at {fmt(mobile.active_w, 'watts')} (assumed) lasts "
        f"{fmt(mobile.life_s, 's')}.",
        f"On a coin cell, being awake is most of the average: a leaner model ({fmt(S.lean_result_s, 'ms')} awake) "
        f"stretches {fmt(AS_IS.life_s(COIN[1]), 's')} to {fmt(LEVERS['D'].life_s(COIN[1]), 's')}; deeper sleep "
        f"gives {fmt(LEVERS['A'].life_s(COIN[1]), 's')}, and a slower clock nothing: the energy per reading is "
        "the same.",
        "TinyML's \"microwatts\" is an *average*, reached only by sleeping; the power while computing is "
        f"{fmt(TINY.active_w / tiny_avg, 'x')} higher.",
        "Your track is saved in the Design Ledger; every later Volume I lab opens in it.",
    ]


LAB = Lab(
    id="v1_00", volume=1, number=0, title="The Architect's Portal",
    invariant="Two limits no faster chip removes decide where an ML system can run: **light** sets how far "
              "away the computer may be, and a battery's **energy over average power** sets how long a "
              "device lives.",
    minutes="18–22 min", chapter="Introduction", url="vol1/00-architects-portal/",
    description="Orientation for Volume I: a braking loop served from far away, a wearable on two AA cells, and the "
                "deployment track (Cloud, Edge, Mobile or TinyML) that every later Volume I lab opens in.",
    intro="The start of Volume I: two short acts, then your deployment track (**Cloud**, **Edge**, **Mobile** or\n"
          "**TinyML**), which every later Volume I lab opens in.",
    reading=(
        "**What an ML system is**: data, algorithms and machines, and the code around the model.",
        "**Deployment contexts**: Cloud, Edge, Mobile and TinyML, and the constraint that defines each.",
        "**Latency and energy**: why distance and battery life are physical limits, not engineering ones.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "**V1-01 The Magnitude Awakening**: the same four devices, compared by compute, memory and power.",
        "**V1-02 The Iron Law**: the memory wall, and the light barrier again inside one machine.",
        "**V1-14 The Silent Degradation Problem**: what watches a deployed model once it ships.",
    ),
    record_metrics=(
        MetricSpec("track", "Track chosen for Volume I", "1", "num"),
        MetricSpec("check2_fixes", "Fixes chosen for the car's deadline", "1", "num"),
    ),
    terms=terms,
    hook=f"A braking loop served from {fmt(S.distance_m, 'km')} away, and a wearable that must run "
         f"{LIFE_MONTHS} on two AA cells: what decides where each model can run? Then choose your track "
         "for Volume I.",
)
