"""A question's figure on the study site (``Question.figure``; the card, the printed form and the
feedback are in tests/test_question_figures.py): in Chromium, the question shows the figure's
``<img>`` drawn as the lesson's figures are, with its alt text, loaded from the site's folder.
No shipped question has a figure: the project of tests/lms/conftest.py gives two one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from generator import visuals
from generator.content.recipes import SiteRecipe
from generator.documents import items
from generator.exporters import ExportOptions, site
from generator.project import open_project

from ..lms.conftest import FIGURED, figured_project

LESSONS = tuple(sorted({lesson for lesson, _, _ in FIGURED.values()}))
STAMP = 1_700_000_000


@pytest.fixture(scope="module")
def figured(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return open_project(figured_project(tmp_path_factory.mktemp("figured")))


def _drawn(visual: Any, cache: Path) -> Path:
    return visuals.render(visual.kind, dict(visual.params or {}), cache)


def test_the_site_shows_the_figure_with_its_alt_text(
    browser: Any, figured: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    cache = tmp_path_factory.mktemp("figures")
    tmp_path = tmp_path_factory.mktemp("site")
    document = items.build_site(figured.content, SiteRecipe("site", "Figures", LESSONS), 1)
    out = tmp_path / "site"
    site.export(document, out, ExportOptions(build_time=STAMP, figures=cache))
    study = {i.key: i for i in document.items if i.kind == "question"}
    context = browser.new_context()
    try:
        page = context.new_page()
        for question, (lesson, _, _) in FIGURED.items():
            figure = study[question].figure
            assert figure is not None
            drawn = _drawn(figure.visual, cache)
            (found,) = [p for p in out.glob(f"*{lesson}*.html")]
            page.goto(found.as_uri())
            image = page.locator(f'.pd-question[data-key="{question}"] .pd-figure img')
            image.scroll_into_view_if_needed()
            image.wait_for(state="visible")
            assert image.get_attribute("src") == f"figures/{drawn.name}"
            assert image.get_attribute("alt") == figure.alt
            loaded = image.evaluate("i => i.complete && i.naturalWidth > 0")
            assert loaded, question
            assert (out / "figures" / drawn.name).read_bytes() == drawn.read_bytes()
        other = page.locator('.pd-question[data-key="arch-q-dmodel"]')
        assert other.count() == 1 and other.locator("img").count() == 0
    finally:
        context.close()
