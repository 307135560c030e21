"""The numbers in the figures are the paper's, computed by the problem solvers."""

from __future__ import annotations

import numpy as np
import pytest

from generator import problems
from generator.visuals import attention_heatmap, causal_mask_additive, figure, masked_attention_weights
from generator.visuals.kinds.complexity import operations_per_layer
from generator.visuals.kinds.lr_schedule import learning_rate
from generator.visuals.kinds.positional_encoding import positional_encoding
from generator.visuals.kinds.softmax_saturation import mean_max_weight

TOY = {"Q": [[1, 0]], "K": [[1, 0], [0, 1]], "V": [[2, 3], [4, 5]]}
THREE = {
    "Q": [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]],
    "K": [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]],
    "V": [[1.0, 0.0], [0.0, 1.0], [2.0, 2.0]],
}


def cell_texts(fig, panel=0):
    ax = fig.axes[panel]
    return [t.get_text() for t in ax.texts]


def test_toy_heatmap_prints_the_solver_weights():
    fig = figure("attention-heatmap", {"given": TOY})
    assert cell_texts(fig) == ["0.6698", "0.3302"]
    weights = problems.get("sdpa").solve(TOY).answer["weights"]
    assert cell_texts(attention_heatmap(weights)) == ["0.6698", "0.3302"]
    assert "sqrt{2}" in fig.axes[0].get_title()


def test_heatmap_of_a_masked_example_uses_masked_sdpa():
    fig = figure("attention-heatmap", {"given": THREE, "problem": "masked-sdpa"})
    assert cell_texts(fig) == ["1.0000", "0", "0", "0.3302", "0.6698", "0", "0.2483", "0.2483", "0.5035"]


def test_causal_mask_panels():
    fig = figure("causal-mask", {"given": THREE})
    minus_inf = "\u2212\u221e"
    assert cell_texts(fig, 0) == ["0", minus_inf, minus_inf, "0", "0", minus_inf, "0", "0", "0"]
    assert cell_texts(fig, 1) == ["1.0000", "0", "0", "0.3302", "0.6698", "0", "0.2483", "0.2483", "0.5035"]


def test_masked_weights_agree_with_the_masked_sdpa_solver_and_by_hand():
    scores = np.asarray(THREE["Q"]) @ np.asarray(THREE["K"]).T / np.sqrt(2) + causal_mask_additive(3)
    by_hand = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(masked_attention_weights(THREE), by_hand, atol=1e-12)
    if "masked-sdpa" in problems.all_types():
        solved = problems.get("masked-sdpa").solve(THREE).answer["weights"]
        np.testing.assert_allclose(solved, by_hand, atol=1e-12)


def test_causal_mask_is_minus_infinity_above_the_diagonal():
    m = causal_mask_additive(3)
    assert np.isneginf(m[0, 1]) and np.isneginf(m[1, 2]) and m[2, 0] == 0 and m[1, 1] == 0
    assert np.isinf(m).sum() == 3


def test_saturation_unscaled_grows_scaled_stays():
    low_u, low_s = mean_max_weight(1, 300, 10, 0)
    high_u, high_s = mean_max_weight(1024, 300, 10, 0)
    assert low_u == pytest.approx(low_s)  # sqrt(1) = 1
    assert high_u > 0.9 and high_s < 0.45
    assert mean_max_weight(16, 300, 10, 0) == mean_max_weight(16, 300, 10, 0)
    assert 0.1 <= high_s <= 1.0


def test_positional_encoding_formula():
    pe = positional_encoding(50, 16)
    pos, i = 7, 3
    assert pe[pos, 2 * i] == pytest.approx(np.sin(pos / 10000 ** (2 * i / 16)))
    assert pe[pos, 2 * i + 1] == pytest.approx(np.cos(pos / 10000 ** (2 * i / 16)))
    assert np.all(pe[0, 0::2] == 0) and np.all(pe[0, 1::2] == 1)


def test_positional_encoding_matches_its_problem_type():
    pe = positional_encoding(60, 128)
    solve = problems.get("positional-encoding").solve
    for pos, dim in [(0, 0), (5, 4), (17, 7), (59, 127)]:
        value = solve({"pos": pos, "dim": dim, "d_model": 128}).answer["value"]
        assert pe[pos, dim] == pytest.approx(value, abs=1e-9)


def test_learning_rate_eq3():
    assert learning_rate(4000, 512, 4000) == pytest.approx(512**-0.5 * 4000**-0.5)
    assert learning_rate(1000, 512, 4000) == pytest.approx(512**-0.5 * 1000 * 4000**-1.5)
    assert learning_rate(16000, 512, 4000) == pytest.approx(512**-0.5 * 16000**-0.5)
    steps = np.arange(1, 20001)
    assert int(np.argmax(learning_rate(steps, 512, 4000))) + 1 == 4000


def test_learning_rate_matches_its_problem_type():
    solve = problems.get("lr-schedule").solve
    for step in (1, 100, 4000, 12345):
        lrate = solve({"step": step, "d_model": 512, "warmup_steps": 4000}).answer["lrate"]
        assert float(learning_rate(step, 512, 4000)) == pytest.approx(lrate, rel=1e-9)


def test_complexity_crosses_at_n_equals_d():
    ops = operations_per_layer(np.array([256, 512, 1024]), 512, 3)
    attention, recurrent = ops["self-attention"], ops["recurrent"]
    assert attention[0] < recurrent[0] and attention[1] == recurrent[1] and attention[2] > recurrent[2]
    assert np.all(ops["convolutional"] == 3 * recurrent)
