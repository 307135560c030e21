"""axe-core in Chromium on every page of the study site, day and night: no serious or
critical violation, and math as legible as the text around it."""

from __future__ import annotations

from pathlib import Path

import pytest

from .browsing import PAGES, draw_every_block

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

CONTRAST = ["color-contrast", "link-in-text-block"]
"""The rules whose result the colour scheme changes; dark mode changes colours only."""
MODERATE_AT_MOST = ["region"]
"""Rules whose impact axe rates moderate at most, so that this test, which fails on a serious or
critical one, could not fail on them; ``region`` alone (content outside landmarks) took 2 of a
lesson page's 4 s of axe."""

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


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", PAGES)
def test_axe_finds_no_serious_or_critical_violation(browser, site: Path, name: str, scheme: str) -> None:
    """axe judges every element in light mode and the colours in dark mode. Its colour-contrast
    check spends two thirds of its time on MathML, whose thousands of token elements each take the
    colour and background of the text around them: the test measures their contrast itself."""
    axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe()
    context = browser.new_context(viewport={"width": 360, "height": 780}, color_scheme=scheme)
    page = context.new_page()
    page.goto((site / name).as_uri())
    draw_every_block(page)  # axe cannot judge the contrast of a block not drawn
    runs = [({"exclude": [["math"]]}, {"runOnly": {"type": "rule", "values": CONTRAST}})]
    if scheme == "light":
        runs.append((None, {"rules": {rule: {"enabled": False} for rule in CONTRAST + MODERATE_AT_MOST}}))
    violations = [v for where, options in runs
                  for v in axe.run(page, context=where, options={"resultTypes": ["violations"], **options})
                  .response["violations"]]
    faint_math = page.evaluate(MATH_CONTRAST)
    context.close()
    bad = [(v["id"], v["impact"], v["nodes"][0]["html"][:100]) for v in violations
           if v["impact"] in ("serious", "critical")]
    assert bad == []
    assert faint_math == []


def test_faint_math_is_found(tab) -> None:
    """The contrast the test measures for math fails when math is faint, in light mode."""
    page = tab.open("03-scaled-dot-product-attention.html")
    draw_every_block(page)
    assert page.evaluate(MATH_CONTRAST) == []
    page.add_style_tag(content=".pd-equation math { color: #b0b0b0; }")
    faint = page.evaluate(MATH_CONTRAST)
    assert faint and all(2 < ratio < 2.5 for *_, ratio in faint)
