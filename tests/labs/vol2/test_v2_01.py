"""V2-01 The Scale Illusion: answer keys proven by the physics, audit vectors, feedback, gating, failures."""

from __future__ import annotations

import importlib
from dataclasses import replace

import pytest

from pylabs.framework.questions import worded
from pylabs.framework.render import record
from pylabs.labs.vol2 import v2_01 as lab
from pylabs.labs.vol2 import v2_01_model as model
from pylabs.physics import collectives, scaling, training
from pylabs.physics import constants as C
from tests.labs.helpers import answered, assert_key_proven, rendered

LAB = lab.LAB


# ---- Act I: answer key and the audit's golden vectors (handbook/labs/v2_01.md §2) -------------------


def independent_speedup(nics: float, nic_bw: float, gpus: float = 1024) -> float:
    """S(N) = T1/(T1/N + T_AR), written out here from 6·P·G/(peak·u) and the two-level ring
    (Thakur et al. 2005) rather than through the lab's model."""
    t1 = 6 * C.LLAMA3_70B_PARAMS * 262144 / (C.H100_PEAK_BF16_DENSE * 0.45)
    grad, g, n = 2 * C.LLAMA3_70B_PARAMS, 8, gpus / 8
    t_ar = 2 * (g - 1) / g * grad / C.NVLINK4_BW + 2 * (n - 1) / n * grad / (nics * nic_bw)
    return t1 / (t1 / gpus + t_ar)


@pytest.mark.parametrize("context,key,value", [("frontier", "B", 167.03), ("startup", "A", 38.99)])
def test_act1_key_is_proven_in_each_context(context, key, value):
    """The start-up's nodes have one 400G NIC, so its run reaches 39x, not the frontier's 167x."""
    nics = {"frontier": 8, "startup": 1}[context]
    assert independent_speedup(nics, C.IB_NDR_BW) == pytest.approx(value, abs=0.005)
    assert lab.act1_truth(context) == pytest.approx(value, abs=0.005)
    assert LAB.questions[0].answer(context) == key
    option = lab.ACT1_PREDICTION.option(key)
    assert (option.low is None or value > 1.2 * option.low) and (option.high is None or value < option.high / 1.2)


def test_act1_prompt_names_the_fabric_of_the_context():
    prompts = {c: worded(lab.ACT1_PREDICTION.prompt, LAB.terms(c)) for c in ("frontier", "startup")}
    assert "8 × NDR 400G rails each" in prompts["frontier"] and "1 × NDR 400G NIC each" in prompts["startup"]


def test_startup_feedback_quotes_the_startup_card():
    """In 'Start-up' the feedback said 167x above a card reading 39x."""
    state = LAB.parse({"answers": {"a1_predict": {"choice": "A", "locked_at": "2026-01-01T00:00:00Z"}},
                       "controls": {"context": "startup"}}, "context")
    html = rendered(LAB, state)
    start = html.index('data-feedback="a1_predict"')
    feedback = html[start:html.index("Scale efficiency explorer", start)]
    assert "39×" in feedback and "167×" not in feedback


def test_single_gpu_and_linear_plan_match_the_audit():
    assert model.SINGLE_GPU_S / (86400 * 365) == pytest.approx(448.69, abs=0.01)
    assert model.PLAN_S / 86400 == pytest.approx(448.6932 * 365 / 1024, rel=1e-4)
    assert scaling.time_to_train_s(C.LLAMA3_70B_TRAIN_FLOPS, 1000, C.H100_PEAK_BF16_DENSE, 0.45) / 86400 == \
        pytest.approx(163.77, abs=0.01)  # the audit's 1,000 GPUs: 0.449 years


def test_strong_scaling_matches_the_audit_13b_vector():
    """13B, G = 262,144 tokens, 8 NDR rails, 1,024 GPUs: T1 = 45.925 s, T_comm = 0.230095 s, S = 167.03."""
    t1 = training.compute_time_s(13e9, 262144, C.H100_PEAK_BF16_DENSE, 0.45)
    comm = collectives.hierarchical_allreduce_s(26e9, 8, 128, C.NVLINK4_BW, C.IB_NDR_BW, 8)
    assert t1 == pytest.approx(45.925, abs=5e-4)
    assert comm == pytest.approx(0.230095, abs=1e-6)
    assert scaling.strong_scaling_speedup(1024, t1, comm) == pytest.approx(167.03, abs=0.005)


def test_model_size_cancels_so_the_70b_run_scales_like_the_13b_vector():
    assert model.SCENARIO_RUN.speedup(1024) == pytest.approx(167.03, abs=0.005)
    assert model.BIG_RUN.speedup(1024) == pytest.approx(775.37, abs=0.005)


def test_efficiency_falls_with_gpu_count_by_itself():
    eff = [model.SCENARIO_RUN.speedup(n) / n for n in model.GPU_AXIS]
    assert all(a > b for a, b in zip(eff, eff[1:]))
    assert max(model.SCENARIO_RUN.speedup(n) for n in model.GPU_AXIS) < model.SCENARIO_RUN.ceiling()


def test_one_gpu_has_no_communication_and_unit_speedup():
    assert model.SCENARIO_RUN.allreduce_s(1) == 0.0
    assert model.SCENARIO_RUN.speedup(1) == pytest.approx(1.0)


def test_reflection_facts_show_the_allreduce_is_flat_and_compute_shrinks():
    run = model.SCENARIO_RUN
    assert run.allreduce_s(1024) / run.allreduce_s(128) < 1.05
    facts = lab.act1_facts("frontier")
    assert facts["big_eff"] == lab.fmt(model.BIG_RUN.speedup(1024) / 1024, "pct")


# ---- Act II: answer key and TCO vectors ------------------------------------------------


@pytest.mark.parametrize("context", ["frontier", "startup"])
def test_act2_answer_is_one_minus_the_discount(context):
    """Reserved = on-demand when G·H·Y·p·(1−D) = G·U·H·Y·p, so U* = 1 − D = 65 % in both organisations
    (the context moves the fleet's utilization, not the breakeven)."""
    assert lab.act2_truth() == pytest.approx(0.65)
    assert LAB.questions[2].answer(context) == "D"
    assert_key_proven(lab.ACT2_PREDICTION, "D")
    assert lab.act2_truth() > 1.05 * lab.ACT2_PREDICTION.option("D").low


def test_reserved_and_on_demand_really_tie_at_the_breakeven():
    f = replace(model.SCENARIO_FLEET, utilization=model.act2_truth())
    assert f.on_demand() == pytest.approx(f.reserved(), rel=1e-12)


def test_tco_matches_the_audit_at_1000_gpus():
    f = replace(model.SCENARIO_FLEET, gpus=1000, utilization=0.6)
    assert f.on_demand() == pytest.approx(33_112_800)
    assert f.reserved() == pytest.approx(35_872_200)
    assert f.on_prem() == pytest.approx(64.02e6, rel=1e-3)  # corrected on-prem model, U = 0.6
    assert f.breakeven_on_prem() == pytest.approx(1.196, abs=5e-4)
    assert replace(f, price=4.0).breakeven_on_prem() == pytest.approx(0.609, abs=5e-4)


def test_default_verdicts_reserved_cheapest_and_owning_never_pays_back():
    f = model.SCENARIO_FLEET
    assert f.cheapest() == "reserved"
    assert f.breakeven_on_prem() > 1
    assert f.on_demand() > f.budget() > f.reserved()
    assert model.HYPERSCALER_FLEET.breakeven_on_prem() < 1
    assert model.HYPERSCALER_FLEET.cheapest() == "on_prem"


def test_own_vs_reserved_crossing_is_where_the_costs_tie():
    f = replace(model.SCENARIO_FLEET, price=3.7)
    u = f.breakeven_own_vs_reserved()
    assert 0 < u < 1
    assert f.on_prem(u) == pytest.approx(f.reserved(), rel=1e-12)


def test_on_prem_breakeven_is_finite_anywhere_on_the_sliders():
    a2 = lab.A2
    f = model.Fleet(price=a2["a2_price"].min, load_w=a2["a2_load_w"].max, idle_w=a2["a2_idle_w"].min,
                    pue=a2["a2_pue"].max, kwh=a2["a2_kwh"].max)
    assert f.breakeven_on_prem() < float("inf")


def test_reflection2_facts_come_from_the_fleet():
    facts = lab.act2_facts("frontier")
    f = lab.SCENARIO_FLEET
    assert facts["a2_on_prem_per_hour"] == lab.fmt(f.per_useful_hour(), "usd/h")
    assert lab.act2_facts("startup")["a2_on_prem_per_hour"] == lab.fmt(f.per_useful_hour(0.4), "usd/h")
    assert f.per_useful_hour(0.4) > f.per_useful_hour() > f.price
    assert f.on_prem(0.0) / f.on_prem() > 0.9


# ---- failure states -------------------------------------------------------------------


def all_open(**controls):
    return answered(LAB, {}, through="a2_reflect", controls=controls)


def test_more_gpus_alone_do_not_rescue_the_schedule():
    assert "a1_schedule_blown" in LAB.failures_now(all_open(a1_gpus=16384))


def test_schedule_blown_offers_only_levers_not_at_their_limit():
    """Defect class 3: at the largest batch on the fastest network the text offered both again."""
    text = _failure_text(rendered(LAB, all_open(a1_batch=lab.A1_BATCH.max, a1_fabric="eth100")))
    assert "the wait dominates" in text
    assert "global batch" not in text and "faster network" in text
    text = _failure_text(rendered(LAB, all_open(a1_fabric="ndr1")))
    assert "Raise the global batch per step" in text and "faster network" in text
    # review (class 34): the lever is named as the control, not as Act I's reflection key ("each GPU's slice")
    assert "each GPU more tokens" not in text


def test_never_pays_back_offers_only_levers_not_at_their_limit():
    a2 = lab.A2
    state = all_open(a2_price=a2["a2_price"].max, a2_years=a2["a2_years"].max)
    assert "a2_never_pays_back" not in LAB.failures_now(state)
    text = lab.payback_levers(all_open(a2_price=a2["a2_price"].max))
    assert "higher cloud price" not in text and "longer horizon" in text
    # idle power and staff alone cannot make owning pay back at the default price, so the text does not offer them
    cheapest = model.Fleet(idle_w=0, staff=0, kwh=a2["a2_kwh"].min, pue=a2["a2_pue"].min, load_w=a2["a2_load_w"].min)
    assert cheapest.breakeven_on_prem() > 1
    assert "staff" not in lab.payback_levers(all_open()) and "idle power" not in lab.payback_levers(all_open())


def test_never_pays_back_offers_each_lever_that_alone_reaches_payback():
    """Review: at $2.30/h owning never pays back (breakeven 109 %), yet no staff cost alone brings it to
    98.1 %; the text said it paid back 'only with a higher cloud price, a longer horizon or a cheaper
    purchase'. Each lever offered must reach payback alone, and the text must say when none does."""
    state = all_open(a2_price=2.3)
    assert "a2_never_pays_back" in LAB.failures_now(state)
    assert replace(lab.fleet(state), staff=0).breakeven_on_prem() == pytest.approx(0.981, abs=5e-4)
    text = lab.payback_levers(state)
    assert "less staff cost" in text and "only with" not in text
    for (name, end), words in lab.LEVER_WORDS.items():
        limit = getattr(lab.A2[name], end)
        works = replace(lab.fleet(state), **{name[3:]: limit}).breakeven_on_prem() <= 1
        assert (words in text) == (works and state[name] != limit), words
    hopeless = all_open(a2_price=1.0, a2_capex=100_000, a2_years=1)
    assert lab.payback_levers(hopeless).startswith("No single setting")


@pytest.mark.parametrize("plan,controls,fits,levers,not_levers", [
    ("reserved", {"a2_price": 3.0}, None, ["lower cloud price", "larger reserved discount"], ["utilization"]),
    ("on_prem", {}, "Reserved cloud (one-year terms) fits it", ["longer horizon", "cheaper purchase"], ["utilization"]),
    ("on_demand", {}, "Reserved cloud (one-year terms) fits it", ["lower utilization", "lower cloud price"], []),
])
def test_over_budget_offers_only_paths_and_levers_that_fit(plan, controls, fits, levers, not_levers):
    """Review (defect classes 3, 21): over budget, the text said 'Pick another path, or change the
    utilization' for a reservation (whose bill ignores utilization; at $3/h no path fits) and for
    on-prem (utilization moves $66.2M by $3M against a $40M budget)."""
    state = all_open(a2_plan=plan, **controls)
    assert "a2_over_budget" in LAB.failures_now(state)
    html = rendered(LAB, state)
    start = html.index('data-failure="a2_over_budget"')
    text = html[start:html.index("</div>", start)]
    assert "Pick another path" not in text
    assert (fits in text) if fits else "No path fits this budget" in text
    assert all(w in text for w in levers) and not any(w in text for w in not_levers)


# ---- context presets, charts and the ledger record ----------------------------------------


def test_context_preset_moves_fabric_and_utilization():
    state = LAB.parse({"controls": {"context": "startup"}}, changed="context")
    assert state["a1_fabric"] == "ndr1" and state["a2_utilization"] == pytest.approx(0.4)
    assert lab.Run(lab.S.global_batch_tokens, "ndr1").speedup(1024) < lab.act1_truth() / 3
    state = LAB.parse({"controls": {"context": "startup", "a2_utilization": 0.9}}, changed="a2_utilization")
    assert state["a2_utilization"] == pytest.approx(0.9)


def test_charts_render_with_their_tables():
    html = rendered(LAB, all_open())
    assert 'data-chart="a1_speedup"' in html and 'data-chart="a2_tco"' in html
    assert html.count("Data table") == 2


def test_record_holds_answers_results_and_failures():
    rec = record(LAB, all_open())
    assert rec["complete"] is True
    assert all(a["correct"] for a in rec["answers"].values())
    assert rec["results"]["a1_speedup"] == pytest.approx(lab.act1_truth())
    assert rec["results"]["a2_breakeven_reserved"] == pytest.approx(0.65)
    assert set(rec["failures_active"]) == {f.name for f in lab.FAILURES}


# ---- corrections found in review ---------------------------------


def _failure_text(html):
    start = html.index('data-failure="a1_schedule_blown"')
    return html[start:html.index("</div>", start)]


@pytest.mark.parametrize("gpus,dominates", [(1, "Compute dominates"), (64, "Compute dominates"),
                                            (1024, "the wait dominates")])
def test_schedule_blown_says_what_dominates_the_step(gpus, dominates):
    """The same advice at 1 GPU (no all-reduce) and at 64 GPUs (a quarter of the step)."""
    text = _failure_text(rendered(LAB, all_open(a1_gpus=gpus)))
    assert dominates in text
    assert "0 ns" not in text
    if gpus < 1024:
        assert "add GPUs" in text and "barely help" not in text
    if gpus == 1:
        assert "no all-reduce" in text


def test_the_sequence_length_is_stated_where_tokens_per_gpu_are_shown():
    """256 tokens per GPU is less than one 8K sequence per rank; the page says so."""
    html = rendered(LAB, all_open())
    assert "32 sequences of 8,192 tokens are fewer than the 1,024 GPUs" in html
    assert "1/32 of an 8,192-token sequence" in html
    assert lab.sequence_note(16384) == "2 sequences of 8,192 tokens"


def test_an_impossible_breakeven_is_not_read_as_a_threshold():
    """The page's 'owning beats on-demand above 120 %'."""
    html = rendered(LAB, all_open())
    assert lab.SCENARIO_FLEET.breakeven_on_prem() > 1
    assert "Owning beats on-demand above" not in html and "beyond full use: owning never wins" in html


def test_one_gpus_share_of_a_dgx_reads_the_same_everywhere():
    """1.27 kW on the page against 1.28 kW elsewhere for the same 10.2 kW ÷ 8."""
    html = rendered(LAB, all_open())
    assert "1.27 kW" not in html and html.count("1.28 kW") >= 2


def test_charts_keep_their_end_ticks_at_375_px():
    """The page's '16,384' dropped at 375 px; the cost chart lost '100 %' and put '$0' on '0 %'."""
    import json
    import re
    html = rendered(LAB, all_open())
    specs = {name: json.loads(spec.replace("<\\/", "</")) for name, spec in
             re.findall(r'data-chart="(\w+)".*?class="pl-chart__spec">(.*?)</script>', html, re.S)}
    x = specs["a1_speedup"]["layout"]["xaxis"]
    assert x["ticktext"][-1] == "16,384" and len(x["tickvals"]) <= 4 and x["tickangle"] == 0
    tco = specs["a2_tco"]["layout"]
    assert tco["xaxis"]["range"][0] < 0 < 1 < tco["xaxis"]["range"][1] and tco["xaxis"]["tickvals"][-1] == 1
    assert tco["margin"]["r"] >= 24 and specs["a1_speedup"]["layout"]["margin"]["r"] >= 24


def test_the_slack_the_fleet_and_the_dgx_in_the_text_follow_their_sources(monkeypatch):
    """The failure title reads S.schedule_slack, the reflection's smaller fleet S.small_fleet_gpus, and one
    GPU's share of a DGX and the rails per node the registry: the lab reloaded on other values says so."""
    html = rendered(LAB, all_open())
    assert "Schedule blown: the run takes more than 2× the plan" in html
    assert "(1/8 of a DGX H100's maximum)" in html and "Default: 1/8 of a DGX H100" in html
    assert lab.fabric_label("ndr8").startswith("8 × NDR 400G rails")
    assert lab.act1_facts("frontier")["gpus_small"] == "128"
    monkeypatch.setattr(C, "DGX_H100_GPUS_PER_NODE", 10.0)   # keeps 1/n of the DGX's power on the slider
    monkeypatch.setattr(C, "DGX_H100_NICS", 4.0)
    try:
        importlib.reload(model)
        monkeypatch.setattr(model, "S", replace(model.S, schedule_slack=3.0, small_fleet_gpus=256.0))
        importlib.reload(lab)
        html = rendered(lab.LAB, answered(lab.LAB, {}, through="a2_reflect", controls={"a1_gpus": 16}))
        assert "Schedule blown: the run takes more than 3× the plan" in html
        assert "(1/10 of a DGX H100's maximum)" in html and "Default: 1/10 of a DGX H100" in html
        assert lab.fabric_label("ndr8").startswith("4 × NDR 400G rails") and lab.FABRICS["hdr8"][1] == 4
        assert lab.act1_facts("frontier")["gpus_small"] == "256"
    finally:
        monkeypatch.undo()
        importlib.reload(model)
        importlib.reload(lab)


def test_one_gpu_reads_in_the_singular_and_linear_speedup_as_a_count():
    """Review (format): '1 GPU are too few' at one GPU; the linear speedup of 16,384 GPUs read '16,380×'."""
    text = _failure_text(rendered(LAB, all_open(a1_gpus=1)))
    assert "1 GPU is too few" in text
    html = rendered(LAB, all_open(a1_gpus=16384))
    assert "ideal 16,384×" in html and "16,380×" not in html


def test_the_page_before_the_locks_names_no_reflection_key():
    """Review (defect classes 6, 24, 31): the Connections line said tokens per GPU 'set the all-reduce
    term' (they set the compute term; V2-02's invariant is the ratio) and pointed at Act I's key; the
    equations row 'On-prem at zero utilization' paraphrased Act II's key (the fixed part); the Act II
    reflection's prompt ('On demand, a useful GPU-hour always costs the list price') struck out its own
    option D, which said the on-demand hour gets cheaper with use."""
    html = rendered(LAB, answered(LAB, {}, through="a2_predict"))
    assert "tokens per GPU and NICs per node set the all-reduce" not in html
    assert "On-prem at zero utilization" not in html
    d = lab.ACT2_REFLECTION.options[3].text
    assert "on-demand" not in d.lower() and "PUE" in d


def test_the_start_ups_nodes_are_not_called_dgx_and_the_dgx_power_is_its_maximum():
    """Review (defect classes 37, 38): a DGX H100 has eight ConnectX-7 NICs, so '128 DGX nodes, 1 × NDR
    400G NIC each' named a part the start-up's nodes do not have; the datasheet's 10.2 kW is the system's
    maximum power, not its draw at load (NVIDIA DGX H100 datasheet)."""
    prompt = worded(lab.ACT1_PREDICTION.prompt, LAB.terms("startup"))
    assert "DGX" not in prompt and "nodes of 8" in prompt
    html = rendered(LAB, all_open())
    assert "10.2 kW maximum" in html and "DGX H100's maximum" in html


def test_every_option_feedback_renders_in_each_context():
    """Every option's feedback, locked in each organisation, fills every field and quotes that
    organisation's numbers (the start-up's 6.1 s all-reduce and $6.03/h at 40 % busy)."""
    for context in LAB.context.values:
        for i, q in enumerate(LAB.questions):
            for o in q.options:
                answers = {p.id: {"choice": p.answer(context), "locked_at": "2026-01-01T00:00:00Z"}
                           for p in LAB.questions[:i]}
                answers[q.id] = {"choice": o.letter, "locked_at": "2026-01-01T00:00:00Z"}
                html = rendered(LAB, LAB.parse({"answers": answers, "controls": {"context": context}}, "context"))
                start = html.index(f'data-feedback="{q.id}"')
                text = html[start:start + 2500]
                assert "{" not in text.split("</section>")[0], (context, q.id, o.letter)
                if context == "startup" and q.id == "a1_reflect":
                    assert "6.1 s" in text
                if context == "startup" and q.id == "a2_reflect":
                    assert "$6.03/h" in text and "40 %" in text


def test_the_budget_follows_the_horizon_and_the_page_says_so():
    """Review (defect class 8): the budget grew with the horizon ($80M at 6 years) without a word."""
    assert lab.fleet(all_open(a2_years=6)).budget() == pytest.approx(80e6)
    assert "the budget scales with it" in rendered(LAB, all_open())
