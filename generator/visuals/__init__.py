"""Figures drawn from the paper's math, for decks and printed quizzes.

A visual is named in content by ``kind`` and ``params``; each kind registers
itself in one module of ``visuals/kinds`` (``@visual`` in ``registry``). Figures are
computed by the problem types' ``solve`` and NumPy, never typed in, so they are
always exact. ``render`` writes a PNG whose bytes depend only on the kind, the
parameters and ``RENDERER_VERSION``, cached under a name hashed from the same.
Diagram kinds (the paper's Figures 1 and 2: boxes and arrows) are written as SVG
instead, with their labelled parts as data (``diagram.Part``) for label cards.

    validate(kind, params) -> list[str]      every mistake, for the content loader
    render(kind, params, cache_dir) -> Path  the PNG (SVG for diagrams), drawn only when not cached
    figure(kind, params) -> Figure           the matplotlib figure itself (plots)
    diagram(kind, params) -> Diagram         the SVG and its parts (diagrams)
    parts(kind, params) -> tuple[Part, ...]  the labelled parts; empty for plots
    attention_heatmap(weights, title) -> Figure
    png_bytes(figure) -> bytes
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import pkgutil
import stat
import tempfile
from functools import cache
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..files.atomic import write_bytes
from . import kinds as kind_modules
from .diagram import Diagram, Part
from .kinds.attention import attention_heatmap, causal_mask_additive, masked_attention_weights
from .registry import KINDS, VisualError, VisualKind, get_kind, normalize, validate
from .style import png_bytes

for _module in pkgutil.iter_modules(kind_modules.__path__):  # each registers its kinds on import
    importlib.import_module(f"{kind_modules.__name__}.{_module.name}")

if TYPE_CHECKING:
    from matplotlib.figure import Figure

RENDERER_VERSION = "1"
"""Bump when a drawing changes, so cached PNGs are redrawn."""

__all__ = [
    "KINDS",
    "RENDERER_VERSION",
    "Diagram",
    "Part",
    "VisualError",
    "VisualKind",
    "attention_heatmap",
    "cache_key",
    "causal_mask_additive",
    "default_cache_dir",
    "diagram",
    "figure",
    "kinds",
    "masked_attention_weights",
    "parts",
    "png_bytes",
    "render",
    "validate",
]


def kinds() -> dict[str, str]:
    """Every visual kind with its one-line description, sorted by id."""
    return {kind_id: KINDS[kind_id].description for kind_id in sorted(KINDS)}


def _checked(kind: str, params: dict[str, Any] | None) -> dict[str, Any]:
    get_kind(kind)
    canonical, messages = normalize(kind, params)
    if messages:
        raise VisualError([f"visual {kind}: {m}" for m in messages])
    return canonical


def cache_key(kind: str, params: dict[str, Any] | None) -> str:
    """sha256 of kind, canonical JSON of the checked parameters and the renderer version.

    Defaults are filled in first, so leaving a parameter out and writing its
    default give the same figure and the same name. The matplotlib version is
    part of the renderer version because it may move pixels.
    """
    canonical = _checked(kind, params)
    if kind == "image":  # where the file is does not change the figure; its sha256 names it
        canonical.pop("path", None)
    payload = json.dumps(
        {
            "kind": kind,
            "params": canonical,
            "renderer": f"{RENDERER_VERSION}/matplotlib-{_matplotlib_version()}",
        },
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=True,
        allow_nan=False,
    )
    return hashlib.sha256(payload.encode()).hexdigest()


@cache
def _matplotlib_version() -> str:
    # From the installed package's metadata: a cached figure is found without
    # importing matplotlib.
    return version("matplotlib")


def figure(kind: str, params: dict[str, Any] | None = None) -> Figure:
    """The figure of this kind, after checking its parameters (VisualError if bad)."""
    draw = KINDS[kind].draw
    if draw is None:
        raise TypeError(f"visual kind {kind!r} is a diagram: use visuals.diagram()")
    return draw(_checked(kind, params))


def diagram(kind: str, params: dict[str, Any] | None = None) -> Diagram:
    """The diagram of this kind (SVG text and parts), after checking its parameters."""
    layout = get_kind(kind).layout
    if layout is None:
        raise TypeError(f"visual kind {kind!r} is a plot: use visuals.figure()")
    return layout(_checked(kind, params))


def parts(kind: str, params: dict[str, Any] | None = None) -> tuple[Part, ...]:
    """The labelled parts of this visual, in drawing order; empty for plots.

    Laid out without drawing anything, so finding the parts of a figure costs
    under a millisecond (0.5 ms for Figure 1) and never imports matplotlib.
    """
    if not get_kind(kind).is_diagram:
        return ()
    return diagram(kind, params).parts


def render(kind: str, params: dict[str, Any] | None, cache_dir: Path) -> Path:
    """The PNG (SVG for a diagram) of this visual in ``cache_dir``, drawn only if it is not there yet.

    Named ``<kind>-<first 12 hex digits of cache_key>.png``; written to a
    temporary file in the same directory and renamed, so a reader never sees a
    half-written file. A diagram is named by a hash of its SVG instead: laying
    it out costs under a millisecond, and a changed drawing can then never be served
    from a stale file that label cards' boxes no longer fit. Raises VisualError
    for an unknown kind or a bad parameter.
    """
    if get_kind(kind).is_diagram:
        svg = diagram(kind, params).svg.encode("utf-8")
        path = Path(cache_dir) / f"{kind}-{hashlib.sha256(svg).hexdigest()[:12]}.svg"
        if _cached(path, len(svg), len(svg)) != svg:
            write_bytes(path, svg)
        return path
    path = Path(cache_dir) / f"{kind}-{cache_key(kind, params)[:12]}.png"
    if _cached(path, _MAX_PNG_BYTES, len(_PNG_SIGNATURE)) != _PNG_SIGNATURE:
        write_bytes(path, png_bytes(figure(kind, params)))
    return path


_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_MAX_PNG_BYTES = 16 * 1024 * 1024


def _cached(path: Path, limit: int, count: int) -> bytes | None:
    """The first ``count`` bytes of a cached figure if it is a regular file (not a link, pipe
    or device, which another user of a shared cache could plant) of at most ``limit`` bytes.

    A diagram is compared whole with the SVG it must be; a plot that does not start as a
    PNG is drawn again (a PNG is only ever shown as an image, never run)."""
    try:
        info = path.lstat()
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
        return None
    with open(path, "rb") as file:
        return file.read(count)


def default_cache_dir() -> Path:
    """The per-user folder where figures are kept between builds, or a temporary one."""
    root = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    path = Path(root) / "paperdeck" / "figures"
    try:
        path.mkdir(parents=True, exist_ok=True)
        return path
    except OSError:
        return Path(tempfile.mkdtemp(prefix="paperdeck-figures-"))
