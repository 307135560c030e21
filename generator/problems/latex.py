"""LaTeX for numbers, vectors and matrices in worked steps.

Only a small subset of LaTeX is written (``pmatrix``, ``\\frac``, ``\\times``,
``^{}``...), because the print exporter converts it to Typst.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from ..numerals import fixed, significant


def number(x: Any, digits: int = 4) -> str:
    """``x`` rounded to ``digits`` decimals, trailing zeros dropped (2.5, 0.6697, -1)."""
    return fixed(x, digits)


def scientific(x: float, figures: int = 4) -> str:
    """``x`` to ``figures`` significant figures, as ``6.988 \\times 10^{-4}`` when small or large
    (``numerals.significant``)."""
    return significant(float(x), figures)


def row(values: Sequence[float], digits: int = 4) -> str:
    """One row of a ``pmatrix``: the entries joined with `` & ``."""
    return " & ".join([fixed(x, digits) for x in values])


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
