"""The responses CSV: what each student answered, read forgivingly where a person
would be forgiven and strictly where a guess would grade wrongly (docs/grading.md).

Forgiving: the header's case, a ``Q`` before a question number, the separator of
the file (``,``, ``;`` or a tab, as the header line uses), UTF-8 or UTF-16 with a
byte-order mark (the one CSV reader, ``csv_files.read_rows``, which also bounds
the file: ``MAX_RESPONSES`` rows),
surrounding spaces, letters in either case, ``(c)`` or ``c)``, ``T``/``F`` for true
or false, and numbers as the cards read them (``answers.read``: a decimal comma
``0,67``, Unicode minus and dashes, fractions ``2/3``, ``6.988 × 10^-4``, brackets
around a vector), and columns that are not question numbers (a form tool's
``Timestamp``), which are skipped and named on stderr.

Strict, each a ``file:line: column N: message`` and exit 2, all reported at once: an
unknown form, an answer to a question number the form does not have, an answer
that is not a number for a numeric question, a letter the question does not print,
a vector of the wrong length, points outside a short answer's range, a student
named twice.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .. import answers
from ..errors import Finding, InputError
from ..files.csv_files import read_rows
from ..values import shape_words
from . import names
from .key import CHOICE_KINDS, KeyForm, KeyQuestion, QuizKey

MAX_RESPONSES = 2_000
"""Rows a responses file holds at most (one per student); more is an error, read no further.
Grading costs about 0.4 MB and 20 ms a student (the report's feedback section), so
2,000 students take about 40 s and under 1 GB."""

Answer = str | tuple[float | None, ...] | float | None
"""A letter (choice questions), numbers (numeric questions and problems; None for a
component written as ``_``, left out), points given by hand (short answers), ``NOT_READ``, or None (blank)."""
NOT_READ = "?"
"""An answer not read (a cell with a ``?``, as ``paperdeck scan`` writes an answer, or a part of
one, it could not read): graded as pending, never as "no answer" (a part the student left out
is ``_``)."""


@dataclass(frozen=True)
class Response:
    """One student's row."""

    student: str
    form: str
    """The form's label."""
    line: int
    """Line of the CSV the row ends on."""
    answers: dict[int, Answer]
    """By question number; every question of the form has an entry (None: blank)."""


_LETTER = re.compile(r"\(?([A-Za-z]{1,3})[).]?")
_TRUE_FALSE = {"t": "A", "true": "A", "f": "B", "false": "B"}
_QUESTION_COLUMN = re.compile(r"(?:q(?:uestion)?\s*)?(\d+)\.?", re.I)


def numbers(text: str, count: int) -> tuple[float | None, ...] | None:
    """The numbers in ``text`` as the cards read them (``answers.read``), ``?`` for one left
    out; None if any part is not a number or there is none. ``count`` is how many the
    question wants: it decides whether a comma is a decimal comma."""
    found = answers.read_with_gaps(text, count)
    return tuple(found) if found else None


def parse_answer(question: KeyQuestion, text: str) -> tuple[Answer, str]:
    """The answer ``text`` means for ``question``, or (None, what is wrong)."""
    if NOT_READ in text:  # never part of a number: the answer, or a part of it, was not read
        return NOT_READ, ""
    kind = question.kind
    if kind in CHOICE_KINDS:
        cleaned = text.strip()
        if kind == "true_false" and cleaned.lower() in _TRUE_FALSE:
            return _TRUE_FALSE[cleaned.lower()], ""
        match = _LETTER.fullmatch(cleaned)
        if match and match.group(1).upper() in question.letters:
            return match.group(1).upper(), ""
        choices = f"{question.letters[0]} to {question.letters[-1]}" if question.letters else "none"
        extra = " (or T/F)" if kind == "true_false" else ""
        return (
            None,
            f"{text.strip()!r} is not one of the letters printed for question "
            f"{question.number}: {choices}{extra}",
        )
    if kind == "short_answer":
        found = numbers(text, 1)
        if found is None or len(found) != 1 or found[0] is None:
            return None, (
                f"question {question.number} is a short answer: write the points you gave it "
                f"(0 to {question.points:g}), or leave it empty to leave it ungraded"
            )
        if not 0 <= found[0] <= question.points:
            return None, (
                f"{found[0]:g} points is outside 0 to {question.points:g}, "
                f"the points of question {question.number}"
            )
        return found[0], ""
    found = numbers(text, question.size)
    if found is None:
        return (
            None,
            f"{text.strip()!r} is not a number; question {question.number} wants {shape_words(question.shape)}",
        )
    if len(found) != question.size:
        return None, (
            f"{len(found)} number{'s' if len(found) != 1 else ''} given; question "
            f"{question.number} wants {shape_words(question.shape)} (write _ for a part left out, ? for one not read)"
        )
    return found, ""


_FORM_CODE = re.compile(r"^[A-Z2-7]{4}-[A-Z2-7]{4}$")
"""The shape of the code printed on a form (``quiz.form_code``: eight base-32 characters)."""


def _find_form(key: QuizKey, text: str, student: str) -> tuple[KeyForm | None, str]:
    label = re.sub(r"^form\s*", "", text.strip(), flags=re.I).upper()
    if label in key.forms:
        return key.forms[label], ""
    for form in key.forms.values():  # the code printed beside the label also names the form
        if form.code and form.code.upper() == label:
            return form, ""
    if not label:
        named = [f for f in key.forms.values() if f.student and f.student.casefold() == student.casefold()]
        if len(named) == 1:  # a roster's form, found by the student's name
            return named[0], ""
        return None, "no form given"
    if _FORM_CODE.match(label):  # a printed code this key does not know: the key of another run
        return None, (
            f"form code {text.strip()!r} is not in {key.path}: the key is of another run of "
            "the quiz; give the key written with these forms"
        )
    labels = list(key.forms)
    span = labels[0] if len(labels) == 1 else f"{labels[0]} to {labels[-1]}"
    return None, f"unknown form {text.strip()!r}; the key has forms {span}"


def read_responses(path: Path, key: QuizKey, note: Callable[[str], None] = lambda _: None) -> list[Response]:
    """Every student's answers, checked against the key; all mistakes reported at once."""
    shown = str(path)
    rows = read_rows(path, "responses", MAX_RESPONSES)
    first = next(rows, None)
    if first is None:
        raise InputError(
            [Finding(shown, 0, "", "empty file; the first line names the columns: student, form, 1, 2, …")]
        )
    header = first[1]
    columns: dict[str, int] = {}
    questions: dict[int, int] = {}
    found: list[Finding] = []
    skipped = []
    for i, name in enumerate(header):
        cleaned = name.strip()
        lowered = cleaned.lower()
        number = _QUESTION_COLUMN.fullmatch(cleaned)
        if lowered in ("student", "form"):
            if lowered in columns:
                found.append(Finding(shown, 1, f"column {cleaned}", "named twice"))
            columns[lowered] = i
        elif number:
            n = int(number.group(1))
            if n in questions:
                found.append(Finding(shown, 1, f"column {cleaned}", f"question {n} has two columns"))
            questions[n] = i
        elif cleaned:
            skipped.append(cleaned)
    for needed in ("student", "form"):
        if needed not in columns:
            found.append(
                Finding(
                    shown,
                    1,
                    "",
                    f"no {needed!r} column; the first line names the columns: student, form, 1, 2, …",
                )
            )
    if found:
        raise InputError(found)
    if skipped:
        note(f"{shown}: skipped columns that are not question numbers: {', '.join(skipped)}")
    responses: list[Response] = []
    seen: dict[str, int] = {}
    for line, row in rows:
        if not any(cell.strip() for cell in row):
            continue
        row += [""] * (len(header) - len(row))  # a spreadsheet drops empty cells at the end
        cell = row.__getitem__
        student = names.clean(cell(columns["student"]))  # invisible characters out, one Unicode form
        if not student:
            found.append(Finding(shown, line, "column student", "no student name"))
            continue
        if names.identity(student) in seen:
            found.append(
                Finding(
                    shown,
                    line,
                    "column student",
                    f"{student!r} already has answers on line {seen[names.identity(student)]}; "
                    "give every student one row and a distinct name",
                )
            )
            continue
        seen[names.identity(student)] = line
        form, problem = _find_form(key, cell(columns["form"]), student)
        if form is None:
            found.append(Finding(shown, line, "column form", problem))
            continue
        answers: dict[int, Answer] = {n: None for n in form.questions}
        for n, i in sorted(questions.items()):
            text = cell(i)
            if not text.strip():
                continue
            question = form.questions.get(n)
            if question is None:
                found.append(
                    Finding(
                        shown,
                        line,
                        f"column {header[i].strip()}",
                        f"form {form.label} has no question {n} "
                        f"(its questions are 1 to {max(form.questions, default=0)})",
                    )
                )
                continue
            answer, problem = parse_answer(question, text)
            if problem:
                found.append(Finding(shown, line, f"column {header[i].strip()}", problem))
            answers[n] = answer
        responses.append(Response(student, form.label, line, answers))
    if found:
        raise InputError(found)
    return responses
