"""Multi-head self-attention (S3.2.2): Concat(head_1, ..., head_h) W^O."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import ProblemInputError
from ...values import Precision
from ..inputs import check_keys, check_shape, matrices, matrix
from ..latex import matrix as latex_matrix
from ..model import Distractor, ProblemType, Solution, Step, Tolerance
from ..registry import register
from ..rounding import plain
from .sdpa import MAX_SPREAD
from .softmax import softmax

# (positions n, d_model, heads h, largest |entry| of X); d_k = d_v = d_model / h as in
# the paper. Projection weights are -1, 0 or 1 so each projection is additions only.
_SIZES = {"easy": (2, 2, 2, 2), "medium": (3, 2, 2, 1), "hard": (3, 4, 2, 1)}


def _head(rng: np.random.Generator, X: np.ndarray, d_k: int) -> np.ndarray | None:
    """W^Q, W^K, W^V of one head whose scores are readable, or None if X allows none.

    Candidates are drawn and checked 64 at a time: few random heads have readable
    scores, and one vectorised check costs less than a loop of small ones.
    """
    for _ in range(4):
        W = rng.integers(-1, 2, size=(64, 3, X.shape[1], d_k))
        P = X @ W  # (64, 3, n, d_k): queries, keys and values of each candidate
        S = P[:, 0] @ P[:, 1].transpose(0, 2, 1) / np.sqrt(d_k)
        # np.ptp, np.all and np.any as the ufunc reductions they call, without their Python
        # wrappers, which were half of this pick's time; it runs about ten times a problem, and
        # the key reader regenerates every problem of a class's key (issue 41).
        spread = _MAX(S, axis=-1) - _MIN(S, axis=-1)
        # Every projection must be used (none all zero) and the scores readable.
        ok = _ALL((spread > 0) & (spread <= MAX_SPREAD), axis=1) & _ALL(_ANY(W != 0, axis=(2, 3)), axis=1)
        if ok.any():
            chosen: np.ndarray = W[int(ok.argmax())]
            return chosen
    return None


_MAX, _MIN, _ALL, _ANY = np.maximum.reduce, np.minimum.reduce, np.logical_and.reduce, np.logical_or.reduce


def pick(rng: np.random.Generator, difficulty: str) -> dict[str, Any]:
    n, d_model, h, top = _SIZES[difficulty]
    d_k = d_model // h
    while True:
        X = rng.integers(-top, top + 1, size=(n, d_model))
        # Heads are drawn one at a time: asking all of them to be readable at
        # once would throw most draws away.
        heads = []
        for _ in range(h):
            W = _head(rng, X, d_k)
            if W is None:
                break
            heads.append(W)
        if len(heads) == h:
            break
    W = np.stack(heads, axis=1)  # (3, h, d_model, d_k)
    W_O = rng.integers(-1, 2, size=(h * d_k, d_model))
    return {
        "X": X.tolist(),
        "W_Q": W[0].tolist(),
        "W_K": W[1].tolist(),
        "W_V": W[2].tolist(),
        "W_O": W_O.tolist(),
    }


def _inputs(
    given: dict[str, Any],
) -> tuple[np.ndarray, list[np.ndarray], list[np.ndarray], list[np.ndarray], np.ndarray]:
    check_keys(given, ("X", "W_Q", "W_K", "W_V", "W_O"))
    X = matrix(given, "X")
    d_model = X.shape[1]
    W_Q = matrices(given, "W_Q")
    h = len(W_Q)
    W_K, W_V = matrices(given, "W_K", h), matrices(given, "W_V", h)
    d_k = W_Q[0].shape[1]
    for key, group in (("W_Q", W_Q), ("W_K", W_K)):
        for i, W in enumerate(group):
            check_shape(W, f"given.{key}[{i}]", d_model, d_k, "d_model x d_k")
    d_v = W_V[0].shape[1]
    for i, W in enumerate(W_V):
        check_shape(W, f"given.W_V[{i}]", d_model, d_v, "d_model x d_v")
    W_O = matrix(given, "W_O", h * d_v, None, "h * d_v rows")
    if W_O.shape[1] != d_model:
        raise ProblemInputError(
            "given.W_O",
            f"has {W_O.shape[1]} columns, expected d_model = {d_model} (the output has the width of X)",
        )
    return X, W_Q, W_K, W_V, W_O


def _multi_head(
    X: np.ndarray,
    W_Q: list[np.ndarray],
    W_K: list[np.ndarray],
    W_V: list[np.ndarray],
    scale: float,
    axis: int = -1,
) -> list[np.ndarray]:
    heads = []
    for wq, wk, wv in zip(W_Q, W_K, W_V, strict=True):
        scores = (X @ wq) @ (X @ wk).T / scale
        weights = softmax(scores) if axis == -1 else softmax(scores.T).T
        heads.append(weights @ (X @ wv))
    return heads


def solve(given: dict[str, Any]) -> Solution:
    return _solve(*_inputs(given))


def _solve_picked(given: dict[str, Any]) -> Solution:
    """``solve`` for givens ``pick`` drew, without the checks of typed givens (a tenth of it)."""
    X, W_O = (np.array(given[key], dtype=float) for key in ("X", "W_O"))
    W_Q, W_K, W_V = ([np.array(W, dtype=float) for W in given[key]] for key in ("W_Q", "W_K", "W_V"))
    return _solve(X, W_Q, W_K, W_V, W_O)


def _solve(
    X: np.ndarray, W_Q: list[np.ndarray], W_K: list[np.ndarray], W_V: list[np.ndarray], W_O: np.ndarray
) -> Solution:
    d_model, d_k = X.shape[1], W_Q[0].shape[1]
    steps: list[Step] = []
    heads = []
    for i, (wq, wk, wv) in enumerate(zip(W_Q, W_K, W_V, strict=True), start=1):
        Q, K, V = X @ wq, X @ wk, X @ wv
        scores = Q @ K.T / np.sqrt(d_k)
        weights = softmax(scores)
        head = weights @ V
        heads.append(head)
        sub = "_{" + str(i) + "}"
        steps += [
            Step(
                rf"Head {i}: project \(X\) to queries, keys and values",
                "Q"
                + sub
                + " = XW^{Q}"
                + sub
                + " = "
                + latex_matrix(Q)
                + ", K"
                + sub
                + " = XW^{K}"
                + sub
                + " = "
                + latex_matrix(K)
                + ", V"
                + sub
                + " = XW^{V}"
                + sub
                + " = "
                + latex_matrix(V),
            ),
            Step(
                rf"Head {i}: scaled scores, divided by \(\sqrt{{d_k}} = \sqrt{{{d_k}}}\)",
                r"\frac{Q"
                + sub
                + r"K"
                + sub
                + r"^{\top}}{\sqrt{"
                + str(d_k)
                + "}} = "
                + latex_matrix(scores),
            ),
            Step(
                f"Head {i}: softmax over each row, then the weighted sum of the values",
                r"A"
                + sub
                + " = "
                + latex_matrix(weights)
                + r", \mathrm{head}"
                + sub
                + " = A"
                + sub
                + "V"
                + sub
                + " = "
                + latex_matrix(head),
            ),
        ]
    concat = np.hstack(heads)
    output = concat @ W_O
    names = ", ".join(r"\mathrm{head}_{" + str(i) + "}" for i in range(1, len(heads) + 1))
    concat_latex = r"\mathrm{Concat}\left(" + names + r"\right)"
    steps += [
        Step("Concatenate the heads side by side", concat_latex + " = " + latex_matrix(concat)),
        Step(r"Project with \(W^O\)", concat_latex + " W^{O} = " + latex_matrix(output)),
    ]

    def wrong(mistake: str, heads_: list[np.ndarray], output_: np.ndarray) -> Distractor:
        return Distractor(mistake, {"heads": plain(heads_), "output": plain(output_)})

    by_model = _multi_head(X, W_Q, W_K, W_V, np.sqrt(d_model))
    wrong_axis = _multi_head(X, W_Q, W_K, W_V, np.sqrt(d_k), axis=0)
    distractors = [
        wrong(
            r"scaled by \(\sqrt{d_{model}}\) instead of \(\sqrt{d_k}\)", by_model, np.hstack(by_model) @ W_O
        ),
        wrong(
            "took the softmax over the queries (columns) instead of the keys",
            wrong_axis,
            np.hstack(wrong_axis) @ W_O,
        ),
        wrong(r"forgot the output projection \(W^O\) (answered the concatenated heads)", heads, concat),
    ]
    if d_k > 1:
        unscaled = _multi_head(X, W_Q, W_K, W_V, 1.0)
        distractors.insert(
            0, wrong(r"forgot to divide by \(\sqrt{d_k}\)", unscaled, np.hstack(unscaled) @ W_O)
        )
    return Solution({"heads": plain(heads), "output": plain(output)}, tuple(steps), tuple(distractors))


PRECISION = Precision(decimals=3)
"""The digits its answers are given to; its prompt asks for them in words (``_ASKED``)."""
_ASKED = PRECISION.spelled()


def prompt(given: dict[str, Any]) -> str:
    X = given["X"]
    n, d_model, h = len(X), len(X[0]), len(given["W_Q"])
    d_k = len(given["W_Q"][0][0])

    def listing(key: str, symbol: str) -> str:
        return ", ".join(
            rf"\({symbol}_{{{i}}} = " + latex_matrix(W) + r"\)" for i, W in enumerate(given[key], start=1)
        )

    return (
        rf"Multi-head self-attention with \(h = {h}\) heads on \(n = {n}\) positions,"
        rf" \(d_{{model}} = {d_model}\) and \(d_k = d_v = {d_k}\):"
        r" \(\mathrm{head}_i = \mathrm{Attention}(XW^{Q}_{i}, XW^{K}_{i}, XW^{V}_{i})\) and"
        r" the output is \(\mathrm{Concat}("
        + ", ".join(r"\mathrm{head}_{" + str(i) + "}" for i in range(1, h + 1))
        + r")W^{O}\)."
        r" The input is \(X = "
        + latex_matrix(X)
        + r"\); the projections are "
        + listing("W_Q", "W^{Q}")
        + "; "
        + listing("W_K", "W^{K}")
        + "; "
        + listing("W_V", "W^{V}")
        + r"; and \(W^{O} = "
        + latex_matrix(given["W_O"])
        + r"\)."
        f" Give the output to {_ASKED}."
    )


def softmax_inputs(given: dict[str, Any]) -> list[np.ndarray]:
    """Each head's scaled scores (X W_Q^i)(X W_K^i)^T / sqrt(d_k): one softmax per row."""
    X = np.asarray(given["X"], dtype=float)
    rows = []
    for wq, wk in zip(given["W_Q"], given["W_K"], strict=True):
        Q, K = X @ np.asarray(wq, dtype=float), X @ np.asarray(wk, dtype=float)
        rows.append(Q @ K.T / np.sqrt(Q.shape[1]))
    return rows


register(
    ProblemType(
        id="mha",
        description="Multi-head self-attention (S3.2.2): heads and projected output",
        pick=pick,
        solve=solve,
        prompt=prompt,
        tolerance=Tolerance(abs=0.005),
        precision=PRECISION,
        primary="output",
        source="S3.2.2",
        paper="aiayn",
        work_space_cm=10.0,
        softmax_inputs=softmax_inputs,
        solve_picked=_solve_picked,
        inputs={
            "X": "input rows (n × d_model)",
            "W_Q": "list of h query projections (d_model × d_k)",
            "W_K": "list of h key projections (d_model × d_k)",
            "W_V": "list of h value projections (d_model × d_v)",
            "W_O": "output projection (h·d_v × d_model)",
        },
        outputs={
            "heads": "list of h head outputs (n × d_v)",
            "output": "Concat(heads) W_O (n × d_model)",
        },
    )
)
