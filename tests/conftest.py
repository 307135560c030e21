"""Shared test set-up: figures drawn once a run into a folder of the run (not the user's cache), a
fixed teacher's secret, and the order in which the workers take the test files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.hookimpl(trylast=True)  # after pytest's own, which makes the run's temporary folder
def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist (``make test``), before the workers start: the shipped paper's figures
    drawn into the run's shared cache (``figure_cache_home``), one process per core. Otherwise
    the first build of each worker draws them all, both workers the same figures at once (8 s)."""
    if hasattr(config, "workerinput") or not config.getoption("numprocesses", None):
        return
    from concurrent.futures import ProcessPoolExecutor

    from generator.project import open_project
    from generator.visuals import default_cache_dir, render

    # The workers' folders are in this one: each finds the cache as the parent's (figure_cache_home).
    os.environ["XDG_CACHE_HOME"] = str(config._tmp_path_factory.getbasetemp() / "cache")
    content = open_project(Path(__file__).resolve().parents[1]).content  # the shipped paper
    shown = shown_visuals(content)
    folder = default_cache_dir()
    with ProcessPoolExecutor(os.cpu_count()) as pool:
        list(
            pool.map(
                render, [v.kind for v in shown], [dict(v.params or {}) for v in shown], [folder] * len(shown)
            )
        )


def shown_visuals(content) -> list:
    """The visuals ``content``'s lessons show, their parameters resolved as the exporters get them."""
    from generator.content.model import Visual
    from generator.documents.items import lesson_items

    return [item.body for item in lesson_items(content) if isinstance(item.body, Visual)]


@pytest.fixture(scope="session", autouse=True)
def figure_cache_home(tmp_path_factory: pytest.TempPathFactory):
    """Point XDG_CACHE_HOME (and so every subprocess) at a folder of this test run.

    Under pytest-xdist (``make test``) the workers share it, so the shipped paper's
    figures are drawn once per run, not once per worker: figures and the project
    cache are written atomically under names derived from what they hold.
    """
    before = os.environ.get("XDG_CACHE_HOME")
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = tmp_path_factory.getbasetemp().parent / "cache"  # the run's folder, above each worker's
        shared.mkdir(exist_ok=True)
        os.environ["XDG_CACHE_HOME"] = str(shared)
    else:
        os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if before is None:
        del os.environ["XDG_CACHE_HOME"]
    else:
        os.environ["XDG_CACHE_HOME"] = before


@pytest.fixture(scope="session", autouse=True)
def teacher_secret():
    """A fixed teacher's secret, so that tests never write .paperdeck-secret into the project."""
    from generator.documents.secret import ENVIRONMENT

    before = os.environ.get(ENVIRONMENT)
    os.environ[ENVIRONMENT] = "test-secret-" + "0" * 40
    yield
    if before is None:
        del os.environ[ENVIRONMENT]
    else:
        os.environ[ENVIRONMENT] = before


BROWSER_FIXTURES = {"browser", "tab", "reviewer"}
"""The fixtures that open Chromium (tests/site/conftest.py, tests/anki/conftest.py)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The test files that open a browser first, then those marked ``long``, then the others
    with the most tests first.

    ``make test`` hands out whole files to its workers in this order (``--dist loadfile
    --no-loadscope-reorder``). A worker handed a long file last finishes alone while the other
    waits: the browser's files are the longest (half the suite's time), and xdist's own order
    (the most tests first) put some of them last. A file of a few slow tests (a build killed
    three times, a class graded) is marked ``long`` (``pytestmark``): it took 5 s or more on a
    quiet 2-core machine. Left to its count of tests it came last, and one worker then ran it
    alone for 6 s.
    """
    tests_in: dict[object, int] = {}
    opens_a_browser = set()
    long = set()
    for item in items:
        tests_in[item.path] = tests_in.get(item.path, 0) + 1
        if BROWSER_FIXTURES & set(item.fixturenames):
            opens_a_browser.add(item.path)
        if item.get_closest_marker("long"):
            long.add(item.path)
    items.sort(
        key=lambda item: (item.path not in opens_a_browser, item.path not in long, -tests_in[item.path])
    )


@pytest.fixture(scope="session")
def chromium_browser():
    """Headless Chromium under Playwright, one a test process: Playwright's sync API runs one
    instance a thread, so a second launch while the site's browser is open fails, as it did when
    pytest-xdist gave one worker the site's tests and then the review page's."""
    from playwright import sync_api

    from tests.browser import chromium

    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        yield launched
        launched.close()
