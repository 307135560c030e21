"""Content text's tree as HTML: what a card and a site page write alike.

``HtmlRenderer`` writes text escaped (``&``, ``<`` and ``>`` as entities, so an author's
``<b>`` shows as typed and never runs; line breaks as spaces), code, strong, emphasis,
links, paragraphs and lists. A card (``anki/markup.py``: math and clozes as typed, for
MathJax and Anki) and a page (``site/markup.py``: math as MathML, clozes as blanks) write
math, clozes and tables their own way.
"""

from __future__ import annotations

import html

from ..content.text import Code, Emphasis, Link, ListBlock, Paragraph, Renderer, Strong, Text


def escape(text: str) -> str:
    """``&``, ``<`` and ``>`` as entities; everything else (quotes, LaTeX) as written."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class HtmlRenderer(Renderer):
    """HTML, one method per node; subclasses write math, clozes and tables."""

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
