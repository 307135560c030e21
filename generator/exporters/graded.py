"""A graded quiz as files: ``scores.csv``, ``mistakes.csv``, ``report.pdf``,
``feedback/<student>.pdf`` (with ``feedback`` on, ``feedback.pdf`` too) and, with
remedial decks, ``remedial/<student>.apkg``.

- ``scores.csv``: student, form, score, max, percent, then the points of each question
  number (empty for a short answer left ungraded, which counts in neither score nor max).
- ``mistakes.csv``: one row per answer that shows a named mistake: student, question
  (its number on the student's form), mistake, form, item (content id or
  ``problem:TYPE``), lesson (its title) and source (the paper's label).
- ``report.pdf``: the class report (Typst, like the quizzes): a histogram of scores,
  each question's difficulty and discrimination, the most common named mistakes with
  the lessons that teach them, and a short feedback section per student.
- ``feedback/<student>.pdf``: each student's exam back (``exporters.feedback``): the
  score, every answer beside the right one, the named mistakes, the worked solution of
  every question that lost points, where to read, the remedial deck's name;
  ``feedback.pdf`` is all of them in one file for printing, each from an odd page.

Everything is written into a folder beside the target and swapped in: a folder of
these files only is replaced whole; a folder that holds other files too (even inside
``remedial/``) keeps them, and the graded files are replaced one by one. CSV cells go
through ``csv_files.safe_cell`` (no cell runs as a formula); remedial decks are
readable by their owner only.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path

from ..documents.roster import student_key
from ..errors import Finding
from ..files.atomic import file_set, write_private
from ..files.csv_files import csv_bytes
from ..grading import Grading
from ..grading.analysis import BINS, Reading
from ..grading.key import KeyQuestion
from ..grading.scoring import Mark, StudentResult
from ..numerals import fixed
from ..presentation import build_time
from . import ExportOptions
from .plain_text import prose
from .typst import escape, markdown
from .typst.compile import compile_pdf, preamble

TOP_MISTAKES = 25
"""Named mistakes the report lists; mistakes.csv has every one."""
OUTPUTS = ("scores.csv", "mistakes.csv", "report.pdf", "feedback", "feedback.pdf", "remedial")
"""What a graded folder holds; a folder of these only is swapped whole."""
_TEMPLATE = resources.files("generator.exporters.typst").joinpath("grade.typ").read_text(encoding="utf-8")


def points_text(x: float | None) -> str:
    """Points as a spreadsheet reads them: at most four decimals, no trailing zeros."""
    return "" if x is None else fixed(x, 4)


def _write(path: Path, data: bytes) -> None:
    """A student's feedback is theirs: readable by its owner only, like the remedial decks."""
    if path.parent.name == "feedback":
        write_private(path, data)
    else:
        path.write_bytes(data)


def graded_file(path: Path) -> bool:
    """Whether a path (relative to the graded folder) is one of the files grading writes;
    anything else there (a user's ``remedial/README.txt``) is left alone."""
    if len(path.parts) == 1:
        return path.name in OUTPUTS
    folders = (("remedial", ".apkg"), ("feedback", ".pdf"))
    return len(path.parts) == 2 and (path.parts[0], path.suffix) in folders


def _student_id(grading: Grading, result: StudentResult) -> str:
    """The roster's ID of the student, if the row is on the form printed for them."""
    form = grading.key.forms[result.form]
    same = bool(form.student) and student_key(form.student) == student_key(result.student)
    return form.student_id if same else ""


def scores_csv(grading: Grading) -> bytes:
    """One row per student; with a roster that gave IDs, the ID beside the name (a gradebook's key)."""
    width = max((len(r.marks) for r in grading.results), default=0)
    ids = any(form.student_id for form in grading.key.forms.values())
    rows = [
        [
            "student",
            *(["id"] if ids else []),
            "form",
            "score",
            "max",
            "percent",
            *map(str, range(1, width + 1)),
        ]
    ]
    for r in grading.results:
        by_number = {m.number: m for m in r.marks}
        rows.append(
            [
                r.student,
                *([_student_id(grading, r)] if ids else []),
                r.form,
                points_text(r.score),
                points_text(r.max),
                f"{r.percent:.1f}",
                *(_points_cell(by_number[n]) if n in by_number else "" for n in range(1, width + 1)),
            ]
        )
    return csv_bytes(rows, grading.csv)


def mistakes_csv(grading: Grading) -> bytes:
    rows = [["student", "question", "mistake", "form", "item", "lesson", "source"]]
    for r in grading.results:
        form = grading.key.forms[r.form]
        for m in r.marks:
            if m.mistake:
                question = form.questions[m.number]
                where = grading.readings.lessons(question)[0]
                rows.append(
                    [
                        r.student,
                        str(m.number),
                        prose(m.mistake),
                        r.form,
                        question.item,
                        where.title,
                        where.source,
                    ]
                )
    return csv_bytes(rows, grading.csv)


# -- the report ------------------------------------------------------------------


def _percent(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.0f} %"


def _where(readings: tuple[Reading, ...]) -> str:
    parts = []
    for reading in readings:
        if reading.title:
            parts.append(
                f"{markdown(reading.title)} ({escape(reading.source)})"
                if reading.source
                else markdown(reading.title)
            )
        elif reading.source:
            parts.append(escape(f"the paper, {reading.source}"))
    return "; ".join(parts) or "—"


QUESTION_CHARACTERS = 90
"""Longest question text the report's table shows (as plain text; the id follows it)."""


def _question_text(item: str, prompts: dict[str, str]) -> str:
    """A question as the report's table names it: its text, short, then its id in small type
    (a problem: its type)."""
    if item.startswith("problem:"):
        return escape(f"{item.removeprefix('problem:')} problem (fresh numbers on every form)")
    text = " ".join(prose(prompts.get(item, "")).split())
    if len(text) > QUESTION_CHARACTERS:
        text = text[: QUESTION_CHARACTERS - 1].rstrip() + "…"
    shown = f"{escape(text)} " if text else ""
    return f"{shown}#text(size: 7.5pt, fill: luma(90))[{escape(item)}]"


def _item_name(question: KeyQuestion) -> str:
    if question.problem_type:
        return escape(f"{question.problem_type} problem")
    return escape(question.content_id)


def _points_cell(m: Mark) -> str:
    return "not read" if m.not_read else points_text(m.points)


def _wrong(question: KeyQuestion, m: Mark) -> str:
    if m.blank:
        what = "no answer"
    elif question.kind == "short_answer":
        what = "marked by hand"
    elif question.size > 1 and m.share:
        right = round(m.share * question.size)
        what = f"{right} of {question.size} numbers right"
    elif isinstance(m.answer, str):
        what = f"answered {m.answer}"
    else:
        what = "wrong"
    text = escape(what)
    if m.mistake:
        text += f": #emph[{markdown(m.mistake)}]"
    return text


def name_markup(name: str) -> str:
    """A student's name set apart from the text around it (a Typst box is laid out on its own):
    a right-to-left name keeps its place in a left-to-right line, and its digits stay its own."""
    return f"#box[{escape(name)}]"


def _student(grading: Grading, result: StudentResult) -> str:
    form = grading.key.forms[result.form]
    head = name_markup(result.student) + escape(
        f" · Form {result.form} · {points_text(result.score)} of "
        f"{points_text(result.max)} ({result.percent:.0f} %)"
    )
    lines = []
    ungraded = 0
    for m in result.marks:
        if m.not_read:
            lines.append(f"- *{m.number}.* {escape('not read: pending (in neither score nor max)')}\n")
            continue
        if m.share is None:
            ungraded += 1
            continue
        if m.share >= 1:
            continue
        question = form.questions[m.number]
        where = _where(grading.readings.lessons(question)[:1])
        lines.append(
            f"- *{m.number}.* {_item_name(question)}, {escape(points_text(m.points))}"
            f" of {escape(points_text(m.possible))} · {_wrong(question, m)} · read {where}\n"
        )
    if not lines:
        lines.append("Full marks on everything graded.\n")
    if ungraded:
        lines.append(escape(f"{ungraded} short answer{'s' if ungraded > 1 else ''} not graded yet.") + "\n")
    return f"#feedback([{head}], [\n{''.join(lines)}])\n"


def _roster_line(finding: Finding) -> str:
    return f"line {finding.line}: {finding.message}" if finding.line else finding.message


def report_source(grading: Grading, paper: str = "a4") -> str:
    """The Typst source of the class report."""
    key = grading.key
    title = key.title or key.quiz
    out = [preamble(paper, f"{title}: class report", "[Class report]", markdown(title)), _TEMPLATE, "\n"]
    results = grading.results
    percents = [r.percent for r in results]
    summary = (
        (
            f"{len(results)} students · {len(key.forms)} forms · "
            f"mean {statistics.fmean(percents):.1f} % · median {statistics.median(percents):.1f} %"
        )
        if results
        else "no students"
    )
    not_read = [(r, r.not_read) for r in results if r.not_read]
    if not_read:
        count = sum(len(numbers) for _, numbers in not_read)
        summary += (
            f" · {count} answer{'s' if count > 1 else ''} not read, pending (in neither score nor"
            " max; listed under Not read)"
        )
    if grading.review:
        summary += f" · {len(grading.review)} scan flags at the end"
    out.append(
        f'#align(center, text(size: 17pt, weight: "bold")[{markdown(title)}: class report])\n'
        f"#align(center, text(size: 10pt)[{escape(summary)}])\n"
    )
    out.append("#section-title([Scores], [students per band of the score, in percent])\n")
    labels = ", ".join(f"[{i * 100 // BINS}–{(i + 1) * 100 // BINS}]" for i in range(BINS))
    out.append(f"#histogram(({', '.join(map(str, grading.histogram))},), ({labels},))\n")
    out.append(
        "#section-title([Questions], [share correct: mean share of the points earned; "
        "discrimination: point-biserial correlation with the rest of the quiz])\n"
    )
    rows = []
    prompts = {q.id: q.prompt for lesson in grading.readings.content.lessons for q in lesson.questions}
    for stats in grading.items:
        disc = "—" if stats.discrimination is None else f"{stats.discrimination:.2f}"
        rows.append(
            f"[{_question_text(stats.item, prompts)}], [{markdown(stats.section)}],"
            f" [{stats.students}], [{_percent(stats.difficulty)}], [{escape(disc)}]"
        )
    out.append(
        "#table(columns: (2fr, 1fr, auto, auto, auto), inset: 4pt, align: (left, left, right, right,"
        " right), [*Question*], [*Section*], [*Students*], [*Share correct*], [*Discrimination*],\n"
        + ",\n".join(rows)
        + ")\n"
    )
    out.append(
        "#section-title([Named mistakes], [the most common first, with the lessons that teach them])\n"
    )
    if grading.mistakes:
        rows = [
            f"[{markdown(m.name)}], [{m.count}], [{m.students}], [{_where(m.readings)}]"
            for m in grading.mistakes[:TOP_MISTAKES]
        ]
        out.append(
            "#table(columns: (1fr, auto, auto, 1fr), inset: 4pt, [*Mistake*], [*Answers*],"
            " [*Students*], [*Read*],\n" + ",\n".join(rows) + ")\n"
        )
        if len(grading.mistakes) > TOP_MISTAKES:
            more = len(grading.mistakes) - TOP_MISTAKES
            out.append(escape(f"{more} more named mistake{'s' if more > 1 else ''} in mistakes.csv.") + "\n")
    else:
        out.append("No answer shows a named mistake.\n")
    if grading.roster:
        out.append("#section-title([Roster], [rows that do not match the roster the quiz was printed for])\n")
        out.extend(f"- {escape(_roster_line(finding))}\n" for finding in grading.roster)
    if grading.names:
        out.append(
            "#section-title([Names], [names that look like another without being it: one student "
            "typed twice, or two students? Graded apart; you decide])\n"
        )
        out.extend(f"- {escape(_roster_line(finding))}\n" for finding in grading.names)
    if not_read:
        out.append(
            "#section-title([Not read], [answers the scan could not read: pending, in neither score "
            "nor max, until the cell in the responses CSV is fixed and the class graded again])\n"
        )
        out.extend(
            f"- {name_markup(r.student)}{escape(f' (form {r.form}): question')}"
            f"{escape('s' if len(numbers) > 1 else '')} {escape(', '.join(map(str, numbers)))}\n"
            for r, numbers in not_read
        )
    out.append(
        "#pagebreak(weak: true)\n#section-title([Feedback], [per student: what lost points, "
        "the mistake it shows, where to read about it])\n"
    )
    out.extend(_student(grading, result) for result in results)
    if grading.review:
        where = f"; files relative to {grading.scans}" if grading.scans else ""
        out.append(
            f"#section-title([Scanning], [{len(grading.review)} to check: left empty, never "
            f"guessed; the review file beside the responses CSV shows each crop{escape(where)}])\n"
        )
        out.append("".join(f"- {escape(line)}\n" for line in grading.review))
    return "".join(out)


def report_pdf(grading: Grading, paper: str = "a4", timestamp: int | None = None) -> bytes:
    return compile_pdf(report_source(grading, paper), build_time(timestamp))


# -- writing the folder ----------------------------------------------------------


def export(grading: Grading, folder: Path, options: ExportOptions) -> list[Path]:
    """Write the scores, the mistakes, the report, each student's feedback (and remedial decks)
    into ``folder`` as one set; ``options.feedback`` adds every student's feedback in one print file."""
    from .feedback import feedback_source, stems
    from .print_items import figure_files
    from .quiz_forms import print_file
    from .typst.compile import parallelism, write_each

    timestamp = build_time(options.build_time)
    written = []
    with file_set(folder, graded_file) as staging:
        (staging / "scores.csv").write_bytes(scores_csv(grading))
        (staging / "mistakes.csv").write_bytes(mistakes_csv(grading))
        written += ["scores.csv", "mistakes.csv"]
        (staging / "feedback").mkdir()
        decks = {student: name for student, name, _ in grading.remedial}
        names = stems([r.student for r in grading.results])

        def jobs() -> Iterator[tuple[Path, Callable[[], bytes]]]:
            report = report_source(grading, options.paper)
            yield staging / "report.pdf", lambda: compile_pdf(report, timestamp)
            for result, stem in zip(grading.results, names, strict=True):
                deck = f"remedial/{decks[result.student]}" if result.student in decks else None
                source = feedback_source(grading, result, deck, options.paper, _TEMPLATE, options.figures)
                shown = figure_files(source, options.figures)  # a missed question's figure
                yield (
                    staging / "feedback" / f"{stem}.pdf",
                    lambda s=source, f=shown: compile_pdf(s, timestamp, files=f),  # type: ignore[misc]
                )

        width = 2 * parallelism() + 2
        written += [str(path.relative_to(staging)) for path, _ in write_each(jobs(), width, _write)]
        if options.feedback:
            print_file(
                ((staging / "feedback" / f"{stem}.pdf").read_bytes() for stem in names),
                staging / "feedback.pdf",
            )
            written.append("feedback.pdf")
        if grading.remedial:
            from .anki import build_package

            (staging / "remedial").mkdir()
            for _, name, deck in grading.remedial:
                write_private(staging / "remedial" / name, build_package(deck, options))
                written.append(f"remedial/{name}")
    return [Path(folder).resolve() / name for name in written]
