"""Lab V1-00 · The Architect's Portal (orientation).

Core invariant: two limits that no faster chip removes sort ML systems into their deployment
regimes. Light in fibre sets how far away the computer may be (a round trip costs 2·d/v before
any computing), and a battery's energy over the device's *average* power sets how long it lives
(only sleeping between inferences brings the average down).

How the spec's three checks map onto the protocol (and why):
- Act I, the light barrier (spec Check 2). The prediction is a number, the round trip of light in
  fibre over the car's 2,000 km: the upstream lab blamed the whole measured 40 ms on light, and a
  student who uses the vacuum speed gets a third too little, so a numeric prediction exposes both
  errors. The instruments are the light-barrier calculator. The reflection is the spec's
  multi-select ("which fixes work?") as one choice among four combinations; its options are sets
  of fixes, and the key is the set that contains every fix that works and nothing else, so no
  multi-select question type was needed. The failure state "loop missed" is where the student
  starts (no GPU helps) and is left by moving the server inside the reach.
- Act II, the energy wall (spec Check 3). The prediction is the regime for the sepsis sensor, a
  ``Pick`` whose key is decided by the physics: each candidate runs the duty-cycle calculator on
  two AA cells (cloud fails on privacy and distance first). The instruments are that calculator;
  a CR2032 at one reading a second is a reachable, leavable warning (it falls short of six months).
  The reflection is spec Check 1 (the "95 % problem", silent accuracy drift), told as the same
  sensor months after launch: the closing lesson that a deployed system is more than its device.
- The track. Every later Volume I lab opens in the deployment context chosen here, so the choice
  is the lab's design decision: the ``track`` control in Act II's instruments, after the checks
  have shown what separates the regimes. It is not the lab's context, because the context is
  fixed by the first lock and the student would have to choose before learning anything. Moving
  it shows the track's north star from the one device table.
- The lab's context is the signal's medium (fibre, or free space at the vacuum speed): it changes
  Act I's instruments and answers the natural objection "what if the link were faster than glass?".

The MCU's active power is an estimate (ERRATA): it is an instrument with a labelled default, and
the Act II key holds anywhere in its 0.1 to 0.3 W range (a test proves it).

Ledger fields (spec §V1-00): ``track`` is a control; Check 2 = ``a1_reflect`` (its fixes are kept as
the result ``check2_fixes``), Check 3 = ``a2_predict``, Check 1 = ``a2_reflect``, each with its
correctness; results also keep the round trip, the reach, the battery life and the average power.
"""

from __future__ import annotations

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option, Pick,
                              Prediction, Range, Reflection, Slider, State, callout, chart, failure, fmt,
                              math_peek, metric_grid, prose)
from pylabs.framework import charts as ch
from pylabs.labs.vol1.contexts import LABELS, deployment, device
from pylabs.labs.vol1.v1_00_model import (CAR_SPEED, COMBOS, DAY, FIBRE, MEDIA, REACH_M, REGIMES, Budget, S, Trip,
                                          act1_reflect_key, act1_truth, act2_answer, life_s, rtt_s, speed)
from pylabs.physics import constants as C
from pylabs.physics import deployment as dep


LIFE_MONTHS = f"{fmt(S.required_life_s / S.month_s, 'words')} months"  # "six months", the stated life
LIFE_DAYS = fmt(S.required_life_s, "days")


def per_reading(lead: str) -> str:
    """The sensor's reading period in a sentence: "{lead} second" at one reading a second, else "every 2 s"."""
    return f"{lead} second" if S.period_s == 1.0 else f"every {fmt(S.period_s, 's')}"


# ---- context: the signal's medium -----------------------------------------------------

CONTEXT = Choice("context", "Signal path (Act I)", (
    Option("fibre", "Optical fibre: light slowed by the glass"),
    Option("vacuum", "Straight-line radio or laser: light at its vacuum speed"),
), default="fibre", help="How the car's data travels to the server and back in Act I's instruments. "
                         "The prediction asks about fibre, the medium real networks use.")

# ---- Act I · The Light Barrier ----------------------------------------------------------

A1_DISTANCE = Slider("a1_distance", "Distance to the server", unit="m", min=0, max=5e6, step=1e4,
                     default=S.distance_m, fmt="km")
A1_ROUTE = Slider("a1_route", "Route stretch", unit="1", min=1.0, max=2.0,
                  step=0.05, default=1.0, fmt="x",
                  help="Cable length ÷ straight-line distance: cables follow roads, coasts and sea beds; 1× is a perfectly straight cable.")
A1_LOCAL = Slider("a1_local", "Compute and queueing time", unit="s", min=0, max=0.02,
                  step=0.0005, default=0, fmt="ms", help="Everything in the answer except the light's travel.")
A1_BUDGET = Slider("a1_budget", "Control-loop deadline", unit="s", min=0.001, max=0.1, step=0.001,
                   default=S.loop_budget_s, fmt="ms")


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"Before any routing, queueing or computing: how long does light in optical fibre take to go "
           f"from the car to the datacentre {fmt(S.distance_m, 'km')} away and back?",
    quantity=f"round trip of light in fibre over {fmt(S.distance_m, 'km')}",
    unit_fmt="ms",
    options=(
        Range("A", "{range}: light is effectively instant; the time goes to the GPU and the network", None, 5e-3,
              1e-3, "Light is fast, not instant: in glass it travels at {fibre_speed}, so the "
                    "{trip} there and back take {rtt}."),
        Range("B", "{range}: light costs a few milliseconds of the round trip", 5e-3, 15e-3, 10e-3,
              "That is about the vacuum figure ({vacuum_rtt}); glass slows light by its group index "
              "of {index}, so fibre needs {rtt}."),
        Range("C", "{range}: light alone takes a large share of the round trip", 15e-3, 30e-3, 20e-3,
              "Light in fibre needs {rtt}; the other {rest} of the measured {measured} is routing, "
              "queueing and switching."),
        Range("D", "{range}: nearly all of the measured round trip is light in the fibre", 30e-3, None, 40e-3,
              "That was the upstream lab's claim. Light accounts for {rtt}; the other {rest} of the "
              "measured {measured} is routing, queueing and switching, which a better network can cut."),
    ),
    truth=act1_truth,
)


ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt=f"The loop needs an answer within {fmt(S.loop_budget_s, 'ms')}. Which fixes can meet it? "
           "Choose the set that holds every fix that works, and nothing else.",
    options=(
        Claim("A", "A faster GPU in the same datacentre, or compressing the camera frames.",
              "Both shrink time spent computing or sending bytes; neither shortens the {trip} the light "
              "must travel, which alone takes {rtt}."),
        Claim("B", f"Moving the server within about {fmt(REACH_M, 'km')} of the car, or running the model "
                   "on the vehicle.",
              "Only distance moves the floor. A server inside {reach} meets {budget} with no time left to "
              "compute, so in practice it must be much closer (a metro edge site); on the vehicle the "
              "light's share is zero."),
        Claim("C", "Only running the model on the vehicle: no server can be close enough.",
              "A server at half the reach ({half}) leaves {half_left} of the {budget} for computing. Edge "
              "sites exist for exactly this."),
        Claim("D", "Any of them: a faster GPU, compression, a closer server or the vehicle.",
              "A faster GPU and compression leave the {rtt} of light in place, already beyond {budget}."),
    ),
    answer_letter=act1_reflect_key(),
)

M = {m.name: m for m in (
    MetricSpec("a1_rtt", "Round trip of light alone", "s", "ms"),
    MetricSpec("a1_response", "Fastest possible answer", "s", "ms"),
    MetricSpec("a1_reach", "Farthest server inside the deadline", "m", "length"),
    MetricSpec("a1_travel", "Car travel before the answer arrives", "m", "length"),
    MetricSpec("a1_speed", "Signal speed in this medium", "m/s", "m/s"),
    MetricSpec("a2_life", "Battery life", "s", "s"),
    MetricSpec("a2_avg_power", "Average power", "W", "watts"),
    MetricSpec("a2_duty", "Share of time awake", "1", "pct"),
    MetricSpec("a2_always_on", "Battery life if it never slept", "s", "s"),
    MetricSpec("track_power", "Your track · power budget", "W", "watts"),
    MetricSpec("track_peak", "Your track · peak compute", "op/s", "OP/s"),
    MetricSpec("track_memory", "Your track · memory for a model", "B", "B"),
)}

FAILURES = (
    FailureSpec("a1_loop_missed", "Deadline missed: the answer cannot arrive in time", act=1),
    FailureSpec("a2_battery_short", f"Battery flat before {LIFE_MONTHS}", act=2, severity="warn"),
)
F = {f.name: f for f in FAILURES}


def act1_trip(s: State) -> Trip:
    v = speed(s["context"])
    rtt = dep.propagation_rtt_s(s["a1_distance"], v, s["a1_route"])
    return Trip(rtt, rtt + s["a1_local"], dep.max_distance_m(s["a1_budget"], s["a1_local"], v, s["a1_route"]),
                s["a1_budget"])


def act1_instruments(s: State) -> list:
    trip = act1_trip(s)
    late = trip.response_s > trip.budget_s
    parts = [metric_grid(
        M["a1_rtt"].show(trip.rtt_s, note=f"{fmt(s['a1_distance'], 'km')} each way"),
        M["a1_response"].show(trip.response_s, "danger" if late else "good",
                              f"deadline {fmt(trip.budget_s, 'ms')}"),
        M["a1_reach"].show(trip.reach_m),
        M["a1_travel"].show(dep.travel_m(CAR_SPEED, trip.response_s),
                             note=f"at {fmt(S.car_speed_mph, 'num')} mph"),
        M["a1_speed"].show(speed(s["context"]), note=MEDIA[s["context"]][0]),
    )]
    if late:
        parts.append(failure(F["a1_loop_missed"],
                             f"Light needs {fmt(trip.rtt_s, 'ms')} for the round trip and the deadline is "
                             f"{fmt(trip.budget_s, 'ms')}. No faster GPU changes that: move the server inside "
                             f"{fmt(trip.reach_m, 'length')}, or compute on the car."))
    parts.append(act1_chart(s, trip))
    return parts


def act1_chart(s: State, trip: Trip):
    xs = [S.chart_max_m * i / 50 for i in range(51)]
    lines = [ch.line(MEDIA[m][0], [x / S.km_m for x in xs],
                     [(rtt_s(x, m, s["a1_route"]) + s["a1_local"]) / S.ms_s for x in xs],
                     "series1" if m == "fibre" else "series2", "solid" if m == s["context"] else "dash")
             for m in MEDIA]
    here = ch.point("Your setting", s["a1_distance"] / S.km_m, trip.response_s / S.ms_s, "accent")
    line, note = ch.hline(trip.budget_s / S.ms_s, "danger", f"deadline {fmt(trip.budget_s, 'ms')}")
    figure = ch.figure(lines + [here], x=ch.axis("Distance to the server (km)"),
                       y=ch.axis("Fastest answer (ms)"), shapes=[line], annotations=[note])
    per = S.per_distance_m
    summary = (f"The fastest answer grows in a straight line with distance: {fmt(rtt_s(per, 'fibre', s['a1_route']), 'ms')} "
               f"per {fmt(per, 'km')} in fibre and {fmt(rtt_s(per, 'vacuum', s['a1_route']), 'ms')} in free space. "
               f"The {fmt(trip.budget_s, 'ms')} deadline is met up to {fmt(trip.reach_m, 'length')} in "
               f"{MEDIA[s['context']][0].lower()}.")
    rows = [(fmt(d, "km"), fmt(rtt_s(d, "fibre", s["a1_route"]) + s["a1_local"], "ms"),
             fmt(rtt_s(d, "vacuum", s["a1_route"]) + s["a1_local"], "ms")) for d in xs[::10]]
    return chart("a1_light", "Fastest possible answer by distance", figure, summary,
                 table=(("Distance", "Fibre", "Free space"), rows))


def act1_facts() -> dict[str, str]:
    half = REACH_M / 2
    return {"rtt": fmt(act1_truth(), "ms"), "vacuum_rtt": fmt(rtt_s(S.distance_m, "vacuum"), "ms"),
            "rest": fmt(S.measured_rtt_s - act1_truth(), "ms"), "measured": fmt(S.measured_rtt_s, "ms"),
            "index": f"{C.FIBRE_GROUP_INDEX:.3f}", "fibre_speed": f"{fmt(FIBRE, 'm/s')}",
            "trip": fmt(2 * S.distance_m, "km"), "reach": fmt(REACH_M, "km"), "budget": fmt(S.loop_budget_s, "ms"),
            "half": fmt(half, "km"), "half_left": fmt(S.loop_budget_s - rtt_s(half), "ms")}


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
        f"Our perception model runs in a datacentre {fmt(S.distance_m, 'km')} from the test track. We measure "
        f"a {fmt(S.measured_rtt_s, 'ms')} round trip, and the braking loop needs an answer within "
        f"{fmt(S.loop_budget_s, 'ms')}. The vendor says next year's GPU will close the gap. Will it?"),
    scenario=lambda: (
        "Every camera frame must travel to the server, be processed, and come back. The travel has a floor "
        f"set by physics: light in a vacuum travels at {fmt(C.SPEED_OF_LIGHT, 'm/s')}, and in the glass of an optical fibre it is slower by the glass's "
        "group index.",
        "This is the first of two limits that decide where an ML system can run. Predict the floor, then "
        "use the calculator to find what would meet the deadline.",
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
# Log sliders: a step of about 10 %, so each arrow-key press changes the two-figure value.
A2_ACTIVE = Slider("a2_active_w", "Power while computing", unit="W", min=0.001, max=100, step=0.001,
                   default=C.MCU_ACTIVE_POWER_W, fmt="watts", scale="log", steps=100,
                   help=f"Default: a Cortex-M7 microcontroller at full speed, about "
                        f"{fmt(C.MCU_ACTIVE_POWER_W, 'watts')} (an assumed order of magnitude). A phone holds about "
                        f"{fmt(C.PHONE_SUSTAINED_POWER_W, 'watts')} (assumed); a Jetson Orin NX runs at "
                        f"{fmt(C.ORIN_NX_POWER_MIN_W, 'watts')} to {fmt(C.ORIN_NX_POWER_MAX_W, 'watts')}.")
A2_AWAKE = Slider("a2_awake_s", "Awake per reading", unit="s", min=0.0001, max=0.1,
                  step=0.0001, default=S.result_s, fmt="ms", scale="log", steps=60, help="One inference, then back to sleep.")
A2_PERIOD = Slider("a2_period_s", "Time between readings", unit="s", min=0.01, max=60, step=0.01,
                   default=S.period_s, fmt="s", scale="log", steps=90)
A2_SLEEP = Slider("a2_sleep_w", "Power while asleep", unit="W", min=1e-6, max=1e-3, step=1e-6,
                  default=S.sleep_w, fmt="watts", scale="log", steps=60)
TRACK_CHOICE = deployment(name="track", label="Your track for Volume I", default="cloud",
                   help="Every later Volume I lab opens in the track you choose here (you can still switch "
                        "in each lab before its first prediction). It is saved in your Design Ledger.")


ACT2_PREDICTION = Pick(
    id="a2_predict", act=2,
    prompt=f"The sensor must give a result within {fmt(S.result_s, 'ms')} of each reading, keep patient data "
           f"on the hospital's premises, and run {LIFE_MONTHS} on two AA cells. Where should the model run?",
    quantity="the regime that meets all three requirements",
    options=(
        Claim("A", f"**Cloud**: stream each reading to an H100 in the nearest cloud region, "
                   f"{fmt(S.cloud_region_m, 'km')} away.",
              "Patient data would leave the hospital, and light alone needs {cloud_rtt} for the round trip, "
              "beyond the {result} deadline."),
        Claim("B", f"**Edge**: a Jetson Orin NX box at each bed, at its lowest power mode "
                   f"({fmt(C.ORIN_NX_POWER_MIN_W, 'watts')}), asleep between readings.",
              "Data stays and the answer is fast, but {edge_w} for {result} {every} averages {edge_avg}: "
              "two AA cells last {edge_life}, even granting it the microcontroller's sleep power."),
        Claim("C", f"**Mobile**: a phone-class processor on each patient (about "
                   f"{fmt(C.PHONE_SUSTAINED_POWER_W, 'watts')} while computing, assumed), asleep between readings.",
              "Data stays and the answer is fast, but {mobile_w} for {result} {every} averages "
              "{mobile_avg}: two AA cells last {mobile_life}."),
        Claim("D", f"**TinyML**: a Cortex-M7 microcontroller on the sensor (about "
                   f"{fmt(C.MCU_ACTIVE_POWER_W, 'watts')} while computing, assumed), asleep between readings.",
              "Awake {duty} of the time, it averages {tiny_avg}: two AA cells last {tiny_life}. On a CR2032 "
              "coin cell it would last only {tiny_coin}, short of {months} ({life_days}): the battery size is "
              "part of the design."),
    ),
    decide=act2_answer,
)


def act2_facts() -> dict[str, str]:
    facts = {"result": fmt(S.result_s, "ms"), "life_days": LIFE_DAYS, "months": LIFE_MONTHS,
             "every": per_reading("every"),
             "cloud_rtt": fmt(rtt_s(S.cloud_region_m), "ms"),
             "duty": fmt(dep.duty_cycle(S.result_s, S.period_s), "pct"),
             "tiny_coin": fmt(life_s(C.CR2032_ENERGY_J, C.MCU_ACTIVE_POWER_W), "s"),
             "validation": fmt(S.validation_accuracy, "pct"), "drifted": fmt(S.drifted_accuracy, "pct")}
    for key, letter in (("edge", "B"), ("mobile", "C"), ("tiny", "D")):
        r = REGIMES[letter]
        facts.update({f"{key}_w": fmt(r.active_w, "watts"), f"{key}_life": fmt(r.life_s, "s"),
                      f"{key}_avg": fmt(dep.average_power_w(r.active_w, S.sleep_w, S.result_s, S.period_s),
                                        "watts")})
    return facts


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt=f"The TinyML sensors ship. Three months later their sepsis alerts agree with clinicians "
           f"{fmt(S.drifted_accuracy, 'pct')} of the time, against {fmt(S.validation_accuracy, 'pct')} at "
           "validation. Nothing crashed and no error was logged. Which part of the system should have caught it?",
    options=(
        Claim("A", "The model architecture: a larger model would not have drifted.",
              "A larger model fits the old data better; it drifts just the same when the patients, wards or "
              "sensors change."),
        Claim("B", "The training pipeline: retraining every night would have prevented it.",
              "Retraining is the cure, but someone must first notice the drop and have fresh labels; the "
              "pipeline by itself never sees live accuracy."),
        Claim("C", "Serving and monitoring: tracking live accuracy against outcomes, and the input data's "
                   "distribution, after deployment.",
              "The model failed silently, from {validation} to {drifted}, with nothing crashing: only "
              "monitoring of predictions against outcomes (and of the inputs) catches it. Most of an ML "
              "system is this machinery around the model."),
        Claim("D", "The hardware: the microcontroller's arithmetic is wearing out.",
              "Digital arithmetic does not degrade like that; a hardware fault crashes or corrupts, it does "
              "not lower accuracy gradually."),
    ),
    answer_letter="C",
)


def act2_budget(s: State) -> Budget:
    energy = BATTERIES[s["a2_battery"]][1]
    avg = dep.average_power_w(s["a2_active_w"], s["a2_sleep_w"], s["a2_awake_s"], s["a2_period_s"])
    return Budget(avg, dep.battery_life_s(energy, avg), dep.battery_life_s(energy, s["a2_active_w"]),
                  dep.duty_cycle(s["a2_awake_s"], s["a2_period_s"]))


def act2_instruments(s: State) -> list:
    b = act2_budget(s)
    short = b.life_s < S.required_life_s
    # The track's cards follow the battery's in the first grid, so the strip that stays in view on a
    # phone shows them change while the student picks a track at the foot of the controls.
    parts = [metric_grid(
        M["a2_life"].show(b.life_s, "warn" if short else "good", f"needed: {LIFE_MONTHS} ({LIFE_DAYS})"),
        M["a2_avg_power"].show(b.avg_w),
        M["a2_duty"].show(b.duty),
        M["a2_always_on"].show(b.always_on_s),
        *track_cards(s["track"]),
    )]
    if short:
        parts.append(failure(F["a2_battery_short"],
                             f"{BATTERIES[s['a2_battery']][0]} at {fmt(b.avg_w, 'watts')} on average lasts "
                             f"{fmt(b.life_s, 's')}. Read less often, sleep deeper, or carry more energy."))
    parts += [north_star(s["track"]), act2_chart(s, b)]
    return parts


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
    summary = (f"Battery life grows with the time between readings until sleep power dominates. At one reading "
               f"every {fmt(s['a2_period_s'], 's')}, the chosen battery ({BATTERIES[s['a2_battery']][0]}) lasts "
               f"{fmt(b.life_s, 's')}; {LIFE_MONTHS} is {LIFE_DAYS}.")
    rows = [(fmt(p, "s"), *(fmt(life_s(e, s["a2_active_w"], s["a2_awake_s"], p, s["a2_sleep_w"]), "s")
                            for _, e in BATTERIES.values())) for p in S.table_periods_s]
    return chart("a2_battery_life", "Battery life by time between readings", figure, summary,
                 table=(("Between readings", *(n for n, _ in BATTERIES.values())), rows))


NORTH_STARS = {
    "cloud": "Keep an H100 busy: its dense BF16 peak is only reached when memory bandwidth, the "
             "interconnect and the batch keep up, at {power} a GPU.",
    "edge": "A Jetson Orin NX: count its GPU's dense FP16 rate, not the advertised sparse INT8 total over "
            "GPU and accelerators, inside a {power_lo} to {power} power mode.",
    "mobile": "An A17 Pro phone: the Neural Engine's rate (precision not stated by Apple), memory shared "
              "with everything else, and about {power} sustained before it throttles (assumed).",
    "tiny": "A Cortex-M7 microcontroller: the model must fit the largest contiguous SRAM block, and the "
            "average power must stay at or below about {budget} by sleeping between inferences.",
}


def track_cards(track: str) -> list:
    d = device(track)
    power = S.tiny_average_budget_w if track == "tiny" else d.power_w
    note = {"tiny": "average, by duty cycling", "mobile": "sustained (assumed)",
            "edge": "highest mode", "cloud": "per GPU"}[track]
    memory_note = f"{d.mem_bytes / S.kib_bytes:.0f} KiB contiguous SRAM" if track == "tiny" else ""
    return [M["track_power"].show(power, note=note), M["track_peak"].show(d.peak_ops, note=d.precision),
            M["track_memory"].show(d.mem_bytes, note=memory_note)]


def north_star(track: str):
    d = device(track)
    text = NORTH_STARS[track].format(power=fmt(d.power_w, "watts"), power_lo=fmt(C.ORIN_NX_POWER_MIN_W, "watts"),
                                     budget=fmt(S.tiny_average_budget_w, "watts"))
    return callout("info", f"Your north star · {LABELS[track]}",
                   prose(text, "Every later Volume I lab opens in this track; the Design Ledger keeps it."))


def act2_math(s: State):
    b = act2_budget(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"\delta = \frac{t_{\text{awake}}}{T_{\text{period}}}", "The share of time awake (at most 1)."),
        Equation(r"P_{\text{avg}} = \delta\,P_{\text{active}} + (1-\delta)\,P_{\text{sleep}}",
                 "Average power: mostly sleep power once the device is awake for a tiny share of the time."),
        Equation(r"\text{life} = \frac{E_{\text{battery}}}{P_{\text{avg}}}",
                 "An ideal cell: no self-discharge and the full rated energy at any load, so long lives here "
                 "are upper bounds."),
    ), rows=(
        ("Battery energy, *E*", fmt(BATTERIES[s["a2_battery"]][1], "Wh")),
        ("Share awake, *δ*", fmt(b.duty, "pct")),
        ("Average power", fmt(b.avg_w, "watts")),
        ("Battery life", fmt(b.life_s, "s")),
    ), sources=tuple(C.REGISTRY[n].source for n in ("CR2032_ENERGY_J", "AA_PAIR_ENERGY_J", "PHONE_BATTERY_J",
                                                   "MCU_ACTIVE_POWER_W", "PHONE_SUSTAINED_POWER_W")))


ACT2 = Act(
    number=2, title="The Energy Wall", minutes="10–12 min",
    stakeholder_role="Clinical Engineering Lead",
    stakeholder=lambda: (
        f"We want a wearable sepsis-risk sensor on every ward patient. It reads vital signs once "
        f"{per_reading('a')} and must flag risk within {fmt(S.result_s, 'ms')} of each reading. Patient data may "
        f"not leave the hospital, and nobody will change batteries more often than every {LIFE_MONTHS}; two AA "
        "cells is the most the strap can carry. Where does the model run?"),
    scenario=lambda: (
        "A battery holds a fixed energy; the device's *average* power decides how long it lasts. A device that "
        "computes for a moment and sleeps for the rest of the second averages far less than its active power.",
        "After the check, the calculator is yours, and so is the last decision of this lab: the deployment "
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
    trip = act1_trip(s)
    if trip.response_s > trip.budget_s:
        active.add("a1_loop_missed")
    if act2_budget(s).life_s < S.required_life_s:
        active.add("a2_battery_short")
    return frozenset(active)


def results(s: State) -> dict[str, float | str | None]:
    trip, b = act1_trip(s), act2_budget(s)
    chosen = s.answers.get("a1_reflect")
    return {"track": s["track"], "check2_fixes": ",".join(COMBOS[chosen.choice]) if chosen else None,
            "a1_rtt": trip.rtt_s, "a1_reach": trip.reach_m, "a2_life": b.life_s, "a2_avg_power": b.avg_w}


def lab_takeaways() -> list[str]:
    tiny = REGIMES["D"]
    return [
        f"Light in fibre needs {fmt(act1_truth(), 'ms')} for a {fmt(S.distance_m, 'km')} round trip, about half "
        f"the measured {fmt(S.measured_rtt_s, 'ms')}; no GPU removes it. A {fmt(S.loop_budget_s, 'ms')} loop "
        f"cannot use a server beyond {fmt(REACH_M, 'km')} even with zero compute.",
        f"Even at the vacuum speed of light the same trip takes {fmt(rtt_s(S.distance_m, 'vacuum'), 'ms')}: "
        "distance, not the medium, is the lever.",
        f"A microcontroller at {fmt(C.MCU_ACTIVE_POWER_W, 'watts')} drains a CR2032 in "
        f"{fmt(life_s(C.CR2032_ENERGY_J, C.MCU_ACTIVE_POWER_W, 1.0, 1.0), 's')} if it never sleeps; awake "
        f"{fmt(S.result_s, 'ms')} {per_reading('a')} it averages "
        f"{fmt(dep.average_power_w(tiny.active_w, S.sleep_w, S.result_s, S.period_s), 'watts')}: "
        f"{fmt(life_s(C.CR2032_ENERGY_J, tiny.active_w), 's')} on the coin cell, {fmt(tiny.life_s, 's')} on two AA cells.",
        "TinyML's \"microwatts\" is an *average*, reached only by sleeping; the power while computing is "
        f"{fmt(tiny.active_w / dep.average_power_w(tiny.active_w, S.sleep_w, S.result_s, S.period_s), 'x')} higher.",
        "A deployed model can fail silently: monitoring live accuracy and inputs is part of the system.",
        "Your track is saved in the Design Ledger; every later Volume I lab opens in it.",
    ]


LAB = Lab(
    id="v1_00", volume=1, number=0, title="The Architect's Portal",
    invariant="Two limits no faster chip removes decide where an ML system can run: **light** sets how far "
              "away the computer may be, and a battery's **energy over average power** sets how long a "
              "device lives.",
    minutes="20–25 min", chapter="Introduction", url="vol1/00-architects-portal/",
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
        "**V1-03 The Constraint Tax**: what a constraint found late in the workflow costs.",
    ),
    record_metrics=(
        MetricSpec("track", "Track chosen for Volume I", "1", "num"),
        MetricSpec("check2_fixes", "Fixes chosen for the car's deadline", "1", "num"),
    ),
)

