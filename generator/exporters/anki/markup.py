"""Content text to card HTML: escaping, the small Markdown of content, and LaTeX for values.

Content is Markdown with MathJax math (``\\( … \\)``, ``\\[ … \\]``), read once into the tree
of ``generator.content.text``; this module writes that tree as card HTML, one rule per
node. Every character that means something in HTML (``&``, ``<``, ``>``) is escaped,
inside math too (MathJax reads the text, where ``&lt;`` is ``<`` again), so an author's
``<b>`` shows as typed and never runs as markup. Math and clozes are written as typed
(``\\( … \\)``, ``{{c1::…}}``) for MathJax and Anki; paragraphs, lists, tables,
``*em*``, ``**strong**`` and `` `code` `` become HTML.
"""

from __future__ import annotations

import functools
import html
from typing import Any

from ...content.text import (
    Cloze,
    Inlines,
    Math,
    Paragraph,
    Table,
    inlines,
    parse,
)
from ...presentation import Formatter, name_symbol, value_latex
from ..html_text import HtmlRenderer
from ..html_text import escape as escape

escape_repeated = functools.lru_cache(maxsize=4096)(escape)
"""``escape`` for text that recurs on many cards (step titles, mistakes): computed once."""


def quotes(html_text: str) -> str:
    """HTML (already ``&<>``-escaped) made safe inside a quoted attribute: its quotes escaped."""
    return html_text.replace('"', "&quot;").replace("'", "&#x27;")


@functools.lru_cache(maxsize=4096)
def attribute(text: str) -> str:
    """Text safe inside a double-quoted HTML attribute."""
    return html.escape(text, quote=True)


class _Card(HtmlRenderer):
    """Card HTML, one method per node; math and clozes as typed, for MathJax and Anki."""

    def math(self, node: Math) -> str:
        opening, closing = (r"\[", r"\]") if node.display else (r"\(", r"\)")
        return opening + escape(node.latex).replace("\n", " ") + closing

    def cloze(self, node: Cloze) -> str:
        hint = "" if node.hint is None else "::" + escape(node.hint)
        return f"{{{{c{node.number}::{self.inline(node.children)}{hint}}}}}"

    def table(self, block: Table) -> str:
        # An empty corner above row labels is no column's header (as on the study site).
        head = "".join(f"<th>{self.inline(cell)}</th>" if cell else "<td></td>" for cell in block.header)
        body = "".join(
            "<tr>" + "".join(f"<td>{self.inline(cell)}</td>" for cell in row) + "</tr>" for row in block.rows
        )
        return f'<table class="pd-table"><tr>{head}</tr>{body}</table>'


_CARD = _Card()


def inline(text: str | Inlines) -> str:
    """One paragraph of content Markdown (or its tree) as HTML (line breaks become spaces)."""
    return _CARD.inline(inlines(text))


def block(text: str) -> str:
    """Content Markdown as HTML: a single paragraph inline; else paragraphs, lists and tables."""
    if "\n" not in text.strip():
        return inline(text)
    parts = parse(text)
    if len(parts) == 1 and isinstance(parts[0], Paragraph):
        return _CARD.inline(parts[0].children)
    return _CARD.blocks(parts)


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
