"""``paperdeck check``: validate the content and the recipes."""

from __future__ import annotations

import click

from .options import Session, common_options, pass_session


@click.command()
@common_options
@pass_session
def command(session: Session) -> None:
    """Validate the content and the recipes; report every problem.

    \b
    Example:
      paperdeck check
    """
    project = session.project()
    content = project.content
    count = sum(len(getattr(lesson, f)) for lesson in content.lessons
                for f in ("concepts", "equations", "worked_examples", "flashcards", "clozes",
                          "questions", "visuals"))
    click.echo(f"ok: {len(content.lessons)} lessons, {count} items, "
               f"{len(project.recipes)} recipes in {project.root}")
    for warning in project.warnings:  # teaching advice; exit code stays 0
        click.echo(str(warning), err=True)
