"""Nothing issued is lost (generator/files/issued.py): a quiz printed from a roster survives a
later ``build``; ``quiz`` replaces it only with ``--replace`` and keeps the old key,
dated; a shared ``--out`` keeps the user's files; what holds seeds is 0600."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from generator.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    """The shipped content with one quiz recipe (so a build is quick)."""
    root = tmp_path / "p"
    shutil.copytree(ROOT / "content", root / "content")
    (root / "decks").mkdir()
    shutil.copy(ROOT / "decks" / "quiz-attention.yaml", root / "decks")
    return root


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def test_a_roster_quiz_survives_a_build_and_is_replaced_only_when_asked(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    roster = project / "class.csv"
    roster.write_text("student;email\nAda Lovelace;a@x\n=SUM(A1);s@x\n", encoding="utf-8")
    quiz = ["--project", str(project), "quiz", "quiz-attention", "--roster", str(roster), "--seed", "3"]
    assert main(["-q", *quiz]) == 0
    folder = project / "out" / "quiz-attention"
    issued = snapshot(folder)
    assert len([name for name in issued if name.endswith(".pdf")]) == 6  # 2 forms, 2 sheets, key, print file

    assert main(["--project", str(project), "build", "--seed", "9"]) == 0
    err = capsys.readouterr().err
    assert (
        f"left {folder} alone: it holds an issued quiz (2 forms for a roster of 2, made by paperdeck "
        "quiz); paperdeck quiz quiz-attention --replace replaces it"
    ) in err
    assert snapshot(folder) == issued  # the key and every form, byte for byte

    assert main(["-q", *quiz, "--seed", "4"]) == 2
    assert (
        "is the key of an issued quiz (2 forms for a roster of 2, made by paperdeck quiz)"
        in capsys.readouterr().err
    )
    assert snapshot(folder) == issued

    assert main([*quiz, "--seed", "4", "--replace"]) == 0
    (kept,) = folder.glob("quiz-attention-key.replaced-*.json")
    assert f"kept the replaced key as {kept}" in capsys.readouterr().err
    assert kept.read_bytes() == issued["quiz-attention-key.json"]
    assert json.loads((folder / "quiz-attention-key.json").read_text())["seed"] == 4
    for private in (
        kept,
        folder / "quiz-attention-key.json",
        folder / "quiz-attention-index.csv",
        folder / "quiz-attention-key.pdf",
    ):
        assert private.stat().st_mode & 0o777 == 0o600, private
    assert (folder / "quiz-attention-form-A.pdf").stat().st_mode & 0o777 == 0o644

    index = list(csv.reader(io.StringIO((folder / "quiz-attention-index.csv").read_text(encoding="utf-8"))))
    assert [row[0] for row in index] == ["name", "Ada Lovelace", "'=SUM(A1)"]
    key = json.loads((folder / "quiz-attention-key.json").read_text())
    assert [form["student"]["name"] for form in key["form_keys"]] == ["Ada Lovelace", "=SUM(A1)"]


def test_a_quiz_into_a_shared_folder_keeps_the_users_files(project: Path) -> None:
    docs = project / "docs"
    docs.mkdir()
    (docs / "quiz-notes.txt").write_text("mine")
    (docs / "quiz-draft.docx").write_bytes(b"mine too")
    (docs / "quiz-attention-notes.pdf").write_bytes(b"and this")
    args = ["-q", "--project", str(project), "quiz", "quiz-attention", "--versions", "1", "--out", str(docs)]
    assert main([*args, "--seed", "1"]) == 0
    assert main([*args, "--seed", "2", "--replace"]) == 0
    names = sorted(p.name for p in docs.iterdir())
    assert [n for n in names if "replaced" not in n] == [
        "quiz-attention-form-A-sheet.pdf",
        "quiz-attention-form-A.pdf",
        "quiz-attention-key.json",
        "quiz-attention-key.pdf",
        "quiz-attention-notes.pdf",
        "quiz-attention-print.pdf",
        "quiz-draft.docx",
        "quiz-notes.txt",
    ]
    assert (docs / "quiz-notes.txt").read_text() == "mine"


def test_a_secret_that_is_a_folder_is_a_one_line_error(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PAPERDECK_SECRET")
    (project / ".paperdeck-secret").mkdir()
    assert main(["-q", "--project", str(project), "quiz", "quiz-attention", "--versions", "1"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"paperdeck: {project / '.paperdeck-secret'} is not a file; it should hold your secret "
        "(move it away to make a new one)"
    ]
    assert not (project / "out").exists()


def test_a_quiz_issued_while_another_run_works_is_not_replaced_by_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two runs into one folder: the second issues its quiz while the first is still making
    forms; the first sees it under the swap's lock and stops instead of replacing it."""
    from generator.documents import quiz
    from generator.errors import UsageError
    from generator.exporters import ExportOptions, quiz_forms
    from generator.project import open_project

    project = open_project(ROOT)
    recipe = project.quiz_recipe("quiz-attention")
    folder = tmp_path / "quiz-attention"
    issued = ExportOptions(made_by="quiz")
    real_source = quiz_forms.form_source
    meanwhile: list[bytes] = []

    def form_source(*args, **kwargs):  # the first form of the first run: another run, whole
        if not meanwhile:
            meanwhile.append(b"")
            quiz_forms.export(quiz.build_quiz(project.content, recipe, 2, 1, b"s"), folder, issued)
            meanwhile[0] = (folder / "quiz-attention-key.json").read_bytes()
        return real_source(*args, **kwargs)

    monkeypatch.setattr(quiz_forms, "form_source", form_source)
    with pytest.raises(UsageError, match="is the key of an issued quiz"):
        quiz_forms.export(quiz.build_quiz(project.content, recipe, 1, 1, b"s"), folder, ExportOptions())
    assert (folder / "quiz-attention-key.json").read_bytes() == meanwhile[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["quiz-attention"]


def test_a_file_where_a_quiz_folder_goes_is_a_one_line_error(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "out").mkdir()
    (project / "out" / "quiz-attention").write_text("a file")
    assert main(["-q", "--project", str(project), "build", "--seed", "1"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"paperdeck: cannot write into {project / 'out' / 'quiz-attention'}: it is a file, not a folder"
    ]
    assert sorted(p.name for p in (project / "out").iterdir()) == ["quiz-attention"]
