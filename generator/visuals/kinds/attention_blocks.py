"""Figure 2 of the paper: scaled dot-product attention and multi-head attention (S3.2).

Left, the steps of scaled dot-product attention from Q, K and V to its output
(MatMul, Scale, the optional Mask, SoftMax, MatMul); right, multi-head
attention: h parallel Linear projections of V, K and Q, scaled dot-product
attention in each head, Concat and a final Linear. Drawn as a diagram from the
configuration: h and d_k = d_model / h appear as labels, with the paper's base
model as defaults. ``panel`` draws one side alone, for the lesson about it.
"""

from __future__ import annotations

from typing import Any

from ..diagram import Canvas, Diagram
from ..registry import Param, diagram, integer, one_of

MATMUL = "#d6cfe9"
SCALE = "#faf5c2"
MASK = "#f7d3e1"
SOFTMAX = "#cfe9d6"
LINEAR = "#e2ebea"
CONCAT = "#faf5c2"
HEADS = "#cdc6e4"

HEIGHT = 410.0
SDPA_WIDTH = 230.0
MHA_WIDTH = 405.0
PANELS = ("both", "scaled-dot-product", "multi-head")


def _check(p: dict[str, Any]) -> list[str]:
    if p["d_model"] % p["h"]:
        return [f"params.h: expected a divisor of d_model = {p['d_model']} (d_k = d_model / h), got {p['h']}"]
    return []


def _scaled_dot_product(c: Canvas, panel_x: float, d_k: int) -> None:
    c.text(["Scaled Dot-Product Attention"], panel_x + SDPA_WIDTH / 2, 12)
    ox = panel_x + 8
    q, k, v, chain = ox + 40, ox + 105, ox + 185, ox + 72
    c.arrow((ox + 115, 62), (ox + 115, 34))
    c.box(
        "matmul-output",
        ["MatMul"],
        ox + 30,
        62,
        170,
        30,
        MATMUL,
        answer=r"MatMul (the weights times the values \(V\))",
        note=r"The output is the weighted sum of the values, "
        r"\(\mathrm{softmax}(QK^{T}/\sqrt{d_k})\,V\).",
    )
    c.arrow((chain, 122), (chain, 94))
    c.box(
        "softmax",
        ["SoftMax"],
        ox + 22,
        122,
        100,
        28,
        SOFTMAX,
        note="Turns each row of scores into weights that sum to 1.",
    )
    c.arrow((chain, 180), (chain, 152))
    c.box(
        "mask",
        ["Mask (opt.)"],
        ox + 12,
        180,
        120,
        28,
        MASK,
        answer="Mask (optional)",
        note=r"Sets the scores of illegal connections to \(-\infty\); used in decoder self-attention.",
    )
    c.arrow((chain, 238), (chain, 210))
    c.box(
        "scale",
        ["Scale"],
        ox + 12,
        238,
        120,
        40,
        SCALE,
        small=(f"1/√d_{{k}}, d_{{k}} = {d_k}",),
        answer=r"Scale (by \(1/\sqrt{d_k}\))",
        note="Counteracts large dot products, which the authors suspect push the softmax into "
        "regions of tiny gradients.",
    )
    c.arrow((chain, 306), (chain, 280))
    c.box(
        "matmul-scores",
        ["MatMul"],
        ox + 12,
        306,
        120,
        30,
        MATMUL,
        answer=r"MatMul (the scores \(QK^{T}\))",
        note="The dot product of every query with every key.",
    )
    c.arrow((q, 372), (q, 338))
    c.arrow((k, 372), (k, 338))
    c.arrow((v, 372), (v, 94))
    c.label("q", ["Q"], q, 391, 14, ask=False, answer="Q (the queries)")
    c.label("k", ["K"], k, 391, 14, ask=False, answer="K (the keys)")
    c.label(
        "v",
        ["V"],
        v,
        391,
        14,
        answer="V (the values)",
        twins=("q", "k"),
        note="Only the values skip the scores: they enter at the last MatMul.",
    )


def _multi_head(c: Canvas, ox: float, h: int, d_model: int) -> None:
    v, k, q, mid = ox + 60, ox + 170, ox + 280, ox + 170
    d_k = d_model // h
    c.text(["Multi-Head Attention"], mid, 12)
    c.arrow((mid, 50), (mid, 26))
    c.box(
        "linear-output",
        ["Linear"],
        mid - 40,
        50,
        80,
        30,
        LINEAR,
        answer=r"Linear (the output projection \(W^{O}\))",
        note=f"Maps the concatenated heads back to \\(d_{{\\text{{model}}}} = {d_model}\\).",
    )
    c.arrow((mid, 110), (mid, 82))
    c.box(
        "concat",
        ["Concat"],
        mid - 50,
        110,
        100,
        30,
        CONCAT,
        note=f"Joins the \\(h = {h}\\) head outputs into one vector of \\(h d_v = {h * d_k}\\).",
    )
    for i in (2, 1):
        c.arrow((mid + 9 * i, 190 - 9 * i), (mid + 9 * i, 142), opacity=0.55 - 0.2 * (i - 1))
    c.arrow((mid, 190), (mid, 142))
    c.box(
        "attention-heads",
        ["Scaled Dot-Product", "Attention"],
        ox + 20,
        190,
        290,
        50,
        HEADS,
        shadows=2,
        answer="Scaled Dot-Product Attention (one per head)",
        note=f"Each of the \\(h = {h}\\) heads attends on its own projections, of size \\(d_k = {d_k}\\).",
    )
    # The brace that counts the stacked heads.
    c.line(
        (ox + 322, 168),
        (ox + 332, 176),
        (ox + 332, 205),
        (ox + 340, 211),
        (ox + 332, 217),
        (ox + 332, 246),
        (ox + 322, 254),
    )
    c.label(
        "heads-h",
        [f"h = {h}"],
        ox + 346,
        211,
        56,
        anchor="start",
        answer=f"\\(h = {h}\\), the number of heads",
        note="The attention layers running in parallel.",
    )
    for x, name, matrix in ((v, "v", "V"), (k, "k", "K"), (q, "q", "Q")):
        c.arrow((x, 300), (x, 242))
        c.box(
            f"linear-{name}",
            ["Linear"],
            x - 45,
            300,
            90,
            30,
            LINEAR,
            shadows=2,
            ask=name == "q",
            answer=f"Linear (the projection of \\({matrix}\\), one per head)",
            note=f"Each head projects \\({matrix}\\) with its own learned matrix, to \\(d_k = {d_k}\\).",
        )
        c.arrow((x, 372), (x, 332))
        c.label(f"mha-{name}", [matrix], x, 391, 14, ask=False)


@diagram(
    "attention-blocks",
    "Figure 2: scaled dot-product attention (left) and multi-head attention with h heads (right)",
    params={
        "panel": Param(one_of(PANELS), default="both"),
        "h": Param(integer(1, 256), default=8),
        "d_model": Param(integer(1, 65536), default=512),
    },
    check=_check,
)
def layout(p: dict[str, Any]) -> Diagram:
    panel, h, d_model = p["panel"], p["h"], p["d_model"]
    titles = {
        "both": "Scaled dot-product attention and multi-head attention (Figure 2)",
        "scaled-dot-product": "Scaled dot-product attention (Figure 2, left)",
        "multi-head": "Multi-head attention (Figure 2, right)",
    }
    width = {"both": SDPA_WIDTH + MHA_WIDTH, "scaled-dot-product": SDPA_WIDTH, "multi-head": MHA_WIDTH}[panel]
    c = Canvas(width, HEIGHT, titles[panel])
    if panel in ("both", "scaled-dot-product"):
        _scaled_dot_product(c, 0.0, d_model // h)
    if panel in ("both", "multi-head"):
        _multi_head(c, SDPA_WIDTH if panel == "both" else 0.0, h, d_model)
    return c.finish()
