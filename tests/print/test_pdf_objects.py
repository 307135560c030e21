"""An update appended to a PDF Typst wrote: qpdf and PDFium read the result, the original
bytes stay as they were, and a PDF not laid out as Typst writes them is refused."""

from __future__ import annotations

import io
import zlib

import numpy as np
import pikepdf
import pytest

from generator.exporters import pdf_objects
from generator.exporters.typst.compile import compile_pdf, preamble

from ..pdf_text import pages_pixels


def _typst(body: str) -> bytes:
    return compile_pdf(preamble("a4", "T", "[]") + body, 0, tags=False)


def test_a_page_drawn_over_in_an_update_shows_both_and_the_original_bytes_stay():
    original = _typst("Page one #pagebreak() Page two")
    document = pdf_objects.Document(original)
    pages = document.pages()
    update = pdf_objects.Update(document)
    square = update.add(b"<</Filter/FlateDecode>>", zlib.compress(b"0 g 100 100 200 200 re f"))
    second = document.body(pages[1])
    contents = b"[%s %d 0 R]" % (pdf_objects.value(second, b"/Contents"), square)
    update.replace(pages[1], pdf_objects.with_value(second, b"/Contents", contents))
    updated = update.pdf()

    assert updated.startswith(original)
    with pikepdf.open(io.BytesIO(updated)) as pdf:
        assert pdf.check_pdf_syntax() == []
        assert len(pdf.pages) == 2
    before, after = pages_pixels(original), pages_pixels(updated)
    assert np.array_equal(before[0], after[0])
    drawn = before[1] != after[1]
    assert drawn.any() and (after[1][drawn] == 0).all()  # only the black square is new
    assert update.pdf() == updated


def test_a_stream_keeps_its_bytes_and_gets_its_own_length():
    update = pdf_objects.Update(pdf_objects.Document(_typst("Some text")))
    data = bytes(range(256)) + b"endstream endobj )"  # binary, and words a parser could trip on
    number = update.add(b"<</Length 3/Subtype/Whatever>>", data)
    with pikepdf.open(io.BytesIO(update.pdf())) as pdf:
        stream = pdf.get_object(number, 0)
        assert stream.read_raw_bytes() == data
        assert stream.Length == len(data) and stream.Subtype == "/Whatever"


def test_a_string_that_looks_like_a_reference_is_not_renumbered():
    body = b"<</A 3 0 R/T(see 4 0 R \\) 5 0 R)/B[6 0 R<00AF>]>>"
    assert pdf_objects.references(body) == [3, 6]
    renumbered = pdf_objects.renumbered(body, lambda objgen: objgen[0] + 10)
    assert renumbered == b"<</A 13 0 R/T(see 4 0 R \\) 5 0 R)/B[16 0 R<00AF>]>>"


def test_an_updated_pdf_reads_as_its_newest_objects_and_takes_another_update():
    first = pdf_objects.Document(_typst("Some text"))
    page = first.pages()[0]
    update = pdf_objects.Update(first)
    note = update.add(b"<</Note 1>>")
    update.replace(page, first.body(page).replace(b"/Type/Page", b"/Type/Page/PdNote %d 0 R" % note))
    second = pdf_objects.Document(update.pdf())
    assert second.body(note) == b"<</Note 1>>"
    assert pdf_objects.reference(second.body(page), b"/PdNote") == note
    again = pdf_objects.Update(second)
    again.replace(note, b"<</Note 2>>")
    third = again.pdf()
    assert pdf_objects.Document(third).body(note) == b"<</Note 2>>"
    with pikepdf.open(io.BytesIO(third)) as pdf:
        assert pdf.check_pdf_syntax() == []
        assert pdf.pages[0].PdNote.Note == 2


def test_a_pdf_not_laid_out_as_typst_writes_them_is_refused():
    with pikepdf.open(io.BytesIO(_typst("Some text"))) as pdf:
        packed = io.BytesIO()
        pdf.save(packed, object_stream_mode=pikepdf.ObjectStreamMode.generate)
    with pytest.raises(pdf_objects.UnexpectedPdf, match="cross-reference table"):
        pdf_objects.Document(packed.getvalue())
    with pytest.raises(pdf_objects.UnexpectedPdf, match="cross-reference table"):
        pdf_objects.Document(b"not a PDF at all")
    update = pdf_objects.Update(pdf_objects.Document(_typst("Some text")))
    length = update.add(b"7")
    data = update.add(b"<</Length %d 0 R>>\nstream\n1234567\nendstream" % length)
    document = pdf_objects.Document(update.pdf())
    with pytest.raises(pdf_objects.UnexpectedPdf, match="not given directly"):
        document.stream(data)
    with pytest.raises(pdf_objects.UnexpectedPdf, match="not in the PDF"):
        document.body(document.size + 5)
