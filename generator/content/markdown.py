"""The blocks of content Markdown: paragraphs, lists and tables.

Content text is a small Markdown: paragraphs separated by blank lines, bullet
(``- item``) and numbered (``1. item``) lists whose items may continue on
indented lines, and tables (``| a | b |`` rows under a ``|---|---|`` rule).
Every exporter reads the same blocks from here and renders their text with its
own inline rules (emphasis, code, math), so a lesson means the same on a card
and on paper.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Paragraph:
    """Running text (its lines joined by the renderer)."""

    text: str


@dataclass(frozen=True)
class ListBlock:
    """A bullet list (``start`` None) or a numbered list starting at ``start``."""

    items: tuple[str, ...]
    start: int | None


@dataclass(frozen=True)
class Table:
    """A table with a header row; short rows are padded with empty cells."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


Block = Paragraph | ListBlock | Table

# The inline rules every renderer applies (Anki, site, Typst, plain text), once here: strong
# and emphasis need text against their stars (``x_1 * y_2`` has none), and emphasis no word
# or star beside them (``a*b*c`` is text), as CommonMark reads them.
STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*", re.S)
"""``**strong**``: its text is group 1."""
EMPHASIS = re.compile(r"(?<![*\w])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![*\w])", re.S)
"""``*emphasis*``: its text is group 1."""
CODE = re.compile(r"`([^`\n]+)`")
"""```code```, read before emphasis: its text is group 1, taken as written."""

MAX_LIST_START = 1_000_000
"""Largest number a numbered list may start at (Typst's numbers end at 2**63)."""
_BIG_NUMBER_ITEM = re.compile(r"^\s*\d{7,}\.\s", re.M)

_LIST_ITEM = re.compile(r"(?:(?P<bullet>[-*+])|(?P<number>\d+)\.)\s+(?P<text>.*)")
_TABLE_RULE = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?$")


def _cells(row: str) -> list[str]:
    return [cell.strip() for cell in row.strip().strip("|").split("|")]


def _table(lines: list[str]) -> Table:
    header = _cells(lines[0])
    width = len(header)
    rows = tuple(tuple((_cells(line) + [""] * width)[:width]) for line in lines[2:] if line.strip())
    return Table(tuple(header), rows)


def _chunk(chunk: str) -> list[Block]:
    lines = chunk.splitlines()
    if len(lines) >= 2 and lines[0].lstrip().startswith("|") and _TABLE_RULE.match(lines[1].strip()):
        return [_table(lines)]
    out: list[Block] = []
    text: list[str] = []
    items: list[str] = []
    start: int | None = None
    for line in lines:
        item = None if items and line.startswith("  ") else _LIST_ITEM.fullmatch(line.strip())
        if item:
            if text:
                out.append(Paragraph("\n".join(text)))
                text = []
            if not items:
                start = int(item.group("number")) if item.group("number") else None
            items.append(item.group("text"))
        elif items and line.startswith(" "):
            items[-1] += " " + line.strip()
        else:
            if items:
                out.append(ListBlock(tuple(items), start))
                items = []
            text.append(line.strip())
    if items:
        out.append(ListBlock(tuple(items), start))
    if text:
        out.append(Paragraph("\n".join(text)))
    return out


def problems(text: str) -> list[str]:
    """What in ``text`` no exporter can render: a numbered list that starts too high."""
    if not _BIG_NUMBER_ITEM.search(text):  # the common case: no need to read the blocks
        return []
    return [
        f"a numbered list starts at {block.start}; start it at {MAX_LIST_START:,} or lower"
        for block in blocks(text)
        if isinstance(block, ListBlock) and block.start is not None and block.start > MAX_LIST_START
    ]


def blocks(text: str) -> list[Block]:
    """The blocks of ``text``, in order."""
    chunks = [c for c in re.split(r"\n\s*\n", text.strip()) if c.strip()]
    return [block for chunk in chunks for block in _chunk(chunk)]
