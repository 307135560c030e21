"""What the tests of the study site in Chromium share: the pages in teaching order and
ways to read and click them as a reader does (test_site_*.py; each file runs on its own
xdist worker, with the site built once per worker)."""

from __future__ import annotations

import html
import re
from typing import Any

from .conftest import PROJECT


def _pages() -> list[str]:
    from generator.project import open_project

    lessons = open_project(PROJECT).content.lessons
    return ["index.html", *(f"{n:02d}-{lesson.id}.html" for n, lesson in enumerate(lessons, 1))]


PAGES = _pages()
FONT_LOADED = """async () => { await document.fonts.ready;
    return [...document.fonts].some(f => f.family.includes('Noto Sans Math') && f.status === 'loaded'); }"""
LESSON_PAGES = PAGES[1:]


def plain(markdown: str) -> str:
    """The text a reader's browser holds (textContent) for Markdown the site renders (its math as MathML)."""
    from generator.exporters.site.markup import inline

    return text_of(inline(markdown))


def text_of(markup: str) -> str:
    """The textContent of markup the site wrote, its spaces collapsed."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]*>", "", markup))).strip()


def shown_text(locator: Any) -> str:
    return re.sub(r"\s+", " ", locator.text_content()).strip()


WATCH = """() => { window.pdLog = [];
    new MutationObserver(changes => changes.forEach(c => window.pdLog.push(
        [c.target.closest('[data-key]').getAttribute('data-key'), c.attributeName,
         c.target.getAttribute(c.attributeName), c.target.classList.contains('pd-shown')])))
      .observe(document.body, {subtree: true, attributes: true,
               attributeFilter: ['aria-expanded', 'class']}); }"""


CENTER = """async e => { const frame = () => new Promise(r => requestAnimationFrame(() => setTimeout(r)));
    for (let n = 0, top = null; n < 20 && e.getBoundingClientRect().top !== top; n++) {
        top = e.getBoundingClientRect().top; e.scrollIntoView({block: 'center'}); await frame(); }
    const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; }"""
"""Scrolls an element to the middle of the screen until it stays there (blocks are drawn when they
come near the screen, and drawing one can move what follows); returns the middle's coordinates."""


def click(page: Any, selector: str, index: int) -> None:
    """A real mouse click in the middle of the ``index``-th match (no waiting on animations:
    the site has none), so hundreds of cards stay fast."""
    x, y = page.locator(selector).nth(index).evaluate(CENTER)
    page.mouse.click(x, y)
