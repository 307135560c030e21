"""Advice about a project's own problem types that ``paperdeck check`` prints.

A type is valid without named mistakes, but then quiz keys, the card's "common
mistakes", grading's mistake detection and remedial decks silently have none:
``check`` draws a few problems of each difficulty and warns when none names one.
"""

from __future__ import annotations

from ..errors import Finding
from .generation import generate
from .model import DIFFICULTIES
from .registry import project_file

DRAWS = 5
"""Problems drawn per difficulty; named mistakes, when a type has them, show in the first."""


def type_warnings(type_ids: list[str]) -> list[Finding]:
    """A warning for each of these types whose problems name no mistake."""
    found = []
    for type_id in type_ids:
        try:
            named = any(problem.distractors for difficulty in DIFFICULTIES
                        for problem in generate(type_id, DRAWS, 0, difficulty))
        except Exception:  # noqa: BLE001 - the author's code; using the type reports its failure
            continue
        if not named:
            found.append(Finding(project_file(type_id), 0, type_id,
                                 "warning: solve returns no named mistakes (Distractor), so quiz keys,"
                                 " the card's common mistakes, grading's mistake detection and remedial"
                                 " decks have none for this type (docs/authoring.md: Named mistakes)"))
    return found
