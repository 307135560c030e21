"""The shapes of an answer sheet drawn straight into its PDF: corner marks, the QR code,
the write-in boxes, decimal points and the bubbles.

Typst typesets a sheet's text (title, name, labels, instructions); everything a
scanner measures is added afterwards as PDF drawing operators, by pikepdf, in the
millimetres ``answer_sheets`` computed. A bubble is a Form XObject: Typst typesets
each glyph's bubble once per thread, on a page of its own (``#bubble`` in sheet.typ),
``bubble_forms`` makes that page an XObject, and ``draw`` copies it into each sheet
and draws it wherever the bubble is needed. A sheet of 877 bubbles placed by Typst
one by one took it 35 of its 53 ms; bubbles typeset with each sheet, 4.5 ms of 21.

Coordinates are mm from the centre of the top-left corner mark, x right, y down, as in
the key JSON; the page's own PDF space has its origin at the bottom left, in points.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import pikepdf

from .typst import string

POINTS_PER_MM = 72 / 25.4
BUBBLE_RADIUS = 1.9
"""mm: the size of ``#bubble`` in sheet.typ."""
PAD = 0.2
"""mm around a bubble on its own page, so that the XObject (clipped to the page) keeps the
outer half of the circle's stroke."""
WRITE_GREY = 150 / 255
"""The write-in boxes' outline: grey, lighter than the bubbles' (sheet.typ's ``outline``)."""


@dataclass
class PageInk:
    """What to draw on one sheet page: filled rectangles (x, y, width, height), outlined
    rectangles, filled dots (centre x, y, radius) and lines of bubbles (the first one's
    centre x, y, the step dx, dy to the next, their glyphs)."""

    filled: list[tuple[float, float, float, float]] = field(default_factory=list)
    outlined: list[tuple[float, float, float, float]] = field(default_factory=list)
    dots: list[tuple[float, float, float]] = field(default_factory=list)
    bubbles: list[tuple[float, float, float, float, Sequence[str]]] = field(default_factory=list)


def glyphs_of(pages: Sequence[PageInk]) -> tuple[str, ...]:
    """The bubbles' glyphs on a sheet, sorted: a bubble's resource name is its place here."""
    return tuple(sorted({glyph for page in pages for *_, glyphs in page.bubbles for glyph in glyphs}))


def bubble_pages(glyphs: Sequence[str]) -> str:
    """Typst source of one page per glyph, each exactly one bubble (sheet.typ's ``#bubble``)
    with a margin of ``PAD``. ``bubble_forms`` turns them into XObjects."""
    side = f"{2 * (BUBBLE_RADIUS + PAD)}mm"
    pages = "#pagebreak()\n".join(f"#bubble({string(glyph)})\n" for glyph in glyphs)
    return f"#set page(width: {side}, height: {side}, margin: {PAD}mm)\n{pages}"


_TYPESET = threading.local()


def bubble_forms(glyphs: tuple[str, ...], typeset: Callable[[str], bytes]) -> dict[str, pikepdf.Object]:
    """Each glyph's bubble as a Form XObject, ``typeset`` (Typst source to PDF bytes) once per
    thread for the same glyphs: a pikepdf document is never used by two threads at once. A sheet's
    bubbles come from a document of exactly its glyphs (its font subset, so its bytes, depend on
    nothing else). The documents stay open with the thread."""
    if not hasattr(_TYPESET, "forms"):
        _TYPESET.forms = {}
    forms: dict[tuple[str, ...], tuple[pikepdf.Pdf, dict[str, pikepdf.Object]]] = _TYPESET.forms
    if glyphs not in forms:
        document = pikepdf.open(io.BytesIO(typeset(bubble_pages(glyphs))))
        forms[glyphs] = document, dict(zip(glyphs, (page.as_form_xobject() for page in document.pages),
                                           strict=True))
    return forms[glyphs][1]


def draw(pdf: bytes, pages: Sequence[PageInk], inset: float, typeset: Callable[[str], bytes]) -> bytes:
    """``pdf`` (a sheet's text, one page per ``PageInk``) with each page's shapes drawn over it,
    its bubbles (``bubble_forms``, ``typeset`` by it) copied in where they are drawn.

    The same input always gives the same bytes (a deterministic file ID)."""
    glyphs = glyphs_of(pages)
    bubbles = bubble_forms(glyphs, typeset)
    with pikepdf.open(io.BytesIO(pdf)) as sheet:
        copied: dict[str, pikepdf.Object] = {}
        for page, ink in zip(sheet.pages, pages, strict=True):
            used = {glyph for *_, glyphs in ink.bubbles for glyph in glyphs}
            names: dict[str, str] = {}
            for i, glyph in enumerate(glyphs):
                if glyph in used:
                    if glyph not in copied:
                        copied[glyph] = sheet.copy_foreign(bubbles[glyph])
                    # Named by the glyph's place (pikepdf's generated names are random: bytes would differ).
                    names[glyph] = f"/PdBubble{i}"
            if names:  # as page.add_resource would, without its checks (a millisecond a sheet)
                if "/Resources" not in page.obj:
                    page.obj.Resources = pikepdf.Dictionary()
                if "/XObject" not in page.obj.Resources:
                    page.obj.Resources.XObject = pikepdf.Dictionary()
                for glyph, name in names.items():
                    page.obj.Resources.XObject[name] = copied[glyph]
            page.contents_add(pikepdf.Stream(sheet, b"q\n"), prepend=True)
            page.contents_add(pikepdf.Stream(sheet, _operators(ink, names, inset, float(page.mediabox[3]))))
        out = io.BytesIO()
        # Typst's streams are copied as they are (not decoded), only the new ones compressed.
        sheet.save(out, deterministic_id=True, compress_streams=True, fix_metadata_version=False,
                   stream_decode_level=pikepdf.StreamDecodeLevel.none)
        return out.getvalue()


def _operators(ink: PageInk, names: dict[str, str], inset: float, height: float) -> bytes:
    """PDF drawing operators for one page, after the page's own content (closed by ``Q``)."""
    k = POINTS_PER_MM
    top = height - inset * k  # the corner mark's centre, in the page's points

    def rect(x: float, y: float, width: float, tall: float) -> str:
        return f"{(inset + x) * k:.2f} {top - (y + tall) * k:.2f} {width * k:.2f} {tall * k:.2f} re"

    out = ["Q", "0 g"]
    out += [f"{rect(*r)} f" for r in ink.filled]
    if ink.outlined:
        out.append(f"{WRITE_GREY:.3f} G 0.3 w")
        out += [f"{rect(*r)} S" for r in ink.outlined]
    out += _dots(ink.dots, inset, height)
    shift = BUBBLE_RADIUS + PAD
    for x, y, dx, dy, glyphs in ink.bubbles:  # the first bubble, then a step to each next one
        step = f" 1 0 0 1 {dx * k:.4f} {-dy * k:.4f} cm "
        out.append(f"q 1 0 0 1 {(inset + x - shift) * k:.2f} {top - (y + shift) * k:.2f} cm "
                   + step.join(f"{names[glyph]} Do" for glyph in glyphs) + " Q")
    return ("\n".join(out) + "\n").encode("ascii")


def _dots(dots: Iterable[tuple[float, float, float]], inset: float, height: float) -> list[str]:
    """Filled circles, each four Bézier quarter arcs (control points 0.5523 radii out)."""
    k, c = POINTS_PER_MM, 0.5523
    out = []
    for x, y, radius in dots:
        cx, cy, r = (inset + x) * k, height - (inset + y) * k, radius * k
        points = [(cx + r, cy),
                  (cx + r, cy + c * r), (cx + c * r, cy + r), (cx, cy + r),
                  (cx - c * r, cy + r), (cx - r, cy + c * r), (cx - r, cy),
                  (cx - r, cy - c * r), (cx - c * r, cy - r), (cx, cy - r),
                  (cx + c * r, cy - r), (cx + r, cy - c * r), (cx + r, cy)]
        text = [f"{px:.2f} {py:.2f}" for px, py in points]
        out.append(f"{text[0]} m " + " ".join(" ".join(text[i:i + 3]) + " c" for i in (1, 4, 7, 10)) + " f")
    return out
