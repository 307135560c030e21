"""Check where a command will write before it does any work.

One rule for every command: a folder the user names that does not exist yet is
created, and the command says so, when only its last level is missing and it lies
inside the current folder; a deeper missing folder, or one outside the current
folder, is most likely a typo (``-o /nonexistent/x.apkg``), so the user creates it.
Folders paperdeck chooses itself (``out/`` under the project) are created as needed.
A path whose parent is a file, an output folder that is a file, a folder that does
not take files (``/proc``) or a suffix the command cannot write is a one-line error
(exit 2).

A recipe's output folder (a site, a quiz) is replaced by each build; it may not be the project
folder or hold it, nor be ``content/`` or ``decks/``, nor an existing folder that no paperdeck
build made (``build --out .`` with a site recipe named ``docs``): refused with one line.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path

from ..errors import UsageError


def output_file(
    path: Path, suffixes: Mapping[str, str], say: Callable[[str], None], named: bool = True
) -> Path:
    """``path`` checked as a file to write; ``suffixes`` maps each valid suffix to what it writes.

    ``named``: the user gave the path (not paperdeck's default).
    """
    suffix = path.suffix.lower()
    if path.is_dir():
        raise UsageError(f"{path} is a folder; name the file to write")
    if suffix not in suffixes:
        written = ", ".join(
            f"{what} {'is written ' if i == 0 else ''}as {s}" for i, (s, what) in enumerate(suffixes.items())
        )
        raise UsageError(f"cannot write {path}: {written}")
    _parent_folder(path.parent, say, named)
    return path


def output_folder(path: Path, say: Callable[[str], None], named: bool = True, create: bool = True) -> Path:
    """``path`` checked as a folder to write into, created if missing (see the module docstring),
    unless not ``create``: then the command's writer makes it, so a command that fails leaves no
    folder behind."""
    if path.exists() and not path.is_dir():
        raise UsageError(f"{path} is a file, not a folder to write into")
    _parent_folder(path, say, named, create)
    return path


def _parent_folder(folder: Path, say: Callable[[str], None], named: bool, create: bool = True) -> None:
    missing = []
    for parent in (folder, *folder.parents):
        if parent.exists():
            if not parent.is_dir():
                raise UsageError(f"cannot write into {folder}: {parent} is a file")
            break
        missing.append(parent)
    if missing and named:
        if len(missing) > 1:
            raise UsageError(
                f"cannot write into {folder}: {missing[-1]} does not exist; create the"
                f" folder first if you meant it (mkdir -p {folder})"
            )
        if not folder.resolve().is_relative_to(Path.cwd().resolve()):
            raise UsageError(
                f"cannot write into {folder}: it does not exist and is outside the current"
                f" folder; create it first if you meant it (mkdir {folder})"
            )
    if create and not folder.exists():
        folder.mkdir(parents=True)
        say(f"created folder {folder}")
    _writable(next(p for p in (folder, *folder.parents) if p.exists()))


def _writable(folder: Path) -> None:
    """A folder that takes new files, tried with a temporary one (permissions alone do not
    tell: root may write anywhere, but not into ``/proc``)."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        raise UsageError(
            f"cannot write into {folder}: it takes no new files ({error.strerror or error})"
        ) from None


def refuse_project_folder(
    folder: Path, project: Path, default_out: Path, made: Callable[[Path], bool]
) -> None:
    """``folder``, where a build writes a recipe's folder, refused (one line) if it is ``project``
    or holds it, lies in its ``content/`` or ``decks/``, or is an existing folder with something in
    it that ``made`` (whether a build made it) does not recognise, outside ``default_out``, where
    builds made before paperdeck recorded what it writes live."""
    here, root = folder.resolve(), project.resolve()

    def refuse(why: str) -> None:
        raise UsageError(
            f"cannot write into {folder}: {why}; give --out another folder, or name the recipe differently"
        )

    if here == root or root.is_relative_to(here):
        refuse("it holds the project")
    for name in ("content", "decks"):
        if here.is_relative_to(root / name):
            refuse(f"it is the project's {name}/")
    if (
        here.is_dir()
        and not here.is_relative_to(default_out.resolve())
        and not made(here)
        and next(here.iterdir(), None) is not None
    ):
        refuse("it is a folder of files that no paperdeck build wrote, which a build would replace")
