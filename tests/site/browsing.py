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
    return collapsed(html.unescape(re.sub(r"<[^>]*>", "", markup)))


def collapsed(text: str) -> str:
    """``text`` with its runs of white space one space, trimmed."""
    return re.sub(r"\s+", " ", text).strip()


def shown_text(locator: Any) -> str:
    return collapsed(locator.text_content())


WATCH = """() => { window.pdLog = [];
    new MutationObserver(changes => changes.forEach(c => window.pdLog.push(
        [c.target.closest('[data-key]').getAttribute('data-key'), c.attributeName,
         c.target.getAttribute(c.attributeName), c.target.classList.contains('pd-shown')])))
      .observe(document.body, {subtree: true, attributes: true,
               attributeFilter: ['aria-expanded', 'class']}); }"""


DRAWN = "* { content-visibility: visible !important; }"
"""Every block drawn at once, as when the page prints (site.css). A block is otherwise drawn when
it comes near the screen, and drawing one moves what follows, a frame or two after a scroll."""


def draw_every_block(page: Any) -> None:
    """Draws every block of ``page`` now, so that what a test clicks stays where it was measured
    (``click``). Tests that click with Playwright's own ``click``, which waits until its target
    stops moving, keep the blocks drawn as the reader nears them."""
    page.add_style_tag(content=DRAWN)


CENTERS = """([selector, index, parts]) => { const e = document.querySelectorAll(selector)[index];
    e.scrollIntoView({block: 'center'});
    return (parts.length ? parts.map(p => e.querySelector(p)) : [e]).map(p => {
        const r = p.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; }); }"""


def centres(page: Any, selector: str, index: int, parts: tuple[str, ...] = ()) -> list[tuple[float, float]]:
    """Scrolls the ``index``-th match of the CSS ``selector`` to the middle of the screen, on a page
    whose blocks are all drawn (``draw_every_block``); the screen coordinates of the middle of each
    of its ``parts`` (CSS selectors inside it; none: of itself), where a real mouse click lands on
    them for as long as nothing scrolls. One call for several parts: hundreds of cards stay fast."""
    return [(x, y) for x, y in page.evaluate(CENTERS, [selector, index, list(parts)])]


def click(page: Any, selector: str, index: int) -> None:
    """A real mouse click in the middle of the ``index``-th match (``centres``)."""
    page.mouse.click(*centres(page, selector, index)[0])
