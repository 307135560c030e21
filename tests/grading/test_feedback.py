"""Every student gets their exam back: ``paperdeck grade`` writes ``feedback/<stem>.pdf``
per student (and with ``--feedback`` all of them in one print file), on the quiz's paper,
read back (the text with PDFium, the paper size with pypdf)."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pypdf
import pytest

from generator.cli import main
from generator.exporters.feedback import stems
from generator.files.file_names import MAX_STEM_BYTES

from ..pdf_text import pages_text, pdf_text
from .classroom import make_class, write_responses

NAMES = ["王小明", "محمد علي", "अर्जुन शर्मा", "Пётр Ильич", "Kai 🎓"]
LETTER = (612.0, 792.0)


def _text(path: Path) -> str:
    return pdf_text(path)


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("feedback")
    quiz_folder = folder / "quiz-attention"
    quiz_folder.mkdir()  # a named folder outside the current one must exist
    assert (
        main(
            [
                "-q",
                "quiz",
                "quiz-attention",
                "--versions",
                "2",
                "--seed",
                "5",
                "--paper",
                "letter",
                "--out",
                str(quiz_folder),
            ]
        )
        == 0
    )
    key_path = quiz_folder / "quiz-attention-key.json"
    key = json.loads(key_path.read_text(encoding="utf-8"))
    students = [s for s in make_class(key) if s.name in ("Right A", "Mistaken A 1", "Blank A")]
    for student, name in zip(students, NAMES, strict=False):
        student.name = f"{name} {student.name}"
    responses = write_responses(folder / "answers.csv", students)
    grading = ["-q", "grade", str(key_path), str(responses), "--feedback", "--remedial", "--seed", "1"]
    assert main(grading) == 0
    return quiz_folder / "graded", students, key


def test_one_feedback_pdf_per_student_named_by_a_safe_stem(graded):
    folder, students, _ = graded
    expected = stems([s.name for s in students])
    assert sorted(p.name for p in (folder / "feedback").iterdir()) == sorted(f"{s}.pdf" for s in expected)
    assert expected[0] == "王小明-right-a"


def test_feedback_has_the_score_every_answer_the_mistake_and_the_worked_solution(graded):
    folder, students, key = graded
    mistaken = next(s for s in students if "Mistaken" in s.name)
    text = _text(folder / "feedback" / f"{stems([mistaken.name])[0]}.pdf")
    squashed = _squash(text)
    scores = {row["student"]: row for row in csv.DictReader(io.StringIO((folder / "scores.csv").read_text()))}
    row = scores[mistaken.name]
    assert _squash(f"{row['score']} of {row['max']} points") in squashed
    form = next(f for f in key["form_keys"] if f["label"] == mistaken.form.strip().upper())
    for question in form["questions"]:
        assert f"\n{question['number']} " in text or f"\n{question['number']}\n" in text
    for _, mistake in mistaken.mistakes:  # each named mistake, in words (its math typeset)
        assert _squash(mistake.split("\\(")[0])[:25] in squashed
    assert "What to look at again" in text and "Step 1." in text  # a problem's worked steps
    assert "Read:" in text and "ScaledDot-ProductAttention(S3.2.1)" in squashed
    assert "Your practice deck:" in text and "remedial/" in text and ".apkg" in text
    assert "seed" not in text.lower()


def test_full_marks_say_so_without_worked_solutions(graded):
    folder, students, _ = graded
    right = next(s for s in students if "Right" in s.name)
    text = _text(folder / "feedback" / f"{stems([right.name])[0]}.pdf")
    assert "What to look at again" not in text
    assert "Full marks" in text or "still to be graded" in text


def test_names_in_any_script_print_in_feedback_and_report(graded):
    folder, students, _ = graded
    report = _text(folder / "report.pdf")
    for student in students:
        feedback = _text(folder / "feedback" / f"{stems([student.name])[0]}.pdf")
        for text in (feedback, report):
            assert not set(_squash(student.name)) - set(text), student.name


def test_the_print_file_has_every_student_each_from_an_odd_page(graded):
    folder, students, _ = graded
    printed = pages_text(folder / "feedback.pdf")
    page = 0
    for stem in stems([s.name for s in students]):
        count = len(pages_text(folder / "feedback" / f"{stem}.pdf"))
        assert "Page 1 of" in printed[page]
        page += count + count % 2
    assert len(printed) == page


def test_report_and_feedback_are_on_the_quiz_s_paper(graded):
    folder, students, _ = graded
    for path in [folder / "report.pdf", *sorted((folder / "feedback").iterdir())]:
        box = pypdf.PdfReader(path).pages[0].mediabox
        assert (round(float(box.width)), round(float(box.height))) == LETTER, path.name


def test_stems_are_safe_bounded_and_distinct():
    found = stems(["Ada Lovelace", "ada  lovelace", "../../etc/passwd", "", "x" * 300])
    assert found[:4] == ["ada-lovelace", "ada-lovelace-2", "etc-passwd", "student"]
    assert found[4].startswith("x" * 60) and len(found[4].encode()) <= MAX_STEM_BYTES  # cut, with a digest


def test_the_worked_problems_are_the_ones_the_key_reader_regenerated(graded):
    """The key reader regenerates each problem from its seed and refuses a key whose answers it does
    not give (test_key_validation.py); the feedback prints the steps of those very problems."""
    from generator import problems
    from generator.grading.key import read_key

    folder, _, _ = graded
    key = read_key(folder.parent / "quiz-attention-key.json")
    asked = {
        (q.problem_type, q.problem_seed, q.difficulty)
        for form in key.forms.values()
        for q in form.questions.values()
        if q.kind == "problem"
    }
    assert asked and set(key.problems) == asked
    for type_id, seed, difficulty in asked:
        assert key.problems[type_id, seed, difficulty].problem() == problems.generate_one(
            type_id, seed, difficulty
        )
