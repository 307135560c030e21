"""Randomized numeric problems with step-by-step keys.

A problem type is registered under a short id by the module that defines it (one
module per type in this package; importing the package imports them all). Each
type is a pair of pure functions:

- ``pick(rng, difficulty) -> given``: draws hand-computable givens from an
  explicit ``numpy.random.Generator``, already rounded, as JSON-plain data;
- ``solve(given) -> Solution``: the answer, worked steps and the results of
  named mistakes, computed from the givens in float64.

``solve`` also recomputes the worked examples in content, so a stated result
and a generated key can never disagree about the method.
"""

from __future__ import annotations

import importlib
import pkgutil
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import chain
from operator import sub
from typing import Any

import numpy as np

from ..errors import UsageError
from . import seeding

DIFFICULTIES = ("easy", "medium", "hard")


@dataclass(frozen=True)
class Step:
    """One step of a worked solution."""

    title: str
    """What the step does, in plain words ("Scale by sqrt(d_k)")."""
    latex: str
    """The step's math as LaTeX, without delimiters (display style)."""


@dataclass(frozen=True)
class Distractor:
    """The result a student gets by making one named mistake."""

    mistake: str
    """The mistake, in plain words ("forgot to divide by sqrt(d_k)")."""
    answer: dict[str, Any]
    """The wrong answer: the type's primary key at least, named as in the problem's answer."""


@dataclass(frozen=True)
class Tolerance:
    """How close an answer must be to count as right."""

    abs: float | None = None
    """Largest absolute difference accepted."""
    rel: float | None = None
    """Largest relative difference accepted."""

    def accepts(self, expected: float, got: float) -> bool:
        diff = abs(expected - got)
        return diff <= (self.abs or 0.0) or diff <= (self.rel or 0.0) * abs(expected)

    def to_json(self) -> dict[str, float]:
        out = {}
        if self.abs is not None:
            out["abs"] = self.abs
        if self.rel is not None:
            out["rel"] = self.rel
        return out


@dataclass(frozen=True)
class Solution:
    """What ``solve`` returns: everything that follows from the givens."""

    answer: dict[str, Any]
    """Named results, JSON-plain (numbers, nested lists, strings)."""
    steps: tuple[Step, ...]
    """Worked steps with intermediate values."""
    distractors: tuple[Distractor, ...] = ()
    """Results of named mistakes, for multiple choice and for keys."""


@dataclass(frozen=True)
class ProblemType:
    """A registered kind of problem."""

    id: str
    """Short id used on the command line and in recipes (``sdpa``)."""
    description: str
    """One line for ``paperdeck list``."""
    pick: Callable[[np.random.Generator, str], dict[str, Any]]
    """Draws the givens for a difficulty."""
    solve: Callable[[dict[str, Any]], Solution]
    """Computes answer, steps and distractors from givens."""
    prompt: Callable[[dict[str, Any]], str]
    """The question, Markdown with \\( \\) math, for these givens."""
    tolerance: Tolerance
    """Tolerance for every numeric answer of this type."""
    primary: str
    """The answer key a student types on a card."""
    source: str
    """Where the paper teaches it (``S3.E1``)."""
    solve_picked: Callable[[dict[str, Any]], Solution] | None = None
    """``solve`` without its input checks, for givens ``pick`` drew (optional, for speed)."""
    needs_calculator: bool = False
    """Its answer needs sin, cos, roots or powers that a printed table cannot give."""


@dataclass(frozen=True)
class Problem:
    """One generated problem with its key, in the public JSON form."""

    id: str
    type: str
    seed: int
    """The seed that regenerates exactly this problem."""
    difficulty: str
    prompt: str
    given: dict[str, Any]
    steps: tuple[Step, ...]
    answer: dict[str, Any]
    tolerance: Tolerance
    distractors: tuple[Distractor, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "type": self.type,
            "seed": self.seed,
            "difficulty": self.difficulty,
            "prompt": self.prompt,
            "given": self.given,
            "steps": [{"title": s.title, "latex": s.latex} for s in self.steps],
            "answer": self.answer,
            "tolerance": self.tolerance.to_json(),
            "distractors": [{"mistake": d.mistake, "answer": d.answer} for d in self.distractors],
        }


# Answers keep ten decimals: far below any tolerance, and enough rounding that the
# last-bit differences between exp/sin implementations on different machines do
# not show in the JSON.
ANSWER_DECIMALS = 10


def plain(value: Any) -> Any:
    """A number, array or nested list as JSON-plain floats rounded to ANSWER_DECIMALS."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    # Adding 0.0 turns -0.0 into 0.0, which would otherwise print as "-0.0".
    return round(float(value), ANSWER_DECIMALS) + 0.0


_REGISTRY: dict[str, ProblemType] = {}


def register(problem_type: ProblemType) -> ProblemType:
    """Add a problem type to the registry; each id once."""
    if problem_type.id in _REGISTRY:
        raise ValueError(f"problem type {problem_type.id!r} registered twice")
    _REGISTRY[problem_type.id] = problem_type
    return problem_type


_loaded = False


def _load_all() -> None:
    # A flag, not "is the registry empty": importing one type module directly
    # registers that type alone.
    global _loaded
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")
    _loaded = True


def all_types() -> dict[str, ProblemType]:
    """Every registered problem type, by id, in a stable order."""
    if not _loaded:
        _load_all()
    return dict(sorted(_REGISTRY.items()))


def get(type_id: str) -> ProblemType:
    """The problem type with this id, or a UsageError listing the valid ids."""
    if type_id in _REGISTRY:
        return _REGISTRY[type_id]
    types = all_types()
    try:
        return types[type_id]
    except KeyError:
        raise UsageError(
            f"unknown problem type {type_id!r}; choose from {', '.join(types)}"
        ) from None


def problem_seed(set_seed: int, type_id: str, index: int) -> int:
    """The seed of problem ``index`` of type ``type_id`` in the set ``set_seed``.

    Derived with a SeedSequence so it is the same on every machine and does not
    depend on Python's string hashing.
    """
    sequence = np.random.SeedSequence([set_seed, zlib.crc32(type_id.encode()), index])
    return int(sequence.generate_state(1, np.uint32)[0])


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
    return value


def _close(expected: list[Any], got: list[Any], abs_: float, rel: float) -> bool:
    """Same shape, and every component within ``abs_`` or ``rel`` of the expected one."""
    if len(expected) != len(got):
        return False
    if not rel:  # the common case, in C
        return max(map(abs, map(sub, expected, got))) <= abs_
    for e, g in zip(expected, got, strict=True):
        diff = abs(e - g)
        if diff > abs_ and diff > rel * abs(e):
            return False
    return True


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


def _make(problem_type: ProblemType, rng: np.random.Generator, seed: int, difficulty: str,
          index: int) -> Problem:
    """The problem ``rng`` (``default_rng(seed)`` or a Generator in its state) draws."""
    solve = problem_type.solve_picked or problem_type.solve
    for _ in range(_MAX_DRAWS):
        given = problem_type.pick(rng, difficulty)
        solution = solve(given)
        distractors = _separated(solution, problem_type.tolerance, problem_type.primary)
        if distractors is not None:
            break
    else:  # a bug in the type's pick: its mistakes cannot be told apart
        raise RuntimeError(f"{problem_type.id}: no draw in {_MAX_DRAWS} separates its named mistakes")
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
        distractors=distractors,
    )


def _separated(solution: Solution, tolerance: Tolerance,
               key: str) -> tuple[Distractor, ...] | None:
    """The distractors to keep, or None when a named mistake is too close to the answer.

    A mistake is caught when its ``key`` differs from the answer's by more than
    _MISTAKE_MARGIN tolerances in at least one component. A distractor the
    tolerance cannot tell from an earlier one is dropped: two mistakes can land on
    the same number, and a multiple-choice card must not show it twice.
    """
    abs_, rel = tolerance.abs or 0.0, tolerance.rel or 0.0
    expected = _components(solution.answer[key])
    distractors = solution.distractors
    got = [_components(distractor.answer[key]) for distractor in distractors]
    if rel:  # the general test
        if any(_close(expected, g, abs_ * _MISTAKE_MARGIN, rel * _MISTAKE_MARGIN) for g in got):
            return None
        keep: list[bool] = []
        for i, g in enumerate(got):
            keep.append(not any(keep[j] and _close(got[j], g, abs_, rel) for j in range(i)))
    else:  # an absolute tolerance, the common case: the same tests, cheaper
        # Two results are close when every component is; most pairs already differ
        # in the first, which one subtraction shows.
        size, margin = len(expected), abs_ * _MISTAKE_MARGIN
        first = expected[0] if size else 0.0
        for g in got:
            if (len(g) == size and (not size or abs(first - g[0]) <= margin)
                    and max(map(abs, map(sub, expected, g)), default=0.0) <= margin):
                return None
        keep = [True] * len(got)
        for i in range(1, len(got)):
            g = got[i]
            for j in range(i):
                other = got[j]
                if (keep[j] and len(other) == len(g) and (not g or abs(other[0] - g[0]) <= abs_)
                        and max(map(abs, map(sub, other, g)), default=0.0) <= abs_):
                    keep[i] = False
                    break
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


# Seeds and Generator states are computed this many problems at a time.
_BLOCK = 512


def _generate(type_id: str, count: int, seed: int, difficulty: str) -> Iterator[Problem]:
    # Problem i is generate_one(type_id, problem_seed(seed, type_id, i), difficulty, i):
    # the same seeds and Generator states, computed for a block of problems at once
    # (seeding.py), and one Generator whose state is set for each problem instead of
    # a new default_rng.
    problem_type = get(type_id)
    bit_generator = np.random.PCG64(0)
    rng = np.random.Generator(bit_generator)
    for start in range(0, count, _BLOCK):
        seeds = seeding.problem_seeds(seed, type_id, start, min(count, start + _BLOCK))
        for offset, (problem_seed_, state) in enumerate(zip(seeds, seeding.pcg64_states(seeds),
                                                            strict=True)):
            bit_generator.state = state
            yield _make(problem_type, rng, problem_seed_, difficulty, start + offset)
