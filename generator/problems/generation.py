"""Generating problems: one from its seed, or a reproducible stream of them.

Problem ``index`` of a set draws from ``default_rng(problem_seed(set seed, type id,
index))``: NumPy's SeedSequence and PCG64, so the same seed gives the same problem on
every machine.

A draw is kept only when every named mistake gives an answer the tolerance
rejects (``_separated``); otherwise the type's ``pick`` draws again from the same
Generator, so the problem a seed gives is still fixed. A named mistake states only
the results it changes (``_changes``).
"""

from __future__ import annotations

import functools
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import chain
from operator import sub
from typing import Any

import numpy as np

from ..answers import accepts
from ..errors import UsageError
from .model import DIFFICULTIES, Distractor, Problem, ProblemType, Solution, Tolerance
from .registry import get

# A draw whose named mistakes land within this many tolerances of the answer is
# redrawn: a student who makes the mistake must be told so, and the printed
# options of a multiple-choice card must visibly differ.
_MISTAKE_MARGIN = 1.5
_MAX_DRAWS = 1000


def _components(value: Any) -> list[Any]:
    """The numbers of a JSON-plain value (number, nested lists of equal depth), in order."""
    if not isinstance(value, list):
        return [value]
    while value and isinstance(value[0], list):
        # A single row is its own components (callers only read them); more rows
        # are chained in C, cheaper than a comprehension at these sizes.
        value = value[0] if len(value) == 1 else list(chain.from_iterable(value))
    components: list[Any] = value
    return components


def _close(expected: list[Any], got: list[Any], tolerance: Tolerance) -> bool:
    """Same shape, and every component within ``tolerance`` of the expected one (``answers.accepts``)."""
    if len(expected) != len(got):
        return False
    if expected and not accepts(expected[0], got[0], tolerance):
        return False  # most results already differ in their first component
    if not tolerance.rel and max(map(abs, map(sub, expected, got)), default=0.0) <= (tolerance.abs or 0.0):
        return True  # within the bound, so within the rule: the common case, in C
    return all(accepts(e, g, tolerance) for e, g in zip(expected, got, strict=True))


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


def generate_one(type_id: str, seed: int, difficulty: str = "easy", index: int = 0) -> Problem:
    """The problem of this type that ``seed`` regenerates.

    Draws are repeated (from the same generator, so still reproducible) until every
    named mistake gives an answer the tolerance rejects.
    """
    _check_difficulty(difficulty)
    return _make(get(type_id), np.random.default_rng(seed), seed, difficulty, index)


def _check_difficulty(difficulty: str) -> None:
    if difficulty not in DIFFICULTIES:
        raise UsageError(f"unknown difficulty {difficulty!r}; choose from {', '.join(DIFFICULTIES)}")


@dataclass(frozen=True)
class Regenerated:
    """A problem drawn again from its seed, its prompt and record written only when asked for:
    the key reader checks each problem's ``answer`` against the key (8,000 in bench_grade) and
    the feedback prints the ``problem()`` of those a student missed, without drawing again."""

    problem_type: ProblemType
    seed: int
    difficulty: str
    given: dict[str, Any]
    solution: Solution
    distractors: tuple[Distractor, ...]

    @property
    def answer(self) -> dict[str, Any]:
        return self.solution.answer

    def problem(self) -> Problem:
        """``generate_one(type_id, seed, difficulty)``, from this draw."""
        return _record(
            self.problem_type, self.seed, self.difficulty, 0, self.given, self.solution, self.distractors
        )


def regenerated(type_id: str, seed: int, difficulty: str = "easy") -> Regenerated:
    """The problem of this type that ``seed`` regenerates, drawn but not yet written."""
    _check_difficulty(difficulty)
    problem_type = get(type_id)
    return Regenerated(
        problem_type, seed, difficulty, *_draw(problem_type, np.random.default_rng(seed), difficulty)
    )


def _draw(
    problem_type: ProblemType, rng: np.random.Generator, difficulty: str
) -> tuple[dict[str, Any], Solution, tuple[Distractor, ...]]:
    """The givens ``rng`` draws, their solution and the distractors kept (``_separated``)."""
    solve = problem_type.solve_picked or problem_type.solve
    for _ in range(_MAX_DRAWS):
        given = problem_type.pick(rng, difficulty)
        solution = solve(given)
        distractors = _separated(solution, problem_type.tolerance, problem_type.primary)
        if distractors is not None:
            return given, solution, distractors
    # a bug in the type's pick: its mistakes cannot be told apart
    raise RuntimeError(f"{problem_type.id}: no draw in {_MAX_DRAWS} separates its named mistakes")


def _make(
    problem_type: ProblemType, rng: np.random.Generator, seed: int, difficulty: str, index: int
) -> Problem:
    """The problem ``rng`` (``default_rng(seed)`` or a Generator in its state) draws."""
    return _record(problem_type, seed, difficulty, index, *_draw(problem_type, rng, difficulty))


def _record(
    problem_type: ProblemType,
    seed: int,
    difficulty: str,
    index: int,
    given: dict[str, Any],
    solution: Solution,
    distractors: tuple[Distractor, ...],
) -> Problem:
    """A drawn problem written out: its prompt, and its named mistakes as they change the answer."""
    return Problem(
        id=f"{problem_type.id}-{index + 1:06d}",
        type=problem_type.id,
        seed=seed,
        difficulty=difficulty,
        prompt=problem_type.prompt(given),
        given=given,
        steps=solution.steps,
        answer=solution.answer,
        tolerance=problem_type.tolerance,
        distractors=_changes(distractors, solution.answer, problem_type.primary),
        precision=problem_type.precision,
    )


def _changes(
    distractors: tuple[Distractor, ...], answer: dict[str, Any], primary: str
) -> tuple[Distractor, ...]:
    """Each distractor with only the results its mistake changes (and the primary one):
    a mistake in W^O leaves mha's heads right, and a key that showed them would say
    nothing about the mistake."""
    if all(key == primary for d in distractors for key in d.answer):
        return distractors  # the common case (sdpa states its output alone)
    return tuple(
        Distractor(
            d.mistake,
            {key: value for key, value in d.answer.items() if key == primary or value != answer.get(key)},
        )
        for d in distractors
    )


@functools.cache
def _margin(tolerance: Tolerance) -> Tolerance:
    """The tolerance times _MISTAKE_MARGIN."""
    return Tolerance((tolerance.abs or 0.0) * _MISTAKE_MARGIN, (tolerance.rel or 0.0) * _MISTAKE_MARGIN)


def _separated(solution: Solution, tolerance: Tolerance, key: str) -> tuple[Distractor, ...] | None:
    """The distractors to keep, or None when a named mistake is too close to the answer.

    A mistake is caught when its ``key`` differs from the answer's by more than
    _MISTAKE_MARGIN tolerances in at least one component. A distractor the
    tolerance cannot tell from an earlier one is dropped: two mistakes can land on
    the same number, and a multiple-choice card must not show it twice.
    """
    expected = _components(solution.answer[key])
    distractors = solution.distractors
    got = [_components(distractor.answer[key]) for distractor in distractors]
    margin = _margin(tolerance)
    if any(_close(expected, g, margin) for g in got):
        return None
    keep: list[bool] = []
    for i, g in enumerate(got):
        keep.append(not any(keep[j] and _close(got[j], g, tolerance) for j in range(i)))
    if all(keep):
        return distractors
    return tuple(d for d, kept in zip(distractors, keep, strict=True) if kept)


def generate(type_id: str, count: int, seed: int, difficulty: str = "easy") -> Iterator[Problem]:
    """``count`` problems of one type; the same seed gives the same problems.

    An iterator, so a long stream never holds more than one problem.
    """
    if count < 0:
        raise UsageError(f"count must be 0 or more, got {count}")
    # Bad options fail here, before the first problem is asked for.
    get(type_id)
    _check_difficulty(difficulty)
    return _generate(type_id, count, seed, difficulty)


def _generate(type_id: str, count: int, seed: int, difficulty: str) -> Iterator[Problem]:
    problem_type = get(type_id)
    for index in range(count):
        one_seed = problem_seed(seed, type_id, index)
        yield _make(problem_type, np.random.default_rng(one_seed), one_seed, difficulty, index)
