"""LaTeX for numbers, vectors and matrices in worked steps.

Only a small subset of LaTeX is written (``pmatrix``, ``\\frac``, ``\\times``,
``^{}``...), because the print exporter converts it to Typst.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, cast

import numpy as np


def number(x: Any, digits: int = 4) -> str:
    """``x`` rounded to ``digits`` decimals, trailing zeros dropped (2.5, 0.6697, -1)."""
    if type(x) is int:
        return str(x)
    text = "%.*f" % (digits, x)  # noqa: UP031 - the fastest spelling; this runs per entry
    if text[-1] == "f":  # "inf" or "-inf"
        return r"\infty" if x > 0 else r"-\infty"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def scientific(x: float, figures: int = 4) -> str:
    """``x`` to ``figures`` significant figures, as ``6.988 \\times 10^{-4}`` when small or large."""
    x = float(x)
    if x == 0:
        return "0"
    exponent = math.floor(math.log10(abs(x)))
    if -2 <= exponent <= 4:
        return number(x, max(0, figures - 1 - exponent))
    mantissa = x / 10**exponent
    if round(abs(mantissa), figures - 1) >= 10:  # 9.9996 rounds up to 10.00
        mantissa, exponent = mantissa / 10, exponent + 1
    return number(mantissa, figures - 1) + r" \times 10^{" + str(exponent) + "}"


def row(values: Sequence[float], digits: int = 4) -> str:
    """One row of a ``pmatrix``: the entries joined with `` & ``."""
    return " & ".join([str(x) if type(x) is int else number(x, digits) for x in values])


def matrix(values: Sequence[Sequence[float]] | Sequence[float] | np.ndarray, digits: int = 4) -> str:
    """A matrix (or a vector, as one row) as a LaTeX ``pmatrix``."""
    if isinstance(values, np.ndarray):
        values = values.tolist()
    # A matrix is its rows; a vector is one row.
    rows = cast(
        "Sequence[Sequence[float]]", values if values and isinstance(values[0], (list, tuple)) else [values]
    )
    return r"\begin{pmatrix} " + r" \\ ".join([row(r, digits) for r in rows]) + r" \end{pmatrix}"


def vector(values: Sequence[float] | np.ndarray, digits: int = 4) -> str:
    """A vector as a one-row LaTeX ``pmatrix``."""
    if isinstance(values, np.ndarray):
        values = values.ravel().tolist()
    return matrix([list(values)], digits)
