"""Author text (small Markdown with LaTeX math) to Typst markup that prints as written.

Content text is Markdown with ``\\( … \\)`` and ``\\[ … \\]`` math. Only a small part
of Markdown is read: paragraphs (blank lines), lists (``- item``, ``1. item``), tables
(``| a | b |`` rows under a ``|---|---|`` rule), ``*em*``, ``**strong**``, `` `code` ``
and backslash escapes of punctuation (``\\$``, ``\\*``). Everything else is text: every
character Typst would read as markup or code (``#``, ``$``, ``*``, ``_``, ``@``, ``<``,
``/``…) is escaped, so author text can never run as Typst code.
"""

from __future__ import annotations

import re

from .math import convert

# Characters with a meaning somewhere in Typst markup. Escaping all of them, everywhere,
# is simpler than knowing where each one matters (``=`` and ``-`` only at line start,
# ``//`` only as a pair, ``...`` only as three).
_SPECIAL = re.compile(r"([\\#$*_@<>\[\]`~=\-+/.:'\"])")
_MATH = re.compile(r"\\\((.*?)\\\)|\\\[(.*?)\\\]", re.S)
_INLINE = re.compile(
    r"\\(?P<escaped>[!-/:-@\[-`{-~])"  # a backslash escape of ASCII punctuation
    r"|`(?P<code>[^`]+)`"
    r"|\*\*(?P<strong>\S(?:.*?\S)?)\*\*"
    r"|\*(?P<em>[^\s*](?:[^*]*?[^\s*])?)\*",
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
        out.append(escape(text[last:match.start()]))
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
        out.append(_inline(text[last:match.start()]))
        last = match.end()
        if match.group(1) is not None:
            out.append(inline_math(match.group(1)))
        else:
            out.append(display_math(match.group(2)))
    out.append(_inline(text[last:]))
    return "".join(out)


_LIST_ITEM = re.compile(r"(?:(?P<bullet>[-*+])|(?P<number>\d+)\.)\s+(?P<text>.*)")
_TABLE_RULE = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?$")


def _cells(row: str) -> list[str]:
    return [cell.strip() for cell in row.strip().strip("|").split("|")]


def _table(rows: list[str]) -> str:
    header, body = _cells(rows[0]), [_cells(r) for r in rows[2:]]
    width = len(header)
    cells = [f"[#strong[{_text_and_math(c)}]]" for c in header]
    for row in body:
        row = (row + [""] * width)[:width]
        cells += [f"[{_text_and_math(c)}]" for c in row]
    return (f"#table(columns: {width}, align: left, inset: 4pt, stroke: 0.5pt + luma(120), "
            + ", ".join(cells) + ")")


def _list(items: list[tuple[str | None, str]]) -> str:
    body = ", ".join(f"[{_text_and_math(text)}]" for _, text in items)
    first = items[0][0]
    if first is None:
        return f"#list({body})"
    return f"#enum(start: {int(first)}, {body})"


def _blocks(paragraph: str) -> list[str]:
    """Typst for one blank-line-separated block: text lines, a list or a table."""
    lines = paragraph.splitlines()
    if len(lines) >= 2 and lines[0].lstrip().startswith("|") and _TABLE_RULE.match(lines[1].strip()):
        return [_table([line for line in lines if line.strip()])]
    out: list[str] = []
    text: list[str] = []
    items: list[tuple[str | None, str]] = []
    for line in lines:
        item = _LIST_ITEM.fullmatch(line.strip()) if not line.startswith("  ") or not items else None
        if item:
            if text:
                out.append(_text_and_math("\n".join(text)))
                text = []
            items.append((item.group("number"), item.group("text")))
        elif items and line.startswith(" "):
            number, previous = items[-1]
            items[-1] = (number, previous + " " + line.strip())
        else:
            if items:
                out.append(_list(items))
                items = []
            text.append(line.strip())
    if items:
        out.append(_list(items))
    if text:
        out.append(_text_and_math("\n".join(text)))
    return out


def markdown(text: str) -> str:
    """Typst markup for content text: paragraphs, lists, tables, emphasis, code and math."""
    paragraphs = [p for p in re.split(r"\n\s*\n", text.strip()) if p.strip()]
    return "\n\n".join(block for p in paragraphs for block in _blocks(p))
