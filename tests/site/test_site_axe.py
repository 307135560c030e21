"""axe-core in Chromium on every page of the study site, day and night: no serious or
critical violation."""

from __future__ import annotations

from pathlib import Path

import pytest

from .browsing import PAGES

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", PAGES)
def test_axe_finds_no_serious_or_critical_violation(browser, site: Path, name: str, scheme: str) -> None:
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
    context = browser.new_context(viewport={"width": 360, "height": 780}, color_scheme=scheme)
    page = context.new_page()
    page.goto((site / name).as_uri())
    # A block is drawn when the reader nears it (content-visibility: auto), and axe cannot judge
    # the contrast of one not drawn yet: scroll through the page first, as a reader does.
    page.evaluate("""async () => { for (let y = 0; y < document.body.scrollHeight; y += innerHeight) {
        scrollTo(0, y); await new Promise(r => requestAnimationFrame(() => setTimeout(r))); }
        scrollTo(0, 0); }""")
    # Dark mode changes colours only: check contrast there, everything in light mode.
    options = {"resultTypes": ["violations"]}
    if scheme == "dark":
        options["runOnly"] = {"type": "rule", "values": ["color-contrast", "link-in-text-block"]}
    violations = axe_module.Axe().run(page, options=options).response["violations"]
    context.close()
    bad = [(v["id"], v["impact"], v["nodes"][0]["html"][:100]) for v in violations
           if v["impact"] in ("serious", "critical")]
    assert bad == []
