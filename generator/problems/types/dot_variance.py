"""Why scale by sqrt(d_k) (footnote 4): the variance of a dot product q . k."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...numerals import rounded
from ...values import Precision
from ..inputs import check_keys, scalar
from ..latex import number
from ..model import Distractor, ProblemType, Solution, Step, Tolerance
from ..registry import register

_CHOICES = {
    "easy": ((4, 9, 16, 25, 36, 49, 64, 100, 144, 256), (1.0,)),
    "medium": ((16, 64, 256, 512), (0.25, 0.5, 1.0, 2.0, 4.0)),
    "hard": ((64, 100, 128, 256, 512, 1024), tuple(v / 10 for v in range(1, 31))),
}


def pick(rng: np.random.Generator, difficulty: str) -> dict[str, Any]:
    sizes, variances = _CHOICES[difficulty]
    return {
        "d_k": int(rng.choice(sizes)),
        "var_q": float(rng.choice(variances)),
        "var_k": float(rng.choice(variances)),
    }


def solve(given: dict[str, Any]) -> Solution:
    check_keys(given, ("d_k", "var_q", "var_k"))
    d_k = scalar(given, "d_k", integer=True, low=1)
    var_q = scalar(given, "var_q", low=0)
    var_k = scalar(given, "var_k", low=0)
    term = var_q * var_k
    variance = d_k * term
    std = math.sqrt(variance)
    steps = (
        Step(
            r"Each product \(q_i k_i\) of independent zero-mean components has variance"
            r" \(\mathrm{Var}(q_i) \mathrm{Var}(k_i)\)",
            rf"\mathrm{{Var}}(q_i k_i) = {number(var_q)} \cdot {number(var_k)} = {number(term)}",
        ),
        Step(
            r"The \(d_k\) products are independent, so their variances add",
            rf"\mathrm{{Var}}(q \cdot k) = \sum_{{i=1}}^{{d_k}} \mathrm{{Var}}(q_i k_i) = {d_k}"
            rf" \cdot {number(term)} = {number(variance)}",
        ),
        Step("Standard deviation", rf"\sqrt{{{number(variance)}}} = {number(std)}"),
        Step(
            r"Dividing by \(\sqrt{d_k}\) divides the variance by \(d_k\)",
            rf"\mathrm{{Var}}\left(\frac{{q \cdot k}}{{\sqrt{{{d_k}}}}}\right) = "
            rf"\frac{{{number(variance)}}}{{{d_k}}} = {number(term)}",
        ),
    )

    def wrong(mistake: str, v: float) -> Distractor:
        return Distractor(
            mistake, {"variance": _plain(v), "std": _plain(math.sqrt(v)), "scaled_variance": _plain(v / d_k)}
        )

    distractors = (
        wrong(
            r"added the variances of \(q_i\) and \(k_i\) instead of multiplying them", d_k * (var_q + var_k)
        ),
        wrong(r"forgot to sum over the \(d_k\) components", term),
        wrong(r"scaled with \(\sqrt{d_k}\) instead of \(d_k\)", math.sqrt(d_k) * term),
        wrong(r"squared \(d_k\)", d_k**2 * term),
    )
    answer = {"variance": _plain(variance), "std": _plain(std), "scaled_variance": _plain(term)}
    return Solution(answer, steps, distractors)


def _plain(x: float) -> float:
    return rounded(x)


PRECISION = Precision(decimals=3)
"""The digits its answers are given to; its prompt asks for them in words (``_ASKED``)."""
_ASKED = PRECISION.spelled()


def prompt(given: dict[str, Any]) -> str:
    return (
        rf"The \({given['d_k']}\) components of the vectors \(q\) and \(k\) are independent"
        rf" with mean 0, \(\mathrm{{Var}}(q_i) = {number(given['var_q'])}\) and"
        rf" \(\mathrm{{Var}}(k_i) = {number(given['var_k'])}\). What is the variance of"
        rf" \(q \cdot k\)? Give {_ASKED}."
    )


register(
    ProblemType(
        id="dot-variance",
        description="Variance of a dot product and why attention divides by sqrt(d_k) (footnote 4)",
        pick=pick,
        solve=solve,
        prompt=prompt,
        tolerance=Tolerance(rel=0.001),
        precision=PRECISION,
        primary="variance",
        source="S3.2.1",
        paper="aiayn",
        work_space_cm=4.0,
        inputs={
            "d_k": "number of components of q and k",
            "var_q": "variance of each component of q (mean 0)",
            "var_k": "variance of each component of k (mean 0)",
        },
        outputs={
            "variance": "variance of q · k",
            "std": "its standard deviation",
            "scaled_variance": "variance of q · k / √d_k",
        },
    )
)
