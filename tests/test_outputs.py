"""Where every command writes (``-o`` and ``--out``): one rule for all, in ``generator/commands/outputs.py``.

A missing folder one level deep inside the current folder is created and said on
stderr; a deeper one or one outside the current folder (most likely a typo), a
parent that is a file, an output folder that is a file, a folder that takes no
files (``/proc``), a file that is a folder or a suffix the command cannot write is
one line on stderr and exit code 2, and nothing is written. Folders paperdeck
chooses itself (``out/<quiz>`` under the project) are created as deep as needed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.cli import main


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("project") / "p"
    assert main(["-q", "new", str(root), "--title", "Outputs"]) == 0
    return root


@pytest.fixture()
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("not a folder")
    (tmp_path / "adir").mkdir()
    return tmp_path


REFUSED = [
    (["build", "--out", "afile"], "afile is a file, not a folder to write into"),
    (["build", "--out", "afile/sub"], "cannot write into afile/sub: afile is a file"),
    (["quiz", "--out", "afile"], "afile is a file, not a folder to write into"),
    (["quiz", "--out", "afile/sub"], "cannot write into afile/sub: afile is a file"),
    (["deck", "-o", "mine.pdf"], "cannot write mine.pdf: an Anki deck is written as .apkg"),
    (["deck", "-o", "mine"], "cannot write mine: an Anki deck is written as .apkg"),
    (["deck", "-o", "afile/d.apkg"], "cannot write into afile: afile is a file"),
    (["deck", "-o", "adir"], "adir is a folder; name the file to write"),
    (["practice", "softmax", "-o", "x.txt"],
     "cannot write x.txt: an Anki practice set is written as .apkg, a printable practice sheet as .pdf"),
    (["practice", "softmax", "-o", "afile/x.pdf"], "cannot write into afile: afile is a file"),
    (["practice", "softmax", "-o", "adir"], "adir is a folder; name the file to write"),
    (["new", "afile", "--title", "T"], "afile is a file; name a new or empty folder"),
    (["new", "afile/sub", "--title", "T"], "cannot write into afile/sub: afile is a file"),
    (["deck", "-o", "/proc/x.apkg"],
     "cannot write into /proc: it takes no new files (No such file or directory)"),
    (["practice", "softmax", "-o", "/nonexistent-paperdeck/x.apkg"],
     "cannot write into /nonexistent-paperdeck: it does not exist and is outside the current folder;"
     " create it first if you meant it (mkdir /nonexistent-paperdeck)"),
    (["deck", "-o", "typo/d/deck.apkg"],
     "cannot write into typo/d: typo does not exist; create the folder first if you meant it"
     " (mkdir -p typo/d)"),
    (["build", "--out", "new/a/b"],
     "cannot write into new/a/b: new does not exist; create the folder first if you meant it"
     " (mkdir -p new/a/b)"),
    (["quiz", "--out", "../outside"],
     "cannot write into ../outside: it does not exist and is outside the current folder;"
     " create it first if you meant it (mkdir ../outside)"),
]


@pytest.mark.parametrize("args, message", REFUSED, ids=lambda a: " ".join(a) if isinstance(a, list) else "")
def test_a_bad_output_is_one_line_and_exit_2(project: Path, here: Path, capsys, args: list[str],
                                             message: str) -> None:
    before = sorted(p.relative_to(here) for p in here.rglob("*"))
    assert main(["-q", "--project", str(project), *args]) == 2
    err = capsys.readouterr().err
    assert err == f"paperdeck: {message}\n"
    assert sorted(p.relative_to(here) for p in here.rglob("*")) == before


def test_a_deck_written_as_pdf_is_not_told_about_practice_sheets(project: Path, here: Path, capsys) -> None:
    assert main(["--project", str(project), "deck", "outputs", "-o", "mine.pdf"]) == 2
    err = capsys.readouterr().err
    assert ".apkg" in err and "practice" not in err and "sheet" not in err


@pytest.mark.parametrize("args, folder, written", [
    (["build", "--out", "new"], "new", "outputs.apkg"),
    (["quiz", "--out", "adir/q"], "adir/q", "quiz-key.json"),
    (["deck", "-o", "d/deck.apkg"], "d", "deck.apkg"),
    (["practice", "softmax", "-n", "1", "-o", "adir/p/set.apkg"], "adir/p", "set.apkg"),
    (["new", "new/project", "--title", "T"], "new/project", "content/paper.yaml"),
], ids=lambda a: a[0] if isinstance(a, list) else None)
def test_a_missing_folder_is_created_and_said(project: Path, here: Path, capsys, args: list[str],
                                              folder: str, written: str) -> None:
    assert main(["--project", str(project), *args, *(["--seed", "1"] if args[0] != "new" else [])]) == 0
    err = capsys.readouterr().err
    if args[0] != "new":
        assert f"created folder {folder}\n" in err
    assert (here / folder / written).is_file()


def test_an_existing_folder_is_not_said_to_be_created(project: Path, here: Path, capsys) -> None:
    assert main(["--project", str(project), "deck", "-o", "adir/deck.apkg", "--seed", "1"]) == 0
    assert "created folder" not in capsys.readouterr().err


def test_the_default_output_folder_is_created_as_deep_as_needed(project: Path, here: Path, capsys) -> None:
    import shutil

    shutil.rmtree(project / "out", ignore_errors=True)
    assert main(["-q", "--project", str(project), "quiz", "--seed", "1"]) == 0
    assert (project / "out" / "quiz" / "quiz-key.json").is_file()
