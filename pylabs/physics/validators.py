"""Argument checks for the physics modules, written once.

A physics function checks its inputs before it computes and, when one is wrong, says so in words
a lab author can act on: which argument, the value it got, the rule it broke and what to pass
instead. ``require`` writes that sentence; the ``require_*`` helpers name the rules that recur
(a count, a positive size, a fraction), and ``check`` raises a message written out whole.

A module whose messages read differently passes its own ``form`` (the fields are name, value,
rule and fix) or ``error`` class; the text a test or a lab shows stays that module's own.
"""

import math

HOUSE = "{name} must be {rule} (got {value!r}); {fix}"


def require(ok: bool, name: str, value: object, rule: str, fix: str = "", *,
            form: str = HOUSE, error: type[Exception] = ValueError) -> None:
    """Raise ``error`` naming the argument, its value, the rule and the fix, unless ok."""
    if not ok:
        raise error(form.format(name=name, value=value, rule=rule, fix=fix))


def check(ok: bool, message: str, error: type[Exception] = ValueError) -> None:
    """Raise ``error(message)`` unless ok."""
    if not ok:
        raise error(message)


def is_count(value: float, minimum: int = 1) -> bool:
    """True when value is a finite whole number >= minimum (8 and 8.0 both count)."""
    return math.isfinite(value) and value >= minimum and value == int(value)


def require_count(name: str, value: float, fix: str, minimum: int = 1) -> None:
    """A whole number of GPUs, stages, ranks...: at least ``minimum``."""
    require(is_count(value, minimum), name, value, f"a whole number >= {minimum}", fix)


def require_positive(name: str, value: float, fix: str, rule: str = "> 0") -> None:
    """A size or rate above zero; infinity passes (an unbounded link, say)."""
    require(value > 0, name, value, rule, fix)


def require_finite_positive(name: str, value: float, fix: str, rule: str = "> 0") -> None:
    """A size, rate or duration: finite and above zero."""
    require(math.isfinite(value) and value > 0, name, value, rule, fix)


def require_non_negative(name: str, value: float, fix: str, rule: str = ">= 0") -> None:
    """An amount that may be zero (no infinity check: an unbounded amount is the caller's to allow)."""
    require(value >= 0, name, value, rule, fix)


def require_fraction(name: str, value: float, fix: str) -> None:
    """A share that may be zero or whole: in [0, 1]."""
    require(0 <= value <= 1, name, value, "in [0, 1]", fix)


def require_positive_fraction(name: str, value: float, fix: str) -> None:
    """A share that must leave something: in (0, 1] (utilisation, efficiency)."""
    require(0 < value <= 1, name, value, "in (0, 1]", fix)
