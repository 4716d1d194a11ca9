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


# ---- a continuous log-scale slider ------------------------------------------------------

def log_slider(**overrides):
    args = dict(name="lat", label="Latency", unit="s", min=1e-6, max=1.0, step=1, default=1e-3,
                fmt="num", scale="log")
    return Slider(**{**args, **overrides})


@pytest.mark.parametrize("raw,expected", [
    (0.0123456, 0.012), ("2.5e-4", 2.5e-4), (0.000987, 0.00099), (1e9, 1.0), (-5, 1e-6), (0, 1e-6),
    ("abc", 1e-3), (None, 1e-3), (float("nan"), 1e-3), (float("inf"), 1e-3), ("-inf", 1e-3),
])
def test_log_slider_parse_clamps_and_snaps_to_two_significant_figures(raw, expected):
    assert log_slider().parse(raw) == expected


def test_log_slider_moves_log10_in_the_declared_number_of_steps():
    s = log_slider(steps=120)
    html = render_control(s, 1e-3)
    assert 'min="-6" max="0" step="0.05"' in html and 'value="-3"' in html and 'data-scale="log"' in html
    assert s.manifest()["scale"] == "log" and s.manifest()["step"] == pytest.approx(0.05)
    # every position the native input can take reads cleanly after Python's snap
    values = {s.parse(10 ** (-6 + k * 0.05)) for k in range(121)}
    assert all(len(f"{v:.6e}".split("e")[0].rstrip("0").replace(".", "")) <= 2 for v in values)


def test_log_slider_snaps_near_a_bound_without_leaving_the_range():
    s = log_slider(min=1.55, max=9.45, default=2)
    assert s.parse(1.0) == 1.55 and s.parse(1.56) == 1.6 and s.parse(99) == 9.45 and s.parse(5.04) == 5.0
    assert log_slider(min=1, max=9.46, default=2).parse(9.455) == 9.46  # 9.5 would leave the range


def test_log_slider_rejects_bad_declarations_with_the_fix():
    with pytest.raises(ControlError, match="needs min > 0"):
        log_slider(min=0)
    with pytest.raises(ControlError, match="default 0.00123 has more than 2 significant figures; use 0.0012"):
        log_slider(default=0.00123)
    assert log_slider(default=0.00123, sig_figs=3).parse(0.00123) == 0.00123
    with pytest.raises(ControlError, match="steps must be an integer of at least 2"):
        log_slider(steps=1)
    with pytest.raises(ControlError, match="scale must be 'linear', 'log2' or 'log'"):
        log_slider(scale="ln")


def test_log2_slider_is_unchanged_by_the_log_scale():
    html = render_control(slider(scale="log2"), 16.0)
    assert 'min="0" max="6" step="1" value="4" data-scale="log2"' in html


# ---- a number field with units and validation ------------------------------------------

from pylabs.framework.controls import (MultiChoice, Number, controls_entered,  # noqa: E402
                                       stored_controls)


def number(**overrides):
    args = dict(name="bw", label="Link bandwidth", unit="GB/s", min=1, max=400, step=0.5, default=50)
    return Number(**{**args, **overrides})


@pytest.mark.parametrize("raw,value,entered", [
    ("42", 42.0, None), (" 42 ", 42.0, None), (42, 42.0, None), ("1e2", 100.0, None),
    ("500", 400.0, "500"), ("-3", 1.0, "-3"), ("42.3", 42.5, "42.3"),
    ("abc", 50.0, "abc"), ("", 50.0, ""), ("nan", 50.0, "nan"), ("inf", 50.0, "inf"),
    (float("nan"), 50.0, "nan"), (None, 50.0, ""), (True, 50.0, ""), ([4], 50.0, ""),
])
def test_number_parse_rejects_non_numbers_clamps_and_keeps_what_was_typed(raw, value, entered):
    n = number()
    assert n.parse(raw) == value
    assert n.entry(raw) == entered


@pytest.mark.parametrize("entered,message", [
    ("500", "500 is outside the range from 1 to 400 GB/s. The lab uses 400 GB/s."),
    ("abc", "“abc” is not a number: enter one from 1 to 400 GB/s. The lab uses the default, 50 GB/s."),
    ("", "Enter a number from 1 to 400 GB/s. The lab uses the default, 50 GB/s."),
    ("42.3", "42.3 is between steps of 0.5. The lab uses 42.5 GB/s."),
])
def test_number_problem_says_what_was_wrong_and_what_the_lab_uses(entered, message):
    assert number().problem(entered) == message


def test_number_renders_a_labelled_field_with_its_unit():
    html = render_control(number(help="Per direction."), 50.0)
    assert '<input type="number" id="pl-control-bw" data-control="bw" min="1" max="400" step="0.5" value="50"' in html
    assert 'inputmode="decimal"' in html
    assert 'aria-labelledby="pl-control-bw-label pl-control-bw-unit"' in html
    assert '<span class="pl-control__unit" id="pl-control-bw-unit">GB/s</span>' in html
    assert "aria-invalid" not in html and "pl-control__problem" not in html


def test_a_refused_number_keeps_the_students_text_and_shows_why():
    html = render_control(number(help="Per direction."), 400.0, entered="500")
    assert 'value="500"' in html and 'aria-invalid="true"' in html
    assert 'aria-describedby="pl-control-bw-help pl-control-bw-problem"' in html
    assert '<p class="pl-control__problem" id="pl-control-bw-problem">500 is outside' in html
    assert "&lt;" in render_control(number(), 50.0, entered="<b>")


def test_number_rejects_bad_declarations_with_the_fix():
    with pytest.raises(ControlError, match="default 500.0 is outside"):
        number(default=500)
    with pytest.raises(ControlError, match="default 50.2 is not min \\+ a whole number of steps of 0.5; use 50.0"):
        number(default=50.2)
    with pytest.raises(ControlError, match="step -1.0 must be positive"):
        number(step=-1)


def test_number_manifest_follows_the_testing_contract():
    assert number().manifest() == {"name": "bw", "kind": "number", "label": "Link bandwidth", "unit": "GB/s",
                                   "min": 1.0, "max": 400.0, "step": 0.5, "default": 50.0, "options": None}


# ---- a multi-select ---------------------------------------------------------------------

def multi(**overrides):
    args = dict(name="faults", label="Failures to model",
                options=(Option("gpu", "GPU"), Option("nic", "NIC"), Option("psu", "Power supply")),
                default=("gpu",), min_selected=1, max_selected=2)
    return MultiChoice(**{**args, **overrides})


@pytest.mark.parametrize("raw,value,entered", [
    (["nic", "gpu"], ("gpu", "nic"), None),             # declared order
    (["gpu", "gpu", "nic"], ("gpu", "nic"), None),      # repeats removed
    (["psu", "evil", 3, None], ("psu",), None),         # unknown values dropped
    ("nic,psu", ("nic", "psu"), None),                  # the comma list of links and the ledger
    (" nic , gpu ", ("gpu", "nic"), None),
    ([], ("gpu",), ()),                                  # too few: the default, with a message
    ("", ("gpu",), ()),
    (["gpu", "nic", "psu"], ("gpu",), ("gpu", "nic", "psu")),  # too many
    (["evil"], ("gpu",), ()),
    (None, ("gpu",), None), (3, ("gpu",), None), ({"gpu": 1}, ("gpu",), None), (float("nan"), ("gpu",), None),
])
def test_multi_parse_keeps_known_values_dedupes_and_enforces_the_count(raw, value, entered):
    m = multi()
    assert m.parse(raw) == value
    assert m.entry(raw) == entered


def test_multi_problem_and_render():
    m = multi(help="Pick one or two.")
    assert m.problem(()) == "Pick at least 1 (you picked 0). The lab uses the default: GPU."
    assert m.problem(("gpu", "nic", "psu")) == "Pick at most 2 (you picked 3). The lab uses the default: GPU."
    plain = render_control(m, ("gpu", "psu"))
    assert plain.count('type="checkbox" name="pl-control-faults"') == 3 and plain.count("data-multi") == 3
    assert plain.count(" checked") == 2 and 'value="nic" data-control="faults" data-multi>' in plain
    refused = render_control(m, ("gpu",), entered=("gpu", "nic", "psu"))
    assert refused.count(" checked") == 3  # what the student ticked stays ticked
    assert 'aria-describedby="pl-control-faults-help pl-control-faults-problem"' in refused
    assert render_control(m, ("gpu",), reason="Fixed by the context.").count(" disabled") == 3


def test_multi_rejects_bad_declarations_with_the_fix():
    with pytest.raises(ControlError, match="default .* must be distinct known values"):
        multi(default=("cpu",))
    with pytest.raises(ControlError, match="default .* must be distinct known values"):
        multi(default=("nic", "gpu"))
    with pytest.raises(ControlError, match="default .* must be distinct known values"):
        multi(default=())
    with pytest.raises(ControlError, match="min_selected \\(3\\) <= max_selected \\(2\\)"):
        multi(min_selected=3)
    with pytest.raises(ControlError, match="may not contain commas"):
        multi(options=(Option("a,b", "A"), Option("c", "C")), default=("c",))
    assert multi(default=["gpu", "nic"]).default == ("gpu", "nic")


def test_multi_manifest_and_stored_value():
    m = multi()
    assert m.manifest() == {"name": "faults", "kind": "multi", "label": "Failures to model", "unit": "",
                            "min": 1, "max": 2, "step": None, "default": ["gpu"], "options": ["gpu", "nic", "psu"]}
    assert stored_controls((m, number()), {"faults": ("gpu", "nic"), "bw": 50.0}) == {"faults": "gpu,nic", "bw": 50.0}


def test_controls_entered_names_only_refused_entries():
    controls = (number(), multi(), slider())
    raw = {"bw": "500", "faults": ["gpu"], "n": 1e9}
    assert controls_entered(controls, raw) == {"bw": "500"}
    assert controls_entered(controls, {"bw": "60", "faults": []}) == {"faults": ()}
    assert controls_entered(controls, "junk") == {}


def test_a_place_along_a_slider_is_linear_or_geometric_with_its_scale():
    linear = Slider("x", "X", unit="1", min=0, max=10, step=1, default=5)
    logged = Slider("y", "Y", unit="1", min=1, max=10_000, step=1, default=100, scale="log")
    assert linear.at(0.0) == 0 and linear.at(0.25) == 2.5 and linear.at(1.0) == 10
    assert logged.at(0.5) == pytest.approx(100) and logged.at(0.25) == pytest.approx(10)
