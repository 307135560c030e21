"""What the tests hold about the sdpa problem type (``generator/problems/types/sdpa.py``)."""

from __future__ import annotations

import math

from ._independent import attention

ASKS = "Give the output to three decimals"
"""How its prompt asks for the result a learner types (its ``primary``)."""
NEVER: tuple[str, ...] = ("scaled scores", "attention weights")
"""Results its prompt must not ask for."""


def reference(g):
    """The answer computed independently of the type module."""
    d_k = len(g["Q"][0])
    scores = [
        [math.fsum(a * b for a, b in zip(q, k, strict=True)) / math.sqrt(d_k) for k in g["K"]] for q in g["Q"]
    ]
    weights, output = attention(g["Q"], g["K"], g["V"])
    return {"scores": scores, "weights": weights, "output": output}
