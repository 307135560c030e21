"""The LMS exports of every shipped quiz, built once a session, and the IMS schemas, loaded once.

The schemas in ``schemes/`` are IMS's, unchanged, with their notice (``schemes/README.md``).
"""

from __future__ import annotations

import io
import time
import zipfile
from pathlib import Path

import pytest
from lxml import etree as lxml_etree  # the test extra (setup.cfg)

ROOT = Path(__file__).resolve().parents[2]
SCHEMES = Path(__file__).resolve().parent / "schemes"
SHIPPED = ("quiz-attention", "quiz-embeddings-positions", "quiz-final", "quiz-multi-head", "quiz-training")
VARIANTS = 3


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


def package_files(package: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(package)) as z:
        return {name: z.read(name) for name in z.namelist()}
