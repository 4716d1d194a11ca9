"""Chart helpers: reference lines keep their label next to the line on log axes too."""

import pytest

from pylabs.framework import charts as ch


def test_hline_label_sits_at_the_line_on_a_linear_axis():
    shape, note = ch.hline(5.0, "danger", "limit")
    assert shape["y0"] == shape["y1"] == 5.0 and note["y"] == 5.0


def test_hline_label_uses_the_exponent_on_a_log_axis():
    shape, note = ch.hline(1000.0, "danger", "limit", log=True)
    assert shape["y0"] == 1000.0 and note["y"] == pytest.approx(3.0)


def test_hline_without_label_has_no_note():
    assert ch.hline(1.0)[1] is None


def test_power_label_uses_superscripts():
    assert [ch.power_label(v) for v in (1e2, 1e4, 1e-3)] == ["10²", "10⁴", "10⁻³"]


def test_decade_ticks_span_the_values_with_a_custom_label():
    ticks = ch.decade_ticks([3e11, 4.8e13], label=lambda v: f"{v:.0e}")
    assert ticks["tickvals"] == [1e11, 1e12, 1e13, 1e14]
    assert ticks["ticktext"][0] == "1e+11"


def test_ticks_at_labels_chosen_values_and_can_rename_the_first():
    from pylabs.framework.charts import ticks_at
    ticks = ticks_at((1, 2, 5), lambda v: f"{v}×", first="capacity")
    assert ticks == {"tickvals": [1, 2, 5], "ticktext": ["capacity", "2×", "5×"]}
    assert ticks_at((), str) == {"tickvals": [], "ticktext": []}
