"""Position-wise feed-forward network, Eq. (2): max(0, x W1 + b1) W2 + b2."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...values import Precision
from ..inputs import check_keys, matrix, vector
from ..latex import matrix as latex_matrix
from ..latex import vector as latex_vector
from ..model import Distractor, ProblemType, Solution, Step, Tolerance
from ..registry import register
from ..rounding import plain

# (positions n, d_model, d_ff, decimals of the weights). d_ff = 2 d_model keeps the
# paper's "inner layer is wider" shape at a size one can multiply by hand.
_SIZES = {"easy": (1, 2, 3, 0), "medium": (2, 2, 4, 0), "hard": (2, 3, 4, 1)}


def pick(rng: np.random.Generator, difficulty: str) -> dict[str, Any]:
    n, d_model, d_ff, decimals = _SIZES[difficulty]
    scale = 10**decimals
    while True:
        x = rng.integers(-2, 3, size=(n, d_model))
        W1 = rng.integers(-2 * scale, 2 * scale + 1, size=(d_model, d_ff)) / scale
        b1 = rng.integers(-scale, scale + 1, size=d_ff) / scale
        hidden = x @ W1 + b1
        # The ReLU must matter (something negative) without killing everything.
        if np.any(hidden < 0) and np.any(hidden > 0):
            break
    W2 = rng.integers(-2 * scale, 2 * scale + 1, size=(d_ff, d_model)) / scale
    b2 = rng.integers(-scale, scale + 1, size=d_model) / scale

    def plain_numbers(a: np.ndarray) -> Any:
        return a.astype(int).tolist() if decimals == 0 else np.round(a, decimals).tolist()

    return {
        "x": x.tolist(),
        "W1": plain_numbers(W1),
        "b1": plain_numbers(b1),
        "W2": plain_numbers(W2),
        "b2": plain_numbers(b2),
    }


def solve(given: dict[str, Any]) -> Solution:
    check_keys(given, ("x", "W1", "b1", "W2", "b2"))
    x = matrix(given, "x")
    d_model = x.shape[1]
    W1 = matrix(given, "W1", rows=d_model, why="d_model rows, one per input feature")
    d_ff = W1.shape[1]
    b1 = vector(given, "b1", d_ff)
    W2 = matrix(given, "W2", rows=d_ff, why="d_ff rows, one per hidden unit")
    b2 = vector(given, "b2", W2.shape[1])
    product = x @ W1
    hidden = product + b1
    relu = np.maximum(0.0, hidden)
    output = relu @ W2 + b2
    steps = (
        Step("First linear layer", r"xW_{1} = " + latex_matrix(product)),
        Step(r"Add the bias \(b_1\)", r"xW_{1} + b_{1} = " + latex_matrix(hidden)),
        Step(
            r"ReLU: replace negative entries by \(0\)",
            r"h = \max\left(0, xW_{1} + b_{1}\right) = " + latex_matrix(relu),
        ),
        Step("Second linear layer", r"hW_{2} = " + latex_matrix(relu @ W2)),
        Step(r"Add the bias \(b_2\)", r"hW_{2} + b_{2} = " + latex_matrix(output)),
    )
    distractors = [
        Distractor("forgot the ReLU", {"output": plain(hidden @ W2 + b2)}),
        Distractor(
            r"added \(b_1\) after the ReLU instead of before",
            {"output": plain((np.maximum(0.0, product) + b1) @ W2 + b2)},
        ),
    ]
    # These two mistakes only change the result for some givens.
    if np.any(output < 0):
        distractors.append(
            Distractor("applied a ReLU to the output as well", {"output": plain(np.maximum(0.0, output))})
        )
    if np.any(b2 != 0):
        distractors.append(Distractor(r"forgot the bias \(b_2\)", {"output": plain(relu @ W2)}))
    return Solution({"output": plain(output)}, steps, tuple(distractors))


PRECISION = Precision(decimals=2)
"""The digits its answers are given to; its prompt asks for them in words (``_ASKED``)."""
_ASKED = PRECISION.spelled()


def prompt(given: dict[str, Any]) -> str:
    return (
        r"Apply the position-wise feed-forward network"
        r" \(\mathrm{FFN}(x) = \max\left(0, xW_{1} + b_{1}\right)W_{2} + b_{2}\) to"
        r" \(x = " + latex_matrix(given["x"]) + r"\) (one position per row), with"
        r" \(W_{1} = "
        + latex_matrix(given["W1"])
        + r"\), \(b_{1} = "
        + latex_vector(given["b1"])
        + r"\), \(W_{2} = "
        + latex_matrix(given["W2"])
        + r"\) and \(b_{2} = "
        + latex_vector(given["b2"])
        + rf"\). Give the output to {_ASKED}."
    )


register(
    ProblemType(
        id="ffn",
        description="Position-wise feed-forward network (Eq. 2)",
        pick=pick,
        solve=solve,
        prompt=prompt,
        tolerance=Tolerance(abs=0.005),
        precision=PRECISION,
        primary="output",
        source="S3.E2",
        paper="aiayn",
        work_space_cm=7.0,
        inputs={
            "x": "input rows (n × d_model)",
            "W1": "first weights (d_model × d_ff)",
            "b1": "first bias (d_ff)",
            "W2": "second weights (d_ff × d_model)",
            "b2": "second bias (d_model)",
        },
        outputs={
            "output": "max(0, x W1 + b1) W2 + b2, one row per input row",
        },
    )
)
