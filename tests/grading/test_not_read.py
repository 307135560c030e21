"""An answer the scan could not read (``?`` in the responses CSV, as ``paperdeck scan`` writes
it) is pending: reported to the teacher as not read, in neither score nor max, and the
student's feedback says so; never graded as "no answer" without a word. The class report
shows the results first and the scan's flags after, file names relative to the scans."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from generator.cli import main
from generator.commands.grade import _relative_to_scans
from generator.exporters.feedback import PENDING, feedback_source
from generator.exporters.graded import _TEMPLATE, report_source, scores_csv
from generator.exporters.typst import escape
from generator.grading import grade_quiz
from generator.project import open_project

from .classroom import ROOT, write_key

# Form A of write_key's 3-form key (seed 11): 1 true/false, 3 multiple choice, 9 a short answer,
# 12 numeric, 13 softmax (a vector of 3), 15 dot-variance (one number).


@pytest.fixture(scope="module")
def key_path(tmp_path_factory) -> Path:
    return write_key(tmp_path_factory.mktemp("key") / "quiz-attention-key.json")


@pytest.fixture(scope="module")
def grading(key_path: Path, tmp_path_factory):
    path = tmp_path_factory.mktemp("answers") / "responses.csv"
    header = ["student", "form", *map(str, range(1, 16))]
    rows = [
        ["Ada", "A", "?", "", "?", "", "", "", "", "", "?", "", "", "?", "?; ?; ?", "", "?"],
        ["Bo", "A", "A", "", "", "", "", "", "", "", "", "", "", "", "0.5; ?; 0.25", "", ""],
        ["Cy", "A", "A", "", "", "", "", "", "", "", "", "", "", "", "0.5; _; 0.25", "", ""],
    ]
    with open(path, "w", encoding="utf-8", newline="") as out:
        csv.writer(out).writerows([header, *rows])
    return grade_quiz(key_path, path, open_project(ROOT).content)


def test_an_answer_not_read_is_pending_not_blank(grading) -> None:
    ada, bo, cy = grading.results
    assert ada.not_read == (1, 3, 9, 12, 13, 15)
    pending = [m for m in ada.marks if m.not_read]
    assert all(m.points is None and m.share is None and not m.blank for m in pending)
    assert ada.max == sum(m.possible for m in ada.marks if not m.not_read and m.number not in (10, 11))
    # A vector with one part not read (Bo's 13) is pending as a whole: never graded in part.
    assert bo.not_read == (13,)
    # A part the student left out (Cy's 13, written _) is graded: that part wrong.
    assert cy.not_read == ()
    assert next(m for m in cy.marks if m.number == 13).share is not None


def test_scores_say_not_read_in_the_question_cell(grading) -> None:
    rows = list(csv.reader(io.StringIO(scores_csv(grading).decode("utf-8"))))
    ada = dict(zip(rows[0], rows[1], strict=True))
    assert [ada[str(n)] for n in (1, 3, 9, 12, 13, 15)] == ["not read"] * 6
    assert ada["2"] == "0"  # a blank is no answer


def test_the_report_says_what_was_not_read(grading) -> None:
    source = report_source(grading)
    assert "7 answers not read, pending (in neither score nor max; listed under Not read)" in source
    assert "#section-title([Not read]" in source
    assert "- #box[Ada] (form A)\\: questions 1, 3, 9, 12, 13, 15" in source
    assert "*13.* not read\\: pending (in neither score nor max)" in source


def test_the_students_feedback_says_it_is_pending(grading) -> None:
    source = feedback_source(grading, grading.results[0], None, "a4", _TEMPLATE)
    assert source.count(escape(PENDING)) == 6
    assert (
        escape(
            "6 answers not read from your sheet (questions 1, 3, 9, 12, 13, 15): pending, your teacher "
            "checks them and the score may change"
        )
        in source
    )


def test_the_scan_flags_come_after_the_results_with_relative_file_names(grading, tmp_path: Path) -> None:
    from dataclasses import replace

    scans = (tmp_path / "scans" / "a.pdf", tmp_path / "scans" / "more" / "b.png")
    lines = (
        f"{scans[0]} page 2: 2 bubbles filled in question 3 (responses line 2, column 3)",
        f"{scans[1]} page 1: no answer-sheet code found",
    )
    folder, relative = _relative_to_scans(scans, lines)
    assert folder == str(tmp_path / "scans")
    assert relative == (
        "a.pdf page 2: 2 bubbles filled in question 3 (responses line 2, column 3)",
        "more/b.png page 1: no answer-sheet code found",
    )
    source = report_source(replace(grading, review=relative, scans=folder))
    assert (
        source.index("#section-title([Scores]")
        < source.index("#section-title([Feedback]")
        < source.index("#section-title([Scanning]")
    )
    assert escape(f"files relative to {tmp_path / 'scans'}") in source
    assert f"- {escape('a.pdf page 2: 2 bubbles')}" in source
    assert escape(str(tmp_path)) not in source.split("#section-title([Scanning]")[1].split("])")[1]


def test_grade_says_it_in_the_files(key_path: Path, tmp_path: Path) -> None:
    responses = tmp_path / "responses.csv"
    responses.write_text("student,form,1,2\nAda,A,?,\n", encoding="utf-8")
    (tmp_path / "out").mkdir()
    assert main(["-q", "grade", str(key_path), str(responses), "-o", str(tmp_path / "out")]) == 0
    scores = list(csv.reader(io.StringIO((tmp_path / "out" / "scores.csv").read_text(encoding="utf-8"))))
    assert scores[1][5:7] == ["not read", "0"]
