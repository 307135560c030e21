"""Author text (small Markdown with LaTeX math) to Typst markup that prints as written.

Content text is Markdown with ``\\( … \\)`` and ``\\[ … \\]`` math, read once into the
tree of ``generator.content.text`` (paragraphs, lists, tables, ``*em*``, ``**strong**``,
`` `code` ``, backslash escapes of punctuation), which this module writes one rule per
node. Everything else is text: every
character Typst would read as markup or code (``#``, ``$``, ``*``, ``_``, ``@``, ``<``,
``/``…) is escaped, so author text can never run as Typst code.
"""

from __future__ import annotations

import functools
import re

from ...content.text import (
    Cloze,
    Code,
    Emphasis,
    Inlines,
    Link,
    ListBlock,
    Math,
    Paragraph,
    Renderer,
    Strong,
    Table,
    Text,
    inlines,
    parse,
)
from ...latex import convert
from ...latex.parser import typst

# Characters with a meaning somewhere in Typst markup. Escaping all of them, everywhere,
# is simpler than knowing where each one matters (``=`` and ``-`` only at line start,
# ``//`` only as a pair, ``...`` only as three).
_SPECIAL = re.compile(r"([\\#$*_@<>\[\]`~=\-+/.:'\"])")


def escape(text: str) -> str:
    """``text`` as Typst markup that prints exactly these characters."""
    text = _SPECIAL.sub(r"\\\1", text)
    # Newlines are spaces in Markdown paragraphs; keep them out of the markup.
    return re.sub(r"\s*\n\s*", " ", text)


def string(text: str) -> str:
    """``text`` as a Typst string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def inline_math(latex: str) -> str:
    """Inline Typst math for LaTeX without delimiters."""
    return "$" + convert(latex) + "$"


def display_math(latex: str) -> str:
    """Display (block) Typst math for LaTeX without delimiters."""
    return "$ " + convert(latex) + " $"


class _Print(Renderer):
    """Typst markup, one method per node; math written from its tree by the Typst writer."""

    between = "\n\n"

    def text(self, node: Text) -> str:
        return escape(node.text)

    def code(self, node: Code) -> str:
        return f"#raw({string(node.text)})"

    def strong(self, node: Strong) -> str:
        return f"#strong[{self.inline(node.children)}]"

    def emphasis(self, node: Emphasis) -> str:
        return f"#emph[{self.inline(node.children)}]"

    def math(self, node: Math) -> str:
        return f"$ {typst(node.tree)} $" if node.display else f"${typst(node.tree)}$"

    def cloze(self, node: Cloze) -> str:
        hint = "" if node.hint is None else escape("::" + node.hint)
        return escape(f"{{{{c{node.number}::") + self.inline(node.children) + hint + escape("}}")

    def link(self, node: Link) -> str:
        return f"#link({string(node.url)})[{self.inline(node.children)}]"

    def paragraph(self, block: Paragraph) -> str:
        return self.inline(block.children)

    def bullets(self, block: ListBlock) -> str:
        body = ", ".join(f"[{self.inline(item)}]" for item in block.items)
        return f"#list({body})" if block.start is None else f"#enum(start: {block.start}, {body})"

    def table(self, block: Table) -> str:
        cells = [f"[#strong[{self.inline(c)}]]" for c in block.header]
        cells += [f"[{self.inline(c)}]" for row in block.rows for c in row]
        return (
            f"#table(columns: {len(block.header)}, align: left, inset: 4pt, stroke: 0.5pt + luma(120), "
            + ", ".join(cells)
            + ")"
        )


_PRINT = _Print()


def inline(text: str | Inlines) -> str:
    """One paragraph of content text (or its tree) as Typst markup."""
    return _PRINT.inline(inlines(text))


@functools.lru_cache(maxsize=4096)
def markdown(text: str) -> str:
    """Typst markup for content text: paragraphs, lists, tables, emphasis, code and math.

    Cached: a quiz's forms print the same questions and choices over and over."""
    return _PRINT.blocks(parse(text))
