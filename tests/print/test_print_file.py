"""The print file's writer: each page as its source draws it, in a file qpdf and PDFium
read without complaint."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pikepdf
import pytest

from generator.exporters.pdf_objects import UnexpectedPdf
from generator.exporters.print_file import concatenate
from generator.exporters.typst.compile import compile_pdf, preamble

from ..pdf_text import pages_pixels


def _typeset(folder: Path, name: str, body: str, paper: str = "a4") -> Path:
    path = folder / name
    path.write_bytes(compile_pdf(preamble(paper, name, "[]") + body, 0))
    return path


def _inheriting(folder: Path) -> Path:
    """A page whose size, font and resources are all its page tree's, as PDF allows."""
    pdf = pikepdf.new()
    font = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                BaseFont=pikepdf.Name.Helvetica))
    pdf.Root.Pages.MediaBox = pikepdf.Array([0, 0, 300, 200])
    pdf.Root.Pages.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))
    contents = pdf.make_stream(b"BT /F1 24 Tf 20 100 Td (Inherited) Tj ET 0 0 1 rg 20 20 50 30 re f")
    page = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Page, Contents=contents,
                                                Parent=pdf.Root.Pages))
    pdf.Root.Pages.Kids.append(page)
    pdf.Root.Pages.Count = 1
    path = folder / "inheriting.pdf"
    pdf.save(path)
    return path


def test_every_page_is_drawn_as_in_its_source(tmp_path):
    forms = [_typeset(tmp_path, "a.pdf", r"Form A, $sqrt(d_k)$ #pagebreak() page two"),
             _typeset(tmp_path, "b.pdf", "Form B on Letter", "letter"),
             _typeset(tmp_path, "c.pdf", "Form C")]
    pages = concatenate([path.read_bytes() for path in forms], tmp_path / "print.pdf")
    printed = pages_pixels(tmp_path / "print.pdf")
    a, b, c = (pages_pixels(path) for path in forms)
    blank = printed[3]
    assert pages == len(printed) == 6  # A's 2 pages, B's and a blank, C's and a blank
    assert all(np.array_equal(x, y) for x, y in zip(printed, [*a, *b, blank, *c], strict=False))
    assert (blank == 255).all() and blank.shape == b[0].shape
    assert printed[5].shape == c[0].shape and (printed[5] == 255).all()
    with pikepdf.open(tmp_path / "print.pdf") as written:
        assert written.check_pdf_syntax() == []
        assert [float(p.mediabox[2]) for p in written.pages][2:4] == [612, 612]


def test_a_page_that_inherits_from_its_page_tree_is_refused(tmp_path):
    """Typst puts each page's size and resources on the page; the print file leaves the
    sources' page trees out, so a page that relies on its tree would lose them."""
    with pytest.raises(UnexpectedPdf, match="inherits its size or resources"):
        concatenate([_inheriting(tmp_path).read_bytes()], tmp_path / "print.pdf")


def test_text_that_looks_like_a_reference_stays_text(tmp_path):
    """A string in a copied object (a link's address, a note) is never renumbered."""
    pdf = pikepdf.new()
    pdf.add_blank_page()
    note = "see 3 0 R (and 12 0 R \\ 7 0 R)) ( 8 0 R"  # unbalanced too: qpdf escapes each parenthesis
    address = pikepdf.Dictionary(S=pikepdf.Name.URI, URI=pikepdf.String("https://x.org/4 0 R"))
    link = pikepdf.Dictionary(Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Link, Rect=[0, 0, 10, 10],
                              Contents=pikepdf.String(note), A=address)
    pdf.pages[0].Annots = pdf.make_indirect(pikepdf.Array([pdf.make_indirect(link)]))
    pdf.save(tmp_path / "linked.pdf")
    linked = (tmp_path / "linked.pdf").read_bytes()
    concatenate([linked, linked], tmp_path / "print.pdf", odd_pages=False)
    with pikepdf.open(tmp_path / "print.pdf") as written:
        annotations = [page.Annots[0] for page in written.pages]
        assert [str(a.Contents) for a in annotations] == [note, note]
        assert [str(a.A.URI) for a in annotations] == ["https://x.org/4 0 R"] * 2
        assert annotations[0].objgen != annotations[1].objgen  # each document's own objects


def test_the_same_documents_give_the_same_bytes_and_others_another_id(tmp_path):
    one = _typeset(tmp_path, "one.pdf", "One page")
    two = _typeset(tmp_path, "two.pdf", "Another page")
    one, two = one.read_bytes(), two.read_bytes()
    concatenate([one, two], tmp_path / "a.pdf")
    concatenate([one, two], tmp_path / "b.pdf")
    concatenate([two, one], tmp_path / "c.pdf")
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()
    ids = [pikepdf.open(tmp_path / f"{name}.pdf").trailer.ID[0] for name in "ac"]
    assert ids[0] != ids[1]
