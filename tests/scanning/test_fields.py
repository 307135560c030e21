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


DIGITS = {
    "kind": "digits",
    "question": 3,
    "sign": [5.0, 20.0],
    "columns": [_column(10.0), _column(15.0), _column(22.0), _column(27.0)],
    "point": 2,
    "box": [0, 10, 40, 70],
    "page": 1,
}
CHOICE = {
    "kind": "choice",
    "question": 1,
    "values": ["A", "B", "C", "D"],
    "bubbles": [[10.0 + 5.6 * i, 5.0] for i in range(4)],
    "box": [0, 0, 40, 8],
    "page": 1,
}


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


@pytest.mark.parametrize(
    ("marks", "value"),
    [
        ([choice(2)], "C"),
        ([], None),
        ([choice(1, 0.03)], None),  # a smudge below the empty level
    ],
)
def test_a_choice_row_reads_its_one_filled_bubble(marks, value) -> None:
    assert read(marks)["choice"] == (value, "")


@pytest.mark.parametrize(
    ("marks", "problem"),
    [
        ([choice(0), choice(2)], "2 bubbles filled: A, C"),
        ([choice(1, 0.2)], "faint, erased or crossed-out mark at B"),
        ([choice(0), choice(3, 0.18)], "faint, erased or crossed-out mark at D"),
    ],
)
def test_two_or_a_faint_mark_leave_the_row_unread(marks, problem) -> None:
    value, found = read(marks)["choice"]
    assert value is None and problem in found


@pytest.mark.parametrize(
    ("marks", "value"),
    [
        ([digit(0, 1), digit(1, 2), digit(2, 5), digit(3, 0)], "12.50"),
        ([digit(1, 0), digit(2, 2), digit(3, 5)], "0.25"),  # a leading zero left blank
        ([digit(2, 2), digit(3, 5)], "0.25"),  # the whole integer part left blank
        ([digit(0, 0), digit(1, 3), digit(2, 0), digit(3, 1)], "3.01"),  # a leading zero filled
        ([(DIGITS["sign"], 0.9), digit(1, 7), digit(2, 0), digit(3, 4)], "-7.04"),
        ([], None),
    ],
)
def test_a_digit_grid_reads_its_number(marks, value) -> None:
    assert read(marks)["digits"] == (value, "")


@pytest.mark.parametrize(
    ("marks", "problem"),
    [
        ([digit(0, 1), digit(2, 2), digit(3, 5)], "digit column 2 is empty"),
        ([digit(1, 1), digit(2, 2)], "digit column 4 (after the point) is empty"),
        ([digit(1, 1), digit(1, 4), digit(2, 2), digit(3, 5)], "digit column 2: 2 bubbles filled: 1, 4"),
        ([digit(1, 1), digit(2, 2, 0.2), digit(3, 5)], "digit column 3: faint"),
        ([(DIGITS["sign"], 0.9)], "a sign but no digit filled"),
        ([(DIGITS["sign"], 0.2), digit(1, 1), digit(2, 2), digit(3, 5)], "sign: faint"),
    ],
)
def test_a_doubtful_digit_grid_is_not_read(marks, problem) -> None:
    value, found = read(marks)["digits"]
    assert value is None and problem in found


@pytest.mark.parametrize(
    "marks",
    [
        [(DIGITS["sign"], 0.04), digit(1, 1), digit(2, 2), digit(3, 5)],  # a faint minus
        [(DIGITS["sign"], 0.09), digit(1, 1), digit(2, 2), digit(3, 5)],
        [digit(0, 3, 0.04), digit(1, 1), digit(2, 2), digit(3, 5)],  # a faint leading digit
    ],
)
def test_a_faint_mark_where_blank_is_a_reading_is_flagged(marks) -> None:
    """Blank is a reading for the sign and the leading columns: a mark far under the empty line
    of other bubbles would change the number there, so it is flagged, not read as blank."""
    value, found = read(marks)["digits"]
    assert value is None and "faint" in found


def test_a_faint_mark_beside_a_filled_digit_is_that_digit() -> None:
    marks = [digit(0, 3, 0.04), digit(0, 1), digit(1, 1), digit(2, 2), digit(3, 5)]
    assert read(marks)["digits"] == ("11.25", "")


def dot(centre: list[float], radius_mm: float = 0.3) -> Straightened:
    straightened = page([digit(1, 1), digit(2, 2), digit(3, 5)])
    at = (int((centre[0] + 0.5 + MARGIN_MM) * PX_PER_MM), int((centre[1] + MARGIN_MM) * PX_PER_MM))
    cv2.circle(straightened.darkness, at, max(1, round(radius_mm * PX_PER_MM)), 0.8, -1)
    return straightened


@pytest.mark.parametrize("where", [DIGITS["sign"], DIGITS["columns"][0][7]])
def test_a_dot_where_blank_is_a_reading_is_flagged(where) -> None:
    found = {f.field["kind"]: (f.value, f.problem) for f in read_fields(dot(where), [CHOICE, DIGITS], RADIUS)}
    value, problem = found["digits"]
    assert value is None and "faint" in problem
    # The same dot in a column after the point beside its filled digit changes nothing.
    found = {
        f.field["kind"]: (f.value, f.problem)
        for f in read_fields(dot(DIGITS["columns"][3][1]), [CHOICE, DIGITS], RADIUS)
    }
    assert found["digits"] == ("1.25", "")


def test_a_ring_drawn_around_a_bubble_is_flagged_not_blank() -> None:
    """What a student does where a page says "circle": the letter's bubble left empty, a ring
    around it outside its printed ring."""
    straightened = page([])
    x, y = CHOICE["bubbles"][2]
    centre = (int((x + MARGIN_MM) * PX_PER_MM), int((y + MARGIN_MM) * PX_PER_MM))
    axes = (int(2.9 * PX_PER_MM), int(2.6 * PX_PER_MM))
    cv2.ellipse(straightened.darkness, centre, axes, 0, 20, 370, 0.8, 2)
    (ringed,) = read_fields(straightened, [CHOICE], RADIUS)
    assert ringed.value is None and "C" in ringed.problem
    assert read_fields(page([]), [CHOICE], RADIUS)[0].problem == ""
