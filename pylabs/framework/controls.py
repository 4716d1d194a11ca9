"""Controls, declared once as data.

A control record generates its build-time HTML, its ``labs.json`` entry and
its ``data-control`` hook, and converts the JSON scalar the browser sends
into a Python value (``parse``). JavaScript keeps no second copy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping

from .formats import fmt
from .markup import Markup, classes, h


class ControlError(ValueError):
    """A control declared with impossible bounds, step or default."""


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise ControlError(message)


@dataclass(frozen=True)
class Slider:
    """A range input in SI units; ``fmt`` shows its value, ``unit`` names it."""

    name: str
    label: str
    unit: str
    min: float
    max: float
    step: float
    default: float
    fmt: str = "num"
    scale: str = "linear"  # "log2": the slider moves the exponent, values are powers of two
    help: str = ""
    kind: str = field(default="slider", init=False)

    def __post_init__(self) -> None:
        for attr in ("min", "max", "step", "default"):
            object.__setattr__(self, attr, float(getattr(self, attr)))
        _check(self.min < self.max, f"slider {self.name!r}: min {self.min} must be below max {self.max}")
        _check(self.step > 0, f"slider {self.name!r}: step {self.step} must be positive")
        _check(self.min <= self.default <= self.max,
               f"slider {self.name!r}: default {self.default} is outside [{self.min}, {self.max}]; "
               "move the default or widen the range")
        _check(self.scale in ("linear", "log2"), f"slider {self.name!r}: scale must be 'linear' or 'log2'")
        if self.scale == "log2":
            for bound in (self.min, self.max, self.default):
                _check(bound > 0 and math.log2(bound).is_integer(),
                       f"slider {self.name!r}: log2 bounds and default must be powers of two, got {bound}")
        fmt(self.default, self.fmt)  # fails early on an unknown format name

    def parse(self, raw: Any) -> float:
        """Convert the browser's value: a number, clamped to [min, max] and snapped to the step."""
        try:
            value = float(raw)
        except (TypeError, ValueError):
            return self.default
        if not math.isfinite(value):
            return self.default
        value = min(self.max, max(self.min, value))
        if self.scale == "log2":
            return float(2 ** round(math.log2(value)))
        steps = round((value - self.min) / self.step)
        snapped = self.min + steps * self.step
        return float(min(self.max, round(snapped, 12)))

    def position(self, value: float) -> float:
        """Where the native range input sits for ``value`` (the exponent for log2 sliders)."""
        return math.log2(value) if self.scale == "log2" else value

    def manifest(self) -> dict:
        return {"name": self.name, "kind": self.kind, "label": self.label, "unit": self.unit,
                "min": self.min, "max": self.max, "step": self.step, "default": self.default,
                "scale": self.scale, "options": None}


@dataclass(frozen=True)
class Option:
    """One choice of a ``Choice`` control: the wire value and what the student reads."""

    value: str
    label: str


@dataclass(frozen=True)
class Choice:
    """One of a few named options: radio buttons (``widget='radio'``) or a select."""

    name: str
    label: str
    options: tuple[Option, ...]
    default: str
    widget: str = "radio"
    unit: str = ""
    help: str = ""
    kind: str = field(default="choice", init=False)

    def __post_init__(self) -> None:
        values = [o.value for o in self.options]
        _check(len(values) >= 2, f"choice {self.name!r}: needs at least two options")
        _check(len(set(values)) == len(values), f"choice {self.name!r}: option values repeat: {values}")
        _check(self.default in values,
               f"choice {self.name!r}: default {self.default!r} is not one of {values}")
        _check(self.widget in ("radio", "select"), f"choice {self.name!r}: widget must be 'radio' or 'select'")

    def parse(self, raw: Any) -> str:
        return raw if isinstance(raw, str) and raw in self.values else self.default

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(o.value for o in self.options)

    def label_of(self, value: str) -> str:
        return next(o.label for o in self.options if o.value == value)

    def manifest(self) -> dict:
        return {"name": self.name, "kind": self.widget, "label": self.label, "unit": self.unit,
                "min": None, "max": None, "step": None, "default": self.default,
                "options": list(self.values)}


@dataclass(frozen=True)
class Toggle:
    """An on/off switch (a checkbox)."""

    name: str
    label: str
    default: bool = False
    help: str = ""
    unit: str = ""
    kind: str = field(default="toggle", init=False)

    def parse(self, raw: Any) -> bool:
        if isinstance(raw, bool):
            return raw
        if raw in ("true", "on", "1", 1):
            return True
        if raw in ("false", "off", "0", 0):
            return False
        return self.default

    def manifest(self) -> dict:
        return {"name": self.name, "kind": "checkbox", "label": self.label, "unit": self.unit,
                "min": None, "max": None, "step": None, "default": self.default, "options": None}


Control = Slider | Choice | Toggle


def parse_controls(controls: tuple[Control, ...], raw: Mapping[str, Any] | None) -> dict[str, Any]:
    """The one place wire values become Python values: every control gets a valid value."""
    raw = raw if isinstance(raw, Mapping) else {}
    return {c.name: c.parse(raw[c.name]) if c.name in raw else c.default for c in controls}


# ---- rendering -------------------------------------------------------------------

def _field_id(name: str) -> str:
    return f"pl-control-{name}"


def _help(control: Control, reason: str = "") -> Markup | None:
    """The control's help line; when the state overrides the control, the reason replaces it."""
    if not (control.help or reason):
        return None
    return h("p", {"class": classes("pl-control__help", reason and "pl-control__help--reason"),
                   "id": f"{_field_id(control.name)}-help"}, reason or control.help)


def _described(control: Control, reason: str) -> str | None:
    return f"{_field_id(control.name)}-help" if control.help or reason else None


def render_slider(c: Slider, value: float, disabled: bool, reason: str = "") -> Markup:
    shown = fmt(value, c.fmt)
    position = c.position(value)
    lo, hi = c.position(c.min), c.position(c.max)
    step = 1 if c.scale == "log2" else c.step
    return h("div", {"class": "pl-control pl-control--slider"},
             h("label", {"class": "pl-control__label", "for": _field_id(c.name)},
               h("span", {"class": "pl-control__name"}, c.label),
               h("output", {"class": "pl-control__value", "for": _field_id(c.name),
                            "data-control-value": c.name}, shown)),
             h("input", {"type": "range", "id": _field_id(c.name), "data-control": c.name,
                         "min": _num(lo), "max": _num(hi), "step": _num(step), "value": _num(position),
                         "data-scale": c.scale if c.scale != "linear" else None,
                         "aria-valuetext": shown, "aria-describedby": _described(c, reason),
                         "disabled": disabled}),
             _help(c, reason))


def render_choice(c: Choice, value: str, disabled: bool, reason: str = "") -> Markup:
    if c.widget == "select":
        options = [h("option", {"value": o.value, "selected": o.value == value}, o.label) for o in c.options]
        return h("div", {"class": "pl-control pl-control--select"},
                 h("label", {"class": "pl-control__label", "for": _field_id(c.name)},
                   h("span", {"class": "pl-control__name"}, c.label)),
                 h("select", {"id": _field_id(c.name), "data-control": c.name, "disabled": disabled,
                              "aria-describedby": _described(c, reason)},
                   options),
                 _help(c, reason))
    radios = [
        h("label", {"class": "pl-choice"},
          h("input", {"type": "radio", "name": _field_id(c.name), "value": o.value, "data-control": c.name,
                      "checked": o.value == value, "disabled": disabled}),
          h("span", {"class": "pl-choice__label"}, o.label))
        for o in c.options
    ]
    return h("fieldset", {"class": "pl-control pl-control--radio",
                          "aria-describedby": _described(c, reason) if reason else None},
             h("legend", {"class": "pl-control__label"}, h("span", {"class": "pl-control__name"}, c.label)),
             h("div", {"class": "pl-choice-group"}, radios),
             _help(c, reason))


def render_toggle(c: Toggle, value: bool, disabled: bool, reason: str = "") -> Markup:
    return h("div", {"class": "pl-control pl-control--toggle"},
             h("label", {"class": "pl-switch", "for": _field_id(c.name)},
               h("input", {"type": "checkbox", "id": _field_id(c.name), "data-control": c.name,
                           "role": "switch", "checked": bool(value), "disabled": disabled,
                           "aria-describedby": _described(c, reason) if reason else None}),
               h("span", {"class": "pl-control__name"}, c.label)),
             _help(c, reason))


def render_control(c: Control, value: Any, disabled: bool = False, reason: str = "") -> Markup:
    """A control's markup. A ``reason`` (the state overrides this control) disables it and is shown
    in place of its help, so the student sees why it does not respond."""
    disabled = disabled or bool(reason)
    if isinstance(c, Slider):
        return render_slider(c, value, disabled, reason)
    if isinstance(c, Choice):
        return render_choice(c, value, disabled, reason)
    return render_toggle(c, value, disabled, reason)


def _num(value: float) -> str:
    """A number as the DOM wants it: integers without '.0', floats with repr precision."""
    value = float(value)
    return str(int(value)) if value.is_integer() and abs(value) < 2**53 else repr(value)
