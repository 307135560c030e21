"""LaTeX math and Markdown as plain Unicode text, for people reading a terminal.

Covers the LaTeX that problem prompts and worked steps use (``generator.latex``
checks content against a larger subset; what this module does not know it
prints as written, minus the backslash). Math becomes a *box*: lines of text
with a baseline, so a matrix can stand in rows and columns beside the text
around it:

    AV = ⎡ 0.1  0.2 ⎤
         ⎣ 0.3  0.4 ⎦

In running prose (``compact``) a matrix is written on one line, ``[1 2; 3 4]``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..content.markdown import CODE, EMPHASIS, STRONG
from ..latex.parser import TOKEN
from ..latex.symbols import SYMBOLS

# Letters are the one list the site's MathML uses (``\epsilon`` is ϵ, as MathJax prints it on
# a card); the operators below are written for a terminal line.
_SYMBOLS = {
    **{name: s.unicode for name, s in SYMBOLS.items() if s.kind in ("letter", "upright")},
    "cdot": "·",
    "times": "×",
    "div": "÷",
    "pm": "±",
    "top": "ᵀ",
    "infty": "∞",
    "le": "≤",
    "leq": "≤",
    "ge": "≥",
    "geq": "≥",
    "ne": "≠",
    "neq": "≠",
    "approx": "≈",
    "sim": "~",
    "equiv": "≡",
    "propto": "∝",
    "in": "∈",
    "to": "→",
    "rightarrow": "→",
    "leftarrow": "←",
    "mapsto": "↦",
    "sum": "Σ",
    "prod": "Π",
    "int": "∫",
    "partial": "∂",
    "nabla": "∇",
    "ell": "ℓ",
    "odot": "⊙",
    "oplus": "⊕",
    "otimes": "⊗",
    "circ": "∘",
    "ldots": "…",
    "dots": "…",
    "cdots": "⋯",
    "vdots": "⋮",
    "langle": "⟨",
    "rangle": "⟩",
    "lfloor": "⌊",
    "rfloor": "⌋",
    "lceil": "⌈",
    "rceil": "⌉",
    "mid": "|",
    "vert": "|",
    "{": "{",
    "}": "}",
    "%": "%",
    "&": "&",
    "_": "_",
    "#": "#",
    "$": "$",
    ",": " ",
    ":": " ",
    ";": " ",
    "!": "",
    " ": " ",
    "quad": "  ",
    "qquad": "    ",
}
_OPERATORS = {"max", "min", "exp", "log", "ln", "sin", "cos", "tan", "tanh", "arg", "lim", "det"}
_WORDS = {
    "mathrm",
    "text",
    "textrm",
    "mathit",
    "mathbf",
    "boldsymbol",
    "operatorname",
    "mathsf",
    "textit",
    "textbf",
    "mathbb",
    "mathcal",
    "mbox",
}
_IGNORED = {"left", "right", "displaystyle", "big", "Big", "bigl", "bigr", "Bigl", "Bigr", "limits"}
_SUPERSCRIPTS = str.maketrans("0123456789+-()ni", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁽⁾ⁿⁱ")


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


class _Reader:
    def __init__(self, latex: str, compact: bool):
        self.tokens = [t for t in TOKEN.findall(latex) if not t.startswith("%")]
        self.pos = 0
        self.compact = compact

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str:
        token: str = self.tokens[self.pos]
        self.pos += 1
        return token

    def sequence(self, stops: frozenset[str] = frozenset()) -> Box:
        parts: list[Box] = []
        while self.peek() is not None and self.peek() not in stops:
            token = self.take()
            if token in ("^", "_"):
                parts.append(Box.of(_script(token, self.group_text())))
            else:
                parts.append(self.atom(token))
        return beside(parts) if parts else Box.of("")

    def group_text(self) -> str:
        """The next argument as one line (a group ``{…}`` or a single token)."""
        box = self.argument()
        return box.flat() or " ".join(line.strip() for line in box.lines)

    def argument(self) -> Box:
        while self.peek() is not None and self.peek().isspace():  # type: ignore[union-attr]
            self.take()
        if self.peek() is None:
            return Box.of("")
        token = self.take()
        if token == "{":
            box = self.sequence(frozenset("}"))
            if self.peek() == "}":
                self.take()
            return box
        return self.atom(token)

    def atom(self, token: str) -> Box:
        if token == "{":
            box = self.sequence(frozenset("}"))
            if self.peek() == "}":
                self.take()
            return box
        if token.isspace():
            return Box.of(" ")
        if not token.startswith("\\"):
            return Box.of(token)
        name = token[1:]
        if name in _SYMBOLS:
            return Box.of(_SYMBOLS[name])
        if name in _OPERATORS:
            return Box.of(name)
        if name in _WORDS:
            return Box.of(self.group_text())
        if name in _IGNORED:
            return Box.of("")
        if name == "frac":
            top, bottom = self.group_text(), self.group_text()
            return Box.of(f"{_wrapped(top)}/{_wrapped(bottom)}")
        if name == "sqrt":
            inside = self.group_text()
            return Box.of(f"√{inside}" if _simple(inside) else f"√({inside})")
        if name == "begin":
            environment = self.group_text()
            return self.matrix(environment)
        if name == "\\":
            return Box.of("; ")
        return Box.of(name)

    def matrix(self, environment: str) -> Box:
        rows: list[list[str]] = [[]]
        while self.peek() is not None:
            cell = self.sequence(frozenset({"&", "\\\\", r"\end"}))
            rows[-1].append((cell.flat() or " ".join(cell.lines)).strip())
            token = self.take() if self.peek() is not None else r"\end"
            if token == "\\\\":
                rows.append([])
            elif token == r"\end":
                self.group_text()
                break
        if rows[-1] == [""]:
            rows.pop()
        return matrix_box(rows, self.compact)


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


def _simple(text: str) -> bool:
    return bool(re.fullmatch(r"√?[\w.·ᵀ]+(\^\([^()]*\)|\^\w+)?", text))


def _wrapped(text: str) -> str:
    return text if _simple(text) or (text.startswith("(") and text.endswith(")")) else f"({text})"


def _script(kind: str, text: str) -> str:
    if kind == "^":
        if text == "ᵀ":
            return text
        if all(c in "0123456789+-()ni" for c in text):
            return text.translate(_SUPERSCRIPTS)
        return f"^{text}" if re.fullmatch(r"\w|√?\d+|ᵀ", text) else f"^({text})"
    return f"_{text}" if _simple(text) else f"_({text})"


def math_box(latex: str, compact: bool = False) -> Box:
    """LaTeX math (without delimiters) as a box of plain text."""
    box = _Reader(latex, compact).sequence()
    return Box(
        [re.sub(r" {3,}", "  ", line).rstrip() if len(box.lines) == 1 else line for line in box.lines],
        box.base,
    )


_MATH = re.compile(r"\\\((.*?)\\\)|\\\[(.*?)\\\]", re.S)
_CODE_OR_MATH = re.compile(f"{CODE.pattern}|{_MATH.pattern}", re.S)


def prose(markdown: str) -> str:
    """Markdown with ``\\( \\)`` math as one line of plain text; matrices written compactly."""
    # Code is taken as written and math read apart; emphasis is content.markdown's rule, as on
    # the cards (``x_1 * y_2`` keeps its star).
    kept: list[str] = []

    def keep(match: re.Match[str]) -> str:
        code, latex, display = match.groups()
        if code is not None:
            kept.append(code)
        else:
            kept.append(" ".join(math_box(latex if latex is not None else display, compact=True).lines))
        return f"\x00{len(kept) - 1}\x00"

    text = _CODE_OR_MATH.sub(keep, markdown)
    text = EMPHASIS.sub(r"\1", STRONG.sub(r"\1", text))
    return re.sub("\x00(\\d+)\x00", lambda m: kept[int(m.group(1))], text)
