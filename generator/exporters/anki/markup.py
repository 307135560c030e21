"""Content text to card HTML: escaping, the small Markdown of content, and LaTeX for values.

Content is Markdown with MathJax math (``\\( … \\)``, ``\\[ … \\]``). Every character
that means something in HTML (``&``, ``<``, ``>``) is escaped, inside math too (MathJax
reads the text, where ``&lt;`` is ``<`` again), so an author's ``<b>`` shows as typed
and never runs as markup. Backslashes and braces are left alone, so LaTeX and Anki's
``{{c1::…}}`` survive. Only this Markdown becomes HTML: blank-line paragraph breaks,
``*em*``, ``**strong**`` and `` `code` `` (never inside math).
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Callable
from typing import Any

# Math and code spans are cut out before the Markdown rules run, so ``a*b*c`` in LaTeX
# or ``**`` in code stays as written; \x00 cannot occur in YAML text.
_PROTECTED = re.compile(r"\\\(.*?\\\)|\\\[.*?\\\]|`[^`\n]+`", re.S)
_STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*", re.S)
_EM = re.compile(r"(?<![*\w])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![*\w])", re.S)
_PLACEHOLDER = re.compile("\x00(\\d+)\x00")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")


def escape(text: str) -> str:
    """``&``, ``<`` and ``>`` as entities; everything else (quotes, LaTeX) as written."""
    return html.escape(text, quote=False)


def attribute(text: str) -> str:
    """Text safe inside a double-quoted HTML attribute."""
    return html.escape(text, quote=True)


def inline(text: str) -> str:
    """One paragraph of content Markdown as HTML (line breaks become spaces)."""
    kept: list[str] = []

    def keep(match: re.Match[str]) -> str:
        piece = match.group(0)
        kept.append(f"<code>{escape(piece[1:-1])}</code>" if piece[0] == "`" else escape(piece))
        return f"\x00{len(kept) - 1}\x00"

    out = escape(_PROTECTED.sub(keep, text.strip()))
    out = _STRONG.sub(r"<strong>\1</strong>", out)
    out = _EM.sub(r"<em>\1</em>", out)
    out = " ".join(out.split("\n"))
    return _PLACEHOLDER.sub(lambda m: kept[int(m.group(1))], out)


def block(text: str) -> str:
    """Content Markdown as HTML: one paragraph inline, several as ``<p>`` elements."""
    paragraphs = [p for p in _PARAGRAPH_BREAK.split(text.strip()) if p.strip()]
    if len(paragraphs) <= 1:
        return inline(text)
    return "".join(f"<p>{inline(p)}</p>" for p in paragraphs)


# Values (givens, answers) as LaTeX.

Formatter = Callable[[float], str]


def number_formatter(abs_tol: float | None = None, rel_tol: float | None = None) -> Formatter:
    """Numbers shown one digit finer than the tolerance a student is held to."""
    if abs_tol:
        decimals = max(2, math.ceil(-math.log10(abs_tol)) + 1)
        return lambda x: _fixed(x, decimals)
    if rel_tol:
        figures = max(3, math.ceil(-math.log10(rel_tol)) + 2)
        return lambda x: _significant(x, figures)
    return lambda x: _fixed(x, 6)


def _fixed(x: float, decimals: int) -> str:
    if isinstance(x, int) or float(x).is_integer():
        return str(int(x))
    text = f"{x:.{decimals}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _significant(x: float, figures: int) -> str:
    if x == 0:
        return "0"
    exponent = math.floor(math.log10(abs(x)))
    if -3 <= exponent <= 5:
        return _fixed(x, max(0, figures - 1 - exponent))
    mantissa = _fixed(x / 10**exponent, figures - 1)
    return mantissa + r" \times 10^{" + str(exponent) + "}"


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def latex_value(value: Any, fmt: Formatter) -> str:
    """A number, vector (one row), matrix or list of matrices as LaTeX (``pmatrix``)."""
    if _is_number(value):
        if math.isinf(value):
            return r"\infty" if value > 0 else r"-\infty"
        return fmt(value)
    if isinstance(value, str):
        return r"\text{" + re.sub(r"([\\{}_^$%&#~])", r"\\\1", value) + "}"
    if isinstance(value, (list, tuple)):
        if all(_is_number(v) for v in value):
            return _pmatrix([value], fmt)
        if all(isinstance(row, (list, tuple)) and all(_is_number(v) for v in row) for row in value):
            return _pmatrix(value, fmt)
        return r"\left(" + r",\ ".join(latex_value(v, fmt) for v in value) + r"\right)"
    return r"\text{" + escape(str(value)) + "}"


def _pmatrix(rows: Any, fmt: Formatter) -> str:
    body = r" \\ ".join(" & ".join(latex_value(x, fmt) for x in row) for row in rows)
    return r"\begin{pmatrix} " + body + r" \end{pmatrix}"


_SYMBOL = re.compile(r"^[A-Za-z](_[A-Za-z0-9]+)?$")


def _symbol(name: str) -> str | None:
    if not _SYMBOL.match(name):
        return None
    base, _, sub = name.partition("_")
    return base + (f"_{{{sub}}}" if sub else "")


def name_html(name: str) -> str:
    """A given's or answer's name: math when it is a symbol (``W_Q``), else text."""
    symbol = _symbol(name)
    if symbol is not None:
        return r"\(" + symbol + r"\)"
    return f'<span class="pd-name">{escape(name.replace("_", " "))}</span>'


def equals_html(name: str, value: Any, fmt: Formatter) -> str:
    """``\\(Q = (…)\\)``, or the name as text when it is a word (``weights``)."""
    latex = escape(latex_value(value, fmt))
    symbol = _symbol(name)
    if symbol is not None:
        return r"\(" + symbol + " = " + latex + r"\)"
    return name_html(name) + r" \(= " + latex + r"\)"


def values_html(values: dict[str, Any], fmt: Formatter) -> str:
    """Named values as a list, one per line."""
    rows = "".join(f"<li>{equals_html(name, value, fmt)}</li>" for name, value in values.items())
    return f'<ul class="pd-values">{rows}</ul>'


def flat_numbers(value: Any) -> list[float]:
    """The numbers of a number, vector or matrix, row by row."""
    if isinstance(value, (list, tuple)):
        out: list[float] = []
        for v in value:
            out.extend(flat_numbers(v))
        return out
    return [value]


def shape_of(value: Any) -> tuple[int, ...]:
    """``()`` for a number, ``(n,)`` for a vector, ``(rows, cols)`` for a matrix."""
    if isinstance(value, (list, tuple)):
        return (len(value),) + (shape_of(value[0]) if value else ())
    return ()


def shape_words(shape: tuple[int, ...]) -> str:
    """How a student types a value of this shape."""
    if not shape:
        return "one number"
    if len(shape) == 1:
        return f"{shape[0]} numbers" if shape[0] != 1 else "one number"
    if shape[0] == 1:
        return f"{shape[1]} numbers (a 1 × {shape[1]} row)"
    count = math.prod(shape)
    return f"{count} numbers ({' × '.join(map(str, shape))}, row by row)"
