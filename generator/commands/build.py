"""``paperdeck build``: every recipe of the project into the output folder."""

from __future__ import annotations

from pathlib import Path

import click

from .options import Session, common_options, paper_option, pass_session, seed_option


@click.command()
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="Output folder (default: out/ in the project, or here for the bundled paper).")
@seed_option
@paper_option
@common_options
@pass_session
def command(session: Session, out: Path | None, seed: int | None, paper: str | None) -> None:
    """Build every recipe in decks/ into the output folder.

    A quiz issued by `paperdeck quiz` in the output folder is left alone (and said so).

    \b
    Example:
      paperdeck build --out out/ --seed 7
    """
    from ..documents.build import BuildOptions, build_recipe
    from .outputs import output_folder

    project = session.project()
    out = output_folder(out or project.out, session.note, named=out is not None)
    options = BuildOptions(session.seed(seed), paper, project.secret(session.note))
    recipes = iter(project.recipes.values())
    written = 0
    for recipe in session.track(recipes, len(project.recipes), "building", shortest=1):
        session.say(f"building {recipe.kind} {recipe.id}")
        for path in build_recipe(project, recipe, out, options, session.note):
            session.say(f"wrote {path}")
            written += 1
    session.note(f"built {len(project.recipes)} recipes into {out} ({written} files)")
