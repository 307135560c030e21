"""Fixtures for the print tests: a small content of our own, quizzes, PDFs read back.

The content is built here rather than loaded from content/ so that the tests pin
the exporter's behaviour, not the state of lessons being written.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.content.model import Choice, Content, Lesson, Paper, Question
from generator.content.recipes import ProblemSet, QuestionPick, QuizRecipe, QuizSection
from generator.documents import quiz

#: Text with every character Typst could read as markup or code.
NASTY = r"Costs #5 or \$3 * 2_x <b> @x a\b [y] `raw` = ~ // not a comment /* nor this */ 1. -- ..."
NASTY_PRINTED = "Costs #5 or $3 * 2_x <b> @x a\\b [y] raw = ~ // not a comment /* nor this */ 1. -- ..."


def _questions() -> tuple[Question, ...]:
    found = [
        Question(
            "q-nasty", "short_answer", NASTY, "S1", "Anything \\(x\\).", explanation="Printed *as written*."
        ),
        Question(
            "q-scale",
            "multiple_choice",
            r"By what are the scores \(QK^{\top}\) divided?",
            "S3.2.1",
            r"\(\sqrt{d_k}\)",
            (
                Choice(r"\(d_k\)", "divided by the dimension, not its root"),
                Choice(r"\(\frac{1}{d_k}\)", "multiplied instead of divided"),
                Choice("nothing", "forgot the scaling"),
            ),
            explanation=r"Equation (1) divides by \(\sqrt{d_k}\).",
        ),
        Question(
            "q-variance",
            "numeric",
            r"What is the variance of \(q \cdot k\) when \(d_k = 64\)?",
            "S3.2.1",
            64,
            tolerance=0.5,
            explanation="Sum of 64 unit variances.",
        ),
        Question("q-tf", "true_false", "Additive attention is faster in practice.", "S3.2.1", False),
    ]
    # Plain-text questions with long options, enough to run over several pages.
    for i in range(14):
        found.append(
            Question(
                f"q-plain-{i}",
                "multiple_choice",
                f"Plainquestion{i} which statement holds for item {i}",
                "S3",
                f"Rightoption{i} is the right statement",
                tuple(
                    Choice(f"Wrongoption{i}x{j} is one wrong statement among several", f"mistake {i}.{j}")
                    for j in range(3)
                ),
            )
        )
    return tuple(found)


@pytest.fixture(scope="session")
def content() -> Content:
    paper = Paper("aiayn", "Attention Is All You Need", ("A. Author",), 2017, "1706.03762", ("sdpa-lesson",))
    lesson = Lesson(
        "sdpa-lesson", "Scaled Dot-Product Attention", ("S3.2.1",), "Text.", questions=_questions()
    )
    return Content(paper, (lesson,))


def recipe(**changes) -> QuizRecipe:
    fields = dict(
        kind="quiz",
        title="Test Quiz",
        id="quiz-test",
        minutes=30,
        calculator=False,
        instructions="Answer *every* question; 100% # of the points.",
        sections=(
            QuizSection("Concepts", 1, questions=QuestionPick(count=12)),
            QuizSection("Softmax", 3, problems=ProblemSet("softmax", 1)),
            QuizSection("Attention", 5, problems=ProblemSet("sdpa", 2)),
        ),
    )
    fields.update(changes)
    return QuizRecipe(**fields)


@pytest.fixture(scope="session")
def quiz_recipe() -> QuizRecipe:
    return recipe()


@pytest.fixture(scope="session")
def built(content, quiz_recipe) -> quiz.Quiz:
    return quiz.build_quiz(content, quiz_recipe, seed=7, versions=3)


@pytest.fixture(scope="session")
def written(built, tmp_path_factory) -> list[Path]:
    """The quiz written with each form's worked key."""
    from generator.exporters import ExportOptions, quiz_forms

    return quiz_forms.export(built, tmp_path_factory.mktemp("quiz"), ExportOptions(worked_keys=True))


@pytest.fixture(scope="session")
def written_default(built, tmp_path_factory) -> list[Path]:
    """The quiz as ``paperdeck quiz`` writes it by default: forms, booklet, print file, key JSON."""
    from generator.exporters import ExportOptions, quiz_forms

    return quiz_forms.export(built, tmp_path_factory.mktemp("quiz"), ExportOptions())


def squash(text: str) -> str:
    """Text without whitespace, for finding phrases that wrap across lines."""
    return re.sub(r"\s+", "", text)
