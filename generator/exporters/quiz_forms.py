"""A quiz as files: a PDF per form, a key PDF per form, the key JSON and, for a roster, an index.

For each form ``L`` (A … Z, AA, …): ``RECIPE-form-L.pdf`` (what the student gets:
its label, an opaque form code and, from a roster, the student's name on every
page; never a seed) and ``RECIPE-form-L-key.pdf`` (answers, tolerances, worked
steps, named mistakes, and the seeds) and ``RECIPE-form-L-sheet.pdf`` (the answer
sheet a scanner reads, ``answer_sheets``; its layout goes into the key JSON).
``RECIPE-key.json`` holds every form's key for graders and spreadsheets
(docs/quiz-key.md); ``RECIPE-index.csv`` maps each student of a roster to a form,
its code and seed.

Forms are made, laid out, compiled and written one after another while earlier
ones compile on the thread pool, so memory stays flat however many forms there
are. Everything is written into a folder beside the target and swapped in as a
whole: the folder then holds exactly the forms the key covers, and a failed run
leaves the previous set untouched.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from .. import problems
from ..atomic import file_set
from ..presentation import build_time, format_number, letter
from ..quiz import Form, QuestionItem, Quiz, QuizItem
from . import ExportOptions, answer_sheets
from .print_items import item, key_item, points
from .typst import escape, markdown
from .typst.compile import compile_pdf, parallelism, preamble, submit

KEY_FORMAT = 1
"""Version of the key JSON's layout (docs/quiz-key.md)."""


def _plain(text: str) -> str:
    """A title without math delimiters, for the PDF's metadata."""
    return re.sub(r"\\[()\[\]]", "", text)


def _running(form: Form, key: bool = False) -> str:
    parts = [f"*Form {form.letter}*", escape(f"code {form.code}")]
    if form.student is not None:
        parts.append(escape(form.student.name))
    if key:
        parts.append(escape(f"answer key · seed {form.seed}"))
    return "[" + " · ".join(parts) + "]"


def _calculator_note(quiz: Quiz) -> str:
    if quiz.recipe.calculator:
        return "[A calculator is allowed.]"
    return "[No calculator: each question gives the values it needs.]"


def form_source(quiz: Quiz, form: Form, paper: str = "a4") -> str:
    """The Typst source of one form: nothing on it regenerates its answers."""
    recipe = quiz.recipe
    out = [preamble(paper, _plain(recipe.title), _running(form), markdown(recipe.title))]
    subtitle = escape(f"{quiz.paper_title} · Form {form.letter} · code {form.code}")
    name = "true" if form.student is None else f"[{escape(form.student.name)}]"
    out.append(
        f"#front(title: [{markdown(recipe.title)}], subtitle: [{subtitle}], name: {name},"
        f" points: [{points(form.total_points)}],"
        f" minutes: {'none' if recipe.minutes is None else recipe.minutes},"
        f" calculator: {_calculator_note(quiz)},"
        f" instructions: [{markdown(recipe.instructions)}])\n")
    for section in form.sections:
        if not section.items:
            continue
        note = escape(f"{format_number(section.points)} point{'s' if section.points != 1 else ''} each")
        out.append(f"#section-title([{markdown(section.title)}], [{note}])\n")
        out.extend(item(quiz_item) for quiz_item in section.items)
    return "".join(out)


def form_key_source(quiz: Quiz, form: Form, paper: str = "a4") -> str:
    """The Typst source of one form's answer key."""
    recipe = quiz.recipe
    out = [preamble(paper, _plain(f"{recipe.title}: answer key"), _running(form, key=True),
                    markdown(recipe.title))]
    who = f" · {escape(form.student.name)}" if form.student is not None else ""
    out.append(f"#front(title: [{markdown(recipe.title)} · answer key], subtitle: [*Form {form.letter}*"
               f" · {escape(f'code {form.code} · seed {form.seed}')}{who}], name: false,"
               f" points: [{points(form.total_points)}], minutes: none, calculator: [], instructions: [])\n")
    for section in form.sections:
        if section.items:
            out.append(f"#section-title([{markdown(section.title)}], [])\n")
            out.extend(key_item(quiz_item) for quiz_item in section.items)
    return "".join(out)


def key_source(quiz: Quiz, paper: str = "a4") -> str:
    """The answer key of every form as one document (small quizzes; ``export`` writes one per form)."""
    return "#pagebreak()\n".join(form_key_source(quiz, form, paper) for form in quiz.iter_forms())


# -- the key as JSON -------------------------------------------------------------

def _item_key(quiz_item: QuizItem, section: str) -> dict[str, Any]:
    entry: dict[str, Any] = {"number": quiz_item.number, "section": section, "points": quiz_item.points}
    if isinstance(quiz_item, QuestionItem):
        question = quiz_item.question
        entry.update(id=question.id, kind=question.type)
        if quiz_item.options:
            right = quiz_item.answer_index or 0
            entry["answer"] = letter(right)
            entry["options"] = [{"letter": letter(i), "text": o.text, "correct": o.correct,
                                 **({"mistake": o.mistake} if o.mistake else {})}
                                for i, o in enumerate(quiz_item.options)]
            entry["mistakes"] = [{"mistake": o.mistake, "letter": letter(i)}
                                 for i, o in enumerate(quiz_item.options) if o.mistake]
        elif question.type == "numeric":
            entry["answer"] = question.answer
            entry["tolerance"] = {"abs": question.tolerance or 0.0}
            if question.unit:
                entry["unit"] = question.unit
        else:
            entry["answer"] = str(question.answer)
        return entry
    problem = quiz_item.problem
    primary = problems.get(problem.type).primary
    entry.update(kind="problem", problem_type=problem.type, problem_seed=problem.seed,
                 difficulty=problem.difficulty, primary=primary, answer=problem.answer,
                 tolerance=problem.tolerance.to_json(),
                 mistakes=[{"mistake": d.mistake, "value": d.answer.get(primary)}
                           for d in problem.distractors])
    return entry


def form_key(form: Form, pdf: str, key_pdf: str) -> dict[str, Any]:
    """The key of one form as the key JSON holds it."""
    return {
        "label": form.letter, "seed": form.seed, "code": form.code,
        "student": None if form.student is None else {"name": form.student.name, "id": form.student.id},
        "pdf": pdf, "key_pdf": key_pdf, "total_points": form.total_points,
        "questions": [_item_key(quiz_item, section.title)
                      for section in form.sections for quiz_item in section.items],
    }


# -- writing the set -------------------------------------------------------------

def _bounded(jobs: Iterator[tuple[Path, Callable[[], bytes]]], width: int) -> Iterator[Path]:
    """Run each job on the pool with at most ``width`` waiting; write each result as it comes."""
    pending: list[tuple[Path, Future[bytes]]] = []
    for path, job in jobs:
        pending.append((path, submit(job)))
        while len(pending) >= width:
            done, future = pending.pop(0)
            done.write_bytes(future.result())
            yield done
    for done, future in pending:
        done.write_bytes(future.result())
        yield done


def export(quiz: Quiz, folder: Path, options: ExportOptions) -> list[Path]:
    """Write the forms, their keys, the key JSON (and a roster's index) as one set into ``folder``."""
    stem = quiz.recipe.id or "quiz"
    paper = options.paper
    timestamp = build_time(options.build_time)
    written: list[Path] = []

    def ours(entry: Path) -> bool:
        return entry.name.startswith(f"{stem}-") and entry.is_file()

    with file_set(folder, ours) as staging:
        key_path = staging / f"{stem}-key.json"
        with open(key_path, "w", encoding="utf-8") as key_file:
            head = {"format": KEY_FORMAT, "quiz": stem, "title": quiz.recipe.title,
                    "paper_title": quiz.paper_title, "seed": quiz.seed, "forms": quiz.count,
                    "calculator": quiz.recipe.calculator, "sheets": answer_sheets.layout_head(quiz, paper)}
            key_file.write(json.dumps(head, ensure_ascii=False)[:-1] + ', "form_keys": [\n')
            index_rows: list[list[str]] = []

            def jobs() -> Iterator[tuple[Path, Callable[[], bytes]]]:
                for form in quiz.iter_forms():
                    pdf = f"{stem}-form-{form.letter}.pdf"
                    key_pdf = f"{stem}-form-{form.letter}-key.pdf"
                    sheet_pdf = f"{stem}-form-{form.letter}-sheet.pdf"
                    sheet = answer_sheets.sheet(quiz, form, paper)
                    if form.index:
                        key_file.write(",\n")
                    entry = form_key(form, pdf, key_pdf) | {"sheet_pdf": sheet_pdf, "sheet": sheet.layout}
                    key_file.write(json.dumps(entry, ensure_ascii=False))
                    if form.student is not None:
                        index_rows.append([form.student.name, form.student.id, form.letter, form.code,
                                           str(form.seed), pdf])
                    source = form_source(quiz, form, paper)
                    key = form_key_source(quiz, form, paper)
                    yield staging / pdf, lambda s=source: compile_pdf(s, timestamp)  # type: ignore[misc]
                    yield staging / key_pdf, lambda s=key: compile_pdf(s, timestamp)  # type: ignore[misc]
                    yield staging / sheet_pdf, lambda s=sheet.source: compile_pdf(s, timestamp)  # type: ignore[misc]

            written.extend(_bounded(jobs(), 2 * parallelism() + 2))
            key_file.write("\n]}\n")
        written.append(key_path)
        if quiz.students:
            buffer = io.StringIO()
            writer = csv.writer(buffer, lineterminator="\n")
            writer.writerow(["name", "id", "form", "code", "seed", "pdf"])
            writer.writerows(index_rows)
            index = staging / f"{stem}-index.csv"
            index.write_text(buffer.getvalue(), encoding="utf-8")
            written.append(index)
    return [Path(folder).resolve() / path.name for path in written]
