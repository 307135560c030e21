"""Why attention divides by sqrt(d_k) (S3.2.1, footnote 4).

For unit-variance q and k the dot product q.k has variance d_k, so without the
scale the softmax over keys saturates toward one-hot as d_k grows, where its
gradients vanish. The figure samples vectors and plots the mean largest weight.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..registry import Param, integer, integers, visual
from ..style import LINE_STYLES, house_style, new_figure

if TYPE_CHECKING:
    from matplotlib.figure import Figure

_MAX_DRAWS = 100_000_000
"""Largest samples x keys x sum(d_k): keeps a render under a few seconds."""


def _softmax_max(scores: np.ndarray) -> np.ndarray:
    shifted = np.exp(scores - scores.max(axis=-1, keepdims=True))
    largest: np.ndarray = 1.0 / shifted.sum(axis=-1)  # the largest shifted entry is exp(0) = 1
    return largest


def mean_max_weight(d_k: int, samples: int, keys: int, seed: int) -> tuple[float, float]:
    """Mean over samples of the largest softmax weight, (unscaled, scaled by 1/sqrt(d_k)).

    Each d_k draws from its own stream (SeedSequence of seed and d_k), so adding
    a d_k to the plot leaves the other points unchanged.
    """
    rng = np.random.default_rng(np.random.SeedSequence([seed, d_k]))
    chunk = max(1, 2_000_000 // (keys * d_k))
    unscaled = scaled = 0.0
    for start in range(0, samples, chunk):
        m = min(chunk, samples - start)
        q = rng.standard_normal((m, 1, d_k))
        k = rng.standard_normal((m, keys, d_k))
        scores = (q * k).sum(axis=-1)
        unscaled += _softmax_max(scores).sum()
        scaled += _softmax_max(scores / np.sqrt(d_k)).sum()
    return unscaled / samples, scaled / samples


def _check(p: dict[str, Any]) -> list[str]:
    draws = p["samples"] * p["keys"] * sum(p["d_k"])
    if draws > _MAX_DRAWS:
        return [f"params.samples: samples x keys x sum(d_k) = {draws} is over {_MAX_DRAWS}; use fewer"]
    return []


@visual(
    "softmax-saturation",
    "Largest softmax weight of q.k scores with and without the 1/sqrt(d_k) scale",
    params={
        "d_k": Param(integers(1, 4096, 12), default=[1, 4, 16, 64, 256, 1024]),
        "samples": Param(integer(10, 100_000), default=2000),
        "keys": Param(integer(2, 1000), default=10),
        "seed": Param(integer(0, 2**32 - 1), default=0),
    },
    check=_check,
)
def draw(p: dict[str, Any]) -> Figure:
    d_k = sorted(p["d_k"])
    points = np.array([mean_max_weight(d, p["samples"], p["keys"], p["seed"]) for d in d_k])
    with house_style():
        fig = new_figure(height_in=4.2)
        ax = fig.add_subplot()
        ax.plot(d_k, points[:, 0], label=r"unscaled: softmax$(q\cdot k)$", **LINE_STYLES[0])
        ax.plot(d_k, points[:, 1], label=r"scaled: softmax$(q\cdot k/\sqrt{d_k})$", **LINE_STYLES[1])
        ax.axhline(1.0, color="0.5", linewidth=1, linestyle=":")
        ax.axhline(1.0 / p["keys"], color="0.5", linewidth=1, linestyle=":")
        ax.text(d_k[0], 1.0, "one-hot", va="bottom", ha="left", fontsize=10, color="0.3")
        ax.text(
            d_k[0],
            1.0 / p["keys"],
            f"uniform = 1/{p['keys']}",
            va="bottom",
            ha="left",
            fontsize=10,
            color="0.3",
        )
        ax.set_xscale("log", base=2)
        ax.set_xticks(d_k, [str(d) for d in d_k])
        ax.minorticks_off()
        ax.set_ylim(0, 1.1)
        ax.set_xlabel(r"key dimension $d_k$ (log scale)")
        ax.set_ylabel("mean largest softmax weight")
        ax.set_title(f"Softmax over {p['keys']} keys, q and k ~ N(0, 1), {p['samples']} samples")
        ax.grid(True, which="major")
        ax.legend(loc="center right")
    return fig
