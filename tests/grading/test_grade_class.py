"""End to end: a quiz of 15 forms printed by ``paperdeck quiz``, a class's answers made
from its key JSON, then ``paperdeck grade``: scores and named mistakes come out
exactly as the answers were made, and the report reads back."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from generator.cli import main
from generator.exporters.plain_text import prose

from ..pdf_text import pdf_text
from .classroom import Student, make_class, write_responses

pytestmark = pytest.mark.long  # handed out to a worker early: tests/conftest.py

FORMS = 15
"""Every pairing of the class's five typing styles (form % 5) with a lower-case label
(form % 3) once: what 30 forms tested, at half the forms to print."""


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> tuple[Path, list[Student], Path]:
    folder = tmp_path_factory.mktemp("graded")
    quiz_folder = folder / "quiz-attention"
    quiz_folder.mkdir()  # a folder outside the current one is the user's to create
    assert (
        main(
            [
                "-q",
                "quiz",
                "quiz-attention",
                "--versions",
                str(FORMS),
                "--seed",
                "5",
                "--out",
                str(quiz_folder),
            ]
        )
        == 0
    )
    key_path = quiz_folder / "quiz-attention-key.json"
    students = make_class(json.loads(key_path.read_text(encoding="utf-8")))
    responses = write_responses(folder / "answers.csv", students)
    assert main(["-q", "grade", str(key_path), str(responses)]) == 0
    return quiz_folder / "graded", students, key_path


def _rows(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def test_the_class_covers_every_named_mistake_of_every_form(graded) -> None:
    _, students, key_path = graded
    key = json.loads(key_path.read_text(encoding="utf-8"))
    made = {(s.form.strip().upper(), n, name) for s in students for n, name in s.mistakes}
    for form in key["form_keys"]:
        for q in form["questions"]:
            for m in q.get("mistakes") or []:
                assert (form["label"], q["number"], m["mistake"]) in made


def test_scores_come_out_as_constructed(graded) -> None:
    folder, students, _ = graded
    rows = {row["student"]: row for row in _rows(folder / "scores.csv")}
    assert list(rows) == [s.name for s in students]
    for s in students:
        row = rows[s.name]
        assert row["form"] == s.form.strip().upper()
        assert float(row["score"]) == pytest.approx(s.score, abs=1e-4), s.name
        for n, expected in s.points.items():
            if expected is None:
                assert row[str(n)] == "", (s.name, n)
            else:
                assert float(row[str(n)]) == pytest.approx(expected, abs=1e-4), (s.name, n)


def test_max_leaves_out_ungraded_short_answers(graded) -> None:
    folder, students, key_path = graded
    key = {f["label"]: f for f in json.loads(key_path.read_text(encoding="utf-8"))["form_keys"]}
    rows = {row["student"]: row for row in _rows(folder / "scores.csv")}
    for s in students:
        form = key[s.form.strip().upper()]
        expected = sum(q["points"] for q in form["questions"] if s.points[q["number"]] is not None)
        assert float(rows[s.name]["max"]) == pytest.approx(expected)
    assert float(rows["Right A"]["score"]) == float(rows["Right A"]["max"])
    assert float(rows["Blank A"]["score"]) == 0


def test_mistakes_come_out_as_constructed(graded) -> None:
    folder, students, _ = graded
    found = [(row["student"], int(row["question"]), row["mistake"]) for row in _rows(folder / "mistakes.csv")]
    # A cell is plain text: the key's Markdown math written out (\\(\\sqrt{d_k}\\) as √d_k).
    made = [(s.name, n, prose(name)) for s in students for n, name in sorted(s.mistakes)]
    assert found == made
    assert any("√d_k" in name for _, _, name in found)
    assert len(made) > 20 * FORMS, "a class that makes many mistakes on every form"
    lessons = {row["lesson"] for row in _rows(folder / "mistakes.csv")}
    assert "03 Scaled Dot-Product Attention" in lessons


def test_report_reads_back_with_its_sections(graded) -> None:
    folder, students, _ = graded
    text = pdf_text(folder / "report.pdf")
    squashed = "".join(text.split())
    for heading in (
        "class report",
        "Scores",
        "Questions",
        "Share correct",
        "Discrimination",
        "Named mistakes",
        "Feedback",
    ):
        assert "".join(heading.split()) in squashed, heading
    for s in students:
        assert "".join(s.name.split()) + "·Form" in squashed, s.name
    top = _rows(folder / "mistakes.csv")
    most = max({row["mistake"] for row in top}, key=lambda name: sum(r["mistake"] == name for r in top))
    words = re.match(r"[A-Za-z ,'-]*", most).group(0)  # up to its first math, which is typeset
    assert "".join(words.split())[:30] in squashed.replace("\u2212", "-")
    assert "readScaledDot" not in squashed  # lessons are named with their number: 03 Scaled …
    assert "03ScaledDot-ProductAttention(S3" in squashed


def test_grading_again_replaces_the_folder(graded, tmp_path: Path) -> None:
    folder, students, key_path = graded
    fewer = write_responses(tmp_path / "fewer.csv", students[:3])
    out = tmp_path / "shared"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    assert main(["-q", "grade", str(key_path), str(fewer), "-o", str(out)]) == 0
    assert len(_rows(out / "scores.csv")) == 3
    assert (out / "notes.txt").read_text() == "mine"
    assert sorted(p.name for p in out.iterdir()) == [
        "feedback",
        "mistakes.csv",
        "notes.txt",
        "report.pdf",
        "scores.csv",
    ]
    assert len(list((out / "feedback").iterdir())) == 3
