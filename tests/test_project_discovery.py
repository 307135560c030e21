"""Which project a command works on, said on stderr: the nearest folder at or above
the current one with ``content/paper.yaml``, else the bundled paper."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from generator.cli import main

BUNDLED = (
    "no project here or above (no content/paper.yaml): using the bundled paper, 'Attention Is All You Need'"
)


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """top/project (a project), top/sibling (a plain folder), top/project/inner (a nested project)."""
    top = tmp_path_factory.mktemp("top")
    assert main(["-q", "new", str(top / "project"), "--title", "Outer"]) == 0
    assert main(["-q", "new", str(top / "project" / "inner"), "--title", "Inner"]) == 0
    (top / "sibling" / "deeper").mkdir(parents=True)
    (top / "project" / "notes").mkdir()
    return top.resolve()


def run_in(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "generator.cli", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )


def test_from_a_subfolder_of_a_project(tree: Path) -> None:
    done = run_in(tree / "project" / "content" / "lessons", "list")
    assert done.returncode == 0
    assert done.stderr.splitlines()[0] == f"project {tree / 'project'}"
    assert done.stdout.startswith("Outer (2024)")


def test_from_a_sibling_folder_the_bundled_paper_is_said_plainly(tree: Path) -> None:
    done = run_in(tree / "sibling" / "deeper", "check")
    assert done.returncode == 0
    assert done.stderr.splitlines()[0] == BUNDLED


def test_the_nearest_project_wins(tree: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tree / "project" / "inner" / "decks")
    assert main(["list"]) == 0
    captured = capsys.readouterr()
    assert captured.err.splitlines()[0] == f"project {tree / 'project' / 'inner'}"
    assert captured.out.startswith("Inner (2024)")


def test_a_plain_subfolder_of_a_project_belongs_to_it(tree: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tree / "project" / "notes")
    assert main(["check"]) == 0
    assert capsys.readouterr().err.splitlines()[0] == f"project {tree / 'project'}"


def test_outside_any_project(tree: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tree)
    assert main(["list"]) == 0
    captured = capsys.readouterr()
    assert captured.err.splitlines()[0] == BUNDLED
    assert captured.out.startswith("Attention Is All You Need (2017)")


@pytest.mark.parametrize("before", [True, False])
def test_project_option_before_or_after_the_command_wins_over_the_folder(
    tree: Path, capsys, monkeypatch: pytest.MonkeyPatch, before: bool
) -> None:
    monkeypatch.chdir(tree / "sibling")
    option = ["--project", str(tree / "project" / "inner")]
    assert main([*option, "list"] if before else ["list", *option]) == 0
    assert capsys.readouterr().out.startswith("Inner (2024)")


def test_quiet_says_nothing_about_the_project(tree: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tree / "sibling")
    assert main(["check", "-q"]) == 0
    assert capsys.readouterr().err == ""
