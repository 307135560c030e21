"""One printed item as Typst: a question or problem on a form or sheet, and its key.

Shared by the quiz forms, their answer key and the practice sheet, so a problem
prints the same wherever it appears. Author text goes through ``typst.markdown``
(its math typeset), numbers through ``generator.presentation``.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

from .. import problems
from ..content.needs import TABLE
from ..documents.quiz import QuestionFigure, QuestionItem, QuizItem
from ..presentation import answer_formatter, format_number, letter, tolerance_words, value_latex
from ..problems import Problem
from ..problems.latex import number
from .typst import display_math, escape, inline_math, markdown, string

# The space to work in under a problem (its type's work_space_cm) grows with difficulty.
_DIFFICULTY_SCALE = {"easy": 1.0, "medium": 1.25, "hard": 1.4}
_QUESTION_SPACE = {"multiple_choice": 0.0, "true_false": 0.0, "numeric": 1.5, "short_answer": 3.5}


def points(value: float) -> str:
    """A number of points as markup."""
    return escape(format_number(value))


_PLAIN_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def number_markup(latex: str) -> str:
    """A formatted number as markup: plain text (with a true minus) unless it needs math
    (``6.988 \\times 10^{-4}``). Text, because the booklet and the tables of exponentials
    set thousands of numbers, and Typst sets text faster than math."""
    if _PLAIN_NUMBER.fullmatch(latex):
        return latex.replace("-", "−")
    return inline_math(latex)


def _exp_table(pairs: tuple[tuple[float, float], ...]) -> str:
    xs = ", ".join(f"[{number_markup(number(x, 4))}]" for x, _ in pairs)
    ys = ", ".join(f"[{escape(TABLE.format(y))}]" for _, y in pairs)
    note = "[Exponentials you may need:]"
    return f"#exp-table(({xs},), ({ys},), note: {note})\n"


def _values_table(pairs: tuple[tuple[str, float], ...]) -> str:
    """The values a content question needs (its ``needs``), as a table like the exponentials'."""
    xs = ", ".join(f"[{inline_math(latex)}]" for latex, _ in pairs)
    ys = ", ".join(f"[{escape(TABLE.format(y))}]" for _, y in pairs)
    return f"#values-table(({xs},), ({ys},), note: [Values you may need:])\n"


def _work_space(problem: Problem) -> float:
    base = problems.get(problem.type).work_space_cm
    return round(base * _DIFFICULTY_SCALE.get(problem.difficulty, 1.0), 1)


def problem_tag(problem: Problem) -> str:
    """The small line naming a problem's type, difficulty and seed."""
    return escape(f"{problem.type}, {problem.difficulty}, problem seed {problem.seed}")


_FIGURES_USED = re.compile(r'#image\("/([^"/\\]+)"')
"""The files a document's questions show (``figure_markup`` writes them so)."""


def figure_markup(figure: QuestionFigure | None, cache: Path | None) -> str:
    """A question's figure under its prompt, drawn as the guide draws the visual (into ``cache``,
    default the figure cache) and shown from the compiler's root (``figure_files``)."""
    if figure is None:
        return ""
    from .. import visuals

    visual = figure.visual
    path = visuals.render(visual.kind, dict(visual.params or {}), cache or visuals.default_cache_dir())
    # A diagram's SVG at its natural size, where its words match the text; a plot 70 % of the column.
    size = "" if path.suffix == ".svg" else ", width: 70%"
    return (
        f"\n#block(breakable: false, above: 0.8em, below: 0.8em, align(center)[#image({string('/' + path.name)}"
        f"{size}, alt: {string(figure.alt)})\n#text(size: 9pt)[{markdown(visual.caption)}]])"
    )


def figure_files(source: str, cache: Path | None) -> list[Path]:
    """The drawn files a document's source shows (its questions' figures), for the compiler's root."""
    names = sorted(set(_FIGURES_USED.findall(source)))
    if not names:
        return []
    from .. import visuals

    folder = cache or visuals.default_cache_dir()
    return [folder / name for name in names]


def _question_body(item: QuestionItem, figures: Path | None = None) -> tuple[str, float]:
    question = item.question
    body = markdown(question.prompt) + figure_markup(item.figure, figures)
    if item.options:
        letters = ", ".join(f"[{letter(i)}]" for i in range(len(item.options)))
        bodies = ", ".join(f"[{markdown(o.text)}]" for o in item.options)
        body += f"\n#choices(({letters},), ({bodies},))"
    elif question.type == "numeric":
        unit = f" ({markdown(question.unit)})" if question.unit else ""
        body += f"\n#answer-line([Answer{unit}:])"
    if item.table:
        body += "\n" + _values_table(item.table)
    return body, _QUESTION_SPACE[question.type]


def item(quiz_item: QuizItem, tag: bool = False, work_space: bool = True, figures: Path | None = None) -> str:
    """A question or problem as it prints on a form or sheet, with space to work.

    ``tag`` prints a problem's type and seed under it: on a practice sheet, never on a
    quiz form (the seed regenerates the answer with ``paperdeck problems``).
    ``work_space`` False leaves out the box to work in (a practice sheet is worked on
    paper of one's own, like a textbook's exercises, so several fit on a page).
    ``figures``: the figure cache a question's figure is drawn into (``figure_files``).
    """
    if isinstance(quiz_item, QuestionItem):
        body, space = _question_body(quiz_item, figures)
    else:
        problem = quiz_item.problem
        body = markdown(problem.prompt)
        if tag:
            body += f"\n\n#text(size: 8pt)[{problem_tag(problem)}]"
        if quiz_item.exponentials:
            body += "\n" + _exp_table(quiz_item.exponentials)
        space = _work_space(problem)
    if not work_space:
        space = 0.0
    shown = "none" if math.isnan(quiz_item.points) else f"[{points(quiz_item.points)}]"
    return f"#item({quiz_item.number}, {shown}, [{body}], space: {space}cm)\n"


def solution(problem: Problem) -> str:
    """Answer with tolerance, worked steps and named-mistake results of a problem."""
    lines = []
    fmt = answer_formatter(problem.precision, problem.tolerance.abs, problem.tolerance.rel)
    answers = r" \quad ".join(rf"{answer_name(k)} = {value_latex(v, fmt)}" for k, v in problem.answer.items())
    tolerance = markdown(tolerance_words(problem.tolerance.abs, problem.tolerance.rel))
    lines.append(f"#right-answer[{display_math(answers)} Tolerance: {tolerance}.]")
    for n, step in enumerate(problem.steps, 1):
        lines.append(f"#step({n}, [{markdown(step.title)}:], [{display_math(step.latex)}])")
    primary = problems.get(problem.type).primary
    if problem.distractors:
        rows = []
        for d in problem.distractors:
            got = d.answer.get(primary)
            rows.append(f"[{markdown(d.mistake)}], [{inline_math(value_latex(got, fmt))}]")
        header = f"[*Named mistake*], [*Gives {escape(primary)}*]"
        lines.append(
            "#block(breakable: false, above: 0.8em, table(columns: (1fr, auto), inset: 5pt,"
            f" {header}, {', '.join(rows)}))"
        )
    return "\n".join(lines)


def answer_name(key: str) -> str:
    """An answer's name as LaTeX: one underscore is a subscript (``d_k``, ``p_{target}``), as
    the prompts write them; other names upright, underscores kept (``ops\\_self\\_attention``)."""
    head, _, tail = key.partition("_")
    if tail and "_" not in tail:
        return rf"\mathrm{{{head}}}_{{\mathrm{{{tail}}}}}" if len(head) > 1 else rf"{head}_{{{tail}}}"
    return rf"\mathrm{{{key.replace('_', chr(92) + '_')}}}"


def _question_key(quiz_item: QuestionItem, figures: Path | None = None) -> str:
    question = quiz_item.question
    out = [markdown(question.prompt) + figure_markup(quiz_item.figure, figures)]
    if question.type == "multiple_choice":
        right = quiz_item.answer_index or 0
        out.append(f"#right-answer[({letter(right)}) {markdown(str(question.answer))}]")
        wrong = [
            f"[({letter(i)}) {markdown(o.text)}], [{markdown(o.mistake)}]"
            for i, o in enumerate(quiz_item.options)
            if not o.correct
        ]
        if wrong:
            out.append(
                "#table(columns: (auto, 1fr), inset: 5pt, [*Wrong choice*], [*Why it is wrong*], "
                + ", ".join(wrong)
                + ")"
            )
    elif question.type == "true_false":
        shown = f"({letter(quiz_item.answer_index)}) " if quiz_item.answer_index is not None else ""
        out.append(f"#right-answer[{shown}{'True' if question.answer else 'False'}]")
    elif question.type == "numeric":
        unit = f" {markdown(question.unit)}" if question.unit else ""
        tolerance = markdown(tolerance_words(question.tolerance))
        answer = inline_math(answer_formatter(question.precision)(question.answer))
        out.append(f"#right-answer[{answer}{unit} (tolerance {tolerance})]")
    else:
        out.append(f"#right-answer[{markdown(str(question.answer))}]")
    if question.explanation:
        out.append(f"#text(size: 10pt)[{markdown(question.explanation)}]")
    return "\n\n".join(out)


def key_item(quiz_item: QuizItem, figures: Path | None = None) -> str:
    """A question or problem as its key prints it: the answer, and for a problem the steps
    (``figures``: as ``item``)."""
    if isinstance(quiz_item, QuestionItem):
        body = _question_key(quiz_item, figures)
    else:
        problem = quiz_item.problem
        body = (
            markdown(problem.prompt) + f"\n\n#text(size: 8pt)[{problem_tag(problem)}]\n\n" + solution(problem)
        )
    return f"#key-block({quiz_item.number}, none, [{body}])\n"
