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

Unpickling runs code, and anyone who can write the cache folder (a shared or
misconfigured ``$XDG_CACHE_HOME``) could plant a file there. So every file is
signed (HMAC-SHA256) with a key only this user can read (``cache.key``, 32 random
bytes, mode 0600, owned by the user, never followed through a symbolic link), and
a file whose signature does not hold is never unpickled. Without a usable key the
cache is not used at all.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import pickle
import secrets
import stat
import sys
import tempfile
from pathlib import Path
from typing import Any

from ..files.atomic import write_bytes

PACKAGE = Path(__file__).resolve().parent.parent
FORMAT = 2
"""Bump when what is pickled changes shape."""
MAGIC = b"paperdeck project cache 2\n"
"""The start of every cache file; the HMAC of the pickle follows, then the pickle."""
_KEY_BYTES = 32
MAX_BYTES = 64 * 1024 * 1024
"""Largest cache file read (the Attention paper's checked project pickles to about 200 kB)."""


def _files(folder: Path) -> list[Path]:
    """The files under ``folder``, symbolic links followed; a folder reached again through a
    link (a link loop) is walked once."""
    found = []
    seen: set[tuple[int, int]] = set()
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=True):
        info = os.stat(dirpath)
        seen.add((info.st_dev, info.st_ino))
        kept = []
        for name in sorted(dirnames):
            if name == "__pycache__" or name.startswith("."):
                continue
            child = os.path.join(dirpath, name)
            if os.path.islink(child):  # only a link can lead back to a folder being walked
                target = os.stat(child)
                if (target.st_dev, target.st_ino) in seen:
                    continue
            kept.append(name)
        dirnames[:] = kept
        found += [Path(dirpath) / name for name in sorted(filenames)]
    return found


def key(root: Path) -> str:
    """What the checked project depends on, as a hex digest (a device or pipe is skipped: it
    would be read without end)."""
    digest = hashlib.sha256(repr((FORMAT, sys.version, str(root.resolve()))).encode())
    for path in _files(PACKAGE):
        info = path.stat()
        digest.update(f"{path}\0{info.st_mtime_ns}\0{info.st_size}\0".encode())
    for folder in (root / "content", root / "decks", root / "problems"):
        for path in _files(folder) if folder.is_dir() else []:
            try:
                regular = stat.S_ISREG(path.stat().st_mode)
            except OSError:  # a dangling link: check reports it
                regular = False
            # Bytes, not times: a file rewritten within the clock's tick must not look unchanged.
            digest.update(f"{path}\0".encode() + (path.read_bytes() if regular else b"\1") + b"\0")
    return digest.hexdigest()


def _folder() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "paperdeck" / "projects"


def _path(root: Path) -> Path:
    return _folder() / (hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:16] + ".pickle")


def _key_path() -> Path:
    return _folder().parent / "cache.key"


def _read_regular(path: Path, limit: int, private: bool = False) -> bytes | None:
    """The bytes of ``path`` if it is a regular file (not a link, pipe or device) of at most
    ``limit`` bytes; with ``private``, also owned by this user and readable by no one else."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        if private and (info.st_uid != os.getuid() or info.st_mode & 0o077):
            return None
        try:
            return file.read(limit + 1)
        except OSError:
            return None


def _read_key() -> bytes | None:
    """The signing key, if it is a regular file of this user that no one else can read or write."""
    secret = _read_regular(_key_path(), _KEY_BYTES, private=True)
    return secret if secret is not None and len(secret) == _KEY_BYTES else None


def _new_key() -> bytes | None:
    """The signing key, made (0600, linked into place whole) if there is none."""
    path = _key_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=".cache.key.", dir=path.parent)  # mode 0600
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(secrets.token_bytes(_KEY_BYTES))
        try:
            os.link(name, path)  # never replaces a key another run made first
        except FileExistsError:
            pass
    finally:
        os.unlink(name)
    return _read_key()


def _signature(secret: bytes, payload: bytes) -> bytes:
    return hmac.new(secret, payload, hashlib.sha256).digest()


def load(root: Path) -> Any | None:
    """The value kept for ``root`` if its signature and key still hold, else None."""
    secret = _read_key()
    if secret is None:
        return None
    data = _read_regular(_path(root), MAX_BYTES)
    if data is None:
        return None
    start = len(MAGIC) + hashlib.sha256().digest_size
    if not data.startswith(MAGIC) or not hmac.compare_digest(data[len(MAGIC):start],
                                                             _signature(secret, data[start:])):
        return None  # not written by this user's paperdeck: never unpickled
    try:
        stored_key, value = pickle.loads(data[start:])
    except (pickle.UnpicklingError, EOFError, AttributeError, ImportError, ValueError):
        return None
    return value if stored_key == key(root) else None


def store(root: Path, value: Any) -> None:
    """Keep ``value`` for ``root`` under its current key; a cache that cannot be written is skipped."""
    try:
        secret = _read_key() or _new_key()
        if secret is None:
            return
        payload = pickle.dumps((key(root), value), protocol=pickle.HIGHEST_PROTOCOL)
        write_bytes(_path(root), MAGIC + _signature(secret, payload) + payload)
    except OSError:
        pass
