"""Answer sheets: what they print, where, and what they never give away."""

from __future__ import annotations

import io
import itertools
from pathlib import Path

import pikepdf
import pytest

from generator.documents import quiz
from generator.documents.quiz import ProblemItem, QuestionItem, Student
from generator.exporters import answer_sheets
from generator.exporters.answer_sheets import Grid
from generator.project import open_project

from ..pdf_text import pages_text, pdf_text

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="module")
def project():
    return open_project(ROOT)


def _forms(project, recipe: str, versions: int, students=()):
    built = quiz.build_quiz(
        project.content, project.quiz_recipe(recipe), 11, versions, b"sheet-test", students
    )
    return built, list(built.iter_forms())


def _what(item) -> str:
    if isinstance(item, QuestionItem):
        return item.question.id
    return f"{item.problem.type}/{item.problem.difficulty}"


@pytest.mark.parametrize("recipe", ["quiz-attention", "quiz-final", "quiz-training"])
def test_a_question_gets_the_same_grid_on_every_form(project, recipe: str) -> None:
    built, forms = _forms(project, recipe, 6)
    grids: dict[str, set[tuple]] = {}
    for form in forms:
        layout = answer_sheets.sheet(built, form).layout
        items = {item.number: item for item in form.items}
        for field in layout["fields"]:
            if field["kind"] == "digits":
                shape = (len(field["columns"]), field["point"], len(field.get("exponent", ())))
                grids.setdefault(_what(items[field["question"]]), set()).add(shape)
    assert grids
    assert all(len(shapes) == 1 for shapes in grids.values()), grids


def test_fields_stay_inside_the_frame_and_clear_of_each_other_and_the_marks(project) -> None:
    built, forms = _forms(project, "quiz-final", 3)
    width, height = answer_sheets.frame("a4")
    half = answer_sheets.MARK_SIZE / 2 + 1
    for form in forms:
        layout = answer_sheets.sheet(built, form).layout
        (qx0, qy0), (qx1, qy1) = layout["qr"]
        for page in range(1, layout["pages"] + 1):
            boxes = [f["box"] for f in layout["fields"] if f["page"] == page]
            for x0, y0, x1, y1 in boxes:
                assert half <= x0 < x1 <= width - half and qy1 < y0 < y1 <= height - half
            for a, b in itertools.combinations(boxes, 2):
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
        assert qx1 < width - half and qy0 > -half


def test_every_question_has_its_field_and_answers_fit(project) -> None:
    built, forms = _forms(project, "quiz-final", 4)
    for form in forms:
        layout = answer_sheets.sheet(built, form).layout
        numbers = {f["question"] for f in layout["fields"] if "question" in f}
        assert numbers == {item.number for item in form.items}
        for item in form.items:
            kinds = {f["kind"] for f in layout["fields"] if f.get("question") == item.number}
            if isinstance(item, QuestionItem) and item.options:
                assert kinds == {"choice"}
            elif isinstance(item, QuestionItem) and item.question.type == "short_answer":
                assert kinds == {"score"}
            elif isinstance(item, ProblemItem):
                assert kinds in ({"digits"}, {"score"})


def test_nothing_on_a_sheet_gives_away_a_seed(project) -> None:
    built, forms = _forms(project, "quiz-attention", 3)
    for form in forms:
        source = answer_sheets.sheet(built, form).source
        assert str(form.seed) not in source
        assert str(built.seed) not in answer_sheets.qr_text(answer_sheets.quiz_code(built), form.code, 1, 1)
        for item in form.items:
            if isinstance(item, ProblemItem):
                assert str(item.problem.seed) not in source


def test_a_roster_sheet_prints_the_name_and_no_id_grid(project, tmp_path: Path) -> None:
    students = (Student("Zoë #1 <O'Brien>", "s-7"), Student("Ada", ""))
    built, forms = _forms(project, "quiz-attention", 2, students)
    sheet = answer_sheets.sheet(built, forms[0])
    assert not any(f["kind"] == "id" for f in sheet.layout["fields"])
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(sheet.pdf(0))
    text = pages_text(pdf)[0]
    assert "Zoë #1 <O'Brien>" in text and "ID s-7" in text and f"code {forms[0].code}" in text


@pytest.mark.parametrize(
    ("grid", "value", "digits"),
    [
        (Grid(1, 3), 0.25, (False, "0250", False, "")),
        (Grid(2, 2), -7.126, (True, "0713", False, "")),
        (Grid(1, 3), -0.0001, (False, "0000", False, "")),
        (Grid(1, 3, 1), 0.000698, (False, "6980", True, "4")),
        (Grid(1, 3, 2), 33554432.0, (False, "3355", False, "07")),
        (Grid(1, 3), 12.5, None),
        (Grid(1, 3, 1), 3.2e12, None),
    ],
)
def test_a_grid_holds_a_value_as_a_student_fills_it(grid: Grid, value: float, digits) -> None:
    assert grid.digits(value) == digits


def _bubbles_of(field: dict) -> int:
    """How many bubbles a field of the layout has."""
    if field["kind"] in ("choice", "score"):
        return len(field["bubbles"])
    columns = field["columns"] + field.get("exponent", [])
    signs = [field[k] for k in ("sign", "exponent_sign") if k in field]
    return sum(map(len, columns)) + len(signs)


@pytest.mark.parametrize("students", [(), (Student("Ada", "s-1"),)])
def test_a_sheet_pdf_draws_a_bubble_at_every_position_of_its_layout_and_keeps_only_its_pages(
    project, students
) -> None:
    built, forms = _forms(project, "quiz-final", 1, students)
    sheet = answer_sheets.sheet(built, forms[0])
    with pikepdf.open(io.BytesIO(sheet.pdf(0))) as pdf:
        assert pdf.check_pdf_syntax() == []  # the update drawn onto Typst's PDF reads cleanly
        assert len(pdf.pages) == sheet.layout["pages"]  # the bubbles' own pages are gone
        for number, page in enumerate(pdf.pages, 1):
            drawn = page.obj.Contents[-1].read_bytes().count(b" Do")
            fields = [f for f in sheet.layout["fields"] if f["page"] == number]
            assert drawn == sum(map(_bubbles_of, fields)) > 0, number
    assert sheet.pdf(0) == sheet.pdf(0)


def test_the_forms_and_the_sheet_give_one_instruction_for_marking(printed) -> None:
    """A form saying "circle one letter" beside a sheet saying "fill" got rings drawn around
    bubbles; both say fill."""
    attention = printed("attention")
    form = attention.forms[0]
    words = " ".join(pdf_text(attention.folder / form["pdf"]).split())
    sheet = " ".join(pdf_text(attention.folder / form["sheet_pdf"]).split())
    assert "fill the bubble of one letter on the answer sheet" in words
    assert "Fill each bubble you mean completely" in sheet
    assert "circle" not in words.lower() and "circle" not in sheet.lower()
