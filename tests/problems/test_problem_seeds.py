"""The block-at-a-time seeds and Generator states of a stream are NumPy's own."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.problems import generate, generate_one, problem_seed, seeding


@settings(max_examples=60, deadline=None)
@given(set_seed=st.one_of(st.integers(0, 2**32 - 1), st.integers(0, 2**130)),
       type_id=st.sampled_from(["sdpa", "softmax", "mha", "x"]),
       start=st.integers(0, 10**6), length=st.integers(0, 40))
def test_problem_seeds_are_seed_sequence_states(set_seed, type_id, start, length):
    expected = [int(np.random.SeedSequence([set_seed, seeding.zlib.crc32(type_id.encode()), i])
                    .generate_state(1, np.uint32)[0]) for i in range(start, start + length)]
    assert seeding.problem_seeds(set_seed, type_id, start, start + length) == expected
    assert [problem_seed(set_seed, type_id, i) for i in range(start, start + length)] == expected


def test_edge_seeds_and_indices():
    for set_seed in (0, 1, 2**32 - 1, 2**32, 2**64 + 5):
        assert seeding.problem_seeds(set_seed, "sdpa", 0, 3) == [problem_seed(set_seed, "sdpa", i)
                                                                  for i in range(3)]
    assert seeding._one_seed(7, "sdpa", 2**33 + 1) == problem_seed(7, "sdpa", 2**33 + 1)
    assert seeding.problem_seeds(7, "sdpa", 2**32 - 1, 2**32 + 1) == [
        problem_seed(7, "sdpa", 2**32 - 1), problem_seed(7, "sdpa", 2**32)]
    with pytest.raises(ValueError):
        seeding.problem_seeds(-1, "sdpa", 0, 3)
    with pytest.raises(TypeError):
        seeding.problem_seeds(1.5, "sdpa", 0, 3)


@settings(max_examples=40, deadline=None)
@given(seeds=st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=30))
def test_pcg64_states_are_default_rng_states(seeds):
    states = seeding.pcg64_states([0, 1, 2**32 - 1, *seeds])
    for seed, state in zip([0, 1, 2**32 - 1, *seeds], states, strict=True):
        assert state == np.random.default_rng(seed).bit_generator.state
        bit_generator = np.random.PCG64(0)
        bit_generator.state = state
        assert (np.random.Generator(bit_generator).random(5)
                == np.random.default_rng(seed).random(5)).all()


def test_stream_crosses_blocks_like_generate_one(monkeypatch):
    from generator.problems import generation

    monkeypatch.setattr(generation, "_BLOCK", 3)
    for index, problem in enumerate(generate("sdpa", 8, 5, "medium")):
        assert problem == generate_one("sdpa", problem_seed(5, "sdpa", index), "medium", index)
