"""Writing sets of files (``generator/files/atomic.py``) under faults: a kill at each rename,
two runs at once, a folder named like a glob, a read-only folder, a full disk.

Kills are deterministic: a child process replaces ``os.replace`` with one that kills
the process (SIGKILL) just before its N-th call, for every N a run makes. A set merged
into a folder that also holds a user's files is as all-or-nothing as one swapped whole.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from generator.errors import OutputError
from generator.files.atomic import PRIVATE, file_set, write_bytes

PROJECT = Path(__file__).resolve().parents[1]

CHILD = textwrap.dedent("""
    import os, signal, sys, time
    from pathlib import Path
    from generator.files import atomic

    folder, version, kill_at, wait_for = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
    calls = 0
    real_replace = os.replace

    def replace(source, target):
        global calls
        calls += 1
        if calls == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)
        real_replace(source, target)

    os.replace = replace
    ours = lambda path: path.parts[0] in ("a.txt", "b.txt", "c.txt", "remedial") and path.name != "README.txt"
    with atomic.file_set(folder, ours) as staging:
        names = ["a.txt", "b.txt"] if version == "old" else ["a.txt", "c.txt"]
        for name in names:
            (staging / name).write_text(version * 1000)
        (staging / "remedial").mkdir()
        (staging / "remedial" / "deck.apkg").write_text(version)
        if wait_for != "-":
            Path(wait_for + ".ready").touch()
            while not Path(wait_for).exists():
                time.sleep(0.01)
    print(calls)
""")

OLD = {"a.txt": "old" * 1000, "b.txt": "old" * 1000, "remedial/deck.apkg": "old"}
NEW = {"a.txt": "new" * 1000, "c.txt": "new" * 1000, "remedial/deck.apkg": "new"}
USER = {"notes.txt": "mine", "remedial/README.txt": "read me"}


def run(folder: Path, version: str, kill_at: int = 0, wait_for: str = "-") -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, str(folder), version, str(kill_at), wait_for],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(PROJECT)},
    )


def finish(process: subprocess.Popen[str]) -> tuple[int, str]:
    out, err = process.communicate(timeout=60)
    return process.returncode, out + err


def files(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): p.read_text() for p in sorted(folder.rglob("*")) if p.is_file()}


def renames_of_a_run(tmp_path: Path, user_files: bool) -> int:
    folder = tmp_path / "count" / "set"
    assert finish(run(folder, "old"))[0] == 0
    for name, text in USER.items() if user_files else ():
        (folder / name).write_text(text)
    code, out = finish(run(folder, "new"))
    assert code == 0, out
    return int(out)


@pytest.mark.parametrize("user_files", [False, True], ids=["whole set", "shared folder"])
def test_a_kill_at_each_rename_leaves_the_old_set_or_the_new_and_the_next_run_recovers(
    tmp_path: Path, user_files: bool
) -> None:
    renames = renames_of_a_run(tmp_path, user_files)
    assert renames >= 2
    for kill_at in range(1, renames + 1):
        folder = tmp_path / str(kill_at) / "set"
        assert finish(run(folder, "old"))[0] == 0
        for name, text in USER.items() if user_files else ():
            (folder / name).write_text(text)
        code, _ = finish(run(folder, "new", kill_at))
        assert code == -signal.SIGKILL
        # The next run (here one that fails before its swap) puts back what a cut swap moved away.
        with pytest.raises(RuntimeError), file_set(folder, lambda path: False):
            raise RuntimeError("the next run fails")
        now = files(folder)
        user = {name: now.pop(name) for name in USER if name in now}
        assert user == (USER if user_files else {}), f"a user's file is lost after a kill at rename {kill_at}"
        # Whether the folder was swapped whole or merged among a user's files: all old or all new.
        assert now in (OLD, NEW), f"a kill at rename {kill_at} left {now}"
        assert sorted(p.name for p in folder.parent.iterdir()) == ["set"], "a leftover stayed beside"
        assert not [p for p in folder.rglob(".*")], "a leftover stayed inside"


def test_a_run_never_removes_the_staging_folder_of_a_live_run(tmp_path: Path) -> None:
    folder = tmp_path / "out" / "set"
    signal_file = str(tmp_path / "go")
    first = run(folder, "old", wait_for=signal_file)
    while not Path(signal_file + ".ready").exists():  # the first run is inside its block
        assert first.poll() is None, first.communicate()
    code, out = finish(run(folder, "new"))  # a whole second run, with its clean-up, meanwhile
    assert code == 0, out
    assert files(folder) == NEW
    Path(signal_file).touch()
    code, out = finish(first)
    assert code == 0, out
    assert files(folder) == OLD  # the last swap wins, whole
    assert sorted(p.name for p in folder.parent.iterdir()) == ["set"]


def test_a_folder_named_like_a_glob_matches_only_itself(tmp_path: Path) -> None:
    dest = tmp_path / "dest"
    (dest / ".hidden.new-1").mkdir(parents=True)
    (dest / ".cache").mkdir()
    (dest / ".x.old-2").mkdir()
    with file_set(dest / "*", lambda path: True) as staging:
        (staging / "a.txt").write_text("a")
    assert sorted(p.name for p in dest.iterdir()) == ["*", ".cache", ".hidden.new-1", ".x.old-2"]
    (dest / "*" / ".notes.old-1").write_text("a user's file named like a leftover")
    with file_set(dest / "*", lambda path: path.name == "a.txt") as staging:
        (staging / "a.txt").write_text("b")
    assert sorted(p.name for p in (dest / "*").iterdir()) == [".notes.old-1", "a.txt"]


def test_a_temporary_file_of_a_killed_run_is_removed_by_the_next_write(tmp_path: Path) -> None:
    (tmp_path / ".deck.apkg.part-123-0badc0de").write_bytes(b"half")
    (tmp_path / ".other.apkg.part-123-0badc0de").write_bytes(b"someone else's")
    write_bytes(tmp_path / "deck.apkg", b"whole", PRIVATE)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.apkg.part-123-0badc0de", "deck.apkg"]
    assert (tmp_path / "deck.apkg").stat().st_mode & 0o777 == PRIVATE


@pytest.fixture()
def read_only_folder(tmp_path: Path):
    """A folder no write reaches: by its mode for a user, by a read-only tmpfs for root, whom
    modes do not stop (so the test runs, and means the same, as a user and as CI's root)."""
    folder = tmp_path / "ro"
    folder.mkdir()
    if os.geteuid() != 0:
        folder.chmod(0o500)
        yield folder
        folder.chmod(0o700)
        return
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k,ro", "tmpfs", str(folder)], check=True)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def test_a_read_only_folder_is_a_one_line_error(read_only_folder: Path) -> None:
    refused = r"cannot write .*ro/set: (Permission denied|Read-only file system)$"
    with pytest.raises(OutputError, match=refused):
        with file_set(read_only_folder / "set", lambda path: True) as staging:
            (staging / "a.txt").write_text("a")


def test_a_read_only_file_system_and_a_full_disk_are_one_line_errors(tmp_path: Path) -> None:
    """RLIMIT_FSIZE makes every write past 1 kB fail with EFBIG, as a full disk fails with ENOSPC."""
    script = textwrap.dedent("""
        import resource, signal, sys
        from pathlib import Path
        from generator.cli import main
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))
        sys.exit(main(["-q", "practice", "softmax", "-n", "3", "--seed", "1", "-o", sys.argv[1]]))
    """)
    target = tmp_path / "practice.apkg"
    result = subprocess.run(
        [sys.executable, "-c", script, str(target)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(PROJECT)},
        timeout=120,
    )
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().splitlines() == [f"paperdeck: cannot write {target}: File too large"]
    assert list(tmp_path.iterdir()) == []


def test_a_file_where_the_set_goes_is_a_one_line_error(tmp_path: Path) -> None:
    (tmp_path / "quiz").write_text("a file")
    with pytest.raises(OutputError, match="it is a file, not a folder"):
        with file_set(tmp_path / "quiz", lambda path: True):
            pass
    assert (tmp_path / "quiz").read_text() == "a file"


@pytest.fixture()
def tiny_disk(tmp_path: Path):
    """A 64 kB tmpfs (root only, where mounting is allowed): a real full disk, a real read-only one."""
    disk = tmp_path / "disk"
    disk.mkdir()
    if os.geteuid() != 0:  # CI runs as root; as a user, RLIMIT_FSIZE above stands in for a full disk
        pytest.skip("mounting a tmpfs needs root")
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(disk)], check=True)
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def test_a_real_full_disk_and_read_only_disk_are_one_line_errors(tiny_disk: Path) -> None:
    (tiny_disk / "set").mkdir()
    (tiny_disk / "set" / "a.txt").write_text("old")
    with pytest.raises(OutputError, match=r"cannot write .*set: No space left on device"):
        with file_set(tiny_disk / "set", lambda path: True) as staging:
            (staging / "a.txt").write_bytes(b"x" * 200_000)
    assert (tiny_disk / "set" / "a.txt").read_text() == "old"
    assert sorted(p.name for p in tiny_disk.iterdir()) == ["set"]
    subprocess.run(["mount", "-o", "remount,ro", str(tiny_disk)], check=True)
    with pytest.raises(OutputError, match=r"cannot write .*set: Read-only file system"):
        with file_set(tiny_disk / "set", lambda path: True) as staging:
            (staging / "a.txt").write_text("new")
    with pytest.raises(OutputError, match=r"cannot write .*b.txt: Read-only file system"):
        write_bytes(tiny_disk / "b.txt", b"new")
    assert (tiny_disk / "set" / "a.txt").read_text() == "old"


TYPST_CHILD = textwrap.dedent("""
    import os, signal, sys
    from generator.exporters.typst.compile import compile_pdf, staged_root
    assert compile_pdf("= A page", 0).startswith(b"%PDF")
    with staged_root() as root:
        if sys.argv[1] == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
""")


def test_killed_runs_leave_no_typst_folder_in_the_temporary_folder_for_good(tmp_path: Path) -> None:
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    env = {**os.environ, "PYTHONPATH": str(PROJECT), "TMPDIR": str(temporary)}

    def typst_run(how: str) -> int:
        return subprocess.run(
            [sys.executable, "-c", TYPST_CHILD, how], env=env, capture_output=True, timeout=120
        ).returncode

    assert typst_run("kill") == -signal.SIGKILL
    first = sorted(p.name for p in temporary.iterdir())
    # A compiler's root and a staged root, left by the kill.
    assert len(first) == 2 and all(name.startswith("paperdeck-typst-") for name in first)
    assert typst_run("kill") == -signal.SIGKILL
    second = sorted(p.name for p in temporary.iterdir())
    assert len(second) == 2 and not set(first) & set(second), "the next run did not remove a killed run's"
    (temporary / "paperdeck-typst-old12345").mkdir()  # named by mkdtemp before folders were held
    os.utime(temporary / "paperdeck-typst-old12345", (0, 0))
    (temporary / "paperdeck-typst-new12345").mkdir()  # as named, perhaps by a run going on now
    assert typst_run("finish") == 0
    assert sorted(p.name for p in temporary.iterdir()) == ["paperdeck-typst-new12345"]


def test_temporary_folders_made_at_once_by_threads_and_runs_are_never_taken_for_abandoned(
    tmp_path: Path,
) -> None:
    # A build compiles in threads, and two builds may run at once: each new folder tidies the
    # abandoned ones, and one made but not yet held looked abandoned (a build failed with
    # FileNotFoundError when another removed its folder between the two).
    child = textwrap.dedent("""
        import sys, threading
        from generator.files.atomic import temporary_folder
        failed = []
        def make():
            for _ in range(150):
                try:
                    folder, remove = temporary_folder("paperdeck-race-")
                    (folder / "x").write_text("x")
                    remove()
                except OSError as error:
                    failed.append(error)
        threads = [threading.Thread(target=make) for _ in range(4)]
        for thread in threads: thread.start()
        for thread in threads: thread.join()
        sys.exit(f"{len(failed)} failed: {failed[0]}" if failed else 0)
    """)
    env = {**os.environ, "PYTHONPATH": str(PROJECT), "TMPDIR": str(tmp_path)}
    runs = [
        subprocess.Popen([sys.executable, "-c", child], env=env, stderr=subprocess.PIPE) for _ in range(2)
    ]
    assert [(run.wait(timeout=120), run.stderr.read().decode()[-300:]) for run in runs] == [(0, "")] * 2
    assert list(tmp_path.iterdir()) == []
