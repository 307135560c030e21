"""``paperdeck quiz``: the forms of a quiz recipe and their key, as PDFs."""

from __future__ import annotations

from pathlib import Path

import click

from .options import Session, common_options, paper_option, pass_session, seed_option


@click.command(name="quiz")
@click.argument("recipe", required=False)
@click.option("--versions", "-k", type=click.IntRange(1, 26), help="Forms A, B, … (default: the recipe's).")
@seed_option
@click.option("--out", type=click.Path(path_type=Path),
              help="Output folder (default: out/RECIPE/).")
@paper_option
@common_options
@pass_session
def command(session: Session, recipe: str | None, versions: int | None, seed: int | None,
            out: Path | None, paper: str) -> None:
    """Print K forms of a quiz and its answer key as PDFs.

    \b
    Example:
      paperdeck quiz quiz-attention --versions 3 --seed 11 --paper letter
    """
    from .. import exporters, quiz
    from ..outputs import output_folder

    project = session.project()
    chosen = project.quiz_recipe(recipe)
    out = output_folder(out or project.out / chosen.id, session.note)
    forms = quiz.build_quiz(project.content, chosen, session.seed(seed), versions or chosen.versions)
    for path in exporters.get("quiz").export(forms, out, exporters.ExportOptions(paper=paper)):
        session.note(f"wrote {path}")
