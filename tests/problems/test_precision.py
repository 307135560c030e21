"""One precision rule for problems: the type declares it as data, the prompt states it in the
same words, the tolerance accepts an answer rounded to it, and the key (card and print) shows
the answer to exactly that precision."""

from __future__ import annotations

import re

import pytest

from generator import problems
from generator.presentation import answer_formatter
from generator.problems import precision
from generator.values import Precision


def _numbers(value):
    if isinstance(value, list):
        for item in value:
            yield from _numbers(item)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield value


@pytest.mark.parametrize("type_id", sorted(problems.all_types()))
@pytest.mark.parametrize("difficulty", problems.DIFFICULTIES)
def test_prompt_precision_tolerance_and_key_agree(type_id: str, difficulty: str) -> None:
    for problem in problems.generate(type_id, 8, 99, difficulty):
        declared = problem.precision
        assert declared == problems.get(type_id).precision
        assert precision.stated(problem.prompt) == declared, problem.prompt  # the words say the data
        primary = problems.get(type_id).primary
        values = list(_numbers(problem.answer[primary]))
        if declared is None:  # whole numbers, or values the prompt asks for exactly
            assert "exact" in problem.prompt or all(float(x).is_integer() for x in values), problem.prompt
            continue
        assert precision.rejects_rounded(declared, problem.tolerance, values) == ""
        fmt = answer_formatter(declared, problem.tolerance.abs, problem.tolerance.rel)
        for x in values:
            unit = declared.unit(x)
            allowed = max(problem.tolerance.abs or 0.0, (problem.tolerance.rel or 0.0) * abs(x))
            assert allowed >= 0.5 * unit * (1 - 1e-9), (problem.prompt, x)  # a rounded answer is right
            shown = fmt(x)
            if declared.decimals is not None and not isinstance(x, int):
                digits = shown.split(".")[1] if "." in shown else ""
                assert len(digits) == declared.decimals, (shown, declared)  # trailing zeros too: 0.510
            assert abs(float(re.sub(r" \\times 10\^\{(-?\d+)\}", r"e\1", shown)) - x) <= 0.5 * unit * 1.0001


@pytest.mark.parametrize(
    "declared, value, shown",
    [
        (Precision(decimals=3), 0.51, "0.510"),
        (Precision(decimals=3), -0.22, "-0.220"),
        (Precision(decimals=3), -0.0002, "0.000"),
        (Precision(decimals=3), 2.0, "2.000"),
        (Precision(decimals=3), 3, "3"),  # a count stays a whole number
        (Precision(figures=4), 0.00175, "0.001750"),
        (Precision(figures=4), 0.5, "0.5000"),
    ],
)
def test_answers_print_every_declared_place(declared: Precision, value: float, shown: str) -> None:
    assert answer_formatter(declared)(value) == shown


def test_without_a_declared_precision_trailing_zeros_go() -> None:
    assert answer_formatter(None, 0.005)(0.5) == "0.5"


@pytest.mark.parametrize(
    "prompt, declared, said",
    [
        ("Give it to three decimals.", Precision(decimals=3), ""),
        ("Give it to 3 decimal places.", Precision(decimals=3), ""),
        ("Give four significant figures.", Precision(figures=4), ""),
        ("Give the output.", Precision(decimals=3), ""),  # the words may leave it out
        (
            "Give it to 3 decimals.",
            Precision(decimals=4),
            "the prompt asks for 3 decimals, its precision is 4 decimals",
        ),
        (
            "Give it to 3 decimals.",
            Precision(figures=3),
            "the prompt asks for 3 decimals, its precision is 3 significant figures",
        ),
        ("Give it to 1 decimal.", None, "the prompt asks for 1 decimal and no precision is declared"),
    ],
)
def test_the_words_are_checked_against_the_data(prompt: str, declared: Precision | None, said: str) -> None:
    assert precision.disagreement(prompt, declared) == said
