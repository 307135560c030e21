"""An error met while an output is made of one item names the item, once, on one line.

Each exporter walks its items inside ``documents.items.item_errors`` (issue 42): a figure that
passes ``check`` but cannot be drawn, or a project's problem type whose prompt cannot be
typeset, ends every command that shows it with one line naming the file (and line) and the
item, and exit code 2, never a traceback or a bare "cannot be drawn".
"""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest

from generator.cli import main
from generator.errors import ItemError, UsageError, naming, report

HERE = Path(__file__).parent
VALID = HERE / "content" / "valid"

FIGURE = """\
visuals:
  - id: v-huge
    kind: image
    caption: A figure larger than any figure is drawn.
    source: S3.2.1
    params: {file: figures/huge.png}
"""
RECIPES = {
    "deck": "kind: deck\ntitle: A deck\n",
    "guide": "kind: guide\ntitle: A guide\n",
    "site": "kind: site\ntitle: A site\n",
}
TYPE_MODULE = '''\
"""The mean of a vector, with a prompt that no output can typeset (\\\\vect is no LaTeX)."""

from generator.problems import Distractor, ProblemType, Solution, Step, Tolerance, register


def pick(rng, difficulty):
    return {"x": rng.integers(-5, 6, size=4).tolist()}


def solve(given):
    x = [float(v) for v in given["x"]]
    mean = sum(x) / len(x)
    steps = (Step("Add and divide by n", rf"\\mu = {mean:g}"),)
    return Solution({"mean": mean}, steps, (Distractor("forgot to divide", {"mean": sum(x)}),))


def prompt(given):
    return rf"Give the mean of \\(\\vect{{x}} = {given['x']}\\)."


register(ProblemType(
    id="vector-mean", description="Mean of a vector", pick=pick, solve=solve, prompt=prompt,
    tolerance=Tolerance(abs=0.01), primary="mean", source="S3.2.1", work_space_cm=2,
))
'''
QUIZ = """\
kind: quiz
title: A quiz
calculator: true
sections:
  - title: Concepts
    points: 1
    questions: {types: [multiple_choice]}
  - title: Means
    points: 2
    problems: {type: vector-mean, count: 1}
"""


def project(root: Path, recipe: str, figure: bool = False, problem_type: bool = False) -> Path:
    """The small valid project of the broken-content corpus with one recipe, and a figure too
    large to draw (4097 × 4097 pixels: over ``image.MAX_PIXELS``, found only when drawn) or a
    problem type whose prompt cannot be typeset."""
    (root / "content" / "lessons").mkdir(parents=True)
    (root / "decks").mkdir()
    (root / "content" / "paper.yaml").write_text((VALID / "paper.yaml").read_text())
    lesson = (VALID / "lesson.yaml").read_text()
    if figure:
        from PIL import Image

        (root / "content" / "figures").mkdir()
        Image.new("L", (4097, 4097)).save(root / "content" / "figures" / "huge.png", optimize=True)
        lesson = lesson.replace("resources:\n", FIGURE + "resources:\n", 1)
    (root / "content" / "lessons" / "broken.yaml").write_text(lesson)
    if problem_type:
        (root / "problems").mkdir()
        (root / "problems" / "vector_mean.py").write_text(TYPE_MODULE)
    (root / "decks" / "the-recipe.yaml").write_text(recipe)
    return root


def line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def files_under(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


@pytest.fixture(autouse=True)
def figure_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


@pytest.mark.parametrize("kind", RECIPES)
def test_a_figure_that_cannot_be_drawn_is_named_by_file_line_and_id(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path / "project", RECIPES[kind], figure=True)
    assert main(["--project", str(root), "check"]) == 0  # only drawing finds it
    capsys.readouterr()
    out = tmp_path / "out"
    out.mkdir()
    assert main(["--project", str(root), "build", "--out", str(out), "--seed", "1"]) == 2
    err = capsys.readouterr().err
    line = line_of(root / "content" / "lessons" / "broken.yaml", "id: v-huge")
    assert [e for e in err.splitlines() if e.startswith("paperdeck:")] == [
        f"paperdeck: content/lessons/broken.yaml:{line}: visual 'v-huge': visual image: figures/huge.png"
        " has over 16777216 pixels"
    ]
    assert "Traceback" not in err
    assert files_under(out) == []  # nothing half-built was left


@pytest.mark.parametrize(
    "command",
    [
        ["quiz", "the-recipe", "--seed", "1", "--out", "{out}"],
        ["lms", "the-recipe", "--seed", "1", "--out", "{out}"],
        ["practice", "vector-mean", "-n", "1", "--seed", "1", "-o", "{out}/practice.pdf"],
    ],
    ids=lambda command: command[0],
)
def test_a_problem_that_cannot_be_printed_is_named_by_its_type_file_and_seed(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path / "project", QUIZ, problem_type=True)
    out = tmp_path / "out"
    out.mkdir()
    argv = ["--project", str(root), *(part.replace("{out}", str(out)) for part in command)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    said = [e for e in err.splitlines() if e.startswith("paperdeck:")]
    assert len(said) == 1, err
    assert re.fullmatch(
        r"paperdeck: problems/vector_mean\.py: problem '[\w/-]+' \(vector-mean, seed \d+\):"
        r" unknown LaTeX command \\vect in '\\vect\{x\} = \[[-\d, ]+\]'",
        said[0],
    ), said[0]
    assert "Traceback" not in err
    assert files_under(out) == []


def test_the_innermost_walk_names_the_item_and_an_outer_one_keeps_it() -> None:
    with pytest.raises(ItemError) as caught:
        with naming("content/lessons/a.yaml:3", "lesson 'a'"):
            with naming("content/lessons/a.yaml:9", "visual 'v'"):
                raise UsageError("figure could not be drawn\nfor two reasons")
    assert (
        str(caught.value)
        == "content/lessons/a.yaml:9: visual 'v': figure could not be drawn; for two reasons"
    )
    assert isinstance(caught.value.__cause__, UsageError)
    again = pickle.loads(pickle.dumps(caught.value))  # a worker process sends it back so
    assert (type(again), str(again)) == (ItemError, str(caught.value))


def test_a_programming_error_keeps_its_traceback_with_the_item_noted() -> None:
    with pytest.raises(KeyError) as caught:
        with naming("content/lessons/a.yaml:9", "visual 'v'"):
            raise KeyError("weights")
    assert report(caught.value)[-1] == "while making visual 'v' (content/lessons/a.yaml:9)"
