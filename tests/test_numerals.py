"""One fixed-decimal rule, one significant-figure rule, one rounding rule (issue 42).

The card's answers, the worked steps, the guide, the site and the keys all write numbers
through ``generator.numerals``; these pin the rules, and that each older entry point is
that rule (a second copy that drifts fails here).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from generator import presentation
from generator.numerals import fixed, rounded, significant
from generator.problems import latex, rounding

FIXED = [
    ((2.5, 4), "2.5"),
    ((0.66976155, 4), "0.6698"),
    ((-0.00001, 4), "0"),
    ((-0.0, 2), "0"),
    ((7, 4), "7"),
    ((math.inf, 4), r"\infty"),
    ((-math.inf, 4), r"-\infty"),
    ((math.nan, 4), r"\text{NaN}"),
]
SIGNIFICANT = [
    (0.0012345, "0.001234"),  # was 1.234 \times 10^{-3} in the worked steps; the card's rule kept
    (0.00099996, "0.001"),
    (0.000698765, r"6.988 \times 10^{-4}"),
    (123456.7, "123457"),
    (1234567.0, r"1.235 \times 10^{6}"),
    (9.9996e-5, r"1 \times 10^{-4}"),
    (-2.5e-7, r"-2.5 \times 10^{-7}"),
    (0.0, "0"),
]


@pytest.mark.parametrize("args, text", FIXED, ids=[t for _, t in FIXED])
def test_fixed(args: tuple[float, int], text: str) -> None:
    assert fixed(*args) == text


def test_fixed_keeps_zeros_when_asked() -> None:
    assert (fixed(0.51, 3, zeros=True), fixed(-0.0001, 2, zeros=True)) == ("0.510", "0.00")


@pytest.mark.parametrize("x, text", SIGNIFICANT, ids=[t for _, t in SIGNIFICANT])
def test_significant_switches_to_powers_of_ten_below_0_001_and_from_a_million(x: float, text: str) -> None:
    assert significant(x, 4) == text


def test_significant_keeps_zeros_when_asked() -> None:
    assert (significant(0.00099996, 4, zeros=True), significant(0.0, 3, zeros=True)) == ("0.001000", "0.00")


def test_every_older_entry_point_is_the_one_rule() -> None:
    for x in (0.0012345, 0.000698765, 3.14159, -0.05, 1234567.0, 12.0):
        assert latex.scientific(x) == significant(x, 4)
        assert latex.number(x, 3) == fixed(x, 3)
        assert presentation.number_formatter(0.001)(x) == fixed(x, 4)
        assert presentation.number_formatter(None, 0.001)(x) == significant(x, 5)
        assert presentation.format_number(x) == (significant(x, 4) if abs(x) < 0.01 else fixed(x, 4))
    assert rounding.plain is rounded


def test_rounded_is_json_plain() -> None:
    value = rounded(np.array([[-1e-12, 0.1 + 0.2], [1 / 3, 2.0]]))
    assert value == [[0.0, 0.3], [0.3333333333, 2.0]]
    assert math.copysign(1, value[0][0]) == 1  # never -0.0
    assert type(rounded(np.float64(0.5))) is float
    assert rounded(1 / 3, 12) == 0.333333333333
