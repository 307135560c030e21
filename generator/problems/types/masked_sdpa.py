"""Masked (causal) self-attention in the decoder (S3.2.3): position i attends to j <= i."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import ProblemInputError
from ...values import Precision
from ..latex import matrix as latex_matrix
from ..model import Distractor, ProblemType, Solution, Step, Tolerance
from ..registry import register
from ..rounding import plain
from .sdpa import attention_inputs, readable_scores
from .sdpa import softmax_inputs as sdpa_softmax_inputs
from .softmax import softmax

# (positions n, d_k, d_v, largest |entry| of Q and K, largest |entry| of V).
_SIZES = {"easy": (2, 4, 2, 1, 3), "medium": (3, 4, 2, 1, 3), "hard": (4, 4, 2, 2, 3)}


def causal_allowed(n: int) -> np.ndarray:
    """``allowed[i, j]`` is true where position i may attend to position j (j <= i).

    A boolean mask; the additive form (0 or minus infinity) is
    ``visuals.kinds.attention.causal_mask_additive``.
    """
    return np.tri(n, dtype=bool)


def pick(rng: np.random.Generator, difficulty: str) -> dict[str, Any]:
    n, d_k, d_v, top, value_top = _SIZES[difficulty]
    allowed = causal_allowed(n)
    while True:
        QK = rng.integers(-top, top + 1, size=(2 * n, d_k))
        Q, K = QK[:n], QK[n:]
        if readable_scores(Q @ K.T / np.sqrt(d_k), allowed):
            break
    V = rng.integers(-value_top, value_top + 1, size=(n, d_v))
    return {"Q": Q.tolist(), "K": K.tolist(), "V": V.tolist()}


def _masked_attention(
    scores: np.ndarray, allowed: np.ndarray, V: np.ndarray, fill: float = -np.inf
) -> tuple[np.ndarray, np.ndarray]:
    weights = softmax(np.where(allowed, scores, fill))
    return weights, weights @ V


def solve(given: dict[str, Any]) -> Solution:
    Q, K, V = (np.array(m, dtype=float) for m in attention_inputs(given))
    n, d_k = Q.shape
    if K.shape[0] != n:
        raise ProblemInputError(
            "given.K",
            f"has {K.shape[0]} rows but Q has {n}; self-attention has one query and one key per position",
        )
    allowed = causal_allowed(n)
    raw = Q @ K.T
    scores = raw / np.sqrt(d_k)
    masked = np.where(allowed, scores, -np.inf)
    weights, output = _masked_attention(scores, allowed, V)
    steps = (
        Step("Dot products of every query with every key", r"QK^{\top} = " + latex_matrix(raw)),
        Step(
            rf"Scale by the square root of \(d_k = {d_k}\)",
            r"S = \frac{QK^{\top}}{\sqrt{" + str(d_k) + "}} = " + latex_matrix(scores),
        ),
        Step(
            r"Mask: set the scores of later positions (\(j > i\)) to \(-\infty\)",
            r"S + M = " + latex_matrix(masked),
        ),
        Step(
            r"Softmax along each row; masked entries get weight \(0\) since \(e^{-\infty} = 0\)",
            r"A = \mathrm{softmax}(S + M) = " + latex_matrix(weights),
        ),
        Step("Weighted sum of the values", r"AV = " + latex_matrix(output)),
    )

    def wrong(mistake: str, weights_: np.ndarray, output_: np.ndarray) -> Distractor:
        return Distractor(mistake, {"weights": plain(weights_), "output": plain(output_)})

    unmasked = softmax(scores)
    distractors = [
        wrong("did not apply the mask", unmasked, unmasked @ V),
        wrong(
            r"masked the wrong triangle (attended to \(j \geq i\))", *_masked_attention(scores, allowed.T, V)
        ),
        wrong(
            r"set masked scores to \(0\) instead of \(-\infty\)",
            *_masked_attention(scores, allowed, V, fill=0.0),
        ),
    ]
    if d_k > 1:
        distractors.append(wrong(r"forgot to divide by \(\sqrt{d_k}\)", *_masked_attention(raw, allowed, V)))
    answer = {"weights": plain(weights), "output": plain(output)}
    return Solution(answer, steps, tuple(distractors))


PRECISION = Precision(decimals=3)
"""The digits its answers are given to; its prompt asks for them in words (``_ASKED``)."""
_ASKED = PRECISION.spelled()


def prompt(given: dict[str, Any]) -> str:
    n, d_k = len(given["Q"]), len(given["Q"][0])
    return (
        rf"In decoder self-attention over \(n = {n}\) positions, position \(i\) may only attend"
        r" to positions \(j \le i\): before the softmax the scores with \(j \ge i + 1\) are set to"
        r" \(-\infty\). Compute the masked attention"
        r" \(\mathrm{softmax}\left(\frac{QK^{\top}}{\sqrt{d_k}} + M\right)V\) for"
        r" \(Q = " + latex_matrix(given["Q"]) + r"\), \(K = " + latex_matrix(given["K"]) + r"\)"
        r" and \(V = " + latex_matrix(given["V"]) + rf"\), so \(d_k = {d_k}\)."
        f" Give the output to {_ASKED}."
    )


def softmax_inputs(given: dict[str, Any]) -> list[np.ndarray]:
    """The scaled scores with the masked ones (key after query) set to minus infinity."""
    (scores,) = sdpa_softmax_inputs(given)
    return [np.where(causal_allowed(scores.shape[0]), scores, -np.inf)]


register(
    ProblemType(
        id="masked-sdpa",
        description="Causally masked self-attention (S3.2.3): weights and output",
        pick=pick,
        solve=solve,
        prompt=prompt,
        tolerance=Tolerance(abs=0.005),
        precision=PRECISION,
        primary="output",
        source="S3.2.3",
        paper="aiayn",
        work_space_cm=8.5,
        heatmap="causal",
        softmax_inputs=softmax_inputs,
        inputs={
            "Q": "queries (n × d_k), one per position",
            "K": "keys (n × d_k)",
            "V": "values (n × d_v)",
        },
        outputs={
            "weights": "softmax of the scaled scores with later keys masked (n × n)",
            "output": "weights · V",
        },
    )
)
