"""Check math before any exporter sees it.

Math is written inside ``\\( … \\)`` (inline) and ``\\[ … \\]`` (display), as
Anki's MathJax expects. Unbalanced delimiters or braces break a card silently, so they
are content errors here (``delimiter_problems``, read from the text as written: the text
tree cannot hold what is unbalanced); each formula of the tree is then read by the parser
and typeset (``latex_problems``; the parser keeps the tree it read for the outputs).
"""

from __future__ import annotations

import re

from .parser import LatexError, convert

_DELIMITER = re.compile(r"\\[()\[\]]")


def latex_problems(latex: str) -> list[str]:
    """Why ``latex`` (math without delimiters) cannot be typeset in print, if it cannot."""
    try:
        convert(latex)
    except LatexError as error:
        return [f"cannot typeset this math in print: {error}"]
    return []


def delimiter_problems(text: str) -> list[str]:
    """Unbalanced math delimiters, braces inside math, or ``$`` used for math."""
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
