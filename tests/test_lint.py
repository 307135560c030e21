"""The code is as ``make lint`` wants it: ruff's rules and ruff's format (STYLE: ruff for lint
and format), so a change that skips ``make lint`` fails here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
RUFF = Path(sys.executable).with_name("ruff")


@pytest.mark.parametrize("command", [["check"], ["format", "--check"]], ids=["check", "format"])
def test_ruff(command: list[str]) -> None:
    result = subprocess.run(
        [str(RUFF), *command, "generator", "tests", "benchmarks"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
