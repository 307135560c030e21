"""Randomized numeric problems with step-by-step keys.

A problem type is registered under a short id by the module that defines it (one
module per type, in ``types/``; ``all_types`` and ``get`` import them all). Each
type is a pair of pure functions:

- ``pick(rng, difficulty) -> given``: draws hand-computable givens from an
  explicit ``numpy.random.Generator``, already rounded, as JSON-plain data;
- ``solve(given) -> Solution``: the answer, worked steps and the results of
  named mistakes, computed from the givens in float64.

``solve`` also recomputes the worked examples in content, so a stated result
and a generated key can never disagree about the method. A ``ProblemType`` also
states what the exporters read from it: the work space on paper, whether a card
shows an attention heatmap, the scores behind a quiz's table of exponentials.

The modules, by job: ``model`` (the dataclasses), ``rounding`` (answers in the
JSON form), ``registry`` (``register``, ``all_types``, ``get``, ``get_each``), ``generation``
(``problem_seed``, ``variant_seed``, ``generate_one``, ``generate``, and
``regenerated`` for the key reader and the feedback); ``inputs`` and ``latex`` are helpers for the
type modules. This module re-exports the public
names (and ``values.Precision``, which a type declares), so callers write ``problems.get(...)``, ``problems.Problem``.
"""

from __future__ import annotations

from ..values import Precision
from .generation import Regenerated, generate, generate_one, problem_seed, regenerated, variant_seed
from .model import DIFFICULTIES, Distractor, Problem, ProblemType, Solution, Step, Tolerance
from .registry import all_types, get, get_each, load_project_types, register
from .rounding import ANSWER_DECIMALS, plain

__all__ = [
    "ANSWER_DECIMALS",
    "DIFFICULTIES",
    "Distractor",
    "Precision",
    "Problem",
    "ProblemType",
    "Regenerated",
    "Solution",
    "Step",
    "Tolerance",
    "all_types",
    "generate",
    "generate_one",
    "get",
    "get_each",
    "load_project_types",
    "plain",
    "problem_seed",
    "regenerated",
    "register",
    "variant_seed",
]
