"""Synthetic scans: real answer sheets rendered, filled by simulated students, put through a
scanner or a phone, all from one seed.

A simulated student fills each field of a form's sheet with what it chose (a letter,
the digits of a number, the points of a score) as a pen or a pencil does (darkness,
size, offset, texture), sometimes messily: an erased mark beside the filled one, a
crossed-out bubble with another filled, two bubbles filled, a faint tap, stray marks.
Each field's truth says what a reader may answer: the value filled, or a flag.
The page then goes through the distortions of a scanner or a phone: rotation up to
±5° or upside down, scale, perspective, blur, noise, uneven light, JPEG at quality 50.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
import pypdfium2

from generator.exporters.answer_sheets import MARK_INSET
from generator.files.csv_files import read_back


def render(pdf: bytes | str, dpi: float) -> list[np.ndarray]:
    """Every page of a sheet PDF as a float image (1 white, 0 black)."""
    document = pypdfium2.PdfDocument(pdf)
    out = [
        np.asarray(page.render(scale=dpi / 72, grayscale=True).to_numpy(), dtype=np.float32) / 255.0
        for page in document
    ]
    document.close()
    return out


@dataclass
class Truth:
    """What was filled into one question, and whether it was filled cleanly."""

    cell: str
    """The CSV cell a reader should write: the value filled ('' blank)."""
    clean: bool = True
    """Filled as the sheet asks; False: a messy field, which may also be flagged."""
    must_flag: bool = False
    """No reading is right (two filled): only a flag is."""
    components: list[str | None] = field(default_factory=list)
    mess: str = ""
    """What was messy about it (for the messages of a failed round trip)."""


class Pen:
    """Draws marks on a page image at ``px_per_mm``, with the page's mm origin at the top-left
    corner mark's centre."""

    def __init__(self, image: np.ndarray, dpi: float, rng: np.random.Generator, radius: float):
        self.image, self.rng, self.radius = image, rng, radius
        self.scale = dpi / 25.4
        self.pencil = bool(rng.random() < 0.4)

    def px(self, x: float, y: float) -> tuple[float, float]:
        return (x + MARK_INSET) * self.scale, (y + MARK_INSET) * self.scale

    def _ink(self, patch: tuple[int, int, np.ndarray], darkness: float, texture: bool) -> None:
        x0, y0, mask = patch
        if texture:
            mask = mask * self.rng.uniform(0.6, 1.0, size=mask.shape).astype(np.float32)
        region = self.image[y0 : y0 + mask.shape[0], x0 : x0 + mask.shape[1]]
        np.multiply(region, 1.0 - darkness * mask[: region.shape[0], : region.shape[1]], out=region)

    def _patch(self, x: float, y: float, half_mm: float = 6.0) -> tuple[int, int, np.ndarray]:
        """A blank mask around pixel (x, y); draw into it at coordinates less (x0, y0)."""
        half = int(half_mm * self.scale)
        x0, y0 = max(0, int(x) - half), max(0, int(y) - half)
        return x0, y0, np.zeros((2 * half, 2 * half), dtype=np.float32)

    def fill(
        self,
        centre: list[float],
        darkness: float | None = None,
        size: float | None = None,
        texture: bool | None = None,
    ) -> None:
        r = self.radius * (size if size is not None else self.rng.uniform(0.85, 1.15))
        x, y = self.px(centre[0] + self.rng.normal(0, 0.25), centre[1] + self.rng.normal(0, 0.25))
        patch = x0, y0, mask = self._patch(x, y)
        axes = (max(1, int(r * self.scale * self.rng.uniform(0.9, 1.1))), max(1, int(r * self.scale)))
        cv2.ellipse(
            mask,
            (int(x) - x0, int(y) - y0),
            axes,
            float(self.rng.uniform(0, 180)),
            0,
            360,
            1.0,
            -1,
            cv2.LINE_AA,
        )
        if darkness is None:
            darkness = self.rng.uniform(0.5, 0.75) if self.pencil else self.rng.uniform(0.75, 0.95)
        self._ink(patch, darkness, self.pencil if texture is None else texture)

    def cross(self, centre: list[float]) -> None:
        patch = x0, y0, mask = self._patch(*self.px(*centre))
        r = self.radius * 1.6
        thickness = max(1, int(0.5 * self.scale))
        for sx in (-1, 1):
            a = self.px(centre[0] - r, centre[1] - sx * r)
            b = self.px(centre[0] + r, centre[1] + sx * r)
            cv2.line(
                mask,
                (int(a[0]) - x0, int(a[1]) - y0),
                (int(b[0]) - x0, int(b[1]) - y0),
                1.0,
                thickness,
                cv2.LINE_AA,
            )
        self._ink(patch, 0.9, False)

    def ring(self, centre: list[float]) -> None:
        """A ring drawn around a bubble, outside its printed ring (what a page saying "circle"
        gets): an ellipse a little off centre, not always closed."""
        x, y = self.px(centre[0] + self.rng.normal(0, 0.2), centre[1] + self.rng.normal(0, 0.2))
        patch = x0, y0, mask = self._patch(x, y)
        r = self.radius * self.rng.uniform(1.3, 1.6) * self.scale
        axes = (int(r * self.rng.uniform(1.0, 1.2)), int(r))
        start = float(self.rng.uniform(0, 360))
        end = start + float(self.rng.uniform(320, 400))
        cv2.ellipse(
            mask,
            (int(x) - x0, int(y) - y0),
            axes,
            float(self.rng.uniform(0, 180)),
            start,
            end,
            1.0,
            max(1, int(0.4 * self.scale)),
            cv2.LINE_AA,
        )
        self._ink(patch, float(self.rng.uniform(0.7, 0.9)), False)

    def dot(self, centre: list[float]) -> None:
        """A small dot inside a bubble (a pen resting on it): 0.25 to 0.5 mm across."""
        x, y = self.px(centre[0] + self.rng.uniform(-0.6, 0.6), centre[1] + self.rng.uniform(-0.6, 0.6))
        patch = x0, y0, mask = self._patch(x, y)
        cv2.circle(
            mask,
            (int(x) - x0, int(y) - y0),
            max(1, int(self.rng.uniform(0.25, 0.5) * self.scale)),
            1.0,
            -1,
            cv2.LINE_AA,
        )
        self._ink(patch, float(self.rng.uniform(0.7, 0.9)), False)

    def faint(self, centre: list[float]) -> None:
        """A whole bubble filled very faintly: darkness 0.03 to 0.09, under the line of an empty
        bubble elsewhere (0.10). Fainter than 0.03 is within the noise of a photo's paper: a
        mark that light is, to the scanner, not there."""
        self.fill(centre, darkness=float(self.rng.uniform(0.03, 0.09)), texture=False)

    def stray(self, box: list[float]) -> None:
        """A short stroke or a dot in a field's margin, off its bubbles."""
        x = self.rng.uniform(box[0], box[2])
        y = box[1] - self.rng.uniform(1.5, 3.0)
        a, b = self.px(x, y), self.px(x + self.rng.uniform(-3, 3), y + self.rng.uniform(-0.8, 0.8))
        patch = x0, y0, mask = self._patch(*a)
        cv2.line(
            mask,
            (int(a[0]) - x0, int(a[1]) - y0),
            (int(b[0]) - x0, int(b[1]) - y0),
            1.0,
            max(1, int(0.4 * self.scale)),
            cv2.LINE_AA,
        )
        self._ink(patch, 0.8, False)


def _row_truth(
    pen: Pen, bubbles: list[list[float]], values: list[str], chosen: int | None, mess: str
) -> Truth:
    """Fill one row (a question's letters, a score) with ``chosen``, messily as ``mess`` says."""
    others = [i for i in range(len(values)) if i != chosen]
    if mess == "ring" and chosen is not None:  # the letter ringed, not filled: only a flag is right
        pen.ring(bubbles[chosen])
        return Truth(values[chosen], clean=False, must_flag=True)
    if chosen is None:
        if mess == "faint":
            pen.fill(bubbles[int(pen.rng.choice(len(values)))], darkness=pen.rng.uniform(0.1, 0.25))
            return Truth("", clean=False)
        return Truth("")
    pen.fill(bubbles[chosen])
    if mess == "erased" and others:
        pen.fill(bubbles[int(pen.rng.choice(others))], darkness=pen.rng.uniform(0.08, 0.2))
        return Truth(values[chosen], clean=False)
    if mess == "crossed" and others:
        crossed = int(pen.rng.choice(others))
        pen.fill(bubbles[crossed])
        pen.cross(bubbles[crossed])
        return Truth(values[chosen], clean=False)
    if mess == "double" and others:
        pen.fill(bubbles[int(pen.rng.choice(others))])
        return Truth(values[chosen], clean=False, must_flag=True)
    return Truth(values[chosen])


def _digit_text(field_: dict[str, Any], value: float | None, rng: np.random.Generator) -> str | None:
    """The number a student writes into a digit grid, as the reader writes it back."""
    if value is None:
        return None
    columns, point = len(field_["columns"]), field_["point"]
    decimals = columns - point
    if "exponent" in field_:
        power = int(np.floor(np.log10(abs(value)))) if value else 0
        mantissa = round(abs(value) / 10.0**power, decimals)
        if mantissa >= 10:
            power, mantissa = power + 1, mantissa / 10
        digits = f"{mantissa:.{decimals}f}".replace(".", "")
        return (
            ("-" if value < 0 else "")
            + f"{digits[0]}.{digits[1:]}e"
            + ("-" if power < 0 else "")
            + str(abs(power))
        )
    text = f"{abs(value):.{decimals}f}"
    whole = text.split(".")[0]
    if len(whole) > point:
        return None
    return ("-" if value < 0 and float(text) != 0 else "") + text


def fill_digits(
    pen: Pen, field_: dict[str, Any], text: str | None
) -> tuple[list[tuple[list[list[float]], int]], list[list[float]]]:
    """Fill a digit grid with ``text`` as ``_digit_text`` made it; leading zeros blank or filled.
    Returns the columns filled, each with its digit, and the bubbles left blank where blank is
    a reading (the sign of a positive number, a leading column left blank, the power's sign)."""
    filled: list[tuple[list[list[float]], int]] = []
    blank: list[list[float]] = []
    if text is None:
        return filled, blank
    negative = text.startswith("-")
    body = text.lstrip("-")
    mantissa, _, exponent = body.partition("e")
    digits = mantissa.replace(".", "")
    point = field_["point"]
    whole = mantissa.split(".")[0].rjust(point, "0")
    digits = whole + mantissa.split(".")[1] if "." in mantissa else whole
    if negative:
        pen.fill(field_["sign"])
    else:
        blank.append(field_["sign"])
    lead_blank = pen.rng.random() < 0.5
    leading = True
    for c, digit in enumerate(digits):
        if leading and c < point - 1 and digit == "0" and lead_blank:
            blank += field_["columns"][c]
            continue
        leading = False
        pen.fill(field_["columns"][c][int(digit)])
        filled.append((field_["columns"][c], int(digit)))
    if "exponent" in field_:
        power = exponent.lstrip("-")
        if exponent.startswith("-"):
            pen.fill(field_["exponent_sign"])
        else:
            blank.append(field_["exponent_sign"])
        power = power.rjust(len(field_["exponent"]), "0")
        for c, digit in enumerate(power):
            pen.fill(field_["exponent"][c][int(digit)])
            filled.append((field_["exponent"][c], int(digit)))
    return filled, blank


def normalised(text: str) -> str:
    """A number as the reader writes it (leading zeros dropped) for comparison."""
    negative = text.startswith("-")
    body = text.lstrip("-")
    mantissa, e, exponent = body.partition("e")
    whole, dot, fraction = mantissa.partition(".")
    whole = whole.lstrip("0") or "0"
    exp = ""
    if e:
        exp = "e" + ("-" if exponent.startswith("-") else "") + (exponent.lstrip("-").lstrip("0") or "0")
    return ("-" if negative else "") + whole + (dot + fraction if dot else "") + exp


MESSES = ("erased", "crossed", "double", "faint", "ring")
BLANK_MARKS = ("faint", "dot", "erasure")
"""Marks on a bubble where blank is a reading (a sign, a leading column): a faint or a dotted
one cannot be read either way (only a flag is right); an erasure's leftover may read as blank."""


def fill_sheet(
    pages: list[np.ndarray],
    form: dict[str, Any],
    radius: float,
    dpi: float,
    rng: np.random.Generator,
    student_id: str | None,
    mess_rate: float = 0.05,
    blank_mark_rate: float = 0.0,
) -> tuple[list[np.ndarray], dict[int, Truth]]:
    """A student's filled sheet: the page images and, per question, the truth."""
    pages = [p.copy() for p in pages]
    pens = [Pen(page, dpi, rng, radius) for page in pages]
    pencil = pens[0].pencil
    for pen in pens:
        pen.pencil = pencil
    questions = {q["number"]: q for q in form["questions"]}
    truths: dict[int, Truth] = {}
    by_question: dict[int, list[dict[str, Any]]] = {}
    for field_ in form["sheet"]["fields"]:
        pen = pens[field_["page"] - 1]
        if rng.random() < 0.03:
            pen.stray(field_["box"])
        if field_["kind"] == "id":
            if student_id is not None:
                for c, digit in enumerate(student_id):
                    pen.fill(field_["columns"][c][int(digit)])
            continue
        by_question.setdefault(field_["question"], []).append(field_)
    for number, fields in by_question.items():
        question = questions[number]
        pen = pens[fields[0]["page"] - 1]
        mess = str(rng.choice(MESSES)) if rng.random() < mess_rate else ""
        kind = fields[0]["kind"]
        if kind in ("choice", "score"):
            values = [str(v) for v in fields[0]["values"]]
            if rng.random() < 0.05:
                chosen = None
            elif kind == "choice" and rng.random() < 0.6:
                chosen = values.index(question["answer"])
            else:
                chosen = int(rng.integers(len(values)))
            if chosen is None and mess != "faint":
                mess = ""
            truths[number] = _row_truth(pen, fields[0]["bubbles"], values, chosen, mess)
            continue
        blank_mark = str(rng.choice(BLANK_MARKS)) if rng.random() < blank_mark_rate else ""
        truths[number] = _fill_numbers(pens, fields, question, rng, mess, blank_mark)
    return pages, truths


def _answer_values(question: dict[str, Any]) -> list[float]:
    answer = question["answer"]
    if question["kind"] == "problem":
        answer = answer[question["primary"]]
    return np.asarray(answer, dtype=float).ravel().tolist()


def _fill_numbers(
    pens: list[Pen],
    fields: list[dict[str, Any]],
    question: dict[str, Any],
    rng: np.random.Generator,
    mess: str,
    blank_mark: str = "",
) -> Truth:
    right = _answer_values(question)
    blank = rng.random() < 0.05
    texts: list[str | None] = []
    filled: list[tuple[Pen, list[list[float]], int]] = []
    blanks: list[tuple[Pen, list[float]]] = []
    for field_, value in zip(fields, right, strict=True):
        if blank:
            texts.append(None)
            continue
        if rng.random() < 0.4:  # a wrong number of the same size
            value = value + float(rng.choice([-1, 1])) * float(rng.uniform(0.5, 3.0)) * max(abs(value), 0.01)
        text = _digit_text(field_, value, rng)
        if text is None:
            text = _digit_text(field_, right[len(texts)], rng)
        texts.append(text)
        pen = pens[field_["page"] - 1]
        columns, blank_bubbles = fill_digits(pen, field_, text)
        filled += [(pen, column, digit) for column, digit in columns]
        blanks += [(pen, bubble) for bubble in blank_bubbles]
    truth_texts = [normalised(t) if t is not None else None for t in texts]
    if all(t is None for t in truth_texts):
        cell = ""
    elif len(truth_texts) == 1:
        cell = truth_texts[0] or ""
    else:
        cell = "; ".join(t if t is not None else "_" for t in truth_texts)
    truth = Truth(cell, components=list(truth_texts))
    if blank_mark and blanks:
        pen, bubble = blanks[int(rng.integers(len(blanks)))]
        truth.mess = f"{blank_mark} where blank is a reading"
        if blank_mark == "erasure":
            pen.fill(bubble, darkness=float(rng.uniform(0.03, 0.2)))
        else:
            getattr(pen, blank_mark)(bubble)
            truth.must_flag = True
        truth.clean = False
    if mess == "ring" and filled:  # a filled digit ringed as well: still that digit
        pen, column, digit = filled[int(rng.integers(len(filled)))]
        pen.ring(column[digit])
        truth.clean = False
    elif mess and filled:  # a second digit marked in a filled column
        pen, column, digit = filled[int(rng.integers(len(filled)))]
        other = column[(digit + int(rng.integers(1, 10))) % 10]
        if mess in ("faint", "erased"):
            pen.fill(other, darkness=float(rng.uniform(0.08, 0.25)))
        else:
            pen.fill(other)
            if mess == "crossed":
                pen.cross(other)
            truth.must_flag = mess == "double"
        truth.clean = False
    return truth


# -- what a scanner and a phone do ------------------------------------------------------

CONDITIONS = ("scanner", "phone", "shadow-soft", "shadow-sharp", "fold", "roll")
"""How a sheet comes back: through a sheet-fed scanner, or photographed by a phone: flat in
even light, across a shadow band with a soft or a sharp edge, folded in half and opened (the
fold 20-25 mm up), or with two edges rolled up 20 mm."""


def _profile(
    length_mm: float, kind: str, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A sheet bent along one axis: for positions ``s`` (mm along the paper, 0.5 mm apart), where
    they lie on the desk (the paper's length kept) and how high (mm)."""
    s = np.arange(0.0, length_mm + 0.5, 0.5)
    if kind == "fold":  # folded in half and opened: a ridge at the middle
        height = float(rng.uniform(20, 25)) * (1 - np.abs(s - length_mm / 2) / (length_mm / 2))
    else:  # both edges rolled up 20 mm over their last 40 to 60 mm
        reach = float(rng.uniform(40, 60))
        edge = np.maximum(0.0, np.maximum(reach - s, s - (length_mm - reach)) / reach)
        height = 20.0 * edge**2
    slope = np.gradient(height, s)
    desk = np.concatenate([[0.0], np.cumsum(0.5 * np.cos(np.arctan((slope[1:] + slope[:-1]) / 2)))])
    desk += (length_mm - desk[-1]) / 2  # centred where the flat sheet was
    return s, desk, height


def bend(image: np.ndarray, rng: np.random.Generator, kind: str) -> np.ndarray:
    """The page (float, 1 white) seen from a phone 350-450 mm above a sheet that is not flat
    (``kind``: fold or roll), before the phone's own tilt: raised paper looks bigger, tilted
    paper shorter, and the side turned from the light a little darker."""
    height_px, width_px = image.shape
    px_per_mm = width_px / 210.0
    across = bool(rng.random() < 0.5)  # the fold or the rolled edges across the page's length
    length = (height_px if across else width_px) / px_per_mm
    s, desk, raised = _profile(length, kind, rng)
    camera = float(rng.uniform(350, 450))
    centre = np.array([width_px, height_px], dtype=np.float64) / 2 / px_per_mm + rng.normal(0, 15, 2)
    ys, xs = np.mgrid[0:height_px, 0:width_px].astype(np.float32)
    qx, qy = xs / px_per_mm, ys / px_per_mm  # where a point is seen (mm)
    along = qy if across else qx
    other = qx if across else qy
    c_along, c_other = (centre[1], centre[0]) if across else (centre[0], centre[1])
    guess = along.copy()
    for _ in range(4):  # the paper point seen at q: P = c + (q - c)(D - h)/D, then s from P
        h = np.interp(guess, s, raised)
        shrink = (camera - h) / camera
        guess = np.interp(c_along + (along - c_along) * shrink, desk, s)
    p_other = c_other + (other - c_other) * shrink
    map_x = (p_other if across else guess) * px_per_mm
    map_y = (guess if across else p_other) * px_per_mm
    out = cv2.remap(
        image,
        map_x.astype(np.float32),
        map_y.astype(np.float32),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=1.0,
    )
    slope = np.gradient(raised, s)
    light = 1.0 - 0.15 * np.clip(slope * float(rng.choice([-1, 1])), 0, 1)  # the side turned away
    out *= np.interp(guess, s, light).astype(np.float32)
    return out


def shadow(image: np.ndarray, rng: np.random.Generator, px_per_mm: float, sharp: bool) -> None:
    """A shadow band (an arm, a phone) across the photo, 30-120 mm wide, 30-55 % darker, its
    edges sharp (0.3-1 mm) or soft (5-20 mm); in place."""
    height, width = image.shape
    angle = float(rng.uniform(0, np.pi))
    normal = np.array([np.cos(angle), np.sin(angle)], dtype=np.float32)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    distance = (xs - width / 2) * normal[0] + (ys - height / 2) * normal[1]
    middle = float(rng.uniform(-0.3, 0.3)) * min(width, height)
    half = float(rng.uniform(15, 60)) * px_per_mm
    edge = (float(rng.uniform(0.3, 1.0)) if sharp else float(rng.uniform(5, 20))) * px_per_mm
    inside = 1.0 / (1.0 + np.exp(np.clip((np.abs(distance - middle) - half) / (edge / 4), -50, 50)))
    image *= 1.0 - float(rng.uniform(0.3, 0.55)) * inside


def distort(
    image: np.ndarray, rng: np.random.Generator, phone: bool, upside_down: bool, condition: str = ""
) -> np.ndarray:
    """``image`` (float, 1 white) as a scanner or a phone delivers it: grey uint8, JPEG q50 for phones.
    ``condition`` (CONDITIONS; "" = scanner or phone as ``phone`` says): a shadow band, a fold,
    rolled edges; each is a phone photo."""
    if condition in ("fold", "roll"):
        image = bend(image, rng, condition)
    phone = phone or condition not in ("", "scanner")
    px_per_mm = image.shape[1] / 210.0
    height, width = image.shape
    # Around the sheet: a scanner's lid (light), or the desk under a phone (darker).
    pad = int((0.08 if phone else 0.04) * max(height, width))
    around = float(rng.uniform(0.25, 0.55)) if phone else float(rng.uniform(0.8, 0.95))
    image = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=around)
    height, width = image.shape
    angle = float(rng.uniform(-5, 5)) + (180.0 if upside_down else 0.0)
    scale = float(rng.uniform(0.9, 1.05))
    matrix = cv2.getRotationMatrix2D((width / 2, height / 2), angle, scale)
    transform = np.vstack([matrix, [0, 0, 1]])
    if phone:
        jitter = 0.03 * min(height, width)
        source = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
        target = source + rng.uniform(-jitter, jitter, size=(4, 2)).astype(np.float32)
        transform = cv2.getPerspectiveTransform(source, target) @ transform
    image = cv2.warpPerspective(
        image,
        transform,
        (width, height),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=around,
    )
    direction = rng.uniform(-1, 1, size=2)
    strength = float(rng.uniform(0.0, 0.35 if phone else 0.12))
    columns = (np.linspace(-0.5, 0.5, width, dtype=np.float32) * direction[0])[None, :]
    rows = (np.linspace(-0.5, 0.5, height, dtype=np.float32) * direction[1] + 0.5)[:, None]
    image *= 1.0 - strength * (columns + rows)  # uneven light
    if condition.startswith("shadow-"):
        shadow(image, rng, px_per_mm * scale, condition == "shadow-sharp")
    image = cv2.GaussianBlur(image, (0, 0), float(rng.uniform(0.3, 1.2)))
    noise = np.empty_like(image)
    cv2.setRNGSeed(int(rng.integers(2**31)))
    cv2.randn(noise, 0.0, float(rng.uniform(0.01, 0.04)))
    image += noise
    grey = cv2.convertScaleAbs(image, alpha=255.0)
    if phone or rng.random() < 0.5:
        ok, data = cv2.imencode(".jpg", grey, [cv2.IMWRITE_JPEG_QUALITY, 50])
        grey = cv2.imdecode(data, cv2.IMREAD_GRAYSCALE)
    return grey


# -- a class: many students' sheets, and what the reader made of them -------------------


@dataclass
class SimulatedStudent:
    id: str
    form: dict[str, Any]
    truths: dict[int, Truth]
    condition: str = ""
    """How the sheet came back (CONDITIONS)."""


def classroom(
    forms: list[dict[str, Any]],
    pages_of: Any,
    count: int,
    dpi: float,
    seed: int,
    mess_rate: float = 0.05,
    phone_rate: float = 0.3,
    upside_down_rate: float = 0.2,
    radius: float = 1.9,
    conditions: tuple[str, ...] = (),
    blank_mark_rate: float = 0.0,
) -> Iterator[tuple[SimulatedStudent, list[np.ndarray]]]:
    """``count`` students, each with a filled and distorted sheet (grey pages), one at a time.
    With ``conditions``, sheets take them in turn; else a scanner or, at ``phone_rate``, a phone."""
    rng = np.random.default_rng(seed)
    for i in range(count):
        form = forms[i % len(forms)]
        student_id = None if form.get("student") else str(10000 + i)
        images, truths = fill_sheet(
            pages_of(form, dpi), form, radius, dpi, rng, student_id, mess_rate, blank_mark_rate
        )
        phone = bool(rng.random() < phone_rate)
        upside_down = bool(rng.random() < upside_down_rate)
        condition = conditions[i % len(conditions)] if conditions else "phone" if phone else "scanner"
        scans = [distort(image, rng, phone, upside_down, condition) for image in images]
        name = form["student"]["name"] if form.get("student") else str(student_id)
        yield SimulatedStudent(name, form, truths, condition), scans


@dataclass
class Counts:
    """The answers of the sheets of one condition."""

    sheets: int = 0
    answers: int = 0
    clean: int = 0
    clean_flagged: int = 0
    silent: int = 0

    def __str__(self) -> str:
        return (
            f"{self.sheets} sheets, {self.answers} answers, {self.silent} silent errors, "
            f"{self.clean_flagged} of {self.clean} clean answers flagged"
        )


@dataclass
class Outcome:
    """Every question of every simulated sheet, against what the reader wrote."""

    sheets: int = 0
    clean: int = 0
    """Cleanly filled answers."""
    clean_flagged: int = 0
    messy: int = 0
    messy_flagged: int = 0
    silent: list[str] = field(default_factory=list)
    """Answers read as something other than what was filled, without a flag."""
    missing_rows: list[str] = field(default_factory=list)
    """Students without a row of their own (their ID was not read, or their page)."""
    unread_ids: int = 0
    """Rows whose student ID was flagged (named ``unread ID (…)``): their answers are there."""
    by_condition: dict[str, Counts] = field(default_factory=dict)

    @property
    def sheets_not_read(self) -> int:
        return len(self.missing_rows) - self.unread_ids

    @property
    def clean_flag_rate(self) -> float:
        return self.clean_flagged / max(1, self.clean)


def responses_rows(data: bytes) -> list[dict[str, str]]:
    """The rows of a responses CSV ``paperdeck scan`` wrote, as ``grade`` reads them (a cell the
    writer showed as text, ``'-1; 2``, as it was)."""
    return [
        {column: read_back(cell) for column, cell in row.items()}
        for row in csv.DictReader(io.StringIO(data.decode("utf-8")))
    ]


def compare(
    students: list[SimulatedStudent], rows: dict[str, dict[str, str]], flagged: set[tuple[str, str]]
) -> Outcome:
    """``rows``: the responses CSV by student; ``flagged``: (student, column) of each flag."""
    outcome = Outcome()
    known = {student.id for student in students}
    for name in rows:
        if name.startswith("unread ID ("):
            outcome.unread_ids += 1
        elif name not in known:
            outcome.silent.append(f"a row for {name!r}, whom nobody is: an ID misread")
    for student in students:
        outcome.sheets += 1
        counts = outcome.by_condition.setdefault(student.condition, Counts())
        counts.sheets += 1
        counts.answers += len(student.truths)
        row = rows.get(student.id)
        if row is None:
            outcome.missing_rows.append(student.id)
            continue
        if row["form"] != student.form["label"]:
            outcome.silent.append(f"{student.id}: form {row['form']} read, {student.form['label']} filled")
        for number, truth in student.truths.items():
            column = str(number)
            if truth.clean:
                outcome.clean += 1
                counts.clean += 1
            else:
                outcome.messy += 1
            if (student.id, column) in flagged:
                outcome.clean_flagged += truth.clean
                counts.clean_flagged += truth.clean
                outcome.messy_flagged += not truth.clean
                continue
            got = row.get(column, "")
            if truth.must_flag or got != truth.cell:
                counts.silent += 1
                only = " (only a flag is right)" if truth.must_flag else ""
                outcome.silent.append(
                    f"{student.id} ({student.condition}) question {number}: read {got!r}, "
                    f"filled {truth.cell!r}{only} {truth.mess}".rstrip()
                )
    return outcome
