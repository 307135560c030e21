"""Layer normalisation of a residual sum, LayerNorm(x + Sublayer(x)) (S3.1)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import ProblemInputError
from ...values import Precision
from ..inputs import check_keys, scalar, vector
from ..latex import number
from ..latex import vector as latex_vector
from ..model import Distractor, ProblemType, Solution, Step, Tolerance
from ..registry import register
from ..rounding import plain

# (length, largest |x|, with a sublayer output, with gamma and beta).
_SIZES = {"easy": (4, 3, False, False), "medium": (4, 2, True, False), "hard": (5, 2, True, True)}
_EPS = 1e-5


def pick(rng: np.random.Generator, difficulty: str) -> dict[str, Any]:
    n, top, residual, affine = _SIZES[difficulty]
    while True:
        x = rng.integers(-top, top + 1, size=n)
        sub = rng.integers(-top, top + 1, size=n) if residual else np.zeros(n, dtype=int)
        if np.ptp(x + sub) > 0 and (not residual or np.ptp(x) > 0):
            break
    given: dict[str, Any] = {"x": x.tolist(), "eps": _EPS}
    if residual:
        given["sublayer"] = sub.tolist()
    if affine:
        given["gamma"] = (rng.integers(5, 21, size=n) / 10).tolist()  # 0.5 to 2.0
        given["beta"] = (rng.integers(-10, 11, size=n) / 10).tolist()
    return given


def _normalise(z: np.ndarray, eps: float, ddof: int = 0) -> np.ndarray:
    normalised: np.ndarray = (z - z.mean()) / np.sqrt(z.var(ddof=ddof) + eps)
    return normalised


def solve(given: dict[str, Any]) -> Solution:
    check_keys(given, ("x", "eps"), ("sublayer", "gamma", "beta"))
    x = vector(given, "x")
    n = x.shape[0]
    eps = scalar(given, "eps", low=0)
    sub = vector(given, "sublayer", n) if "sublayer" in given else None
    gamma = vector(given, "gamma", n) if "gamma" in given else np.ones(n)
    beta = vector(given, "beta", n) if "beta" in given else np.zeros(n)
    affine = "gamma" in given or "beta" in given
    if n < 2:
        raise ProblemInputError("given.x", "needs at least 2 entries to normalise")
    z = x if sub is None else x + sub
    mean = z.mean()
    var = z.var()
    if var + eps == 0:
        raise ProblemInputError(
            "given.x",
            "all entries (with the sublayer added) are equal and eps is 0, so there is nothing to normalise",
        )
    std = np.sqrt(var + eps)
    normalised = (z - mean) / std
    y = gamma * normalised + beta
    steps: list[Step] = []
    if sub is not None:
        steps.append(
            Step(
                "Add the residual: z is the sublayer's output plus its input",
                r"z = x + \mathrm{Sublayer}(x) = " + latex_vector(z),
            )
        )
    else:
        steps.append(Step("Call the entries to normalise z", r"z = x = " + latex_vector(z)))
    # Without gamma and beta the result y is the normalised vector u itself.
    named = "u" if affine else "y = u"
    steps += [
        Step("Mean", rf"\mu = \frac{{1}}{{{n}}} \sum_i z_i = {number(mean)}"),
        Step(
            r"Variance over the \(n\) entries (population: divide by \(n\))",
            rf"\sigma^{{2}} = \frac{{1}}{{{n}}} \sum_i \left(z_i - \mu\right)^{{2}} = {number(var)}",
        ),
        Step(
            "Normalise: u is z shifted to mean 0 and scaled to variance 1",
            named + r" = \frac{z - \mu}{\sqrt{\sigma^{2} + \epsilon}} = "
            rf"\frac{{z {_minus(mean)}}}{{{number(std, 6)}}} = " + latex_vector(normalised),
        ),
    ]
    if affine:
        steps.append(
            Step(
                r"Scale by \(\gamma\) and shift by \(\beta\)",
                r"y = \gamma \cdot u + \beta = " + latex_vector(y),
            )
        )
    distractors = [
        Distractor(
            r"used the sample variance (divided by \(n - 1\)) instead of the population variance",
            {"y": plain(gamma * _normalise(z, eps, ddof=1) + beta)},
        ),
        Distractor(
            "divided by the variance instead of the standard deviation",
            {"y": plain(gamma * (z - mean) / (var + eps) + beta)},
        ),
        Distractor("forgot to subtract the mean", {"y": plain(gamma * z / std + beta)}),
    ]
    if sub is not None:
        distractors.insert(
            0,
            Distractor(
                "forgot the residual (normalised the sublayer output alone)",
                {"y": plain(gamma * _normalise(sub, eps) + beta)},
            ),
        )
    if affine:
        distractors.append(Distractor(r"left out \(\gamma\) and \(\beta\)", {"y": plain(normalised)}))
    return Solution({"y": plain(y)}, tuple(steps), tuple(distractors))


PRECISION = Precision(decimals=3)
"""The digits its answers are given to; its prompt asks for them in words (``_ASKED``)."""
_ASKED = PRECISION.spelled()


def prompt(given: dict[str, Any]) -> str:
    parts = [
        r"Apply layer normalisation (mean and population variance over the"
        r" \(n = " + str(len(given["x"])) + r"\) entries,"
        r" \(\epsilon = " + _eps(given["eps"]) + r"\))"
    ]
    if "sublayer" in given:
        parts.append(
            r" to the residual sum \(x + \mathrm{Sublayer}(x)\), where"
            r" \(x = " + latex_vector(given["x"]) + r"\) and"
            r" \(\mathrm{Sublayer}(x) = " + latex_vector(given["sublayer"]) + r"\)"
        )
    else:
        parts.append(r" to \(x = " + latex_vector(given["x"]) + r"\)")
    if "gamma" in given or "beta" in given:
        parts.append(
            r", then scale and shift the normalised entries \(u\),"
            r" \(y = \gamma \cdot u + \beta\), with"
            r" \(\gamma = "
            + latex_vector(given.get("gamma", [1] * len(given["x"])))
            + r"\) and \(\beta = "
            + latex_vector(given.get("beta", [0] * len(given["x"])))
            + r"\)"
        )
    parts.append(f". Give each entry of the result \\(y\\) to {_ASKED}.")
    return "".join(parts)


def _minus(mean: float) -> str:
    """``- 1.5`` or ``+ 0.75``: subtracting a negative mean reads as an addition."""
    return f"- {number(mean)}" if mean >= 0 else f"+ {number(-mean)}"


def _eps(eps: float) -> str:
    if eps and eps < 0.001:
        exponent = round(np.log10(eps))
        if 10.0**exponent == eps:
            return rf"10^{{{exponent}}}"
    return number(eps, 8)


register(
    ProblemType(
        id="layer-norm",
        description="Layer normalisation of a residual sum (S3.1)",
        pick=pick,
        solve=solve,
        prompt=prompt,
        tolerance=Tolerance(abs=0.002),
        precision=PRECISION,
        primary="y",
        source="S3.1",
        paper="aiayn",
        work_space_cm=5.5,
        needs_calculator=True,
        inputs={
            "x": "the vector to normalise (the sublayer's input)",
            "eps": "ε added to the variance",
            "sublayer": "optional: the sublayer's output, added to x first (residual)",
            "gamma": "optional: gain, one per entry (default 1)",
            "beta": "optional: bias, one per entry (default 0)",
        },
        outputs={
            "y": (
                "gamma · (z − mean) / √(variance + eps) + beta with z = x (+ sublayer);"
                " mean and population variance over the entries of z"
            ),
        },
    )
)
