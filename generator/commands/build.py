"""``paperdeck build``: every recipe of the project into the output folder, each recipe's kind
(``project/kinds.py``) naming its document and exporter (the orchestration lives here, in the
command layer: the documents know no exporter)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .options import Session, common_options, paper_option, pass_session, seed_option

if TYPE_CHECKING:  # the kinds, documents and exporters are imported when a build runs, not for --help
    from ..content.recipes import Recipe
    from ..project import Project
    from ..project.kinds import BuildOptions


def build_recipe(
    project: Project,
    recipe: Recipe,
    out: Path,
    options: BuildOptions,
    note: Callable[[str], None] = lambda _: None,
) -> list[Path]:
    """Build one recipe; returns the files written. A quiz issued by ``paperdeck quiz`` is
    left alone (``note`` says so): only ``paperdeck quiz --replace`` replaces it."""
    from .. import exporters
    from ..files.issued import existing_key
    from ..project.kinds import KINDS

    kind = KINDS[recipe.kind]
    target = out / kind.target.format(recipe.id)
    if recipe.kind == "quiz":
        found = existing_key(target, recipe.id)
        if found is not None and found.issued:
            note(
                f"left {found.path.parent} alone: it holds an issued quiz ({found.describe()}); "
                f"paperdeck quiz {recipe.id} --replace replaces it"
            )
            return []
    export_options = exporters.ExportOptions(paper=project.paper(options.paper, recipe))
    return kind.exporter.export(kind.document(project.content, recipe, options), target, export_options)


def _made_by_a_build(folder: Path, recipe: str) -> bool:
    """Whether ``folder`` holds what a build leaves in a recipe's folder (``RecipeKind.mark``):
    a site's record, a quiz's key."""
    from ..project.kinds import KINDS

    return any((folder / kind.mark.format(recipe)).is_file() for kind in KINDS.values() if kind.mark)


@click.command()
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Output folder (default: out/ in the project, or here for the bundled paper).",
)
@click.option(
    "--drafts", is_flag=True, help="Keep the items marked draft (paperdeck import writes them for review)."
)
@click.option(
    "--exam",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default=None,
    metavar="YYYY-MM-DD",
    help="Your exam's date: each deck paces its new cards to finish a week before it and "
    "gets a plan beside it, and each site's review page starts with it (overrides the "
    "recipes' exam:).",
)
@click.option(
    "--retention",
    type=float,
    default=None,
    metavar="0.85",
    help="A desired retention for FSRS (0.70 to 0.99) written into each deck as its own "
    "(overrides a deck recipe's retention:); never set unless asked, as it changes how FSRS "
    "schedules the deck.",
)
@seed_option
@paper_option
@common_options
@pass_session
def command(
    session: Session,
    out: Path | None,
    seed: int | None,
    paper: str | None,
    drafts: bool,
    exam: datetime | None,
    retention: float | None,
) -> None:
    """Build every recipe in decks/ into the output folder.

    A quiz issued by `paperdeck quiz` in the output folder is left alone (and said so).

    \b
    Example:
      paperdeck build --out out/ --seed 7
    """
    from .outputs import output_folder, refuse_project_folder

    project = session.project()
    if not drafts:  # items paperdeck import wrote that no one has reviewed yet
        from ..content.drafts import without_drafts

        project = replace(project, content=without_drafts(project.content))
    if exam is not None:  # every deck's pace (documents/plan.py)
        paced = {
            k: replace(r, exam=exam.date().isoformat()) if r.kind in ("deck", "site") else r
            for k, r in project.recipes.items()
        }
        project = replace(project, recipes=paced)
    if retention is not None:  # every deck's own desired retention (exporters/anki/package.py)
        from ..content.recipes import retention_error

        if wrong := retention_error(retention):
            raise click.BadParameter(wrong, param_hint="'--retention'")
        kept = {
            k: replace(r, retention=retention) if r.kind == "deck" else r for k, r in project.recipes.items()
        }
        project = replace(project, recipes=kept)
    from ..project.kinds import FOLDER, KINDS, BuildOptions

    for recipe in project.recipes.values():  # before anything is written
        if KINDS[recipe.kind].target == FOLDER:
            refuse_project_folder(
                (out or project.out) / recipe.id,
                project.out.parent,
                project.out,
                functools.partial(_made_by_a_build, recipe=recipe.id),
            )
    out = output_folder(out or project.out, session.note, named=out is not None)
    options = BuildOptions(session.seed(seed), paper, project.secret(session.note))
    recipes = iter(project.recipes.values())
    written = 0
    for recipe in session.track(recipes, len(project.recipes), "building", shortest=1):
        session.say(f"building {recipe.kind} {recipe.id}")
        for path in build_recipe(project, recipe, out, options, session.note):
            session.say(f"wrote {path}")
            written += 1
            if path.name.endswith("-plan.txt"):  # a deck's pace and how to get it into Anki
                session.note(" ".join(path.read_text(encoding="utf-8").splitlines()[:2]))
    session.note(f"built {len(project.recipes)} recipes into {out} ({written} files)")
