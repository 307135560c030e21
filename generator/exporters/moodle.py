"""An LMS quiz as Moodle XML: question categories a Moodle quiz draws random questions from.

Moodle imports Moodle XML into its question bank (Question bank > Import > Moodle XML).
Each section of the recipe becomes a category under ``$course$/top/<quiz title>/``: a
question bank's questions go into its category (the teacher adds the recipe's count of
random questions from it), and each problem gets a sub-category holding its variants
(the teacher adds one random question from each). Written here, decided elsewhere:

- ``multichoice`` (one answer, the choices in the order the document gives them, not
  shuffled) and ``truefalse``: the right answer at fraction 100, each wrong one at 0 with a
  feedback naming its mistake (true/false: the explanation);
- ``numerical`` for one number: the key with the question's tolerance as an absolute
  margin (``qti.allowed``: a relative tolerance becomes the margin it gives at the key),
  then one answer at fraction 0 per named mistake, with its margin and its feedback. Moodle
  takes the first answer whose margin holds the typed value, so the key wins where they meet;
- a vector or matrix answer as a Cloze (``multianswer``) question: one NUMERICAL box per
  number, each with the mistakes' numbers at ``%0%`` and their feedback;
- a short answer as an ``essay`` the teacher marks, the model answer in the grader's information;
- a question's figure (``Question.figure``) as an ``<img src="@@PLUGINFILE@@/NAME">`` in its
  text and the file itself, base64, in a ``<file>`` of its ``questiontext``: the importer
  (``import_text_with_files``) stores it with the question.

Every fraction is 100 or 0, both in Moodle's list of allowed grades
(``question_bank::fraction_options_full``; the importer refuses a question with any other).
Math stays ``\\( … \\)`` for Moodle's MathJax filter. The file is checked against the rules
of Moodle's importer (tests/lms), not imported into a running Moodle.
"""

from __future__ import annotations

import base64
import html
from pathlib import Path
from typing import Any

from .. import problems
from ..content.needs import TABLE
from ..documents.items import item_errors
from ..documents.lms import LmsQuiz, ProblemPool, QuestionBank
from ..documents.quiz import ProblemItem, QuestionItem, alt_text
from ..files.atomic import PRIVATE, write_bytes
from ..presentation import tolerance_words
from ..values import Value
from . import ExportOptions
from .anki.markup import block, inline
from .print_items import answer_name
from .qti import Figure, allowed, figures

TYPING = "Type each number as a decimal (0.73, -1.5, 6.988e-4)."
"""How to type a number in Moodle, stated in every numeric question."""


def _x(text: str) -> str:
    """Text (HTML, already escaped for HTML) as XML element content."""
    return html.escape(text, quote=False)


def _text(tag: str, content: str, html_format: bool = True, files: str = "") -> str:
    fmt = ' format="html"' if html_format else ""
    return f"<{tag}{fmt}><text>{_x(content)}</text>{files}</{tag}>"


def _figure(figure: Figure | None) -> tuple[str, str]:
    """A question's figure: (its HTML in the question's text, the ``<file>`` that carries it)."""
    if figure is None:
        return "", ""
    name = figure.path.name
    shown = (
        f'<div class="pd-figure"><img src="@@PLUGINFILE@@/{html.escape(name)}"'
        f' alt="{html.escape(alt_text(figure.caption))}"><p>{inline(figure.caption)}</p></div>'
    )
    data = base64.b64encode(figure.path.read_bytes()).decode("ascii")
    return shown, f'<file name="{html.escape(name)}" path="/" encoding="base64">{data}</file>'


def _number(x: Any) -> str:
    return repr(float(x)) if not isinstance(x, int) else str(x)


def _margin(value: float, abs_tol: float | None, rel_tol: float | None) -> str:
    return format(allowed(value, abs_tol, rel_tol).normalize(), "f")


def _plain(title: str) -> str:
    """A category name: no math delimiters, ``/`` doubled (Moodle's path separator)."""
    return title.replace(r"\(", "").replace(r"\)", "").replace("/", "//")


def category(path: str) -> str:
    return f'<question type="category"><category><text>{_x(path)}</text></category></question>\n'


def _head(
    kind: str, name: str, text: str, points: float, explanation: str = "", idnumber: str = "", files: str = ""
) -> str:
    out = (
        f'<question type="{kind}">\n<name><text>{_x(name)}</text></name>\n'
        f"{_text('questiontext', text, files=files)}\n{_text('generalfeedback', explanation)}\n"
        f"<defaultgrade>{_number(points)}</defaultgrade>\n<penalty>0</penalty>\n<hidden>0</hidden>\n"
    )
    if idnumber:
        out += f"<idnumber>{_x(idnumber)}</idnumber>\n"
    return out


def _answer(fraction: int, text: str, feedback: str, extra: str = "", html_format: bool = True) -> str:
    fmt = ' format="html"' if html_format else ""
    return (
        f'<answer fraction="{fraction}"{fmt}><text>{_x(text)}</text>'
        f"{_text('feedback', feedback)}{extra}</answer>\n"
    )


def _mistake(text: str) -> str:
    return f"Mistake: {inline(text)}"


def _values(table: tuple[tuple[str, float], ...], note: str = "Values you may need:") -> str:
    if not table:
        return ""
    head = "".join(f"<th>\\({html.escape(latex, quote=False)}\\)</th>" for latex, _ in table)
    cells = "".join(f"<td>{TABLE.format(value)}</td>" for _, value in table)
    return f"<table><caption>{note}</caption><tr>{head}</tr><tr>{cells}</tr></table>"


def choice_question(quiz_item: QuestionItem, figure: Figure | None = None) -> str:
    question = quiz_item.question
    explanation = block(question.explanation) if question.explanation else ""
    shown, files = _figure(figure)
    text = block(question.prompt) + shown + _values(quiz_item.table)
    if question.type == "true_false":
        out = _head("truefalse", question.id, text, quiz_item.points, explanation, question.id, files)
        for value in (True, False):
            right = question.answer is value
            feedback = "" if right else explanation
            out += _answer(100 if right else 0, "true" if value else "false", feedback, html_format=False)
        return out + "</question>\n"
    out = _head("multichoice", question.id, text, quiz_item.points, explanation, question.id, files)
    out += (
        "<single>true</single>\n<shuffleanswers>0</shuffleanswers>\n<answernumbering>ABCD</answernumbering>\n"
    )
    for option in quiz_item.options:
        feedback = "" if option.correct else _mistake(option.mistake) if option.mistake else explanation
        out += _answer(100 if option.correct else 0, inline(option.text), feedback)
    return out + "</question>\n"


def _rule(abs_tol: float | None, rel_tol: float | None) -> str:
    return f"<p>{TYPING} Accepted: {inline(tolerance_words(abs_tol, rel_tol))}.</p>"


def numerical_question(
    name: str,
    text: str,
    points: float,
    value: float,
    abs_tol: float | None,
    rel_tol: float | None,
    mistakes: list[tuple[str, Any]],
    explanation: str = "",
    idnumber: str = "",
    files: str = "",
) -> str:
    out = _head("numerical", name, text + _rule(abs_tol, rel_tol), points, explanation, idnumber, files)
    out += _answer(
        100,
        _number(value),
        "",
        f"<tolerance>{_margin(value, abs_tol, rel_tol)}</tolerance>",
        html_format=False,
    )
    for mistake, wrong in mistakes:
        if wrong is None or isinstance(wrong, (list, tuple)):
            continue
        out += _answer(
            0,
            _number(wrong),
            _mistake(mistake),
            f"<tolerance>{_margin(wrong, abs_tol, rel_tol)}</tolerance>",
            html_format=False,
        )
    return out + "<showunits>3</showunits>\n</question>\n"


def cloze_feedback(html_text: str) -> str:
    """Feedback inside a Cloze answer: Moodle's parser ends it at ``~`` or ``}`` not after a
    backslash and turns ``\\}`` and ``\\#`` back into ``}`` and ``#`` (qtype_multianswer)."""
    return html_text.replace("~", "∼").replace("}", r"\}").replace("#", r"\#")


def cloze_box(
    value: float, abs_tol: float | None, rel_tol: float | None, mistakes: list[tuple[str, float]]
) -> str:
    """One number of a Cloze question: the key, then each mistake's number at ``%0%``."""
    parts = [f"={_number(value)}:{_margin(value, abs_tol, rel_tol)}"]
    parts += [
        f"%0%{_number(wrong)}:{_margin(wrong, abs_tol, rel_tol)}#{cloze_feedback(_mistake(text))}"
        for text, wrong in mistakes
    ]
    return "{1:NUMERICAL:" + "~".join(parts) + "}"


def cloze_question(
    name: str,
    text: str,
    label: str,
    value: Any,
    abs_tol: float | None,
    rel_tol: float | None,
    mistakes: list[tuple[str, Any]],
    explanation: str = "",
) -> str:
    values = Value(value).numbers
    rows, columns = Value(value).table
    usable = [(t, Value(w).numbers) for t, w in mistakes if w is not None and Value(w).count == len(values)]
    boxes = [cloze_box(v, abs_tol, rel_tol, [(t, w[i]) for t, w in usable]) for i, v in enumerate(values)]
    table = "".join(
        "<tr>" + "".join(f"<td>{boxes[r * columns + c]}</td>" for c in range(columns)) + "</tr>"
        for r in range(rows)
    )
    body = f"{text}<p>{label}</p><table>{table}</table>{_rule(abs_tol, rel_tol)}"
    # A Cloze question's mark is the sum of its boxes' weights (1 each): the quiz sets the item's points.
    return (
        f'<question type="cloze">\n<name><text>{_x(name)}</text></name>\n{_text("questiontext", body)}\n'
        f"{_text('generalfeedback', explanation)}\n<penalty>0</penalty>\n<hidden>0</hidden>\n"
        "</question>\n"
    )


def essay_question(quiz_item: QuestionItem, figure: Figure | None = None) -> str:
    question = quiz_item.question
    shown, files = _figure(figure)
    out = _head(
        "essay",
        question.id,
        block(question.prompt) + shown + _values(quiz_item.table),
        quiz_item.points,
        block(question.explanation) if question.explanation else "",
        question.id,
        files,
    )
    return (
        out + "<responseformat>editor</responseformat>\n<responserequired>1</responserequired>\n"
        "<responsefieldlines>5</responsefieldlines>\n<attachments>0</attachments>\n"
        f"{_text('graderinfo', 'Model answer: ' + block(str(question.answer)))}\n</question>\n"
    )


def question_xml(quiz_item: QuestionItem, figure: Figure | None = None) -> str:
    """A question, with its figure if it has one."""
    question = quiz_item.question
    if quiz_item.options:
        return choice_question(quiz_item, figure)
    if question.type == "numeric":
        unit = f" ({inline(question.unit)})" if question.unit else ""
        shown, files = _figure(figure)
        text = (
            block(question.prompt)
            + shown
            + _values(quiz_item.table)
            + (f"<p>Unit: {unit}</p>" if unit else "")
        )
        explanation = block(question.explanation) if question.explanation else ""
        return numerical_question(
            question.id,
            text,
            quiz_item.points,
            question.answer,
            question.tolerance or 0.0,
            None,
            [],
            explanation,
            question.id,
            files,
        )
    return essay_question(quiz_item, figure)


def problem_xml(name: str, quiz_item: ProblemItem) -> str:
    problem = quiz_item.problem
    primary = problems.get(problem.type).primary
    value = problem.answer[primary]
    exponentials = tuple((f"e^{{{x:g}}}", y) for x, y in quiz_item.exponentials)
    text = block(problem.prompt) + _values(exponentials, "Exponentials you may need:")
    mistakes = [(d.mistake, d.answer.get(primary)) for d in problem.distractors]
    tol = problem.tolerance
    if isinstance(value, (list, tuple)):
        label = f"\\({html.escape(answer_name(primary), quote=False)}\\) ="
        return cloze_question(name, text, label, value, tol.abs, tol.rel, mistakes)
    text += f"<p>\\({html.escape(answer_name(primary), quote=False)}\\) = ?</p>"
    return numerical_question(name, text, quiz_item.points, value, tol.abs, tol.rel, mistakes)


def quiz_xml(quiz: LmsQuiz, cache: Path | None = None) -> str:
    """The whole file: categories and their questions; ``cache``: where figures are drawn."""
    drawn = figures(quiz, cache)
    top = f"$course$/top/{_plain(quiz.recipe.title)}"
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n']
    for s, section in enumerate(quiz.sections, 1):
        path = f"{top}/{s:02d} {_plain(section.title)}"
        if isinstance(section, QuestionBank):
            out.append(category(path))
            for quiz_item in section.questions:
                with item_errors(quiz_item):
                    out.append(question_xml(quiz_item, drawn.get(quiz_item.question.id)))
        elif isinstance(section, ProblemPool):
            for j, slot in enumerate(section.slots, 1):
                out.append(category(f"{path}/Problem {j}"))
                for v, variant in enumerate(slot, 1):
                    with item_errors(variant):
                        out.append(problem_xml(f"{_plain(section.title)}: problem {j}, variant {v}", variant))
    out.append("</quiz>\n")
    return "".join(out)


def export(quiz: LmsQuiz, target: Path, options: ExportOptions) -> list[Path]:
    """Write the Moodle XML to ``target``, private: it holds every answer."""
    write_bytes(target, quiz_xml(quiz, options.figures).encode(), PRIVATE)
    return [Path(target).resolve()]
