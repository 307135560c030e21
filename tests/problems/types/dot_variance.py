"""What the tests hold about the dot-variance problem type (``generator/problems/types/dot_variance.py``)."""

from __future__ import annotations

import math

ASKS = r"What is the variance of \(q \cdot k\)?"
"""How its prompt asks for the result a learner types (its ``primary``)."""
NEVER: tuple[str, ...] = ("standard deviation", r"\sqrt{d_k}}\)")
"""Results its prompt must not ask for."""


def reference(g):
    """The answer computed independently of the type module."""
    # Var(sum of d_k independent zero-mean products) = sum of Var(q_i) Var(k_i).
    variance = math.fsum([g["var_q"] * g["var_k"]] * g["d_k"])
    return {"variance": variance, "std": variance**0.5, "scaled_variance": variance / g["d_k"]}
