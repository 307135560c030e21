"""Grade files that fit a gradebook: the roster's student ID beside each name, CSVs as the
teacher's spreadsheet wrote the responses (``;`` and a byte-order mark from Excel in many
locales, or chosen with ``--csv``), and a class report that names its questions."""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import pytest

from generator.cli import main
from generator.exporters.graded import report_source
from generator.files.csv_files import COMMA, EXCEL, Dialect, dialect_of
from generator.grading import grade_quiz
from generator.project import open_project

from .classroom import ROOT, write_key


@pytest.fixture(scope="module")
def roster_key(tmp_path_factory) -> Path:
    path = write_key(tmp_path_factory.mktemp("key") / "quiz-attention-key.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    for form, (name, student_id) in zip(
        data["form_keys"], [("Ada Lovelace", "S-001"), ("Bo", "S-002"), ("Cy", "")], strict=True
    ):
        form["student"] = {"name": name, "id": student_id}
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _grade(key: Path, responses: Path, *more: str) -> bytes:
    out = responses.parent / "out"
    out.mkdir(exist_ok=True)
    assert main(["-q", "grade", str(key), str(responses), "-o", str(out), *more]) == 0
    return (out / "scores.csv").read_bytes()


def test_scores_carry_the_rosters_student_id(roster_key: Path, tmp_path: Path) -> None:
    responses = tmp_path / "responses.csv"
    responses.write_text("student,form,1\nada lovelace,A,a\nBo,C,b\nCy,,\n", encoding="utf-8")
    lines = _grade(roster_key, responses).decode("utf-8").splitlines()
    assert lines[0].startswith("student,id,form,score,max,percent,1,2,")
    assert lines[1].split(",")[:3] == ["ada lovelace", "S-001", "A"]
    # Bo answered on Cy's form: no ID is guessed for a row on another student's form.
    assert lines[2].split(",")[:3] == ["Bo", "", "C"]


def test_without_ids_there_is_no_id_column(tmp_path: Path) -> None:
    key = write_key(tmp_path / "quiz-key.json")
    responses = tmp_path / "responses.csv"
    responses.write_text("student,form,1\nAda,A,a\n", encoding="utf-8")
    assert _grade(key, responses).decode("utf-8").startswith("student,form,score,")


def test_csvs_are_written_as_the_responses_came_or_as_chosen(tmp_path: Path) -> None:
    key = write_key(tmp_path / "quiz-key.json")
    responses = tmp_path / "responses.csv"
    responses.write_bytes(codecs.BOM_UTF8 + "student;form;1\r\nЖанна Ли;A;a\r\n".encode())
    assert dialect_of(responses) == EXCEL
    scores = _grade(key, responses)
    assert scores.startswith(codecs.BOM_UTF8 + b"student;form;score;max;percent;1;")
    assert "\r\nЖанна Ли;A;" in scores.decode("utf-8-sig")
    mistakes = (tmp_path / "out" / "mistakes.csv").read_bytes()
    assert mistakes.startswith(codecs.BOM_UTF8 + b"student;question;mistake;")
    assert _grade(key, responses, "--csv", "comma").startswith(b"student,form,score,")
    plain = tmp_path / "plain.csv"
    plain.write_text("student,form,1\nAda,A,a\n", encoding="utf-8")
    assert dialect_of(plain) == COMMA
    assert _grade(key, plain, "--csv", "excel").startswith(codecs.BOM_UTF8 + b"student;form;")
    tabbed = tmp_path / "tabbed.csv"
    tabbed.write_text("student\tform\t1\nAda\tA\ta\n", encoding="utf-16")  # Excel's "Unicode text"
    assert dialect_of(tabbed) == Dialect("\t", True)


def test_the_report_names_its_questions(tmp_path: Path) -> None:
    key = write_key(tmp_path / "quiz-key.json")
    responses = tmp_path / "responses.csv"
    responses.write_text("student,form,1\nAda,A,a\n", encoding="utf-8")
    grading = grade_quiz(key, responses, open_project(ROOT).content)
    source = report_source(grading)
    table = source.split("[*Question*]")[1].split("#section-title")[0]
    prompts = {q.id: q.prompt for lesson in grading.readings.content.lessons for q in lesson.questions}
    first = grading.items[0].item
    assert first in prompts
    words = prompts[first].split()[:3]
    assert all(word.strip("*`") in table for word in words if word.isalpha())
    assert "softmax problem (fresh numbers on every form)" in table
    assert all(len(row.split("#text(size: 7.5pt")[0]) < 200 for row in table.split("\n"))
