"""Content text to the site's HTML: escaped, the small Markdown of content, math as MathML.

Content is Markdown with LaTeX math (``\\( … \\)``, ``\\[ … \\]``). Text is escaped for
the place it lands (``text`` for element content, ``attribute`` for a quoted
attribute, ``url`` for a link, which must be http or https), so an author's
``<b>`` shows as typed and never runs. Math is written as MathML by the project's
LaTeX parser (``generator.latex.mathml``), so no ``\\(`` ever reaches the page and no
script or font is needed to read it. Clozes' ``{{c1::…}}`` become blanks the page's
script reveals, in text and inside math alike. The text is the tree of
``generator.content.text``, written here one rule per node.
"""

from __future__ import annotations

import functools
import html
import json
from typing import Any
from urllib.parse import urlsplit

from ...content.text import (
    Cloze,
    Inlines,
    Math,
    Table,
    inlines,
    parse,
)
from ...latex.mathml import mathml, to_mathml
from ...presentation import Formatter, name_symbol, value_latex
from ..html_text import HtmlRenderer

_LONG_INLINE = 30
"""Inline math longer than this (LaTeX characters) may be wider than a 360 px phone."""


def text(value: str) -> str:
    """Text safe as element content: ``&``, ``<`` and ``>`` as entities."""
    return html.escape(value, quote=False)


@functools.lru_cache(maxsize=4096)
def attribute(value: str) -> str:
    """Text safe inside a double-quoted attribute."""
    return html.escape(value, quote=True)


def url(value: str) -> str | None:
    """A link's address, safe in an ``href``; None unless it is http or https with a host."""
    value = value.strip()
    try:
        parts = urlsplit(value)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    return attribute(value)


def script_json(value: Any) -> str:
    """``value`` as JSON that is safe inside a ``<script>`` element.

    Only ``</`` (which could end the element) and ``<!--`` (which could open an HTML
    comment state) are escaped: the rest of the markup stays one byte per character.
    """
    out = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return out.replace("<!--", "\\u003c!--").replace("</", "<\\/")


def math(latex: str, display: bool = False) -> str:
    """LaTeX without delimiters as a ``<math>`` element."""
    return to_mathml(latex, display)


class _Page(HtmlRenderer):
    """The site's HTML, one method per node; math written from its tree as MathML. With
    ``clozes``, ``{{cN::…}}`` become blanks the page's script reveals."""

    def __init__(self, clozes: bool):
        self.clozes = clozes

    def boxed(self, node: Math) -> bool:
        # Inline math that may not fit a phone scrolls in its own box; the rest is inline.
        latex = node.blanked_latex if self.clozes else node.latex
        return not node.display and len(latex) > _LONG_INLINE

    def math(self, node: Math) -> str:
        tree = node.blanked if self.clozes else node.tree
        if node.display:
            return f'<span class="pd-display pd-scroll">{mathml(tree, True)}</span>'
        if self.boxed(node):
            return f'<span class="pd-wide pd-scroll">{mathml(tree)}</span>'
        return mathml(tree)

    def cloze(self, node: Cloze) -> str:
        answer = self.inline(node.children)
        if self.clozes:
            return f'<span class="pd-blank" data-c="{node.number}"><span>{answer}</span></span>'
        hint = "" if node.hint is None else "::" + text(node.hint)
        return f"{{{{c{node.number}::{answer}{hint}}}}}"

    def table(self, block: Table) -> str:
        # A table's cells are never blanks. An empty corner above row labels is no column's
        # header: a screen reader names none.
        cell = _PAGES[False].inline
        head = "".join(f'<th scope="col">{cell(c)}</th>' if c else "<td></td>" for c in block.header)
        rows = "".join("<tr>" + "".join(f"<td>{cell(c)}</td>" for c in row) + "</tr>" for row in block.rows)
        return (
            f'<div class="pd-scroll" tabindex="0" role="region" aria-label="Table">'
            f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div>"
        )


_PAGES = {clozes: _Page(clozes) for clozes in (False, True)}


def inline(value: str | Inlines, clozes: bool = False) -> str:
    """One paragraph of content Markdown (or its tree) as HTML (line breaks become spaces).

    With ``clozes``, ``{{cN::…}}`` become blanks: ``<span class="pd-blank">`` in text,
    ``<mrow class="pd-blank">`` in math, each with ``data-c="N"``.
    """
    return _PAGES[clozes].inline(inlines(value))


def block(value: str, clozes: bool = False) -> str:
    """Content Markdown as HTML: paragraphs, lists and tables (a lone paragraph in ``<p>``)."""
    return _PAGES[clozes].blocks(parse(value))


def name_html(name: str) -> str:
    """A given's or answer's name: math when it is a symbol (``W_Q``), else words."""
    symbol = name_symbol(name)
    return text(name.replace("_", " ")) if symbol is None else math(symbol)


def values_html(values: dict[str, Any], fmt: Formatter) -> str:
    """Named values (givens, answers) as a list, one per line."""
    # A wide matrix scrolls inside its line, which site.js puts in the tab order (.pd-scroll).
    rows = "".join(
        f'<li><span class="pd-scroll">{name_html(name)} {math("= " + value_latex(value, fmt))}</span></li>'
        for name, value in values.items()
    )
    return f'<ul class="pd-values">{rows}</ul>'
