"""The LaTeX math subset as plain Unicode text, for people reading a terminal: written by the one parser.

``tree_box(tree, compact)`` writes math as ``parser.tree`` read it (the parser the loader checks
content with, print typesets with and the site writes MathML with), ``math_box(latex,
compact)`` LaTeX; each makes a *box*: lines
of text with a baseline, so a matrix can stand in rows and columns beside the text around it:

    AV = ⎡ 0.1  0.2 ⎤
         ⎣ 0.3  0.4 ⎦

In running prose (``compact``) a matrix is written on one line, ``[1 2; 3 4]``. Symbols come
from the one list (``symbols.py``, its terminal column: ``\\cdot`` is ``·``, ``\\top`` ``ᵀ``);
the author's spaces are kept (``\\min(a, b)``), where print and the site space math themselves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .parser import ALIGNED, Tree, Writer, tree, write
from .symbols import ACCENTS, FENCES, SYMBOLS


@dataclass
class Box:
    """Lines of text of equal width; ``base`` is the line that continues the text around it."""

    lines: list[str]
    base: int = 0

    @staticmethod
    def of(text: str) -> Box:
        return Box([text])

    @property
    def width(self) -> int:
        return max((len(line) for line in self.lines), default=0)

    def flat(self) -> str | None:
        """The box's text if it is one line."""
        return self.lines[0] if len(self.lines) == 1 else None

    def line(self) -> str:
        """The box's text on one line (a matrix's rows side by side)."""
        return self.flat() or " ".join(line.strip() for line in self.lines)


def beside(boxes: list[Box]) -> Box:
    """Boxes side by side, their baselines on one line."""
    if all(len(b.lines) == 1 for b in boxes):
        return Box(["".join(b.lines[0] for b in boxes)])
    above = max(b.base for b in boxes)
    below = max(len(b.lines) - b.base for b in boxes)
    rows = [""] * (above + below)
    for box in boxes:
        width = box.width
        top = above - box.base
        for i in range(len(rows)):
            j = i - top
            rows[i] += (box.lines[j] if 0 <= j < len(box.lines) else "").ljust(width)
    return Box([row.rstrip() for row in rows], above)


def matrix_box(rows: list[list[str]], compact: bool = False) -> Box:
    """A matrix of cell texts: one line in prose, else rows and right-aligned columns."""
    if compact or len(rows) == 1:
        return Box.of("[" + "; ".join(" ".join(row) for row in rows) + "]")
    widths = [max(len(row[j]) if j < len(row) else 0 for row in rows) for j in range(max(map(len, rows)))]
    body = ["  ".join(cell.rjust(widths[j]) for j, cell in enumerate(row)) for row in rows]
    width = max(map(len, body))
    last = len(body) - 1
    lines = []
    for i, line in enumerate(body):
        left, right = ("⎡", "⎤") if i == 0 else ("⎣", "⎦") if i == last else ("⎢", "⎥")
        lines.append(f"{left} {line.ljust(width)} {right}")
    return Box(lines, last // 2)


def cases_box(rows: list[list[str]], compact: bool = False) -> Box:
    """Cases (a value, then its condition): a brace before rows of left-aligned columns, or
    ``{0, j ≤ i; -∞, j > i}`` on one line."""
    if compact or len(rows) == 1:
        return Box.of("{" + "; ".join(", ".join(row) for row in rows) + "}")
    body = _columns(rows, "  ")
    last = len(body) - 1
    braces = ["⎧", *["⎨" if i == last // 2 else "⎪" for i in range(1, last)], "⎩"]
    return Box([f"{brace} {line}".rstrip() for brace, line in zip(braces, body, strict=True)], last // 2)


def aligned_box(rows: list[list[str]], compact: bool = False) -> Box:
    """Aligned equations: a line each, the parts after ``&`` one under the other, or the lines
    joined by ``;`` on one line."""
    if compact or len(rows) == 1:
        return Box.of("; ".join(" ".join(cell for cell in row if cell) for row in rows))
    return Box([line.rstrip() for line in _columns(rows, " ", first_right=True)], (len(rows) - 1) // 2)


def _columns(rows: list[list[str]], gap: str, first_right: bool = False) -> list[str]:
    """Rows of cells in left-aligned columns ``gap`` apart (the first right-aligned if asked)."""
    widths = [max(len(row[j]) if j < len(row) else 0 for row in rows) for j in range(max(map(len, rows)))]
    return [
        gap.join(
            cell.rjust(widths[j]) if j == 0 and first_right else cell.ljust(widths[j])
            for j, cell in enumerate(row)
        )
        for row in rows
    ]


_SPACES = {",": " ", ":": " ", ">": " ", ";": " ", "!": "", " ": " "}
_SUPERSCRIPTS = str.maketrans("0123456789+-()ni", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁽⁾ⁿⁱ")


def _simple(text: str) -> bool:
    """Whether ``text`` reads as one term: a name, a number, a root of one, with a power."""
    return bool(re.fullmatch(r"√?[\w.·ᵀ]+(\^\([^()]*\)|\^\w+)?", text))


def _wrapped(text: str) -> str:
    return text if _simple(text) or (text.startswith("(") and text.endswith(")")) else f"({text})"


def _script(op: str, text: str) -> str:
    if op == "^":
        if text == "ᵀ":
            return text
        if all(c in "0123456789+-()ni" for c in text):
            return text.translate(_SUPERSCRIPTS)
        return f"^{text}" if re.fullmatch(r"\w|√?\d+|ᵀ", text) else f"^({text})"
    return f"_{text}" if _simple(text) else f"_({text})"


class PlainWriter(Writer):
    """Terminal text; every piece is a ``Box``. ``compact``: matrices on one line, for prose."""

    def __init__(self, compact: bool = False):
        self.compact = compact

    def join(self, pieces: list[Any]) -> Any:
        return beside(pieces) if pieces else Box.of("")

    def whitespace(self) -> Any:
        return Box.of(" ")

    def number(self, digits: str) -> Any:
        return Box.of(digits)

    def character(self, char: str) -> Any:
        return Box.of(char)

    def symbol(self, name: str) -> Any:
        return Box.of(SYMBOLS[name].plain)

    def space(self, name: str) -> Any:
        return Box.of(_SPACES[name])

    def escaped(self, char: str) -> Any:
        return Box.of(FENCES.get("\\" + char, char))

    def linebreak(self) -> Any:
        return Box.of("; ")

    def script(self, base: Any | None, op: str, argument: list[Any]) -> Any:
        script = Box.of(_script(op, self.join(argument).line()))
        return beside([base, script]) if base else script

    def prime(self, base: Any | None) -> Any:
        return beside([base, Box.of("'")]) if base else Box.of("'")

    def frac(self, top: list[Any], bottom: list[Any]) -> Any:
        return Box.of(f"{_wrapped(self.join(top).line())}/{_wrapped(self.join(bottom).line())}")

    def binom(self, top: list[Any], bottom: list[Any]) -> Any:
        return Box.of(f"C({self.join(top).line()}, {self.join(bottom).line()})")

    def sqrt(self, body: list[Any], index: list[Any] | None) -> Any:
        inside = self.join(body).line()
        root = f"√{inside}" if _simple(inside) else f"√({inside})"
        if index:
            degree = self.join(index).line()
            root = (degree.translate(_SUPERSCRIPTS) if degree.isdigit() else f"({degree})") + root
        return Box.of(root)

    def text(self, words: str, command: str) -> Any:
        return Box.of(words)

    def operator(self, words: str, limits: bool) -> Any:
        return Box.of(words)

    def upright(self, words: str) -> Any:
        return Box.of(words)

    def style(self, command: str, body: list[Any]) -> Any:
        return Box.of(self.join(body).line())

    def accent(self, command: str, body: list[Any]) -> Any:
        inside = self.join(body).line()
        if len(inside) == 1:  # one letter takes the combining mark: x̂
            return Box.of(inside + ACCENTS[command].combining)
        return Box.of(f"{command}({inside})")

    def delimiter(self, token: str) -> Any:
        if token.startswith("\\") and token[1:] in SYMBOLS:
            return SYMBOLS[token[1:]].plain
        return FENCES[token]

    def fenced(self, opening: Any, body: list[Any], closing: Any) -> Any:
        return beside([Box.of(opening), *body, Box.of(closing)])

    def environment(self, name: str, rows: list[list[list[Any]]]) -> Any:
        def text(cell: list[Any]) -> str:
            box = self.join(cell)
            return (box.flat() or " ".join(box.lines)).strip()

        cells = [[text(cell) for cell in row] for row in rows]
        if cells and cells[-1] == [""]:  # a trailing \\ before \end, with a space
            cells.pop()
        if name == "cases":
            return cases_box(cells, self.compact)
        if name in ALIGNED:
            return aligned_box(cells, self.compact)
        return matrix_box(cells, self.compact)


_WRITERS = (PlainWriter(), PlainWriter(compact=True))


def math_box(latex: str, compact: bool = False) -> Box:
    """LaTeX math (without delimiters) as a box of plain text; ``LatexError`` if outside the subset."""
    return tree_box(tree(latex), compact)


def tree_box(math: Tree, compact: bool = False) -> Box:
    """Math as read (``parser.tree``) as a box of plain text."""
    box: Box = write(math, _WRITERS[compact])
    return Box(
        [re.sub(r" {3,}", "  ", line).rstrip() if len(box.lines) == 1 else line for line in box.lines],
        box.base,
    )
