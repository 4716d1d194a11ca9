"""V1-01 in a real browser, beyond the walkthrough every lab gets (tests/e2e/test_walkthrough.py): the
tiny track asks act2 about the keyword spotter on the microcontroller; edge and mobile tracks prove
their own act2 key. (axe in both palettes: the walkthrough; with wrong answers on it: test_experience.)"""

from __future__ import annotations

import pytest

from pylabs.labs.vol1 import v1_01 as lab
from pylabs.labs.vol1 import v1_01_model as model
from pylabs.physics import constants as C
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


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
