"""Cost of a layer type, Table 1: operations per layer and maximum path length."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...errors import ProblemInputError
from ...numerals import rounded
from ..inputs import check_keys, scalar
from ..latex import number
from ..model import Distractor, ProblemType, Solution, Step, Tolerance
from ..registry import register

# (kernel widths k, largest power of k for n, model widths d). n is a power of k so
# that log_k n is whole.
_CHOICES = {
    "easy": ((2, 4), 5, (16, 32, 64)),
    "medium": ((2, 3), 10, (64, 128, 256, 512, 1024)),
    "hard": ((2, 3, 5, 10), 12, (100, 256, 300, 512, 768, 1000, 1024, 2048)),
}


def pick(rng: np.random.Generator, difficulty: str) -> dict[str, Any]:
    kernels, top, widths = _CHOICES[difficulty]
    while True:
        k = int(rng.choice(kernels))
        m = int(rng.integers(2, top + 1))
        n = k**m
        d = int(rng.choice(widths))
        if n != d and n <= 5000:  # equal n and d makes the comparison a tie
            break
    r = k ** int(rng.integers(1, m))  # the neighbourhood divides n
    return {"n": n, "d": d, "k": k, "r": r}


def solve(given: dict[str, Any]) -> Solution:
    check_keys(given, ("n", "d", "k", "r"))
    n = scalar(given, "n", integer=True, low=1)
    d = scalar(given, "d", integer=True, low=1)
    k = scalar(given, "k", integer=True, low=2)
    r = scalar(given, "r", integer=True, low=1)
    if r > n:
        raise ProblemInputError("given.r", f"a neighbourhood of {r} is wider than the sequence (n = {n})")
    path_conv = math.log(n) / math.log(k)
    answer = {
        "ops_self_attention": n * n * d,
        "ops_recurrent": n * d * d,
        "ops_convolutional": k * n * d * d,
        "ops_restricted": r * n * d,
        "path_self_attention": 1,
        "path_recurrent": n,
        "path_convolutional": rounded(path_conv),
        "path_restricted": rounded(n / r),
        "cheaper": "self-attention" if n < d else "recurrent",
    }
    steps = (
        Step(
            r"Self-attention compares every pair of positions, each in \(d\) dimensions",
            rf"n^{{2}} \cdot d = {n}^{{2}} \cdot {d} = {answer['ops_self_attention']}",
        ),
        Step(
            r"A recurrent layer multiplies a \(d \times d\) matrix at each of \(n\) steps",
            rf"n \cdot d^{{2}} = {n} \cdot {d}^{{2}} = {answer['ops_recurrent']}",
        ),
        Step(
            r"A convolution applies \(k\) such matrices at each position",
            rf"k \cdot n \cdot d^{{2}} = {k} \cdot {n} \cdot {d}^{{2}} = {answer['ops_convolutional']}",
        ),
        Step(
            r"Restricted self-attention looks at \(r\) neighbours only",
            rf"r \cdot n \cdot d = {r} \cdot {n} \cdot {d} = {answer['ops_restricted']}",
        ),
        Step(
            r"Maximum path lengths: \(1\), \(n\), \(\log_k n\) (dilated convolutions) and \(n / r\)",
            rf"1, {n}, \log_{{{k}}} {n} = {number(path_conv)}, \frac{{{n}}}{{{r}}} = " + number(n / r),
        ),
        Step(
            r"Self-attention is cheaper than recurrence exactly when \(n\) is less than \(d\);"
            f" here the {answer['cheaper']} layer is cheaper",
            rf"n^{{2}} d = {n * n * d} " + (r"\le" if n < d else r"\ge") + rf" n d^{{2}} = {n * d * d}",
        ),
    )
    wrong = {key: value for key, value in answer.items() if key != "ops_self_attention"}
    distractors = (
        Distractor(
            r"swapped \(n\) and \(d\) (\(n d^2\), the recurrent cost)",
            {**wrong, "ops_self_attention": n * d * d},
        ),
        Distractor(r"forgot to square \(n\) (\(n d\))", {**wrong, "ops_self_attention": n * d}),
        Distractor(
            r"counted the pairs of positions but not the \(d\)-dimensional dot products (\(n^2\))",
            {**wrong, "ops_self_attention": n * n},
        ),
    )
    return Solution(answer, steps, distractors)


def prompt(given: dict[str, Any]) -> str:
    n, d, k, r = given["n"], given["d"], given["k"], given["r"]
    return (
        rf"Compare layer types as in Table 1 for a sequence of \(n = {n}\) positions with"
        rf" representation width \(d = {d}\), convolution kernel width \(k = {k}\) and"
        rf" restricted self-attention over a neighbourhood of \(r = {r}\). How many operations per"
        " layer does self-attention take here?"
    )


register(
    ProblemType(
        id="complexity",
        description="Operations per layer and path lengths of layer types (Table 1)",
        pick=pick,
        solve=solve,
        prompt=prompt,
        tolerance=Tolerance(rel=0.001),
        primary="ops_self_attention",
        source="S4.T1",
        paper="aiayn",
        work_space_cm=3.5,
        inputs={
            "n": "sequence length (a power of k)",
            "d": "representation width",
            "k": "convolution kernel width",
            "r": "neighbourhood size of restricted self-attention",
        },
        outputs={
            "ops_self_attention": "operations per layer, n² · d",
            "ops_recurrent": "n · d²",
            "ops_convolutional": "k · n · d²",
            "ops_restricted": "r · n · d",
            "path_self_attention": "maximum path length, 1",
            "path_recurrent": "n",
            "path_convolutional": "log_k n (dilated convolutions)",
            "path_restricted": "n / r",
            "cheaper": "`self-attention` or `recurrent`: which costs fewer operations",
        },
    )
)
