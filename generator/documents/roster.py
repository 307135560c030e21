"""A class roster (CSV): one printed form per student, with the name on every page.

The file has a column of names and, optionally, one of student IDs, read by the
one CSV reader (``csv_files.read_rows``: comma, semicolon or tab, UTF-8 or UTF-16,
bounded). A first row with a header word (``name``, ``student``, ``email``, ``id``,
… in ``HEADER_WORDS``) is a header: the name is the column headed ``name``
(else ``student``, ``full name``, …), the ID the column headed ``id`` (else
``student id``, ``number``); otherwise the first column is the name and the
second, if any, the ID. Blank lines are skipped. Names are kept exactly as
written; a name on two lines (spaces and case aside) is refused, as ``grade``
refuses it.
"""

from __future__ import annotations

from pathlib import Path

from ..content.recipes import MAX_FORMS
from ..errors import Finding, InputError
from ..files.csv_files import read_rows
from .quiz import Student

NAME_HEADERS = ("name", "student", "student name", "full name", "pupil", "learner")
"""Headers of the name column, the first found wins."""
ID_HEADERS = ("id", "student id", "student number", "number", "matriculation")
"""Headers of the ID column, the first found wins."""
HEADER_WORDS = frozenset(
    (*NAME_HEADERS, *ID_HEADERS, "email", "e-mail", "mail", "first name", "last name", "class", "group")
)
"""Any of these in the first row makes it a header."""


def student_key(name: str) -> str:
    """A name as duplicates are found: spaces collapsed, case folded (as grading does)."""
    return " ".join(name.split()).casefold()


def read_roster(path: Path) -> tuple[Student, ...]:
    """The students of a roster file, in its order."""
    shown = str(path)
    rows = [
        (line, row) for line, row in read_rows(path, "roster", MAX_FORMS) if any(cell.strip() for cell in row)
    ]
    if not rows:
        raise InputError([Finding(shown, 0, "", "the roster lists no students")])
    header = [cell.strip().lower() for cell in rows[0][1]]
    name_col, id_col, start = 0, 1, 0
    if HEADER_WORDS.intersection(header):
        start = 1
        name_col = next((header.index(h) for h in NAME_HEADERS if h in header), -1)
        id_col = next((header.index(h) for h in ID_HEADERS if h in header), -1)
        if name_col < 0:
            raise InputError(
                [
                    Finding(
                        shown,
                        rows[0][0],
                        "",
                        "the header names no column of names; head it "
                        f"with one of: {', '.join(NAME_HEADERS)}",
                    )
                ]
            )
    students: list[Student] = []
    found: list[Finding] = []
    seen: dict[str, int] = {}
    for line, row in rows[start:]:
        name = row[name_col].strip() if name_col < len(row) else ""
        if not name:
            found.append(Finding(shown, line, "name", "missing"))
            continue
        key = student_key(name)
        if key in seen:
            found.append(
                Finding(
                    shown,
                    line,
                    "name",
                    f"{name!r} is also on line {seen[key]}; give every "
                    "student a distinct name (grading tells students apart by name)",
                )
            )
            continue
        seen[key] = line
        student_id = row[id_col].strip() if 0 <= id_col < len(row) else ""
        students.append(Student(name, student_id))
    if found:
        raise InputError(found)
    if not students:
        raise InputError([Finding(shown, rows[0][0], "", "the roster has a header and no students")])
    if len(students) > MAX_FORMS:
        raise InputError(
            [Finding(shown, 0, "", f"{len(students)} students; a quiz prints at most {MAX_FORMS} forms")]
        )
    return tuple(students)
