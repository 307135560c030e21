"""The registry of problem types: each type module registers itself on import.

Type modules live in ``problems/types/``, one type each. ``all_types`` and ``get``
import every module there the first time they need to, so no list of types is
kept anywhere else.

A project can carry its own types in a ``problems/`` folder beside ``content/``:
one module per type, registering itself the same way (``from generator.problems
import register, ProblemType``). ``load_project_types`` imports them by file path
when the project opens; the types of the project opened before are removed, so
one process can open several projects (as the tests do).
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import re
import sys
import traceback
from pathlib import Path

from ..errors import ContentError, Finding, UsageError
from ..suggest import did_you_mean
from . import types
from .model import ProblemType

_REGISTRY: dict[str, ProblemType] = {}


def register(problem_type: ProblemType) -> ProblemType:
    """Add a problem type to the registry; each id once."""
    if problem_type.id in _REGISTRY:
        raise ValueError(f"problem type {problem_type.id!r} registered twice")
    _REGISTRY[problem_type.id] = problem_type
    return problem_type


_loaded = False


def _load_all() -> None:
    # A flag, not "is the registry empty": importing one type module directly
    # registers that type alone.
    global _loaded
    for module in pkgutil.iter_modules(types.__path__):
        importlib.import_module(f"{types.__name__}.{module.name}")
    _loaded = True


def all_types() -> dict[str, ProblemType]:
    """Every registered problem type, by id, in a stable order."""
    if not _loaded:
        _load_all()
    return dict(sorted(_REGISTRY.items()))


def get(type_id: str) -> ProblemType:
    """The problem type with this id, or a UsageError listing the valid ids."""
    if type_id in _REGISTRY:
        return _REGISTRY[type_id]
    types = all_types()
    try:
        return types[type_id]
    except KeyError:
        raise UsageError(unknown_type(type_id)) from None


def get_each(type_ids: list[str] | tuple[str, ...]) -> list[ProblemType]:
    """The problem types with these ids; a UsageError naming every unknown one, a line each."""
    types = all_types()
    unknown = [type_id for type_id in type_ids if type_id not in types]
    if unknown:
        raise UsageError("\n".join(map(unknown_type, unknown)))
    return [types[type_id] for type_id in type_ids]


def unknown_type(type_id: str) -> str:
    """The message for a problem type id that is not registered, with the close one if any."""
    types = all_types()
    return f"unknown problem type {type_id!r}{did_you_mean(type_id, types)}; choose from {', '.join(types)}"


SOURCE_LABEL = re.compile(r"^S(\d+|[A-Z]|U\d+)(\.\d+)*(\.[ETF]\d+)?$")
"""A label in a paper (``S3.2.1``, ``S3.E1``, ``S4.T1``, appendices ``SA`` to ``SZ`` and ``SB.2``,
unnumbered sections ``SU1``, ``SU2``; ``generator.importing.labels`` and the source index
name them the same way): checked here for project problem types and, through
``content.loader``, for content and recipes."""
_project: tuple[Path | None, list[str]] = (None, [])
"""The ``problems/`` folder loaded last and the ids of the types it registered."""
_FILES: dict[str, tuple[str, Path]] = {}
"""The file each project type of that folder was registered by: as shown (``problems/<name>.py``)
and its path."""


def project_file(type_id: str) -> str:
    """The file that registered a project's own type (``problems/residual_block.py``), or ''."""
    return _FILES[type_id][0] if type_id in _FILES else ""


def project_path(type_id: str) -> Path | None:
    """The path of the file that registered a project's own type, or None."""
    return _FILES[type_id][1] if type_id in _FILES else None


def load_project_types(folder: Path) -> list[str]:
    """Import every module in a project's ``problems/`` folder; returns the ids they register.

    A module that fails to import, or registers an id that is already taken, is a
    ContentError naming the file (``problems/<name>.py``) and the line where it failed.
    """
    global _project
    folder = folder.resolve()
    loaded_from, ids = _project
    if loaded_from == folder:
        return ids
    for type_id in ids:
        _REGISTRY.pop(type_id, None)
        _FILES.pop(type_id, None)
    _project = (None, [])
    if not _loaded:
        _load_all()
    found: list[Finding] = []
    before = set(_REGISTRY)
    for path in sorted(folder.glob("*.py")) if folder.is_dir() else []:
        if path.name.startswith("_"):
            continue
        shown = f"problems/{path.name}"
        registered = set(_REGISTRY)
        name = f"paperdeck_project_problems.{abs(hash(str(folder)))}.{path.stem}"
        try:
            spec = importlib.util.spec_from_file_location(name, path)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
        except Exception as error:  # the author's code: any failure is theirs to fix
            sys.modules.pop(name, None)
            line = next(
                (
                    frame.lineno or 0
                    for frame in reversed(traceback.extract_tb(error.__traceback__))
                    if Path(frame.filename) == path
                ),
                0,
            )
            if isinstance(error, SyntaxError) and error.filename == str(path):
                line = error.lineno or 0
            message = str(error).replace(
                " registered twice", " is taken (built in or in another module); choose another id"
            )
            found.append(
                Finding(
                    shown,
                    line,
                    "",
                    f"cannot load this problem type module: {type(error).__name__}: {message}",
                )
            )
            continue
        for type_id in sorted(set(_REGISTRY) - registered):
            _FILES[type_id] = (shown, path)
            source = _REGISTRY[type_id].source
            if not SOURCE_LABEL.match(source):  # it becomes a tag: no spaces, one label
                found.append(
                    Finding(
                        shown,
                        0,
                        "source",
                        f"{type_id}: expected a label like S3.2.1 or S3.E1, got {source!r}",
                    )
                )
    new = sorted(set(_REGISTRY) - before)
    _project = (None if found else folder, new)  # after a failure, the next open tries again
    if found:
        raise ContentError(found)
    return new
