"""One PDF for the printer: documents concatenated, each starting on an odd page.

A duplex printer prints page 1 of each document on the front of a fresh sheet only
when every document before it has an even number of pages, so a document that ends
on an odd page is followed by one blank page of its last page's size. The pages
are copied as they are (pypdf), never typeset again: the print file holds exactly
the pages of the forms (and answer sheets) handed out.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pypdf


def concatenate(documents: Iterable[Path], target: Path) -> int:
    """Write ``documents`` into ``target`` one after another, each from an odd page; the page count."""
    writer = pypdf.PdfWriter()
    for document in documents:
        reader = pypdf.PdfReader(document)
        writer.append(reader, import_outline=False)
        if len(reader.pages) % 2:
            last = reader.pages[-1].mediabox
            writer.add_blank_page(width=last.width, height=last.height)
    with open(target, "wb") as out:
        writer.write(out)
    return len(writer.pages)
