"""The student experience across the site: accessibility in both palettes, keyboard only,
phone width, shareable links (and hostile ones), boot failure honesty, cross-tab ledger."""

from __future__ import annotations

import pytest

from tests.e2e import axe
from tests.e2e.driver import LabDriver

pytestmark = pytest.mark.e2e

STATIC_PAGES = ["", "vol2/", "ledger/", "sources/"]


def open_everything(lab: LabDriver, lab_id: str) -> None:
    """Lock every question but the last, all at "A" (right and wrong verdicts both on the page), so
    every act's instruments and feedback are there."""
    lab.open(lab_id)
    questions = next(x for x in lab.manifest()["labs"] if x["id"] == lab_id)["questions"]
    for q in questions[:-1]:
        lab.lock(q["id"], "A")
    lab.page.wait_for_timeout(500)


# Every lab is checked by the walkthrough (tests/e2e/test_walkthrough.py), in both palettes, before any
# lock and with everything unlocked at the keys. Here: the pages that are not labs, and a lab with
# wrong verdicts on it (their feedback has its own colours).
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_axe_violations_on_the_other_pages_and_on_wrong_answers(browser, base_url, watch, scheme):
    ctx = browser.new_context(color_scheme=scheme)
    page = LabDriver(ctx.new_page(), base_url)
    watch.attach(page.page)
    report = {}
    for path in STATIC_PAGES:
        page.page.goto(base_url + path)
        if path == "ledger/":
            page.wait_ready()
        report[path or "home"] = axe.violations(page.page)
    open_everything(page, "v1_01")
    assert page.page.locator('[data-verdict="incorrect"]').count() > 0
    report["v1_01, wrong answers"] = axe.violations(page.page)
    ctx.close()
    assert {k: v for k, v in report.items() if v} == {}


def test_keyboard_only_walkthrough(lab_page):
    page = lab_page.open("v2_02").page
    radio = page.locator('[data-question="a1_predict"] input[value="A"]')
    radio.focus()
    for _ in range(2):
        renders = lab_page.renders()
        page.keyboard.press("ArrowDown")  # radios move with arrows: A -> B -> C
        lab_page.settle(renders)
    assert page.locator('[data-question="a1_predict"] input[value="C"]').is_checked()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.action") == "lock"
    page.keyboard.press("Enter")
    page.wait_for_selector('[data-question="a1_predict"][data-locked="true"]')
    # Focus goes to the feedback under the question, then Tab reaches the instruments.
    page.wait_for_function("document.activeElement.dataset.feedback === 'a1_predict'")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.control") == "a1_fabric"
    for _ in range(6):
        if page.evaluate("document.activeElement.dataset.control") == "a1_tokens":
            break
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.control") == "a1_tokens"
    before = lab_page.metric("a1_compute_s")
    renders = lab_page.renders()
    page.keyboard.press("ArrowRight")
    lab_page.settle(renders)
    assert lab_page.metric("a1_compute_s") == pytest.approx(2 * before)
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"


def test_phone_width_walkthrough_never_scrolls_sideways(browser, base_url, watch):
    ctx = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    lab = LabDriver(ctx.new_page(), base_url)
    watch.attach(lab.page)
    lab.open("v2_02")
    for qid, letter in (("a1_predict", "C"), ("a1_reflect", "B"), ("a2_predict", "C")):
        lab.lock(qid, letter)
    lab.set_control("a2_nics", "8")
    lab.chart_drawn("a2_scaling")
    assert lab.page.evaluate("document.documentElement.scrollWidth") <= 375
    box = lab.page.locator('[data-control="a2_tokens"]').bounding_box()
    assert box["height"] >= 40  # a thumb-sized target
    ctx.close()


def test_share_link_restores_settings_but_never_answers(lab_page, context):
    page = lab_page.open("v2_02")
    page.lock("a1_predict", "C")
    page.set_control("a1_fabric", "pcie4")
    page.set_control("a1_tokens", 16384)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.page.click('[data-instruments="1"] [data-action="share"]')
    page.page.wait_for_selector("[data-notice=share]")
    link = page.page.evaluate("navigator.clipboard.readText()")
    assert "set.a1_fabric=pcie4" in link and "a1_predict" not in link

    friend = LabDriver(context.browser.new_context().new_page(), page.base_url)
    friend.page.goto(link)
    friend.wait_ready()
    assert not friend.locked("a1_predict")
    friend.lock("a1_predict", "A")
    assert friend.page.eval_on_selector('[data-control="a1_fabric"]', "e => e.value") == "pcie4"
    assert friend.page.get_attribute('[data-control="a1_tokens"]', "value") == "14"
    assert "set." not in friend.page.url
    friend.page.context.close()


def test_hostile_link_is_ignored_with_a_notice(lab_page):
    query = ("?set.a1_fabric=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&set.a1_tokens=1e999"
             "&set.__proto__=1&set.a2_nodes=64")
    page = lab_page.open("v2_02", query)
    notice = page.page.inner_text("[data-notice=link]")
    assert "3 settings in the link were not valid" in notice
    assert page.page.locator("img[src=x]").count() == 0
    page.lock("a1_predict", "C")
    assert page.page.eval_on_selector('[data-control="a1_fabric"]', "e => e.value") == "eth100"


def test_a_browser_without_webassembly_can_still_read(context, base_url, watch):
    context.add_init_script("delete window.WebAssembly;")
    page = context.new_page()
    watch.attach(page)
    page.goto(base_url + "vol2/02-interconnect-wall/")
    page.wait_for_selector("html[data-pylabs=error]")
    message = page.inner_text("[data-boot]")
    assert "WebAssembly" in message and "still read" in message
    assert page.locator('[data-act="1"]').is_visible()


def test_ledger_page_follows_another_tab(context, base_url, watch):
    ledger_tab = LabDriver(context.new_page(), base_url)
    lab_tab = LabDriver(context.new_page(), base_url)
    for tab in (ledger_tab, lab_tab):
        watch.attach(tab.page)
    ledger_tab.page.goto(base_url + "ledger/")
    ledger_tab.wait_ready()
    lab_tab.open("v2_02")
    lab_tab.lock("a1_predict", "C")
    ledger_tab.page.wait_for_selector('[data-progress="v2_02"].pl-progress--in-progress')
    ledger_tab.page.wait_for_selector("[data-attempt]")


def search_for(page, words: str) -> list[str]:
    """Type into Material's search box; the links of the results it lists."""
    page.locator(".md-search__input").click()
    page.locator(".md-search__input").press_sequentially(words)  # keys, as Material listens for keyup
    page.wait_for_selector(".md-search-result__item > a", state="attached", timeout=5000)
    return page.locator(".md-search-result__item > a").evaluate_all("(links) => links.map((a) => a.href)")


def test_a_lab_pages_search_finds_other_labs_once_the_lab_has_started(lab_page):
    """A lab page's search index is built after the lab (search-later.js), and then answers."""
    page = lab_page.open("v2_02").page
    assert "search-later.js?material=search." in page.locator("#__config").text_content()
    assert any("vol2/03-bisection-bandwidth/" in href for href in search_for(page, "bisection"))


def test_searching_before_python_has_started_is_answered_at_once(context, base_url, watch):
    """The index is held only until the student reaches for the search box (here: Python never
    starts, and the hold's 10 s fallback is not what answers)."""
    context.route("**/assets/pylabs/runtime.json", lambda route: None)  # never answered
    page = context.new_page()
    watch.attach(page)
    page.goto(base_url + "vol2/02-interconnect-wall/")
    page.wait_for_selector("html[data-pylabs=loading]")
    assert any("vol2/03-bisection-bandwidth/" in href for href in search_for(page, "bisection"))
    assert page.evaluate("document.documentElement.dataset.pylabs") == "loading"
    page.close()


def test_charts_follow_the_palette_toggle(lab_page):
    page = lab_page.open("v2_02")
    page.lock("a1_predict", "C")
    page.chart_drawn("a1_step_time")
    ink = "() => getComputedStyle(document.querySelector('[data-chart=\"a1_step_time\"] .xtick text')).fill"
    before = page.page.evaluate(ink)
    scheme = page.page.get_attribute("body", "data-md-color-scheme")
    page.page.evaluate("""(next) => document.body.setAttribute('data-md-color-scheme', next)""",
                       "slate" if scheme != "slate" else "default")
    page.page.wait_for_function(f"(before) => ({ink})() !== before", arg=before)


def test_v2_05_shows_the_network_chosen_in_v2_02(lab_page):
    page = lab_page.open("v2_02")
    for qid, letter in (("a1_predict", "C"), ("a1_reflect", "B"), ("a2_predict", "C")):
        page.lock(qid, letter)
    page.set_control("a2_nic", "hdr")
    page.set_control("a2_nics", "2")
    page.open("v2_05")
    page.lock("a1_predict", "B")
    text = page.page.inner_text('[data-instruments="1"]')
    assert "From your V2-02 ledger" in text and "HDR" in text


def test_moving_between_labs_keeps_python_running(lab_page):
    page = lab_page.open("v2_02").page
    page.evaluate("window.__samePage = true")
    page.click('.md-nav a[href$="05-parallelism-paradox/"]')
    page.wait_for_selector('[data-lab="v2_05"]')
    page.wait_for_selector("html[data-pylabs=ready]")
    assert page.evaluate("window.__samePage === true"), "instant navigation reloaded the page"
    lab_page.lock("a1_predict", "B")
