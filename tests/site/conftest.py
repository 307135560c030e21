"""The study site, built once per test session, and a Chromium to open it in.

Playwright (pip) drives Debian's Chromium headless shell (``tests/browser.py``): Playwright's
own browser download is not needed. Without it, the tests that need the browser fail and
say what to install.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

PROJECT = Path(__file__).resolve().parents[2]
SEED = 11


@pytest.fixture(scope="session")
def project() -> Any:
    from generator.project import open_project

    return open_project(PROJECT)


@pytest.fixture(scope="session")
def site(project: Any, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped site recipe built into a fresh folder; its path."""
    from generator.commands.build import build_recipe
    from generator.project.kinds import BuildOptions

    out = tmp_path_factory.mktemp("site")
    build_recipe(project, project.recipes["aiayn-site"], out, BuildOptions(seed=SEED))
    return out / "aiayn-site"


@pytest.fixture(scope="session")
def document(project: Any) -> Any:
    """The ``Site`` document the built site was written from."""
    from generator.documents.items import build_site

    return build_site(project.content, project.recipes["aiayn-site"], SEED)


@pytest.fixture(scope="session")
def browser(chromium_browser: Any) -> Any:
    return chromium_browser


class Opened:
    """A page of the site with what it logged and every request it made."""

    def __init__(self, page: Any, root: Path):
        self.page = page
        self.errors: list[str] = []
        self.requests: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("request", lambda r: self.requests.append(r.url))
        self.root = root

    def open(self, name: str) -> Any:
        self.page.goto((self.root / name).as_uri())
        return self.page


@pytest.fixture()
def tab(browser: Any, site: Path) -> Iterator[Opened]:
    """A fresh page (own storage) at 360 px, light mode."""
    context = browser.new_context(viewport={"width": 360, "height": 780}, color_scheme="light")
    yield Opened(context.new_page(), site)
    context.close()
