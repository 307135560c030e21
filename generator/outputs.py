"""Check where a command will write before it does any work.

One rule for every command: a folder that does not exist yet is created, and
the command says so; a path whose parent is a file, an output folder that is a
file, or a suffix the command cannot write is a one-line error (exit 2).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from .errors import UsageError


def output_file(path: Path, suffixes: Mapping[str, str], say: Callable[[str], None]) -> Path:
    """``path`` checked as a file to write; ``suffixes`` maps each valid suffix to what it writes."""
    suffix = path.suffix.lower()
    if path.is_dir():
        raise UsageError(f"{path} is a folder; name the file to write")
    if suffix not in suffixes:
        written = ", ".join(f"{what} {'is written ' if i == 0 else ''}as {s}"
                            for i, (s, what) in enumerate(suffixes.items()))
        raise UsageError(f"cannot write {path}: {written}")
    _parent_folder(path.parent, say)
    return path


def output_folder(path: Path, say: Callable[[str], None], create: bool = True) -> Path:
    """``path`` checked as a folder to write into, created if missing (unless not ``create``:
    then the command's writer makes it, so a command that fails leaves no folder behind)."""
    if path.exists() and not path.is_dir():
        raise UsageError(f"{path} is a file, not a folder to write into")
    _parent_folder(path, say, create)
    return path


def _parent_folder(folder: Path, say: Callable[[str], None], create: bool = True) -> None:
    for parent in (folder, *folder.parents):
        if parent.exists():
            if not parent.is_dir():
                raise UsageError(f"cannot write into {folder}: {parent} is a file")
            break
    if create and not folder.exists():
        folder.mkdir(parents=True)
        say(f"created folder {folder}")
