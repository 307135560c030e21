"""The objects of a PDF paperdeck wrote, read from its bytes, and an incremental update
appended to it: new objects and replaced ones in a section after its bytes (PDF 1.7,
7.5.6).

The answer sheets draw their bubbles and marks as such an update of Typst's PDF
(``sheet_ink``): opening the whole document with pikepdf and saving it again took 5.5 ms
of a sheet's 7.6 ms of Python. The print file (``print_file``) copies the pages of
forms and sheets from what is read here.

It reads what Typst (and this module, and qpdf without object streams) write: each
cross-reference section a table (not a stream), every object written out plainly
(none in an object stream), generation 0, a stream's ``/Length`` given directly, a flat
page tree. Anything else is refused with ``UnexpectedPdf`` naming what differs, never
guessed at: the PDFs read here are ones paperdeck made, never a user's file.
"""

from __future__ import annotations

import re
from collections.abc import Callable

TOKEN = re.compile(rb"\((?:\\.|[^\\()])*\)|<[0-9A-Fa-f\s]*>|(?<![\w.#/+-])(\d+) (\d+) R(?!\w)", re.S)
"""In a PDF object: a literal string, a hex string or a reference (its number and generation).
Strings are matched only so that text in them is never read as a reference."""
_ROW = re.compile(rb"(\d{10}) (\d{5}) ([nf])")
_SUBSECTION = re.compile(rb"\s*(\d+) (\d+)[ \t]*\r?\n")
"""The head of a cross-reference subsection: its first object's number and count."""
_HEADER = re.compile(rb"(\d+) 0 obj\s*")
_STREAM = re.compile(rb">>\s*stream\r?\n")
"""A stream's dictionary ends, its data begins."""
_END_STREAM = re.compile(rb"\s*endstream\s+endobj")
_NEXT = re.compile(rb"\s*(?:\d+ 0 obj|xref|$)")
"""What follows an object's endobj: the next object, a cross-reference table or the end."""
_LENGTH = re.compile(rb"/Length\s+\d+(?!\d|\s+\d+\s+R)")
"""A stream's length given directly (not ``/Length 12 0 R``)."""


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


def has(body: bytes, key: bytes) -> bool:
    """Whether the dictionary ``body`` has ``key`` (at any depth: enough for a page's)."""
    return re.search(re.escape(key) + rb"(?![\w#])", body) is not None


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
        self.trailer = b""
        self._rows: list[tuple[int, int, int]] = []  # (first object, count, where the rows start)
        seen: set[int] = set()
        section: int | None = self.xref
        while section is not None:  # the last section first: its rows are the objects now
            if not data.startswith(b"xref", section) or section in seen:
                raise UnexpectedPdf("no cross-reference table where the trailer points")
            seen.add(section)
            at = data.find(b"trailer", section)
            trailer = data[data.index(b"<<", at):data.rindex(b">>", at, data.index(b"startxref", at)) + 2]
            if b"/XRefStm" in trailer:
                raise UnexpectedPdf("objects are in a cross-reference stream")
            head = _SUBSECTION.match(data, section + 4)
            while head:  # each subsection's head, then its rows
                self._rows.append((int(head[1]), int(head[2]), head.end()))
                head = _SUBSECTION.match(data, head.end() + 20 * int(head[2]))
            self.trailer = self.trailer or trailer
            previous = re.search(rb"/Prev\s+(\d+)", trailer)
            section = int(previous[1]) if previous else None
        self.size = int(value(self.trailer, b"/Size"))
        self.version = data[5:8].decode("ascii", "replace")
        """From the header: ``1.7``."""

    def _offset(self, number: int) -> int:
        """Where object ``number`` starts, from the newest section that lists it (each row
        is 20 bytes, as PDF requires, so it is read without reading the others)."""
        for first, count, rows in self._rows:
            if first <= number < first + count:
                row = _ROW.match(self.data, rows + 20 * (number - first))
                if row is None:
                    raise UnexpectedPdf(f"the cross-reference row of object {number} is not 20 bytes")
                if row[3] == b"f":
                    break
                if row[2] != b"00000":
                    raise UnexpectedPdf(f"object {number} has a generation other than 0")
                return int(row[1])
        raise UnexpectedPdf(f"object {number} is not in the PDF")

    def object(self, number: int) -> tuple[bytes, bytes | None]:
        """Object ``number``: a stream's dictionary and data as stored (still compressed), or
        any other value and None."""
        header = _HEADER.match(self.data, self._offset(number))
        if header is None or int(header[1]) != number:
            raise UnexpectedPdf(f"object {number} is not where the table says")
        end = self.data.find(b"endobj", header.end())
        if end < 0:
            raise UnexpectedPdf(f"object {number} does not end")
        opening = _STREAM.search(self.data, header.end(), end)
        if opening is None:
            if not _NEXT.match(self.data, end + 6):
                raise UnexpectedPdf(f"object {number} has endobj inside it")
            return self.data[header.end():end].rstrip(), None
        head = self.data[header.end():opening.start() + 2]
        length = value(head, b"/Length")
        if not length.isdigit():
            raise UnexpectedPdf(f"the length of stream {number} is not given directly")
        data_end = opening.end() + int(length)
        if not _END_STREAM.match(self.data, data_end):
            raise UnexpectedPdf(f"stream {number} does not end where its length says")
        return head, self.data[opening.end():data_end]

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
        if not self.objects:
            return old.data
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
        rest = re.sub(rb"/(?:Size|Prev)\s+\d+", b"", old.trailer)
        table.append(b"trailer\n<</Size %d/Prev %d%s\nstartxref\n%d\n%%%%EOF\n"
                     % (self.size, old.xref, rest[2:], position))
        return b"".join(out + table)
