"""The roster against the responses: who answered on whose form, who is missing.

A quiz printed from a roster holds each student's name in its key (and in
``<quiz>-index.csv`` beside it). Grading such a quiz checks every row of the
responses against it and reports, each as a ``file:line: column student: …``
finding: a row on the form printed for another student, a name not on the
roster, and a roster student with no row. They are said on stderr and in the
class report; ``paperdeck grade --strict`` makes them errors (exit 2).
"""

from __future__ import annotations

from pathlib import Path

from ..documents.roster import student_key
from ..errors import Finding
from .key import QuizKey
from .responses import Response


def roster_findings(key: QuizKey, responses: list[Response], path: Path) -> tuple[Finding, ...]:
    """What does not match the roster the key was printed for (nothing without a roster)."""
    printed_for = {label: form.student for label, form in key.forms.items() if form.student}
    if not printed_for:
        return ()
    shown = str(path)
    roster = {student_key(name): (label, name) for label, name in printed_for.items()}
    found: list[Finding] = []
    answered: set[str] = set()
    for response in responses:
        who = student_key(response.student)
        owner = printed_for.get(response.form, "")
        answered.add(who)
        if who not in roster:
            where = f"; form {response.form} was printed for {owner}" if owner else ""
            found.append(
                Finding(
                    shown,
                    response.line,
                    "column student",
                    f"{response.student!r} is not on the roster{where}",
                )
            )
        elif owner and student_key(owner) != who:
            found.append(
                Finding(
                    shown,
                    response.line,
                    "column student",
                    f"{response.student!r} answered on form {response.form}, printed for "
                    f"{owner} (their own form is {roster[who][0]})",
                )
            )
    for who, (label, name) in roster.items():
        if who not in answered:
            found.append(Finding(shown, 0, "", f"{name} (form {label}) is on the roster and has no row"))
    return tuple(found)
