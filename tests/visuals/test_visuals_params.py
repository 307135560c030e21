"""Content authors write visual parameters: every mistake gets a clear, pinned message."""

from __future__ import annotations

import pytest

from generator.errors import PaperdeckError
from generator.visuals import KINDS, VisualError, render, validate

TOY = {"Q": [[1, 0]], "K": [[1, 0], [0, 1]], "V": [[2, 3], [4, 5]]}


@pytest.mark.parametrize(
    "kind, params",
    [
        ("attention-heatmap", {"given": TOY}),
        ("attention-heatmap", {"weights": [[0.25, 0.75]], "title": "Toy", "key_labels": ["a", "b"]}),
        ("causal-mask", {"given": {"Q": [[1, 0], [0, 1]], "K": [[1, 0], [0, 1]], "V": [[1], [2]]}}),
        ("softmax-saturation", None),
        ("softmax-saturation", {"d_k": [1, 4, 16, 64, 256, 1024], "samples": 2000, "keys": 10, "seed": 0}),
        ("positional-encoding", {"d_model": 128, "positions": 100, "dims": [4, 5, 6, 7]}),
        ("lr-schedule", {"d_model": 512, "warmup_steps": 4000, "steps": 20000}),
        ("complexity", {"d": 512, "n_max": 2048}),
    ],
)
def test_good_params_have_no_messages(kind, params):
    assert validate(kind, params) == []


@pytest.mark.parametrize(
    "kind, params, message",
    [
        ("pie-chart", {}, f"kind: unknown visual kind 'pie-chart'; choose from {', '.join(sorted(KINDS))}"),
        ("complexity", [512], "params: expected a mapping of parameter names to values, got [512]"),
        (
            "complexity",
            {"dd": 512},
            "params.dd: unknown parameter of complexity; expected one of d, n_max, k",
        ),
        ("complexity", {"d": "512"}, "params.d: expected a whole number from 2 to 65536, got '512'"),
        ("complexity", {"d": True}, "params.d: expected a whole number from 2 to 65536, got True"),
        ("complexity", {"d": 512.0}, "params.d: expected a whole number from 2 to 65536, got 512.0"),
        ("lr-schedule", {"steps": 0}, "params.steps: expected a whole number from 2 to 10000000, got 0"),
        (
            "lr-schedule",
            {"warmup_steps": 4000, "steps": 3000},
            "params.warmup_steps: expected fewer than steps = 3000 so the decay shows, got 4000",
        ),
        (
            "positional-encoding",
            {"d_model": 127},
            "params.d_model: expected an even number (sin and cos pairs), got 127",
        ),
        (
            "positional-encoding",
            {"d_model": 8, "dims": [4, 9]},
            "params.dims: dimensions are 0-based and below d_model = 8, got 9",
        ),
        ("positional-encoding", {"dims": [4, 4]}, "params.dims: expected different numbers, got [4, 4]"),
        (
            "positional-encoding",
            {"dims": []},
            "params.dims: expected a list of 1 to 6 whole numbers from 0 to 1023, got []",
        ),
        (
            "softmax-saturation",
            {"d_k": [0, 4]},
            "params.d_k: expected a list of 1 to 12 whole numbers from 1 to 4096, got [0, 4]",
        ),
        (
            "softmax-saturation",
            {"samples": 100000, "keys": 1000},
            "params.samples: samples x keys x sum(d_k) = 136500000000 is over 100000000; use fewer",
        ),
        ("attention-heatmap", {}, "params: give exactly one of given (Q, K, V) and weights"),
        (
            "attention-heatmap",
            {"given": TOY, "weights": [[1.0]]},
            "params: give exactly one of given (Q, K, V) and weights",
        ),
        ("attention-heatmap", {"given": {"Q": [[1, 0]], "K": [[1, 0]]}}, "params.given.V: missing"),
        (
            "attention-heatmap",
            {"given": {"Q": [[1, 0]], "K": [[1, 0]], "V": [[1]], "M": 1}},
            "params.given.M: unknown key; expected Q, K and V",
        ),
        (
            "attention-heatmap",
            {"given": {"Q": [[1, "x"]], "K": [[1, 0]], "V": [[1]]}},
            "params.given.Q: expected finite numbers only, got [[1, 'x']]",
        ),
        (
            "attention-heatmap",
            {"given": {"Q": [[1, 0], [1]], "K": [[1, 0]], "V": [[1]]}},
            "params.given.Q: expected rows of equal length",
        ),
        (
            "attention-heatmap",
            {"weights": [[0.5] * 13]},
            "params.weights: expected at most 12 rows and 12 columns so the figure stays readable, got 1 x 13",
        ),
        (
            "attention-heatmap",
            {"weights": [[0.5, 0.6]]},
            "params.weights: expected rows of non-negative weights summing to 1",
        ),
        (
            "attention-heatmap",
            {"given": TOY, "key_labels": ["a"]},
            "params.key_labels: expected 2 labels, one per key, got 1",
        ),
        (
            "attention-heatmap",
            {"given": TOY, "problem": "mha"},
            "params.problem: expected one of sdpa, masked-sdpa, got 'mha'",
        ),
        (
            "attention-heatmap",
            {"given": TOY, "decimals": 7},
            "params.decimals: expected a whole number from 1 to 4, got 7",
        ),
        ("causal-mask", {}, "params.given: required by causal-mask"),
        (
            "causal-mask",
            {"given": TOY},
            "params.given.K: self-attention needs one key per query; Q has 1 rows, K has 2",
        ),
    ],
)
def test_bad_params_are_reported_by_field(kind, params, message):
    assert validate(kind, params) == [message]


def test_shape_mistakes_come_from_the_solver_with_the_field_named():
    from generator import problems
    from generator.errors import ProblemInputError

    given = {"Q": [[1, 0]], "K": [[1, 0, 0]], "V": [[1]]}
    with pytest.raises(ProblemInputError) as solver:
        problems.get("sdpa").solve(given)
    assert validate("attention-heatmap", {"given": given}) == [f"params.{solver.value}"]
    assert str(solver.value).startswith("given.K: ")


def test_every_mistake_is_reported_at_once():
    assert validate("complexity", {"d": 0, "n_max": "big", "z": 1}) == [
        "params.z: unknown parameter of complexity; expected one of d, n_max, k",
        "params.d: expected a whole number from 2 to 65536, got 0",
        "params.n_max: expected a whole number from 4 to 10000000, got 'big'",
    ]


def test_render_raises_one_line_visual_error(tmp_path):
    with pytest.raises(VisualError) as caught:
        render("lr-schedule", {"d_model": -1}, tmp_path)
    assert str(caught.value) == (
        "visual lr-schedule: params.d_model: expected a whole number from 1 to 65536, got -1"
    )
    assert isinstance(caught.value, PaperdeckError)  # the CLI turns it into exit code 2
    assert "\n" not in str(caught.value)
    assert list(tmp_path.iterdir()) == []


def test_render_unknown_kind(tmp_path):
    with pytest.raises(VisualError, match=r"^kind: unknown visual kind 'bar'; choose from attention-blocks"):
        render("bar", {}, tmp_path)


def test_null_means_default():
    assert validate("complexity", {"k": None}) == []
    assert validate("causal-mask", {"given": None}) == [
        "params.given: expected a mapping with Q, K and V, got None"
    ]
