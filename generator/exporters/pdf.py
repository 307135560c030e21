"""Printed quizzes, answer keys and practice sheets as PDF, typeset with Typst.

``export_quiz(quiz, out_dir, paper)`` writes one PDF per form and one answer key
with every form; ``export(deck, path, options)`` writes a practice sheet of a
Deck of problems with the solutions at the end. This module only lays out: it
turns a ``quiz.Quiz`` or a ``Deck`` into Typst source (author text escaped, LaTeX
converted by ``typst.convert``), compiles it in memory with the fonts bundled in
the ``typst`` package and writes the bytes atomically.
"""

from __future__ import annotations

import math
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path
from typing import Any, cast

import typst as typst_compiler

from .. import problems
from ..atomic import write_bytes
from ..errors import UsageError
from ..items import Deck
from ..latex import LatexError
from ..problems import Problem, Tolerance
from ..problems.latex import number, scientific
from ..quiz import Form, Option, ProblemItem, QuestionItem, Quiz, QuizItem, exponentials
from .numbers import Formatter, number_formatter
from .typst import display_math, escape, inline_math, markdown, string

PAPERS = {"a4": "a4", "letter": "us-letter"}
FONT = "Libertinus Serif"
TEMPLATE = resources.files(__package__).joinpath("typst/quiz.typ").read_text(encoding="utf-8")

# The space to work in under a problem (its type's work_space_cm) grows with difficulty.
_DIFFICULTY_SCALE = {"easy": 1.0, "medium": 1.25, "hard": 1.4}
_QUESTION_SPACE = {"multiple_choice": 0.0, "true_false": 0.0, "numeric": 1.5, "short_answer": 3.5}


# -- numbers ----------------------------------------------------------------------

def format_number(x: Any) -> str:
    """How the key prints a number: four decimals, or four significant figures when small."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return str(x)
    if isinstance(x, float) and x != 0 and abs(x) < 0.01:
        return scientific(x, 4)
    return number(x, 4)


def value_latex(value: Any, fmt: Formatter = format_number) -> str:
    """LaTeX for a JSON-plain value (number, vector, matrix, list of matrices), numbers by ``fmt``."""
    if isinstance(value, list):
        if value and isinstance(value[0], list) and value[0] and isinstance(value[0][0], list):
            return r",\quad ".join(value_latex(m, fmt) for m in value)
        rows = value if value and isinstance(value[0], list) else [value]
        body = r" \\ ".join(" & ".join(fmt(x) for x in row) for row in rows)
        return r"\begin{pmatrix} " + body + r" \end{pmatrix}"
    if isinstance(value, str):
        return r"\text{" + value.replace("\\", "").replace("{", r"\{").replace("}", r"\}") + "}"
    return fmt(value)


def answer_formatter(problem: Problem) -> Formatter:
    """How the key prints a problem's numbers: the same digits as its Anki card."""
    return number_formatter(problem.tolerance.abs, problem.tolerance.rel)


def number_markup(x: Any) -> str:
    """A number as Typst markup (math, so that ``10^{-4}`` and minus signs typeset)."""
    return inline_math(format_number(x))


def tolerance_text(tolerance: Tolerance | float | None) -> str:
    """``±0.005`` or ``within 1%``, as markup."""
    if tolerance is None or tolerance == 0:
        return "exact"
    if isinstance(tolerance, (int, float)):
        return f"±{number_markup(tolerance)}"
    parts = []
    if tolerance.abs is not None:
        parts.append(f"±{number_markup(tolerance.abs)}")
    if tolerance.rel is not None:
        parts.append(f"within {number_markup(tolerance.rel * 100)}%")
    return " or ".join(parts) or "exact"


def _points(points: float) -> str:
    return escape(format_number(points))


# -- pieces of a document ----------------------------------------------------------

def _math(latex: str) -> str:
    return display_math(latex)


def _text(text: str) -> str:
    return "[" + markdown(text) + "]"


def _exp_table(pairs: tuple[tuple[float, float], ...]) -> str:
    xs = ", ".join(f"[{inline_math(number(x, 4))}]" for x, _ in pairs)
    ys = ", ".join(f"[{escape(f'{y:.4f}')}]" for _, y in pairs)
    note = "[Exponentials you may need:]"
    return f"#exp-table(({xs},), ({ys},), note: {note})\n"


def _work_space(problem: Problem) -> float:
    base = problems.get(problem.type).work_space_cm
    return round(base * _DIFFICULTY_SCALE.get(problem.difficulty, 1.0), 1)


def _problem_tag(problem: Problem) -> str:
    return escape(f"{problem.type}, {problem.difficulty}, problem seed {problem.seed}")


def _question_body(item: QuestionItem) -> tuple[str, float]:
    question = item.question
    body = markdown(question.prompt)
    if item.options:
        letters = ", ".join(f"[{'ABCDEFGHIJ'[i]}]" for i in range(len(item.options)))
        bodies = ", ".join(_option_text(o) for o in item.options)
        body += f"\n#choices(({letters},), ({bodies},))"
    elif question.type == "numeric":
        unit = f" ({escape(question.unit)})" if question.unit else ""
        body += f"\n#answer-line([Answer{unit}:])"
    return body, _QUESTION_SPACE[question.type]


def _option_text(option: Option) -> str:
    return _text(option.text)


def _item(item: QuizItem) -> str:
    try:
        if isinstance(item, QuestionItem):
            body, space = _question_body(item)
        else:
            problem = item.problem
            body = markdown(problem.prompt)
            body += f"\n\n#text(size: 8pt)[{_problem_tag(problem)}]"
            if item.exponentials:
                body += "\n" + _exp_table(item.exponentials)
            space = _work_space(problem)
    except LatexError as error:
        raise LatexError(f"cannot print {_name(item)}: {error}", error.command) from None
    points = "none" if math.isnan(item.points) else f"[{_points(item.points)}]"
    return f"#item({item.number}, {points}, [{body}], space: {space}cm)\n"


def _name(item: QuizItem) -> str:
    if isinstance(item, QuestionItem):
        return f"question {item.question.id!r}"
    return f"problem {item.problem.id} ({item.problem.type}, seed {item.problem.seed})"


def _running(quiz: Quiz, form: Form | None) -> str:
    seed = f"seed {quiz.seed}"
    if form is None:
        return f"[Answer key · all forms · {escape(seed)}]"
    return f"[*Form {form.letter}* · {escape(seed)}]"


def _preamble(paper: str, title: str, running: str) -> str:
    return (TEMPLATE + "\n#show: sheet.with(paper: " + string(PAPERS[paper]) + ", title: "
            + string(title) + ", running: " + running + ")\n")


def _calculator_note(quiz: Quiz) -> str:
    if quiz.recipe.calculator:
        return "[A calculator is allowed.]"
    return "[No calculator: each problem gives the exponentials it needs.]"


def form_source(quiz: Quiz, form: Form, paper: str = "a4") -> str:
    """The Typst source of one form."""
    recipe = quiz.recipe
    out = [_preamble(paper, recipe.title, _running(quiz, form))]
    subtitle = escape(f"{quiz.paper_title} · Form {form.letter} · seed {quiz.seed}")
    out.append(
        f"#front(title: [{escape(recipe.title)}], subtitle: [{subtitle}],"
        f" points: [{_points(form.total_points)}],"
        f" minutes: {'none' if recipe.minutes is None else recipe.minutes},"
        f" calculator: {_calculator_note(quiz)},"
        f" instructions: [{markdown(recipe.instructions)}])\n")
    for section in form.sections:
        if not section.items:
            continue
        note = escape(f"{format_number(section.points)} point{'s' if section.points != 1 else ''} each")
        out.append(f"#section-title([{escape(section.title)}], [{note}])\n")
        out.extend(_item(item) for item in section.items)
    return "".join(out)


# -- answer key --------------------------------------------------------------------

def _solution(problem: Problem) -> str:
    """Answer with tolerance, worked steps and named-mistake results of a problem."""
    lines = []
    fmt = answer_formatter(problem)
    answers = r" \quad ".join(rf"\mathrm{{{_latex_name(k)}}} = {value_latex(v, fmt)}"
                              for k, v in problem.answer.items())
    lines.append(f"#right-answer[{display_math(answers)} Tolerance: {tolerance_text(problem.tolerance)}"
                 f" on every number.]")
    for n, step in enumerate(problem.steps, 1):
        lines.append(f"#step({n}, [{escape(step.title)}:], [{_math(step.latex)}])")
    primary = _primary(problem)
    if problem.distractors:
        rows = []
        for d in problem.distractors:
            got = d.answer.get(primary)
            rows.append(f"[{escape(d.mistake)}], [{inline_math(value_latex(got, fmt))}]")
        header = f"[*Named mistake*], [*Gives {escape(primary)}*]"
        lines.append("#block(breakable: false, above: 0.8em, table(columns: (1fr, auto), inset: 5pt,"
                     f" {header}, {', '.join(rows)}))")
    return "\n".join(lines)


def _latex_name(key: str) -> str:
    return key.replace("_", r"\_")


def _primary(problem: Problem) -> str:
    try:
        return problems.get(problem.type).primary
    except UsageError:
        return next(iter(problem.answer))


def _question_key(item: QuestionItem) -> str:
    question = item.question
    out = [markdown(question.prompt)]
    if question.type == "multiple_choice":
        right = item.answer_index or 0
        out.append(f"#right-answer[({'ABCDEFGHIJ'[right]}) {markdown(str(question.answer))}]")
        wrong = [f"[({'ABCDEFGHIJ'[i]}) {markdown(o.text)}], [{escape(o.mistake)}]"
                 for i, o in enumerate(item.options) if not o.correct]
        if wrong:
            out.append("#table(columns: (auto, 1fr), inset: 5pt, [*Wrong choice*], [*Why it is wrong*], "
                       + ", ".join(wrong) + ")")
    elif question.type == "true_false":
        out.append(f"#right-answer[{'True' if question.answer else 'False'}]")
    elif question.type == "numeric":
        unit = f" {escape(question.unit)}" if question.unit else ""
        out.append(f"#right-answer[{number_markup(question.answer)}{unit}"
                   f" (tolerance {tolerance_text(question.tolerance)})]")
    else:
        out.append(f"#right-answer[{markdown(str(question.answer))}]")
    if question.explanation:
        out.append(f"#text(size: 10pt)[{markdown(question.explanation)}]")
    return "\n\n".join(out)


def _key_item(item: QuizItem) -> str:
    try:
        if isinstance(item, QuestionItem):
            body = _question_key(item)
        else:
            problem = item.problem
            body = (markdown(problem.prompt) + f"\n\n#text(size: 8pt)[{_problem_tag(problem)}]\n\n"
                    + _solution(problem))
    except LatexError as error:
        raise LatexError(f"cannot print {_name(item)}: {error}", error.command) from None
    return f"#key-block({item.number}, none, [{body}])\n"


def key_source(quiz: Quiz, paper: str = "a4") -> str:
    """The Typst source of the answer key with every form."""
    recipe = quiz.recipe
    out = [_preamble(paper, f"{recipe.title}: answer key", _running(quiz, None))]
    for i, form in enumerate(quiz.forms):
        if i:
            out.append("#pagebreak()\n")
        out.append(f"#front(title: [{escape(recipe.title)} · answer key], subtitle: [*Form {form.letter}*"
                   f" · {escape(f'seed {quiz.seed}')}], name: false, points: [{_points(form.total_points)}],"
                   f" minutes: none, calculator: [], instructions: [])\n")
        for section in form.sections:
            if section.items:
                out.append(f"#section-title([{escape(section.title)}], [])\n")
                out.extend(_key_item(item) for item in section.items)
    return "".join(out)


# -- compiling ---------------------------------------------------------------------

def creation_timestamp() -> int | None:
    """The PDF creation time: SOURCE_DATE_EPOCH when set (reproducible builds), else now."""
    value = os.environ.get("SOURCE_DATE_EPOCH")
    return int(value) if value and value.isdigit() else None


_LOCAL = threading.local()
# Below this many documents, one thread is as fast.
_PARALLEL_FROM = 3


def _compiler() -> typst_compiler.Compiler:
    """This thread's compiler: reusing one lets Typst keep its fonts and cached layout."""
    compiler = getattr(_LOCAL, "compiler", None)
    if compiler is None:
        compiler = _LOCAL.compiler = typst_compiler.Compiler(ignore_system_fonts=True)
    return compiler


def pdf_bytes(compiler: typst_compiler.Compiler, source: str) -> bytes:
    """Typst source compiled by ``compiler`` to one PDF, in memory.

    With format "pdf" and no output path, ``Compiler.compile`` returns the PDF's
    bytes; its declared ``bytes | list[bytes] | None`` also covers writing to a
    file (None) and PNG or SVG output, one image per page (a list).
    """
    return cast(bytes, compiler.compile(source.encode("utf-8"), format="pdf", timestamp=creation_timestamp()))


def compile_pdf(source: str) -> bytes:
    """PDF bytes for Typst source, with only the fonts bundled in ``typst``."""
    try:
        return pdf_bytes(_compiler(), source)
    except typst_compiler.TypstError as error:  # a bug here: author text is always escaped
        raise RuntimeError(f"Typst could not compile a generated document: {error.diagnostic}") from error


def _check_paper(paper: str) -> None:
    if paper not in PAPERS:
        raise UsageError(f"unknown paper size {paper!r}; choose from {', '.join(PAPERS)}")


def _pool() -> ThreadPoolExecutor:
    """Threads that live as long as the process, so that their compilers stay warm."""
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max_workers=os.cpu_count() or 1, thread_name_prefix="typst")
    return _POOL


_POOL: ThreadPoolExecutor | None = None


def compile_many(sources: list[str]) -> list[bytes]:
    """PDFs for many sources, compiled on one thread per core.

    The ``typst`` binding releases the GIL while it compiles, so threads run in
    parallel; each keeps its own compiler (a compiler is not shared between threads).
    The longest documents start first so that the answer key does not finish last alone.
    """
    if len(sources) < _PARALLEL_FROM or (os.cpu_count() or 1) < 2:
        return [compile_pdf(source) for source in sources]
    order = sorted(range(len(sources)), key=lambda i: -len(sources[i]))
    results: list[bytes] = [b""] * len(sources)
    for i, data in zip(order, _pool().map(compile_pdf, [sources[i] for i in order]), strict=True):
        results[i] = data
    return results


def export_quiz(quiz: Quiz, out_dir: Path, paper: str = "a4") -> list[Path]:
    """One PDF per form (``RECIPE-form-A.pdf``, …) and the key (``RECIPE-key.pdf``)."""
    _check_paper(paper)
    out_dir = Path(out_dir)
    stem = quiz.recipe.id or "quiz"
    paths = [out_dir / f"{stem}-form-{form.letter}.pdf" for form in quiz.forms]
    sources = [form_source(quiz, form, paper) for form in quiz.forms]
    paths.append(out_dir / f"{stem}-key.pdf")
    sources.append(key_source(quiz, paper))
    for path, data in zip(paths, compile_many(sources), strict=True):
        write_bytes(path, data)
    return paths


# -- practice sheets ---------------------------------------------------------------

def practice_source(deck: Deck, paper: str = "a4", calculator: bool = False) -> str:
    """The Typst source of a practice sheet: the problems, then their solutions."""
    found = [item for item in deck.items if item.kind == "problem"]
    if len(found) != len(deck.items):
        kinds = sorted({item.kind for item in deck.items if item.kind != "problem"})
        raise UsageError(f"a practice sheet prints problems only, not {', '.join(kinds)}")
    title = f"{deck.title}: practice"
    out = [_preamble(paper, title, f"[{escape(f'{len(found)} problems')}]")]
    note = "[A calculator is allowed.]" if calculator else "[Exponentials are given where needed.]"
    out.append(f"#front(title: [{escape(title)}], subtitle: [], name: true, points: none, minutes: none,"
               f" calculator: {note}, instructions: [Worked answers are at the end.])\n")
    for n, study_item in enumerate(found, 1):
        problem = study_item.body
        pairs = () if calculator else exponentials(problem)
        out.append(_item(ProblemItem(n, math.nan, problem, pairs)))
    out.append("#pagebreak()\n#section-title([Solutions], [])\n")
    for n, study_item in enumerate(found, 1):
        problem = study_item.body
        body = f"#text(size: 8pt)[{_problem_tag(problem)}]\n\n" + _solution(problem)
        out.append(f"#key-block({n}, none, [{body}])\n")
    return "".join(out)


def export(deck: Deck, path: Path, options: dict[str, Any] | None = None) -> None:
    """Write a practice sheet of the problems of ``deck`` to ``path``.

    ``options``: ``paper`` (``a4`` or ``letter``) and ``calculator`` (no e^x tables).
    """
    options = options or {}
    paper = options.get("paper", "a4")
    _check_paper(paper)
    source = practice_source(deck, paper, bool(options.get("calculator", False)))
    write_bytes(Path(path), compile_pdf(source))
