"""Reading bubbles: each one measured against the page's own paper, and never a guess.

A bubble's **darkness** is the mean darkness (``locate``: 0 paper, 1 black) of the disc
inside its printed ring (``INNER`` of its radius), minus the darkness of an empty bubble
on the same page (the median over all the page's bubbles: most are empty, and this takes
out the ring's letter and the toner of that printer). Its **cover** is the share of the
disc darker than ``COVER_LEVEL`` above that empty level: a filled bubble is covered
throughout, a cross or a tick covers part of it.

- **filled**: darkness at least ``FILLED`` and cover at least ``FILLED_COVER``;
- **empty**: darkness below ``EMPTY`` and cover below ``EMPTY_COVER``;
- anything between is **doubtful** (a faint or erased mark, a cross, a dot).

A row (the letters of a question, one digit column, the score bubbles) reads as its one
filled bubble, as blank when all are empty, and otherwise is not read: two filled, or
any doubtful bubble, and the row is flagged with what was seen.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .locate import PX_PER_MM, SHADING_SCALE, Straightened

INNER = 0.72
FILLED = 0.30
FILLED_COVER = 0.70
EMPTY = 0.10
EMPTY_COVER = 0.15
COVER_LEVEL = 0.22
PLAIN = 0.08
LOCAL = 8.0
STRICT_EMPTY = 0.012
"""Where blank is itself a reading (a sign, a leading digit column, the power of ten's sign), a
bubble is empty only below this darkness: a faint mark there changes the number."""
DOT_LEVEL = 0.12
"""... and only if no spot of it (0.5 mm across) is this much darker than the same spot of the
page's other empty bubbles of its glyph: a dot of a pen changes the number too."""
STEEP = 0.015
"""Where the paper's light changes by more than this over 1.5 mm, the paper's estimate (a closing)
follows a dip as faint as a mark of 0.03 down the slope."""
PLANAR = 0.03
STEP_NOISE = 2.0
"""Where the paper's light changes fast, a bubble where blank is a reading is measured against a
plane fitted to the paper around it, unless the paper is not a plane there: a sharp edge, off
the plane by more than PLANAR of its light and by more than STEP_NOISE times the photo's own
grain (the closing follows a step well). Grain alone (a phone's JPEG: about 2 % of the light
from one pixel to the next) is no step."""
RING_FROM, RING_TO = 1.15, 1.85
"""A ring drawn around a bubble is looked for between these multiples of its radius, away from
the other bubbles (within ``NEIGHBOUR`` radii of their centres)."""
NEIGHBOUR = 1.35
RING_INK = 0.30
RING_SECTORS = 12
RING_SHARE = 0.7
"""An empty bubble with ink (darker than RING_INK) in RING_SHARE of the sectors around it that
can be seen is ringed: doubtful, never blank."""

FILLED_MARK, EMPTY_MARK, DOUBTFUL_MARK = "filled", "empty", "doubtful"
FAINT_MARK = "faint"
"""Empty, but not for a row where blank is a reading: a faint mark or a dot there is doubtful
when nothing else in the row is filled (it would change the number)."""


def _disc(radius_px: float) -> tuple[np.ndarray, np.ndarray]:
    r = int(np.ceil(radius_px))
    ys, xs = np.mgrid[-r : r + 1, -r : r + 1]
    inside = xs**2 + ys**2 <= radius_px**2
    return ys[inside], xs[inside]


def _annulus(inner_px: float, outer_px: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r = int(np.ceil(outer_px))
    ys, xs = np.mgrid[-r : r + 1, -r : r + 1]
    distance = np.hypot(xs, ys)
    # Every other pixel, as a chessboard's: a pen's stroke (2 pixels and more) crosses them all.
    inside = (distance >= inner_px) & (distance <= outer_px) & ((xs + ys) % 2 == 0)
    sector = ((np.arctan2(ys, xs) + np.pi) / (2 * np.pi) * RING_SECTORS).astype(np.int64) % RING_SECTORS
    return ys[inside], xs[inside], sector[inside]


@dataclass(frozen=True)
class Marks:
    """Every bubble of one sheet page, measured."""

    darkness: np.ndarray
    """Per bubble, above the empty level of its glyph on this page."""
    cover: np.ndarray
    states: list[str]
    peak: np.ndarray
    """Per bubble, its darkest spot (0.5 mm) above that spot of its glyph's empty bubbles."""


def _by_class(values: np.ndarray, classes: list[str], plain: np.ndarray) -> np.ndarray:
    """Each bubble's value less the median over the page's plain bubbles of its class (not
    marked: this takes out the printed glyph and that printer's toner); over all the page's
    plain bubbles for a class of fewer than 3."""
    overall = np.median(values[plain], axis=0)
    level = np.empty_like(values)
    groups: dict[str, list[int]] = {}
    for i, name in enumerate(classes):
        groups.setdefault(name, []).append(i)
    for members in groups.values():
        unmarked = [i for i in members if plain[i]]
        level[members] = np.median(values[unmarked], axis=0) if len(unmarked) >= 3 else overall
    return np.asarray(values - level)


def _local(darkness: np.ndarray, centres_mm: np.ndarray, plain: np.ndarray) -> np.ndarray:
    """Less what the plain bubbles within ``LOCAL`` mm read (what is left of a shadow or a
    dim corner there), so that a faint mark is told from the paper around it."""
    others = np.flatnonzero(plain)
    distance = np.hypot(*(centres_mm[:, None, :] - centres_mm[None, others, :]).transpose(2, 0, 1))
    near = (distance <= LOCAL) & (distance > 0)
    counts = near.sum(axis=1)
    ranked = np.sort(np.where(near, darkness[others][None, :], np.inf), axis=1)  # the near ones first
    rows = np.arange(len(darkness))
    middle = (ranked[rows, np.maximum(counts - 1, 0) // 2] + ranked[rows, counts // 2]) / 2
    level = np.where(counts >= 3, middle, 0.0)
    return np.asarray(darkness - level)


def measure(
    page: Straightened,
    centres_mm: np.ndarray,
    radius_mm: float,
    glyphs: list[str] | None = None,
    strict: list[bool] | None = None,
) -> Marks:
    """Darkness, cover and state of each bubble at ``centres_mm`` ((n, 2), mm); ``glyphs``: what is
    printed in each (bubbles are compared with the page's others of the same glyph); ``strict``:
    where blank is a reading, so that a faint mark or a dot is doubtful, not empty."""
    count = len(centres_mm)
    glyphs = glyphs if glyphs is not None else [""] * count
    strict_ = np.array(strict if strict is not None else [False] * count, dtype=bool)
    dys, dxs = _disc(radius_mm * INNER * PX_PER_MM)
    centres = np.rint(page.pixel(centres_mm[:, 0], centres_mm[:, 1])).astype(np.int64)  # type: ignore[arg-type]
    height, width = page.darkness.shape
    xs = np.clip(centres[0][:, None] + dxs[None, :], 0, width - 1)
    ys = np.clip(centres[1][:, None] + dys[None, :], 0, height - 1)
    samples = page.darkness[ys, xs]
    means = samples.mean(axis=1)
    if not count:
        return Marks(means, means, [], means)
    # Plain: nothing much on it (the others are marked, and kept out of the empty levels).
    plain = means < np.median(means) + PLAIN
    # Per pixel of the disc, against the same pixel of the empty bubbles of that glyph: a dot.
    spots = cv2.blur(page.darkness, (3, 3))[ys, xs]
    peak = _by_class(spots, glyphs, plain).max(axis=1)
    by_class = _by_class(means, glyphs, plain)
    darkness = _local(by_class, centres_mm, plain)
    empty_level = means - darkness
    cover = (samples > (empty_level + COVER_LEVEL)[:, None]).mean(axis=1)
    ringed = _ringed(page, centres, radius_mm)
    # Where the paper's light changes fast (a shadow's soft edge), the closing follows a faint
    # mark down the slope: a bubble there where blank is a reading is measured against a plane.
    if page.shading is not None:
        shading = cv2.dilate(page.shading, np.ones((3, 3), np.uint8))
        sx = np.clip((centres[0] * SHADING_SCALE).astype(np.int64), 0, shading.shape[1] - 1)
        sy = np.clip((centres[1] * SHADING_SCALE).astype(np.int64), 0, shading.shape[0] - 1)
        steep = shading[sy, sx] > STEEP
        for k in np.flatnonzero(steep & strict_).tolist():
            sloped = _on_a_slope(page, int(centres[0][k]), int(centres[1][k]), dxs, dys, radius_mm)
            if sloped is not None:  # the paper around it, as a plane, is the paper under it
                darkness[k] = sloped - (means[k] - by_class[k])
    states = []
    for i, (d, c) in enumerate(zip(darkness.tolist(), cover.tolist(), strict=True)):
        if d >= FILLED and c >= FILLED_COVER:
            states.append(FILLED_MARK)
        elif d < EMPTY and c < EMPTY_COVER and not ringed[i]:
            states.append(
                EMPTY_MARK if not strict_[i] or (d < STRICT_EMPTY and peak[i] < DOT_LEVEL) else FAINT_MARK
            )
        else:
            states.append(DOUBTFUL_MARK)
    return Marks(darkness, cover, states, peak)


def _on_a_slope(
    page: Straightened, x: int, y: int, dxs: np.ndarray, dys: np.ndarray, radius_mm: float
) -> float | None:
    """The mean darkness of the disc (``dxs``, ``dys`` around pixel x, y) against a plane fitted
    to the paper around the bubble (between 1.2 and 2.2 radii, where the page reads as paper):
    on a shadow's edge, where a closing follows a faint mark down the slope, a plane does not.
    None when too little paper is seen around it."""
    radius = radius_mm * PX_PER_MM
    r = int(np.ceil(2.2 * radius))
    height, width = page.grey.shape
    if not (r <= x < width - r and r <= y < height - r):
        return None
    oy, ox = np.mgrid[-r : r + 1, -r : r + 1]
    distance = np.hypot(ox, oy)
    window = (slice(y - r, y + r + 1), slice(x - r, x + r + 1))
    paper = (distance >= 1.2 * radius) & (distance <= 2.2 * radius) & (page.darkness[window] < 0.08)
    if paper.sum() < 40:
        return None
    grey = page.grey[window].astype(np.float64)
    design = np.stack([np.ones(int(paper.sum())), ox[paper], oy[paper]], axis=1)
    (a, b, c), *_ = np.linalg.lstsq(design, grey[paper], rcond=None)
    off = float(np.std(grey[paper] - design @ np.array([a, b, c])))
    beside = paper[:, 1:] & paper[:, :-1]  # the grain: paper pixel against paper pixel beside it
    grain = float(np.std((grey[:, 1:] - grey[:, :-1])[beside])) / np.sqrt(2)
    if off > PLANAR * a and off > STEP_NOISE * grain:
        return None  # a step (a sharp shadow's edge), which the closing follows well
    plane = a + b * dxs + c * dys
    inside = page.grey[y + dys, x + dxs].astype(np.float64)
    return float(np.mean(1.0 - inside / np.maximum(plane, 16.0)))


def _ringed(page: Straightened, centres: np.ndarray, radius_mm: float) -> np.ndarray:
    """Per bubble: ink all around it outside its printed ring, where no other bubble is."""
    radius = radius_mm * PX_PER_MM
    dys, dxs, sectors = _annulus(RING_FROM * radius, RING_TO * radius)
    height, width = page.darkness.shape
    count = len(centres[0])
    xs = np.clip(centres[0][:, None] + dxs[None, :], 0, width - 1)
    ys = np.clip(centres[1][:, None] + dys[None, :], 0, height - 1)
    # Seen: no other bubble within NEIGHBOUR radii (its ring, its fill, its glyph): a map of the
    # page's bubbles' discs, each numbered, so a bubble's own disc does not hide its ring.
    owner = np.full((height, width), -1, dtype=np.int16)
    oys, oxs = _disc(NEIGHBOUR * radius)
    numbers = np.arange(count, dtype=np.int16)[:, None]
    owner[
        np.clip(centres[1][:, None] + oys[None, :], 0, height - 1),
        np.clip(centres[0][:, None] + oxs[None, :], 0, width - 1),
    ] = numbers
    owners = owner[ys, xs]
    seen = (owners == -1) | (owners == numbers)
    inked = seen & (page.darkness[ys, xs] > RING_INK)
    cell = (np.arange(count)[:, None] * RING_SECTORS + sectors[None, :]).ravel()
    size = count * RING_SECTORS
    visible = (np.bincount(cell, seen.ravel(), size) > 0).reshape(count, RING_SECTORS).sum(axis=1)
    with_ink = (np.bincount(cell, inked.ravel(), size) > 0).reshape(count, RING_SECTORS).sum(axis=1)
    return np.asarray((visible >= 3) & (with_ink >= RING_SHARE * visible))


@dataclass(frozen=True)
class Row:
    """What one row of bubbles says."""

    value: str | None
    """The filled bubble's value; None when blank or not read."""
    problem: str
    """Why it is not read ('' when read or blank)."""


def read_row(values: list[str], states: list[str], darkness: list[float]) -> Row:
    filled = [v for v, s in zip(values, states, strict=True) if s == FILLED_MARK]
    states = [DOUBTFUL_MARK if s == FAINT_MARK and not filled else s for s in states]
    doubtful = [
        f"{v} ({d:.0%})" for v, s, d in zip(values, states, darkness, strict=True) if s == DOUBTFUL_MARK
    ]
    if doubtful:
        seen = f"; filled: {', '.join(filled)}" if filled else ""
        return Row(None, f"faint, erased or crossed-out mark at {', '.join(doubtful)}{seen}")
    if len(filled) > 1:
        return Row(None, f"{len(filled)} bubbles filled: {', '.join(filled)}")
    return Row(filled[0] if filled else None, "")
