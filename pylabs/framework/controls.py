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
    scale: str = "linear"  # "log2": the slider moves the exponent, values are powers of two;
    # "log": continuous, the slider moves log10 of the value in ``steps`` equal steps and values are
    # snapped to ``sig_figs`` significant figures (``step`` is not used, as for "log2")
    help: str = ""
    steps: int = 200
    sig_figs: int = 2
    kind: str = field(default="slider", init=False)

    def __post_init__(self) -> None:
        for attr in ("min", "max", "step", "default"):
            object.__setattr__(self, attr, float(getattr(self, attr)))
        _check(self.min < self.max, f"slider {self.name!r}: min {self.min} must be below max {self.max}")
        _check(self.step > 0, f"slider {self.name!r}: step {self.step} must be positive")
        _check(self.min <= self.default <= self.max,
               f"slider {self.name!r}: default {self.default} is outside [{self.min}, {self.max}]; "
               "move the default or widen the range")
        _check(self.scale in ("linear", "log2", "log"),
               f"slider {self.name!r}: scale must be 'linear', 'log2' or 'log', got {self.scale!r}")
        if self.scale == "log2":
            for bound in (self.min, self.max, self.default):
                _check(bound > 0 and math.log2(bound).is_integer(),
                       f"slider {self.name!r}: log2 bounds and default must be powers of two, got {bound}")
        if self.scale == "log":
            self._check_log()
        fmt(self.default, self.fmt)  # fails early on an unknown format name

    def _check_log(self) -> None:
        _check(self.min > 0, f"slider {self.name!r}: a log slider needs min > 0, got {self.min}")
        _check(isinstance(self.steps, int) and self.steps >= 2,
               f"slider {self.name!r}: steps must be an integer of at least 2, got {self.steps!r}")
        _check(isinstance(self.sig_figs, int) and 1 <= self.sig_figs <= 6,
               f"slider {self.name!r}: sig_figs must be an integer from 1 to 6, got {self.sig_figs!r}")
        _check(self._snap_log(self.default) == self.default,
               f"slider {self.name!r}: default {self.default} has more than {self.sig_figs} significant "
               f"figures; use {self._snap_log(self.default)} or raise sig_figs")

    def _snap_log(self, value: float) -> float:
        """``value`` (already in range) to ``sig_figs`` significant figures; a bound stays itself."""
        if value in (self.min, self.max):
            return value
        return min(self.max, max(self.min, float(f"{value:.{self.sig_figs - 1}e}")))

    def at(self, fraction: float) -> float:
        """The value ``fraction`` of the way along the range (geometric on a log scale), before
        ``parse`` snaps it: where a warm-up or a measurement puts the slider."""
        low, high = self.min, self.max
        return low + (high - low) * fraction if self.scale == "linear" else low * (high / low) ** fraction

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
        if self.scale == "log":
            return self._snap_log(value)
        steps = round((value - self.min) / self.step)
        snapped = self.min + steps * self.step
        return float(min(self.max, round(snapped, 12)))

    def position(self, value: float) -> float:
        """Where the native range input sits for ``value`` (the exponent for log2 and log sliders)."""
        if self.scale == "log2":
            return math.log2(value)
        return math.log10(value) if self.scale == "log" else value

    @property
    def position_step(self) -> float:
        """The native range input's step: 1 exponent (log2), a fraction of the decades (log)."""
        if self.scale == "log2":
            return 1.0
        if self.scale == "log":
            return (math.log10(self.max) - math.log10(self.min)) / self.steps
        return self.step

    def manifest(self) -> dict:
        # For a log slider, ``step`` is the range input's step in decades (log10 of the value).
        step = self.position_step if self.scale == "log" else self.step
        return {"name": self.name, "kind": self.kind, "label": self.label, "unit": self.unit,
                "min": self.min, "max": self.max, "step": step, "default": self.default,
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


@dataclass(frozen=True)
class Number:
    """A typed number in ``unit`` (the student types in that unit), with bounds and a step.

    ``parse`` turns what the browser sends (the input's text, or a number) into a value in
    [min, max] on the step from ``min``; text that is not a finite number gives the default.
    ``entry`` keeps what the student typed when it was not taken as given, so the page can
    show it with a message (``problem``) instead of rewriting the field under their cursor.
    """

    name: str
    label: str
    unit: str
    min: float
    max: float
    step: float
    default: float
    fmt: str = "num"
    help: str = ""
    kind: str = field(default="number", init=False)

    def __post_init__(self) -> None:
        for attr in ("min", "max", "step", "default"):
            object.__setattr__(self, attr, float(getattr(self, attr)))
        _check(self.min < self.max, f"number {self.name!r}: min {self.min} must be below max {self.max}")
        _check(self.step > 0, f"number {self.name!r}: step {self.step} must be positive")
        _check(self.min <= self.default <= self.max,
               f"number {self.name!r}: default {self.default} is outside [{self.min}, {self.max}]; "
               "move the default or widen the range")
        _check(self._snap(self.default) == self.default,
               f"number {self.name!r}: default {self.default} is not min + a whole number of steps "
               f"of {self.step}; use {self._snap(self.default)}")
        fmt(self.default, self.fmt)

    @staticmethod
    def _number(raw: Any) -> float | None:
        """A finite float from a number or numeric text; None for anything else (bools included)."""
        if isinstance(raw, bool) or not isinstance(raw, (int, float, str)):
            return None
        try:
            value = float(raw.strip() if isinstance(raw, str) else raw)
        except ValueError:
            return None
        return value if math.isfinite(value) else None

    def _snap(self, value: float) -> float:
        steps = round((value - self.min) / self.step)
        return float(min(self.max, round(self.min + steps * self.step, 12)))

    def parse(self, raw: Any) -> float:
        value = self._number(raw)
        return self.default if value is None else self._snap(min(self.max, max(self.min, value)))

    def entry(self, raw: Any) -> str | None:
        """What the student typed, when it was not taken as given (None when it was)."""
        value = self._number(raw)
        if value is not None and self.parse(raw) == value:
            return None
        return str(raw)[:40] if isinstance(raw, (str, int, float)) and not isinstance(raw, bool) else ""

    def problem(self, entered: str) -> str:
        """Why ``entered`` was not taken as given, and the value the lab uses instead."""
        used, unit = self.parse(entered), f" {self.unit}" if self.unit else ""
        span = f"from {fmt(self.min, self.fmt)} to {fmt(self.max, self.fmt)}{unit}"
        value = self._number(entered)
        if value is None:  # the browser sends "" for an empty field and for text it cannot read
            start = f"“{entered}” is not a number: enter one" if entered.strip() else "Enter a number"
            return f"{start} {span}. The lab uses the default, {fmt(used, self.fmt)}{unit}."
        if not self.min <= value <= self.max:
            return f"{entered} is outside the range {span}. The lab uses {fmt(used, self.fmt)}{unit}."
        return f"{entered} is between steps of {fmt(self.step, self.fmt)}. The lab uses {fmt(used, self.fmt)}{unit}."

    def manifest(self) -> dict:
        return {"name": self.name, "kind": self.kind, "label": self.label, "unit": self.unit,
                "min": self.min, "max": self.max, "step": self.step, "default": self.default, "options": None}


@dataclass(frozen=True)
class MultiChoice:
    """Any number of named options (checkboxes); the value is a tuple in declared order.

    The browser sends a list of option values; links and the ledger keep a comma list
    (``stored``). Unknown values are dropped and repeats removed; a selection with fewer than
    ``min_selected`` or more than ``max_selected`` options gives the default, with a message.
    """

    name: str
    label: str
    options: tuple[Option, ...]
    default: tuple[str, ...] = ()
    min_selected: int = 0
    max_selected: int | None = None
    unit: str = ""
    help: str = ""
    kind: str = field(default="multi", init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "default", tuple(self.default))
        values = [o.value for o in self.options]
        _check(len(values) >= 2, f"multi-choice {self.name!r}: needs at least two options")
        _check(len(set(values)) == len(values), f"multi-choice {self.name!r}: option values repeat: {values}")
        _check(all("," not in v for v in values),
               f"multi-choice {self.name!r}: option values may not contain commas (links keep a comma list)")
        top = len(values) if self.max_selected is None else self.max_selected
        _check(0 <= self.min_selected <= top <= len(values),
               f"multi-choice {self.name!r}: need 0 <= min_selected ({self.min_selected}) <= max_selected "
               f"({self.max_selected}) <= {len(values)} options")
        _check(self._known(self.default) == self.default and self._allowed(self.default),
               f"multi-choice {self.name!r}: default {self.default!r} must be distinct known values in "
               f"declared order, {self.min_selected} to {top} of {values}")

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(o.value for o in self.options)

    def label_of(self, value: str) -> str:
        return next(o.label for o in self.options if o.value == value)

    @staticmethod
    def split(raw: Any) -> list | None:
        """The raw selection as a list: a list from the browser, a comma list from a link or the ledger."""
        if isinstance(raw, str):
            return [part.strip() for part in raw.split(",") if part.strip()]
        return list(raw) if isinstance(raw, (list, tuple)) else None

    def _known(self, picked: Any) -> tuple[str, ...]:
        """Known values of ``picked``, each once, in declared order."""
        chosen = {v for v in picked if isinstance(v, str)}
        return tuple(v for v in self.values if v in chosen)

    def _allowed(self, picked: tuple[str, ...]) -> bool:
        top = len(self.values) if self.max_selected is None else self.max_selected
        return self.min_selected <= len(picked) <= top

    def parse(self, raw: Any) -> tuple[str, ...]:
        items = self.split(raw)
        if items is None:
            return self.default
        picked = self._known(items)
        return picked if self._allowed(picked) else self.default

    def entry(self, raw: Any) -> tuple[str, ...] | None:
        """The student's known picks when their count was refused (None when it was accepted)."""
        items = self.split(raw)
        picked = self._known(items) if items is not None else None
        return picked if picked is not None and not self._allowed(picked) else None

    def problem(self, entered: tuple[str, ...]) -> str:
        top = self.max_selected
        if len(entered) < self.min_selected:
            need = f"at least {self.min_selected}"
        else:
            need = f"at most {top}"
        used = ", ".join(self.label_of(v) for v in self.default) or "none"
        return f"Pick {need} (you picked {len(entered)}). The lab uses the default: {used}."

    def stored(self, value: tuple[str, ...]) -> str:
        return ",".join(value)

    def manifest(self) -> dict:
        return {"name": self.name, "kind": self.kind, "label": self.label, "unit": self.unit,
                "min": self.min_selected, "max": self.max_selected, "step": None,
                "default": list(self.default), "options": list(self.values)}


Control = Slider | Choice | Toggle | Number | MultiChoice


def parse_controls(controls: tuple[Control, ...], raw: Mapping[str, Any] | None) -> dict[str, Any]:
    """The one place wire values become Python values: every control gets a valid value."""
    raw = raw if isinstance(raw, Mapping) else {}
    return {c.name: c.parse(raw[c.name]) if c.name in raw else c.default for c in controls}


def controls_entered(controls: tuple[Control, ...], raw: Mapping[str, Any] | None) -> dict[str, Any]:
    """What the student entered in a number or multi-choice control that was not taken as given
    (the page shows it with a message; the model uses the parsed value)."""
    raw = raw if isinstance(raw, Mapping) else {}
    entered = {c.name: c.entry(raw[c.name]) for c in controls
               if isinstance(c, (Number, MultiChoice)) and c.name in raw}
    return {name: value for name, value in entered.items() if value is not None}


def stored_controls(controls: tuple[Control, ...], values: Mapping[str, Any]) -> dict[str, Any]:
    """Control values as the ledger and links keep them: flat scalars (a multi-choice as a comma list)."""
    by_name = {c.name: c for c in controls}
    return {name: by_name[name].stored(v) if isinstance(by_name.get(name), MultiChoice) else v
            for name, v in values.items()}


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
    step = c.position_step
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


def _problem(c: Number | MultiChoice, entered: Any) -> Markup | None:
    """The validation message beside a control whose entry the lab did not take as given."""
    if entered is None:
        return None
    return h("p", {"class": "pl-control__problem", "id": f"{_field_id(c.name)}-problem"}, c.problem(entered))


def _described_by(c: Control, reason: str, entered: Any) -> str | None:
    ids = [_described(c, reason), f"{_field_id(c.name)}-problem" if entered is not None else None]
    return " ".join(i for i in ids if i) or None


def render_number(c: Number, value: float, disabled: bool, reason: str = "", entered: str | None = None) -> Markup:
    """A number field; while the student's text is refused it stays in the field, with the reason."""
    fid = _field_id(c.name)
    unit = h("span", {"class": "pl-control__unit", "id": f"{fid}-unit"}, c.unit) if c.unit else None
    return h("div", {"class": "pl-control pl-control--number"},
             h("label", {"class": "pl-control__label", "for": fid, "id": f"{fid}-label"},
               h("span", {"class": "pl-control__name"}, c.label)),
             h("div", {"class": "pl-number"},
               h("input", {"type": "number", "id": fid, "data-control": c.name,
                           "min": _num(c.min), "max": _num(c.max), "step": _num(c.step),
                           "value": _num(value) if entered is None else entered,
                           "inputmode": "decimal" if c.min >= 0 else "text",
                           "aria-labelledby": f"{fid}-label {fid}-unit" if c.unit else None,
                           "aria-invalid": "true" if entered is not None else None,
                           "aria-describedby": _described_by(c, reason, entered), "disabled": disabled}),
               unit),
             _problem(c, entered),
             _help(c, reason))


def render_multi(c: MultiChoice, value: tuple[str, ...], disabled: bool, reason: str = "",
                 entered: tuple[str, ...] | None = None) -> Markup:
    """Checkboxes sharing ``data-control``; a refused selection stays ticked, with the reason."""
    ticked = value if entered is None else entered
    boxes = [
        h("label", {"class": "pl-choice"},
          h("input", {"type": "checkbox", "name": _field_id(c.name), "value": o.value, "data-control": c.name,
                      "data-multi": True, "checked": o.value in ticked, "disabled": disabled}),
          h("span", {"class": "pl-choice__label"}, o.label))
        for o in c.options
    ]
    return h("fieldset", {"class": "pl-control pl-control--multi",
                          "aria-describedby": _described_by(c, reason, entered)},
             h("legend", {"class": "pl-control__label"}, h("span", {"class": "pl-control__name"}, c.label)),
             h("div", {"class": "pl-choice-group"}, boxes),
             _problem(c, entered),
             _help(c, reason))


_RENDERED: dict[tuple, Markup] = {}
_RENDERED_MAX = 512


def render_control(c: Control, value: Any, disabled: bool = False, reason: str = "", entered: Any = None) -> Markup:
    """A control's markup. A ``reason`` (the state overrides this control) disables it and is shown
    in place of its help, so the student sees why it does not respond. ``entered``: what the student
    typed or ticked in a number or multi-choice control that the lab did not take as given.

    Controls are frozen and their markup depends only on these arguments, so it is kept: a slider
    move re-renders the moved control, not the act's other controls."""
    try:
        key = (c, repr(value), disabled, reason, repr(entered))
        cached = _RENDERED.get(key)
    except TypeError:  # a control holding something unhashable: render it every time
        key, cached = None, None
    if cached is None:
        cached = _render_control(c, value, disabled, reason, entered)
        if key is not None:
            if len(_RENDERED) >= _RENDERED_MAX:
                _RENDERED.clear()
            _RENDERED[key] = cached
    return cached


def _render_control(c: Control, value: Any, disabled: bool, reason: str, entered: Any) -> Markup:
    disabled = disabled or bool(reason)
    if isinstance(c, Slider):
        return render_slider(c, value, disabled, reason)
    if isinstance(c, Choice):
        return render_choice(c, value, disabled, reason)
    if isinstance(c, Number):
        return render_number(c, value, disabled, reason, entered)
    if isinstance(c, MultiChoice):
        return render_multi(c, value, disabled, reason, entered)
    return render_toggle(c, value, disabled, reason)


def _num(value: float) -> str:
    """A number as the DOM wants it: integers without '.0', floats with repr precision."""
    value = float(value)
    return str(int(value)) if value.is_integer() and abs(value) < 2**53 else repr(value)
