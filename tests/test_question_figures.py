"""A question's figure (``Question.figure``) is shown wherever the question is: the document items
carry it (``QuestionFigure``: the visual, its parameters resolved, and its alt text, decided once in
``generator/documents``), and each output draws it as it draws visuals. The LMS exports have their
own tests (tests/lms/test_figures.py); here the other three, each end to end:

- the Anki deck, imported into the real Anki library: the image is in the collection's media and
  the question's card shows it (``<img>`` with its alt text, in the Prompt field: the note type is
  unchanged);
- the study site, opened in Chromium: the question shows the ``<img>`` with its alt text, loaded
  (tests/site/test_site_question_figures.py, where the site's tests' browser is);
- the printed quiz form, compiled by Typst: the page of the question holds the drawn figure (the
  PNG as an image XObject; the SVG diagram as vector drawing with its words).

No shipped question has a figure, so the project of tests/lms/conftest.py (``figured_project``,
two questions given one: a PNG and an SVG) is used, and the shipped outputs stay as they were.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pikepdf
import pytest

from generator import visuals
from generator.cli import main
from generator.content.recipes import DeckRecipe, QuestionPick, QuizRecipe, QuizSection
from generator.documents import items
from generator.documents.quiz import build_quiz
from generator.exporters import ExportOptions, anki, quiz_forms
from generator.project import open_project

from .grading.classroom import make_class, write_responses
from .lms.conftest import FIGURED, ROOT, figured_project, give_figure
from .pdf_text import pages_text

LESSONS = tuple(sorted({lesson for lesson, _, _ in FIGURED.values()}))
STAMP = 1_700_000_000


SHORT = ("wsa-q-separable", "why-self-attention", "wsa-vis-appendix-figure-4")
"""A short answer given the PNG figure too: the answer-key booklet prints its question."""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = figured_project(tmp_path_factory.mktemp("figured"))
    question, lesson, figure = SHORT
    give_figure(root, lesson, question, figure)
    return open_project(root)


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("figures")


def _drawn(visual: Any, cache: Path) -> Path:
    """The visual's file as every output draws it (PNG, SVG for a diagram)."""
    return visuals.render(visual.kind, dict(visual.params or {}), cache)


def test_the_items_carry_the_figure_and_the_shipped_items_none(project: Any) -> None:
    study = {i.key: i for i in items.lesson_items(project.content) if i.kind == "question"}
    assert {key for key, i in study.items() if i.figure is not None} == {*FIGURED, SHORT[0]}
    for question, (_, figure, _) in FIGURED.items():
        shown = study[question].figure
        assert shown is not None and shown.visual.id == figure
        assert shown.alt.startswith("The paper's Figure") and "\\(" not in shown.alt
    recipe = QuizRecipe("quiz", "Figures", (QuizSection("Q", 1, QuestionPick(ids=tuple(FIGURED))),))
    form = build_quiz(project.content, recipe, 1, 1, b"s").form(0)
    assert {i.question.id: i.figure for i in form.items} == {q: study[q].figure for q in FIGURED}
    shipped = open_project(ROOT).content
    assert all(i.figure is None for i in items.lesson_items(shipped))


def test_the_anki_card_shows_the_figure_from_the_collections_media(
    project: Any, cache: Path, tmp_path: Path
) -> None:
    from anki.collection import Collection

    from .anki.conftest import _import_package

    deck = items.build_deck(project.content, DeckRecipe("deck", "Figures", LESSONS), 1)
    path = tmp_path / "figures.apkg"
    anki.export(deck, path, ExportOptions(build_time=STAMP, figures=cache))
    (tmp_path / "collection").mkdir()
    col = Collection(str(tmp_path / "collection" / "collection.anki2"))
    try:
        _import_package(col, path)
        media = Path(col.media.dir())
        study = {i.key: i for i in deck.items if i.kind == "question"}
        for question in FIGURED:
            figure = study[question].figure
            assert figure is not None
            drawn = _drawn(figure.visual, cache)
            assert (media / drawn.name).read_bytes() == drawn.read_bytes()
            (note_id,) = col.find_notes(f'"Id:{question}"')
            note = col.get_note(note_id)
            images = re.findall(r'<img src="([^"]+)" alt="([^"]+)">', note["Prompt"])
            assert [(src, html.unescape(alt)) for src, alt in images] == [(drawn.name, figure.alt)]
            card = note.cards()[0]
            assert drawn.name in card.question() and drawn.name in card.answer()
        # A question without a figure shows none.
        (other,) = col.find_notes('"Id:arch-q-dmodel"')
        assert "<img" not in col.get_note(other)["Prompt"]
    finally:
        col.close()


def _images(page: pikepdf.Page) -> list[pikepdf.Object]:
    """The image XObjects a page draws, also inside its form XObjects."""
    found = []
    pending = [page.obj.get("/Resources", pikepdf.Dictionary())]
    while pending:
        resources = pending.pop()
        for xobject in resources.get("/XObject", pikepdf.Dictionary()).values():
            if xobject.get("/Subtype") == "/Image":
                found.append(xobject)
            elif xobject.get("/Subtype") == "/Form" and "/Resources" in xobject:
                pending.append(xobject.Resources)
    return found


def test_the_printed_form_its_worked_key_and_the_feedback_show_the_figure(
    project: Any, cache: Path, tmp_path: Path
) -> None:
    """The form and its worked key as ``paperdeck quiz`` writes them, then a student who got every
    question wrong graded by ``paperdeck grade``: their feedback's worked solutions show it too."""
    recipe = QuizRecipe(
        "quiz",
        "Figures",
        (
            QuizSection("Questions", 1, QuestionPick(ids=tuple(FIGURED))),
            QuizSection("Other", 1, QuestionPick(ids=("arch-q-dmodel",))),
        ),
        id="quiz-figures",
    )
    quiz = build_quiz(project.content, recipe, 3, 1, b"figures")
    options = ExportOptions(build_time=STAMP, figures=cache, worked_keys=True)
    quiz_forms.export(quiz, tmp_path, options)
    png = quiz.form(0).items[[i.question.id for i in quiz.form(0).items].index("wsa-q-appendix-its")]
    assert png.figure is not None
    drawn = _drawn(png.figure.visual, cache)
    width, height = (int.from_bytes(drawn.read_bytes()[16 + 4 * i : 20 + 4 * i], "big") for i in (0, 1))
    key = tmp_path / "quiz-figures-key.json"
    (wrong,) = [s for s in make_class(json.loads(key.read_text())) if s.name == "Mistaken A 0"]
    responses = write_responses(tmp_path / "answers.csv", [wrong])
    assert main(["-q", "--project", str(project.root), "grade", str(key), str(responses)]) == 0
    (feedback,) = (tmp_path / "graded" / "feedback").iterdir()
    for path in (tmp_path / "quiz-figures-form-A.pdf", tmp_path / "quiz-figures-form-A-key.pdf", feedback):
        name = path.name
        texts = pages_text(path)
        with pikepdf.open(path) as pdf:
            on = [n for n, text in enumerate(texts) if "anaphora" in text]
            assert on, name
            images = [i for n in on for i in _images(pdf.pages[n])]
            assert [(int(i.Width), int(i.Height)) for i in images] == [(width, height)], name
            # The diagram (SVG) is drawn as vectors: its words are on the page of its question.
            on_svg = [n for n, text in enumerate(texts) if "How many identical layers" in text]
            assert on_svg and any("Feed Forward" in texts[n] for n in on_svg), name
            # Nothing else on the form draws an image.
            assert sum(len(_images(page)) for page in pdf.pages) == 1, name


def test_the_answer_key_booklet_shows_the_figure_of_a_model_answers_question(
    project: Any, cache: Path, tmp_path: Path
) -> None:
    """The booklet prints answers only, but a short answer's model answer under its question."""
    pick = QuestionPick(ids=(SHORT[0], "arch-q-why-dmodel"))  # the other has no figure
    recipe = QuizRecipe("quiz", "Booklet", (QuizSection("Short", 1, pick),), id="quiz-booklet")
    quiz = build_quiz(project.content, recipe, 3, 2, b"booklet")
    quiz_forms.export(quiz, tmp_path, ExportOptions(build_time=STAMP, figures=cache))
    figure = quiz.figures[SHORT[0]]
    drawn = _drawn(figure.visual, cache)
    size = tuple(int.from_bytes(drawn.read_bytes()[at : at + 4], "big") for at in (16, 20))
    path = tmp_path / "quiz-booklet-key.pdf"
    texts = pages_text(path)
    with pikepdf.open(path) as pdf:
        images = [
            (n, (int(i.Width), int(i.Height))) for n, page in enumerate(pdf.pages) for i in _images(page)
        ]
    assert [shown for _, shown in images] == [size]
    assert "Model answers" in texts[images[0][0]] and "separable" in texts[images[0][0]]
