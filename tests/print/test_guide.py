"""The study guide PDF of the shipped content, compiled and read back."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pikepdf
import pytest

from generator import visuals
from generator.content import load
from generator.documents.items import Guide, lesson_items
from generator.exporters import ExportOptions
from generator.exporters import guide as guide_exporter

from ..conftest import shown_visuals
from ..pdf_text import pages_text
from .conftest import squash

PROJECT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def guide(tmp_path_factory) -> tuple[Path, Path, object]:
    """The guide built with a figure folder of its own, which holds the paper's plots but one, copied
    from the run's cache (``tests/conftest.py``): the guide draws that one and uses the others as
    they are. Drawing all 9 took 7 s; the tests of each kind draw it (``tests/visuals``)."""
    content = load(PROJECT)
    out = tmp_path_factory.mktemp("guide")
    figures = out / "figures"
    figures.mkdir()
    plots = _plots(content)
    for key in sorted(plots)[1:]:  # the first, an attention heatmap (the quickest plot), is drawn
        kind, params = plots[key]
        shutil.copy2(visuals.render(kind, params, visuals.default_cache_dir()), figures)
    document = Guide(content.paper, "Study guide", tuple(lesson_items(content)))
    [path] = guide_exporter.export(document, out / "guide.pdf", ExportOptions(figures=figures))
    return path, figures, content


def _plots(content) -> dict[tuple[str, str], tuple[str, dict]]:
    """The distinct plots (not diagrams) the guide shows, by kind and parameters' repr."""
    return {
        (v.kind, repr(v.params)): (v.kind, dict(v.params or {}))
        for v in shown_visuals(content)
        if not visuals.KINDS[v.kind].is_diagram
    }


@pytest.fixture(scope="module")
def guide_pages(guide) -> list[str]:
    """The text of every page, extracted once for the tests that read it (the slow part)."""
    return pages_text(guide[0])


def test_every_lesson_concept_and_equation_label_is_printed(guide, guide_pages) -> None:
    _, _, content = guide
    text = squash(" ".join(guide_pages))
    for lesson in content.lessons:
        assert squash(lesson.title) in text
        for concept in lesson.concepts:
            assert squash(concept.term.split("\\(")[0]) in text, concept.id
        for equation in lesson.equations:
            assert squash(f"({equation.label})") in text, equation.id


def test_every_plot_is_embedded_as_an_image(guide) -> None:
    path, figures, content = guide
    plots = [v for lesson in content.lessons for v in lesson.visuals if not visuals.KINDS[v.kind].is_diagram]
    with pikepdf.open(path) as pdf:  # the image objects counted, not decoded (pypdf's page.images took 3 s)
        images = sum(
            1
            for page in pdf.pages
            for xobject in page.resources.get("/XObject", {}).values()
            if xobject.get("/Subtype") == "/Image"
        )
    assert len(plots) >= 8
    assert images == len(plots)
    assert len(list(figures.glob("*.png"))) == len({(v.kind, repr(v.params)) for v in plots})


def test_the_papers_figures_are_printed_as_vectors_with_their_words(guide, guide_pages) -> None:
    _, figures, content = guide
    diagrams = [v for lesson in content.lessons for v in lesson.visuals if visuals.KINDS[v.kind].is_diagram]
    assert {v.source for v in diagrams} == {"S3.F1", "S3.F2"}
    assert len(list(figures.glob("*.svg"))) == len(diagrams)
    pages = guide_pages
    for visual in diagrams:
        # The page that prints this figure's caption holds every word drawn in it, as text:
        # the SVG went into the PDF as vectors and words, not as a picture of them.
        caption = squash(visual.caption.split("\\(")[0])[:40]
        (page,) = [squash(p) for p in pages if caption in squash(p)]
        for part in visuals.parts(visual.kind, visual.params):
            assert squash(part.label) in page, (visual.id, part.id)
    assert squash("Masked Multi-Head Attention") in squash(" ".join(pages))


def test_label_cards_are_counted_where_a_figure_asks_for_them(guide, guide_pages) -> None:
    _, _, content = guide
    text = " ".join(guide_pages)
    counts = [
        sum(p.ask for v in lesson.visuals if v.label_cards for p in visuals.parts(v.kind, v.params))
        for lesson in content.lessons
    ]
    assert sum(counts) >= 20
    for count in set(counts) - {0}:
        assert f"{count} label cards." in text
    assert text.count("label cards") == sum(1 for c in counts if c)


def test_math_is_typeset_and_no_source_text_is_left(guide_pages) -> None:
    text = " ".join(guide_pages)
    for source in ("\\frac", "\\begin", "\\(", "\\mathrm", "#table", "#enum", "$"):
        assert source not in text
    assert "√" in text


def test_worked_example_results_are_named_as_the_cards_name_them(guide_pages) -> None:
    # presentation.name_symbol: d_k as math (d with a subscript k), scaled_variance as words.
    text = squash(" ".join(guide_pages))
    assert "scaledvariance=1" in text and "_variance" not in text
    assert "d_k=64" not in text and "dk=64" in text


def test_figure_numbers_are_the_papers_and_other_figures_are_illustrations(guide) -> None:
    path, _, content = guide
    # Typst joins a figure's supplement and number with a no-break space; the lesson text's
    # own "(Figure 1: encoder on the left ...)" has an ordinary one.
    printed = re.findall(r"(Figure|Illustration)\xa0(\d+):", " ".join(pages_text(path)))
    expected, illustrations = [], 0
    for visual in (v for lesson in content.lessons for v in lesson.visuals):
        paper = re.search(r"\.F(\d+)$", visual.source)
        if paper:
            expected.append(("Figure", paper.group(1)))
        else:
            illustrations += 1
            expected.append(("Illustration", str(illustrations)))
    assert printed == expected
    assert {n for kind, n in printed if kind == "Figure"} == {"1", "2", "3", "4", "5"}
