"""The ledger in a real browser: export/import round trip, quarantine, no storage, two tabs,
and the same view from Pyodide as from CPython."""

from __future__ import annotations

import json

import pytest

from pylabs import bridge
from tests.e2e.driver import LabDriver, PageWatch

pytestmark = pytest.mark.e2e

STATES = [
    {},
    {"controls": {"a1_fabric": "nvlink", "a1_tokens": 512}, "answers": {"a1_predict": {"choice": "A", "locked_at": "2026-01-01T00:00:00Z"}}},
    {"controls": {"context": "finetune", "a2_nodes": 64, "a2_strong": True, "a2_nics": "8"},
     "answers": {q: {"choice": "C", "locked_at": "2026-01-01T00:00:00Z"} for q in ("a1_predict", "a1_reflect", "a2_predict")}},
]


def test_pyodide_and_cpython_render_the_same_view(lab_page):
    page = lab_page.open("v2_02")
    for state in STATES:
        text = json.dumps(state)
        in_browser = page.page.evaluate("(s) => pylabsRuntime.call('update', ['v2_02', s, null, true])", text)
        in_cpython = json.loads(bridge.update("v2_02", text, None, True))
        assert in_browser == in_cpython


def test_export_import_round_trip(lab_page, context, base_url, tmp_path):
    page = lab_page.open("v2_02")
    page.lock("a1_predict", "C")
    page.page.goto(base_url + "ledger/")
    page.wait_ready()
    with page.page.expect_download() as download:
        page.page.click('[data-action="ledger-export"]')
    exported = tmp_path / "ledger.json"
    download.value.save_as(exported)
    assert json.loads(exported.read_text())["schema"] == "mlsys-labs.ledger"

    fresh = LabDriver(context.browser.new_context().new_page(), base_url)
    fresh.page.goto(base_url + "ledger/")
    fresh.wait_ready()
    fresh.page.set_input_files('[data-action="ledger-import"]', str(exported))
    preview = fresh.page.locator("[data-import-preview]")
    preview.locator('[data-action="import-confirm"]').wait_for()
    assert "1 new attempt" in preview.inner_text()
    preview.locator('[data-action="import-confirm"]').click()
    fresh.page.wait_for_selector("[data-notice=import].pl-callout--success")
    LabDriver(fresh.page, base_url).chart_drawn("ledger_accuracy")
    assert fresh.ledger() == page.ledger()
    assert "1 new attempt" in fresh.page.inner_text("[data-notice=import]")
    fresh.page.context.close()


def test_import_of_a_file_that_is_not_a_ledger_changes_nothing(lab_page, base_url, tmp_path):
    page = lab_page.open("v2_02")
    page.lock("a1_predict", "C")
    page.wait_saved("v2_02", "a1_predict")
    before = page.ledger()
    page.page.goto(base_url + "ledger/")
    page.wait_ready()
    bogus = tmp_path / "photo.json"
    bogus.write_text(json.dumps({"hello": "world"}))
    page.page.set_input_files('[data-action="ledger-import"]', str(bogus))
    page.page.wait_for_selector("[data-notice=import].pl-callout--danger")
    assert "not an ML Systems labs ledger" in page.page.inner_text("[data-notice=import]")
    assert page.ledger() == before


def test_corrupt_ledger_is_quarantined_with_a_message(lab_page, base_url):
    page = lab_page.page
    page.goto(base_url)
    page.evaluate("() => localStorage.setItem('mlsys-labs:ledger:/labs/', '{oops, not json')")
    lab_page.open("v2_02")
    notice = page.locator("[data-notice=quarantine]")
    assert "set aside, not deleted" in notice.inner_text()
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('mlsys-labs:quarantine:/labs/'))")
    assert kept[0]["raw"] == "{oops, not json"
    lab_page.lock("a1_predict", "A")
    lab_page.wait_saved("v2_02", "a1_predict")
    assert lab_page.attempts("v2_02")[0]["answers"]["a1_predict"]["choice"] == "A"


def test_no_storage_still_runs_and_says_so(context, base_url, watch):
    # Material's own palette code reads localStorage unguarded; that error is provoked on purpose.
    watch.allow("uncaught error: denied")
    context.add_init_script("""
        Object.defineProperty(window, 'localStorage', { get() { throw new DOMException('denied', 'SecurityError'); } });
    """)
    page = LabDriver(context.new_page(), base_url)
    watch.attach(page.page)
    page.open("v2_02")
    assert "not being saved" in page.page.inner_text("[data-notice=storage]")
    assert page.page.get_attribute("html", "data-ledger") == "unavailable"
    page.lock("a1_predict", "C")
    assert page.verdict("a1_predict") == "correct"


def test_full_storage_still_runs_and_says_so(context, base_url, watch):
    context.add_init_script("""
        Storage.prototype.setItem = function () { throw new DOMException('full', 'QuotaExceededError'); };
    """)
    page = LabDriver(context.new_page(), base_url)
    watch.attach(page.page)
    page.open("v2_02")
    page.lock("a1_predict", "C")
    page.page.wait_for_selector("[data-notice=storage]")
    assert "storage is full" in page.page.inner_text("[data-notice=storage]")


def test_two_tabs_do_not_overwrite_each_other(context, base_url, watch):
    first = LabDriver(context.new_page(), base_url)
    second = LabDriver(context.new_page(), base_url)
    for tab in (first, second):
        watch.attach(tab.page)
        tab.open("v2_02")
    first.lock("a1_predict", "C")
    second.page.wait_for_selector('[data-question="a1_predict"][data-locked="true"]')
    second.lock("a1_reflect", "B")
    first.page.wait_for_selector('[data-question="a1_reflect"][data-locked="true"]')
    (attempt,) = first.attempts("v2_02")
    assert set(attempt["answers"]) == {"a1_predict", "a1_reflect"}


def test_site_also_works_at_the_root_path(browser, site_dir):
    from tools.serve import serve_in_thread
    server, url = serve_in_thread(site_dir, "/")
    own_watch = PageWatch(url)
    try:
        ctx = browser.new_context()
        page = LabDriver(ctx.new_page(), url)
        own_watch.attach(page.page)
        page.open("v2_02")
        page.lock("a1_predict", "C")
        ctx.close()
    finally:
        server.shutdown()
    own_watch.assert_clean()


def test_a_ledger_written_by_the_version_1_site_opens_with_its_answers_where_they_are_now(lab_page, base_url):
    """re-lettered options keep a stored answer's meaning (pylabs/ledger_letters.py)."""
    from pathlib import Path

    from pylabs.ledger_letters import migrate_answer
    text = (Path(__file__).parents[1] / "fixtures" / "ledger_v1.json").read_text()
    page = lab_page.page
    page.goto(base_url)
    page.evaluate("(t) => localStorage.setItem('mlsys-labs:ledger:/labs/', t)", text)
    lab_page.open("v2_02")
    answers = json.loads(text)["attempts"]["v2_02-frozen0abcd"]["answers"]
    for qid, answer in answers.items():
        where, letter = migrate_answer("v2_02", qid, answer["choice"], 1)
        if where == qid:
            assert lab_page.locked(qid)
            assert lab_page.question(qid).locator(f'input[value="{letter}"]').is_checked()
    page.wait_for_function("() => JSON.parse(localStorage.getItem('mlsys-labs:ledger:/labs/')).version === 2")
    stored = lab_page.ledger()
    assert set(stored["attempts"]) == set(json.loads(text)["attempts"])
    assert page.locator("[data-notice=quarantine]").count() == 0
