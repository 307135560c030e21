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


@click.command()
@click.argument("types", metavar="TYPE...", nargs=-1, required=True)
@click.option(
    "-n", "count", type=click.IntRange(min=1), default=5, show_default=True, help="Problems of each type."
)
@seed_option
@difficulty_option
@click.option(
    "-o",
    "output",
    type=click.Path(path_type=Path),
    required=True,
    help="FILE.apkg (an Anki practice set) or FILE.pdf (a printable sheet).",
)
@click.option(
    "--variants",
    type=click.IntRange(1, 62),
    default=31,
    show_default=True,
    help="Problems each Anki card rotates through, one a day (1: fixed until you regenerate).",
)
@click.option(
    "--new-set",
    "set_name",
    metavar="NAME",
    help="Start a separate practice set beside the old one instead of refreshing it.",
)
@paper_option
@common_options
@pass_session
def command(
    session: Session,
    types: tuple[str, ...],
    count: int,
    seed: int | None,
    difficulty: str,
    output: Path,
    variants: int,
    set_name: str | None,
    paper: str | None,
) -> None:
    """Regenerate randomized practice as an Anki set or a printable sheet.

    By default the Anki set keeps its slots: re-importing it gives the same notes
    new numbers and keeps your review history.

    \b
    Example:
      paperdeck practice sdpa softmax -n 10 -o practice.apkg
    """
    from .. import exporters, problems
    from ..content.recipes import MAX_PROBLEMS, ProblemSet
    from ..documents import items
    from .outputs import output_file

    project = session.project()  # first: it registers the project's own problem types
    problems.get_each(types)  # every unknown type at once, a line each
    if len(set(types)) < len(types):
        raise UsageError("each problem type once, please: a type named twice would fill the same notes")
    if output.suffix.lower() != ".apkg":
        variants = 1  # a printed sheet shows one problem per slot
        if len(types) * count > MAX_PROBLEMS:
            raise UsageError(
                f"{len(types) * count:,} problems is more than {MAX_PROBLEMS:,} on one sheet; "
                "ask for fewer problems"
            )
    elif len(types) * count * variants > MAX_PROBLEMS:
        raise UsageError(
            f"{len(types) * count} problems × {variants} variants is more than {MAX_PROBLEMS:,} "
            "problems in one Anki set (each note would carry them all); "
            "ask for fewer problems or fewer --variants"
        )
    output = output_file(output, FORMATS, session.note)
    sets = [ProblemSet(type_id, count, difficulty, variants) for type_id in types]  # type: ignore[arg-type]
    built = items.build_practice(
        project.content, sets, session.seed(seed), set_name or "practice", session.track
    )
    exporter = {".apkg": exporters.to_anki, ".pdf": exporters.to_practice_sheet}[output.suffix.lower()]
    exporter.export(built, output, exporters.ExportOptions(paper=project.paper(paper)))
    session.note(f"wrote {output} ({len(built.items)} problems)")
