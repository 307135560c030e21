"""An incremental update of a PDF Typst has just written: its objects read, new ones added
and some replaced, in a section appended after its bytes (PDF 1.7, 7.5.6).

The answer sheets draw their bubbles and marks this way (``sheet_ink``): re-reading the
whole document and writing it out again with pikepdf took 5.5 ms of a sheet's 7.6 ms
of Python.

It reads only what Typst writes: a cross-reference table (not a stream), objects
written out plainly (none in object streams), a stream's ``/Length`` given directly,
a flat page tree, page resources as an object of their own. Anything else is
refused with an error naming what differs, never guessed at: the PDFs read here are
ones this process made a moment before, never a user's file.
"""

from __future__ import annotations

import re
from collections.abc import Callable

TOKEN = re.compile(rb"\((?:\\.|[^\\()])*\)|<[0-9A-Fa-f\s]*>|(?<![\w.#/+-])(\d+) (\d+) R(?!\w)", re.S)
"""In a PDF object: a literal string, a hex string or a reference (its number and generation).
Strings are matched only so that text in them is never read as a reference."""
_ROW = re.compile(rb"(\d{10}) (\d{5}) ([nf])")
_STREAM = re.compile(rb"\s*stream\r?\n")
_LENGTH = re.compile(rb"/Length\s+\d+(?!\s+\d+\s+R)")


class UnexpectedPdf(RuntimeError):
    """A PDF not laid out as Typst writes them (a bug or a changed Typst, never a user's mistake)."""


def renumbered(body: bytes, number: Callable[[tuple[int, int]], int]) -> bytes:
    """``body`` with each reference ``n g R`` turned into ``number((n, g)) 0 R``."""
    if b" R" not in body:
        return body
    return TOKEN.sub(lambda m: m[0] if m[1] is None else b"%d 0 R" % number((int(m[1]), int(m[2]))), body)


def references(body: bytes) -> list[int]:
    """The numbers of the objects ``body`` refers to."""
    return [int(m[1]) for m in TOKEN.finditer(body) if m[1] is not None]


_VALUE = rb"(?![\w#])\s*(\[[^\]]*\]|\d+ \d+ R|/?[^/\[\]<>()\s]+)"
"""After a key: its value, if simple (a name, number, reference or array of them)."""


def _value(body: bytes, key: bytes) -> re.Match[bytes]:
    found = re.search(re.escape(key) + _VALUE, body)
    if found is None:
        raise UnexpectedPdf(f"no {key.decode()} in {body[:80]!r}")
    return found


def value(body: bytes, key: bytes) -> bytes:
    """The value of ``key`` (``b"/Contents"``) in a dictionary whose values are simple, as in
    Typst's pages: its bytes."""
    return _value(body, key)[1]


def with_value(body: bytes, key: bytes, new: bytes) -> bytes:
    """``body`` with ``new`` the value of ``key``."""
    found = _value(body, key)
    return body[:found.start(1)] + new + body[found.end(1):]


def reference(body: bytes, key: bytes) -> int:
    """The object number ``key`` refers to (it must be a reference)."""
    found = re.fullmatch(rb"(\d+) 0 R", value(body, key))
    if found is None:
        raise UnexpectedPdf(f"{key.decode()} is not a reference in {body[:80]!r}")
    return int(found[1])


class Document:
    """A PDF's objects by number: each one's dictionary (or other value) and stream."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        tail = data.rfind(b"startxref")
        self.xref = int(data[tail + 9:].split()[0]) if tail >= 0 else -1
        if not data.startswith(b"xref", self.xref):
            raise UnexpectedPdf("no cross-reference table where startxref points")
        trailer = data.find(b"trailer", self.xref)
        self.trailer = data[data.index(b"<<", trailer):data.rindex(b">>", trailer, tail) + 2]
        if b"/Prev" in self.trailer or b"/XRefStm" in self.trailer:
            raise UnexpectedPdf("the PDF was updated before: it has more than one cross-reference section")
        self.offsets: dict[int, int] = {}
        lines = iter(data[self.xref + 4:trailer].split(b"\n"))
        for line in lines:
            head = line.split()
            if len(head) != 2:
                continue  # a row of the table, or a blank line
            first, count = map(int, head)
            rows = _ROW.findall(b"\n".join(next(lines) for _ in range(count)))
            self.offsets.update((first + i, int(offset)) for i, (offset, _, kind) in enumerate(rows)
                                if kind == b"n")
        self.size = int(value(self.trailer, b"/Size"))
        ends = sorted([*self.offsets.values(), self.xref])
        self._ends = dict(zip(ends, ends[1:], strict=False))  # where each object's bytes end

    def object(self, number: int) -> tuple[bytes, bytes | None]:
        """Object ``number``: a stream's dictionary and data as stored (still compressed), or
        any other value and None."""
        start = self.offsets[number]
        header = re.compile(rb"%d 0 obj\s*" % number).match(self.data, start)
        if header is None:
            raise UnexpectedPdf(f"object {number} is not where the table says")
        text = self.data[header.end():self._ends[start]].rstrip()
        if not text.endswith(b"endobj"):
            raise UnexpectedPdf(f"object {number} does not end with endobj")
        text = text[:-6].rstrip()
        if not text.endswith(b"endstream"):
            return text, None
        opening = _STREAM.search(text)
        if opening is None or not text.startswith(b"<<"):
            raise UnexpectedPdf(f"object {number} is not a stream as Typst writes them")
        head = text[:opening.start()]
        length = value(head, b"/Length")
        if not length.isdigit():
            raise UnexpectedPdf(f"the length of stream {number} is not given directly")
        return head, text[opening.end():opening.end() + int(length)]

    def body(self, number: int) -> bytes:
        """Object ``number``: a stream's dictionary, or the whole of any other value."""
        return self.object(number)[0]

    def stream(self, number: int) -> tuple[bytes, bytes]:
        """Stream ``number``: its dictionary and its data as stored (still compressed)."""
        head, data = self.object(number)
        if data is None:
            raise UnexpectedPdf(f"object {number} is not a stream")
        return head, data

    def pages(self) -> list[int]:
        """The page objects' numbers, in order."""
        tree = self.body(reference(self.body(reference(self.trailer, b"/Root")), b"/Pages"))
        kids = [int(n) for n in re.findall(rb"(\d+) 0 R", value(tree, b"/Kids"))]
        if int(value(tree, b"/Count")) != len(kids):
            raise UnexpectedPdf("the page tree is not flat")
        return kids


class Update:
    """New and replaced objects for ``document``; ``pdf`` is the document with them appended."""

    def __init__(self, document: Document) -> None:
        self.document = document
        self.size = document.size
        self.objects: dict[int, bytes] = {}

    def add(self, body: bytes, stream: bytes | None = None) -> int:
        """A new object (``stream``: its data, ``body`` then the stream's dictionary, whose
        ``/Length`` is set here); its number."""
        self.size += 1
        self.replace(self.size - 1, body, stream)
        return self.size - 1

    def replace(self, number: int, body: bytes, stream: bytes | None = None) -> None:
        """Object ``number`` from now on."""
        if stream is not None:
            head = _LENGTH.sub(b"", body)[:-2]
            body = b"%s/Length %d>>\nstream\n%s\nendstream" % (head, len(stream), stream)
        self.objects[number] = body

    def pdf(self) -> bytes:
        """The document and, after it, the update: these objects, their table and a trailer."""
        old = self.document
        out = [old.data if old.data.endswith(b"\n") else old.data + b"\n"]
        position = len(out[0])
        rows: list[tuple[int, int]] = []
        for number in sorted(self.objects):
            chunk = b"%d 0 obj\n%s\nendobj\n" % (number, self.objects[number])
            rows.append((number, position))
            out.append(chunk)
            position += len(chunk)
        table = [b"xref\n"]
        start = 0
        while start < len(rows):  # a subsection per run of consecutive numbers
            end = start + 1
            while end < len(rows) and rows[end][0] == rows[end - 1][0] + 1:
                end += 1
            table.append(b"%d %d\n" % (rows[start][0], end - start))
            table += [b"%010d 00000 n \n" % offset for _, offset in rows[start:end]]
            start = end
        rest = re.sub(rb"/Size\s+\d+", b"", old.trailer)
        table.append(b"trailer\n<</Size %d/Prev %d%s\nstartxref\n%d\n%%%%EOF\n"
                     % (self.size, old.xref, rest[2:], position))
        return b"".join(out + table)
