"""End-to-end fixtures: the built site served on a free port under a sub-path, and
headless Debian Chromium driven by Playwright. Every page a test opens is checked
for uncaught errors, console errors and requests to any other host."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tools.serve import serve_in_thread
from tests.e2e.driver import LabDriver, PageWatch

ROOT = Path(__file__).resolve().parents[2]
SITE = Path(os.environ.get("PYLABS_SITE", ROOT / "site"))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
PREFIX = "/labs/"


def pytest_collection_modifyitems(items):
    for item in items:
        if "/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def site_dir() -> Path:
    if not (SITE / "labs.json").exists():
        subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(SITE)],
                       cwd=ROOT, check=True)
    return SITE


@pytest.fixture(scope="session")
def base_url(site_dir: Path) -> str:
    server, url = serve_in_thread(site_dir, PREFIX)
    yield url
    server.shutdown()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run `make test`, which installs Debian's chromium")
    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@pytest.fixture
def context(browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    yield ctx
    ctx.close()


@pytest.fixture
def watch(base_url):
    """Collects errors and foreign requests of every page registered with it; asserts none at the end."""
    collector = PageWatch(base_url)
    yield collector
    collector.assert_clean()


@pytest.fixture
def lab_page(context, base_url, watch) -> LabDriver:
    page = context.new_page()
    watch.attach(page)
    return LabDriver(page, base_url)
