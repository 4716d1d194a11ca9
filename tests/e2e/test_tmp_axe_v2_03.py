import pytest
from tests.e2e.driver import LabDriver
from tests.e2e.test_experience import axe_violations, open_everything

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_v2_03(browser, base_url, watch, scheme):
    ctx = browser.new_context(color_scheme=scheme)
    page = LabDriver(ctx.new_page(), base_url)
    watch.attach(page.page)
    page.open("v2_03")
    before = axe_violations(page.page)
    open_everything(page, "v2_03")
    after = axe_violations(page.page)
    ctx.close()
    assert (before, after) == ([], [])
