"""Problems as text, Markdown and a streamed JSON array (``paperdeck problems``)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

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


def json_stream(problems: Iterable[Problem]) -> Iterator[str]:
    """A JSON array written piece by piece, so memory stays flat for any count."""
    yield "["
    for i, problem in enumerate(problems):
        yield ("\n" if i == 0 else ",\n") + json.dumps(problem.to_json())
    yield "\n]\n"
