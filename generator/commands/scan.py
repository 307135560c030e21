"""``paperdeck scan``: scanned answer sheets to the responses CSV ``grade`` reads, and a review file."""

from __future__ import annotations

from pathlib import Path

import click

from .options import Session, common_options, pass_session


@click.command(name="scan")
@click.argument("key", metavar="QUIZ-KEY.json", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("scans", metavar="SCANS...", nargs=-1, required=True,
                type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path),
              help="The responses CSV (default: <quiz>-responses.csv beside the key); "
                   "the review file is written beside it (.review.html).")
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
    from ..scanning import scan, write

    scanned = scan(key, scans)
    csv_path = out or key.with_name(key.name.removesuffix("-key.json") + "-responses.csv")
    review = review_path(csv_path)
    write(scanned, csv_path, review)
    session.say(f"wrote {csv_path}")
    session.say(f"wrote {review}")
    session.note(f"read {scanned.pages} pages: {len(scanned.sheets)} sheets, "
                 f"{len(scanned.flags)} to check (see {review})")


def review_path(csv_path: Path) -> Path:
    """The review file beside a responses CSV."""
    return csv_path.with_name(csv_path.stem + ".review.html")
