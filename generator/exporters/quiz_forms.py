"""A quiz as files: a PDF per form, a key PDF per form, the key JSON and, for a roster, an index.

For each form ``L`` (A … Z, AA, …): ``RECIPE-form-L.pdf`` (what the student gets:
its label, an opaque form code and, from a roster, the student's name on every
page; never a seed) and ``RECIPE-form-L-key.pdf`` (answers, tolerances, worked
steps, named mistakes, and the seeds). ``RECIPE-key.json`` holds every form's
key for graders and spreadsheets (docs/quiz-key.md); ``RECIPE-index.csv`` maps
each student of a roster to a form, its code and seed.

Forms are made, laid out, compiled and written one after another while earlier
ones compile on the thread pool, so memory stays flat however many forms there
are. Everything is written into a folder beside the target and swapped in as a
whole: the folder then holds exactly the forms the key covers, and a failed run
leaves the previous set untouched.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from .. import problems
from ..atomic import PUBLIC, file_set, open_private, write_private
from ..csv_files import csv_bytes
from ..issued import existing_key, refuse_unasked, replaced_name
from ..presentation import build_time, format_number, letter
from ..quiz import Form, QuestionItem, Quiz, QuizItem
from . import ExportOptions
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

def set_file(stem: str) -> Callable[[Path], bool]:
    """Whether a path (relative to the quiz's folder) is a file of the quiz's set: a form, its
    key, its answer sheet, the print file, the key JSON, the roster's index. Anything else
    there (a user's notes, ``graded/``, a kept ``<quiz>-key.replaced-….json``) is left alone."""
    pattern = re.compile(rf"{re.escape(stem)}-(?:key\.json|index\.csv|print\.pdf"
                         rf"|form-[A-Z]+(?:-key|-sheet)?\.pdf)", re.S)
    return lambda path: len(path.parts) == 1 and pattern.fullmatch(path.name) is not None


def _write(path: Path, data: bytes) -> None:
    if path.name.endswith("-key.pdf"):
        write_private(path, data)  # a form's key prints its seed
    else:
        path.write_bytes(data)
        path.chmod(PUBLIC)


def _bounded(jobs: Iterator[tuple[Path, Callable[[], bytes]]], width: int) -> Iterator[Path]:
    """Run each job on the pool with at most ``width`` waiting; write each result as it comes."""
    pending: list[tuple[Path, Future[bytes]]] = []
    for path, job in jobs:
        pending.append((path, submit(job)))
        while len(pending) >= width:
            done, future = pending.pop(0)
            _write(done, future.result())
            yield done
    for done, future in pending:
        _write(done, future.result())
        yield done


def export(quiz: Quiz, folder: Path, options: ExportOptions) -> list[Path]:
    """Write the forms, their keys, the key JSON (and a roster's index) as one set into ``folder``.

    An issued quiz there (``generator/issued.py``) is replaced only with ``options.replace``;
    a replaced key that differs from the new one is kept beside it, dated, and listed."""
    stem = quiz.recipe.id or "quiz"
    paper = options.paper
    timestamp = build_time(options.build_time)
    written: list[Path] = []
    refuse_unasked(existing_key(folder, stem), options.replace)  # before the work, and under the swap's lock

    def keep_the_replaced_key(staging: Path) -> None:
        found = existing_key(folder, stem)
        refuse_unasked(found, options.replace)
        if found is not None and (staging / f"{stem}-key.json").read_bytes() != found.data:
            kept = staging / replaced_name(found)
            write_private(kept, found.data)
            written.append(kept)

    with file_set(folder, set_file(stem), keep_the_replaced_key) as staging:
        key_path = staging / f"{stem}-key.json"
        with open_private(key_path, "w", encoding="utf-8") as key_file:
            head = {"format": KEY_FORMAT, "quiz": stem, "title": quiz.recipe.title,
                    "paper_title": quiz.paper_title, "seed": quiz.seed, "forms": quiz.count,
                    "calculator": quiz.recipe.calculator, "paper": paper, "made_by": options.made_by}
            key_file.write(json.dumps(head, ensure_ascii=False)[:-1] + ', "form_keys": [\n')
            index_rows: list[list[str]] = []

            def jobs() -> Iterator[tuple[Path, Callable[[], bytes]]]:
                for form in quiz.iter_forms():
                    pdf = f"{stem}-form-{form.letter}.pdf"
                    key_pdf = f"{stem}-form-{form.letter}-key.pdf"
                    if form.index:
                        key_file.write(",\n")
                    key_file.write(json.dumps(form_key(form, pdf, key_pdf), ensure_ascii=False))
                    if form.student is not None:
                        index_rows.append([form.student.name, form.student.id, form.letter, form.code,
                                           str(form.seed), pdf])
                    source = form_source(quiz, form, paper)
                    key = form_key_source(quiz, form, paper)
                    yield staging / pdf, lambda s=source: compile_pdf(s, timestamp)  # type: ignore[misc]
                    yield staging / key_pdf, lambda s=key: compile_pdf(s, timestamp)  # type: ignore[misc]

            written.extend(_bounded(jobs(), 2 * parallelism() + 2))
            key_file.write("\n]}\n")
        written.append(key_path)
        if quiz.students:
            index = staging / f"{stem}-index.csv"
            write_private(index, csv_bytes([["name", "id", "form", "code", "seed", "pdf"], *index_rows]))
            written.append(index)
    return [Path(folder).resolve() / path.name for path in written]
