"""The paperdeck command line: contracts of DESIGN.md, run in-process."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from generator.cli import cli, main
from generator.commands.options import PROGRESS_FROM
from generator.problems import all_types

from .pdf_text import pdf_text

pytestmark = pytest.mark.long  # handed out to a worker early: tests/conftest.py


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_check_passes_on_the_shipped_content(capsys) -> None:
    code, out, err = run(capsys, "check")
    assert code == 0, err
    assert out.startswith("ok: 12 lessons")


def test_list_shows_lessons_in_order_types_and_recipes(capsys) -> None:
    code, out, _ = run(capsys, "list")
    assert code == 0
    assert " 1. " in out and "12. " in out
    assert out.index("Why") < out.index("Scaled Dot-Product Attention") < out.index("Putting")
    for type_id, problem_type in all_types().items():
        assert f"{type_id}" in out and problem_type.description in out
    assert "aiayn  (deck" in out
    quizzes = re.findall(r"\(quiz: (Quiz \d+)", out)
    assert quizzes == ["Quiz 1", "Quiz 2", "Quiz 3", "Quiz 4"]  # by title, not by file name


def test_list_orders_numbers_in_titles_by_value() -> None:
    from generator.commands.list import _natural

    titles = ["Quiz 10: Later", "Quiz 2: Heads", "quiz 1: Start", "Final"]
    assert sorted(titles, key=_natural) == ["Final", "quiz 1: Start", "Quiz 2: Heads", "Quiz 10: Later"]


def test_problems_json_is_reproducible_and_each_seed_regenerates_its_problem(capsys) -> None:
    code, first, _ = run(capsys, "problems", "sdpa", "-n", "3", "--seed", "42", "--format", "json")
    assert code == 0
    _, again, _ = run(capsys, "problems", "sdpa", "-n", "3", "--seed", "42", "--format", "json")
    assert first == again
    problems = json.loads(first)
    assert [p["id"] for p in problems] == ["sdpa-000001", "sdpa-000002", "sdpa-000003"]
    assert set(problems[0]) >= {
        "id",
        "type",
        "seed",
        "difficulty",
        "prompt",
        "given",
        "steps",
        "answer",
        "tolerance",
    }
    second = problems[1]
    _, alone, _ = run(
        capsys, "problems", "sdpa", "--problem-seed", str(second["seed"]), "-d", "easy", "--format", "json"
    )
    regenerated = json.loads(alone)[0]
    regenerated.pop("id"), second.pop("id")
    assert regenerated == second


def test_problems_without_seed_prints_the_fresh_seed(capsys) -> None:
    code, out, err = run(capsys, "problems", "softmax", "-n", "1", "--format", "json")
    seed = int(err.split()[-1])
    _, again, _ = run(capsys, "problems", "softmax", "-n", "1", "--seed", str(seed), "--format", "json")
    assert code == 0 and out == again


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_problems_text_formats_show_prompt_steps_and_answer(capsys, fmt: str) -> None:
    code, out, _ = run(capsys, "problems", "sdpa", "-n", "1", "--seed", "1", "--format", fmt)
    assert code == 0
    assert "Compute" in out and "Softmax along each row" in out and "output" in out


@pytest.mark.parametrize(
    "args, message",
    [
        (["problems", "attention"], "paperdeck: unknown problem type 'attention'; choose from "),
        (["practice", "sdpa", "-o", "x.docx"], "paperdeck: cannot write x.docx: an Anki practice set is"),
        (["deck", "nope"], "paperdeck: no deck recipe 'nope'; choose from aiayn"),
        (["practice", "sdpa", "sdpa", "-o", "x.apkg"], "paperdeck: each problem type once, please"),
        (
            ["practice", "sdpa", "-n", "1000000000", "-o", "x.pdf"],
            "paperdeck: 1,000,000,000 problems is more than 50,000 on one sheet; ask for fewer problems",
        ),
        (
            ["practice", "sdpa", "-n", "2000", "-o", "x.apkg"],
            "paperdeck: 2000 problems × 31 variants is more than 50,000 problems in one Anki set",
        ),
        (["problems", "sdpa", "--difficulty", "extreme"], "Error: Invalid value for '--difficulty'"),
        (["problems", "sdpa", "-n", "-3"], "Error: Invalid value for '-n'"),
        (["problems", "sdpa", "-n", "0"], "Error: Invalid value for '-n': 0 is not in the range x>=1"),
        (["problems", "residual-blok"], "paperdeck: unknown problem type 'residual-blok'; choose from "),
        (
            ["problems", "sofmax"],
            "paperdeck: unknown problem type 'sofmax' (did you mean 'softmax'?); choose from ",
        ),
        (
            ["practice", "spda", "sofmax", "-o", "x.pdf"],
            "paperdeck: unknown problem type 'spda' (did you mean 'sdpa'?); choose from ",
        ),
        (
            ["practice", "spda", "sofmax", "-o", "x.pdf"],
            "\npaperdeck: unknown problem type 'sofmax' (did you mean 'softmax'?); choose from ",
        ),
        (
            ["problems", "sdpa", "--problem-seed", "5", "-n", "3"],
            "paperdeck: --problem-seed regenerates one problem; -n is for a set of them",
        ),
        (
            ["problems", "sdpa", "--problem-seed", "5", "--seed", "3"],
            "paperdeck: --problem-seed regenerates one problem; --seed is for a set of them",
        ),
        (
            ["problems", "sdpa", "--problem-seed", "3797811947"],
            "paperdeck: --problem-seed 3797811947 needs the problem's difficulty, as its card, sheet or key shows"
            " it: paperdeck problems sdpa --problem-seed 3797811947 -d easy|medium|hard\n",
        ),
    ],
)
def test_user_errors_exit_2_with_one_clear_line(capsys, args: list[str], message: str) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_a_problem_seed_with_its_difficulty_regenerates_that_problem(capsys) -> None:
    from generator.problems import generate

    medium = next(iter(generate("sdpa", 1, 11, "medium")))
    code, out, _ = run(
        capsys, "problems", "sdpa", "--problem-seed", str(medium.seed), "-d", "medium", "--format", "json"
    )
    assert code == 0 and json.loads(out)[0]["given"] == medium.given


def test_problems_help_lists_the_types(capsys) -> None:
    code, out, _ = run(capsys, "problems", "--help")
    assert code == 0
    listed = out.split("Problem types:")[1]
    assert all(re.search(rf"^  {re.escape(type_id)} ", listed, re.M) for type_id in all_types())


def test_every_command_has_help_with_an_example(capsys) -> None:
    for name in cli.commands:
        code, out, _ = run(capsys, name, "--help")
        assert code == 0
        assert "Example:" in out and f"paperdeck {name}" in out, name


def test_bundled_content_is_used_outside_a_project(capsys, tmp_path: Path) -> None:
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        code, out, _ = run(capsys, "check")
    finally:
        os.chdir(here)
    assert code == 0 and "bundled" in out


def test_project_option_must_hold_content(capsys, tmp_path: Path) -> None:
    code, _, err = run(capsys, "--project", str(tmp_path), "check")
    assert code == 2 and "has no content/ folder" in err


def test_practice_sheet_and_anki_set_hold_the_same_problems(capsys, tmp_path: Path) -> None:
    import sqlite3
    import zipfile

    code, out, _ = run(capsys, "problems", "sdpa", "-n", "3", "--seed", "9", "--format", "json")
    seeds = [str(p["seed"]) for p in json.loads(out)]
    assert run(capsys, "practice", "sdpa", "-n", "3", "--seed", "9", "-o", str(tmp_path / "s.pdf"))[0] == 0
    assert run(capsys, "practice", "sdpa", "-n", "3", "--seed", "9", "-o", str(tmp_path / "s.apkg"))[0] == 0
    text = pdf_text(tmp_path / "s.pdf")
    assert all(seed in text for seed in seeds)
    with zipfile.ZipFile(tmp_path / "s.apkg") as package:
        (tmp_path / "c.anki2").write_bytes(package.read("collection.anki2"))
    rows = sqlite3.connect(tmp_path / "c.anki2").execute("select flds from notes")
    fields = [row[0].split("\x1f") for row in rows]
    assert sorted(seeds) == sorted(next(f for f in row if f in seeds) for row in fields)


def _on_a_terminal(*args: str) -> str:
    """What paperdeck prints when stdout and stderr are a terminal (a pseudo-terminal here)."""
    import pty
    import subprocess
    import sys

    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "generator.cli", *args],
        stdout=follower,
        stderr=follower,
        stdin=subprocess.DEVNULL,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 4096)
        except OSError:  # the pseudo-terminal closes when the process ends
            break
        if not data:
            break
        chunks.append(data)
    process.wait(timeout=120)
    os.close(leader)
    return b"".join(chunks).decode(errors="replace")


def test_long_practice_shows_a_progress_bar_only_on_a_terminal(capsys, tmp_path: Path) -> None:
    # The shortest set that shows a bar, one variant each: 200 problems, not 400 × 31.
    args = [
        "practice",
        "softmax",
        "-n",
        str(PROGRESS_FROM),
        "--variants",
        "1",
        "--seed",
        "1",
        "-o",
        str(tmp_path / "p.apkg"),
    ]
    shown = _on_a_terminal(*args)
    assert "softmax problems" in shown and "100%" in shown
    assert "[#" not in _on_a_terminal(*args, "--quiet")
    code, _, err = run(capsys, *args)
    assert code == 0 and "[#" not in err and "%" not in err


def test_verbose_says_what_is_built(capsys, tmp_path: Path) -> None:
    # A project from `paperdeck new` (a deck and a quiz) says the same as the shipped
    # paper's at a fraction of its build (tests/test_build.py builds the shipped one).
    project = (tmp_path / "paper").resolve()
    assert run(capsys, "new", str(project), "--title", "A Small Paper")[0] == 0
    out = tmp_path / "out"
    out.mkdir()  # a named folder outside the current one must exist
    code, _, err = run(capsys, "--project", str(project), "build", "--seed", "1", "--out", str(out), "-v")
    assert code == 0
    assert "building deck a-small-paper" in err and f"wrote {out / 'a-small-paper.apkg'}" in err
    code, _, err = run(capsys, "--project", str(project), "build", "--seed", "1", "--out", str(out))
    recipes = len(list((project / "decks").glob("*.yaml")))
    summary = (
        rf"project {re.escape(str(project))}\n"
        rf"built {recipes} recipes into {re.escape(str(out))} \(\d+ files\)\n"
    )
    assert code == 0 and re.fullmatch(summary, err)


def test_bundled_paper_builds_into_the_current_folder(capsys, tmp_path: Path) -> None:
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        code, _, err = run(capsys, "deck", "--seed", "1")
    finally:
        os.chdir(here)
    assert code == 0, err
    assert (tmp_path / "out" / "aiayn.apkg").is_file()
