"""Every problem type's key against an independent computation, over many seeds.

Each type's reference is in ``tests/problems/types/<its module>.py``, written differently from
the generator on purpose: plain Python loops and the ``math`` module, never NumPy or the
modules' helpers, so that a mistake in the generator's method cannot hide in the test as well.
"""

from __future__ import annotations

import json
import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.problems import DIFFICULTIES, all_types, generate, generate_one
from generator.problems.latex import number

from . import types

pytestmark = pytest.mark.long  # handed out to a worker early: tests/conftest.py

TYPES = sorted(all_types())
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
LEVELS = st.sampled_from(DIFFICULTIES)
EXAMPLES = settings(max_examples=100, deadline=None)


def flat(value):
    if isinstance(value, list):
        return [x for item in value for x in flat(item)]
    return [value]


def close(expected, got, rel=1e-8, abs_=1e-8):
    if isinstance(expected, str):
        return expected == got
    e, g = flat(expected), flat(got)
    return len(e) == len(g) and all(
        math.isclose(a, b, rel_tol=rel, abs_tol=abs_) for a, b in zip(e, g, strict=True)
    )


# ---------------------------------------------------------------- properties


@pytest.mark.parametrize("type_id", TYPES)
def test_every_type_has_a_reference(type_id):
    assert callable(types.of(type_id).reference)


@pytest.mark.parametrize("type_id", TYPES)
@EXAMPLES
@given(seed=SEEDS, difficulty=LEVELS)
def test_answer_matches_independent_computation(type_id, seed, difficulty):
    problem = generate_one(type_id, seed, difficulty)
    expected = types.of(type_id).reference(problem.given)
    assert set(expected) <= set(problem.answer)
    for key, value in expected.items():
        assert close(value, problem.answer[key]), (key, value, problem.answer[key])
    assert all_types()[type_id].primary in problem.answer


@pytest.mark.parametrize("type_id", TYPES)
@EXAMPLES
@given(seed=SEEDS, difficulty=LEVELS)
def test_every_named_mistake_falls_outside_the_tolerance(type_id, seed, difficulty):
    problem = generate_one(type_id, seed, difficulty)
    key = all_types()[type_id].primary
    tol = problem.tolerance
    assert problem.distractors, "every problem names at least one mistake"
    for distractor in problem.distractors:
        assert distractor.mistake and not distractor.mistake[0].isupper()
        expected, got = flat(problem.answer[key]), flat(distractor.answer[key])
        if len(expected) != len(got):
            continue
        limit = [(tol.abs or 0.0) + (tol.rel or 0.0) * abs(e) for e in expected]
        assert any(abs(e - g) > lim for e, g, lim in zip(expected, got, limit, strict=True)), (
            distractor.mistake,
            expected,
            got,
        )


def _decimals(x) -> int:
    if isinstance(x, int):
        return 0
    text = repr(x)
    return len(text.split(".")[1]) if "." in text and "e" not in text else 99


@pytest.mark.parametrize("type_id", TYPES)
@EXAMPLES
@given(seed=SEEDS, difficulty=LEVELS)
def test_numbers_are_hand_computable(type_id, seed, difficulty):
    problem = generate_one(type_id, seed, difficulty)
    for key, value in problem.given.items():
        if type_id == "layer-norm" and key == "eps":
            assert value in (1e-5,)
            continue
        for x in flat(value):
            assert isinstance(x, (int, float)) and not isinstance(x, bool)
            assert math.isfinite(x)
            assert _decimals(x) <= 2, (key, x)
            assert abs(x) <= 5000 if type_id not in ("lr-schedule",) else x <= 100_000
    for key, value in problem.answer.items():
        for x in flat(value):
            assert isinstance(x, str) or math.isfinite(x), (key, x)
    answer, g = problem.answer, problem.given
    if type_id in ("sdpa", "masked-sdpa"):
        d_k = len(g["Q"][0])
        assert math.isqrt(d_k) ** 2 == d_k, "d_k is a perfect square"
    if type_id in ("sdpa", "masked-sdpa", "softmax"):
        rows = [answer["p"]] if type_id == "softmax" else answer["weights"]
        for i, row in enumerate(rows):
            live = [w for j, w in enumerate(row) if type_id != "masked-sdpa" or j <= i]
            assert math.isclose(math.fsum(row), 1.0)
            if len(live) > 1:  # not degenerate: neither uniform nor one-hot
                assert max(live) - min(live) > 1e-9 and min(live) > 0.005
    if type_id in ("sdpa", "masked-sdpa", "mha", "layer-norm", "ffn"):
        primary = answer[all_types()[type_id].primary]
        assert all(abs(x) <= 100 for x in flat(primary))
    if type_id == "positional-encoding":
        assert -1 <= answer["value"] <= 1
    if type_id == "lr-schedule":
        assert 0 < answer["lrate"] < 0.1
    if type_id == "complexity":
        assert float(answer["path_convolutional"]).is_integer()
        assert float(answer["path_restricted"]).is_integer()
        assert g["n"] != g["d"]


# LaTeX the Typst converter understands: these commands, and plain characters.
ALLOWED_COMMANDS = {
    "frac",
    "sqrt",
    "mathrm",
    "text",
    "operatorname",
    "max",
    "min",
    "exp",
    "log",
    "sin",
    "cos",
    "begin",
    "end",
    "left",
    "right",
    "cdot",
    "times",
    "approx",
    "infty",
    "sum",
    "le",
    "ge",
    "ne",
    "top",
    "alpha",
    "beta",
    "gamma",
    "epsilon",
    "mu",
    "sigma",
    "pi",
    "theta",
    "lambda",
}
ALLOWED_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 +-=,.^_{}()&\\")


@pytest.mark.parametrize("type_id", TYPES)
@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, difficulty=LEVELS)
def test_steps_use_the_latex_subset_and_prompts_state_every_given(type_id, seed, difficulty):
    problem = generate_one(type_id, seed, difficulty)
    assert len(problem.steps) >= 3
    for step in problem.steps:
        # A title is Markdown: words, with math only inside \( \), in the same subset.
        assert step.title and "$" not in step.title
        words = re.sub(r"\\\((.*?)\\\)", "", step.title)
        assert "\\" not in words, step.title
        for math_ in re.findall(r"\\\((.*?)\\\)", step.title):
            assert set(re.findall(r"\\([A-Za-z]+)", math_)) <= ALLOWED_COMMANDS, step.title
        assert set(step.latex) <= ALLOWED_CHARS, set(step.latex) - ALLOWED_CHARS
        assert not {"\\(", "\\)", "\\[", "\\]", "$"} & {step.latex[i : i + 2] for i in range(len(step.latex))}
        for command in re.findall(r"\\([A-Za-z]+)", step.latex):
            assert command in ALLOWED_COMMANDS, command
        envs = re.findall(r"\\(?:begin|end)\{(\w+)\}", step.latex)
        assert set(envs) <= {"pmatrix"}
    text = problem.prompt
    assert text.count("\\(") == text.count("\\)") > 0
    for math_ in re.findall(r"\\\((.*?)\\\)", text):  # prompts are printed too
        assert set(math_) <= ALLOWED_CHARS, set(math_) - ALLOWED_CHARS
        assert set(re.findall(r"\\([A-Za-z]+)", math_)) <= ALLOWED_COMMANDS
    for key, value in problem.given.items():
        for x in flat(value):
            if not (type_id == "layer-norm" and key == "eps"):
                assert number(x) in text, (key, x)


@pytest.mark.parametrize("type_id", TYPES)
@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, difficulty=LEVELS)
def test_same_seed_same_json_and_each_seed_regenerates_its_problem(type_id, seed, difficulty):
    first = [json.dumps(p.to_json(), allow_nan=False) for p in generate(type_id, 3, seed, difficulty)]
    again = [json.dumps(p.to_json(), allow_nan=False) for p in generate(type_id, 3, seed, difficulty)]
    assert first == again
    for index, problem in enumerate(generate(type_id, 3, seed, difficulty)):
        alone = generate_one(type_id, problem.seed, difficulty, index)
        assert alone == problem
        assert (
            generate_one(type_id, problem.seed, difficulty).to_json() | {"id": problem.id}
            == problem.to_json()
        )
        assert json.loads(first[index])["given"] == problem.given


@pytest.mark.parametrize("type_id", TYPES)
def test_solve_recomputes_its_own_givens(type_id):
    """What content worked examples do: solve a given typed back in from JSON."""
    problem_type = all_types()[type_id]
    for problem in generate(type_id, 5, 2024, "medium"):
        again = problem_type.solve(json.loads(json.dumps(problem.given)))
        assert again.answer == problem.answer


def test_seed_sweep_is_stable_across_difficulties():
    """A fixed sweep: different seeds give different problems, and sizes grow with difficulty."""
    for type_id in TYPES:
        sizes = []
        for difficulty in DIFFICULTIES:
            problems = list(generate(type_id, 30, 7, difficulty))
            distinct = {json.dumps(p.given, sort_keys=True) for p in problems}
            assert len(distinct) >= 5, (type_id, difficulty)
            sizes.append(max(len(json.dumps(p.given)) for p in problems))
        assert sizes[0] <= sizes[2], type_id
