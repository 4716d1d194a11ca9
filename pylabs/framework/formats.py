"""Number formatting for everything a student reads.

Values arrive in SI units (seconds, bytes, bytes/s, FLOP/s, fractions); a
format name says how to show them. One table of formats, so prose, metrics,
feedback and the HUD always agree.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Context, Decimal
from functools import lru_cache
from typing import Callable, Sequence


class UnknownFormat(ValueError):
    """A format name that is not in FORMATS."""


MAX_FIGURES = 4  # no measured or modelled number shows more (a count is formatted as one: "int")


@lru_cache(maxsize=4096)  # the same values recur on every slider move (tables, axes, unchanged metrics)
def _sig(value: float, digits: int = 3) -> str:
    """``value`` with ``digits`` significant figures, thousands separated, no trailing zeros; a
    whole part of five figures or more is rounded to four (``14487 -> '14,490'``)."""
    if value == 0 or not math.isfinite(value):
        return "0" if value == 0 else ("∞" if value > 0 else "−∞")
    magnitude = math.floor(math.log10(abs(value)))
    decimals = digits - 1 - magnitude if magnitude < MAX_FIGURES else MAX_FIGURES - 1 - magnitude
    decimals = max(decimals, 0) if magnitude < MAX_FIGURES else decimals
    # Round the shortest decimal text of the float half up, so 1.275 shows as 1.28 wherever it is
    # formatted (binary rounding would give 1.27 for 1.275 but 1.28 for 1275 / 1000 + 1e-15).
    context = Context(prec=max(28, magnitude + abs(decimals) + 2))
    rounded = Decimal(repr(value)).quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_UP, context)
    text = f"{rounded:,.{max(decimals, 0)}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text.replace("-", "−")


_NOUNS = {"years": "year", "days": "day"}  # units that are nouns: "1 day", "2 days"


def _scaled(value: float, units: tuple[tuple[float, str], ...], digits: int = 3) -> str:
    if value == 0:  # an exact zero in the base unit ("0 W"), not the smallest ("0 nW")
        base = next((suffix for factor, suffix in units if factor == 1.0), units[-1][1])
        return _count("0", _NOUNS[base]) if base in _NOUNS else f"0 {base}"
    index = next((i for i, (f, _) in enumerate(units) if abs(value) >= f), len(units) - 1)
    if index > 0 and abs(float(_sig(abs(value) / units[index][0], digits).replace(",", ""))) >= \
            units[index - 1][0] / units[index][0]:
        index -= 1  # 999.96 MB/s rounds to 1,000 MB/s: say 1 GB/s
    factor, suffix = units[index]
    text = _sig(value / factor, digits)
    return _count(text, _NOUNS[suffix]) if suffix in _NOUNS else f"{text} {suffix}"


SECONDS_PER_YEAR = 86400.0 * 365  # one convention for a year everywhere (HOURS_PER_YEAR is 8,760 h)
_SECONDS = ((SECONDS_PER_YEAR, "years"), (86400.0, "days"), (3600.0, "h"), (60.0, "min"),
            (1.0, "s"), (1e-3, "ms"), (1e-6, "µs"), (1e-9, "ns"))
_BYTES = ((1e15, "PB"), (1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1e3, "KB"), (1.0, "B"))
_RATE = ((1e12, "TB/s"), (1e9, "GB/s"), (1e6, "MB/s"), (1e3, "KB/s"), (1.0, "B/s"))
_FLOPS = ((1e15, "PFLOP/s"), (1e12, "TFLOP/s"), (1e9, "GFLOP/s"), (1e6, "MFLOP/s"), (1e3, "kFLOP/s"),
          (1.0, "FLOP/s"))
_OPS = ((1e12, "TOP/s"), (1e9, "GOP/s"), (1e6, "MOP/s"), (1.0, "OP/s"))
_FLOP = ((1e24, "×10²⁴ FLOP"), (1e21, "ZFLOP"), (1e18, "EFLOP"), (1e15, "PFLOP"), (1e12, "TFLOP"),
         (1e9, "GFLOP"), (1e6, "MFLOP"), (1e3, "kFLOP"), (1.0, "FLOP"))
_USD = ((1e9, "B"), (1e6, "M"), (1e3, "k"))
TINY_SHARE = 1e-5  # a share under 0.001 % reads "< 0.001 %": more digits would be noise


def _count(text: str, noun: str, plural_form: str = "") -> str:
    """A formatted count and its noun, singular only for exactly one: '1 week', 'one week', '3.53 weeks'."""
    return f"{text} {noun if text in ('1', 'one') else (plural_form or noun + 's')}"


def seconds(value: float) -> str:
    """Auto-scaled duration: ``0.5444 -> '544 ms'``, ``4.2e-5 -> '42 µs'``; no time is "0 ns":
    zero is ``'0 s'`` and a nonzero time under a nanosecond ``'< 1 ns'``."""
    if value == 0:
        return "0 s"
    if 0 < abs(value) < 0.5e-9:
        return "< 1 ns"
    if SECONDS_PER_YEAR > value >= 86400.0:
        return _count(_sig(value / 86400.0), "day")
    return _scaled(value, _SECONDS)


def up_from(value: float, units: tuple[tuple[float, str], ...]) -> str:
    """A quantity in its stated unit (the last of ``units``) or, from a thousand of it, the next
    unit up: ``0.5 GB``, ``80 GB``, ``103 TB`` (never ``103,421 GB``)."""
    return _scaled(value, units) if abs(value) >= units[-1][0] else f"{_sig(value / units[-1][0])} {units[-1][1]}"


def share(value: float, digits: int = 3, decimals: int | None = None) -> str:
    """A fraction as a percentage that never rounds to a false 0 % or 100 %: a share under
    0.001 % reads ``'< 0.001 %'``; one that would round to 100 % without being 1 shows four
    figures (``'99.95 %'``) or ``'> 99.99 %'`` (an availability shows its nines: "nines")."""
    if value == 0 or not math.isfinite(value):
        return f"{_sig(value * 100.0)} %"
    if 0 < abs(value) < TINY_SHARE:
        return "< 0.001 %" if value > 0 else "> −0.001 %"
    if decimals is not None and value in (0.0, 1.0):
        decimals = None  # a whole 0 % or 100 % has no decimals to show
    text = f"{value * 100.0:.{decimals}f}" if decimals is not None else _sig(value * 100.0, digits)
    if decimals is not None and float(text) == 0:
        text = _sig(value * 100.0, digits)  # a nonzero share never reads "0.0 %": 0.0404 %
    if abs(value) < 1 and text.lstrip("−-") in ("100", "100.0"):
        text = _sig(value * 100.0, MAX_FIGURES)  # 99.95 %, then "> 99.99 %"
        return f"{text} %" if text != "100" else "> 99.99 %"
    return f"{text} %"


def nines(value: float) -> str:
    """An availability as its nines: ``0.999 -> '99.9'``, ``0.999997 -> '99.9997'``, ``0.9995 -> '99.95'``:
    every nine and the first digit after them."""
    if not 0 < value < 1:
        return _sig(value * 100.0)
    lead = math.floor(-math.log10(1 - value))  # how many nines the value has
    decimals = max(0, lead - 1)
    text = f"{math.floor(value * 100.0 * 10 ** decimals) / 10 ** decimals:.{decimals}f}"
    while text.endswith("100") or text.endswith("100.0"):  # floating-point edge: show one more place
        decimals += 1
        text = f"{math.floor(value * 100.0 * 10 ** decimals) / 10 ** decimals:.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def usd(value: float) -> str:
    """Dollars: ``35872200 -> '$35.9M'``, ``661.22 -> '$661'``, ``3.5 -> '$3.50'`` (cents below ten),
    ``0.0042 -> '$0.0042'``, ``0 -> '$0'``."""
    for factor, suffix in _USD:
        if abs(value) >= factor:
            return f"${_sig(value / factor)}{suffix}"
    if value == 0:
        return "$0"
    if abs(value) < 0.01:  # a fraction of a cent would print "$0.00": three figures instead
        return f"${_sig(value)}"
    return f"${value:,.2f}" if abs(value) < 10 else f"${_sig(value)}"


def integer(value: float) -> str:
    return f"{int(round(value)):,}"


def rate(value: float) -> str:
    """A rate in whole units up to four figures (8,698), then four significant figures (14,490):
    a measured rate is no count, and its fifth figure is noise."""
    return integer(value) if abs(value) < 1e4 else _sig(value, 4)


FORMATS: dict[str, Callable[[float], str]] = {
    "s": seconds,
    "ms": lambda v: up_from(v, ((1.0, "s"), (1e-3, "ms"))),       # ms, or s from a thousand ms
    "us": lambda v: up_from(v, ((1e-3, "ms"), (1e-6, "µs"))),     # µs, or ms from a thousand µs
    "h": lambda v: f"{_sig(v / 3600.0)} h",
    "days": lambda v: _count(_sig(v / 86400.0), "day"),
    "weeks": lambda v: _count(_sig(v / (86400.0 * 7)), "week"),
    "years": lambda v: _count(_sig(v / (86400.0 * 365)), "year"),
    "B": lambda v: _scaled(v, _BYTES),
    "GB": lambda v: up_from(v, _BYTES[:3]),      # GB, or TB and PB from a thousand GB
    "B/s": lambda v: _scaled(v, _RATE),
    "GB/s": lambda v: up_from(v, _RATE[:2]),     # GB/s, or TB/s from a thousand GB/s
    "FLOP/s": lambda v: _scaled(v, _FLOPS),
    "FLOP/s4": lambda v: _scaled(v, _FLOPS, 4),  # a datasheet's peak as published: 989.4 TFLOP/s, 15.04 TFLOP/s
    "FLOP": lambda v: _scaled(v, _FLOP),
    "GFLOP": lambda v: f"{_sig(v / 1e9)} GFLOP",
    # integer rates as vendors print them: TOP/s up to thousands ("1,979 TOPS", NVIDIA's H100 INT8), no "POP/s"
    "OP/s": lambda v: _scaled(v, _OPS, 4 if abs(v) >= 1e15 else 3),
    "Hz": lambda v: _scaled(v, ((1e9, "GHz"), (1e6, "MHz"), (1e3, "kHz"), (1.0, "Hz"))),
    "m/s": lambda v: f"{_sig(v / 1e3)} km/s",
    "km": lambda v: f"{_sig(v / 1e3)} km",
    "FLOP/B": lambda v: f"{_sig(v)} FLOP/B",
    "pct": share,
    "pct1": lambda v: share(v, decimals=1),
    "nines": lambda v: f"{nines(v)} %",  # availability: 99.9997 %, never a rounded 100 %
    "pp": lambda v: share(v).replace("%", "pp"),
    "x": lambda v: f"{_sig(v)}×",
    "int": integer,
    "tokens": lambda v: _count(integer(v), "token"),
    "tokens/s": lambda v: f"{rate(v)} tokens/s",
    "req/s": lambda v: f"{_sig(v)} requests/s",
    "images/s": lambda v: f"{rate(v)} images/s" if abs(v) >= 10 else f"{_sig(v)} images/s",
    "bit/s": lambda v: _scaled(v, ((1e12, "Tb/s"), (1e9, "Gb/s"), (1e6, "Mb/s"), (1e3, "kb/s"), (1.0, "b/s"))),
    "usd/GB": lambda v: f"{usd(v)}/GB",
    "num": _sig,
    "num4": lambda v: _sig(v, 4),  # a ratio where the third figure hides the lesson: 1.468, not 1.47
    "usd": usd,
    "usd/h": lambda v: f"{usd(v)}/h",
    "params": lambda v: _scaled(v, ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1.0, ""))).replace(" ", ""),
    "W": lambda v: _scaled(v, ((1e6, "MW"), (1e3, "kW"), (1.0, "W"))),
    "yesno": lambda v: "yes" if v else "no",
    "pct+": lambda v: f"{'+' if v > 0 else ''}{_sig(v * 100.0)} %",
    "Wh": lambda v: _scaled(v / 3600.0, ((1e9, "GWh"), (1e6, "MWh"), (1e3, "kWh"), (1.0, "Wh"))),
    "CO2e": lambda v: _scaled(v, ((1e3, "t CO₂e"), (1.0, "kg CO₂e"))),
    "g/kWh": lambda v: f"{_sig(v * 3.6e9)} g/kWh",
    # V1-00: distances and small powers (a sensor's average power is microwatts to milliwatts)
    "length": lambda v: "0 km" if v == 0 else _scaled(v, ((1e3, "km"), (1.0, "m"), (1e-2, "cm"), (1e-3, "mm"))),
    "watts": lambda v: _scaled(v, ((1e6, "MW"), (1e3, "kW"), (1.0, "W"), (1e-3, "mW"), (1e-6, "µW"), (1e-9, "nW"))),
}


_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def power_of_ten(value: float) -> str:
    """A large ratio in scientific notation, so its order of magnitude reads at a glance:
    ``1030677 -> '1.03 × 10⁶'``, ``1e5 -> '10⁵'``; below 1,000 it is the plain ratio (``'160×'``)."""
    if abs(value) < 1e3:
        return f"{_sig(value)}×"
    exponent = math.floor(math.log10(abs(value)))
    mantissa = _sig(value / 10.0 ** exponent)
    if mantissa == "10":  # rounding carried into the next power
        exponent, mantissa = exponent + 1, "1"
    power = "10" + str(exponent).translate(_SUPERSCRIPT)
    return power if mantissa == "1" else f"{mantissa} × {power}"


_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


def words(value: float) -> str:
    """A small whole count as prose writes it: ``6 -> 'six'``; any other value as a number
    (``13 -> '13'``, ``1024 -> '1,024'``, ``2.5 -> '2.5'``), so a sentence follows its source past twelve."""
    if value != int(value):
        return _sig(value)
    return _WORDS[int(value)] if 0 <= value < len(_WORDS) else integer(value)


_FRACTIONS = {2: "half", 3: "a third", 4: "a quarter"}


def fraction_words(share: float) -> str:
    """A simple share as prose says it: ``0.5 -> 'half'``, ``1/3 -> 'a third'``, ``0.25 -> 'a quarter'``;
    any other as a percentage (``0.4 -> '40 %'``), so a sentence follows its source."""
    n = round(1 / share) if share > 0 else 0
    return _FRACTIONS[n] if n in _FRACTIONS and math.isclose(n * share, 1) else FORMATS["pct"](share)


def shrinks(factor: float) -> str:
    """What a quantity does when divided by ``factor``: ``2 -> 'halves'``, ``3 -> 'shrinks 3×'``."""
    return "halves" if math.isclose(factor, 2) else f"shrinks {FORMATS['x'](factor)}"


def scientific(value: float) -> str:
    """A number far from one in scientific notation: ``1.62e-32 -> '1.62 × 10⁻³²'``,
    ``2e-10 -> '2 × 10⁻¹⁰'``; from 0.001 to 1,000 it is the plain number."""
    if value == 0 or 1e-3 <= abs(value) < 1e3:
        return _sig(value)
    exponent = math.floor(math.log10(abs(value)))
    mantissa = _sig(value / 10.0 ** exponent)
    if mantissa.lstrip("−") == "10":  # rounding carried into the next power
        exponent, mantissa = exponent + 1, mantissa.replace("10", "1")
    power = "10" + str(exponent).translate(_SUPERSCRIPT)
    return power if mantissa == "1" else f"{mantissa} × {power}"


FORMATS.update({
    "sci": scientific,  # p-values, δ, sampling rates: 1.62 × 10⁻³², 10⁻⁵
    "words": words,  # "the six workers", "six months": a count in a sentence
    "fraction": fraction_words,  # "half the time", "a third of the kernels"
    "x10": power_of_ten,  # orders-of-magnitude ratios (V1-01)
    # binary sizes, as microcontroller datasheets state memory (512 KiB of SRAM, 2 MiB of flash)
    "iB": lambda v: _scaled(v, ((1024.0 ** 3, "GiB"), (1024.0 ** 2, "MiB"), (1024.0, "KiB"), (1.0, "B"))),
})


def plural(count: float, singular: str, plural_form: str = "", count_fmt: str = "num") -> str:
    """A count with its noun in the right number: ``plural(1, "NIC") -> '1 NIC'``,
    ``plural(8, "NIC") -> '8 NICs'``, ``plural(0.5, "engineer-week") -> '0.5 engineer-weeks'``.
    Only exactly one takes the singular; ``plural_form`` defaults to the singular plus "s"."""
    return _count(fmt(count, count_fmt), singular, plural_form)


def listed(items: Sequence[str], joint: str = "or") -> str:
    """Items in a sentence: ``'a'``, ``'a or b'``, ``'a, b or c'`` (the levers a failure offers)."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {joint} " + items[-1]


def fmt(value: float, name: str) -> str:
    """Format ``value`` (SI) with the format ``name`` from FORMATS; an infinite value (an unstable
    queue's wait, say) reads "∞" whatever the unit."""
    try:
        formatter = FORMATS[name]
    except KeyError:
        known = ", ".join(sorted(FORMATS))
        raise UnknownFormat(f"unknown format {name!r}; use one of: {known}") from None
    value = float(value)
    if value == 0.0 and math.copysign(1.0, value) < 0:
        return formatter(value)  # -0.0 is a key equal to 0.0: never kept, so neither reads as the other
    return _formatted(value, name, formatter)


@lru_cache(maxsize=8192)  # a chart's table and axes repeat most of their values from move to move
def _formatted(value: float, name: str, formatter: Callable[[float], str]) -> str:
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    return formatter(value)


def forget_kept() -> None:
    """Empty the numbers this module keeps across slider moves. The snapshot's build calls it after
    warming the labs, so the Python image carries none of them (build_scripts/snapshot.mjs)."""
    for kept in (_sig, _formatted):
        kept.cache_clear()
