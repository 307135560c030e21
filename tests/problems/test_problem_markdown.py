"""``paperdeck problems --format markdown`` read by a CommonMark renderer with math
(markdown-it-py with the dollarmath plugin, as MyST and many sites use): the math arrives
whole, backslashes and all, and answers show the digits the text format prints."""

from __future__ import annotations

import re

import pytest
from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin

from generator import problems
from generator.exporters.problem_text import as_markdown, dollar_math
from generator.presentation import answer_formatter, value_latex

RENDERER = MarkdownIt("commonmark").use(dollarmath_plugin)


def _tokens(tokens):
    for token in tokens:
        yield token
        yield from _tokens(token.children or [])


def math_of(markdown: str) -> list[str]:
    return [
        t.content.strip()
        for t in _tokens(RENDERER.parse(markdown))
        if t.type in ("math_inline", "math_block", "math_block_eqno")
    ]


def _math_in(text: str) -> list[str]:
    return [latex.strip() for _, latex in re.findall(r"\\([(\[])(.*?)\\[)\]]", text, re.S)]


@pytest.mark.parametrize("type_id", sorted(problems.all_types()))
def test_every_formula_reaches_the_renderer_whole(type_id: str) -> None:
    problem = next(iter(problems.generate(type_id, 1, 3, "medium")))
    markdown = as_markdown(problem)
    found = math_of(markdown)
    expected = _math_in(problem.prompt)
    for step in problem.steps:  # a step's title (its math as math too), then its formula
        expected += [*_math_in(step.title), step.latex]
    assert found[: len(expected)] == expected  # prompt, then steps; then answers and mistakes
    assert "\\(" not in markdown and "\\[" not in markdown, "CommonMark reads \\( as a parenthesis"


def test_answers_print_as_the_text_format_prints_them() -> None:
    problem = problems.generate_one("sdpa", 4206576313, "medium")
    markdown = as_markdown(problem)
    fmt = answer_formatter(problem.precision, problem.tolerance.abs, problem.tolerance.rel)
    assert f"- `output` = ${value_latex(problem.answer['output'], fmt)}$" in markdown
    assert "-1.296 & -0.463" in markdown  # three decimals, as asked, not ten
    assert '{"abs"' not in markdown and "± $0.005$ per number" in markdown
    assert markdown.index("`output` =") < markdown.index("`scores` =")  # the checked result first
    assert "- forgot to divide by $\\sqrt{d_k}$: `output` = $" in markdown  # a mistake's math as math
    assert "`paperdeck problems sdpa --problem-seed 4206576313 -d medium`" in markdown


def test_dollar_math_keeps_matrix_rows_and_escapes_prose_dollars() -> None:
    text = r"Costs $5: \(A = \begin{pmatrix} 1 \\ 2 \end{pmatrix}\) and \[ x^2 \]"
    converted = dollar_math(text)
    assert converted == r"Costs \$5: $A = \begin{pmatrix} 1 \\ 2 \end{pmatrix}$ and $$x^2$$"
    assert math_of(converted) == [r"A = \begin{pmatrix} 1 \\ 2 \end{pmatrix}", "x^2"]
