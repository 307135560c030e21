"""Scaled dot-product attention, Eq. (1): softmax(Q K^T / sqrt(d_k)) V."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import Distractor, ProblemType, Solution, Step, Tolerance, plain, register
from .inputs import check_keys, matrix
from .latex import matrix as latex_matrix
from .softmax import softmax

# (queries, keys, d_k, d_v, largest |entry| of Q and K); d_k is a perfect square so
# that sqrt(d_k) is a whole number a student can divide by.
_SIZES = {"easy": (1, 2, 4, 2, 1), "medium": (2, 3, 4, 2, 2), "hard": (2, 3, 9, 3, 1)}
_VALUE_RANGE = {"easy": 3, "medium": 3, "hard": 4}
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


def pick(rng: np.random.Generator, difficulty: str) -> dict[str, Any]:
    n_q, n_k, d_k, d_v, top = _SIZES[difficulty]
    while True:
        QK = rng.integers(-top, top + 1, size=(n_q + n_k, d_k))
        Q, K = QK[:n_q], QK[n_q:]
        if readable_scores(Q @ K.T / np.sqrt(d_k)):
            break
    value_top = _VALUE_RANGE[difficulty]
    V = rng.integers(-value_top, value_top + 1, size=(n_k, d_v))
    return {"Q": Q.tolist(), "K": K.tolist(), "V": V.tolist()}


def attention_inputs(given: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Q, K and V from the givens, with their shapes checked against each other."""
    check_keys(given, ("Q", "K", "V"))
    Q = matrix(given, "Q")
    K = matrix(given, "K", cols=Q.shape[1], why="keys have d_k columns, like the queries")
    V = matrix(given, "V", rows=K.shape[0], why="one value per key")
    return Q, K, V


def solve(given: dict[str, Any]) -> Solution:
    Q, K, V = attention_inputs(given)
    d_k = Q.shape[1]
    raw = Q @ K.T
    scores = raw / np.sqrt(d_k)
    weights = softmax(scores)
    output = weights @ V
    root = _root(d_k)
    steps = (
        Step("Dot products of every query with every key",
             r"QK^{\top} = " + latex_matrix(raw)),
        Step(f"Scale by the square root of d_k = {d_k}",
             r"\frac{QK^{\top}}{\sqrt{" + str(d_k) + "}} = " + root + latex_matrix(scores)),
        Step("Softmax along each row (over the keys)",
             r"A = \mathrm{softmax}\left(\frac{QK^{\top}}{\sqrt{d_k}}\right) = "
             + latex_matrix(weights)),
        Step("Weighted sum of the values", r"AV = " + latex_matrix(output)),
    )
    wrong_axis = softmax(scores.T).T
    unscaled = softmax(raw)
    by_d_k = softmax(raw / d_k)
    distractors = [
        Distractor("took the softmax over the queries (columns) instead of the keys (rows)",
                   {"scores": plain(scores), "weights": plain(wrong_axis),
                    "output": plain(wrong_axis @ V)}),
        Distractor("skipped the softmax (used the scaled scores as weights)",
                   {"scores": plain(scores), "weights": plain(scores),
                    "output": plain(scores @ V)}),
    ]
    if d_k > 1:
        distractors[:0] = [
            Distractor("forgot to divide by sqrt(d_k)",
                       {"scores": plain(raw), "weights": plain(unscaled),
                        "output": plain(unscaled @ V)}),
            Distractor("divided by d_k instead of sqrt(d_k)",
                       {"scores": plain(raw / d_k), "weights": plain(by_d_k),
                        "output": plain(by_d_k @ V)}),
        ]
    answer = {"scores": plain(scores), "weights": plain(weights), "output": plain(output)}
    return Solution(answer, steps, tuple(distractors))


def _root(d_k: int) -> str:
    """``= \\frac{QK^T}{2}`` when sqrt(d_k) is whole: the division a student does by hand."""
    r = int(round(d_k**0.5))
    return rf"\frac{{QK^{{\top}}}}{{{r}}} = " if r * r == d_k and r > 1 else ""


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
