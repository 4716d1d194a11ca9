"""Lab V2-17 · The Constraints Never Lie (the Volume II capstone).

Core invariant: a design is feasible only when every earlier lab's constraint holds at once; each check
reuses the corrected model of the lab it comes from, so one decision moves several checks.

Act I: the student's accuracy per domain from every earlier lab's latest attempt (``v2_17_radar``, by
the correctness each attempt recorded; missing labs are "no data"), and the board's draft, which passes
three of ten checks; the reflection asks what turns a 126 ms prefill into a 1.92 s P99 (the queue).
Act II: of four designs only a mixture of experts with FP8 weights in two regions, each able to carry
the peak, passes all ten checks; a dense model breaks two of them at once, every other change one.

Defaults come from the student's decisions in V2-11 (noise), V2-15 (clean supply), V2-16 (fairness).
Ledger (handbook/labs/v2_16.md §1): the controls, each check's value, the checks passed and failing, system_valid, the
accuracy per domain; a2_pick is the spec's act2_decision. Departures from the spec, and why: ``v2_17_model``.
"""

from __future__ import annotations

from pylabs.framework import (Act, Choice, Claim, Equation, Lab, MetricSpec, Option, Pick, Reflection, Slider,
                              State, callout, chart, fmt, math_peek, metric_grid, prose)
from pylabs.framework import charts as ch
from pylabs.framework.checks import Checks
from pylabs.framework.formats import plural
from pylabs.labs.vol2.v2_17_model import (CHANGES, designed, CHECKS, DESIGNS, DOMAINS, DP_CONVERSION, DRAFT,
                                         GPU_MTBF_S, READS, REGIONS, SECONDS_PER_DAY, SHARDINGS, WEIGHT_BYTES,
                                         CLEAN_INTENSITY, Design, S, act1_truth, act2_answer,
                                         act2_reflect_truth, carbon_limit, dp_delta, grid_intensity,
                                         replica_hbm, usage)
from pylabs.labs.vol2.v2_17_radar import domains, radar_chart
from pylabs.physics import constants as C
from pylabs.physics import privacy
from pylabs.physics import system_design as sd
from pylabs.physics import units as U
from pylabs.physics.references import cite

# ---- how the page writes the board's numbers -----------------------------------------------

TEN = fmt(len(CHECKS), "words")  # how many checks a design faces, as the page says it
REPLICA = fmt(S.replica_gpus, "int")
FEASIBLE = DESIGNS[act2_answer()]


def size(count: float) -> str:
    """A parameter or token count as the page writes it: 1 T, 100 B."""
    if count >= U.TRILLION:
        return f"{fmt(count / U.TRILLION, 'num')} T"
    return f"{fmt(count / U.BILLION, 'num')} B"


def days(d: Design) -> str:
    return fmt(d.days * SECONDS_PER_DAY, "s")  # 11.1 days, or 14.2 h under a day


def region_count(key: str, count: str = "words") -> str:
    """How many regions a setting has: 'one region', 'three regions' (``count="int"``: '3 regions')."""
    return plural(REGIONS[key][0], "region", count_fmt=count)


def regions(key: str, count: str = "words") -> str:
    """A regions setting in a sentence, 'three regions (any two carry the peak)', or as its option
    reads (``count="int"``): '3 regions, any 2 carry the peak'."""
    n, m = REGIONS[key]
    if n == 1:
        return region_count(key, count)
    carry = ("either carries" if n == 2 else f"any {fmt(m, count)} carries") if m == 1 else f"any {fmt(m, count)} carry"
    return f"{region_count(key, count)} ({carry} the peak)" if count == "words" else \
        f"{region_count(key, count)}, {carry} the peak"


CHECK_TITLES = {
    "memory": f"Training fits in {fmt(S.hbm_limit, 'GB')} per GPU",
    "days": f"Retraining takes at most {fmt(S.days_limit * SECONDS_PER_DAY, 'days')}",
    "goodput": f"Training goodput at least {fmt(S.goodput_limit, 'pct')}",
    "serving": f"Weights fit one {REPLICA}-GPU serving replica ({fmt(replica_hbm(), 'GB')})",
    "ttft": f"P99 time to first token under {fmt(S.ttft_limit_s, 'ms')}",
    "availability": f"Availability at least {fmt(S.availability_limit, 'nines')}",
    "privacy": f"Privacy: ε at most {fmt(S.epsilon_limit, 'num')}",
    "fairness": f"Equal error rates within {fmt(S.fairness_tolerance, 'pp')}",
    "carbon": f"Carbon at most {fmt(carbon_limit(), 'g/kWh')}, hour by hour",
    "budget": f"At most {fmt(S.budget_usd, 'usd')} a year"}
SHORT = {"memory": "Memory", "days": "Retrain", "goodput": "Goodput", "serving": "Weights",
         "ttft": "P99 TTFT", "availability": "Uptime", "privacy": "Privacy", "fairness": "Fairness",
         "carbon": "Carbon", "budget": "Budget"}
IF_IT_RAN = {"days": "if training fit", "goodput": "if training fit", "ttft": "if the weights fit"}

# ---- context --------------------------------------------------------------------------

CONTEXT = Choice("context", "What the radar counts", (
    Option("predictions", "Your predictions: what you expected before the instruments"),
    Option("all", "Predictions and reflections"),
), default="predictions", help="Each axis is the share of your locked answers in that domain that were right.")

# ---- Act I · What your ledger says ----------------------------------------------------------

A1_VOLUMES = Choice("a1_volumes", "Labs on the radar", (Option("both", "Both volumes"), Option("2", "Volume II"),
                                                       Option("1", "Volume I")), default="both")
RANGES = {"A": (0, 1), "B": (2, 3), "C": (4, 5), "D": (6, len(CHECKS))}  # checks passed, as each option says


def miss(letter: str) -> str:
    """How far the draft's count is from an option's range, from the range's nearer edge."""
    low, high = RANGES[letter]
    passed = DRAFT.passed
    if passed > high:
        return f"{fmt(passed - high, 'words')} more than your range's top"
    if passed < low:
        return f"{fmt(low - passed, 'words')} fewer than your range's bottom"
    return "inside your range"


def act1_facts() -> dict[str, str]:
    d = DRAFT
    rtt = 2 * S.far_user_m * C.FIBRE_GROUP_INDEX / C.SPEED_OF_LIGHT
    return {"passed": fmt(d.passed, "words"), "memory": fmt(d.memory, "GB"), "days": days(d),
            "goodput": fmt(d.goodput, "pct"), "weights": fmt(d.serving_weights, "GB"),
            "replica_hbm": fmt(replica_hbm(), "GB"), "replica": REPLICA, "ttft": fmt(d.ttft, "ms"),
            "prefill": fmt(d.prefill_s, "ms"), "factor": fmt(d.ttft / d.prefill_s, "x"),
            "gap_s": fmt(d.ttft - d.prefill_s, "ms"), "avail": fmt(d.availability, "nines"),
            "eps": fmt(d.epsilon, "num"), "gap": fmt(d.fairness_gap, "pp"), "carbon": fmt(d.carbon, "g/kWh"),
            "cost": fmt(d.cost, "usd"), "params": size(S.params), "prompt": fmt(S.prompt_tokens, "int"),
            "output": fmt(S.output_tokens, "int"), "load": fmt(d.load, "pct"), "far": fmt(S.far_user_m, "km"),
            "waits": fmt(d.ttft / d.prefill_s - 1, "num"), "times": fmt(d.ttft / d.prefill_s, "num"), "rtt": fmt(rtt, "ms"),
            **{f"miss_{k.lower()}": miss(k) for k in RANGES}}


ACT1_PREDICTION = Pick(
    id="a1_predict", act=1,
    prompt=f"The board's draft: a dense {size(S.params)}-parameter model retrained every month on "
           f"{fmt(DRAFT.gpus, 'int')} H100s (TP {SHARDINGS[DRAFT.sharding][0]} × PP {SHARDINGS[DRAFT.sharding][1]}), "
           f"served by {REPLICA}-GPU replicas holding {DRAFT.weights.upper()} weights from {region_count(DRAFT.regions)} "
           f"at {fmt(DRAFT.load, 'pct')} load, {fmt(DRAFT.cloud_fraction, 'pct')} of requests in the cloud, "
           f"DP noise z = {fmt(DRAFT.noise, 'num')}, equal precision across groups, {fmt(DRAFT.cfe, 'pct')} clean "
           f"supply. How many of the {TEN} checks in the brief does it pass?",
    quantity=f"the number of the board's {TEN} checks the draft passes",
    options=(
        Claim("A", f"None or one: a {size(S.params)} model breaks almost everything.",
              "It passes {passed}, {miss_a}. Training works: {memory} per GPU fits, and retraining takes {days} "
              "at {goodput} goodput. Serving, reliability, policy and money are where it fails."),
        Claim("B", "Two or three: training works, serving and policy do not.",
              "Memory ({memory} per GPU), retraining ({days}) and goodput ({goodput}) pass. The rest fail: "
              "{weights} of weights on a {replica_hbm} replica, a P99 of {ttft} (if they fit), availability "
              "{avail}, ε = {eps}, an error-rate gap of {gap}, {carbon} and {cost} a year."),
        Claim("C", "Four or five: the hard parts are only latency and cost.",
              "It passes {passed}, {miss_c}. Latency ({ttft}) and cost ({cost}) fail, and so do the weights "
              "({weights} on {replica_hbm}), availability ({avail}), ε = {eps}, the error-rate gap ({gap}) "
              "and carbon ({carbon})."),
        Claim("D", "Six or more: a well-funded team can meet nearly all of it.",
              "It passes {passed}, {miss_d}. Money does not lower ε = {eps} or close an error-rate gap of "
              "{gap}, and one region is up {avail} however much it costs."),
    ),
    decide=act1_truth,
)

ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt=f"Had its weights fit, the draft's {REPLICA}-GPU replica would prefill a prompt (every prompt here has "
           f"{fmt(S.prompt_tokens, 'int')} tokens) in {fmt(DRAFT.prefill_s, 'ms')}, yet its P99 time to first "
           f"token would be {fmt(DRAFT.ttft, 'ms')}. What makes up the difference?",
    options=(
        Claim("A", "Long prompts: the slowest requests carry prompts many times longer than most.",
              "Every prompt here has {prompt} tokens, so every prefill takes {prefill}; the other {gap_s} "
              "is spent before the prefill starts."),
        Claim("B", f"Distance: most of {fmt(S.users / U.BILLION, 'words')} billion users are far from the "
                   "draft's single region.",
              "This P99 has no network term at all. Even {far} of fibre to the region and back adds {rtt}, "
              "a small part of the {gap_s}."),
        Claim("C", f"Waiting: at {fmt(DRAFT.load, 'pct')} load the unluckiest requests queue behind other "
                   "prefills.",
              "At load ρ = {load}, an M/M/1 queue's 99th-percentile wait is ln(100ρ)/(1 − ρ) = {waits} prefills; "
              "with the prefill itself, {prefill} × {times} = {ttft}. Most of the time to first token is the queue."),
        Claim("D", f"Decoding: the answer's {fmt(S.output_tokens, 'int')} tokens are generated before the first "
                   "is sent.",
              "The first token leaves when the prefill ends; the {output} tokens after it are not in the time "
              "to first token. The other {gap_s} comes before the prefill."),
    ),
    answer_letter="C",
)

M = {m.name: m for m in (
    MetricSpec("a1_labs", "Earlier labs in your ledger", "1", "int"),
    MetricSpec("a1_answers", "Locked answers counted", "1", "int"),
    MetricSpec("a1_accuracy", "Right, over all counted", "1", "pct"),
    MetricSpec("a2_passed", "Checks passed", "1", "int"),
    MetricSpec("a2_ttft", "P99 time to first token", "s", "ms"),
    MetricSpec("a2_cost", "Cost per year", "USD", "usd"),
    MetricSpec("a2_memory", "Training memory per GPU", "B", "GB"),
    MetricSpec("a2_epsilon", "Privacy ε", "1", "num"),
    MetricSpec("a2_carbon", "Carbon intensity (CO₂e)", "kg/J", "g/kWh"),
    MetricSpec("a2_availability", "Availability", "1", "nines"),
    MetricSpec("a2_serving", "Weights per serving replica", "B", "GB"),
    MetricSpec("a2_days", "Retraining time", "s", "s"),
    MetricSpec("a2_goodput", "Training goodput", "1", "pct"),
    MetricSpec("a2_fair_gap", "Error-rate gap between groups", "1", "pp"),
    MetricSpec("a2_serving_gpus", "Serving GPUs provisioned", "1", "int"),
)}
RECORD = (*(MetricSpec(f"a1_acc_{name.lower()}", f"Your accuracy, {name}", "1", "pct") for name in DOMAINS),
          MetricSpec("a2_failing", "Checks that fail", "1", "num"),
          MetricSpec("system_valid", "Every check passes", "1", "yesno"))


def act1_instruments(s: State) -> list:
    rows = domains(dict(s.earlier), s["context"] == "all", s["a1_volumes"])
    right, answered = sum(r.right for r in rows), sum(r.answered for r in rows)
    cards = [M["a1_labs"].show(sum(r.labs for r in rows), note=f"of {len(READS)} that feed the radar"),
             M["a1_answers"].show(answered)]
    if answered:  # with nothing locked there is no accuracy to show, not a 0 %
        cards.append(M["a1_accuracy"].show(right / answered))
    parts = [metric_grid(*cards)]
    if not answered:
        parts.append(callout("info", "Your ledger has no answers to count yet",
                             prose("The radar fills in as you lock predictions in the other labs. The board's "
                                   "draft below does not need your ledger.")))
    return parts + [radar_chart(rows), checks_chart("a1_draft", f"The board's draft against the {TEN} checks", DRAFT)]


def shown(d: Design) -> dict[str, str]:
    """Each check's value as the page writes it; a system that cannot run says so."""
    values = {"memory": fmt(d.memory, "GB"), "days": days(d), "goodput": fmt(d.goodput, "pct"),
              "serving": f"{fmt(d.serving_weights, 'GB')} in {d.weights.upper()}", "ttft": fmt(d.ttft, "ms"),
              "availability": fmt(d.availability, "nines"), "privacy": f"ε = {fmt(d.epsilon, 'num')}",
              "fairness": fmt(d.fairness_gap, "pp"), "carbon": fmt(d.carbon, "g/kWh"), "budget": fmt(d.cost, "usd")}
    return {k: f"{v} ({IF_IT_RAN[k]})" if k in d.hypothetical() else v for k, v in values.items()}


def check_figure(d: Design) -> dict:
    used, ideal = usage(d), d.hypothetical()
    values = [min(max(v, S.chart_floor), 1 / S.chart_floor) for v in used.values()]
    colours = ["muted" if k in ideal else "good" if v <= 1 else "danger" for k, v in used.items()]
    limit, note = ch.hline(1.0, "ink", "limit", log=True)
    return ch.figure([ch.bars("Share of the limit", [SHORT[k] for k in used], values, colours)],
                     ch.axis("", "category"),
                     ch.axis("Share of the limit (log)", "log", **ch.decade_ticks(values + [1.0], lambda v: fmt(v, "x"))),
                     shapes=[limit], annotations=[note], legend=False, height=int(S.chart_height_px))


def checks_chart(name: str, title: str, d: Design):
    ok, values = d.checks(), shown(d)
    summary = (f"{d.passed} of {len(ok)} checks are at or under their limit; grey bars belong to a system "
               "that could not run." if d.hypothetical() else f"{d.passed} of {len(ok)} checks are at or under "
                                                             "their limit.")
    rows = [(CHECK_TITLES[k], values[k], "passes" if ok[k] else "fails") for k in ok]
    return chart(name, title, check_figure(d), summary, table=(("Check", "Value", "Verdict"), rows))


def act1_math(s: State):
    return math_peek("How the radar and the draft's training checks are computed", (
        Equation(r"\text{accuracy}_d = \frac{\#\,\text{right}}{\#\,\text{locked}}",
                 "Over the latest attempt of every lab mapped to domain *d*, as each attempt recorded its answers; "
                 "a domain with no locked answers reads no data, not a score."),
        Equation(r"M = \frac{4P}{TP\cdot PP} + \frac{12P}{TP\cdot PP\cdot DP} + A",
                 "Training memory per GPU: BF16 weights and gradients, ZeRO-1 Adam state, activations *A* [assumed]."),
        Equation(r"T = \frac{6\,P_{\text{act}}\,D}{N\,C\,\text{MFU}\cdot G}",
                 "Retraining time on *N* GPUs, with goodput *G* from the checkpoint model (V2-07)."),
    ), rows=tuple((label, ", ".join(labs)) for label, labs in DOMAINS.items()), sources=(
        cite("zero2020", "16 bytes per parameter, optimizer state sharded"),
        cite("kaplan2020", "6 FLOP per parameter per training token"),
        cite("llama3_2024", "this layout on 16,384 H100s, its MFU and its failure rate"),
    ))


ACT1 = Act(
    number=1, title="What Your Ledger Says", minutes="10–12 min",
    stakeholder_role="Chief Architect",
    stakeholder=lambda: (
        "Before the board meeting, two things. First, look at your own record: every prediction you locked in "
        "these labs is in your Design Ledger, and it shows where your intuition is good and where it is not. "
        "Second, the board has sent a draft. Tell me how much of it survives contact with the physics."),
    scenario=lambda: (
        f"The board wants one assistant for **{fmt(S.users / U.BILLION, 'num')} billion users**: a "
        f"{size(S.params)}-parameter model retrained monthly on {size(S.tokens_per_month)} tokens, for at most "
        f"**{fmt(S.budget_usd, 'usd')} a year**, renting H100s at {fmt(S.usd_per_gpu_hour, 'usd')} an hour [assumed].",
        f"Its {TEN} checks, each the model of an earlier lab: training fits in {fmt(S.hbm_limit, 'GB')} per GPU "
        f"and retrains within {fmt(S.days_limit * SECONDS_PER_DAY, 'days')} at {fmt(S.goodput_limit, 'pct')} "
        f"goodput or better; the weights fit one {REPLICA}-GPU serving replica; a P99 time to first token under "
        f"{fmt(S.ttft_limit_s, 'ms')}; {fmt(S.availability_limit, 'nines')} availability; ε at most "
        f"{fmt(S.epsilon_limit, 'num')}; error rates within {fmt(S.fairness_tolerance, 'pp')} across groups; at "
        f"most {fmt(carbon_limit(), 'g/kWh')} hour by hour; the budget.",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_VOLUMES,),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Your ledger and the board's draft",
)

# ---- Act II · One design, every constraint --------------------------------------------

A2_ARCH = Choice("a2_arch", "Model", (
    Option("dense", f"Dense {size(S.params)}: every parameter works on every token"),
    Option("moe", f"Mixture of experts {size(S.params)}, {size(S.moe_active)} active per token"),
), default="moe" if DRAFT.moe else "dense")
A2_WEIGHTS = Choice("a2_weights", "Serving weights", tuple(
    Option(key, f"{key.upper()}: {plural(WEIGHT_BYTES[key], 'byte')} per parameter") for key in WEIGHT_BYTES
), default=DRAFT.weights, help=f"Each {REPLICA}-GPU replica holds every parameter, experts included. This page "
                               "prefills at the BF16 rate either way [conservative].")
A2_GPUS = Choice("a2_gpus", "Training GPUs", tuple(Option(str(n), f"{n:,}") for n in (4096, 8192, 16384, 32768)),
                 default=str(DRAFT.gpus), widget="select")
A2_SHARDING = Choice("a2_sharding", "Training parallelism", tuple(
    Option(key, f"TP {tp} × PP {pp}") for key, (tp, pp) in SHARDINGS.items()
), default=DRAFT.sharding, widget="select", help="Data parallelism takes the rest of the GPUs, with ZeRO-1 Adam state.")
A2_CLOUD = Slider("a2_cloud", "Requests answered in the cloud", unit="1", min=0.05, max=1.0, step=0.05,
                  default=DRAFT.cloud_fraction, fmt="pct", help="The rest run on the user's device with a distilled model.")
A2_LOAD = Slider("a2_load", "Prefill queue load per replica, ρ", unit="1", min=0.1, max=0.9, step=0.05,
                 default=DRAFT.load, fmt="pct", help="Provisioned GPUs = busy GPUs ÷ ρ.")
A2_REGIONS = Choice("a2_regions", "Regions", tuple(Option(key, regions(key, "int")) for key in REGIONS),
                    default=DRAFT.regions, widget="select",
                    help=f"Each region is up {fmt(S.region_availability, 'nines')} of the time, independently [assumed].")
A2_NOISE = Slider("a2_noise", "DP-SGD noise multiplier, z", unit="1", min=0.5, max=3.0, step=0.01, default=DRAFT.noise,
                  fmt="num", help="Noise standard deviation ÷ clipping norm, as in V2-11.")
A2_FAIR = Choice("a2_fair", "Fairness rule", (
    Option("single", "One threshold: equal error rates (equalized odds)"),
    Option("ppv", "Equal precision (PPV) in each group"),
), default=DRAFT.fairness, help=f"Base rates differ ({fmt(S.base_a, 'pct')} and {fmt(S.base_b, 'pct')}), so both "
                                "cannot hold (V2-16); one threshold gives equal error rates if the score errs alike "
                                "in both groups [assumed].")
A2_CFE = Slider("a2_cfe", "Hour-matched clean supply", unit="1", min=0.0, max=1.0, step=0.05, default=DRAFT.cfe,
                fmt="pct", help=f"New wind at {fmt(CLEAN_INTENSITY, 'g/kWh')} (IPCC median, as in V2-15); the rest from a "
                                f"{fmt(grid_intensity(), 'g/kWh')} grid [assumed].")

A2_CONTROLS = (A2_ARCH, A2_WEIGHTS, A2_GPUS, A2_SHARDING, A2_CLOUD, A2_LOAD, A2_REGIONS, A2_NOISE, A2_FAIR, A2_CFE)
Z_MIN = privacy.noise_multiplier_for_epsilon(S.dp_sampling_rate, S.dp_steps, dp_delta(), S.epsilon_limit,
                                             DP_CONVERSION)
CFE_MIN = (grid_intensity() - carbon_limit()) / (grid_intensity() - CLEAN_INTENSITY)


def design(s: State) -> Design:
    return designed(s["a2_arch"] == "moe", int(s["a2_gpus"]), s["a2_sharding"], s["a2_cloud"], s["a2_load"],
                    s["a2_regions"], s["a2_noise"], s["a2_fair"], s["a2_cfe"], s["a2_weights"])


def act2_facts() -> dict[str, str]:
    a, b, d = DESIGNS["A"], DESIGNS["B"], DESIGNS["D"]
    dense, one, twice = CHANGES["A"], CHANGES["C"], CHANGES["D"]
    return {"weights_a": fmt(a.serving_weights, "GB"), "replica_hbm": fmt(replica_hbm(), "GB"), "replica": REPLICA,
            "active_share": fmt(S.moe_active / S.params, "fraction"), "prefill_b": fmt(b.prefill_s, "ms"),
            "ttft_b": fmt(b.ttft, "ms"), "cost_b": fmt(b.cost, "usd"), "params": size(S.params),
            "avail_c": fmt(DESIGNS["C"].availability, "nines"), "weights_c": fmt(DESIGNS["C"].serving_weights, "GB"),
            "ttft_c": fmt(DESIGNS["C"].ttft, "ms"), "cost_c": fmt(DESIGNS["C"].cost, "usd"),
            "ten": TEN, "weights_d": fmt(d.serving_weights, "GB"), "ttft_d": fmt(d.ttft, "ms"),
            "avail_d": fmt(d.availability, "nines"), "eps_d": fmt(d.epsilon, "num"), "carbon_d": fmt(d.carbon, "g/kWh"),
            "cost_d": fmt(d.cost, "usd"), "ttft_dense": fmt(dense.ttft, "ms"), "cost_dense": fmt(dense.cost, "usd"),
            "avail_one": fmt(one.availability, "nines"), "cost_one": fmt(one.cost, "usd"),
            "goodput_twice": fmt(twice.goodput, "pct"), "days_twice": days(twice), "days_d": days(d),
            "cost_twice": fmt(twice.cost, "usd")}


def pick_text(d: Design) -> str:
    """A candidate design in words (the regions put otherwise than the control's options put them)."""
    n, m = REGIONS[d.regions]
    enough = f"{'each ' if n > 1 else ''}enough for the whole peak" if m == 1 else \
        f"any {fmt(m, 'words')} of them enough for the peak"
    model = "Mixture of experts" if d.moe else f"Dense {size(S.params)}"
    return f"{model}, {d.weights.upper()} weights, {region_count(d.regions)}, {enough}."


ACT2_PREDICTION = Pick(
    id="a2_pick", act=2,
    prompt=f"Every design below retrains on {fmt(FEASIBLE.gpus, 'int')} GPUs (TP {SHARDINGS[FEASIBLE.sharding][0]} "
           f"× PP {SHARDINGS[FEASIBLE.sharding][1]}), serves on {REPLICA}-GPU replicas at {fmt(FEASIBLE.load, 'pct')} "
           f"load with {fmt(FEASIBLE.cloud_fraction, 'pct')} of requests in the cloud, adds noise z = "
           f"{fmt(FEASIBLE.noise, 'num')}, uses one threshold for both groups and matches {fmt(FEASIBLE.cfe, 'pct')} of "
           f"every hour with clean supply. Which one passes all {TEN} checks?",
    quantity="the design that passes every check",
    options=tuple(Claim(k, pick_text(DESIGNS[k]), feedback) for k, feedback in (
        ("A", "Every expert must sit in each replica: {weights_a} of BF16 weights do not fit {replica} GPUs' "
              "{replica_hbm}, though only {active_share} of them work on any token."),
        ("B", "Its prefill alone takes {prefill_b}; queued, the P99 is {ttft_b}, and a fleet that runs all {params} "
              "parameters on every token costs {cost_b} a year."),
        ("C", "Two regions give {avail_c}, but three checks fail: {weights_c} of BF16 weights do not fit "
              "{replica_hbm}, a dense prefill queues to {ttft_c} at P99, and a dense fleet provisioned in both regions costs "
              "{cost_c} a year."),
        ("D", "All {ten} pass: {weights_d} of FP8 weights fit the replica's {replica_hbm}, the P99 is {ttft_d}, "
              "availability {avail_d}, ε = {eps_d}, {carbon_d} and {cost_d} a year."),
    )),
    decide=act2_answer,
)

ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt="Start from the design that passes every check. Which one of these changes breaks the most checks at "
           "once?",
    options=(
        Claim("A", "A dense model: each token runs through every parameter.",
              "Dense: the P99 rises to {ttft_dense} and the bill to {cost_dense}, two checks at once and the most "
              "of the four. Compute per token is what the most checks hang on."),
        Claim("B", "BF16 weights: each replica holds two bytes per parameter.",
              "BF16 breaks one check, serving memory ({weights_a} on {replica_hbm}); the P99 stays {ttft_d}, since "
              "this page prefills at the BF16 rate either way. The dense model breaks two."),
        Claim("C", "One region: nowhere to fail over to when it is down.",
              "One region breaks one check, availability ({avail_one}); the bill even falls to {cost_one}. The "
              "dense model breaks two."),
        Claim("D", "Double the training GPUs: a failure comes twice as often.",
              "Twice the GPUs break one check, goodput ({goodput_twice}); retraining gets faster ({days_twice}, "
              "from {days_d}) and the bill rises only to {cost_twice}, from {cost_d}. The dense model breaks two."),
    ),
    answer_letter=act2_reflect_truth(),
)

ACT2_CHECKS = Checks(CHECK_TITLES, act=2, witnesses={
    "memory": dict(reach={"a2_sharding": "tp8pp4"}, leave={"a2_sharding": "tp8pp16"}),
    "days": dict(reach={"a2_gpus": "4096"}, leave={"a2_arch": "moe"}),
    "goodput": dict(reach={"a2_gpus": "32768"}, leave={"a2_gpus": "16384"}),
    "serving": dict(reach={}, leave={"a2_weights": "fp8"}),
    "ttft": dict(reach={}, leave={"a2_arch": "moe"}),
    "availability": dict(reach={}, leave={"a2_regions": "r2m1"}),
    "privacy": dict(reach={}, leave={"a2_noise": 3}),
    "fairness": dict(reach={}, leave={"a2_fair": "single"}),
    "carbon": dict(reach={}, leave={"a2_cfe": 1}),
    "budget": dict(reach={}, leave={"a2_arch": "moe"}),
})


def act2_instruments(s: State) -> list:
    d = design(s)
    ok, ideal = d.checks(), d.hypothetical()
    tone = {k: None if k in ideal else t for k, t in ACT2_CHECKS.tones(ok).items()}

    def note(key: str, text: str) -> str:
        return IF_IT_RAN[key] if key in ideal else text

    # the first six cards follow the strip: every control moves one of them
    parts = [metric_grid(
        M["a2_passed"].show(d.passed, "good" if d.feasible else "danger", f"of {len(ok)} checks"),
        M["a2_ttft"].show(d.ttft, tone["ttft"], note("ttft", f"limit {fmt(S.ttft_limit_s, 'ms')}")),
        M["a2_cost"].show(d.cost, tone["budget"], f"limit {fmt(S.budget_usd, 'usd')}"),
        M["a2_memory"].show(d.memory, tone["memory"], f"DP {d.dp}, limit {fmt(S.hbm_limit, 'GB')}"),
        M["a2_epsilon"].show(d.epsilon, tone["privacy"], f"policy ≤ {fmt(S.epsilon_limit, 'num')}"),
        M["a2_carbon"].show(d.carbon, tone["carbon"], f"limit {fmt(carbon_limit(), 'g/kWh')}"),
        M["a2_availability"].show(d.availability, tone["availability"], regions(d.regions, "int")),
        M["a2_serving"].show(d.serving_weights, tone["serving"], f"{REPLICA} GPUs hold {fmt(replica_hbm(), 'GB')}"),
        M["a2_days"].show(d.days * SECONDS_PER_DAY, tone["days"],
                          note("days", f"limit {fmt(S.days_limit * SECONDS_PER_DAY, 'days')}")),
        M["a2_goodput"].show(d.goodput, tone["goodput"], note("goodput", f"limit {fmt(S.goodput_limit, 'pct')}")),
        M["a2_fair_gap"].show(d.fairness_gap, tone["fairness"], f"precision gap {fmt(d.ppv_gap, 'pp')}"),
        M["a2_serving_gpus"].show(d.serving_gpus, note=f"{fmt(d.busy_gpus, 'int')} busy at full load"),
    )]
    parts.append(ACT2_CHECKS.verdict(ok, "Feasible: every check passes", "This design meets the board's requirements.",
                                     "Each failing check names the lever that moves it."))
    parts += ACT2_CHECKS.failing(ok, {k: f"{IF_IT_RAN[k].capitalize()}: {v}" if k in ideal else v
                                      for k, v in levers(d).items()})
    parts.append(checks_chart("a2_checks", "Each check as a share of its limit", d))
    return parts


def either(levers: list[str]) -> str:
    """Levers in a sentence: 'a, b, or c'."""
    return " or ".join(levers) if len(levers) <= 2 else f"{', '.join(levers[:-1])}, or {levers[-1]}"


def levers(d: Design) -> dict[str, str]:
    """What moves each failing check, naming only levers not already at their end (class 3)."""
    fp8 = Design(weights="fp8").serving_weights
    ttft_levers = ([] if d.moe else ["fewer active parameters per token"]) + \
        (["a lower queue load"] if d.load > A2_LOAD.min else []) or ["a lower queue load"]
    idle = d.load < A2_LOAD.max or REGIONS[d.regions][0] > REGIONS[d.regions][1]
    budget_levers = ([] if d.moe else ["fewer FLOPs per request"]) + (["fewer idle replicas"] if idle else []) + \
        (["more on device"] if d.cloud_fraction > A2_CLOUD.min else []) or ["fewer training GPUs"]
    return {
        "memory": f"{fmt(d.memory, 'GB')} per GPU: shard the model over more pipeline stages.",
        "days": f"{days(d)} per retrain: more GPUs or fewer active parameters.",
        "goodput": f"{fmt(d.goodput, 'pct')}: a larger job fails more often; train on fewer GPUs.",
        "serving": f"{fmt(d.serving_weights, 'GB')} of weights on {fmt(replica_hbm(), 'GB')}: "
                   f"{'every expert stays resident, so ' if d.moe else ''}fewer bytes per parameter (FP8: {fmt(fp8, 'GB')}).",
        "ttft": f"{fmt(d.ttft, 'ms')} at P99: {either(ttft_levers)}.",
        "availability": f"{fmt(d.availability, 'nines')}: add regions that can carry the peak between them.",
        "privacy": f"ε = {fmt(d.epsilon, 'num')}: raise the noise multiplier.",
        "fairness": f"An error-rate gap of {fmt(d.fairness_gap, 'pp')}: use one threshold for both groups.",
        "carbon": f"{fmt(d.carbon, 'g/kWh')}: match more of every hour with clean supply.",
        "budget": f"{fmt(d.cost, 'usd')} a year: {either(budget_levers)}.",
    }


def act2_math(s: State):
    d = design(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"W = P\,b \le n\,M_{\text{GPU}}",
                 "Serving memory: every parameter, expert or not, at *b* bytes, in a replica of *n* GPUs."),
        Equation(r"t_{99} = t_{pf}\left(1 + \frac{\ln(100\rho)}{1-\rho}\right),\quad "
                 r"t_{pf} = \frac{2 P_{\text{act}} s_{\text{in}}}{n\,C\,u}",
                 "P99 time to first token: one prefill plus the M/M/1 P99 wait at load ρ (V2-10's approximation)."),
        Equation(r"N_{\text{serve}} = \frac{Q\cdot 2P_{\text{act}}(s_{\text{in}}+s_{\text{out}})}{C\,u}\cdot"
                 r"\frac{1}{\rho}\cdot\frac{R}{m}",
                 "Busy GPUs, provisioned for the queue load ρ and for *m* of *R* regions carrying the peak."),
        Equation(r"A = \sum_{k\ge m}\binom{R}{k}a^k(1-a)^{R-k}", "At least *m* of *R* independent regions up."),
        Equation(r"\varepsilon = \min_\alpha\, \mathrm{RDP}(\alpha) + \ln\frac{\alpha-1}{\alpha} - "
                 r"\frac{\ln\delta + \ln\alpha}{\alpha-1}",
                 "The subsampled Gaussian RDP accountant (V2-11) with the tighter conversion of Balle et al. 2020: "
                 "an upper bound on ε. Accountants built on privacy-loss distributions prove a smaller ε for the "
                 "same *z*, so a design near the limit passes or fails by the accountant its policy names."),
        Equation(r"I = (1-f)\,I_{\text{grid}} + f\,I_{\text{clean}}", "Hour-matched clean supply *f* (V2-15)."),
    ), rows=(
        ("Requests per user a day; peak over mean [assumed]", f"{fmt(S.requests_per_user_day, 'num')}; {fmt(S.peak_factor, 'x')}"),
        ("Peak requests per second, Q", fmt(sd.peak_requests_per_s(S.users, S.requests_per_user_day, S.peak_factor,
                                                                 d.cloud_fraction), "req/s")),
        ("Serving / prefill MFU [assumed]", f"{fmt(S.serve_mfu, 'pct')} / {fmt(S.prefill_mfu, 'pct')}"),
        ("Prefill of one prompt, t_pf", fmt(d.prefill_s, "ms")),
        ("Cluster MTBF", fmt(GPU_MTBF_S / d.gpus, "s")),
        ("Training MFU (Llama 3 405B at this layout; experts [assumed] alike)", fmt(S.train_mfu, "pct")),
        ("Grid / clean intensity", f"{fmt(grid_intensity(), 'g/kWh')} [assumed] / {fmt(CLEAN_INTENSITY, 'g/kWh')}"),
        ("DP-SGD q, steps [assumed]", f"{fmt(S.dp_sampling_rate, 'sci')}, {fmt(S.dp_steps, 'int')}"),
        ("δ = 1/(10 N)", fmt(dp_delta(), "sci")),
        ("Smallest z for the policy's ε", fmt(Z_MIN, "num")),
        ("GPU price [assumed]", f"{fmt(S.usd_per_gpu_hour, 'usd')} per H100-hour"),
    ), sources=(
        cite("nvidia_llama31_405b_fp8", "FP8 linear layers: about half the memory of BF16"),
        cite("kleinrock1975", "the M/M/1 waiting-time tail"),
        cite("young1974", "the checkpoint interval"),
        cite("mironov2019", "the subsampled Gaussian RDP accountant"),
        cite("balle2020", "the tighter RDP to (ε, δ) conversion"),
        cite("doroshenko2022", "privacy-loss-distribution accounting, tighter than RDP"),
        cite("dwork_roth2014", "δ far below 1/N (§2.3)"),
        cite("chouldechova2017", "the identity that forces a gap with unequal base rates"),
        cite("ipcc_ar5_annex3", "lifecycle intensity of onshore wind"),
    ))


ACT2 = Act(
    number=2, title="One Design, Every Constraint", minutes="20–25 min",
    stakeholder_role="Board of Directors",
    stakeholder=lambda: (
        f"We have heard what fails. Now give us a design that passes every one of the {TEN} checks, or tell us "
        "which requirement to drop. We will not accept a plan that fails a check we set."),
    scenario=lambda: (
        f"{fmt(len(A2_CONTROLS), 'words').capitalize()} controls, {TEN} checks. A mixture of experts keeps "
        f"{size(S.params)} parameters but activates {size(S.moe_active)} per token. Requests not answered in the "
        "cloud run on the user's device. Regions are independent; capacity is provisioned so that the regions "
        "that must stay up can carry the peak.",
        "The privacy and fairness limits are the company's policy, not numbers taken from a law.",
    ),
    prediction=ACT2_PREDICTION,
    controls=A2_CONTROLS,
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="The design",
)

# ---- the whole lab -------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    return frozenset(f"a2_{k}" for k, ok in design(s).checks().items() if not ok)


def results(s: State) -> dict[str, float | str | None]:
    d = design(s)
    ok = d.checks()
    record: dict[str, float | str | None] = {
        "a2_passed": d.passed, "a2_ttft": d.ttft, "a2_cost": d.cost, "a2_memory": d.memory, "a2_epsilon": d.epsilon,
        "a2_carbon": d.carbon, "a2_availability": d.availability, "a2_serving": d.serving_weights,
        "a2_days": d.days * SECONDS_PER_DAY, "a2_goodput": d.goodput, "a2_fair_gap": d.fairness_gap,
        "a2_serving_gpus": d.serving_gpus,
        "a2_failing": ", ".join(SHORT[k] for k, passed in ok.items() if not passed) or "none",
        "system_valid": float(d.feasible)}
    for row in domains(dict(s.earlier), s["context"] == "all", s["a1_volumes"]):
        record[f"a1_acc_{row.name.lower()}"] = row.accuracy
    return record


def lab_takeaways() -> list[str]:
    f, g = act1_facts(), act2_facts()
    return [
        f"The board's draft passes {f['passed']} of {TEN} checks: training works, but {f['weights']} of BF16 weights "
        f"do not fit a {f['replica_hbm']} replica, and its P99 ({f['ttft']}) and bill ({f['cost']}) fail.",
        f"A P99 is mostly waiting: at {f['load']} load the queue stretches a {f['prefill']} prefill {f['factor']} "
        f"to {f['ttft']}.",
        f"Compute per token follows active parameters, memory follows all of them: a mixture of experts retrains in "
        f"{g['days_d']} and answers at {g['ttft_d']} P99, yet fits its replica only in FP8 ({g['weights_d']}).",
        f"Availability is bought with regions, and regions multiply the fleet: {regions(FEASIBLE.regions)} give "
        f"{g['avail_d']} for {fmt(FEASIBLE.serving_gpus, 'int')} serving GPUs.",
        f"Privacy, fairness and carbon limits are policies you set and then meet with physics: z of "
        f"{fmt(Z_MIN, 'num')} or more by the RDP accountant (Balle et al.'s tighter conversion, δ = {fmt(dp_delta(), 'sci')}), "
        f"one threshold (with a precision gap of {fmt(FEASIBLE.ppv_gap, 'pp')}), at least {fmt(CFE_MIN, 'pct')} "
        "clean supply every hour.",
        "Your ledger's radar shows where your intuition was weakest: that is where a design review should "
        "start measuring before trusting.",
    ]


LAB = Lab(
    id="v2_17", volume=2, number=17, title="The Constraints Never Lie",
    invariant="A design is **feasible only when every constraint holds at once**: each check is an earlier "
              "lab's physics, and the decisions that matter most move several checks together.",
    minutes="30–40 min", chapter="Conclusion", url="vol2/17-constraints-never-lie/",
    description="The Volume II capstone. Your Design Ledger shows where your intuition held, then one production "
                "design must pass ten checks at once, from training and serving memory and P99 latency to "
                "availability, privacy, fairness, carbon and budget.",
    reading=(
        "**Every earlier chapter**: this lab brings their constraints together.",
        "**Mixture-of-experts models**: total against active parameters.",
        "**Service reliability across regions**: k-out-of-n redundancy.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=ACT2_CHECKS.failures,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "[**V2-10 The KV-Cache Memory Wall**](../10-kv-cache-wall/): the serving model behind the P99 check.",
        "[**V2-07 The Checkpoint Reckoning**](../07-checkpoint-reckoning/): the goodput check.",
        "[**V2-11 The Federation Paradox**](../11-federation-paradox/): the DP accountant and its two conversions.",
        "[**V2-16 The Fairness Impossibility**](../16-fairness-impossibility/): why equal error rates leave a precision gap.",
    ),
    reads=READS,
    record_metrics=RECORD,
    defaults_from={"a2_noise": ("v2_11", "a2_z"), "a2_cfe": ("v2_15", "a2_procure"), "a2_fair": ("v2_16", "a2_eu_rule")},
    hook=f"A board wants one assistant for {fmt(S.users / U.BILLION, 'words')} billion users and sets {TEN} "
         "checks, from memory and latency to privacy and carbon. How much of its draft survives, and what would "
         "pass them all?",
)
