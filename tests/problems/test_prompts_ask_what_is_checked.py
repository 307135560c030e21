"""Each problem type's prompt asks for exactly the result the card, ``grade`` and the answer
sheet check (the type's ``primary``); the worked steps still show the intermediate values."""

from __future__ import annotations

import pytest

from generator import problems

# type -> (how the prompt asks for its primary result, results it must not ask for)
ASKED = {
    "complexity": (
        "How many operations per layer does self-attention take here?",
        ("path length", "recurrent layer", "which of"),
    ),
    "dot-variance": (r"What is the variance of \(q \cdot k\)?", ("standard deviation", r"\sqrt{d_k}}\)")),
    "ffn": ("Give the output to two decimals.", ()),
    "label-smoothing": (
        "What probability does the smoothed target give the correct token?",
        ("each other token",),
    ),
    "layer-norm": (r"Give each entry of the result \(y\) to three decimals.", ()),
    "lr-schedule": ("what is the learning rate at step", ()),
    "masked-sdpa": ("Give the output to three decimals.", ("weights",)),
    "mha": ("Give the output to three decimals.", ("every head",)),
    "mha-shapes": ("How many weights do all", (r"Give \(d_k\)",)),
    "positional-encoding": ("compute the encoding of position", ()),
    "sdpa": ("Give the output to three decimals", ("scaled scores", "attention weights")),
    "softmax": ("Give each probability to three decimals.", ()),
}
BUILT_IN = sorted(t for t, problem_type in problems.all_types().items() if problem_type.paper)


def test_every_built_in_type_is_listed() -> None:
    assert sorted(ASKED) == BUILT_IN


@pytest.mark.parametrize("type_id", BUILT_IN)
@pytest.mark.parametrize("difficulty", problems.DIFFICULTIES)
def test_the_prompt_asks_for_the_checked_result_alone(type_id: str, difficulty: str) -> None:
    asks, never = ASKED[type_id]
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
