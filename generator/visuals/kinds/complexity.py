"""Table 1 as a plot: operations per layer against sequence length n.

Self-attention costs O(n^2 d), a recurrent layer O(n d^2), a convolution with
kernel width k O(k n d^2). Self-attention is cheaper while n < d, which holds
for the sentence lengths of machine translation (n in the tens, d = 512).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..registry import Param, integer, visual
from ..style import LINE_STYLES, house_style, new_figure

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def operations_per_layer(n: np.ndarray, d: int, k: int) -> dict[str, np.ndarray]:
    """Multiply-adds per layer by layer type, up to constant factors (Table 1)."""
    n = np.asarray(n, dtype=float)
    return {
        "self-attention": n**2 * d,
        "recurrent": n * d**2,
        "convolutional": k * n * d**2,
    }


@visual(
    "complexity",
    "Operations per layer against sequence length for self-attention, recurrent and convolutional layers",
    params={
        "d": Param(integer(2, 65536), default=512),
        "n_max": Param(integer(4, 10_000_000), default=2048),
        "k": Param(integer(1, 64), default=3),
    },
)
def draw(p: dict[str, Any]) -> Figure:
    d, n_max, k = p["d"], p["n_max"], p["k"]
    n = np.geomspace(1, n_max, 200)
    ops = operations_per_layer(n, d, k)
    names = {
        "self-attention": r"self-attention  $n^2 \cdot d$",
        "recurrent": r"recurrent  $n \cdot d^2$",
        "convolutional": rf"convolutional  $k \cdot n \cdot d^2$ (k = {k})",
    }
    with house_style():
        fig = new_figure(height_in=4.4)
        ax = fig.add_subplot()
        for index, (name, y) in enumerate(ops.items()):
            # Staggered markers so they do not sit on top of each other.
            ax.plot(n, y, label=names[name], markevery=(0.02 + 0.03 * index, 0.12), **LINE_STYLES[index])
        ax.set_xscale("log")
        ax.set_yscale("log")
        if d <= n_max:
            ax.axvline(d, color="black", linewidth=1, linestyle="-.")
            ax.plot(
                [d],
                [float(d) ** 3],
                marker="o",
                markersize=9,
                markerfacecolor="white",
                markeredgecolor="black",
                linestyle="none",
                zorder=5,
            )
            ax.annotate(
                f"n = d = {d}:\nself-attention\n= recurrent",
                xy=(d, 0.04),
                xycoords=ax.get_xaxis_transform(),
                xytext=(-6, 0),
                textcoords="offset points",
                ha="right",
                va="bottom",
                fontsize=10.5,
            )
        else:
            ax.text(
                0.98,
                0.04,
                f"crossover at n = d = {d}\nis beyond n = {n_max}",
                transform=ax.transAxes,
                ha="right",
                va="bottom",
                fontsize=10.5,
            )
        ax.set_xlim(1, n_max)
        ax.set_xlabel("sequence length n (tokens, log scale)")
        ax.set_ylabel("operations per layer\n(multiply-adds, log scale)")
        ax.set_title(f"Per-layer cost, Table 1, at d = {d}")
        ax.grid(True, which="major")
        ax.legend(loc="upper left", fontsize=10)
    return fig
