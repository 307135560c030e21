"""What a content question needs that a student cannot work out by hand, and its values.

A numeric question lists ``needs: ["exp(-0.5)", "sqrt(2)"]``: a quiz without
calculators prints each value to four decimals in a table under the question, as
generated problems print their exponentials. Questions that need more than a
table can give (sin, cos, powers) say ``calculator: true`` instead.
"""

from __future__ import annotations

import math
import re

from ..values import Precision

NEED = re.compile(r"^(exp|sqrt)\((-?\d+(?:\.\d+)?)\)$")
"""One need: ``exp(x)`` or ``sqrt(x)`` with a decimal ``x``."""
FUNCTIONS = {"exp": math.exp, "sqrt": math.sqrt}
TABLE = Precision(decimals=4)
"""The digits a quiz without calculators prints a needed value and an exponential to (``0.6065``)."""


def need_problem(need: str) -> str | None:
    """Why ``need`` is not a valid need, or None."""
    match = NEED.match(need.replace(" ", ""))
    if not match:
        return f"expected exp(x) or sqrt(x) with a number x, got {need!r}"
    if match[1] == "sqrt" and float(match[2]) < 0:
        return f"sqrt of a negative number: {need!r}"
    return None


def need_values(needs: tuple[str, ...]) -> tuple[tuple[str, float], ...]:
    """Each need as (LaTeX of the expression, its value), in the order given."""
    out = []
    for need in needs:
        match = NEED.match(need.replace(" ", ""))
        assert match is not None, need  # checked when content loads
        name, text = match[1], match[2]
        latex = rf"e^{{{text}}}" if name == "exp" else rf"\sqrt{{{text}}}"
        out.append((latex, FUNCTIONS[name](float(text))))
    return tuple(out)
