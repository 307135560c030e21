"""Figure 1 of the paper: the Transformer's encoder–decoder architecture (S3, S3.1).

Drawn as a diagram from the model's configuration: the number of layers N, the
number of heads h, d_model and d_ff appear as labels (``N×`` with ``N = 6``),
with the paper's base model as defaults. The encoder is on the left, the
decoder on the right; each sub-layer sits under its Add & Norm, with the
residual connection drawn around it.
"""

from __future__ import annotations

from typing import Any

from ..diagram import Canvas, Diagram
from ..registry import Param, diagram, integer

# Fills close to the paper's, light enough for black words in print and inverted in night mode.
EMBEDDING = "#fbdde2"
ATTENTION = "#fde2c2"
ADD_NORM = "#f1f5c6"
FEED_FORWARD = "#c9e9f6"
LINEAR = "#dcdcf1"
SOFTMAX = "#cfe9d6"

WIDTH, HEIGHT = 560.0, 760.0
BOX_W = 150.0
ENC, DEC = 170.0, 400.0
"""Centre lines of the encoder and decoder columns."""
RES_ENC, RES_DEC = 82.0, 488.0
"""Where the residual connections run, outside the boxes, inside the stacks."""


def _check(p: dict[str, Any]) -> list[str]:
    if p["d_model"] % p["h"]:
        return [f"params.h: expected a divisor of d_model = {p['d_model']} (d_k = d_model / h), got {p['h']}"]
    return []


@diagram(
    "transformer-architecture",
    "Figure 1: the encoder-decoder architecture, N layers each, labels from the configuration",
    params={
        "N": Param(integer(1, 99), default=6),
        "h": Param(integer(1, 256), default=8),
        "d_model": Param(integer(1, 65536), default=512),
        "d_ff": Param(integer(1, 262144), default=2048),
    },
    check=_check,
)
def layout(p: dict[str, Any]) -> Diagram:
    c = Canvas(WIDTH, HEIGHT, "The Transformer: model architecture (Figure 1)")
    heads = (f"h = {p['h']}",)
    left = ENC - BOX_W / 2
    right = DEC - BOX_W / 2

    # Stacks: grey panels first so that everything else is drawn over them.
    c.group(68, 296, 200, 266)
    c.group(303, 160, 197, 402)

    # Encoder, bottom to top.
    c.label(
        "inputs",
        ["Inputs"],
        ENC,
        722,
        50,
        note=r"The source sequence \((x_1, \ldots, x_n)\), one token per position.",
    )
    c.arrow((ENC, 705), (ENC, 667))
    c.box(
        "input-embedding",
        ["Input", "Embedding"],
        left,
        620,
        BOX_W,
        45,
        EMBEDDING,
        note=r"A learned vector of size \(d_{\text{model}}\) for each input token, multiplied by "
        r"\(\sqrt{d_{\text{model}}}\).",
    )
    c.arrow((ENC, 620), (ENC, 601))
    c.adder(ENC, 592)
    c.line((131, 592), (161, 592))
    c.wave(115, 592)
    c.label(
        "encoder-positional-encoding",
        ["Positional", "Encoding"],
        92,
        592,
        74,
        anchor="end",
        extra=(99, 576, 32, 32),
        note="Sines and cosines of the position, added to the embeddings so that the model "
        "can make use of the order of the sequence.",
    )
    c.text(["d_{model} = " + str(p["d_model"])], ENC + 8, 573, size=11, anchor="start")
    c.arrow((ENC, 583), (ENC, 517))
    c.line((ENC - 40, 538), (ENC + 40, 538))
    c.arrow((ENC - 40, 538), (ENC - 40, 517))
    c.arrow((ENC + 40, 538), (ENC + 40, 517))
    c.box(
        "encoder-self-attention",
        ["Multi-Head", "Attention"],
        left,
        446,
        BOX_W,
        70,
        ATTENTION,
        small=heads,
        answer="Multi-Head Attention (encoder self-attention)",
        note="Queries, keys and values all come from the previous encoder layer.",
    )
    c.arrow((ENC, 548), (RES_ENC, 548), (RES_ENC, 428.5), (left - 1, 428.5))
    c.line((ENC, 446), (ENC, 441))
    c.box(
        "encoder-add-norm-1",
        ["Add & Norm"],
        left,
        416,
        BOX_W,
        25,
        ADD_NORM,
        answer="Add & Norm (residual connection and layer normalization)",
        note=r"Each sub-layer's output is \(\mathrm{LayerNorm}(x + \mathrm{Sublayer}(x))\).",
    )
    c.arrow((ENC, 416), (ENC, 391))
    c.box(
        "encoder-feed-forward",
        ["Feed Forward"],
        left,
        344,
        BOX_W,
        45,
        FEED_FORWARD,
        small=(f"d_{{ff}} = {p['d_ff']}",),
        answer="Feed Forward (position-wise)",
        note="Two linear maps with a ReLU between, applied to each position alike.",
    )
    c.arrow((ENC, 403), (RES_ENC, 403), (RES_ENC, 326.5), (left - 1, 326.5))
    c.line((ENC, 344), (ENC, 339))
    c.box(
        "encoder-add-norm-2",
        ["Add & Norm"],
        left,
        314,
        BOX_W,
        25,
        ADD_NORM,
        ask=False,
        answer="Add & Norm (residual connection and layer normalization)",
    )
    c.label(
        "encoder-repeat",
        ["N×"],
        36,
        429,
        26,
        small=(f"N = {p['N']}",),
        answer=f"N× (the encoder layer is repeated \\(N = {p['N']}\\) times)",
        note=r"The encoder is a stack of \(N\) identical layers.",
    )

    # Encoder output to the decoder's encoder-decoder attention (its keys and values).
    c.line((ENC, 314), (ENC, 280), (288, 280), (288, 378), (DEC, 378))
    c.arrow((DEC - 40, 378), (DEC - 40, 362))
    c.arrow((DEC, 378), (DEC, 362))

    # Decoder, bottom to top.
    c.label(
        "outputs",
        ["Outputs", "(shifted right)"],
        DEC,
        722,
        104,
        answer="Outputs (shifted right)",
        twins=("inputs",),
        note=r"The target tokens so far, offset by one position: position \(i\) sees only "
        r"outputs before \(i\).",
    )
    c.arrow((DEC, 705), (DEC, 667))
    c.box(
        "output-embedding",
        ["Output", "Embedding"],
        right,
        620,
        BOX_W,
        45,
        EMBEDDING,
        twins=("input-embedding",),
        note="The same learned embedding, for the output tokens.",
    )
    c.arrow((DEC, 620), (DEC, 601))
    c.adder(DEC, 592)
    c.line((DEC + 9, 592), (439, 592))
    c.wave(455, 592)
    c.label(
        "decoder-positional-encoding",
        ["Positional", "Encoding"],
        478,
        592,
        74,
        anchor="start",
        extra=(439, 576, 32, 32),
        ask=False,
    )
    c.arrow((DEC, 583), (DEC, 517))
    c.line((DEC - 40, 538), (DEC + 40, 538))
    c.arrow((DEC - 40, 538), (DEC - 40, 517))
    c.arrow((DEC + 40, 538), (DEC + 40, 517))
    c.box(
        "decoder-masked-attention",
        ["Masked", "Multi-Head", "Attention"],
        right,
        446,
        BOX_W,
        70,
        ATTENTION,
        small=heads,
        answer="Masked Multi-Head Attention (decoder self-attention)",
        note="Self-attention in which a position cannot attend to later positions.",
    )
    c.arrow((DEC, 548), (RES_DEC, 548), (RES_DEC, 428.5), (right + BOX_W + 1, 428.5))
    c.line((DEC, 446), (DEC, 441))
    c.box(
        "decoder-add-norm-1",
        ["Add & Norm"],
        right,
        416,
        BOX_W,
        25,
        ADD_NORM,
        ask=False,
        answer="Add & Norm (residual connection and layer normalization)",
    )
    # The decoder's own stream gives the queries.
    c.arrow((DEC, 416), (DEC, 398), (DEC + 40, 398), (DEC + 40, 362))
    c.box(
        "decoder-cross-attention",
        ["Multi-Head", "Attention"],
        right,
        305,
        BOX_W,
        55,
        ATTENTION,
        small=heads,
        answer="Multi-Head Attention (encoder-decoder attention)",
        note="Queries from the previous decoder layer; keys and values from the encoder output.",
    )
    c.arrow((DEC, 408), (RES_DEC, 408), (RES_DEC, 287.5), (right + BOX_W + 1, 287.5))
    c.line((DEC, 305), (DEC, 300))
    c.box(
        "decoder-add-norm-2",
        ["Add & Norm"],
        right,
        275,
        BOX_W,
        25,
        ADD_NORM,
        ask=False,
        answer="Add & Norm (residual connection and layer normalization)",
    )
    c.arrow((DEC, 275), (DEC, 249))
    c.box(
        "decoder-feed-forward",
        ["Feed Forward"],
        right,
        202,
        BOX_W,
        45,
        FEED_FORWARD,
        small=(f"d_{{ff}} = {p['d_ff']}",),
        ask=False,
        answer="Feed Forward (position-wise)",
    )
    c.arrow((DEC, 262), (RES_DEC, 262), (RES_DEC, 184.5), (right + BOX_W + 1, 184.5))
    c.line((DEC, 202), (DEC, 197))
    c.box(
        "decoder-add-norm-3",
        ["Add & Norm"],
        right,
        172,
        BOX_W,
        25,
        ADD_NORM,
        ask=False,
        answer="Add & Norm (residual connection and layer normalization)",
    )
    c.label(
        "decoder-repeat",
        ["N×"],
        528,
        361,
        26,
        small=(f"N = {p['N']}",),
        ask=False,
        answer=f"N× (the decoder layer is repeated \\(N = {p['N']}\\) times)",
    )

    # Output head.
    c.arrow((DEC, 172), (DEC, 132))
    c.box(
        "linear",
        ["Linear"],
        right,
        100,
        BOX_W,
        30,
        LINEAR,
        answer="Linear (the final linear transformation)",
        note="One score per vocabulary token; it shares its weights with the embeddings.",
    )
    c.arrow((DEC, 100), (DEC, 82))
    c.box(
        "softmax",
        ["Softmax"],
        right,
        50,
        BOX_W,
        30,
        SOFTMAX,
        note="Turns the scores into probabilities of the next token.",
    )
    c.arrow((DEC, 50), (DEC, 32))
    # Not asked: the Softmax box just below it gives the label away.
    c.label(
        "output-probabilities",
        ["Output Probabilities"],
        DEC,
        18,
        150,
        ask=False,
        note="A probability for every vocabulary token at the next position.",
    )
    return c.finish()
