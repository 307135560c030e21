"""A project, once checked, kept between runs so the next command starts at once.

Reading and checking the YAML of a paper (parse, build the model, check every
math span, re-solve every worked example, card rules) takes most of ``paperdeck
list`` and ``check``. The result depends only on the project's files and on
paperdeck's own code, so it is kept, pickled, under the user's cache folder and
used again while neither has changed: the key is the bytes of every file of the
project (``content/``, ``decks/``, ``problems/``), the size and modification time
of every file of the ``generator`` package, and the Python version. A file added,
removed or changed makes a new key. Only a project that passed its checks is
kept; a broken one is checked again each time, so its errors are always shown.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
from pathlib import Path
from typing import Any

from .atomic import write_bytes

PACKAGE = Path(__file__).resolve().parent
FORMAT = 1
"""Bump when what is pickled changes shape."""


def _files(folder: Path) -> list[Path]:
    found = []
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=True):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__" and not d.startswith("."))
        found += [Path(dirpath) / name for name in sorted(filenames)]
    return found


def key(root: Path) -> str:
    """What the checked project depends on, as a hex digest."""
    digest = hashlib.sha256(repr((FORMAT, sys.version, str(root.resolve()))).encode())
    for path in _files(PACKAGE):
        stat = path.stat()
        digest.update(f"{path}\0{stat.st_mtime_ns}\0{stat.st_size}\0".encode())
    for folder in (root / "content", root / "decks", root / "problems"):
        for path in _files(folder) if folder.is_dir() else []:
            # Bytes, not times: a file rewritten within the clock's tick must not look unchanged.
            digest.update(f"{path}\0".encode() + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _folder() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "paperdeck" / "projects"


def _path(root: Path) -> Path:
    return _folder() / (hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:16] + ".pickle")


def load(root: Path) -> Any | None:
    """The value kept for ``root`` if its key still holds, else None."""
    try:
        stored_key, value = pickle.loads(_path(root).read_bytes())
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, ValueError):
        return None
    return value if stored_key == key(root) else None


def store(root: Path, value: Any) -> None:
    """Keep ``value`` for ``root`` under its current key; a cache that cannot be written is skipped."""
    try:
        write_bytes(_path(root), pickle.dumps((key(root), value), protocol=pickle.HIGHEST_PROTOCOL))
    except OSError:
        pass
