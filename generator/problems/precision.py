"""One precision rule for numeric answers: the declared precision, the prompt's words, the
tolerance and the key agree.

A question or problem declares its precision as data (``values.Precision``: a problem type's
``precision``, a content question's ``precision:``). Its prompt may state it in words ("Give 4
decimals", "to three decimals", "to 3 significant figures"); the words must say what the data
says, and this module is the only place that reads them. The tolerance must accept an answer
rounded to that precision and reject one that is a whole last digit off, so it lies between
half a unit and one unit of the last place; the key prints the answer to exactly that precision.
"""

from __future__ import annotations

import math
import re
from typing import Any

from .. import answers
from ..values import Precision

_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_STATED = re.compile(
    r"\b(\d|one|two|three|four|five|six)\s+(decimals?|decimal places?|significant figures?)", re.I
)


def stated(prompt: str) -> Precision | None:
    """The precision a prompt states in words, or None: only for checking words against data."""
    match = _STATED.search(prompt)
    if not match:
        return None
    count = int(match[1]) if match[1].isdigit() else _WORDS[match[1].lower()]
    if match[2].lower().startswith("significant"):
        return Precision(figures=count)
    return Precision(decimals=count)


def disagreement(prompt: str, declared: Precision | None) -> str:
    """Why a prompt's words and its declared precision disagree, or ''."""
    words = stated(prompt)
    if words is None or words == declared:
        return ""
    if declared is None:
        return f"the prompt asks for {words.words()} and no precision is declared"
    return f"the prompt asks for {words.words()}, its precision is {declared.words()}"


def unsaid(prompt: str, declared: Precision | None) -> str:
    """Why a prompt does not say the declared precision in its words, or '': a student is told
    the digits a key holds them to."""
    wrong = disagreement(prompt, declared)
    if wrong or declared is None or stated(prompt) is not None:
        return wrong
    return f'state the precision in the prompt ("Give {declared.words()}")'


def rejects_rounded(declared: Precision, tolerance: answers.Tolerance, numbers: list[Any]) -> str:
    """Why the tolerance would reject an answer rounded to the declared precision, or '': it
    accepts at least half a unit of the last place around each number of the key (a problem's
    tolerance may be wider than one unit: the worked steps round on the way)."""
    for x in numbers:
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
            continue
        half = 0.5 * declared.unit(x)
        if answers.bound(x, tolerance) < half * (1 - 1e-9):
            return (
                f"its tolerance rejects {x:g} rounded to {declared.words()}: it accepts"
                f" {answers.bound(x, tolerance):g} around it, half a unit of the last place is {half:g}"
            )
    return ""


def declare(prompt: str, python: bool = False) -> str:
    """How to declare the precision the prompt's words state: ``precision: {decimals: 4}`` in
    content, ``precision=Precision(decimals=4)`` in a problem type's module."""
    words = stated(prompt)
    if words is None:
        return ""
    kind = "figures" if words.figures is not None else "decimals"
    if python:
        return f"; declare it: precision=Precision({kind}={words.count})"
    return f"; declare it: precision: {{{kind}: {words.count}}}"


def problems(
    prompt: str, declared: Precision | None, answer: float, tolerance: float
) -> list[tuple[str, str]]:
    """What disagrees between a numeric question's precision, prompt, answer and tolerance,
    each with the field it is about."""
    if declared is not None and declared.problems():
        return []  # said where the precision is written
    wrong = disagreement(prompt, declared)
    if wrong:
        return [("prompt", wrong)] if declared else [("precision", wrong + declare(prompt))]
    if declared is None:
        if tolerance > 0:  # tolerance 0: an exact value the student recalls (a BLEU score, a count)
            return [
                (
                    "precision",
                    "give the precision (precision: {decimals: 4} or {figures: 3}) and state it in the"
                    ' prompt ("Give 4 decimals", "to 3 significant figures"); the tolerance and the key'
                    " follow it",
                )
            ]
        return []
    found = [("prompt", unsaid(prompt, declared))] if stated(prompt) is None else []
    step = declared.unit(answer)
    words = declared.words()
    if abs(answer / step - round(answer / step)) > 1e-6:
        found.append(("answer", f"the answer {answer} has more digits than the {words} asked for"))
    if not 0.5 * step * (1 - 1e-9) <= tolerance <= step * (1 + 1e-9):
        found.append(
            (
                "tolerance",
                f"the precision is {words}, so the tolerance lies between"
                f" {0.5 * step:g} and {step:g}, not {tolerance:g}",
            )
        )
    return found
