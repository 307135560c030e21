"""How answers are rounded for the JSON form."""

from __future__ import annotations

from typing import Any

import numpy as np

# Answers keep ten decimals: far below any tolerance, and enough rounding that the
# last-bit differences between exp/sin implementations on different machines do
# not show in the JSON.
ANSWER_DECIMALS = 10


def plain(value: Any) -> Any:
    """A number, array or nested list as JSON-plain floats rounded to ANSWER_DECIMALS."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    # Adding 0.0 turns -0.0 into 0.0, which would otherwise print as "-0.0".
    return round(float(value), ANSWER_DECIMALS) + 0.0
