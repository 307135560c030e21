"""Problem seeds, and Generator states for a whole stream computed a block at a time.

A problem's seed is ``problem_seed(set seed, type id, index)``, that is
``SeedSequence([set seed, crc32(type id), index]).generate_state(1)``, and its
Generator is ``np.random.default_rng(seed)``: ``problem_seed`` and
``generate_one`` build them with NumPy, one at a time (about 15 us per problem,
most of it Python overhead in SeedSequence). For a stream, this module runs the
same SeedSequence algorithm (NumPy's ``bit_generator.pyx``: hash the entropy words
into a pool of four, mix the pool, hash the pool out) on arrays of indices at once,
and the PCG64 seeding that ``default_rng`` does after it, so each problem costs a
fraction of a microsecond plus one ``bit_generator.state`` assignment (a few problems,
a quiz section's, are computed on Python ints by the same expressions). The numbers
are NumPy's exactly (uint32 arithmetic, words read little-endian as NumPy does on
every machine); tests/problems/test_problem_seeds.py compares them with
SeedSequence and default_rng over many seeds.
"""

from __future__ import annotations

import operator
import zlib
from collections.abc import Iterable, Sequence
from typing import Any, TypedDict

import numpy as np

# SeedSequence's constants (numpy/random/bit_generator.pyx).
_POOL_SIZE = 4
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_MULT_L, _MIX_MULT_R = 0xCA01F9DD, 0x4973F715
_MASK32 = 0xFFFFFFFF
# PCG64's multiplier (numpy/random/src/pcg64/pcg64.h) and its 128-bit modulus.
_PCG_MULT = (2549297995355413924 << 64) + 4865540595714422341
_MASK128 = (1 << 128) - 1

# A word is a Python int or a uint64 array of values below 2**32: the same
# expressions compute one seed or a block of them (uint64 products of two 32-bit
# numbers do not overflow; differences wrap modulo 2**64, a multiple of 2**32).
Words = Any


def words(value: int) -> list[int]:
    """An entropy integer as SeedSequence reads it: 32-bit words, least significant first."""
    value = operator.index(value)
    if value < 0:
        raise ValueError(f"expected a non-negative integer, got {value}")
    out = [value & _MASK32]
    value >>= 32
    while value:
        out.append(value & _MASK32)
        value >>= 32
    return out


def _pool(entropy: list[Words]) -> list[Words]:
    """SeedSequence.mix_entropy: the pool of four words for these entropy words."""
    hash_const = _INIT_A

    def hashmix(value: Words) -> Words:
        nonlocal hash_const
        value = value ^ hash_const
        hash_const = (hash_const * _MULT_A) & _MASK32
        value = (value * hash_const) & _MASK32
        return value ^ (value >> 16)

    def mix(x: Words, y: Words) -> Words:
        result = (x * _MIX_MULT_L - y * _MIX_MULT_R) & _MASK32
        return result ^ (result >> 16)

    pool = [hashmix(entropy[i] if i < len(entropy) else 0) for i in range(_POOL_SIZE)]
    for src in range(_POOL_SIZE):
        for dst in range(_POOL_SIZE):
            if src != dst:
                pool[dst] = mix(pool[dst], hashmix(pool[src]))
    for src in range(_POOL_SIZE, len(entropy)):
        for dst in range(_POOL_SIZE):
            pool[dst] = mix(pool[dst], hashmix(entropy[src]))
    return pool


def _generate_state(pool: list[Words], n_words: int) -> list[Words]:
    """SeedSequence.generate_state(n_words, np.uint32)."""
    hash_const = _INIT_B
    out = []
    for i in range(n_words):
        value = pool[i % _POOL_SIZE] ^ hash_const
        hash_const = (hash_const * _MULT_B) & _MASK32
        value = (value * hash_const) & _MASK32
        out.append(value ^ (value >> 16))
    return out


_ARRAYS_FROM = 16
"""Seeds and states for fewer problems than this are computed on Python ints, one by one:
arrays cost a fixed 0.5 ms (one problem, 554 us as arrays, 57 us as ints)."""


def problem_seeds(set_seed: int, type_id: str, start: int, stop: int) -> list[int]:
    """``problem_seed(set_seed, type_id, index)`` for every index in ``range(start, stop)``."""
    if stop <= start:
        return []
    if stop - start < _ARRAYS_FROM or stop > 2**32:  # few, or an index of two words (never in practice)
        return [_one_seed(set_seed, type_id, index) for index in range(start, stop)]
    index = np.arange(start, stop, dtype=np.uint64)
    entropy = words(set_seed) + words(zlib.crc32(type_id.encode())) + [index]
    seeds: list[int] = _generate_state(_pool(entropy), 1)[0].tolist()
    return seeds


def _one_seed(set_seed: int, type_id: str, index: int) -> int:
    entropy = words(set_seed) + words(zlib.crc32(type_id.encode())) + words(index)
    seed: int = _generate_state(_pool(entropy), 1)[0]
    return seed


def problem_seed(set_seed: int, type_id: str, index: int) -> int:
    """The seed of problem ``index`` of type ``type_id`` in the set ``set_seed``.

    Derived with a SeedSequence so it is the same on every machine and does not
    depend on Python's string hashing.
    """
    sequence = np.random.SeedSequence([set_seed, zlib.crc32(type_id.encode()), index])
    return int(sequence.generate_state(1, np.uint32)[0])


_VARIANT = 0x76617269  # "vari": keeps variant sets apart from any set seed's own draws


def variant_seed(set_seed: int, variant: int) -> int:
    """The set seed of variant ``variant`` of the set ``set_seed``; variant 0 is the set itself.

    Problem i of variant v is problem i of the set ``variant_seed(set_seed, v)``,
    so each variant is an ordinary set whose problems regenerate from their seeds.
    """
    if variant == 0:
        return set_seed
    sequence = np.random.SeedSequence([set_seed, _VARIANT, variant])
    return int(sequence.generate_state(1, np.uint32)[0])


class _PCG64Internal(TypedDict):
    state: int
    inc: int


class PCG64State(TypedDict):
    """``np.random.PCG64().state``: what NumPy's stub names ``_PCG64State`` (not importable)."""

    bit_generator: str
    state: _PCG64Internal
    has_uint32: int
    uinteger: int


def pcg64_states(seeds: list[int]) -> list[PCG64State]:
    """``np.random.default_rng(seed).bit_generator.state`` for each of ``seeds`` (each < 2**32).

    default_rng seeds PCG64 with ``SeedSequence(seed).generate_state(4, np.uint64)``:
    the first two words are the initial state, the last two the increment, each
    high word first; then PCG's ``srandom``: inc = 2 * initseq + 1,
    state = (inc + initstate) * MULT + inc, modulo 2**128.
    """
    if not seeds:
        return []
    if max(seeds) > _MASK32 or min(seeds) < 0:
        raise ValueError("problem seeds are 32-bit")
    if len(seeds) < _ARRAYS_FROM:
        rows: Iterable[Sequence[int]] = [_generate_state(_pool([seed]), 8) for seed in seeds]
    else:
        columns = _generate_state(_pool([np.array(seeds, dtype=np.uint64)]), 8)
        rows = zip(*(column.tolist() for column in columns), strict=True)
    states: list[PCG64State] = []
    for w0, w1, w2, w3, w4, w5, w6, w7 in rows:
        # uint64 k is words 2k (low) and 2k + 1 (high), read little-endian.
        initstate = ((w1 << 32 | w0) << 64) | (w3 << 32 | w2)
        initseq = ((w5 << 32 | w4) << 64) | (w7 << 32 | w6)
        inc = ((initseq << 1) | 1) & _MASK128
        state = ((inc + initstate) * _PCG_MULT + inc) & _MASK128
        states.append({"bit_generator": "PCG64", "state": {"state": state, "inc": inc},
                       "has_uint32": 0, "uinteger": 0})
    return states
