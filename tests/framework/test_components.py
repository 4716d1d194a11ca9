"""Framework components: failure callouts carry their severity."""

import pytest

from pylabs.framework.components import FailureSpec, failure


def test_failure_is_a_danger_callout_by_default():
    html = str(failure(FailureSpec("x", "Broken", act=1), "why"))
    assert "pl-callout--danger" in html and 'data-failure="x"' in html


def test_a_soft_limit_renders_as_a_warning():
    html = str(failure(FailureSpec("y", "Slow", act=2, kind="warn"), "why"))
    assert "pl-callout--warn" in html and 'data-failure="y"' in html and 'role="alert"' in html


def test_unknown_failure_kind_is_refused():
    with pytest.raises(AssertionError, match="kind must be"):
        FailureSpec("z", "?", act=1, kind="info")
