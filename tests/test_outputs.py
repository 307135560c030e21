"""Where every command writes (``-o`` and ``--out``): one rule for all, in ``generator/commands/outputs.py``.

A missing folder one level deep inside the current folder is created and said on
stderr; a deeper one or one outside the current folder (most likely a typo), a
parent that is a file, an output folder that is a file, a folder that takes no
files (``/proc``), a file that is a folder or a suffix the command cannot write is
one line on stderr and exit code 2, and nothing is written. Folders paperdeck
chooses itself (``out/<quiz>`` under the project) are created as deep as needed.
"""

from __future__ import annotations

import shutil
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
    (
        ["practice", "softmax", "-o", "x.txt"],
        "cannot write x.txt: an Anki practice set is written as .apkg, a printable practice sheet as .pdf",
    ),
    (["practice", "softmax", "-o", "afile/x.pdf"], "cannot write into afile: afile is a file"),
    (["practice", "softmax", "-o", "adir"], "adir is a folder; name the file to write"),
    (["new", "afile", "--title", "T"], "afile is a file; name a new or empty folder"),
    (["new", "afile/sub", "--title", "T"], "cannot write into afile/sub: afile is a file"),
    (
        ["deck", "-o", "/proc/x.apkg"],
        "cannot write into /proc: it takes no new files (No such file or directory)",
    ),
    (
        ["practice", "softmax", "-o", "/nonexistent-paperdeck/x.apkg"],
        "cannot write into /nonexistent-paperdeck: it does not exist and is outside the current folder;"
        " create it first if you meant it (mkdir /nonexistent-paperdeck)",
    ),
    (
        ["deck", "-o", "typo/d/deck.apkg"],
        "cannot write into typo/d: typo does not exist; create the folder first if you meant it"
        " (mkdir -p typo/d)",
    ),
    (
        ["build", "--out", "new/a/b"],
        "cannot write into new/a/b: new does not exist; create the folder first if you meant it"
        " (mkdir -p new/a/b)",
    ),
    (
        ["quiz", "--out", "../outside"],
        "cannot write into ../outside: it does not exist and is outside the current folder;"
        " create it first if you meant it (mkdir ../outside)",
    ),
]


@pytest.mark.parametrize("args, message", REFUSED, ids=lambda a: " ".join(a) if isinstance(a, list) else "")
def test_a_bad_output_is_one_line_and_exit_2(
    project: Path, here: Path, capsys, args: list[str], message: str
) -> None:
    before = sorted(p.relative_to(here) for p in here.rglob("*"))
    assert main(["-q", "--project", str(project), *args]) == 2
    err = capsys.readouterr().err
    assert err == f"paperdeck: {message}\n"
    assert sorted(p.relative_to(here) for p in here.rglob("*")) == before


def test_a_deck_written_as_pdf_is_not_told_about_practice_sheets(project: Path, here: Path, capsys) -> None:
    assert main(["--project", str(project), "deck", "outputs", "-o", "mine.pdf"]) == 2
    err = capsys.readouterr().err
    assert ".apkg" in err and "practice" not in err and "sheet" not in err


@pytest.mark.parametrize(
    "args, folder, written",
    [
        (["build", "--out", "new"], "new", "outputs.apkg"),
        (["quiz", "--out", "adir/q"], "adir/q", "quiz-key.json"),
        (["deck", "-o", "d/deck.apkg"], "d", "deck.apkg"),
        (["practice", "softmax", "-n", "1", "-o", "adir/p/set.apkg"], "adir/p", "set.apkg"),
        (["new", "new/project", "--title", "T"], "new/project", "content/paper.yaml"),
    ],
    ids=lambda a: a[0] if isinstance(a, list) else None,
)
def test_a_missing_folder_is_created_and_said(
    project: Path, here: Path, capsys, args: list[str], folder: str, written: str
) -> None:
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


@pytest.fixture(scope="module")
def site_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project whose only recipe is a study site named ``docs``."""
    root = tmp_path_factory.mktemp("site") / "p"
    assert main(["-q", "new", str(root), "--title", "Site"]) == 0
    for recipe in (root / "decks").iterdir():
        recipe.unlink()
    (root / "decks" / "docs.yaml").write_text("kind: site\ntitle: Site\n")
    return root


def test_a_build_replaces_only_what_it_wrote_in_the_site_folder(site_project: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    assert main(["-q", "--project", str(site_project), "build", "--out", str(out), "--seed", "1"]) == 0
    site = out / "docs"
    record = (site / ".paperdeck-site").read_text()
    assert "index.html\n" in record and "assets/site.js\n" in record
    (site / ".git").mkdir()
    (site / ".git" / "config").write_text("[core]\n")
    (site / "CNAME").write_text("study.example.org\n")
    (site / "notes.md").write_text("mine")
    (site / "assets" / "mine.css").write_text("mine")
    (site / "old-page.html").write_text("a page an earlier build wrote")  # and no longer writes
    (site / ".paperdeck-site").write_text(record + "old-page.html\n")
    assert main(["-q", "--project", str(site_project), "build", "--out", str(out), "--seed", "2"]) == 0
    assert (site / ".git" / "config").read_text() == "[core]\n"
    assert (site / "CNAME").read_text() == "study.example.org\n"
    assert (site / "notes.md").read_text() == "mine"
    assert (site / "assets" / "mine.css").read_text() == "mine"
    assert not (site / "old-page.html").exists()
    assert (site / "index.html").is_file() and (site / ".paperdeck-site").read_text() == record
    assert sorted(p.name for p in out.iterdir()) == ["docs"], "a leftover stayed beside"


def test_a_site_built_before_the_record_keeps_a_users_files(site_project: Path) -> None:
    """In the project's out/, where sites built before the record live; elsewhere a folder without
    the record is refused (below)."""
    assert main(["-q", "--project", str(site_project), "build", "--seed", "1"]) == 0
    site = site_project / "out" / "docs"
    (site / ".paperdeck-site").unlink()
    (site / "CNAME").write_text("study.example.org\n")
    (site / "99-gone.html").write_text("a lesson page an old build wrote")
    assert main(["-q", "--project", str(site_project), "build", "--seed", "2"]) == 0
    assert (site / "CNAME").is_file() and not (site / "99-gone.html").exists()
    shutil.rmtree(site_project / "out")


@pytest.mark.parametrize(
    "out, message",
    [
        (
            ".",
            "cannot write into docs: it is a folder of files that no paperdeck build wrote, which a build"
            " would replace; give --out another folder, or name the recipe differently",
        ),
        (
            "..",
            "cannot write into ../docs: it is a folder of files that no paperdeck build wrote, which a build"
            " would replace; give --out another folder, or name the recipe differently",
        ),
    ],
)
def test_an_output_folder_that_is_a_project_folder_is_refused(
    site_project: Path, monkeypatch, capsys, out: str, message: str
) -> None:
    (site_project / "docs").mkdir(exist_ok=True)
    (site_project / "docs" / "guide.md").write_text("the project's own docs")
    monkeypatch.chdir(site_project / ("docs" if out == ".." else "."))
    before = sorted(site_project.rglob("*"))
    assert main(["-q", "--project", str(site_project), "build", "--out", out]) == 2
    assert capsys.readouterr().err == f"paperdeck: {message}\n"
    assert sorted(site_project.rglob("*")) == before


@pytest.mark.parametrize(
    "name, message",
    [
        ("content", "it is the project's content/"),
        ("decks", "it is the project's decks/"),
    ],
)
def test_a_site_named_like_the_projects_own_folders_is_refused(
    tmp_path: Path, monkeypatch, capsys, name: str, message: str
) -> None:
    root = tmp_path / "p"
    assert main(["-q", "new", str(root), "--title", "Site"]) == 0
    (root / "decks" / f"{name}.yaml").write_text("kind: site\ntitle: Site\n")
    monkeypatch.chdir(root)
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    assert main(["-q", "build", "--out", "."]) == 2
    assert capsys.readouterr().err == (
        f"paperdeck: cannot write into {name}: {message}; give --out another"
        " folder, or name the recipe differently\n"
    )
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == before


def test_an_output_folder_that_holds_the_project_is_refused(site_project: Path, monkeypatch, capsys) -> None:
    (site_project / "decks" / "p.yaml").write_text("kind: site\ntitle: Site\n")
    try:
        monkeypatch.chdir(site_project)
        assert main(["-q", "build", "--out", ".."]) == 2
        assert capsys.readouterr().err == (
            "paperdeck: cannot write into ../p: it holds the project; give"
            " --out another folder, or name the recipe differently\n"
        )
    finally:
        (site_project / "decks" / "p.yaml").unlink()
