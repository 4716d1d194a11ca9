"""Lab V2-17 · The Constraints Never Lie (the Volume II capstone).

Core invariant: a production design is feasible only when every constraint met in the earlier labs
holds at once; each check below reuses the corrected model of the lab it comes from, so one
decision moves several checks.

Act I (ledger archaeology): the student's own prediction accuracy per domain, from every earlier
lab's latest attempt in the Design Ledger (missing labs are "no data", never a score), beside the
board's draft, which the student first predicts against: of nine checks the draft passes three
(training memory 51.98 GB, retraining 11.4 days, goodput 94 %). Act II (the design): nine
controls, nine checks; only a mixture of experts (100 B active of 1 T) passes the P99 time to first
token and the budget together, three regions of which any two carry the peak give 99.9997 %, ≥ 87 %
hour-matched clean supply passes carbon, and z ≥ 1.05 passes the privacy policy.

Choices, and why: the spec's Act I prediction ("which family was most counterintuitive") has no key;
here the student predicts how many of the draft's checks pass (a test proves it), and the radar is
the instrument. The spec's seven checks become nine: training memory, time and goodput are separate
(each fails for its own reason). Serving GPUs are provisioned for the prefill queue's load ρ and the
regional headroom R/m: GPUs = busy/ρ·R/m, so buying latency with idle GPUs costs budget (with the
spec's busy count alone, a dense model could meet the P99 at ρ = 0.1 for free). The spec says edge
offload is necessary; in its own model a mixture of experts served entirely in the cloud still fits
the budget ($5.9 B a year), so the page says edge offload helps, not that it is needed. Privacy and
fairness thresholds are the company's policy (ε ≤ 2, error-rate gap ≤ 2 pp), not legal numbers;
the carbon limit is an internal 24/7 clean-energy proxy (≤ 50 g/kWh).

Defaults come from the student's own decisions where an earlier lab made them: the noise multiplier
(V2-11), the clean supply matched hour by hour (V2-15) and the fairness rule (V2-16).

Ledger (spec §3): controls (the config), each check's value and pass flag, system_valid,
annual_cost_b, the accuracy per domain; answers a1_predict, a2_pick (act2_decision); failures.
"""

from __future__ import annotations

import math

from pylabs.framework import (Act, Choice, Claim, Equation, Lab, MetricSpec, Option, Pick,
                              Reflection, Slider, State, callout, chart, fmt, math_peek, metric_grid,
                              prose)
from pylabs.framework import charts as ch
from pylabs.framework.checks import Checks
from pylabs.framework.earlier import Tally, tally
from pylabs.framework.formats import plural
from pylabs.labs.vol2.v2_17_model import (DESIGNS, DOMAINS, DRAFT, GPU_MTBF_S, READS, REGIONS, SECONDS_PER_DAY,
                                         SHARDINGS, Design, S, act1_truth, act2_answer, usage)
from pylabs.physics import system_design as sd
from pylabs.physics.references import cite

# ---- the Design Ledger's domains and the nine checks -----------------------------------

CHECKS = fmt(len(DRAFT.checks()), "words")  # how many checks a design faces, as the page says it


def size(count: float) -> str:
    """A parameter or token count as the page writes it: 1 T, 100 B."""
    if count >= S.per_trillion:
        return f"{fmt(count / S.per_trillion, 'num')} T"
    return f"{fmt(count / S.per_billion, 'num')} B"


def region_count(key: str, count: str = "words") -> str:
    """How many regions a setting has: 'one region', 'three regions' (``count="int"``: '3 regions')."""
    return plural(REGIONS[key][0], "region", count_fmt=count)


def carrying(key: str, count: str = "words") -> str | None:
    """How many of a setting's regions carry the peak: 'any two carry the peak'; None for one region."""
    n, m = REGIONS[key]
    if n == 1:
        return None
    if m == n:
        return "both needed at the peak" if n == 2 else "all needed at the peak"
    if m == 1:
        return "either carries the peak" if n == 2 else f"any {fmt(m, count)} carries the peak"
    return f"any {fmt(m, count)} carry the peak"


def regions(key: str) -> str:
    """A regions setting in a sentence: 'three regions (any two carry the peak)'."""
    carry = carrying(key)
    return region_count(key) if carry is None else f"{region_count(key)} ({carry})"


def region_label(key: str) -> str:
    """A regions setting as its option reads: '3 regions, any 2 carry the peak'."""
    carry = carrying(key, "int")
    return region_count(key, "int") if carry is None else f"{region_count(key, 'int')}, {carry}"


def nines(availability: float) -> str:
    """An availability with the decimals its nines need: 99.99 %, 99.9997 %."""
    if availability >= 1:
        return fmt(availability, "pct")
    decimals = max(1, math.ceil(round(-math.log10(1 - availability), 6)) - 2)
    return f"{availability * S.pct_per_unit:.{decimals}f} %"


def domains(earlier: dict, reflections: bool, volumes: str) -> list[Tally]:
    """Accuracy per domain over the chosen volumes' labs (framework.earlier)."""
    prefixes = {"both": ("v1_", "v2_"), "1": ("v1_",), "2": ("v2_",)}[volumes]
    return [tally(name, earlier, [lab for lab in labs if lab.startswith(prefixes)], reflections)
            for name, labs in DOMAINS.items()]


CHECK_TITLES = {
    "memory": f"Training fits in {fmt(S.hbm_limit, 'GB')} per GPU",
    "days": f"Retraining takes at most {fmt(S.days_limit * SECONDS_PER_DAY, 'days')}",
    "goodput": f"Training goodput at least {fmt(S.goodput_limit, 'pct')}",
    "ttft": f"P99 time to first token under {fmt(S.ttft_limit_s, 'ms')}",
    "availability": f"Availability at least {nines(S.availability_limit)}", "privacy": f"Privacy: ε at most {fmt(S.epsilon_limit, 'num')}",
    "fairness": f"Equal error rates within {fmt(S.fairness_tolerance, 'pp')}",
    "carbon": f"At most {fmt(S.carbon_limit, 'num')} g CO₂e/kWh, hour by hour",
    "budget": f"At most {fmt(S.budget_usd, 'usd')} a year"}

# ---- context --------------------------------------------------------------------------

CONTEXT = Choice("context", "What the radar counts", (
    Option("predictions", "Your predictions: what you expected before the instruments"),
    Option("all", "Predictions and reflections"),
), default="predictions", help="Each axis is the share of your locked answers in that domain that were right.")

# ---- Act I · What your ledger says ----------------------------------------------------------

A1_VOLUMES = Choice("a1_volumes", "Labs on the radar", (
    Option("both", "Both volumes"), Option("2", "Volume II"), Option("1", "Volume I"),
), default="both")


def act1_facts() -> dict[str, str]:
    d = DRAFT
    return {"memory": fmt(d.memory, "GB"), "days": fmt(d.days * SECONDS_PER_DAY, "days"),
            "goodput": fmt(d.goodput, "pct"), "ttft": fmt(d.ttft, "ms"), "prefill": fmt(d.prefill_s, "ms"),
            "ttft_moe": fmt(Design(moe=True).ttft, "ms"), "avail": fmt(d.availability, "pct1"),
            "eps": fmt(d.epsilon, "num"), "carbon": fmt(d.carbon, "num"), "cost": fmt(d.cost, "usd"),
            "passed": str(sum(d.checks().values())), "ratio": fmt(S.params / S.moe_active, "x"),
            "params": size(S.params), "prompt": fmt(S.prompt_tokens, "int"), "replica": fmt(S.replica_gpus, "int"),
            "load": fmt(d.load, "pct")}


ACT1_PREDICTION = Pick(
    id="a1_predict", act=1,
    prompt=f"The board's draft: a dense {fmt(S.params, 'params')}-parameter model retrained every month on "
           f"{fmt(DRAFT.gpus, 'int')} H100s (TP {SHARDINGS[DRAFT.sharding][0]} × PP {SHARDINGS[DRAFT.sharding][1]}), "
           f"served from one region at {fmt(DRAFT.load, 'pct')} load with {fmt(DRAFT.cloud_fraction, 'pct')} of "
           f"requests in the cloud, DP noise z = {fmt(DRAFT.noise, 'num')}, equal precision across groups, "
           f"{fmt(DRAFT.cfe, 'pct')} clean energy. Of the {CHECKS} checks on the right, how many does it pass?",
    quantity=f"the number of the board's {CHECKS} checks the draft passes",
    options=(
        Claim("A", f"None or one: a {size(S.params)} model breaks almost everything.",
              "Training is the part that works: {memory} per GPU fits, retraining takes {days} at {goodput} "
              "goodput. Serving, reliability, policy and money are where it fails."),
        Claim("B", "Two or three: training works, serving and policy do not.",
              "Memory ({memory} per GPU), retraining ({days}) and goodput ({goodput}) pass; the P99 TTFT is "
              "{ttft}, availability {avail}, ε = {eps}, carbon {carbon} g/kWh and the bill {cost} a year fail."),
        Claim("C", "Four or five: the hard parts are only latency and cost.",
              "Latency and cost fail, but so do availability ({avail} from one region), privacy (ε = {eps}), "
              "equal error rates and carbon ({carbon} g/kWh)."),
        Claim("D", "Six or more: a well-funded team can meet nearly all of it.",
              "Only {passed} pass: money cannot buy a shorter prefill ({prefill} for a dense {params} prompt), and "
              "one region cannot be more available than itself."),
    ),
    decide=act1_truth,
)

ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt=f"The draft's P99 time to first token is {fmt(DRAFT.ttft / S.ttft_limit_s, 'x')} the "
           f"{fmt(S.ttft_limit_s, 'ms')} limit. What sets the prefill time "
           "that the queue multiplies?",
    options=(
        Claim("A", "The parameters each token activates: the prompt costs 2 FLOP per active parameter per token, "
                   "on the replica's GPUs.",
              "A dense {params} model prefills a {prompt}-token prompt in {prefill} on {replica} GPUs; the queue at "
              "{load} load multiplies it to {ttft}. A mixture of experts with {ratio} fewer active parameters gets {ttft_moe}."),
        Claim("B", "HBM bandwidth: every token reads all the weights.",
              "That is decode, one token at a time. Prefill pushes the whole prompt through at once and is "
              "compute-bound: {prefill} for the dense model."),
        Claim("C", "The network round trip between the user and the region.",
              "A round trip is tens of milliseconds; the draft's P99 is {ttft}."),
        Claim("D", "The total parameter count, whatever the architecture.",
              "Memory scales with total parameters; compute per token scales with active ones. A mixture of "
              "experts keeps {params} parameters and gets {ttft_moe}."),
    ),
    answer_letter="A",
)

M = {m.name: m for m in (
    MetricSpec("a1_labs", "Earlier labs in your ledger", "1", "int"),
    MetricSpec("a1_answers", "Locked answers counted", "1", "int"),
    MetricSpec("a1_accuracy", "Right, over all counted", "1", "pct"),
    MetricSpec("a2_ttft", "P99 time to first token", "s", "ms"),
    MetricSpec("a2_cost", "Cost per year", "USD", "usd"),
    MetricSpec("a2_availability", "Availability", "1", "pct1"),
    MetricSpec("a2_memory", "Training memory per GPU", "B", "GB"),
    MetricSpec("a2_days", "Retraining time", "s", "days"),
    MetricSpec("a2_goodput", "Training goodput", "1", "pct"),
    MetricSpec("a2_epsilon", "Privacy ε", "1", "num"),
    MetricSpec("a2_fair_gap", "Error-rate gap between groups", "1", "pp"),
    MetricSpec("a2_carbon", "Carbon intensity, g CO₂e/kWh", "1", "num"),
    MetricSpec("a2_serving_gpus", "Serving GPUs provisioned", "1", "int"),
)}


def act1_instruments(s: State) -> list:
    rows = domains(dict(s.earlier), s["context"] == "all", s["a1_volumes"])
    right, answered = sum(r.right for r in rows), sum(r.answered for r in rows)
    labs = sum(r.labs for r in rows)
    parts = [metric_grid(
        M["a1_labs"].show(labs, note=f"of {len(READS)} that feed the radar"),
        M["a1_answers"].show(answered),
        M["a1_accuracy"].show(right / answered if answered else 0.0, None if answered else "warn",
                              "" if answered else "no locked answers yet"),
    )]
    if not answered:
        parts.append(callout("info", "Your ledger has no answers to count yet",
                             prose("The radar fills in as you lock predictions in the other labs. The board's "
                                   "draft below does not need your ledger.")))
    parts += [radar_chart(rows), draft_table()]
    return parts


def radar_chart(rows: list[Tally]):
    names = [r.name if r.accuracy is not None else f"{r.name}<br>(no data)" for r in rows]
    values = [r.accuracy for r in rows]
    trace = ch.radar("Your accuracy", names, values, "series1")
    trace["connectgaps"] = False
    figure = ch.radar_figure([trace], (0.0, 1.0), ch.ticks_at((0.25, 0.5, 0.75, 1.0), lambda v: fmt(v, "pct")),
                             legend=False)
    known = [r for r in rows if r.accuracy is not None]
    if known:
        low = min(known, key=lambda r: (r.accuracy, r.name))
        summary = (f"{len(known)} of {len(rows)} domains have answers in your ledger; your lowest is "
                   f"{low.name} at {fmt(low.accuracy, 'pct')}.")
    else:
        summary = "No domain has answers in your ledger yet: every axis reads no data."
    table = (("Domain", "Right", "Counted", "Labs"),
             [(r.name, str(r.right), str(r.answered), str(r.labs)) for r in rows])
    return chart("a1_radar", "Your prediction accuracy by domain", figure, summary, table=table)


def draft_table():
    d, checks = DRAFT, DRAFT.checks()
    shown = draft_values(d)
    rows = [(CHECK_TITLES[k], shown[k], "passes" if ok else "fails") for k, ok in checks.items()]
    figure = check_figure(d)
    summary = f"The board's draft passes {sum(checks.values())} of {len(checks)} checks."
    return chart("a1_draft", f"The board's draft against the {CHECKS} checks", figure, summary,
                 table=(("Check", "Draft", "Verdict"), rows))


def draft_values(d: Design) -> dict[str, str]:
    return {"memory": fmt(d.memory, "GB"), "days": fmt(d.days * SECONDS_PER_DAY, "days"),
            "goodput": fmt(d.goodput, "pct"), "ttft": fmt(d.ttft, "ms"), "availability": fmt(d.availability, "pct1"),
            "privacy": fmt(d.epsilon, "num"), "fairness": fmt(d.fairness_gap, "pp"),
            "carbon": f"{fmt(d.carbon, 'num')} g/kWh", "budget": fmt(d.cost, "usd")}


SHORT = {"memory": "Memory", "days": "Retrain", "goodput": "Goodput", "ttft": "P99 TTFT", "availability": "Uptime",
         "privacy": "Privacy", "fairness": "Fairness", "carbon": "Carbon", "budget": "Budget"}


def check_figure(d: Design) -> dict:
    used = usage(d)
    names = [SHORT[k] for k in used]
    values = [min(max(v, S.chart_floor), 1 / S.chart_floor) for v in used.values()]
    colours = ["good" if v <= 1 else "danger" for v in used.values()]
    limit, note = ch.hline(1.0, "ink", "limit", log=True)
    return ch.figure([ch.bars("Share of the limit", names, values, colours)], ch.axis("", "category"),
                     ch.axis("Share of the limit (log)", "log", **ch.decade_ticks(values + [1.0], lambda v: fmt(v, "x"))),
                     shapes=[limit], annotations=[note], legend=False, height=int(S.chart_height_px))


def act1_math(s: State):
    return math_peek("How the radar and the draft are computed", (
        Equation(r"\text{accuracy}_d = \frac{\#\,\text{right}}{\#\,\text{locked}}",
                 "Over the latest attempt of every lab mapped to domain *d*; a domain with no locked answers "
                 "reads no data, not a score."),
        Equation(r"t_{99} = t_{pf}\left(1 + \frac{\ln(100\rho)}{1-\rho}\right),\quad "
                 r"t_{pf} = \frac{2 P_{\text{act}} s_{\text{in}}}{n\,C\,u}",
                 "P99 time to first token: the prefill plus the M/M/1 waiting-time tail at load ρ (V2-10)."),
    ), rows=tuple((label, ", ".join(labs)) for label, labs in DOMAINS.items()), sources=(
        cite("kleinrock1975", "the M/M/1 waiting-time tail"),
        cite("kaplan2020", "2 FLOP per active parameter per token"),
    ))


ACT1 = Act(
    number=1, title="What Your Ledger Says", minutes="10–12 min",
    stakeholder_role="Chief Architect",
    stakeholder=lambda: (
        "Before the board meeting, two things. First, look at your own record: every prediction you locked in "
        "these labs is in your Design Ledger, and it shows where your intuition is good and where it is not. "
        "Second, the board has sent a draft. Tell me how much of it survives contact with the physics."),
    scenario=lambda: (
        f"The board wants one assistant for **{fmt(S.users / S.per_billion, 'num')} billion users**: a "
        f"{size(S.params)}-parameter model retrained monthly on {size(S.tokens_per_month)} tokens, a P99 time to "
        f"first token under {fmt(S.ttft_limit_s, 'ms')}, {nines(S.availability_limit)} availability, a privacy "
        "guarantee, equal error rates across groups, clean power hour by hour and at most "
        f"**${fmt(S.budget_usd / S.per_billion, 'num')} B a year**.",
        f"Each of the {CHECKS} checks is the corrected model of an earlier lab: training memory and time (V2-05), "
        "goodput (V2-07), time to first token (V2-10), regional redundancy, the DP accountant (V2-11), the "
        "fairness identity (V2-16) and clean-energy matching (V2-15).",
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
A2_GPUS = Choice("a2_gpus", "Training GPUs", tuple(Option(str(n), f"{n:,}") for n in (4096, 8192, 16384, 32768)),
                 default=str(DRAFT.gpus), widget="select")
A2_SHARDING = Choice("a2_sharding", "Training parallelism", tuple(
    Option(key, f"TP {tp} × PP {pp}") for key, (tp, pp) in SHARDINGS.items()
), default=DRAFT.sharding, widget="select", help="Data parallelism takes the rest of the GPUs, with ZeRO-1 Adam state.")
A2_CLOUD = Slider("a2_cloud", "Requests answered in the cloud", unit="1", min=0.05, max=1.0, step=0.05,
                  default=DRAFT.cloud_fraction, fmt="pct", help="The rest run on the user's device with a distilled model.")
A2_LOAD = Slider("a2_load", "Prefill queue load per replica, ρ", unit="1", min=0.1, max=0.9, step=0.05,
                 default=DRAFT.load, fmt="pct", help="Lower load: shorter queues, more GPUs (provisioned = busy ÷ ρ).")
A2_REGIONS = Choice("a2_regions", "Regions", tuple(Option(key, region_label(key)) for key in REGIONS),
                    default=DRAFT.regions, widget="select",
                    help=f"Each region is up {fmt(S.region_availability, 'pct1')} of the time [assumed].")
A2_NOISE = Slider("a2_noise", "DP-SGD noise multiplier, z", unit="1", min=0.5, max=3.0, step=0.01, default=DRAFT.noise,
                  fmt="num", help="Noise standard deviation ÷ clipping norm, as in V2-11.")
A2_FAIR = Choice("a2_fair", "Fairness rule", (
    Option("single", "One threshold: equal error rates (equalized odds)"),
    Option("ppv", "Equal precision (PPV) in each group"),
), default=DRAFT.fairness, help=f"Base rates differ ({fmt(S.base_a, 'pct')} and {fmt(S.base_b, 'pct')}), so both cannot "
                          "hold (V2-16).")
A2_CFE = Slider("a2_cfe", "Clean supply matched hour by hour", unit="1", min=0.0, max=1.0, step=0.05, default=DRAFT.cfe,
                fmt="pct")

A2_CONTROLS = (A2_ARCH, A2_GPUS, A2_SHARDING, A2_CLOUD, A2_LOAD, A2_REGIONS, A2_NOISE, A2_FAIR, A2_CFE)
REGION_LABELS = {o.value: o.label for o in A2_REGIONS.options}


def design(s: State) -> Design:
    return Design(s["a2_arch"] == "moe", int(s["a2_gpus"]), s["a2_sharding"], s["a2_cloud"], s["a2_load"],
                  s["a2_regions"], s["a2_noise"], s["a2_fair"], s["a2_cfe"])


def act2_facts() -> dict[str, str]:
    a, b, c, d = (DESIGNS[k] for k in "ABCD")
    return {"ttft_a": fmt(a.ttft, "ms"), "cost_a": fmt(a.cost, "usd"), "avail_b": fmt(b.availability, "pct1"),
            "avail_c": nines(c.availability), "cost_c": fmt(c.cost, "usd"), "ttft_c": fmt(c.ttft, "ms"),
            "eps_c": fmt(c.epsilon, "num"), "eps_d": fmt(d.epsilon, "num"), "gap_d": fmt(d.fairness_gap, "pp"),
            "ppv_gap": fmt(c.ppv_gap, "pp"), "carbon_c": fmt(c.carbon, "num"), "days_dense": fmt(a.days * SECONDS_PER_DAY, "days"),
            "days_moe": fmt(c.days * SECONDS_PER_DAY, "days"), "gpus_c": fmt(c.serving_gpus, "int"),
            "cost_cloud": fmt(Design(moe=True, regions="r3m2", cloud_fraction=1.0).cost, "usd"),
            "cfe_min": fmt((S.grid_g_per_kwh - S.carbon_limit) / (S.grid_g_per_kwh - S.clean_g_per_kwh), "pct"),
            "avail_limit": nines(S.availability_limit), "eps_limit": fmt(S.epsilon_limit, "num"),
            "z_d": fmt(d.noise, "num"), "params": size(S.params), "checks": CHECKS,
            "regions_a": region_count(a.regions)}


ACT2_PREDICTION = Pick(
    id="a2_pick", act=2,
    prompt=f"Every design below retrains on {fmt(DESIGNS['C'].gpus, 'int')} GPUs (TP {SHARDINGS[DESIGNS['C'].sharding][0]} "
           f"× PP {SHARDINGS[DESIGNS['C'].sharding][1]}), runs the prefill queues at {fmt(DESIGNS['C'].load, 'pct')} "
           f"load, answers {fmt(DESIGNS['C'].cloud_fraction, 'pct')} of requests in the cloud and matches "
           f"{fmt(DESIGNS['C'].cfe, 'pct')} of every hour with clean supply. Which one "
           f"passes all {CHECKS} checks?",
    quantity="the design that passes every check",
    options=(
        Claim("A", f"Dense {size(DESIGNS['A'].active)}, {regions(DESIGNS['A'].regions)}, "
                   f"z = {fmt(DESIGNS['A'].noise, 'num')}, equal error rates.",
              "The dense prefill puts the P99 at {ttft_a}, and {regions_a} of dense replicas cost {cost_a} a "
              "year: both fail. Lower load would cut the queue and raise the bill further."),
        Claim("B", f"Mixture of experts ({size(DESIGNS['B'].active)} active), {region_count(DESIGNS['B'].regions)}, "
                   f"z = {fmt(DESIGNS['B'].noise, 'num')}, equal error rates.",
              "Latency, cost and policy pass, but one region is up {avail_b} of the time, short of {avail_limit}."),
        Claim("C", f"Mixture of experts ({size(DESIGNS['C'].active)} active), {regions(DESIGNS['C'].regions)}, "
                   f"z = {fmt(DESIGNS['C'].noise, 'num')}, equal error rates.",
              "All {checks} pass: P99 {ttft_c}, availability {avail_c}, ε = {eps_c}, {carbon_c} g/kWh and {cost_c} "
              "a year. Equal error rates leave a precision gap of {ppv_gap}, which the policy accepts."),
        Claim("D", f"Mixture of experts ({size(DESIGNS['D'].active)} active), {region_count(DESIGNS['D'].regions)}, "
                   f"z = {fmt(DESIGNS['D'].noise, 'num')} to keep more accuracy, equal precision across groups.",
              "z = {z_d} gives ε = {eps_d}, over the policy's {eps_limit}, and equal precision opens an error-rate "
              "gap of {gap_d} with these base rates."),
    ),
    decide=act2_answer,
)

ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt="Which single decision did feasibility hinge on most?",
    options=(
        Claim("A", "More GPUs: with enough hardware every check passes.",
              "More GPUs help training time, but latency is set per replica by the prefill ({ttft_a} dense), "
              "and the dense fleet already costs {cost_a}."),
        Claim("B", "The mixture of experts: a tenth of the FLOPs per token moves training time, latency and the "
                   "serving bill at once.",
              "Retraining drops from {days_dense} to {days_moe}, the P99 to {ttft_c} and the bill to {cost_c}. "
              "Edge offload helps but is not what makes it feasible: all in the cloud costs {cost_cloud}."),
        Claim("C", f"{region_count(DESIGNS['C'].regions).capitalize()}: availability is the hardest constraint.",
              "Regions are needed ({avail_b} from one), but they multiply the fleet; without a sparse model the "
              "bill is {cost_a}."),
        Claim("D", "The clean-energy share: carbon decides everything.",
              "Carbon needs at least {cfe_min} matched supply, but it is cheap; it does not move latency or cost."),
    ),
    answer_letter="B",
)

ACT2_CHECKS = Checks(CHECK_TITLES, act=2)


def act2_instruments(s: State) -> list:
    d = design(s)
    ok = d.checks()
    tone = ACT2_CHECKS.tones(ok)
    parts = [metric_grid(
        M["a2_ttft"].show(d.ttft, tone["ttft"], f"limit {fmt(S.ttft_limit_s, 'ms')}"),
        M["a2_cost"].show(d.cost, tone["budget"], f"limit {fmt(S.budget_usd, 'usd')}"),
        M["a2_availability"].show(d.availability, tone["availability"], REGION_LABELS[d.regions]),
        M["a2_memory"].show(d.memory, tone["memory"], f"DP {d.dp}"),
        M["a2_days"].show(d.days * SECONDS_PER_DAY, tone["days"],
                          f"limit {fmt(S.days_limit * SECONDS_PER_DAY, 'days')}"),
        M["a2_goodput"].show(d.goodput, tone["goodput"], f"limit {fmt(S.goodput_limit, 'pct')}"),
        M["a2_epsilon"].show(d.epsilon, tone["privacy"], f"policy ≤ {fmt(S.epsilon_limit, 'num')}"),
        M["a2_fair_gap"].show(d.fairness_gap, tone["fairness"], f"precision gap {fmt(d.ppv_gap, 'pp')}"),
        M["a2_carbon"].show(d.carbon, tone["carbon"], f"limit {fmt(S.carbon_limit, 'num')}"),
        M["a2_serving_gpus"].show(d.serving_gpus, note=f"{fmt(d.busy_gpus, 'int')} busy at full load"),
    )]
    parts.append(ACT2_CHECKS.verdict(ok, "Feasible: every check passes", "This design meets the board's requirements.",
                                "Each failing check names the lever that moves it."))
    parts += act2_failures(d, ok)
    parts.append(chart("a2_checks", "Each check as a share of its limit", check_figure(d),
                       f"{sum(ok.values())} of {len(ok)} checks are at or under their limit.",
                       table=(("Check", "Value", "Verdict"),
                              [(CHECK_TITLES[k], v, "passes" if ok[k] else "fails") for k, v in draft_values(d).items()])))
    return parts


def act2_failures(d: Design, ok: dict[str, bool]) -> list:
    levers = {
        "memory": f"{fmt(d.memory, 'GB')} per GPU: shard the model over more pipeline stages.",
        "days": f"{fmt(d.days * SECONDS_PER_DAY, 'days')} per retrain: more GPUs or fewer active parameters.",
        "goodput": f"{fmt(d.goodput, 'pct')}: a larger job fails more often; fewer GPUs or a faster restart.",
        "ttft": f"{fmt(d.ttft, 'ms')} at P99: fewer active parameters per token, or a lower queue load.",
        "availability": f"{fmt(d.availability, 'pct1')}: add regions that can carry the peak between them.",
        "privacy": f"ε = {fmt(d.epsilon, 'num')}: raise the noise multiplier.",
        "fairness": f"An error-rate gap of {fmt(d.fairness_gap, 'pp')}: use one threshold for both groups.",
        "carbon": f"{fmt(d.carbon, 'num')} g/kWh: match more of every hour with clean supply.",
        "budget": f"{fmt(d.cost, 'usd')} a year: fewer FLOPs per request, fewer idle replicas, or more on device.",
    }
    return ACT2_CHECKS.failing(ok, levers)


def act2_math(s: State):
    d = design(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"M = \frac{4P}{TP\cdot PP} + \frac{12P}{TP\cdot PP\cdot DP} + A",
                 "BF16 weights and gradients, ZeRO-1 Adam state, activations *A* (V2-05, V1-08)."),
        Equation(r"T = \frac{6\,P_{\text{act}}\,D}{N\,C\,\text{MFU}\cdot G}",
                 "Retraining time with goodput *G* from the checkpoint model (V2-07)."),
        Equation(r"N_{\text{serve}} = \frac{Q\cdot 2P_{\text{act}}(s_{\text{in}}+s_{\text{out}})}{C\,u}\cdot\frac{1}{\rho}\cdot\frac{R}{m}",
                 "Busy GPUs, provisioned for the queue load ρ and for *m* of *R* regions carrying the peak."),
        Equation(r"A = \sum_{k\ge m}\binom{R}{k}a^k(1-a)^{R-k}",
                 "At least *m* of *R* independent regions up."),
        Equation(r"I = (1-f)\,I_{\text{grid}} + f\,I_{\text{clean}}", "Hour-matched clean supply *f* (V2-15)."),
    ), rows=(
        ("Peak requests per second, Q", fmt(sd.peak_requests_per_s(S.users, S.requests_per_user_day, S.peak_factor,
                                                                 d.cloud_fraction), "num")),
        ("Prefill of one prompt, t_pf", fmt(d.prefill_s, "ms")),
        ("Cluster MTBF", fmt(GPU_MTBF_S / d.gpus, "s")),
        ("Grid / clean intensity [assumed]", f"{fmt(S.grid_g_per_kwh, 'num')} / {fmt(S.clean_g_per_kwh, 'num')} g/kWh"),
        ("DP-SGD q, steps, δ [assumed]", f"{S.dp_sampling_rate:g}, {fmt(S.dp_steps, 'int')}, {S.dp_delta:g}"),
        ("GPU price [assumed]", f"${S.usd_per_gpu_hour:.2f} per H100-hour"),
    ), sources=(
        cite("zero2020", "16 bytes per parameter, optimizer state sharded"),
        cite("kaplan2020", "6 FLOP per parameter per training token, 2 per inference token"),
        cite("young1974", "the checkpoint interval"),
        cite("llama3_2024", "the per-GPU failure rate of a 16,384-GPU run"),
        cite("mironov2019", "the subsampled Gaussian RDP accountant"),
        cite("chouldechova2017", "the identity that forces a gap with unequal base rates"),
    ))


ACT2 = Act(
    number=2, title="One Design, Every Constraint", minutes="20–25 min",
    stakeholder_role="Board of Directors",
    stakeholder=lambda: (
        f"We have heard what fails. Now give us a design that passes every one of the {CHECKS} checks, or tell us "
        "which requirement to drop. We will not accept a plan that fails a check we set."),
    scenario=lambda: (
        f"{fmt(len(A2_CONTROLS), 'words').capitalize()} controls, {CHECKS} checks. A mixture of experts keeps "
        f"{size(S.params)} parameters but activates "
        f"{size(S.moe_active)} per token. "
        "Requests not answered in the cloud run on the user's device. Regions are independent; capacity is "
        "provisioned so that the regions that must stay up can carry the peak.",
        "Privacy and fairness limits are the company's policy; no law sets an ε or a fairness metric.",
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


def results(s: State) -> dict[str, float | str | bool | None]:
    d = design(s)
    ok = d.checks()
    values = {"memory_gb": d.memory / S.bytes_per_gb, "retrain_days": d.days, "goodput": d.goodput, "ttft_p99_ms": d.ttft * S.ms_per_s,
              "availability": d.availability, "epsilon": d.epsilon, "fairness_gap": d.fairness_gap,
              "carbon_g_per_kwh": d.carbon, "annual_cost_b": d.cost / S.per_billion}
    record = {**values, **{f"{k}_ok": v for k, v in ok.items()}, "system_valid": d.feasible,
              "serving_gpus": d.serving_gpus}
    for row in domains(dict(s.earlier), s["context"] == "all", s["a1_volumes"]):
        record[f"accuracy_{row.name.lower()}"] = row.accuracy
    return record


def lab_takeaways() -> list[str]:
    f, g = act1_facts(), act2_facts()
    return [
        f"The board's draft passes {f['passed']} of {CHECKS} checks: training works, but a dense {f['params']} model "
        f"cannot serve a P99 under {fmt(S.ttft_limit_s, 'ms')} ({f['ttft']}) or fit the budget ({f['cost']}).",
        f"Compute per token follows active parameters: a mixture of experts keeps {f['params']} parameters, "
        f"retrains in "
        f"{g['days_moe']} and answers at {g['ttft_c']} P99.",
        f"Availability is bought with regions, and regions multiply the fleet: {regions(DESIGNS['C'].regions)} "
        f"give {g['avail_c']} for {g['gpus_c']} serving GPUs.",
        "Privacy, fairness and carbon limits are policies you set and then meet with physics: noise, one "
        f"threshold (with a precision gap of {g['ppv_gap']}), hour-matched clean supply.",
        "Your ledger's radar shows where your intuition was weakest: that is where a design review should "
        "start measuring before trusting.",
    ]


LAB = Lab(
    id="v2_17", volume=2, number=17, title="The Constraints Never Lie",
    invariant="A design is **feasible only when every constraint holds at once**; one decision moves many "
              "checks, and no amount of money moves a check that physics sets.",
    minutes="30–40 min", chapter="Conclusion", url="vol2/17-constraints-never-lie/",
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
        "[**V2-10 The KV-Cache Memory Wall**](../10-kv-cache-wall/): the prefill and queue model behind the P99 check.",
        "[**V2-07 The Checkpoint Reckoning**](../07-checkpoint-reckoning/): the goodput check.",
        "[**V2-16 The Fairness Impossibility**](../16-fairness-impossibility/): why equal error rates leave a precision gap.",
    ),
    reads=READS,
    defaults_from={"a2_noise": ("v2_11", "a2_z"), "a2_cfe": ("v2_15", "a2_procure"), "a2_fair": ("v2_16", "a2_eu_rule")},
)
