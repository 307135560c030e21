"""LaTeX for numbers, vectors and matrices in worked steps."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def number(x: float, digits: int = 4) -> str:
    """``x`` rounded to ``digits`` decimals, trailing zeros dropped (2.5, 0.6697, -1)."""
    text = f"{float(x):.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def matrix(values: Sequence[Sequence[float]] | np.ndarray, digits: int = 4) -> str:
    """A matrix as a LaTeX ``pmatrix``."""
    rows = np.atleast_2d(np.asarray(values, dtype=float))
    body = r" \\ ".join(" & ".join(number(x, digits) for x in row) for row in rows)
    return r"\begin{pmatrix} " + body + r" \end{pmatrix}"


def vector(values: Sequence[float] | np.ndarray, digits: int = 4) -> str:
    """A vector as a one-row LaTeX ``pmatrix``."""
    return matrix([list(np.asarray(values, dtype=float).ravel())], digits)
