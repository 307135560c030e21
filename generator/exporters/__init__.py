"""Exporters: a built document to files. One module per format, one contract, typed.

Every exporter module keeps the ``Exporter`` protocol, ``export(document, target,
options) -> list[Path]``, generic in the document it writes: ``anki`` is an
``Exporter[Deck]``, ``guide`` an ``Exporter[Guide]``, and so on. It writes ``document`` to
``target`` (a file, or a folder for a quiz's forms) atomically and returns the files written;
``options`` is one ``ExportOptions`` for all of them.

Each format is registered once, below, by a function that imports its module and returns it
as the exporter of its document type (``@exporter("anki")`` over ``to_anki() -> Exporter[Deck]``):
mypy checks the module against that type, so a module whose ``export`` takes another document
fails ``mypy --strict``, and so does a command or recipe kind handing a ``Format[Deck]`` a
``Guide``. The module is imported only when a document is exported (``build --help`` imports
no exporter). ``get`` finds a format by name and names the valid ones in its error.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from ..errors import UsageError

if TYPE_CHECKING:  # the document types, for the annotations of the registrations below
    from ..documents.items import Deck, Guide, Site
    from ..documents.lms import LmsQuiz
    from ..documents.quiz import Quiz
    from ..grading import Grading

PAPERS = ("a4", "letter")

DocumentT = TypeVar("DocumentT")
_Takes = TypeVar("_Takes", contravariant=True)


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


class Exporter(Protocol[_Takes]):
    """What every exporter module provides (a module is checked as an object with these):
    ``Exporter[Deck]`` writes a ``Deck``."""

    def export(self, document: _Takes, target: Path, options: ExportOptions, /) -> list[Path]:
        """Write ``document`` to ``target`` atomically; return the files written."""
        ...


@dataclass(frozen=True)
class Format(Generic[DocumentT]):
    """A registered format: its name and its exporter, imported when a document is exported."""

    name: str
    """What ``get`` and the error listing the formats call it."""
    load: Callable[[], Exporter[DocumentT]]
    """The exporter module, imported on call."""

    def export(self, document: DocumentT, target: Path, options: ExportOptions, /) -> list[Path]:
        """Write ``document`` with this format's exporter; return the files written."""
        return self.load().export(document, target, options)


FORMATS: dict[str, Format[Any]] = {}
"""Every format by name, in the order registered below."""


def exporter(name: str) -> Callable[[Callable[[], Exporter[DocumentT]]], Format[DocumentT]]:
    """Register the function below it, which imports a format's module, as the format ``name``."""

    def register(load: Callable[[], Exporter[DocumentT]]) -> Format[DocumentT]:
        FORMATS[name] = registered = Format(name, load)
        return registered

    return register


def get(name: str) -> Format[Any]:
    """The format called ``name``."""
    if name not in FORMATS:
        raise UsageError(f"no exporter {name!r}; choose from {', '.join(FORMATS)}")
    return FORMATS[name]


@exporter("anki")
def to_anki() -> Exporter[Deck]:
    """A Deck to an Anki package (.apkg)."""
    from . import anki

    return anki


@exporter("practice-sheet")
def to_practice_sheet() -> Exporter[Deck]:
    """A Deck's problems to a printable PDF sheet."""
    from . import practice_sheet

    return practice_sheet


@exporter("guide")
def to_guide() -> Exporter[Guide]:
    """A Guide to a PDF."""
    from . import guide

    return guide


@exporter("quiz")
def to_quiz() -> Exporter[Quiz]:
    """A Quiz to a folder of PDF forms, the answer-key booklet and the key JSON."""
    from . import quiz_forms

    return quiz_forms


@exporter("graded")
def to_graded() -> Exporter[Grading]:
    """A Grading to a folder of scores, mistakes, a class report and remedial decks."""
    from . import graded

    return graded


@exporter("site")
def to_site() -> Exporter[Site]:
    """A Site to a folder of web pages."""
    from . import site

    return site


@exporter("qti")
def to_qti() -> Exporter[LmsQuiz]:
    """An LmsQuiz to a QTI 2.1 package."""
    from . import qti

    return qti


@exporter("moodle")
def to_moodle() -> Exporter[LmsQuiz]:
    """An LmsQuiz to Moodle XML."""
    from . import moodle

    return moodle
