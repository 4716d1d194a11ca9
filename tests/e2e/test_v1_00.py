"""V1-00 in a real browser: both checks, the failure states reached and left through the instruments,
and the track saved in the ledger where later Volume I labs read it."""

from __future__ import annotations

import pytest

from pylabs.labs.vol1 import v1_00 as lab
from pylabs.physics import constants as C
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v1_00")
    assert page.control_disabled("a1_distance")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_reach")

    # Act I: the reach in fibre; the loop is missed until the server moves closer, and missed again
    # when computing alone exceeds the deadline, whatever the distance.
    page.lock("a1_predict", "B")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_reach"), lab.reach_m())
    assert close(page.metric("a1_rtt"), lab.rtt_s(lab.S.distance_m))
    assert page.failure_visible("a1_loop_missed")
    assert "Light alone needs" in page.page.inner_text('[data-failure="a1_loop_missed"]')
    page.chart_drawn("a1_light")
    page.set_control("a1_distance", 500e3)
    assert not page.failure_visible("a1_loop_missed")
    page.set_control("a1_distance", 0)
    page.set_control("a1_local", 0.02)
    assert "Computing and queueing alone" in page.page.inner_text('[data-failure="a1_loop_missed"]')
    page.set_control("a1_local", 0)
    assert not page.failure_visible("a1_loop_missed")
    page.lock("a1_reflect", "B")
    assert page.verdict("a1_reflect") == "correct"

    # Act II: the power ceiling that picks the regime; the calculator opens on the phone-class processor,
    # which is over it and falls short.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "C")
    assert page.verdict("a2_predict") == "correct"
    assert close(page.metric("a2_ceiling"), lab.ACT2_PREDICTION.value)
    assert page.failure_visible("a2_battery_short")
    page.set_control("a2_active_w", C.MCU_ACTIVE_POWER_W)
    assert not page.failure_visible("a2_battery_short")
    page.set_control("a2_battery", "cr2032")
    assert page.failure_visible("a2_battery_short")
    assert close(page.metric("a2_life"), lab.AS_IS.life_s(C.CR2032_ENERGY_J))
    page.set_control("a2_awake_s", lab.S.lean_result_s)  # the reflection's leaner model, on the calculator
    assert not page.failure_visible("a2_battery_short")
    assert close(page.metric("a2_life"), lab.LEVERS["D"].life_s(C.CR2032_ENERGY_J))
    page.chart_drawn("a2_battery_life")

    # The track: its north star follows the choice, and the ledger keeps it.
    page.set_control("track", "tiny")
    assert close(page.metric("track_memory"), C.STM32H743_AXI_SRAM_BYTES)
    assert "TinyML" in page.page.inner_text('[data-instruments="2"]')
    page.lock("a2_reflect", "D")
    assert page.verdict("a2_reflect") == "correct"
    hud = page.page.inner_text("[data-hud]")
    assert "Complete" in hud
    (attempt,) = page.attempts("v1_00")
    assert attempt["complete"] and attempt["controls"]["track"] == "tiny"
    assert attempt["results"]["check2_fixes"] == "a closer server, running on the vehicle"
    assert set(attempt["failures_hit"]) == {"a1_loop_missed", "a2_battery_short"}


def test_the_medium_changes_the_question_and_the_instruments(lab_page):
    page = lab_page.open("v1_00")
    page.set_control("context", "vacuum")
    page.lock("a1_predict", "B")
    assert page.verdict("a1_predict") == "correct"
    assert close(page.metric("a1_reach"), lab.reach_m("vacuum"))
    assert close(page.metric("a1_rtt"), lab.rtt_s(lab.S.distance_m, "vacuum"))
    assert page.control_disabled("context")
