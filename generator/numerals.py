"""Numbers written as text and rounded for JSON, one rule each, for every stage and output.

- ``fixed``: to a number of decimals (trailing zeros dropped unless asked for);
- ``significant``: to a number of significant figures, in scientific notation
  (``1.234 \\times 10^{-4}``) below 0.001 and from a million on;
- ``rounded``: a value as the JSON of problems keeps it (``ANSWER_DECIMALS``, never -0.0).

A value's numbers row by row and its shape are ``values.Value``'s.

``presentation`` chooses which rule and how many digits a number is shown with; problem
types write their worked steps with these. Text is LaTeX where it differs from plain
digits (``\\infty``, ``\\times 10^{…}``).
"""

from __future__ import annotations

import math
from typing import Any, overload

ANSWER_DECIMALS = 10
"""Decimals an answer keeps in JSON: far below any tolerance, and enough rounding that the
last-bit differences between exp/sin implementations on different machines do not show."""

_NON_FINITE = {"inf": r"\infty", "-inf": r"-\infty"}
_LEAST, _MOST = -3, 5
"""Powers of ten ``significant`` writes without ``\\times 10^{…}``: 0.001 to 999,999. The
Anki card's answers always switched here; the worked steps switched at 0.01 and 100,000
(0.0012345 was ``1.234 \\times 10^{-3}`` in the steps and ``0.001234`` under them)."""


def fixed(x: Any, decimals: int, zeros: bool = False) -> str:
    """``x`` to ``decimals`` places (2.5, 0.6697, -1); trailing zeros kept when ``zeros``
    ("three decimals" is 0.510). A whole number of type ``int`` is written as it is."""
    if x.__class__ is int:
        return str(x)
    text = "%.*f" % (decimals, x)  # noqa: UP031 - the fastest spelling; this runs per entry of every card
    if text[-1] in "fn":  # inf, -inf, nan
        return _NON_FINITE.get(text, r"\text{NaN}")
    if not zeros and "." in text:
        text = text.rstrip("0").rstrip(".")
    if text[0] == "-" and not text.strip("-0."):  # -0.00 is 0.00
        return text[1:]
    return text


def significant(x: Any, figures: int, zeros: bool = False) -> str:
    """``x`` to ``figures`` significant figures: 0.001234, 123.5, ``6.988 \\times 10^{-4}``,
    ``1.235 \\times 10^{6}``; trailing zeros kept when ``zeros``."""
    if x == 0 or not math.isfinite(x):
        return fixed(x, figures - 1 if zeros and x == 0 else 0, zeros)
    exponent = math.floor(math.log10(abs(x)))
    if _LEAST <= exponent <= _MOST:
        return fixed(x, max(0, figures - 1 - exponent), zeros)
    mantissa = x / 10**exponent
    if round(abs(mantissa), figures - 1) >= 10:  # 9.9996 rounds up to 10.00
        mantissa, exponent = mantissa / 10, exponent + 1
        if exponent == _LEAST:  # 0.00099996 is 0.001000
            return fixed(x, max(0, figures - 1 - exponent), zeros)
    return fixed(mantissa, figures - 1, zeros) + r" \times 10^{" + str(exponent) + "}"


@overload
def rounded(value: float, decimals: int = ANSWER_DECIMALS) -> float: ...
@overload
def rounded(value: Any, decimals: int = ANSWER_DECIMALS) -> Any: ...
def rounded(value: Any, decimals: int = ANSWER_DECIMALS) -> Any:
    """A number, NumPy array or nested list as JSON-plain floats rounded to ``decimals``;
    adding 0.0 turns -0.0 into 0.0, which would otherwise print as "-0.0"."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [rounded(item, decimals) for item in value]
    return round(float(value), decimals) + 0.0
