"""Every student's exam back: one feedback PDF per student, made from the key and their marks.

Each PDF holds the score, a table of every question with the student's answer, the
right one, the points and the named mistake the answer shows, then for every question
that lost points its worked solution (the problem the key reader regenerated from its seed,
a content question's answer and explanation), where to read about it (the lesson and
the paper's label) and, with remedial decks, the name of the student's deck.
``graded.export`` writes them to ``feedback/<stem>.pdf`` and, asked to, one print file.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

from ..content.model import Question
from ..documents.quiz import question_figures
from ..errors import naming
from ..files.file_names import unique_name
from ..grading import Grading
from ..grading.key import KeyQuestion
from ..grading.scoring import Mark, StudentResult
from ..presentation import answer_formatter, format_number, number_formatter, tolerance_words, value_latex
from ..problems import Regenerated
from ..values import Value
from .print_items import figure_markup, solution
from .typst import escape, inline_math, markdown, string
from .typst.compile import preamble

Formatter = Callable[[float], str]


def stems(students: list[str]) -> list[str]:
    """A file-name stem per student, unique among them (``file_names.unique_name``, the
    helper remedial decks use too)."""
    taken: set[str] = set()
    return [unique_name(student, "", taken) for student in students]


def _shaped(values: tuple[float | None, ...], shape: tuple[int, ...]) -> object:
    """Flat values back in their printed shape; a part left out is ``_``, as in the responses."""
    return Value.shaped([v if v is not None else "_" for v in values], shape)


def _choice(question: KeyQuestion, letter: str) -> str:
    if letter in question.letters:
        text = question.options[question.letters.index(letter)] if question.options else ""
        return f"({escape(letter)}) {markdown(text)}" if text else f"({escape(letter)})"
    return escape(letter)


PENDING = "not read from your sheet: pending, your teacher checks it"
"""What a student's feedback says of an answer the scan could not read."""


def _answers(question: KeyQuestion, mark: Mark, fmt: Formatter) -> tuple[str, str]:
    """The student's answer and the right one, as markup."""
    if mark.not_read:
        return f"#emph[{escape(PENDING)}]", "—"
    if question.kind == "short_answer":
        given = (
            "not graded yet"
            if mark.points is None
            else f"{format_number(mark.points)} of {format_number(question.points)} points"
        )
        return escape(f"marked by hand: {given}"), "#emph[the model answer below]" if mark.share != 1 else "—"
    if question.kind in ("multiple_choice", "true_false"):
        given = "#emph[no answer]" if mark.blank else _choice(question, str(mark.answer))
        return given, _choice(question, question.answer_letter)
    right = inline_math(value_latex(_shaped(question.answer, question.shape), fmt))
    if mark.blank:
        return "#emph[no answer]", right
    got = mark.answer if isinstance(mark.answer, tuple) else ()
    return inline_math(value_latex(_shaped(got, question.shape), fmt)), right


def _mark_cell(mark: Mark) -> str:
    if mark.not_read:
        return escape("pending")
    if mark.points is None:
        return "—"
    return escape(f"{format_number(mark.points)} / {format_number(mark.possible)}")


def _where(grading: Grading, question: KeyQuestion) -> str:
    parts = []
    for reading in grading.readings.lessons(question)[:1]:
        if reading.title:
            parts.append(markdown(reading.title) + (f" ({escape(reading.source)})" if reading.source else ""))
        elif reading.source:
            parts.append(escape(f"the paper, {reading.source}"))
    return "; ".join(parts)


def _problem(grading: Grading, question: KeyQuestion) -> Regenerated | None:
    """The problem the key's seed regenerates, the one the student's form printed: the key
    reader drew it again and checked it gives the key's answer (``QuizKey.problems``); None for
    a content question."""
    return grading.key.problems.get((question.problem_type, question.problem_seed, question.difficulty))


def question_errors(grading: Grading, question: KeyQuestion) -> AbstractContextManager[None]:
    """Name a key's question in any error raised while it is written (as ``item_errors`` names
    a document's items): a content question by its file and line, a problem by type and seed."""
    from ..problems.registry import project_file

    if question.problem_type:
        what = f"problem {question.number} of the key ({question.problem_type}, seed {question.problem_seed})"
        return naming(project_file(question.problem_type), what)
    place = grading.readings.content.places.get(question.content_id, "")
    return naming(place, f"question {question.content_id!r}")


def _worked(
    grading: Grading,
    question: KeyQuestion,
    mark: Mark,
    content_questions: dict[str, Question],
    figure: str = "",
) -> str:
    """The worked solution of a question that lost points, where to read, the mistake named."""
    out = []
    drawn = _problem(grading, question)
    if drawn is not None:
        problem = drawn.problem()
        out += [markdown(problem.prompt), solution(problem)]
    elif question.problem_type:
        fmt = number_formatter(question.tolerance_abs or None, question.tolerance_rel or None)
        right = inline_math(value_latex(_shaped(question.answer, question.shape), fmt))
        out.append(f"#right-answer[{right}]")
    else:
        found = content_questions.get(question.content_id)
        if found is not None:
            out.append(markdown(found.prompt) + figure)  # its figure, if it has one
            if question.kind in ("multiple_choice", "true_false"):
                out.append(f"#right-answer[{_choice(question, question.answer_letter)}]")
            elif question.kind == "numeric":
                fmt = answer_formatter(found.precision, question.tolerance_abs or None)
                out.append(
                    f"#right-answer[{inline_math(fmt(question.answer[0]))}"
                    f" (tolerance {markdown(tolerance_words(question.tolerance_abs))})]"
                )
            else:
                out.append(f"#right-answer[{markdown(str(found.answer))}]")
            if found.explanation:
                out.append(markdown(found.explanation))
    if mark.mistake:
        out.append(f"#mistake-note[{markdown(mark.mistake)}]")
    where = _where(grading, question)
    if where:
        out.append(f"#text(size: 9.5pt)[*Read:* {where}]")
    body = "\n\n".join(out)
    return f"#key-block({question.number}, none, [{body}])\n"


def _formatter(grading: Grading, question: KeyQuestion, content_questions: dict[str, Question]) -> Formatter:
    """Numbers to the precision the question's prompt states, as its key prints them."""
    drawn = _problem(grading, question)
    if drawn is not None:
        problem_type = drawn.problem_type
        return answer_formatter(
            problem_type.precision, problem_type.tolerance.abs, problem_type.tolerance.rel
        )
    found = content_questions.get(question.content_id)
    if found is not None:
        return answer_formatter(
            found.precision, question.tolerance_abs or None, question.tolerance_rel or None
        )
    return number_formatter(question.tolerance_abs or None, question.tolerance_rel or None)


def feedback_source(
    grading: Grading,
    result: StudentResult,
    deck: str | None,
    paper: str,
    template: str,
    figures: Path | None = None,
) -> str:
    """The Typst source of one student's feedback (``template``: the report's pieces, grade.typ;
    ``figures``: the cache a missed question's figure is drawn into, ``print_items.figure_files``)."""
    key = grading.key
    form = key.forms[result.form]
    title = key.title or key.quiz
    name = f"#box[{escape(result.student)}]"
    content_questions = {q.id: q for lesson in grading.readings.content.lessons for q in lesson.questions}
    figured = question_figures(grading.readings.content)
    out = [
        preamble(paper, f"{title}: feedback", f"[{name} · Form {escape(result.form)}]", markdown(title)),
        template,
        "\n",
    ]
    code = f" · code {form.code}" if form.code else ""
    out.append(
        f'#align(center, text(size: 17pt, weight: "bold")[{markdown(title)}])\n'
        f"#align(center, text(size: 12pt)[*{name}* · {escape(f'Form {result.form}{code}')}])\n"
    )
    ungraded = sum(1 for m in result.marks if m.points is None and not m.not_read)
    later = (
        escape(f" · {ungraded} short answer{'s' if ungraded > 1 else ''} still to be graded")
        if ungraded
        else ""
    )
    if result.not_read:
        count = len(result.not_read)
        later += escape(
            f" · {count} answer{'s' if count > 1 else ''} not read from your sheet (question"
            f"{'s' if count > 1 else ''} {', '.join(map(str, result.not_read))}): pending, "
            "your teacher checks them and the score may change"
        )
    out.append(
        f"#score-line[{escape(f'{format_number(result.score)} of {format_number(result.max)} points')}"
        f" ({escape(f'{result.percent:.0f} %')}){later}]\n"
    )
    rows = []
    missed = []
    for m in result.marks:
        question = form.questions[m.number]
        with question_errors(grading, question):
            given, right = _answers(question, m, _formatter(grading, question, content_questions))
            note = markdown(m.mistake) if m.mistake else ""
        rows.append(f"[{m.number}], [{given}], [{right}], [{_mark_cell(m)}], [{note}]")
        if m.share is not None and m.share < 1:
            missed.append((question, m))
    out.append("#answers-table(" + ",\n".join(rows) + ")\n")
    if missed:
        out.append(
            "#section-title([What to look at again], [the worked solution of each question that lost"
            " points, and where to read about it])\n"
        )
        for question, m in missed:
            with question_errors(grading, question):
                figure = figure_markup(figured.get(question.content_id), figures)
                out.append(_worked(grading, question, m, content_questions, figure))
    else:
        out.append("Full marks on everything graded.\n")
    if deck is not None:
        from ..grading.remedial import review_search

        search = review_search(grading.readings.content.paper.id, key.quiz)
        out.append(f"#deck-note({string(deck)})\n")
        out.append(
            "#text(size: 9.5pt)["
            + escape(
                "Already have the full deck? Importing this one adds the fresh problems and updates the cards "
                "you already have (their reviews are kept), so nothing shows as new. To practise them now: in "
                "Anki, Tools › Create Filtered Deck, with the search "
            )
            + f"#raw({string(search)})"
            + escape(".")
            + "]\n"
        )
    return "".join(out)
