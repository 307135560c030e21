"""The speed-ups of the generator give what the plain code gives.

LaTeX rows of numbers, sdpa's and mha's solve without input checks, sdpa's rounding, and
the absolute-tolerance path of the distractor separation, each against a
straightforward version.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import generator.problems as problems
from generator.problems import Distractor, Solution, Step, Tolerance, generate, generation, get, latex
from generator.problems.types import sdpa

pytestmark = pytest.mark.long  # handed out to a worker early: tests/conftest.py

NUMBERS = st.one_of(st.integers(-(10**6), 10**6), st.floats(-1e6, 1e6), st.sampled_from([0.0, -0.0, 1.0, 1]))


@settings(max_examples=200, deadline=None)
@given(values=st.lists(NUMBERS, min_size=1, max_size=6))
def test_latex_rows_match_number(values):
    expected = " & ".join(str(x) if type(x) is int else latex.number(x) for x in values)
    assert latex.row(values) == expected
    assert latex.row(values, 2) == " & ".join(
        str(x) if type(x) is int else latex.number(x, 2) for x in values
    )


@pytest.mark.parametrize("type_id", sorted(t for t, p in problems.all_types().items() if p.solve_picked))
def test_solve_without_checks_is_solve(type_id):
    problem_type = get(type_id)
    for difficulty in ("easy", "medium", "hard"):
        for problem in generate(type_id, 30, 3, difficulty):
            assert problem_type.solve_picked(problem.given) == problem_type.solve(problem.given)


def test_types_that_skip_the_checks():
    """Each type that has a solve without its checks is tested above (none dropped by mistake)."""
    assert sorted(t for t, p in problems.all_types().items() if p.solve_picked) == ["mha", "sdpa"]


def test_sdpa_solve_takes_floats_typed_into_content():
    sdpa_type = get("sdpa")
    for problem in generate("sdpa", 30, 3, "medium"):
        floats = {k: [[float(x) for x in row] for row in m] for k, m in problem.given.items()}
        assert sdpa_type.solve(floats).answer == sdpa_type.solve(problem.given).answer


def _reference_separated(solution, tolerance, key):
    """The separation as first written: flatten, compare with loops."""

    def components(value):
        if not isinstance(value, list):
            return [value]
        while value and isinstance(value[0], list):
            value = [x for row in value for x in row]
        return value

    def close(expected, got, abs_, rel):
        return len(expected) == len(got) and all(
            abs(e - g) <= abs_ or abs(e - g) <= rel * abs(e) for e, g in zip(expected, got, strict=True)
        )

    abs_, rel = tolerance.abs or 0.0, tolerance.rel or 0.0
    expected = components(solution.answer[key])
    kept, seen = [], []
    for distractor in solution.distractors:
        got = components(distractor.answer[key])
        if close(expected, got, abs_ * 1.5, rel * 1.5):
            return None
        if not any(close(other, got, abs_, rel) for other in seen):
            kept.append(distractor)
            seen.append(got)
    return tuple(kept)


VALUES = st.lists(st.sampled_from([0.0, 0.001, 0.004, 0.006, 0.01, 1.0, 1.004, -1.0]), min_size=2, max_size=2)


@settings(max_examples=300, deadline=None)
@given(
    answer=VALUES,
    wrong=st.lists(VALUES, min_size=1, max_size=5),
    tolerance=st.sampled_from([Tolerance(abs=0.005), Tolerance(rel=0.01), Tolerance(abs=0.002, rel=0.01)]),
    nested=st.booleans(),
)
def test_separation_matches_the_plain_version(answer, wrong, tolerance, nested):
    shape = (lambda v: [v]) if nested else (lambda v: v)
    solution = Solution(
        {"y": shape(answer)}, (), tuple(Distractor(f"m{i}", {"y": shape(w)}) for i, w in enumerate(wrong))
    )
    assert generation._separated(solution, tolerance, "y") == _reference_separated(solution, tolerance, "y")


def test_numbers_unchanged_for_a_fixed_seed():
    """A few values worked out independently, so a cache cannot drift unnoticed."""
    problem = next(generate("sdpa", 1, 2026, "easy"))
    Q, K, V = (np.array(problem.given[k], dtype=float) for k in "QKV")
    scores = Q @ K.T / math.sqrt(Q.shape[1])
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    assert np.allclose(problem.answer["scores"], scores, atol=1e-9)
    assert np.allclose(problem.answer["output"], weights @ V, atol=1e-9)


def _plain_sdpa_solve(given):
    """sdpa's solve as first written, on the tiny helpers, without caches or fused loops."""
    from generator.problems.latex import matrix

    from .tiny import matmul, matmul_transposed, rounded, scale, softmax_rows, transpose

    Q, K, V = given["Q"], given["K"], given["V"]
    d_k = len(Q[0])
    raw = matmul_transposed(Q, K)
    scores = scale(raw, math.sqrt(d_k))
    weights = softmax_rows(scores)
    output = matmul(weights, V)
    whole = math.isqrt(d_k)
    by_hand = rf"\frac{{QK^{{\top}}}}{{{whole}}} = " if whole * whole == d_k and whole > 1 else ""
    steps = (
        Step("Dot products of every query with every key", r"QK^{\top} = " + matrix(raw)),
        Step(
            rf"Scale by the square root of \(d_k = {d_k}\)",
            r"\frac{QK^{\top}}{\sqrt{" + str(d_k) + "}} = " + by_hand + matrix(scores),
        ),
        Step(
            "Softmax along each row (over the keys)",
            r"A = \mathrm{softmax}\left(\frac{QK^{\top}}{\sqrt{d_k}}\right) = " + matrix(weights),
        ),
        Step("Weighted sum of the values", r"AV = " + matrix(output)),
    )
    distractors = [
        Distractor(
            "took the softmax over the queries (columns) instead of the keys (rows)",
            {"output": rounded(matmul(transpose(softmax_rows(transpose(scores))), V))},
        ),
        Distractor(
            "skipped the softmax (used the scaled scores as weights)", {"output": rounded(matmul(scores, V))}
        ),
    ]
    if d_k > 1:
        distractors[:0] = [
            Distractor(
                r"forgot to divide by \(\sqrt{d_k}\)", {"output": rounded(matmul(softmax_rows(raw), V))}
            ),
            Distractor(
                r"divided by \(d_k\) instead of \(\sqrt{d_k}\)",
                {"output": rounded(matmul(softmax_rows(scale(raw, d_k)), V))},
            ),
        ]
    answer = {"scores": rounded(scores), "weights": rounded(weights), "output": rounded(output)}
    return Solution(answer, steps, tuple(distractors))


def test_sdpa_solve_matches_the_plain_version():
    sdpa_type = get("sdpa")
    for difficulty in ("easy", "medium", "hard"):
        for seed in (1, 2):
            for problem in generate("sdpa", 300, seed, difficulty):
                assert sdpa_type.solve_picked(problem.given) == _plain_sdpa_solve(problem.given)
    # Shapes the picker never draws: one key, d_k = 1, more queries than keys.
    for givens in (
        {"Q": [[1, 2]], "K": [[0, 1]], "V": [[3]]},
        {"Q": [[1], [2], [-1]], "K": [[1], [0]], "V": [[1, 2], [0, -1]]},
    ):
        assert sdpa_type.solve(givens) == _plain_sdpa_solve(givens)


def _nested(shape, numbers):
    """Nested lists of this shape (equal depth), filled from ``numbers``."""
    if len(shape) == 1:
        return [next(numbers) for _ in range(shape[0])]
    return [_nested(shape[1:], numbers) for _ in range(shape[0])]


@settings(max_examples=200, deadline=None)
@given(
    shape=st.lists(st.integers(0, 3), min_size=1, max_size=4),
    numbers=st.lists(st.floats(-10, 10), min_size=81, max_size=81),
)
def test_components_match_the_plain_flattening(shape, numbers):
    def plain(value):
        while value and isinstance(value[0], list):
            value = [x for row in value for x in row]
        return value

    value = _nested(shape, iter(numbers))
    assert generation._components(value) == plain(value)
    assert generation._components(2.5) == [2.5]


@settings(max_examples=300, deadline=None)
@given(
    values=st.lists(
        st.one_of(st.floats(-1e6, 1e6), st.sampled_from([0.0, -0.0, 0.12345678905, 1e-11])),
        min_size=1,
        max_size=8,
    )
)
def test_sdpa_rounding_is_round(values):
    expected = [round(x, problems.ANSWER_DECIMALS) + 0.0 for x in values]
    got = sdpa._rounded(values)
    assert got == expected
    assert [str(x) for x in got] == [str(x) for x in expected]  # no -0.0
