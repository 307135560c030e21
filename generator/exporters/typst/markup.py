"""Author text (small Markdown with LaTeX math) to Typst markup that prints as written.

Content text is Markdown with ``\\( … \\)`` and ``\\[ … \\]`` math. Only a small part
of Markdown is read: paragraphs (blank lines), lists (``- item``, ``1. item``), tables
(``| a | b |`` rows under a ``|---|---|`` rule), ``*em*``, ``**strong**``, `` `code` ``
and backslash escapes of punctuation (``\\$``, ``\\*``). Everything else is text: every
character Typst would read as markup or code (``#``, ``$``, ``*``, ``_``, ``@``, ``<``,
``/``…) is escaped, so author text can never run as Typst code.
"""

from __future__ import annotations

import functools
import re

from ...content.markdown import Block, ListBlock, Paragraph, blocks
from ...latex import convert

# Characters with a meaning somewhere in Typst markup. Escaping all of them, everywhere,
# is simpler than knowing where each one matters (``=`` and ``-`` only at line start,
# ``//`` only as a pair, ``...`` only as three).
_SPECIAL = re.compile(r"([\\#$*_@<>\[\]`~=\-+/.:'\"])")
_MATH = re.compile(r"\\\((.*?)\\\)|\\\[(.*?)\\\]", re.S)
_INLINE = re.compile(
    r"\\(?P<escaped>[!-/:-@\[-`{-~])"  # a backslash escape of ASCII punctuation
    r"|`(?P<code>[^`]+)`"
    r"|\*\*(?P<strong>\S(?:.*?\S)?)\*\*"
    r"|(?<![*\w])\*(?P<em>[^\s*](?:[^*]*?[^\s*])?)\*(?![*\w])",  # content.markdown.EMPHASIS's flanks
    re.S,
)


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


def _inline(text: str) -> str:
    out: list[str] = []
    last = 0
    for match in _INLINE.finditer(text):
        out.append(escape(text[last : match.start()]))
        last = match.end()
        if match.group("escaped") is not None:
            out.append(escape(match.group("escaped")))
        elif match.group("code") is not None:
            out.append(f"#raw({string(match.group('code'))})")
        elif match.group("strong") is not None:
            out.append(f"#strong[{_inline(match.group('strong'))}]")
        else:
            out.append(f"#emph[{_inline(match.group('em'))}]")
    out.append(escape(text[last:]))
    return "".join(out)


def _text_and_math(text: str) -> str:
    out: list[str] = []
    last = 0
    for match in _MATH.finditer(text):
        out.append(_inline(text[last : match.start()]))
        last = match.end()
        if match.group(1) is not None:
            out.append(inline_math(match.group(1)))
        else:
            out.append(display_math(match.group(2)))
    out.append(_inline(text[last:]))
    return "".join(out)


def _block(block: Block) -> str:
    if isinstance(block, Paragraph):
        return _text_and_math(block.text)
    if isinstance(block, ListBlock):
        body = ", ".join(f"[{_text_and_math(item)}]" for item in block.items)
        return f"#list({body})" if block.start is None else f"#enum(start: {block.start}, {body})"
    cells = [f"[#strong[{_text_and_math(c)}]]" for c in block.header]
    cells += [f"[{_text_and_math(c)}]" for row in block.rows for c in row]
    return (
        f"#table(columns: {len(block.header)}, align: left, inset: 4pt, stroke: 0.5pt + luma(120), "
        + ", ".join(cells)
        + ")"
    )


@functools.lru_cache(maxsize=4096)
def markdown(text: str) -> str:
    """Typst markup for content text: paragraphs, lists, tables, emphasis, code and math.

    Cached: a quiz's forms print the same questions and choices over and over."""
    return "\n\n".join(_block(block) for block in blocks(text))
