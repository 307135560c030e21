"""Check the math in a piece of content text before any exporter sees it.

Math is written inside ``\\( … \\)`` (inline) and ``\\[ … \\]`` (display), as
Anki's MathJax expects. Unbalanced delimiters or braces break a card silently,
so they are content errors here.
"""

from __future__ import annotations

import re

from .parser import LatexError, convert

_DELIMITER = re.compile(r"\\[()\[\]]")


def math_spans(text: str) -> list[tuple[bool, str]]:
    """The math in ``text`` as (display?, LaTeX) pairs, assuming it is balanced."""
    return [(m.group(1) == "[", m.group(2)) for m in re.finditer(r"\\([(\[])(.*?)\\[)\]]", text, re.S)]


def latex_problems(latex: str) -> list[str]:
    """Why ``latex`` (math without delimiters) cannot be typeset in print, if it cannot."""
    try:
        convert(latex)
    except LatexError as error:
        return [f"cannot typeset this math in print: {error}"]
    return []


def math_problems(text: str) -> list[str]:
    """What is wrong with the math of ``text``: delimiters, braces, LaTeX outside the subset."""
    found = _delimiter_problems(text)
    if not found:
        for _, latex in math_spans(text):
            found += latex_problems(latex)
    return found


def _delimiter_problems(text: str) -> list[str]:
    found: list[str] = []
    opened: str | None = None
    start = 0
    for match in _DELIMITER.finditer(text):
        token = match.group()
        if token in (r"\(", r"\["):
            if opened:
                found.append(f"{token} opened inside {opened} … (close it first)")
                return found
            opened, start = token, match.end()
        else:
            expected = r"\)" if opened == r"\(" else r"\]" if opened == r"\[" else None
            if token != expected:
                found.append(f"{token} without a matching opening delimiter")
                return found
            found.extend(_brace_problems(text[start : match.start()]))
            opened = None
    if opened:
        found.append(f"{opened} is never closed")
    if re.search(r"(?<!\\)\$", text):
        found.append(r"use \( … \) or \[ … \] for math, not $ (write \$ for a dollar sign)")
    return found


def _brace_problems(latex: str) -> list[str]:
    depth = 0
    for match in re.finditer(r"\\.|[{}]", latex):
        token = match.group()
        if token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
            if depth < 0:
                break
    return [f"unbalanced braces in math: {latex.strip()[:40]}"] if depth else []
