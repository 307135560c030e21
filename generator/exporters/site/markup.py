"""Content text to the site's HTML: escaped, the small Markdown of content, math as MathML.

Content is Markdown with LaTeX math (``\\( … \\)``, ``\\[ … \\]``). Text is escaped for
the place it lands (``text`` for element content, ``attribute`` for a quoted
attribute, ``url`` for a link, which must be http or https), so an author's
``<b>`` shows as typed and never runs. Math is written as MathML by the project's
LaTeX parser (``generator.latex.mathml``), so no ``\\(`` ever reaches the page and no
script or font is needed to read it. Clozes' ``{{c1::…}}`` become blanks the page's
script reveals, in text and inside math alike.
"""

from __future__ import annotations

import functools
import html
import json
import re
from typing import Any
from urllib.parse import urlsplit

from ...content.markdown import EMPHASIS, STRONG, ListBlock, Paragraph, blocks
from ...latex.mathml import to_mathml
from ...presentation import Formatter, name_symbol, value_latex

_PROTECTED = re.compile(r"\\\((.*?)\\\)|\\\[(.*?)\\\]|`([^`\n]+)`", re.S)
_STRONG, _EM = STRONG, EMPHASIS  # content.markdown's, the one rule
_PLACEHOLDER = re.compile("\x00(\\d+)\x00")
_CLOZE = re.compile(r"\{\{c(\d+)::(.*?)(?:::(.*?))?\}\}", re.S)
_CLOZE_HTML = re.compile("\x01(\\d+)\x02(.*?)\x03", re.S)
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


def inline(value: str, clozes: bool = False) -> str:
    """One paragraph of content Markdown as HTML (line breaks become spaces).

    With ``clozes``, ``{{cN::…}}`` become blanks: ``<span class="pd-blank">`` in text,
    ``<mrow class="pd-blank">`` in math, each with ``data-c="N"``.
    """
    value = value.strip()
    if clozes:
        # Inside math a blank is the parser's \pdblank; outside, markers that survive escaping.
        def in_math(match: re.Match[str]) -> str:
            return _CLOZE.sub(lambda c: rf"\pdblank{{{c.group(1)}}}{{{c.group(2)}}}", match.group(0))

        value = re.sub(r"\\\(.*?\\\)|\\\[.*?\\\]", in_math, value, flags=re.S)
        value = _CLOZE.sub(lambda c: f"\x01{c.group(1)}\x02{c.group(2)}\x03", value)
    kept: list[str] = []

    def keep(match: re.Match[str]) -> str:
        inline_math, display_math, code = match.groups()
        if code is not None:
            kept.append(f"<code>{text(code)}</code>")
        elif inline_math is None:
            kept.append(f'<span class="pd-display pd-scroll">{math(display_math, True)}</span>')
        elif len(inline_math) > _LONG_INLINE:  # may not fit a phone: scrolls in its own box
            kept.append(f'<span class="pd-wide pd-scroll">{math(inline_math)}</span>')
        else:
            kept.append(math(inline_math))
        return f"\x00{len(kept) - 1}\x00"

    out = text(_PROTECTED.sub(keep, value))
    out = _STRONG.sub(r"<strong>\1</strong>", out)
    out = _EM.sub(r"<em>\1</em>", out)
    out = out.replace("\n", " ")
    if clozes:
        out = _CLOZE_HTML.sub(r'<span class="pd-blank" data-c="\1"><span>\2</span></span>', out)
    return _PLACEHOLDER.sub(lambda m: kept[int(m.group(1))], out)


def block(value: str, clozes: bool = False) -> str:
    """Content Markdown as HTML: paragraphs, lists and tables (a lone paragraph in ``<p>``)."""
    out = []
    for part in blocks(value):
        if isinstance(part, Paragraph):
            out.append(f"<p>{inline(part.text, clozes)}</p>")
        elif isinstance(part, ListBlock):
            tag = "ul" if part.start is None else "ol"
            start = "" if part.start in (None, 1) else f' start="{part.start}"'
            out.append(
                f"<{tag}{start}>" + "".join(f"<li>{inline(i, clozes)}</li>" for i in part.items) + f"</{tag}>"
            )
        else:
            # An empty corner above row labels is no column's header: a screen reader names none.
            head = "".join(
                f'<th scope="col">{inline(cell)}</th>' if cell.strip() else "<td></td>"
                for cell in part.header
            )
            rows = "".join(
                "<tr>" + "".join(f"<td>{inline(cell)}</td>" for cell in row) + "</tr>" for row in part.rows
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
