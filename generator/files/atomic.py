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
import threading
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

_LEFTOVER = re.compile(r"\.(?P<target>.+)\.(?P<kind>new|old|part)-(?P<tag>\d+(?:-[0-9a-f]{8})?)\Z", re.S)
_WRITE_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM, errno.EFBIG,
                 errno.ENOTDIR, errno.EISDIR, errno.EEXIST, errno.ENAMETOOLONG}
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


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def recover(parent: Path, target: str | Callable[[str], bool]) -> None:
    """Tidy what killed runs left in ``parent`` for ``target`` (a name, or whether a name is
    one of ours): an old set whose swap was cut between its two renames is put back; staging
    folders, temporary files and old sets no live run holds are removed. Call under
    ``_locked(parent)``."""
    try:
        names = [entry.name for entry in os.scandir(parent)]
    except OSError:
        return
    wanted = target if callable(target) else target.__eq__
    found = [(name, match) for name in names
             if (match := _LEFTOVER.fullmatch(name)) and wanted(match["target"])]
    for name, match in sorted(found, key=lambda pair: pair[1]["kind"] != "old"):
        path = parent / name
        if match["kind"] == "old":
            live = parent / match["target"]
            if not os.path.lexists(live):
                os.replace(path, live)  # the swap was cut after its first rename: the old set is back
            else:
                _remove(path)
        elif _abandoned(path):
            _remove(path)


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


@contextlib.contextmanager
def file_set(folder: Path, ours: Ours, before_swap: Callable[[Path], None] | None = None) -> Iterator[Path]:
    """A staging folder beside ``folder``; if the block succeeds, what it holds becomes
    the set in ``folder``, and the entries of the old set (``ours``) that it does not
    replace are removed.

    A folder holding only the set is swapped whole (two renames). A folder that also
    holds other things (an ``--out`` shared with other files, a user's file inside a
    folder of the set) keeps them: the new entries replace the old one by one, and a
    folder of the set is merged the same way. ``before_swap(staging)`` runs just before the
    swap, under the lock every swap beside ``folder`` takes: what it sees there stays so
    until the swap.
    """
    folder = Path(folder).absolute()
    with _output_errors(folder):
        if os.path.lexists(folder) and not folder.is_dir():
            raise OutputError(f"cannot write into {folder}: it is a file, not a folder")
        folder.parent.mkdir(parents=True, exist_ok=True)
        parent = folder.parent.resolve()
        folder = parent / folder.name
        with _locked(parent):
            recover(parent, folder.name)
        staging = parent / f".{folder.name}.new-{_tag()}"
        staging.mkdir()
        held = _hold(staging)
        try:
            yield staging
            with _locked(parent):
                recover(parent, folder.name)
                if before_swap is not None:
                    before_swap(staging)
                _swap_in(staging, folder, ours)
        finally:
            held.close()
            shutil.rmtree(staging, ignore_errors=True)


def _only_ours(folder: Path, ours: Ours, relative: Path) -> bool:
    for entry in folder.iterdir():
        inside = relative / entry.name
        if not ours(inside) or (entry.is_dir() and not _only_ours(entry, ours, inside)):
            return False
    return True


def _swap_whole(new: Path, target: Path) -> None:
    old = target.with_name(f".{target.name}.old-{_tag()}")
    os.replace(target, old)
    os.replace(new, target)
    _remove(old)


def _swap_in(staging: Path, folder: Path, ours: Ours) -> None:
    if not folder.is_dir():
        os.replace(staging, folder)
        return
    if _only_ours(folder, ours, Path()):
        _swap_whole(staging, folder)
        return
    _merge(staging, folder, ours, Path())


def _merge(new_folder: Path, folder: Path, ours: Ours, relative: Path) -> None:
    """Move the entries of ``new_folder`` into ``folder`` one by one; remove the old set's
    entries that the new set does not have; leave everything that is not ours."""
    recover(folder, lambda name: ours(relative / name))
    entries = list(folder.iterdir())
    new = {entry.name for entry in new_folder.iterdir()}
    for entry in list(new_folder.iterdir()):
        target = folder / entry.name
        if entry.is_dir() and target.is_dir():
            if _only_ours(target, ours, relative / entry.name):
                _swap_whole(entry, target)
            else:
                _merge(entry, target, ours, relative / entry.name)
        elif target.is_dir():
            raise OutputError(f"cannot write {target}: a folder is in the way")
        else:
            os.replace(entry, target)
    for entry in entries:
        inside = relative / entry.name
        if entry.name in new or not ours(inside):
            continue
        if entry.is_dir():
            _merge_out(entry, ours, inside)
        else:
            entry.unlink(missing_ok=True)


def _merge_out(folder: Path, ours: Ours, relative: Path) -> None:
    """Remove the set's entries from ``folder``, and the folder if nothing else is left."""
    for entry in folder.iterdir():
        inside = relative / entry.name
        if not ours(inside):
            continue
        if entry.is_dir():
            _merge_out(entry, ours, inside)
        else:
            entry.unlink(missing_ok=True)
    with contextlib.suppress(OSError):
        folder.rmdir()
