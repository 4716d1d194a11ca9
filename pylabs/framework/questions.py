"""Predictions and reflections: four options, one answer key, locked once.

A ``Prediction`` asks for a number before the student sees the instruments.
Each option covers a range; the correct option is the one whose range holds
the value the physics computes at the scenario's stated inputs, so the answer
key is never typed in. A ``Reflection`` asks why; its key is the letter whose
explanation is right, declared once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Callable, Mapping

from .formats import fmt

LETTERS = ("A", "B", "C", "D")


class QuestionError(ValueError):
    """A question declared with options that are not four, exclusive and complete."""


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
    truth: Callable[[], float]  # physics at the scenario's stated inputs
    kind: str = "prediction"

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

    def text_of(self, letter: str) -> str:
        o = self.option(letter)
        return o.text.format(range=o.range_text(self.unit_fmt))

    @cached_property
    def value(self) -> float:
        """``truth()``, computed once: it reads the scenario, never the state (the HUD and the
        ledger record ask for the key on every slider move)."""
        return self.truth()

    def answer(self) -> str:
        return next(o.letter for o in self.options if o.holds(self.value))

    def miss(self, letter: str) -> float:
        """How far the chosen option's guess is from the truth, as truth ÷ guess."""
        return self.value / self.option(letter).guess


@dataclass(frozen=True)
class Reflection:
    """A conceptual question; ``answer`` is the letter whose explanation is right."""

    id: str
    act: int
    prompt: str
    options: tuple[Claim, ...]
    answer_letter: str
    kind: str = "reflection"

    def __post_init__(self) -> None:
        _check_letters(self.id, [o.letter for o in self.options])
        if self.answer_letter not in LETTERS:
            raise QuestionError(f"reflection {self.id!r}: answer {self.answer_letter!r} is not A-D")

    def option(self, letter: str) -> Claim:
        return next(o for o in self.options if o.letter == letter)

    def text_of(self, letter: str) -> str:
        return self.option(letter).text

    def answer(self) -> str:
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
    decide: Callable[[], str]
    kind: str = "prediction"

    def __post_init__(self) -> None:
        _check_letters(self.id, [o.letter for o in self.options])

    def option(self, letter: str) -> Claim:
        return next(o for o in self.options if o.letter == letter)

    def text_of(self, letter: str) -> str:
        return self.option(letter).text

    @cached_property
    def _decision(self) -> str:
        """``decide()``, made once: it reads the scenario, never the state (see Prediction.value)."""
        return self.decide()

    def answer(self) -> str:
        return self._decision


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
