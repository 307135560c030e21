"""The JSON stream of ``paperdeck problems --format json``, written with orjson."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from generator.exporters.problem_text import json_stream, problem_json
from generator.problems import DIFFICULTIES, all_types, generate

TYPES = sorted(all_types())


@pytest.mark.parametrize("type_id", TYPES)
def test_orjson_text_reads_back_as_json_dumps_does(type_id):
    for difficulty in DIFFICULTIES:
        for problem in generate(type_id, 20, 11, difficulty):
            text = problem_json(problem)
            assert text.isascii()
            assert json.loads(text) == json.loads(json.dumps(problem.to_json(), allow_nan=False))
            # Key order is part of the form, not only the values.
            assert list(json.loads(text)) == list(problem.to_json())


def test_stream_is_one_json_array_and_the_same_every_time():
    text = "".join(json_stream(generate("sdpa", 5, 42, "medium")))
    assert text.startswith("[\n") and text.endswith("\n]\n")
    assert text == "".join(json_stream(generate("sdpa", 5, 42, "medium")))
    problems = json.loads(text)
    assert [p["id"] for p in problems] == [f"sdpa-{i:06d}" for i in range(1, 6)]
    assert json.loads("".join(json_stream(iter(())))) == []


def test_non_ascii_is_escaped_like_json_dumps():
    problem = next(generate("softmax", 1, 3, "easy"))
    odd = dataclasses.replace(
        problem,
        prompt='Größe ≤ 3 \U0001d6fc "q" \\ \n',
        given={**problem.given, "n": np.int64(3), "w": np.array([0.5, 1.0])},
    )
    text = problem_json(odd)
    assert text.isascii()
    assert json.loads(text)["prompt"] == odd.prompt
    assert json.loads(text)["given"] == {**problem.given, "n": 3, "w": [0.5, 1.0]}
    assert '"Gr\\u00f6\\u00dfe \\u2264 3 \\ud835\\udefc' in text


def test_float_spelling_is_pinned():
    """Same seed, same bytes on any machine: orjson's float spelling changed in 3.11.7
    (``1e+16`` had been ``1e16``), so setup.cfg asks for at least that version and this
    test fails if a later one changes it again."""
    import orjson

    values = [1e-05, 6.98e-05, 0.000698771, 1e-7, 1e16, 0.1, 2.5, 100000.0, 0.6697]
    assert orjson.dumps(values) == b"[0.00001,0.0000698,0.000698771,1e-7,1e+16,0.1,2.5,100000.0,0.6697]"
