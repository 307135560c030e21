"""Checking the givens of a problem before solving it.

``solve`` also runs on givens typed by people (worked examples in content), so
every problem with them becomes a ``ProblemInputError`` naming the field, never
a NumPy or Python exception.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ..errors import ProblemInputError


def check_keys(given: Any, required: Iterable[str], optional: Iterable[str] = ()) -> None:
    """``given`` is a mapping with every required key and no unknown one."""
    required, optional = tuple(required), tuple(optional)
    if not isinstance(given, dict):
        raise ProblemInputError("given", f"expected a mapping of {', '.join(required)}")
    for key in required:
        if key not in given:
            raise ProblemInputError(f"given.{key}", "missing")
    for key in given:
        if key not in required and key not in optional:
            allowed = ", ".join(required + optional)
            raise ProblemInputError(f"given.{key}", f"unknown; expected {allowed}")


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def scalar(
    given: dict[str, Any],
    key: str,
    *,
    integer: bool = False,
    low: float | None = None,
    high: float | None = None,
    low_open: bool = False,
    high_open: bool = False,
) -> Any:
    """A finite number (an int if ``integer``) within ``[low, high]``."""
    x = given[key]
    if integer:
        if isinstance(x, float) and x.is_integer():
            x = int(x)
        if not isinstance(x, int) or isinstance(x, bool):
            raise ProblemInputError(f"given.{key}", f"expected a whole number, got {x!r}")
    elif not _is_number(x):
        raise ProblemInputError(f"given.{key}", f"expected a finite number, got {x!r}")
    if low is not None and (x <= low if low_open else x < low):
        raise ProblemInputError(
            f"given.{key}", f"must be {'greater than' if low_open else 'at least'} {low}, got {x}"
        )
    if high is not None and (x >= high if high_open else x > high):
        raise ProblemInputError(
            f"given.{key}", f"must be {'less than' if high_open else 'at most'} {high}, got {x}"
        )
    return x


def _array(value: Any, field: str, ndim: int, what: str) -> np.ndarray:
    def plain(v: Any, depth: int) -> bool:
        if depth == 0:
            return _is_number(v)
        return isinstance(v, (list, tuple)) and len(v) > 0 and all(plain(u, depth - 1) for u in v)

    if not plain(value, ndim):
        raise ProblemInputError(field, f"expected a non-empty {what} of finite numbers")
    try:
        array = np.array(value, dtype=float)
    except ValueError:  # ragged: rows of different lengths
        array = np.empty(0)
    if array.ndim != ndim:
        raise ProblemInputError(field, f"expected a {what}; rows must have equal lengths")
    return array


def vector(given: dict[str, Any], key: str, length: int | None = None) -> np.ndarray:
    """A non-empty list of finite numbers, of ``length`` entries if given."""
    v = _array(given[key], f"given.{key}", 1, "list")
    if length is not None and v.shape[0] != length:
        raise ProblemInputError(f"given.{key}", f"has {v.shape[0]} entries, expected {length}")
    return v


def matrix(
    given: dict[str, Any], key: str, rows: int | None = None, cols: int | None = None, why: str = ""
) -> np.ndarray:
    """A non-empty rectangular list of lists of finite numbers."""
    m = _array(given[key], f"given.{key}", 2, "matrix (list of rows)")
    return check_shape(m, f"given.{key}", rows, cols, why)


def check_shape(m: np.ndarray, field: str, rows: int | None, cols: int | None, why: str = "") -> np.ndarray:
    """``m`` has ``rows`` rows and ``cols`` columns where these are given."""
    r, c = m.shape
    if (rows is not None and r != rows) or (cols is not None and c != cols):
        want = f"{rows if rows is not None else r} x {cols if cols is not None else c}"
        raise ProblemInputError(field, f"is {r} x {c}, expected {want}" + (f" ({why})" if why else ""))
    return m


def matrices(given: dict[str, Any], key: str, count: int | None = None) -> list[np.ndarray]:
    """A non-empty list of matrices."""
    value = given[key]
    if not isinstance(value, (list, tuple)) or not value:
        raise ProblemInputError(f"given.{key}", "expected a non-empty list of matrices")
    if count is not None and len(value) != count:
        raise ProblemInputError(f"given.{key}", f"has {len(value)} matrices, expected {count}")
    return [_array(m, f"given.{key}[{i}]", 2, "matrix (list of rows)") for i, m in enumerate(value)]


_NUMBER_TYPES = {int, float}

Rows = Sequence[Sequence[float]]
"""A matrix as given: a list (or tuple) of rows, each a list (or tuple) of numbers."""


def matrix_rows(
    given: dict[str, Any], key: str, rows: int | None = None, cols: int | None = None, why: str = ""
) -> Rows:
    """Like ``matrix`` but as the given list of rows, for the ``tiny`` helpers."""
    value = given[key]
    field = f"given.{key}"
    if not isinstance(value, (list, tuple)) or not value:
        raise ProblemInputError(field, "expected a non-empty matrix (list of rows) of finite numbers")
    width = None
    for row in value:
        # A sum is finite only if every entry is (or a sum overflows: not hand-computable).
        if (
            not isinstance(row, (list, tuple))
            or not row
            or not {type(x) for x in row} <= _NUMBER_TYPES
            or not math.isfinite(sum(row))
        ):
            raise ProblemInputError(field, "expected a non-empty matrix (list of rows) of finite numbers")
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise ProblemInputError(field, "expected a matrix (list of rows); rows must have equal lengths")
    if (rows is not None and len(value) != rows) or (cols is not None and width != cols):
        want = f"{rows if rows is not None else len(value)} x {cols if cols is not None else width}"
        raise ProblemInputError(
            field, f"is {len(value)} x {width}, expected {want}" + (f" ({why})" if why else "")
        )
    return value
