"""Quiz, key and practice PDFs, compiled with Typst and read back: the text with PDFium
(``pdf_text``), paper sizes and fonts with pypdf."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pypdf
import pytest
import typst

from generator import presentation
from generator.content.model import Question
from generator.content.recipes import ProblemSet, QuestionPick, QuizSection
from generator.documents import items, quiz
from generator.errors import ItemError
from generator.exporters import ExportOptions, practice_sheet, quiz_forms
from generator.exporters.typst import markdown
from generator.exporters.typst.compile import compile_pdf
from generator.latex import LatexError
from generator.project import open_project

from ..pdf_text import pages_text
from .conftest import NASTY, NASTY_PRINTED, recipe, squash

pytestmark = pytest.mark.long  # handed out to a worker early: tests/conftest.py

SOURCE_LEAKS = ("\\frac", "\\begin", "\\(", "\\sqrt", "#set", "#let", "mat(", "frac(", "lr(", "upright(")


def _forms(written):
    return [p for p in written if "-form-" in p.name and not p.name.endswith(("-key.pdf", "-sheet.pdf"))]


def _keys(written):
    return [p for p in written if "-form-" in p.name and p.name.endswith("-key.pdf")]


def _pdfs(written):
    return [p for p in written if p.suffix == ".pdf"]


def _numbers(value):
    if isinstance(value, list):
        for item in value:
            yield from _numbers(item)
    else:
        yield value


def test_files_a_form_and_a_worked_key_each_the_booklet_the_print_file_and_the_key_json(written):
    assert [p.name for p in written] == [
        "quiz-test-form-A.pdf",
        "quiz-test-form-A-key.pdf",
        "quiz-test-form-A-sheet.pdf",
        "quiz-test-form-B.pdf",
        "quiz-test-form-B-key.pdf",
        "quiz-test-form-B-sheet.pdf",
        "quiz-test-form-C.pdf",
        "quiz-test-form-C-key.pdf",
        "quiz-test-form-C-sheet.pdf",
        "quiz-test-key.json",
        "quiz-test-key.pdf",
        "quiz-test-print.pdf",
    ]
    assert sorted(p.name for p in written[0].parent.iterdir()) == sorted(p.name for p in written)


def test_every_page_shows_form_label_and_code_never_a_seed(written, built):
    for path, form in zip(_forms(written), built.forms, strict=True):
        pages = pages_text(path)
        assert len(pages) > 1
        for page in pages:
            assert f"Form {form.letter}" in page and f"code {form.code}" in page
            assert "seed" not in page and str(form.seed) not in page


def test_key_pages_show_the_form_and_its_seed(written, built):
    for path, form in zip(_keys(written), built.forms, strict=True):
        pages = pages_text(path)
        assert all(f"seed {form.seed}" in page and f"Form {form.letter}" in page for page in pages)


def test_first_page_has_fields_points_time_and_instructions(written, built):
    first = pages_text(_forms(written)[0])[0]
    for word in (
        "Name",
        "Date",
        "Score",
        "30 minutes",
        f"{built.forms[0].total_points:g} points",
        "Answer every question; 100% # of the points.",
        "No calculator",
    ):
        assert word in first


def test_forms_print_different_questions(written):
    texts = ["".join(pages_text(p)) for p in _forms(written)]
    assert len(set(texts)) == 3


def test_key_answers_equal_the_problems_answers(written, built):
    key = squash("".join(text for path in _keys(written) for text in pages_text(path)))
    for form in built.forms:
        for item in form.items:
            if isinstance(item, quiz.ProblemItem):
                problem = item.problem
                assert f"problemseed{problem.seed}" in key
                fmt = presentation.answer_formatter(
                    problem.precision, problem.tolerance.abs, problem.tolerance.rel
                )
                for value in problem.answer.values():
                    for x in _numbers(value):
                        assert squash(fmt(x)) in key, (problem.id, x)
                for distractor in problem.distractors:  # its words; its math is typeset
                    assert squash(distractor.mistake.split("\\(")[0]) in key
            elif item.question.type == "numeric":
                assert squash(presentation.format_number(item.question.answer)) in key
            elif item.question.type == "multiple_choice":
                for option in item.options:
                    assert option.correct or squash(option.mistake) in key


def test_no_latex_or_typst_source_in_the_text(written):
    for path in _pdfs(written):
        text = "".join(pages_text(path))
        for leak in SOURCE_LEAKS:
            assert leak not in text, (path.name, leak)


def test_math_is_typeset(written):
    key = "".join(pages_text(_keys(written)[0]))
    assert "√" in key and "⊤" in key  # sqrt(d_k) and K^T in the sdpa prompt and steps
    form = "".join(pages_text(_forms(written)[0]))
    assert "𝑒" in form  # the e^x table


def test_author_text_prints_literally():
    text = squash("".join(pages_text(compile_pdf(markdown(NASTY), 0))))
    assert text == squash(NASTY_PRINTED)


def test_markdown_emphasis_code_and_paragraphs():
    source = markdown("One *em* and **strong** and `co#de`.\n\nSecond \\(\\frac{1}{2}\\) paragraph.")
    assert "#emph[em]" in source and "#strong[strong]" in source and '#raw("co#de")' in source
    text = "".join(pages_text(compile_pdf(source, 0)))
    assert "co#de" in text and "*" not in text and "Second" in text


@pytest.mark.parametrize(("paper", "size"), [("a4", (595, 842)), ("letter", (612, 792))])
def test_paper_sizes(content, paper, size, tmp_path):
    small = quiz.build_quiz(content, recipe(sections=recipe().sections[1:2]), seed=1, versions=1)
    for path in _pdfs(quiz_forms.export(small, tmp_path / "quiz", ExportOptions(paper=paper))):
        box = pypdf.PdfReader(path).pages[0].mediabox
        assert (round(float(box.width)), round(float(box.height))) == size


def test_unknown_paper_is_a_usage_error(built, tmp_path):
    from generator.errors import UsageError

    with pytest.raises(UsageError, match="letter"):
        ExportOptions(paper="a3")


def test_a_question_never_splits_across_pages(written, built):
    for path, form in zip(_forms(written), built.forms, strict=True):
        pages = [squash(page) for page in pages_text(path)]
        assert len(pages) >= 3
        for item in form.items:
            if isinstance(item, quiz.QuestionItem) and item.question.id.startswith("q-plain"):
                parts = [item.question.prompt] + [o.text for o in item.options]
            elif isinstance(item, quiz.ProblemItem):
                parts = [f"{y:.4f}" for _, y in item.exponentials]
            else:
                continue
            assert any(all(squash(p) in page for p in parts) for page in pages), parts


def test_fonts_are_embedded(written):
    reader = pypdf.PdfReader(written[0])
    fonts = []
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            descendants = font.get("/DescendantFonts")
            descriptor = (descendants[0].get_object() if descendants else font)["/FontDescriptor"]
            fonts.append(descriptor)
    assert fonts
    assert all(any(k in d for k in ("/FontFile", "/FontFile2", "/FontFile3")) for d in fonts)


def test_calculator_quiz_says_so_and_has_no_table(content, tmp_path):
    allowed = quiz.build_quiz(content, recipe(calculator=True), seed=2, versions=1)
    text = "".join(pages_text(quiz_forms.export(allowed, tmp_path, ExportOptions())[0]))
    assert "A calculator is allowed" in text and "Exponentials you may need" not in text


def test_unknown_latex_in_content_names_the_question(content, tmp_path):
    bad = Question("q-bad", "true_false", r"Is \(\weird{x}\) fine?", "S1", True)
    lesson = content.lessons[0]
    broken = type(content)(
        content.paper, (type(lesson)(lesson.id, lesson.title, lesson.sources, lesson.text, questions=(bad,)),)
    )
    only = recipe(sections=(QuizSection("Q", 1, questions=QuestionPick(ids=("q-bad",))),))
    with pytest.raises(ItemError) as caught:
        quiz_forms.export(quiz.build_quiz(broken, only, seed=1, versions=1), tmp_path, ExportOptions())
    assert str(caught.value) == r"question 'q-bad': unknown LaTeX command \weird in '\weird{x}'"
    assert isinstance(caught.value.__cause__, LatexError)


def test_practice_sheet_prints_problems_then_solutions(content, tmp_path):
    sets = [ProblemSet("softmax", 2), ProblemSet("sdpa", 1, "medium")]
    deck = items.build_practice(content, sets, seed=5)
    path = tmp_path / "sheet.pdf"
    practice_sheet.export(deck, path, ExportOptions(paper="letter"))
    reader = pypdf.PdfReader(io.BytesIO(path.read_bytes()))
    assert round(float(reader.pages[0].mediabox.height)) == 792
    pages = [squash(p) for p in pages_text(path)]
    start = next(i for i, page in enumerate(pages) if "Solutions" in page)
    problems = [item.body for item in deck.items]
    assert len(problems) == 3
    solutions = "".join(pages[start:])
    for problem in problems:
        assert f"problemseed{problem.seed}" in "".join(pages[:start])
        fmt = presentation.answer_formatter(problem.precision, problem.tolerance.abs, problem.tolerance.rel)
        for value in problem.answer.values():
            for x in _numbers(value):
                assert squash(fmt(x)) in solutions


def test_a_bad_source_date_epoch_is_an_error_for_pdfs_as_for_decks(content, tmp_path, monkeypatch):
    from generator.errors import UsageError

    deck = items.build_practice(content, [ProblemSet("softmax", 1)], seed=5)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    with pytest.raises(UsageError, match="SOURCE_DATE_EPOCH must be whole seconds"):
        practice_sheet.export(deck, tmp_path / "sheet.pdf", ExportOptions())
    assert not (tmp_path / "sheet.pdf").exists()


def test_practice_sheet_puts_several_problems_to_a_page(content, tmp_path):
    deck = items.build_practice(content, [ProblemSet("sdpa", 12)], seed=2)
    path = tmp_path / "sheet.pdf"
    practice_sheet.export(deck, path, ExportOptions())
    pages = pages_text(path)
    start = next(i for i, page in enumerate(pages) if "Solutions" in page)
    assert start <= 4  # 12 problems on at most 4 pages, then the solutions


def test_a_work_space_shrinks_to_fill_the_page_rather_than_leave_it_half_empty():
    from generator.exporters.typst.compile import _compiler, preamble

    # After an 18 cm question, an 8 cm work space does not fit, 60% of it does.
    source = (
        preamble("a4", "t", "[]") + "#item(1, [1], [Long question. #v(18cm)])\n"
        "#item(2, [3], [First problem.], space: 8cm)\n#item(3, [3], [Second problem.], space: 8cm)\n"
    )
    pdf, warnings = _compiler().compile_with_warnings(source.encode(), format="pdf")
    assert not warnings  # the layout settles
    pages = pages_text(pdf)
    assert "First problem" in pages[0] and "Second problem" in pages[1]
    # With less room than 60% of the space, the problem moves to the next page whole.
    pages = pages_text(compile_pdf(source.replace("#v(18cm)", "#v(21cm)"), 0))
    assert "First problem" in pages[1]


# Where every tagged block of a compiled document sits, and the work space of each
# item, read back through a query: (kind, number, space, start page, start y, end page,
# end y) per block, in points, and the plan's work spaces.
_LAYOUT = """
#context [#metadata((
  plan: plan().pairs().map(((k, v)) => (k, v.pt())).to-dict(),
  page: page.height.pt(), bottom: bottom-margin.to-absolute().pt(), em: 1em.to-absolute().pt(),
  blocks: range(0, query(<flow>).len() - 1, step: 2).map(i => {
    let (start, end) = (query(<flow>).at(i), query(<flow>).at(i + 1))
    let (a, b) = (start.location().position(), end.location().position())
    (kind: end.value.kind, number: end.value.number, space: end.value.space.pt(),
     above: end.value.above.to-absolute().pt(), below: end.value.below.to-absolute().pt(),
     pages: (a.page, b.page), ys: (a.y.pt(), b.y.pt()))
  })))<layout>]
"""


@pytest.mark.parametrize("name", ["quiz-attention", "quiz-final"])
def test_no_quiz_page_is_left_with_room_for_the_item_pushed_past_it(name):
    """Over 8 forms of a shipped quiz, the layout settles, and each page but the last
    is left with less room than the next item needs with its work space shrunk to
    its least (``shrink``, 60%), read from where the blocks really landed."""
    from generator.exporters.typst.compile import _compiler, staged_root

    project = open_project(Path(__file__).parents[2])
    made = quiz.build_quiz(project.content, project.recipes[name], seed=3, versions=8, secret=b"t")
    moved_shrunk = 0
    for form in made.iter_forms():
        source = quiz_forms.form_source(made, form)
        _, warnings = _compiler().compile_with_warnings(source.encode(), format="pdf")
        assert not warnings, [w.message for w in warnings]  # e.g. "did not converge"
        with staged_root() as root:  # the template, for the source to import
            layout = json.loads(
                typst.query(
                    (source + _LAYOUT).encode(),
                    "<layout>",
                    field="value",
                    one=True,
                    root=str(root),
                    ignore_system_fonts=True,
                )
            )
        bottom, gap = layout["page"] - layout["bottom"], 0.3 * layout["em"]
        blocks = layout["blocks"]
        for i in range(2, len(blocks)):
            block = blocks[i]
            if block["kind"] == "title":
                continue
            first = blocks[i - 1] if blocks[i - 1]["kind"] == "title" else block  # a title goes along
            previous = blocks[blocks.index(first) - 1]
            if first["pages"][0] == previous["pages"][1]:
                continue
            # The item (and its title) went to a new page: it did not fit where `previous`
            # ended, but for the plan's slack (0.3em) and a point.
            space, plan = block["space"], layout["plan"]
            moved_shrunk += plan.get(str(block["number"]), space) < space
            end = previous["ys"][1] + (
                gap + plan.get(str(previous["number"]), previous["space"]) if previous["space"] else 0
            )
            least = space * 0.6 if space >= 4 / 2.54 * 72 else space
            needed = (
                max(previous["below"], first["above"])
                + block["ys"][1]
                - first["ys"][0]
                + (gap + least if space else 0)
            )
            assert end + needed > bottom - gap - 1, (form.letter, block["number"], end, needed, bottom)
    assert moved_shrunk == 0  # an item shrunk to fit stays on the page it was shrunk for


def test_titles_and_instructions_typeset_their_math(content, tmp_path):
    mathy = recipe(
        title=r"Why \(\sqrt{d_k}\)",
        instructions=r"Scores are \(QK^\top\).",
        sections=(QuizSection(r"Scaling by \(\sqrt{d_k}\)", 3, problems=ProblemSet("softmax", 1)),),
    )
    written = quiz_forms.export(
        quiz.build_quiz(content, mathy, seed=1, versions=1), tmp_path / "q", ExportOptions()
    )
    for path in _pdfs(written):
        text = "".join(pages_text(path))
        assert "√" in text and "\\" not in text and "sqrt" not in text


@pytest.mark.parametrize(
    "types, said",
    [
        (
            ["lr-schedule", "positional-encoding"],
            "A calculator is needed (lr-schedule, positional-encoding take powers, roots or sines).",
        ),
        (
            ["softmax", "lr-schedule"],
            "A calculator is needed for lr-schedule (powers, roots or sines);"
            " for the others exponentials are given where needed.",
        ),
        (["softmax"], "No calculator is needed: exponentials are given where needed."),
    ],
)
def test_a_practice_sheet_says_whether_a_calculator_is_needed(content, tmp_path, types, said):
    deck = items.build_practice(content, [ProblemSet(t, 1) for t in types], seed=5)
    path = tmp_path / "sheet.pdf"
    practice_sheet.export(deck, path, ExportOptions())
    assert squash(said) in squash(pages_text(path)[0])
