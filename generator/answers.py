"""The one answer rule: how a typed answer is read, and when a number is within tolerance.

Every place that checks a number uses these two functions: the generator (a named
mistake must be told from the answer), ``paperdeck stress``, grading, and, through
``answers.js`` (the same rule in ES5, run over the same table of cases by
``tests/test_answers.py``), the cards' and the study site's answer checks.
docs/answers.md states the rule for people.

**Within tolerance** (``accepts``): ``|expected - got| <= max(abs, rel * |expected|)``,
plus a slack of four units in the last place of the larger of the two numbers, so a
decimal typed exactly at the edge (0.675 against 0.67 with ``abs: 0.005``) is not
refused because 0.675 - 0.67 is 0.0050000000000000044 in binary. The slack is far
below any printed digit: 0.0050000005 off with ``abs: 0.005`` is wrong.

**Reading** (``read``): numbers separated by spaces, commas or semicolons, with
brackets ignored; a number is a decimal (``-0.5``, ``.5``, ``2.``, ``1e-3``), a
fraction of two decimals (``2/3`` and ``2 / 3`` are two thirds), or scientific notation written as
on paper (``6.988 × 10^-4``, ``6.988x10^{-4}``, ``6.988*10^-4``). Unicode minus
and dashes (``−0.5``, ``–0.5``, ``—0.5``) are minus signs. A comma is a decimal comma
(``0,67``) when reading it so gives the count of numbers asked for and reading it as
a separator does not.
"""

from __future__ import annotations

import math
import re
import sys
from typing import Protocol

__all__ = ["SLACK_ULPS", "accepts", "read", "read_with_gaps"]

SLACK_ULPS = 4
"""Units in the last place of the larger number that ``accepts`` forgives (binary rounding)."""
_SLACK = SLACK_ULPS * sys.float_info.epsilon  # epsilon, 2**-52: one unit in the last place in [1, 2)


class Tolerance(Protocol):
    """What ``accepts`` reads from a tolerance: ``problems.Tolerance`` and the key's."""

    @property
    def abs(self) -> float | None: ...

    @property
    def rel(self) -> float | None: ...


def bound(expected: float, tolerance: Tolerance) -> float:
    """The largest difference from ``expected`` the tolerance accepts, before the slack."""
    return max(tolerance.abs or 0.0, (tolerance.rel or 0.0) * abs(expected))


def accepts(expected: float, got: float, tolerance: Tolerance) -> bool:
    """Whether ``got`` is within ``tolerance`` of ``expected`` (absolute or relative, the larger)."""
    # bound() written out: the generator calls this for every draw's named mistakes.
    largest = max(tolerance.abs or 0.0, (tolerance.rel or 0.0) * abs(expected))
    return abs(expected - got) <= largest + _SLACK * max(abs(expected), abs(got))


# Minus signs a keyboard, a word processor or a phone may type for "-".
_MINUS = str.maketrans(dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2212\ufe63\uff0d", "-"))
# 6.988 × 10^-4, 6.988x10^{-4}, 6.988 * 10 ^ -4, 6.988·10^-4: the power of ten as an exponent.
# Spaces as JavaScript's \s has them, and ASCII digits: what answers.js reads, exactly.
_S = "[ \t\n\r\f\v\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]"
_TIMES_TEN = re.compile(rf"{_S}*[\u00d7\u00b7\u22c5xX*]{_S}*10{_S}*\^{_S}*\{{?{_S}*([-+]?[0-9]+){_S}*\}}?")
_BRACKETS = re.compile(r"[\[\](){}]")
_SLASH = re.compile(rf"{_S}*/{_S}*")
_PLAIN = re.compile(rf"(?:{_S}|[,;])+")
_COMMA_DECIMAL = re.compile(rf"(?:{_S}|;)+")
_DECIMAL = re.compile(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_FRACTION = re.compile(r"([-+]?[0-9]+(?:\.[0-9]+)?)/([0-9]+(?:\.[0-9]+)?)")
_GAP = "_"


def _one(text: str) -> float | None:
    """One number: a decimal or a fraction of two decimals; None if it is neither or not finite."""
    if _DECIMAL.fullmatch(text):
        value = float(text)
    elif match := _FRACTION.fullmatch(text):
        denominator = float(match.group(2))
        if not denominator:
            return None
        value = float(match.group(1)) / denominator
    else:
        return None
    return value if math.isfinite(value) else None


def _split(
    text: str, separators: re.Pattern[str], decimal_comma: bool, gaps: bool
) -> list[float | None] | None:
    out: list[float | None] = []
    for part in separators.split(text):
        if not part:
            continue
        if gaps and part == _GAP:
            out.append(None)
            continue
        value = _one(part.replace(",", ".", 1) if decimal_comma else part)
        if value is None:
            return None
        out.append(value)
    return out


def read_with_gaps(text: str, count: int) -> list[float | None] | None:
    """``read``, where a part written as ``_`` is None (grading: a component the student left out)."""
    return _read(text, count, gaps=True)


def read(text: str, count: int) -> list[float] | None:
    """The numbers typed in ``text``, or None when a part is not a number.

    ``count`` is how many numbers are asked for: it decides whether a comma is a
    decimal comma. The list may hold another count when that is what was typed
    (callers say so); an empty text gives an empty list.
    """
    found = _read(text, count, gaps=False)
    return None if found is None else [x for x in found if x is not None]


def _read(text: str, count: int, gaps: bool) -> list[float | None] | None:
    normal = _TIMES_TEN.sub(r"e\1", text.translate(_MINUS))
    normal = _SLASH.sub("/", _BRACKETS.sub(" ", normal))
    plain = _split(normal, _PLAIN, False, gaps)
    if plain is not None and len(plain) == count:
        return plain
    comma = _split(normal, _COMMA_DECIMAL, True, gaps)  # 2,66 3,66: decimal commas
    if comma is not None and len(comma) == count:
        return comma
    return plain if plain is not None else comma
