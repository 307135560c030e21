"""Content text as a typed tree, parsed once: blocks of inline nodes.

Content text is a small Markdown, not CommonMark: paragraphs separated by blank lines,
bullet (``- item``) and numbered (``1. item``) lists whose items may continue on indented
lines, and tables (``| a | b |`` rows under a ``|---|---|`` rule). Inside them: math in
``\\( … \\)`` and ``\\[ … \\]`` (whose LaTeX is never Markdown), `` `code` `` taken as
written, backslash escapes of ASCII punctuation (``\\*``), Anki's clozes
``{{c1::answer::hint}}`` (in text and inside math), links ``[text](https://…)``,
``**strong**`` and ``*emphasis*``.

``parse`` reads the blocks and ``inlines`` one paragraph; a math node keeps its formula as
the LaTeX parser's tree (``Math.tree``). Every output (Anki and site HTML, Typst, plain
text, Markdown) is a ``Renderer`` of these nodes, one method per node type, as
markdown-it-py's renderers are of its tokens, and the card rules read the same nodes. A
content field is a ``Source``: the string as written (ids and GUIDs hash it unchanged)
carrying its tree, built when content loads; other text (a generated prompt) is parsed
through a cache.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..latex.check import delimiter_problems, latex_problems
from ..latex.parser import Tree, tree
from ..latex.plain import tree_box

# -- inline nodes ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Text:
    """Characters as written (an escaped character without its backslash)."""

    text: str


@dataclass(frozen=True)
class Code:
    """```code```: its text taken as written."""

    text: str


@dataclass(frozen=True)
class Strong:
    """``**strong**`` text."""

    children: Inlines


@dataclass(frozen=True)
class Emphasis:
    """``*emphasis*`` text."""

    children: Inlines


@dataclass(frozen=True)
class MathCloze:
    """A cloze inside math: its number and its LaTeX (a hint inside math is dropped)."""

    number: int
    latex: str


@dataclass(frozen=True)
class Math:
    """LaTeX math, inline (``\\( \\)``) or display (``\\[ \\]``)."""

    latex: str
    """The LaTeX as written between the delimiters, clozes included (Anki reads them there)."""
    display: bool
    body: tuple[str | MathCloze, ...]
    """``latex`` cut at its clozes, so the site can draw each as a blank."""

    @property
    def clozes(self) -> tuple[MathCloze, ...]:
        return tuple(part for part in self.body if isinstance(part, MathCloze))

    @functools.cached_property
    def tree(self) -> Tree:
        """The math as the LaTeX parser reads it, read on first use (``LatexError`` outside the
        subset, which the content loader reports first)."""
        return tree(self.latex)

    @property
    def blanked_latex(self) -> str:
        """The LaTeX with each cloze the parser's blank ``\\pdblank{N}{…}``."""
        return "".join(
            rf"\pdblank{{{part.number}}}{{{part.latex}}}" if isinstance(part, MathCloze) else part
            for part in self.body
        )

    @functools.cached_property
    def blanked(self) -> Tree:
        """The tree of ``blanked_latex``: each cloze a blank, as the site draws it."""
        return tree(self.blanked_latex) if self.clozes else self.tree


@dataclass(frozen=True)
class Cloze:
    """Anki's ``{{cN::answer::hint}}`` in running text."""

    number: int
    children: Inlines
    """The answer, itself inline text."""
    hint: str | None
    """The hint as written, if any."""


@dataclass(frozen=True)
class Link:
    """``[text](https://…)``: a link to an http or https address (any other is text as written)."""

    url: str
    children: Inlines
    """The link's text, itself inline text."""


Inline = Text | Code | Strong | Emphasis | Math | Cloze | Link
Inlines = tuple[Inline, ...]

# -- blocks ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Paragraph:
    """Running text (its lines joined by newlines, each stripped)."""

    children: Inlines


@dataclass(frozen=True)
class ListBlock:
    """A bullet list (``start`` None) or a numbered list starting at ``start``."""

    items: tuple[Inlines, ...]
    start: int | None


@dataclass(frozen=True)
class Table:
    """A table with a header row; short rows are padded with empty cells."""

    header: tuple[Inlines, ...]
    rows: tuple[tuple[Inlines, ...], ...]


Block = Paragraph | ListBlock | Table

# -- inline rules ---------------------------------------------------------------------------

# Math, code and escapes are read first: no Markdown inside them. Then clozes, then strong
# and emphasis, which need text against their stars (``x_1 * y_2`` has none) and emphasis
# no word or star beside them (``a*b*c`` is text), as CommonMark reads them.
_ATOM = re.compile(
    r"\\\((?P<inline>.*?)\\\)|\\\[(?P<display>.*?)\\\]|`(?P<code>[^`\n]+)`"
    r"|\\(?P<escaped>[!-/:-@\[-`{-~])|(?P<mark>[\x00-\x02])",  # a mark typed in text is text
    re.S,
)
CLOZE = re.compile(r"\{\{c(\d+)::(.*?)(?:::(.*?))?\}\}", re.S)
"""A cloze as Anki reads it (number, answer, hint), the one cloze rule: the parser applies it
with math and code set apart; the loader's check and the card rules to the raw text, as Anki."""
STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*", re.S)
"""``**strong**``: its text is group 1 (read before emphasis, so it may hold emphasis)."""
EMPHASIS = re.compile(r"(?<![*\w])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![*\w])", re.S)
"""``*emphasis*``: its text is group 1."""
# Stand-ins while the rules run: an atom (math, code, an escape, a cloze), a strong and an
# emphasis span. None is a word character, a space or a star, as the markup they stand for
# is not; \x00 to \x02 cannot occur in YAML text, and elsewhere are read as text atoms.
_ATOM_MARK, _STRONG_MARK, _EM_MARK = "\x00", "\x01", "\x02"
LINK = re.compile(r"\[(?P<label>[^\[\]\n]+)\]\((?P<url>https?://[^\s()<>\"\\]+)\)")
"""``[text](url)`` with an http or https address, read after math, code and escapes."""
_WRAPPERS = re.compile(f"{CLOZE.pattern}|{LINK.pattern}", re.S)
_MARKS = re.compile("([\x00-\x02])")


def _math(latex: str, display: bool) -> Math:
    body: list[str | MathCloze] = []
    last = 0
    for match in CLOZE.finditer(latex):
        body += [latex[last : match.start()], MathCloze(int(match.group(1)), match.group(2))]
        last = match.end()
    body.append(latex[last:])
    return Math(latex, display, tuple(part for part in body if part != ""))


def _spans(text: str, take: Iterator[Inline]) -> Inlines:
    """``text`` (atoms marked) with strong, then emphasis, read; atoms taken in order."""
    strongs: list[str] = []
    ems: list[str] = []

    def strong(match: re.Match[str]) -> str:
        strongs.append(match.group(1))
        return _STRONG_MARK

    def em(match: re.Match[str]) -> str:
        ems.append(match.group(1))
        return _EM_MARK

    marked = EMPHASIS.sub(em, STRONG.sub(strong, text))
    next_strong, next_em = iter(strongs), iter(ems)

    def build(piece: str) -> list[Inline]:
        out: list[Inline] = []
        for part in _MARKS.split(piece):
            if part == _ATOM_MARK:
                node = next(take)
                if isinstance(node, Text) and out and isinstance(out[-1], Text):
                    node = Text(out[-1].text + node.text)
                    out.pop()
                out.append(node)
            elif part == _STRONG_MARK:
                out.append(Strong(_spans(next(next_strong), take)))
            elif part == _EM_MARK:
                out.append(Emphasis(tuple(build(next(next_em)))))
            elif part and out and isinstance(out[-1], Text):
                out[-1] = Text(out[-1].text + part)
            elif part:
                out.append(Text(part))
        return out

    return tuple(build(marked))


_PLAIN = re.compile(r"[^\\`*{\[\x00-\x02]*")
"""Text with no character that starts markup: most fields, read at once."""


@functools.lru_cache(maxsize=8192)
def _inlines(text: str) -> Inlines:
    if _PLAIN.fullmatch(text):
        return (Text(text),) if text else ()
    atoms: list[Inline] = []
    sources: list[str] = []

    def atom(match: re.Match[str]) -> str:
        kind = match.lastgroup
        value = match.group(kind or 0)
        if kind == "code":
            atoms.append(Code(value))
        elif kind in ("escaped", "mark"):
            atoms.append(Text(value))
        else:
            atoms.append(_math(value, kind == "display"))
        sources.append(match.group(0))
        return _ATOM_MARK

    marked = _ATOM.sub(atom, text)
    if _WRAPPERS.search(marked) is None:
        return _spans(marked, iter(atoms))
    # A cloze or a link stands for one atom, its answer or text read as inline text with the
    # atoms it holds.
    taken = iter(zip(atoms, sources, strict=True))
    outer: list[Inline] = []
    pieces: list[str] = []
    last = 0
    for match in _WRAPPERS.finditer(marked):
        before = marked[last : match.start()]
        outer += [next(taken)[0] for _ in range(before.count(_ATOM_MARK))]
        answer, hint = match.group(2) or match.group("label"), match.group(3)
        inside = [next(taken)[0] for _ in range(answer.count(_ATOM_MARK))]
        if hint is not None:
            hint = re.sub(_ATOM_MARK, lambda _: next(taken)[1], hint)
        children = _spans(answer, iter(inside))
        url = match.group("url")
        outer.append(Cloze(int(match.group(1)), children, hint) if url is None else Link(url, children))
        pieces += [before, _ATOM_MARK]
        last = match.end()
    outer += [atom for atom, _ in taken]
    return _spans("".join(pieces) + marked[last:], iter(outer))


# -- blocks ---------------------------------------------------------------------------------

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
    rows = tuple(
        tuple(_inlines(cell) for cell in (_cells(line) + [""] * width)[:width])
        for line in lines[2:]
        if line.strip()
    )
    return Table(tuple(_inlines(cell) for cell in header), rows)


def _chunk(chunk: str) -> list[Block]:
    lines = chunk.splitlines()
    if len(lines) >= 2 and lines[0].lstrip().startswith("|") and _TABLE_RULE.match(lines[1].strip()):
        return [_table(lines)]
    out: list[Block] = []
    text: list[str] = []
    items: list[str] = []
    start: int | None = None

    def end_list() -> None:
        out.append(ListBlock(tuple(_inlines(item) for item in items), start))
        items.clear()

    for line in lines:
        item = None if items and line.startswith("  ") else _LIST_ITEM.fullmatch(line.strip())
        if item:
            if text:
                out.append(Paragraph(_inlines("\n".join(text))))
                text = []
            if not items:
                start = int(item.group("number")) if item.group("number") else None
            items.append(item.group("text"))
        elif items and line.startswith(" "):
            items[-1] += " " + line.strip()
        else:
            if items:
                end_list()
            text.append(line.strip())
    if items:
        end_list()
    if text:
        out.append(Paragraph(_inlines("\n".join(text))))
    return out


def _parse(source: str) -> tuple[Block, ...]:
    chunks = [c for c in re.split(r"\n\s*\n", source.strip()) if c.strip()]
    return tuple(block for chunk in chunks for block in _chunk(chunk))


# -- parsed once ----------------------------------------------------------------------------


class Source(str):
    """Content text as written, carrying its tree: the loader makes one per Markdown field.

    A ``str`` (equal, hashing and printing as the text), so ids, GUIDs and every consumer of
    text see the same string. Its blocks are read when it is made; read as one paragraph
    (``inlines``), a text of one paragraph is that paragraph's tree, any other is read once,
    on first use.
    """

    blocks: tuple[Block, ...]
    """The blocks of the text."""

    def __new__(cls, value: str) -> Source:
        self = super().__new__(cls, value)
        self.blocks = _parse(value)
        return self

    @functools.cached_property
    def inlines(self) -> Inlines:
        """The text read as one paragraph, stripped."""
        text = self.strip()
        only = self.blocks[0] if len(self.blocks) == 1 else None
        if isinstance(only, Paragraph) and "\n".join(line.strip() for line in text.splitlines()) == text:
            return only.children
        return _inlines(text)

    @functools.cached_property
    def inlines_as_written(self) -> Inlines:
        """The text read as one paragraph, its surrounding spaces kept (for plain text)."""
        return _inlines(self)


_parse_cached = functools.lru_cache(maxsize=8192)(_parse)


def parse(source: str) -> tuple[Block, ...]:
    """The blocks of ``source``, in order (read once per ``Source``, cached for other text)."""
    return source.blocks if isinstance(source, Source) else _parse_cached(source)


def inlines(source: str | Inlines, strip: bool = True) -> Inlines:
    """``source`` read as one paragraph (stripped unless asked not to); a tree as it is."""
    if isinstance(source, tuple):
        return source
    if isinstance(source, Source):
        return source.inlines if strip or source.strip() == source else source.inlines_as_written
    return _inlines(source.strip() if strip else source)


# -- readers of the tree --------------------------------------------------------------------


def walk(nodes: Inlines) -> Iterator[Inline]:
    """Every inline node, depth first (a cloze's answer after the cloze)."""
    for node in nodes:
        yield node
        if isinstance(node, (Strong, Emphasis, Cloze, Link)):
            yield from walk(node.children)


def block_inlines(blocks: tuple[Block, ...]) -> Iterator[Inlines]:
    """The inline text of every paragraph, list item and table cell."""
    for block in blocks:
        if isinstance(block, Paragraph):
            yield block.children
        elif isinstance(block, ListBlock):
            yield from block.items
        else:
            yield from block.header
            for row in block.rows:
                yield from row


def cloze_numbers(source: str) -> list[int]:
    """The numbers of the clozes of ``source`` (in text and in math), in order of appearance."""
    out: list[int] = []
    for node in walk(inlines(source)):
        if isinstance(node, Cloze):
            out.append(node.number)
        elif isinstance(node, Math):
            out += [cloze.number for cloze in node.clozes]
    return out


class Renderer:
    """Writes the tree: one method per node type (markdown-it-py's ``renderer.rules``).

    A renderer writes ``text``, ``code``, ``strong``, ``emphasis``, ``math``, ``cloze`` and ``link``;
    one that writes blocks, ``paragraph``, ``bullets`` (a list) and ``table`` too, joined by
    ``between``. Every output (Anki and site HTML, Typst, plain text, Markdown) is one.
    """

    between = ""
    """What separates blocks."""

    def inline(self, nodes: Inlines) -> str:
        return "".join(self.node(node) for node in nodes)

    def node(self, node: Inline) -> str:
        """One inline node, by the method for its type."""
        return str(getattr(self, _INLINE_RULES[type(node)])(node))

    def blocks(self, blocks: tuple[Block, ...]) -> str:
        return self.between.join(getattr(self, _BLOCK_RULES[type(block)])(block) for block in blocks)

    def text(self, node: Text) -> str:
        raise NotImplementedError

    def code(self, node: Code) -> str:
        raise NotImplementedError

    def strong(self, node: Strong) -> str:
        raise NotImplementedError

    def emphasis(self, node: Emphasis) -> str:
        raise NotImplementedError

    def math(self, node: Math) -> str:
        raise NotImplementedError

    def cloze(self, node: Cloze) -> str:
        raise NotImplementedError

    def link(self, node: Link) -> str:
        raise NotImplementedError

    def paragraph(self, block: Paragraph) -> str:
        raise NotImplementedError

    def bullets(self, block: ListBlock) -> str:
        raise NotImplementedError

    def table(self, block: Table) -> str:
        raise NotImplementedError


_INLINE_RULES = {
    Text: "text",
    Code: "code",
    Strong: "strong",
    Emphasis: "emphasis",
    Math: "math",
    Cloze: "cloze",
    Link: "link",
}
_BLOCK_RULES = {Paragraph: "paragraph", ListBlock: "bullets", Table: "table"}


class PlainRenderer(Renderer):
    """The text without its markup: emphasis, code and links as their text, clozes as written
    (``{{c1::…}}``), math as ``write_math`` writes it: its LaTeX by default (``plain``), in
    Unicode from its tree for people (``prose``), as words or a space for the finders of
    numbers and words (grounding, card rules)."""

    def __init__(self, write_math: Callable[[Math], str] = lambda node: node.latex, urls: bool = False):
        self.write_math = write_math
        self.urls = urls
        """Whether a link's address follows its text, in parentheses."""

    def text(self, node: Text) -> str:
        return node.text

    def code(self, node: Code) -> str:
        return node.text

    def strong(self, node: Strong) -> str:
        return self.inline(node.children)

    def emphasis(self, node: Emphasis) -> str:
        return self.inline(node.children)

    def math(self, node: Math) -> str:
        return self.write_math(node)

    def cloze(self, node: Cloze) -> str:
        hint = "" if node.hint is None else "::" + node.hint
        return f"{{{{c{node.number}::{self.inline(node.children)}{hint}}}}}"

    def link(self, node: Link) -> str:
        return f"{self.inline(node.children)} ({node.url})" if self.urls else self.inline(node.children)


_WITHOUT_MARKUP = PlainRenderer()


def plain(source: str | Inlines) -> str:
    """The text without its markup, math as its LaTeX (``PlainRenderer``)."""
    return _WITHOUT_MARKUP.inline(inlines(source))


_PROSE = PlainRenderer(lambda math: " ".join(tree_box(math.tree, compact=True).lines), urls=True)
"""Code taken as written, math written from its tree in Unicode, emphasis dropped, as on
the cards (``x_1 * y_2`` keeps its star), a link's address after its text."""


_NO_MATH = PlainRenderer(lambda _math: " ")


def outside_math(source: str | Inlines) -> str:
    """The text without its markup and each formula a space: the words around the math."""
    return _NO_MATH.inline(inlines(source, strip=False))


def prose(source: str | Inlines) -> str:
    """The text (or its tree) as plain text for people: math in Unicode (``\\sqrt{d_k}`` is
    ``√d_k``), matrices on one line, the author's spaces and line breaks kept."""
    return _PROSE.inline(inlines(source, strip=False))


def math(source: str | Inlines) -> Iterator[Math]:
    """Every math node of ``source`` (a text or one paragraph's tree), in order."""
    paragraphs = (source,) if isinstance(source, tuple) else block_inlines(parse(source))
    for paragraph in paragraphs:
        yield from (node for node in walk(paragraph) if isinstance(node, Math))


def problems(source: str) -> list[str]:
    """What in ``source`` no exporter can render: unbalanced math, math outside the LaTeX
    subset (each formula of the tree read by the parser, which keeps that read for
    ``Math.tree``), a numbered list that starts too high."""
    found = delimiter_problems(source)
    if not found:
        for node in math(source):
            found += latex_problems(node.latex)
    if _BIG_NUMBER_ITEM.search(source):  # the common case: no need to read the blocks
        found += [
            f"a numbered list starts at {block.start}; start it at {MAX_LIST_START:,} or lower"
            for block in parse(source)
            if isinstance(block, ListBlock) and block.start is not None and block.start > MAX_LIST_START
        ]
    return found
