"""``paperdeck deck``: the Anki deck of one deck recipe."""

from __future__ import annotations

from pathlib import Path

import click

from .options import Session, common_options, pass_session, seed_option


@click.command()
@click.argument("recipe", required=False)
@click.option(
    "-o", "output", type=click.Path(path_type=Path), help="The .apkg to write (default: out/RECIPE.apkg)."
)
@seed_option
@common_options
@pass_session
def command(session: Session, recipe: str | None, output: Path | None, seed: int | None) -> None:
    """Write the Anki deck of RECIPE (default: the first deck recipe).

    \b
    Example:
      paperdeck deck aiayn -o attention.apkg --seed 3
    """
    from .. import exporters
    from ..documents import items
    from .outputs import output_file

    project = session.project()
    chosen = project.deck_recipe(recipe)
    output = output_file(
        output or project.out / f"{chosen.id}.apkg",
        {".apkg": "an Anki deck"},
        session.note,
        named=output is not None,
    )
    built = items.build_deck(project.content, chosen, session.seed(seed))
    exporters.to_anki.export(built, output, exporters.ExportOptions())
    session.note(f"wrote {output} ({len(built.items)} notes)")
