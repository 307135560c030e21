"""Scaled dot-product attention, Eq. (1): softmax(Q K^T / sqrt(d_k)) V.

This is the type the benchmark times, so its arithmetic runs on nested lists
(``tiny``) rather than NumPy arrays; the other attention types reuse its checks.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import Distractor, ProblemType, Solution, Step, Tolerance, register
from .inputs import check_keys, matrix_rows
from .latex import matrix as latex_matrix
from .tiny import Matrix, matmul, matmul_transposed, rounded, scale, softmax_rows, transpose

# (queries, keys, d_k, d_v, largest |entry| of Q and K, largest |entry| of V); d_k is
# a perfect square so that sqrt(d_k) is a whole number a student can divide by.
_SIZES = {"easy": (1, 2, 4, 2, 1, 3), "medium": (2, 3, 4, 2, 2, 3), "hard": (2, 3, 9, 3, 1, 4)}
# Scaled scores of one query stay within this of each other, so that no weight
# rounds to zero (the softmax is never close to one-hot).
MAX_SPREAD = 3.0


def readable_scores(scaled: np.ndarray, rows: np.ndarray | None = None) -> bool:
    """Every row of scaled scores has distinct entries (not uniform) and a small spread.

    ``rows`` masks the entries that count (those not masked out), row by row.
    """
    if rows is None:
        spread = np.ptp(scaled, axis=-1)
    else:
        high = np.where(rows, scaled, -np.inf).max(axis=-1)
        low = np.where(rows, scaled, np.inf).min(axis=-1)
        spread = high - low
        spread = spread[rows.sum(axis=-1) > 1]  # a single allowed key is always weight 1
    return bool(np.all(spread > 0) and np.all(spread <= MAX_SPREAD))


def _spans(difficulty: str) -> tuple[np.ndarray, np.ndarray]:
    n_q, n_k, d_k, d_v, top, value_top = _SIZES[difficulty]
    qk, v = (n_q + n_k) * d_k, n_k * d_v
    return (np.array([2 * top + 1] * qk + [2 * value_top + 1] * v),
            np.array([top] * qk + [value_top] * v))


_SPANS = {difficulty: _spans(difficulty) for difficulty in _SIZES}


def pick(rng: np.random.Generator, difficulty: str) -> dict[str, Any]:
    n_q, n_k, d_k, d_v, _, _ = _SIZES[difficulty]
    span, top = _SPANS[difficulty]
    limit = MAX_SPREAD * math.isqrt(d_k)
    while True:
        # One uniform draw for Q, K and V together, each entry an integer in
        # [-top, top]: a NumPy call costs more than its numbers (rng.integers with
        # per-entry bounds takes twice as long).
        flat = ((rng.random(span.shape[0]) * span).astype(np.int64) - top).tolist()
        Q = [flat[i:i + d_k] for i in range(0, n_q * d_k, d_k)]
        K = [flat[i:i + d_k] for i in range(n_q * d_k, (n_q + n_k) * d_k, d_k)]
        raw = matmul_transposed(Q, K)
        if all(0 < max(row) - min(row) <= limit for row in raw):
            break
    start = (n_q + n_k) * d_k
    V = [flat[i:i + d_v] for i in range(start, start + n_k * d_v, d_v)]
    return {"Q": Q, "K": K, "V": V}


def attention_inputs(given: dict[str, Any]) -> tuple[Matrix, Matrix, Matrix]:
    """Q, K and V from the givens, with their shapes checked against each other."""
    check_keys(given, ("Q", "K", "V"))
    Q = matrix_rows(given, "Q")
    K = matrix_rows(given, "K", cols=len(Q[0]), why="keys have d_k columns, like the queries")
    V = matrix_rows(given, "V", rows=len(K), why="one value per key")
    return Q, K, V


def solve(given: dict[str, Any]) -> Solution:
    Q, K, V = attention_inputs(given)
    d_k = len(Q[0])
    root = math.sqrt(d_k)
    raw = matmul_transposed(Q, K)
    scores = scale(raw, root)
    weights = softmax_rows(scores)
    output = matmul(weights, V)
    whole = math.isqrt(d_k)
    by_hand = rf"\frac{{QK^{{\top}}}}{{{whole}}} = " if whole * whole == d_k and whole > 1 else ""
    steps = (
        Step("Dot products of every query with every key",
             r"QK^{\top} = " + latex_matrix(raw)),
        Step(f"Scale by the square root of d_k = {d_k}",
             r"\frac{QK^{\top}}{\sqrt{" + str(d_k) + "}} = " + by_hand + latex_matrix(scores)),
        Step("Softmax along each row (over the keys)",
             r"A = \mathrm{softmax}\left(\frac{QK^{\top}}{\sqrt{d_k}}\right) = "
             + latex_matrix(weights)),
        Step("Weighted sum of the values", r"AV = " + latex_matrix(output)),
    )
    # Distractors state the primary key only: they are the wrong options of a
    # multiple-choice card, and the JSON stays small.
    distractors = [
        Distractor("took the softmax over the queries (columns) instead of the keys (rows)",
                   {"output": rounded(matmul(transpose(softmax_rows(transpose(scores))), V))}),
        Distractor("skipped the softmax (used the scaled scores as weights)",
                   {"output": rounded(matmul(scores, V))}),
    ]
    if d_k > 1:
        distractors[:0] = [
            Distractor("forgot to divide by sqrt(d_k)",
                       {"output": rounded(matmul(softmax_rows(raw), V))}),
            Distractor("divided by d_k instead of sqrt(d_k)",
                       {"output": rounded(matmul(softmax_rows(scale(raw, d_k)), V))}),
        ]
    answer = {"scores": rounded(scores), "weights": rounded(weights), "output": rounded(output)}
    return Solution(answer, steps, tuple(distractors))


def prompt(given: dict[str, Any]) -> str:
    d_k = len(given["Q"][0])
    return (
        r"Compute \(\mathrm{Attention}(Q,K,V)=\mathrm{softmax}\left(\frac{QK^{\top}}{\sqrt{d_k}}\right)V\)"
        r" for \(Q = " + latex_matrix(given["Q"]) + r"\), \(K = " + latex_matrix(given["K"]) + r"\)"
        r" and \(V = " + latex_matrix(given["V"]) + rf"\), so \(d_k = {d_k}\)."
        " Give the scaled scores, the attention weights (softmax over each row) and the"
        " output to three decimals."
    )


register(ProblemType(
    id="sdpa",
    description="Scaled dot-product attention (Eq. 1): scores, weights and output",
    pick=pick, solve=solve, prompt=prompt,
    tolerance=Tolerance(abs=0.005), primary="output", source="S3.E1",
))
