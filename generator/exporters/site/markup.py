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
    Code,
    Emphasis,
    Inlines,
    ListBlock,
    Math,
    MathCloze,
    Paragraph,
    Strong,
    Text,
    inlines,
    parse,
)
from ...latex.mathml import to_mathml
from ...presentation import Formatter, name_symbol, value_latex

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


def _latex(node: Math, clozes: bool) -> str:
    """The math's LaTeX; with ``clozes``, each cloze the parser's blank ``\\pdblank{N}{…}``."""
    if not clozes:
        return node.latex
    return "".join(
        rf"\pdblank{{{part.number}}}{{{part.latex}}}" if isinstance(part, MathCloze) else part
        for part in node.body
    )


def _math(node: Math, clozes: bool) -> str:
    latex = _latex(node, clozes)
    if node.display:
        return f'<span class="pd-display pd-scroll">{math(latex, True)}</span>'
    if len(latex) > _LONG_INLINE:  # may not fit a phone: scrolls in its own box
        return f'<span class="pd-wide pd-scroll">{math(latex)}</span>'
    return math(latex)


def _cloze(node: Cloze, clozes: bool) -> str:
    answer = _inline(node.children, clozes)
    if clozes:
        return f'<span class="pd-blank" data-c="{node.number}"><span>{answer}</span></span>'
    hint = "" if node.hint is None else "::" + text(node.hint)
    return f"{{{{c{node.number}::{answer}{hint}}}}}"


def _inline(nodes: Inlines, clozes: bool) -> str:
    out = []
    for node in nodes:  # one rule per node type, as markdown-it-py's renderer.rules
        if isinstance(node, Text):
            out.append(text(node.text).replace("\n", " "))
        elif isinstance(node, Code):
            out.append(f"<code>{text(node.text)}</code>")
        elif isinstance(node, Strong):
            out.append(f"<strong>{_inline(node.children, clozes)}</strong>")
        elif isinstance(node, Emphasis):
            out.append(f"<em>{_inline(node.children, clozes)}</em>")
        elif isinstance(node, Math):
            out.append(_math(node, clozes))
        else:
            out.append(_cloze(node, clozes))
    return "".join(out)


def inline(value: str | Inlines, clozes: bool = False) -> str:
    """One paragraph of content Markdown (or its tree) as HTML (line breaks become spaces).

    With ``clozes``, ``{{cN::…}}`` become blanks: ``<span class="pd-blank">`` in text,
    ``<mrow class="pd-blank">`` in math, each with ``data-c="N"``.
    """
    return _inline(inlines(value), clozes)


def block(value: str, clozes: bool = False) -> str:
    """Content Markdown as HTML: paragraphs, lists and tables (a lone paragraph in ``<p>``)."""
    out = []
    for part in parse(value):
        if isinstance(part, Paragraph):
            out.append(f"<p>{_inline(part.children, clozes)}</p>")
        elif isinstance(part, ListBlock):
            tag = "ul" if part.start is None else "ol"
            start = "" if part.start in (None, 1) else f' start="{part.start}"'
            out.append(
                f"<{tag}{start}>"
                + "".join(f"<li>{_inline(i, clozes)}</li>" for i in part.items)
                + f"</{tag}>"
            )
        else:
            # An empty corner above row labels is no column's header: a screen reader names none.
            head = "".join(
                f'<th scope="col">{_inline(cell, False)}</th>' if cell else "<td></td>"
                for cell in part.header
            )
            rows = "".join(
                "<tr>" + "".join(f"<td>{_inline(cell, False)}</td>" for cell in row) + "</tr>"
                for row in part.rows
            )
            out.append(
                f'<div class="pd-scroll" tabindex="0" role="region" aria-label="Table">'
                f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div>"
            )
    return "".join(out)


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
