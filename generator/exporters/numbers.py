"""How numbers of answers are shown to a student, on cards and in printed keys.

One rule for both, so the card and the key show the same digits: one digit finer
than the tolerance the student is held to (``number_formatter``). The result is
LaTeX (``6.988 \\times 10^{-4}``), with nothing HTML or Typst would read as markup.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

Formatter = Callable[[float], str]


@functools.lru_cache(maxsize=64)
def number_formatter(abs_tol: float | None = None, rel_tol: float | None = None) -> Formatter:
    """Numbers shown one digit finer than the tolerance a student is held to."""
    if rel_tol and not abs_tol:
        figures = max(3, math.ceil(-math.log10(rel_tol)) + 2)
        return lambda x: _significant(x, figures)
    decimals = max(2, math.ceil(-math.log10(abs_tol)) + 1) if abs_tol else 6
    pattern = f"%.{decimals}f"

    # Called for every number of every card: kept to string operations.
    def fixed(x: float) -> str:
        if x.__class__ is int:
            return str(x)
        text = pattern % x
        if "n" in text:  # inf, nan
            return _fixed(x, decimals)
        text = text.rstrip("0").rstrip(".")
        return "0" if text == "-0" else text

    return fixed


def _fixed(x: float, decimals: int) -> str:
    if x.__class__ is int:
        return str(x)
    text = f"{x:.{decimals}f}"
    if "n" in text:  # inf, nan
        return {"inf": r"\infty", "-inf": r"-\infty"}.get(text, r"\text{NaN}")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _significant(x: float, figures: int) -> str:
    if x == 0 or not math.isfinite(x):
        return _fixed(x, 0)
    exponent = math.floor(math.log10(abs(x)))
    if -3 <= exponent <= 5:
        return _fixed(x, max(0, figures - 1 - exponent))
    mantissa = _fixed(x / 10**exponent, figures - 1)
    return mantissa + r" \times 10^{" + str(exponent) + "}"
