"""The corpus of broken content files: every kind of mistake gets its pinned message.

Each file under ``broken/`` starts with ``# expect:`` lines, the exact messages
``paperdeck check`` must print for it (without the ``paperdeck: `` prefix); a
line ending in ``…`` pins only what comes before it (lists of problem types
grow as types are added).
``broken/lessons/*`` replace the lesson of a small valid project,
``broken/papers/*`` its ``paper.yaml``, ``broken/recipes/*`` add a recipe.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.cli import main
from generator.content import load
from generator.errors import ContentError
from generator.recipes import load_recipes

HERE = Path(__file__).parent
VALID = HERE / "valid"
CASES = sorted((HERE / "broken").glob("*/*.yaml"))


def make_project(root: Path, lesson: str | None = None, paper: str | None = None,
                 recipe: str | None = None) -> Path:
    """A small project: one lesson, one deck recipe, any part replaced."""
    (root / "content" / "lessons").mkdir(parents=True)
    (root / "decks").mkdir()
    (root / "content" / "paper.yaml").write_text(paper or (VALID / "paper.yaml").read_text())
    (root / "content" / "lessons" / "broken.yaml").write_text(lesson or (VALID / "lesson.yaml").read_text())
    (root / "decks" / "deck.yaml").write_text((VALID / "recipe.yaml").read_text())
    if recipe is not None:
        (root / "decks" / "broken.yaml").write_text(recipe)
    return root


def expected_messages(case: Path) -> list[str]:
    return [line.removeprefix("# expect: ").rstrip("\n")
            for line in case.read_text().splitlines() if line.startswith("# expect: ")]


def load_all(root: Path) -> None:
    load_recipes(root, load(root))


def test_valid_project_loads(tmp_path: Path) -> None:
    load_all(make_project(tmp_path))


def test_corpus_is_large_enough() -> None:
    assert len(CASES) >= 40


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_broken_file_reports_exactly_its_mistakes(case: Path, tmp_path: Path) -> None:
    kind = case.parent.name
    text = case.read_text()
    root = make_project(tmp_path, lesson=text if kind == "lessons" else None,
                        paper=text if kind == "papers" else None,
                        recipe=text if kind == "recipes" else None)
    expected = expected_messages(case)
    assert expected, f"{case.name} has no '# expect:' line"
    with pytest.raises(ContentError) as caught:
        load_all(root)
    assert matches([str(p) for p in caught.value.problems], expected)


def matches(actual: list[str], expected: list[str]) -> bool:
    return len(actual) == len(expected) and all(
        a.startswith(e[:-1]) if e.endswith("…") else a == e
        for a, e in zip(actual, expected, strict=True))


@pytest.mark.parametrize("case", CASES[:3], ids=lambda p: p.stem)
def test_cli_prints_one_line_per_problem_and_exits_2(case: Path, tmp_path: Path, capsys) -> None:
    kind = case.parent.name
    text = case.read_text()
    root = make_project(tmp_path, lesson=text if kind == "lessons" else None,
                        paper=text if kind == "papers" else None,
                        recipe=text if kind == "recipes" else None)
    assert main(["--project", str(root), "check"]) == 2
    err = capsys.readouterr().err
    assert matches(err.splitlines(), [f"paperdeck: {m}" for m in expected_messages(case)])
    assert "Traceback" not in err


def test_file_that_is_not_utf8(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    (root / "content" / "lessons" / "broken.yaml").write_bytes(b"id: broken\ntitle: \xff\xfe\n")
    with pytest.raises(ContentError) as caught:
        load_all(root)
    assert [str(p) for p in caught.value.problems] == [
        "content/lessons/broken.yaml:2: not UTF-8 text: byte 0xff at column 8 (invalid start byte)"]


def test_missing_paper_yaml(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    (root / "content" / "paper.yaml").unlink()
    with pytest.raises(ContentError) as caught:
        load_all(root)
    assert str(caught.value) == "content/paper.yaml: file not found"
