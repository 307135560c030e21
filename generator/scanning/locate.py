"""Finding a sheet on a scanned page and straightening it.

1. The QR code is read anywhere on the page (zxing-cpp, any rotation). Its four
   corners, whose places on the sheet the layout gives, make a first (affine) map.
2. That map says roughly where the four corner marks are; each is the filled square of
   about the mark's size nearest to there, and the four marks' centres give the
   homography the scanner uses. The
   QR code's corners, mapped back through it, must land within ``QR_AGREEMENT`` mm of
   where zxing saw them: otherwise a mark was mistaken and the page is not read.
3. The page is warped to ``PX_PER_MM`` pixels per mm of the sheet, and divided by an
   estimate of its own blank paper where it is (``_darkness``: the page with every mark
   narrower than ``PAPER_DISC`` closed over), so that a shadow, its edge or a dim corner of
   a phone photo reads as paper and every mark is measured as darkness against the paper
   under it: 0 white, 1 black.

Upside-down and rotated pages need nothing special: the QR code's corners say which
corner of the image is the sheet's top-left.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import zxingcpp

PX_PER_MM = 6.0
"""Resolution of the straightened sheet (152 dpi): a bubble is 23 pixels across."""
MARGIN_MM = 8.0
"""Straightened around the marks' frame, so crops at its edge keep their surroundings."""
MARK_SEARCH_MM = 12.0
MARK_REACH = 0.15
"""A corner mark is looked for within MARK_SEARCH_MM plus MARK_REACH of its distance from the
QR code around where the QR code puts it (a phone's perspective bends the page)."""
CORNERS = ("top-left", "top-right", "bottom-left", "bottom-right")
QR_AGREEMENT = 2.5
"""Largest distance (mm) between the QR corners seen and where the marks put them."""
PAPER_DISC = 6.5
"""Wider than any mark a student makes (a filled bubble 4.4 mm, with a sloppy pen 5 mm)."""


@dataclass(frozen=True)
class Code:
    """A QR code seen on a page: its text and its corners in image pixels."""

    text: str
    corners: np.ndarray
    """(4, 2): the symbol's top-left, top-right, bottom-right, bottom-left."""


FIND_SIDE = 1600
"""QR codes and corner marks are looked for on the page shrunk to this long side (faster;
a QR module stays over 3 pixels wide); the QR code on the whole page if not found."""


@dataclass(frozen=True)
class Scanned:
    """A scanned page, and the same shrunk to look for the QR code and the marks on."""

    image: np.ndarray
    small: np.ndarray
    scale: float
    """small = image × scale."""


def prepare(image: np.ndarray) -> Scanned:
    factor = -(-max(image.shape) // FIND_SIDE)  # a whole factor: OpenCV averages those ten times faster
    small = cv2.resize(image, None, fx=1 / factor, fy=1 / factor, interpolation=cv2.INTER_AREA)
    return Scanned(image, small, small.shape[1] / image.shape[1])


def codes(page: Scanned) -> list[Code]:
    """Every QR code on the page: looked for on the shrunk page, then on the whole page, then
    on the shrunk page made smaller still (which smooths JPEG noise around the modules)."""
    found = _codes(page.small, page.scale)
    if not found and page.scale < 1:
        found = _codes(page.image, 1.0)
    if not found:
        smaller = cv2.resize(page.small, None, fx=0.7, fy=0.7, interpolation=cv2.INTER_AREA)
        found = _codes(smaller, page.scale * smaller.shape[1] / page.small.shape[1])
    return found


def _codes(image: np.ndarray, scale: float) -> list[Code]:
    found = []
    qr_codes = zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode)
    for barcode in zxingcpp.read_barcodes(image, formats=qr_codes):
        p = barcode.position
        corners = (
            np.array(
                [
                    [p.top_left.x, p.top_left.y],
                    [p.top_right.x, p.top_right.y],
                    [p.bottom_right.x, p.bottom_right.y],
                    [p.bottom_left.x, p.bottom_left.y],
                ],
                dtype=np.float64,
            )
            / scale
        )
        found.append(Code(barcode.text, corners))
    return found


def _square(side: float, x: float, y: float) -> np.ndarray:
    return np.array([[x, y], [x + side, y], [x + side, y + side], [x, y + side]], dtype=np.float64)


def mark_candidates(image: np.ndarray, px_per_mm: float, side_mm: float) -> np.ndarray:
    """Centres ((n, 2), pixels) of every filled square about the size of a corner mark.

    Square, not round: a mark fills at least ``SQUARENESS`` of the smallest rectangle
    around it at any rotation (a disc: pi/4) and at most ``ROUNDNESS`` of the smallest
    circle around it (a square: 2/pi; a disc: all of it)."""
    side = side_mm * px_per_mm
    # Dark against the page around it (not one threshold for the page: a phone photo's
    # dim corner and the desk around the sheet would merge with the marks).
    block = int(2.2 * side) | 1
    dark = cv2.adaptiveThreshold(image, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, 30)
    contours, _ = cv2.findContours(dark, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    centres = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if not 0.6 * side**2 <= area <= (1.6 * side) ** 2:
            continue
        (cx, cy), (w, h), _ = cv2.minAreaRect(contour)
        if w * h == 0 or area < SQUARENESS * w * h or not 0.6 <= w / h <= 1.66:
            continue
        _, radius = cv2.minEnclosingCircle(contour)
        if area > ROUNDNESS * np.pi * radius**2:
            continue
        q = int(min(w, h) / 4)
        inside = dark[int(cy) - q : int(cy) + q + 1, int(cx) - q : int(cx) + q + 1]
        if inside.size and inside.mean() > 0.9 * 255:  # filled, not the paper inside a printed box
            centres.append((cx, cy))
    return np.array(centres, dtype=np.float64).reshape(-1, 2)


SQUARENESS = 0.78
ROUNDNESS = 0.76


@dataclass(frozen=True)
class Straightened:
    """A sheet page straightened: darkness against its own paper, ``PX_PER_MM`` pixels per mm."""

    darkness: np.ndarray
    """float32, 0 (paper) to 1 (black); pixel (0, 0) is at (-MARGIN_MM, -MARGIN_MM) mm."""
    grey: np.ndarray
    """The straightened page as scanned (uint8), for the crops of the review file."""
    shading: np.ndarray | None = None
    """How fast the paper's light changes (a shadow's edge): its relative change over 1.5 mm, at
    a third of the resolution (``SHADING_SCALE``)."""

    def pixel(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        return (x_mm + MARGIN_MM) * PX_PER_MM, (y_mm + MARGIN_MM) * PX_PER_MM


def _marks(
    page: Scanned,
    predicted: np.ndarray,
    qr_centre: np.ndarray,
    px_per_mm: float,
    mark_size: float,
    shadowed: bool,
) -> list[np.ndarray] | str:
    """The four corner marks' centres near where the QR code puts them, or which is missing.
    ``shadowed``: looked for on the page divided by its own paper (a closing), where a shadow
    is paper again."""
    image = page.small
    if shadowed:
        side = int(PAPER_DISC * px_per_mm * page.scale * 1.6) | 1  # wider than a mark (5 mm)
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side))
        paper = cv2.morphologyEx(image, cv2.MORPH_CLOSE, disc)
        image = cv2.divide(image, np.maximum(paper, 1), scale=255)
    candidates = mark_candidates(image, px_per_mm * page.scale, mark_size) / page.scale
    centres = []
    for corner, guess in zip(CORNERS, predicted, strict=True):
        reach = MARK_SEARCH_MM * px_per_mm + MARK_REACH * float(np.hypot(*(guess - qr_centre)))
        distances = np.hypot(*(candidates - guess).T) if len(candidates) else np.array([])
        if not len(distances) or distances.min() > reach:
            return f"the {corner} corner mark was not found (is the whole sheet on the page?)"
        centres.append(candidates[int(distances.argmin())])
    return centres


def straighten(
    page: Scanned,
    code: Code,
    qr_box: list[list[float]],
    marks_mm: list[list[float]],
    mark_size: float,
    frame_mm: tuple[float, float],
) -> Straightened | str:
    """The page straightened through its corner marks, or what went wrong."""
    (qx0, qy0), (qx1, _) = qr_box
    qr_mm = _square(qx1 - qx0, qx0, qy0)
    # An affine map from the QR code's corners: extrapolated across the page it strays
    # less than a homography from four points this close together.
    rough, _ = cv2.estimateAffine2D(qr_mm, code.corners)
    if rough is None:
        return "the QR code's corners make no sense"
    px_per_mm = float(np.linalg.norm(code.corners[1] - code.corners[0])) / (qx1 - qx0)
    predicted = cv2.transform(np.array([marks_mm], dtype=np.float64), rough)[0]
    qr_centre = code.corners.mean(axis=0)
    centres = _marks(page, predicted, qr_centre, px_per_mm, mark_size, shadowed=False)
    if isinstance(centres, str):  # a shadow's sharp edge across a mark merges it with the shadow
        centres = _marks(page, predicted, qr_centre, px_per_mm, mark_size, shadowed=True)
        if isinstance(centres, str):
            return centres
    homography = cv2.getPerspectiveTransform(
        np.array(marks_mm, dtype=np.float32), np.array(centres, dtype=np.float32)
    )
    back = cv2.perspectiveTransform(np.array([code.corners]), np.linalg.inv(homography))[0]
    disagreement = float(np.max(np.hypot(*(back - qr_mm).T)))
    if disagreement > QR_AGREEMENT:
        return (
            f"the corner marks and the QR code disagree by {disagreement:.1f} mm "
            "(a mark hidden, torn or drawn over, or the sheet not flat?)"
        )
    width, height = frame_mm
    to_sheet = np.array(
        [[PX_PER_MM, 0, MARGIN_MM * PX_PER_MM], [0, PX_PER_MM, MARGIN_MM * PX_PER_MM], [0, 0, 1]]
    ) @ np.linalg.inv(homography)
    size = (int((width + 2 * MARGIN_MM) * PX_PER_MM), int((height + 2 * MARGIN_MM) * PX_PER_MM))
    grey = cv2.warpPerspective(
        page.image,
        to_sheet,
        size,
        flags=cv2.INTER_AREA if px_per_mm > PX_PER_MM * 1.5 else cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    darkness, shading = _darkness(grey)
    return Straightened(darkness, grey, shading)


SHADING_SCALE = 1 / 3


def _darkness(grey: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Darkness against the page's own paper where it is: 1 - grey / paper. The paper is the page
    closed (a grey-level closing) by a disc of ``PAPER_DISC`` mm: every mark narrower than that
    (a filled bubble, a row of them, text) is replaced by the paper around it, while a shadow's
    edge, wider than any mark, stays where it is, sharp or soft: a bubble on either side of it is
    measured against paper on its own side."""
    # At 2 pixels a mm, each the mean of 9, and smoothed again: the closing takes maxima, which a
    # noisy photo (a shadow doubles its noise against the paper) would otherwise raise.
    small = cv2.resize(grey, None, fx=SHADING_SCALE, fy=SHADING_SCALE, interpolation=cv2.INTER_AREA)
    small = cv2.blur(small, (3, 3))
    side = int(PAPER_DISC * PX_PER_MM / 3) | 1
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side))
    small_paper = cv2.morphologyEx(small, cv2.MORPH_CLOSE, disc)
    step = cv2.morphologyEx(small_paper, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    shading = step.astype(np.float32) / np.maximum(small_paper.astype(np.float32), 16.0)
    paper = cv2.resize(small_paper, (grey.shape[1], grey.shape[0]), interpolation=cv2.INTER_LINEAR)
    darkness = 1.0 - grey.astype(np.float32) / np.maximum(paper.astype(np.float32), 16.0)
    return np.clip(darkness, 0.0, 1.0, out=darkness), shading


RING_STEP = 0.6
"""A bubble's printed ring is looked for on its circle, and the paper this far inside and outside."""


def ring_contrast(page: Straightened, centres_mm: np.ndarray, radius_mm: float) -> np.ndarray:
    """Per bubble: how much darker its printed ring is, where the layout puts it, than the circles
    ``RING_STEP`` mm inside and outside. A bubble that lies 0.6 mm or more from where the
    corner marks put it (a sheet not flat: folded, curled) shows little of its ring there."""
    angles = np.linspace(0, 2 * np.pi, 32, endpoint=False)
    circle = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    height, width = page.darkness.shape
    means = []
    for r in (radius_mm, radius_mm - RING_STEP, radius_mm + RING_STEP):
        points = (centres_mm[:, None, :] + r * circle[None, :, :] + MARGIN_MM) * PX_PER_MM
        xs = np.clip(np.rint(points[..., 0]).astype(np.int64), 0, width - 1)
        ys = np.clip(np.rint(points[..., 1]).astype(np.int64), 0, height - 1)
        means.append(page.darkness[ys, xs].mean(axis=1))
    return np.asarray(means[0] - (means[1] + means[2]) / 2)


TILE_MM = 30.0
RING_SEEN = 0.05
RING_SHARE_OF_BEST = 0.45
"""A page is verified in tiles of TILE_MM: in each, the median ring contrast of its empty
bubbles must be at least RING_SEEN and RING_SHARE_OF_BEST of the page's best tiles' (their 75th
percentile): flat pages measured 0.72 to 0.95 of it; folded or curled ones under a phone 0."""


def not_flat(page: Straightened, centres_mm: np.ndarray, radius_mm: float, empty: np.ndarray) -> str:
    """Why the page's bubbles are not where its corner marks put them ('' when they are), from
    the printed rings of its ``empty`` bubbles, tile by tile across the whole page."""
    contrast = ring_contrast(page, centres_mm, radius_mm)
    tiles = np.floor(centres_mm / TILE_MM).astype(np.int64)
    medians, places = [], []
    for tile in np.unique(tiles, axis=0):
        members = (tiles == tile).all(axis=1) & empty
        if members.sum() >= 4:
            medians.append(float(np.median(contrast[members])))
            places.append(centres_mm[members].mean(axis=0))
    if not medians:
        return ""
    line = max(RING_SEEN, RING_SHARE_OF_BEST * float(np.percentile(medians, 75)))
    off = [place for median, place in zip(medians, places, strict=True) if median < line]
    if not off:
        return ""
    where = ", ".join(f"({x:.0f}, {y:.0f})" for x, y in off[:3]) + (" …" if len(off) > 3 else "")
    return (
        f"the printed bubbles are not where the corner marks put them around {where} mm "
        "(a sheet folded, curled or not flat under the camera?)"
    )
