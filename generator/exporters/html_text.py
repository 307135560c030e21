"""Content text's tree as HTML: what a card and a site page write alike.

``HtmlRenderer`` writes text escaped (``&``, ``<`` and ``>`` as entities, so an author's
``<b>`` shows as typed and never runs; line breaks as spaces), code, strong, emphasis,
links, paragraphs and lists. A card (``anki/markup.py``: math and clozes as typed, for
MathJax and Anki) and a page (``site/markup.py``: math as MathML, clozes as blanks) write
math, clozes and tables their own way.
"""

from __future__ import annotations

import html
import re

from ..content.text import Code, Emphasis, Inlines, Link, ListBlock, Math, Paragraph, Renderer, Strong, Text


def escape(text: str) -> str:
    """``&``, ``<`` and ``>`` as entities; everything else (quotes, LaTeX) as written."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


_CLOSING = re.compile(r"[.,;:!?)\]]+")
"""Punctuation that ends a phrase, kept on the line of the math before it."""


class HtmlRenderer(Renderer):
    """HTML, one method per node; subclasses write math, clozes and tables."""

    def boxed(self, node: Math) -> bool:
        """Whether inline math is written as a box of its own (so that it can scroll): on a
        card, every formula (MathJax's, made inline blocks by card.css)."""
        return not node.display

    def inline(self, nodes: Inlines) -> str:
        # A line may break after a box, which left a sentence's full stop alone on the next
        # line after a formula as wide as the column. Boxed math and the punctuation right
        # after it are held together (the stop may reach into the padding beside the
        # column, never off the page).
        out: list[str] = []
        held: str | None = None
        for node in nodes:
            if held is not None:
                if isinstance(node, Text) and (closing := _CLOSING.match(node.text)) is not None:
                    held = f'<span class="pd-nowrap">{held}{escape(closing.group())}</span>'
                    node = Text(node.text[closing.end() :])
                out.append(held)
                held = None
            if isinstance(node, Math) and self.boxed(node):
                held = self.node(node)
            else:
                out.append(self.node(node))
        if held is not None:
            out.append(held)
        return "".join(out)

    def text(self, node: Text) -> str:
        return escape(node.text).replace("\n", " ")

    def code(self, node: Code) -> str:
        return f"<code>{escape(node.text)}</code>"

    def strong(self, node: Strong) -> str:
        return f"<strong>{self.inline(node.children)}</strong>"

    def emphasis(self, node: Emphasis) -> str:
        return f"<em>{self.inline(node.children)}</em>"

    def link(self, node: Link) -> str:
        # The address is http or https (text.LINK): escaped for its attribute, opened apart.
        url = html.escape(node.url, quote=True)
        return f'<a href="{url}" rel="noopener noreferrer">{self.inline(node.children)}</a>'

    def paragraph(self, block: Paragraph) -> str:
        return f"<p>{self.inline(block.children)}</p>"

    def bullets(self, block: ListBlock) -> str:
        tag = "ul" if block.start is None else "ol"
        start = "" if block.start in (None, 1) else f' start="{block.start}"'
        items = "".join(f"<li>{self.inline(item)}</li>" for item in block.items)
        return f"<{tag}{start}>{items}</{tag}>"
