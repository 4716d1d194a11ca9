"""V1-01 in a real browser: the walkthrough, the context's effect, and the failure state."""

from __future__ import annotations

import pytest

from pylabs.labs.vol1 import v1_01 as lab
from pylabs.labs.vol1 import v1_01_model as model
from pylabs.physics import constants as C
from tests.e2e.driver import LabDriver, close
from tests.e2e.test_experience import axe_violations, open_everything

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v1_01")
    assert page.control_disabled("a1_precision")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_compute_ratio")
    assert axe_violations(page.page) == []  # before any prediction

    # Act I: a wrong guess (the FP32 gap's range), then the instruments.
    page.lock("a1_predict", "A")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_compute_ratio"), lab.act1_truth())
    page.chart_drawn("a1_gap")
    page.set_control("a1_precision", "fp32")
    assert close(page.metric("a1_compute_ratio"), lab.peak_ratio("fp32"))
    page.set_control("a1_mcu_memory", "qspi")
    assert close(page.metric("a1_bandwidth_ratio"), C.H100_HBM_BW / C.STM32H743_QSPI_BW)
    page.lock("a1_reflect", "C")
    assert page.verdict("a1_reflect") == "correct"

    # Act II: the key, then the failure reached and left through the instruments.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "D")
    assert page.verdict("a2_predict") == "correct"
    assert close(page.metric("a2_mem_over_comp"), lab.act2_truth("cloud"))
    page.chart_drawn("a2_terms")
    page.set_control("a2_device", "tiny")
    page.set_control("a2_precision", "int8")
    assert page.failure_visible("a2_does_not_fit")
    page.set_control("a2_model", "dscnn")
    assert not page.failure_visible("a2_does_not_fit")
    assert close(page.metric("a2_total_s"), model.SCENARIO_RUNS["tiny"].law.total_s)
    page.set_control("a2_model", "resnet50")
    assert page.failure_visible("a2_does_not_fit")
    assert axe_violations(page.page) == []  # every act open, the failure on screen
    page.lock("a2_reflect", "A")

    (attempt,) = page.attempts("v1_01")
    assert attempt["complete"]
    assert attempt["results"]["oom"] is True and attempt["results"]["bound"] == "compute"
    assert "a2_does_not_fit" in attempt["failures_hit"]


def test_the_tiny_track_asks_act2_about_the_keyword_spotter_on_the_microcontroller(lab_page):
    page = lab_page.open("v1_01")
    page.set_control("context", "tiny")
    page.lock("a1_predict", "B")
    assert close(page.metric("a1_your_peak"), C.STM32H743_PEAK_INT8)
    page.lock("a1_reflect", "C")
    page.lock("a2_predict", "A")
    assert page.verdict("a2_predict") == "correct"
    assert close(page.metric("a2_mem_over_comp"), lab.act2_truth("tiny"))
    assert not page.failure_visible("a2_does_not_fit")
    page.set_control("a2_model", "resnet50")
    assert page.failure_visible("a2_does_not_fit")
    page.set_control("a2_device", "edge")
    assert not page.failure_visible("a2_does_not_fit")


def test_no_serious_axe_violations_in_dark_mode_with_everything_open(browser, base_url, watch):
    ctx = browser.new_context(color_scheme="dark")
    page = LabDriver(ctx.new_page(), base_url)
    watch.attach(page.page)
    open_everything(page, "v1_01")
    assert axe_violations(page.page) == []
    ctx.close()


@pytest.mark.parametrize("track", ["edge", "mobile"])
def test_edge_and_mobile_tracks_prove_their_own_act2_key(lab_page, track):
    """Review: the walkthrough drove Cloud and TinyML only. Each remaining track's Act II key (Edge C at
    0.916x, Mobile D at 2.13x) is proven in the page by the card it is shown by, with that track's device."""
    page = lab_page.open("v1_01")
    page.set_control("context", track)
    page.lock("a1_predict", "B")
    assert page.verdict("a1_predict") == "correct"
    assert close(page.metric("a1_your_peak"), model.int8_peak(track))
    page.lock("a1_reflect", "C")
    key = lab.ACT2_PREDICTION.answer(track)
    page.lock("a2_predict", key)
    assert page.verdict("a2_predict") == "correct"
    assert close(page.metric("a2_mem_over_comp"), lab.act2_truth(track))
    assert not page.failure_visible("a2_does_not_fit")
    page.lock("a2_reflect", "A")
    assert page.verdict("a2_reflect") == "correct"
