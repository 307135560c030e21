"""``paperdeck import``: a paper's LaTeX source becomes a new project (``generator.importing``)."""

from __future__ import annotations

from pathlib import Path

import click

from .options import Session, common_options, pass_session


@click.command(name="import")
@click.argument("source", type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--out",
    "folder",
    type=click.Path(path_type=Path),
    default=None,
    help="The project folder to write (default: a folder named after SOURCE).",
)
@click.option(
    "--main", metavar="FILE", default=None, help="The main .tex file, when the source holds several."
)
@common_options
@pass_session
def command(session: Session, source: Path, folder: Path | None, main: str | None) -> None:
    """Make a project from a paper's LaTeX source: an arXiv tarball (.tar.gz, .tar or the
    gzipped .tex of a one-file paper), a folder, or a main .tex. LaTeXML converts it in a
    sandbox; a project that exists keeps its content/ and decks/ as they are.

    \b
    Example:
      paperdeck import 1706.03762.tar.gz -o attention
      cd attention && paperdeck check && paperdeck build
    """
    from ..importing.run import import_paper

    if folder is None:
        folder = Path(source.name.split(".tar")[0].removesuffix(".gz").removesuffix(".tex") or "paper")
    if folder.exists() and not folder.is_dir():
        from ..errors import UsageError

        raise UsageError(f"{folder} is a file; name a folder for the project")
    imported = import_paper(source, folder, main=main, say=session.note)
    session.note(f"imported in {imported.seconds:.1f} s into {folder}; next: cd {folder} && paperdeck check")
