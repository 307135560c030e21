"""Softmax of a short vector: the normalisation inside attention (S3.2.1)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...values import Precision
from ..inputs import check_keys, vector
from ..latex import number
from ..latex import vector as latex_vector
from ..model import Distractor, ProblemType, Solution, Step, Tolerance
from ..registry import register
from ..rounding import plain

# (entries, largest |x|, decimals of x, largest spread max(x) - min(x)).
# The spread cap keeps every probability large enough to compute by hand.
_SIZES = {"easy": (3, 2, 0, 3), "medium": (4, 3, 0, 4), "hard": (5, 2, 1, 4)}


def pick(rng: np.random.Generator, difficulty: str) -> dict[str, Any]:
    n, top, decimals, spread = _SIZES[difficulty]
    scale = 10**decimals
    while True:
        x = rng.integers(-top * scale, top * scale + 1, size=n)
        # All-equal inputs give the uniform, degenerate answer.
        if 0 < np.ptp(x) <= spread * scale:
            values = x.tolist() if decimals == 0 else (x / scale).tolist()
            return {"x": values}


def softmax(x: np.ndarray) -> np.ndarray:
    """Numerically stable softmax along the last axis (``-inf`` entries get weight 0)."""
    shifted = np.exp(x - x.max(axis=-1, keepdims=True))
    weights: np.ndarray = shifted / shifted.sum(axis=-1, keepdims=True)
    return weights


def solve(given: dict[str, Any]) -> Solution:
    check_keys(given, ("x",))
    x = vector(given, "x")
    m = x.max()
    e = np.exp(x - m)
    total = e.sum()
    p = e / total
    steps = (
        Step(
            "Subtract the largest entry (the result does not change)",
            r"x - " + number(m) + " = " + latex_vector(x - m),
        ),
        Step("Exponentiate each entry", r"e^{x - " + number(m) + "} = " + latex_vector(e)),
        Step("Sum the exponentials", r"\sum_j e^{x_j - " + number(m) + "} = " + number(total)),
        Step("Divide each exponential by the sum", r"p = " + latex_vector(p)),
    )
    distractors = [Distractor("exponentiated the negated scores", {"p": plain(softmax(-x))})]
    if m < 600:  # beyond, e^x nears float64's limit; no student writes those out either
        e_raw = np.exp(x)
        distractors[:0] = [
            Distractor("exponentiated but forgot to divide by the sum", {"p": plain(e_raw)}),
            Distractor(
                "divided by the largest exponential instead of the sum", {"p": plain(e_raw / e_raw.max())}
            ),
        ]
    if x.sum() != 0:
        distractors.append(
            Distractor("divided the scores by their sum, without exponentials", {"p": plain(x / x.sum())})
        )
    return Solution({"p": plain(p)}, steps, tuple(distractors))


PRECISION = Precision(decimals=3)
"""The digits its answers are given to; its prompt asks for them in words (``_ASKED``)."""
_ASKED = PRECISION.spelled()


def prompt(given: dict[str, Any]) -> str:
    return (
        r"Compute \(p = \mathrm{softmax}(x)\), \(p_i = \frac{e^{x_i}}{\sum_j e^{x_j}}\), for"
        r" \(x = " + latex_vector(given["x"]) + rf"\). Give each probability to {_ASKED}."
    )


def softmax_inputs(given: dict[str, Any]) -> list[np.ndarray]:
    """The scores the softmax runs over: x, as one row."""
    return [np.atleast_2d(np.asarray(given["x"], dtype=float))]


register(
    ProblemType(
        id="softmax",
        description="Softmax of a short vector of scores",
        pick=pick,
        solve=solve,
        prompt=prompt,
        tolerance=Tolerance(abs=0.002),
        precision=PRECISION,
        primary="p",
        source="S3.2.1",
        paper="aiayn",
        work_space_cm=5.0,
        softmax_inputs=softmax_inputs,
        inputs={
            "x": "the scores (a vector)",
        },
        outputs={
            "p": "softmax(x)",
        },
    )
)
