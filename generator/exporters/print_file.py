"""One PDF for the printer: documents concatenated, each starting on an odd page.

A duplex printer prints page 1 of each document on the front of a fresh sheet only
when every document before it has an even number of pages, so a document that ends
on an odd page is followed by one blank page of its last page's size. The pages
are copied as they are, never typeset again: the print file holds exactly the
pages of the forms (and answer sheets) handed out.

The file is written as the documents come (``documents`` may be a generator: the quiz
export hands over forms as they are written), and each is let go once its pages are
in: memory stays flat however many forms there are. ``pdf_objects`` reads each
document (PDFs paperdeck wrote: Typst's, and the answer sheets' updates of them); its
pages and every object they reach (not its page tree, outline or structure tree) are
written renumbered, streams as they are (still compressed), then the page tree, the
catalog and the cross-reference table. A page must carry its own size and resources,
as Typst's do: a page that inherits them from its page tree is refused. Reading with
pikepdf (qpdf) instead took 3.1 ms per document against 1.7 (a form) and 2.0 (a sheet);
qpdf's own page copying kept every source open until it wrote the file, about 0.38 MB
per document.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

from .pdf_objects import Document, UnexpectedPdf, has, reference, renumbered, value

_HEADER = b"%PDF-1.7\n%\xbf\xf7\xa2\xfe\n"
_PAGES = 1
"""The page tree's object number: every page's parent."""


class _Writer:
    """Objects written to ``file`` as they come (a document's at once), each numbered when
    it is first referred to; ``finish`` writes the page tree, catalog, cross-reference table
    and trailer."""

    def __init__(self, file: BinaryIO) -> None:
        self.file = file
        self.offsets = [0]  # of object n at n - 1; the page tree's is known last
        self.position = 0
        self.digest = hashlib.md5(usedforsecurity=False)
        self.kids: list[int] = []
        self.version = "1.7"
        self._waiting: list[bytes] = []
        self._write(_HEADER)

    def _write(self, data: bytes) -> None:
        self._waiting.append(data)
        self.position += len(data)

    def _flush(self) -> None:
        data = b"".join(self._waiting)
        self.file.write(data)
        self.digest.update(data)
        self._waiting = []

    def _number(self) -> int:
        self.offsets.append(0)
        return len(self.offsets)

    def _object(self, number: int, body: bytes, stream: bytes | None = None) -> None:
        self.offsets[number - 1] = self.position
        data = b"%d 0 obj\n%s\n" % (number, body)
        if stream is not None:
            data += b"stream\n" + stream + b"\nendstream\n"
        self._write(data + b"endobj\n")

    def copy_pages(self, source: Document) -> None:
        """Every page of ``source``, in order, and the objects they reach."""
        numbers: dict[int, int] = {}
        waiting: list[int] = []

        def number(objgen: tuple[int, int]) -> int:
            found = numbers.get(objgen[0])
            if found is None:
                found = numbers[objgen[0]] = self._number()
                waiting.append(objgen[0])
            return found

        for page in source.pages():
            body = source.body(page)
            if not (has(body, b"/MediaBox") and has(body, b"/Resources")):
                raise UnexpectedPdf(f"page {page} inherits its size or resources from its page tree")
            numbers[reference(body, b"/Parent")] = _PAGES  # the source's page tree becomes this file's
            self.kids.append(number((page, 0)))
        while waiting:
            found = waiting.pop()
            body, stream = source.object(found)
            self._object(numbers[found], renumbered(body, number), stream)
        self._flush()
        self.version = max(self.version, source.version, key=lambda v: tuple(map(int, v.split("."))))

    def blank_page(self, media_box: bytes) -> None:
        """An empty page of ``media_box``."""
        number = self._number()
        self._object(number, b"<< /Type /Page /Parent %d 0 R /MediaBox %s /Resources << >> >>"
                     % (_PAGES, media_box))
        self.kids.append(number)

    def finish(self) -> None:
        self.offsets[_PAGES - 1] = self.position
        kids = b" ".join(b"%d 0 R" % kid for kid in self.kids)
        self._write(b"%d 0 obj\n<< /Type /Pages /Count %d /Kids [ %s ] >>\nendobj\n"
                    % (_PAGES, len(self.kids), kids))
        root = self._number()
        version = b"" if self.version == "1.7" else b" /Version /" + self.version.encode()
        self._object(root, b"<< /Type /Catalog /Pages %d 0 R%s >>" % (_PAGES, version))
        xref = self.position
        self._flush()
        identity = self.digest.hexdigest().encode()  # the same pages, the same ID
        self._write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(self.offsets) + 1)
                    + b"".join(b"%010d 00000 n \n" % offset for offset in self.offsets)
                    + b"trailer\n<< /Size %d /Root %d 0 R /ID [ <%s> <%s> ] >>\nstartxref\n%d\n%%%%EOF\n"
                    % (len(self.offsets) + 1, root, identity, identity, xref))
        self._flush()


def concatenate(documents: Iterable[bytes], target: Path, odd_pages: bool = True) -> int:
    """Write ``documents`` (each a PDF's bytes) into ``target`` one after another, each from an
    odd page (``odd_pages`` False: page after page); the page count.

    The same documents always give the same bytes (the file ID is a digest of them, no date).
    """
    with open(target, "wb") as file:
        writer = _Writer(file)
        for document in documents:
            source = Document(document)
            writer.copy_pages(source)
            pages = source.pages()
            if odd_pages and len(pages) % 2:
                writer.blank_page(value(source.body(pages[-1]), b"/MediaBox"))
        writer.finish()
    return len(writer.kids)
