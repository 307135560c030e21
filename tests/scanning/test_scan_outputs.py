"""What a scan writes, under faults and beside the teacher's work: the responses CSV and its
review file are replaced together or not at all (a kill at each rename, a full disk); a CSV
the teacher edited is never replaced (the new scan goes beside it, and the run says so);
an answer not read is ``?``, which ``grade`` tells from a blank.

Kills are deterministic, as in tests/test_atomic.py: a forked child replaces ``os.replace``
with one that kills the process (SIGKILL) just before its N-th call, for every N a run makes.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import signal
from pathlib import Path
from typing import Any

import pytest

from generator.cli import main
from generator.errors import OutputError
from generator.scanning import outputs
from generator.scanning.outputs import edited, responses_csv, review_path, target, write
from generator.scanning.scan import ScanKey, Scanned


def scanned(version: str) -> Scanned:
    """A run with no sheets whose CSV and review differ by ``version`` (its question columns)."""
    numbers = [1, 2] if version == "old" else [1, 2, 3]
    return Scanned(ScanKey(f"{version}-key.json", "Q", (0.0, 0.0), [], 0.0, 0.0, {}, numbers), [], [])


def run(csv: Path, version: str, kill_at: int = 0) -> tuple[int, str]:
    """``write`` in a forked child whose ``os.replace`` kills it (SIGKILL) just before its
    ``kill_at``-th call: its exit status (-9 when killed) and how many renames it made."""
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover (the child)
        os.close(reading)
        calls = 0
        real_replace = os.replace

        def replace(source: Any, destination: Any) -> None:
            nonlocal calls
            calls += 1
            if calls == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)
            real_replace(source, destination)

        os.replace = replace  # type: ignore[assignment]
        try:
            write(scanned(version), csv)
            os.write(writing, str(calls).encode())
            os._exit(0)
        except BaseException as error:  # noqa: BLE001 (the parent sees it)
            os.write(writing, repr(error).encode())
            os._exit(1)
    os.close(writing)
    out = b""
    while chunk := os.read(reading, 4096):
        out += chunk
    os.close(reading)
    _, status = os.waitpid(child, 0)
    code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
    return code, out.decode()


def state(csv: Path) -> tuple[str | None, str | None]:
    """Which run's CSV and review file are there ("old", "new" or None), checking the pair."""

    def version(path: Path) -> str | None:
        if not path.exists():
            return None
        text = path.read_text(encoding="utf-8")
        return "new" if ("new-key.json" in text or text.startswith("student,form,1,2,3")) else "old"

    return version(csv), version(review_path(csv))


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in (*folder.iterdir(), *folder.parent.iterdir()) if p.name.startswith("."))


@pytest.mark.parametrize("others", [False, True], ids=["alone", "among-other-files"])
def test_a_kill_at_each_rename_never_leaves_the_new_csv_beside_the_old_review(
    tmp_path: Path, others: bool
) -> None:
    count_csv = tmp_path / "count" / "scanned" / "responses.csv"
    assert run(count_csv, "old")[0] == 0
    code, out = run(count_csv, "new")
    assert code == 0, out
    renames = int(out.split()[-1])
    assert renames >= 3  # the two files aside, the commit, the two files in
    seen = set()
    for kill_at in range(1, renames + 1):
        csv = tmp_path / f"kill-{kill_at}" / "scanned" / "responses.csv"
        assert run(csv, "old")[0] == 0
        if others:
            (csv.parent / "notes.txt").write_text("mine")
        assert state(csv) == ("old", "old")
        code, out = run(csv, "new", kill_at)
        assert code == -9, out
        after_kill = state(csv)
        seen.add(after_kill)
        # Either may be missing until the next run (moved aside), never one run's beside the other's.
        assert after_kill not in {("new", "old"), ("old", "new")}, (kill_at, after_kill)
        # The next run puts things right first, then sees an unedited CSV and replaces it.
        code, out = run(csv, "new")
        assert code == 0, out
        assert state(csv) == ("new", "new")
        assert "kept" not in out
        assert leftovers(csv.parent) == []
        if others:
            assert (csv.parent / "notes.txt").read_text() == "mine"
    assert ("old", "old") in seen and len(seen) > 1  # kills before and after the commit were tried


def test_a_full_disk_while_writing_leaves_the_old_pair(tmp_path: Path, monkeypatch) -> None:
    csv = tmp_path / "out" / "responses.csv"
    write(scanned("old"), csv)
    real = Path.write_bytes
    calls = []

    def full(self: Path, data: bytes) -> int:
        calls.append(self)
        if len(calls) == 2:  # the review, after the CSV
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", full)
    with pytest.raises(OutputError, match=r"No space left on device"):
        write(scanned("new"), csv)
    monkeypatch.undo()
    assert state(csv) == ("old", "old")
    assert leftovers(csv.parent) == []


def test_the_review_file_holds_the_digest_of_its_csv(tmp_path: Path) -> None:
    csv = tmp_path / "responses.csv"
    written = write(scanned("old"), csv)
    assert written.csv == csv and written.review == review_path(csv) and written.kept is None
    digest = hashlib.sha256(csv.read_bytes()).hexdigest()
    assert f'<meta name="paperdeck-responses-sha256" content="{digest}">' in written.review.read_text()
    assert not edited(csv)
    assert target(csv) == csv


def test_a_csv_the_teacher_edited_is_kept_and_the_rescan_written_beside_it(tmp_path: Path) -> None:
    csv = tmp_path / "responses.csv"
    write(scanned("old"), csv)
    fixed = csv.read_bytes() + b"Ada,A,B,C\r\n"
    csv.write_bytes(fixed)
    old_review = review_path(csv).read_text(encoding="utf-8")
    assert edited(csv)

    written = write(scanned("new"), csv)
    assert written.kept == csv
    assert written.csv == tmp_path / "responses-2.csv"
    assert written.review == tmp_path / "responses-2.review.html"
    assert csv.read_bytes() == fixed
    assert review_path(csv).read_text(encoding="utf-8") == old_review  # the review of the teacher's file
    assert state(written.csv) == ("new", "new")

    # A rescan replaces its own unedited responses-2.csv; once that is edited too, -3.
    assert write(scanned("new"), csv).csv == tmp_path / "responses-2.csv"
    (tmp_path / "responses-2.csv").write_text("student,form\r\n", encoding="utf-8")
    assert write(scanned("new"), csv).csv == tmp_path / "responses-3.csv"


@pytest.mark.parametrize(
    "make",
    [
        lambda csv: csv.write_text("student,form,1\r\nAda,A,B\r\n"),  # a hand-made file, no review beside it
        lambda csv: (csv.write_text("x"), review_path(csv).write_text("<html>no digest</html>")),
        lambda csv: csv.mkdir(),
    ],
)
def test_a_csv_the_scan_did_not_write_is_never_replaced(tmp_path: Path, make) -> None:
    csv = tmp_path / "responses.csv"
    make(csv)
    before = sorted((p.name, p.read_bytes() if p.is_file() else b"") for p in tmp_path.iterdir())
    written = write(scanned("new"), csv)
    assert written.kept == csv and written.csv == tmp_path / "responses-2.csv"
    assert (
        sorted(
            (p.name, p.read_bytes() if p.is_file() else b"")
            for p in tmp_path.iterdir()
            if not p.name.startswith("responses-2")
        )
        == before
    )


def test_the_command_says_in_one_line_that_it_kept_the_teacher_s_csv(printed, tmp_path: Path, capsys) -> None:
    from .test_hostile_files import jpeg_cut_after_header

    key = printed("attention").key
    scan = jpeg_cut_after_header(tmp_path / "cut.jpg")
    csv = tmp_path / "out" / "responses.csv"
    assert main(["scan", str(key), str(scan), "-o", str(csv)]) == 0
    capsys.readouterr()
    csv.write_bytes(csv.read_bytes() + b"fixed,A\r\n")
    assert main(["scan", str(key), str(scan), "-o", str(csv)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0] == (
        f"kept {csv}: it was changed after paperdeck scan wrote it (your fixes); this scan is "
        f"written beside it, to {tmp_path / 'out' / 'responses-2.csv'} (to grade your fixes: "
        f"paperdeck grade {key} {csv})"
    )
    assert csv.read_bytes().endswith(b"fixed,A\r\n")


def test_grade_scans_again_keeps_the_fixed_scanned_csv(printed, tmp_path: Path, capsys) -> None:
    """``grade KEY --scans`` writes scanned/responses.csv through the same rule."""
    import shutil

    from PIL import Image

    from .test_scan import filled

    attention = printed("attention")
    folder = tmp_path / "quiz"
    shutil.copytree(attention.folder, folder, ignore=shutil.ignore_patterns("scanned", "graded*"))
    key = folder / attention.key.name
    _, pages = filled(attention, seed=3)
    sheet = tmp_path / "sheet.png"
    Image.fromarray(pages[0]).save(sheet)
    scanned_csv = folder / "scanned" / "responses.csv"
    assert main(["grade", str(key), "--scans", str(sheet)]) == 0
    rows = scanned_csv.read_text(encoding="utf-8").splitlines()
    rows[1] = re.sub(r"^[^,]*", "Ada Lovelace", rows[1])  # the teacher names the student
    scanned_csv.write_text("\r\n".join(rows) + "\r\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["grade", str(key), "--scans", str(sheet)]) == 0
    assert "kept " + str(scanned_csv) in capsys.readouterr().err
    assert scanned_csv.read_text(encoding="utf-8").splitlines()[1].startswith("Ada Lovelace,")
    assert (folder / "scanned" / "responses-2.csv").is_file()


def test_an_answer_not_read_is_a_question_mark_not_a_blank(printed) -> None:
    """A flagged choice, a flagged number, a flagged component, and the questions on a missing
    page: ``?`` (one per number), never the empty cell of a question left blank."""
    from generator.scanning.pages import Page
    from generator.scanning.scan import read_scan_key, scan_pages

    from . import synthetic
    from .test_scan import filled

    final = printed("final")
    truths, scans = filled(final, seed=4, mess_rate=0.5)
    result = scan_pages(read_scan_key(final.key), [Page("stack.pdf", 1, scans[0])])
    (row,) = synthetic.responses_rows(responses_csv(result))
    form = final.forms[0]
    counts: dict[int, int] = {}
    for field in form["sheet"]["fields"]:
        if "question" in field:
            counts[field["question"]] = counts.get(field["question"], 0) + 1
    second = {f["question"] for f in form["sheet"]["fields"] if f["page"] == 2 and "question" in f}
    assert second
    for number in second:
        assert row[str(number)] == "; ".join(["?"] * counts[number])
    flagged = {flag.question for flag in result.flags if flag.question is not None}
    assert flagged - second
    for number in flagged - second:
        assert "?" in row[str(number)], (number, row[str(number)])
    for number in set(counts) - flagged - second:
        assert "?" not in row[str(number)]
    assert outputs.NOT_READ == "?"


def test_the_folder_the_user_named_stays_the_same_folder(tmp_path: Path) -> None:
    """A folder holding only the pair is not swapped whole: a shell in it stays in it."""
    folder = tmp_path / "here"
    folder.mkdir()
    inode = folder.stat().st_ino
    write(scanned("old"), folder / "responses.csv")
    write(scanned("new"), folder / "responses.csv")
    assert folder.stat().st_ino == inode
    assert state(folder / "responses.csv") == ("new", "new")
