"""Every problem type names each of its givens and answers with a line of description."""

from __future__ import annotations

import pytest

from generator import problems


@pytest.mark.parametrize("type_id", list(problems.all_types()))
def test_inputs_and_outputs_describe_every_name(type_id: str) -> None:
    problem_type = problems.get(type_id)
    given: set[str] = set()
    answer: set[str] = set()
    for difficulty in problems.DIFFICULTIES:
        for seed in range(8):
            problem = problems.generate_one(type_id, seed, difficulty)
            given |= set(problem.given)
            answer |= set(problem.answer)
    assert set(problem_type.inputs) == given
    assert set(problem_type.outputs) == answer
