"""What the tests hold about the positional-encoding problem type (``generator/problems/types/positional_encoding.py``)."""

from __future__ import annotations

import math

ASKS = "compute the encoding of position"
"""How its prompt asks for the result a learner types (its ``primary``)."""
NEVER: tuple[str, ...] = ()
"""Results its prompt must not ask for."""


def reference(g):
    """The answer computed independently of the type module."""
    i, odd = divmod(g["dim"], 2)
    angle = g["pos"] / math.pow(10000, 2 * i / g["d_model"])
    return {"value": math.cos(angle) if odd else math.sin(angle)}
