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
from collections.abc import Callable
from typing import Any

from ...content.text import (
    Block,
    Cloze,
    Code,
    Emphasis,
    Inlines,
    ListBlock,
    Math,
    Paragraph,
    Strong,
    Text,
    parse,
    render,
)
from ...latex import convert

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


def _cloze(node: Cloze) -> str:
    hint = "" if node.hint is None else escape("::" + node.hint)
    return escape(f"{{{{c{node.number}::") + _inline(node.children) + hint + escape("}}")


_RULES: dict[type, Callable[[Any], str]] = {
    Text: lambda node: escape(node.text),
    Code: lambda node: f"#raw({string(node.text)})",
    Strong: lambda node: f"#strong[{_inline(node.children)}]",
    Emphasis: lambda node: f"#emph[{_inline(node.children)}]",
    Math: lambda node: (display_math if node.display else inline_math)(node.latex),
    Cloze: _cloze,
}
"""How each inline node is written in Typst (markdown-it-py's ``renderer.rules``)."""


def _inline(nodes: Inlines) -> str:
    return render(nodes, _RULES)


def _block(block: Block) -> str:
    if isinstance(block, Paragraph):
        return _inline(block.children)
    if isinstance(block, ListBlock):
        body = ", ".join(f"[{_inline(item)}]" for item in block.items)
        return f"#list({body})" if block.start is None else f"#enum(start: {block.start}, {body})"
    cells = [f"[#strong[{_inline(c)}]]" for c in block.header]
    cells += [f"[{_inline(c)}]" for row in block.rows for c in row]
    return (
        f"#table(columns: {len(block.header)}, align: left, inset: 4pt, stroke: 0.5pt + luma(120), "
        + ", ".join(cells)
        + ")"
    )


@functools.lru_cache(maxsize=4096)
def markdown(text: str) -> str:
    """Typst markup for content text: paragraphs, lists, tables, emphasis, code and math.

    Cached: a quiz's forms print the same questions and choices over and over."""
    return "\n\n".join(_block(block) for block in parse(text))
