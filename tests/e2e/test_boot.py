"""The fast boot in a real browser: Python from the memory snapshot renders exactly what the usual boot
renders, a snapshot that cannot be used falls back visibly, a prediction can be locked before
Python and is answered when it arrives, a returning student's work is on screen before Python,
a visited lab works with the network off, and a slider move patched part by part leaves the page
as a whole render would."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from tools.serve import serve_in_thread
from tests.e2e.driver import LabDriver, PageWatch

pytestmark = pytest.mark.e2e

V2_02 = "vol2/02-interconnect-wall/"
EARLY_KEY = "mlsys-labs:early:/labs/"
STATES = [
    {},
    {"controls": {"a1_fabric": "nvlink", "a1_tokens": 512},
     "answers": {"a1_predict": {"choice": "A", "locked_at": "2026-01-01T00:00:00Z"}}},
    {"controls": {"context": "finetune", "a2_nodes": 64, "a2_strong": True, "a2_nics": "8"},
     "answers": {q: {"choice": "C", "locked_at": "2026-01-01T00:00:00Z"} for q in ("a1_predict", "a1_reflect", "a2_predict")}},
]


class HeldPython:
    """Hold the Python worker's script until released, so a test acts while Python 'boots'."""

    def __init__(self, context):
        self.held = []
        context.route("**/assets/pylabs/worker/worker.js*", lambda route: self.held.append(route))

    def release(self):
        while self.held:
            self.held.pop().continue_()


def watched(page, base_url: str, watch) -> tuple[LabDriver, list[str]]:
    """A driver on ``page``, watched, with the console lines the page and its worker write."""
    watch.attach(page)
    console: list[str] = []
    page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
    return LabDriver(page, base_url), console


def renders(lab: LabDriver, lab_ids: list[str]) -> dict:
    out = {}
    for lab_id in lab_ids:
        for i, state in enumerate(STATES if lab_id == "v2_02" else [{}]):
            out[f"{lab_id}/{i}"] = lab.page.evaluate(
                "([id, s]) => pylabsRuntime.call('update', [id, s, null, true])", [lab_id, json.dumps(state)])
    return out


def test_snapshot_and_full_boot_render_the_same(browser, base_url, watch):
    results = {}
    for query, expected in (("?pylabs-boot=full", "full"), ("", "snapshot")):
        ctx = browser.new_context()
        lab = LabDriver(ctx.new_page(), base_url)
        watch.attach(lab.page)
        lab.page.goto(base_url + V2_02 + query)
        lab.wait_ready()
        assert lab.page.get_attribute("html", "data-pylabs-boot") == expected
        ids = [entry["id"] for entry in lab.manifest()["labs"]]
        results[expected] = (renders(lab, ids), lab.page.inner_html('[data-block="act1"]'))
        ctx.close()
    assert results["snapshot"][0] == results["full"][0]
    assert results["snapshot"][1] == results["full"][1]


def test_micropip_installs_pylabs_from_the_sites_own_files(browser, base_url, watch):
    """A full boot loads micropip from vendor/pyodide/ (PyPI's wheel, named in the vendored lock
    file) and installs the pylabs wheel with it from the bytes the worker downloaded (`emfs:`); a
    snapshot boot restores micropip already imported and fetches no micropip at all."""
    for query, boot in (("?pylabs-boot=full", "full"), ("", "snapshot")):
        ctx = browser.new_context()
        lab = LabDriver(ctx.new_page(), base_url)
        watch.attach(lab.page)
        requests: list[str] = []
        lab.page.on("request", lambda request, seen=requests: seen.append(request.url))  # the page's and its workers'
        lab.page.goto(base_url + V2_02 + query)
        lab.wait_ready()
        assert lab.page.get_attribute("html", "data-pylabs-boot") == boot
        installed = lab.page.evaluate("() => pylabsRuntime.call('installed', [])")
        micropip = [url for url in requests if "/micropip-" in url]
        if boot == "full":
            assert installed["pylabs"].startswith("emfs:/") and installed["pylabs"].endswith(".whl"), installed
            assert installed["micropip"] == "pyodide", installed  # loaded by pyodide.loadPackage
            assert micropip == [base_url + "vendor/pyodide/micropip-0.11.1-py3-none-any.whl"]
        else:
            assert micropip == []
            assert "pylabs" not in installed  # the image holds the modules, not the wheel's files
        ctx.close()


def _site_copy(site_dir, tmp_path, change):
    """A copy of the built site (symlinks) with one file changed by ``change(copy)``."""
    copy = tmp_path / "site"
    shutil.copytree(site_dir, copy, copy_function=os.symlink)
    change(copy)
    return copy


def _corrupt_snapshot(copy):
    runtime = json.loads((copy / "assets/pylabs/runtime.json").read_text())
    target = copy / runtime["snapshot"]["url"]
    target.unlink()
    target.write_bytes(b"\x1f\x8b this is not a gzip stream")


def _other_pyodide(copy):
    path = copy / "assets/pylabs/runtime.json"
    runtime = json.loads(path.read_text())
    runtime["snapshot"]["pyodide"] = "0.0.1"
    path.unlink()
    path.write_text(json.dumps(runtime))


@pytest.mark.parametrize("change, said", [(_corrupt_snapshot, "warning: pylabs: the Python snapshot could not be used"),
                                          (_other_pyodide, "info: pylabs: starting Python without a snapshot: it was made for Pyodide 0.0.1")],
                         ids=["corrupt", "other-pyodide"])
def test_a_snapshot_that_cannot_be_used_falls_back_to_the_usual_boot(browser, site_dir, tmp_path, change, said):
    copy = _site_copy(site_dir, tmp_path, change)
    server, url = serve_in_thread(copy, "/labs/")
    watch = PageWatch(url)
    try:
        ctx = browser.new_context()
        lab, console = watched(ctx.new_page(), url, watch)
        lab.open("v2_02")
        assert lab.page.get_attribute("html", "data-pylabs-boot") == "full"
        assert any(line.startswith(said) for line in console), console
        lab.lock("a1_predict", "C")
        assert lab.verdict("a1_predict") == "correct"
        ctx.close()
    finally:
        server.shutdown()
    watch.assert_clean()


def test_a_first_visit_over_a_slow_link_boots_the_usual_way(browser, base_url, watch):
    """Over 20 Mbit/s the 11 MB snapshot would arrive after the usual boot is done: the worker
    watches its download, stops it, says why (console.info), and boots the usual way."""
    ctx = browser.new_context()
    page = ctx.new_page()
    cdp = ctx.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": 40, "downloadThroughput": 20e6 / 8,
                                                  "uploadThroughput": 20e6 / 8, "connectionType": "wifi"})
    lab, console = watched(page, base_url, watch)
    lab.open("v2_02")
    assert page.get_attribute("html", "data-pylabs-boot") == "full"
    assert any(line.startswith("info: pylabs: the ") and "snapshot would take about" in line and
               line.endswith("starting Python the usual way, which is sooner on this network") for line in console), console
    lab.lock("a1_predict", "C")
    assert lab.verdict("a1_predict") == "correct"
    ctx.close()


def _early_entry(lab: LabDriver):
    raw = lab.page.evaluate(f"() => localStorage.getItem('{EARLY_KEY}')")
    return json.loads(raw)["v2_02"] if raw else None


def test_a_prediction_locked_before_python_is_kept_and_answered(browser, base_url, watch):
    ctx = browser.new_context(service_workers="block")
    hold = HeldPython(ctx)
    lab = LabDriver(ctx.new_page(), base_url)
    watch.attach(lab.page)
    lab.page.goto(base_url + V2_02)
    question = lab.question("a1_predict")
    question.locator('input[value="C"]').check()
    question.locator('[data-action="lock"]').click()
    assert question.get_attribute("data-locked") == "true"
    assert lab.page.get_attribute("html", "data-pylabs") == "loading"
    assert _early_entry(lab)["answers"]["a1_predict"]["choice"] == "C"  # recorded synchronously
    waiting = lab.page.inner_text('[data-instruments="1"] .pl-instruments__lock')
    assert "locked" in waiting and "Python" in waiting
    assert lab.control_disabled("a1_tokens")

    lab.page.reload()  # before Python ever ran: the lock survives
    assert question.get_attribute("data-locked") == "true"
    assert question.locator('input[value="C"]').is_checked()
    assert question.locator('input[value="C"]').is_disabled()
    hold.release()
    lab.wait_ready()
    assert lab.verdict("a1_predict") == "correct"
    assert not lab.control_disabled("a1_tokens")
    (attempt,) = lab.attempts("v2_02")
    assert attempt["answers"]["a1_predict"]["choice"] == "C"
    assert _early_entry(lab) is None
    ctx.close()


def test_an_option_picked_before_python_can_be_locked_once_ready(browser, base_url, watch):
    ctx = browser.new_context(service_workers="block")
    hold = HeldPython(ctx)
    lab = LabDriver(ctx.new_page(), base_url)
    watch.attach(lab.page)
    lab.page.goto(base_url + V2_02)
    lab.question("a1_predict").locator('input[value="C"]').check()
    hold.release()
    lab.wait_ready()
    assert lab.question("a1_predict").locator('[data-action="lock"]').is_enabled()
    lab.question("a1_predict").locator('[data-action="lock"]').click()
    lab.page.wait_for_selector('[data-question="a1_predict"][data-locked="true"]')
    assert lab.verdict("a1_predict") == "correct"
    ctx.close()


VIEW_SAYS_PCIE4 = """async () => {
  const db = await new Promise((ok, no) => { const r = indexedDB.open('mlsys-labs:views:/labs/', 1);
    r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
  const entry = await new Promise((ok) => { const r = db.transaction('views').objectStore('views').get('v2_02');
    r.onsuccess = () => ok(r.result); r.onerror = () => ok(null); });
  db.close();
  return Boolean(entry && /value="pcie4" selected/.test(entry.blocks.act1 || ''));
}"""


def test_a_returning_student_sees_their_work_before_python(browser, base_url, watch):
    ctx = browser.new_context(service_workers="block")
    lab = LabDriver(ctx.new_page(), base_url)
    watch.attach(lab.page)
    lab.open("v2_02")
    lab.lock("a1_predict", "C")
    lab.set_control("a1_fabric", "pcie4")
    lab.page.wait_for_function(VIEW_SAYS_PCIE4)
    hold = HeldPython(ctx)
    lab.page.reload()
    lab.page.wait_for_selector("[data-lab]:not([data-restoring])")
    assert lab.page.get_attribute("html", "data-pylabs") == "loading"
    assert lab.locked("a1_predict")
    assert lab.verdict("a1_predict") == "correct"
    assert lab.page.eval_on_selector('[data-control="a1_fabric"]', "e => e.value") == "pcie4"
    assert lab.control_disabled("a1_fabric")  # shown, but inactive until Python is there
    hold.release()
    lab.wait_ready()
    assert lab.locked("a1_predict") and not lab.control_disabled("a1_fabric")
    assert lab.page.eval_on_selector('[data-control="a1_fabric"]', "e => e.value") == "pcie4"
    ctx.close()


def test_a_visited_lab_works_offline(browser, base_url, watch):
    ctx = browser.new_context()
    lab = LabDriver(ctx.new_page(), base_url)
    watch.attach(lab.page)
    lab.open("v2_02")
    lab.page.wait_for_selector("html[data-offline=ready]", timeout=60_000)
    ctx.set_offline(True)
    lab.page.reload()
    lab.wait_ready()
    lab.lock("a1_predict", "C")
    assert lab.verdict("a1_predict") == "correct"
    lab.set_control("a1_fabric", "nvlink")
    (attempt,) = lab.attempts("v2_02")
    assert attempt["answers"]["a1_predict"]["choice"] == "C" and attempt["controls"]["a1_fabric"] == "nvlink"
    ctx.close()


KEPT_IMAGES = """async () => {
  const root = await navigator.storage.getDirectory();
  let folder;
  try { folder = await root.getDirectoryHandle('mlsys-images'); } catch { return {}; }
  const sizes = {};
  for await (const [name, handle] of folder.entries()) sizes[name] = (await handle.getFile()).size;
  return sizes;
}"""

WRITE_KEPT = """async ([name, size]) => {
  const folder = await (await navigator.storage.getDirectory()).getDirectoryHandle('mlsys-images', { create: true });
  const writable = await (await folder.getFileHandle(name, { create: true })).createWritable();
  await writable.write(new Uint8Array(size));
  await writable.close();
}"""


def _snapshot_entry(lab: LabDriver) -> dict:
    return lab.page.evaluate("(url) => fetch(url, { cache: 'no-store' }).then((r) => r.json())",
                             lab.base_url + "assets/pylabs/runtime.json")["snapshot"]


CLOSED = """async (name) => {
  // Whether no one holds the file open: the worker's handle shows the whole size before it is flushed
  // and closed, and a write then fails (NoModificationAllowedError). Opening to write, then abort.
  const folder = await (await navigator.storage.getDirectory()).getDirectoryHandle('mlsys-images');
  try {
    await (await (await folder.getFileHandle(name)).createWritable({ keepExistingData: true })).abort();
    return true;
  } catch (error) {
    if (error.name === 'NoModificationAllowedError') return false;
    throw error;
  }
}"""


def _wait_kept(lab: LabDriver, entry: dict) -> str:
    """The kept image's file name, once the worker has written it whole and closed it (image-cache.js
    names it)."""
    name = f"%2Flabs%2F.{entry['key']}.bin"
    for _ in range(150):
        if lab.page.evaluate(KEPT_IMAGES).get(name) == entry["memory"] and lab.page.evaluate(CLOSED, name):
            return name
        lab.page.wait_for_timeout(100)
    raise AssertionError(f"no kept image {name} after 15 s: {lab.page.evaluate(KEPT_IMAGES)}")


def test_a_returning_visit_restores_the_image_kept_unpacked(browser, base_url, watch):
    """The first visit downloads the gzipped image and keeps it unpacked; the next restores from
    that copy and renders exactly what the first did."""
    ctx = browser.new_context()
    lab = LabDriver(ctx.new_page(), base_url)
    watch.attach(lab.page)
    lab.open("v2_02")
    assert lab.page.get_attribute("html", "data-pylabs-image") == "downloaded"
    first = renders(lab, ["v2_02"])
    name = _wait_kept(lab, _snapshot_entry(lab))
    lab.page.reload()
    lab.wait_ready()
    assert lab.page.get_attribute("html", "data-pylabs-boot") == "snapshot"
    assert lab.page.get_attribute("html", "data-pylabs-image") == "kept"
    assert renders(lab, ["v2_02"]) == first
    lab.lock("a1_predict", "C")
    assert lab.verdict("a1_predict") == "correct"
    assert list(lab.page.evaluate(KEPT_IMAGES)) == [name]  # one image per site
    ctx.close()


def test_a_kept_image_that_is_wrong_is_dropped_and_replaced(browser, base_url, watch):
    """A kept file of the wrong size is deleted unread (the gzipped image is used); one of the right
    size that does not restore falls back to the usual boot, visibly, and is deleted too."""
    ctx = browser.new_context()
    lab, console = watched(ctx.new_page(), base_url, watch)
    lab.open("v2_02")
    entry = _snapshot_entry(lab)
    name = _wait_kept(lab, entry)

    lab.page.evaluate(WRITE_KEPT, [name, 1000])  # cut short
    lab.page.reload()
    lab.wait_ready()
    assert lab.page.get_attribute("html", "data-pylabs-image") == "downloaded"
    _wait_kept(lab, entry)  # and kept again, whole

    lab.page.evaluate(WRITE_KEPT, [name, entry["memory"]])  # the right size, but zeros
    lab.page.reload()
    lab.wait_ready()
    assert lab.page.get_attribute("html", "data-pylabs-boot") == "full"
    assert any(line.startswith("warning: pylabs: the Python snapshot could not be used") for line in console), console
    assert name not in lab.page.evaluate(KEPT_IMAGES)
    lab.lock("a1_predict", "C")
    assert lab.verdict("a1_predict") == "correct"
    ctx.close()


SAME_AS_WHOLE = """async (labId) => {
  // The live blocks against Python's last blocks, whole, each normalised the same way: charts'
  // plots (Plotly's), rendered TeX (KaTeX's), the open state of details, the phone strip's place
  // (strip.js) and links made absolute (Material's instant navigation) are the browser's own.
  const whole = await pylabsRuntime.call("view", [labId]);
  const normal = (element) => {
    const copy = element.cloneNode(true);
    copy.querySelectorAll(".pl-chart__plot").forEach((plot) => {
      plot.replaceChildren();
      for (const name of plot.getAttributeNames()) if (name !== "role" && name !== "aria-label") plot.removeAttribute(name);
    });
    copy.querySelectorAll("[data-tex]").forEach((tex) => { tex.textContent = tex.dataset.tex; tex.removeAttribute("data-rendered"); });
    copy.querySelectorAll("details").forEach((details) => details.removeAttribute("open"));
    copy.querySelectorAll("input").forEach((input) => { input.setAttribute("value", input.value); });
    copy.querySelectorAll("[data-instruments]").forEach((section) => { section.removeAttribute("style"); section.removeAttribute("data-strip"); });
    copy.querySelectorAll("a[href]").forEach((link) => link.setAttribute("href", new URL(link.getAttribute("href"), document.baseURI).href));
    return copy.innerHTML;
  };
  const differ = [];
  for (const [key, html] of Object.entries(whole)) {
    const live = document.querySelector(`[data-block="${key}"]`);
    const template = document.createElement("template");
    template.innerHTML = `<div>${html}</div>`;
    if (normal(live) !== normal(template.content.firstElementChild)) differ.push(key);
  }
  return differ;
}"""


@pytest.mark.parametrize("lab_id, moves", [
    ("v2_02", [("a1_tokens", 8192), ("a1_fabric", "pcie4"), ("a1_tokens", 512), ("a1_fabric", "nvlink")]),
    ("v1_11", [("a1_m", 64), ("a1_m", 1)]),
])
def test_a_slider_move_patched_in_parts_leaves_the_page_a_whole_render_would(browser, base_url, watch, lab_id, moves):
    ctx = browser.new_context()
    lab = LabDriver(ctx.new_page(), base_url)
    watch.attach(lab.page)
    lab.open(lab_id)
    first = next(q for q in lab.manifest()["labs"] if q["id"] == lab_id)["questions"][0]["id"]
    lab.lock(first, "A")
    for name, value in moves:
        lab.set_control(name, value)
        assert lab.page.evaluate(SAME_AS_WHOLE, lab_id) == []
    ctx.close()


def _lock_early(lab: LabDriver, qid: str, letter: str) -> None:
    question = lab.question(qid)
    question.locator(f'input[value="{letter}"]').check()
    question.locator('[data-action="lock"]').click()
    assert question.get_attribute("data-locked") == "true"
    assert lab.page.get_attribute("html", "data-pylabs") == "loading"


def test_an_early_lock_survives_a_corrupt_ledger(browser, base_url, watch):
    ctx = browser.new_context(service_workers="block")
    lab = LabDriver(ctx.new_page(), base_url)
    watch.attach(lab.page)
    lab.page.goto(base_url)
    lab.page.evaluate("() => localStorage.setItem('mlsys-labs:ledger:/labs/', '{oops, not json')")
    hold = HeldPython(ctx)
    lab.page.goto(base_url + V2_02)
    _lock_early(lab, "a1_predict", "A")
    hold.release()
    lab.wait_ready()
    assert "set aside, not deleted" in lab.page.inner_text("[data-notice=quarantine]")
    assert lab.attempts("v2_02")[0]["answers"]["a1_predict"]["choice"] == "A"
    ctx.close()


def test_an_early_lock_with_full_storage_still_runs_and_says_so(browser, base_url, watch):
    ctx = browser.new_context(service_workers="block")
    ctx.add_init_script("Storage.prototype.setItem = function () { throw new DOMException('full', 'QuotaExceededError'); };")
    hold = HeldPython(ctx)
    lab = LabDriver(ctx.new_page(), base_url)
    watch.attach(lab.page)
    lab.page.goto(base_url + V2_02)
    _lock_early(lab, "a1_predict", "C")
    hold.release()
    lab.wait_ready()
    assert lab.verdict("a1_predict") == "correct"
    lab.page.wait_for_selector("[data-notice=storage]")
    assert "storage is full" in lab.page.inner_text("[data-notice=storage]")
    ctx.close()


def test_an_early_lock_reaches_another_open_tab(browser, base_url, watch):
    ctx = browser.new_context(service_workers="block")
    first = LabDriver(ctx.new_page(), base_url)
    watch.attach(first.page)
    first.open("v2_02")
    hold = HeldPython(ctx)
    second = LabDriver(ctx.new_page(), base_url)
    watch.attach(second.page)
    second.page.goto(base_url + V2_02)
    _lock_early(second, "a1_predict", "C")
    hold.release()
    second.wait_ready()
    first.page.wait_for_selector('[data-question="a1_predict"][data-locked="true"]')
    first.lock("a1_reflect", "B")
    second.page.wait_for_selector('[data-question="a1_reflect"][data-locked="true"]')
    (attempt,) = first.attempts("v2_02")
    assert set(attempt["answers"]) == {"a1_predict", "a1_reflect"}
    ctx.close()


def test_a_prediction_can_be_locked_before_the_shell_has_loaded(browser, base_url, watch):
    """The inline script after the lab takes the lock from the first paint; the shell folds it in."""
    ctx = browser.new_context(service_workers="block")
    held = []
    ctx.route("**/assets/pylabs/page/shell.js*", lambda route: held.append(route))
    lab = LabDriver(ctx.new_page(), base_url)
    watch.attach(lab.page)
    lab.page.goto(base_url + V2_02, wait_until="commit")  # module scripts hold DOMContentLoaded back
    lab.page.wait_for_selector("[data-lab] + script", state="attached")  # parsed, so it has run
    assert lab.page.get_attribute("[data-lab]", "data-early") is None  # no module has run
    question = lab.question("a1_predict")
    question.locator('input[value="C"]').check()
    question.locator('[data-action="lock"]').click()
    assert question.get_attribute("data-locked") == "true"
    assert _early_entry(lab)["answers"]["a1_predict"]["choice"] == "C"
    while held:
        held.pop().continue_()
    lab.wait_ready()
    assert lab.verdict("a1_predict") == "correct"
    (attempt,) = lab.attempts("v2_02")
    assert attempt["answers"]["a1_predict"]["choice"] == "C"
    assert _early_entry(lab) is None
    ctx.close()


def test_a_first_visit_patches_no_block_it_already_shows(lab_page, context):
    """The page's static blocks are the default state's: Python's first render changes none of the
    acts' HTML (``data-hash`` matches), so the first render costs no DOM work."""
    context.add_init_script("""
      window.__patched = 0;
      document.addEventListener('DOMContentLoaded', () => {
        new MutationObserver((records) => {
          for (const r of records) if (r.target.closest && r.target.closest('[data-block^="act"]')) window.__patched++;
        }).observe(document.body, { childList: true, characterData: true, subtree: true });
      });""")
    page = lab_page.open("v2_02")
    assert page.page.evaluate("() => window.__patched") == 0
