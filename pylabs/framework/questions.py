"""Predictions and reflections: four options, one answer key, locked once.

A ``Prediction`` asks for a number before the student sees the instruments.
Each option covers a range; the correct option is the one whose range holds
the value the physics computes at the scenario's stated inputs, so the answer
key is never typed in. A ``Reflection`` asks why; its key is the letter whose
explanation is right, declared once.

One context per question: a lab's context (a device, a workload) changes what the
instruments compute, so the physics behind a key takes the context the student
predicts in. ``truth``, ``decide`` (and an act's ``facts``, ``stakeholder`` and
``scenario``) may take the context's value as their one argument; a function that
takes none says that the question is the same in every context. Prompts and option
texts may name context words (``{device}``) that the lab's ``terms`` fill in.
"""

from __future__ import annotations

import inspect
import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Mapping

from .formats import fmt

LETTERS = ("A", "B", "C", "D")


class QuestionError(ValueError):
    """A question declared with options that are not four, exclusive and complete."""


NO_TERMS: Mapping[str, str] = {}


@lru_cache(maxsize=None)
def takes_context(fn: Callable) -> bool:
    """Does ``fn`` take the context's value (one positional parameter), or nothing?"""
    try:
        params = [p for p in inspect.signature(fn).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty]
    except (TypeError, ValueError):  # a builtin such as ``dict``: called with nothing
        return False
    if len(params) > 1:
        raise QuestionError(f"{getattr(fn, '__name__', fn)!r} takes {len(params)} arguments; "
                            "give it the context's value or nothing")
    return len(params) == 1


def in_context(fn: Callable, context: str) -> Any:
    """``fn(context)`` or ``fn()``, as ``fn`` is declared (see ``takes_context``)."""
    return fn(context) if takes_context(fn) else fn()


def worded(text: str, terms: Mapping[str, str]) -> str:
    """A prompt or an option's text with the context's words filled in (``{device}``)."""
    try:
        return text.format_map(terms) if terms or "{" in text else text
    except KeyError as missing:
        raise QuestionError(f"text {text[:40]!r}… names {missing}, which the lab's terms do not give") from None



@dataclass(frozen=True)
class Claim:
    """An option of a reflection: its text and the feedback it earns."""

    letter: str
    text: str
    feedback: str


@dataclass(frozen=True)
class Range:
    """An option of a prediction: ``low <= value < high`` (``None`` is unbounded)."""

    letter: str
    text: str          # may use {range}: the formatted range, e.g. "3×–10×"
    low: float | None
    high: float | None
    guess: float       # the value a student choosing this option has in mind
    feedback: str = ""  # why this option's intuition is right or wrong

    def holds(self, value: float) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value < self.high)

    def edge(self, value: float) -> tuple[float, bool]:
        """The bound a value outside the range lies beyond, and whether it lies above it."""
        above = self.high is not None and value >= self.high
        return (self.high if above else self.low), above

    def range_text(self, unit_fmt: str) -> str:
        if self.low is None:
            return f"under {fmt(self.high, unit_fmt)}"
        if self.high is None:
            return f"{fmt(self.low, unit_fmt)} or more"
        return f"{fmt(self.low, unit_fmt)} to {fmt(self.high, unit_fmt)}"


@dataclass(frozen=True)
class Prediction:
    """A numeric prediction; ``truth`` computes the answer from the physics."""

    id: str
    act: int
    prompt: str
    quantity: str               # what is being predicted, e.g. "NVLink throughput ÷ 100 GbE throughput"
    unit_fmt: str               # format of the quantity (see formats.FORMATS)
    options: tuple[Range, ...]
    truth: Callable[..., float]  # physics at the scenario's stated inputs: truth(context) or truth()
    kind: str = "prediction"
    # the metric whose card shows the answer at the scenario's inputs (the protocol test checks
    # that the feedback's number is the card's, in every context)
    shown_by: str = ""
    # who gives the value, as the verdict says it: a measurement is not physics ("torchvision measures")
    gives: str = "The physics gives"
    default_context: str = field(default="", compare=False)  # set by the Lab it belongs to
    _values: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _check_letters(self.id, [o.letter for o in self.options])
        ordered = sorted(self.options, key=lambda o: -math.inf if o.low is None else o.low)
        if ordered[0].low is not None or ordered[-1].high is not None:
            raise QuestionError(f"prediction {self.id!r}: the ranges must cover every value "
                                "(first low and last high must be None)")
        for below, above in zip(ordered, ordered[1:]):
            if below.high != above.low:
                raise QuestionError(f"prediction {self.id!r}: option {below.letter} ends at {below.high} "
                                    f"but {above.letter} starts at {above.low}; make the ranges meet")

    def option(self, letter: str) -> Range:
        return next(o for o in self.options if o.letter == letter)

    def text_of(self, letter: str, terms: Mapping[str, str] = NO_TERMS) -> str:
        o = self.option(letter)
        return worded(o.text, {**terms, "range": o.range_text(self.unit_fmt)})

    def value_in(self, context: str | None = None) -> float:
        """The physics' answer in ``context`` (the lab's default when None), computed once per
        context: it reads the scenario, never the state (the HUD and the ledger record ask for
        the key on every slider move)."""
        context = self.default_context if context is None else context
        if context not in self._values:
            self._values[context] = in_context(self.truth, context)
        return self._values[context]

    @property
    def value(self) -> float:
        return self.value_in(None)

    def answer(self, context: str | None = None) -> str:
        value = self.value_in(context)
        return next(o.letter for o in self.options if o.holds(value))

    def miss(self, letter: str, context: str | None = None) -> float:
        """How far the chosen option's guess is from the truth, as truth ÷ guess."""
        return self.value_in(context) / self.option(letter).guess


@dataclass(frozen=True)
class Reflection:
    """A conceptual question; ``answer`` is the letter whose explanation is right."""

    id: str
    act: int
    prompt: str
    options: tuple[Claim, ...]
    answer_letter: str
    kind: str = "reflection"
    default_context: str = field(default="", compare=False)  # set by the Lab it belongs to

    def __post_init__(self) -> None:
        _check_letters(self.id, [o.letter for o in self.options])
        if self.answer_letter not in LETTERS:
            raise QuestionError(f"reflection {self.id!r}: answer {self.answer_letter!r} is not A-D")

    def option(self, letter: str) -> Claim:
        return next(o for o in self.options if o.letter == letter)

    def text_of(self, letter: str, terms: Mapping[str, str] = NO_TERMS) -> str:
        return worded(self.option(letter).text, terms)

    def answer(self, context: str | None = None) -> str:
        """A reflection asks why; its key is the same in every context."""
        return self.answer_letter


@dataclass(frozen=True)
class Pick:
    """A prediction among four named designs; ``decide`` runs the physics and returns the letter
    of the one that meets the scenario's constraints. Each option's feedback says, with numbers,
    why that design passes or fails."""

    id: str
    act: int
    prompt: str
    quantity: str                 # what is being chosen, e.g. "the layout that meets every limit"
    options: tuple[Claim, ...]
    decide: Callable[..., str]   # decide(context) or decide()
    kind: str = "prediction"
    # who picks, as the verdict says it: a queueing model or a cost model is not "the physics"
    picks: str = "The physics picks"
    default_context: str = field(default="", compare=False)  # set by the Lab it belongs to
    _decisions: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _check_letters(self.id, [o.letter for o in self.options])

    def option(self, letter: str) -> Claim:
        return next(o for o in self.options if o.letter == letter)

    def text_of(self, letter: str, terms: Mapping[str, str] = NO_TERMS) -> str:
        return worded(self.option(letter).text, terms)

    def answer(self, context: str | None = None) -> str:
        """``decide`` in ``context`` (the lab's default when None), made once per context: it
        reads the scenario, never the state (see Prediction.value_in)."""
        context = self.default_context if context is None else context
        if context not in self._decisions:
            self._decisions[context] = in_context(self.decide, context)
        return self._decisions[context]


Question = Prediction | Pick | Reflection


def _check_letters(qid: str, letters: list[str]) -> None:
    if tuple(letters) != LETTERS:
        raise QuestionError(f"question {qid!r}: options must be A, B, C, D in order, got {letters}")


def fill(template: str, facts: Mapping[str, str]) -> str:
    """Fill ``{name}`` fields of feedback text with formatted facts; a missing name fails loudly."""
    try:
        return template.format_map(facts)
    except KeyError as missing:
        raise QuestionError(f"feedback needs fact {missing} that the lab did not provide") from None
