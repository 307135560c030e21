"""``paperdeck new``: a project that passes ``check`` and ``build`` as written."""

from __future__ import annotations

from pathlib import Path

from generator.cli import main
from generator.content import load
from generator.content.card_rules import card_rule_warnings
from generator.content.model import Lesson
from generator.project.scaffold import ITEMS


def test_new_then_check_then_build(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "layernorm"
    assert main(["new", str(folder), "--title", "Layer Normalization"]) == 0
    assert "wrote a new project" in capsys.readouterr().err
    assert main(["--project", str(folder), "check"]) == 0
    assert "ok: 1 lessons, 10 items, 2 recipes" in capsys.readouterr().out
    assert main(["--project", str(folder), "build", "--seed", "1"]) == 0
    built = sorted(p.relative_to(folder / "out").as_posix() for p in (folder / "out").rglob("*.*"))
    assert built == [
        "layer-normalization.apkg",
        "quiz/quiz-form-A-sheet.pdf",
        "quiz/quiz-form-A.pdf",
        "quiz/quiz-form-B-sheet.pdf",
        "quiz/quiz-form-B.pdf",
        "quiz/quiz-key.json",
        "quiz/quiz-key.pdf",
        "quiz/quiz-print.pdf",
    ]


def test_the_lesson_holds_every_kind_and_every_question_type(tmp_path: Path) -> None:
    assert main(["new", str(tmp_path / "p"), "--title", "A Paper", "--id", "ap"]) == 0
    content = load(tmp_path / "p")
    lesson = content.lessons[0]
    lists = [f for f in Lesson.__dataclass_fields__ if f in ITEMS]
    assert all(getattr(lesson, f) for f in lists) and len(lists) == 8
    assert {q.type for q in lesson.questions} == {"multiple_choice", "true_false", "numeric", "short_answer"}
    assert content.paper.id == "ap"
    assert card_rule_warnings(content, tmp_path / "p") == []


def test_new_refuses_a_folder_that_is_not_empty(tmp_path: Path, capsys) -> None:
    (tmp_path / "mine.txt").write_text("keep me")
    assert main(["new", str(tmp_path), "--title", "T"]) == 2
    assert capsys.readouterr().err == (
        f"paperdeck: {tmp_path} is not empty; paperdeck new writes only into a new or empty folder\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.txt"]


def test_new_into_an_empty_folder_and_a_title_with_quotes(tmp_path: Path) -> None:
    assert main(["new", str(tmp_path), "--title", "Don't: Stop \\ Me"]) == 0
    assert load(tmp_path).paper.title == "Don't: Stop \\ Me"
    assert main(["--project", str(tmp_path), "check"]) == 0


def test_new_writes_a_gitignore_and_the_authoring_reference(tmp_path: Path, capsys) -> None:
    import subprocess

    from generator.project import reference as docs

    folder = tmp_path / "resnet"
    assert main(["new", str(folder), "--title", "Deep Residual Learning"]) == 0
    err = capsys.readouterr().err
    assert f"({folder / 'docs' / 'authoring.md'} lists every field)" in err
    assert (folder / "docs" / "authoring.md").read_text(encoding="utf-8") == docs.render()
    (folder / ".paperdeck-secret").write_text("made by the first quiz build\n")
    (folder / "out").mkdir()
    (folder / "out" / "deck.apkg").write_bytes(b"")
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    ignored = subprocess.run(
        ["git", "-C", str(folder), "status", "--porcelain", "--ignored"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "!! .paperdeck-secret" in ignored and "!! out/" in ignored
