"""The learning-rate schedule, Eq. (3): linear warmup, then inverse square-root decay."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...values import Precision
from ..inputs import check_keys, scalar
from ..latex import number, scientific
from ..model import Distractor, ProblemType, Solution, Step, Tolerance
from ..registry import register

# Easy: d_model and warmup are perfect squares and the step is a perfect square,
# so every root is whole. Medium: the paper's warmup of 4000. Hard: anything.
_EASY_MODELS = (64, 256, 1024, 4096)
_EASY_WARMUPS = (100, 400, 1600, 2500, 10000)


def pick(rng: np.random.Generator, difficulty: str) -> dict[str, Any]:
    if difficulty == "easy":
        d_model = int(rng.choice(_EASY_MODELS))
        warmup = int(rng.choice(_EASY_WARMUPS))
        root = int(round(warmup**0.5))
        step = int(rng.integers(1, 2 * root + 1)) ** 2
    elif difficulty == "medium":
        d_model = int(rng.choice((256, 512, 1024)))
        warmup = 4000
        step = 100 * int(rng.integers(1, 201))
    else:
        d_model = 64 * int(rng.integers(2, 17))
        warmup = 500 * int(rng.integers(2, 17))
        step = int(rng.integers(1, 100_001))
    return {"step": step, "d_model": d_model, "warmup_steps": warmup}


def solve(given: dict[str, Any]) -> Solution:
    check_keys(given, ("step", "d_model", "warmup_steps"))
    step = scalar(given, "step", low=1)
    d_model = scalar(given, "d_model", low=1)
    warmup = scalar(given, "warmup_steps", low=1)
    scale = d_model**-0.5
    decay = step**-0.5
    ramp = step * warmup**-1.5
    lrate = scale * min(decay, ramp)
    phase = "warmup (linear increase)" if ramp < decay else "decay (inverse square root)"
    steps = (
        Step(
            "Model-size factor",
            rf"d_{{model}}^{{-0.5}} = \frac{{1}}{{\sqrt{{{number(d_model)}}}}}"
            rf" = {scientific(scale)}",
        ),
        Step(
            "Decay term",
            rf"\mathrm{{step}}^{{-0.5}} = \frac{{1}}{{\sqrt{{{number(step)}}}}}"
            rf" = {scientific(decay)}",
        ),
        Step(
            "Warmup term",
            rf"\mathrm{{step}} \cdot \mathrm{{warmup}}^{{-1.5}} = "
            rf"\frac{{{number(step)}}}{{{number(warmup)}^{{1.5}}}} = {scientific(ramp)}",
        ),
        Step(
            f"Take the smaller term: the schedule is in its {phase} phase",
            rf"\mathrm{{lrate}} = {scientific(scale)} \cdot \min\left({scientific(decay)},"
            rf" {scientific(ramp)}\right) = {scientific(lrate)}",
        ),
    )
    distractors = [
        Distractor(
            "took the larger of the two terms (max instead of min)", {"lrate": scale * max(decay, ramp)}
        ),
        Distractor(r"forgot the factor \(d_{model}^{-0.5}\)", {"lrate": min(decay, ramp)}),
    ]
    if ramp < decay:
        distractors.append(
            Distractor(
                r"used \(\mathrm{warmup}^{-0.5}\) instead of"
                r" \(\mathrm{warmup}^{-1.5}\)",
                {"lrate": scale * min(decay, step * warmup**-0.5)},
            )
        )
    return Solution(
        {"lrate": _plain(lrate)},
        steps,
        tuple(Distractor(d.mistake, {"lrate": _plain(d.answer["lrate"])}) for d in distractors),
    )


def _plain(x: float) -> float:
    # Rates are around 1e-4: keep significant figures rather than decimals.
    return float(f"{x:.10g}")


PRECISION = Precision(figures=4)
"""The digits its answers are given to; its prompt asks for them in words (``_ASKED``)."""
_ASKED = PRECISION.spelled()


def prompt(given: dict[str, Any]) -> str:
    return (
        r"The Transformer's learning rate is \(\mathrm{lrate} = d_{model}^{-0.5} \cdot"
        r" \min\left(\mathrm{step}^{-0.5}, \mathrm{step} \cdot \mathrm{warmup}^{-1.5}\right)\)."
        rf" With \(d_{{model}} = {given['d_model']}\) and"
        rf" \(\mathrm{{warmup}} = {given['warmup_steps']}\) steps, what is the learning rate at"
        rf" step {given['step']}? Give {_ASKED}."
    )


register(
    ProblemType(
        id="lr-schedule",
        description="Learning rate at a step of the warmup-then-decay schedule (Eq. 3)",
        pick=pick,
        solve=solve,
        prompt=prompt,
        tolerance=Tolerance(rel=0.001),
        precision=PRECISION,
        primary="lrate",
        source="S5.E3",
        paper="aiayn",
        work_space_cm=4.0,
        needs_calculator=True,
        inputs={
            "step": "training step",
            "d_model": "model width",
            "warmup_steps": "warm-up steps",
        },
        outputs={
            "lrate": "d_model^−0.5 · min(step^−0.5, step · warmup_steps^−1.5)",
        },
    )
)
