"""The whole build: reproducible bytes, nothing outside out/, nothing lost when killed."""

from __future__ import annotations

import hashlib
import io
import os
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pypdf
import pytest

PROJECT = Path(__file__).resolve().parents[1]


def paperdeck(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "generator.cli", "--project", str(PROJECT), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, **(env or {})})


def build(out: Path, seed: int, env: dict[str, str] | None = None) -> None:
    process = paperdeck("--quiet", "build", "--out", str(out), "--seed", str(seed), env=env)
    _, err = process.communicate(timeout=300)
    assert process.returncode == 0, err.decode()


def outputs(out: Path) -> dict[str, bytes]:
    """Every built file by path relative to out."""
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def is_complete(name: str, data: bytes) -> bool:
    if name.endswith(".apkg"):
        try:
            return zipfile.ZipFile(io.BytesIO(data)).testzip() is None
        except zipfile.BadZipFile:
            return False
    if name.endswith(".pdf"):
        try:
            return len(pypdf.PdfReader(io.BytesIO(data)).pages) > 0
        except Exception:
            return False
    return True


@pytest.fixture(scope="module")
def first_build(tmp_path_factory) -> tuple[Path, dict[str, bytes]]:
    out = tmp_path_factory.mktemp("first") / "out"
    build(out, seed=1, env={"SOURCE_DATE_EPOCH": "1700000000"})
    return out, outputs(out)


def test_build_writes_every_recipe_and_only_inside_out(first_build) -> None:
    out, files = first_build
    assert "aiayn.apkg" in files and "aiayn-guide.pdf" in files
    quizzes = [name for name in files if name.endswith("-key.pdf")]  # one answer-key booklet a quiz
    assert len(quizzes) >= 5
    assert all(is_complete(name, data) for name, data in files.items())
    assert sorted(p.name for p in out.parent.iterdir()) == ["out"]


def test_same_seed_and_source_date_epoch_give_identical_bytes(first_build, tmp_path) -> None:
    _, files = first_build
    build(tmp_path / "again", seed=1, env={"SOURCE_DATE_EPOCH": "1700000000"})
    again = outputs(tmp_path / "again")
    assert again.keys() == files.keys()
    different = [name for name in files if files[name] != again[name]]
    assert different == []


def test_a_killed_build_leaves_every_previous_file_or_a_complete_new_one(first_build, tmp_path) -> None:
    source, files = first_build
    out = tmp_path / "out"
    build(out, seed=1, env={"SOURCE_DATE_EPOCH": "1700000000"})
    before = {name: hashlib.sha256(data).hexdigest() for name, data in outputs(out).items()}
    replaced = set()
    for delay in (0.3, 0.9, 1.6, 2.4, 3.3):
        process = paperdeck("--quiet", "build", "--out", str(out), "--seed", str(int(delay * 10)))
        time.sleep(delay)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        now = outputs(out)
        assert now.keys() >= before.keys()
        for name in before:
            data = now[name]
            assert is_complete(name, data), f"{name} is half-written after a kill at {delay} s"
            if hashlib.sha256(data).hexdigest() != before[name]:
                replaced.add(name)
    # The kills landed at different moments: some files were already rewritten.
    assert replaced, "no kill happened late enough to test a rewrite"
