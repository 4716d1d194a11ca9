"""Build pieces of the fast boot without a browser: the snapshot's name follows Pyodide and the wheel,
the snapshot can be switched off, the service worker lists the runtime (micropip's wheel too) and
carries the build id, a lab page names the search worker that waits for the lab, and micropip is
shipped only with its pinned hash."""

from __future__ import annotations

import hashlib
import json

import pytest

from build_scripts import micropip_wheel, offline, site_content, snapshot, vendor


def test_snapshot_key_follows_pyodide_micropip_and_the_wheel(monkeypatch, tmp_path):
    wheel = tmp_path / "pylabs.whl"
    wheel.write_bytes(b"one")
    first = snapshot.snapshot_key("314.0.7", "abc", wheel)
    assert snapshot.snapshot_key("314.0.7", "abc", wheel) == first
    assert snapshot.snapshot_key("314.0.8", "abc", wheel) != first
    assert snapshot.snapshot_key("314.0.7", "abd", wheel) != first
    wheel.write_bytes(b"two")
    assert snapshot.snapshot_key("314.0.7", "abc", wheel) != first
    wheel.write_bytes(b"one")
    monkeypatch.setattr(micropip_wheel, "SHA256", "another micropip")  # the image holds micropip imported
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
                 f"vendor/pyodide/{micropip_wheel.FILE_NAME}", "assets/pylabs/worker/micropip.js",
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
                   f"vendor/pyodide/{micropip_wheel.FILE_NAME}", "assets/pylabs/worker/micropip.js",  # a full boot's installer
                   "assets/pylabs/pylabs.whl?v=1", "sitemap.xml"):
        assert needed in core
    digests = json.loads(text.split("const DIGESTS = ")[1].split(";\n")[0])
    # a copy handed off by a page is checked against the bytes this build wrote
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


def test_micropip_is_shipped_only_with_the_pinned_hash(monkeypatch, tmp_path):
    """The build takes micropip's wheel from PyPI once, keeps it in the cache, builds from the cache
    with the network off, and refuses bytes with any other SHA-256 (from the network or the cache)."""
    good, bad = b"a wheel", b"another wheel"
    (tmp_path / "good.whl").write_bytes(good)
    (tmp_path / "bad.whl").write_bytes(bad)
    monkeypatch.setattr(micropip_wheel, "SHA256", hashlib.sha256(good).hexdigest())
    cache = tmp_path / "cache"
    with pytest.raises(micropip_wheel.MicropipError, match="not the pinned"):
        micropip_wheel.wheel_bytes(cache, (tmp_path / "bad.whl").as_uri())
    assert not (cache / micropip_wheel.FILE_NAME).exists()
    assert micropip_wheel.wheel_bytes(cache, (tmp_path / "good.whl").as_uri()) == good
    offline = (tmp_path / "missing.whl").as_uri()
    assert micropip_wheel.wheel_bytes(cache, offline) == good  # a warm cache needs no network
    (cache / micropip_wheel.FILE_NAME).write_bytes(bad)  # a cached file that is not the pinned one
    with pytest.raises(micropip_wheel.MicropipError, match="build once with the network on"):
        micropip_wheel.wheel_bytes(cache, offline)


def test_the_pinned_hash_is_pypis_micropip():
    """SHA256 is PyPI's micropip-0.11.1-py3-none-any.whl (its JSON API and `pip download` agree), which
    differs from the hash Pyodide's lock file gives for its own build of the same version."""
    assert micropip_wheel.SHA256 == "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"
    assert micropip_wheel.URL.endswith("/" + micropip_wheel.FILE_NAME)
    cached = micropip_wheel.CACHE / micropip_wheel.FILE_NAME
    if cached.exists():  # after a build
        assert hashlib.sha256(cached.read_bytes()).hexdigest() == micropip_wheel.SHA256


def test_the_lock_entry_names_the_shipped_wheel():
    lock = {"info": {}, "packages": {"micropip": {"name": "micropip", "version": "0.11.1", "sha256": "pyodides",
                                                  "file_name": "micropip-0.11.1-py3-none-any.whl", "depends": []},
                                     "numpy": {"sha256": "kept"}}}
    entry = micropip_wheel.point_lock_at(lock)["packages"]["micropip"]
    assert (entry["file_name"], entry["sha256"], entry["depends"]) == (micropip_wheel.FILE_NAME, micropip_wheel.SHA256, [])
    assert lock["packages"]["numpy"] == {"sha256": "kept"}
    lock["packages"]["micropip"]["version"] = "0.12.0"  # a new Pyodide wants another micropip
    with pytest.raises(micropip_wheel.MicropipError, match="pins 0.11.1"):
        micropip_wheel.point_lock_at(lock)
    vendored = vendor.MODULES / "pyodide" / "pyodide-lock.json"
    if vendored.exists():  # the npm Pyodide this repository pins names the micropip the build pins
        assert json.loads(vendored.read_text())["packages"]["micropip"]["version"] == micropip_wheel.VERSION
