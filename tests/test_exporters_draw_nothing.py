"""Exporters draw no random numbers (issue 42): what an output shows is decided by its document.

``paperdeck build`` runs in this process over the bundled paper, every recipe for real, with
the problem generators and NumPy's ``default_rng`` watched: a call made from a module of
``generator.exporters`` fails the test. A quiz's forms are made on demand by the quiz document
(``Quiz.iter_forms``) while the exporter writes them, so their draws come from
``generator.documents``, which is where they belong; the answer sheets' digit grids are sized
by the quiz document too (``ProblemItem.largest``).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from generator import problems
from generator.cli import main

pytestmark = pytest.mark.long  # a whole build, about 5 s: handed out early (tests/conftest.py)

PROJECT = Path(__file__).resolve().parents[1]


def test_a_build_draws_nothing_in_its_exporters(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[str] = []
    called: set[str] = set()

    def watch(owner: Any, name: str) -> None:
        real = getattr(owner, name)

        def watched(*args: Any, **kwargs: Any) -> Any:
            caller = sys._getframe(1).f_globals.get("__name__", "")
            if caller.startswith("generator.exporters"):
                drawn.append(f"{caller} called {name}{args[:2]}")
            called.add(name)
            return real(*args, **kwargs)

        monkeypatch.setattr(owner, name, watched)

    for owner, name in ((problems, "generate"), (problems, "generate_one"), (np.random, "default_rng")):
        watch(owner, name)
    out = tmp_path / "out"
    out.mkdir()
    assert main(["--project", str(PROJECT), "-q", "build", "--seed", "1", "--out", str(out)]) == 0
    assert "generate" in called  # the watch saw the documents draw their problems
    assert sorted(p.name for p in out.glob("quiz-*/*-sheet.pdf"))  # answer sheets were made
    assert drawn == []
