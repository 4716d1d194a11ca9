"""In a real browser: on a first visit every file of the site crosses the network once.

The service worker installs after the lab is ready and keeps the runtime for offline use; the
boot worker and the page hand it what they downloaded (docs/assets/pylabs/shared/handoff.js), so its
install does not fetch the Python image (11 MB) and pyodide.asm.wasm (9.6 MB) a second time.
The server here counts the requests it answers, per path, as a static host would see them."""

from __future__ import annotations

import pytest

from tools.serve import serve_in_thread
from tests.e2e.conftest import PREFIX
from tests.e2e.driver import LabDriver, PageWatch

pytestmark = pytest.mark.e2e

V2_02 = "vol2/02-interconnect-wall/"
AFTER_READY_MS = 15_000  # the window: what the service worker does once the lab is ready


@pytest.fixture
def counting_site(site_dir):
    """The site on its own server, with the requests answered per path (query left out)."""
    served: dict[str, list[int]] = {}
    server, base_url = serve_in_thread(site_dir, PREFIX, served)
    yield base_url, served
    server.shutdown()


def test_a_first_visit_fetches_each_file_once(browser, counting_site):
    base_url, served = counting_site
    ctx = browser.new_context()  # a fresh profile: nothing cached, no service worker
    lab = LabDriver(ctx.new_page(), base_url)
    watch = PageWatch(base_url)
    watch.attach(lab.page)
    lab.page.goto(base_url + V2_02)  # not lab.open: its look-up of labs.json is not the page's
    lab.wait_ready()
    lab.page.wait_for_selector("html[data-offline=ready]", timeout=60_000)
    lab.page.wait_for_timeout(AFTER_READY_MS)
    twice = {path: codes for path, codes in served.items() if len(codes) > 1}
    assert not twice, f"fetched more than once: {twice}"
    # the runtime did come from this server, once each
    for name in ("pyodide.asm.wasm", "python_stdlib.zip", ".bin.gz", "-py3-none-any.whl", "micropip-0.11.1-py3-none-any.whl"):
        assert sum(path.endswith(name) for path in served) == (2 if name == "-py3-none-any.whl" else 1), name
    # and the offline copy holds what the install was handed
    ctx.set_offline(True)
    lab.page.reload()
    lab.wait_ready()
    watch.assert_clean()
    ctx.close()
