"""The lab framework: controls, questions, components, the protocol and the renderer."""

from .components import (Equation, FailureSpec, MetricSpec, bullets, callout, chart, failure,
                         math_peek, metric_grid, prose, rich, section_title, tone)
from .controls import Choice, MultiChoice, Number, Option, Slider, Toggle
from .formats import fmt, listed
from .lab import Act, Lab
from .questions import Claim, Pick, Range, Prediction, Reflection
from .state import State

__all__ = [
    "Act", "Choice", "Claim", "Equation", "FailureSpec", "Lab", "MetricSpec", "MultiChoice", "Number", "Option", "Pick", "Prediction",
    "Range", "Reflection", "Slider", "State", "Toggle", "bullets", "callout", "chart", "failure", "fmt",
    "listed", "math_peek", "metric_grid", "prose", "rich", "section_title", "tone",
]
