"""``paperdeck check`` reports every mistake of a project in one run, whichever stage finds it:
YAML, schema, the loader's checks of items and figures, the paper's list of lessons, the
recipes and the project's own problem types (it took four runs to see seven planted mistakes)."""

from __future__ import annotations

from pathlib import Path

from generator.cli import main

from ..test_project_types import TYPE_MODULE

VALID = Path(__file__).parent / "valid"


def _planted(root: Path) -> Path:
    """A project of four lessons with seven mistakes, one per stage that finds them."""
    lesson = (VALID / "lesson.yaml").read_text()
    (root / "content" / "lessons").mkdir(parents=True)
    (root / "decks").mkdir()
    (root / "problems").mkdir()
    paper = (
        (VALID / "paper.yaml")
        .read_text()
        .replace("  - broken\n", "".join(f"  - {n}\n" for n in ("one", "two", "three", "four", "five")))
    )
    (root / "content" / "paper.yaml").write_text(paper)  # five: listed, no file
    for n in ("one", "two", "three", "four"):
        text = lesson.replace("id: broken", f"id: {n}", 1)
        text = "\n".join(line.replace("- id: ", f"- id: {n}-") for line in text.splitlines()) + "\n"
        (root / "content" / "lessons" / f"{n}.yaml").write_text(text)
    one = root / "content" / "lessons" / "one.yaml"  # YAML: a quote never closed
    one.write_text(one.read_text().replace("title: A lesson", 'title: "A lesson', 1))
    two = root / "content" / "lessons" / "two.yaml"  # the schema: a misspelt key
    two.write_text(two.read_text().replace("    definition:", "    defintion:", 1))
    three = root / "content" / "lessons" / "three.yaml"  # an item: a worked example's wrong result
    three.write_text(
        three.read_text().replace("output: [[2.66047690, 3.66047690]]", "output: [[2.7, 3.66047690]]")
    )
    four = root / "content" / "lessons" / "four.yaml"  # a figure: a parameter out of range
    four.write_text(
        four.read_text() + "visuals:\n  - id: four-v-one\n    kind: lr-schedule\n"
        "    caption: Schedule.\n    source: S5.E3\n"
        "    params: {d_model: -512, warmup_steps: 4000}\n"
    )
    (root / "decks" / "deck.yaml").write_text((VALID / "recipe.yaml").read_text())
    (root / "decks" / "bad.yaml").write_text(  # a recipe: a misspelt problem type
        "kind: deck\ntitle: Bad\nlessons: [one, three]\nproblems:\n  - type: sotfmax\n"
    )
    (root / "problems" / "vector_mean.py").write_text(  # a project type: a misspelt primary
        TYPE_MODULE.replace('primary="mean"', 'primary="maen"')
    )
    return root


def test_seven_mistakes_of_seven_stages_in_one_run(tmp_path: Path, capsys) -> None:
    root = _planted(tmp_path)
    assert main(["--project", str(root), "check"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(": ", 3)[1:3] for line in lines] == [
        ["content/lessons/four.yaml:84", "visuals[0].params.d_model"],
        [
            "content/lessons/one.yaml:5",
            "a backslash in double quotes starts a YAML escape, not LaTeX; write"
            " text with backslashes in single quotes or a block scalar (|)",
        ],
        ["content/lessons/three.yaml:38", "worked_examples[1].result.output"],
        ["content/lessons/two.yaml:9", "concepts[0].defintion"],
        ["content/paper.yaml:11", "lessons[4]"],
        ["decks/bad.yaml:5", "problems[0].type"],
        ["problems/vector_mean.py:23", "primary"],
    ], lines
    assert "Traceback" not in "\n".join(lines)


def test_a_type_module_that_does_not_load_is_reported_with_the_contents_mistakes(
    tmp_path: Path, capsys
) -> None:
    root = _planted(tmp_path)
    (root / "problems" / "vector_mean.py").write_text("import nothing_here\n")
    assert main(["--project", str(root), "check"]) == 2
    err = capsys.readouterr().err
    assert "problems/vector_mean.py:1: cannot load this problem type module: ModuleNotFoundError" in err
    assert "content/lessons/two.yaml:9: concepts[0].defintion" in err
    assert "content/lessons/four.yaml:84: visuals[0].params.d_model" in err
    # (an unknown type is no news when a type module did not load: it may be the one it registers)


def test_a_mistake_in_paper_yaml_leaves_its_lessons_checked(tmp_path: Path, capsys) -> None:
    root = _planted(tmp_path)
    paper = root / "content" / "paper.yaml"
    paper.write_text(paper.read_text().replace("year: 2017", "yaer: 2017"))
    assert main(["--project", str(root), "check"]) == 2
    err = capsys.readouterr().err
    assert "content/paper.yaml:4: yaer: unknown key" in err
    assert "content/lessons/two.yaml:9: concepts[0].defintion" in err
    assert "content/paper.yaml:11: lessons[4]: no lesson file content/lessons/five.yaml" in err
