"""solve() on givens typed by people: known results, and every bad given is a ProblemInputError."""

from __future__ import annotations

import copy
import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.errors import ProblemInputError, UsageError
from generator.problems import DIFFICULTIES, Solution, all_types, generate, generate_one, get, problem_seed

TYPES = sorted(all_types())


def solve(type_id, given_):
    return get(type_id).solve(given_)


# ------------------------------------------------------------ known results


def test_sdpa_toy_example_from_the_design():
    answer = solve(
        "sdpa", {"Q": [[1.0, 0.0]], "K": [[1.0, 0.0], [0.0, 1.0]], "V": [[2.0, 3.0], [4.0, 5.0]]}
    ).answer
    assert answer["scores"][0] == pytest.approx([0.70710678, 0.0])
    assert answer["weights"][0] == pytest.approx([0.66976155, 0.33023845])
    # DESIGN.md prints 2.66051702; e^(1/sqrt 2) / (1 + e^(1/sqrt 2)) = 0.66976155 gives:
    assert answer["output"][0] == pytest.approx([2.6604769, 3.6604769], abs=1e-6)


def test_masked_sdpa_first_position_sees_only_itself():
    answer = solve(
        "masked-sdpa", {"Q": [[1, 0], [0, 1]], "K": [[0, 1], [1, 0]], "V": [[1, 2], [3, 4]]}
    ).answer
    assert answer["weights"][0] == [1.0, 0.0]
    assert answer["output"][0] == [1.0, 2.0]
    assert answer["weights"][1] == pytest.approx([0.66976155, 0.33023845])  # scores 1/sqrt 2, 0


def test_mha_shapes_of_the_base_model():
    answer = solve("mha-shapes", {"d_model": 512, "h": 8}).answer
    assert answer == {"d_k": 64, "d_v": 64, "params": 1_048_576}


def test_lr_schedule_peaks_at_the_end_of_warmup():
    at = {
        s: solve("lr-schedule", {"step": s, "d_model": 512, "warmup_steps": 4000}).answer["lrate"]
        for s in (1000, 4000, 16000)
    }
    assert at[4000] == pytest.approx(512**-0.5 * 4000**-0.5)
    assert at[1000] < at[4000] and at[16000] < at[4000]
    assert at[16000] == pytest.approx(at[4000] / 2)


def test_positional_encoding_known_values():
    assert solve("positional-encoding", {"pos": 0, "dim": 0, "d_model": 8}).answer["value"] == 0.0
    assert solve("positional-encoding", {"pos": 0, "dim": 1, "d_model": 8}).answer["value"] == 1.0
    value = solve("positional-encoding", {"pos": 5, "dim": 3, "d_model": 8}).answer["value"]
    assert value == pytest.approx(math.cos(0.5))  # 10000^(2/8) = 10


def test_label_smoothing_of_the_paper():
    answer = solve("label-smoothing", {"eps": 0.1, "vocab_size": 10}).answer
    assert answer == {"p_target": pytest.approx(0.91), "p_other": pytest.approx(0.01)}


def test_layer_norm_with_residual_and_affine():
    answer = solve(
        "layer-norm",
        {"x": [1, 2, 3, 4], "sublayer": [1, 0, -1, 0], "eps": 0, "gamma": [2, 2, 2, 2], "beta": [1, 1, 1, 1]},
    ).answer
    # z = [2, 2, 2, 4]: mean 2.5, population variance 0.75.
    sd = math.sqrt(0.75)
    assert answer["y"] == pytest.approx([1 - 1 / sd, 1 - 1 / sd, 1 - 1 / sd, 1 + 3 / sd])


def test_ffn_relu_zeroes_negative_units():
    answer = solve(
        "ffn", {"x": [[1, -1]], "W1": [[1, 2], [1, 1]], "b1": [0, -2], "W2": [[1], [5]], "b2": [0.5]}
    ).answer
    assert answer["output"] == [[0.5]]


def test_complexity_and_dot_variance_tables():
    answer = solve("complexity", {"n": 8, "d": 16, "k": 2, "r": 4}).answer
    assert answer["ops_self_attention"] == 1024 and answer["path_convolutional"] == 3.0
    assert answer["cheaper"] == "self-attention" and answer["path_restricted"] == 2.0
    variance = solve("dot-variance", {"d_k": 64, "var_q": 1.0, "var_k": 1.0}).answer
    assert variance == {"variance": 64.0, "std": 8.0, "scaled_variance": 1.0}


def test_content_worked_examples_still_recompute():
    answer = solve(
        "sdpa",
        {
            "Q": [[1.0, 0.0, 1.0, 0.0], [0.0, 2.0, 0.0, 0.0]],
            "K": [[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 0.0, 0.0]],
            "V": [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]],
        },
    ).answer
    assert answer["output"][0] == pytest.approx([0.81367628, 0.49351961])
    assert answer["output"][1] == pytest.approx([0.57768120, 0.84463760])


# ------------------------------------------------------------ bad givens

MHA = {
    "X": [[1, 0], [0, 1]],
    "W_Q": [[[1], [0]], [[0], [1]]],
    "W_K": [[[1], [1]], [[1], [0]]],
    "W_V": [[[1], [2]], [[2], [1]]],
    "W_O": [[1, 0], [0, 1]],
}
FFN = {
    "x": [[1, 2]],
    "W1": [[1, 0, 1], [0, 1, -1]],
    "b1": [0, 0, 0],
    "W2": [[1, 0], [0, 1], [1, 1]],
    "b2": [0, 0],
}
GOOD = {type_id: generate_one(type_id, 1, "easy").given for type_id in TYPES}
"""Valid givens of every type, from the type itself: what its ``pick`` draws."""

BAD = [
    ("softmax", {"x": []}, "given.x"),
    ("softmax", {"x": [1, "2"]}, "given.x"),
    ("softmax", {"x": [1, True]}, "given.x"),
    ("softmax", {"x": [[1, 2]]}, "given.x"),
    ("sdpa", {"Q": [[1, 0]], "K": [[1, 0, 0]], "V": [[1]]}, "given.K"),
    ("sdpa", {"Q": [[1, 0]], "K": [[1, 0]], "V": [[1], [2]]}, "given.V"),
    ("sdpa", {"Q": [[1, 0], [1]], "K": [[1, 0]], "V": [[1]]}, "given.Q"),
    ("sdpa", {"Q": [1, 0], "K": [[1, 0]], "V": [[1]]}, "given.Q"),
    ("masked-sdpa", {"Q": [[1, 0]], "K": [[1, 0], [0, 1]], "V": [[1], [2]]}, "given.K"),
    ("mha", {**MHA, "W_K": [[[1], [1]]]}, "given.W_K"),
    ("mha", {**MHA, "W_O": [[1, 0]]}, "given.W_O"),
    ("mha", {**MHA, "W_O": [[1], [0]]}, "given.W_O"),
    ("mha", {**MHA, "W_Q": [[[1], [0], [0]], [[0], [1], [0]]]}, "given.W_Q[0]"),
    ("mha", {**MHA, "W_V": []}, "given.W_V"),
    ("mha-shapes", {"d_model": 512, "h": 7}, "given.h"),
    ("mha-shapes", {"d_model": 512, "h": 0}, "given.h"),
    ("mha-shapes", {"d_model": 512.5, "h": 2}, "given.d_model"),
    ("positional-encoding", {"pos": 3, "dim": 8, "d_model": 8}, "given.dim"),
    ("positional-encoding", {"pos": 3, "dim": -1, "d_model": 8}, "given.dim"),
    ("positional-encoding", {"pos": -1, "dim": 0, "d_model": 8}, "given.pos"),
    ("lr-schedule", {"step": 0, "d_model": 512, "warmup_steps": 4000}, "given.step"),
    ("lr-schedule", {"step": 10, "d_model": 512, "warmup_steps": 0}, "given.warmup_steps"),
    ("lr-schedule", {"step": 10, "d_model": -512, "warmup_steps": 10}, "given.d_model"),
    ("label-smoothing", {"eps": 1.0, "vocab_size": 10}, "given.eps"),
    ("label-smoothing", {"eps": -0.1, "vocab_size": 10}, "given.eps"),
    ("label-smoothing", {"eps": 0.1, "vocab_size": 1}, "given.vocab_size"),
    ("layer-norm", {"x": [1], "eps": 1e-5}, "given.x"),
    ("layer-norm", {"x": [1, 2], "eps": -1}, "given.eps"),
    ("layer-norm", {"x": [1, 2], "eps": 1e-5, "sublayer": [1, 2, 3]}, "given.sublayer"),
    ("layer-norm", {"x": [1, 2], "eps": 1e-5, "gamma": [1]}, "given.gamma"),
    ("layer-norm", {"x": [2, 2], "eps": 0}, "given.x"),
    ("ffn", {**FFN, "b1": [0, 0]}, "given.b1"),
    ("ffn", {**FFN, "W1": [[1, 0, 1]]}, "given.W1"),
    ("ffn", {**FFN, "W2": [[1, 0], [0, 1]]}, "given.W2"),
    ("ffn", {**FFN, "b2": [0, 0, 0]}, "given.b2"),
    ("complexity", {"n": 8, "d": 16, "k": 1, "r": 4}, "given.k"),
    ("complexity", {"n": 8, "d": 16, "k": 2, "r": 16}, "given.r"),
    ("complexity", {"n": 0, "d": 16, "k": 2, "r": 1}, "given.n"),
    ("dot-variance", {"d_k": 0, "var_q": 1.0, "var_k": 1.0}, "given.d_k"),
    ("dot-variance", {"d_k": 4, "var_q": -1.0, "var_k": 1.0}, "given.var_q"),
]


@pytest.mark.parametrize("type_id", TYPES)
def test_good_givens_solve(type_id):
    solution = solve(type_id, copy.deepcopy(GOOD[type_id]))
    assert isinstance(solution, Solution)
    json.dumps(solution.answer, allow_nan=False)


@pytest.mark.parametrize(
    ("type_id", "bad", "field"), BAD, ids=[f"{t}-{i}" for i, (t, _, _) in enumerate(BAD)]
)
def test_bad_givens_name_the_field(type_id, bad, field):
    with pytest.raises(ProblemInputError) as caught:
        solve(type_id, bad)
    assert caught.value.field == field


@pytest.mark.parametrize("type_id", TYPES)
def test_missing_unknown_and_non_mapping_givens(type_id):
    good = GOOD[type_id]
    first = next(iter(good))
    with pytest.raises(ProblemInputError, match="missing"):
        solve(type_id, {k: v for k, v in good.items() if k != first})
    with pytest.raises(ProblemInputError, match="unknown"):
        solve(type_id, {**good, "typo": 1})
    for not_a_mapping in (None, [], "x", 3):
        with pytest.raises(ProblemInputError):
            solve(type_id, not_a_mapping)


def _leaves(value, path=()):
    if isinstance(value, list):
        for i, item in enumerate(value):
            yield from _leaves(item, (*path, i))
    else:
        yield path


def _replace(given_, key, path, new):
    out = copy.deepcopy(given_)
    if not path:
        out[key] = new
        return out
    target = out[key]
    for i in path[:-1]:
        target = target[i]
    target[path[-1]] = new
    return out


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.text(max_size=3),
    st.just(float("nan")),
    st.just(float("inf")),
    st.just(-float("inf")),
    st.just([]),
    st.just({}),
    st.just([[1, 2], [3]]),
)


@pytest.mark.parametrize("type_id", TYPES)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_any_junk_in_a_given_is_a_problem_input_error(type_id, data):
    """Replace one number of a good given with junk: ProblemInputError, never anything else."""
    good = GOOD[type_id]
    key = data.draw(st.sampled_from(sorted(good)))
    path = data.draw(st.sampled_from(list(_leaves(good[key]))))
    junk = data.draw(JUNK)
    with pytest.raises(ProblemInputError) as caught:
        solve(type_id, _replace(good, key, path, junk))
    assert caught.value.field.startswith(f"given.{key}") or caught.value.field == "given"


@pytest.mark.parametrize("type_id", TYPES)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_random_numbers_in_a_given_solve_or_fail_cleanly(type_id, data):
    """Any finite number in any slot either solves to finite JSON or is a ProblemInputError."""
    good = GOOD[type_id]
    key = data.draw(st.sampled_from(sorted(good)))
    path = data.draw(st.sampled_from(list(_leaves(good[key]))))
    new = data.draw(
        st.one_of(st.integers(-(10**6), 10**6), st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False))
    )
    try:
        solution = solve(type_id, _replace(good, key, path, new))
    except ProblemInputError:
        return
    json.dumps(solution.answer, allow_nan=False)
    for d in solution.distractors:
        json.dumps(d.answer, allow_nan=False)


# ------------------------------------------------------------ the generator's options


def test_bad_options_are_usage_errors_before_any_problem():
    with pytest.raises(UsageError, match="unknown problem type 'nope'; choose from"):
        generate("nope", 1, 1)
    with pytest.raises(UsageError, match="unknown difficulty 'insane'"):
        generate("sdpa", 1, 1, "insane")
    with pytest.raises(UsageError, match="count must be 0 or more"):
        generate("sdpa", -1, 1)
    with pytest.raises(UsageError, match="unknown difficulty"):
        generate_one("sdpa", 1, "insane")
    assert list(generate("sdpa", 0, 1)) == []


def test_problem_seeds_are_fixed_numbers():
    """Seeds are printed on cards: their derivation must never change (tests/test_identity_golden.py)."""
    assert problem_seed(0, "sdpa", 0) == 1111428597
    assert len({problem_seed(s, t, i) for s in range(3) for t in TYPES for i in range(3)}) == 9 * len(TYPES)
    assert all(0 <= problem_seed(1, t, 0) < 2**32 for t in TYPES)


def test_difficulties_are_the_three_levels():
    assert DIFFICULTIES == ("easy", "medium", "hard")


def test_registry_loads_every_type_even_after_a_direct_import():
    import subprocess
    import sys

    code = (
        "import generator.problems.types.sdpa, generator.problems as p;"
        " print(len(p.all_types())); print(p.get('mha').id)"
    )
    root = __import__("pathlib").Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root)
    assert out.stdout.split() == [str(len(TYPES)), "mha"]
