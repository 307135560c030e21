"""``paperdeck problems --format text``: plain Unicode for a terminal, keys after the problems."""

from __future__ import annotations

import re

import pytest

from generator import problems
from generator.exporters.plain_text import math_box, prose
from generator.exporters.problem_text import text_stream


@pytest.mark.parametrize("type_id", sorted(problems.all_types()))
@pytest.mark.parametrize("difficulty", problems.DIFFICULTIES)
def test_text_has_no_latex_and_keys_come_last(type_id: str, difficulty: str) -> None:
    generated = list(problems.generate(type_id, 3, 11, difficulty))
    text = "".join(text_stream(generated))
    assert "\\" not in text and "{" not in text and "}" not in text, text
    problems_part, _, keys = text.partition(" Answers ")
    assert problems_part.count("Problem ") == 3 and keys.count("Problem ") == 3
    for problem in generated:
        assert str(problem.seed) not in problems_part  # the seed is with the key, not the problem
        assert f"--problem-seed {problem.seed} -d {difficulty}" in keys


def test_matrices_stand_in_rows_and_columns() -> None:
    box = math_box(r"AV = \begin{pmatrix} 1 & -2.5 \\ 30 & 4 \end{pmatrix}")
    assert box.lines == ["AV = ⎡  1  -2.5 ⎤", "     ⎣ 30     4 ⎦"]


def test_symbols_fractions_roots_and_scripts() -> None:
    assert math_box(r"\frac{QK^{\top}}{\sqrt{d_k}}").lines == ["QKᵀ/√d_k"]
    assert math_box(r"d_{\mathrm{model}}^{-0.5} \cdot \min(a, b)").lines == ["d_model^(-0.5) · min(a, b)"]
    # \epsilon is the lunate ϵ, as MathJax prints it on a card and the site's MathML (issue 42).
    assert math_box(r"\sigma^2 + \epsilon \le \infty").lines == ["σ² + ϵ ≤ ∞"]
    assert math_box(r"\varepsilon").lines == ["ε"]


def test_prose_writes_matrices_on_one_line() -> None:
    text = prose(r"for \(K = \begin{pmatrix} 1 & 0 \\ 0 & 1 \end{pmatrix}\), **so**")
    assert text == "for K = [1 0; 0 1], so"


def test_answers_show_the_precision_the_prompt_asks_for() -> None:
    problem = problems.generate_one("softmax", 591504485)
    assert "three decimals" in problem.prompt
    keys = "".join(text_stream([problem])).partition(" Answers ")[2]
    weights = " ".join(f"{x:.3f}" for x in problem.answer["p"])
    assert re.search(r"p = \[" + re.escape(weights) + r"\]", keys), keys
    assert "(± 0.002 per number)" in keys
