"""axe-core in Chromium on every page of the study site, day and night: no serious or
critical violation, and math as legible as the text around it."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from .browsing import PAGES, draw_every_block

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

AXE = (resources.files("axe_playwright_python") / "axe.min.js").read_text(encoding="utf-8")
"""axe-core as axe-playwright-python bundles it, injected once into each page."""

RUN_AXE = """async only => {
    axe.configure({rules: [{id: 'color-contrast', selector: '*:not(math, math *)'}]});
    const options = {resultTypes: ['violations']};
    if (only) options.runOnly = {type: 'rule', values: only};
    else options.rules = {region: {enabled: false}};
    return (await axe.run(document, options)).violations.map(v => [v.id, v.impact, v.nodes[0].html]); }"""
"""axe's violations on the page: of the rules ``only`` names, or of every rule but ``region``.

Its colour-contrast check leaves MathML to ``MATH_CONTRAST``: math's token elements (2,985 of a
lesson page's 4,009 elements) take the colour and background of the text around them, and on a
lesson page the check took 3.3 s with them and 2.4 s without. ``region`` (content outside
landmarks) is rated moderate at most, so this test, which fails on a serious or critical finding,
could not fail on it; it took half the other rules' time."""

CONTRAST = ["color-contrast", "link-in-text-block"]
"""The rules whose result the colour scheme changes; dark mode changes colours only."""

MATH_CONTRAST = """() => {
    const rgb = c => (c.match(/[\\d.]+/g) || []).map(Number);
    const light = ([r, g, b]) => [r, g, b].map(v => v / 255)
        .map(v => v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
        .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
    const under = e => { for (; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor);
        if (c.length === 3 || c[3] === 1) return c; } return [255, 255, 255]; };
    const worst = [];
    for (const e of document.querySelectorAll('math, math *')) {
        if (![...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
        const [a, b] = [light(rgb(getComputedStyle(e).color)), light(under(e))];
        const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        if (ratio < 4.5) worst.push([e.closest('[data-key]')?.getAttribute('data-key'),
                                     e.outerHTML.slice(0, 80), ratio]);
    }
    return worst; }"""
"""Each MathML element with text whose colour, over the background it sits on, has a contrast
below WCAG's 4.5:1 for text (the relative-luminance formula axe uses)."""


def judged(page, scheme: str) -> tuple[list, list]:
    """``page`` (axe injected) switched to the colour ``scheme``, as when the reader's system
    switches it: axe's serious and critical violations (of every rule in light mode, of the colour
    rules in dark mode) and the faint math (``MATH_CONTRAST``)."""
    page.emulate_media(color_scheme=scheme)
    assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (scheme == "dark")
    violations = page.evaluate(RUN_AXE, CONTRAST if scheme == "dark" else None)
    serious = [
        (rule, impact, html[:100]) for rule, impact, html in violations if impact in ("serious", "critical")
    ]
    return serious, page.evaluate(MATH_CONTRAST)


@pytest.mark.parametrize("name", PAGES)
def test_axe_finds_no_serious_or_critical_violation(browser, site: Path, name: str) -> None:
    """axe judges the page in light mode, then in dark mode on the same page (``judged``): loading
    it, drawing it and injecting axe took 0.5 to 0.8 s of a scheme's 2.5 to 3.3 s."""
    context = browser.new_context(viewport={"width": 360, "height": 780})
    page = context.new_page()
    page.goto((site / name).as_uri())
    draw_every_block(page)  # axe cannot judge the contrast of a block not drawn
    page.evaluate(AXE)
    found = {scheme: judged(page, scheme) for scheme in ("light", "dark")}
    context.close()
    assert found == {"light": ([], []), "dark": ([], [])}


def test_the_switch_to_dark_mode_is_judged(tab) -> None:
    """Text and math faint in dark mode only are found once the page switches to it."""
    page = tab.page
    page.set_content(
        '<!doctype html><html lang="en"><title>t</title>'
        "<style>@media (prefers-color-scheme: dark) { body { background: #000; }"
        " p, mi { color: #333; } }</style>"
        "<main><p>dim at night</p><p><math><mi>x</mi></math></p></main></html>"
    )
    page.evaluate(AXE)
    assert judged(page, "light") == ([], [])
    violations, faint_math = judged(page, "dark")
    assert [(rule, impact) for rule, impact, _ in violations] == [("color-contrast", "serious")]
    assert "dim at night" in violations[0][2] and faint_math


def test_axe_judges_the_contrast_of_text_and_leaves_math_to_the_test(tab) -> None:
    """Faint text is a serious colour-contrast violation; faint math is not axe's to judge."""
    page = tab.page
    page.set_content(
        '<main><p style="color: #bbb">faint text</p><p><math><mi style="color: #bbb">x</mi></math></p></main>'
    )
    page.evaluate(AXE)
    found = page.evaluate(RUN_AXE, CONTRAST)
    assert [(rule, impact) for rule, impact, _ in found] == [("color-contrast", "serious")]
    assert "faint text" in found[0][2] and "<math" not in found[0][2]
    assert page.evaluate(MATH_CONTRAST)


def test_faint_math_is_found(tab) -> None:
    """The contrast the test measures for math fails when math is faint, in light mode."""
    page = tab.open("03-scaled-dot-product-attention.html")
    draw_every_block(page)
    assert page.evaluate(MATH_CONTRAST) == []
    page.add_style_tag(content=".pd-equation math { color: #b0b0b0; }")
    faint = page.evaluate(MATH_CONTRAST)
    assert faint and all(2 < ratio < 2.5 for *_, ratio in faint)


EVERYTHING_OPEN = """async () => {
    document.querySelectorAll('details').forEach(d => { d.open = true; });
    document.querySelectorAll('.pd-all-steps, .pd-flip, .pd-show-answer, .pd-reveal-all')
      .forEach(b => b.click());
    for (let i = 0; i < 3; i++) await new Promise(r => requestAnimationFrame(r));  // ResizeObserver
    return [...document.querySelectorAll('*')].filter(e => {
        const style = getComputedStyle(e);
        return ['auto', 'scroll'].includes(style.overflowX) && e.scrollWidth > e.clientWidth + 1; })
      .map(e => [e.tagName, e.getAttribute('tabindex'), e.getAttribute('aria-label') || '',
                 e.outerHTML.slice(0, 80)]); }"""
"""Opens every key, deep dive and menu, shows every worked example's steps and result, every card's
back and every answer, lets the page measure what it now shows, and lists each element that scrolls
sideways: its tag, tabindex and label."""


@pytest.mark.parametrize("name", PAGES[1:])
def test_every_box_that_scrolls_at_360_px_is_reachable_by_keyboard(browser, site: Path, name: str) -> None:
    """With everything a reader can open opened (keys, steps, answers), every element that scrolls
    sideways at 360 px is in the tab order with a label, and axe finds no scrollable region out of
    the keyboard's reach (scrollable-region-focusable, serious; a worked result's or a key's wide
    matrix scrolled in its line unreachable)."""
    context = browser.new_context(viewport={"width": 360, "height": 780})
    page = context.new_page()
    page.goto((site / name).as_uri())
    draw_every_block(page)
    scrolling = page.evaluate(EVERYTHING_OPEN)
    if name.startswith("03-"):  # its worked results and keys: matrices wider than a phone
        assert len(scrolling) > 5, "nothing scrolls sideways at 360 px: the test would test nothing"
    assert [s for s in scrolling if s[1] != "0" or not s[2]] == []
    page.evaluate(AXE)
    found = page.evaluate(RUN_AXE, ["scrollable-region-focusable", "list", "aria-allowed-role"])
    context.close()
    assert found == []
