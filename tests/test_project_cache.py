"""A checked project is kept between runs, and never used once anything it depends on changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator import project_cache
from generator.cli import main
from generator.project import Project, open_project

from .content.test_broken_corpus import VALID, make_project


def test_a_checked_project_is_kept_and_used_again(tmp_path: Path) -> None:
    root = make_project(tmp_path / "p")
    assert project_cache.load(root) is None
    first = open_project(root)
    kept = project_cache.load(root)
    assert isinstance(kept, Project) and kept == first
    assert open_project(root) == first


def test_a_change_of_the_same_size_at_once_is_seen(tmp_path: Path) -> None:
    root = make_project(tmp_path / "p")
    assert open_project(root).content.lessons[0].title == "A lesson"
    lesson = root / "content" / "lessons" / "broken.yaml"
    lesson.write_text(lesson.read_text().replace("title: A lesson", "title: B lesson"))
    assert project_cache.load(root) is None
    assert open_project(root).content.lessons[0].title == "B lesson"


@pytest.mark.parametrize("change", ["add a recipe", "remove the recipe"])
def test_adding_or_removing_a_file_is_seen(tmp_path: Path, change: str) -> None:
    root = make_project(tmp_path / "p")
    open_project(root)
    if change == "add a recipe":
        (root / "decks" / "more.yaml").write_text((VALID / "recipe.yaml").read_text())
    else:
        (root / "decks" / "deck.yaml").unlink()
    assert project_cache.load(root) is None


def test_a_broken_project_is_never_kept_so_its_errors_show_every_time(tmp_path: Path, capsys) -> None:
    root = make_project(tmp_path / "p", lesson=(VALID / "lesson.yaml").read_text() + "unknown: 1\n")
    for _ in range(2):
        assert main(["--project", str(root), "check"]) == 2
        assert "unknown key" in capsys.readouterr().err
    assert project_cache.load(root) is None


def test_card_rule_warnings_are_kept_with_the_project(tmp_path: Path, capsys) -> None:
    lesson = (VALID / "lesson.yaml").read_text().replace("back: Back.", "back: " + "Long back. " * 20)
    root = make_project(tmp_path / "p", lesson=lesson)
    for _ in range(2):  # checked, then taken from the cache
        assert main(["--project", str(root), "check"]) == 0
        assert "warning: " in capsys.readouterr().err
