"""Problems as plain text, Markdown and a streamed JSON array (``paperdeck problems``).

Text is for people (Unicode math, keys last); Markdown keeps the LaTeX as ``$`` math
and prints answers as the text does; JSON is the public form."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Iterator
from typing import Any

import orjson

from ..content.text import Cloze, Code, Emphasis, Inlines, Link, Math, Renderer, Strong, Text, inlines
from ..presentation import Formatter, answer_formatter, number_formatter, tolerance_words, value_latex
from ..problems import Problem, get
from .plain_text import Box, beside, math_box, matrix_box, prose


def _wrap(text: str, indent: str = "") -> list[str]:
    return textwrap.wrap(text, width=88, initial_indent=indent, subsequent_indent=indent) or [indent]


def _value_box(value: Any, fmt: Formatter, compact: bool = False) -> Box:
    """A given or an answer: a number, a vector, a matrix or a list of matrices."""
    if (
        isinstance(value, list)
        and value
        and isinstance(value[0], list)
        and value[0]
        and isinstance(value[0][0], list)
    ):  # a list of matrices
        return beside([b for m in value for b in (_value_box(m, fmt, compact), Box.of("  "))][:-1])
    if isinstance(value, list):
        rows = value if value and isinstance(value[0], list) else [value]
        return matrix_box([[_number(x, fmt) for x in row] for row in rows], compact)
    return Box.of(_number(value, fmt))


def _number(x: Any, fmt: Formatter) -> str:
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return math_box(fmt(x)).lines[0]
    return str(x)


def _named(name: str, box: Box, indent: str) -> list[str]:
    return [indent + line for line in beside([Box.of(f"{name} = "), box]).lines]


def _problem_text(number: int, problem: Problem) -> str:
    lines = [f"Problem {number}  ({problem.type}, {problem.difficulty})", *_wrap(prose(problem.prompt)), ""]
    exact = number_formatter()
    for name, value in problem.given.items():
        named = _named(name, _value_box(value, exact), "  ")
        lines += named + ([""] if len(named) > 1 else [])
    return "\n".join(lines) + "\n"


def _key_text(number: int, problem: Problem) -> str:
    tolerance = problem.tolerance
    fmt = answer_formatter(problem.precision, tolerance.abs, tolerance.rel)  # as cards and printed keys
    command = f"paperdeck problems {problem.type} --problem-seed {problem.seed} -d {problem.difficulty}"
    lines = [f"Problem {number}  (seed {problem.seed}: {command})"]
    for i, step in enumerate(problem.steps, 1):
        lines += _wrap(f"{i}. {prose(step.title)}:", "  ")
        lines += ["     " + line for line in math_box(step.latex).lines]
    lines.append(f"  Answer ({prose(tolerance_words(tolerance.abs, tolerance.rel))}):")
    width = max(map(len, problem.answer))
    primary = get(problem.type).primary
    for name, value in _primary_first(problem.answer, primary):
        lines += _named(name.ljust(width), _value_box(value, fmt), "    ")
    for distractor in problem.distractors:
        wrong = distractor.answer.get(primary)
        if wrong is not None:
            shown = _value_box(wrong, fmt, compact=True).lines[0]
            lines += _wrap(f"If you {prose(distractor.mistake)}: {primary} = {shown}", "  ")
    return "\n".join(lines) + "\n"


def _primary_first(answer: dict[str, Any], primary: str) -> list[tuple[str, Any]]:
    """The answer's results, the one a student is checked on first (as on the card)."""
    return sorted(answer.items(), key=lambda item: item[0] != primary)


def text_stream(problems: Iterable[Problem]) -> Iterator[str]:
    """Problems as plain text for a terminal: every problem first, then the keys.

    Math is Unicode, matrices stand in rows and columns, answers show the digits
    the tolerance asks for, and the keys come after all the problems so a
    student can work them first.
    """
    keys = []
    for number, problem in enumerate(problems, 1):
        yield ("\n" if number > 1 else "") + _problem_text(number, problem)
        keys.append(_key_text(number, problem))
    if keys:
        yield "\n" + "=" * 30 + " Answers " + "=" * 30 + "\n"
        for key in keys:
            yield "\n" + key


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_$<\[\]])")
"""What CommonMark could read as markup in text: written backslash-escaped."""


class _Markdown(Renderer):
    """CommonMark with ``$`` math, one method per node of content.text's tree."""

    def text(self, node: Text) -> str:
        return _MARKDOWN_SPECIAL.sub(r"\\\1", node.text)

    def code(self, node: Code) -> str:
        return f"`{node.text}`"

    def strong(self, node: Strong) -> str:
        return f"**{self.inline(node.children)}**"

    def emphasis(self, node: Emphasis) -> str:
        return f"*{self.inline(node.children)}*"

    def math(self, node: Math) -> str:
        return f"$${node.latex.strip()}$$" if node.display else f"${node.latex.strip()}$"

    def cloze(self, node: Cloze) -> str:
        hint = "" if node.hint is None else "::" + node.hint
        return f"{{{{c{node.number}::{self.inline(node.children)}{hint}}}}}"

    def link(self, node: Link) -> str:
        return f"[{self.inline(node.children)}]({node.url})"


_MARKDOWN = _Markdown()


def dollar_math(text: str | Inlines) -> str:
    """Markdown with ``\\( \\)`` and ``\\[ \\]`` math as CommonMark-with-math renderers read it
    (GitHub, Pandoc, markdown-it's dollarmath, MyST): ``$…$`` and ``$$…$$``, whose insides
    are not Markdown, so ``\\\\`` keeps both backslashes. In the text, what CommonMark would
    read as markup but content does not (a ``$``, a lone ``*``, ``_``) is escaped."""
    return _MARKDOWN.inline(inlines(text, strip=False))


def as_markdown(problem: Problem) -> str:
    """A Markdown section with ``$`` math; answers to the digits the text format prints."""
    tolerance = problem.tolerance
    fmt = answer_formatter(problem.precision, tolerance.abs, tolerance.rel)  # as cards and printed keys
    command = f"paperdeck problems {problem.type} --problem-seed {problem.seed} -d {problem.difficulty}"
    lines = [
        f"## {problem.id} ({problem.type}, {problem.difficulty})",
        "",
        dollar_math(problem.prompt),
        "",
        f"Seed {problem.seed}: `{command}`",
        "",
        "### Solution",
        "",
    ]
    for i, step in enumerate(problem.steps, 1):
        lines += [f"{i}. {dollar_math(step.title)}:", "", "   $$", f"   {step.latex}", "   $$", ""]
    lines += [f"**Answer** ({dollar_math(tolerance_words(tolerance.abs, tolerance.rel))}):", ""]
    primary = get(problem.type).primary
    lines += [
        f"- `{name}` = ${value_latex(value, fmt)}$" for name, value in _primary_first(problem.answer, primary)
    ]
    mistakes = [(d.mistake, d.answer[primary]) for d in problem.distractors if primary in d.answer]
    if mistakes:
        lines += ["", "**Common mistakes:**", ""]
        lines += [
            f"- {dollar_math(mistake)}: `{primary}` = ${value_latex(value, fmt)}$"
            for mistake, value in mistakes
        ]
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
