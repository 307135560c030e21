"""The study site's pages in Chromium (Playwright driving Debian's Chromium, from file://):
every page loads with no console error and no request outside the site, fits a 360 px
phone, follows dark mode, is usable by keyboard, and works from a static host."""

from __future__ import annotations

import functools
import http.server
import re
import threading
from pathlib import Path

import pytest

from .browsing import FONT_LOADED, PAGES

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.mark.parametrize("name", PAGES)
def test_page_loads_with_no_error_and_no_request_outside_the_site(tab, site: Path, name: str) -> None:
    page = tab.open(name)
    page.wait_for_load_state("load")
    assert tab.errors == []
    root = site.as_uri()
    outside = [url for url in tab.requests if not url.startswith(root + "/")]
    assert outside == []
    if name != "index.html":  # the math font, loaded from the site where there is math
        assert page.evaluate(FONT_LOADED)
    # No raw LaTeX anywhere a reader could see it, answers included.
    text = page.evaluate("""() => { const b = document.body.cloneNode(true);
        b.querySelectorAll('script').forEach(s => s.remove()); return b.textContent; }""")
    assert not re.search(r"\\[()\[\]]", text)


@pytest.mark.parametrize("name", PAGES)
def test_no_element_is_wider_than_a_360_px_phone(tab, name: str) -> None:
    page = tab.open(name)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    too_wide = page.evaluate("""() => [...document.querySelectorAll('body *')].filter(e => {
        const r = e.getBoundingClientRect();
        if (r.width === 0 || r.right <= 360.5) return false;
        for (let a = e.parentElement; a; a = a.parentElement) {
            const o = getComputedStyle(a).overflowX;
            if (o === 'auto' || o === 'scroll' || o === 'hidden') return false;
        }
        return true;
    }).map(e => e.outerHTML.slice(0, 80))""")
    assert too_wide == []


def test_dark_mode_follows_the_system(browser, site: Path) -> None:
    shots = []
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport={"width": 360, "height": 700}, color_scheme=scheme)
        page = context.new_page()
        page.goto((site / "03-scaled-dot-product-attention.html").as_uri())
        shots.append((page.screenshot(), page.evaluate("getComputedStyle(document.body).backgroundColor")))
        context.close()
    assert shots[0][0] != shots[1][0]
    assert shots[0][1] == "rgb(255, 255, 255)" and shots[1][1] != shots[0][1]


def test_every_control_is_reachable_by_keyboard_with_visible_focus(tab) -> None:
    page = tab.open("03-scaled-dot-product-attention.html")
    seen = set()
    for _ in range(25):
        page.keyboard.press("Tab")
        focused = page.evaluate("""() => { const e = document.activeElement, s = getComputedStyle(e);
            return [e.tagName, e.className, s.outlineStyle, s.outlineWidth]; }""")
        assert focused[0] != "BODY"
        assert focused[2] != "none" and focused[3] != "0px", focused
        seen.add(focused[0])
    assert {"A", "BUTTON"} <= seen


def test_works_from_a_static_host_in_a_subfolder(browser, site: Path) -> None:
    root = site.parent.parent
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        context = browser.new_context()
        page = context.new_page()
        failed, statuses = [], []
        page.on("requestfailed", lambda r: failed.append(r.url))
        page.on("response", lambda r: statuses.append((r.url, r.status)))
        base = f"http://127.0.0.1:{server.server_port}/{site.parent.name}/{site.name}/"
        page.goto(base + "04-multi-head-attention.html")
        page.wait_for_load_state("networkidle")
        assert failed == [] and all(status == 200 for _, status in statuses)
        assert all(url.startswith(base) for url, _ in statuses)
        assert page.evaluate(FONT_LOADED)
        context.close()
    finally:
        server.shutdown()
