"""V1-13 The Tail Latency Trap: golden vectors (handbook/labs/v1_13.md §4, corrected where a public source
says otherwise) through the lab's own models, answer keys proven by the physics in every context,
the feedback of every option quoting the cards of its context, sampled percentiles against closed
forms, failure states reached and left, the one-device contexts, edges, and the ledger record."""

from __future__ import annotations

import math
import re

import pytest

from pylabs import ledger, ledger_view
from pylabs.framework import charts as ch
from pylabs.framework.render import record
from pylabs.labs.vol1 import v1_13 as lab
from pylabs.labs.vol1 import v1_13_model as model
from pylabs.physics import queueing as q
from tests.labs.helpers import LOCKED_AT, card, feedback, metric, rendered
from tests.labs.reading import page_text

LAB = lab.LAB
CONTEXTS = LAB.context.values
DEVICES = ("edge", "mobile")


def locked(context: str = "cloud", choices: dict | None = None, through: str = "a2_reflect", **controls):
    """Every question up to ``through`` locked (the key of ``context`` unless ``choices`` says
    otherwise), in ``context`` with its presets applied and then ``controls``."""
    answers = {}
    for question in LAB.questions:
        answers[question.id] = {"choice": (choices or {}).get(question.id, question.answer(context)),
                                "locked_at": LOCKED_AT}
        if question.id == through:
            break
    base = LAB.parse({"controls": {"context": context}}, "context").controls
    return LAB.parse({"answers": answers, "controls": {**base, **controls}})


# ---- handbook/labs/v1_13.md §4 golden vectors ----------------------------------------------------


def test_section4_act1_scenario_mm1():
    """handbook/labs/v1_13.md §4: M/M/1 λ = 78, μ = 100: W 45.455 ms; P99 209.33 ms; L 3.545; P(T > 100 ms) 0.1108."""
    srv = model.scenario_server("cloud")
    assert srv.arrival_per_s == pytest.approx(78, rel=1e-12)
    assert srv.mean_s * 1e3 == pytest.approx(45.455, abs=5e-4)
    assert srv.percentile_s(0.99) * 1e3 == pytest.approx(209.33, abs=5e-3)
    assert q.mean_queue_length(srv.arrival_per_s, srv.mean_s) == pytest.approx(3.545, abs=5e-4)
    assert srv.exceed(0.1) == pytest.approx(0.1108, abs=5e-5)


def test_section4_act2_backlog_and_drain():
    """handbook/labs/v1_13.md §4: c0 = 30, lag 60 s, λ = 10,000: backlog 528,000; drain at c = 300: 264 s."""
    assert model.scenario_spike("cloud").backlog == pytest.approx(528_000)
    assert lab.spike(locked(a2_replicas=300)).drain_s == pytest.approx(264)


def test_the_spike_s_wait_is_served_by_the_new_fleet_not_the_old():
    """Correcting the spec's golden row "wait 440 s" (Q / c₀μ, the old capacity):
    first in, first out, the 528,000 requests ahead of a request arriving as the lag ends are served
    by the fleet from then on, at c₁μ: 220 s for the doubled fleet and 22 s at 600 replicas, where
    the page also shows the drain of 37.7 s. Source: Newell 1982, *Applications of Queueing Theory*,
    ch. 1-2 (the FIFO wait is the horizontal distance between the cumulative arrival and departure
    curves); a discrete-event FIFO M/M/c simulation gives 219 s and 22.2 s. The key (D) holds."""
    assert model.act2_truth("cloud") == pytest.approx(220, rel=1e-12)
    html = rendered(LAB, locked())
    assert metric(html, "a2_lag_wait_s") == pytest.approx(220) and card(html, "a2_lag_wait_s") == "3.67 min"
    wide = rendered(LAB, locked(a2_replicas=600))
    assert card(wide, "a2_lag_wait_s") == "22 s" and card(wide, "a2_drain_s") == "37.7 s"
    assert "7.33 min" not in page_text(html) and "440 s" not in page_text(html)


def test_section4_minimum_replicas_251_and_26():
    assert model.min_replicas(0.025, 10_000, 0.2) == 251
    assert model.min_replicas(0.025, 1000, 0.2) == 26


@pytest.mark.parametrize("replicas,p99_ms", [(251, 164.00), (260, 116.27), (300, 115.13)])
def test_section4_p99_once_scaled(replicas, p99_ms):
    html = rendered(LAB, locked(a2_replicas=replicas))
    assert metric(html, "a2_p99_s") * 1e3 == pytest.approx(p99_ms, abs=5e-3)


def test_section4_250_replicas_are_unstable():
    state = locked(a2_replicas=250)
    assert lab.spike(state).rho_after == pytest.approx(1.0)
    assert "a2_unstable" in LAB.failures_now(state)


# ---- sampled draws against the closed forms --------------------------------------------------------


@pytest.mark.parametrize("service,rho", [(0.01, 0.78), (0.001, 0.05), (0.1, 0.99), (0.025, 0.5)])
def test_histogram_percentiles_match_the_closed_form(service, rho):
    srv = model.Server(service, rho)
    samples = srv.sample_ms()
    assert len(samples) == model.S.draws // model.S.thin
    for k in (50, 90, 99):
        assert ch.percentile(samples, k) / 1e3 == pytest.approx(srv.percentile_s(k / 100), rel=0.03)


def test_sampled_p99_metric_is_the_histogram_line():
    html = rendered(LAB, locked())
    line = re.search(r"P99 (?:·|\\u00b7) ([\d.]+) ms", html).group(1)
    assert lab.fmt(metric(html, "a1_p99_sampled"), "ms") == f"{line} ms"


# ---- answer keys, in every context -------------------------------------------------------------------


KEYS = {"cloud": ("B", "C", "D", "A"), "edge": ("B", "C", "C", "A"), "mobile": ("B", "C", "C", "A")}


@pytest.mark.parametrize("context", CONTEXTS)
def test_every_key_is_proven_by_the_physics_in_its_context(context):
    """P99 ÷ mean is ln 100 in every M/M/1; the spike's wait is the backlog served first in, first
    out: 528,000 ÷ 2,400/s = 220 s (cloud), 1,800 ÷ 50/s = 36 s (edge), 1,200 ÷ 40/s = 30 s (mobile)."""
    assert tuple(question.answer(context) for question in LAB.questions) == KEYS[context]
    assert lab.ACT1_PREDICTION.value_in(context) == pytest.approx(math.log(100), rel=1e-12)
    wait = {"cloud": 528_000 / 2_400, "edge": 1_800 / 50, "mobile": 1_200 / 40}[context]
    assert lab.ACT2_PREDICTION.value_in(context) == pytest.approx(wait, rel=1e-12)
    for p in (lab.ACT1_PREDICTION, lab.ACT2_PREDICTION):
        value = p.value_in(context)
        assert [o.letter for o in p.options if o.holds(value)] == [p.answer(context)]


def test_the_target_letters_in_the_default_context():
    assert tuple(question.answer() for question in LAB.questions) == ("B", "C", "D", "A")


def test_act2_s_reflection_holds_for_every_setting_at_the_slowest_service():
    """No replica count meets the SLO at the slowest service (its own P99 is ln 100 × 50 ms = 230 ms),
    and one device at the lightest load the planner offers misses it too."""
    slow = model.S.slow_service_s
    assert lab.A2_SERVICE.max == slow and math.log(100) * slow > model.S.act2_slo_s
    assert math.isinf(model.min_replicas(slow, lab.A2_SPIKE.min, model.S.act2_slo_s))
    assert q.mm1_sojourn_percentile_s(0.99, lab.A2_SPIKE.min, slow) > model.S.act2_slo_s


# ---- feedback in the context locked in -----------------------------------------------------


def test_mobile_act1_feedback_quotes_the_mobile_cards_not_the_cloud_s():
    """V1-13 in Mobile showed "209 ms" in the feedback above a card of 523 ms."""
    html = rendered(LAB, locked("mobile", {"a1_predict": "A"}, through="a1_predict"))
    said = feedback(html, "a1_predict")
    assert card(html, "a1_p99_s") == "523 ms" and "523 ms" in said
    assert "209 ms" not in page_text(html)


@pytest.mark.parametrize("context", CONTEXTS)
def test_act2_feedback_quotes_the_cards_of_its_context(context):
    html = rendered(LAB, locked(context, {"a2_predict": "A"}, through="a2_predict"))
    said = feedback(html, "a2_predict")
    for name in ("a2_lag_wait_s", "a2_backlog"):
        assert card(html, name) in said, name


def test_wrong_act1_prediction_says_by_how_much():
    said = feedback(rendered(LAB, locked(choices={"a1_predict": "A"}, through="a1_predict")), "a1_predict")
    assert "4.61×" in said and "a factor of 1.54 above the top of your range (3×)" in said


def test_device_feedback_speaks_of_one_device_in_the_singular():
    said = feedback(rendered(LAB, locked("edge", {"a2_predict": "B"}, through="a2_predict")), "a2_predict")
    assert "the Orin NX alone serves at 50 requests/s" in said and "replicas" not in said


# ---- nothing given away before its question is locked ---------------------------------------------


@pytest.mark.parametrize("context", CONTEXTS)
def test_the_page_states_no_answer_before_its_lock(context):
    def said(secret: str, text: str) -> bool:
        return re.search(rf"(?<![\d.,]){re.escape(secret)}(?![\w]|[.,]\d)", text) is not None

    before_a1 = page_text(rendered(LAB, LAB.parse({"controls": {"context": context}}, "context")))
    srv = model.scenario_server(context)
    for secret in ("4.61×", "ln 100", lab.fmt(srv.percentile_s(0.99), "ms"), "11.1 %"):
        assert not said(secret, before_a1), secret
    before_a2 = page_text(rendered(LAB, locked(context, through="a1_reflect"))).split("Act II")[1]
    sp = model.scenario_spike(context)
    for secret in (lab.fmt(sp.lag_end_wait_s, "s"), lab.fmt(sp.backlog, "int"), "251"):
        assert not said(secret, before_a2), secret


# ---- failure states --------------------------------------------------------------------------------


def test_act2_unstable_reached_and_left_with_replicas_or_admission():
    assert "a2_unstable" in LAB.failures_now(locked())
    assert "a2_unstable" not in LAB.failures_now(locked(a2_replicas=251))
    assert "a2_unstable" not in LAB.failures_now(locked(a2_admission=True))


def test_act2_slo_violated_reached_with_slow_service_and_left():
    slow = locked(a2_replicas=600, a2_service_s=0.05)
    assert lab.spike(slow).rho_after < 1
    assert "a2_slo_violated" in LAB.failures_now(slow)
    assert "a2_slo_violated" not in LAB.failures_now(locked(a2_replicas=600, a2_service_s=0.025))


@pytest.mark.parametrize("context", DEVICES)
def test_one_device_reaches_and_leaves_its_failures(context):
    state = locked(context)
    assert {"a2_unstable", "a2_spike_backlog"} <= LAB.failures_now(state)
    fast = locked(context, a2_service_s=0.008)
    assert not {"a2_unstable", "a2_slo_violated", "a2_spike_backlog"} & LAB.failures_now(fast)
    shed = locked(context, a2_admission=True)
    assert not {"a2_unstable", "a2_spike_backlog"} & LAB.failures_now(shed)
    assert "a2_slo_violated" in LAB.failures_now(shed)


def test_backlog_is_a_warning_and_instability_danger():
    html = rendered(LAB, locked())
    backlog = html.split('data-failure="a2_spike_backlog"')[0].rsplit("<div", 1)[1]
    unstable = html.split('data-failure="a2_unstable"')[0].rsplit("<div", 1)[1]
    assert "pl-callout--warn" in backlog and "pl-callout--danger" in unstable


# ---- the contexts -------------------------------------------------------------------------------------


@pytest.mark.parametrize("context", CONTEXTS)
def test_each_context_presets_its_scenario(context):
    setting = model.SETTINGS[context]
    state = LAB.parse({"controls": {"context": context}}, changed="context")
    assert (state["a1_service_s"], state["a1_slo_s"]) == (setting.service_s, setting.slo_s)
    assert (state["a2_spike_rps"], state["a2_service_s"]) == (setting.spike_rps, setting.a2_service_s)
    mean = model.scenario_server(context).mean_s
    assert mean < setting.slo_s / 2, "the stakeholder's mean is under half the target in every context"


@pytest.mark.parametrize("context", DEVICES)
def test_one_device_disables_the_fleet_controls_and_shows_its_service_curve(context):
    html = rendered(LAB, locked(context))
    assert html.count("Not used here") == 2
    assert 'data-chart="a2_service_curve"' in html and 'data-chart="a2_replicas_curve"' not in html
    sp = lab.spike(locked(context, a2_replicas=600, a2_lag_s=0))
    assert (sp.servers_before, sp.servers_after, sp.lag_s) == (1, 1, model.S.lag_s)


def test_mobile_shows_the_slowest_service_that_meets_the_slo():
    """The M/M/1 percentile (not Little's law, handbook/labs/v1_13.md §5): μ ≥ λ + ln 100 / SLO."""
    html = rendered(LAB, locked("mobile"))
    slowest = metric(html, "a2_max_service_s")
    assert q.mm1_sojourn_percentile_s(0.99, 60, slowest) == pytest.approx(model.S.act2_slo_s, rel=1e-12)
    assert 'data-metric="a2_min_replicas"' not in html


def test_tiny_is_explained_not_offered():
    assert "tiny" not in CONTEXTS and "TinyML" in LAB.track_notes["tiny"] and "Cloud" in LAB.track_notes["tiny"]


# ---- numbers a teacher would sign -----------------------------------------------------------


def test_tiny_shares_and_zero_times_read_as_a_textbook_prints_them():
    """The page's "0.0000000279 %" and "0 ns" are gone: a tiny share reads "< 0.001 %", a wait of
    nothing "0 s"."""
    light = page_text(rendered(LAB, locked(a1_service_s=0.001, a1_rho=0.05, a1_slo_s=0.02)))
    assert "Requests slower than the SLO < 0.001 %" in light
    calm = rendered(LAB, locked(a2_replicas=600, a2_lag_s=0))
    assert card(calm, "a2_lag_wait_s") == "0 s" and card(calm, "a2_drain_s") == "0 s"
    assert "Erlang C < 0.001 %" in page_text(calm)
    for text in (light, page_text(calm)):
        assert "0 ns" not in text and "0.0000" not in text


def test_a_queue_that_grows_only_after_the_lag_is_not_called_empty():
    html = rendered(LAB, locked(a2_replicas=20, a2_lag_s=0))
    summary = page_text(html.split('data-chart="a2_backlog"')[1])
    assert "grows without end" in summary and "stays empty" not in summary


def test_unstable_p99_reads_infinite_with_its_reason():
    html = rendered(LAB, locked())
    assert metric(html, "a2_p99_s") == math.inf and "unstable: the queue grows without end" in html


# ---- the ledger record --------------------------------------------------------------------------------


def test_record_holds_the_spec_ledger_fields():
    """handbook/labs/v1_13.md §2 ledger: lambda_rps, mu_rps, rho, p99_ms, replicas, autoscale_lag_s, backlog_req,
    slo_met."""
    rec = record(LAB, locked(choices={"a1_predict": "A"}, a2_replicas=300, a2_lag_s=0))
    r = rec["results"]
    assert r["lambda_rps"] == 10_000 and r["mu_rps"] == pytest.approx(40) and r["replicas"] == 300
    assert r["rho"] == pytest.approx(10_000 * 0.025 / 300)
    assert r["p99_ms"] == pytest.approx(115.13, abs=5e-3) and r["autoscale_lag_s"] == 0
    assert r["backlog_req"] == 0 and r["slo_met"] is True
    assert r["a1_p99_ms"] == pytest.approx(209.33, abs=5e-3)
    assert rec["answers"]["a1_predict"]["correct"] is False
    unstable = record(LAB, locked())["results"]
    assert unstable["p99_ms"] is None and unstable["slo_met"] is False and unstable["backlog_req"] == 528_000
    assert record(LAB, locked("mobile"))["results"]["autoscale_lag_s"] is None


def test_the_ledger_page_labels_the_record_once_with_its_act():
    """V1-13's record read "Act I · Act I P99 (ms)" on the ledger page."""
    doc = ledger.commit(ledger.empty(), "v1_13-attempt", record(LAB, locked()), LOCKED_AT)
    text = page_text(ledger_view.render(ledger.dumps(doc)))
    assert "Act I · P99 time in system (ms) 209" in text and "Act I · Act I" not in text
    assert "SLO met throughout no" in text


# ---- independent review (handbook/principles.md) ------------------------------------------------------


def test_act2_ranges_part_at_the_lag_where_the_claims_part():
    """Review: C says the backlog ahead "is served faster than it built", D that it "takes longer to
    serve than to build". With the lag τ the prompt names, the wait is Q/(c₁μ) = τ·(λ − c₀μ)/(c₁μ),
    so the claims part exactly at a wait of τ = 1 min; a range C up to 2 min held waits of 60-120 s
    for which its own claim was false."""
    c, d = lab.ACT2_PREDICTION.option("C"), lab.ACT2_PREDICTION.option("D")
    assert c.high == d.low == model.S.lag_s
    for context in CONTEXTS:
        sp = model.scenario_spike(context)
        built, served = sp.arrival_per_s - sp.servers_before / sp.service_s, sp.servers_after / sp.service_s
        letter = lab.ACT2_PREDICTION.answer(context)
        assert letter == ("C" if served > built else "D")
        assert (sp.lag_end_wait_s < sp.lag_s) == (served > built)


def test_act2_reflection_key_states_the_service_s_own_tail_as_it_is():
    """Review: an exponential 50 ms service outlasts a 200 ms SLO with probability e^(−4) = 1.83 %,
    not "one request in a hundred"; the key says over 1 % and its feedback gives the share."""
    key = lab.ACT2_REFLECTION.option("A")
    assert "one request in a hundred" not in key.text and "1 %" in key.text
    share = math.exp(-model.S.act2_slo_s / model.S.slow_service_s)
    assert share == pytest.approx(0.0183, abs=5e-5) and share > 0.01
    html = rendered(LAB, locked(choices={"a2_reflect": "B"}))
    assert "1.83 %" in page_text(html.split('data-feedback="a2_reflect"')[1])


@pytest.mark.parametrize("context", DEVICES)
def test_one_device_reflection_feedback_offers_no_replicas(context):
    """Review: the Act II reflection's feedback offered "more replicas" and "ample capacity" on one
    device that has neither."""
    for letter in "BD":
        said = feedback(rendered(LAB, locked(context, {"a2_reflect": letter})), "a2_reflect")
        assert "replica" not in said and "ample capacity" not in said, letter


@pytest.mark.parametrize("context", DEVICES)
def test_one_device_feedback_does_not_offer_admission_control_as_meeting_the_slo(context):
    """Review: "A P99 within 200 ms needs service under 9.71 ms, or admission control" was false:
    admission control holds one device at 90 % load, where the P99 is ln 100 · S / 0.1 = 921 ms
    (edge) or 1.15 s (mobile)."""
    shed = locked(context, a2_admission=True)
    p99 = lab.spike(shed).p99_after_s()
    assert p99 > model.S.act2_slo_s
    said = feedback(rendered(LAB, locked(context, {"a2_predict": "D"}, through="a2_predict")), "a2_predict")
    assert "or admission control" not in said and lab.fmt(p99, "ms") in said


@pytest.mark.parametrize("context", DEVICES)
def test_one_device_text_speaks_of_the_device_and_the_scenario_as_assumed(context):
    """Review: on one device the failure read "the servers complete at most", the callout said that
    admission control "refuses work it cannot finish in time" (it refuses work beyond 90 % of the
    capacity) and quoted the scenario's burst as if it were the slider's."""
    text = page_text(rendered(LAB, locked(context, a2_spike_rps=1_000)))
    assert "the servers complete" not in text and "cannot finish in time" not in text
    assert "beyond 90 % of its capacity" in text and "The scenario's" in text


@pytest.mark.parametrize("context", DEVICES)
@pytest.mark.parametrize("spike_rps", [10, 80, 1_000, 20_000])
def test_slowest_service_card_meets_the_slo_in_the_lab_s_own_model_with_admission(context, spike_rps):
    """Review: with admission control on, the card solved μ ≥ λ + ln 100/SLO at the rate admitted
    at the current service time (16.9 ms at 36 requests/s), but a slower service admits more: at
    that service the lab's own P99 was 778 ms. The card now gives the service at which the P99
    that the lab computes, with admission, equals the SLO."""
    state = locked(context, a2_admission=True, a2_spike_rps=spike_rps)
    slowest = metric(rendered(LAB, state), "a2_max_service_s")
    at = model.spike_of(context, spike_rps, slowest, 1, model.S.lag_s, True)   # off the slider's 1 ms steps
    assert at.p99_after_s() == pytest.approx(model.S.act2_slo_s, rel=1e-9)


@pytest.mark.parametrize("context", CONTEXTS)
def test_act2_charts_with_admission_follow_the_lab_s_own_model(context):
    """Review: with admission control the charts drew the P99 at the rate admitted at the current
    setting, so other points (and "stable only with service under ...") contradicted the lab's own
    model, where admission keeps every setting stable. Each point is now the P99 the cards show at
    that setting."""
    html = rendered(LAB, locked(context, a2_admission=True))
    name = "a2_replicas_curve" if context == "cloud" else "a2_service_curve"
    chart = html.split(f'data-chart="{name}"')[1]
    assert "unstable" not in page_text(chart).split("Data table")[0] and "stable only" not in page_text(chart)
    if context == "cloud":   # 10,000 requests/s shed below 10,000 × 25 ms / 90 % = 277.8 replicas
        assert "below 278 replicas it sheds" in page_text(chart)
    rows = re.findall(r"<tr><td>([^<]+)</td><td>([^<]+)</td></tr>", chart.split("</table>")[0])
    assert rows
    setting = model.SETTINGS[context]
    for x, p99 in rows:
        replicas, service = ((int(x.replace(",", "")), setting.a2_service_s) if context == "cloud"
                             else (1, float(x.split()[0]) / 1e3))
        sp = model.spike_of(context, setting.spike_rps, service, replicas, model.S.lag_s, True)
        assert lab.fmt(sp.p99_after_s(), "ms") == p99, (x, p99)


@pytest.mark.parametrize("context", DEVICES)
def test_fleet_controls_say_they_are_the_cloud_s_before_the_lock(context):
    """Review: before Act II's lock the dimmed controls of a one-device context read "30 serve until
    the lag ends, then this many" and the Kubernetes help without saying they apply to the cloud
    (the framework shows an override's reason only once the instruments unlock)."""
    text = page_text(rendered(LAB, locked(context, through="a1_reflect")))
    assert "Cloud only" in text.split("Spike planner")[1].split("Replicas once")[1][:80]


def test_the_ledger_says_when_one_device_s_backlog_is_counted():
    """Review: a Mobile record read "Requests queued during the lag 1,200" beside "Autoscaler lag —"."""
    doc = ledger.commit(ledger.empty(), "v1_13-attempt", record(LAB, locked("mobile")), LOCKED_AT)
    text = page_text(ledger_view.render(ledger.dumps(doc)))
    assert "Requests queued as the lag ends (one device: 1 min in) 1,200" in text


@pytest.mark.parametrize("context", CONTEXTS)
def test_the_key_is_neither_the_longest_nor_the_shortest_option_by_habit(context):
    """Review: the keys of a1_predict, a1_reflect and a2_reflect were each the shortest option, so
    "pick the shortest" scored three of four; at most one key may be the strictly shortest, and at
    most one the strictly longest."""
    terms = LAB.terms(context)
    shortest = longest = 0
    for question in LAB.questions:
        sizes = {o.letter: len(question.text_of(o.letter, terms)) for o in question.options}
        key, others = sizes[question.answer(context)], [v for k, v in sizes.items() if k != question.answer(context)]
        shortest += key < min(others)
        longest += key > max(others)
    assert shortest <= 1 and longest <= 1


@pytest.mark.parametrize("controls", [{}, {"a2_admission": True}])
def test_the_queue_chart_never_draws_negative_requests(controls):
    """Review: with admission control the empty queue was drawn on Plotly's default axis of −1 to 1
    requests queued."""
    import json
    html = rendered(LAB, locked("edge", **controls))
    spec = html.split('data-chart="a2_backlog"')[1].split("</script>")[0]
    layout = json.loads(spec[spec.index("{"):spec.rindex("}") + 1])["layout"]["yaxis"]
    assert layout.get("rangemode") == "tozero" or layout.get("range") == [0, 1]


# ---- review: failure texts offer only the levers that can still clear them ----------------------


def failure_text(html: str, name: str) -> str:
    seg = html.split(f'data-failure="{name}"')[1]
    return page_text("<x " + seg[:seg.index("</div>")])


def test_act1_failure_offers_the_load_only_where_a_lighter_load_meets_the_target():
    """Review: "Lower the load or shorten the service time" was offered at every state, also at
    5 % load (the slider's end) with a 100 ms service whose own P99 (ln 100 · S = 461 ms) is over
    a 20 ms target, where no load meets it, and "although the mean is 105 ms" when the mean was
    itself over the target."""
    idle = failure_text(rendered(LAB, locked(a1_service_s=0.1, a1_rho=0.05, a1_slo_s=0.02)), "a1_slo_missed")
    assert "Lower the load" not in idle and "although" not in idle
    assert "even the mean, 105 ms, is over it" in idle and "Shorten the service time under 4.13 ms" in idle
    fastest = failure_text(rendered(LAB, locked(a1_service_s=0.001, a1_rho=0.99, a1_slo_s=0.02)), "a1_slo_missed")
    assert "shorten" not in fastest.lower() and "Lower the load below ρ = 77 %" in fastest
    scenario = failure_text(rendered(LAB, locked()), "a1_slo_missed")
    assert "Lower the load below ρ = 53.9 % or shorten the service time under 4.78 ms" in scenario


def test_act2_failures_offer_no_lever_already_at_its_limit():
    """Review: at 600 replicas (the slider's end) the unstable fleet was told to "Add replicas",
    and a phone already at 5 ms (the fastest service offered) to "Serve faster"."""
    fleet = failure_text(rendered(LAB, locked(a2_replicas=600, a2_service_s=0.05, a2_spike_rps=20_000)), "a2_unstable")
    assert "Add replicas" not in fleet and "Serve faster or turn on admission control" in fleet
    phone = rendered(LAB, locked("mobile", a2_service_s=0.005, a2_spike_rps=20_000))
    assert failure_text(phone, "a2_unstable").strip().endswith("Turn on admission control.")
    assert "Admission control avoids it" in failure_text(phone, "a2_spike_backlog")
    slow = failure_text(rendered(LAB, locked("mobile", a2_service_s=0.005, a2_spike_rps=190)), "a2_slo_violated")
    assert "Serve faster" not in slow and "only a lighter burst" in slow


def test_slo_violated_in_the_cloud_names_the_replicas_that_meet_it():
    """Review: at 40 ms and 401 replicas the P99 is 263 ms, and 403 replicas meet the SLO, but the
    failure offered only "Serve faster"; at 50 ms, whose own P99 is 230 ms, no count meets it."""
    few = failure_text(rendered(LAB, locked(a2_service_s=0.04, a2_replicas=401)), "a2_slo_violated")
    assert "Add replicas (403 meet it, serving all)" in few
    assert q.min_servers_for_sojourn(10_000, 0.04, 0.2) == 403
    slow = failure_text(rendered(LAB, locked(a2_service_s=0.05, a2_replicas=600)), "a2_slo_violated")
    assert "No number of replicas meets it" in slow and "230 ms" in slow


def test_fewest_replicas_reads_none_when_no_count_meets_the_slo():
    """Review: the card read "∞" (infinitely many would do) at 50 ms service, where any number of
    replicas leaves the service's own P99, ln 100 × 50 ms = 230 ms, over the 200 ms SLO."""
    html = rendered(LAB, locked(a2_service_s=0.05, a2_replicas=600))
    assert card(html, "a2_min_replicas") == "none"
    assert "the service alone has a P99 of ln 100 · S = 230 ms" in html
    assert card(rendered(LAB, locked()), "a2_min_replicas") == "251"


def test_the_wait_card_says_when_one_device_s_wait_is_taken():
    """Review: one device has no lag (its lag control reads "Not used here"), yet its card read
    "Queueing wait as the lag ends"."""
    assert "Queueing wait as the lag ends (one device: 1 min in) 36 s" in page_text(rendered(LAB, locked("edge")))


def test_the_service_s_own_tail_is_this_model_s_exponential_one():
    """Review: "Only faster service meets it" holds for the exponential service of this model; a
    service that varies less has a smaller tail of its own (a constant 50 ms one has a P99 of 50 ms)."""
    text = page_text(rendered(LAB, locked()))
    assert "In this model only faster service" in text and "a service whose time varied less would too" in text
    assert "ln 100 · S if exponential" in text


def test_act1_reflection_distractors_are_refuted_by_the_physics_not_by_the_model_s_terms():
    """Review: option D ("requests time out and are retried") was refuted only by "No request is
    retried in this model", so a student could strike it without the physics. D is now a belief
    about the arrivals that the physics refutes: Poisson gaps are exponential at every rate, and
    what shrinks near full load is the spare capacity μ − λ (22 → 5 requests/s from 78 % to 95 %)."""
    text = LAB.questions[1].text_of("D", LAB.terms("cloud"))
    assert "retried" not in text and "bursts" in text
    fb = feedback(rendered(LAB, locked(choices={"a1_reflect": "D"}, through="a1_reflect")), "a1_reflect")
    assert "exponential at every rate" in fb and "22 requests/s at 78 % load and 5 requests/s at 95 %" in fb
