"""The renderer: ledger results as JSON keeps them, and locked instruments marked inactive."""

import math

import pytest

from pylabs.framework.render import result_value


@pytest.mark.parametrize("value, expected", [(3, 3.0), (0.25, 0.25), ("torus", "torus"), (True, True),
                                             (False, False), (None, None)])
def test_result_value_keeps_numbers_names_flags_and_null(value, expected):
    kept = result_value(value)
    assert kept == expected and type(kept) is type(expected)


def test_result_value_makes_integers_floats():
    assert isinstance(result_value(7), float) and math.isfinite(result_value(7))


def test_locked_instruments_mark_their_controls_as_an_inactive_group():
    from pylabs.framework.render import render_lab
    from pylabs.labs import all_labs
    for lab in all_labs():
        html = str(render_lab(lab, lab.default_state()))
        locked = html.split('data-instruments="1" data-unlocked="false"')[1].split("</section>")[0]
        assert '<div class="pl-controls" role="group" aria-disabled="true">' in locked
