"""Softmax of a short vector: the normalisation inside attention (S3.2.1)."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import Distractor, ProblemType, Solution, Step, Tolerance, register
from .latex import number, vector

_LENGTH = {"easy": 3, "medium": 4, "hard": 5}
_RANGE = {"easy": 2, "medium": 3, "hard": 4}


def pick(rng: np.random.Generator, difficulty: str) -> dict[str, Any]:
    n, top = _LENGTH[difficulty], _RANGE[difficulty]
    while True:
        x = rng.integers(-top, top + 1, size=n)
        if np.ptp(x) > 0:  # all-equal inputs give the uniform, degenerate answer
            return {"x": [int(v) for v in x]}


def softmax(x: np.ndarray) -> np.ndarray:
    """Numerically stable softmax along the last axis."""
    shifted = np.exp(x - x.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


def solve(given: dict[str, Any]) -> Solution:
    x = np.asarray(given["x"], dtype=float)
    e = np.exp(x)
    p = e / e.sum()
    steps = (
        Step("Exponentiate each entry", r"e^{x} = " + vector(e)),
        Step("Sum the exponentials", r"\sum_j e^{x_j} = " + number(e.sum())),
        Step("Divide each exponential by the sum", r"p = " + vector(p)),
    )
    distractors = (
        Distractor("divided the inputs by their sum instead of exponentiating",
                   {"p": [float(v) for v in x / x.sum()]} if x.sum() != 0 else {"p": [0.0] * len(x)}),
        Distractor("used the maximum instead of the sum as the denominator",
                   {"p": [float(v) for v in e / e.max()]}),
    )
    return Solution({"p": [float(v) for v in p]}, steps, distractors)


def prompt(given: dict[str, Any]) -> str:
    return (
        r"Compute \(\mathrm{softmax}(x)\) for \(x = " + vector(given["x"]) + r"\)."
        " Give each probability to three decimals."
    )


register(ProblemType(
    id="softmax",
    description="Softmax of a short vector of scores",
    pick=pick, solve=solve, prompt=prompt,
    tolerance=Tolerance(abs=0.001), primary="p", source="S3.2.1",
))
