"""The LaTeX math subset as MathML, for the study site: written by the one parser.

``mathml(tree, display)`` writes math as ``parser.tree`` read it (the parser the
loader checks content with and print typesets with) and writes MathML Core, which
browsers lay out natively (Chromium 109+, Firefox, Safari): no script, no font or
request to load, so a page with forty formulas is interactive as soon as it is
parsed. Styled letters (``\\mathbf{x}``, ``\\mathbb{R}``) become the Unicode
mathematical alphanumerics MathML Core expects in place of ``mathvariant``.
``\\pdblank{N}{…}`` (a cloze's hidden part) becomes ``<mrow class="pd-blank"
data-c="N">`` that the site's script reveals.
"""

from __future__ import annotations

import functools
import re
from html import escape
from typing import Any

from .parser import STYLES, Tree, Writer, tree, write
from .symbols import ACCENTS, FENCES, SYMBOLS

_SPACE_WIDTHS = {
    "quad": "1em",
    "qquad": "2em",
    ",": "0.1667em",
    ":": "0.2222em",
    ">": "0.2222em",
    ";": "0.2778em",
    " ": "0.25em",
}
_MATRIX_FENCES = {
    "pmatrix": ("(", ")"),
    "bmatrix": ("[", "]"),
    "Bmatrix": ("{", "}"),
    "vmatrix": ("|", "|"),
    "Vmatrix": ("‖", "‖"),
}
_CHARACTER_OPERATORS = {"-": "−", "*": "∗", "'": "′", "~": "\u00a0"}
_NOT_STRETCHY = frozenset("()[]|/")
_LARGE = ("∑", "∏", "∫")


# Letters in a style: the Unicode mathematical alphanumerics (offsets of A, a, 0) and
# the letters that sit elsewhere in Unicode (the "holes" of the block).
_ALPHABETS: dict[str, tuple[int, int, int | None, dict[str, str]]] = {
    "bold": (0x1D400, 0x1D41A, 0x1D7CE, {}),
    "italic": (0x1D434, 0x1D44E, None, {"h": "ℎ"}),
    "cal": (
        0x1D49C,
        0x1D4B6,
        None,
        {
            "B": "ℬ",
            "E": "ℰ",
            "F": "ℱ",
            "H": "ℋ",
            "I": "ℐ",
            "L": "ℒ",
            "M": "ℳ",
            "R": "ℛ",
            "e": "ℯ",
            "g": "ℊ",
            "o": "ℴ",
        },
    ),
    "frak": (0x1D504, 0x1D51E, None, {"C": "ℭ", "H": "ℌ", "I": "ℑ", "R": "ℜ", "Z": "ℨ"}),
    "bb": (0x1D538, 0x1D552, 0x1D7D8, {"C": "ℂ", "H": "ℍ", "N": "ℕ", "P": "ℙ", "Q": "ℚ", "R": "ℝ", "Z": "ℤ"}),
    "sans": (0x1D5A0, 0x1D5BA, 0x1D7E2, {}),
    "mono": (0x1D670, 0x1D68A, 0x1D7F6, {}),
}
_LETTER = re.compile(r"<(mi|mn)>([A-Za-z0-9]+)</\1>")


def _styled(char: str, alphabet: str) -> str:
    upper, lower, digits, holes = _ALPHABETS[alphabet]
    if char in holes:
        return holes[char]
    if "A" <= char <= "Z":
        return chr(upper + ord(char) - ord("A"))
    if "a" <= char <= "z":
        return chr(lower + ord(char) - ord("a"))
    if digits is not None and char.isdigit():
        return chr(digits + int(char))
    return char


def _mo(char: str, stretchy: bool | None = None) -> str:
    attrs = "" if stretchy is None else f' stretchy="{"true" if stretchy else "false"}"'
    return f"<mo{attrs}>{escape(char, quote=False)}</mo>"


def _children(element: str, tag: str) -> str | None:
    """The inside of ``element`` if it is one ``<tag>`` element, else None."""
    opening, closing = f"<{tag}>", f"</{tag}>"
    if not (element.startswith(opening) and element.endswith(closing)):
        return None
    inner = element[len(opening) : -len(closing)]
    # One element only: the closing tag must not occur before the end at depth 0.
    depth = 0
    for match in re.finditer(rf"<(/?){tag}>", inner):
        depth += -1 if match.group(1) else 1
        if depth < 0:
            return None
    return inner


_TAG = re.compile(r"<(/?)[a-z]+[^>]*>")


def _two(inner: str) -> tuple[str, str] | None:
    """``inner`` split after its first element, when it is two elements side by side."""
    depth = 0
    for match in _TAG.finditer(inner):
        depth += -1 if match.group(1) else 1
        if depth == 0:
            return inner[: match.end()], inner[match.end() :]
    return None


class MathMLWriter(Writer):
    """MathML Core elements as text; every piece is one element."""

    def join(self, pieces: list[Any]) -> Any:
        pieces = [p for p in pieces if p]
        return pieces[0] if len(pieces) == 1 else "<mrow>" + "".join(pieces) + "</mrow>"

    def number(self, digits: str) -> Any:
        return f"<mn>{digits}</mn>"

    def character(self, char: str) -> Any:
        if char.isalpha():
            return f"<mi>{escape(char, quote=False)}</mi>"
        if char == "~":
            return "<mtext>\u00a0</mtext>"
        char = _CHARACTER_OPERATORS.get(char, char)
        return _mo(char, False if char in _NOT_STRETCHY else None)

    def symbol(self, name: str) -> Any:
        symbol = SYMBOLS[name]
        if symbol.kind == "letter":
            return f"<mi>{symbol.unicode}</mi>"
        if symbol.kind == "upright":
            return f'<mi mathvariant="normal">{symbol.unicode}</mi>'
        if symbol.kind == "space":
            return f'<mspace width="{_SPACE_WIDTHS[name]}"></mspace>'
        if symbol.kind == "operator":
            return _mo(symbol.unicode, False if symbol.unicode in _NOT_STRETCHY else None)
        if symbol.kind == "limits":
            return f'<mo movablelimits="true" form="prefix">{symbol.unicode}</mo>'
        return f"<mi>{symbol.unicode}</mi>"  # a function's name: max, exp, log, …

    def space(self, name: str) -> Any:
        width = _SPACE_WIDTHS.get(name)
        return f'<mspace width="{width}"></mspace>' if width else ""

    def escaped(self, char: str) -> Any:
        if char == "|":
            return _mo("‖", False)
        return _mo(char, False) if char in "{}" else f"<mi>{escape(char, quote=False)}</mi>"

    def linebreak(self) -> Any:
        return ""

    def script(self, base: Any | None, op: str, argument: list[Any]) -> Any:
        base = base or "<mrow></mrow>"
        script = self.join(argument) or "<mrow></mrow>"
        large = any(base.startswith(f"<mo>{char}") for char in _LARGE[:2])
        if op == "^":
            for tag, both in (("msub", "msubsup"), ("munder", "munderover")):
                inner = _children(base, tag)
                if inner is not None:
                    return f"<{both}>{inner}{script}</{both}>"
            tag = "mover" if large else "msup"
        else:
            for tag, both in (("msup", "msubsup"), ("mover", "munderover")):
                inner = _children(base, tag)
                pair = _two(inner) if inner is not None else None
                if pair is not None:  # W^Q_i: one element with both scripts, as W_i^Q
                    return f"<{both}>{pair[0]}{script}{pair[1]}</{both}>"
            tag = "munder" if large else "msub"
        return f"<{tag}>{base}{script}</{tag}>"

    def prime(self, base: Any | None) -> Any:
        return f"<msup>{base or '<mrow></mrow>'}{_mo('′')}</msup>"

    def frac(self, top: list[Any], bottom: list[Any]) -> Any:
        return f"<mfrac>{self.join(top) or '<mrow></mrow>'}{self.join(bottom) or '<mrow></mrow>'}</mfrac>"

    def binom(self, top: list[Any], bottom: list[Any]) -> Any:
        return (
            f'<mrow>{_mo("(")}<mfrac linethickness="0">{self.join(top)}{self.join(bottom)}</mfrac>'
            f"{_mo(')')}</mrow>"
        )

    def sqrt(self, body: list[Any], index: list[Any] | None) -> Any:
        if index:
            return f"<mroot>{self.join(body)}{self.join(index)}</mroot>"
        return f"<msqrt>{self.join(body)}</msqrt>"

    def text(self, words: str, command: str) -> Any:
        return f"<mtext>{escape(words, quote=False)}</mtext>"

    def operator(self, words: str, limits: bool) -> Any:
        if limits:
            return f'<mo movablelimits="true" form="prefix">{escape(words, quote=False)}</mo>'
        return self.upright(words)

    def upright(self, words: str) -> Any:
        if " " in words:
            return f"<mtext>{escape(words, quote=False)}</mtext>"
        variant = ' mathvariant="normal"' if len(words) == 1 else ""
        return f"<mi{variant}>{escape(words, quote=False)}</mi>"

    def style(self, command: str, body: list[Any]) -> Any:
        inner = self.join(body)
        if command == "mathrm":
            return inner.replace("<mi>", '<mi mathvariant="normal">')
        alphabet = STYLES[command]

        def letters(match: re.Match[str]) -> str:
            tag = match.group(1)
            return f"<{tag}>" + "".join(_styled(c, alphabet) for c in match.group(2)) + f"</{tag}>"

        return _LETTER.sub(letters, inner)

    def accent(self, command: str, body: list[Any]) -> Any:
        inner = self.join(body) or "<mrow></mrow>"
        if command == "underline":
            return f'<munder accentunder="true">{inner}{_mo("_", True)}</munder>'
        stretchy = command in ("widehat", "widetilde", "overline", "overrightarrow")
        return f'<mover accent="true">{inner}{_mo(ACCENTS[command].mark, stretchy)}</mover>'

    def delimiter(self, token: str) -> Any:
        if token in FENCES:
            return FENCES[token]
        return SYMBOLS[token[1:]].unicode

    def fenced(self, opening: Any, body: list[Any], closing: Any) -> Any:
        pieces = [_mo(opening, True) if opening else "", *body, _mo(closing, True) if closing else ""]
        return "<mrow>" + "".join(p for p in pieces if p) + "</mrow>"

    def environment(self, name: str, rows: list[list[list[Any]]]) -> Any:
        table_class = (
            ' class="pd-aligned"'
            if name not in _MATRIX_FENCES and name not in ("matrix", "smallmatrix", "array", "cases")
            else ""
        )
        if name == "cases":
            table_class = ' class="pd-cases"'
        body = "".join(
            "<mtr>" + "".join(f"<mtd>{self.join(cell)}</mtd>" for cell in row) + "</mtr>" for row in rows
        )
        table = f"<mtable{table_class}>{body}</mtable>"
        if name in _MATRIX_FENCES:
            opening, closing = _MATRIX_FENCES[name]
            return f"<mrow>{_mo(opening, True)}{table}{_mo(closing, True)}</mrow>"
        if name == "cases":
            return f"<mrow>{_mo('{', True)}{table}</mrow>"
        return table

    def blank(self, number: str, body: list[Any]) -> Any:
        return f'<mrow class="pd-blank" data-c="{escape(number.strip())}">{self.join(body)}</mrow>'


_MATHML = MathMLWriter()


@functools.lru_cache(maxsize=8192)
def mathml(math: Tree, display: bool = False) -> str:
    """A ``<math>`` element for math as read (``parser.tree``); cached: the site writes the
    same formulas on lesson pages, the review page and every day's problems."""
    body = write(math, _MATHML) or "<mrow></mrow>"
    mode = ' display="block"' if display else ""
    return f"<math{mode}>{body}</math>"


@functools.lru_cache(maxsize=8192)
def to_mathml(latex: str, display: bool = False) -> str:
    """A ``<math>`` element for LaTeX math without delimiters; ``LatexError`` if outside the subset."""
    return mathml(tree(latex), display)
