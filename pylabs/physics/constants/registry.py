"""The one registry of cited constants, and ``spec``, the call that adds to it.

A topic module writes each constant once, as the value a name is given::

    H100_HBM_BW = spec(3.35e12, "B/s", "NVIDIA H100 SXM datasheet (HBM3, 3.35 TB/s)", _H100_URL,
                       label="H100 SXM memory bandwidth")

``spec`` keeps the citation and returns the value, a plain float in SI units, so the module's name
is the constant that labs import. ``register(module)`` then files each citation under the
upper-case name its value was given: names are read off the module, never typed a second time.
"""

import sys
from dataclasses import dataclass
from types import ModuleType


@dataclass(frozen=True)
class Spec:
    """One cited constant: value in SI units, its unit, and where it comes from."""

    value: float
    unit: str
    source: str
    url: str = ""
    note: str = ""   # for maintainers (why this value, what it replaced); not shown to students
    label: str = ""  # what a student reads on the Sources page; empty: derived from the name


REGISTRY: dict[str, Spec] = {}
_UNNAMED: dict[str, list[Spec]] = {}  # module name -> the specs it wrote, in order, not yet registered


def spec(value: float, unit: str, source: str, url: str = "", *, note: str = "", label: str = "") -> float:
    """Record a cited constant for the calling module and return its value."""
    entry = Spec(float(value), unit, source, url, note, label)
    _UNNAMED.setdefault(sys._getframe(1).f_globals["__name__"], []).append(entry)
    return entry.value


def register(module: ModuleType) -> None:
    """File the module's specs in REGISTRY under the names their values were assigned to.

    A module's public upper-case floats and its ``spec`` calls come in the same order; each name
    must hold the very value its ``spec`` returned, so a constant typed without ``spec`` fails here.
    """
    names = [name for name, value in vars(module).items()
             if name.isupper() and not name.startswith("_") and isinstance(value, float)]
    entries = _UNNAMED.pop(module.__name__, [])
    paired = list(zip(names, entries))
    if len(names) != len(entries) or any(getattr(module, name) is not entry.value for name, entry in paired):
        raise ValueError(f"{module.__name__}: write each constant once, as NAME = spec(...)")
    for name, entry in paired:
        if name in REGISTRY:
            raise ValueError(f"{name} is cited twice ({module.__name__})")
        REGISTRY[name] = entry
