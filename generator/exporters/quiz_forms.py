"""A quiz as PDFs: one per form (``RECIPE-form-A.pdf``, …) and the answer key.

Lays out a ``quiz.Quiz`` as Typst (``print_items`` prints each question and
problem), compiles the forms and the key in parallel and writes them atomically.
"""

from __future__ import annotations

from pathlib import Path

from ..atomic import write_bytes
from ..presentation import build_time, format_number
from ..quiz import Form, Quiz
from . import ExportOptions
from .print_items import item, key_item, points
from .typst import escape, markdown
from .typst.compile import compile_many, preamble


def _running(quiz: Quiz, form: Form | None) -> str:
    seed = f"seed {quiz.seed}"
    if form is None:
        return f"[Answer key · all forms · {escape(seed)}]"
    return f"[*Form {form.letter}* · {escape(seed)}]"


def _calculator_note(quiz: Quiz) -> str:
    if quiz.recipe.calculator:
        return "[A calculator is allowed.]"
    return "[No calculator: each problem gives the exponentials it needs.]"


def form_source(quiz: Quiz, form: Form, paper: str = "a4") -> str:
    """The Typst source of one form."""
    recipe = quiz.recipe
    out = [preamble(paper, recipe.title, _running(quiz, form))]
    subtitle = escape(f"{quiz.paper_title} · Form {form.letter} · seed {quiz.seed}")
    out.append(
        f"#front(title: [{markdown(recipe.title)}], subtitle: [{subtitle}],"
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


def key_source(quiz: Quiz, paper: str = "a4") -> str:
    """The Typst source of the answer key with every form."""
    recipe = quiz.recipe
    out = [preamble(paper, f"{recipe.title}: answer key", _running(quiz, None))]
    for i, form in enumerate(quiz.forms):
        if i:
            out.append("#pagebreak()\n")
        out.append(f"#front(title: [{markdown(recipe.title)} · answer key], subtitle: [*Form {form.letter}*"
                   f" · {escape(f'seed {quiz.seed}')}], name: false, points: [{points(form.total_points)}],"
                   f" minutes: none, calculator: [], instructions: [])\n")
        for section in form.sections:
            if section.items:
                out.append(f"#section-title([{markdown(section.title)}], [])\n")
                out.extend(key_item(quiz_item) for quiz_item in section.items)
    return "".join(out)


def export(quiz: Quiz, folder: Path, options: ExportOptions) -> list[Path]:
    """Write one PDF per form and the answer key into ``folder``; returns their paths."""
    stem = quiz.recipe.id or "quiz"
    paths = [folder / f"{stem}-form-{form.letter}.pdf" for form in quiz.forms]
    sources = [form_source(quiz, form, options.paper) for form in quiz.forms]
    paths.append(folder / f"{stem}-key.pdf")
    sources.append(key_source(quiz, options.paper))
    for path, data in zip(paths, compile_many(sources, build_time(options.build_time)), strict=True):
        write_bytes(path, data)
    return paths
