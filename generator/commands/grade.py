"""``paperdeck grade``: a class's answers against a quiz's key JSON."""

from __future__ import annotations

from pathlib import Path

import click

from .options import Session, common_options, paper_option, pass_session, seed_option


@click.command(name="grade")
@click.argument("key", metavar="QUIZ-KEY.json", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("responses", metavar="RESPONSES.csv", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--out", type=click.Path(file_okay=False, path_type=Path),
              help="Output folder (default: graded/ beside the key).")
@click.option("--remedial", is_flag=True,
              help="Also write an Anki deck per student: fresh problems of the types they missed and "
                   "the cards of the lessons their mistakes come from.")
@click.option("--strict", is_flag=True,
              help="Refuse rows that do not match the quiz's roster (another student's form, a name not "
                   "on it, a student with no row) instead of reporting them.")
@click.option("--feedback", is_flag=True,
              help="Also write feedback.pdf: every student's feedback in one file for printing.")
@seed_option
@paper_option
@common_options
@pass_session
def command(session: Session, key: Path, responses: Path, out: Path | None, remedial: bool, strict: bool,
            feedback: bool,
            seed: int | None, paper: str | None) -> None:
    """Grade RESPONSES.csv (student, form, 1, 2, …) against QUIZ-KEY.json.

    Writes scores.csv, mistakes.csv (every answer that shows a named mistake),
    report.pdf (histogram, difficulty and discrimination per question, common
    mistakes), feedback/<student>.pdf (each student's exam back: answers, the
    right ones, named mistakes, worked solutions of what they missed, where to
    read), all on the quiz's paper; with --feedback, feedback.pdf (all of them,
    for printing); with --remedial, remedial/<student>.apkg. For a quiz printed
    from a roster, rows that do not match it are reported (errors with --strict).
    A failed run writes nothing.

    \b
    Example:
      paperdeck grade out/quiz-attention/quiz-attention-key.json answers.csv --remedial
    """
    from .. import exporters
    from ..grading import grade_quiz
    from ..outputs import output_folder

    project = session.project()
    out = output_folder(out or key.parent / "graded", session.note, named=out is not None, create=False)
    existed = out.exists()
    remedial_seed = session.seed(seed) if remedial else None
    graded = grade_quiz(key, responses, project.content, remedial_seed, session.note, strict)
    # The report and feedback print on the quiz's paper unless --paper says otherwise.
    options = exporters.ExportOptions(paper=paper or graded.key.paper or project.paper(None),
                                      feedback=feedback)
    written = exporters.get("graded").export(graded, out, options)
    if not existed:
        session.note(f"created folder {out}")
    for path in written:
        session.say(f"wrote {path}")
    mistakes = sum(m.count for m in graded.mistakes)
    decks = f" and {len(graded.remedial)} remedial decks" if remedial else ""
    printed = ", feedback.pdf" if feedback else ""
    session.note(f"graded {len(graded.results)} students: {mistakes} answers show a named mistake; "
                 f"wrote scores.csv, mistakes.csv, report.pdf, feedback/ ({len(graded.results)} PDFs)"
                 f"{printed}{decks} into {out}")
