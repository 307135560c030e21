"""One precision rule for problems: the prompt states it, the tolerance accepts an answer
rounded to it, and the key (card and print) shows the answer to exactly that precision."""

from __future__ import annotations

import re

import pytest

from generator import problems
from generator.presentation import answer_formatter
from generator.problems import precision


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
        stated = precision.stated(problem.prompt)
        primary = problems.get(type_id).primary
        values = list(_numbers(problem.answer[primary]))
        if stated is None:  # whole numbers, or values the prompt asks for exactly
            assert "exact" in problem.prompt or all(float(x).is_integer() for x in values), problem.prompt
            continue
        fmt = answer_formatter(problem.prompt, problem.tolerance.abs, problem.tolerance.rel)
        for x in values:
            unit = precision.unit(stated, x)
            allowed = max(problem.tolerance.abs or 0.0, (problem.tolerance.rel or 0.0) * abs(x))
            assert allowed >= 0.5 * unit * (1 - 1e-9), (problem.prompt, x)  # a rounded answer is right
            shown = fmt(x)
            if stated[0] == "decimals" and not isinstance(x, int):
                digits = shown.split(".")[1] if "." in shown else ""
                assert len(digits) == stated[1], (shown, stated)  # trailing zeros too: 0.510
            assert abs(float(re.sub(r" \\times 10\^\{(-?\d+)\}", r"e\1", shown)) - x) <= 0.5 * unit * 1.0001


@pytest.mark.parametrize(
    "prompt, value, shown",
    [
        ("Give it to three decimals.", 0.51, "0.510"),
        ("Give it to three decimals.", -0.22, "-0.220"),
        ("Give it to three decimals.", -0.0002, "0.000"),
        ("Give it to three decimals.", 2.0, "2.000"),
        ("Give it to three decimals.", 3, "3"),  # a count stays a whole number
        ("Give four significant figures.", 0.00175, "0.001750"),
        ("Give four significant figures.", 0.5, "0.5000"),
    ],
)
def test_answers_print_every_stated_place(prompt: str, value: float, shown: str) -> None:
    assert answer_formatter(prompt)(value) == shown


def test_without_a_stated_precision_trailing_zeros_go() -> None:
    assert answer_formatter("How many?", 0.005)(0.5) == "0.5"
