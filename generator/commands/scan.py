"""``paperdeck scan``: scanned answer sheets to the responses CSV ``grade`` reads, and a review file."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .options import Session, common_options, pass_session

if TYPE_CHECKING:
    from ..scanning import Scanned


@click.command(name="scan")
@click.argument("key", metavar="QUIZ-KEY.json", type=click.Path(path_type=Path))
@click.argument(
    "scans", metavar="SCANS...", nargs=-1, required=True, type=click.Path(path_type=Path)
)  # checked by scanning.pages: a folder is one line
@click.option(
    "-o",
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The responses CSV (default: scanned/responses.csv beside the key); "
    "the review file is written beside it (responses.review.html). A CSV you "
    "edited there is kept, and this scan written beside it (responses-2.csv).",
)
@common_options
@pass_session
def command(session: Session, key: Path, scans: tuple[Path, ...], out: Path | None) -> None:
    """Read the answer sheets in SCANS (PDF, PNG, JPEG, TIFF) against QUIZ-KEY.json.

    Writes the responses CSV that `paperdeck grade` reads and a review file listing
    every answer not read (faint, double, crossed out, an empty digit column), every
    page that is not a sheet of this quiz, scanned twice or missing, each with its
    crop and the CSV cell to fix. Nothing is guessed.

    \b
    Example:
      paperdeck scan out/quiz-attention/quiz-attention-key.json scans/*.pdf
    """
    scan_to_csv(session, key, scans, out)


def scan_to_csv(
    session: Session, key: Path, scans: Sequence[Path], out: Path | None = None
) -> tuple[Path, Scanned]:
    """Scan, write the responses CSV (``out`` or beside the key) and its review file; report.

    A CSV the teacher edited there is kept and the scan written beside it (``scanning.outputs.write``);
    the path returned is the one written, which ``grade --scans`` grades."""
    from ..scanning import scan, write

    scanned = scan(key, scans)
    # Not <quiz>-…: a later paperdeck quiz into that folder replaces the files named so.
    written = write(scanned, out or key.parent / "scanned" / "responses.csv")
    if written.kept is not None:
        session.note(
            f"kept {written.kept}: it was changed after paperdeck scan wrote it (your fixes); "
            f"this scan is written beside it, to {written.csv} (to grade your fixes: "
            f"paperdeck grade {key} {written.kept})"
        )
    session.say(f"wrote {written.csv}")
    session.say(f"wrote {written.review}")
    session.note(
        f"read {scanned.pages} pages: {len(scanned.sheets)} sheets into {written.csv}, "
        f"{len(scanned.flags)} to check (see {written.review})"
    )
    return written.csv, scanned
