"""Lesson and recipe files with the ``.yml`` ending: said, not silently skipped."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import ContentError

from .test_broken_corpus import VALID, load_all, make_project


def messages(root: Path) -> list[str]:
    with pytest.raises(ContentError) as caught:
        load_all(root)
    return [str(p) for p in caught.value.problems]


def test_a_listed_lesson_saved_as_yml(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    lessons = root / "content" / "lessons"
    (lessons / "broken.yaml").rename(lessons / "broken.yml")
    assert messages(root) == [
        "content/paper.yaml:7: lessons[0]: no lesson file content/lessons/broken.yaml"
        " (there is broken.yml: lesson files end in .yaml)"
    ]


def test_an_unlisted_lesson_saved_as_yml(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    (root / "content" / "lessons" / "extra.yml").write_text((VALID / "lesson.yaml").read_text())
    assert messages(root) == ["content/lessons/extra.yml: lesson files end in .yaml: rename it extra.yaml"]


def test_a_recipe_saved_as_yml(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    (root / "decks" / "more.yml").write_text((VALID / "recipe.yaml").read_text())
    assert messages(root) == ["decks/more.yml: recipe files end in .yaml: rename it more.yaml"]
