"""How paperdeck shows things, one rule each, for cards and print alike.

- Numbers of answers: one digit finer than the tolerance the student is held to
  (``number_formatter``), so a card and a printed key show the same digits; other
  numbers to four decimals or four significant figures (``format_number``).
- A value (number, vector, matrix, list of matrices) as LaTeX (``value_latex``).
- A tolerance in words (``tolerance_words``).
- Labels of options and forms: A … Z, then AA, AB, … (``letter``).
- The build time stamped on what is written (``build_time``, ``SOURCE_DATE_EPOCH``).

Everything returns LaTeX or Markdown with LaTeX math, which each exporter turns
into its own markup.
"""

from __future__ import annotations

import html
import math
import os
import re
import time
from collections.abc import Callable
from typing import Any

from .errors import UsageError
from .numerals import fixed, significant
from .values import Precision

Formatter = Callable[[float], str]


def number_formatter(abs_tol: float | None = None, rel_tol: float | None = None) -> Formatter:
    """Numbers shown one digit finer than the tolerance a student is held to."""
    if rel_tol and not abs_tol:
        figures = max(3, math.ceil(-math.log10(rel_tol)) + 2)
        return lambda x: significant(x, figures)
    decimals = max(2, math.ceil(-math.log10(abs_tol)) + 1) if abs_tol else 6
    return lambda x: fixed(x, decimals)


def answer_formatter(
    precision: Precision | None, abs_tol: float | None = None, rel_tol: float | None = None
) -> Formatter:
    """Answers shown to the precision their question or problem declares (``Precision.format``:
    every place, "three decimals" is 0.510), so the key prints what the student was asked for;
    without one, ``number_formatter``."""
    if precision is None:
        return number_formatter(abs_tol, rel_tol)
    return precision.format


_POWER = re.compile(r" \\times 10\^\{(-?\d+)\}$")


def key_text(values: list[float], fmt: Formatter) -> str:
    """Numbers of a key as plain text, to the digits ``fmt`` shows them (``answer_formatter``:
    what the question asks for), separated by spaces: what a card's or the site's message
    about a wrong typed answer says the key has. ``1.23 \\times 10^{-5}`` reads ``1.23e-5``."""
    words = []
    for x in values:
        shown = _POWER.sub(r"e\1", fmt(x))
        words.append({r"\infty": "inf", r"-\infty": "-inf", r"\text{NaN}": "NaN"}.get(shown, shown))
    return " ".join(words)


def format_number(x: Any) -> str:
    """A number with no tolerance to follow: four decimals, or four significant figures when small."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return str(x)
    if isinstance(x, float) and x != 0 and abs(x) < 0.01:
        return significant(x, 4)
    return fixed(x, 4)


_NUMBER_TYPES = frozenset({float, int})


def value_latex(value: Any, fmt: Formatter = format_number, *, html_field: bool = False) -> str:
    """A number, vector (one row), matrix or list of matrices as LaTeX (``pmatrix``).

    ``html_field`` gives the LaTeX already escaped for an HTML field (``&amp;``
    between columns), which is much faster than escaping it afterwards.
    """
    if isinstance(value, (list, tuple)):
        sep = " &amp; " if html_field else " & "
        row = _row(value, fmt, sep)
        if row is not None:
            return r"\begin{pmatrix} " + row + r" \end{pmatrix}"
        rows = [_row(r, fmt, sep) if isinstance(r, (list, tuple)) else None for r in value]
        if None not in rows:
            return r"\begin{pmatrix} " + r" \\ ".join(rows) + r" \end{pmatrix}"  # type: ignore[arg-type]
        parts = (value_latex(v, fmt, html_field=html_field) for v in value)
        return r"\left(" + r",\ ".join(parts) + r"\right)"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return fmt(value)
    text = r"\text{" + re.sub(r"([\\{}_^$%&#~])", r"\\\1", str(value)) + "}"
    return html.escape(text, quote=False) if html_field else text


def _row(values: Any, fmt: Formatter, sep: str) -> str | None:
    """Numbers joined as one pmatrix row, or None when ``values`` holds anything else."""
    if not _NUMBER_TYPES.issuperset(map(type, values)):
        return None
    return sep.join(map(fmt, values))


_SYMBOL = re.compile(r"^[A-Za-z](_[A-Za-z0-9]+)?$")


def name_symbol(name: str) -> str | None:
    """A given's or answer's name as every output shows it: LaTeX when it is a symbol
    (``W_Q`` is ``W_{Q}``), else None, and the output writes it as words (``scaled_variance``
    is "scaled variance")."""
    if not _SYMBOL.match(name):
        return None
    base, _, sub = name.partition("_")
    return base + (f"_{{{sub}}}" if sub else "")


def tolerance_words(abs_tol: float | None, rel_tol: float | None = None) -> str:
    """The tolerance in words, as Markdown with math: ``± \\(0.005\\) per number``."""
    parts = []
    if abs_tol:
        parts.append(rf"± \({fixed(abs_tol, 10)}\) per number")
    if rel_tol:
        parts.append(rf"within \({fixed(rel_tol * 100, 10)}\)% of each number")
    return " or ".join(parts) or "exact"


def letter(index: int) -> str:
    """The label of option or form ``index`` (0-based): A … Z, AA … AZ, BA, …"""
    label = ""
    index += 1
    while index:
        index, remainder = divmod(index - 1, 26)
        label = chr(ord("A") + remainder) + label
    return label


def build_time(timestamp: int | None = None) -> int:
    """The build time: ``timestamp``, else ``SOURCE_DATE_EPOCH``, else the clock (whole seconds).

    One rule for every output: a bad ``SOURCE_DATE_EPOCH`` is an error, never ignored.
    """
    if timestamp is not None:
        return int(timestamp)
    fixed = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if fixed:
        if not fixed.isdigit():
            raise UsageError(f"SOURCE_DATE_EPOCH must be whole seconds since 1970, got {fixed!r}")
        return int(fixed)
    return int(time.time())
