"""Lab V1-16 · The Architect's Audit (the Volume I capstone).

Core invariant: a decoded token reads every weight once, so one stream's speed is set by bytes over
bandwidth on every tier; batching, precision and the choice of job per tier are what an architect
can change, and the smallest tier changes the job, not the precision.

Act I (the audit): the draft's SLO, "a 256-token answer in under 100 ms", predicted for one H100 at
batch 1 in BF16 (256 memory-bound steps: 1.08 s), beside the student's own Design Ledger: accuracy per
invariant family from every earlier Volume I lab (no answers is "no data", never a score), and the
weakest family among those with at least two answers (none: the audit is ungraded). Act II (the
fleet): a generic 7B (Llama-3-8B-shaped KV, 131,072 B per token) on four tiers against ten checks;
the pick is the tier no precision rescues (TinyML: the ternary 7B is 661× the MCU's flash), and a
feasible design exists (a unit test searches the controls).

Choices, and why: the spec's Act I key ("the family with the lowest accuracy") comes from the
ledger, not from physics, and an empty ledger has none; so the prediction is the draft's SLO (a key
a test proves) and the weakest family is an instrument, recorded with ``graded``. The spec's cloud
TTFT (the prefill alone, 14.49 ms) cannot fail and its cost cannot reach the limit; here the fleet is
provisioned at a load ρ (GPUs = busy ÷ ρ, busy counting prefill and decode) and the P99 TTFT adds the
M/M/1 waiting tail at that load (as V2-10 and V2-17), so queueing and cost both bind. The phone may
run a 7B trained with ternary weights (BitNet b1.58; post-training ternarisation is not offered),
which makes the phone feasible and TinyML the one tier no precision rescues. ST's 2 MB of flash is
2 MiB, so the 7B is 661× it (the spec's 693× divides by 2 × 10⁶ B).

Ledger (spec §3): weakest_family, graded, tier_configs, cloud_batch, cloud_gpus, tpot_ms, ttft_ms,
cost_per_req, tier_violations, system_valid and the accuracy per family; answers a1_predict,
a2_pick; failures.
"""

from __future__ import annotations

from pylabs.framework import (Act, Choice, Claim, Equation, Lab, MetricSpec, Option, Pick,
                              Prediction, Range, Reflection, Slider, State, callout, chart, fmt,
                              math_peek, metric_grid, prose)
from pylabs.framework import charts as ch
from pylabs.framework.checks import Checks
from pylabs.framework.earlier import Tally
from pylabs.labs.vol1.audit import (CHECK_TITLES, FAMILIES, HBM_USABLE, KV, MEAN_CONTEXT, PRECISIONS, READS, SHORT,
                                    Cloud, Fleet, OnDevice, S, Tiny, families, mib, tiers_without_a_fit, weakest,
                                    weights)
from pylabs.labs.vol1.contexts import LABELS, TRACK, deployment, device
from pylabs.physics import constants as C
from pylabs.physics import tiers
from pylabs.physics.references import cite

OUT = fmt(S.output_tokens, "int")       # the answer's length, as the page writes it
RATE = fmt(S.rate_per_s, "int")
K = fmt(S.per_thousand, "int")

# ---- context ------------------------------------------------------------------------------

CONTEXT = deployment(("cloud", "tiny"), default="cloud",
                     help="Your tier, the two ends of Volume I: Act I times the draft's answer on its device first; "
                          "Act II audits all four tiers.")

# ---- Act I · The audit ------------------------------------------------------------------------

A1_PRECISION = Choice("a1_precision", "Weight precision", tuple(
    Option(k, PRECISIONS[k][0]) for k in ("bf16", "int8", "int4")), default="bf16", widget="select")
A1_GPUS = Choice("a1_gpus", "GPUs sharing one stream (tensor parallel)", tuple(
    Option(str(n), str(n)) for n in (1, 2, 4, 8)), default="1",
    help="Each GPU reads its share of the weights; communication between them is left out (a best case).")
A1_COUNT = Choice("a1_count", "What the radar counts", (
    Option("pred", "Your predictions"), Option("all", "Predictions and reflections")), default="pred",
    help="Counts the answers locked in your ledger; with no earlier answers it changes nothing.")


def answer_step_s(context: str, precision: str, gpus: int = 1) -> float:
    """One token of one stream (batch 1) on the context's device."""
    d = device(context)
    n = gpus if context == "cloud" else 1
    return tiers.decode_step_s(weights(precision), S.params, 1, KV, MEAN_CONTEXT, d.mem_bw, d.peak_ops, S.mfu, n)


def act1_truth() -> float:
    return S.output_tokens * answer_step_s("cloud", "bf16")


def act1_facts() -> dict[str, str]:
    best = S.output_tokens * answer_step_s("cloud", "int4", 8)
    return {"answer": fmt(act1_truth(), "s"), "tpot": fmt(answer_step_s("cloud", "bf16"), "ms"),
            "best": fmt(best, "s"), "tpot_b64": fmt(Cloud("bf16", 64).step_s, "ms"),
            "weights": fmt(weights("bf16"), "GB"), "bw": fmt(C.H100_HBM_BW, "B/s"),
            "int8_2": fmt(S.output_tokens * answer_step_s("cloud", "int8", 2), "s"),
            "draft": fmt(S.draft_answer_s, "s"), "out": OUT, "peak": fmt(C.H100_PEAK_BF16_DENSE, "FLOP/s")}


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"The board's draft SLO reads: every answer of {fmt(S.output_tokens, 'int')} tokens in under "
           f"{fmt(S.draft_answer_s, 's')}. On one H100, in BF16, for a single user (batch 1), how long does the 7B "
           f"model take to write those {fmt(S.output_tokens, 'int')} tokens?",
    quantity=f"the time one H100 takes to decode a {OUT}-token answer at batch 1",
    unit_fmt="s",
    options=(
        Range("A", "{range}: the draft's SLO holds", None, 0.1, 0.05,
              "An H100 does {peak} of dense BF16, but each token waits for {weights} of weights to stream from HBM at "
              "{bw}: {tpot} a token, {out} times in a row."),
        Range("B", "{range}", 0.1, 0.3, 0.2,
              "That is what INT8 on two GPUs reaches ({int8_2}); BF16 on one GPU reads twice the bytes on half "
              "the bandwidth."),
        Range("C", "{range}", 0.3, 3.0, 1.0,
              "Each token reads all {weights} of weights: {tpot} a token at {bw}, so {out} tokens take {answer}."),
        Range("D", "{range}", 3.0, None, 5.0,
              "Decoding is slow, but not that slow: one token is one pass over {weights} at {bw} ({tpot})."),
    ),
    truth=act1_truth,
)

ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="The draft's SLO cannot be met as written. What should the SLO constrain instead?",
    options=(
        Claim("A", "Keep 100 ms for the whole answer and buy faster GPUs.",
              "The step is bytes over bandwidth: INT4 split over eight GPUs gets {best}, by giving one user eight "
              "GPUs, and a faster chip only moves the same wall."),
        Claim("B", "Split it: the time to the first token, and the time per output token, each with its own "
                   "limit.",
              "A reader needs the first word soon and then a steady pace: the prefill sets the first, the "
              "bytes per token the second ({tpot} in BF16). Neither depends on how long the answer is."),
        Claim("C", "Batch requests together, so that each stream decodes faster.",
              "Batching shares one weight read among many streams; it does not shorten any one of them: a step "
              "at batch 64 takes {tpot_b64}, not less than {tpot}."),
        Claim("D", "Measure the average answer time instead of the P99.",
              "Every answer of {out} tokens is {out} steps; the median is as slow as the P99 here ({answer})."),
    ),
    answer_letter="B",
)

M = {m.name: m for m in (
    MetricSpec("a1_answer", f"{OUT}-token answer, one stream", "s", "s"),
    MetricSpec("a1_tpot", "Time per output token", "s", "ms"),
    MetricSpec("a1_devices", f"Devices busy for {RATE} requests/s at batch 1", "1", "int"),
    MetricSpec("a1_labs", "Earlier Volume I labs in your ledger", "1", "int"),
    MetricSpec("a1_answers", "Locked answers counted", "1", "int"),
    MetricSpec("a1_accuracy", "Right, over all counted", "1", "pct"),
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
    step = answer_step_s(ctx, precision, gpus)
    n = gpus if ctx == "cloud" else 1
    answer = S.output_tokens * step
    rows = families(dict(s.earlier), s["a1_count"] == "all")
    right, answered = sum(r.right for r in rows), sum(r.answered for r in rows)
    parts = [metric_grid(
        M["a1_answer"].show(answer, "good" if answer <= S.draft_answer_s else "danger",
                            f"{device(ctx).name}; the draft asks {fmt(S.draft_answer_s, 's')}"),
        M["a1_tpot"].show(step, note=f"{fmt(1 / step, 'num')} tokens/s for one user"),
        M["a1_devices"].show(S.rate_per_s * S.output_tokens * step * n, note="each stream holds its device"),
        M["a1_labs"].show(sum(r.labs for r in rows), note=f"of {len(READS)} that feed the radar"),
        M["a1_answers"].show(answered),
        M["a1_accuracy"].show(right / answered if answered else 0.0, None if answered else "warn",
                              "" if answered else "no locked answers yet"),
    ), weakest_callout(rows), answer_chart(ctx, precision, gpus), radar_chart(rows)]
    return parts


def weakest_callout(rows: list[Tally]):
    low = weakest(rows)
    if low is None:
        return callout("info", "Ungraded: no family has two answers yet",
                       prose(f"A family needs at least {S.min_answers} locked answers before the audit names it. "
                             "Lock predictions in the other Volume I labs and come back; the radar fills in."))
    return callout("warn", f"Your weakest family: {low.name}",
                   prose(f"{low.right} of {low.answered} answers right ({fmt(low.accuracy, 'pct')}) across "
                         f"{low.labs} lab(s). Review where your intuition and the physics parted."))


def answer_chart(ctx: str, precision: str, gpus: int):
    times = {k: S.output_tokens * answer_step_s(k, precision, gpus) for k in LABELS}
    fits = {k: weights(precision) <= device(k).mem_bytes for k in LABELS}
    names = [LABELS[k].split(" (")[0] for k in LABELS]
    colours = ["accent" if k == ctx else "series1" if fits[k] else "muted" for k in LABELS]
    values = list(times.values())
    limit, note = ch.hline(S.draft_answer_s, "danger", "draft SLO", log=True)
    figure = ch.figure([ch.bars(f"{OUT}-token answer", names, values, colours)], ch.axis("", "category"),
                       ch.axis(f"Time for {OUT} tokens, s (log)", "log", **ch.decade_ticks(values + [S.draft_answer_s])),
                       shapes=[limit], annotations=[note], legend=False, height=int(S.chart_height_px))
    under = [LABELS[k].split(" (")[0] for k in LABELS if times[k] <= S.draft_answer_s]
    summary = (f"At {PRECISIONS[precision][0]}, batch 1, the answer takes {fmt(times[ctx], 's')} on your tier "
               "(highlighted; grey bars: the weights do not fit in that device's memory); "
               + (f"only {', '.join(under)} meets the draft's {fmt(S.draft_answer_s, 's')}." if under else
                  f"no tier meets the draft's {fmt(S.draft_answer_s, 's')}."))
    table = (("Tier", f"{OUT} tokens", "Per token", "Weights fit"),
             [(LABELS[k], fmt(times[k], "s"), fmt(times[k] / S.output_tokens, "ms"), "yes" if fits[k] else "no")
              for k in LABELS])
    return chart("a1_answer", f"One user's {OUT}-token answer on each tier", figure, summary, table=table)


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


def a1_overridden(s: State) -> dict[str, str]:
    if s["context"] == "cloud":
        return {}
    return {"a1_gpus": "Only the cloud tier splits one stream over several GPUs; your tier has one device."}


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
        *((name, ", ".join(labs)) for name, labs in FAMILIES.items()),
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
        "The draft SLO was written for the whole answer. Your tier (set at the top) is the device whose numbers "
        "lead the instruments; the chart shows all four.",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_PRECISION, A1_GPUS, A1_COUNT),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="The draft's SLO and your ledger",
    overridden=a1_overridden,
)

# ---- Act II · One fleet, four tiers ---------------------------------------------------------

A2_CLOUD = Choice("a2_cloud", "Cloud: weight precision", tuple(
    Option(k, PRECISIONS[k][0]) for k in ("bf16", "int8", "int4")), default="bf16", widget="select",
    help="Weights only: the arithmetic stays in BF16, and the KV cache stays BF16.")
A2_BATCH = Slider("a2_batch", "Cloud: sequences decoded together per GPU", unit="sequences", min=1, max=4096, step=1,
                  default=64, fmt="int", scale="log2")
A2_LOAD = Slider("a2_load", "Cloud: load per GPU, ρ", unit="1", min=0.1, max=0.95, step=0.05, default=0.7, fmt="pct",
                 help="GPUs provisioned = busy ÷ ρ. A lower load shortens the queue and costs GPUs.")
A2_EDGE = Choice("a2_edge", "Edge (Orin NX): weight precision", tuple(Option(k, v[0]) for k, v in PRECISIONS.items()),
                 default="int4", widget="select")
A2_MOBILE = Choice("a2_mobile", "Phone: weight precision", tuple(Option(k, v[0]) for k, v in PRECISIONS.items()),
                   default="int4", widget="select",
                   help="Ternary weights need a model trained for them; rounding a BF16 model to three values breaks it.")
A2_TINY = Choice("a2_tiny", "MCU: its job", (
    Option("llm", "Run the 7B itself, ternary (the smallest it gets)"),
    Option("kws", "A wake-word detector (DS-CNN, INT8) that hands the request on"),
), default="llm")


def fleet(s: State) -> Fleet:
    return Fleet(Cloud(s["a2_cloud"], int(s["a2_batch"]), s["a2_load"]), OnDevice("edge", s["a2_edge"]),
                 OnDevice("mobile", s["a2_mobile"]), Tiny(s["a2_tiny"]))


TIER_LETTERS = {"cloud": "A", "edge": "B", "mobile": "C", "tiny": "D"}
GOOD_CLOUD = Cloud("int4", S.good_batch, S.good_load)


def good_setting() -> str:
    g = GOOD_CLOUD
    return f"{PRECISIONS[g.precision][0]} at batch {g.batch} and load {fmt(g.load, 'pct')}"


def act2_answer() -> str:
    """The one tier where no setting of the 7B passes its checks (a test proves it is unique)."""
    (stuck,) = tiers_without_a_fit()
    return TIER_LETTERS[stuck]


def act2_facts() -> dict[str, str]:
    e, m, mt = OnDevice("edge", "int4"), OnDevice("mobile", "int4"), OnDevice("mobile", "ternary")
    g, llm = GOOD_CLOUD, Tiny("llm")
    return {"good_tpot": fmt(g.step_s, "ms"), "good_ttft": fmt(g.ttft_s, "ms"), "good_gpus": fmt(g.gpus, "int"),
            "good_cost": fmt(g.cost_usd * S.per_thousand, "usd"), "edge_mem": fmt(e.memory_b, "GB"),
            "edge_budget": fmt(e.budget_b, "GB"), "edge_tpot": fmt(e.step_s, "ms"), "mob_mem": fmt(m.memory_b, "GB"),
            "mob_budget": fmt(m.budget_b, "GB"), "mob_tpot": fmt(m.step_s, "ms"), "mobt_mem": fmt(mt.memory_b, "GB"),
            "mobt_tpot": fmt(mt.step_s, "ms"), "tiny_gb": fmt(llm.flash_b, "GB"),
            "tiny_x": fmt(llm.flash_b / C.STM32H743_FLASH_BYTES, "x"),
            "shrink": fmt(C.BYTES_PER_BF16 * tiers.BITS_PER_BYTE / tiers.ternary_bits_per_weight(), "x"),
            "qspi": fmt(llm.flash_b / C.STM32H743_QSPI_BW, "s"), "kws": fmt(Tiny("kws").flash_b, "B"),
            "kws_params": fmt(C.KWS_DSCNN_PARAMS, "params"), "qspi_bw": fmt(C.STM32H743_QSPI_BW, "B/s"),
            "pruned": fmt(llm.flash_b / C.STM32H743_FLASH_BYTES / S.prune_factor, "x"),
            "flash": mib(C.STM32H743_FLASH_BYTES), "good_setting": good_setting(), "k": K}


ACT2_PREDICTION = Pick(
    id="a2_pick", act=2,
    prompt=f"The fleet serves one 7B assistant on four tiers. Each tier has its checks: memory, "
           f"{fmt(S.tpot_limit_s, 'ms')} per output token, and in the cloud a {fmt(S.ttft_limit_s, 'ms')} P99 first "
           f"token and {fmt(S.cost_limit_usd * S.per_thousand, 'usd')} per {K} requests; the MCU has "
           f"{mib(C.STM32H743_FLASH_BYTES)} of flash and {mib(C.STM32H743_SRAM_BYTES)} of SRAM. Which tier "
           "cannot run the 7B within its checks at any precision or setting offered?",
    quantity="the tier that no setting of the 7B rescues",
    options=(
        Claim("A", f"The cloud: {RATE} requests a second is too many.",
              "Batching makes the cloud the easy tier: {good_setting} gives {good_tpot} per token, "
              "a P99 first token of {good_ttft} and {good_cost} per {k} requests on {good_gpus} GPUs."),
        Claim("B", f"The edge box: {fmt(C.ORIN_NX_MEM_BYTES, 'GB')} and {fmt(C.ORIN_NX_MEM_BW, 'GB/s')} are not "
                   "enough for a 7B.",
              "In INT4 the 7B holds {edge_mem} of the app's {edge_budget} and decodes at {edge_tpot} a token."),
        Claim("C", "The phone: its memory and bandwidth are too small for a 7B.",
              "In INT4 the phone fails ({mob_mem} over {mob_budget}, {mob_tpot} a token), but a 7B trained with "
              "ternary weights fits in {mobt_mem} at {mobt_tpot} a token."),
        Claim("D", "The MCU: even ternary, a 7B is far beyond its flash.",
              "Ternary weights are the floor of precision, and the 7B is still {tiny_gb}, {tiny_x} the flash."),
    ),
    decide=act2_answer,
)

ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt="Why does no precision rescue the 7B on the MCU, and what does the MCU do in a feasible fleet?",
    options=(
        Claim("A", "Precision divides the bytes by at most about ten; the gap is hundreds of times, so the MCU "
                   "takes a different job: a wake-word model that hands the request to the phone or the cloud.",
              "BF16 to ternary is {shrink} fewer bytes; the gap is {tiny_x}. A DS-CNN keyword spotter "
              "({kws_params} parameters) needs {kws} of flash."),
        Claim("B", "Stream the weights from external flash as the model runs.",
              "The quad-SPI flash moves {qspi_bw} at best: one token would take {qspi}."),
        Claim("C", "Prune nine weights in ten and keep the 7B's quality.",
              "Even then it is {pruned} the flash, and a 7B with nine weights in ten gone is not the same assistant."),
        Claim("D", "A faster clock: the MCU is compute-bound.",
              "The 7B does not fit at all; no clock makes {tiny_gb} fit in {flash}."),
    ),
    answer_letter="A",
)

ACT2_CHECKS = Checks(CHECK_TITLES, act=2)


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
        M["a2_cost"].show(c.cost_usd * S.per_thousand, tone["cloud_cost"],
                          f"limit {fmt(S.cost_limit_usd * S.per_thousand, 'usd')}"),
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
        "cloud_memory": f"{fmt(c.memory_b, 'GB')} per GPU: fewer sequences per GPU, or fewer bytes per weight.",
        "cloud_tpot": f"{fmt(c.step_s, 'ms')} a token: every sequence's KV cache is read each step; batch less.",
        "cloud_ttft": f"{fmt(c.ttft_s, 'ms')} at P99: the queue multiplies the {fmt(c.prefill_s, 'ms')} prefill; "
                      "lower the load.",
        "cloud_cost": f"{fmt(c.cost_usd * S.per_thousand, 'usd')} per {K} requests on {fmt(c.gpus, 'int')} GPUs: "
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
        "earbuds. Tell me which tier the model cannot reach at any precision, then give me a fleet that passes "
        "every check."),
    scenario=lambda: (
        "The SLOs are now what a reader feels: the first token within "
        f"{fmt(S.ttft_limit_s, 'ms')} (P99, in the cloud) and then a token every {fmt(S.tpot_limit_s, 'ms')}. "
        f"The cloud must carry {fmt(S.rate_per_s, 'int')} requests per second for at most "
        f"{fmt(S.cost_limit_usd * S.per_thousand, 'usd')} per {K} requests.",
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
            f"edge {PRECISIONS[s['a2_edge']][0]}; mobile {PRECISIONS[s['a2_mobile']][0]}; "
            f"tiny {'7B ternary' if s['a2_tiny'] == 'llm' else 'wake word'}")


def results(s: State) -> dict[str, float | str | bool | None]:
    f = fleet(s)
    ok = f.checks()
    rows = families(dict(s.earlier), s["a1_count"] == "all")
    low = weakest(rows)
    record = {"weakest_family": low.name if low else None, "graded": low is not None,
              "tier_configs": tier_configs(s), "cloud_batch": int(s["a2_batch"]), "cloud_gpus": f.cloud.gpus,
              "tpot_ms": f.cloud.step_s * S.ms_per_s, "ttft_ms": f.cloud.ttft_s * S.ms_per_s,
              "cost_per_req": f.cloud.cost_usd, "tier_violations": sum(not v for v in ok.values()),
              "system_valid": f.feasible, **{f"{k}_ok": v for k, v in ok.items()}}
    for row in rows:
        record[f"accuracy_{row.name.lower()}"] = row.accuracy
    return record


def lab_takeaways() -> list[str]:
    f, g = act1_facts(), act2_facts()
    return [
        f"One user's {OUT}-token answer on one H100 takes {f['answer']} in BF16: every token reads all "
        f"{f['weights']} of weights. SLOs belong on the first token and on the time per token.",
        f"Batching shares the weight read among streams: the cloud meets every check ({g['good_setting']}: "
        f"{g['good_tpot']} a token, {g['good_cost']} per {K} requests).",
        "A queue multiplies the prefill: the load you run the GPUs at trades the P99 first token against cost.",
        f"On the phone, INT4 is not small enough ({g['mob_mem']}, {g['mob_tpot']} a token); a 7B trained with "
        "ternary weights is.",
        f"The MCU cannot hold the 7B at any precision ({g['tiny_x']} its flash): it gets a different job, a "
        f"wake-word model of {g['kws']}.",
        "Your radar shows the invariant family where your intuition was weakest: measure there first.",
    ]


LAB = Lab(
    id="v1_16", volume=1, number=16, title="The Architect's Audit",
    invariant="A decoded token **reads every weight once**: one stream's speed is bytes over bandwidth on "
              "every tier, and the smallest tier changes the job, not the precision.",
    minutes="30–35 min", chapter="Conclusion", url="vol1/16-architects-audit/",
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
        "**V1-02 The Iron Law**: bytes over bandwidth, the term that sets every decode step.",
        "**V1-08 The Training Memory Budget**: where the bytes of a model come from.",
        "**V2-10 The KV-Cache Memory Wall**: the cloud tier's KV cache and batching in depth.",
    ),
    reads=READS,
    context_from=TRACK,
)
