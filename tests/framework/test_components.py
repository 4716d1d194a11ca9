"""Components: a failure state's callout takes its colour from the declared severity."""

import pytest

from pylabs.framework.components import FailureSpec, failure


def test_failure_is_a_danger_callout_by_default():
    html = str(failure(FailureSpec("x_oom", "Out of memory", act=1), "Too big."))
    assert 'class="pl-callout pl-callout--danger"' in html and 'data-failure="x_oom"' in html


def test_a_budget_failure_can_be_a_warning():
    html = str(failure(FailureSpec("x_budget", "Over budget", act=2, severity="warn"), "Costly."))
    assert 'class="pl-callout pl-callout--warn"' in html and 'role="alert"' in html


def test_an_unknown_severity_is_refused():
    with pytest.raises(AssertionError, match="severity 'info'"):
        FailureSpec("x", "X", act=1, severity="info")
