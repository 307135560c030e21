"""Each problem type's prompt asks for exactly the result the card, ``grade`` and the answer
sheet check (the type's ``primary``); the worked steps still show the intermediate values. How
each type's prompt asks is in ``tests/problems/types/<its module>.py`` (``ASKS``, ``NEVER``)."""

from __future__ import annotations

import pytest

from generator import problems

from . import types

BUILT_IN = sorted(t for t, problem_type in problems.all_types().items() if problem_type.paper)


@pytest.mark.parametrize("type_id", BUILT_IN)
def test_every_built_in_type_says_how_its_prompt_asks(type_id: str) -> None:
    assert isinstance(types.of(type_id).ASKS, str) and isinstance(types.of(type_id).NEVER, tuple)


@pytest.mark.parametrize("type_id", BUILT_IN)
@pytest.mark.parametrize("difficulty", problems.DIFFICULTIES)
def test_the_prompt_asks_for_the_checked_result_alone(type_id: str, difficulty: str) -> None:
    asks, never = types.of(type_id).ASKS, types.of(type_id).NEVER
    problem_type = problems.get(type_id)
    for problem in problems.generate(type_id, 3, 5, difficulty):
        assert asks in problem.prompt, problem.prompt
        for other in never:
            assert other not in problem.prompt, (other, problem.prompt)
        assert problem_type.primary in problem.answer
    # The steps still work through the intermediate values (sdpa: scores, then weights).
    if type_id == "sdpa":
        titles = [step.title for step in problem.steps]
        assert titles[1].startswith("Scale") and titles[2].startswith("Softmax")


@pytest.mark.parametrize("type_id", BUILT_IN)
def test_a_named_mistake_states_only_what_it_changes(type_id: str) -> None:
    primary = problems.get(type_id).primary
    for difficulty in problems.DIFFICULTIES:
        for problem in problems.generate(type_id, 4, 8, difficulty):
            for distractor in problem.distractors:
                assert primary in distractor.answer
                for key, value in distractor.answer.items():
                    assert key == primary or value != problem.answer[key], (distractor.mistake, key)


def test_forgetting_w_o_shows_the_unprojected_output_not_the_right_heads() -> None:
    problem = next(iter(problems.generate("mha", 1, 3, "hard")))
    forgot = next(d for d in problem.distractors if "output projection" in d.mistake)
    heads = problem.answer["heads"]
    concatenated = [[v for head in heads for v in head[i]] for i in range(len(problem.given["X"]))]
    assert forgot.answer == {"output": concatenated}
