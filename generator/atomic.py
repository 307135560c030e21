"""Write output atomically: a temporary file (or folder) beside the target, then rename.

A build killed at any moment leaves either the previous good file or the new
complete one, never half of one; a set of files (a quiz's forms, a grading) is
replaced as a whole, so no file of an old set outlives the new one.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path


@contextlib.contextmanager
def atomic_path(target: Path) -> Iterator[Path]:
    """A temporary path to write; it replaces ``target`` only if the block succeeds."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    os.close(fd)
    temporary = Path(name)
    try:
        yield temporary
        with open(temporary, "rb") as written:
            os.fsync(written.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)


def write_bytes(target: Path, data: bytes) -> None:
    """Write ``data`` to ``target`` atomically."""
    with atomic_path(target) as temporary:
        temporary.write_bytes(data)


@contextlib.contextmanager
def file_set(folder: Path, ours: Callable[[Path], bool]) -> Iterator[Path]:
    """A staging folder beside ``folder``; if the block succeeds, what it holds becomes
    the set in ``folder``, and the entries of the old set (``ours``) that it does not
    replace are removed.

    A folder holding only the set is swapped whole (two renames). A folder that also
    holds other things (an ``--out`` shared with other files) keeps them: the new
    entries replace the old one by one. Staging folders of a killed run are cleared.
    """
    folder = Path(folder).resolve()
    folder.parent.mkdir(parents=True, exist_ok=True)
    for leftover in folder.parent.glob(f".{folder.name}.[no][el][wd]-*"):
        shutil.rmtree(leftover, ignore_errors=True)
    staging = folder.with_name(f".{folder.name}.new-{os.getpid()}")
    staging.mkdir()
    try:
        yield staging
        _swap_in(staging, folder, ours)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _swap_in(staging: Path, folder: Path, ours: Callable[[Path], bool]) -> None:
    if not folder.is_dir():
        os.replace(staging, folder)
        return
    entries = list(folder.iterdir())
    if all(ours(entry) for entry in entries):
        old = folder.with_name(f".{folder.name}.old-{os.getpid()}")
        os.replace(folder, old)
        os.replace(staging, folder)
        shutil.rmtree(old, ignore_errors=True)
        return
    new = {entry.name for entry in staging.iterdir()}
    for entry in staging.iterdir():
        target = folder / entry.name
        if entry.is_dir() and target.is_dir():
            old = folder / f".{entry.name}.old-{os.getpid()}"
            os.replace(target, old)
            os.replace(entry, target)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(entry, target)
    for entry in entries:
        if ours(entry) and entry.name not in new:
            shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
