"""Sinusoidal positional encoding (S3.5): sin at even dims, cos at odd dims."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...errors import ProblemInputError
from ...numerals import rounded
from ...values import Precision
from ..inputs import check_keys, scalar
from ..latex import number
from ..model import Distractor, ProblemType, Solution, Step, Tolerance
from ..registry import register

# (choices of d_model, largest position). With d_model = 4 or 8 the wavelength
# factor 10000^(2i/d_model) is a power of ten, so the angle is easy by hand.
_CHOICES = {"easy": ((4, 8), 10), "medium": ((8, 16, 32), 50), "hard": ((64, 128, 256, 512), 100)}


def pick(rng: np.random.Generator, difficulty: str) -> dict[str, Any]:
    models, top = _CHOICES[difficulty]
    d_model = int(rng.choice(models))
    return {"pos": int(rng.integers(1, top + 1)), "dim": int(rng.integers(0, d_model)), "d_model": d_model}


def _encoding(pos: float, dim: int, d_model: int) -> tuple[float, float, float]:
    """(2i / d_model, 10000^(2i/d_model), the angle) for dimension ``dim``."""
    exponent = (dim - dim % 2) / d_model
    factor = 10000.0**exponent
    return exponent, factor, pos / factor


def solve(given: dict[str, Any]) -> Solution:
    check_keys(given, ("pos", "dim", "d_model"))
    pos = scalar(given, "pos", low=0)
    d_model = scalar(given, "d_model", integer=True, low=1)
    dim = scalar(given, "dim", integer=True, low=0)
    if dim >= d_model:
        raise ProblemInputError(
            "given.dim", f"is {dim}, but dimensions run from 0 to d_model - 1 = {d_model - 1}"
        )
    exponent, factor, angle = _encoding(pos, dim, d_model)
    even = dim % 2 == 0
    value = math.sin(angle) if even else math.cos(angle)
    i = dim // 2
    fn = r"\sin" if even else r"\cos"
    steps = (
        Step(
            r"Find \(i\): dimension \(2i\) uses \(\sin\), dimension \(2i + 1\) uses \(\cos\)",
            rf"\mathrm{{dim}} = {dim} = 2 \cdot {i}" + ("" if even else " + 1") + rf", i = {i}",
        ),
        Step(
            "Wavelength factor",
            rf"10000^{{\frac{{2i}}{{d_{{model}}}}}} = 10000^{{\frac{{{2 * i}}}{{{d_model}}}}}"
            rf" = 10000^{{{number(exponent)}}} = {number(factor)}",
        ),
        Step("Angle in radians", rf"\frac{{{number(pos)}}}{{{number(factor)}}} = {number(angle, 6)}"),
        Step(
            f"Apply {'sin' if even else 'cos'} (radians)",
            rf"PE_{{({number(pos)}, {dim})}} = {fn}\left({number(angle, 6)}\right) = {number(value)}",
        ),
    )
    other = math.cos(angle) if even else math.sin(angle)
    distractors = [
        Distractor(
            f"used {'cos' if even else 'sin'} for an {'even' if even else 'odd'} dimension", {"value": other}
        ),
        Distractor(
            "took the angle in degrees instead of radians",
            {"value": (math.sin if even else math.cos)(math.radians(angle))},
        ),
    ]
    if exponent > 0:
        distractors.append(
            Distractor(
                r"multiplied the position by \(10000^{2i/d_{model}}\)"
                r" instead of dividing",
                {"value": (math.sin if even else math.cos)(pos * factor)},
            )
        )
    if even and dim > 0:
        distractors.append(
            Distractor(
                r"used \(2 \cdot \mathrm{dim}\) instead of \(\mathrm{dim}\) as \(2i\)"
                r" in the exponent",
                {"value": math.sin(pos / 10000.0 ** (2 * dim / d_model))},
            )
        )
    if not even:
        distractors.append(
            Distractor(
                r"used \(\mathrm{dim}\) instead of \(\mathrm{dim} - 1\) in the"
                r" exponent for an odd dimension",
                {"value": math.cos(pos / 10000.0 ** (dim / d_model))},
            )
        )
    return Solution(
        {"value": rounded(value)},
        steps,
        tuple(Distractor(d.mistake, {"value": rounded(d.answer["value"])}) for d in distractors),
    )


PRECISION = Precision(decimals=3)
"""The digits its answers are given to; its prompt asks for them in words (``_ASKED``)."""
_ASKED = PRECISION.spelled()


def prompt(given: dict[str, Any]) -> str:
    return (
        r"The sinusoidal positional encoding is"
        r" \(PE_{(pos, 2i)} = \sin\left(\frac{pos}{10000^{\frac{2i}{d_{model}}}}\right)\) and"
        r" \(PE_{(pos, 2i+1)} = \cos\left(\frac{pos}{10000^{\frac{2i}{d_{model}}}}\right)\)."
        rf" With \(d_{{model}} = {given['d_model']}\), compute the encoding of position"
        rf" \(pos = {number(given['pos'])}\) in dimension \({given['dim']}\) (dimensions count"
        f" from 0). Give it to {_ASKED}."
    )


register(
    ProblemType(
        id="positional-encoding",
        description="One entry of the sinusoidal positional encoding",
        pick=pick,
        solve=solve,
        prompt=prompt,
        tolerance=Tolerance(abs=0.002),
        precision=PRECISION,
        primary="value",
        source="S3.5",
        paper="aiayn",
        work_space_cm=4.0,
        needs_calculator=True,
        inputs={
            "pos": "position",
            "dim": "dimension, 0-based (sin at even, cos at odd)",
            "d_model": "model width",
        },
        outputs={
            "value": "PE(pos, dim)",
        },
    )
)
