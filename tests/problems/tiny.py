"""Linear algebra on nested lists, for the few-by-few matrices of hand problems.

The reference arithmetic of sdpa's first version, which test_problem_fast_paths
compares the optimised solve against.

At these sizes (a 2 x 3 score matrix, a 4-entry dot product) plain Python is
several times faster than NumPy, whose per-call overhead (about a microsecond)
dwarfs the arithmetic; see benchmarks/bench_problems.py. Matrices are lists of
rows of floats, as in the JSON form.
"""

from __future__ import annotations

import math
from operator import mul

from generator.problems import ANSWER_DECIMALS

Matrix = list[list[float]]


def matmul(A: Matrix, B: Matrix) -> Matrix:
    """The product A B."""
    columns = list(zip(*B, strict=True))
    return [[sum(map(mul, row, col)) for col in columns] for row in A]


def matmul_transposed(A: Matrix, B: Matrix) -> Matrix:
    """The product A B^T (every row of A against every row of B)."""
    return [[sum(map(mul, row, other)) for other in B] for row in A]


def transpose(A: Matrix) -> Matrix:
    return [list(col) for col in zip(*A, strict=True)]


def scale(A: Matrix, factor: float) -> Matrix:
    """Every entry divided by ``factor``."""
    return [[x / factor for x in row] for row in A]


def softmax_rows(S: Matrix) -> Matrix:
    """Softmax of each row; ``-inf`` entries get weight 0."""
    out = []
    for row in S:
        top = max(row)
        exps = [math.exp(x - top) for x in row]
        total = sum(exps)
        out.append([e / total for e in exps])
    return out


def rounded(A: Matrix) -> Matrix:
    """JSON-plain copy rounded like ``problems.plain`` (ten decimals, no -0.0)."""
    return [[round(x, ANSWER_DECIMALS) + 0.0 for x in row] for row in A]
