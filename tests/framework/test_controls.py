import pytest

from pylabs.framework.controls import Choice, ControlError, Option, Slider, Toggle, parse_controls


def slider(**overrides):
    args = dict(name="n", label="Nodes", unit="nodes", min=1, max=64, step=1, default=16, fmt="int")
    return Slider(**{**args, **overrides})


def test_slider_rejects_a_default_outside_its_range_with_the_fix():
    with pytest.raises(ControlError, match="default 100.0 is outside .* move the default or widen the range"):
        slider(default=100)


def test_slider_rejects_bad_bounds_and_step():
    with pytest.raises(ControlError, match="min 9.0 must be below max 1.0"):
        slider(min=9, max=1, default=5)
    with pytest.raises(ControlError, match="step 0.0 must be positive"):
        slider(step=0)


def test_log2_slider_needs_powers_of_two():
    with pytest.raises(ControlError, match="powers of two"):
        slider(scale="log2", default=12)


@pytest.mark.parametrize("raw,expected", [(17.4, 17.0), ("3", 3.0), (1e9, 64.0), (-5, 1.0),
                                          ("abc", 16.0), (None, 16.0), (float("nan"), 16.0)])
def test_slider_parse_clamps_and_snaps(raw, expected):
    assert slider().parse(raw) == expected


def test_log2_slider_snaps_to_powers_of_two():
    s = slider(scale="log2")
    assert s.parse(20) == 16.0 and s.parse(90) == 64.0


def test_choice_validation_and_parse():
    with pytest.raises(ControlError, match="default 'z' is not one of"):
        Choice("c", "C", (Option("a", "A"), Option("b", "B")), default="z")
    c = Choice("c", "C", (Option("a", "A"), Option("b", "B")), default="a")
    assert c.parse("b") == "b" and c.parse("<script>") == "a" and c.parse(3) == "a"


def test_toggle_parse():
    t = Toggle("t", "T")
    assert t.parse(True) is True and t.parse("on") is True and t.parse("junk") is False


def test_parse_controls_fills_defaults_and_ignores_unknown_names():
    controls = (slider(), Toggle("t", "T", default=True))
    assert parse_controls(controls, {"n": 8, "evil": 1}) == {"n": 8.0, "t": True}
    assert parse_controls(controls, "not a dict") == {"n": 16.0, "t": True}


# ---- a control the state overrides: disabled, with the reason in its help ----------------

from pylabs.framework.controls import render_control  # noqa: E402


@pytest.mark.parametrize("control,value", [
    (slider(help="How many nodes."), 16.0),
    (Choice("c", "Pick", (Option("a", "A"), Option("b", "B")), default="a", widget="select"), "a"),
    (Choice("r", "Pick", (Option("a", "A"), Option("b", "B")), default="a"), "a"),
    (Toggle("t", "Switch"), False),
])
def test_a_reason_disables_the_control_and_replaces_its_help(control, value):
    plain = render_control(control, value)
    overridden = render_control(control, value, reason="Fixed at 21 by the run in flight.")
    assert " disabled" not in plain
    assert overridden.count(" disabled") >= 1
    assert 'class="pl-control__help pl-control__help--reason"' in overridden
    assert "Fixed at 21 by the run in flight." in overridden
    assert "How many nodes." not in overridden
    assert f'aria-describedby="pl-control-{control.name}-help"' in overridden


def test_a_reason_is_escaped():
    assert "&lt;b&gt;" in render_control(slider(), 16.0, reason="<b>")
