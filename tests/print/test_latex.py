"""The LaTeX-to-Typst math converter: the subset compiles, the rest fails clearly."""

from __future__ import annotations

import dataclasses

import pytest
import typst

from generator.content import text as content_text
from generator.exporters.typst.compile import compile_pdf
from generator.latex import SYMBOLS, LatexError, convert, symbols
from generator.latex.mathml import to_mathml
from generator.latex.plain import math_box

from ..pdf_text import pages_text

SAMPLES = {
    r"\mathrm{Attention}(Q,K,V)=\mathrm{softmax}\left(\frac{QK^{\top}}{\sqrt{d_k}}\right)V": '#math.upright("Attention")\\( Q \\, K \\, V \\) =#math.upright("softmax")'
    "lr(\\( frac(Q K^(top), sqrt(d_(k))) \\)) V",
    r"\begin{pmatrix} 1 & -0.5 \\ 3 & 4 \end{pmatrix}": 'mat(delim: "(", 1, - 0.5; 3, 4)',
    r"x^23": "x^(2) 3",
    r"d_{model}": "d_(m o d e l)",
    r"\mathbb{R}^{n \times d}": "RR^(n times d)",
    r"a \le b \ne c": "a <= b != c",
    r"a < = b": "a < = b",
    r"\text{if } x": '"if "x',
}

EVERYTHING = [
    r"\frac{a}{b} + \dfrac12 + \sqrt[3]{x} + \sqrt{d_k}",
    r"\operatorname{Concat}(\mathrm{head}_1, \ldots, \mathrm{head}_h)W^O",
    r"\operatorname*{argmax}_i x_i \quad \max_j \min_k \exp(x) \log y \sin(a) \cos(b)",
    r"\sum_{j=1}^{n} e^{x_j} \cdot 2 \times 3 \approx \infty, \; i \in \{1, \dots, n\}",
    r"\left\lVert x \right\rVert_2 = \lVert y \rVert \ge |z| \qquad \left[ 0, 1 \right)",
    r"\begin{bmatrix} a & b \\ c & d \end{bmatrix} \begin{vmatrix} 1 & 2 \\ 3 & 4 \\ \end{vmatrix}",
    r"f(x) = \begin{cases} 0 & x < 0 \\ x & \text{otherwise} \end{cases}",
    r"\begin{aligned} a &= b \\ &= c \end{aligned}",
    r"\hat{y} \bar{x} \tilde{z} \vec{v} \mathbf{W} \mathcal{L} \boldsymbol{\alpha} 10^{-4} x' / 2",
    r"PE_{(pos, 2i)} = \sin\left(\frac{pos}{10000^{2i/d_{model}}}\right)",
    r"W \in \mathbb{R}^{d \times d}",
    r"\text{a \% and \{braces\} and \$}  \, \! \: \  a~b",
]


@pytest.mark.parametrize(("latex", "expected"), SAMPLES.items())
def test_converts_to_expected_typst(latex, expected):
    assert convert(latex) == expected


def test_whole_subset_compiles_and_typesets():
    body = "\n\n".join(f"$ {convert(latex)} $" for latex in EVERYTHING)
    symbols = " ".join(f"\\{name}" for name in SYMBOLS)
    body += f"\n\n$ {convert(symbols)} $"
    text = "".join(pages_text(compile_pdf(body, 0)))
    assert "√" in text and "∑" in text and "ℝ" in text
    assert "\\frac" not in text and "mat(" not in text


def test_every_symbol_is_a_typst_symbol():
    for name, typst_name in SYMBOLS.items():
        try:
            typst.compile(f"$ {typst_name} $".encode(), ignore_system_fonts=True)
        except typst.TypstError as error:  # pragma: no cover - names the culprit
            pytest.fail(f"\\{name} -> {typst_name}: {error}")


@pytest.mark.parametrize(
    ("latex", "command"),
    [
        (r"a \foo b", r"\foo"),
        (r"\frac{1}{\notacommand}", r"\notacommand"),
        (r"\begin{tikzpicture} x \end{tikzpicture}", r"\begin"),
    ],
)
def test_unknown_command_is_a_clear_error(latex, command):
    with pytest.raises(LatexError) as raised:
        convert(latex)
    assert raised.value.command == command
    assert command in str(raised.value)


@pytest.mark.parametrize("latex", [r"\frac{a}{b", r"a}", r"\left( x", r"x^", r"\begin{pmatrix} 1"])
def test_malformed_math_is_a_latex_error(latex):
    with pytest.raises(LatexError):
        convert(latex)


@pytest.mark.parametrize(
    "latex",
    ["{" * 5000 + "x" + "}" * 5000, r"\sqrt" * 5000 + "x", r"\left(" * 2000 + "x" + r"\right)" * 2000],
)
def test_math_nested_without_end_is_refused_not_a_crash(latex):
    # Python's stack would overflow (RecursionError, a traceback from `check`): a bound instead.
    with pytest.raises(LatexError, match=r"nested deeper than 50 levels"):
        convert(latex)
    assert convert("{" * 20 + r"\frac{\sqrt{x}}{y}" + "}" * 20) == "frac(sqrt(x), y)"


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)
    elif dataclasses.is_dataclass(value):
        for field in dataclasses.fields(value):
            yield from _strings(getattr(value, field.name))


def test_bundled_content_math_all_converts():
    """Every math span of the shipped content converts (what the content loader will check)."""
    from generator.project import BUNDLED, open_project

    content = open_project(BUNDLED).content
    failures = []
    for lesson in content.lessons:
        for text in _strings(lesson):
            latex_fields = [text] if "\\(" not in text and "\\[" not in text else []
            latex_fields += [node.latex for node in content_text.math(text)]
            for latex in latex_fields:
                try:
                    convert(latex)
                except LatexError as error:
                    failures.append(f"{lesson.id}: {error}")
    assert not failures, "\n".join(failures[:10])


def test_every_writer_takes_its_symbols_from_the_one_list():
    # Print, the site and terminal text read one table (latex/symbols.py); \epsilon is the
    # lunate ϵ and \varepsilon ε in all three, as MathJax prints them on a card.
    for name, symbol in symbols.SYMBOLS.items():
        assert convert(f"\\{name}") == symbol.typst, name
        assert math_box(f"\\{name}").lines == [symbol.plain.rstrip()], name
        if symbol.kind != "space":
            assert f">{symbol.unicode}</" in to_mathml(f"\\{name}"), name
    assert symbols.SYMBOLS["epsilon"].unicode == symbols.SYMBOLS["epsilon"].plain == "ϵ"
    assert symbols.SYMBOLS["varepsilon"].unicode == symbols.SYMBOLS["varepsilon"].plain == "ε"
