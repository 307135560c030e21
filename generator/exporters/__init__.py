"""Exporters: a built document to files. One module per format, one contract.

Every exporter module keeps the ``Exporter`` protocol, ``export(document, target,
options) -> list[Path]``: it writes ``document`` (what it exports: a ``Deck``, a
``Guide``, a ``Quiz``, a ``Grading`` or a ``Site``) to ``target`` (a file, or a folder for a
quiz's forms) atomically and returns the files written. ``options`` is one
``ExportOptions`` for all of them. ``get`` finds an exporter by name and names the
valid ones in its error; mypy checks every module of ``FORMATS`` against the protocol.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

from ..errors import UsageError

FORMATS = {
    "anki": "generator.exporters.anki",
    "practice-sheet": "generator.exporters.practice_sheet",
    "guide": "generator.exporters.guide",
    "quiz": "generator.exporters.quiz_forms",
    "graded": "generator.exporters.graded",
    "site": "generator.exporters.site",
    "qti": "generator.exporters.qti",
    "moodle": "generator.exporters.moodle",
}
"""Each exporter's name and module: a Deck to .apkg, a Deck's problems to a PDF
sheet, a Guide to a PDF, a Quiz to a folder of PDF forms and its key, a Grading
to a folder of scores, mistakes, a class report and remedial decks, a Site to a
folder of web pages, an LmsQuiz to a QTI 2.1 package or to Moodle XML."""

PAPERS = ("a4", "letter")


@dataclass(frozen=True)
class ExportOptions:
    """Choices every exporter takes; each has a sensible default."""

    paper: str = "a4"
    """Paper size of PDFs: a4 or letter."""
    figures: Path | None = None
    """Where figures are cached between builds; default ``visuals.default_cache_dir()``."""
    build_time: int | None = None
    """Seconds since the epoch stamped on what is written; default ``presentation.build_time()``."""
    made_by: str = "build"
    """The command a quiz is made by, stored in its key (``files/issued.py``): ``quiz`` or ``build``."""
    replace: bool = False
    """Replace an issued quiz (``paperdeck quiz --replace``); its key is kept beside, dated."""
    worked_keys: bool = False
    """A quiz also gets each form's worked key PDF (else the answer-key booklet only)."""
    feedback: bool = False
    """A grading also gets every student's feedback in one PDF for printing (``feedback.pdf``)."""

    def __post_init__(self) -> None:
        if self.paper not in PAPERS:
            raise UsageError(f"unknown paper size {self.paper!r}; choose from {', '.join(PAPERS)}")


class Exporter(Protocol):
    """What every exporter module provides (a module is checked as an object with these)."""

    def export(self, document: Any, target: Path, options: ExportOptions, /) -> list[Path]:
        """Write ``document`` to ``target`` atomically; return the files written."""
        ...


def get(name: str) -> Exporter:
    """The exporter module called ``name``."""
    if name not in FORMATS:
        raise UsageError(f"no exporter {name!r}; choose from {', '.join(FORMATS)}")
    return cast(Exporter, importlib.import_module(FORMATS[name]))


if TYPE_CHECKING:  # mypy holds each module of FORMATS to the protocol; nothing is imported at run time
    from . import anki, graded, guide, moodle, practice_sheet, qti, quiz_forms, site

    _CHECKED: dict[str, Exporter] = {
        "anki": anki,
        "practice-sheet": practice_sheet,
        "guide": guide,
        "quiz": quiz_forms,
        "graded": graded,
        "site": site,
        "qti": qti,
        "moodle": moodle,
    }
