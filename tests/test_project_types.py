"""A project's own problem types: a ``problems/`` folder beside ``content/``.

A tiny project about another paper defines ``vector-mean`` in
``problems/vector_mean.py`` and uses it in a worked example and a deck recipe;
its problems are tagged with that project's sections, and a built-in type used
by that paper claims none of the Transformer's.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from generator import problems
from generator.cli import main
from generator.documents.items import build_deck
from generator.errors import ContentError
from generator.project import open_project

TYPE_MODULE = '''
"""The mean of a vector: the first step of a normalisation."""

from generator.problems import ProblemType, Solution, Step, Tolerance, register


def pick(rng, difficulty):
    return {"x": rng.integers(-5, 6, size=4).tolist()}


def solve(given):
    x = [float(v) for v in given["x"]]
    mean = sum(x) / len(x)
    return Solution({"mean": mean}, (Step("Add and divide by n", rf"\\mu = {mean:g}"),))


def prompt(given):
    return rf"Give the mean of \\(x = {given['x']}\\)."


register(ProblemType(
    id="vector-mean", description="Mean of a vector", pick=pick, solve=solve, prompt=prompt,
    tolerance=Tolerance(abs=0.01), primary="mean", source="S2", work_space_cm=2,
))
'''

LESSON = """\
id: means
title: Means
sources: [S2]
text: The mean of \\(x\\) is its sum over its length.
worked_examples:
  - id: mean-of-four
    title: The mean of four numbers
    source: S2
    problem: vector-mean
    given: {x: [1, 2, 3, 6]}
    steps: [Add them up and divide by 4.]
    result: {mean: 3}
"""


def make_project(root: Path, module: str = TYPE_MODULE) -> Path:
    (root / "content" / "lessons").mkdir(parents=True)
    (root / "decks").mkdir()
    (root / "problems").mkdir()
    (root / "content" / "paper.yaml").write_text(
        textwrap.dedent("""\
        id: tiny
        title: A Tiny Paper
        authors: [A. Author]
        year: 2020
        arxiv: "2001.00001"
        lessons: [means]
        """)
    )
    (root / "content" / "lessons" / "means.yaml").write_text(LESSON)
    (root / "decks" / "tiny.yaml").write_text(
        textwrap.dedent("""\
        kind: deck
        title: Tiny
        problems:
          - type: vector-mean
            count: 2
          - type: layer-norm
            count: 1
        """)
    )
    (root / "problems" / "vector_mean.py").write_text(module)
    return root


def test_a_project_type_checks_worked_examples_and_tags_with_its_own_sections(tmp_path: Path) -> None:
    project = open_project(make_project(tmp_path))
    deck = build_deck(project.content, project.recipes["tiny"], seed=1)
    made = [item for item in deck.items if item.kind == "problem"]
    mean, norm = made[0], made[-1]
    assert mean.source == "S2" and "tiny::s2" in mean.tags
    assert norm.source == "problem type layer-norm"
    assert not any(tag.startswith("tiny::s") for tag in norm.tags)  # no claim on the Transformer's S3.1
    assert norm.tags == ("tiny::problem::layer-norm", "tiny::difficulty::easy")


def test_a_recipe_can_name_where_its_paper_teaches_a_built_in_type(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    recipe = root / "decks" / "tiny.yaml"
    recipe.write_text(recipe.read_text() + "    source: S2\n")
    project = open_project(root)
    norm = build_deck(project.content, project.recipes["tiny"], seed=1).items[-1]
    assert norm.source == "S2" and norm.tags[0] == "tiny::s2"


def test_the_attention_paper_keeps_its_sections_for_built_in_types() -> None:
    project = open_project(Path(__file__).parents[1])
    deck = build_deck(project.content, project.deck_recipe(None), seed=1)
    norm = next(item for item in deck.items if item.kind == "problem" and item.body.type == "layer-norm")
    assert norm.source == "S3.1" and "aiayn::s3.1" in norm.tags


def test_project_type_works_from_the_command_line(tmp_path: Path, capsys) -> None:
    root = make_project(tmp_path)
    assert main(["--project", str(root), "check"]) == 0
    assert main(["--project", str(root), "problems", "vector-mean", "-n", "1", "--seed", "3"]) == 0
    assert "Give the mean" in capsys.readouterr().out
    assert main(["--project", str(root), "deck", "-o", str(tmp_path / "tiny.apkg"), "--seed", "1"]) == 0
    assert (tmp_path / "tiny.apkg").is_file()


def test_types_of_a_project_leave_with_it(tmp_path: Path) -> None:
    open_project(make_project(tmp_path))
    assert "vector-mean" in problems.all_types()
    open_project(Path(__file__).parents[1])
    assert "vector-mean" not in problems.all_types()


@pytest.mark.parametrize(
    "module, expected",
    [
        (
            "import nothing_here\n",
            "problems/vector_mean.py:1: cannot load this problem type module: "
            "ModuleNotFoundError: No module named 'nothing_here'",
        ),
        (
            "def broken(:\n",
            "problems/vector_mean.py:1: cannot load this problem type module: SyntaxError: invalid syntax …",
        ),
        (
            TYPE_MODULE.replace('id="vector-mean"', 'id="softmax"'),
            "problems/vector_mean.py:21: cannot load this problem type module: "
            "ValueError: problem type 'softmax' is taken (built in or in another module); choose another id",
        ),
        (
            TYPE_MODULE.replace('source="S2"', 'source="Section 2"'),
            "problems/vector_mean.py: source: vector-mean: expected a label like S3.2.1 or S3.E1, got 'Section 2'",
        ),
    ],
)
def test_a_broken_type_module_is_named(tmp_path: Path, module: str, expected: str) -> None:
    with pytest.raises(ContentError) as caught:
        open_project(make_project(tmp_path, module))
    message = str(caught.value)
    assert message.startswith(expected[:-1]) if expected.endswith("…") else message == expected


RESIDUAL_MODULE = '''
"""A residual block y = x + F(x) with F(x) = relu(w x): often F(x) = 0 and y = x."""

from generator.problems import Distractor, ProblemType, Solution, Step, Tolerance, register


def pick(rng, difficulty):
    return {"x": rng.integers(-3, 4, size=2).tolist(), "w": int(rng.integers(-2, 3))}


def solve(given):
    f = [max(0, given["w"] * v) for v in given["x"]]
    y = [v + fv for v, fv in zip(given["x"], f)]
    mistakes = (Distractor("forgot the skip connection", {"y": f}),) if NAMED else ()
    return Solution({"y": y}, (Step("Add F(x)", "y = x + F(x)"),), mistakes)


def prompt(given):
    return (rf"Give \\\\(y = x + \\\\max(0, w x)\\\\) for \\\\(x = {given['x']}\\\\),"
            rf" \\\\(w = {given['w']}\\\\).")


register(ProblemType(
    id="residual-block", description="A residual block", pick=pick, solve=solve, prompt=prompt,
    tolerance=Tolerance(abs=0.5), primary="y", source="S2", work_space_cm=2,
))
'''
QUIZ = """\
kind: quiz
title: Residuals
calculator: true
sections:
  - title: Blocks
    problems: {type: residual-block, count: 4}
"""


def residual_project(root: Path, named: bool) -> Path:
    make_project(root)
    (root / "problems" / "residual_block.py").write_text(f"NAMED = {named}\n" + RESIDUAL_MODULE)
    (root / "decks" / "quiz.yaml").write_text(QUIZ)
    return root


def test_check_warns_about_a_type_without_named_mistakes(tmp_path: Path, capsys) -> None:
    root = residual_project(tmp_path, named=False)
    assert main(["--project", str(root), "check"]) == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if "warning" in line]
    assert warnings == [
        f"problems/{name}.py: {type_id}: warning: solve returns no named mistakes (Distractor), so quiz keys,"
        " the card's common mistakes, grading's mistake detection and remedial decks have none for this"
        " type (docs/authoring.md: Named mistakes)"
        for name, type_id in (("residual_block", "residual-block"), ("vector_mean", "vector-mean"))
    ]


def test_stress_warns_about_a_type_without_named_mistakes_and_counts_degenerate_draws(
    tmp_path: Path, capsys
) -> None:
    root = residual_project(tmp_path, named=False)
    assert main(["--project", str(root), "stress", "quiz", "--forms", "50", "--seed", "1"]) == 2
    out = capsys.readouterr().out
    assert (
        "WARNING residual-block: none of its 200 problems has a named mistake (solve returns no Distractor)"
    ) in out
    degenerate = [line for line in out.splitlines() if line.startswith("  no degenerate numbers")]
    assert int(degenerate[0].split()[-1]) > 0  # draws with F(x) = 0, where y is the given x
    assert "y equals the given x (the computation changes nothing)" in out
    assert re.search(r"degenerate draws of residual-block: \d+ of 200 problems", out)


def test_a_type_with_named_mistakes_gets_no_warning(tmp_path: Path, capsys) -> None:
    root = residual_project(tmp_path, named=True)
    assert main(["--project", str(root), "check"]) == 0
    assert "residual-block: warning" not in capsys.readouterr().err


def test_the_named_mistakes_example_of_the_reference_works_as_written(tmp_path: Path, capsys) -> None:
    from generator.project import reference as docs

    code = re.search(r"```python\n(.*?)```", docs.NAMED_MISTAKES, re.S)[1]
    root = make_project(tmp_path)
    (root / "problems" / "residual_block.py").write_text(code)
    (root / "decks" / "quiz.yaml").write_text(QUIZ)
    assert main(["--project", str(root), "check"]) == 0
    assert "residual-block: warning" not in capsys.readouterr().err
    for problem in problems.generate("residual-block", 50, 1, "easy"):
        assert len(problem.distractors) == 2
    assert main(["--project", str(root), "stress", "quiz", "--forms", "30", "--seed", "2"]) == 0
    assert "VIOLATION" not in capsys.readouterr().out


def test_an_error_while_building_names_the_item_it_was_building(tmp_path: Path, capsys) -> None:
    """The CLI prints the whole error: the message, then what was being built (issue 22)."""
    module = TYPE_MODULE.replace(
        "def pick(rng, difficulty):\n",
        "def pick(rng, difficulty):\n"
        "    if difficulty == 'hard':\n"
        "        from generator.errors import ProblemInputError\n"
        "        raise ProblemInputError('difficulty', 'vector-mean has no hard problems')\n",
    )
    root = make_project(tmp_path, module)
    recipe = root / "decks" / "tiny.yaml"
    recipe.write_text(recipe.read_text().replace("count: 2\n", "count: 2\n    difficulty: hard\n", 1))
    assert main(["--project", str(root), "deck", "-o", str(tmp_path / "tiny.apkg")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[-2:] == [
        "paperdeck: difficulty: vector-mean has no hard problems",
        "paperdeck: while generating the hard vector-mean problems of 'tiny'",
    ]
    assert not (tmp_path / "tiny.apkg").exists()


def test_the_anki_exporter_names_the_note_it_was_building(tmp_path: Path) -> None:
    from generator.errors import ItemError, report
    from generator.exporters import ExportOptions, anki

    project = open_project(make_project(tmp_path))
    deck = build_deck(project.content, project.recipes["tiny"], seed=1)
    open_project(Path(__file__).parents[1])  # the project's types leave with it
    with pytest.raises(ItemError) as caught:
        anki.build_package(deck, ExportOptions(figures=tmp_path / "figures"))
    first = next(item for item in deck.items if item.kind == "problem")
    [said] = report(caught.value)
    assert said.startswith(
        f"problem {first.key!r} (vector-mean, seed {first.body.seed}): unknown problem type 'vector-mean'; "
    )


@pytest.mark.parametrize(
    "module, expected",
    [
        (
            TYPE_MODULE.replace('primary="mean"', 'primary="maen"'),
            "problems/vector_mean.py:23: primary: vector-mean: 'maen' is no answer solve returns (did you mean"
            " 'mean'?); its answers: mean",
        ),
        (
            TYPE_MODULE.replace("    mean = sum(x) / len(x)\n", "    mean = sum(x) / (len(x) - 4)\n"),
            "content/lessons/means.yaml:10: worked_examples[0].given: vector-mean: solve raised ZeroDivisionError:"
            " float division by zero (problems/vector_mean.py:13)",
        ),
        (
            TYPE_MODULE.replace('    return {"x"', '    return {"x": rng.integers(4).tolist(), "n"'),
            "problems/vector_mean.py:12: vector-mean: solve raised TypeError: 'int' object is not iterable",
        ),
        (
            TYPE_MODULE.replace('    return rf"Give', "    return given['y'] + rf\"Give"),
            "problems/vector_mean.py:18: vector-mean: prompt raised KeyError: 'y'",
        ),
    ],
)
@pytest.mark.parametrize("command", ["check", "build"])
def test_check_and_build_run_each_project_type_and_name_the_line_that_fails(
    tmp_path: Path, capsys, module: str, expected: str, command: str
) -> None:
    """A typo in ``primary`` or an exception in the type's own code: one line naming the file and
    the line, exit 2, before anything is built (it was a traceback of 40 to 60 lines in build)."""
    root = make_project(tmp_path, module)
    assert main(["--project", str(root), command]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [f"paperdeck: {expected}"]
    assert not (root / "out").exists()


_TO_TWO = TYPE_MODULE.replace("Give the mean of", "To two decimals, give the mean of")


@pytest.mark.parametrize(
    "module, expected",
    [
        (
            _TO_TWO,
            "problems/vector_mean.py:22: precision: vector-mean: the prompt asks for 2 decimals and no"
            " precision is declared; declare it: precision=Precision(decimals=2)",
        ),
        (
            _TO_TWO.replace("work_space_cm=2,", "work_space_cm=2,\n    precision=Precision(decimals=3),"),
            "problems/vector_mean.py:24: precision: vector-mean: the prompt asks for 2 decimals,"
            " its precision is 3 decimals",
        ),
        (
            TYPE_MODULE.replace("Give the mean of", "To one decimal, give the mean of").replace(
                "work_space_cm=2,", "work_space_cm=2,\n    precision=Precision(decimals=1),"
            ),
            "problems/vector_mean.py:24: precision: vector-mean: its tolerance rejects {mean} rounded to"
            " 1 decimal: it accepts 0.01 around it, half a unit of the last place is 0.05",
        ),
        (
            TYPE_MODULE.replace("work_space_cm=2,", "work_space_cm=2,\n    precision=Precision(decimals=2),"),
            "problems/vector_mean.py:24: precision: vector-mean: state the precision in the prompt"
            ' ("Give 2 decimals")',
        ),
    ],
)
def test_a_project_types_precision_is_data_its_prompt_words_agree_with(
    tmp_path: Path, capsys, module: str, expected: str
) -> None:
    module = module.replace("import ProblemType,", "import Precision, ProblemType,")
    root = make_project(tmp_path, module)
    assert main(["--project", str(root), "check"]) == 2
    first = next(iter(problems.generate("vector-mean", 1, 0, "easy")))  # the audit's first draw
    expected = expected.replace("{mean}", f"{first.answer['mean']:g}")
    assert capsys.readouterr().err.splitlines() == [f"paperdeck: {expected}"]


def test_a_project_types_key_prints_its_declared_precision(tmp_path: Path, capsys) -> None:
    module = _TO_TWO.replace("work_space_cm=2,", "work_space_cm=2,\n    precision=Precision(decimals=2),")
    root = make_project(tmp_path, module.replace("import ProblemType,", "import Precision, ProblemType,"))
    assert main(["--project", str(root), "problems", "vector-mean", "-n", "1", "--seed", "3"]) == 0
    problem = next(iter(problems.generate("vector-mean", 1, 3)))
    assert problem.precision is not None and problem.precision.decimals == 2
    key = f"{problem.answer['mean']:.2f}"
    assert f"mean = {key}" in capsys.readouterr().out
