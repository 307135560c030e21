"""Every problem type's key against an independent computation, over many seeds.

The references below are written differently from the generator on purpose:
plain Python loops and the ``math`` module, never NumPy or the modules' helpers,
so that a mistake in the generator's method cannot hide in the test as well.
"""

from __future__ import annotations

import json
import math
import re
import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.problems import DIFFICULTIES, all_types, generate, generate_one
from generator.problems.latex import number

pytestmark = pytest.mark.long  # handed out to a worker early: tests/conftest.py

TYPES = sorted(all_types())
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
LEVELS = st.sampled_from(DIFFICULTIES)
EXAMPLES = settings(max_examples=100, deadline=None)


# ---------------------------------------------------------------- references


def _softmax(row):
    exps = [math.exp(v) for v in row]
    total = math.fsum(exps)
    return [e / total for e in exps]


def _attention(Q, K, V, allowed=None):
    d_k = len(Q[0])
    weights, output = [], []
    for i, q in enumerate(Q):
        keys = [j for j in range(len(K)) if allowed is None or allowed(i, j)]
        scores = [math.fsum(q[t] * K[j][t] for t in range(d_k)) / math.sqrt(d_k) for j in keys]
        p = _softmax(scores)
        row = [0.0] * len(K)
        for j, w in zip(keys, p, strict=True):
            row[j] = w
        weights.append(row)
        output.append([math.fsum(row[j] * V[j][c] for j in range(len(K))) for c in range(len(V[0]))])
    return weights, output


def _matmul(A, B):
    return [
        [math.fsum(A[i][t] * B[t][j] for t in range(len(B))) for j in range(len(B[0]))] for i in range(len(A))
    ]


def ref_softmax(g):
    return {"p": _softmax(g["x"])}


def ref_sdpa(g):
    d_k = len(g["Q"][0])
    scores = [
        [math.fsum(a * b for a, b in zip(q, k, strict=True)) / math.sqrt(d_k) for k in g["K"]] for q in g["Q"]
    ]
    weights, output = _attention(g["Q"], g["K"], g["V"])
    return {"scores": scores, "weights": weights, "output": output}


def ref_masked_sdpa(g):
    weights, output = _attention(g["Q"], g["K"], g["V"], allowed=lambda i, j: j <= i)
    return {"weights": weights, "output": output}


def ref_mha(g):
    X = g["X"]
    heads = []
    for wq, wk, wv in zip(g["W_Q"], g["W_K"], g["W_V"], strict=True):
        heads.append(_attention(_matmul(X, wq), _matmul(X, wk), _matmul(X, wv))[1])
    concat = [[v for head in heads for v in head[i]] for i in range(len(X))]
    return {"heads": heads, "output": _matmul(concat, g["W_O"])}


def ref_mha_shapes(g):
    d_k = g["d_model"] // g["h"]
    return {"d_k": d_k, "d_v": d_k, "params": 4 * g["d_model"] ** 2}


def ref_positional_encoding(g):
    i, odd = divmod(g["dim"], 2)
    angle = g["pos"] / math.pow(10000, 2 * i / g["d_model"])
    return {"value": math.cos(angle) if odd else math.sin(angle)}


def ref_lr_schedule(g):
    s, w = g["step"], g["warmup_steps"]
    warm = s / (w * math.sqrt(w))
    decay = 1 / math.sqrt(s)
    return {"lrate": (warm if warm < decay else decay) / math.sqrt(g["d_model"])}


def ref_label_smoothing(g):
    eps, K = g["eps"], g["vocab_size"]
    target = 0
    q = [(1 - eps) * (1 if k == target else 0) + eps / K for k in range(K)]
    assert math.isclose(math.fsum(q), 1.0)
    return {"p_target": q[target], "p_other": q[1]}


def ref_layer_norm(g):
    n = len(g["x"])
    z = [g["x"][i] + (g["sublayer"][i] if "sublayer" in g else 0) for i in range(n)]
    mu = statistics.fmean(z)
    sd = math.sqrt(statistics.pvariance(z) + g["eps"])
    gamma = g.get("gamma", [1] * n)
    beta = g.get("beta", [0] * n)
    return {"y": [gamma[i] * (z[i] - mu) / sd + beta[i] for i in range(n)]}


def ref_ffn(g):
    hidden = _matmul(g["x"], g["W1"])
    hidden = [[max(0.0, v + b) for v, b in zip(row, g["b1"], strict=True)] for row in hidden]
    out = _matmul(hidden, g["W2"])
    return {"output": [[v + b for v, b in zip(row, g["b2"], strict=True)] for row in out]}


def ref_complexity(g):
    n, d, k, r = g["n"], g["d"], g["k"], g["r"]
    m = 0
    while k**m < n:
        m += 1
    return {
        "ops_self_attention": n * n * d,
        "ops_recurrent": n * d * d,
        "ops_convolutional": k * n * d * d,
        "ops_restricted": r * n * d,
        "path_self_attention": 1,
        "path_recurrent": n,
        "path_convolutional": m if k**m == n else math.log(n, k),
        "path_restricted": n / r,
        "cheaper": "self-attention" if n < d else "recurrent",
    }


def ref_dot_variance(g):
    # Var(sum of d_k independent zero-mean products) = sum of Var(q_i) Var(k_i).
    variance = math.fsum([g["var_q"] * g["var_k"]] * g["d_k"])
    return {"variance": variance, "std": variance**0.5, "scaled_variance": variance / g["d_k"]}


REFERENCES = {
    "softmax": ref_softmax,
    "sdpa": ref_sdpa,
    "masked-sdpa": ref_masked_sdpa,
    "mha": ref_mha,
    "mha-shapes": ref_mha_shapes,
    "positional-encoding": ref_positional_encoding,
    "lr-schedule": ref_lr_schedule,
    "label-smoothing": ref_label_smoothing,
    "layer-norm": ref_layer_norm,
    "ffn": ref_ffn,
    "complexity": ref_complexity,
    "dot-variance": ref_dot_variance,
}


def flat(value):
    if isinstance(value, list):
        return [x for item in value for x in flat(item)]
    return [value]


def close(expected, got, rel=1e-8, abs_=1e-8):
    if isinstance(expected, str):
        return expected == got
    e, g = flat(expected), flat(got)
    return len(e) == len(g) and all(
        math.isclose(a, b, rel_tol=rel, abs_tol=abs_) for a, b in zip(e, g, strict=True)
    )


# ---------------------------------------------------------------- properties


def test_every_type_has_a_reference():
    # Both ways: a type module that stops registering loses its reference's match.
    assert set(TYPES) == set(REFERENCES)


@pytest.mark.parametrize("type_id", TYPES)
@EXAMPLES
@given(seed=SEEDS, difficulty=LEVELS)
def test_answer_matches_independent_computation(type_id, seed, difficulty):
    problem = generate_one(type_id, seed, difficulty)
    expected = REFERENCES[type_id](problem.given)
    assert set(expected) <= set(problem.answer)
    for key, value in expected.items():
        assert close(value, problem.answer[key]), (key, value, problem.answer[key])
    assert all_types()[type_id].primary in problem.answer


@pytest.mark.parametrize("type_id", TYPES)
@EXAMPLES
@given(seed=SEEDS, difficulty=LEVELS)
def test_every_named_mistake_falls_outside_the_tolerance(type_id, seed, difficulty):
    problem = generate_one(type_id, seed, difficulty)
    key = all_types()[type_id].primary
    tol = problem.tolerance
    assert problem.distractors, "every problem names at least one mistake"
    for distractor in problem.distractors:
        assert distractor.mistake and not distractor.mistake[0].isupper()
        expected, got = flat(problem.answer[key]), flat(distractor.answer[key])
        if len(expected) != len(got):
            continue
        limit = [(tol.abs or 0.0) + (tol.rel or 0.0) * abs(e) for e in expected]
        assert any(abs(e - g) > lim for e, g, lim in zip(expected, got, limit, strict=True)), (
            distractor.mistake,
            expected,
            got,
        )


def _decimals(x) -> int:
    if isinstance(x, int):
        return 0
    text = repr(x)
    return len(text.split(".")[1]) if "." in text and "e" not in text else 99


@pytest.mark.parametrize("type_id", TYPES)
@EXAMPLES
@given(seed=SEEDS, difficulty=LEVELS)
def test_numbers_are_hand_computable(type_id, seed, difficulty):
    problem = generate_one(type_id, seed, difficulty)
    for key, value in problem.given.items():
        if type_id == "layer-norm" and key == "eps":
            assert value in (1e-5,)
            continue
        for x in flat(value):
            assert isinstance(x, (int, float)) and not isinstance(x, bool)
            assert math.isfinite(x)
            assert _decimals(x) <= 2, (key, x)
            assert abs(x) <= 5000 if type_id not in ("lr-schedule",) else x <= 100_000
    for key, value in problem.answer.items():
        for x in flat(value):
            assert isinstance(x, str) or math.isfinite(x), (key, x)
    answer, g = problem.answer, problem.given
    if type_id in ("sdpa", "masked-sdpa"):
        d_k = len(g["Q"][0])
        assert math.isqrt(d_k) ** 2 == d_k, "d_k is a perfect square"
    if type_id in ("sdpa", "masked-sdpa", "softmax"):
        rows = [answer["p"]] if type_id == "softmax" else answer["weights"]
        for i, row in enumerate(rows):
            live = [w for j, w in enumerate(row) if type_id != "masked-sdpa" or j <= i]
            assert math.isclose(math.fsum(row), 1.0)
            if len(live) > 1:  # not degenerate: neither uniform nor one-hot
                assert max(live) - min(live) > 1e-9 and min(live) > 0.005
    if type_id in ("sdpa", "masked-sdpa", "mha", "layer-norm", "ffn"):
        primary = answer[all_types()[type_id].primary]
        assert all(abs(x) <= 100 for x in flat(primary))
    if type_id == "positional-encoding":
        assert -1 <= answer["value"] <= 1
    if type_id == "lr-schedule":
        assert 0 < answer["lrate"] < 0.1
    if type_id == "complexity":
        assert float(answer["path_convolutional"]).is_integer()
        assert float(answer["path_restricted"]).is_integer()
        assert g["n"] != g["d"]


# LaTeX the Typst converter understands: these commands, and plain characters.
ALLOWED_COMMANDS = {
    "frac",
    "sqrt",
    "mathrm",
    "text",
    "operatorname",
    "max",
    "min",
    "exp",
    "log",
    "sin",
    "cos",
    "begin",
    "end",
    "left",
    "right",
    "cdot",
    "times",
    "approx",
    "infty",
    "sum",
    "le",
    "ge",
    "ne",
    "top",
    "alpha",
    "beta",
    "gamma",
    "epsilon",
    "mu",
    "sigma",
    "pi",
    "theta",
    "lambda",
}
ALLOWED_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 +-=,.^_{}()&\\")


@pytest.mark.parametrize("type_id", TYPES)
@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, difficulty=LEVELS)
def test_steps_use_the_latex_subset_and_prompts_state_every_given(type_id, seed, difficulty):
    problem = generate_one(type_id, seed, difficulty)
    assert len(problem.steps) >= 3
    for step in problem.steps:
        # A title is Markdown: words, with math only inside \( \), in the same subset.
        assert step.title and "$" not in step.title
        words = re.sub(r"\\\((.*?)\\\)", "", step.title)
        assert "\\" not in words, step.title
        for math_ in re.findall(r"\\\((.*?)\\\)", step.title):
            assert set(re.findall(r"\\([A-Za-z]+)", math_)) <= ALLOWED_COMMANDS, step.title
        assert set(step.latex) <= ALLOWED_CHARS, set(step.latex) - ALLOWED_CHARS
        assert not {"\\(", "\\)", "\\[", "\\]", "$"} & {step.latex[i : i + 2] for i in range(len(step.latex))}
        for command in re.findall(r"\\([A-Za-z]+)", step.latex):
            assert command in ALLOWED_COMMANDS, command
        envs = re.findall(r"\\(?:begin|end)\{(\w+)\}", step.latex)
        assert set(envs) <= {"pmatrix"}
    text = problem.prompt
    assert text.count("\\(") == text.count("\\)") > 0
    for math_ in re.findall(r"\\\((.*?)\\\)", text):  # prompts are printed too
        assert set(math_) <= ALLOWED_CHARS, set(math_) - ALLOWED_CHARS
        assert set(re.findall(r"\\([A-Za-z]+)", math_)) <= ALLOWED_COMMANDS
    for key, value in problem.given.items():
        for x in flat(value):
            if not (type_id == "layer-norm" and key == "eps"):
                assert number(x) in text, (key, x)


@pytest.mark.parametrize("type_id", TYPES)
@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, difficulty=LEVELS)
def test_same_seed_same_json_and_each_seed_regenerates_its_problem(type_id, seed, difficulty):
    first = [json.dumps(p.to_json(), allow_nan=False) for p in generate(type_id, 3, seed, difficulty)]
    again = [json.dumps(p.to_json(), allow_nan=False) for p in generate(type_id, 3, seed, difficulty)]
    assert first == again
    for index, problem in enumerate(generate(type_id, 3, seed, difficulty)):
        alone = generate_one(type_id, problem.seed, difficulty, index)
        assert alone == problem
        assert (
            generate_one(type_id, problem.seed, difficulty).to_json() | {"id": problem.id}
            == problem.to_json()
        )
        assert json.loads(first[index])["given"] == problem.given


@pytest.mark.parametrize("type_id", TYPES)
def test_solve_recomputes_its_own_givens(type_id):
    """What content worked examples do: solve a given typed back in from JSON."""
    problem_type = all_types()[type_id]
    for problem in generate(type_id, 5, 2024, "medium"):
        again = problem_type.solve(json.loads(json.dumps(problem.given)))
        assert again.answer == problem.answer


def test_seed_sweep_is_stable_across_difficulties():
    """A fixed sweep: different seeds give different problems, and sizes grow with difficulty."""
    for type_id in TYPES:
        sizes = []
        for difficulty in DIFFICULTIES:
            problems = list(generate(type_id, 30, 7, difficulty))
            distinct = {json.dumps(p.given, sort_keys=True) for p in problems}
            assert len(distinct) >= 5, (type_id, difficulty)
            sizes.append(max(len(json.dumps(p.given)) for p in problems))
        assert sizes[0] <= sizes[2], type_id
