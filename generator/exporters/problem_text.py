"""Problems as text, Markdown and a streamed JSON array (``paperdeck problems``)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

import orjson

from ..problems import Problem


def _numbers(value: object) -> str:
    return json.dumps(value, separators=(", ", ": "))


def as_text(problem: Problem) -> str:
    """A plain-text rendering for a terminal."""
    lines = [f"{problem.id}  ({problem.type}, {problem.difficulty}, seed {problem.seed})",
             problem.prompt, "", "Given:"]
    lines += [f"  {name} = {_numbers(value)}" for name, value in problem.given.items()]
    lines.append("Steps:")
    lines += [f"  {i}. {step.title}: {step.latex}" for i, step in enumerate(problem.steps, 1)]
    lines.append("Answer:")
    lines += [f"  {name} = {_numbers(value)}" for name, value in problem.answer.items()]
    lines.append(f"Tolerance: {_numbers(problem.tolerance.to_json())}")
    return "\n".join(lines) + "\n"


def as_markdown(problem: Problem) -> str:
    """A Markdown section with MathJax-style math."""
    lines = [f"## {problem.id} ({problem.type}, {problem.difficulty})", "",
             problem.prompt, "", f"*Seed {problem.seed}*", "", "### Solution", ""]
    lines += [f"{i}. {step.title}: \\[{step.latex}\\]" for i, step in enumerate(problem.steps, 1)]
    lines += ["", "**Answer:** " + ", ".join(f"`{k}` = {_numbers(v)}" for k, v in problem.answer.items()),
              "", f"Tolerance: {_numbers(problem.tolerance.to_json())}", ""]
    return "\n".join(lines) + "\n"


def _plain(value: Any) -> Any:
    """orjson's fallback for what it does not serialize itself: NumPy scalars and arrays."""
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000  # a UTF-16 surrogate pair, as json.dumps writes it
    return f"\\u{0xD800 | code >> 10:04x}\\u{0xDC00 | code & 0x3FF:04x}"


def problem_json(problem: Problem) -> str:
    """One problem in the public JSON form, compact and ASCII-only (like ``json.dumps``).

    orjson writes it ten times faster than ``json.dumps``; the text differs only in
    layout (no spaces after ``,`` and ``:``), so ``json.loads`` reads the same value.
    Non-ASCII characters are escaped as ``\\uXXXX`` so any terminal can print it.
    """
    text = orjson.dumps(problem.to_json(), default=_plain, option=orjson.OPT_NON_STR_KEYS)
    if text.isascii():
        return text.decode()
    return _NON_ASCII.sub(_escape, text.decode())


def json_stream(problems: Iterable[Problem]) -> Iterator[str]:
    """A JSON array written piece by piece, so memory stays flat for any count."""
    yield "["
    for i, problem in enumerate(problems):
        yield ("\n" if i == 0 else ",\n") + problem_json(problem)
    yield "\n]\n"
