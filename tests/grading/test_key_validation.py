"""A hand-edited, damaged or foreign quiz key is a one-line error naming the file and the
field, never a traceback and never grading by guessing (negative points, a letter the
form does not print, a tolerance that is not a number)."""

from __future__ import annotations

import copy
import gc
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from generator.cli import main
from generator.errors import InputError
from generator.grading.key import read_key

from .classroom import write_key

# Form A of the 3-form key of write_key (seed 11): question 1 is true/false, 3 multiple
# choice, 9 short answer, 12 numeric, 13 a softmax problem.
TF, MC, SHORT, NUMERIC, PROBLEM = 0, 2, 8, 11, 12


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = write_key(tmp_path_factory.mktemp("key") / "quiz-key.json")
    return json.loads(path.read_text(encoding="utf-8"))


def _question(index: int, change: Callable[[dict[str, Any]], Any]) -> Callable[[dict[str, Any]], Any]:
    return lambda key: change(key["form_keys"][0]["questions"][index])


Q = "form_keys[0].questions"
CASES: list[tuple[str, Callable[[dict[str, Any]], Any], str]] = [
    ("form without label", lambda k: k["form_keys"][0].pop("label"), "form_keys[0].label: missing"),
    ("form_keys a number", lambda k: k.update(form_keys=5), "form_keys: expected a list, got 5"),
    ("forms does not match", lambda k: k.update(forms=4), "forms: says 4 forms but form_keys holds 3"),
    (
        "points as text",
        _question(TF, lambda q: q.update(points="inf")),
        f'{Q}[0].points: expected a number, got "inf"',
    ),
    (
        "negative points",
        _question(TF, lambda q: q.update(points=-2)),
        f"{Q}[0].points: must be a number from 0 to 1,000 (as content allows), got -2",
    ),
    (
        "points past content's cap",
        _question(TF, lambda q: q.update(points=1e200)),
        f"{Q}[0].points: must be a number from 0 to 1,000 (as content allows), got 1e+200",
    ),
    (
        "choice answer not printed",
        _question(MC, lambda q: q.update(answer="Z")),
        f"{Q}[2].answer: 'Z' is not among the printed letters A, B, C, D",
    ),
    (
        "mistake letter not printed",
        _question(MC, lambda q: q["mistakes"][0].update(letter="Q")),
        f"{Q}[2].mistakes[0].letter: 'Q' is not among the printed letters A, B, C, D",
    ),
    (
        "tolerance as text",
        _question(NUMERIC, lambda q: q.update(tolerance={"abs": "nan"})),
        f'{Q}[11].tolerance.abs: expected a number, got "nan"',
    ),
    (
        "negative tolerance",
        _question(PROBLEM, lambda q: q.update(tolerance={"rel": -0.1})),
        f"{Q}[12].tolerance.rel: must be a finite number of 0 or more, got -0.1",
    ),
    (
        "numeric answer as text",
        _question(NUMERIC, lambda q: q.update(answer="3")),
        f"{Q}[11].answer: not a number, vector or matrix: 3",
    ),
    (
        "unknown difficulty",
        _question(PROBLEM, lambda q: q.update(difficulty="extreme")),
        f"{Q}[12].difficulty: expected one of easy, medium, hard, got 'extreme'",
    ),
    (
        "problem without its primary",
        _question(PROBLEM, lambda q: q.update(primary="output")),
        f"{Q}[12].answer: has no 'output', the primary result",
    ),
    (
        "unknown kind",
        _question(SHORT, lambda q: q.update(kind="essay")),
        f"{Q}[8].kind: unknown kind 'essay' (expected one of multiple_choice, true_false, numeric, "
        "short_answer, problem)",
    ),
    (
        "number twice",
        _question(SHORT, lambda q: q.update(number=1)),
        f"{Q}[8].number: question 1 is listed twice",
    ),
    ("a question without its kind", _question(SHORT, lambda q: q.clear()), f"{Q}[8].kind: missing"),
    (
        "a form pointing at another form's seed",
        lambda k: k["form_keys"][0]["questions"][PROBLEM].update(
            problem_seed=k["form_keys"][1]["questions"][PROBLEM]["problem_seed"]
        ),
        "form A, question 13: its seed regenerates a softmax problem whose answer is not the key's: the key "
        "was edited or mixes forms; grade with the key paperdeck quiz wrote",
    ),
    (
        "a problem pointing at another type",
        _question(PROBLEM, lambda q: q.update(problem_type="layer-norm")),
        "form A, question 13: its seed regenerates a layer-norm problem whose answer is not the key's: the key "
        "was edited or mixes forms; grade with the key paperdeck quiz wrote",
    ),
    (
        "a problem of a type not known here",
        _question(PROBLEM, lambda q: q.update(problem_type="my-type")),
        "form A, question 13: problem type 'my-type' is not known here; grade in the project the quiz was "
        "printed from",
    ),
    (
        "two forms with one code",
        lambda k: k["form_keys"][1].update(code=k["form_keys"][0]["code"]),
        "form_keys[1].code: the code of form A too",
    ),
]


def _check(tmp_path: Path, good: dict[str, Any], change: Callable[[dict[str, Any]], Any]) -> tuple[Path, str]:
    key = copy.deepcopy(good)
    change(key)
    path = tmp_path / "quiz-key.json"
    path.write_text(json.dumps(key), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_key(path)
    return path, str(caught.value)


@pytest.mark.parametrize(("name", "change", "message"), CASES, ids=[c[0] for c in CASES])
def test_a_damaged_key_is_one_line_naming_the_field(
    tmp_path: Path, good, name: str, change, message: str
) -> None:
    path, error = _check(tmp_path, good, change)
    assert error == f"{path}: {message}"


def test_the_grade_command_says_it_in_one_line_and_exits_2(tmp_path: Path, good, capsys) -> None:
    path, _ = _check(tmp_path, good, _question(TF, lambda q: q.update(points="inf")))
    responses = tmp_path / "responses.csv"
    responses.write_text("student,form,1\nAda,A,a\n", encoding="utf-8")
    assert main(["-q", "grade", str(path), str(responses)]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [f'paperdeck: {path}: {Q}[0].points: expected a number, got "inf"']


def test_the_unchanged_key_reads(tmp_path: Path, good) -> None:
    path = tmp_path / "quiz-key.json"
    path.write_text(json.dumps(good), encoding="utf-8")
    key = read_key(path)
    assert list(key.forms) == ["A", "B", "C"] and key.forms["A"].questions[3].letters == ("A", "B", "C", "D")


def test_reading_a_key_leaves_the_cyclic_collector_as_it_found_it(tmp_path: Path, good) -> None:
    """read_key pauses Python's collector while it reads (a key is a million objects, none in a
    cycle); afterwards, read or refused, the collector is back as it was."""
    bad, _ = _check(tmp_path, good, _question(PROBLEM, lambda q: q.update(problem_type="layer-norm")))
    path = tmp_path / "good-key.json"
    path.write_text(json.dumps(good), encoding="utf-8")
    assert gc.isenabled()
    read_key(path)
    assert gc.isenabled()
    with pytest.raises(InputError):
        read_key(bad)
    assert gc.isenabled()
    gc.disable()
    try:
        read_key(path)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_responses_with_the_codes_of_another_run_are_not_graded(tmp_path: Path, good, capsys) -> None:
    """Forms named by their printed code: a key of another run (another seed) has other codes."""
    other = write_key(tmp_path / "other-key.json", seed=12)
    codes = [form["code"] for form in good["form_keys"]]
    responses = tmp_path / "responses.csv"
    responses.write_text(f"student,form,1\nAda,{codes[0]},a\n", encoding="utf-8")
    assert main(["-q", "grade", str(other), str(responses)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"paperdeck: {responses}:2: column form: form code {codes[0]!r} is not in {other}: "
        "the key is of another run of the quiz; give the key written with these forms"
    ]


@pytest.mark.parametrize("kind", ["named pipe", "folder", "link to /dev/zero"])
def test_a_key_that_is_not_a_regular_file_is_one_line_without_waiting(
    tmp_path: Path, capsys, kind: str
) -> None:
    import os

    path = tmp_path / "quiz-key.json"
    if kind == "named pipe":
        os.mkfifo(path)  # opening it for reading would wait for a writer for ever
    elif kind == "folder":  # the command line refuses it first; read_key too
        path.mkdir()
        with pytest.raises(InputError, match="quiz-key.json: a folder; give the <quiz>-key.json"):
            read_key(path)
        return
    else:
        path.symlink_to("/dev/zero")  # reading it would fill memory
    responses = tmp_path / "responses.csv"
    responses.write_text("student,form,1\nAda,A,a\n", encoding="utf-8")
    assert main(["-q", "grade", str(path), str(responses)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"paperdeck: {path}: not a regular file; give the <quiz>-key.json that paperdeck quiz wrote"
    ]
