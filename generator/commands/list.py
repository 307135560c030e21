"""``paperdeck list``: lessons in teaching order, problem types, visual kinds, recipes."""

from __future__ import annotations

import re

import click

from .options import Session, common_options, pass_session


@click.command(name="list")
@common_options
@pass_session
def command(session: Session) -> None:
    """Show the lessons in teaching order, problem types, visual kinds and recipes.

    \b
    Example:
      paperdeck list
    """
    from .. import problems, visuals

    project = session.project()
    click.echo(f"{project.content.paper.title} ({project.content.paper.year})")
    click.echo("\nLessons:")
    for number, lesson in enumerate(project.content.lessons, 1):
        click.echo(f"  {number:2d}. {lesson.title}  [{lesson.id}; {', '.join(lesson.sources)}]")
    click.echo("\nProblem types:")
    types = problems.all_types()
    kinds = visuals.kinds()
    width = max(map(len, [*types, *kinds]))
    for type_id, problem_type in types.items():
        click.echo(f"  {type_id:<{width}}  {problem_type.description}")
    click.echo("\nVisual kinds:")
    for kind, description in kinds.items():
        click.echo(f"  {kind:<{width}}  {description}")
    click.echo("\nRecipes:")
    # By title in natural order (Quiz 2 before Quiz 10), as a reader looks for them.
    for recipe_id, recipe in sorted(project.recipes.items(), key=lambda pair: _natural(pair[1].title)):
        click.echo(f"  {recipe_id}  ({recipe.kind}: {recipe.title})")


def _natural(title: str) -> list[tuple[int, int | str]]:
    """A sort key that orders the numbers in a title by value: ``Quiz 2`` before ``Quiz 10``."""
    return [
        (0, int(part)) if part.isdigit() else (1, part.casefold())
        for part in re.split(r"(\d+)", title)
        if part
    ]
