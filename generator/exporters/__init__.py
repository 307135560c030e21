"""Exporters: study items to files. One module per format, looked up by suffix.

Each exporter module has ``export(deck, path, options)`` writing one file
atomically; ``get`` finds it by the output's suffix and names the valid ones
in its error.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

from ..errors import UsageError

_BY_SUFFIX = {
    ".apkg": "generator.exporters.anki",
    ".pdf": "generator.exporters.pdf",
}


def get(path: Path) -> ModuleType:
    """The exporter module for the suffix of ``path``."""
    suffix = Path(path).suffix.lower()
    if suffix not in _BY_SUFFIX:
        raise UsageError(f"cannot write {suffix or 'files without a suffix'} ({path}); "
                         f"use one of {', '.join(_BY_SUFFIX)}")
    return importlib.import_module(_BY_SUFFIX[suffix])
