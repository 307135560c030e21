"""What the tests hold about the lr-schedule problem type (``generator/problems/types/lr_schedule.py``)."""

from __future__ import annotations

import math

ASKS = "what is the learning rate at step"
"""How its prompt asks for the result a learner types (its ``primary``)."""
NEVER: tuple[str, ...] = ()
"""Results its prompt must not ask for."""


def reference(g):
    """The answer computed independently of the type module."""
    s, w = g["step"], g["warmup_steps"]
    warm = s / (w * math.sqrt(w))
    decay = 1 / math.sqrt(s)
    return {"lrate": (warm if warm < decay else decay) / math.sqrt(g["d_model"])}
