"""Lab V1-16 · The Architect's Audit (the Volume I capstone).

Core invariant: a decoded token reads every weight once, so one stream's speed is set by bytes over
bandwidth on every tier; batching, precision and the choice of job per tier are what an architect
can change, and the smallest tier changes the job, not the precision.

Act I (the audit): the draft's SLO, "a 256-token answer in under 100 ms" (2,560 tokens/s for one
reader), against the tokens per second one H100 writes at batch 1 in BF16 (238: 4.2 ms a token), beside
the student's tier and their Design Ledger: accuracy per invariant family from every earlier Volume I
lab ("no data", never a score, without answers), and the weakest family among those with at least two
answers (none: ungraded). Act II (the fleet): a generic 7B (Llama-3-8B-shaped KV, 131,072 B per
token) on four tiers against ten checks; the pick is the tier of cloud, edge and phone that needs
weights below 4 bits (the phone: INT4 holds 4.18 GB of a 4 GB share and takes 72.1 ms a token), and
the reflection why no precision brings the 7B onto the MCU (8× fewer bytes against an 834× gap).

Choices, and why: the spec's Act I key ("the family with the lowest accuracy") comes from the
ledger, not from physics, and an empty ledger has none; so the prediction is the draft's pace (a key
a test proves) and the weakest family is an instrument, recorded with ``graded``. The spec's cloud
TTFT (the prefill alone, 14.49 ms) cannot fail and its cost cannot reach the limit; here the fleet is
provisioned at a load ρ (GPUs = busy ÷ ρ) and the P99 TTFT adds the M/M/1 waiting tail (as V2-10 and
V2-17). Questions that test: the spec's Act II pick (which tier cannot run a 7B, with the MCU's 2 MiB in the
prompt) needed no physics; the pick now leaves the MCU aside. Numbers a teacher would sign: a ternary weight is stored
in 2 bits (bitnet.cpp I2_S), and BitNet b1.58 (Ma et al. 2024) reports quality only up to 3.9B, so the
ternary 7B's quality is labelled an assumption (review: TII's Falcon3-7B-1.58bit, Dec 2024, is a
ternary 7B trained on from a BF16 parent; at 2 bits the phone passes: 2.32 GB, 35.8 ms); ternary is not
"the floor" (binary weights: XNOR-Net 2016, BitNet 2023); a tier that cannot store the weights is
named, not timed; the spec's families put V1-03 under Drift and V1-07 under Parallelism, which
neither teaches (V1-03 is now Workflow, V1-07 Memory). ST's 2 MB of flash is 2 MiB (the spec's 693×
divides 1.39 GB by 2 × 10⁶ B; at 2 bits the 7B is 1.75 GB, 834×). Ledger: tpot_s, ttft_s, cost_per_1k
(the spec's tpot_ms, ttft_ms, cost_per_req), labelled through ``record_metrics``.
"""

from __future__ import annotations

from pylabs.framework import (Act, Choice, Claim, Equation, Lab, MetricSpec, Option, Pick,
                              Prediction, Range, Reflection, Slider, State, callout, chart, fmt,
                              math_peek, metric_grid, prose)
from pylabs.framework import charts as ch
from pylabs.framework.checks import Checks
from pylabs.framework.earlier import Tally
from pylabs.labs.vol1.audit import (CHECK_TITLES, FAMILIES, HBM_USABLE, KV, MEAN_CONTEXT, PRECISIONS, READS, SHORT,
                                    CLOUD_PRECISIONS, FOUR_BITS_OR_MORE, Cloud, Fleet, OnDevice, S, Tiny, answer_step_s,
                                    cloud_memory_lever, families, fits, mib, room, tiers_without_a_fit, weakest,
                                    weights)
from pylabs.labs.vol1.contexts import CONTEXTS, LABELS, TRACK, deployment, device
from pylabs.physics import constants as C
from pylabs.physics import tiers
from pylabs.physics import units as U
from pylabs.physics.references import cite

OUT = fmt(S.output_tokens, "int")       # the answer's length, as the page writes it
RATE = fmt(S.rate_per_s, "int")
K = fmt(U.THOUSAND, "int")

# ---- context ------------------------------------------------------------------------------

CONTEXT = deployment(CONTEXTS, default="cloud",
                     help="Your tier: Act I times one reader's answer on its device beside the H100 the draft "
                          "was written for; Act II audits all four tiers.")

# ---- Act I · The audit ------------------------------------------------------------------------

A1_PRECISION = Choice("a1_precision", "Weight precision", tuple(
    Option(k, PRECISIONS[k][0]) for k in CLOUD_PRECISIONS), default="bf16", widget="select")
A1_GPUS = Choice("a1_gpus", "H100s sharing one stream (tensor parallel)", tuple(
    Option(str(n), str(n)) for n in (1, 2, 4, 8)), default="1",
    help="The stream's layers are split evenly over the GPUs; communication between them is left out "
         "(a best case).")
A1_COUNT = Choice("a1_count", "What the radar counts", (
    Option("pred", "Your predictions"), Option("all", "Predictions and reflections")), default="pred",
    help="Counts the answers locked in your ledger; with no earlier answers it changes nothing.")


NEED = S.output_tokens / S.draft_answer_s        # tokens per second the draft's SLO asks of one stream


def act1_truth() -> float:
    """Tokens per second one H100 writes for one reader, BF16, batch 1 (the prompt names the device)."""
    return 1 / answer_step_s("cloud", "bf16")


def act1_facts() -> dict[str, str]:
    best = S.output_tokens * answer_step_s("cloud", "int4", 8)
    compute = C.H100_PEAK_BF16_DENSE * S.mfu / (2 * S.params)
    return {"answer": fmt(S.output_tokens / act1_truth(), "s"), "tpot": fmt(answer_step_s("cloud", "bf16"), "ms"),
            "rate": fmt(act1_truth(), "tokens/s"), "need": fmt(NEED, "tokens/s"), "compute": fmt(compute, "tokens/s"),
            "best": fmt(best, "s"), "tpot_b64": fmt(Cloud("bf16", 64).step_s, "ms"),
            "weights": fmt(weights("bf16"), "GB"), "bw": fmt(C.H100_HBM_BW, "B/s"),
            "int8_4": fmt(1 / answer_step_s("cloud", "int8", 4), "tokens/s"),
            "draft": fmt(S.draft_answer_s, "s"), "out": OUT, "peak": fmt(C.H100_PEAK_BF16_DENSE, "FLOP/s"),
            "mfu": fmt(S.mfu, "pct"), "gap": fmt(NEED / act1_truth(), "x")}


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"The board's draft SLO reads: every {OUT}-token answer in under {fmt(S.draft_answer_s, 's')}, so "
           f"{fmt(NEED, 'tokens/s')} for each reader. On one H100, in BF16, for a single reader (batch 1), how many "
           "tokens per second does the 7B write?",
    quantity="the tokens per second one H100 writes for one reader at batch 1, in BF16",
    unit_fmt="tokens/s",
    options=(
        Range("A", "{range}: a small fraction of the draft's pace", None, 1000.0, 300.0,
              "Each token reads all {weights} of weights from HBM at {bw}: {tpot} a token, {rate} for one "
              "reader, and the {out}-token answer takes {answer}."),
        Range("B", "{range}: near the draft's pace, a little short", 1000.0, NEED, 1800.0,
              "That is what INT8 split over four H100s reaches ({int8_4}); BF16 on one GPU reads {weights} for "
              "every token at {bw}: {rate}."),
        Range("C", "{range}: enough for the draft, with room to spare", NEED, 20000.0, 5000.0,
              "The draft needs {need}; one GPU in BF16 gives {rate}, because each token waits for {weights} "
              "to stream at {bw}."),
        Range("D", "{range}: as fast as the tensor cores can go", 20000.0, None, 35000.0,
              "That is the compute bound ({compute}: 2 FLOP a parameter at {mfu} of {peak}); but each token "
              "must first read {weights} at {bw}, {tpot} a token."),
    ),
    truth=act1_truth,
    shown_by="a1_rate",
)

ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt=f"The draft's SLO is {fmt(S.draft_answer_s, 's')} for the whole {OUT}-token answer. What should the SLO "
           "constrain instead?",
    options=(
        Claim("A", "Throughput: the tokens each GPU writes a second, raised by batching.",
              "Batching shares one weight read among many streams but shortens none of them: a step at batch 64 "
              "takes {tpot_b64}, not less than {tpot}, and each reader still waits {answer} for the answer."),
        Claim("B", "The wait for the first token, then the time between later ones.",
              "A reader needs the first word soon and then a steady pace: the prefill sets the first, the "
              "bytes per token the second ({tpot} in BF16). Neither depends on how long the answer is."),
        Claim("C", "The whole answer's time still, met by giving each reader faster GPUs.",
              "{out} tokens in {draft} is {need}, {gap} what one H100 writes: a GPU would need {gap} its {bw}. INT4 "
              "over eight H100s, communication left out, gets {best} only by giving one reader eight GPUs, and "
              "an answer twice as long still takes twice as long."),
        Claim("D", "The mean answer time across all readers, rather than the P99.",
              "Every answer of {out} tokens is {out} steps of {tpot}: the mean is as slow as the P99 here "
              "({answer})."),
    ),
    answer_letter="B",
)

M = {m.name: m for m in (
    MetricSpec("a1_rate", "H100 tokens per second, one reader", "tokens/s", "tokens/s"),
    MetricSpec("a1_answer", f"H100 {OUT}-token answer, one reader", "s", "s"),
    MetricSpec("a1_devices", f"H100s busy for {RATE} requests/s at batch 1", "1", "int"),
    MetricSpec("a1_tier", "Your tier: one reader's answer", "s", "s", infinite="does not fit"),
    MetricSpec("a1_labs", "Earlier Volume I labs in your ledger", "1", "int"),
    MetricSpec("a1_answers", "Locked answers counted", "1", "int"),
    MetricSpec("a1_accuracy", "Right, over all counted", "1", "pct", infinite="no answers yet"),
    MetricSpec("a2_failing", "Checks failing", "1", "int"),
    MetricSpec("a2_cloud_ttft", "Cloud P99 time to first token", "s", "ms"),
    MetricSpec("a2_cloud_tpot", "Cloud time per output token", "s", "ms"),
    MetricSpec("a2_cost", f"Cost per {K} requests", "USD", "usd"),
    MetricSpec("a2_cloud_gpus", "Cloud GPUs provisioned", "1", "int"),
    MetricSpec("a2_cloud_memory", "Cloud memory per GPU", "B", "GB"),
    MetricSpec("a2_edge_tpot", "Edge time per token", "s", "ms"),
    MetricSpec("a2_edge_memory", "Edge memory", "B", "GB"),
    MetricSpec("a2_mobile_tpot", "Phone time per token", "s", "ms"),
    MetricSpec("a2_mobile_memory", "Phone memory", "B", "GB"),
    MetricSpec("a2_tiny_flash", "MCU flash needed", "B", "B"),
    MetricSpec("a2_tiny_ram", "MCU SRAM needed", "B", "B"),
)}


def act1_instruments(s: State) -> list:
    ctx, precision, gpus = s["context"], s["a1_precision"], int(s["a1_gpus"])
    step = answer_step_s("cloud", precision, gpus)
    answer = S.output_tokens * step
    mine = S.output_tokens * answer_step_s(ctx, precision, gpus) if fits(ctx, precision) else float("inf")
    rows = families(dict(s.earlier), s["a1_count"] == "all")
    right, answered = sum(r.right for r in rows), sum(r.answered for r in rows)
    tier_note = (f"{device(ctx).name}, batch 1" + ("; weights alone" * (ctx in ("edge", "mobile"))) if fits(ctx, precision) else
                 f"{fmt(weights(precision), 'GB')} of weights; {device(ctx).name} gives the model "
                 + (mib(room(ctx)) if ctx == "tiny" else fmt(room(ctx), "GB")))
    parts = [metric_grid(
        M["a1_rate"].show(1 / step, "good" if answer <= S.draft_answer_s else "danger",
                          f"the draft needs {fmt(NEED, 'tokens/s')}"),
        M["a1_answer"].show(answer, "good" if answer <= S.draft_answer_s else "danger",
                            f"the draft asks {fmt(S.draft_answer_s, 's')}"),
        M["a1_devices"].show(S.rate_per_s * answer * gpus, note="each stream holds its GPUs"),
        M["a1_tier"].show(mine, "danger" if mine > S.draft_answer_s else "good", tier_note),
        M["a1_labs"].show(sum(r.labs for r in rows), note=f"of {len(READS)} that feed the radar"),
        M["a1_answers"].show(answered),
        M["a1_accuracy"].show(right / answered if answered else float("nan"), None if answered else "warn",
                              "" if answered else "lock answers in other Volume I labs"),
    ), weakest_callout(rows), answer_chart(ctx, precision, gpus), radar_chart(rows)]
    return parts


def weakest_callout(rows: list[Tally]):
    low = weakest(rows)
    if low is None:
        return callout("info", "Ungraded: no family has two answers yet",
                       prose(f"A family needs at least {S.min_answers} locked answers before the audit names it. "
                             "Lock predictions in the other Volume I labs and come back; the radar fills in."))
    labs = f"{low.labs} lab" if low.labs == 1 else f"{low.labs} labs"
    return callout("warn", f"Your weakest family: {low.name}",
                   prose(f"{low.right} of {low.answered} answers right ({fmt(low.accuracy, 'pct')}) across "
                         f"{labs}. Review where your intuition and the physics parted."))


def answer_chart(ctx: str, precision: str, gpus: int):
    """One reader's answer on each tier whose memory holds the weights; a tier that cannot store them
    is named, not timed."""
    times = {k: S.output_tokens * answer_step_s(k, precision, gpus) for k in LABELS if fits(k, precision)}
    name = {k: LABELS[k].split(" (")[0] for k in LABELS}
    colours = ["accent" if k == ctx else "series1" for k in LABELS]
    values = list(times.values())
    shown = [times.get(k) for k in LABELS]                # no bar where the weights do not fit
    labels = [name[k] if k in times else f"{name[k]}<br>(does not fit)" for k in LABELS]
    limit, note = ch.hline(S.draft_answer_s, "danger", "draft SLO", log=True)
    figure = ch.figure([ch.bars(f"{OUT}-token answer", labels, shown, colours)],
                       ch.axis("", "category"),
                       ch.axis(f"Time for {OUT} tokens, s (log)", "log", **ch.decade_ticks(values + [S.draft_answer_s])),
                       shapes=[limit], annotations=[note], legend=False, height=int(S.chart_height_px))
    under = [name[k] for k in times if times[k] <= S.draft_answer_s]
    out = [name[k] for k in LABELS if k not in times]
    summary = (f"At {PRECISIONS[precision][0]}, batch 1"
               + (f", {gpus} H100s on the cloud stream" if gpus > 1 else "") + ": "
               + (f"only {', '.join(under)} meets the draft's {fmt(S.draft_answer_s, 's')}" if under else
                  f"no tier meets the draft's {fmt(S.draft_answer_s, 's')}")
               + (f"; the weights do not fit on {', '.join(out)}, so no time is shown there" if out else "")
               + ". Memory counts the weights alone here; Act II adds each device's KV cache and runtime.")
    table = (("Tier", f"{OUT} tokens", "Per token", "Weights alone fit"),
             [(LABELS[k], fmt(times[k], "s") if k in times else "does not fit",
               fmt(times[k] / S.output_tokens, "ms") if k in times else "does not fit", "yes" if k in times else "no")
              for k in LABELS])
    return chart("a1_answer", f"One reader's {OUT}-token answer on each tier", figure, summary, table=table)


RADAR_NAMES = {"Compression": "Compress"}  # a spoke's name must fit beside a 375 px radar


def radar_chart(rows: list[Tally]):
    short = [RADAR_NAMES.get(r.name, r.name) for r in rows]
    names = [n if r.accuracy is not None else f"{n}<br>(no data)" for n, r in zip(short, rows)]
    trace = ch.radar("Your accuracy", names, [r.accuracy for r in rows], "series1")
    trace["connectgaps"] = False
    figure = ch.radar_figure([trace], (0.0, 1.0), ch.ticks_at((0.5, 1.0), lambda v: fmt(v, "pct")),
                             legend=False)
    known = [r for r in rows if r.accuracy is not None]
    summary = (f"{len(known)} of {len(rows)} families have answers in your ledger."
               if known else "No family has answers in your ledger yet: every axis reads no data.")
    table = (("Family", "Right", "Counted", "Labs"), [(r.name, str(r.right), str(r.answered), str(r.labs)) for r in rows])
    return chart("a1_radar", "Your prediction accuracy by invariant family", figure, summary, table=table)


def act1_math(s: State):
    ctx = s["context"]
    d = device(ctx)
    return math_peek("How one stream decodes · Act I", (
        Equation(r"t_{\text{token}} = \max\!\left(\frac{W + KV\cdot s}{n\,BW},\ \frac{2P}{n\,C\,u}\right)",
                 "Each token reads the weights *W* and the KV cache of *s* tokens, and does 2 FLOP per parameter."),
        Equation(r"T = L_{\text{out}}\cdot t_{\text{token}}", "Tokens come one after another: the answer is one step per token."),
        Equation(r"\text{accuracy}_f = \frac{\#\,\text{right}}{\#\,\text{locked}}",
                 "Over the latest attempt of each lab in family *f*; no locked answers reads no data."),
    ), rows=(
        ("Device", d.name + (" (bandwidth assumed)" if "mem_bw" in d.assumed else "")),
        ("Memory bandwidth, BW", fmt(d.mem_bw, "B/s")),
        ("KV cache per token (8 KV heads × 128, 32 layers, BF16)", fmt(KV, "B")),
        ("Mean KV context while decoding, s", fmt(MEAN_CONTEXT, "tokens")),
        *((name, ", ".join(lab.upper().replace("_", "-") for lab in labs)) for name, labs in FAMILIES.items()),
    ), sources=(
        cite("williams2009", "the roofline: the slower of bytes and FLOPs sets the step"),
        cite("ainslie2023", "grouped-query attention: 8 KV heads"),
        cite("kaplan2020", "2 FLOP per parameter per token"),
    ))


ACT1 = Act(
    number=1, title="The Audit", minutes="12–15 min",
    stakeholder_role="Chief Architect",
    stakeholder=lambda: (
        "Before we sign off the fleet, an audit in two parts. First, the board's draft SLO: I want to know "
        "whether it can be met at all. Second, you: every prediction you locked in these labs is in your "
        "Design Ledger. Which invariant did you underestimate?"),
    scenario=lambda: (
        "The assistant is a 7B model (32 layers, 8 KV heads of 128, as Llama 3 8B). A request brings a "
        f"{fmt(S.prompt_tokens, 'int')}-token prompt and gets a {fmt(S.output_tokens, 'int')}-token answer; "
        f"the fleet must carry {fmt(S.rate_per_s, 'int')} requests per second at the peak.",
        "The draft SLO was written for the whole answer on the H100. The instruments time it there, and on your "
        "tier (set at the top); the chart shows all four tiers.",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_PRECISION, A1_GPUS, A1_COUNT),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="The draft's SLO and your ledger",
)

# ---- Act II · One fleet, four tiers ---------------------------------------------------------

A2_CLOUD = Choice("a2_cloud", "Cloud: weight precision", tuple(
    Option(k, PRECISIONS[k][0]) for k in ("bf16", "int8", "int4")), default="bf16", widget="select",
    help="Weights only: the arithmetic stays in BF16, and the KV cache stays BF16.")
A2_BATCH = Slider("a2_batch", "Cloud: sequences decoded together per GPU", unit="sequences", min=1, max=4096, step=1,
                  default=64, fmt="int", scale="log2")
A2_LOAD = Slider("a2_load", "Cloud: load per GPU, ρ", unit="1", min=0.1, max=0.95, step=0.05, default=0.7, fmt="pct",
                 help="GPUs provisioned = busy ÷ ρ. A lower load shortens the queue and costs GPUs.")
TERNARY = ("trained ternary, not rounded (rounding breaks a BF16 model); BitNet b1.58 reports quality to 3.9B: "
           "a 7B's quality here is [assumed]")
A2_EDGE = Choice("a2_edge", "Edge (Orin NX): weight precision", tuple(Option(k, v[0]) for k, v in PRECISIONS.items()),
                 default="int4", widget="select")
A2_MOBILE = Choice("a2_mobile", "Phone: weight precision", tuple(Option(k, v[0]) for k, v in PRECISIONS.items()),
                   default="int4", widget="select")
A2_TINY = Choice("a2_tiny", "MCU: its job", (
    Option("llm", "Run the 7B itself, ternary at 2 bits a weight"),
    Option("kws", "A keyword spotter (DS-CNN, INT8) that wakes the phone"),
), default="llm")


def fleet(s: State) -> Fleet:
    return Fleet(Cloud(s["a2_cloud"], int(s["a2_batch"]), s["a2_load"]), OnDevice("edge", s["a2_edge"]),
                 OnDevice("mobile", s["a2_mobile"]), Tiny(s["a2_tiny"]))


TIER_LETTERS = {"cloud": "A", "edge": "B", "mobile": "C"}
GOOD_CLOUD = Cloud("int4", S.good_batch, S.good_load)


def good_setting() -> str:
    g = GOOD_CLOUD
    return f"{PRECISIONS[g.precision][0]} at batch {g.batch} and load {fmt(g.load, 'pct')}"


def act2_answer() -> str:
    """The tier of cloud, edge and phone where no setting with weights of 4 bits or more passes its
    checks ("D": none); a test proves there is at most one."""
    stuck = [t for t in tiers_without_a_fit(FOUR_BITS_OR_MORE) if t != "tiny"]
    return TIER_LETTERS[stuck[0]] if stuck else "D"


def act2_facts() -> dict[str, str]:
    e, m, mt = OnDevice("edge", "int4"), OnDevice("mobile", "int4"), OnDevice("mobile", "ternary")
    g, llm = GOOD_CLOUD, Tiny("llm")
    return {"good_tpot": fmt(g.step_s, "ms"), "good_ttft": fmt(g.ttft_s, "ms"), "good_gpus": fmt(g.gpus, "int"),
            "good_cost": fmt(g.cost_usd * U.THOUSAND, "usd"), "edge_mem": fmt(e.memory_b, "GB"),
            "edge_budget": fmt(e.budget_b, "GB"), "edge_tpot": fmt(e.step_s, "ms"), "mob_mem": fmt(m.memory_b, "GB"),
            "mob_budget": fmt(m.budget_b, "GB"), "mob_tpot": fmt(m.step_s, "ms"), "mobt_mem": fmt(mt.memory_b, "GB"),
            "mobt_tpot": fmt(mt.step_s, "ms"), "tiny_gb": fmt(llm.flash_b, "GB"),
            "tiny_x": fmt(llm.flash_b / C.STM32H743_FLASH_BYTES, "x"),
            "shrink": fmt(C.BYTES_PER_BF16 * tiers.BITS_PER_BYTE / S.ternary_packed_bits, "x"),
            "qspi": f"{fmt(llm.flash_b / C.STM32H743_QSPI_BW, 'num')} s",
            "mob_share": fmt(S.phone_share, "pct"), "edge_share": fmt(S.edge_share, "pct"), "kws": fmt(Tiny("kws").flash_b, "B"),
            "kws_params": fmt(C.KWS_DSCNN_PARAMS, "params"), "qspi_bw": fmt(C.STM32H743_QSPI_BW, "B/s"),
            "flash": mib(C.STM32H743_FLASH_BYTES), "good_setting": good_setting(), "k": K}


ACT2_PREDICTION = Pick(
    id="a2_pick", act=2,
    prompt=f"Each tier has its checks: memory, {fmt(S.tpot_limit_s, 'ms')} per output token, and in the cloud a "
           f"{fmt(S.ttft_limit_s, 'ms')} P99 first token and {fmt(S.cost_limit_usd * U.THOUSAND, 'usd')} per {K} "
           f"requests. An app may use {fmt(S.phone_share, 'pct')} of the phone's {fmt(C.A17_PRO_MEM_BYTES, 'GB')} and "
           f"{fmt(S.edge_share, 'pct')} of the Orin's {fmt(C.ORIN_NX_MEM_BYTES, 'GB')} [assumed]. Leave the MCU aside: "
           "which tier, if any, cannot pass its checks with weights of 4 bits or more, at any setting offered?",
    quantity="the tier of cloud, edge and phone that needs weights below 4 bits",
    options=(
        Claim("A", f"The cloud: {RATE} requests a second within its cost limit.",
              "Batching makes the cloud the easy tier: {good_setting} gives {good_tpot} a token, "
              "a P99 first token of {good_ttft} and {good_cost} per {k} requests on {good_gpus} GPUs."),
        Claim("B", f"The edge box: {fmt(C.ORIN_NX_MEM_BW, 'GB/s')} of bandwidth for a 7B.",
              "In INT4 the 7B holds {edge_mem} of the app's {edge_budget} and writes a token every {edge_tpot}."),
        Claim("C", f"The phone: {fmt(C.A17_PRO_MEM_BW, 'GB/s')} and its app's share of memory.",
              "In INT4 the phone fails both checks: {mob_mem} over {mob_budget}, {mob_tpot} a token. Only ternary "
              "weights at 2 bits pass ({mobt_mem}, {mobt_tpot} a token), on a 7B trained for them whose quality "
              "is assumed."),
        Claim("D", "None of the three: INT4 weights pass on each.",
              "The cloud and the edge pass at INT4, but the phone does not: {mob_mem} over {mob_budget}, "
              "{mob_tpot} a token."),
    ),
    decide=act2_answer,
)

ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt="Why can no precision on offer, down to ternary, bring the 7B onto the MCU?",
    options=(
        Claim("A", "Its clock: the Cortex-M7's arithmetic, not its memory, holds it back.",
              "The 7B does not fit at all: no clock makes {tiny_gb} fit in {flash}; the weights are {tiny_x} the flash."),
        Claim("B", "Its flash is slow: at its read rate no token would come in time.",
              "Speed never comes into it: {tiny_gb} cannot be stored in {flash}. Even a large external quad-SPI "
              "flash, at {qspi_bw}, would take {qspi} a token."),
        Claim("C", "Ternary needs training, and no 7B has been trained that way.",
              "TII trained ternary 7B and 10B models in 2024 (Falcon3 1.58-bit), and the phone passes with one; "
              "on the MCU it would still be {tiny_gb}, {tiny_x} its flash."),
        Claim("D", "Fewer bits shrink the bytes a few times over; the gap is hundreds.",
              "BF16 to 2-bit ternary is {shrink} fewer bytes; the 7B is still {tiny_gb}, {tiny_x} the flash. The MCU "
              "takes a job its size: a DS-CNN keyword spotter ({kws_params} parameters) needs {kws}."),
    ),
    answer_letter="D",
)

ACT2_CHECKS = Checks(CHECK_TITLES, act=2, witnesses={
    "cloud_memory": dict(reach={"a2_batch": 4096}, leave={"a2_batch": 256}),
    "cloud_tpot": dict(reach={"a2_batch": 4096}, leave={"a2_batch": 1}),
    "cloud_ttft": dict(reach={}, leave={"a2_load": 0.1}),
    "cloud_cost": dict(reach={"a2_batch": 1}, leave={"a2_batch": 256}),
    "edge_memory": dict(reach={"a2_edge": "bf16"}, leave={"a2_edge": "int8"}),
    "edge_tpot": dict(reach={"a2_edge": "bf16"}, leave={"a2_edge": "int4"}),
    "mobile_memory": dict(reach={}, leave={"a2_mobile": "ternary"}),
    "mobile_tpot": dict(reach={}, leave={"a2_mobile": "ternary"}),
    "tiny_flash": dict(reach={}, leave={"a2_tiny": "kws"}),
    "tiny_ram": dict(reach={}, leave={"a2_tiny": "kws"}),
})


def act2_instruments(s: State) -> list:
    f = fleet(s)
    ok = f.checks()
    tone = ACT2_CHECKS.tones(ok)
    c, e, m, t = f.cloud, f.edge, f.mobile, f.tiny
    failing = sum(not v for v in ok.values())
    parts = [metric_grid(
        M["a2_failing"].show(failing, "good" if not failing else "danger", f"of {len(ok)} checks"),
        M["a2_cloud_ttft"].show(c.ttft_s, tone["cloud_ttft"], f"limit {fmt(S.ttft_limit_s, 'ms')}"),
        M["a2_cloud_tpot"].show(c.step_s, tone["cloud_tpot"], f"limit {fmt(S.tpot_limit_s, 'ms')}"),
        M["a2_cost"].show(c.cost_usd * U.THOUSAND, tone["cloud_cost"],
                          f"limit {fmt(S.cost_limit_usd * U.THOUSAND, 'usd')}"),
        M["a2_edge_tpot"].show(e.step_s, tone["edge_tpot"]),
        M["a2_mobile_tpot"].show(m.step_s, tone["mobile_tpot"], "bandwidth assumed"),
        M["a2_cloud_gpus"].show(c.gpus, note=f"prefill {fmt(c.prefill_s, 'ms')} each"),
        M["a2_cloud_memory"].show(c.memory_b, tone["cloud_memory"], f"limit {fmt(HBM_USABLE, 'GB')}"),
        M["a2_edge_memory"].show(e.memory_b, tone["edge_memory"], f"app's share {fmt(e.budget_b, 'GB')} [assumed]"),
        M["a2_mobile_memory"].show(m.memory_b, tone["mobile_memory"], f"app's share {fmt(m.budget_b, 'GB')} [assumed]"),
        M["a2_tiny_flash"].show(t.flash_b, tone["tiny_flash"], f"of {mib(C.STM32H743_FLASH_BYTES)}"),
        M["a2_tiny_ram"].show(t.ram_b, tone["tiny_ram"], f"of {mib(C.STM32H743_SRAM_BYTES)}"),
    )]
    parts.append(ACT2_CHECKS.verdict(ok, "Feasible: every tier passes",
                                "The fleet meets the Chief Architect's checks on all four tiers.",
                                "Each failing check below names the lever that moves it."))
    parts += act2_failures(f, ok)
    parts.append(check_chart(f))
    return parts


def act2_failures(f: Fleet, ok: dict[str, bool]) -> list:
    c, e, m, t = f.cloud, f.edge, f.mobile, f.tiny
    levers = {
        "cloud_memory": f"{fmt(c.memory_b, 'GB')} per GPU: " + cloud_memory_lever(c),
        "cloud_tpot": f"{fmt(c.step_s, 'ms')} a token: every sequence's KV cache is read each step; batch less.",
        "cloud_ttft": f"{fmt(c.ttft_s, 'ms')} at P99: the queue multiplies the {fmt(c.prefill_s, 'ms')} prefill; "
                      "lower the load.",
        "cloud_cost": f"{fmt(c.cost_usd * U.THOUSAND, 'usd')} per {K} requests on {fmt(c.gpus, 'int')} GPUs: "
                      "batch more, or run the GPUs busier.",
        "edge_memory": f"{fmt(e.memory_b, 'GB')} against {fmt(e.budget_b, 'GB')}: fewer bytes per weight.",
        "edge_tpot": f"{fmt(e.step_s, 'ms')} a token: fewer bytes per weight.",
        "mobile_memory": f"{fmt(m.memory_b, 'GB')} against {fmt(m.budget_b, 'GB')}: fewer bytes per weight.",
        "mobile_tpot": f"{fmt(m.step_s, 'ms')} a token: fewer bytes per weight.",
        "tiny_flash": f"{fmt(t.flash_b, 'B')} of weights for {mib(C.STM32H743_FLASH_BYTES)} of flash: "
                      "give the MCU a job its size.",
        "tiny_ram": f"{fmt(t.ram_b, 'B')} of working memory for {mib(C.STM32H743_SRAM_BYTES)} of SRAM.",
    }
    return ACT2_CHECKS.failing(ok, levers)


def check_chart(f: Fleet):
    used = f.usage()
    values = [min(max(v, S.chart_floor), 1 / S.chart_floor) for v in used.values()]
    colours = ["good" if v <= 1 else "danger" for v in used.values()]
    limit, note = ch.hline(1.0, "ink", "limit", log=True)
    figure = ch.figure([ch.bars("Share of the limit", [SHORT[k] for k in used], values, colours)],
                       ch.axis("", "category"),
                       ch.axis("Share of the limit (log)", "log", **ch.decade_ticks(values + [1.0], lambda v: fmt(v, "x"))),
                       shapes=[limit], annotations=[note], legend=False, height=int(S.chart_height_px))
    passing = sum(v <= 1 for v in used.values())
    table = (("Check", "Need ÷ limit", "Verdict"),
             [(CHECK_TITLES[k], fmt(v, "x"), "passes" if v <= 1 else "fails") for k, v in used.items()])
    return chart("a2_checks", "Each check as a share of its limit", figure,
                 f"{passing} of {len(used)} checks are at or under their limit.", table=table)


def act2_math(s: State):
    c = fleet(s).cloud
    return math_peek("The governing equations · Act II", (
        Equation(r"t = \max\!\left(\frac{W + B\cdot KV\cdot s}{BW},\ \frac{2PB}{C\,u}\right)",
                 "One decode step of *B* sequences: the batch shares the weight read, not the KV reads."),
        Equation(r"N = \left\lceil \frac{\lambda\,(t_{pf} + L_{\text{out}}\,t/B)}{\rho} \right\rceil,\quad "
                 r"\$/\text{req} = \frac{N\,p}{3600\,\lambda}",
                 "GPUs busy for every prefill and every output token, provisioned at load ρ."),
        Equation(r"\text{TTFT}_{99} = t_{pf}\left(1 + \frac{\ln(100\rho)}{1-\rho}\right)",
                 "The prefill plus the M/M/1 waiting-time tail at load ρ (V1-13, V2-10)."),
        Equation(r"M = W + B\cdot KV\cdot(L_{\text{in}} + L_{\text{out}}) \le f\cdot\text{HBM}",
                 "Weights and the KV cache of every sequence held, in the share *f* of HBM the server may use."),
    ), rows=(
        ("Prefill of the prompt, t_pf", fmt(c.prefill_s, "ms")),
        ("Weights at this precision, W", fmt(weights(c.precision), "GB")),
        ("GPU price [assumed]", fmt(S.usd_per_gpu_hour, "usd/h")),
        ("App share of the Orin's memory [assumed]", fmt(S.edge_share, "pct")),
        ("App share of the phone's memory [assumed]", fmt(S.phone_share, "pct")),
        ("Phone bandwidth [assumed]", fmt(C.A17_PRO_MEM_BW, "B/s")),
        ("Runtime on a device [assumed]", fmt(S.runtime_bytes, "GB")),
        ("A 7B with ternary weights", TERNARY),
    ), sources=(
        cite("kwon2023", "KV cache per sequence, 90 % of HBM for the server"),
        cite("kleinrock1975", "the M/M/1 waiting-time tail"),
        cite("frantar2023", "INT4 weights with a scale per group of 128"),
        cite("ma2024", "ternary weights, trained as such"),
        cite("banbury2021", "the keyword-spotting DS-CNN"),
    ))


ACT2 = Act(
    number=2, title="One Fleet, Four Tiers", minutes="15–20 min",
    stakeholder_role="Chief Architect",
    stakeholder=lambda: (
        "Now the fleet. Same assistant on every tier: the cloud, an edge box, the phone and the MCU in the "
        "earbuds. Tell me whether ordinary quantisation carries every tier, then give me a fleet that passes "
        "every check."),
    scenario=lambda: (
        "The SLOs are now what a reader feels: the first token within "
        f"{fmt(S.ttft_limit_s, 'ms')} (P99, in the cloud) and then a token every {fmt(S.tpot_limit_s, 'ms')}. "
        f"The cloud must carry {fmt(S.rate_per_s, 'int')} requests per second for at most "
        f"{fmt(S.cost_limit_usd * U.THOUSAND, 'usd')} per {K} requests.",
        "On a device, an app may use only part of the memory: the operating system keeps the rest.",
    ),
    prediction=ACT2_PREDICTION,
    controls=(A2_CLOUD, A2_BATCH, A2_LOAD, A2_EDGE, A2_MOBILE, A2_TINY),
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="The fleet",
)

# ---- the whole lab -----------------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    return frozenset(f"a2_{k}" for k, ok in fleet(s).checks().items() if not ok)


def tier_configs(s: State) -> str:
    return (f"cloud {PRECISIONS[s['a2_cloud']][0]}, batch {int(s['a2_batch'])}, load {fmt(s['a2_load'], 'pct')}; "
            f"edge {PRECISIONS[s['a2_edge']][0]}; phone {PRECISIONS[s['a2_mobile']][0]}; "
            f"MCU {'the 7B, ternary' if s['a2_tiny'] == 'llm' else 'keyword spotter'}")


def results(s: State) -> dict[str, float | str | bool | None]:
    f = fleet(s)
    ok = f.checks()
    rows = families(dict(s.earlier), s["a1_count"] == "all")
    low = weakest(rows)
    record = {"weakest_family": low.name if low else None, "graded": low is not None,
              "tier_configs": tier_configs(s), "cloud_batch": int(s["a2_batch"]), "cloud_gpus": f.cloud.gpus,
              "tpot_s": f.cloud.step_s, "ttft_s": f.cloud.ttft_s,
              "cost_per_1k": f.cloud.cost_usd * U.THOUSAND, "tier_violations": sum(not v for v in ok.values()),
              "system_valid": f.feasible, **{f"{k}_ok": v for k, v in ok.items()}}
    for row in rows:
        record[f"accuracy_{row.name.lower()}"] = row.accuracy
    return record


def lab_takeaways() -> list[str]:
    f, g = act1_facts(), act2_facts()
    return [
        f"One reader's {OUT}-token answer on one H100 takes {f['answer']} in BF16 ({f['rate']}): every token "
        f"reads all {f['weights']} of weights. SLOs belong on the first token and on the time per token.",
        f"Batching shares the weight read among streams: the cloud meets every check ({g['good_setting']}: "
        f"{g['good_tpot']} a token, {g['good_cost']} per {K} requests).",
        "A queue multiplies the prefill: the load you run the GPUs at trades the P99 first token against cost.",
        f"On the phone, INT4 is not small enough ({g['mob_mem']}, {g['mob_tpot']} a token); ternary weights at "
        f"2 bits would be ({g['mobt_mem']}, {g['mobt_tpot']}), on a 7B trained ternary whose quality is assumed: "
        "BitNet b1.58 reports quality up to 3.9B.",
        f"The MCU cannot hold the 7B at any precision ({g['tiny_x']} its flash): it gets a different job, a "
        f"keyword spotter of {g['kws']}.",
        "Your radar shows the invariant family where your intuition was weakest: measure there first.",
    ]


LAB = Lab(
    id="v1_16", volume=1, number=16, title="The Architect's Audit",
    invariant="A decoded token **reads every weight once**: one stream's speed is bytes over bandwidth on "
              "every tier, and the smallest tier changes the job, not the precision.",
    minutes="30–35 min", chapter="Conclusion", url="vol1/16-architects-audit/",
    description="The Volume I capstone. Audit a draft SLO against the physics of decoding, read your own Design "
                "Ledger for the invariant you underestimated, then fit one 7B assistant across cloud, edge, phone "
                "and microcontroller.",
    reading=(
        "**Every earlier chapter of Volume I**: this lab audits their invariants together.",
        "**Serving large language models**: prefill, decode, the KV cache and batching.",
        "**Model compression**: quantisation of weights and what it cannot do.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=ACT2_CHECKS.failures,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "**V1-02 The Iron Law**: the time of a step from its bytes and its arithmetic.",
        "**V1-08 The Training Memory Budget**: where the bytes of a model come from.",
        "**V2-10 The KV-Cache Memory Wall**: the cloud tier's KV cache and batching in depth.",
    ),
    reads=READS,
    context_from=TRACK,
    hook="The board's draft promises a whole answer in a tenth of a second, and the same 7B assistant on "
         "every device from the datacentre to the earbuds. Can the fleet keep both promises?",
    record_metrics=(
        MetricSpec("weakest_family", "Your weakest invariant family (Act I)", "1", "num"),
        MetricSpec("graded", "Audit graded: a family with two answers (Act I)", "1", "yesno"),
        *(MetricSpec(f"accuracy_{name.lower()}", f"Accuracy, {name} family (Act I)", "1", "pct")
          for name in FAMILIES),
        MetricSpec("tier_configs", "Fleet settings (Act II)", "1", "num"),
        MetricSpec("cloud_batch", "Cloud sequences per GPU (Act II)", "1", "int"),
        MetricSpec("cloud_gpus", "Cloud H100s provisioned (Act II)", "1", "int"),
        MetricSpec("tpot_s", "Cloud time per output token (Act II)", "s", "ms"),
        MetricSpec("ttft_s", "Cloud P99 first token (Act II)", "s", "ms"),
        MetricSpec("cost_per_1k", f"Cloud cost per {K} requests (Act II)", "USD", "usd"),
        MetricSpec("tier_violations", "Checks failing (Act II)", "1", "int"),
        MetricSpec("system_valid", "Every check passes (Act II)", "1", "yesno"),
        *(MetricSpec(f"{k}_ok", f"{title} (Act II)", "1", "yesno") for k, title in CHECK_TITLES.items()),
    ),
)
