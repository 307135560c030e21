"""What the tests hold about the masked-sdpa problem type (``generator/problems/types/masked_sdpa.py``)."""

from __future__ import annotations

from ._independent import attention

ASKS = "Give the output to three decimals."
"""How its prompt asks for the result a learner types (its ``primary``)."""
NEVER: tuple[str, ...] = ("weights",)
"""Results its prompt must not ask for."""


def reference(g):
    """The answer computed independently of the type module."""
    weights, output = attention(g["Q"], g["K"], g["V"], allowed=lambda i, j: j <= i)
    return {"weights": weights, "output": output}
