"""Components: a failure state's callout takes its colour from the declared severity."""

import pytest

from pylabs.framework.components import Equation, FailureSpec, _strip_item, failure, math_peek
from pylabs.framework.markup import raw


def test_failure_is_a_danger_callout_by_default():
    html = str(failure(FailureSpec("x_oom", "Out of memory", act=1), "Too big."))
    assert 'class="pl-callout pl-callout--danger"' in html and 'data-failure="x_oom"' in html


def test_a_budget_failure_can_be_a_warning():
    html = str(failure(FailureSpec("x_budget", "Over budget", act=2, severity="warn"), "Costly."))
    assert 'class="pl-callout pl-callout--warn"' in html and 'role="alert"' in html


def test_an_unknown_severity_is_refused():
    with pytest.raises(AssertionError, match="severity 'info'"):
        FailureSpec("x", "X", act=1, severity="info")


def test_kept_markup_tells_text_from_markup():
    """The kept strip items and peek equations render text escaped and Markup as it is, in either order."""
    text, markup = _strip_item("n", "a&b", "1", None), _strip_item("n", raw("a&b"), "1", None)
    assert "a&amp;b" in text and "a&b<" in markup
    marked = math_peek("p", [Equation(raw("a<b"), "c")])
    plain = math_peek("p", [Equation("a<b", "c")])
    assert ">a&lt;b</div>" in plain and ">a<b</div>" in marked
