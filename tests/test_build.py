"""The whole build: reproducible bytes, nothing outside out/, nothing lost when killed."""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import signal
import subprocess
import sys
import zipfile
from pathlib import Path

import pypdf
import pytest

pytestmark = pytest.mark.long  # handed out to a worker early: tests/conftest.py

PROJECT = Path(__file__).resolve().parents[1]


def paperdeck(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "generator.cli", "--project", str(PROJECT), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **(env or {})},
    )


def build(out: Path, seed: int, env: dict[str, str] | None = None) -> None:
    out.mkdir(exist_ok=True)  # a folder outside the current one is the user's to create
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


KILLED = """
import os, signal, sys
from generator.cli import main

out, kill_at = os.path.abspath(sys.argv[1]), os.path.join(os.path.abspath(sys.argv[1]), sys.argv[2])
real_replace = os.replace

def replace(source, target):
    if os.path.abspath(target) == kill_at:
        os.kill(os.getpid(), signal.SIGKILL)
    real_replace(source, target)

os.replace = replace
sys.exit(main(["--project", sys.argv[3], "--quiet", "build", "--out", out, "--seed", sys.argv[4]]))
"""


def killed_build(out: Path, kill_at: str, seed: int) -> int:
    """A build killed (SIGKILL) just before its rename onto ``out / kill_at``. Named, not
    counted: the site's and each quiz's swap are two renames each (the old folder moved
    away beside, then the new one in), and outputs added to the build move the count."""
    process = subprocess.run(
        [sys.executable, "-c", KILLED, str(out), str(kill_at), str(PROJECT), str(seed)],
        capture_output=True,
        timeout=300,
    )
    return process.returncode


def test_a_killed_build_leaves_every_previous_file_or_a_complete_new_one(first_build, tmp_path) -> None:
    out = tmp_path / "out"
    shutil.copytree(first_build[0], out)
    before = {name: hashlib.sha256(data).hexdigest() for name, data in outputs(out).items()}
    replaced = set()
    # Before the guide's rename, before the deck's, and between the two renames of the
    # first quiz's swap (its folder is then moved away beside, and the next run puts it back).
    for seed, kill_at in enumerate(("aiayn-guide.pdf", "aiayn.apkg", "quiz-attention"), 2):
        assert killed_build(out, kill_at, seed) == -signal.SIGKILL
        now = outputs(out)
        cut = [p for p in out.iterdir() if p.name.startswith(".") and ".old-" in p.name]
        assert len(cut) == (1 if kill_at == "quiz-attention" else 0)
        moved = {f"{p.name.split('.')[1]}/{f.relative_to(p)}" for p in cut for f in p.rglob("*")}
        for name in before:
            if name in moved:
                continue
            data = now[name]
            assert is_complete(name, data), f"{name} is half-written after a kill at rename {kill_at}"
            if hashlib.sha256(data).hexdigest() != before[name]:
                replaced.add(name)
    assert replaced, "no kill happened late enough to test a rewrite"
    build(out, seed=1, env={"SOURCE_DATE_EPOCH": "1700000000"})  # the next run puts the cut quiz back first
    assert {name for name in outputs(out) if ".replaced-" not in name} == before.keys()
    assert all(is_complete(name, data) for name, data in outputs(out).items())
    assert not [p for p in out.iterdir() if p.name.startswith(".")]
