"""The LMS exports of every shipped quiz, built once a session, and the IMS schemas, loaded once.

The schemas in ``schemes/`` are IMS's, unchanged, with their notice (``schemes/README.md``).
"""

from __future__ import annotations

import io
import shutil
import time
import zipfile
from pathlib import Path

import pytest
from lxml import etree as lxml_etree  # the test extra (setup.cfg)

from generator import problems

ROOT = Path(__file__).resolve().parents[2]
SCHEMES = Path(__file__).resolve().parent / "schemes"
SHIPPED = ("quiz-attention", "quiz-embeddings-positions", "quiz-final", "quiz-multi-head", "quiz-training")
VARIANTS = 3
FIGURED = {
    "wsa-q-appendix-its": ("why-self-attention", "wsa-vis-appendix-figure-4", b"\x89PNG\r\n\x1a\n"),
    "arch-q-n-layers": ("architecture", "arch-vis-figure-1", b"<svg"),
}
"""No shipped question has a figure: these two are given one in a copy of the project (``figured``),
question id -> (its lesson, the visual it is given, how the visual's file begins)."""


@pytest.fixture(scope="session")
def qti_schema():
    return lxml_etree.XMLSchema(lxml_etree.parse(str(SCHEMES / "qtiv2p1" / "imsqti_v2p1.xsd")))


@pytest.fixture(scope="session")
def cp_schema():
    return lxml_etree.XMLSchema(lxml_etree.parse(str(SCHEMES / "imscp_v1p1.xsd")))


@pytest.fixture(scope="session")
def project():
    from generator.project import open_project

    return open_project(ROOT)


@pytest.fixture(scope="session")
def lms_quizzes(project):
    """recipe id -> (LmsQuiz, QTI zip bytes, seconds to build the quiz and its package)."""
    from generator.documents.lms import build_lms_quiz
    from generator.exporters import qti

    out = {}
    for recipe_id in SHIPPED:
        start = time.perf_counter()
        quiz = build_lms_quiz(project.content, project.quiz_recipe(recipe_id), 7, VARIANTS, b"lms-test")
        package = qti.package_bytes(quiz, 0)
        out[recipe_id] = (quiz, package, time.perf_counter() - start)
    return out


def give_figure(root: Path, lesson: str, question: str, figure: str) -> None:
    """Give a question of the project at ``root`` a figure, in its lesson's YAML."""
    path = root / "content" / "lessons" / f"{lesson}.yaml"
    text = path.read_text()
    line = f"  - id: {question}\n"
    assert text.count(line) == 1
    path.write_text(text.replace(line, f"{line}    figure: {figure}\n"))


def figured_project(root: Path) -> Path:
    """The shipped project copied into ``root`` with the ``FIGURED`` questions given their figure
    (also the fixture of tests/test_question_figures.py); ``root``."""
    for folder in ("content", "decks"):
        shutil.copytree(ROOT / folder, root / folder)
    for question, (lesson, figure, _) in FIGURED.items():
        give_figure(root, lesson, question, figure)
    return root


@pytest.fixture(scope="session")
def figured(tmp_path_factory):
    """The shipped project copied with the ``FIGURED`` questions given their figure: (its root, the
    LmsQuiz of quiz-final, its QTI package's files, its Moodle XML, the figure cache)."""
    from generator.documents.lms import build_lms_quiz
    from generator.exporters import moodle, qti
    from generator.project import open_project

    root = figured_project(tmp_path_factory.mktemp("figured"))
    project = open_project(root)
    cache = root / "figure-cache"
    quiz = build_lms_quiz(project.content, project.quiz_recipe("quiz-final"), 7, 2, b"lms-test")
    return root, quiz, package_files(qti.package_bytes(quiz, 0, cache)), moodle.quiz_xml(quiz, cache), cache


def documents(quiz) -> dict:
    """item identifier -> the document's item (a question, or a variant of a problem), as the
    exporter names them: every item of the package."""
    from generator.documents.lms import QuestionBank

    out = {}
    for s, section in enumerate(quiz.sections, 1):
        if isinstance(section, QuestionBank):
            for item in section.questions:
                out[f"q-{item.question.id}"] = item
        else:
            for j, slot in enumerate(section.slots, 1):
                for v, variant in enumerate(slot, 1):
                    out[f"p{s}-{j}-v{v}"] = variant
    return out


def flat(value) -> list:
    """A problem's answer (a number, vector or matrix) as its numbers, row by row."""
    return [x for part in value for x in flat(part)] if isinstance(value, list) else [value]


def key_and_mistakes(problem) -> tuple[list, list[tuple[str, list]]]:
    """A problem's key, flat, and each named mistake of the same size with its values."""
    primary = problems.get(problem.type).primary
    key = flat(problem.answer[primary])
    mistakes = [
        (d.mistake, flat(d.answer[primary]))
        for d in problem.distractors
        if d.answer.get(primary) is not None and len(flat(d.answer[primary])) == len(key)
    ]
    return key, mistakes


def package_files(package: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(package)) as z:
        return {name: z.read(name) for name in z.namelist()}
