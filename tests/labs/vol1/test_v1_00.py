"""V1-00 The Architect's Portal: answer keys proven by the physics in both media, every option's
feedback, the failure states reached, left and worded for the state, the track, and questions that test and numbers a
teacher would sign."""

from __future__ import annotations

import dataclasses
import re

import pytest

from pylabs.framework.render import record
from pylabs.labs.vol1 import v1_00 as lab
from pylabs.labs.vol1.contexts import LABELS
from pylabs.labs.vol1 import v1_00_model as model
from pylabs.physics import constants as C
from tests.labs.helpers import LOCKED_AT, answered, rendered
from tests.labs.reading import page_text

LAB = lab.LAB
DAY = 86400.0
MEDIA = ("fibre", "vacuum")


def all_open(**controls):
    return answered(LAB, {}, through="a2_reflect", controls=controls)


def locked(choices: dict[str, str], through: str, context: str = "fibre", **controls):
    """Every question up to ``through`` locked, with ``choices`` where given and the key of ``context``
    elsewhere, the lab in ``context``."""
    answers = {}
    for q in LAB.questions:
        answers[q.id] = {"choice": choices.get(q.id, q.answer(context)), "locked_at": LOCKED_AT}
        if q.id == through:
            break
    return LAB.parse({"answers": answers, "controls": {"context": context, **controls}})


def text_of(state) -> str:
    return page_text(rendered(LAB, state))


def feedback(state, qid: str) -> str:
    html = rendered(LAB, state)
    return page_text(html.split(f'data-feedback="{qid}"')[1].split("</div>")[0])


def assert_quotes(qid: str, letter: str, quoted: list[str], context: str = "fibre") -> None:
    """The feedback for ``letter``, locked in ``context``, says each of ``quoted``."""
    text = feedback(locked({qid: letter}, qid, context), qid)
    missing = [phrase for phrase in quoted if phrase not in text]
    assert not missing, f"{qid} {letter} in {context}: {missing} not in {text!r}"


# ---- Act I: the reach, in each medium ----------------------------------------------------------


def test_the_spec_golden_vectors_of_the_light_barrier():
    """handbook/labs/v1_00.md §4: 2,000 km of fibre → 19.587 ms; 5,570 km → 54.549 ms (fibre), 37.159 ms (vacuum);
    T = 10 ms with t_local 0 / 3 ms → d_max 1,021.1 / 714.8 km; 60 mph × 5 ms = 0.1341 m."""
    assert model.rtt_s(2000e3) == pytest.approx(19.587e-3, abs=5e-7)
    assert model.rtt_s(5570e3) == pytest.approx(54.549e-3, abs=5e-7)
    assert model.rtt_s(5570e3, "vacuum") == pytest.approx(37.159e-3, abs=5e-7)
    assert model.reach_m() == pytest.approx(1021.1e3, abs=50)
    assert model.reach_m(local_s=3e-3) == pytest.approx(714.8e3, abs=50)
    assert model.dep.travel_m(model.CAR_SPEED, 5e-3) == pytest.approx(0.1341, abs=5e-5)


@pytest.mark.parametrize("medium, reach_km, key", [("fibre", 1021.1, "A"), ("vacuum", 1499.0, "B")])
def test_act1_key_is_the_reach_in_the_medium_predicted_in(medium, reach_km, key):
    """The reach is c·T/(2·n_g): 1,021 km in fibre (n_g 1.468) and 1,499 km at the vacuum speed."""
    p = lab.ACT1_PREDICTION
    assert p.value_in(medium) == pytest.approx(reach_km * 1e3, abs=50)
    assert [o.letter for o in p.options if o.holds(p.value_in(medium))] == [key] and p.answer(medium) == key
    assert p.answer() == "A"  # the default context is fibre


def test_each_mistaken_belief_falls_in_its_own_range():
    """Forgetting the return trip (2,042 km) or using the vacuum speed in glass (1,499 km) lands in B,
    both together (2,998 km) in C, and "light is instant" in D."""
    p, fibre, vacuum = lab.ACT1_PREDICTION, model.speed("fibre"), model.speed("vacuum")
    budget = model.S.loop_budget_s
    beliefs = {"one way": budget * fibre, "vacuum speed": budget * vacuum / 2, "both": budget * vacuum}
    assert {k: next(o.letter for o in p.options if o.holds(v)) for k, v in beliefs.items()} == \
        {"one way": "B", "vacuum speed": "B", "both": "C"}
    assert p.options[-1].low == 10000e3


def test_the_story_gives_no_measured_round_trip_to_scale_before_the_act1_lock():
    """Review: the stakeholder's "we measure a 40 ms round trip" over 2,000 km let a student scale
    10/40 × 2,000 km = 500 km, inside the key range A, with the very belief the spec names as error 1
    (the whole 40 ms is light). The measurement now comes with the reflection, which asks about it."""
    measured = lab.fmt(model.S.measured_rtt_s, "ms")
    before = text_of(LAB.default_state()).split("Act II")[0]
    assert measured not in before
    assert measured in lab.ACT1_REFLECTION.prompt
    p = lab.ACT1_PREDICTION
    all_light = model.S.distance_m * model.S.loop_budget_s / model.S.measured_rtt_s  # 500 km
    assert p.option(p.answer()).holds(all_light)  # why it must not be on the page before the lock


def test_the_prompt_names_the_medium():
    prompts = {m: lab.ACT1_PREDICTION.prompt.format_map(LAB.terms(m)) for m in MEDIA}
    assert "optical fibre" in prompts["fibre"] and "free-space" in prompts["vacuum"]


@pytest.mark.parametrize("medium", MEDIA)
def test_act1_fixes_key_holds_in_both_media(medium):
    """handbook/labs/v1_00.md §2: Check 2 → {a closer server, on the vehicle}; light alone over 2,000 km exceeds
    10 ms in fibre (19.6 ms) and in free space (13.3 ms)."""
    assert model.rtt_s(model.S.distance_m, medium) > model.S.loop_budget_s
    assert {f for f in model.FIXES if model.fix_works(f, medium)} == {"closer", "vehicle"}
    assert model.act1_reflect_key(medium) == lab.ACT1_REFLECTION.answer() == "B"
    assert model.COMBOS["B"] == ("closer", "vehicle")


@pytest.mark.parametrize("letter, quoted", [
    ("A", ["204 km in a millisecond", "1,021 km"]),
    ("B", ["2,042 km one way", "half that, 1,021 km", "vacuum speed, with no glass, it would be 1,499 km"]),
    ("C", ["reaches only 1,021 km"]),
    ("D", ["204 km per millisecond in fibre", "within 1,021 km"])])
def test_act1_feedback_for_every_option_in_fibre(letter, quoted):
    assert_quotes("a1_predict", letter, quoted)


def test_act1_feedback_in_free_space_quotes_free_space():
    text = feedback(locked({"a1_predict": "A"}, "a1_predict", "vacuum"), "a1_predict")
    assert "1,499 km" in text and "300 km in a millisecond" in text and "in free space" in text
    assert "a factor of 1.25 above the top of your range (1,200 km)" in text
    right = feedback(locked({}, "a1_predict", "vacuum"), "a1_predict")
    assert "In fibre, slowed by its group index of 1.468, it would be 1,021 km" in right


def test_act1_reflection_feedback_quotes_the_cards():
    text = text_of(locked({"a1_reflect": "D"}, "a1_reflect"))
    assert "leave the 19.6 ms of light in place" in text and "Round trip of light alone 19.6 ms" in text
    assert "half the reach (511 km) leaves 5 ms of the 10 ms" in text


# ---- Act I: the deadline-missed failure, worded for the state -------------------------


def loop_text(**controls) -> str:
    html = rendered(LAB, locked({}, "a1_predict", **controls))
    return page_text(html.split('data-failure="a1_loop_missed"')[1].split("</div>")[0])


def test_loop_missed_blames_the_light_only_when_the_light_alone_is_late():
    """At 0 km with 20 ms of compute the page said "No faster GPU changes that: move the
    server inside 0 km, or compute on the car". It branches on RTT > deadline, as V1-02 does."""
    light = loop_text()
    assert "Light alone needs 19.6 ms for the round trip, more than the 10 ms deadline" in light
    compute = loop_text(a1_distance=0, a1_local=0.02)
    assert "Computing and queueing alone take 20 ms" in compute
    assert "0 km" not in compute and "GPU" not in compute and "Light alone" not in compute
    assert "take 10 ms, all of the 10 ms deadline" in loop_text(a1_distance=10e3, a1_local=0.01)
    both = loop_text(a1_distance=800e3, a1_local=0.005)
    assert "Light needs 7.83 ms and computing 5 ms: 12.8 ms in all" in both
    assert "the server must be within 511 km" in both
    card = rendered(LAB, locked({}, "a1_predict", a1_distance=0, a1_local=0.02))
    assert "none: computing alone uses up the deadline" in page_text(card)


# ---- Act II: the regime, and the coin cell's levers ---------------------------------------------


@pytest.mark.parametrize("medium", MEDIA)
def test_act2_key_is_the_power_ceiling_in_both_media(medium):
    """Review: the regime pick was answered by the story (the cloud broke the prompt's own privacy rule,
    a Jetson on a wrist strap is absurd, "TinyML for a wearable" is the slogan). The prediction is now
    the number that picks the regime: two AA cells (7.5 Wh) for 182.5 days allow 1.712 mW on average;
    less 9.98 µW asleep, over 0.2 % awake, the processor may draw 851.2 mW while computing: range C."""
    p = lab.ACT2_PREDICTION
    allowed = C.AA_PAIR_ENERGY_J / (182.5 * DAY)
    ceiling = (allowed - (1 - 2e-3) * 10e-6) / 2e-3
    assert p.value_in(medium) == pytest.approx(ceiling) == pytest.approx(0.85117, rel=1e-4)
    assert [o.letter for o in p.options if o.holds(p.value_in(medium))] == ["C"] and p.answer(medium) == "C"


@pytest.mark.parametrize("wh", [6.0, 7.5, 9.0])
def test_the_act2_key_holds_across_the_aa_cells_energy(wh):
    """Two alkaline AA cells hold about 7.5 Wh (2,500 mAh at 1.5 V nominal); at the light drains here makers
    rate 2,700 to 2,900 mAh but the voltage sags to about 1.2 V over the discharge (Duracell Procell's
    typical discharge table). From 6 to 9 Wh the ceiling stays in C (0.68 to 1.02 W)."""
    ceiling = model.power_ceiling_w(wh * 3600, model.S.result_s, model.S.period_s, model.S.sleep_w)
    assert lab.ACT2_PREDICTION.option("C").holds(ceiling)


def test_each_act2_belief_falls_in_its_own_range():
    """Never sleeping: the average itself, 1.71 mW (A); a microcontroller's 100 mW as the limit (B);
    "sleeping rescues a phone-class processor", 3 W (D). Each option's guess is its own belief."""
    p = lab.ACT2_PREDICTION
    beliefs = {"A": C.AA_PAIR_ENERGY_J / model.S.required_life_s, "B": C.MCU_ACTIVE_POWER_W,
               "D": C.PHONE_SUSTAINED_POWER_W}
    assert {k: next(o.letter for o in p.options if o.holds(v)) for k, v in beliefs.items()} == \
        {"A": "A", "B": "B", "D": "D"}
    assert all(p.option(k).guess == v for k, v in beliefs.items())


@pytest.mark.parametrize("medium", MEDIA)
def test_only_tinyml_meets_all_three_requirements(medium):
    """handbook/labs/v1_00.md §2: Check 3 → TinyML, on a 2×AA-class battery (1,488 days); only one regime passes, in
    either medium (the cloud region's round trip is 4.9 ms in fibre, 3.3 ms in free space). The ceiling
    separates the strap's candidates: the microcontroller under it, the phone-class and Orin NX over."""
    assert model.act2_regime(medium) == "tiny" and model.REGIMES["tiny"].name == "TinyML"
    assert [k for k, r in model.REGIMES.items() if r.meets(medium)] == ["tiny"]
    assert model.REGIMES["tiny"].life_s / DAY == pytest.approx(1488.2, abs=0.1)
    cloud = model.REGIMES["cloud"]
    assert not cloud.on_premises and cloud.response_s(medium) > model.S.result_s
    ceiling = lab.ACT2_PREDICTION.value_in(medium)
    assert {k: model.REGIMES[k].active_w <= ceiling for k in ("tiny", "mobile", "edge")} == \
        {"tiny": True, "mobile": False, "edge": False}
    assert all(model.REGIMES[k].meets(medium) == (model.REGIMES[k].active_w <= ceiling)
               for k in ("tiny", "mobile", "edge"))


@pytest.mark.parametrize("mcu_w", [0.05, 0.1, 0.2, 0.3, 0.5])
def test_both_act2_keys_hold_across_the_assumed_mcu_power(monkeypatch, mcu_w):
    """handbook/errata.md#e1: the MCU's active power is an estimate (ST's run-mode table was not retrieved; 0.1 to
    0.3 W, widened here to 0.05 to 0.5 W): it stays under the ceiling, and the lever that buys the coin
    cell the most life stays the leaner model."""
    monkeypatch.setitem(model.REGIMES, "tiny", model.Regime("TinyML", mcu_w, True))
    assert model.act2_regime() == "tiny" and mcu_w < lab.ACT2_PREDICTION.value
    for k, lever in model.LEVERS.items():
        monkeypatch.setitem(model.LEVERS, k, dataclasses.replace(lever, active_w=lever.active_w * mcu_w / 0.1))
    assert model.act2_reflect_key() == "D"


def test_the_coin_cell_lives_under_each_lever():
    """handbook/labs/v1_00.md §5: CR2032 at one reading a second lasts 133.9 days (always on, 6.75 h); the
    average is 0.20998 mW. Deeper sleep (1 µW) gives 139.93 days, a half-speed clock the same energy per
    reading (133.95 days), light sleep at 1 mW 23.48 days, a 1 ms model 255.71 days."""
    coin = C.CR2032_ENERGY_J
    assert model.AS_IS.life_s(coin) / DAY == pytest.approx(133.9, abs=0.05)
    assert model.life_s(coin, C.MCU_ACTIVE_POWER_W, 1.0, 1.0, 0.0) == pytest.approx(6.75 * 3600)
    assert model.dep.average_power_w(0.1, 10e-6, 2e-3, 1.0) == pytest.approx(0.20998e-3, rel=1e-6)
    lives = {k: lever.life_s(coin) / DAY for k, lever in model.LEVERS.items()}
    assert lives == pytest.approx({"A": 139.93, "B": 133.95, "C": 23.48, "D": 255.71}, abs=0.01)
    assert model.act2_reflect_key() == lab.ACT2_REFLECTION.answer() == "D"
    assert model.S.required_life_s / DAY == 182.5  # half of the site's 365-day year


@pytest.mark.parametrize("letter, quoted", [
    ("A", ["a processor that never sleeps: 1.71 mW on average over 183 days", "may draw 851 mW while computing",
           "a factor of 85.1 above the top of your range (10 mW)"]),
    ("B", ["sleep takes 9.98 µW of it", "allows 851 mW while computing",
           "a factor of 2.84 above the top of your range (300 mW)"]),
    ("C", ["Under it: TinyML, a Cortex-M7 microcontroller at 100 mW (assumed), 4.08 years.",
           "Over it, awake the same 2 ms: Mobile, a phone-class processor at 3 W (assumed), 52 days; Edge, a "
           "Jetson Orin NX at its lowest mode, 10 W, 15.6 days",
           "light alone needs 4.9 ms in fibre for the round trip"]),
    ("D", ["a 3 W processor: awake 0.2 % of the time it averages 6.01 mW, and the cells last 52 days",
           "a factor of 3.52 below the bottom of your range (3 W)"])])
def test_act2_feedback_for_every_option(letter, quoted):
    assert_quotes("a2_predict", letter, quoted)


def test_the_cloud_round_trip_follows_the_medium():
    assert_quotes("a2_predict", "C", ["light alone needs 3.34 ms in free space for the round trip"], "vacuum")


def test_the_ceiling_card_reads_the_key_and_turns_to_none_when_sleep_alone_is_too_much():
    text = text_of(locked({}, "a2_predict"))
    assert "Most power while computing for six months 851 mW awake 2 ms every 1 s; your 3 W is over it" in text
    assert "your 100 mW is under it" in text_of(locked({}, "a2_predict", a2_active_w=0.1))
    never = text_of(locked({}, "a2_predict", a2_awake_s=0.1, a2_period_s=0.01))
    assert "1.71 mW never asleep (awake longer than the time between readings); your 3 W is over it" in never
    coin = text_of(locked({}, "a2_predict", a2_battery="cr2032"))
    assert "Most power while computing for six months 72.1 mW" in coin  # (154 µW − 9.98 µW) / 0.2 %
    none = text_of(locked({}, "a2_predict", a2_battery="cr2032", a2_sleep_w=1e-3))
    assert "none: asleep it already draws more than the battery allows" in none


@pytest.mark.parametrize("letter, controls", [
    ("A", {"a2_sleep_w": 1e-6}), ("B", {"a2_active_w": 0.05, "a2_awake_s": 0.004}),
    ("C", {"a2_sleep_w": 1e-3}), ("D", {"a2_awake_s": 0.001})])
def test_each_lever_s_life_is_what_the_calculator_shows(letter, controls):
    """The reflection asks about what the act shows. Set the calculator to the lever, on the
    coin cell with the microcontroller, and its battery-life card reads the feedback's number."""
    settings = {"a2_battery": "cr2032", "a2_active_w": 0.1, **controls}
    state = locked({"a2_reflect": letter}, "a2_reflect", **settings)
    card = re.search(r"Battery life \(ideal cell\) ([\d.,]+ days)", text_of(state)).group(1)
    assert card == lab.fmt(model.LEVERS[letter].life_s(C.CR2032_ENERGY_J), "s")
    assert card in feedback(state, "a2_reflect")


def test_act2_reflection_feedback_weighs_awake_against_asleep():
    text = feedback(locked({"a2_reflect": "A"}, "a2_reflect"), "a2_reflect")
    assert "9.98 µW of the 210 µW average" in text and "140 days against 134 days" in text
    assert "(200 µW of 210 µW): cutting it to 1 ms gives 256 days, past six months on an ideal cell" in text


def test_act2_default_help_and_default_do_not_name_the_key():
    """Act II's default help named the Cortex-M7 at 100 mW, the key. Before the Act II lock
    the calculator shows neither, and opens on a candidate that fails (the phone-class 3 W)."""
    html = rendered(LAB, locked({}, "a1_reflect"))
    controls = page_text(html.split('data-instruments="2"')[1])
    assert "Cortex-M7 MCU" not in controls.replace("TinyML (Cortex-M7 MCU)", "")
    assert "100 mW" not in controls and "microcontroller" not in controls
    assert LAB.control("a2_active_w").default == C.PHONE_SUSTAINED_POWER_W != model.REGIMES["tiny"].active_w


def test_act2_reflection_is_not_about_drift_the_instruments_never_show():
    """The reflection was about accuracy drift; it now asks about the battery calculator."""
    prompt = lab.ACT2_REFLECTION.prompt
    assert "CR2032" in prompt and "drift" not in prompt.lower() and "accuracy" not in prompt.lower()
    assert any(o.value == "cr2032" for o in LAB.control("a2_battery").options)


def test_the_math_peek_says_when_a_coin_cell_cannot_give_the_pulse():
    """Review: a CR2032 is rated for pulses of about 15 mA (3 mA continuous), 45 mW at 3 V; a 100 mW
    microcontroller draws 33 mA from it. The reflection's coin cell is still an ideal cell's energy, but the page
    now says a real strap buffers the bursts, and the math peek gives Act II's ceiling its equation."""
    coin = text_of(all_open(a2_battery="cr2032", a2_active_w=0.1))
    assert "100 mW, beyond the largest pulses coin cells are rated for (about 45 mW, 15 mA at 3 V; some makers " \
           "rate less): a real strap draws the bursts from a buffer capacitor" in coin
    # Review: 15 mA is the largest rating (Energizer's datasheet allows 6.8 mA pulses): "within its rated
    # pulses" at 30 mW (10 mA) claimed more than the source.
    assert "30 mW, within the largest pulses coin cells are rated for" in \
        text_of(all_open(a2_battery="cr2032", a2_active_w=0.03))
    aa = text_of(all_open(a2_active_w=0.1))
    assert "pulses coin cells" not in aa and "Most power while computing for six months 851 mW" in aa
    assert "Most power while computing for six months none" in text_of(all_open(a2_battery="cr2032", a2_sleep_w=1e-3))


def test_battery_short_says_what_average_the_battery_allows():
    text = text_of(all_open(a2_battery="cr2032", a2_active_w=0.1))
    assert "An average of 210 µW empties the battery in 134 days; six months on it allow an average of at " \
           "most 154 µW." in text and "Even asleep" not in text
    asleep = text_of(all_open(a2_battery="cr2032", a2_sleep_w=1e-3, a2_active_w=0.1))
    assert "Even asleep, the 1 mW it draws is more than that." in asleep


# ---- the track (the peak in TFLOP/s as the datasheet states it) -------------------------


@pytest.mark.parametrize("track, peak, memory", [
    ("cloud", "989.4 TFLOP/s", "80 GB"), ("edge", "15.04 TFLOP/s", "16 GB"),
    ("mobile", "35 TOP/s", "8 GB"), ("tiny", "960 MFLOP/s", "512 KiB")])
def test_the_track_cards_read_as_their_sources(track, peak, memory):
    """The page's "peak compute 989 TOP/s BF16 dense" should read 989.4 TFLOP/s (NVIDIA H100 whitepaper:
    989.4 dense BF16 tensor TFLOPS; 1,978.9 with sparsity). Apple states its 35 trillion operations per
    second without a precision: TOP/s. ST states the MCU's SRAM in binary units: 512 KiB."""
    text = text_of(all_open(track=track))
    assert f"Your track · peak compute {peak}" in text and f"Your track · memory for a model {memory}" in text
    assert "TOP/s" not in text.replace("35 TOP/s", "")


@pytest.mark.parametrize("track", ["cloud", "edge", "mobile", "tiny"])
def test_the_track_is_recorded_and_shows_its_north_star(track):
    s = all_open(track=track)
    rec = record(LAB, s)
    assert rec["controls"]["track"] == track and rec["results"]["track"] == LABELS[track]
    html = rendered(LAB, s)
    assert f"Your north star · {LABELS[track]}" in html
    assert 'data-metric="track_peak"' in html


def test_the_track_is_what_later_volume_one_labs_read():
    from pylabs.labs.vol1.contexts import TRACK, deployment
    assert TRACK == ("v1_00", "track") and LAB.control("track").values == deployment().values
    assert LAB.control("track").kind == "choice"


def test_the_edge_track_does_not_call_25_w_the_orin_nx_s_highest_mode():
    """Review: JetPack 6.2 (January 2025) gave the Orin NX 16 GB a 40 W mode and an uncapped MAXN SUPER
    mode at higher clocks (NVIDIA, "JetPack 6.2 Brings Super Mode to Jetson Orin Nano and Jetson Orin NX
    Modules"; Seeed's reComputer wiki warns against MAXN SUPER on its Orin NX 16 GB boxes). The card's
    25 W is the datasheet's 10 to 25 W top, and the 15.04 TFLOP/s peak is counted at that mode's clock."""
    text = text_of(all_open(track="edge"))
    assert "highest mode" not in text
    assert "Your track · power budget 25 W top of the datasheet's 10 W to 25 W modes" in text
    assert "JetPack 6.2 adds a 40 W mode" in text


def test_the_tiny_north_star_is_a_duty_cycled_average():
    text = text_of(all_open(track="tiny"))
    assert "power budget 1 mW average, by duty cycling" in text and "512 KiB" in text


@pytest.mark.parametrize("track", ["cloud", "edge", "mobile", "tiny"])
def test_the_recorded_track_opens_a_later_lab_in_it(track):
    """The whole hand-over: V1-00's ledger record, read as an earlier attempt by a lab declared with
    ``context_from=TRACK``, starts that lab's context in the chosen track."""
    from pylabs.labs import get
    from pylabs.labs.vol1 import contexts
    base = get("v2_02")  # given Volume I's tracks, its failures' witnesses name none of its own contexts
    later = dataclasses.replace(base, context=contexts.deployment(), context_from=contexts.TRACK,
                                failures=tuple(dataclasses.replace(f, contexts=()) for f in base.failures))
    rec = record(LAB, all_open(track=track))
    assert later.context_defaults({"v1_00": rec}) == {"context": track}


def test_record_keeps_the_checks_and_the_chosen_fixes():
    rec = record(LAB, all_open())
    assert rec["complete"] is True
    assert all(rec["answers"][q]["correct"] for q in ("a1_predict", "a1_reflect", "a2_predict", "a2_reflect"))
    assert rec["results"]["check2_fixes"] == "a closer server, running on the vehicle"
    assert rec["results"]["a1_reach"] == pytest.approx(model.reach_m())
    assert record(LAB, LAB.default_state())["results"]["check2_fixes"] is None


def test_the_ledger_page_words_the_kept_choices():
    """Review: the ledger page showed "Track chosen for Volume I tiny" and "Fixes chosen for the car's
    deadline closer,vehicle": the record kept identifiers where a student reads words."""
    from pylabs.course.describe import result_rows
    rows = dict(result_rows(LAB, record(LAB, all_open(track="tiny"))["results"]))
    assert rows["Track chosen for Volume I"] == "TinyML (Cortex-M7 MCU)"
    assert rows["Fixes chosen for the car's deadline"] == "a closer server, running on the vehicle"
    assert rows["Act II · Most power while computing for six months"] == "851 mW"


def test_track_and_calculator_stay_locked_until_the_act2_lock():
    html = rendered(LAB, answered(LAB, {}, through="a1_reflect"))
    assert 'data-instruments="2" data-unlocked="false"' in html
    assert 'data-control="track"' in html.split('data-instruments="2"')[1]
    assert "Your north star" not in html


# ---- edges ------------------------------------------------------------------------------------

EXTREMES = [
    {}, {"a1_distance": 0, "a1_local": 0.02, "a1_budget": 0.001, "a1_route": 2.0},
    {"a1_distance": 5e6, "a1_budget": 0.1, "context": "vacuum"},
    {"a2_active_w": 100, "a2_awake_s": 0.1, "a2_period_s": 0.01, "a2_sleep_w": 1e-3, "a2_battery": "cr2032"},
    {"a2_active_w": 0.001, "a2_awake_s": 0.0001, "a2_period_s": 60, "a2_sleep_w": 1e-6, "a2_battery": "phone"},
]


@pytest.mark.parametrize("controls", EXTREMES)
def test_edges_give_finite_sensible_numbers(controls):
    s = all_open(**controls)
    trip, budget = lab.act1_trip(s), lab.act2_budget(s)
    for v in (trip.rtt_s, trip.response_s, trip.reach_m, budget.avg_w, budget.life_s, budget.always_on_s):
        assert v >= 0 and v == v and v != float("inf")
    assert 0 < budget.duty <= 1
    html = rendered(LAB, s)
    assert "nan" not in html.lower().replace("nanosecond", "") and "−" not in html.split("Key takeaways")[0]


@pytest.mark.parametrize("name", ["a2_active_w", "a2_awake_s", "a2_period_s", "a2_sleep_w"])
def test_one_step_of_each_log_slider_changes_its_value(name):
    """An arrow key moves a log slider by one position; the two-figure value must follow."""
    control = LAB.control(name)
    start = control.position(control.default)
    up = control.parse(10 ** (start + control.position_step))
    assert up != control.default


# ---- text follows its source ---------------------------------------------------------------------


def test_the_required_life_and_the_reading_period_in_the_text_follow_the_scenario(relabelled):
    """"six months" is S.required_life_s in months; "once a second", "every second" follow S.period_s."""
    controls = {"a2_battery": "cr2032"}
    before = rendered(LAB, answered(LAB, {"a2_predict": "B"}, through="a2_reflect", controls=controls))
    for text in ("(7.5 Wh) to last six months", "Battery flat before six months", "needed: six months (183 days)",
                 "more often than every six months", "reads vital signs once a second",
                 "for each reading, once a second", "awake 2 ms a second"):
        assert text in before, text
    changed = relabelled(required_life_s=365 * DAY, period_s=2.0)
    page = answered(changed.LAB, {"a2_predict": "B"}, through="a2_reflect", controls=controls)
    after = rendered(changed.LAB, page)
    for text in ("(7.5 Wh) to last twelve months", "Battery flat before twelve months",
                 "needed: twelve months (365 days)", "more often than every twelve months",
                 "reads vital signs once every 2 s", "for each reading, once every 2 s", "awake 2 ms every 2 s"):
        assert text in after, text
    assert "six months" not in after and "a second" not in after and "every second" not in after


# ---- independent review (second reviewer) -----------------------------------------------------------


def test_the_math_peek_does_not_call_the_average_mostly_sleep_at_a_small_share_awake():
    """Review: Act II's equations said "Average power: mostly sleep power once the device is awake for a
    tiny share of the time". At the scenario (awake 0.2 %, 100 mW while computing, 10 µW asleep) the
    awake part is 200 µW of the 210 µW average, 95 %; the sentence was false there and pointed the
    reflection at deeper sleep (A). Sleep's part is the larger only when δ·P_active < P_sleep."""
    text = text_of(locked({}, "a2_predict", a2_active_w=0.1))
    assert "mostly sleep power" not in text
    assert "Sleep's part is the larger only once the awake part, δ times the power while computing, falls " \
           "below the power asleep." in text


def test_battery_short_does_not_blame_sleep_when_the_device_never_sleeps():
    """Review: awake 100 ms every 10 ms the device never sleeps (the ceiling card says so), yet the failure
    said "Even asleep, the 1 mW it draws is more than that": the sleep power plays no part there."""
    never = text_of(all_open(a2_battery="cr2032", a2_awake_s=0.1, a2_period_s=0.01, a2_sleep_w=1e-3))
    assert "Even asleep" not in never
    assert "It never sleeps: awake longer than the time between readings, it draws its full power" in never


def test_the_mobile_track_s_memory_card_says_the_app_gets_less_than_the_whole_ram():
    """Review (defect class 14): "memory for a model 8 GB" was the phone's whole RAM, as teardowns report
    it; iOS keeps part of it for itself and other apps, as V1-11 says of the same card."""
    text = text_of(all_open(track="mobile"))
    assert "memory for a model 8 GB the whole RAM (reported, not published by Apple); iOS keeps part of it" in text


def test_act1_range_a_names_the_test_track_not_the_volume_one_track():
    """Review: "a server within the track's own region" read, on a page whose last decision is a track, as
    the student's Volume I track."""
    assert "the test track's own region" in lab.ACT1_PREDICTION.option("A").text


def test_the_fixes_feedback_leaves_the_remaining_time_to_computing_and_queueing():
    """Review: the reflection quotes the measured 40 ms, of which light is 19.6 ms; the rest is computing,
    queueing and routing. "Leaves 5 ms of the 10 ms to compute" dropped the queueing that the same act's
    calculator counts with computing (its "Compute and queueing time")."""
    for letter in ("B", "C"):
        text = feedback(locked({"a1_reflect": letter}, "a1_reflect"), "a1_reflect")
        assert "leaves 5 ms of the 10 ms for computing and queueing" in text and "to compute" not in text


def test_the_slower_clock_feedback_compares_two_lives():
    """Review: "so 134 days, no better than 134 days" compared a number with itself."""
    text = feedback(locked({"a2_reflect": "B"}, "a2_reflect"), "a2_reflect")
    assert "the same energy per reading, so 134 days against 134 days today" in text
    assert "no better than" not in text


def test_no_ceiling_reads_0_w_on_the_card_and_a_dash_in_the_ledger():
    """Review: once sleep alone averages more than the battery allows, the ceiling card read "0 nW" (the
    watts format puts an exact zero in its smallest unit) and the ledger kept "0 nW" beside the page's "none"."""
    from pylabs.course.describe import result_rows
    state = all_open(a2_battery="cr2032", a2_sleep_w=1e-3)
    assert "Most power while computing for six months 0 W none: asleep" in text_of(state)
    assert "0 nW" not in text_of(state)
    rows = dict(result_rows(LAB, record(LAB, state)["results"]))
    assert rows["Act II · Most power while computing for six months"] == "—"


def test_act2_story_does_not_refute_a_distractor_before_the_lock():
    """Review: Act II's scenario said "a device that computes for a moment and then sleeps averages
    far less than its power while computing" above the prediction: it answered range A's belief (the
    cells' nonstop average, 1.71 mW, is the limit) before the student could hold it."""
    before = text_of(locked({}, "a1_reflect"))
    act2 = before[before.index("The Energy Wall"):before.index("Lock prediction", before.index("The Energy Wall"))]
    assert "averages far less" not in act2 and "computes for a moment" not in act2


def test_the_round_trip_card_counts_the_stretched_route():
    """Review: at a route stretch of 2 the card read "2,000 km each way" beside 39.2 ms, the time for
    4,000 km of cable each way; the note now gives the path the light travels."""
    text = text_of(locked({}, "a1_predict", a1_route=2.0))
    assert "Round trip of light alone 39.2 ms 4,000 km of path each way" in text
    assert "Round trip of light alone 19.6 ms 2,000 km of path each way" in text_of(locked({}, "a1_predict"))


def test_computing_that_fills_the_deadline_exactly_is_not_called_a_miss():
    """Review: at 0 km with 10 ms of computing the answer arrives at the 10 ms deadline (no failure, a green
    "Fastest possible answer"), yet the reach card said "none: computing alone misses the deadline"."""
    state = locked({}, "a1_predict", a1_distance=0, a1_local=0.01)
    assert "a1_loop_missed" not in LAB.failures_now(state)
    text = text_of(state)
    assert "misses the deadline" not in text and "none: computing alone uses up the deadline" in text
    assert "The 10 ms deadline is met only at 0 km, with nothing to spare" in text
    assert "missed at any distance" in text_of(locked({}, "a1_predict", a1_distance=0, a1_local=0.0105))


def test_the_lab_s_minutes_are_its_acts_minutes():
    """Review: the header said 20–25 min for acts of 8–10 and 10–12 min (18–22 in all); the home page
    promises about twenty minutes."""
    lows, highs = zip(*(map(int, a.minutes.split()[0].split("–")) for a in LAB.acts))
    assert LAB.minutes == f"{sum(lows)}–{sum(highs)} min" == "18–22 min"
