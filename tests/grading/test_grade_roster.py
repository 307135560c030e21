"""``grade`` knows the roster a quiz was printed for; a failed ``grade`` writes nothing;
the report is on the quiz's paper; what it writes opens safely in a spreadsheet."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pypdf
import pytest

from generator.cli import main

from ..pdf_text import pdf_text
from .classroom import write_key

NAMES = ["Ada Lovelace", "Alan Turing", "Grace Hopper"]


@pytest.fixture()
def roster_key(tmp_path: Path) -> Path:
    (tmp_path / "quiz").mkdir()
    path = write_key(tmp_path / "quiz" / "quiz-attention-key.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    for form, name in zip(data["form_keys"], NAMES, strict=True):
        form["student"] = {"name": name, "id": ""}
    data["paper"] = "letter"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def responses(tmp_path: Path, rows: list[list[str]]) -> Path:
    path = tmp_path / "answers.csv"
    path.write_text("\n".join(",".join(row) for row in [["student", "form"], *rows]) + "\n", encoding="utf-8")
    return path


MISMATCHED = [["Ada Lovelace", "A"], ["alan  turing", "C"], ["=SUM(A1)", "B"]]


def test_rows_that_do_not_match_the_roster_are_reported_on_stderr_and_in_the_report(
    roster_key: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = responses(tmp_path, MISMATCHED)
    assert main(["grade", str(roster_key), str(answers)]) == 0
    said = [line for line in capsys.readouterr().err.splitlines() if line.startswith("roster:")]
    assert said == [
        f"roster: {answers}:3: column student: 'alan turing' answered on form C, printed for Grace Hopper "
        "(their own form is B)",
        f"roster: {answers}:4: column student: '=SUM(A1)' is not on the roster; form B was printed for "
        "Alan Turing",
        f"roster: {answers}: Grace Hopper (form C) is on the roster and has no row",
    ]
    graded = roster_key.parent / "graded"
    report = pypdf.PdfReader(graded / "report.pdf")
    text = " ".join(pdf_text(graded / "report.pdf").split())
    assert "line 3: 'alan turing' answered on form C, printed for Grace Hopper" in text
    assert "Grace Hopper (form C) is on the roster and has no row" in text
    assert round(float(report.pages[0].mediabox.height)) == 792  # the key's Letter
    rows = list(csv.reader(io.StringIO((graded / "scores.csv").read_text(encoding="utf-8"))))
    assert [row[0] for row in rows[1:]] == ["Ada Lovelace", "alan turing", "'=SUM(A1)"]
    assert all(not cell.startswith(("=", "+", "@")) for row in rows for cell in row)


def test_strict_makes_them_errors_and_a_failed_grade_leaves_no_folder(
    roster_key: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = responses(tmp_path, MISMATCHED)
    assert main(["-q", "grade", str(roster_key), str(answers), "--strict"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3 and all(line.startswith("paperdeck: ") for line in err)
    assert not (roster_key.parent / "graded").exists()
    assert (
        main(
            ["-q", "grade", str(roster_key), str(tmp_path / "missing.csv"), "-o", str(tmp_path / "new" / "g")]
        )
        == 2
    )
    assert not (tmp_path / "new").exists()
    matching = responses(tmp_path, [[name, ""] for name in NAMES])  # forms found by name
    assert main(["-q", "grade", str(roster_key), str(matching), "--strict"]) == 0
    assert not [line for line in capsys.readouterr().err.splitlines() if "roster" in line]


def test_a_long_chinese_name_gets_a_remedial_deck_and_a_users_file_stays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # -o g2 is created only inside the current folder
    key = write_key(tmp_path / "k.json", versions=1)
    name = "张" * 100
    answers = responses(tmp_path, [[name, "A"]])
    out = tmp_path / "g2"
    assert main(["-q", "grade", str(key), str(answers), "--remedial", "--seed", "1", "-o", str(out)]) == 0
    decks = sorted(p.name for p in (out / "remedial").iterdir())
    assert len(decks) == 1 and all(len(n.encode("utf-8")) < 100 for n in decks)
    assert all((out / "remedial" / n).stat().st_mode & 0o777 == 0o600 for n in decks)
    (out / "remedial" / "README.txt").write_text("the teacher's note")
    assert main(["-q", "grade", str(key), str(answers), "-o", str(out)]) == 0  # no decks this time
    assert sorted(p.name for p in (out / "remedial").iterdir()) == ["README.txt"]
