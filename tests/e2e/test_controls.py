"""The new control kinds in Chromium: Python renders them, the shell reads them, Python parses that.

No lab uses a log slider, number field or multi-select yet, and no test-only lab may join the
registry, so this test serves one page on the site's own origin holding only controls rendered by
``render_control`` and imports the built shell's modules into it: ``controlValue``/``readControls``
from controls.js and ``patchBlock`` from morph.js. Each step reads the wire values in the browser,
parses them in CPython with the controls' own ``parse``, renders the result again and patches it
in, as the worker would. The driver's ``SET_CONTROL_JS`` is exercised on the same DOM."""

from __future__ import annotations

import pytest

from pylabs.framework.controls import (MultiChoice, Number, Option, Slider, Toggle, controls_entered,
                                       parse_controls, render_control)
from tests.e2e.driver import SET_CONTROL_JS

LOG = Slider("latency", "Per-hop latency", "s", 1e-6, 1e-2, 1, 1e-4, scale="log")
LINEAR = Slider("nodes", "Nodes", "nodes", 1, 64, 1, 16, fmt="int")
NUMBER = Number("bandwidth", "Link bandwidth", "GB/s", 1, 400, 0.5, 50)
MULTI = MultiChoice("faults", "Failures to model",
                    (Option("gpu", "GPU"), Option("nic", "NIC"), Option("psu", "Power supply")),
                    default=("gpu",), min_selected=1, max_selected=2)
SWITCH = Toggle("spares", "Hot spares")
CONTROLS = (LOG, LINEAR, NUMBER, MULTI, SWITCH)
PAGE = "controls-under-test/"


def block(raw: dict | None = None) -> str:
    """The controls as the renderer would draw them for a wire state ``raw`` (what the worker does)."""
    values, entered = parse_controls(CONTROLS, raw), controls_entered(CONTROLS, raw)
    inner = "".join(str(render_control(c, values[c.name], entered=entered.get(c.name))) for c in CONTROLS)
    return f'<div class="pl-block" data-block="controls"><div class="pl-controls">{inner}</div></div>'


@pytest.fixture
def page(context, base_url, watch):
    page = context.new_page()
    watch.attach(page)
    html = (f'<!doctype html><html lang="en"><head><title>controls</title>'
            f'<link rel="stylesheet" href="{base_url}assets/pylabs/pylabs.css"></head>'
            f'<body><main data-root>{block()}</main></body></html>')
    # The page lives on the site's origin, so the shell's ES modules load as they do on a lab page.
    page.route(base_url + PAGE, lambda route: route.fulfill(body=html, content_type="text/html"))
    page.goto(base_url + PAGE)
    page.evaluate("""async (base) => {
        const lab = await import(base + "assets/pylabs/page/controls.js");
        const morph = await import(base + "assets/pylabs/page/morph.js");
        const root = document.querySelector("[data-root]");
        window.shell = {
            read: () => lab.readControls(root),
            value: (name) => lab.controlValue(root, root.querySelector(`[data-control="${name}"]`)),
            patch: (html) => morph.patchBlock(root.querySelector("[data-block]"), html),
        };
    }""", base_url)
    return page


def read(page) -> dict:
    return page.evaluate("() => shell.read()")


def render_from_wire(page) -> dict:
    """One round trip: the shell's wire values -> Python -> the block patched into the page."""
    raw = read(page)
    page.evaluate("(html) => shell.patch(html)", block(raw))
    return raw


def test_the_default_page_reads_back_as_the_defaults(page):
    raw = read(page)
    assert raw["faults"] == ["gpu"] and raw["bandwidth"] == "50" and raw["spares"] is False
    assert raw["latency"] == pytest.approx(1e-4, rel=1e-6)
    assert parse_controls(CONTROLS, raw) == {c.name: c.default for c in CONTROLS}


def test_the_driver_sets_each_kind_and_python_parses_what_the_shell_reads(page):
    page.evaluate("""() => { window.events = [];
        for (const t of ["input", "change"]) document.addEventListener(t, (e) => events.push(`${t}:${e.target.dataset.control}`)); }""")
    for name, value in (("latency", 0.0012), ("nodes", 8), ("bandwidth", 42.5), ("faults", ["psu", "gpu"]),
                        ("spares", True)):
        page.evaluate(SET_CONTROL_JS, [name, value])
    assert page.evaluate("() => events").count("change:faults") == 1
    raw = read(page)
    assert raw["faults"] == ["gpu", "psu"] and raw["bandwidth"] == "42.5"
    assert parse_controls(CONTROLS, raw) == {"latency": 0.0012, "nodes": 8.0, "bandwidth": 42.5,
                                             "faults": ("gpu", "psu"), "spares": True}
    with pytest.raises(Exception, match="has no option"):
        page.evaluate(SET_CONTROL_JS, ["faults", ["cpu"]])


def test_the_log_slider_moves_by_keyboard_in_log_steps_and_reads_cleanly(page):
    page.focus('[data-control="latency"]')
    page.keyboard.press("ArrowRight")  # one step of (log10(1e-2) - log10(1e-6)) / 200 decades
    raw = render_from_wire(page)
    assert raw["latency"] == pytest.approx(10 ** (-4 + 0.02), rel=1e-6)
    assert LOG.parse(raw["latency"]) == 0.0001
    for _ in range(10):
        page.keyboard.press("ArrowRight")
    raw = render_from_wire(page)
    # the focused thumb stays where the student moved it (11 steps: 10 ** -3.78), read to two figures
    assert LOG.parse(raw["latency"]) == 0.00017
    assert page.text_content('[data-control-value="latency"]') == "0.00017"
    page.keyboard.press("End")
    assert LOG.parse(render_from_wire(page)["latency"]) == 0.01


def test_a_refused_number_keeps_the_students_text_while_typing_and_after(page):
    field = '[data-control="bandwidth"]'
    page.click(field, click_count=3)
    page.keyboard.type("500")
    render_from_wire(page)  # the student is still in the field: the patch must not touch its text
    assert page.evaluate(f"() => document.activeElement === document.querySelector('{field}')")
    assert page.input_value(field) == "500"
    assert page.get_attribute(field, "aria-invalid") == "true"
    problem = page.locator("#pl-control-bandwidth-problem")
    assert problem.text_content() == "500 is outside the range from 1 to 400 GB/s. The lab uses 400 GB/s."
    page.keyboard.press("Tab")
    render_from_wire(page)  # after leaving the field, the text and the message stay until changed
    assert page.input_value(field) == "500" and problem.is_visible()
    page.fill(field, "")
    page.keyboard.type("1e")  # Chromium sends "" for text it cannot read as a number
    assert page.evaluate("() => shell.value('bandwidth')") == ""
    render_from_wire(page)
    assert problem.text_content().startswith("Enter a number from 1 to 400 GB/s.")
    page.fill(field, "120")
    render_from_wire(page)
    assert page.locator("#pl-control-bandwidth-problem").count() == 0
    assert page.get_attribute(field, "aria-invalid") is None
    assert parse_controls(CONTROLS, read(page))["bandwidth"] == 120.0


def test_the_number_field_is_named_with_its_unit(page):
    field = page.locator('[data-control="bandwidth"]')
    assert field.evaluate("e => [e.labels[0].textContent, e.getAttribute('aria-labelledby')]") == [
        "Link bandwidth", "pl-control-bandwidth-label pl-control-bandwidth-unit"]
    assert page.get_by_role("spinbutton", name="Link bandwidth GB/s").count() == 1


def test_the_multi_select_by_clicks_and_a_refused_selection_stays_ticked(page):
    page.get_by_label("Power supply").check()
    assert render_from_wire(page)["faults"] == ["gpu", "psu"]
    page.get_by_label("NIC").check()  # a third pick: more than max_selected
    raw = render_from_wire(page)
    assert raw["faults"] == ["gpu", "nic", "psu"] and MULTI.parse(raw["faults"]) == ("gpu",)
    assert page.evaluate("() => [...document.querySelectorAll('[data-control=faults]:checked')].length") == 3
    assert "Pick at most 2 (you picked 3)" in page.text_content("#pl-control-faults-problem")
    page.get_by_label("GPU").uncheck()
    raw = render_from_wire(page)
    assert MULTI.parse(raw["faults"]) == ("nic", "psu")
    assert page.locator("#pl-control-faults-problem").count() == 0
