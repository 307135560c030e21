"""``paperdeck grade`` into a folder that also holds a user's file (so the graded set is
merged, not swapped whole), killed (SIGKILL) just before each rename it makes: after the
next run's recovery the folder holds the old grading or the new one, never a mix, and the
user's file."""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from generator.files.atomic import file_set

from .classroom import write_key

pytestmark = pytest.mark.long  # handed out to a worker early: tests/conftest.py

PROJECT = Path(__file__).resolve().parents[2]

GRADE = textwrap.dedent("""
    import os, signal, sys
    from generator.cli import main

    key, responses, out, kill_at = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    calls = 0
    real_replace = os.replace

    def replace(source, target):
        global calls
        if os.path.abspath(target).startswith(os.path.dirname(os.path.abspath(out))):
            calls += 1  # not the renames of the project's cache, which a run may or may not write
            if calls == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)
        real_replace(source, target)

    os.replace = replace
    code = main(["-q", "grade", key, responses, "-o", out, "--remedial", "--seed", "3"])
    print(calls)
    sys.exit(code)
""")


def grade(key: Path, responses: Path, out: Path, kill_at: int = 0) -> tuple[int, str]:
    env = {**os.environ, "PYTHONPATH": str(PROJECT), "SOURCE_DATE_EPOCH": "1700000000"}
    done = subprocess.run(
        [sys.executable, "-c", GRADE, str(key), str(responses), str(out), str(kill_at)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        cwd=out.parent,
    )
    return done.returncode, done.stdout + done.stderr


def graded(folder: Path) -> dict[str, str]:
    """Each graded file and its SHA-256; a remedial deck only by its name (a deck's bytes differ
    from run to run: the two sets have different students' decks)."""
    return {
        p.relative_to(folder).as_posix(): ""
        if p.suffix == ".apkg"
        else hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != "notes.txt"
    }


def test_a_grade_killed_at_each_rename_leaves_the_old_grading_or_the_new(tmp_path: Path) -> None:
    key = write_key(tmp_path / "quiz-key.json", versions=2)
    old = tmp_path / "old.csv"
    old.write_text("student,form,1,2\nAda,A,a,b\nBo,B,b,a\nCy,A,,\n", encoding="utf-8")
    new = tmp_path / "new.csv"
    new.write_text("student,form,1,2\nAda,A,b,b\nDee,B,a,\n", encoding="utf-8")
    references = {}
    for name, responses in (("old", old), ("new", new)):
        out = tmp_path / f"reference-{name}" / "graded"
        out.parent.mkdir()
        code, said = grade(key, responses, out)
        assert code == 0, said
        references[name] = graded(out)
    assert references["old"] != references["new"]
    assert {name for name in references["old"] if name.endswith(".apkg")} != {
        name for name in references["new"] if name.endswith(".apkg")
    }
    out = tmp_path / "count" / "graded"
    shutil.copytree(tmp_path / "reference-old" / "graded", out)
    (out / "notes.txt").write_text("the teacher's")
    code, said = grade(key, new, out)  # a whole run, counting its renames
    assert code == 0, said
    assert graded(out) == references["new"]
    renames = int(said.split()[0])
    assert renames >= 5
    for kill_at in range(1, renames + 1):
        out = tmp_path / str(kill_at) / "graded"
        shutil.copytree(tmp_path / "reference-old" / "graded", out)
        (out / "notes.txt").write_text("the teacher's")
        assert grade(key, new, out, kill_at)[0] == -signal.SIGKILL
        with pytest.raises(RuntimeError), file_set(out, lambda path: False):
            raise RuntimeError("the next run fails before its swap, after its recovery")
        assert (out / "notes.txt").read_text() == "the teacher's"
        assert graded(out) in (references["old"], references["new"]), f"a kill at rename {kill_at} left a mix"
        assert sorted(p.name for p in out.parent.iterdir()) == ["graded"], "a leftover stayed beside"
