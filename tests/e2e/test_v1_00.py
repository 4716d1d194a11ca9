"""V1-00 in a real browser: both checks, the failure states through the instruments, and the track
saved in the ledger where later Volume I labs read it."""

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
    assert not page.has_metric("a1_rtt")

    # Act I: the fibre round trip; the loop is missed until the server moves closer.
    page.lock("a1_predict", "D")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_rtt"), lab.act1_truth())
    assert page.failure_visible("a1_loop_missed")
    page.chart_drawn("a1_light")
    page.set_control("a1_distance", 500e3)
    assert not page.failure_visible("a1_loop_missed")
    assert close(page.metric("a1_reach"), lab.REACH_M)
    page.lock("a1_reflect", "B")
    assert page.verdict("a1_reflect") == "correct"

    # Act II: the regime check, then the coin cell falls short and reading less often rescues it.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "D")
    assert page.verdict("a2_predict") == "correct"
    assert not page.failure_visible("a2_battery_short")
    page.set_control("a2_battery", "cr2032")
    assert page.failure_visible("a2_battery_short")
    assert close(page.metric("a2_life"), lab.life_s(C.CR2032_ENERGY_J, C.MCU_ACTIVE_POWER_W))
    page.set_control("a2_period_s", 2.0)
    assert not page.failure_visible("a2_battery_short")
    page.chart_drawn("a2_battery_life")

    # The track: its north star follows the choice, and the ledger keeps it.
    page.set_control("track", "tiny")
    assert close(page.metric("track_memory"), C.STM32H743_AXI_SRAM_BYTES)
    assert "TinyML" in page.page.inner_text('[data-instruments="2"]')
    page.lock("a2_reflect", "C")
    hud = page.page.inner_text("[data-hud]")
    assert "Complete" in hud
    (attempt,) = page.attempts("v1_00")
    assert attempt["complete"] and attempt["controls"]["track"] == "tiny"
    assert attempt["results"]["check2_fixes"] == "closer,vehicle"
    assert set(attempt["failures_hit"]) == {"a1_loop_missed", "a2_battery_short"}


def test_the_medium_changes_the_instruments(lab_page):
    page = lab_page.open("v1_00")
    page.set_control("context", "vacuum")
    page.lock("a1_predict", "C")
    assert close(page.metric("a1_rtt"), lab.rtt_s(lab.S.distance_m, "vacuum"))
    assert page.control_disabled("context")
