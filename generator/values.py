"""Values with a shape and a precision: what an answer, a given or a mistake's result is.

- ``Precision``: how many digits an answer is given to, as data (``Precision(decimals=3)``,
  ``Precision(figures=4)``), declared by each problem type and by each content question
  that takes a number. The prompt's words must agree with it (``problems.precision`` checks
  them; nothing else reads the words); the tolerance, the key's digits and the answer sheet's
  digit grid follow it.
- ``Value``: a number, vector or matrix with its numbers row by row (``numbers``, by ``flat``),
  its shape (``shape_of``), how many numbers a student types (``count``), the words that say
  so (``words``) and its precision, computed here once for cards, the site, sheets, grading
  and the LMS exports.
- ``shape_words``: how a student types a value of a shape ("4 numbers (2 × 2, row by row)"),
  the Anki card's wording, which grading's messages and the study site use too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .numerals import fixed, significant


def flat(value: Any) -> list[Any]:
    """A number, vector or matrix (nested lists) as its numbers, row by row."""
    if isinstance(value, (list, tuple)):
        return [x for part in value for x in flat(part)]
    return [value]


def shape_of(value: Any) -> tuple[int, ...]:
    """``()`` for a number, ``(n,)`` for a vector, ``(rows, cols)`` for a matrix."""
    if isinstance(value, (list, tuple)):
        return (len(value),) + (shape_of(value[0]) if value else ())
    return ()


_SPELLED = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


@dataclass(frozen=True)
class Precision:
    """How many digits an answer is given to: ``decimals`` or ``figures``, exactly one of them."""

    decimals: int | None = None
    """Places after the decimal point (``0.510`` is three)."""
    figures: int | None = None
    """Significant figures (``0.001750`` is four)."""

    @property
    def count(self) -> int:
        """The number of decimals or of significant figures."""
        return self.figures if self.figures is not None else self.decimals or 0

    def problems(self) -> list[str]:
        """What is wrong with it as written in content (exactly one of the two, in range)."""
        if (self.decimals is None) == (self.figures is None):
            return ["give either decimals or figures (precision: {decimals: 3})"]
        if self.decimals is not None and not 0 <= self.decimals <= 10:
            return [f"decimals are 0 to 10, not {self.decimals}"]
        if self.figures is not None and not 1 <= self.figures <= 10:
            return [f"figures are 1 to 10, not {self.figures}"]
        return []

    def unit(self, value: float) -> float:
        """One unit of the last place of ``value`` at this precision."""
        if self.figures is None:
            return 10.0 ** -(self.decimals or 0)
        exponent = math.floor(math.log10(abs(value))) if value else 0
        return 10.0 ** (exponent - self.figures + 1)

    def words(self) -> str:
        """``3 decimals``, ``4 significant figures``: for messages."""
        if self.figures is not None:
            return f"{self.figures} significant figure{'s' if self.figures != 1 else ''}"
        return f"{self.decimals} decimal{'s' if self.decimals != 1 else ''}"

    def spelled(self) -> str:
        """As a prompt asks for it: "three decimals", "four significant figures", "one decimal"."""
        count = self.count
        number = _SPELLED[count] if count < len(_SPELLED) else str(count)
        if self.figures is not None:
            return f"{number} significant figure{'s' if count != 1 else ''}"
        return f"{number} decimal{'s' if count != 1 else ''}"

    def format(self, x: float) -> str:
        """``x`` as the key prints it: every place, trailing zeros too ("three decimals" is
        0.510, not 0.51); a whole number of type ``int`` (a count) as it is."""
        if x.__class__ is int:
            return str(x)
        if self.figures is not None:
            return significant(x, self.figures, zeros=True)
        return fixed(round(x, self.decimals or 0), self.decimals or 0, zeros=True)


def shape_words(shape: tuple[int, ...]) -> str:
    """How a student types a value of this shape: "one number", "3 numbers", "2 numbers (a 1 × 2
    row)", "4 numbers (2 × 2, row by row)"."""
    if not shape:
        return "one number"
    if len(shape) == 1:
        return f"{shape[0]} numbers" if shape[0] != 1 else "one number"
    if shape[0] == 1:
        return f"{shape[1]} numbers (a 1 × {shape[1]} row)"
    count = math.prod(shape)
    return f"{count} numbers ({' × '.join(map(str, shape))}, row by row)"


@dataclass(frozen=True)
class Value:
    """A number, vector or matrix: an answer, a given or a named mistake's result."""

    raw: Any
    """As the problem's JSON keeps it: a number or nested lists (rows of a matrix)."""
    precision: Precision | None = None
    """The digits it is asked to; None where nothing states one (the tolerance decides)."""

    @property
    def numbers(self) -> list[Any]:
        """Its numbers, row by row, as they are (an ``int`` count stays an ``int``)."""
        return flat(self.raw)

    @property
    def floats(self) -> list[float]:
        """Its numbers, row by row, as floats (what a script or the LMS compares with)."""
        return [float(x) for x in flat(self.raw)]

    @property
    def shape(self) -> tuple[int, ...]:
        """``()`` for a number, ``(n,)`` for a vector, ``(rows, cols)`` for a matrix."""
        return shape_of(self.raw)

    @property
    def count(self) -> int:
        """How many numbers a student types for it."""
        return len(flat(self.raw))

    @property
    def table(self) -> tuple[int, int]:
        """(rows, columns) it is laid out in, typed box by box: a number is one box, a vector one row."""
        shape = self.shape
        if len(shape) == 2:
            return shape[0], shape[1]
        return 1, shape[0] if shape else 1

    @property
    def words(self) -> str:
        """How a student types it (``shape_words``)."""
        return shape_words(self.shape)

    @staticmethod
    def shaped(numbers: list[Any] | tuple[Any, ...], shape: tuple[int, ...]) -> Any:
        """Numbers row by row back in ``shape`` (the inverse of ``numbers``); numbers that do not
        fill it stay a flat list, and one number alone is that number."""
        items = list(numbers)
        if len(shape) == 2 and shape[0] * shape[1] == len(items):
            return [items[r * shape[1] : (r + 1) * shape[1]] for r in range(shape[0])]
        if len(shape) == 1 or len(items) > 1:
            return items
        return items[0]
