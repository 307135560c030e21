"""One precision rule for numeric answers: what the prompt states, the tolerance and the key agree.

A question or problem states its precision in words ("Give 4 decimals", "to three
decimals", "to 3 significant figures"). The tolerance must accept an answer
rounded to that precision and reject one that is a whole last digit off, so it
lies between half a unit and one unit of the last stated place; the key prints
the answer to exactly that precision.
"""

from __future__ import annotations

import math
import re

_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_STATED = re.compile(
    r"\b(\d|one|two|three|four|five|six)\s+(decimals?|decimal places?|significant figures?)", re.I
)


def stated(prompt: str) -> tuple[str, int] | None:
    """The precision a prompt states: ("decimals", n) or ("figures", n), or None."""
    match = _STATED.search(prompt)
    if not match:
        return None
    count = int(match[1]) if match[1].isdigit() else _WORDS[match[1].lower()]
    return ("figures" if match[2].lower().startswith("significant") else "decimals", count)


def unit(precision: tuple[str, int], value: float) -> float:
    """One unit of the last stated place for ``value``."""
    kind, count = precision
    if kind == "decimals":
        return 10.0**-count
    exponent = math.floor(math.log10(abs(value))) if value else 0
    return 10.0 ** (exponent - count + 1)


def problems(prompt: str, answer: float, tolerance: float) -> list[str]:
    """What disagrees between a numeric question's prompt, answer and tolerance."""
    precision = stated(prompt)
    if precision is None:
        if tolerance > 0:  # tolerance 0: an exact value the student recalls (a BLEU score, a count)
            return [
                'state the precision in the prompt ("Give 4 decimals", "to 3 significant'
                ' figures"); the tolerance and the key follow it'
            ]
        return []
    step = unit(precision, answer)
    words = f"{precision[1]} {'decimals' if precision[0] == 'decimals' else 'significant figures'}"
    found = []
    if abs(answer / step - round(answer / step)) > 1e-6:
        found.append(f"the answer {answer} has more digits than the {words} the prompt asks for")
    if not 0.5 * step * (1 - 1e-9) <= tolerance <= step * (1 + 1e-9):
        found.append(
            f"the prompt asks for {words}, so the tolerance lies between"
            f" {0.5 * step:g} and {step:g}, not {tolerance:g}"
        )
    return found
