"""Scaled dot-product attention, Eq. (1): softmax(Q K^T / sqrt(d_k)) V."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import ProblemInputError
from . import Distractor, ProblemType, Solution, Step, Tolerance, register
from .latex import matrix, number
from .softmax import softmax

# (queries, keys, d_k, d_v, largest |entry|); d_k is a perfect square so that
# sqrt(d_k) is a whole number a student can divide by.
_SIZES = {"easy": (1, 2, 4, 2, 1), "medium": (2, 3, 4, 2, 2), "hard": (2, 3, 9, 3, 2)}


def pick(rng: np.random.Generator, difficulty: str) -> dict[str, Any]:
    n_q, n_k, d_k, d_v, top = _SIZES[difficulty]
    while True:
        Q = rng.integers(-top, top + 1, size=(n_q, d_k))
        K = rng.integers(-top, top + 1, size=(n_k, d_k))
        scores = Q @ K.T
        # Every query must tell its keys apart (no uniform row) without being
        # one-hot (scaled scores kept within 3 of each other).
        spread = np.ptp(scores, axis=1) / np.sqrt(d_k)
        if np.all(spread > 0) and np.all(spread <= 3):
            break
    V = rng.integers(-3, 4, size=(n_k, d_v))
    return {"Q": Q.tolist(), "K": K.tolist(), "V": V.tolist()}


def _matrices(given: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    try:
        Q, K, V = (np.atleast_2d(np.asarray(given[k], dtype=float)) for k in ("Q", "K", "V"))
    except KeyError as missing:
        raise ProblemInputError(f"given.{missing.args[0]}", "missing") from None
    except ValueError:
        raise ProblemInputError("given", "Q, K and V must be matrices of numbers") from None
    if Q.ndim != 2 or K.ndim != 2 or V.ndim != 2:
        raise ProblemInputError("given", "Q, K and V must be matrices")
    if Q.shape[1] != K.shape[1]:
        raise ProblemInputError("given.K", f"has {K.shape[1]} columns but Q has {Q.shape[1]} (both d_k)")
    if K.shape[0] != V.shape[0]:
        raise ProblemInputError("given.V", f"has {V.shape[0]} rows but K has {K.shape[0]} (one per key)")
    return Q, K, V


def solve(given: dict[str, Any]) -> Solution:
    Q, K, V = _matrices(given)
    d_k = Q.shape[1]
    raw = Q @ K.T
    scores = raw / np.sqrt(d_k)
    weights = softmax(scores)
    output = weights @ V
    steps = (
        Step("Dot products of queries with keys", r"QK^\top = " + matrix(raw)),
        Step(f"Scale by sqrt(d_k) = sqrt({d_k})",
             r"\frac{QK^\top}{\sqrt{" + str(d_k) + "}} = " + matrix(scores)),
        Step("Softmax along each row (over the keys)", r"A = " + matrix(weights)),
        Step("Weighted sum of the values", r"AV = " + matrix(output)),
    )
    distractors = (
        Distractor("forgot to divide by sqrt(d_k)", {"output": (softmax(raw) @ V).tolist()}),
        Distractor("divided by d_k instead of sqrt(d_k)", {"output": (softmax(raw / d_k) @ V).tolist()}),
        Distractor("took the softmax over the queries (columns) instead of the keys",
                   {"output": (softmax(scores.T).T @ V).tolist()}),
    )
    answer = {"scores": scores.tolist(), "weights": weights.tolist(), "output": output.tolist()}
    return Solution(answer, steps, distractors)


def prompt(given: dict[str, Any]) -> str:
    d_k = len(given["Q"][0])
    return (
        r"Compute \(\mathrm{Attention}(Q,K,V)=\mathrm{softmax}\left(\frac{QK^\top}{\sqrt{d_k}}\right)V\)"
        rf" with \(d_k = {d_k}\) for"
        r" \(Q = " + matrix(given["Q"]) + r"\), \(K = " + matrix(given["K"]) + r"\)"
        r" and \(V = " + matrix(given["V"]) + r"\). Give the scaled scores, the attention"
        " weights and the output to three decimals."
    )


register(ProblemType(
    id="sdpa",
    description="Scaled dot-product attention (Eq. 1): scores, weights and output",
    pick=pick, solve=solve, prompt=prompt,
    tolerance=Tolerance(abs=0.001), primary="output", source="S3.E1",
))
