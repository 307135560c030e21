"""Sinusoidal positional encodings, Sec. 3.5.

PE(pos, 2i) = sin(pos / 10000^(2i/d_model)), PE(pos, 2i+1) = cos(same): each
pair of dimensions is a sinusoid, with wavelengths from 2 pi to 10000 * 2 pi.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..registry import Param, integer, integers, visual
from ..style import LINE_STYLES, house_style, new_figure

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def positional_encoding(positions: int, d_model: int) -> np.ndarray:
    """PE for positions 0..positions-1, shape (positions, d_model), float64."""
    pos = np.arange(positions, dtype=float)[:, None]
    dim = np.arange(d_model)
    angle = pos / np.power(10000.0, (dim - dim % 2) / d_model)
    return np.where(dim % 2 == 0, np.sin(angle), np.cos(angle))


def _check(p: dict[str, Any]) -> list[str]:
    if p["d_model"] % 2:
        return [f"params.d_model: expected an even number (sin and cos pairs), got {p['d_model']}"]
    too_big = [d for d in p["dims"] if d >= p["d_model"]]
    if too_big:
        return [f"params.dims: dimensions are 0-based and below d_model = {p['d_model']}, got {too_big[0]}"]
    return []


@visual(
    "positional-encoding",
    "Sinusoidal positional encoding: positions x dimensions, and chosen dimensions as curves",
    params={
        "d_model": Param(integer(2, 1024), default=128),
        "positions": Param(integer(2, 1000), default=100),
        "dims": Param(integers(0, 1023, len(LINE_STYLES)), default=[4, 5, 6, 7]),
    },
    check=_check,
)
def draw(p: dict[str, Any]) -> Figure:
    d_model, positions, dims = p["d_model"], p["positions"], p["dims"]
    pe = positional_encoding(positions, d_model)
    with house_style():
        fig = new_figure(height_in=4.0 + 0.95 * len(dims))
        # Two subfigures lay out apart, so the colorbar does not narrow the curves.
        top, bottom = fig.subfigures(2, 1, squeeze=False, height_ratios=[4.0, 0.95 * len(dims)])[:, 0]
        heat_ax = top.subplots()
        image = heat_ax.imshow(
            pe,
            cmap="cividis",
            vmin=-1,
            vmax=1,
            aspect="auto",
            interpolation="nearest",
            extent=(-0.5, d_model - 0.5, positions - 0.5, -0.5),
        )
        heat_ax.set_xlabel("dimension (0-based; even = sin, odd = cos)")
        heat_ax.set_ylabel("position pos")
        heat_ax.set_title(f"PE(pos, dim) with d_model = {d_model}")
        bar = top.colorbar(image, ax=heat_ax, aspect=15)
        bar.set_label("PE value")

        # One small panel per chosen dimension: curves that cross at every
        # wavelength are unreadable together. Markers are the integer positions
        # where PE is defined; the thin line is the underlying sinusoid.
        axes = bottom.subplots(len(dims), 1, sharex=True, squeeze=False)[:, 0]
        fine = np.linspace(0, positions - 1, 20 * positions)
        for k, (ax, dim) in enumerate(zip(axes, dims, strict=True)):
            fn = "sin" if dim % 2 == 0 else "cos"
            rate = 10000.0 ** ((dim - dim % 2) / d_model)
            wave = np.sin(fine / rate) if fn == "sin" else np.cos(fine / rate)
            style = LINE_STYLES[k]
            ax.plot(fine, wave, color="0.6", linewidth=1.0, linestyle=style["linestyle"])
            ax.plot(
                np.arange(positions),
                pe[:, dim],
                linestyle="none",
                marker=style["marker"],
                color="black",
                markersize=3.5 if positions > 50 else 5,
            )
            ax.set_ylim(-1.3, 1.3)
            ax.set_yticks([-1, 0, 1])
            ax.set_ylabel(f"dim {dim}", rotation=0, ha="right", va="center")
            ax.text(
                1.0,
                1.02,
                f"{fn}(pos / {rate:.4g}), wavelength {2 * np.pi * rate:.3g} positions",
                transform=ax.transAxes,
                ha="right",
                va="bottom",
                fontsize=10,
            )
            ax.grid(True, axis="y")
        axes[-1].set_xlabel("position pos (tokens)")
        axes[-1].set_xlim(-0.5, positions - 0.5)
    return fig
