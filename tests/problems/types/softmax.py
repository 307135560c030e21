"""What the tests hold about the softmax problem type (``generator/problems/types/softmax.py``)."""

from __future__ import annotations

from ._independent import softmax

ASKS = "Give each probability to three decimals."
"""How its prompt asks for the result a learner types (its ``primary``)."""
NEVER: tuple[str, ...] = ()
"""Results its prompt must not ask for."""


def reference(g):
    """The answer computed independently of the type module."""
    return {"p": softmax(g["x"])}
