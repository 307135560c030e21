"""What the tests hold about the complexity problem type (``generator/problems/types/complexity.py``)."""

from __future__ import annotations

import math

ASKS = "How many operations per layer does self-attention take here?"
"""How its prompt asks for the result a learner types (its ``primary``)."""
NEVER: tuple[str, ...] = ("path length", "recurrent layer", "which of")
"""Results its prompt must not ask for."""


def reference(g):
    """The answer computed independently of the type module."""
    n, d, k, r = g["n"], g["d"], g["k"], g["r"]
    m = 0
    while k**m < n:
        m += 1
    return {
        "ops_self_attention": n * n * d,
        "ops_recurrent": n * d * d,
        "ops_convolutional": k * n * d * d,
        "ops_restricted": r * n * d,
        "path_self_attention": 1,
        "path_recurrent": n,
        "path_convolutional": m if k**m == n else math.log(n, k),
        "path_restricted": n / r,
        "cheaper": "self-attention" if n < d else "recurrent",
    }
