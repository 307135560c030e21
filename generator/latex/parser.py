"""The LaTeX math subset content and problem steps use, parsed once into a tree that writers write.

``tree(latex)`` reads LaTeX without delimiters (what sits between ``\\(`` and ``\\)``)
into a tree of ``Node``s, one per construct, named for the ``Writer`` method that writes
it; ``write(tree, writer)`` hands each construct to a writer (content text keeps the tree
of each formula: ``content.text.Math.tree``). ``convert(latex)`` is the
Typst writer's output, the body of a Typst equation (what sits between ``$`` and
``$``), ``mathml.to_mathml`` the study site's and ``plain.math_box`` a terminal's; the
symbols all three print come from one list, ``symbols.py``. Anything outside the subset
raises ``LatexError`` naming the command, so the content loader can report it with
file and line before anything is built, and every writer accepts the same math.

The Typst output never relies on Typst's guesses: every letter is its own token (Typst
reads ``QK`` as one unknown variable), every delimiter is escaped (LaTeX does not
pair or stretch ``(`` unless told to with ``\\left``), and ``,`` and ``;`` are
escaped so that they stay literal inside function arguments such as ``frac(…)``.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any, cast

from ..errors import PaperdeckError
from . import symbols


class LatexError(PaperdeckError):
    """LaTeX the converter does not know (an unknown command) or cannot read."""

    def __init__(self, message: str, command: str = ""):
        self.command = command
        """The offending command with its backslash (``\\foo``), if there is one."""
        super().__init__(message)


#: Commands that stand for one symbol, and the Typst that prints it (from the one list).
SYMBOLS: dict[str, str] = {name: symbol.typst for name, symbol in symbols.SYMBOLS.items()}

#: Commands that change nothing in print.
_IGNORED = {
    "displaystyle",
    "textstyle",
    "scriptstyle",
    "limits",
    "nolimits",
    "nonumber",
    "notag",
    "big",
    "Big",
    "bigg",
    "Bigg",
    "bigl",
    "bigr",
    "Bigl",
    "Bigr",
    "biggl",
    "biggr",
    "Biggl",
    "Biggr",
}

#: The font commands, each with the alphabet it selects: a Typst function of its argument, and
#: the alphabet latex/mathml.py draws letters from (mathrm: upright, written there apart).
STYLES = {
    "mathbf": "bold",
    "boldsymbol": "bold",
    "bm": "bold",
    "mathit": "italic",
    "mathcal": "cal",
    "mathsf": "sans",
    "mathtt": "mono",
    "mathbb": "bb",
    "mathfrak": "frak",
    "mathrm": "upright",
}
_BLACKBOARD = {"R": "RR", "N": "NN", "Z": "ZZ", "Q": "QQ", "C": "CC"}
_TEXT = {"text", "textrm", "textnormal", "mbox", "textit", "textbf", "textsf", "texttt"}
_SPACES = {",": "thin", ":": "med", ">": "med", ";": "thick", "!": "", " ": "space"}
#: Single characters after a backslash that print as themselves.
_ESCAPED = {
    "{": r"\{",
    "}": r"\}",
    "%": "%",
    "&": r"\&",
    "#": r"\#",
    "$": r"\$",
    "_": r"\_",
    "|": '#math.class("normal", sym.bar.double)',
}
_MATRICES = {
    "matrix": "#none",
    "pmatrix": '"("',
    "bmatrix": '"["',
    "Bmatrix": '"{"',
    "vmatrix": '"|"',
    "Vmatrix": '"||"',
    "smallmatrix": "#none",
    "array": "#none",
}
_DELIMITERS = {
    "(": r"\(",
    ")": r"\)",
    "[": r"\[",
    "]": r"\]",
    r"\{": r"\{",
    r"\}": r"\}",
    "|": "bar.v",
    r"\|": "bar.double",
    ".": "",
    "<": "chevron.l",
    ">": "chevron.r",
    "/": r"\/",
}
#: Plain characters that need escaping or a name in Typst math.
_CHARACTERS = {
    "(": r"\(",
    ")": r"\)",
    "[": r"\[",
    "]": r"\]",
    "/": r"\/",
    ",": r"\,",
    ";": r"\;",
    '"': r"\"",
    "#": r"\#",
    "$": r"\$",
    "@": r"\@",
    "~": "space.nobreak",
    "|": '#math.class("normal", sym.bar.v)',
    "\\": r"\\",
    "`": r"\`",
}

TOKEN = re.compile(r"\\(?:[A-Za-z]+|.)|\d+(?:\.\d+)?|\s+|%[^\n]*|.", re.S)


_TEXT_ESCAPES = "{}%&#$_ "
"""Characters a backslash may escape inside ``\text{…}``."""
#: Delimiters ``\left`` and ``\right`` accept: characters, and commands by name.
DELIMITERS = frozenset(symbols.FENCES)
DELIMITER_NAMES = frozenset(
    {
        "langle",
        "rangle",
        "lfloor",
        "rfloor",
        "lceil",
        "rceil",
        "lvert",
        "rvert",
        "vert",
        "lVert",
        "rVert",
        "Vert",
    }
)
MATRICES = frozenset(_MATRICES)
ALIGNED = frozenset(
    {
        "aligned",
        "align",
        "align*",
        "gathered",
        "gather",
        "gather*",
        "split",
        "equation",
        "equation*",
        "alignedat",
    }
)
BLANK = "pdblank"
r"""``\pdblank{N}{…}``: a cloze's hidden part inside math, which only writers that show
clozes (the study site) know; every other writer rejects it as an unknown command."""


@dataclass(frozen=True, slots=True)
class Node:
    """One construct as the parser read it: ``kind`` names the ``Writer`` method that writes it,
    ``args`` are that method's arguments, with nodes and sequences of nodes (tuples) where the
    method takes pieces."""

    kind: str
    args: tuple[Any, ...] = ()
    _hash: int = field(init=False, repr=False, compare=False)
    """Computed once, when first asked (from the children's): writers cache by tree."""

    def __hash__(self) -> int:
        try:
            return self._hash
        except AttributeError:
            object.__setattr__(self, "_hash", hash((self.kind, self.args)))
            return self._hash


Tree = tuple[Node, ...]
"""Math as read: its constructs side by side."""

_GAP = Node("whitespace")


class Writer:
    """What the parser writes: one method per construct of the subset.

    A *piece* is whatever the writer makes of one construct (Typst text, a MathML
    element); ``write`` only hands pieces back to the writer. ``TypstWriter`` writes
    print math, ``mathml.MathMLWriter`` the site's, ``plain.PlainWriter`` terminal text.
    """

    def join(self, pieces: list[Any]) -> Any:
        """Pieces side by side, as one piece."""
        raise NotImplementedError

    def whitespace(self) -> Any | None:
        """Space between tokens as written, which LaTeX ignores: None (dropped), unless the writer
        keeps the author's spacing (terminal text). Never a script's base (``x ^2`` is ``x^2``)."""
        return None

    def number(self, digits: str) -> Any:
        raise NotImplementedError

    def character(self, char: str) -> Any:
        """A letter, or any other character written as itself (``+``, ``(``, ``&``)."""
        raise NotImplementedError

    def symbol(self, name: str) -> Any:
        """A command in ``SYMBOLS`` (``alpha``, ``cdot``, ``max``)."""
        raise NotImplementedError

    def space(self, name: str) -> Any:
        """``\\,`` ``\\:`` ``\\>`` ``\\;`` ``\\!`` or ``\\ `` (``name`` without the backslash)."""
        raise NotImplementedError

    def escaped(self, char: str) -> Any:
        """A character after a backslash that prints as itself (``\\{``, ``\\%``, ``\\|``)."""
        raise NotImplementedError

    def linebreak(self) -> Any:
        raise NotImplementedError

    def script(self, base: Any | None, op: str, argument: list[Any]) -> Any:
        """``base^argument`` (op ``^``) or ``base_argument`` (op ``_``); base None if there is none."""
        raise NotImplementedError

    def prime(self, base: Any | None) -> Any:
        raise NotImplementedError

    def frac(self, top: list[Any], bottom: list[Any]) -> Any:
        raise NotImplementedError

    def binom(self, top: list[Any], bottom: list[Any]) -> Any:
        raise NotImplementedError

    def sqrt(self, body: list[Any], index: list[Any] | None) -> Any:
        raise NotImplementedError

    def text(self, words: str, command: str) -> Any:
        """Words of ``\\text{…}`` and its kin (``command`` names which)."""
        raise NotImplementedError

    def operator(self, words: str, limits: bool) -> Any:
        """``\\operatorname{words}`` (``\\operatorname*``: with limits)."""
        raise NotImplementedError

    def upright(self, words: str) -> Any:
        """``\\mathrm{words}`` of plain letters, digits and spaces."""
        raise NotImplementedError

    def style(self, command: str, body: list[Any]) -> Any:
        """``\\mathbf``, ``\\mathbb``, ``\\mathcal``, … of ``body``."""
        raise NotImplementedError

    def accent(self, command: str, body: list[Any]) -> Any:
        """``\\hat``, ``\\bar``, ``\\vec``, … over ``body``."""
        raise NotImplementedError

    def delimiter(self, token: str) -> Any:
        """A delimiter after ``\\left`` or ``\\right``: a character or a command (in DELIMITERS or
        DELIMITER_NAMES)."""
        raise NotImplementedError

    def fenced(self, opening: Any, body: list[Any], closing: Any) -> Any:
        """``\\left … \\right``."""
        raise NotImplementedError

    def environment(self, name: str, rows: list[list[list[Any]]]) -> Any:
        """A matrix (name in MATRICES), ``cases`` or an aligned block: rows of cells of pieces."""
        raise NotImplementedError

    def blank(self, number: str, body: list[Any]) -> Any:
        """A cloze's hidden part (``\\pdblank``)."""
        raise LatexError(f"unknown LaTeX command \\{BLANK}", "\\" + BLANK)


@dataclass
class _Piece:
    """Converted Typst; ``text`` pieces (strings) must not get spaces around them."""

    typst: str
    text: bool = False


def _join(pieces: list[_Piece]) -> str:
    out: list[str] = []
    previous_text = True
    for piece in pieces:
        if not piece.typst:
            continue
        if out and not previous_text and not piece.text:
            out.append(" ")
        out.append(piece.typst)
        previous_text = piece.text
    return "".join(out)


def _string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


class TypstWriter(Writer):
    """Typst math: the body of a ``$ … $`` equation."""

    def join(self, pieces: list[Any]) -> Any:
        return _Piece(_join(pieces))

    def number(self, digits: str) -> Any:
        return _Piece(digits)

    def character(self, char: str) -> Any:
        # Letters one by one (Typst would read ``QK`` as one name); other characters
        # spaced apart so that ``<`` ``=`` never fuse into Typst's ``<=``.
        return _Piece(_CHARACTERS.get(char, char))

    def symbol(self, name: str) -> Any:
        return _Piece(SYMBOLS[name])

    def space(self, name: str) -> Any:
        return _Piece(_SPACES[name])

    def escaped(self, char: str) -> Any:
        return _Piece(_ESCAPED[char])

    def linebreak(self) -> Any:
        return _Piece("\\ ")

    def script(self, base: Any | None, op: str, argument: list[Any]) -> Any:
        return _Piece(f"{base.typst if base else chr(34) * 2}{op}({_join(argument)})")

    def prime(self, base: Any | None) -> Any:
        return _Piece((base.typst if base else '""') + "'")

    def frac(self, top: list[Any], bottom: list[Any]) -> Any:
        return _Piece(f"frac({_join(top)}, {_join(bottom)})")

    def binom(self, top: list[Any], bottom: list[Any]) -> Any:
        return _Piece(f"binom({_join(top)}, {_join(bottom)})")

    def sqrt(self, body: list[Any], index: list[Any] | None) -> Any:
        root = _join(index) if index is not None else ""
        return _Piece(f"root({root}, {_join(body)})" if root else f"sqrt({_join(body)})")

    def text(self, words: str, command: str) -> Any:
        return _Piece(_string(words), text=True)

    def operator(self, words: str, limits: bool) -> Any:
        return _Piece(f"op({_string(words)}, limits: #true)" if limits else f"op({_string(words)})")

    def upright(self, words: str) -> Any:
        return _Piece(f"#math.upright({_string(words)})", text=True)

    def style(self, command: str, body: list[Any]) -> Any:
        if command == "mathbb":
            letters = _join(body)
            return _Piece(_BLACKBOARD.get(letters, f"bb({letters})"))
        return _Piece(f"{STYLES[command]}({_join(body)})")

    def accent(self, command: str, body: list[Any]) -> Any:
        return _Piece(f"{symbols.ACCENTS[command].typst}({_join(body)})")

    def delimiter(self, token: str) -> Any:
        if token in _DELIMITERS:
            return _Piece(_DELIMITERS[token])
        name = token[1:]
        if name in ("lvert", "rvert", "vert"):
            return _Piece("bar.v")
        if name in ("lVert", "rVert", "Vert"):
            return _Piece("bar.double")
        return _Piece(SYMBOLS[name])

    def fenced(self, opening: Any, body: list[Any], closing: Any) -> Any:
        return _Piece("lr(" + _join([opening, *body, closing]) + ")")

    def environment(self, name: str, rows: list[list[list[Any]]]) -> Any:
        cells = [[_join(cell) for cell in row] for row in rows]
        if name in _MATRICES:
            body = "; ".join(", ".join(cell or '""' for cell in row) for row in cells)
            return _Piece(f"mat(delim: {_MATRICES[name]}, {body})")
        if name == "cases":
            return _Piece("cases(" + ", ".join(" & ".join(row) for row in cells) + ")")
        return _Piece(" \\ ".join(" & ".join(row) for row in cells))


MAX_DEPTH = 50
"""Deepest nesting of groups, arguments and environments the parser reads (the shipped
content's deepest is a handful): deeper math is refused with a message, not a crash."""


class _Parser:
    def __init__(self, latex: str):
        self.latex = latex
        self.tokens = [t for t in TOKEN.findall(latex) if not t.startswith("%")]
        self.pos = 0
        self.depth = 0

    # -- tokens ------------------------------------------------------------------
    def peek(self) -> str | None:
        while self.pos < len(self.tokens) and self.tokens[self.pos].isspace():
            self.pos += 1
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def next(self) -> str:
        token = self.peek()
        if token is None:
            raise LatexError(f"unexpected end of math in '{self.latex}'")
        self.pos += 1
        return token

    def expect(self, token: str) -> None:
        got = self.peek()
        if got != token:
            raise LatexError(f"expected {token!r} but found {got or 'the end'!r} in '{self.latex}'")
        self.pos += 1

    def raw_group(self) -> str:
        """The literal text of a ``{…}`` argument (for \\text and environment names)."""
        self.expect("{")
        depth = 1
        out: list[str] = []
        while self.pos < len(self.tokens):
            token = self.tokens[self.pos]
            self.pos += 1
            if token == "{":
                depth += 1
            elif token == "}":
                depth -= 1
                if depth == 0:
                    return "".join(out)
            out.append(token)
        raise LatexError(f"unbalanced braces in '{self.latex}'")

    def peek_group(self) -> str:
        """The next ``{…}`` group as written, if it has no nested braces; else ''."""
        if self.peek() != "{":
            return ""
        end = self.pos
        while end < len(self.tokens) and self.tokens[end] not in ("}", "{") or end == self.pos:
            end += 1
        return "".join(self.tokens[self.pos : end + 1])

    # -- structure ---------------------------------------------------------------
    def sequence(self, stops: frozenset[str] = frozenset()) -> Tree:
        """Nodes up to (not including) a token in ``stops`` or the end."""
        self.deeper()
        try:
            return self._sequence(stops)
        finally:
            self.depth -= 1

    def deeper(self) -> None:
        """One level deeper (a group, an argument): each is a frame of Python's stack, bounded."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise LatexError(f"math nested deeper than {MAX_DEPTH} levels in '{self.latex[:60]}…'")

    def _sequence(self, stops: frozenset[str]) -> Tree:
        pieces: list[Node] = []
        while True:
            start = self.pos
            token = self.peek()
            if self.pos > start:
                pieces.append(_GAP)
            if token is None or token in stops:
                return tuple(pieces)
            if token == "}":
                raise LatexError(f"unbalanced braces in '{self.latex}'")
            if token in ("^", "_", "'"):
                self.pos += 1
                if pieces and pieces[-1] is _GAP:  # LaTeX ignores the space in ``x ^2``
                    pieces.pop()
                base = pieces.pop() if pieces else None
                script = (
                    Node("prime", (base,)) if token == "'" else Node("script", (base, token, self.argument()))
                )
                pieces.append(script)
                continue
            pieces.extend(self.atom())

    def argument(self) -> Tree:
        """One argument: a ``{…}`` group or a single token (``x^2``, ``\\frac12``)."""
        self.deeper()
        try:
            return self._argument()
        finally:
            self.depth -= 1

    def _argument(self) -> Tree:
        token = self.peek()
        if token is None:
            raise LatexError(f"a command is missing its argument in '{self.latex}'")
        if token == "{":
            self.pos += 1
            pieces = self.sequence(frozenset("}"))
            self.expect("}")
            return pieces
        if token[0].isdigit() and len(token) > 1:  # x^23 is x squared, then 3
            self.tokens[self.pos] = token[1:]
            return (Node("number", (token[0],)),)
        if token in ("}", "^", "_", "&"):
            raise LatexError(f"a command is missing its argument in '{self.latex}'")
        return self.atom()

    def atom(self) -> Tree:
        token = self.next()
        if token == "{":
            pieces = self.sequence(frozenset("}"))
            self.expect("}")
            return pieces
        if token.startswith("\\"):
            return self.command(token)
        if token[0].isdigit():
            return (Node("number", (token,)),)
        return (Node("character", (token,)),)

    def command(self, token: str) -> Tree:
        name = token[1:]
        if name in _IGNORED:
            return ()
        return (self.construct(token, name),)

    def construct(self, token: str, name: str) -> Node:
        if name in SYMBOLS:
            return Node("symbol", (name,))
        if name in _SPACES:
            return Node("space", (name,))
        if name in _ESCAPED:
            return Node("escaped", (name,))
        if name == "\\":
            return Node("linebreak")
        if name in ("frac", "dfrac", "tfrac", "cfrac", "binom"):
            top = self.argument()
            return Node("binom" if name == "binom" else "frac", (top, self.argument()))
        if name == "sqrt":
            index = None
            if self.peek() == "[":
                self.pos += 1
                index = self.sequence(frozenset("]"))
                self.expect("]")
            return Node("sqrt", (self.argument(), index))
        if name in _TEXT:
            return Node("text", (self.text(self.raw_group(), name), name))
        if name == "operatorname":
            limits = self.peek() == "*"
            if limits:
                self.pos += 1
            return Node("operator", (self.text(self.raw_group(), name), limits))
        if name == "mathrm" and re.fullmatch(r"\{[A-Za-z0-9 ]+\}", self.peek_group()):
            return Node("upright", (self.text(self.raw_group(), name),))
        if name in STYLES:
            return Node("style", (name, self.argument()))
        if name in symbols.ACCENTS:
            return Node("accent", (name, self.argument()))
        if name == "left":
            return self.left_right()
        if name == "begin":
            return self.environment(self.raw_group())
        if name == BLANK:
            number = self.raw_group()
            return Node("blank", (number, self.argument()))
        if name in ("right", "end"):
            raise LatexError(
                f"\\{name} without a matching \\{'left' if name == 'right' else 'begin'} in '{self.latex}'",
                token,
            )
        raise LatexError(f"unknown LaTeX command {token} in '{self.latex}'", token)

    def text(self, raw: str, command: str) -> str:
        def replace(match: re.Match[str]) -> str:
            escaped = match.group(1)
            if escaped in _TEXT_ESCAPES:
                return escaped
            raise LatexError(
                f"\\{escaped} inside \\{command} is not supported in '{self.latex}'", "\\" + escaped
            )

        return re.sub(r"\\([A-Za-z]+|.)", replace, raw).replace("~", "\u00a0")

    def delimiter(self) -> Node:
        token = self.next()
        name = token[1:] if token.startswith("\\") else ""
        if token in DELIMITERS or name in DELIMITER_NAMES:
            return Node("delimiter", (token,))
        raise LatexError(
            f"{token!r} is not a delimiter after \\left or \\right in '{self.latex}'", token if name else ""
        )

    def left_right(self) -> Node:
        opening = self.delimiter()
        body = self.sequence(frozenset({r"\right"}))
        if self.peek() != r"\right":
            raise LatexError(f"\\left without a matching \\right in '{self.latex}'", r"\left")
        self.pos += 1
        return Node("fenced", (opening, body, self.delimiter()))

    def environment(self, name: str) -> Node:
        if name == "array" and self.peek() == "{":
            self.raw_group()  # column specification: alignment only
        stops = frozenset({"&", "\\\\", r"\end"})
        rows: list[list[Tree]] = [[]]
        while True:
            cell = self.sequence(stops)
            token = self.next()
            rows[-1].append(cell)
            if token == "\\\\":
                rows.append([])
            elif token == r"\end":
                ended = self.raw_group()
                if ended != name:
                    raise LatexError(
                        f"\\begin{{{name}}} ended by \\end{{{ended}}} in '{self.latex}'", r"\end"
                    )
                break
        if rows[-1] == [()]:  # a trailing \\ before \end
            rows.pop()
        if name not in MATRICES and name not in ALIGNED and name != "cases":
            raise LatexError(f"unknown LaTeX environment {name!r} in '{self.latex}'", r"\begin")
        return Node("environment", (name, tuple(tuple(row) for row in rows)))


@functools.lru_cache(maxsize=8192)
def tree(latex: str) -> Tree:
    """``latex`` (math without delimiters) as read; ``LatexError`` if it is outside the subset."""
    parser = _Parser(latex)
    pieces = parser.sequence()
    if parser.peek() is not None:  # a stray closing token
        raise LatexError(f"unexpected {parser.peek()!r} in {latex!r}")
    return pieces


def _written(value: Any, out: Writer) -> Any:
    # Exact types, and no call for a plain argument: this runs for every construct written.
    if type(value) is Node:
        args = [_written(arg, out) if type(arg) in _NESTED else arg for arg in value.args]
        return getattr(out, value.kind)(*args)
    # a sequence (or rows, cells): the pieces a writer keeps
    return [piece for piece in [_written(item, out) for item in value] if piece is not None]


_NESTED = (Node, tuple)


def write(math: Tree, out: Writer) -> Any:
    """``math`` written by ``out``, as one piece (``LatexError`` from a writer that cannot write
    a construct: only the site's writes ``\\pdblank``)."""
    return out.join(_written(math, out))


def parse(latex: str, out: Writer) -> Any:
    """``latex`` (math without delimiters) written by ``out``, as one piece;
    ``LatexError`` if it is outside the subset."""
    return write(tree(latex), out)


_TYPST = TypstWriter()


@functools.lru_cache(maxsize=4096)
def convert(latex: str) -> str:
    """Typst math for LaTeX math without delimiters; ``LatexError`` if outside the subset."""
    return typst(tree(latex))


@functools.lru_cache(maxsize=8192)
def typst(math: Tree) -> str:
    """Typst math for math as read (``tree``); cached: a quiz's forms print the same math."""
    return cast(_Piece, write(math, _TYPST)).typst
