"""The learning-rate schedule of Eq. (3), Sec. 5.3.

lrate = d_model^-0.5 * min(step^-0.5, step * warmup_steps^-1.5): a linear
warm-up for warmup_steps steps, then decay with the inverse square root of the
step. The two branches meet, and the rate peaks, at step = warmup_steps.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..registry import Param, integer, visual
from ..style import LINE_STYLES, house_style, new_figure

if TYPE_CHECKING:
    from matplotlib.figure import Figure

_POINTS = 2000


def learning_rate(step: np.ndarray | int, d_model: int, warmup_steps: int) -> np.ndarray:
    """Eq. (3) for steps >= 1, float64."""
    s = np.asarray(step, dtype=float)
    rate: np.ndarray = d_model**-0.5 * np.minimum(s**-0.5, s * warmup_steps**-1.5)
    return rate


def _check(p: dict[str, Any]) -> list[str]:
    if p["warmup_steps"] >= p["steps"]:
        return [
            f"params.warmup_steps: expected fewer than steps = {p['steps']} so the decay shows,"
            f" got {p['warmup_steps']}"
        ]
    return []


@visual(
    "lr-schedule",
    "Learning rate against training step (Eq. 3), warm-up end marked",
    params={
        "d_model": Param(integer(1, 65536), default=512),
        "warmup_steps": Param(integer(1, 10_000_000), default=4000),
        "steps": Param(integer(2, 10_000_000), default=20000),
    },
    check=_check,
)
def draw(p: dict[str, Any]) -> Figure:
    d_model, warmup, steps = p["d_model"], p["warmup_steps"], p["steps"]
    # Enough points for a smooth curve, and the corner at step = warmup exactly.
    step = np.unique(np.concatenate([np.linspace(1, steps, _POINTS).round(), [warmup]]))
    rate = learning_rate(step, d_model, warmup)
    peak = float(learning_rate(warmup, d_model, warmup))
    # Rates in units of 10^e, named in the axis label: clearer than an offset text.
    exponent = int(np.floor(np.log10(peak)))
    unit = 10.0**exponent
    with house_style():
        fig = new_figure(height_in=4.2)
        ax = fig.add_subplot()
        ax.plot(
            step,
            d_model**-0.5 * step * warmup**-1.5 / unit,
            color="0.55",
            linewidth=1.2,
            linestyle="--",
            label=r"warm-up branch $d_{model}^{-0.5}\cdot step\cdot warmup^{-1.5}$",
        )
        ax.plot(
            step,
            d_model**-0.5 * step**-0.5 / unit,
            color="0.55",
            linewidth=1.2,
            linestyle=":",
            label=r"decay branch $d_{model}^{-0.5}\cdot step^{-0.5}$",
        )
        ax.plot(
            step,
            rate / unit,
            label="lrate (the smaller of the two)",
            markevery=[int(np.searchsorted(step, warmup))],
            **LINE_STYLES[0],
        )
        ax.axvline(warmup, color="black", linewidth=1, linestyle="-.")
        ax.annotate(
            f"end of warm-up: step {warmup:,}\npeak lrate {peak:.3g}",
            xy=(warmup, peak / unit),
            xytext=(warmup + 0.04 * steps, 0.45 * peak / unit),
            ha="left",
            va="center",
            fontsize=10.5,
            arrowprops={"arrowstyle": "->", "color": "0.3", "linewidth": 1},
        )
        ax.set_xlim(0, steps)
        ax.set_ylim(0, peak * 1.35 / unit)
        ax.set_xlabel("training step (parameter updates)")
        ax.set_ylabel(f"learning rate ($\\times 10^{{{exponent}}}$)")
        ax.set_title(f"Eq. 3 with d_model = {d_model}, warmup_steps = {warmup:,}")
        ax.grid(True)
        ax.legend(loc="upper right", fontsize=10)
    return fig
