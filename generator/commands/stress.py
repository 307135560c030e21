"""``paperdeck stress``: N forms of a quiz recipe, every invariant checked."""

from __future__ import annotations

import click

from .options import Session, common_options, pass_session, seed_option


@click.command()
@click.argument("recipes", metavar="RECIPE...", nargs=-1)
@click.option(
    "--forms",
    "-n",
    type=click.IntRange(1, 1000),
    default=200,
    show_default=True,
    help="Forms to make and check per quiz.",
)
@seed_option
@common_options
@pass_session
def command(session: Session, recipes: tuple[str, ...], forms: int, seed: int | None) -> None:
    """Make N forms of each quiz (default: every quiz recipe) and check every invariant.

    Prints a table per quiz; exits non-zero if any invariant is violated.

    \b
    Example:
      paperdeck stress quiz-attention --forms 500
    """
    from ..content.recipes import QuizRecipe
    from ..documents import quiz
    from ..documents.stress import stress
    from ..errors import PaperdeckError

    project = session.project()
    chosen = (
        [project.quiz_recipe(name) for name in recipes]
        if recipes
        else [r for r in project.recipes.values() if isinstance(r, QuizRecipe)]
    )
    quiz_seed = session.seed(seed)
    failed = []
    for recipe in chosen:
        built = quiz.build_quiz(project.content, recipe, quiz_seed, forms, project.secret(session.note))
        report = stress(built)
        click.echo(report.table())
        if not report.ok:
            failed.append(recipe.id)
    if failed:
        raise PaperdeckError(f"invariants violated in {', '.join(failed)}")
