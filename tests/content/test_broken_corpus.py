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
from generator.content.recipes import load_recipes
from generator.errors import ContentError
from generator.project.kinds import recipe_classes

HERE = Path(__file__).parent
VALID = HERE / "valid"
CASES = sorted((HERE / "broken").glob("*/*.yaml"))


def make_project(
    root: Path, lesson: str | None = None, paper: str | None = None, recipe: str | None = None
) -> Path:
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
    return [
        line.removeprefix("# expect: ").rstrip("\n")
        for line in case.read_text().splitlines()
        if line.startswith("# expect: ")
    ]


def load_all(root: Path) -> None:
    load_recipes(root, load(root), recipe_classes())


def test_valid_project_loads(tmp_path: Path) -> None:
    load_all(make_project(tmp_path))


def test_corpus_is_large_enough() -> None:
    assert len(CASES) >= 40


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_broken_file_reports_exactly_its_mistakes(case: Path, tmp_path: Path) -> None:
    kind = case.parent.name
    text = case.read_text()
    root = make_project(
        tmp_path,
        lesson=text if kind == "lessons" else None,
        paper=text if kind == "papers" else None,
        recipe=text if kind == "recipes" else None,
    )
    expected = expected_messages(case)
    assert expected, f"{case.name} has no '# expect:' line"
    with pytest.raises(ContentError) as caught:
        load_all(root)
    assert matches([str(p) for p in caught.value.problems], expected)


def matches(actual: list[str], expected: list[str]) -> bool:
    return len(actual) == len(expected) and all(
        a.startswith(e[:-1]) if e.endswith("…") else a == e for a, e in zip(actual, expected, strict=True)
    )


@pytest.mark.parametrize("case", CASES[:3], ids=lambda p: p.stem)
def test_cli_prints_one_line_per_problem_and_exits_2(case: Path, tmp_path: Path, capsys) -> None:
    kind = case.parent.name
    text = case.read_text()
    root = make_project(
        tmp_path,
        lesson=text if kind == "lessons" else None,
        paper=text if kind == "papers" else None,
        recipe=text if kind == "recipes" else None,
    )
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
        "content/lessons/broken.yaml:2: not UTF-8 text: byte 0xff at column 8 (invalid start byte)"
    ]


def test_missing_paper_yaml(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    (root / "content" / "paper.yaml").unlink()
    with pytest.raises(ContentError) as caught:
        load_all(root)
    assert str(caught.value) == "content/paper.yaml: file not found"


def test_a_lesson_larger_than_the_limit(tmp_path: Path) -> None:
    """A 50 MB lesson passed check and exhausted memory in build; the bound is 8x the largest shipped."""
    from generator.content.yamlsource import MAX_FILE_BYTES

    shipped = max(p.stat().st_size for p in (HERE.parents[1] / "content" / "lessons").glob("*.yaml"))
    assert shipped * 4 < MAX_FILE_BYTES
    root = make_project(tmp_path)
    lesson = root / "content" / "lessons" / "broken.yaml"
    lesson.write_text((VALID / "lesson.yaml").read_text() + "# padding\n" * (MAX_FILE_BYTES // 10))
    with pytest.raises(ContentError) as caught:
        load_all(root)
    assert [str(p) for p in caught.value.problems] == [
        f"content/lessons/broken.yaml: {lesson.stat().st_size:,} bytes is more than the limit of "
        "262,144 bytes per file; split it"
    ]


def test_a_lesson_linked_from_outside_the_project_is_refused(tmp_path: Path) -> None:
    root = make_project(tmp_path / "p")
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text((VALID / "lesson.yaml").read_text())
    lesson = root / "content" / "lessons" / "broken.yaml"
    lesson.unlink()
    lesson.symlink_to(outside)
    with pytest.raises(ContentError) as caught:
        load_all(root)
    assert [str(p) for p in caught.value.problems] == [
        f"content/lessons/broken.yaml: a symbolic link to {outside.resolve()}, outside the project; "
        "copy the file into the project instead"
    ]
    # A link inside the project is fine.
    inside = root / "shared" / "broken.yaml"
    inside.parent.mkdir()
    outside.rename(inside)
    lesson.unlink()
    lesson.symlink_to(inside)
    load_all(root)


@pytest.mark.parametrize("target", ["loop", "/dev/zero"])
def test_a_recipe_that_is_a_link_loop_or_a_device(tmp_path: Path, target: str) -> None:
    root = make_project(tmp_path)
    recipe = root / "decks" / "broken.yaml"
    if target == "loop":
        (root / "decks" / "other.yaml").symlink_to(recipe)
        recipe.symlink_to(root / "decks" / "other.yaml")
    else:
        recipe.symlink_to(target)
    with pytest.raises(ContentError) as caught:
        load_all(root)
    found = [str(p) for p in caught.value.problems]
    if target == "loop":
        assert found[0].startswith("decks/broken.yaml: cannot be read: ")
        assert len(found) == 2
    else:
        assert found == [
            "decks/broken.yaml: a symbolic link to /dev/zero, outside the project; "
            "copy the file into the project instead"
        ]
