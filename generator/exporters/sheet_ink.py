"""The shapes of an answer sheet drawn straight into its PDF: corner marks, the QR code,
the write-in boxes, decimal points and the bubbles.

Typst typesets a sheet's text (title, name, labels, instructions); everything a
scanner measures is added afterwards as PDF drawing operators, in an update appended
to Typst's PDF (``pdf_objects``), in the millimetres ``answer_sheets`` computed. A
bubble is a Form XObject: Typst typesets each glyph's bubble once per process, on a
page of its own (``#bubble`` in sheet.typ), ``bubble_forms`` makes that page an
XObject, and ``draw`` adds it to each sheet and draws it wherever the bubble is needed.
A sheet of 877 bubbles placed by Typst one by one took it 35 of its 53 ms; bubbles
typeset with each sheet, 4.5 ms of 21.

Coordinates are mm from the centre of the top-left corner mark, x right, y down, as in
the key JSON; the page's own PDF space has its origin at the bottom left, in points.
"""

from __future__ import annotations

import functools
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from . import pdf_objects
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


@dataclass(frozen=True)
class Bubbles:
    """Each glyph's bubble as a Form XObject, ready to add to a sheet: ``objects`` are the
    forms and all they use (fonts, colour spaces), each as (its number, its dictionary, its
    stream or None), numbered as in the bubbles' own PDF, the forms after its objects;
    ``forms`` maps a glyph to its form's number."""

    objects: tuple[tuple[int, bytes, bytes | None], ...]
    forms: dict[str, int]


@functools.lru_cache(maxsize=16)
def bubble_forms(glyphs: tuple[str, ...], typeset: Callable[[str], bytes]) -> Bubbles:
    """Each glyph's bubble as a Form XObject, ``typeset`` (Typst source to PDF bytes) once per
    process for the same glyphs. A sheet's bubbles come from a document of exactly its glyphs
    (its font subset, so its bytes, depend on nothing else)."""
    document = pdf_objects.Document(typeset(bubble_pages(glyphs)))
    objects: dict[int, tuple[bytes, bytes | None]] = {}
    forms: dict[str, int] = {}
    waiting: list[int] = []
    for glyph, page_number in zip(glyphs, document.pages(), strict=True):
        page = document.body(page_number)
        head, data = document.stream(pdf_objects.reference(page, b"/Contents"))
        forms[glyph] = document.size + len(forms)
        objects[forms[glyph]] = (b"<</Type/XObject/Subtype/Form/BBox%s/Resources %s/Filter %s>>"
                                 % (pdf_objects.value(page, b"/MediaBox"),
                                    pdf_objects.value(page, b"/Resources"),
                                    pdf_objects.value(head, b"/Filter")), data)
        waiting.append(pdf_objects.reference(page, b"/Resources"))
    while waiting:  # the pages' resources and all they refer to
        number = waiting.pop()
        if number not in objects:
            objects[number] = document.object(number)
            waiting += pdf_objects.references(objects[number][0])
    return Bubbles(tuple((n, *objects[n]) for n in sorted(objects)), forms)


_Q = zlib.compress(b"q\n")


def draw(pdf: bytes, pages: Sequence[PageInk], inset: float, typeset: Callable[[str], bytes]) -> bytes:
    """``pdf`` (a sheet's text, one page per ``PageInk``) with each page's shapes drawn over it,
    its bubbles (``bubble_forms``, ``typeset`` by it) added where they are drawn, as an
    incremental update (``pdf_objects``): Typst's bytes stay as they are.

    The same input always gives the same bytes."""
    glyphs = glyphs_of(pages)
    bubbles = bubble_forms(glyphs, typeset)
    sheet = pdf_objects.Document(pdf)
    update = pdf_objects.Update(sheet)
    numbers = {n: update.size + i for i, (n, _, _) in enumerate(bubbles.objects)}
    for _, body, stream in bubbles.objects:
        update.add(pdf_objects.renumbered(body, lambda objgen: numbers[objgen[0]]), stream)
    save = update.add(b"<</Filter/FlateDecode>>", _Q)
    page_numbers = sheet.pages()
    if len(page_numbers) != len(pages):
        raise pdf_objects.UnexpectedPdf(f"the sheet has {len(page_numbers)} pages, its ink {len(pages)}")
    for page_number, ink in zip(page_numbers, pages, strict=True):
        page = sheet.body(page_number)
        used = {glyph for *_, glyphs in ink.bubbles for glyph in glyphs}
        # Named by the glyph's place in the sheet's glyphs: the same sheet, the same bytes.
        names = {glyph: f"/PdBubble{i}" for i, glyph in enumerate(glyphs) if glyph in used}
        resources = sheet.body(pdf_objects.reference(page, b"/Resources"))
        if not resources.startswith(b"<<") or b"/XObject" in resources:
            raise pdf_objects.UnexpectedPdf(f"page {page_number}'s resources are not as Typst writes them")
        shown = b"".join(b"%s %d 0 R" % (names[glyph].encode(), numbers[bubbles.forms[glyph]])
                         for glyph in names)
        resources_number = update.add(b"<</XObject<<%s>>%s" % (shown, resources[2:]))
        height = float(pdf_objects.value(page, b"/MediaBox").strip(b"[]").split()[3])
        operators = zlib.compress(_operators(ink, names, inset, height), 1)  # a third of level 6's
        drawn = update.add(b"<</Filter/FlateDecode>>", operators)  # time; 2.4 KB a page against 2.0
        contents = b"[%d 0 R %s %d 0 R]" % (save, pdf_objects.value(page, b"/Contents"), drawn)
        page = pdf_objects.with_value(page, b"/Contents", contents)
        update.replace(page_number, pdf_objects.with_value(page, b"/Resources", b"%d 0 R" % resources_number))
    return update.pdf()


def _operators(ink: PageInk, names: dict[str, str], inset: float, height: float) -> bytes:
    """PDF drawing operators for one page, after the page's own content (closed by ``Q``)."""
    k = POINTS_PER_MM
    top = height - inset * k  # the corner mark's centre, in the page's points

    def rects(shapes: list[tuple[float, float, float, float]], operator: str) -> list[str]:
        """Rectangles, then ``operator`` (f, S): formatted at once, a sheet has hundreds."""
        corners = [v for x, y, width, tall in shapes
                   for v in ((inset + x) * k, top - (y + tall) * k, width * k, tall * k)]
        template = "\n".join([f"%.2f %.2f %.2f %.2f re {operator}"] * len(shapes))
        return [template % tuple(corners)] if shapes else []

    out = ["Q", "0 g", *rects(ink.filled, "f")]
    if ink.outlined:
        out.append(f"{WRITE_GREY:.3f} G 0.3 w")
        out += rects(ink.outlined, "S")
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
