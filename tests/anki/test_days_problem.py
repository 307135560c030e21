"""The day's problem of a Problem card and a practice block (``generator/today.js``), run in Node
over a year for the notes of every problem type: a different problem each day, and a different
question from the day before's wherever the note's questions allow it."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter

import pytest

from generator import problems, shared_script
from generator.content.recipes import ProblemSet
from generator.documents import items
from generator.exporters.anki.notes import _problem_fields

from .conftest import make_content

NODE = shutil.which("node")
DAYS = range(20_000, 20_365)  # a year of days since 1970, in 2024 and 2025

PICKS = """const today = require(process.argv[1]);
const notes = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const days = JSON.parse(process.argv[2]);
console.log(JSON.stringify(notes.map(([id, questions]) => [
  days.map(d => today.pick(id, questions.length, d, questions)),
  days.map(d => today.pick(id, questions.length, d))])));"""
"""Each note's pick on each day, with its questions and without (the plain walk)."""


@pytest.fixture(scope="module")
def notes() -> list[tuple[str, list[str]]]:
    """(id, each problem's Prompt field) of two medium notes of every problem type."""
    sets = [ProblemSet(type_id, 2, "medium") for type_id in sorted(problems.all_types())]
    deck = items.build_practice(make_content(), sets, seed=11)
    return [
        (item.key, [_problem_fields(v, c)["Prompt"] for v, c in zip(item.variants, item.checks, strict=True)])
        for item in deck.items
    ]


@pytest.fixture(scope="module")
def picks(notes, tmp_path_factory) -> list[tuple[list[int], list[int]]]:
    assert NODE is not None, "Node.js is needed to run the card script (apt-get install nodejs)"
    script = tmp_path_factory.mktemp("today") / "today.js"
    script.write_text(shared_script("today.js"), encoding="utf-8")
    done = subprocess.run(
        [NODE, "-e", PICKS, str(script), json.dumps(list(DAYS))],
        input=json.dumps(notes),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def test_a_note_shows_each_of_its_problems_once_before_any_again(notes, picks) -> None:
    for (key, questions), (shown, _) in zip(notes, picks, strict=True):
        n = len(questions)
        for start in range(0, len(shown) - n, n):
            assert sorted(shown[start : start + n]) == list(range(n)), key


def test_no_day_asks_the_question_of_the_day_before(notes, picks) -> None:
    """Where a note has no question on more than half its problems; mha-shapes has 6 questions
    among its 31 problems, and the plain walk asked the day before's question on 1 day in 7."""

    def asked_again(questions: list[str], days: list[int]) -> int:
        return sum(questions[a] == questions[b] for a, b in zip(days, days[1:], strict=False))

    repeats, plain_repeats = {}, 0
    for (key, questions), (shown, plain) in zip(notes, picks, strict=True):
        if max(Counter(questions).values()) <= len(questions) // 2:
            repeats[key] = asked_again(questions, shown)
        plain_repeats += asked_again(questions, plain)
    assert {key: n for key, n in repeats.items() if n} == {}
    assert plain_repeats > 0, "no note repeats a question: untested"


def test_a_note_whose_questions_all_differ_walks_as_before(notes, picks) -> None:
    """Its problem of the day is the plain walk's, as before questions were passed."""
    for (key, questions), (shown, plain) in zip(notes, picks, strict=True):
        if len(set(questions)) == len(questions):
            assert shown == plain, key
