"""Grading a printed quiz: the key JSON and the class's responses become marks,
statistics, named mistakes and remedial decks.

The stages, one module each: ``key`` (read the key JSON), ``responses`` (read the
CSV, forgiving and strict), ``scoring`` (marks and named mistakes), ``analysis``
(histogram, difficulty, discrimination, common mistakes, where each is taught),
``remedial`` (a deck per student), ``roster_check`` (rows against the roster the
quiz was printed for). ``grade_quiz`` runs them; the ``graded``
exporter writes the result (scores.csv, mistakes.csv, report.pdf, remedial/).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..content.model import Content
from ..documents.items import Deck
from ..errors import Finding, InputError
from ..files.csv_files import COMMA, Dialect, dialect_of
from .analysis import ItemStats, MistakeCount, Readings, common_mistakes, histogram, item_stats
from .key import QuizKey, read_key
from .names import lookalikes
from .responses import read_responses
from .roster_check import roster_findings
from .scoring import StudentResult, grade


@dataclass(frozen=True)
class Grading:
    """Everything ``paperdeck grade`` writes."""

    key: QuizKey
    results: tuple[StudentResult, ...]
    """One per student, in the order of the responses."""
    items: tuple[ItemStats, ...]
    mistakes: tuple[MistakeCount, ...]
    histogram: tuple[int, ...]
    readings: Readings
    remedial: tuple[tuple[str, str, Deck], ...] = ()
    """(student, file name, deck) per student who lost points, with ``--remedial``."""
    roster: tuple[Finding, ...] = ()
    """Rows that do not match the roster the quiz was printed for (``roster_check``)."""
    review: tuple[str, ...] = ()
    """What scanning could not read (``grade --scans``), one line each, for the report."""
    csv: Dialect = COMMA
    """How scores.csv and mistakes.csv are written: as the responses CSV came, unless chosen."""
    scans: str = ""
    """The folder the scans' file names in ``review`` are relative to ('' when they are as given)."""
    names: tuple[Finding, ...] = ()
    """Names that look like another without being it (``names.lookalikes``): the teacher decides."""


def grade_quiz(
    key_path: Path,
    responses_path: Path,
    content: Content,
    remedial_seed: int | None = None,
    note: Callable[[str], None] = lambda _: None,
    strict: bool = False,
    csv: Dialect | None = None,
) -> Grading:
    """Grade ``responses_path`` against ``key_path``; remedial decks when a seed is given. The
    grades' CSVs are written in ``csv``, else as the responses CSV came (``;`` and a byte-order
    mark from Excel in many locales: what the teacher's spreadsheet opens).

    Rows that do not match the quiz's roster are said through ``note`` and kept in the
    grading; with ``strict`` they are errors."""
    key = read_key(key_path)
    responses = read_responses(responses_path, key, note)
    roster = roster_findings(key, responses, responses_path)
    if roster and strict:
        raise InputError(list(roster))
    for finding in roster:
        note(f"roster: {finding}")
    lookalike = lookalikes(((r.line, r.student) for r in responses), str(responses_path))
    for finding in lookalike:
        note(f"names: {finding}")
    results = grade(key, responses)
    readings = Readings(content)
    decks: tuple[tuple[str, str, Deck], ...] = ()
    if remedial_seed is not None:
        from .remedial import remedial_decks

        decks = remedial_decks(content, key, results, readings, remedial_seed)
    return Grading(
        key,
        results,
        tuple(item_stats(key, results)),
        tuple(common_mistakes(key, results, readings)),
        tuple(histogram(results)),
        readings,
        decks,
        roster,
        csv=csv or dialect_of(responses_path),
        names=lookalike,
    )


__all__ = ["Grading", "grade_quiz"]
