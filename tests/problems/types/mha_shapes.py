"""What the tests hold about the mha-shapes problem type (``generator/problems/types/mha_shapes.py``)."""

from __future__ import annotations

ASKS = "How many weights do all"
"""How its prompt asks for the result a learner types (its ``primary``)."""
NEVER: tuple[str, ...] = (r"Give \(d_k\)",)
"""Results its prompt must not ask for."""


def reference(g):
    """The answer computed independently of the type module."""
    d_k = g["d_model"] // g["h"]
    return {"d_k": d_k, "d_v": d_k, "params": 4 * g["d_model"] ** 2}
