"""What the tests hold about the layer-norm problem type (``generator/problems/types/layer_norm.py``)."""

from __future__ import annotations

import math
import statistics

ASKS = r"Give each entry of the result \(y\) to three decimals."
"""How its prompt asks for the result a learner types (its ``primary``)."""
NEVER: tuple[str, ...] = ()
"""Results its prompt must not ask for."""


def reference(g):
    """The answer computed independently of the type module."""
    n = len(g["x"])
    z = [g["x"][i] + (g["sublayer"][i] if "sublayer" in g else 0) for i in range(n)]
    mu = statistics.fmean(z)
    sd = math.sqrt(statistics.pvariance(z) + g["eps"])
    gamma = g.get("gamma", [1] * n)
    beta = g.get("beta", [0] * n)
    return {"y": [gamma[i] * (z[i] - mu) / sd + beta[i] for i in range(n)]}
