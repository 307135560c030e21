"""Named mistakes, step titles and choice texts are Markdown with ``\\( \\)`` math at their
source, and every exporter typesets it: no string reaches a page as raw TeX
(``sqrt(d_k)``, ``W^O``, ``d_model``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator import problems
from generator.documents.checks import problem_check
from generator.exporters.anki import notes
from generator.exporters.plain_text import prose
from generator.exporters.print_items import solution
from generator.exporters.typst.compile import compile_pdf, preamble
from generator.latex import convert
from generator.project import open_project

from ..pdf_text import pdf_text

MATH = re.compile(r"\\\((.*?)\\\)|\\\[(.*?)\\\]", re.S)
# What TeX written as plain text looks like: a subscript or superscript, a function
# call spelled out, a Greek letter's name.
BARE_TEX = re.compile(r"\w_\w|\^|\bsqrt\(|\\[a-z]+|\b(?:eps|gamma|beta|epsilon|d_model|beta\d|[bW]\d)\b")


def _words(problem: problems.Problem) -> list[str]:
    return [d.mistake for d in problem.distractors] + [s.title for s in problem.steps]


def _every_type():
    for type_id in sorted(problems.all_types()):
        for difficulty in problems.DIFFICULTIES:
            for seed in range(4):
                try:
                    yield problems.generate_one(type_id, seed, difficulty)
                except Exception:  # a difficulty the type does not offer
                    break


def test_named_mistakes_and_step_titles_write_their_math_as_math():
    found = set()
    for problem in _every_type():
        for text in _words(problem):
            outside = MATH.sub(" ", text)
            assert not BARE_TEX.search(outside), (problem.type, text)
            for match in MATH.finditer(text):
                convert(match.group(1) or match.group(2))  # the LaTeX subset every exporter reads
            found.add(text)
    assert r"forgot to divide by \(\sqrt{d_k}\)" in found


def test_content_mistakes_and_choices_write_their_math_as_math():
    content = open_project(Path(__file__).parents[2]).content
    for lesson in content.lessons:
        for question in lesson.questions:
            for choice in question.distractors:
                for text in (choice.text, choice.mistake):
                    assert not BARE_TEX.search(MATH.sub(" ", text)), (question.id, text)


@pytest.mark.parametrize("type_id", ["sdpa", "mha", "mha-shapes", "label-smoothing"])
def test_worked_keys_typeset_the_math_of_mistakes_and_steps(type_id):
    problem = problems.generate_one(type_id, 3, "easy")
    pdf = compile_pdf(preamble("a4", "t", "[]") + solution(problem), 0)
    text = pdf_text(pdf)
    assert "\\(" not in text and "sqrt" not in text and "^" not in text and "d_" not in text
    for mistake in (d.mistake for d in problem.distractors):
        words = re.sub(r"\s+", "", mistake.split("\\(")[0])  # the words before the first math
        assert words in re.sub(r"\s+", "", text), mistake


def test_plain_text_and_card_verdicts_write_the_math_as_text():
    problem = problems.generate_one("sdpa", 3, "easy")
    root = next(d.mistake for d in problem.distractors if "sqrt" in d.mistake)
    assert prose(root) == "forgot to divide by √d_k"
    html = "".join(notes._problem_fields(problem, problem_check(problem)).values())
    assert 'data-mistake="forgot to divide by √d_k"' in html  # the card script's verdict is text
    assert r"forgot to divide by \(\sqrt{d_k}\)" in html  # the card's list is typeset by MathJax
