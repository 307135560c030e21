"""``paperdeck grade``: a class's answers against a quiz's key JSON."""

from __future__ import annotations

from pathlib import Path

import click

from .options import Session, common_options, paper_option, pass_session, seed_option


@click.command(name="grade")
@click.argument("key", metavar="QUIZ-KEY.json", type=click.Path(path_type=Path))
@click.argument(
    "responses",
    metavar="RESPONSES.csv | SCANS...",
    nargs=-1,
    required=True,
    type=click.Path(path_type=Path),
)
@click.option(
    "--scans",
    is_flag=True,
    help="The files are scanned answer sheets: read them first (as paperdeck scan does, "
    "into scanned/responses.csv beside the key) and grade what they say.",
)
@click.option(
    "-o",
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Output folder (default: graded/ beside the key).",
)
@click.option(
    "--remedial",
    is_flag=True,
    help="Also write an Anki deck per student: fresh problems of the types they missed and "
    "the cards of the lessons their mistakes come from.",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Refuse rows that do not match the quiz's roster (another student's form, a name not "
    "on it, a student with no row) instead of reporting them.",
)
@click.option(
    "--csv",
    "csv_dialect",
    type=click.Choice(["comma", "excel"]),
    default=None,
    help="How scores.csv and mistakes.csv are written: comma (comma-separated UTF-8) or excel "
    "(';' and a byte-order mark, as Excel saves CSV UTF-8 where the decimal separator is a "
    "comma). Default: as the responses CSV came.",
)
@click.option(
    "--feedback",
    is_flag=True,
    help="Also write feedback.pdf: every student's feedback in one file for printing.",
)
@seed_option
@paper_option
@common_options
@pass_session
def command(
    session: Session,
    key: Path,
    responses: tuple[Path, ...],
    scans: bool,
    out: Path | None,
    remedial: bool,
    strict: bool,
    csv_dialect: str | None,
    feedback: bool,
    seed: int | None,
    paper: str | None,
) -> None:
    """Grade RESPONSES.csv (student, form, 1, 2, …) against QUIZ-KEY.json.

    Writes scores.csv, mistakes.csv (every answer that shows a named mistake),
    report.pdf (histogram, difficulty and discrimination per question, common
    mistakes), feedback/<student>.pdf (each student's exam back: answers, the
    right ones, named mistakes, worked solutions of what they missed, where to
    read), all on the quiz's paper; with --feedback, feedback.pdf (all of them,
    for printing); with --remedial, remedial/<student>.apkg. For a quiz printed
    from a roster, rows that do not match it are reported (errors with --strict).
    A failed run writes nothing.

    With --scans, the files are scanned answer sheets, read as `paperdeck scan`
    reads them; what needs checking is listed in the report too.

    \b
    Example:
      paperdeck grade out/quiz-attention/quiz-attention-key.json answers.csv --remedial
      paperdeck grade out/quiz-attention/quiz-attention-key.json --scans scans/*.pdf
    """
    from dataclasses import replace

    from .. import exporters
    from ..errors import UsageError
    from ..files.csv_files import DIALECTS
    from ..grading import grade_quiz
    from .outputs import output_folder

    if not scans and len(responses) != 1:
        raise UsageError(f"give one RESPONSES.csv, not {len(responses)} files (scans: add --scans)")
    if not scans and responses[0].is_dir():
        raise UsageError(f"{responses[0]}: a folder, not a RESPONSES.csv (scans: add --scans)")
    project = session.project()
    out = output_folder(out or key.parent / "graded", session.note, named=out is not None, create=False)
    existed = out.exists()
    remedial_seed = session.seed(seed) if remedial else None
    review: tuple[str, ...] = ()
    folder = ""
    csv_path = responses[0]
    if scans:
        from .scan import scan_to_csv

        csv_path, scanned = scan_to_csv(session, key, responses)
        review = tuple(flag.line for flag in scanned.flags)
        folder, review = _relative_to_scans(responses, review)
    graded = grade_quiz(
        key,
        csv_path,
        project.content,
        remedial_seed,
        session.note,
        strict,
        DIALECTS[csv_dialect] if csv_dialect else None,
    )
    graded = replace(graded, review=review, scans=folder if scans else "")
    # The report and feedback print on the quiz's paper unless --paper says otherwise.
    options = exporters.ExportOptions(
        paper=paper or graded.key.paper or project.paper(None), feedback=feedback
    )
    written = exporters.to_graded.export(graded, out, options)
    if not existed:
        session.note(f"created folder {out}")
    for path in written:
        session.say(f"wrote {path}")
    mistakes = sum(m.count for m in graded.mistakes)
    decks = f" and {len(graded.remedial)} remedial decks" if remedial else ""
    printed = ", feedback.pdf" if feedback else ""
    session.note(
        f"graded {len(graded.results)} students: {mistakes} answers show a named mistake; "
        f"wrote scores.csv, mistakes.csv, report.pdf, feedback/ ({len(graded.results)} PDFs)"
        f"{printed}{decks} into {out}"
    )


def _relative_to_scans(scans: tuple[Path, ...], lines: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """The folder holding every scan, and the review's lines with each scan's file name relative
    to it (a line starts with the file, as the scan was given)."""
    import os

    absolute = [os.path.abspath(scan) for scan in scans]
    folder = os.path.commonpath([os.path.dirname(path) for path in absolute]) if absolute else ""
    names = sorted(
        ((str(scan), os.path.relpath(path, folder)) for scan, path in zip(scans, absolute, strict=True)),
        key=lambda pair: -len(pair[0]),
    )
    relative = []
    for line in lines:
        for given, shown in names:
            if line.startswith(f"{given} page "):
                line = shown + line[len(given) :]
                break
        relative.append(line)
    return folder, tuple(relative)
