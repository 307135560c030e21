"""Scaled dot-product attention, Eq. (1): softmax(Q K^T / sqrt(d_k)) V.

This is the type the benchmark times, so its arithmetic runs on nested lists
rather than NumPy arrays: at these sizes (a 2 x 3 score matrix, a 4-entry dot
product) plain Python is several times faster than NumPy, whose per-call
overhead dwarfs the arithmetic. The other attention types reuse its checks.
"""

from __future__ import annotations

import math
from operator import mul
from typing import Any, NamedTuple

import numpy as np

from ...values import Precision
from ..inputs import Rows, check_keys, matrix_rows
from ..latex import matrix as latex_matrix
from ..latex import row as latex_row
from ..model import Distractor, ProblemType, Solution, Step, Tolerance
from ..registry import register
from ..rounding import ANSWER_DECIMALS

Matrix = list[list[float]]
"""A matrix as a list of rows of floats, as in the JSON form."""

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
    return (np.array([2 * top + 1] * qk + [2 * value_top + 1] * v), np.array([top] * qk + [value_top] * v))


_SPANS = {difficulty: _spans(difficulty) for difficulty in _SIZES}


def pick(rng: np.random.Generator, difficulty: str) -> dict[str, Any]:
    n_q, n_k, d_k, d_v, _, _ = _SIZES[difficulty]
    span, top = _SPANS[difficulty]
    limit = MAX_SPREAD * math.isqrt(d_k)
    size, qk = span.shape[0], (n_q + n_k) * d_k
    while True:
        # One uniform draw for Q, K and V together, each entry an integer in
        # [-top, top]: a NumPy call costs more than its numbers (rng.integers with
        # per-entry bounds takes twice as long).
        flat = (rng.random(size) * span).astype(np.int64) - top
        QK = flat[:qk].reshape(n_q + n_k, d_k).tolist()
        Q, K = QK[:n_q], QK[n_q:]
        for q in Q:
            row = [sum(map(mul, q, k)) for k in K]
            if not 0 < max(row) - min(row) <= limit:
                break
        else:
            break
    return {"Q": Q, "K": K, "V": flat[qk:].reshape(n_k, d_v).tolist()}


def attention_inputs(given: dict[str, Any]) -> tuple[Rows, Rows, Rows]:
    """Q, K and V from the givens, with their shapes checked against each other."""
    check_keys(given, ("Q", "K", "V"))
    Q = matrix_rows(given, "Q")
    K = matrix_rows(given, "K", cols=len(Q[0]), why="keys have d_k columns, like the queries")
    V = matrix_rows(given, "V", rows=len(K), why="one value per key")
    return Q, K, V


class _Row(NamedTuple):
    """What one row of raw scores QK^T (or one column, for the softmax-over-queries
    mistake) turns into."""

    scores: list[float]  # the row scaled by 1/sqrt(d_k)
    weights: list[float]  # softmax of the scaled row
    scores_rounded: list[float]  # both rounded for the answer
    weights_rounded: list[float]
    scores_latex: str  # both as LaTeX, "a & b & c"
    weights_latex: str
    unscaled_weights: list[float]  # softmax of the raw row (forgot sqrt(d_k))
    by_d_k_weights: list[float]  # softmax of the row divided by d_k
    raw_latex: str
    raw: list[float]
    first_steps: tuple[Step, Step, Step]  # of a problem with one query whose row this is


def _row(d_k: int, root: float, raw: list[float]) -> _Row:
    scores = [x / root for x in raw]
    weights = _softmax(scores)
    scores_latex, weights_latex, raw_latex = latex_row(scores), latex_row(weights), latex_row(raw)
    return _Row(
        scores,
        weights,
        _rounded(scores),
        _rounded(weights),
        scores_latex,
        weights_latex,
        _softmax(raw),
        _softmax([x / d_k for x in raw]),
        raw_latex,
        raw,
        _first_steps(d_k, [raw_latex], [scores_latex], [weights_latex]),
    )


def _constants(d_k: int) -> tuple[float, tuple[str, ...], tuple[str, ...]]:
    """sqrt(d_k), the step titles and the LaTeX each step starts with, for this d_k."""
    whole = math.isqrt(d_k)
    by_hand = rf"\frac{{QK^{{\top}}}}{{{whole}}} = " if whole * whole == d_k and whole > 1 else ""
    titles = (
        "Dot products of every query with every key",
        rf"Scale by the square root of \(d_k = {d_k}\)",
        "Softmax along each row (over the keys)",
        "Weighted sum of the values",
    )
    prefixes = (
        r"QK^{\top} = \begin{pmatrix} ",
        r"\frac{QK^{\top}}{\sqrt{" + str(d_k) + "}} = " + by_hand + r"\begin{pmatrix} ",
        r"A = \mathrm{softmax}\left(\frac{QK^{\top}}{\sqrt{d_k}}\right) = \begin{pmatrix} ",
    )
    return math.sqrt(d_k), titles, prefixes


def _first_steps(
    d_k: int, raw_latex: list[str], scores_latex: list[str], weights_latex: list[str]
) -> tuple[Step, Step, Step]:
    """The steps up to the attention weights, from the LaTeX of each row of QK^T."""
    _, titles, prefixes = _constants(d_k)
    return (
        Step(titles[0], prefixes[0] + r" \\ ".join(raw_latex) + r" \end{pmatrix}"),
        Step(titles[1], prefixes[1] + r" \\ ".join(scores_latex) + r" \end{pmatrix}"),
        Step(titles[2], prefixes[2] + r" \\ ".join(weights_latex) + r" \end{pmatrix}"),
    )


def _softmax(row: list[float]) -> list[float]:
    top = max(row)
    exps = [math.exp(x - top) for x in row]
    total = sum(exps)
    return [e / total for e in exps]


def _round(x: float) -> float:
    """As ``plain`` rounds an answer: to ANSWER_DECIMALS, never -0.0."""
    return round(x, ANSWER_DECIMALS) + 0.0


def _rounded(row: list[float]) -> list[float]:
    return list(map(_round, row))


def _rounded_product(A: Rows, columns: list[tuple[float, ...]]) -> Matrix:
    """A V, given V's columns, rounded like ``plain``."""
    return [[_round(sum(map(mul, row, col))) for col in columns] for row in A]


_FORGOT_ROOT = r"forgot to divide by \(\sqrt{d_k}\)"
_DIVIDED_BY_D_K = r"divided by \(d_k\) instead of \(\sqrt{d_k}\)"
_OVER_QUERIES = "took the softmax over the queries (columns) instead of the keys (rows)"
_NO_SOFTMAX = "skipped the softmax (used the scaled scores as weights)"


def solve(given: dict[str, Any]) -> Solution:
    return _solve(*attention_inputs(given))


def _solve_picked(given: dict[str, Any]) -> Solution:
    """``solve`` for givens ``pick`` drew: integer matrices of matching shapes."""
    return _solve(given["Q"], given["K"], given["V"])


def _solve(Q: Rows, K: Rows, V: Rows) -> Solution:
    d_k = len(Q[0])
    root, titles, _ = _constants(d_k)
    rows = [_row(d_k, root, [sum(map(mul, q, k)) for k in K]) for q in Q]
    columns = list(zip(*V, strict=True))
    # One pass over (row, column) for the output and the three distractors that
    # weight V by a row: matrix products, rounded.
    output, output_rounded, no_softmax, forgot_root, by_d_k = [], [], [], [], []
    for r in rows:
        scores, weights, unscaled, divided = r.scores, r.weights, r.unscaled_weights, r.by_d_k_weights
        out = [sum(map(mul, weights, col)) for col in columns]
        output.append(out)
        output_rounded.append(list(map(_round, out)))
        no_softmax.append([_round(sum(map(mul, scores, col))) for col in columns])
        forgot_root.append([_round(sum(map(mul, unscaled, col))) for col in columns])
        by_d_k.append([_round(sum(map(mul, divided, col))) for col in columns])
    # One query (easy): the first three steps follow from its row alone.
    first_steps = (
        rows[0].first_steps
        if len(rows) == 1
        else _first_steps(
            d_k, [r.raw_latex for r in rows], [r.scores_latex for r in rows], [r.weights_latex for r in rows]
        )
    )
    steps = (*first_steps, Step(titles[3], r"AV = " + latex_matrix(output)))
    # Distractors state the primary key only: they are the wrong options of a
    # multiple-choice card, and the JSON stays small.
    # Only the weights of each column: its scores, LaTeX and other mistakes are never shown.
    over_queries = [_softmax([x / root for x in col]) for col in zip(*(r.raw for r in rows), strict=True)]
    distractors: tuple[Distractor, ...] = (
        Distractor(
            _OVER_QUERIES, {"output": _rounded_product(list(zip(*over_queries, strict=True)), columns)}
        ),
        Distractor(_NO_SOFTMAX, {"output": no_softmax}),
    )
    if d_k > 1:
        distractors = (
            Distractor(_FORGOT_ROOT, {"output": forgot_root}),
            Distractor(_DIVIDED_BY_D_K, {"output": by_d_k}),
            *distractors,
        )
    answer = {
        "scores": [r.scores_rounded for r in rows],
        "weights": [r.weights_rounded for r in rows],
        "output": output_rounded,
    }
    return Solution(answer, steps, distractors)


PRECISION = Precision(decimals=3)
"""The digits its answers are given to; its prompt asks for them in words (``_ASKED``)."""
_ASKED = PRECISION.spelled()


def prompt(given: dict[str, Any]) -> str:
    d_k = len(given["Q"][0])
    return (
        r"Compute \(\mathrm{Attention}(Q,K,V)=\mathrm{softmax}\left(\frac{QK^{\top}}{\sqrt{d_k}}\right)V\)"
        r" for \(Q = " + latex_matrix(given["Q"]) + r"\), \(K = " + latex_matrix(given["K"]) + r"\)"
        r" and \(V = " + latex_matrix(given["V"]) + rf"\), so \(d_k = {d_k}\)."
        f" Give the output to {_ASKED} (the softmax runs over each row)."
    )


def softmax_inputs(given: dict[str, Any]) -> list[np.ndarray]:
    """The scaled scores QK^T / sqrt(d_k): one softmax per row."""
    Q = np.asarray(given["Q"], dtype=float)
    K = np.asarray(given["K"], dtype=float)
    return [Q @ K.T / np.sqrt(Q.shape[1])]


register(
    ProblemType(
        id="sdpa",
        description="Scaled dot-product attention (Eq. 1): scores, weights and output",
        pick=pick,
        solve=solve,
        prompt=prompt,
        tolerance=Tolerance(abs=0.005),
        precision=PRECISION,
        primary="output",
        source="S3.E1",
        paper="aiayn",
        work_space_cm=8.0,
        heatmap="full",
        softmax_inputs=softmax_inputs,
        solve_picked=_solve_picked,
        inputs={
            "Q": "queries (n_q × d_k)",
            "K": "keys (n_k × d_k)",
            "V": "values (n_k × d_v)",
        },
        outputs={
            "scores": "Q Kᵀ / √d_k",
            "weights": "softmax of each row of the scores",
            "output": "weights · V",
        },
    )
)
