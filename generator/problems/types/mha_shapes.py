"""Shapes and parameter count of multi-head attention (S3.2.2): d_k = d_v = d_model / h."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import ProblemInputError
from ..inputs import check_keys, scalar
from ..model import Distractor, ProblemType, Solution, Step, Tolerance
from ..registry import register

# (choices of h, choices of d_k); d_model = h * d_k. Easy ones include the paper's
# base model (d_model = 512, h = 8).
_CHOICES = {
    "easy": ((2, 4, 8), (32, 64)),
    "medium": ((4, 6, 8, 12, 16), (32, 48, 64, 80, 128)),
    "hard": (tuple(range(3, 21)), tuple(range(16, 129, 8))),
}


def pick(rng: np.random.Generator, difficulty: str) -> dict[str, Any]:
    heads, widths = _CHOICES[difficulty]
    h = int(rng.choice(heads))
    return {"d_model": h * int(rng.choice(widths)), "h": h}


def solve(given: dict[str, Any]) -> Solution:
    check_keys(given, ("d_model", "h"))
    d_model = scalar(given, "d_model", integer=True, low=1)
    h = scalar(given, "h", integer=True, low=1)
    if d_model % h:
        raise ProblemInputError(
            "given.h",
            f"{h} heads do not divide d_model = {d_model} (the paper takes d_k = d_v = d_model / h)",
        )
    d_k = d_model // h
    projection = h * d_model * d_k  # h matrices of d_model x d_k: d_model^2 in all
    params = 3 * projection + h * d_k * d_model
    steps = (
        Step(
            "Width of each head",
            rf"d_k = d_v = \frac{{d_{{model}}}}{{h}} = \frac{{{d_model}}}{{{h}}}"
            rf" = {d_k}",
        ),
        Step(
            r"Each of \(W^Q\), \(W^K\), \(W^V\) holds \(h\) matrices of \(d_{model} \times d_k\)",
            rf"h \cdot d_{{model}} \cdot d_k = {h} \cdot {d_model} \cdot {d_k} = {projection}",
        ),
        Step(
            r"\(W^O\) maps the concatenated heads (\(h d_v\) wide) back to \(d_{model}\)",
            rf"h d_v \cdot d_{{model}} = {h * d_k} \cdot {d_model} = {h * d_k * d_model}",
        ),
        Step(
            "Add them up (no biases)",
            rf"3 \cdot {projection} + {h * d_k * d_model} = 4 d_{{model}}^{{2}} = {params}",
        ),
    )
    distractors = (
        Distractor(
            r"counted \(W^Q\), \(W^K\) and \(W^V\) but forgot \(W^O\)",
            {"d_k": d_k, "d_v": d_k, "params": 3 * projection},
        ),
        Distractor(
            r"gave every head full \(d_{model} \times d_{model}\) projections",
            {"d_k": d_model, "d_v": d_model, "params": 3 * h * d_model**2 + h * d_model**2},
        ),
        Distractor(
            r"counted the projections of one head only, plus \(W^O\)",
            {"d_k": d_k, "d_v": d_k, "params": 3 * d_model * d_k + d_model**2},
        ),
        Distractor(
            "added a bias vector to every projection",
            {"d_k": d_k, "d_v": d_k, "params": params + 3 * h * d_k + d_model},
        ),
    )
    return Solution({"d_k": d_k, "d_v": d_k, "params": params}, steps, distractors)


def prompt(given: dict[str, Any]) -> str:
    return (
        rf"A multi-head attention layer has \(d_{{model}} = {given['d_model']}\) and"
        rf" \(h = {given['h']}\) heads, with \(d_k = d_v = \frac{{d_{{model}}}}{{h}}\) as in the paper."
        r" How many weights do all \(W^{Q}_i\), \(W^{K}_i\), \(W^{V}_i\) and \(W^{O}\) hold"
        " together (no biases)?"
    )


register(
    ProblemType(
        id="mha-shapes",
        description="Head width d_k = d_model / h and the weights of one attention layer",
        pick=pick,
        solve=solve,
        prompt=prompt,
        tolerance=Tolerance(abs=0.5),
        primary="params",
        source="S3.2.2",
        paper="aiayn",
        work_space_cm=4.0,
        inputs={
            "d_model": "model width",
            "h": "number of heads (divides d_model)",
        },
        outputs={
            "d_k": "d_model / h",
            "d_v": "d_model / h",
            "params": "weights in all W^Q_i, W^K_i, W^V_i and W^O together (no biases)",
        },
    )
)
