"""``paperdeck check``: validate the content and the recipes."""

from __future__ import annotations

import click

from .options import Session, common_options, pass_session


@click.command()
@click.option("--strict", is_flag=True,
              help="Numbers and quotes not grounded in the paper's source index are errors (exit 2).")
@common_options
@pass_session
def command(session: Session, strict: bool) -> None:
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
    from ..content.drafts import drafts

    waiting = drafts(content)
    if waiting:  # written by paperdeck import: build leaves them out until the author has read them
        click.echo(f"{len(waiting)} drafts to review (build leaves them out, build --drafts keeps them):",
                   err=True)
        for lesson, field, item in waiting:
            click.echo(f"  content/lessons/{lesson}.yaml: {field}: {item}", err=True)
    from ..grounding.check import report_grounding

    report_grounding(project.root, content, strict)
