"""``paperdeck practice``: fresh randomized problems as an Anki set or a printable sheet."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import UsageError
from .options import (
    Session,
    common_options,
    difficulty_option,
    paper_option,
    pass_session,
    seed_option,
)

FORMATS = {".apkg": "an Anki practice set", ".pdf": "a printable practice sheet"}
EXPORTERS = {".apkg": "anki", ".pdf": "practice-sheet"}


@click.command()
@click.argument("types", metavar="TYPE...", nargs=-1, required=True)
@click.option("-n", "count", type=click.IntRange(min=1), default=5, show_default=True,
              help="Problems of each type.")
@seed_option
@difficulty_option
@click.option("-o", "output", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="FILE.apkg (an Anki practice set) or FILE.pdf (a printable sheet).")
@click.option("--new-set", "set_name", metavar="NAME",
              help="Start a separate practice set beside the old one instead of refreshing it.")
@paper_option
@common_options
@pass_session
def command(session: Session, types: tuple[str, ...], count: int, seed: int | None,
            difficulty: str, output: Path, set_name: str | None, paper: str | None) -> None:
    """Regenerate randomized practice as an Anki set or a printable sheet.

    By default the Anki set keeps its slots: re-importing it gives the same notes
    new numbers and keeps your review history.

    \b
    Example:
      paperdeck practice sdpa softmax -n 10 -o practice.apkg
    """
    from .. import exporters, items, problems
    from ..outputs import output_file
    from ..recipes import ProblemSet

    output = output_file(output, FORMATS, session.note)
    for type_id in types:
        problems.get(type_id)
    if len(set(types)) < len(types):
        raise UsageError("each problem type once, please: a type named twice would fill the same notes")
    project = session.project()
    sets = [ProblemSet(type_id, count, difficulty) for type_id in types]  # type: ignore[arg-type]
    built = items.build_practice(project.content, sets, session.seed(seed), set_name or "practice",
                                 session.track)
    exporter = exporters.get(EXPORTERS[output.suffix.lower()])
    exporter.export(built, output, exporters.ExportOptions(paper=project.paper(paper)))
    session.note(f"wrote {output} ({len(built.items)} problems)")
