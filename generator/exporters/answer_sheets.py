"""Answer sheets: the bubble pages a scanner reads, one sheet (one or more pages) per form.

A sheet page has four black corner marks, a QR code naming the quiz, the form and
the page (opaque codes only: no seed, no answer), the student's name and ID (from
a roster) or a name line and an ID digit grid, then one field per question in
printed order: a row of letter bubbles (choice questions), a digit grid per
number (numeric questions and problems of up to ``MAX_GRID_COMPONENTS`` numbers)
or a row of score bubbles 0 … points that the teacher fills (short answers,
larger vectors and matrices).

The layout is computed here, in millimetres from the centre of the top-left
corner mark (x right, y down), and the same numbers go both to the page (Typst places
the text, ``_drawn`` adds the shapes with pikepdf; neither moves anything) and to the key
JSON (``layout``), which the scanner reads (docs/quiz-key.md, docs/scanning.md).

A digit grid depends only on the question, never on one form's answer: its
decimals follow the precision the question or problem type declares (or the tolerance), and its
integer columns hold twice the largest answer the quiz document gives the item
(``ProblemItem.largest``: of problems drawn from fixed seeds when the quiz is built;
content questions: their one answer), so every form of a quiz prints the same grid
for the same question. Nothing here draws a problem. Each grid has a sign column; an answer to
significant figures gets a mantissa and a signed power of ten.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

import numpy as np
import pikepdf
import zxingcpp

from .. import problems
from ..documents.items import item_errors
from ..documents.quiz import Form, QuestionItem, Quiz, QuizItem
from ..errors import ContentError, Finding
from ..presentation import letter
from ..values import Precision, Value
from .typst import escape, markdown, string
from .typst.compile import compile_pdf

LAYOUT_FORMAT = 1
"""Version of the sheet layout in the key JSON (docs/quiz-key.md)."""
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARK_SIZE = 5.0
"""Side of a corner mark (a filled square), mm."""
MARK_INSET = 12.0
"""From the paper's edge to a corner mark's centre, mm: inside what printers print."""
BUBBLE_RADIUS = 1.9
ROW_PITCH = 5.6
"""Between the bubbles of a choice or score row."""
GRID_PITCH = (5.0, 4.4)
"""Between the columns and the rows of a digit grid."""
QR_SIZE = 22.0
MAX_GRID_COMPONENTS = 6
"""Numbers of an answer that each get a digit grid; a larger answer gets score bubbles."""
ID_DIGITS = 8
"""Columns of the student-ID grid on a sheet without a roster."""
TEMPLATE = resources.files(__package__).joinpath("typst", "sheet.typ").read_text(encoding="utf-8")


@dataclass(frozen=True)
class Grid:
    """The digit columns of one number: sign, ``integer`` digits, point, ``decimals`` digits
    and, for significant figures, a signed power of ten of ``exponent`` digits."""

    integer: int
    decimals: int
    exponent: int = 0

    def digits(self, value: float) -> tuple[bool, str, bool, str] | None:
        """(negative, mantissa digits, negative exponent, exponent digits) of ``value`` as
        a student fills it in; None if it does not fit."""
        power = 0
        if self.exponent:
            power = math.floor(math.log10(abs(value))) if value else 0
            mantissa = round(abs(value) / 10.0**power, self.decimals)
            if mantissa >= 10:
                power, mantissa = power + 1, mantissa / 10
            if len(str(abs(power))) > self.exponent:
                return None
            value = math.copysign(mantissa, value)
        text = f"{abs(value):.{self.decimals}f}"
        whole, _, fraction = text.partition(".")
        if len(whole) > self.integer:
            return None
        return (
            value < 0 and float(text) != 0,
            whole.rjust(self.integer, "0") + fraction,
            power < 0,
            str(abs(power)).rjust(self.exponent, "0") if self.exponent else "",
        )


def _integer_digits(largest: float) -> int:
    return max(1, len(str(int(2 * abs(largest)))))


def _grid(declared: Precision | None, tolerance: dict[str, float], largest: float) -> Grid:
    if declared is None:  # the places the tolerance holds the answer to
        if tolerance.get("rel"):  # figures enough that rounding stays inside the tolerance
            declared = Precision(figures=max(1, math.ceil(1 + math.log10(0.5 / tolerance["rel"]) - 1e-9)))
        else:
            absolute = tolerance.get("abs") or 0.0
            declared = Precision(decimals=max(0, math.floor(-math.log10(absolute) + 1e-9)) if absolute else 0)
    if declared.figures is not None:
        power = math.floor(math.log10(abs(largest))) if largest else 0
        return Grid(1, max(0, declared.figures - 1), 1 if abs(power) <= 7 else 2)
    return Grid(_integer_digits(largest), declared.count)


def grid_for(quiz_item: QuizItem) -> Grid:
    """The digit grid of a numeric question or a problem: the same on every form."""
    if isinstance(quiz_item, QuestionItem):
        question = quiz_item.question
        return _grid(question.precision, {"abs": question.tolerance or 0.0}, float(question.answer))
    problem = quiz_item.problem
    if quiz_item.largest is None:
        raise ValueError(f"{problem.id}: a problem printed outside a quiz has no digit grid")
    return _grid(problem.precision, problem.tolerance.to_json(), quiz_item.largest)


def quiz_code(quiz: Quiz, paper: str = "a4") -> str:
    """Eight letters and digits naming the quiz on its sheets; they reveal nothing. Prints whose
    sheets are laid out differently get different codes (a roster's, another paper size), so
    a sheet scanned against the other print's key is refused, not read with the wrong layout;
    an anonymous A4 print keeps the code it always had."""
    message = f"sheet-quiz\x1f{quiz.recipe.id}\x1f{quiz.seed}"
    message += "\x1froster" if quiz.students else ""
    message += f"\x1f{paper}" if paper != "a4" else ""
    digest = hmac.new(quiz.secret, message.encode(), hashlib.sha256).digest()
    return base64.b32encode(digest[:5]).decode()


def qr_text(quiz_code: str, form_code: str, page: int, pages: int) -> str:
    """What a sheet page's QR code says (QR alphanumeric characters only)."""
    return f"PD1:{quiz_code}:{form_code.replace('-', '')}:{page}:{pages}"


# -- layout ---------------------------------------------------------------------------

Point = tuple[float, float]


@dataclass
class _Box:
    """A field before placement: its size and a function of its top-left corner."""

    width: float
    height: float
    place: Callable[[float, float], tuple[dict[str, Any], list[tuple[str, Any]]]]
    """(x, y) of the top-left corner → the field as the key JSON holds it, and what to draw."""


def _r(value: float) -> float:
    return round(value, 2)


def _row_box(question: int, kind: str, values: list[str], label: str, glyphs: list[str]) -> _Box:
    width = (4.0 + 1.9 * len(label)) + len(values) * ROW_PITCH

    def place(x: float, y: float) -> tuple[dict[str, Any], list[tuple[str, Any]]]:
        cy = y + 3.5
        bubbles = [(x + width - ROW_PITCH * (len(values) - i - 0.5), cy) for i in range(len(values))]
        field = {
            "kind": kind,
            "question": question,
            "values": values,
            "bubbles": [[_r(bx), _r(by)] for bx, by in bubbles],
            "box": [_r(x), _r(y), _r(x + width), _r(y + 7.0)],
        }
        drawing: list[tuple[str, Any]] = [("label", (x + 0.5, cy, label))]
        drawing.append(("bubbles", (*bubbles[0], ROW_PITCH, 0.0, glyphs)))
        return field, drawing

    return _Box(width + 3.0, 7.0, place)


def _grid_box(question: int, component: int | None, label: str, grid: Grid) -> _Box:
    dx, dy = GRID_PITCH
    point_gap, power_gap = 2.6, 7.0
    columns = 1 + grid.integer + grid.decimals + (1 + grid.exponent if grid.exponent else 0)
    width = columns * dx + (point_gap if grid.decimals else 0) + (power_gap if grid.exponent else 0) + 2
    height = 5.0 + 5.5 + 10 * dy + 1.0

    def place(x: float, y: float) -> tuple[dict[str, Any], list[tuple[str, Any]]]:
        drawing: list[tuple[str, Any]] = [("label", (x + 0.5, y + 2.0, label))]
        top = y + 5.0 + 5.5 + dy / 2
        rows = [_r(top + dy * i) for i in range(10)]  # the same in every column
        cx = x + dx / 2

        def column(glyphs: str) -> list[list[float]]:
            nonlocal cx
            drawing.append(("write", (cx, y + 5.0 + 2.5)))
            left = _r(cx)
            cells = [[left, row] for row in rows[: len(glyphs)]]
            drawing.append(("bubbles", (cx, top, 0.0, dy, list(glyphs))))
            cx += dx
            return cells

        sign = column("−")[0]
        digits = [column("0123456789") for _ in range(grid.integer)]
        if grid.decimals:
            drawing.append(("point", (cx - dx / 2 + point_gap / 2, y + 5.0 + 4.5)))
            cx += point_gap
        digits += [column("0123456789") for _ in range(grid.decimals)]
        field: dict[str, Any] = {
            "kind": "digits",
            "question": question,
            "sign": sign,
            "columns": digits,
            "point": grid.integer,
        }
        if component is not None:
            field["component"] = component
        if grid.exponent:
            drawing.append(("power", (cx - dx / 2 + power_gap / 2, y + 5.0 + 2.5)))
            cx += power_gap
            field["exponent_sign"] = column("−")[0]
            field["exponent"] = [column("0123456789") for _ in range(grid.exponent)]
        field["box"] = [_r(x), _r(y), _r(x + width), _r(y + height)]
        return field, drawing

    return _Box(width + 3.0, height, place)


def _value(quiz_item: QuizItem) -> Value:
    """What a student writes for the item: a question's one answer, a problem's primary answer."""
    if isinstance(quiz_item, QuestionItem):
        return Value(quiz_item.question.answer, quiz_item.question.precision)
    return quiz_item.problem.value(problems.get(quiz_item.problem.type).primary)


def _score_values(points: float) -> list[str]:
    values = [f"{p:g}" for p in range(int(points) + 1)]
    if points != int(points):
        values.append(f"{points:g}")
    return values


def _boxes(quiz_item: QuizItem) -> list[_Box]:
    number = quiz_item.number
    if isinstance(quiz_item, QuestionItem) and quiz_item.options:
        letters = [letter(i) for i in range(len(quiz_item.options))]
        return [_row_box(number, "choice", letters, str(number), letters)]
    kind = quiz_item.question.type if isinstance(quiz_item, QuestionItem) else "problem"
    shape = _value(quiz_item).shape
    if kind == "short_answer" or _value(quiz_item).count > MAX_GRID_COMPONENTS:
        values = _score_values(quiz_item.points)
        return [_row_box(number, "score", values, f"{number} score", values)]
    grid = grid_for(quiz_item)
    if not shape:
        return [_grid_box(number, None, str(number), grid)]
    boxes = []
    for c, index in enumerate(np.ndindex(*shape)):
        where = ",".join(str(i + 1) for i in index)
        boxes.append(_grid_box(number, c, f"{number} [{where}]", grid))
    return boxes


@dataclass(frozen=True)
class SheetPage:
    """One page of a sheet: its fields (as the key JSON holds them) and what to draw."""

    fields: tuple[dict[str, Any], ...]
    drawing: tuple[tuple[str, Any], ...]


def frame(paper: str) -> tuple[float, float]:
    """Width and height between the corner marks' centres, mm."""
    width, height = PAPER_MM[paper]
    return width - 2 * MARK_INSET, height - 2 * MARK_INSET


def _pages(form: Form, paper: str) -> list[SheetPage]:
    """Fields flowed in printed order, left to right in shelves, through regions of the page:
    on a first page without roster, rows of bubbles first fill the space beside the ID grid."""
    width, height = frame(paper)
    left, right, bottom, top = 5.0, width - 3.0, height - 10.0, 28.0
    pages: list[SheetPage] = []
    fields: list[dict[str, Any]] = []
    drawing: list[tuple[str, Any]] = []
    regions: list[tuple[float, float, float, bool]] = [(left, right, top, False)]
    limit = bottom
    if form.student is None:  # name line and ID grid on the first page
        id_box = _id_box()
        field, drawn = id_box.place(left, top)
        fields.append(field)
        drawing.extend(drawn)
        beside = left + id_box.width + 6
        drawing.append(("name-line", (beside, top + 3, right)))
        regions = [(beside, right, top + 8, True), (left, right, top + id_box.height + 3, False)]
        limit = top + id_box.height
    x0, x1, y, rows_only = regions.pop(0)
    x, shelf = x0, 0.0
    for quiz_item in form.items:
        for box in _boxes(quiz_item):
            while True:
                if x + box.width > x1 and x > x0:
                    x, y, shelf = x0, y + shelf + 1.5, 0.0
                if (rows_only and box.height > 7.0) or y + box.height > limit:
                    if regions:
                        x0, x1, y, rows_only = regions.pop(0)
                    else:
                        pages.append(SheetPage(tuple(fields), tuple(drawing)))
                        fields, drawing = [], []
                        x0, x1, y, rows_only = left, right, top, False
                    x, shelf, limit = x0, 0.0, bottom
                    continue
                break
            field, drawn = box.place(x, y)
            field["page"] = len(pages) + 1
            fields.append(field)
            drawing.extend(drawn)
            x += box.width
            shelf = max(shelf, box.height)
    pages.append(SheetPage(tuple(fields), tuple(drawing)))
    return pages


def _id_box() -> _Box:
    dx, dy = GRID_PITCH
    width, height = ID_DIGITS * dx + 2, 5.0 + 5.5 + 10 * dy + 1.0

    def place(x: float, y: float) -> tuple[dict[str, Any], list[tuple[str, Any]]]:
        drawing: list[tuple[str, Any]] = [("label", (x + 0.5, y + 2.0, "Student ID"))]
        top, columns = y + 5.0 + 5.5 + dy / 2, []
        for c in range(ID_DIGITS):
            cx = x + dx * (c + 0.5)
            drawing.append(("write", (cx, y + 5.0 + 2.5)))
            drawing.append(("bubbles", (cx, top, 0.0, dy, list("0123456789"))))
            columns.append([[_r(cx), _r(top + dy * i)] for i in range(10)])
        return (
            {
                "kind": "id",
                "page": 1,
                "columns": columns,
                "box": [_r(x), _r(y), _r(x + width), _r(y + height)],
            },
            drawing,
        )

    return _Box(width, height, place)


# -- the layout in the key JSON and the Typst source -------------------------------


def layout_head(quiz: Quiz, paper: str) -> dict[str, Any]:
    """What every sheet of the quiz shares, for the key JSON's top level (``sheets``)."""
    width, height = frame(paper)
    return {
        "format": LAYOUT_FORMAT,
        "paper": paper,
        "quiz_code": quiz_code(quiz, paper),
        "marks": {
            "size": MARK_SIZE,
            "centres": [[0, 0], [_r(width), 0], [0, _r(height)], [_r(width), _r(height)]],
        },
        "bubble_radius": BUBBLE_RADIUS,
        "max_grid_components": MAX_GRID_COMPONENTS,
    }


def _qr_box(width: float) -> tuple[float, float]:
    return width - 7.0 - QR_SIZE, -1.5


# -- the shapes a scanner measures, drawn into Typst's PDF -------------------------
#
# Typst typesets a sheet's text; the corner marks, the QR code, the write-in boxes, the
# decimal points and the bubbles are PDF drawing operators that pikepdf (qpdf) appends to
# each page, in the millimetres computed here. A bubble is a Form XObject: Typst typesets
# each glyph's bubble once (``#bubble`` in sheet.typ, one page each), and a sheet draws it
# wherever the bubble is needed. A sheet of 877 bubbles placed by Typst one by one took it
# 35 of its 53 ms; bubbles typeset with each sheet, 4.5 ms of 21.

POINTS_PER_MM = 72 / 25.4
BUBBLE_PAD = 0.2
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


@lru_cache(maxsize=16)
def _bubble_pdf(glyphs: tuple[str, ...]) -> bytes:
    """One page per glyph, each exactly one bubble with a margin of ``BUBBLE_PAD``: typeset once
    per process for the same glyphs (a sheet's own glyphs, so its bytes depend on nothing else)."""
    side = f"{2 * (BUBBLE_RADIUS + BUBBLE_PAD)}mm"
    pages = "#pagebreak()\n".join(f"#bubble({string(glyph)})\n" for glyph in glyphs)
    source = f"#set page(width: {side}, height: {side}, margin: {BUBBLE_PAD}mm)\n{pages}"
    return compile_pdf(_head("a4", "") + source, 0, tags=False)


def _drawn(pdf: bytes, inks: Sequence[PageInk]) -> bytes:
    """``pdf`` (a sheet's text, one page per ``PageInk``) with each page's shapes drawn over it.
    The same input always gives the same bytes (a deterministic file ID)."""
    glyphs = tuple(sorted({glyph for ink in inks for *_, line in ink.bubbles for glyph in line}))
    with pikepdf.open(io.BytesIO(pdf)) as sheet, pikepdf.open(io.BytesIO(_bubble_pdf(glyphs))) as bubbles:
        forms = [sheet.copy_foreign(page.as_form_xobject()) for page in bubbles.pages]
        for page, ink in zip(sheet.pages, inks, strict=True):
            used = {glyph for *_, line in ink.bubbles for glyph in line}
            # Named by the glyph's place (pikepdf's generated names are random: bytes would differ).
            names = {glyph: f"/PdBubble{i}" for i, glyph in enumerate(glyphs) if glyph in used}
            for i, glyph in enumerate(glyphs):
                if glyph in used:
                    page.add_resource(forms[i], pikepdf.Name.XObject, pikepdf.Name(names[glyph]))
            page.contents_add(pikepdf.Stream(sheet, b"q\n"), prepend=True)
            operators = _operators(ink, names, float(page.mediabox[3]))
            page.contents_add(pikepdf.Stream(sheet, operators))
        out = io.BytesIO()
        # Typst's streams are copied as they are (not decoded), only the new ones compressed.
        sheet.save(
            out,
            deterministic_id=True,
            compress_streams=True,
            fix_metadata_version=False,
            stream_decode_level=pikepdf.StreamDecodeLevel.none,
        )
        return out.getvalue()


def _operators(ink: PageInk, names: dict[str, str], height: float) -> bytes:
    """PDF drawing operators for one page, after the page's own content (closed by ``Q``).
    Coordinates are mm from the centre of the top-left corner mark, x right, y down, as in
    the key JSON; the page's own PDF space has its origin at the bottom left, in points."""
    k = POINTS_PER_MM
    top = height - MARK_INSET * k  # the corner mark's centre, in the page's points

    def rects(shapes: list[tuple[float, float, float, float]], operator: str) -> list[str]:
        return [
            f"{(MARK_INSET + x) * k:.2f} {top - (y + tall) * k:.2f} {width * k:.2f} {tall * k:.2f} re "
            + operator
            for x, y, width, tall in shapes
        ]

    out = ["Q", "0 g", *rects(ink.filled, "f")]
    if ink.outlined:
        out.append(f"{WRITE_GREY:.3f} G 0.3 w")
        out += rects(ink.outlined, "S")
    out += _dots(ink.dots, height)
    shift = BUBBLE_RADIUS + BUBBLE_PAD
    for x, y, dx, dy, line in ink.bubbles:  # the first bubble, then a step to each next one
        step = f" 1 0 0 1 {dx * k:.4f} {-dy * k:.4f} cm "
        out.append(
            f"q 1 0 0 1 {(MARK_INSET + x - shift) * k:.2f} {top - (y + shift) * k:.2f} cm "
            + step.join(f"{names[glyph]} Do" for glyph in line)
            + " Q"
        )
    return ("\n".join(out) + "\n").encode("ascii")


def _dots(dots: Iterable[tuple[float, float, float]], height: float) -> list[str]:
    """Filled circles, each four Bézier quarter arcs (control points 0.5523 radii out)."""
    k, c = POINTS_PER_MM, 0.5523
    out = []
    for x, y, radius in dots:
        cx, cy, r = (MARK_INSET + x) * k, height - (MARK_INSET + y) * k, radius * k
        points = [
            (cx + r, cy),
            (cx + r, cy + c * r),
            (cx + c * r, cy + r),
            (cx, cy + r),
            (cx - c * r, cy + r),
            (cx - r, cy + c * r),
            (cx - r, cy),
            (cx - r, cy - c * r),
            (cx - c * r, cy - r),
            (cx, cy - r),
            (cx + c * r, cy - r),
            (cx + r, cy - c * r),
            (cx + r, cy),
        ]
        text = [f"{px:.2f} {py:.2f}" for px, py in points]
        out.append(f"{text[0]} m " + " ".join(" ".join(text[i : i + 3]) + " c" for i in (1, 4, 7, 10)) + " f")
    return out


@dataclass(frozen=True)
class Sheet:
    """One form's answer sheet: its layout for the key JSON, the Typst source of its text and,
    per page, the shapes drawn into the PDF after (``_drawn``)."""

    layout: dict[str, Any]
    source: str
    ink: tuple[PageInk, ...]

    def pdf(self, timestamp: int) -> bytes:
        """The sheet as PDF bytes. Untagged: a scanner reads it, and a reader who needs a screen
        reader has the form itself, tagged."""
        return _drawn(compile_pdf(self.source, timestamp, tags=False), self.ink)


def _head(paper: str, title: str) -> str:
    """The start of a sheet's Typst source: the template set up for ``paper``."""
    return (
        f"#let inset = {MARK_INSET}mm\n{TEMPLATE}#show: answer-sheet.with(paper: "
        f"{string('us-letter' if paper == 'letter' else 'a4')}, title: {string(title)})\n"
    )


def sheet(quiz: Quiz, form: Form, paper: str = "a4") -> Sheet:
    """The answer sheet of ``form``."""
    for quiz_item in form.items:
        with item_errors(quiz_item):
            _check_fits(quiz_item)
    pages = _pages(form, paper)
    width, height = frame(paper)
    qx, qy = _qr_box(width)
    code = quiz_code(quiz, paper)
    layout = {
        "pages": len(pages),
        "qr": [[_r(qx), _r(qy)], [_r(qx + QR_SIZE), _r(qy + QR_SIZE)]],
        "fields": [field for page in pages for field in page.fields],
    }
    out = [_head(paper, quiz.recipe.title + ": answer sheet")]
    who = (
        f"Name: *{escape(form.student.name)}*"
        + (f" · ID {escape(form.student.id)}" if form.student.id else "")
        if form.student is not None
        else ""
    )
    inks = []
    for number, page in enumerate(pages, 1):
        if number > 1:
            out.append("#pagebreak()\n")
        ink = PageInk()
        half = MARK_SIZE / 2
        ink.filled += [
            (x - half, y - half, MARK_SIZE, MARK_SIZE)
            for x, y in ((0, 0), (width, 0), (0, height), (width, height))
        ]
        ink.filled += _qr_rects(_qr_modules(qr_text(code, form.code, number, len(pages))), qx, qy)
        subtitle = escape(
            f"Form {form.letter} · code {form.code} · answer sheet, page {number} of {len(pages)}"
        )
        out.append(f"#header([{markdown(quiz.recipe.title)}], [{subtitle}], [{who}], {_r(qx - 4)})\n")
        out.append(f"#footer({_r(width)}, {_r(height)})\n")
        for kind, args in page.drawing:
            text = _draw(kind, args, ink)
            if text:
                out.append(text)
        inks.append(ink)
    return Sheet(layout, "".join(out), tuple(inks))


def _qr_modules(text: str) -> np.ndarray:
    """The QR code of ``text`` (error correction M) as a matrix of modules, True where dark.

    zxing-cpp, which reads the codes back in ``paperdeck scan``, writes them too: it
    chooses the mask as the standard says, 60x faster than segno did in pure Python."""
    code = zxingcpp.create_barcode(text, zxingcpp.BarcodeFormat.QRCode, ec_level="M")
    image = np.asarray(zxingcpp.write_barcode_to_image(code, scale=1, add_quiet_zones=False))
    return image < 128


def _qr_rects(qr: np.ndarray, x: float, y: float) -> list[tuple[float, float, float, float]]:
    """The dark modules of a QR code whose top-left corner is at (x, y), a run of a row per
    rectangle, each a little larger than its modules so that no hairline shows between them."""
    module, overlap = QR_SIZE / len(qr), 0.02
    rects = []
    for row, modules in enumerate(qr.tolist()):
        column = 0
        while column < len(modules):
            if modules[column]:
                start = column
                while column < len(modules) and modules[column]:
                    column += 1
                rects.append(
                    (
                        x + start * module,
                        y + row * module,
                        (column - start) * module + overlap,
                        module + overlap,
                    )
                )
            column += 1
    return rects


def _draw(kind: str, args: Any, ink: PageInk) -> str:
    """One drawn part of a page: text as Typst source, shapes added to ``ink`` (then "")."""
    if kind == "bubbles":
        ink.bubbles.append(args)
        return ""
    if kind == "write":
        x, y = args
        ink.outlined.append((x - 2.2, y - 2.5, 4.4, 5.0))
        return ""
    if kind == "point":
        x, y = args
        ink.dots.append((x, y, 0.6))
        return ""
    if kind == "label":
        x, y, text = args
        return f"#label-at({_r(x)}, {_r(y)}, {string(text)})\n"
    if kind == "name-line":
        x, y, right = args
        return f"#name-line({_r(x)}, {_r(y)}, {_r(right)})\n"
    x, y = args
    return f"#{kind}-at({_r(x)}, {_r(y)})\n"


def _check_fits(quiz_item: QuizItem) -> None:
    """Every answer of every form fits its grid; a project's own problem type may not."""
    if isinstance(quiz_item, QuestionItem):
        if quiz_item.options or quiz_item.question.type != "numeric":
            return
        values = [float(quiz_item.question.answer)]
        what = quiz_item.question.id
    else:
        if _value(quiz_item).count > MAX_GRID_COMPONENTS:
            return
        values = _value(quiz_item).floats
        what = f"problem type {quiz_item.problem.type}"
    grid = grid_for(quiz_item)
    for value in values:
        if grid.digits(value) is None:
            raise ContentError(
                [
                    Finding(
                        "",
                        0,
                        what,
                        f"the answer {value:g} does not fit the answer "
                        f"sheet's grid of {grid.integer} integer digits",
                    )
                ]
            )
