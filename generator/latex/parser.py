"""The LaTeX math subset content and problem steps use, parsed and written as Typst math.

``convert(latex)`` takes LaTeX without delimiters (what sits between ``\\(`` and
``\\)``) and returns the body of a Typst equation (what sits between ``$`` and
``$``). Anything outside the subset raises ``LatexError`` naming the command, so
the content loader can report it with file and line before any PDF is built.

The output never relies on Typst's guesses: every letter is its own token (Typst
reads ``QK`` as one unknown variable), every delimiter is escaped (LaTeX does not
pair or stretch ``(`` unless told to with ``\\left``), and ``,`` and ``;`` are
escaped so that they stay literal inside function arguments such as ``frac(…)``.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from ..errors import PaperdeckError


class LatexError(PaperdeckError):
    """LaTeX the converter does not know (an unknown command) or cannot read."""

    def __init__(self, message: str, command: str = ""):
        self.command = command
        """The offending command with its backslash (``\\foo``), if there is one."""
        super().__init__(message)


_GREEK = (
    "alpha beta gamma delta zeta eta theta iota kappa lambda mu nu xi pi rho sigma tau "
    "upsilon chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega"
).split()

#: Commands that stand for one symbol, and the Typst that prints it.
SYMBOLS: dict[str, str] = {name: name for name in _GREEK}
SYMBOLS.update({
    # LaTeX's \epsilon and \phi are the lunate and looped forms; \var… the other ones.
    "epsilon": "epsilon.alt", "varepsilon": "epsilon", "phi": "phi.alt", "varphi": "phi",
    "vartheta": "theta.alt", "varpi": "pi.alt", "varrho": "rho.alt", "varsigma": "sigma.alt",
    "cdot": "dot.op", "times": "times", "div": "div", "pm": "plus.minus", "mp": "minus.plus",
    "ast": "ast", "star": "star", "circ": "compose", "bullet": "bullet",
    "odot": "dot.o", "oplus": "plus.o", "otimes": "times.o",
    "top": "top", "bot": "bot", "perp": "perp", "infty": "infinity", "partial": "partial",
    "nabla": "nabla", "ell": "ell", "hbar": "planck", "emptyset": "emptyset", "prime": "prime",
    "sum": "sum", "prod": "product", "int": "integral",
    "le": "<=", "leq": "<=", "ge": ">=", "geq": ">=", "ne": "!=", "neq": "!=",
    "ll": "<<", "gg": ">>", "approx": "approx", "sim": "tilde.op", "simeq": "tilde.eq",
    "equiv": "equiv", "propto": "prop", "cong": "tilde.equiv", "mid": "divides",
    "in": "in", "notin": "in.not", "ni": "in.rev", "subset": "subset", "subseteq": "subset.eq",
    "supset": "supset", "supseteq": "supset.eq", "cup": "union", "cap": "inter",
    "setminus": "without", "forall": "forall", "exists": "exists", "neg": "not",
    "land": "and", "lor": "or", "wedge": "and", "vee": "or",
    "to": "->", "rightarrow": "->", "leftarrow": "<-", "gets": "<-", "Rightarrow": "=>",
    "Leftarrow": "arrow.l.double", "leftrightarrow": "<->", "Leftrightarrow": "<=>",
    "iff": "<=>", "implies": "=>", "mapsto": "|->", "uparrow": "arrow.t",
    "downarrow": "arrow.b",
    "dots": "dots.h", "ldots": "dots.h", "cdots": "dots.h.c", "vdots": "dots.v",
    "ddots": "dots.down",
    "langle": "chevron.l", "rangle": "chevron.r", "lfloor": "floor.l", "rfloor": "floor.r",
    "lceil": "ceil.l", "rceil": "ceil.r",
    "lvert": '#math.class("opening", sym.bar.v)', "rvert": '#math.class("closing", sym.bar.v)',
    "lVert": '#math.class("opening", sym.bar.double)',
    "rVert": '#math.class("closing", sym.bar.double)',
    "vert": '#math.class("normal", sym.bar.v)', "Vert": '#math.class("normal", sym.bar.double)',
    "quad": "quad", "qquad": "wide", "colon": ":",
    # Operators Typst knows by the same name (upright, with limits where LaTeX has them).
    **{name: name for name in (
        "max min exp log ln sin cos tan sinh cosh tanh arg lim det sup inf dim ker deg "
        "gcd Pr sec csc cot arcsin arccos arctan").split()},
    "argmax": 'op("arg max", limits: #true)', "argmin": 'op("arg min", limits: #true)',
})

#: Commands that change nothing in print.
_IGNORED = {"displaystyle", "textstyle", "scriptstyle", "limits", "nolimits", "nonumber",
            "notag", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr",
            "biggl", "biggr", "Biggl", "Biggr"}

#: Commands with one argument that become a Typst function of it.
_STYLES = {"mathbf": "bold", "boldsymbol": "bold", "bm": "bold", "mathit": "italic",
           "mathcal": "cal", "mathsf": "sans", "mathtt": "mono", "mathbb": "bb",
           "mathfrak": "frak", "mathrm": "upright"}
_ACCENTS = {"hat": "hat", "widehat": "hat", "bar": "macron", "overline": "overline",
            "underline": "underline", "tilde": "tilde", "widetilde": "tilde", "vec": "arrow",
            "dot": "dot", "ddot": "dot.double", "check": "caron", "breve": "breve",
            "acute": "acute", "grave": "grave", "overrightarrow": "arrow"}
_BLACKBOARD = {"R": "RR", "N": "NN", "Z": "ZZ", "Q": "QQ", "C": "CC"}
_TEXT = {"text", "textrm", "textnormal", "mbox", "textit", "textbf", "textsf", "texttt"}
_SPACES = {",": "thin", ":": "med", ">": "med", ";": "thick", "!": "", " ": "space"}
#: Single characters after a backslash that print as themselves.
_ESCAPED = {"{": r"\{", "}": r"\}", "%": "%", "&": r"\&", "#": r"\#", "$": r"\$", "_": r"\_",
            "|": '#math.class("normal", sym.bar.double)'}
_MATRICES = {"matrix": "#none", "pmatrix": '"("', "bmatrix": '"["', "Bmatrix": '"{"',
             "vmatrix": '"|"', "Vmatrix": '"||"', "smallmatrix": "#none", "array": "#none"}
_ALIGNED = {"aligned", "align", "align*", "gathered", "gather", "gather*", "split",
            "equation", "equation*", "alignedat"}
_DELIMITERS = {"(": r"\(", ")": r"\)", "[": r"\[", "]": r"\]", r"\{": r"\{", r"\}": r"\}",
               "|": "bar.v", r"\|": "bar.double", ".": "", "<": "chevron.l",
               ">": "chevron.r", "/": r"\/"}
#: Plain characters that need escaping or a name in Typst math.
_CHARACTERS = {"(": r"\(", ")": r"\)", "[": r"\[", "]": r"\]", "/": r"\/", ",": r"\,",
               ";": r"\;", '"': r"\"", "#": r"\#", "$": r"\$", "@": r"\@", "~": "space.nobreak",
               "|": '#math.class("normal", sym.bar.v)', "\\": r"\\", "`": r"\`"}

TOKEN = re.compile(r"\\(?:[A-Za-z]+|.)|\d+(?:\.\d+)?|\s+|%[^\n]*|.", re.S)


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


class _Parser:
    def __init__(self, latex: str):
        self.latex = latex
        self.tokens = [t for t in TOKEN.findall(latex) if not t.startswith("%")]
        self.pos = 0

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
        return "".join(self.tokens[self.pos:end + 1])

    # -- structure ---------------------------------------------------------------
    def sequence(self, stops: frozenset[str] = frozenset()) -> list[_Piece]:
        """Pieces up to (not including) a token in ``stops`` or the end."""
        pieces: list[_Piece] = []
        while True:
            token = self.peek()
            if token is None or token in stops:
                return pieces
            if token == "}":
                raise LatexError(f"unbalanced braces in '{self.latex}'")
            if token in ("^", "_"):
                self.pos += 1
                if not pieces:
                    pieces.append(_Piece('""', text=True))
                argument = _join(self.argument())
                pieces[-1] = _Piece(f"{pieces[-1].typst}{token}({argument})")
                continue
            if token == "'":
                self.pos += 1
                pieces[-1:] = [_Piece((pieces[-1].typst if pieces else '""') + "'")]
                continue
            pieces.extend(self.atom())

    def argument(self) -> list[_Piece]:
        """One argument: a ``{…}`` group or a single token (``x^2``, ``\\frac12``)."""
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
            return [_Piece(token[0])]
        if token in ("}", "^", "_", "&"):
            raise LatexError(f"a command is missing its argument in '{self.latex}'")
        return self.atom()

    def atom(self) -> list[_Piece]:
        token = self.next()
        if token == "{":
            pieces = self.sequence(frozenset("}"))
            self.expect("}")
            return pieces
        if token.startswith("\\"):
            return self.command(token)
        if token[0].isdigit():
            return [_Piece(token)]
        if token in _CHARACTERS:
            return [_Piece(_CHARACTERS[token])]
        if token == "&":
            return [_Piece("&")]
        # Letters one by one (Typst would read ``QK`` as one name); other characters
        # spaced apart so that ``<`` ``=`` never fuse into Typst's ``<=``.
        return [_Piece(token)]

    def command(self, token: str) -> list[_Piece]:
        name = token[1:]
        if name in SYMBOLS:
            return [_Piece(SYMBOLS[name])]
        if name in _SPACES:
            return [_Piece(_SPACES[name])]
        if name in _ESCAPED:
            return [_Piece(_ESCAPED[name])]
        if name == "\\":
            return [_Piece("\\ ")]
        if name in _IGNORED:
            return []
        if name in ("frac", "dfrac", "tfrac", "cfrac"):
            top, bottom = _join(self.argument()), _join(self.argument())
            return [_Piece(f"frac({top}, {bottom})")]
        if name == "binom":
            top, bottom = _join(self.argument()), _join(self.argument())
            return [_Piece(f"binom({top}, {bottom})")]
        if name == "sqrt":
            index = None
            if self.peek() == "[":
                self.pos += 1
                index = _join(self.sequence(frozenset("]")))
                self.expect("]")
            body = _join(self.argument())
            return [_Piece(f"root({index}, {body})" if index else f"sqrt({body})")]
        if name in _TEXT:
            return [_Piece(self.text(self.raw_group(), name), text=True)]
        if name == "operatorname":
            limits = self.peek() == "*"
            if limits:
                self.pos += 1
            words = self.text(self.raw_group(), name)
            return [_Piece(f"op({words}, limits: #true)" if limits else f"op({words})")]
        if name == "mathbb":
            pieces = self.argument()
            letters = _join(pieces)
            return [_Piece(_BLACKBOARD.get(letters, f"bb({letters})"))]
        if name == "mathrm" and re.fullmatch(r"\{[A-Za-z0-9 ]+\}", self.peek_group()):
            return [_Piece(f"#math.upright({self.text(self.raw_group(), name)})", text=True)]
        if name in _STYLES:
            return [_Piece(f"{_STYLES[name]}({_join(self.argument())})")]
        if name in _ACCENTS:
            return [_Piece(f"{_ACCENTS[name]}({_join(self.argument())})")]
        if name == "left":
            return [self.left_right()]
        if name == "begin":
            return [self.environment(self.raw_group())]
        if name in ("right", "end"):
            raise LatexError(f"\\{name} without a matching \\{'left' if name == 'right' else 'begin'}"
                             f" in '{self.latex}'", token)
        raise LatexError(f"unknown LaTeX command {token} in '{self.latex}'", token)

    def text(self, raw: str, command: str) -> str:
        def replace(match: re.Match[str]) -> str:
            escaped = match.group(1)
            if escaped in "{}%&#$_ ":
                return escaped
            raise LatexError(f"\\{escaped} inside \\{command} is not supported in '{self.latex}'",
                             "\\" + escaped)

        words = re.sub(r"\\([A-Za-z]+|.)", replace, raw).replace("~", "\u00a0")
        return _string(words)

    def delimiter(self) -> str:
        token = self.next()
        if token in _DELIMITERS:
            return _DELIMITERS[token]
        name = token[1:] if token.startswith("\\") else ""
        if name in ("langle", "rangle", "lfloor", "rfloor", "lceil", "rceil"):
            return SYMBOLS[name]
        if name in ("lvert", "rvert", "vert"):
            return "bar.v"
        if name in ("lVert", "rVert", "Vert"):
            return "bar.double"
        raise LatexError(f"{token!r} is not a delimiter after \\left or \\right in '{self.latex}'",
                         token if name else "")

    def left_right(self) -> _Piece:
        opening = self.delimiter()
        body = self.sequence(frozenset({r"\right"}))
        if self.peek() != r"\right":
            raise LatexError(f"\\left without a matching \\right in '{self.latex}'", r"\left")
        self.pos += 1
        closing = self.delimiter()
        return _Piece("lr(" + _join([_Piece(opening), *body, _Piece(closing)]) + ")")

    def environment(self, name: str) -> _Piece:
        if name == "array" and self.peek() == "{":
            self.raw_group()  # column specification: alignment only
        stops = frozenset({"&", "\\\\", r"\end"})
        rows: list[list[str]] = [[]]
        while True:
            cell = _join(self.sequence(stops))
            token = self.next()
            rows[-1].append(cell)
            if token == "\\\\":
                rows.append([])
            elif token == r"\end":
                ended = self.raw_group()
                if ended != name:
                    raise LatexError(f"\\begin{{{name}}} ended by \\end{{{ended}}} in '{self.latex}'",
                                     r"\end")
                break
        if rows[-1] == [""]:  # a trailing \\ before \end
            rows.pop()
        if name in _MATRICES:
            body = "; ".join(", ".join(cell or '""' for cell in row) for row in rows)
            return _Piece(f"mat(delim: {_MATRICES[name]}, {body})")
        if name == "cases":
            return _Piece("cases(" + ", ".join(" & ".join(row) for row in rows) + ")")
        if name in _ALIGNED:
            return _Piece(" \\ ".join(" & ".join(row) for row in rows))
        raise LatexError(f"unknown LaTeX environment {name!r} in '{self.latex}'", r"\begin")


@functools.lru_cache(maxsize=4096)
def convert(latex: str) -> str:
    """Typst math for LaTeX math without delimiters; ``LatexError`` if outside the subset."""
    parser = _Parser(latex)
    pieces = parser.sequence()
    if parser.peek() is not None:  # a stray closing token
        raise LatexError(f"unexpected {parser.peek()!r} in {latex!r}")
    return _join(pieces)
