"""A straightened sheet page read field by field: letters, digit grids, score bubbles, the ID.

Each field of the layout (docs/quiz-key.md, ``sheet.fields``) becomes a value (the
text of its CSV cell, or None for blank) or a problem that says what was seen; a
field with a problem is never given a value.

Digit grids: the sign column, then one digit per column. Empty columns before the
first digit of the integer part are leading zeros; any other empty column, and an
empty power of ten, leaves the number unread. A grid with no mark at all is blank.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .bubbles import EMPTY_MARK, Marks, Row, measure, read_row
from .locate import Straightened, not_flat

DIGITS = [str(d) for d in range(10)]


@dataclass(frozen=True)
class FieldRead:
    """What one field says."""

    field: dict[str, Any]
    value: str | None
    """Cell text; None when blank or not read."""
    problem: str = ""
    """Why it is not read."""


def _centres(field: dict[str, Any]) -> list[tuple[list[float], str, bool]]:
    """The field's bubbles in reading order, each with its class (what is printed in it, and
    where) and whether blank is a reading there (a sign, a column that may lead)."""
    kind = field["kind"]
    if kind in ("choice", "score"):
        return [(c, f"{kind} {v}", False) for c, v in zip(field["bubbles"], field["values"], strict=True)]
    if kind == "id":
        return [(c, f"id {d}", False) for column in field["columns"] for d, c in enumerate(column)]
    point = field["point"]
    centres = [(field["sign"], "sign", True)]
    centres += [
        (c, f"digit {d}", i < point)
        for i, column in enumerate(field["columns"])
        for d, c in enumerate(column)
    ]
    if "exponent" in field:
        centres.append((field["exponent_sign"], "power sign", True))
        centres += [(c, f"digit {d}", True) for column in field["exponent"] for d, c in enumerate(column)]
    return centres


class _Cursor:
    """Hands out the measured bubbles of a field in layout order."""

    def __init__(self, marks: Marks, start: int):
        self.marks, self.at = marks, start

    def row(self, values: list[str]) -> Row:
        end = self.at + len(values)
        row = read_row(values, self.marks.states[self.at : end], self.marks.darkness[self.at : end].tolist())
        self.at = end
        return row


def _columns(cursor: _Cursor, count: int, what: str) -> tuple[list[str | None], list[str]]:
    digits, problems = [], []
    for c in range(count):
        row = cursor.row(DIGITS)
        digits.append(row.value)
        if row.problem:
            problems.append(f"{what} column {c + 1}: {row.problem}")
    return digits, problems


def _leading_blank_ok(digits: list[str | None], what: str) -> list[str]:
    """Blank columns may only lead."""
    first = next((i for i, d in enumerate(digits) if d is not None), len(digits))
    return [f"{what} column {i + 1} is empty" for i in range(first, len(digits)) if digits[i] is None]


def _digits(field: dict[str, Any], cursor: _Cursor) -> FieldRead:
    sign = cursor.row(["-"])
    digits, problems = _columns(cursor, len(field["columns"]), "digit")
    if sign.problem:
        problems.insert(0, f"sign: {sign.problem}")
    exponent_sign, exponent = Row(None, ""), list[str | None]()
    if "exponent" in field:
        exponent_sign = cursor.row(["-"])
        exponent, found = _columns(cursor, len(field["exponent"]), "power of ten")
        problems += ([f"power of ten sign: {exponent_sign.problem}"] if exponent_sign.problem else []) + found
    if problems:
        return FieldRead(field, None, "; ".join(problems))
    signs = [v for v in (sign.value, exponent_sign.value) if v]
    if not signs and all(d is None for d in digits + exponent):
        return FieldRead(field, None)
    if all(d is None for d in digits):
        return FieldRead(field, None, "a sign but no digit filled")
    point = field["point"]
    whole, fraction = digits[:point], digits[point:]
    problems = _leading_blank_ok(whole, "digit")
    problems += [
        f"digit column {point + i + 1} (after the point) is empty"
        for i, d in enumerate(fraction)
        if d is None
    ]
    if "exponent" in field:
        if all(d is None for d in exponent):
            problems.append("the power of ten is empty")
        else:
            problems += _leading_blank_ok(exponent, "power of ten")
    if problems:
        return FieldRead(field, None, "; ".join(problems))
    text = (sign.value or "") + ("".join(d for d in whole if d is not None).lstrip("0") or "0")
    if fraction:
        text += "." + "".join(d or "" for d in fraction)
    if "exponent" in field:
        text += (
            "e"
            + (exponent_sign.value or "")
            + ("".join(d for d in exponent if d is not None).lstrip("0") or "0")
        )
    return FieldRead(field, text)


def _student_id(field: dict[str, Any], cursor: _Cursor) -> FieldRead:
    digits, problems = _columns(cursor, len(field["columns"]), "ID")
    if problems:
        return FieldRead(field, None, "; ".join(problems))
    filled = [i for i, d in enumerate(digits) if d is not None]
    if not filled:
        return FieldRead(field, None, "no student ID filled in")
    gaps = [f"ID column {i + 1} is empty" for i in range(filled[0], filled[-1]) if digits[i] is None]
    if gaps:
        return FieldRead(field, None, "; ".join(gaps))
    return FieldRead(field, "".join(d for d in digits if d is not None))


def read_page(page: Straightened, fields: list[dict[str, Any]], radius: float) -> list[FieldRead] | str:
    """Every field of one straightened page, or why the page is not read: its bubbles are not all
    where the layout puts them (``locate.not_flat``: a sheet folded or curled under a phone)."""
    reads, marks, centres = _read(page, fields, radius)
    empty = np.array([state == EMPTY_MARK for state in marks.states], dtype=bool)
    return not_flat(page, centres, radius, empty) or reads


def read_fields(page: Straightened, fields: list[dict[str, Any]], radius: float) -> list[FieldRead]:
    """Every field of one straightened page."""
    return _read(page, fields, radius)[0]


def _read(
    page: Straightened, fields: list[dict[str, Any]], radius: float
) -> tuple[list[FieldRead], Marks, np.ndarray]:
    starts: list[int] = []
    bubbles: list[tuple[list[float], str, bool]] = []
    for field in fields:
        starts.append(len(bubbles))
        bubbles.extend(_centres(field))
    centres = np.array([b[0] for b in bubbles], dtype=np.float64).reshape(-1, 2)
    marks = measure(page, centres, radius, [b[1] for b in bubbles], [b[2] for b in bubbles])
    reads = []
    for field, start in zip(fields, starts, strict=True):
        cursor = _Cursor(marks, start)
        kind = field["kind"]
        if kind in ("choice", "score"):
            row = cursor.row([str(v) for v in field["values"]])
            reads.append(FieldRead(field, row.value, row.problem))
        elif kind == "id":
            reads.append(_student_id(field, cursor))
        else:
            reads.append(_digits(field, cursor))
    return reads, marks, centres
