from pylabs.framework import charts as ch


def test_hline_label_sits_at_the_line_on_linear_and_log_axes():
    shape, note = ch.hline(0.2, "danger", "SLO")
    assert shape["y0"] == 0.2 and note["y"] == 0.2
    shape, note = ch.hline(100.0, "danger", "SLO", log=True)
    assert shape["y0"] == 100.0 and note["y"] == 2.0
