"""Attention weights as annotated heatmaps, with and without the causal mask (S3.2).

The weights come from the problem types' own ``solve`` (``sdpa``, and
``masked-sdpa`` when it is registered), so a figure and an answer key built from
the same givens always show the same numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ... import problems
from ...errors import ProblemInputError
from ..registry import Param, ParamError, as_matrix, integer, labels, matrix, one_of, text, visual
from ..style import house_style, new_figure

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

MAX_TOKENS = 12
"""Largest number of queries or keys drawn; beyond it the printed numbers do not fit."""
MAX_DIM = 64
"""Largest d_k or d_v accepted in givens."""

_MINUS_INFINITY = "\u2212\u221e"


def _solve_weights(problem_type: str, given: dict[str, Any]) -> np.ndarray:
    return np.asarray(problems.get(problem_type).solve(given).answer["weights"], dtype=float)


def causal_mask_additive(n: int) -> np.ndarray:
    """The additive mask of Sec. 3.2.3: 0 where key j <= query i, -inf after it."""
    return np.where(np.tril(np.ones((n, n), dtype=bool)), 0.0, -np.inf)


def masked_attention_weights(given: dict[str, Any]) -> np.ndarray:
    """softmax(QK^T / sqrt(d_k) + M) for the causal mask M, as the ``masked-sdpa``
    problem type computes it, so the figure shows its answer key."""
    return _solve_weights("masked-sdpa", given)


def _auto_decimals(n_cols: int, width_in: float) -> int:
    # "0.6698" at 10-11 pt is about 0.5 in wide; keep a margin inside each cell.
    cell = width_in / n_cols
    return 4 if cell >= 0.62 else 3 if cell >= 0.52 else 2


def _cell_fontsize(n_cols: int, width_in: float) -> float:
    return 11.0 if width_in / n_cols >= 0.5 else 10.0


def _tick_labels(
    ax: Axes, n_rows: int, n_cols: int, row_labels: Sequence[str] | None, col_labels: Sequence[str] | None
) -> None:
    ax.set_xticks(range(n_cols), col_labels or [str(j + 1) for j in range(n_cols)])
    ax.set_yticks(range(n_rows), row_labels or [str(i + 1) for i in range(n_rows)])
    if col_labels and max(len(label) for label in col_labels) > 3:
        ax.tick_params(axis="x", labelrotation=45)
    # Thin white lines between cells keep equal neighbours apart in print.
    ax.set_xticks(np.arange(n_cols + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(n_rows + 1) - 0.5, minor=True)
    ax.grid(which="minor", color="white", linewidth=1.5)
    ax.tick_params(which="minor", length=0)


def draw_weights(
    ax: Axes, weights: np.ndarray, *, decimals: int, fontsize: float, masked: np.ndarray | None = None
) -> Any:
    """Weights as a Greys heatmap on [0, 1] with each value printed in its cell.

    Cells in ``masked`` (a boolean array) are hatched: the mask, not the softmax,
    made them zero. Returns the image for a colorbar.
    """
    image = ax.imshow(weights, cmap="Greys", vmin=0.0, vmax=1.0, aspect="equal")
    for (i, j), w in np.ndenumerate(weights):
        if masked is not None and masked[i, j]:
            ax.add_patch(_hatch(i, j))
            label = "0"
        else:
            label = f"{w:.{decimals}f}"
        ax.text(
            j, i, label, ha="center", va="center", fontsize=fontsize, color="white" if w > 0.55 else "black"
        )
    return image


def _hatch(i: int, j: int) -> Any:
    from matplotlib.patches import Rectangle

    return Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="///", edgecolor="0.6", linewidth=0)


def attention_heatmap(
    weights: Any,
    title: str = "Attention weights",
    *,
    query_labels: Sequence[str] | None = None,
    key_labels: Sequence[str] | None = None,
    decimals: int | None = None,
    masked: Any = None,
) -> Figure:
    """A heatmap of attention weights (queries x keys) with every value printed.

    ``weights`` is the ``weights`` answer of an ``sdpa`` or ``masked-sdpa``
    problem (rows sum to 1). Cells where ``masked`` (booleans, same shape) is
    true are hatched and print 0: the mask removed them. Save the figure with
    ``generator.visuals.png_bytes``.
    """
    w = np.atleast_2d(np.asarray(weights, dtype=float))
    n_q, n_k = w.shape
    with house_style():
        cell = min(0.95, 4.3 / n_k)
        fig = new_figure(height_in=max(2.4, n_q * cell + 1.5))
        ax = fig.add_subplot()
        width = cell * n_k
        image = draw_weights(
            ax,
            w,
            decimals=decimals or _auto_decimals(n_k, width),
            fontsize=_cell_fontsize(n_k, width),
            masked=None if masked is None else np.asarray(masked, dtype=bool),
        )
        _tick_labels(ax, n_q, n_k, query_labels, key_labels)
        ax.set_xlabel("key j")
        ax.set_ylabel("query i")
        ax.set_title(title)
        bar = fig.colorbar(
            image,
            ax=ax,
            shrink=0.8 if n_q > 2 else 0.7,
            orientation="vertical" if n_q > 2 else "horizontal",
            aspect=12 if n_q > 2 else 25,
        )
        bar.set_label("attention weight (row sums to 1)")
    return fig


def _given(value: Any) -> dict[str, list[list[float]]]:
    """a mapping of Q, K and V matrices (or write ``example: <worked example id>`` instead)"""
    if not isinstance(value, dict):
        raise ParamError(f"expected a mapping with Q, K and V, got {value!r:.40}")
    unknown = sorted(set(value) - {"Q", "K", "V"})
    if unknown:
        raise ParamError("unknown key; expected Q, K and V", f".{unknown[0]}")
    out = {}
    for name in ("Q", "K", "V"):
        if name not in value:
            raise ParamError("missing", f".{name}")
        limits = (MAX_TOKENS, MAX_DIM)
        out[name] = as_matrix(value[name], *limits, subfield=f".{name}")
    return out


def _solver_messages(problem_type: str, given: dict[str, Any]) -> list[str]:
    if problem_type not in problems.all_types():
        return [f"params.problem: problem type {problem_type!r} is not available yet"]
    try:
        problems.get(problem_type).solve(given)
    except ProblemInputError as error:
        return [f"params.{error.field}: {error.message}"]
    return []


def _check_heatmap(p: dict[str, Any]) -> list[str]:
    if (p["given"] is None) == (p["weights"] is None):
        return ["params: give exactly one of given (Q, K, V) and weights"]
    if p["given"] is not None:
        messages = _solver_messages(p["problem"], p["given"])
        if messages:
            return messages
        n_q, n_k = len(p["given"]["Q"]), len(p["given"]["K"])
    else:
        w = np.asarray(p["weights"])
        if np.any(w < 0) or np.any(np.abs(w.sum(axis=1) - 1) > 0.005):
            return ["params.weights: expected rows of non-negative weights summing to 1"]
        n_q, n_k = w.shape
    messages = []
    if p["query_labels"] is not None and len(p["query_labels"]) != n_q:
        messages.append(
            f"params.query_labels: expected {n_q} labels, one per query, got {len(p['query_labels'])}"
        )
    if p["key_labels"] is not None and len(p["key_labels"]) != n_k:
        messages.append(f"params.key_labels: expected {n_k} labels, one per key, got {len(p['key_labels'])}")
    return messages


@visual(
    "attention-heatmap",
    "Attention weights softmax(QK^T/sqrt(d_k)), queries x keys, every value printed",
    params={
        "given": Param(_given, default=None),
        "weights": Param(matrix(MAX_TOKENS, MAX_TOKENS), default=None),
        "problem": Param(one_of(("sdpa", "masked-sdpa")), default="sdpa"),
        "title": Param(text(80), default=None),
        "query_labels": Param(labels(MAX_TOKENS), default=None),
        "key_labels": Param(labels(MAX_TOKENS), default=None),
        "decimals": Param(integer(1, 4), default=None),
    },
    check=_check_heatmap,
)
def draw_attention_heatmap(p: dict[str, Any]) -> Figure:
    masked = None
    if p["given"] is not None:
        weights = _solve_weights(p["problem"], p["given"])
        d_k = len(p["given"]["Q"][0])
        default_title = rf"Attention weights softmax$(QK^\top/\sqrt{{{d_k}}})$"
        if p["problem"] == "masked-sdpa":
            default_title = rf"Masked attention weights softmax$(QK^\top/\sqrt{{{d_k}}} + M)$"
            masked = np.isinf(causal_mask_additive(weights.shape[0]))
    else:
        weights = np.asarray(p["weights"])
        default_title = "Attention weights"
    return attention_heatmap(
        weights,
        p["title"] or default_title,
        query_labels=p["query_labels"],
        key_labels=p["key_labels"],
        decimals=p["decimals"],
        masked=masked,
    )


def _check_causal(p: dict[str, Any]) -> list[str]:
    given = p["given"]
    if len(given["Q"]) != len(given["K"]):
        return [
            f"params.given.K: self-attention needs one key per query; Q has {len(given['Q'])} rows,"
            f" K has {len(given['K'])}"
        ]
    messages = _solver_messages("sdpa", given)
    if not messages and p["labels"] is not None and len(p["labels"]) != len(given["Q"]):
        messages.append(f"params.labels: expected {len(given['Q'])} labels, one per position")
    return messages


@visual(
    "causal-mask",
    "The causal mask (-inf above the diagonal) and the attention weights it leaves",
    params={
        "given": Param(_given),
        # The worked example's type, passed along when ``given`` comes from one;
        # either way this figure applies the mask.
        "problem": Param(one_of(("sdpa", "masked-sdpa")), default="masked-sdpa"),
        "labels": Param(labels(MAX_TOKENS), default=None),
        "decimals": Param(integer(1, 4), default=None),
    },
    check=_check_causal,
)
def draw_causal_mask(p: dict[str, Any]) -> Figure:
    weights = masked_attention_weights(p["given"])
    n = weights.shape[0]
    blocked = np.isinf(causal_mask_additive(n))
    side_by_side = n <= 4
    panel_width = 2.35 if side_by_side else 3.6
    cell = min(0.8 if side_by_side else 0.6, panel_width / n)
    with house_style():
        if side_by_side:
            fig = new_figure(height_in=n * cell + 1.9)
            mask_ax, weight_ax = fig.subplots(1, 2)
        else:
            fig = new_figure(height_in=2 * n * cell + 2.6)
            mask_ax, weight_ax = fig.subplots(2, 1)
        from matplotlib.colors import ListedColormap

        mask_ax.imshow(blocked, cmap=ListedColormap(["white", "0.3"]), vmin=0, vmax=1, aspect="equal")
        fontsize = _cell_fontsize(n, cell * n)
        for (i, j), is_blocked in np.ndenumerate(blocked):
            mask_ax.text(
                j,
                i,
                _MINUS_INFINITY if is_blocked else "0",
                ha="center",
                va="center",
                fontsize=fontsize + 1,
                color="white" if is_blocked else "black",
            )
        image = draw_weights(
            weight_ax,
            weights,
            masked=blocked,
            decimals=p["decimals"] or _auto_decimals(n, cell * n),
            fontsize=fontsize,
        )
        for ax in (mask_ax, weight_ax):
            _tick_labels(ax, n, n, p["labels"], p["labels"])
            ax.set_xlabel("key position j")
        mask_ax.set_ylabel("query position i")
        if not side_by_side:
            weight_ax.set_ylabel("query position i")
        mask_ax.set_title("Mask $M$: key $j > i$ gets $-\\infty$")
        weight_ax.set_title(r"softmax$(QK^\top/\sqrt{d_k} + M)$")
        # One bar for both panels keeps them the same size; it belongs to the right one.
        bar = fig.colorbar(
            image,
            ax=[mask_ax, weight_ax],
            shrink=0.6,
            aspect=25,
            location="bottom" if side_by_side else "right",
        )
        bar.set_label("attention weight (right panel)" if side_by_side else "attention weight (lower panel)")
    return fig
