"""What the tests hold about the mha problem type (``generator/problems/types/mha.py``)."""

from __future__ import annotations

from ._independent import attention, matmul

ASKS = "Give the output to three decimals."
"""How its prompt asks for the result a learner types (its ``primary``)."""
NEVER: tuple[str, ...] = ("every head",)
"""Results its prompt must not ask for."""


def reference(g):
    """The answer computed independently of the type module."""
    X = g["X"]
    heads = []
    for wq, wk, wv in zip(g["W_Q"], g["W_K"], g["W_V"], strict=True):
        heads.append(attention(matmul(X, wq), matmul(X, wk), matmul(X, wv))[1])
    concat = [[v for head in heads for v in head[i]] for i in range(len(X))]
    return {"heads": heads, "output": matmul(concat, g["W_O"])}
