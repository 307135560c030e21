"""Plain text of math is a writer of the one LaTeX parser (``latex/plain.py``), and writes what
plain_text's own LaTeX reader wrote on every problem type's prompt, steps and named mistakes."""

from __future__ import annotations

import pytest

from generator import problems
from generator.exporters import plain_text
from generator.latex import math_spans
from generator.latex.plain import math_box


def _math(problem: problems.Problem) -> set[str]:
    """Every piece of LaTeX of a problem's prompt, steps and named mistakes."""
    texts = [problem.prompt, *(s.title for s in problem.steps), *(d.mistake for d in problem.distractors)]
    return {latex for text in texts for _, latex in math_spans(text)} | {s.latex for s in problem.steps}


@pytest.mark.parametrize("type_id", sorted(problems.all_types()))
def test_the_plain_writer_writes_what_the_old_reader_wrote(type_id: str) -> None:
    for difficulty in problems.DIFFICULTIES:
        for problem in problems.generate(type_id, 10, 42, difficulty):
            for latex in sorted(_math(problem)):
                for compact in (False, True):
                    new, old = math_box(latex, compact), plain_text.math_box(latex, compact)
                    assert (new.lines, new.base) == (old.lines, old.base), latex
