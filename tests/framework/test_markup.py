from pylabs.framework.markup import h, join, raw


def test_text_children_are_escaped():
    assert h("p", None, "<script>") == "<p>&lt;script&gt;</p>"


def test_attribute_values_are_escaped():
    assert h("a", {"title": '"><img src=x>'}) == '<a title="&quot;&gt;&lt;img src=x&gt;"></a>'


def test_boolean_and_missing_attributes():
    assert h("input", {"disabled": True, "checked": False, "value": None}) == "<input disabled>"


def test_raw_is_not_escaped_and_lists_flatten():
    assert join(raw("<b>x</b>"), ["a", ["<"]]) == "<b>x</b>a&lt;"


# ---- inline links in rich text ------------------------------------------------------------

import pytest  # noqa: E402

from pylabs.framework.components import rich, safe_url  # noqa: E402


def test_relative_and_https_links_become_anchors():
    assert rich("see [**V2-02**](../02-interconnect-wall/) & more") == (
        'see <a href="../02-interconnect-wall/"><strong>V2-02</strong></a> &amp; more')
    assert rich("[paper](https://arxiv.org/abs/2104.04473?x=1&y=2)") == (
        '<a href="https://arxiv.org/abs/2104.04473?x=1&amp;y=2">paper</a>')


@pytest.mark.parametrize("url", ["javascript:alert", "JavaScript:x", "data:text/html,x", "http://example.com",
                                 "//evil.example", "/\\evil.example", "https://", "mailto:a@b.c"])
def test_other_urls_stay_text(url):
    assert not safe_url(url)
    assert "<a" not in rich(f"[x]({url})")


def test_link_text_and_url_are_escaped():
    out = rich('[<img src=x>](a/"b")')
    assert "<img" not in out
    assert 'href="a/&quot;b&quot;"' in out
