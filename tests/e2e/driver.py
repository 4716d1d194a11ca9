"""Drive any lab page through the hooks of handbook/dom-contract.md, as a student would."""

from __future__ import annotations

import json
import math
from urllib.parse import urlsplit

READY_TIMEOUT_MS = 60_000
# The Act I prediction is "on the first screen" when its prompt's first line is: the question's top
# plus this many px.
PROMPT_LINE = 40

# Set a control as a student would (the element's value or checked state), then dispatch input and
# change from the element the student touched. Also run on its own by tests/e2e/test_controls.py.
SET_CONTROL_JS = """([name, value]) => {
    const els = [...document.querySelectorAll(`[data-control="${name}"]`)];
    if (!els.length) throw new Error(`no control ${name}`);
    const el = els[0];
    let target = el;
    if (el.type === "radio") {
        target = els.find((e) => e.value === String(value));
        if (!target) throw new Error(`control ${name} has no option ${value}`);
        target.checked = true;
    } else if (el.type === "checkbox" && "multi" in el.dataset) {
        const wanted = new Set(value.map(String));
        const unknown = [...wanted].filter((v) => !els.some((e) => e.value === v));
        if (unknown.length) throw new Error(`control ${name} has no option ${unknown}`);
        for (const box of els) box.checked = wanted.has(box.value);
    } else if (el.type === "checkbox") {
        el.checked = Boolean(value);
    } else if (el.type === "range" && el.dataset.scale === "log2") {
        el.value = String(Math.log2(Number(value)));
    } else if (el.type === "range" && el.dataset.scale === "log") {
        el.value = String(Math.log10(Number(value)));
    } else {
        el.value = String(value);
    }
    target.dispatchEvent(new Event("input", { bubbles: true }));
    target.dispatchEvent(new Event("change", { bubbles: true }));
}"""


class PageWatch:
    """Records page errors, console errors and requests to hosts other than ours."""

    def __init__(self, base_url: str):
        self.origin = "{0.scheme}://{0.netloc}".format(urlsplit(base_url))
        self.problems: list[str] = []
        self.allowed: list[str] = []

    def allow(self, fragment: str) -> None:
        """Tolerate problems containing ``fragment`` (for errors a test provokes on purpose)."""
        self.allowed.append(fragment)

    def attach(self, page) -> None:
        page.on("pageerror", lambda error: self.problems.append(f"uncaught error: {error}"))
        page.on("console", lambda m: m.type == "error" and self.problems.append(f"console error: {m.text}"))
        page.on("request", self._request)

    def _request(self, request) -> None:
        url = request.url
        if url.startswith(("data:", "blob:", "about:")):
            return
        if not url.startswith(self.origin):
            self.problems.append(f"request to another host: {url}")

    def assert_clean(self, allow: tuple[str, ...] = ()) -> None:
        problems = [p for p in self.problems if not any(a in p for a in (*allow, *self.allowed))]
        assert not problems, "\n".join(problems)


class LabDriver:
    """One page; methods named for what a student does."""

    def __init__(self, page, base_url: str):
        self.page = page
        self.base_url = base_url

    # ---- navigation -----------------------------------------------------------

    def manifest(self) -> dict:
        return json.loads(self.page.request.get(self.base_url + "labs.json").text())

    def open(self, lab_id: str, query: str = "") -> "LabDriver":
        entry = next(x for x in self.manifest()["labs"] if x["id"] == lab_id)
        self.page.goto(self.base_url + entry["url"] + query)
        self.wait_ready()
        return self

    def wait_ready(self) -> None:
        self.page.wait_for_selector("html[data-pylabs=ready]", timeout=READY_TIMEOUT_MS)

    def reload(self) -> None:
        self.page.reload()
        self.wait_ready()

    # ---- questions ------------------------------------------------------------

    def question(self, qid: str):
        return self.page.locator(f'[data-question="{qid}"]')

    def lock(self, qid: str, letter: str) -> None:
        q = self.question(qid)
        q.locator(f'input[type=radio][value="{letter}"]').check()
        q.locator('[data-action="lock"]').click()
        self.page.wait_for_selector(f'[data-question="{qid}"][data-locked="true"]')

    def question_top(self) -> float:
        """Where the page's first question starts, in px from the top of the document."""
        return self.page.evaluate(
            "() => document.querySelector('[data-question]').getBoundingClientRect().top + window.scrollY")

    def locked(self, qid: str) -> bool:
        return self.question(qid).get_attribute("data-locked") == "true"

    def verdict(self, qid: str) -> str:
        return self.page.get_attribute(f'[data-feedback="{qid}"]', "data-verdict")

    def act_unlocked(self, number: int) -> bool:
        return self.page.get_attribute(f'[data-act="{number}"]', "data-unlocked") == "true"

    # ---- instruments ----------------------------------------------------------

    def set_control(self, name: str, value) -> None:
        """Set a control's value and dispatch input and change, then wait for the page to settle.
        ``value``: an option value (radio, select), a bool (switch), a number in the control's unit
        (slider, number field; a string is typed as is), a list of option values (multi-choice)."""
        before = self.renders()
        self.page.evaluate(SET_CONTROL_JS, [name, value])
        self.settle(before)

    def renders(self) -> int:
        return int(self.page.get_attribute("[data-lab]", "data-renders") or 0)

    def settle(self, before: int) -> None:
        """Wait until the lab has rendered since ``before`` and has no update in flight."""
        self.page.wait_for_function(
            "(n) => { const r = document.querySelector('[data-lab]'); "
            "return Number(r.dataset.renders || 0) > n && r.dataset.busy !== 'true'; }", arg=before)

    def place(self, selector: str, top: int = 120) -> int:
        """Scroll until ``selector``'s element sits ``top`` px below the viewport's top and stays
        there for 300 ms (content above it may still be settling; Chromium's scroll anchoring then
        moves scrollY to keep the element in place), and return scrollY."""
        for _ in range(10):
            y = self.page.locator(selector).evaluate(
                "(el, top) => { window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - top);"
                " return window.scrollY; }", top)
            self.page.wait_for_timeout(300)
            if self.page.evaluate("() => window.scrollY") == y:
                return y
        raise AssertionError(f"{selector} did not stay in place")

    def control_disabled(self, name: str) -> bool:
        return self.page.eval_on_selector(f'[data-control="{name}"]', "e => e.disabled")

    def metric(self, name: str) -> float:
        return float(self.page.get_attribute(f'[data-metric="{name}"]', "data-value"))

    def has_metric(self, name: str) -> bool:
        return self.page.locator(f'[data-metric="{name}"]').count() > 0

    def has_metric_in(self, act: int) -> bool:
        return self.page.locator(f'[data-act="{act}"] [data-metric]').count() > 0

    def cards(self) -> dict[str, str]:
        """Every metric card on the page: name -> its data-value."""
        return self.page.eval_on_selector_all(
            "[data-metric]", "els => Object.fromEntries(els.map((e) => [e.dataset.metric, e.dataset.value]))")

    def charts_in(self, act: int) -> list[str]:
        return self.page.eval_on_selector_all(f'[data-act="{act}"] [data-chart]',
                                              "els => els.map((e) => e.dataset.chart)")

    def failure_visible(self, name: str) -> bool:
        locator = self.page.locator(f'[data-failure="{name}"]')
        return locator.count() > 0 and locator.first.is_visible()

    def chart_drawn(self, name: str) -> None:
        """Scroll the chart into view (charts draw when visible) and wait for Plotly's SVG."""
        self.page.locator(f'[data-chart="{name}"]').scroll_into_view_if_needed()
        self.page.wait_for_selector(f'[data-chart="{name}"] .main-svg', timeout=30_000)

    def open_math(self, act: int, timeout_ms: int = 20_000):
        """Open an act's governing equations, check that KaTeX typeset them with no error, and
        return them (a locator)."""
        peek = f'[data-act="{act}"] .pl-mathpeek'
        self.page.locator(f"{peek} summary").click()
        self.page.wait_for_selector(f"{peek} .katex", timeout=timeout_ms)
        assert self.page.locator(f"{peek} .katex-error").count() == 0
        return self.page.locator(peek)

    # ---- ledger ---------------------------------------------------------------

    def ledger(self) -> dict:
        raw = self.page.evaluate(
            "() => { const k = Object.keys(localStorage).find(k => k.startsWith('mlsys-labs:ledger:')); "
            "return k ? localStorage.getItem(k) : null; }")
        return json.loads(raw) if raw else {}

    def wait_saved(self, lab_id: str, qid: str) -> None:
        """Wait until the ledger in storage holds ``qid``'s locked answer and no save is in flight
        (saves are asynchronous, and a lock can save twice: a failure state reached, then the lock)."""
        self.page.wait_for_function(
            """([lab, qid]) => { const k = Object.keys(localStorage).find(k => k.startsWith('mlsys-labs:ledger:'));
                 const root = document.querySelector('[data-lab]');
                 if (!k || (root && Number(root.dataset.saving || 0) > 0)) return false;  // a save still in flight
                 try { return Object.values(JSON.parse(localStorage.getItem(k)).attempts || {})
                   .some((a) => a.lab === lab && a.answers && a.answers[qid]); } catch { return false; } }""",
            arg=[lab_id, qid])

    def attempts(self, lab_id: str) -> list[dict]:
        """The lab's attempts in storage, once every answer locked on the page and every control
        change has been saved (saves are asynchronous: reading right after could miss the last)."""
        if self.page.locator("[data-lab]").count():
            self.page.wait_for_function(
                """(lab) => { const root = document.querySelector('[data-lab]');
                     if (!root || root.dataset.lab !== lab) return true;
                     if (Number(root.dataset.saving || 0) > 0) return false;  // a change or a save not yet in the ledger
                     const k = Object.keys(localStorage).find(k => k.startsWith('mlsys-labs:ledger:'));
                     const locked = [...document.querySelectorAll('[data-question][data-locked="true"]')]
                       .map((q) => q.dataset.question);
                     if (!locked.length) return true;
                     if (!k) return false;
                     try { return Object.values(JSON.parse(localStorage.getItem(k)).attempts || {})
                       .some((a) => a.lab === lab && locked.every((qid) => a.answers && a.answers[qid])); }
                     catch { return false; } }""",
                arg=lab_id)
        return [a for a in self.ledger().get("attempts", {}).values() if a["lab"] == lab_id]


def close(a: float, b: float, rel: float = 1e-6) -> bool:
    return math.isclose(a, b, rel_tol=rel)
