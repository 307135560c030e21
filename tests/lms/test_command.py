"""``paperdeck lms``: both files written, private (they hold every answer); a bad recipe: one line, exit 2."""

from __future__ import annotations

import stat
import subprocess
import sys


def test_paperdeck_lms_writes_both_files_private(tmp_path):
    paperdeck = [sys.executable, "-m", "generator.cli"]
    run = subprocess.run([*paperdeck, "lms", "--help"], capture_output=True, text=True)
    assert "QTI 2.1" in run.stdout
    out = tmp_path / "lms"
    out.mkdir()
    run = subprocess.run(
        [*paperdeck, "-q", "lms", "quiz-attention", "--variants", "2", "--seed", "4", "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    written = sorted(p.name for p in out.iterdir())
    assert written == ["quiz-attention-moodle.xml", "quiz-attention-qti.zip"]
    for path in out.iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == 0o600  # every answer is in them
    bad = subprocess.run(
        [*paperdeck, "-q", "lms", "no-such-quiz", "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1, bad.stderr
