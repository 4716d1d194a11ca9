"""How numbers and words read on a page, as a textbook prints them: the rules a page's
text is scanned for, each a pattern and what it means. ``problems(text)`` lists what breaks them.

The scan reads what a student reads: the page's text without markup, scripts, TeX source and the
bibliography (whose DOIs and page numbers are not the lab's numbers)."""

from __future__ import annotations

import html as entities
import re

_SKIP = re.compile(r'<script\b.*?</script>|<div class="pl-mathpeek__sources">.*?</div>|'
                   r'<(div|span) class="pl-tex[^"]*" data-tex="[^"]*">.*?</\1>', re.S)
_TAG = re.compile(r"<[^>]+>")


def page_text(html: str) -> str:
    """What a student reads of rendered HTML, one space between elements."""
    text = _TAG.sub(" ", _SKIP.sub(" ", html))
    return re.sub(r"\s+", " ", entities.unescape(text))


_NUMBER = r"(?<![\w.,/:§−-])"  # a number that starts here, not the tail of a longer one, a name or N−1
_SCALED = (  # TOP/s is the largest integer rate (vendors print "1,979 TOPS")
    "KB|MB|GB|ms|µs|ns|kFLOP|MFLOP|GFLOP|TFLOP|FLOP|kFLOP/s|MFLOP/s|GFLOP/s|TFLOP/s|FLOP/s|MOP/s|GOP/s|"
    "KB/s|MB/s|GB/s|kb/s|Mb/s|Gb/s|mW|W|kW|Wh|kWh|MWh|kHz|MHz|g|kg CO₂e")
_WORD_NUMBERS = "two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"  # "one of 150,528" is idiom

RULES: tuple[tuple[str, re.Pattern, str], ...] = (
    ("unscaled", re.compile(rf"{_NUMBER}\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)? (?:{_SCALED})(?![\w/]| per)"),
     "a thousand or more of a unit that has a larger one: 103 TB, not 103,421 GB"),
    ("no separator", re.compile(rf"{_NUMBER}\d{{5,}}(?![\d])"),
     "a number of five figures or more needs thousands separators: 16,384"),
    ("raw float", re.compile(rf"{_NUMBER}\d+(?:\.\d+)?[eE][-+]?\d+\b|{_NUMBER}0\.0000\d"),
     "a computer's float (1e-10, 0.000045): write it in a scaled unit or as × 10⁻ⁿ"),
    ("figures", re.compile(rf"{_NUMBER}\d[\d,]*\.(\d+)(?! ?\()"), "more than four significant figures"),
    ("zero time", re.compile(r"(?<![\d.,])0 (?:ns|µs)\b"), "a time of zero reads 0 s, a tiny one < 1 ns"),
    ("plural", re.compile(r"(?<![\w.,:/−-])(?<![−+-] )1 ([a-z]+s)\b(?![/'’-])|\w\(s\)"),
     "one of something is singular, and no noun is written 'noun(s)'"),
    ("article", re.compile(r"(?<![\w-])a (?=8|11(?![\d,])|11\.|18(?![\d,])|18\.)"), "'an 8', 'an 11', 'an 18', 'an 80'"),
    ("mixed count", re.compile(rf"\b\d+ of (?:{_WORD_NUMBERS})\b|\b(?:{_WORD_NUMBERS}) of \d+\b"),
     "a count and its total in one style: '3 of 9' or 'three of nine'"),
    ("false whole", re.compile(r"(?<![\d.,])100\.0+ %"), "a share that is not 1 never reads 100.0 %"),
    ("python", re.compile(r"\b(?:True|False)\b(?![ -]?[a-z-])|\b(?:nan|inf)\b"), "a Python value on the page"),
    # not a lone letter's subscript (A∞, a ceiling), but after a word, as a card's value follows its label
    ("infinity", re.compile(r"(?<![A-Za-z])(?<!(?<![A-Za-z])[A-Za-z] )−?∞"),
     "a state the model says never ends or never happens reads in words ('never', "
                                      "'none', 'out of reach'), not ∞"),
)

# after "1 ": words that end in s but are verbs or singular nouns ("1 means", "1 passes", "1 bus")
NOT_PLURALS = {"means", "counts", "passes", "gives", "fits", "needs", "takes", "leaves", "holds", "costs",
               "makes", "is", "has", "was", "does", "goes", "stays", "keeps", "reads", "sets", "sits", "wins",
               "loses", "runs", "serves", "bus", "lens", "status", "analysis", "basis", "process", "class",
               "loss", "pass", "access", "bias", "axis", "series", "plus", "minus", "this", "its", "as", "us",
               "ms", "ns", "shapes", "grows", "drops", "falls", "rises", "moves", "turns", "stands"}
CITED = re.compile(r"(?:CFR|U\.S\.C\.|§) ?$")  # "29 CFR 1607.4", "45 CFR 164.514": a section, not a figure
NINES = re.compile(r"99\.9+\d?$")  # an availability shows its nines (99.9997 %)


def _figures(match: re.Match) -> bool:
    """More than four significant figures in a decimal number (a count has no decimals), but for
    an availability's nines."""
    if NINES.match(match.group(0)):
        return False
    digits = match.group(0).replace(",", "").replace(".", "").lstrip("0")
    return len(digits) > 4


def problems(text: str) -> dict[str, set[str]]:
    """Each rule's breaches in ``text``: rule -> the excerpts (a few words either side)."""
    found: dict[str, set[str]] = {}
    for name, pattern, _ in RULES:
        for match in pattern.finditer(text):
            if name in ("figures", "raw float") and CITED.search(text, 0, match.start()):
                continue  # a statute's or a regulation's section number
            if name == "figures" and not _figures(match):
                continue
            if name == "plural" and match.group(1) and match.group(1) in NOT_PLURALS:
                continue
            start, end = max(0, match.start() - 40), min(len(text), match.end() + 30)
            found.setdefault(name, set()).add(text[start:end].strip())
    return found
