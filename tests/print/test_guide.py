"""The study guide PDF of the shipped content, compiled and read back."""

from __future__ import annotations

from pathlib import Path

import pypdf
import pytest

from generator.content import load
from generator.exporters import ExportOptions
from generator.exporters import guide as guide_exporter
from generator.items import Guide, lesson_items

from .conftest import pages_text, squash

PROJECT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def guide(tmp_path_factory) -> tuple[Path, Path, object]:
    content = load(PROJECT)
    out = tmp_path_factory.mktemp("guide")
    document = Guide(content.paper, "Study guide", tuple(lesson_items(content)))
    [path] = guide_exporter.export(document, out / "guide.pdf", ExportOptions(figures=out / "figures"))
    return path, out / "figures", content


def test_every_lesson_concept_and_equation_label_is_printed(guide) -> None:
    path, _, content = guide
    text = squash(" ".join(pages_text(path)))
    for lesson in content.lessons:
        assert squash(lesson.title) in text
        for concept in lesson.concepts:
            assert squash(concept.term.split("\\(")[0]) in text, concept.id
        for equation in lesson.equations:
            assert squash(f"({equation.label})") in text, equation.id


def test_every_figure_is_embedded_as_an_image(guide) -> None:
    path, figures, content = guide
    visual_count = sum(len(lesson.visuals) for lesson in content.lessons)
    images = sum(len(page.images) for page in pypdf.PdfReader(path).pages)
    assert visual_count >= 8
    assert images == visual_count
    assert len(list(figures.glob("*.png"))) == len({(v.kind, repr(v.params)) for lesson in content.lessons
                                                     for v in lesson.visuals})


def test_math_is_typeset_and_no_source_text_is_left(guide) -> None:
    path, _, _ = guide
    text = " ".join(pages_text(path))
    for source in ("\\frac", "\\begin", "\\(", "\\mathrm", "#table", "#enum", "$"):
        assert source not in text
    assert "√" in text

