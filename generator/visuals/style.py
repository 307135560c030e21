"""One look for every figure: readable printed in black and white and on a phone.

Figures are 6 in wide at 200 dpi (1200 px), text is at least 10 pt at that size,
colour maps are monotonic in lightness (``Greys``, ``cividis``) and lines differ
by style and marker, never by colour alone. Figures are drawn on the Agg canvas
directly (no pyplot, no display, no global backend switch), and PNGs are written
without a timestamp or software tag so the same figure gives the same bytes.
matplotlib is imported only when a figure is drawn: checking content and finding
a figure in the cache never load it.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, TypedDict

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from matplotlib.typing import RcKeyType

WIDTH_IN = 6.0
"""Figure width in inches: a printed column, and 1200 px on screen."""
DPI = 200


class LineStyle(TypedDict):
    """Keyword arguments of ``Axes.plot`` for one curve."""

    color: str
    linestyle: str | tuple[float, tuple[float, ...]]
    marker: str


# Line styles for curves drawn in one panel: each differs in dash and marker,
# so they stay apart in grayscale print and for colour-blind readers.
LINE_STYLES: tuple[LineStyle, ...] = (
    {"color": "black", "linestyle": "-", "marker": "o"},
    {"color": "0.35", "linestyle": "--", "marker": "s"},
    {"color": "0.15", "linestyle": ":", "marker": "^"},
    {"color": "0.5", "linestyle": "-.", "marker": "D"},
    {"color": "0.25", "linestyle": (0, (5, 1, 1, 1, 1, 1)), "marker": "v"},
    {"color": "0.45", "linestyle": (0, (1, 1)), "marker": "x"},
)

RC: dict[RcKeyType, Any] = {
    "font.family": "DejaVu Sans",  # ships with matplotlib: same glyphs on every machine
    "mathtext.fontset": "dejavusans",
    "font.size": 12,
    "axes.titlesize": 12,
    "axes.labelsize": 12,
    "xtick.labelsize": 11,
    "ytick.labelsize": 11,
    "legend.fontsize": 10.5,
    "figure.dpi": DPI,
    "savefig.dpi": DPI,
    "figure.facecolor": "white",
    "savefig.facecolor": "white",
    "axes.grid": False,
    "grid.color": "0.85",
    "grid.linewidth": 0.8,
    "lines.linewidth": 2.0,
    "lines.markersize": 6,
    "image.cmap": "Greys",
    "svg.hashsalt": "paperdeck",  # fixed ids should a figure ever be saved as SVG
    "svg.fonttype": "path",
    "pdf.fonttype": 42,
}


@contextlib.contextmanager
def house_style() -> Iterator[None]:
    """The rcParams every figure is created and saved under."""
    import matplotlib

    with matplotlib.rc_context(RC):
        yield


def new_figure(height_in: float) -> Figure:
    """An empty figure of the house width with constrained layout, on an Agg canvas."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(WIDTH_IN, height_in), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def png_bytes(fig: Figure) -> bytes:
    """The figure as PNG bytes that depend only on what is drawn."""
    buffer = io.BytesIO()
    with house_style():
        # Software is the only metadata matplotlib adds to a PNG; dropping it keeps
        # bytes equal across matplotlib versions that draw the same pixels.
        fig.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None})
    return buffer.getvalue()
