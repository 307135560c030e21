"""Label smoothing (S5.4, after Szegedy et al. 2016): q' = (1 - eps) one-hot + eps / K."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...numerals import rounded
from ..inputs import check_keys, scalar
from ..latex import number
from ..model import Distractor, ProblemType, Solution, Step, Tolerance
from ..registry import register

# Vocabulary sizes whose eps / K is a short decimal, and smoothing values (the
# paper uses eps_ls = 0.1).
_CHOICES = {
    "easy": ((2, 4, 5, 10), (0.1, 0.2)),
    "medium": ((8, 16, 20, 25, 40, 50), (0.1, 0.2, 0.3, 0.4)),
    "hard": ((64, 80, 100, 125, 200, 250), (0.05, 0.1, 0.15, 0.2, 0.25)),
}


def pick(rng: np.random.Generator, difficulty: str) -> dict[str, Any]:
    sizes, epsilons = _CHOICES[difficulty]
    return {"eps": float(rng.choice(epsilons)), "vocab_size": int(rng.choice(sizes))}


def solve(given: dict[str, Any]) -> Solution:
    check_keys(given, ("eps", "vocab_size"))
    eps = scalar(given, "eps", low=0, high=1, high_open=True)
    K = scalar(given, "vocab_size", integer=True, low=2)
    share = eps / K
    p_target = 1 - eps + share
    steps = (
        Step(
            r"Spread \(\epsilon\) evenly over all \(K\) classes",
            rf"\frac{{\epsilon}}{{K}} = \frac{{{number(eps)}}}{{{K}}} = {number(share, 8)}",
        ),
        Step(
            r"The target keeps \(1 - \epsilon\) of the one-hot mass plus its share",
            rf"p_{{target}} = 1 - {number(eps)} + {number(share, 8)} = {number(p_target, 8)}",
        ),
        Step("Every other class gets only its share", rf"p_{{other}} = {number(share, 8)}"),
        Step(
            r"Check: the probabilities sum to \(1\)",
            rf"{number(p_target, 8)} + {K - 1} \cdot {number(share, 8)} = 1",
        ),
    )
    distractors = (
        Distractor(
            r"spread \(\epsilon\) over the \(K - 1\) other classes only",
            {"p_target": _plain(1 - eps), "p_other": _plain(eps / (K - 1))},
        ),
        Distractor(
            r"did not scale the one-hot target by \(1 - \epsilon\)",
            {"p_target": _plain(1 + share), "p_other": _plain(share)},
        ),
        Distractor(
            r"took \(\epsilon / K\) instead of \(\epsilon\) away from the target",
            {"p_target": _plain(1 - share), "p_other": _plain(share)},
        ),
    )
    return Solution({"p_target": _plain(p_target), "p_other": _plain(share)}, steps, distractors)


def _plain(x: float) -> float:
    return rounded(x, 12)  # twelve decimals: 1 - eps + eps/K keeps its exact digits


def prompt(given: dict[str, Any]) -> str:
    return (
        rf"Training uses label smoothing with \(\epsilon_{{ls}} = {number(given['eps'])}\) over a"
        rf" vocabulary of \(K = {given['vocab_size']}\) tokens: the one-hot target \(y\) becomes"
        r" \(y_{ls} = (1 - \epsilon) y + \frac{\epsilon}{K}\). What probability does the smoothed"
        " target give the correct token? Give exact decimals."
    )


register(
    ProblemType(
        id="label-smoothing",
        description="Target distribution after label smoothing (S5.4)",
        pick=pick,
        solve=solve,
        prompt=prompt,
        tolerance=Tolerance(abs=5e-5),
        primary="p_target",
        source="S5.4",
        paper="aiayn",
        work_space_cm=4.0,
        inputs={
            "eps": "smoothing ε_ls",
            "vocab_size": "number of tokens K",
        },
        outputs={
            "p_target": "smoothed probability of the correct token, 1 − ε + ε/K",
            "p_other": "smoothed probability of each other token, ε/K",
        },
    )
)
