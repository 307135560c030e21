"""A stream's problems are the ones their own seeds regenerate, and seeds are NumPy's
SeedSequence states (their stored values: tests/test_identity_golden.py)."""

from __future__ import annotations

import pytest

from generator.problems import (
    DIFFICULTIES,
    all_types,
    generate,
    generate_one,
    problem_seed,
    regenerated,
)


@pytest.mark.parametrize("type_id", ["sdpa", "softmax", "mha"])
def test_a_stream_is_its_problems_regenerated_one_by_one(type_id):
    stream = list(generate(type_id, 6, 5, "medium"))
    assert [p.seed for p in stream] == [problem_seed(5, type_id, i) for i in range(6)]
    assert stream == [generate_one(type_id, p.seed, "medium", i) for i, p in enumerate(stream)]


def test_seeds_are_32_bit_and_keyed_by_set_type_and_index():
    seeds = {
        problem_seed(s, t, i) for s in (0, 1, 2**64 + 5) for t in ("sdpa", "softmax") for i in (0, 1, 2**33)
    }
    assert len(seeds) == 18 and all(0 <= seed < 2**32 for seed in seeds)
    with pytest.raises(ValueError):
        problem_seed(-1, "sdpa", 0)


@pytest.mark.parametrize("type_id", sorted(all_types()))
def test_the_problem_a_key_is_checked_against_is_the_one_its_seed_generates(type_id):
    """The key reader draws each problem again (``regenerated``) and the feedback writes the ones
    a student missed from that draw: the same answer and the same problem, redraws included."""
    for difficulty in DIFFICULTIES:
        for seed in range(40):
            drawn, problem = regenerated(type_id, seed, difficulty), generate_one(type_id, seed, difficulty)
            assert drawn.answer == problem.answer and drawn.problem() == problem
