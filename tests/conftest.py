"""Shared test set-up: figures are cached in a temporary folder, not the user's cache."""

from __future__ import annotations

import os

import pytest


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
