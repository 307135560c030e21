"""What the tests hold about the ffn problem type (``generator/problems/types/ffn.py``)."""

from __future__ import annotations

from ._independent import matmul

ASKS = "Give the output to two decimals."
"""How its prompt asks for the result a learner types (its ``primary``)."""
NEVER: tuple[str, ...] = ()
"""Results its prompt must not ask for."""


def reference(g):
    """The answer computed independently of the type module."""
    hidden = matmul(g["x"], g["W1"])
    hidden = [[max(0.0, v + b) for v, b in zip(row, g["b1"], strict=True)] for row in hidden]
    out = matmul(hidden, g["W2"])
    return {"output": [[v + b for v, b in zip(row, g["b2"], strict=True)] for row in out]}
