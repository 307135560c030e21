"""Values with a shape and a precision (``generator.values``): the numbers of an answer, a given
or a mistake, their shape, how many a student types and the words that say so, computed once."""

from __future__ import annotations

import pytest

from generator.values import Precision, Value, shape_words


@pytest.mark.parametrize(
    "raw, numbers, shape, table, words",
    [
        (1.5, [1.5], (), (1, 1), "one number"),
        (3, [3], (), (1, 1), "one number"),
        ([0.5], [0.5], (1,), (1, 1), "one number"),
        ([0.1, 0.2, 0.7], [0.1, 0.2, 0.7], (3,), (1, 3), "3 numbers"),
        ([[1, 2]], [1, 2], (1, 2), (1, 2), "2 numbers (a 1 × 2 row)"),
        ([[1, 2], [3, 4]], [1, 2, 3, 4], (2, 2), (2, 2), "4 numbers (2 × 2, row by row)"),
        ([[1, 2, 3], [4, 5, 6]], [1, 2, 3, 4, 5, 6], (2, 3), (2, 3), "6 numbers (2 × 3, row by row)"),
    ],
)
def test_a_value_knows_its_numbers_shape_and_words(raw, numbers, shape, table, words) -> None:
    value = Value(raw)
    assert value.numbers == numbers and value.count == len(numbers)
    assert value.floats == [float(x) for x in numbers]
    assert value.shape == shape and value.table == table
    assert value.words == words == shape_words(shape)  # the Anki card's words, for every output
    assert Value.shaped(value.numbers, shape) == (raw if shape != (1,) else [raw[0]])


def test_numbers_that_do_not_fill_the_shape_stay_flat() -> None:
    assert Value.shaped([1, 2, 3], (2, 2)) == [1, 2, 3]  # a response with a part too many or few
    assert Value.shaped(["_"], ()) == "_"


@pytest.mark.parametrize(
    "precision, problems",
    [
        (Precision(decimals=3), []),
        (Precision(figures=4), []),
        (Precision(decimals=0), []),
        (Precision(), ["give either decimals or figures (precision: {decimals: 3})"]),
        (Precision(decimals=2, figures=3), ["give either decimals or figures (precision: {decimals: 3})"]),
        (Precision(decimals=11), ["decimals are 0 to 10, not 11"]),
        (Precision(figures=0), ["figures are 1 to 10, not 0"]),
    ],
)
def test_a_precision_is_decimals_or_figures(precision: Precision, problems: list[str]) -> None:
    assert precision.problems() == problems


def test_a_precision_has_its_unit_words_and_format() -> None:
    assert Precision(decimals=3).unit(12.0) == pytest.approx(0.001)
    assert Precision(figures=3).unit(0.000699) == pytest.approx(1e-6)
    assert Precision(decimals=1).words() == "1 decimal"
    assert Precision(figures=4).words() == "4 significant figures"
    assert Precision(decimals=3).format(0.51) == "0.510"
    assert Precision(figures=4).format(0.000698771) == r"6.988 \times 10^{-4}"


def test_a_prompt_asks_for_a_precision_in_words_made_from_it() -> None:
    assert Precision(decimals=3).spelled() == "three decimals"
    assert Precision(decimals=1).spelled() == "one decimal"
    assert Precision(figures=4).spelled() == "four significant figures"
    assert Precision(decimals=12).spelled() == "12 decimals"
