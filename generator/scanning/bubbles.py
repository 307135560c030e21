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

import numpy as np

from .locate import PX_PER_MM, Straightened

INNER = 0.72
FILLED = 0.30
FILLED_COVER = 0.70
EMPTY = 0.10
EMPTY_COVER = 0.15
COVER_LEVEL = 0.22

FILLED_MARK, EMPTY_MARK, DOUBTFUL_MARK = "filled", "empty", "doubtful"


def _disc(radius_px: float) -> tuple[np.ndarray, np.ndarray]:
    r = int(np.ceil(radius_px))
    ys, xs = np.mgrid[-r:r + 1, -r:r + 1]
    inside = xs ** 2 + ys ** 2 <= radius_px ** 2
    return ys[inside], xs[inside]


@dataclass(frozen=True)
class Marks:
    """Every bubble of one sheet page, measured."""

    darkness: np.ndarray
    """Per bubble, above the page's empty level."""
    cover: np.ndarray
    states: list[str]


def measure(page: Straightened, centres_mm: np.ndarray, radius_mm: float) -> Marks:
    """Darkness, cover and state of each bubble at ``centres_mm`` ((n, 2), mm)."""
    dys, dxs = _disc(radius_mm * INNER * PX_PER_MM)
    centres = np.rint(page.pixel(centres_mm[:, 0], centres_mm[:, 1])).astype(np.int64)  # type: ignore[arg-type]
    height, width = page.darkness.shape
    xs = np.clip(centres[0][:, None] + dxs[None, :], 0, width - 1)
    ys = np.clip(centres[1][:, None] + dys[None, :], 0, height - 1)
    samples = page.darkness[ys, xs]
    means = samples.mean(axis=1)
    empty_level = float(np.median(means)) if len(means) else 0.0
    darkness = means - empty_level
    cover = (samples > empty_level + COVER_LEVEL).mean(axis=1)
    states = [FILLED_MARK if d >= FILLED and c >= FILLED_COVER
              else EMPTY_MARK if d < EMPTY and c < EMPTY_COVER else DOUBTFUL_MARK
              for d, c in zip(darkness.tolist(), cover.tolist(), strict=True)]
    return Marks(darkness, cover, states)


@dataclass(frozen=True)
class Row:
    """What one row of bubbles says."""

    value: str | None
    """The filled bubble's value; None when blank or not read."""
    problem: str
    """Why it is not read ('' when read or blank)."""


def read_row(values: list[str], states: list[str], darkness: list[float]) -> Row:
    filled = [v for v, s in zip(values, states, strict=True) if s == FILLED_MARK]
    doubtful = [f"{v} ({d:.0%})" for v, s, d in zip(values, states, darkness, strict=True)
                if s == DOUBTFUL_MARK]
    if doubtful:
        seen = f"; filled: {', '.join(filled)}" if filled else ""
        return Row(None, f"faint, erased or crossed-out mark at {', '.join(doubtful)}{seen}")
    if len(filled) > 1:
        return Row(None, f"{len(filled)} bubbles filled: {', '.join(filled)}")
    return Row(filled[0] if filled else None, "")
