"""Shared pieces of the Anki exporter tests: a small content with every item kind,
decks built from it, and imports into a real Anki collection in a temporary folder.

The content is built here rather than loaded from ``content/``, which other people
extend while these tests run; it holds one item of every kind and question type, and
text that must be escaped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest
from anki.import_export_pb2 import ImportAnkiPackageUpdateCondition

from generator import problems
from generator.content.model import (
    Choice,
    Cloze,
    Concept,
    Content,
    Equation,
    Flashcard,
    Lesson,
    Paper,
    Question,
    Variable,
    Visual,
    WorkedExample,
)
from generator.content.recipes import DeckRecipe, ProblemSet
from generator.documents import items
from generator.exporters import ExportOptions, anki

TITLE = "Attention Is All You Need"
EVIL = "Never <script>alert(1)</script> run & never <b>bold</b>: a < b > c"

SDPA_TOY = WorkedExample(
    id="sdpa-toy",
    title="A one-query toy example",
    source="S3.E1",
    problem="sdpa",
    given={"Q": [[1.0, 0.0]], "K": [[1.0, 0.0], [0.0, 1.0]], "V": [[2.0, 3.0], [4.0, 5.0]]},
    steps=(
        "Here \\(d_k = 2\\), so \\(\\sqrt{d_k} \\approx 1.41421356\\).",
        "Weighted sum: \\(\\begin{pmatrix} 2.66047690 & 3.66047690 \\end{pmatrix}\\).",
    ),
    result={"output": [[2.66047690, 3.66047690]]},
)


def make_content(definition: str = "A mapping from a query and key–value pairs to an output.") -> Content:
    """Two lessons with one item of every kind; ``definition`` lets a test reword a concept."""
    why = Lesson(
        id="why-attention",
        title="Why Attention",
        sources=("S1",),
        text="Recurrent models are *sequential*.\n\nAttention is **not**: see `attention`.",
        concepts=(
            Concept("attention-function", "Attention function", definition, "S3.2", reverse=True),
            Concept("self-attention", "Self-attention", "Attention within **one** sequence.", "S2"),
        ),
        flashcards=(
            Flashcard("fc-evil", EVIL, "Shown as typed: \\(a < b\\) & `<i>`", "S1"),
            Flashcard(
                "fc-parallel", "Why is the Transformer *parallel*?", "No recurrence.\n\nOnly attention.", "S1"
            ),
        ),
        questions=(
            Question(
                "q-scale",
                "multiple_choice",
                "By what are the dot products divided?",
                "S3.2.1",
                "\\(\\sqrt{d_k}\\)",
                (
                    Choice("\\(d_k\\)", "divided by the dimension instead of its square root"),
                    Choice("\\(d_v\\)", "used the value dimension"),
                    Choice("\\(\\sqrt{d_{model}}\\)", "confused d_k with d_model"),
                ),
                explanation="Equation (1).",
            ),
            Question(
                "q-tf",
                "true_false",
                "Additive attention is faster in practice.",
                "S3.2.1",
                False,
                explanation="Dot products use optimized matrix code.",
            ),
        ),
    )
    sdpa = Lesson(
        id="scaled-dot-product-attention",
        title="Scaled Dot-Product Attention",
        sources=("S3.2.1",),
        text="Queries and keys have dimension \\(d_k\\).",
        equations=(
            Equation(
                "eq-sdpa",
                "Scaled dot-product attention",
                "S3.E1",
                "\\mathrm{Attention}(Q,K,V)=\\mathrm{softmax}\\left(\\frac{QK^{T}}{\\sqrt{d_{k}}}\\right)V",
                (
                    Variable("Q", "n_q \\times d_k", "Queries, one per row."),
                    Variable("d_k", "scalar", "Dimension of the keys; \\(j < i\\) & more."),
                ),
                deep_dive="Why \\(\\sqrt{d_k}\\)?\n\nVariance.",
            ),
        ),
        worked_examples=(SDPA_TOY,),
        clozes=(
            Cloze(
                "cloze-scale",
                "Dot products are divided by {{c1::\\(\\sqrt{d_k}\\)}}; the weights "
                "come from a {{c2::softmax}}.",
                "S3.2.1",
                extra="Equation (1).",
            ),
        ),
        questions=(
            Question(
                "q-variance",
                "numeric",
                "What is the variance of \\(q \\cdot k\\) for \\(d_k = 64\\)?",
                "S3.2.1",
                64,
                tolerance=0,
                explanation="It is \\(d_k\\).",
            ),
            Question(
                "q-weight",
                "numeric",
                "Weight of the first key for scores \\((1, 0, 0.5)\\)?",
                "S3.E1",
                0.5065,
                tolerance=0.0001,
            ),
            Question(
                "q-why",
                "short_answer",
                "Why scale the dot products?",
                "S3.2.1",
                "Large dot products push the softmax into regions with tiny gradients.",
            ),
        ),
        visuals=(
            Visual(
                "vis-heatmap", "attention-heatmap", "Each row sums to 1.", "S3.E1", {"example": "sdpa-toy"}
            ),
            Visual(
                "vis-sdpa-blocks",
                "attention-blocks",
                "Figure 2 (left): the steps of \\(\\mathrm{Attention}\\).",
                "S3.F2",
                {"panel": "scaled-dot-product"},
                label_cards=True,
            ),
        ),
    )
    paper = Paper("aiayn", TITLE, ("A. Vaswani",), 2017, "1706.03762", (why.id, sdpa.id))
    return Content(paper, (why, sdpa))


def problem_sets() -> tuple[ProblemSet, ...]:
    sets = [ProblemSet("softmax", 2), ProblemSet("sdpa", 2)]
    if "masked-sdpa" in problems.all_types():
        sets.append(ProblemSet("masked-sdpa", 1))
    return tuple(sets)


RECIPE = DeckRecipe(kind="deck", title=TITLE, problems=problem_sets(), id="aiayn")


def _make_deck(seed: int = 1, definition: str | None = None) -> items.Deck:
    content = make_content(definition) if definition else make_content()
    return items.build_deck(content, RECIPE, seed)


@pytest.fixture
def make_deck():
    """``make_deck(seed=1, definition=None)``: the small deck, its numbers from ``seed``."""
    return _make_deck


@pytest.fixture
def make_practice():
    """``make_practice(seed, set_name="practice")``: a practice deck of softmax and sdpa problems."""

    def build(seed: int, set_name: str = "practice") -> items.Deck:
        sets = (ProblemSet("softmax", 3), ProblemSet("sdpa", 2, "medium"))
        return items.build_practice(make_content(), sets, seed, set_name)

    return build


@pytest.fixture
def evil_text() -> str:
    """The front of flashcard ``fc-evil``: HTML that must show as text."""
    return EVIL


@pytest.fixture(scope="module")
def reviewer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Anki's reviewer page in headless Chromium (``reviewer.Reviewer``), one per test file."""
    from .reviewer import Reviewer

    shown = Reviewer(tmp_path_factory.mktemp("reviewer"))
    yield shown
    shown.close()


@pytest.fixture(scope="session")
def figure_cache(figure_cache_home: None) -> Path:
    """The test run's figure cache (``tests/conftest.py``), which every worker shares: a figure the
    decks show is drawn once a run, not once in each worker."""
    from generator.visuals import default_cache_dir

    return default_cache_dir()


@pytest.fixture
def write(tmp_path: Path, figure_cache: Path):
    """``write(deck, stamp, name)`` → path of the .apkg built at time ``stamp``."""

    def write_deck(deck: items.Deck, stamp: int = 1_700_000_000, name: str = "deck.apkg") -> Path:
        path = tmp_path / name
        anki.export(deck, path, ExportOptions(build_time=stamp, figures=figure_cache))
        return path

    return write_deck


@pytest.fixture
def col(tmp_path: Path) -> Iterator[Collection]:
    folder = tmp_path / "collection"
    folder.mkdir()
    collection = Collection(str(folder / "collection.anki2"))
    try:
        yield collection
    finally:
        collection.close()


IF_NEWER = ImportAnkiPackageUpdateCondition.IMPORT_ANKI_PACKAGE_UPDATE_CONDITION_IF_NEWER


def _import_package(col: Collection, path: Path):
    request = ImportAnkiPackageRequest(
        package_path=str(path),
        options=ImportAnkiPackageOptions(
            with_scheduling=True, update_notes=IF_NEWER, update_notetypes=IF_NEWER
        ),
    )
    return col.import_anki_package(request)


@pytest.fixture
def import_package():
    """``import_package(col, path)``, as a learner imports: keep scheduling, update if newer."""
    return _import_package


@pytest.fixture
def balanced_math():
    """``balanced_math(html)``: every MathJax delimiter closed, in order, none nested."""
    return _balanced_math


def _balanced_math(html: str) -> bool:
    expected = None
    for token in re.findall(r"\\[()\[\]]", html):
        if expected is None:
            if token not in ("\\(", "\\["):
                return False
            expected = "\\)" if token == "\\(" else "\\]"
        elif token == expected:
            expected = None
        else:
            return False
    return expected is None
