"""Content text to card HTML: escaping, the small Markdown of content, and LaTeX for values.

Content is Markdown with MathJax math (``\\( … \\)``, ``\\[ … \\]``). Every character
that means something in HTML (``&``, ``<``, ``>``) is escaped, inside math too (MathJax
reads the text, where ``&lt;`` is ``<`` again), so an author's ``<b>`` shows as typed
and never runs as markup. Backslashes and braces are left alone, so LaTeX and Anki's
``{{c1::…}}`` survive. Only this Markdown becomes HTML: the paragraphs, lists and
tables of ``generator.content.markdown``, ``*em*``, ``**strong**`` and `` `code` `` (never
inside math).
"""

from __future__ import annotations

import functools
import html
import math
import re
from typing import Any

from ...content.markdown import EMPHASIS, STRONG, Block, ListBlock, Paragraph, blocks
from ...presentation import Formatter, name_symbol, value_latex

# Math and code spans are cut out before the Markdown rules run, so ``a*b*c`` in LaTeX
# or ``**`` in code stays as written; \x00 cannot occur in YAML text.
_PROTECTED = re.compile(r"\\\(.*?\\\)|\\\[.*?\\\]|`[^`\n]+`", re.S)
_STRONG, _EM = STRONG, EMPHASIS  # content.markdown's, the one rule
_PLACEHOLDER = re.compile("\x00(\\d+)\x00")


def escape(text: str) -> str:
    """``&``, ``<`` and ``>`` as entities; everything else (quotes, LaTeX) as written."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


escape_repeated = functools.lru_cache(maxsize=4096)(escape)
"""``escape`` for text that recurs on many cards (step titles, mistakes): computed once."""


def quotes(html_text: str) -> str:
    """HTML (already ``&<>``-escaped) made safe inside a quoted attribute: its quotes escaped."""
    return html_text.replace('"', "&quot;").replace("'", "&#x27;")


@functools.lru_cache(maxsize=4096)
def attribute(text: str) -> str:
    """Text safe inside a double-quoted HTML attribute."""
    return html.escape(text, quote=True)


def inline(text: str) -> str:
    """One paragraph of content Markdown as HTML (line breaks become spaces)."""
    text = text.strip()
    if "*" not in text and "`" not in text:
        # No Markdown to convert: math and text escape alike (the common case, and fast).
        return escape(text).replace("\n", " ")
    kept: list[str] = []

    def keep(match: re.Match[str]) -> str:
        piece = match.group(0)
        kept.append(f"<code>{escape(piece[1:-1])}</code>" if piece[0] == "`" else escape(piece))
        return f"\x00{len(kept) - 1}\x00"

    out = escape(_PROTECTED.sub(keep, text))
    out = _STRONG.sub(r"<strong>\1</strong>", out)
    out = _EM.sub(r"<em>\1</em>", out)
    out = out.replace("\n", " ")
    return _PLACEHOLDER.sub(lambda m: kept[int(m.group(1))], out)


def _html(part: Block) -> str:
    if isinstance(part, Paragraph):
        return f"<p>{inline(part.text)}</p>"
    if isinstance(part, ListBlock):
        tag = "ul" if part.start is None else "ol"
        start = "" if part.start in (None, 1) else f' start="{part.start}"'
        return f"<{tag}{start}>" + "".join(f"<li>{inline(item)}</li>" for item in part.items) + f"</{tag}>"
    # An empty corner above row labels is no column's header (as on the study site).
    head = "".join(f"<th>{inline(cell)}</th>" if cell.strip() else "<td></td>" for cell in part.header)
    body = "".join(
        "<tr>" + "".join(f"<td>{inline(cell)}</td>" for cell in row) + "</tr>" for row in part.rows
    )
    return f'<table class="pd-table"><tr>{head}</tr>{body}</table>'


def block(text: str) -> str:
    """Content Markdown as HTML: a single paragraph inline; else paragraphs, lists and tables."""
    if "\n" not in text.strip():
        return inline(text)
    parts = blocks(text)
    if len(parts) == 1 and isinstance(parts[0], Paragraph):
        return inline(parts[0].text)
    return "".join(_html(part) for part in parts)


# Values (givens, answers) as LaTeX.


@functools.lru_cache(maxsize=1024)
def name_html(name: str) -> str:
    """A given's or answer's name: math when it is a symbol (``W_Q``), else text."""
    symbol = name_symbol(name)
    if symbol is not None:
        return r"\(" + symbol + r"\)"
    return f'<span class="pd-name">{escape(name.replace("_", " "))}</span>'


def equals_html(name: str, value: Any, fmt: Formatter) -> str:
    """``\\(Q = (…)\\)``, or the name as text when it is a word (``weights``)."""
    latex = value_latex(value, fmt, html_field=True)
    symbol = name_symbol(name)
    if symbol is not None:
        return r"\(" + symbol + " = " + latex + r"\)"
    return name_html(name) + r" \(= " + latex + r"\)"


def values_html(values: dict[str, Any], fmt: Formatter) -> str:
    """Named values as a list, one per line."""
    rows = "".join(f"<li>{equals_html(name, value, fmt)}</li>" for name, value in values.items())
    return f'<ul class="pd-values">{rows}</ul>'


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
