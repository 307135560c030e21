"""Reading fields from a straightened page, rule by rule: what reads, what is blank, what is
flagged. Pages are drawn directly as darkness (0 paper, 1 black), so each rule is tested
without the geometry in the way."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from generator.scanning.fields import read_fields
from generator.scanning.locate import MARGIN_MM, PX_PER_MM, Straightened

RADIUS = 1.9


def _column(x: float, top: float = 20.0) -> list[list[float]]:
    return [[x, top + 4.4 * i] for i in range(10)]


DIGITS = {"kind": "digits", "question": 3, "sign": [5.0, 20.0],
          "columns": [_column(10.0), _column(15.0), _column(22.0), _column(27.0)], "point": 2,
          "box": [0, 10, 40, 70], "page": 1}
CHOICE = {"kind": "choice", "question": 1, "values": ["A", "B", "C", "D"],
          "bubbles": [[10.0 + 5.6 * i, 5.0] for i in range(4)], "box": [0, 0, 40, 8], "page": 1}


def page(marks: list[tuple[list[float], float]]) -> Straightened:
    """A page with a disc of the given darkness on each bubble (others empty)."""
    darkness = np.zeros((int(100 * PX_PER_MM), int(100 * PX_PER_MM)), np.float32)
    for bubble in [*CHOICE["bubbles"], DIGITS["sign"], *(c for col in DIGITS["columns"] for c in col)]:
        centre = (int((bubble[0] + MARGIN_MM) * PX_PER_MM), int((bubble[1] + MARGIN_MM) * PX_PER_MM))
        cv2.circle(darkness, centre, int(RADIUS * PX_PER_MM), 0.05, 1)  # the printed ring
    for (x, y), value in marks:
        centre = (int((x + MARGIN_MM) * PX_PER_MM), int((y + MARGIN_MM) * PX_PER_MM))
        cv2.circle(darkness, centre, int(RADIUS * PX_PER_MM), value, -1)
    return Straightened(darkness, (255 * (1 - darkness)).astype(np.uint8))


def read(marks: list[tuple[list[float], float]]) -> dict[str, tuple[str | None, str]]:
    found = read_fields(page(marks), [CHOICE, DIGITS], RADIUS)
    return {f.field["kind"]: (f.value, f.problem) for f in found}


def digit(column: int, value: int, darkness: float = 0.9) -> tuple[list[float], float]:
    return DIGITS["columns"][column][value], darkness


def choice(index: int, darkness: float = 0.9) -> tuple[list[float], float]:
    return CHOICE["bubbles"][index], darkness


@pytest.mark.parametrize(("marks", "value"), [
    ([choice(2)], "C"),
    ([], None),
    ([choice(1, 0.03)], None),  # a smudge below the empty level
])
def test_a_choice_row_reads_its_one_filled_bubble(marks, value) -> None:
    assert read(marks)["choice"] == (value, "")


@pytest.mark.parametrize(("marks", "problem"), [
    ([choice(0), choice(2)], "2 bubbles filled: A, C"),
    ([choice(1, 0.2)], "faint, erased or crossed-out mark at B"),
    ([choice(0), choice(3, 0.18)], "faint, erased or crossed-out mark at D"),
])
def test_two_or_a_faint_mark_leave_the_row_unread(marks, problem) -> None:
    value, found = read(marks)["choice"]
    assert value is None and problem in found


@pytest.mark.parametrize(("marks", "value"), [
    ([digit(0, 1), digit(1, 2), digit(2, 5), digit(3, 0)], "12.50"),
    ([digit(1, 0), digit(2, 2), digit(3, 5)], "0.25"),  # a leading zero left blank
    ([digit(2, 2), digit(3, 5)], "0.25"),  # the whole integer part left blank
    ([digit(0, 0), digit(1, 3), digit(2, 0), digit(3, 1)], "3.01"),  # a leading zero filled
    ([(DIGITS["sign"], 0.9), digit(1, 7), digit(2, 0), digit(3, 4)], "-7.04"),
    ([], None),
])
def test_a_digit_grid_reads_its_number(marks, value) -> None:
    assert read(marks)["digits"] == (value, "")


@pytest.mark.parametrize(("marks", "problem"), [
    ([digit(0, 1), digit(2, 2), digit(3, 5)], "digit column 2 is empty"),
    ([digit(1, 1), digit(2, 2)], "digit column 4 (after the point) is empty"),
    ([digit(1, 1), digit(1, 4), digit(2, 2), digit(3, 5)], "digit column 2: 2 bubbles filled: 1, 4"),
    ([digit(1, 1), digit(2, 2, 0.2), digit(3, 5)], "digit column 3: faint"),
    ([(DIGITS["sign"], 0.9)], "a sign but no digit filled"),
    ([(DIGITS["sign"], 0.2), digit(1, 1), digit(2, 2), digit(3, 5)], "sign: faint"),
])
def test_a_doubtful_digit_grid_is_not_read(marks, problem) -> None:
    value, found = read(marks)["digits"]
    assert value is None and problem in found
