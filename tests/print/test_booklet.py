"""The default key and the print file: one answer-key booklet for the whole quiz (every
form's answers, several forms to a page) and one PDF of every form for a duplex printer."""

from __future__ import annotations

import json
from pathlib import Path

import pypdf
import pytest

from generator import presentation, problems
from generator.content.recipes import QuestionPick, QuizSection
from generator.documents import quiz
from generator.exporters import ExportOptions, quiz_forms
from generator.exporters.typst.compile import compile_pdf, preamble

from ..pdf_text import pages_text
from .conftest import recipe, squash


def _named(written: list[Path], name: str) -> Path:
    return next(p for p in written if p.name == name)


def test_by_default_a_form_each_the_booklet_the_print_file_and_the_key_json(written_default):
    assert [p.name for p in written_default] == [
        "quiz-test-form-A.pdf",
        "quiz-test-form-A-sheet.pdf",
        "quiz-test-form-B.pdf",
        "quiz-test-form-B-sheet.pdf",
        "quiz-test-form-C.pdf",
        "quiz-test-form-C-sheet.pdf",
        "quiz-test-key.json",
        "quiz-test-key.pdf",
        "quiz-test-print.pdf",
    ]
    key = json.loads(_named(written_default, "quiz-test-key.json").read_text())
    assert key["key_booklet"] == "quiz-test-key.pdf" and key["print"] == "quiz-test-print.pdf"
    assert [form["key_pdf"] for form in key["form_keys"]] == [None, None, None]


def test_the_booklet_holds_every_form_s_answers_several_forms_to_a_page(written_default, built):
    pages = pages_text(_named(written_default, "quiz-test-key.pdf"))
    assert len(pages) == 1  # three forms of 15 questions on one page
    text = squash(pages[0])
    for form in built.forms:
        assert squash(f"Form {form.letter} · code {form.code}") in text
        card = text[text.index(squash(f"Form {form.letter} · code")) :]
        for item in form.items:
            if isinstance(item, quiz.QuestionItem) and item.options:
                assert f"{item.number}.{presentation.letter(item.answer_index)}" in card
            elif isinstance(item, quiz.ProblemItem):
                problem = item.problem
                tolerance = problem.tolerance
                fmt = presentation.answer_formatter(problem.precision, tolerance.abs, tolerance.rel)
                value = problem.answer[problems.get(problem.type).primary]
                first = value[0] if isinstance(value, list) else value
                first = first[0] if isinstance(first, list) else first
                assert f"{item.number}." in card and squash(fmt(first)) in card
                assert squash(f"±{problem.tolerance.abs:g}") in card or "%" in card
    assert "seed" not in pages[0].replace("quiz seed", "")  # form seeds stay in the JSON


def test_a_short_answer_is_marked_by_hand_against_its_model_answer_printed_once(content):
    everything = QuizSection("Everything", 1, questions=QuestionPick())
    made = quiz.build_quiz(content, recipe(sections=(everything,)), seed=1, versions=3)
    cards, models = [], {}
    for form in made.iter_forms():
        cards.append(quiz_forms.booklet_card(form, models))
    assert list(models) == ["q-nasty"]
    text = "".join(pages_text(compile_pdf(quiz_forms.booklet_source(made, cards, models), 0)))
    assert text.count("(model answer 1)") == 3 and text.count("Anything") == 1


def test_the_booklet_prints_each_roster_student(content):
    students = (quiz.Student("Ada Lovelace"), quiz.Student("Grace Hopper"))
    made = quiz.build_quiz(content, recipe(), seed=1, versions=0, students=students)
    cards, models = [], {}
    for form in made.iter_forms():
        cards.append(quiz_forms.booklet_card(form, models))
    text = "".join(pages_text(compile_pdf(quiz_forms.booklet_source(made, cards, models), 0)))
    assert "Ada Lovelace" in text and "Grace Hopper" in text


def test_the_print_file_has_every_form_in_order_each_from_an_odd_page(written_default, built):
    """Each form, then its answer sheet, each from an odd page."""
    printed = pages_text(_named(written_default, "quiz-test-print.pdf"))
    starts = []
    page = 0
    for form in built.forms:
        for name, first in (
            (f"quiz-test-form-{form.letter}.pdf", "Page 1 of"),
            (f"quiz-test-form-{form.letter}-sheet.pdf", "answer sheet, page 1 of"),
        ):
            count = len(pages_text(_named(written_default, name)))
            starts.append(page)
            text = printed[page]
            assert f"Form {form.letter}" in text and f"code {form.code}" in text and first in text
            page += count + count % 2
            if count % 2:
                assert printed[page - 1].strip() == ""
    assert len(printed) == page
    assert all(start % 2 == 0 for start in starts)  # 0-based even: page 1, 3, 5 …


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_blank_page_has_the_form_s_paper(tmp_path, paper):
    quiz_forms.print_file([compile_pdf(preamble(paper, "t", "[]") + "One page", 0)], tmp_path / "print.pdf")
    boxes = [tuple(p.mediabox) for p in pypdf.PdfReader(tmp_path / "print.pdf").pages]
    assert len(boxes) == 2 and boxes[0] == boxes[1]


def test_worked_keys_by_the_recipe(tmp_path, content):
    made = quiz.build_quiz(content, recipe(worked_keys=True), seed=1, versions=1)
    names = [p.name for p in quiz_forms.export(made, tmp_path / "q", ExportOptions())]
    assert "quiz-test-form-A-key.pdf" in names and "quiz-test-key.pdf" in names


def test_paperdeck_quiz_worked_keys_option(tmp_path):
    from generator.cli import main

    (tmp_path / "q").mkdir()  # a named folder outside the current one must exist
    assert (
        main(
            [
                "-q",
                "quiz",
                "quiz-attention",
                "--versions",
                "1",
                "--seed",
                "2",
                "--worked-keys",
                "--out",
                str(tmp_path / "q"),
            ]
        )
        == 0
    )
    assert sorted(p.name for p in (tmp_path / "q").iterdir()) == [
        "quiz-attention-form-A-key.pdf",
        "quiz-attention-form-A-sheet.pdf",
        "quiz-attention-form-A.pdf",
        "quiz-attention-key.json",
        "quiz-attention-key.pdf",
        "quiz-attention-print.pdf",
    ]
    key = json.loads((tmp_path / "q" / "quiz-attention-key.json").read_text())
    assert key["form_keys"][0]["key_pdf"] == "quiz-attention-form-A-key.pdf" and key["paper"] == "a4"


def test_a_booklet_of_many_forms_is_compiled_in_parts_and_joined_in_order(tmp_path, content, monkeypatch):
    monkeypatch.setattr(quiz_forms, "BOOKLET_PART", 2)
    small = recipe(sections=recipe().sections[:1])
    made = quiz.build_quiz(content, small, seed=3, versions=5)
    written = quiz_forms.export(made, tmp_path / "q", ExportOptions())
    text = squash("".join(pages_text(_named(written, "quiz-test-key.pdf"))))
    at = [text.index(squash(f"Form {form.letter} · code {form.code}")) for form in made.forms]
    assert at == sorted(at) and text.count("answerkeyof5forms") == 1
    assert "Page" not in text  # parts are not numbered
    assert not [p for p in (tmp_path / "q").iterdir() if p.name.startswith(".")]
