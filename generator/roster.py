"""A class roster (CSV): one printed form per student, with the name on every page.

The file has a column of names and, optionally, one of student IDs. A header row
naming ``name`` (and ``id``) is used when present; otherwise the first column is
the name and the second, if any, the ID. Blank lines are skipped.
"""

from __future__ import annotations

import csv
from pathlib import Path

from .errors import UsageError
from .quiz import Student
from .recipes import MAX_FORMS


def read_roster(path: Path) -> tuple[Student, ...]:
    """The students of a roster file, in its order."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except OSError as error:
        raise UsageError(f"cannot read the roster {path}: {error.strerror}") from None
    rows = [row for row in csv.reader(text.splitlines()) if any(cell.strip() for cell in row)]
    if not rows:
        raise UsageError(f"{path}: the roster lists no students")
    header = [cell.strip().lower() for cell in rows[0]]
    name_col, id_col, start = 0, 1, 0
    if "name" in header:
        name_col, start = header.index("name"), 1
        id_col = header.index("id") if "id" in header else -1
    students = []
    for line, row in enumerate(rows[start:], start + 1):
        name = row[name_col].strip() if name_col < len(row) else ""
        if not name:
            raise UsageError(f"{path}:{line}: name: missing")
        student_id = row[id_col].strip() if 0 <= id_col < len(row) else ""
        students.append(Student(name, student_id))
    if len(students) > MAX_FORMS:
        raise UsageError(f"{path}: {len(students)} students; a quiz prints at most {MAX_FORMS} forms")
    return tuple(students)
