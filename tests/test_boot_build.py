"""Build pieces of issue 9 without a browser: the snapshot's name follows Pyodide and the wheel,
the snapshot can be switched off, the service worker lists the runtime and carries the build id, and
a lab page names the search worker that waits for the lab."""

from __future__ import annotations

import hashlib
import json

import pytest

from build_scripts import offline, site_content, snapshot


def test_snapshot_key_follows_pyodide_and_the_wheel(tmp_path):
    wheel = tmp_path / "pylabs.whl"
    wheel.write_bytes(b"one")
    first = snapshot.snapshot_key("314.0.7", "abc", wheel)
    assert snapshot.snapshot_key("314.0.7", "abc", wheel) == first
    assert snapshot.snapshot_key("314.0.8", "abc", wheel) != first
    assert snapshot.snapshot_key("314.0.7", "abd", wheel) != first
    wheel.write_bytes(b"two")
    assert snapshot.snapshot_key("314.0.7", "abc", wheel) != first


def test_snapshot_can_be_switched_off(monkeypatch, tmp_path):
    monkeypatch.setenv("PYLABS_SNAPSHOT", "off")
    assert not snapshot.enabled()
    assert snapshot.make_snapshot(tmp_path, tmp_path / "missing.whl", "314.0.7") is None
    monkeypatch.delenv("PYLABS_SNAPSHOT")
    assert snapshot.enabled()


def test_build_id_is_read_from_the_vendored_pyodide(tmp_path):
    (tmp_path / "pyodide.mjs").write_text('x={BUILD_ID:"990c3b"}')
    assert snapshot.pyodide_build_id(tmp_path) == "990c3b"


def _site(tmp_path):
    site = tmp_path / "site"
    for path in ("assets/pylabs/page/lab.js", "assets/pylabs/worker/worker.js", "vendor/pyodide/pyodide.mjs",
                 "vendor/pyodide/pyodide.asm.wasm", "sitemap.xml", "vol2/02/index.html",
                 "assets/javascripts/workers/search.abc.min.js"):
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_text(path)
    return site


def test_service_worker_lists_the_runtime_and_changes_with_the_build(tmp_path):
    site = _site(tmp_path)
    runtime = {"wheel": "assets/pylabs/pylabs.whl?v=1", "plotly": "vendor/plotly/plotly.min.js",
               "snapshot": {"url": "assets/pylabs/snapshot-k.bin.gz"}}
    build = offline.write_service_worker(site, runtime)
    text = (site / "sw.js").read_text()
    assert f'const BUILD = "{build}";' in text and "__CORE__" not in text
    core = json.loads(text.split("const CORE = ")[1].split(";\n")[0])
    # Material's search worker too: search-later.js imports it, sometimes before the service worker
    # controls the page, so offline the lab page threw "importScripts … failed to load"
    for needed in ("assets/javascripts/workers/search.abc.min.js",
                   "assets/pylabs/worker/worker.js", "vendor/pyodide/pyodide.asm.wasm", "assets/pylabs/snapshot-k.bin.gz",
                   "assets/pylabs/pylabs.whl?v=1", "sitemap.xml"):
        assert needed in core
    digests = json.loads(text.split("const DIGESTS = ")[1].split(";\n")[0])
    # a copy handed off by a page is checked against the bytes this build wrote (issue 22)
    assert digests["vendor/pyodide/pyodide.asm.wasm"] == hashlib.sha256(b"vendor/pyodide/pyodide.asm.wasm").hexdigest()
    assert "sitemap.xml" not in digests and "assets/pylabs/snapshot-k.bin.gz" not in digests  # rewritten by hosts; absent here
    assert offline.write_service_worker(site, runtime) == build  # sw.js itself is not part of the id
    (site / "vol2/02/index.html").write_text("a new page")
    assert offline.write_service_worker(site, runtime) != build


def test_a_lab_page_names_the_held_search_worker_and_only_it():
    page = ('<script id="__config" type="application/json">{"base": "../..", "search": '
            '"../../assets/javascripts/workers/search.a7633da7.min.js", "tags": null}</script>')
    held = site_content.search_later(page)
    assert '"search": "../../assets/pylabs/worker/search-later.js?material=search.a7633da7.min.js"' in held
    assert held.replace("assets/pylabs/worker/search-later.js?material=", "assets/javascripts/workers/") == page
    with pytest.raises(ValueError, match="names no search worker"):
        site_content.search_later(page.replace("search.a7633da7", "other"))
