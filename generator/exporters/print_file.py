"""One PDF for the printer: documents concatenated, each starting on an odd page.

A duplex printer prints page 1 of each document on the front of a fresh sheet only
when every document before it has an even number of pages, so a document that ends
on an odd page is followed by one blank page of its last page's size. The pages
are copied as they are, never typeset again: the print file holds exactly the
pages of the forms (and answer sheets) handed out.

pikepdf (qpdf) copies the pages: 100 forms in 0.65 s where pypdf took 7.95 s, in
the same run. qpdf reads each document's streams only when it writes the print
file, so every source stays open until then. ``documents`` may be a generator: each
document is copied as it comes (the quiz export hands over forms as they are written).
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import ExitStack
from pathlib import Path

import pikepdf


def concatenate(documents: Iterable[Path], target: Path, odd_pages: bool = True) -> int:
    """Write ``documents`` into ``target`` one after another, each from an odd page (``odd_pages``
    False: page after page); the page count.

    The same documents always give the same bytes (a deterministic file ID, no date).
    """
    with ExitStack() as stack:
        out = stack.enter_context(pikepdf.new())
        for document in documents:
            source = stack.enter_context(pikepdf.open(document))
            out.pages.extend(source.pages)
            if odd_pages and len(source.pages) % 2:
                box = [float(x) for x in source.pages[-1].mediabox]
                out.add_blank_page(page_size=(box[2] - box[0], box[3] - box[1]))
        out.save(target, deterministic_id=True)
        return len(out.pages)
