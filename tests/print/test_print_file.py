"""The print file (``quiz_forms.print_file``, qpdf through pikepdf): each page as its source
draws it, in a file qpdf and PDFium read without complaint."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pikepdf

from generator.exporters.quiz_forms import print_file
from generator.exporters.typst.compile import compile_pdf, preamble

from ..pdf_text import pages_pixels


def _typeset(folder: Path, name: str, body: str, paper: str = "a4") -> Path:
    path = folder / name
    path.write_bytes(compile_pdf(preamble(paper, name, "[]") + body, 0))
    return path


def _inheriting(folder: Path) -> Path:
    """A page whose size, font and resources are all its page tree's, as PDF allows."""
    pdf = pikepdf.new()
    font = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica
        )
    )
    pdf.Root.Pages.MediaBox = pikepdf.Array([0, 0, 300, 200])
    pdf.Root.Pages.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))
    contents = pdf.make_stream(b"BT /F1 24 Tf 20 100 Td (Inherited) Tj ET 0 0 1 rg 20 20 50 30 re f")
    page = pdf.make_indirect(
        pikepdf.Dictionary(Type=pikepdf.Name.Page, Contents=contents, Parent=pdf.Root.Pages)
    )
    pdf.Root.Pages.Kids.append(page)
    pdf.Root.Pages.Count = 1
    path = folder / "inheriting.pdf"
    pdf.save(path)
    return path


def test_every_page_is_drawn_as_in_its_source(tmp_path):
    forms = [
        _typeset(tmp_path, "a.pdf", r"Form A, $sqrt(d_k)$ #pagebreak() page two"),
        _typeset(tmp_path, "b.pdf", "Form B on Letter", "letter"),
        _typeset(tmp_path, "c.pdf", "Form C"),
    ]
    pages = print_file([path.read_bytes() for path in forms], tmp_path / "print.pdf")
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


def test_a_page_that_inherits_from_its_page_tree_keeps_its_size_and_resources(tmp_path):
    """PDF lets a page take its size and resources from its page tree; the print file keeps
    them (Typst puts them on each page, another writer may not)."""
    source = _inheriting(tmp_path)
    assert print_file([source.read_bytes()], tmp_path / "print.pdf") == 2
    printed = pages_pixels(tmp_path / "print.pdf")
    assert np.array_equal(printed[0], pages_pixels(source)[0]) and (printed[0] < 128).any()
    assert printed[1].shape == printed[0].shape and (printed[1] == 255).all()


def test_text_that_looks_like_a_reference_stays_text(tmp_path):
    """A string in a copied object (a link's address, a note) is never renumbered."""
    pdf = pikepdf.new()
    pdf.add_blank_page()
    note = "see 3 0 R (and 12 0 R \\ 7 0 R)) ( 8 0 R"  # unbalanced too: qpdf escapes each parenthesis
    address = pikepdf.Dictionary(S=pikepdf.Name.URI, URI=pikepdf.String("https://x.org/4 0 R"))
    link = pikepdf.Dictionary(
        Type=pikepdf.Name.Annot,
        Subtype=pikepdf.Name.Link,
        Rect=[0, 0, 10, 10],
        Contents=pikepdf.String(note),
        A=address,
    )
    pdf.pages[0].Annots = pdf.make_indirect(pikepdf.Array([pdf.make_indirect(link)]))
    pdf.save(tmp_path / "linked.pdf")
    linked = (tmp_path / "linked.pdf").read_bytes()
    print_file([linked, linked], tmp_path / "print.pdf", odd_pages=False)
    with pikepdf.open(tmp_path / "print.pdf") as written:
        annotations = [page.Annots[0] for page in written.pages]
        assert [str(a.Contents) for a in annotations] == [note, note]
        assert [str(a.A.URI) for a in annotations] == ["https://x.org/4 0 R"] * 2
        assert annotations[0].objgen != annotations[1].objgen  # each document's own objects


def test_the_same_documents_give_the_same_bytes_and_others_another_id(tmp_path):
    one = _typeset(tmp_path, "one.pdf", "One page")
    two = _typeset(tmp_path, "two.pdf", "Another page")
    one, two = one.read_bytes(), two.read_bytes()
    print_file([one, two], tmp_path / "a.pdf")
    print_file([one, two], tmp_path / "b.pdf")
    print_file([two, one], tmp_path / "c.pdf")
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()
    ids = [pikepdf.open(tmp_path / f"{name}.pdf").trailer.ID[0] for name in "ac"]
    assert ids[0] != ids[1]


def test_a_pdf_with_object_and_cross_reference_streams_is_printed_as_drawn(tmp_path):
    """A later Typst may pack its objects into streams: qpdf reads them as any PDF."""
    plain = _typeset(tmp_path, "plain.pdf", "Packed $x^2$")
    with pikepdf.open(plain) as pdf:
        pdf.save(tmp_path / "packed.pdf", object_stream_mode=pikepdf.ObjectStreamMode.generate)
    assert b"/ObjStm" in (tmp_path / "packed.pdf").read_bytes()
    assert print_file([(tmp_path / "packed.pdf").read_bytes()], tmp_path / "print.pdf") == 2
    assert np.array_equal(pages_pixels(tmp_path / "print.pdf")[0], pages_pixels(plain)[0])
