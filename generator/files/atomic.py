"""Write output atomically: a temporary file (or folder) beside the target, then rename.

A build killed at any moment leaves either the previous good file or the new
complete one, never half of one; a set of files (a quiz's forms, a grading) is
replaced as a whole, so no file of an old set outlives the new one.

Runs prove what is theirs: each temporary file or staging folder is named
``.<target>.part-<tag>`` / ``.<target>.new-<tag>`` and held under an exclusive
``flock`` for as long as its run lives, so a later run removes only what no live
run holds (two builds into one ``out/`` never delete each other's work). Swaps
happen under a lock on the folder that holds them. A run killed between the two
renames of a swap leaves ``.<target>.old-<tag>`` and no target: the next run puts
the old set back. Leftovers are found by comparing names, never by a glob, so a
target named ``dest/*`` matches nothing but itself.

An ``OSError`` while writing (a read-only folder, a full disk, a file in the way)
becomes an ``OutputError``: one line naming the target, exit code 2.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from ..errors import OutputError

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; concurrent runs into one folder are not guarded
    fcntl = None  # type: ignore[assignment]

PRIVATE = 0o600
"""Mode of files that hold seeds or a student's data (keys, rosters' indexes, remedial decks)."""
PUBLIC = 0o644
"""Mode of every other file written."""

_LEFTOVER = re.compile(
    r"\.(?P<target>.+)\.(?P<kind>new|old|part|undo|redo)-(?P<tag>\d+(?:-[0-9a-f]{8})?)\Z", re.S
)
_WRITE_ERRORS = {
    errno.ENOSPC,
    errno.EDQUOT,
    errno.EROFS,
    errno.EACCES,
    errno.EPERM,
    errno.EFBIG,
    errno.ENOTDIR,
    errno.EISDIR,
    errno.EEXIST,
    errno.ENAMETOOLONG,
}
_held = threading.local()
"""The folders whose lock this thread holds."""


def _tag() -> str:
    return f"{os.getpid()}-{secrets.token_hex(4)}"


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """An exclusive lock on ``folder``; re-entrant within a thread, so nested writes do not deadlock."""
    held: set[str] = _held.__dict__.setdefault("folders", set())
    key = str(folder)
    if fcntl is None or key in held:
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        held.add(key)
        try:
            yield
        finally:
            held.discard(key)
    finally:
        os.close(fd)  # closing releases the lock


def _hold(path: Path) -> contextlib.ExitStack:
    """An exclusive lock on ``path`` (a staging folder or temporary file), held until closed."""
    stack = contextlib.ExitStack()
    if fcntl is not None:
        fd = os.open(path, os.O_RDONLY)
        stack.callback(os.close, fd)
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return stack


def _abandoned(path: Path) -> bool:
    """Whether no live run holds ``path`` (a staging folder or temporary file)."""
    if fcntl is None:
        return True
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    finally:
        os.close(fd)
    return True


_OLD_TEMPORARY = 24 * 3600
"""Age (s) after which a temporary folder named before folders were held is taken as abandoned."""


def temporary_folder(prefix: str) -> tuple[Path, Callable[[], None]]:
    """A new private folder (0700) in the system's temporary folder, ``<prefix><pid>-<tag>``,
    held by this process until the returned function removes it. Folders of the same prefix
    whose process died without removing them (killed: ``atexit`` never ran) are removed first,
    so none stays for good."""
    parent = Path(tempfile.gettempdir())
    folder = parent / f"{prefix}{_tag()}"
    # Made and held under the folder's lock, which tidying takes too: another run (or thread)
    # tidying between the two would take the new folder for an abandoned one and remove it.
    with _locked(parent):
        _tidy_temporary(parent, prefix)
        folder.mkdir(mode=0o700)
        held = _hold(folder)

    def remove() -> None:
        held.close()
        shutil.rmtree(folder, ignore_errors=True)

    return folder, remove


def _tidy_temporary(parent: Path, prefix: str) -> None:
    ours = re.compile(re.escape(prefix) + r"\d+-[0-9a-f]{8}")
    try:
        entries = [e for e in os.scandir(parent) if e.name.startswith(prefix)]
    except OSError:
        return
    for entry in entries:
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not entry.is_dir(follow_symlinks=False) or info.st_uid != os.geteuid():
            continue
        named_before = ours.fullmatch(entry.name) is None  # mkdtemp's name: nothing holds it
        if named_before and time.time() - info.st_mtime < _OLD_TEMPORARY:
            continue
        if _abandoned(Path(entry.path)):
            shutil.rmtree(entry.path, ignore_errors=True)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def recover(parent: Path, target: str | Callable[[str], bool]) -> None:
    """Tidy what killed runs left in ``parent`` for ``target`` (a name, or whether a name is
    one of ours): an old set whose swap was cut between its two renames is put back; a merge
    cut before its commit is undone (the old set's entries go back), one cut after it is
    finished (the new set's entries go in); staging folders, temporary files and old sets no
    live run holds are removed. Call under ``_locked(parent)``."""
    try:
        names = [entry.name for entry in os.scandir(parent)]
    except OSError:
        return
    wanted = target if callable(target) else target.__eq__
    found = [
        (name, match) for name in names if (match := _LEFTOVER.fullmatch(name)) and wanted(match["target"])
    ]
    order = {"redo": 0, "undo": 1, "old": 2}
    for name, match in sorted(found, key=lambda pair: order.get(pair[1]["kind"], 3)):
        path = parent / name
        live = parent / match["target"]
        if not os.path.lexists(path):
            continue  # handled with its pair
        if match["kind"] == "redo":  # a merge cut after its commit: the new set goes in
            live.mkdir(exist_ok=True)
            _move_into(path, live)
            _remove(path)
            _remove(parent / f".{match['target']}.undo-{match['tag']}")
        elif match["kind"] == "undo":  # a merge cut before its commit: the old set comes back
            _move_back(path, live)
            _remove(path)
        elif match["kind"] == "old":
            if not os.path.lexists(live):
                os.replace(path, live)  # the swap was cut after its first rename: the old set is back
            else:
                _remove(path)
        elif _abandoned(path):
            _remove(path)


def _real_dir(path: Path) -> bool:
    return path.is_dir() and not path.is_symlink()


def _move_into(source: Path, folder: Path) -> None:
    """Move every entry of ``source`` into ``folder``: folders merged, files replaced."""
    for entry in list(source.iterdir()):
        target = folder / entry.name
        if _real_dir(entry) and _real_dir(target):
            _move_into(entry, target)
        elif not _real_dir(target):
            os.replace(entry, target)


def _move_back(source: Path, folder: Path) -> None:
    """Move the entries of ``source`` back into ``folder`` where nothing took their place."""
    if not os.path.lexists(folder):
        os.replace(source, folder)
        return
    for entry in list(source.iterdir()):
        target = folder / entry.name
        if not os.path.lexists(target):
            os.replace(entry, target)
        elif _real_dir(entry) and _real_dir(target):
            _move_back(entry, target)


def _write_error(error: OSError, target: Path) -> OutputError:
    return OutputError(f"cannot write {target}: {error.strerror or error}")


@contextlib.contextmanager
def _output_errors(target: Path) -> Iterator[None]:
    try:
        yield
    except OSError as error:
        if error.errno in _WRITE_ERRORS:
            raise _write_error(error, target) from None
        raise


@contextlib.contextmanager
def atomic_path(target: Path, mode: int = PUBLIC) -> Iterator[Path]:
    """A temporary path to write; it replaces ``target`` (with ``mode``) only if the block succeeds."""
    target = Path(target)
    with _output_errors(target):
        if target.is_dir():
            raise OutputError(f"cannot write {target}: it is a folder")
        target.parent.mkdir(parents=True, exist_ok=True)
        parent = target.parent.resolve()
        temporary = parent / f".{target.name}.part-{_tag()}"
        with _locked(parent):  # held before another run's recover (under the lock) can see it
            os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE))
            held = _hold(temporary)
        try:
            yield temporary
            with open(temporary, "rb") as written:
                os.fsync(written.fileno())
            os.chmod(temporary, mode)
            with _locked(parent):
                recover(parent, target.name)
                os.replace(temporary, target)
        finally:
            held.close()
            temporary.unlink(missing_ok=True)


def write_bytes(target: Path, data: bytes, mode: int = PUBLIC) -> None:
    """Write ``data`` to ``target`` atomically."""
    with atomic_path(target, mode) as temporary:
        temporary.write_bytes(data)


def open_private(path: Path, mode: str = "w", **options: Any) -> IO[Any]:
    """Open a new file readable by its owner only, whatever the umask (``open``'s arguments)."""

    def opener(name: str, flags: int) -> int:
        fd = os.open(name, flags, PRIVATE)
        if hasattr(os, "fchmod"):  # a file that was there keeps its old mode otherwise
            os.fchmod(fd, PRIVATE)
        return fd

    return open(path, mode, opener=opener, **options)


def write_private(path: Path, data: bytes) -> None:
    """Write ``data`` into a new file readable by its owner only (inside a staging folder)."""
    with open_private(path, "wb") as file:
        file.write(data)


Ours = Callable[[Path], bool]
"""Whether an entry (its path relative to the set's folder) belongs to the set."""


RECORD_LIMIT = 4 * 1024 * 1024
"""Largest record of a set's files read back (a site of thousands of pages is well under)."""


def _recorded(folder: Path, record: str) -> Ours | None:
    """Whether a path belongs to the set the record in ``folder`` lists, or None without a record."""
    path = folder / record
    try:
        if not path.is_file() or path.is_symlink() or path.stat().st_size > RECORD_LIMIT:
            return None
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    files = {line for line in lines if line and not line.startswith("#")} | {record}
    folders = {str(Path(line).parent) for line in files} - {"."}
    folders |= {str(parent) for name in folders for parent in Path(name).parents} - {"."}
    return lambda relative: relative.as_posix() in files or relative.as_posix() in folders


def _write_record(staging: Path, record: str) -> None:
    names = sorted(p.relative_to(staging).as_posix() for p in staging.rglob("*") if not _real_dir(p))
    (staging / record).write_text(
        "# written by paperdeck: the files of its last build here, which the next build replaces;\n"
        "# anything else in this folder is left alone\n" + "".join(f"{name}\n" for name in names),
        encoding="utf-8",
    )


@contextlib.contextmanager
def file_set(
    folder: Path,
    ours: Ours,
    before_swap: Callable[[Path], None] | None = None,
    record: str | None = None,
    whole: bool = True,
) -> Iterator[Path]:
    """A staging folder beside ``folder``; if the block succeeds, what it holds becomes
    the set in ``folder``, and the entries of the old set (``ours``) that it does not
    replace are removed.

    A folder holding only the set is swapped whole (two renames). A folder that also
    holds other things (an ``--out`` shared with other files, a user's file inside a
    folder of the set) keeps them, and the set is still replaced as one change (``_merge``).
    ``before_swap(staging)`` runs just before the swap, under the lock every swap beside
    ``folder`` takes: what it sees there stays so until the swap.

    With ``record`` (a file name), the set lists its files in that file inside the folder, and
    the next run takes the old set to be exactly what the record lists (``ours`` then only
    decides for a folder without a record): files it wrote before and no longer writes are
    removed, whatever else is there is kept.

    Without ``whole``, the folder is never swapped whole, even when it holds only the set: a
    folder the user named (a shell's current folder) stays the same folder.
    """
    folder = Path(folder).absolute()
    with _output_errors(folder):
        if os.path.lexists(folder) and not folder.is_dir():
            raise OutputError(f"cannot write into {folder}: it is a file, not a folder")
        folder.parent.mkdir(parents=True, exist_ok=True)
        parent = folder.parent.resolve()
        folder = parent / folder.name
        staging = parent / f".{folder.name}.new-{_tag()}"
        with _locked(parent):  # held before another run's recover (under the lock) can see it
            recover(parent, folder.name)
            staging.mkdir()
            held = _hold(staging)
        try:
            yield staging
            if record is not None:
                _write_record(staging, record)
            with _locked(parent):
                recover(parent, folder.name)
                if before_swap is not None:
                    before_swap(staging)
                old_set = (_recorded(folder, record) if record is not None else None) or ours
                _swap_in(staging, folder, old_set, whole)
        finally:
            held.close()
            shutil.rmtree(staging, ignore_errors=True)


def _only_ours(folder: Path, ours: Ours, relative: Path) -> bool:
    for entry in folder.iterdir():
        inside = relative / entry.name
        if not ours(inside) or (_real_dir(entry) and not _only_ours(entry, ours, inside)):
            return False
    return True


def _swap_whole(new: Path, target: Path) -> None:
    old = target.with_name(f".{target.name}.old-{_tag()}")
    os.replace(target, old)
    os.replace(new, target)
    _remove(old)


def _swap_in(staging: Path, folder: Path, ours: Ours, whole: bool = True) -> None:
    if not folder.is_dir():
        os.replace(staging, folder)
        return
    if whole and _only_ours(folder, ours, Path()):
        _swap_whole(staging, folder)
        return
    _merge(staging, folder, ours)


def _merge(staging: Path, folder: Path, ours: Ours) -> None:
    """Put the new set of ``staging`` in ``folder`` among things that are not ours, as one change.

    The old set's entries (and anything a new entry would replace) move aside into
    ``.<folder>.undo-<tag>``; then the staging folder is renamed ``.<folder>.redo-<tag>``: that
    rename is the commit. Its entries move in, and both folders are removed. A run killed before
    the commit is undone by the next one (``recover``), one killed after it is finished: the
    folder holds the old set or the new one, never a mix."""
    recover(folder, lambda name: ours(Path(name)))  # leftovers of runs before this way of merging
    aside = _aside(staging, folder, ours, Path())
    tag = _LEFTOVER.fullmatch(staging.name)["tag"]  # type: ignore[index]
    undo = folder.parent / f".{folder.name}.undo-{tag}"
    redo = folder.parent / f".{folder.name}.redo-{tag}"
    undo.mkdir()
    for relative in aside:
        (undo / relative).parent.mkdir(parents=True, exist_ok=True)
        os.replace(folder / relative, undo / relative)
    os.replace(staging, redo)  # the commit
    _move_into(redo, folder)
    _remove(undo)
    _remove(redo)


def _aside(new: Path | None, folder: Path, ours: Ours, relative: Path) -> list[Path]:
    """What in ``folder`` moves aside for the new set (``new``, the staging folder's matching
    folder, if any): the old set's entries, whole where a folder holds nothing else, and
    anything an entry of the new set replaces. Checked before anything moves."""
    found: list[Path] = []
    for entry in sorted(folder.iterdir()):
        inside = relative / entry.name
        incoming = new / entry.name if new is not None and os.path.lexists(new / entry.name) else None
        if not ours(inside) and incoming is None:
            continue
        if _real_dir(entry) and not _only_ours(entry, ours, inside):
            if incoming is not None and not _real_dir(incoming):
                raise OutputError(f"cannot write {folder / entry.name}: a folder is in the way")
            found += _aside(incoming, entry, ours, inside)
        else:
            found.append(inside)
    return found
