"""The ledger record keeps each result as JSON can hold it."""

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
