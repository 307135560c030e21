"""What the tests hold about the label-smoothing problem type (``generator/problems/types/label_smoothing.py``)."""

from __future__ import annotations

import math

ASKS = "What probability does the smoothed target give the correct token?"
"""How its prompt asks for the result a learner types (its ``primary``)."""
NEVER: tuple[str, ...] = ("each other token",)
"""Results its prompt must not ask for."""


def reference(g):
    """The answer computed independently of the type module."""
    eps, K = g["eps"], g["vocab_size"]
    target = 0
    q = [(1 - eps) * (1 if k == target else 0) + eps / K for k in range(K)]
    assert math.isclose(math.fsum(q), 1.0)
    return {"p_target": q[target], "p_other": q[1]}
