"""Every lab of the built site, walked through in Chromium as a student would, from its ``labs.json``
entry and its failures' witnesses (``FailureSpec.reach``/``leave``): pick the context, lock each
act's prediction, move the instruments to reach each of the act's failures and see its
``data-failure`` hook appear, move them to leave it and see it go, open the act's equations,
lock the reflection; every chart an act draws is drawn once its instruments open. Then the HUD
says complete, the ledger holds one complete attempt in that context with every answer marked right
and every failure reached recorded, and every number on the page's cards is the one CPython
computes for the attempt's recorded settings (Pyodide runs the same Python to the same floats).

The first walk of each lab also holds what a finished lab promises a student of every page
(handbook/testing.md): at 1280 px the Act I prediction starts on the first screen of a 1280x800
laptop, and axe-core finds no serious or critical violation in either palette, before any prediction
is locked and with everything unlocked (light: every act open, the last reflection still to lock;
dark: the complete lab as a returning student finds it, drawn in dark from the first paint).

A lab whose failures do not all hold in one context is walked once per context it needs, each in
a fresh browser profile (the first lock fixes an attempt's context). Which number is right is the
unit tests' business; here it is enough that the browser and CPython agree."""

from __future__ import annotations

import math
import re
from typing import Any

import pytest

from pylabs.framework.lab import Lab
from pylabs.framework.render import render_lab
from pylabs.labs import LAB_MODULES, get
from tests.e2e import axe
from tests.e2e.driver import PROMPT_LINE, LabDriver
from tests.labs.helpers import LOCKED_AT
from tests.labs.states import start

pytestmark = pytest.mark.e2e


def walks(lab: Lab) -> list[tuple[str, list]]:
    """(context, failures walked there): the lab's default context first, then, for failures that
    do not hold there, the first context each names."""
    plan: dict[str, list] = {}
    for f in lab.failures:
        where = f.contexts or lab.context.values
        context = lab.context.default if lab.context.default in where else where[0]
        plan.setdefault(context, []).append(f)
    return [(c, plan.get(c, [])) for c in dict.fromkeys([lab.context.default, *plan])]


def wire(value: Any) -> Any:
    """A control value as the driver sets it (a multi-choice as a list)."""
    return list(value) if isinstance(value, tuple) else value


class Walk:
    """One attempt at one lab in one context, keeping track of what the student moved."""

    def __init__(self, page: LabDriver, lab: Lab, context: str):
        self.page, self.lab, self.context = page, lab, context
        self.base = start(lab, context)
        self.now = dict(self.base)

    def move(self, settings: dict[str, Any]) -> None:
        for name, value in settings.items():
            self.page.set_control(name, wire(value))
            self.now[name] = value

    def back_to_start(self) -> None:
        """Controls an earlier witness moved go back where the context started them."""
        self.move({name: self.base[name] for name, value in self.now.items() if value != self.base[name]})

    def failure(self, spec) -> None:
        self.back_to_start()
        self.move(spec.reach)
        assert self.page.failure_visible(spec.name), f"{self.lab.id}: reach {spec.reach} does not show {spec.name}"
        self.move(spec.leave)
        assert not self.page.failure_visible(spec.name), f"{self.lab.id}: leave {spec.leave} leaves {spec.name}"


LAPTOP_FOLD = 800  # a 1280x800 laptop's first screen


def walk(page: LabDriver, lab: Lab, context: str, failures: list, audit: bool = False) -> None:
    """Walk ``lab`` in ``context``; with ``audit``, also the first-screen and axe checks (above)."""
    entry = next(x for x in page.manifest()["labs"] if x["id"] == lab.id)
    page.open(lab.id)
    problems: dict[str, list[str]] = {}
    if audit:
        top = page.question_top()
        assert top + PROMPT_LINE <= LAPTOP_FOLD, f"{lab.id}: the Act I prediction starts at {top:.0f} px"
        assert page.page.locator("[data-chart] .main-svg").count() == 0, "a chart is drawn before any lock"
        problems.update({f"before any lock, {k}": v for k, v in axe.in_both_palettes(page.page).items()})
    if context != lab.context.default:
        page.set_control(lab.context.name, context)
    steps = Walk(page, lab, context)
    questions = {q["id"] for q in entry["questions"]}
    for act in lab.acts:
        assert act.prediction.id in questions and act.reflection.id in questions
        assert page.act_unlocked(act.number) and not page.has_metric_in(act.number)
        page.lock(act.prediction.id, act.prediction.answer(context))
        assert page.verdict(act.prediction.id) == "correct"
        for chart in page.charts_in(act.number):
            page.chart_drawn(chart)
        for spec in failures:
            if spec.act == act.number:
                steps.failure(spec)
        page.open_math(act.number)
        if audit and act is lab.acts[-1]:
            problems["everything unlocked, light"] = axe.violations(page.page)
        page.lock(act.reflection.id, act.reflection.answer(context))
        assert page.verdict(act.reflection.id) == "correct"
    assert "Complete" in page.page.inner_text("[data-hud]")
    (attempt,) = page.attempts(lab.id)
    assert attempt["complete"] and attempt["context"] == context
    assert all(a["correct"] for a in attempt["answers"].values()) and len(attempt["answers"]) == len(questions)
    assert {f.name for f in failures} <= set(attempt["failures_hit"])
    assert same_numbers(page.cards(), cpython_cards(lab, context, attempt["controls"]))
    if audit:
        page.page.emulate_media(color_scheme="dark")
        page.reload()
        problems["complete, dark"] = axe.violations(page.page)
        assert {k: v for k, v in problems.items() if v} == {}, f"{lab.id}: axe found {problems}"


def cpython_cards(lab: Lab, context: str, controls: dict[str, Any]) -> dict[str, str]:
    """Each metric card's data-value as CPython renders the attempt (every question at its key)."""
    answers = {q.id: {"choice": q.answer(context), "locked_at": LOCKED_AT} for q in lab.questions}
    html = str(render_lab(lab, lab.parse({"answers": answers, "controls": controls})))
    return dict(re.findall(r'data-metric="(\w+)" data-value="([^"]*)"', html))


def same_numbers(page: dict[str, str], cpython: dict[str, str]) -> bool:
    assert page.keys() == cpython.keys(), f"cards differ: {sorted(page.keys() ^ cpython.keys())}"
    differ = {k: (page[k], cpython[k]) for k in page if not (
        page[k] == cpython[k] or math.isclose(float(page[k]), float(cpython[k]), rel_tol=1e-12, abs_tol=1e-300))}
    assert not differ, f"Pyodide and CPython disagree: {differ}"
    return True


def test_the_site_lists_every_lab(lab_page):
    assert [x["id"] for x in lab_page.manifest()["labs"]] == sorted(LAB_MODULES)


@pytest.mark.parametrize("lab_id", sorted(LAB_MODULES))
def test_walkthrough(lab_id, browser, base_url, watch):
    lab = get(lab_id)
    for n, (context, failures) in enumerate(walks(lab)):
        profile = browser.new_context(viewport={"width": 1280, "height": 900})
        try:
            page = profile.new_page()
            watch.attach(page)
            walk(LabDriver(page, base_url), lab, context, failures, audit=n == 0)
        finally:
            profile.close()
