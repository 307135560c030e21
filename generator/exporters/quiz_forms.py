"""A quiz as files: a PDF per form, the answer-key booklet, the print file, the key JSON and,
for a roster, an index; worked keys per form on request.

For each form ``L`` (A … Z, AA, …): ``RECIPE-form-L.pdf`` (what the student gets:
its label, an opaque form code and, from a roster, the student's name on every
page; never a seed) and, with worked keys, ``RECIPE-form-L-key.pdf`` (answers,
tolerances, worked steps, named mistakes, and the seeds). ``RECIPE-key.pdf`` is the
booklet: every form's answers, several forms to a page, to mark by hand.
``RECIPE-form-L-sheet.pdf`` is the answer sheet a scanner reads (``answer_sheets``; its
layout goes into the key JSON). ``RECIPE-print.pdf`` holds every form and its answer
sheet, each from an odd page. ``RECIPE-key.json`` holds every form's key for
graders and spreadsheets (docs/quiz-key.md); ``RECIPE-index.csv`` maps each student
of a roster to a form, its code and seed.

Forms are made, laid out, compiled and written one after another while earlier
ones compile on the thread pool, the booklet in parts as its forms are made, and each
written form and sheet goes into the print file at once. Everything
is written into a folder beside the target and swapped in as a whole: the folder then
holds exactly the forms the key covers, and a failed run leaves the previous set
untouched.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import orjson
import pikepdf

from .. import problems
from ..content.text import plain
from ..documents.items import item_errors
from ..documents.quiz import Form, QuestionItem, Quiz, QuizItem
from ..files.atomic import PUBLIC, file_set, write_private
from ..files.csv_files import csv_bytes
from ..files.issued import existing_key, kept_when_replaced, refuse_unasked, replaced_name
from ..presentation import answer_formatter, build_time, format_number, letter
from ..problems.latex import number
from . import ExportOptions, answer_sheets
from .print_items import answer_name, figure_files, figure_markup, item, key_item, number_markup, points
from .typst import escape, inline_math, markdown
from .typst.compile import compile_pdf, parallelism, preamble, submit, write_each

KEY_FORMAT = 1
"""Version of the key JSON's layout (docs/quiz-key.md)."""


def _plain(text: str) -> str:
    """A title as words, for the PDF's metadata: math as its LaTeX, no delimiters or emphasis."""
    return plain(text)


def name_markup(name: str) -> str:
    """A student's name as markup set apart from the text around it: a right-to-left
    name (Arabic, Hebrew) then keeps its place in a line of left-to-right text."""
    return f"#box[{escape(name)}]"


def _running(form: Form, key: bool = False) -> str:
    parts = [f"*Form {form.letter}*", escape(f"code {form.code}")]
    if form.student is not None:
        parts.append(name_markup(form.student.name))
    if key:
        parts.append(escape(f"answer key · seed {form.seed}"))
    return "[" + " · ".join(parts) + "]"


def _calculator_note(quiz: Quiz) -> str:
    if quiz.recipe.calculator:
        return "[A calculator is allowed.]"
    return "[No calculator: each question gives the values it needs.]"


def form_source(quiz: Quiz, form: Form, paper: str = "a4", figures: Path | None = None) -> str:
    """The Typst source of one form: nothing on it regenerates its answers (``figures``: the
    cache its questions' figures are drawn into, ``print_items.figure_files``)."""
    recipe = quiz.recipe
    out = [preamble(paper, _plain(recipe.title), _running(form), markdown(recipe.title))]
    subtitle = escape(f"{quiz.paper_title} · Form {form.letter} · code {form.code}")
    name = "true" if form.student is None else f"[{escape(form.student.name)}]"
    out.append(
        f"#front(title: [{markdown(recipe.title)}], subtitle: [{subtitle}], name: {name},"
        f" points: [{points(form.total_points)}],"
        f" minutes: {'none' if recipe.minutes is None else recipe.minutes},"
        f" calculator: {_calculator_note(quiz)},"
        f" instructions: [{markdown(recipe.instructions)}])\n"
    )
    for section in form.sections:
        if not section.items:
            continue
        note = escape(f"{format_number(section.points)} point{'s' if section.points != 1 else ''} each")
        out.append(f"#section-title([{markdown(section.title)}], [{note}])\n")
        for quiz_item in section.items:
            with item_errors(quiz_item):
                out.append(item(quiz_item, figures=figures))
    return "".join(out)


def form_key_source(quiz: Quiz, form: Form, paper: str = "a4", figures: Path | None = None) -> str:
    """The Typst source of one form's answer key (``figures``: as ``form_source``)."""
    recipe = quiz.recipe
    out = [
        preamble(
            paper, _plain(f"{recipe.title}: answer key"), _running(form, key=True), markdown(recipe.title)
        )
    ]
    who = f" · {name_markup(form.student.name)}" if form.student is not None else ""
    out.append(
        f"#front(title: [{markdown(recipe.title)} · answer key], subtitle: [*Form {form.letter}*"
        f" · {escape(f'code {form.code} · seed {form.seed}')}{who}], name: false,"
        f" points: [{points(form.total_points)}], minutes: none, calculator: [], instructions: [])\n"
    )
    for section in form.sections:
        if section.items:
            out.append(f"#section-title([{markdown(section.title)}], [])\n")
            for quiz_item in section.items:
                with item_errors(quiz_item):
                    out.append(key_item(quiz_item, figures))
    return "".join(out)


# -- the answer-key booklet ------------------------------------------------------


def _tolerance(abs_tol: float | None, rel_tol: float | None = None) -> str:
    """A tolerance as short markup: ``±0.005`` or ``±0.1 %`` (nothing when exact)."""
    parts = []
    if abs_tol:
        parts.append(f"±{number(abs_tol, 10)}")
    if rel_tol:
        parts.append(f"±{number(rel_tol * 100, 10)} %")
    return f" #text(size: 7.5pt)[{escape(' or '.join(parts))}]" if parts else ""


def _value_markup(value: Any, fmt: Callable[[float], str]) -> str:
    """A number, vector ``(a, b)`` or matrix ``(a, b; c, d)``, row by row, as short markup."""
    if not isinstance(value, list):
        return number_markup(fmt(value))
    rows = value if value and isinstance(value[0], list) else [value]
    return "(" + "; ".join(", ".join(number_markup(fmt(x)) for x in row) for row in rows) + ")"


def _span(value: Any) -> int:
    """Booklet columns an answer takes: one for a number, more for a vector or matrix."""
    if not isinstance(value, list):
        return 1
    columns = len(value[0]) if value and isinstance(value[0], list) else len(value)
    rows = len(value) if value and isinstance(value[0], list) else 1
    return min(6, 1 + (rows * columns + 1) // 2)


def _booklet_answer(quiz_item: QuizItem, model_answers: dict[str, int]) -> tuple[str, int]:
    """One question's answer as the booklet prints it, and the columns it takes."""
    if isinstance(quiz_item, QuestionItem):
        question = quiz_item.question
        if quiz_item.options:
            right = quiz_item.answer_index or 0
            shown = f"*{letter(right)}*"
            if question.type == "true_false":
                shown += f" #text(size: 7.5pt)[{'true' if question.answer else 'false'}]"
            return shown, 1
        if question.type == "numeric":
            unit = f" {escape(question.unit)}" if question.unit else ""
            value = _value_markup(question.answer, answer_formatter(question.precision))
            return value + unit + _tolerance(question.tolerance), 2 if question.unit else 1
        reference = model_answers.setdefault(question.id, len(model_answers) + 1)
        return f"#emph[by hand] #text(size: 7.5pt)[(model answer {reference})]", 2
    problem = quiz_item.problem
    primary = problems.get(problem.type).primary
    value = problem.answer[primary]
    fmt = answer_formatter(problem.precision, problem.tolerance.abs, problem.tolerance.rel)
    shown = f"{inline_math(answer_name(primary))} = {_value_markup(value, fmt)}"
    return shown + _tolerance(problem.tolerance.abs, problem.tolerance.rel), _span(value)


def booklet_card(form: Form, model_answers: dict[str, int]) -> str:
    """One form's answers in the booklet; short answers are numbered into ``model_answers``."""
    head = [f"*Form {form.letter}*", escape(f"code {form.code}")]
    if form.student is not None:
        head.append(f"*{name_markup(form.student.name)}*")
    head.append(escape(f"{format_number(form.total_points)} points"))
    answers = []
    for quiz_item in form.items:
        with item_errors(quiz_item):
            shown, span = _booklet_answer(quiz_item, model_answers)
        answers.append(f"([{quiz_item.number}], [{shown}], {span})")
    return f"#key-card([{' · '.join(head)}], ({', '.join(answers)},))\n"


BOOKLET_PART = 40
"""Forms per part of the answer-key booklet: each part is compiled on its own, as soon as
its forms are made, and the parts are joined. One document of 250 forms took Typst 143 MB
more memory and 6.7 s on one thread, after every form was made."""


def booklet_source(
    quiz: Quiz,
    cards: list[str],
    model_answers: dict[str, int],
    paper: str = "a4",
    first: bool = True,
    last: bool = True,
    figures: Path | None = None,
) -> str:
    """The answer-key booklet, or one part of it: the title (first part), the forms' cards, then
    the model answer of each short answer (last part) under its question and figure (``figures``:
    as ``form_source``). Printed in parts, its pages are not numbered: a teacher finds a form by
    its label."""
    recipe = quiz.recipe
    whole = first and last
    out = [
        preamble(
            paper,
            _plain(f"{recipe.title}: answer key"),
            "[Answer key · keep it from students]",
            markdown(recipe.title),
            page_numbers=whole,
        )
    ]
    if first:
        forms = f"{quiz.count} form{'s' if quiz.count != 1 else ''}"
        subtitle = escape(f"{quiz.paper_title} · answer key of {forms} · quiz seed {quiz.seed}")
        title = f'#align(center, text(size: 15pt, weight: "bold")[{markdown(recipe.title)} · answer key])'
        out.append(
            f"{title}\n#align(center, text(size: 10pt)[{subtitle}])\n"
            "#text(size: 8.5pt)[Per form, each question's answer: the letter whose bubble is filled,"
            " or the value with its tolerance per number. Worked solutions:"
            ' #raw("paperdeck quiz --worked-keys") and each student\'s feedback after'
            ' #raw("paperdeck grade").]\n'
        )
    out.extend(cards)
    if last and model_answers:
        by_id = {question.id: question for pool in quiz.pools for question in pool}
        out.append("#section-title([Model answers], [of the questions marked by hand])\n")
        for question_id, reference in model_answers.items():
            question = by_id[question_id]
            figure = figure_markup(quiz.figures.get(question_id), figures)
            out.append(
                f"#key-block({reference}, none, [{markdown(question.prompt)}{figure}\n\n"
                f"#right-answer[{markdown(str(question.answer))}]])\n"
            )
    return "".join(out)


# -- the key as JSON -------------------------------------------------------------


def _item_key(quiz_item: QuizItem, section: str) -> dict[str, Any]:
    entry: dict[str, Any] = {"number": quiz_item.number, "section": section, "points": quiz_item.points}
    if isinstance(quiz_item, QuestionItem):
        question = quiz_item.question
        entry.update(id=question.id, kind=question.type)
        if quiz_item.options:
            right = quiz_item.answer_index or 0
            entry["answer"] = letter(right)
            entry["options"] = [
                {
                    "letter": letter(i),
                    "text": o.text,
                    "correct": o.correct,
                    **({"mistake": o.mistake} if o.mistake else {}),
                }
                for i, o in enumerate(quiz_item.options)
            ]
            entry["mistakes"] = [
                {"mistake": o.mistake, "letter": letter(i)}
                for i, o in enumerate(quiz_item.options)
                if o.mistake
            ]
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
    entry.update(
        kind="problem",
        problem_type=problem.type,
        problem_seed=problem.seed,
        difficulty=problem.difficulty,
        primary=primary,
        answer=problem.answer,
        tolerance=problem.tolerance.to_json(),
        mistakes=[{"mistake": d.mistake, "value": d.answer.get(primary)} for d in problem.distractors],
    )
    return entry


def form_key(form: Form, pdf: str, key_pdf: str | None) -> dict[str, Any]:
    """The key of one form as the key JSON holds it (``key_pdf`` None: no worked key written)."""
    return {
        "label": form.letter,
        "seed": form.seed,
        "code": form.code,
        "student": None if form.student is None else {"name": form.student.name, "id": form.student.id},
        "pdf": pdf,
        "key_pdf": key_pdf,
        "total_points": form.total_points,
        "questions": [
            _item_key(quiz_item, section.title) for section in form.sections for quiz_item in section.items
        ],
    }


# -- writing the set -------------------------------------------------------------


def set_file(stem: str) -> Callable[[Path], bool]:
    """Whether a path (relative to the quiz's folder) is a file of the quiz's set: a form, its
    key, its answer sheet, the print file, the key JSON, the roster's index. Anything else
    there (a user's notes, ``graded/``, a kept ``<quiz>-key.replaced-….json``) is left alone."""
    pattern = re.compile(
        rf"{re.escape(stem)}-(?:key\.json|key\.pdf|index\.csv|print\.pdf"
        rf"|form-[A-Z]+(?:-key|-sheet)?\.pdf)",
        re.S,
    )
    return lambda path: len(path.parts) == 1 and pattern.fullmatch(path.name) is not None


def _write(path: Path, data: bytes) -> None:
    if path.name.endswith("-key.pdf"):
        write_private(path, data)  # a form's worked key prints its seed
    else:
        path.write_bytes(data)
        path.chmod(PUBLIC)


def export(quiz: Quiz, folder: Path, options: ExportOptions) -> list[Path]:
    """Write the forms, the booklet, the print file, the key JSON (and a roster's index) as one
    set into ``folder``; with ``options.worked_keys`` or the recipe's ``worked_keys``, each
    form's worked key too.

    An issued quiz there (``generator/files/issued.py``) is replaced only with ``options.replace``;
    a replaced key that differs from the new one is kept beside it, dated, and listed."""
    stem = quiz.recipe.id or "quiz"
    paper = options.paper
    worked = options.worked_keys or quiz.recipe.worked_keys
    timestamp = build_time(options.build_time)
    written: list[Path] = []
    refuse_unasked(existing_key(folder, stem), options.replace)  # before the work, and under the swap's lock
    model_answers: dict[str, int] = {}

    def keep_the_replaced_key(staging: Path) -> None:
        found = existing_key(folder, stem)
        refuse_unasked(found, options.replace)
        if found is not None and kept_when_replaced(found, (staging / f"{stem}-key.json").read_bytes()):
            kept = staging / replaced_name(found)
            write_private(kept, found.data)
            written.append(kept)

    with file_set(folder, set_file(stem), keep_the_replaced_key) as staging:
        key_path = staging / f"{stem}-key.json"
        head = {
            "format": KEY_FORMAT,
            "quiz": stem,
            "title": quiz.recipe.title,
            "paper_title": quiz.paper_title,
            "seed": quiz.seed,
            "forms": quiz.count,
            "calculator": quiz.recipe.calculator,
            "paper": paper,
            "made_by": options.made_by,
            "key_booklet": f"{stem}-key.pdf",
            "print": f"{stem}-print.pdf",
            "sheets": answer_sheets.layout_head(quiz, paper),
        }
        form_keys: list[orjson.Fragment] = []  # each form's key as JSON as it comes: bytes, not dicts
        index_rows: list[list[str]] = []

        def booklet_part(cards: list[str], first: bool, last: bool) -> bytes:
            source = booklet_source(quiz, cards, model_answers, paper, first, last, options.figures)
            return compile_pdf(source, timestamp, files=figure_files(source, options.figures))

        def jobs() -> Iterator[tuple[Path, Callable[[], bytes]]]:
            cards: list[str] = []  # of the booklet's part being made
            for form in quiz.iter_forms():
                pdf = f"{stem}-form-{form.letter}.pdf"
                key_pdf = f"{stem}-form-{form.letter}-key.pdf" if worked else None
                sheet_pdf = f"{stem}-form-{form.letter}-sheet.pdf"
                cards.append(booklet_card(form, model_answers))
                last = form.index + 1 == quiz.count
                if len(cards) == BOOKLET_PART or last:
                    # The last part goes before the last form, to compile beside it.
                    booklet.append(submit(lambda c=cards, f=not booklet, e=last: booklet_part(c, f, e)))  # type: ignore[misc]
                    cards = []
                # The form compiles while its sheet is laid out (the first sheet also
                # sizes every question's digit grid).
                source = form_source(quiz, form, paper, options.figures)
                shown = figure_files(source, options.figures)
                yield staging / pdf, lambda s=source, f=shown: compile_pdf(s, timestamp, files=f)  # type: ignore[misc]
                sheet = answer_sheets.sheet(quiz, form, paper)
                entry = form_key(form, pdf, key_pdf) | {"sheet_pdf": sheet_pdf, "sheet": sheet.layout}
                form_keys.append(orjson.Fragment(orjson.dumps(entry)))
                if form.student is not None:
                    index_rows.append(
                        [form.student.name, form.student.id, form.letter, form.code, str(form.seed), pdf]
                    )
                if key_pdf is not None:
                    key = form_key_source(quiz, form, paper, options.figures)
                    shown = figure_files(key, options.figures)
                    yield staging / key_pdf, lambda s=key, f=shown: compile_pdf(s, timestamp, files=f)  # type: ignore[misc]
                yield staging / sheet_pdf, lambda s=sheet: s.pdf(timestamp)  # type: ignore[misc]

        def printed_in_order() -> Iterator[bytes]:
            """Each form, then its answer sheet, as they are written: the print file takes
            them in while later forms still compile."""
            for path, data in write_each(jobs(), 2 * parallelism() + 2, _write):
                written.append(path)
                if not path.name.endswith("-key.pdf"):
                    yield data

        booklet: list[Future[bytes]] = []
        printed = staging / f"{stem}-print.pdf"
        print_file(printed_in_order(), printed)
        write_private(key_path, orjson.dumps({**head, "form_keys": form_keys}) + b"\n")
        written.append(key_path)
        written += [_join_booklet(booklet, staging / f"{stem}-key.pdf"), printed]
        if quiz.students:
            index = staging / f"{stem}-index.csv"
            write_private(index, csv_bytes([["name", "id", "form", "code", "seed", "pdf"], *index_rows]))
            written.append(index)
    return [Path(folder).resolve() / path.name for path in written]


def _join_booklet(parts: list[Future[bytes]], target: Path) -> Path:
    """The booklet's parts, in order, as one PDF (pages flow on: no blank pages between)."""
    if len(parts) == 1:
        write_private(target, parts[0].result())  # the booklet holds every answer
        return target
    print_file((part.result() for part in parts), target, odd_pages=False)
    target.chmod(0o600)  # the booklet holds every answer
    return target


def print_file(documents: Iterable[bytes], target: Path, odd_pages: bool = True) -> int:
    """Write ``documents`` (each a PDF's bytes) into ``target`` one after another, for a duplex
    printer: each from an odd page (a blank page of its last page's size after a document that
    ends on an odd one), or page after page (``odd_pages`` False); the page count.

    The pages are copied as they are by qpdf, never typeset again: the print file holds exactly
    the pages handed out. The same documents always give the same bytes (no date, a
    deterministic ID)."""
    with pikepdf.new() as out:
        sources = []  # qpdf reads a copied page's streams from its source when it writes
        for document in documents:
            source = pikepdf.open(io.BytesIO(document))
            sources.append(source)
            out.pages.extend(source.pages)
            if odd_pages and len(source.pages) % 2:
                box = source.pages[-1].mediabox
                out.add_blank_page(page_size=(float(box[2]) - float(box[0]), float(box[3]) - float(box[1])))
        out.save(
            target,
            deterministic_id=True,
            fix_metadata_version=False,
            stream_decode_level=pikepdf.StreamDecodeLevel.none,
        )
        for source in sources:
            source.close()
        return len(out.pages)
