"""A new problem type is one module plus its tests.

The type below is defined here, registered for the length of a test, and then
reaches every consumer (``get``, ``generate``, ``generate_one``, JSON, the PDF's
work space, the Anki heatmap, a quiz's exponentials) with nothing else edited;
the fixture restores the registry afterwards, so no other test sees it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from generator import problems
from generator.content.recipes import ProblemSet
from generator.documents import quiz
from generator.documents.items import Deck, problem_items
from generator.errors import UsageError
from generator.exporters import practice_sheet, print_items
from generator.exporters.anki import notes
from generator.exporters.problem_text import json_stream
from generator.problems import registry
from generator.problems.inputs import check_keys, matrix
from generator.problems.latex import matrix as latex_matrix

TYPE_ID = "toy-causal-softmax"
_SIZES = {"easy": 2, "medium": 3, "hard": 4}


def _allowed(n: int) -> np.ndarray:
    return np.tri(n, dtype=bool)


def _softmax_rows(scores: np.ndarray) -> np.ndarray:
    shifted = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


def pick(rng: np.random.Generator, difficulty: str) -> dict[str, Any]:
    n = _SIZES[difficulty]
    return {"S": rng.integers(-2, 3, size=(n, n)).tolist()}


def solve(given: dict[str, Any]) -> problems.Solution:
    check_keys(given, ("S",))
    S = matrix(given, "S")
    weights = _softmax_rows(np.where(_allowed(len(S)), S, -np.inf))
    steps = (
        problems.Step(
            "Mask the scores of later keys, then softmax each row", r"A = " + latex_matrix(weights)
        ),
    )
    unmasked = problems.Distractor("did not apply the mask", {"weights": problems.plain(_softmax_rows(S))})
    return problems.Solution({"weights": problems.plain(weights)}, steps, (unmasked,))


def prompt(given: dict[str, Any]) -> str:
    return r"Give the causally masked softmax of each row of \(S = " + latex_matrix(given["S"]) + r"\)."


def softmax_inputs(given: dict[str, Any]) -> list[np.ndarray]:
    S = np.asarray(given["S"], dtype=float)
    return [np.where(_allowed(len(S)), S, -np.inf)]


TOY = problems.ProblemType(
    id=TYPE_ID,
    description="Causally masked softmax of a score matrix (a test type)",
    pick=pick,
    solve=solve,
    prompt=prompt,
    tolerance=problems.Tolerance(abs=0.005),
    primary="weights",
    source="S3.2.3",
    work_space_cm=3.0,
    heatmap="causal",
    softmax_inputs=softmax_inputs,
)


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[problems.ProblemType]:
    """TOY registered for one test; the registry is restored afterwards."""
    problems.all_types()  # load the real types first, so the copy holds them
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    yield problems.register(TOY)


def test_the_new_type_is_found_by_id_and_listed(toy) -> None:
    assert problems.get(TYPE_ID) is toy
    assert TYPE_ID in problems.all_types()


def test_generate_is_reproducible_and_each_problem_is_its_seed(toy) -> None:
    for difficulty in problems.DIFFICULTIES:
        stream = list(problems.generate(TYPE_ID, 6, 42, difficulty))
        assert stream == list(problems.generate(TYPE_ID, 6, 42, difficulty))
        for index, problem in enumerate(stream):
            seed = problems.problem_seed(42, TYPE_ID, index)
            assert problem == problems.generate_one(TYPE_ID, seed, difficulty, index)
        assert {len(p.given["S"]) for p in stream} == {_SIZES[difficulty]}
        assert all(p.answer["weights"][0][0] == 1.0 for p in stream)  # the first query sees itself only


def test_json_is_plain_and_streams(toy) -> None:
    generated = list(problems.generate(TYPE_ID, 3, 7, "medium"))
    data = json.loads("".join(json_stream(iter(generated))))
    assert data == [json.loads(json.dumps(p.to_json())) for p in generated]
    assert data[0]["type"] == TYPE_ID and data[0]["id"] == f"{TYPE_ID}-000001"
    assert data[0]["tolerance"] == {"abs": 0.005}


def test_the_pdf_reads_the_work_space_and_prints_the_exponentials(toy) -> None:
    deck = Deck(
        "Toy",
        "aiayn",
        tuple(problem_items("aiayn", "toy", "Practice", [ProblemSet(TYPE_ID, 2, "medium")], 5)),
    )
    source = practice_sheet.practice_source(deck)
    assert source.count("space: 0.0cm)") == 2  # a practice sheet is worked on one's own paper
    assert source.count("#exp-table(") == 2
    on_a_form = print_items.item(quiz.ProblemItem(1, 1.0, deck.items[0].body))
    assert "space: 3.8cm)" in on_a_form  # 3.0 cm scaled by 1.25 for medium
    assert print_items._work_space(deck.items[0].body) == 3.8


def test_a_quiz_without_calculator_gets_the_unmasked_exponentials(toy) -> None:
    problem = problems.generate_one(TYPE_ID, 11, "hard")
    S = np.asarray(problem.given["S"], dtype=float)
    allowed_rows = [row[: i + 1] for i, row in enumerate(S)]
    expected = {round(float(x), 4) + 0.0 for row in allowed_rows for x in (*row, *(row - row.max()))}
    pairs = quiz.exponentials(problem)
    assert {x for x, _ in pairs} == expected
    assert all(y == float(np.exp(x)) for x, y in pairs)


def test_the_anki_card_shows_a_masked_heatmap(toy) -> None:
    problem = problems.generate_one(TYPE_ID, 3, "hard")
    table = notes.heatmap_html(problem)
    n = _SIZES["hard"]
    assert table.count(">masked</td>") == n * (n - 1) // 2
    shown = [float(x) for x in re.findall(r">(\d\.\d{4})</td>", table)]
    assert shown == [round(w, 4) for i, row in enumerate(problem.answer["weights"]) for w in row[: i + 1]]
    item = problem_items("aiayn", "toy", "Practice", [ProblemSet(TYPE_ID, 1, "hard")], 3)[0]
    built = notes.build_note(item, notes.Figures(Path("unused")))
    assert '<table class="pd-heatmap"' in built.fields[notes.notetypes.PROBLEM.fields.index("Figure")]


def test_the_registry_is_restored_after_a_test(monkeypatch) -> None:
    before = problems.all_types()
    with monkeypatch.context() as patch:
        patch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
        problems.register(TOY)
        assert TYPE_ID in problems.all_types()
    assert TYPE_ID not in problems.all_types()
    assert problems.all_types() == before
    with pytest.raises(UsageError, match=f"unknown problem type '{TYPE_ID}'"):
        problems.get(TYPE_ID)


@pytest.mark.parametrize("type_id", sorted(problems.all_types()))
def test_every_registered_type_states_what_its_consumers_read(type_id) -> None:
    problem_type = problems.get(type_id)
    assert problem_type.work_space_cm > 0
    problem = problems.generate_one(type_id, 1, "medium")
    if problem_type.heatmap is not None:
        assert problem_type.heatmap in ("full", "causal")
        weights = np.asarray(problem.answer["weights"])
        assert weights.ndim == 2
    if problem_type.softmax_inputs is not None:
        assert not problem_type.needs_calculator
        assert quiz.exponentials(problem)
