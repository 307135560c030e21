"""The registry of problem types: each type module registers itself on import.

Type modules live in ``problems/types/``, one type each. ``all_types`` and ``get``
import every module there the first time they need to, so no list of types is
kept anywhere else.
"""

from __future__ import annotations

import importlib
import pkgutil

from ..errors import UsageError
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
        raise UsageError(
            f"unknown problem type {type_id!r}; choose from {', '.join(types)}"
        ) from None
