"""The visuals written in the shipped content validate and render."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator import visuals
from generator.content import loader

PROJECT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def content():
    return loader.load(PROJECT)


def resolved_visuals(content):
    examples = {e.id: e for lesson in content.lessons for e in lesson.worked_examples}
    return [v.resolved(examples) for lesson in content.lessons for v in lesson.visuals]


def test_every_content_visual_validates_and_renders(content):
    """Each is rendered into the run's figure cache, where ``make test`` drew the paper's figures
    before its workers started (``tests/conftest.py``): drawing them here again took 5 s."""
    found = resolved_visuals(content)
    for visual in found:
        assert visuals.validate(visual.kind, visual.params) == [], visual.id
        assert visuals.render(visual.kind, visual.params, visuals.default_cache_dir()).exists(), visual.id


def test_heatmap_of_a_masked_example_is_drawn_masked(content):
    examples = {e.id: e for lesson in content.lessons for e in lesson.worked_examples}
    masked = [
        (v, examples[v.params["example"]])
        for lesson in content.lessons
        for v in lesson.visuals
        if v.kind == "attention-heatmap"
        and (v.params or {}).get("example") in examples
        and examples[v.params["example"]].problem == "masked-sdpa"
    ]
    assert masked
    for visual, _example in masked:
        assert visual.resolved(examples).params.get("problem") == "masked-sdpa", visual.id
