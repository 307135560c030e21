"""Box-and-arrow diagrams written as SVG, with every labelled part kept as data.

The paper's Figures 1 and 2 are boxes, arrows and words, not plotted data, so
they are written as SVG text here rather than drawn with matplotlib: the file is
vector at every size (Typst prints it sharp, a phone scales it), its words stay
words (searchable in the PDF, readable by screen readers and by the tests), the
bytes depend only on the parameters (no renderer ids, no timestamps), and no
plotting library is loaded to make it. Each box is a ``Part`` with an id, the
label it shows and its bounding box, so label-the-part cards can hide one part
at a time with a box positioned over the image.

Units are CSS pixels at the figure's natural size (1 px = 0.75 pt in print);
text is 14 px (10.5 pt) or 11 px for annotations. Box widths are chosen so every
label fits in DejaVu Sans, the widest of the fonts named (a test measures it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from ..numerals import fixed

FONT_FAMILY = "'DejaVu Sans', Verdana, 'Helvetica Neue', Helvetica, Arial, sans-serif"
"""Fonts of the figure's words, widest first; the printed guide falls back to its own font."""
FONT_SIZE = 14.0
SMALL_SIZE = 11.0
LINE_GAP = 1.2
"""Distance between the baselines of two lines, in font sizes."""
STROKE = 2.0
INK = "#000000"


@dataclass(frozen=True)
class Part:
    """One labelled part of a diagram: what it says and where it is."""

    id: str
    """Unique in its diagram (``encoder-self-attention``)."""
    label: str
    """The words drawn on it, lines joined by spaces (``Multi-Head Attention``)."""
    answer: str
    """What a learner names when it is hidden (``Multi-Head Attention (encoder self-attention)``);
    text with \\( \\) math, like content Markdown."""
    note: str
    """One line on its role, shown after the answer (text with \\( \\) math); may be empty."""
    box: tuple[float, float, float, float]
    """x, y, width, height in the diagram's pixels, covering the part and its words."""
    ask: bool = True
    """Whether label-the-part cards ask for it; repeats of an asked part are not asked again."""
    twins: tuple[str, ...] = ()
    """Ids of parts whose different words still give this one away (``Inputs`` beside
    ``Outputs (shifted right)``); a twin of a part is also a twin of its twin."""


@dataclass(frozen=True)
class Diagram:
    """A finished diagram: its size, its parts and its SVG text."""

    width: float
    height: float
    parts: tuple[Part, ...]
    svg: str

    def fraction(self, part: Part) -> tuple[float, float, float, float]:
        """The part's box as percentages of the figure (left, top, width, height)."""
        x, y, w, h = part.box
        return (100 * x / self.width, 100 * y / self.height, 100 * w / self.width, 100 * h / self.height)

    def twins(self, part: Part) -> tuple[Part, ...]:
        """The other parts a label card covers with ``part``: drawn with the same words, or
        named as twins (either way round), so that none of them gives the answer away."""
        return tuple(
            p
            for p in self.parts
            if p.id != part.id and (p.label == part.label or p.id in part.twins or part.id in p.twins)
        )


def _n(value: float) -> str:
    """A coordinate as short, stable text (at most 2 decimals, no trailing zeros)."""
    return fixed(value, 2)


def _text_markup(line: str) -> str:
    """One line of text; ``x_{sub}`` becomes a subscript (``d_{model}``), ``√`` stays as is."""
    out, rest, lowered = [], line, False
    while "_{" in rest:
        before, _, after = rest.partition("_{")
        sub, _, rest = after.partition("}")
        out.append(f'<tspan dy="-3">{escape(before)}</tspan>' if lowered and before else escape(before))
        # dy moves down, and the next words back up: understood by every SVG renderer,
        # unlike baseline-shift.
        out.append(f'<tspan dy="3" font-size="78%">{escape(sub)}</tspan>')
        lowered = True
    if rest:
        out.append(f'<tspan dy="-3">{escape(rest)}</tspan>' if lowered else escape(rest))
    return "".join(out)


def plain(line: str) -> str:
    """The words of a line as a reader sees them (``d_{model}`` → ``dmodel``)."""
    return line.replace("_{", "").replace("}", "")


@dataclass
class Canvas:
    """Collects the shapes of a diagram in drawing order, and its parts."""

    width: float
    height: float
    title: str
    shapes: list[str] = field(default_factory=list)
    parts: list[Part] = field(default_factory=list)

    def _part(
        self,
        part_id: str,
        lines: list[str],
        box: tuple[float, float, float, float],
        answer: str | None,
        note: str,
        ask: bool,
        twins: tuple[str, ...] = (),
    ) -> None:
        if any(p.id == part_id for p in self.parts):
            raise ValueError(f"part {part_id!r} drawn twice")
        label = " ".join(plain(line) for line in lines)
        self.parts.append(Part(part_id, label, answer or label, note, box, ask, twins))

    def text(
        self,
        lines: list[str],
        x: float,
        y: float,
        *,
        size: float = FONT_SIZE,
        anchor: str = "middle",
        small: tuple[str, ...] = (),
    ) -> tuple[float, float]:
        """Lines centred vertically on ``y``; ``small`` lines follow in the annotation size.

        Returns the top and bottom of the text block.
        """
        sizes = [size] * len(lines) + [SMALL_SIZE] * len(small)
        height = sum(s * LINE_GAP for s in sizes)
        top = y - height / 2
        baseline = top
        for line, s in zip([*lines, *small], sizes, strict=True):
            baseline += s * LINE_GAP
            # The baseline sits about a quarter of the line height above the line's bottom.
            self.shapes.append(
                f'<text x="{_n(x)}" y="{_n(baseline - s * 0.32)}" font-size="{_n(s)}" '
                f'text-anchor="{anchor}">{_text_markup(line)}</text>'
            )
        return top, top + height

    def box(
        self,
        part_id: str,
        lines: list[str],
        x: float,
        y: float,
        w: float,
        h: float,
        fill: str,
        *,
        small: tuple[str, ...] = (),
        answer: str | None = None,
        note: str = "",
        ask: bool = True,
        shadows: int = 0,
        twins: tuple[str, ...] = (),
    ) -> None:
        """A rounded box with its words centred; ``shadows`` draws copies behind it (parallel layers)."""
        for i in range(shadows, 0, -1):
            # Copies up and to the right, fainter the further back, as in the paper's Figure 2.
            dx = dy = 9.0 * i
            opacity = 0.55 - 0.2 * (i - 1)
            self.shapes.append(
                f'<rect x="{_n(x + dx)}" y="{_n(y - dy)}" width="{_n(w)}" height="{_n(h)}" rx="6" '
                f'fill="{fill}" stroke="{INK}" stroke-width="{_n(STROKE)}" opacity="{_n(opacity)}"/>'
            )
        self.shapes.append(f'<g id="part-{part_id}">')
        self.shapes.append(
            f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="6" fill="{fill}" '
            f'stroke="{INK}" stroke-width="{_n(STROKE)}"/>'
        )
        self.text(lines, x + w / 2, y + h / 2, small=small)
        self.shapes.append("</g>")
        pad = STROKE
        self._part(part_id, lines, (x - pad, y - pad, w + 2 * pad, h + 2 * pad), answer, note, ask, twins)

    def label(
        self,
        part_id: str,
        lines: list[str],
        x: float,
        y: float,
        width: float,
        *,
        anchor: str = "middle",
        small: tuple[str, ...] = (),
        answer: str | None = None,
        note: str = "",
        ask: bool = True,
        extra: tuple[float, float, float, float] | None = None,
        twins: tuple[str, ...] = (),
    ) -> None:
        """Words standing alone (``Inputs``, ``N×``) as a part; ``width`` bounds the widest line.

        ``extra`` (x, y, w, h) widens the part's box to cover a drawn symbol beside the words.
        """
        self.shapes.append(f'<g id="part-{part_id}">')
        top, bottom = self.text(lines, x, y, anchor=anchor, small=small)
        self.shapes.append("</g>")
        left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
        box = (left - 3, top - 1, width + 6, bottom - top + 4)
        if extra is not None:
            x0, y0 = min(box[0], extra[0]), min(box[1], extra[1])
            x1 = max(box[0] + box[2], extra[0] + extra[2])
            y1 = max(box[1] + box[3], extra[1] + extra[3])
            box = (x0, y0, x1 - x0, y1 - y0)
        self._part(part_id, lines, box, answer, note, ask, twins)

    def line(self, *points: tuple[float, float], arrow: bool = False, opacity: float = 1.0) -> None:
        """A polyline through ``points``; ``arrow`` puts a head at the last point."""
        path = " ".join(f"{_n(x)},{_n(y)}" for x, y in points)
        head = ' marker-end="url(#pd-arrow)"' if arrow else ""
        faint = f' opacity="{_n(opacity)}"' if opacity < 1 else ""
        self.shapes.append(
            f'<polyline points="{path}" fill="none" stroke="{INK}" '
            f'stroke-width="{_n(STROKE)}" stroke-linejoin="round"{head}{faint}/>'
        )

    def arrow(self, *points: tuple[float, float], opacity: float = 1.0) -> None:
        self.line(*points, arrow=True, opacity=opacity)

    def group(self, x: float, y: float, w: float, h: float) -> None:
        """The grey rounded panel behind a stack of N identical layers."""
        self.shapes.append(
            f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="14" '
            f'fill="#f2f2f2" stroke="{INK}" stroke-width="{_n(STROKE)}"/>'
        )

    def adder(self, x: float, y: float, r: float = 9.0) -> None:
        """The circled plus where positional encodings are added to embeddings."""
        self.shapes.append(
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="#ffffff" stroke="{INK}" '
            f'stroke-width="{_n(STROKE)}"/>'
        )
        self.line((x - r, y), (x + r, y))
        self.line((x, y - r), (x, y + r))

    def wave(self, x: float, y: float, r: float = 16.0) -> None:
        """A circle holding one period of a sine: the positional-encoding symbol."""
        self.shapes.append(
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="#ffffff" stroke="{INK}" '
            f'stroke-width="{_n(STROKE)}"/>'
        )
        points = [
            (x - 0.75 * r + 1.5 * r * t / 24, y - 0.45 * r * math.sin(2 * math.pi * t / 24))
            for t in range(25)
        ]
        self.line(*points)

    def finish(self) -> Diagram:
        """The diagram: an SVG document of the natural size, white behind, arrowheads defined once."""
        w, h = _n(self.width), _n(self.height)
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
            f'font-family={quoteattr(FONT_FAMILY)} fill="{INK}">\n'
            f"<title>{escape(self.title)}</title>\n"
            '<defs><marker id="pd-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="4.5" '
            'markerHeight="4.5" orient="auto" markerUnits="strokeWidth">'
            f'<path d="M0,0 L10,5 L0,10 Z" fill="{INK}"/></marker></defs>\n'
            f'<rect x="0" y="0" width="{w}" height="{h}" fill="#ffffff"/>\n'
        )
        ids = {p.id for p in self.parts}
        unknown = sorted({t for p in self.parts for t in p.twins} - ids)
        if unknown:
            raise ValueError(f"twins name parts that are not drawn: {unknown}")
        body = "\n".join(self.shapes)
        return Diagram(self.width, self.height, tuple(self.parts), f"{head}{body}\n</svg>\n")
