"""``paperdeck check``: validate the content and the recipes."""

from __future__ import annotations

import click

from ..errors import Finding
from .options import Session, common_options, pass_session


@click.command()
@click.option(
    "--strict",
    is_flag=True,
    help="Numbers and quotes not grounded in the paper's source index are errors (exit 2).",
)
@common_options
@pass_session
def command(session: Session, strict: bool) -> None:
    """Validate the content and the recipes; report every problem.

    \b
    Example:
      paperdeck check
    """
    from ..errors import ContentError

    try:
        project = session.project()
    except ContentError:
        raise ContentError(_every_mistake(session)) from None  # the stages again, each run that can
    content = project.content
    count = sum(
        len(getattr(lesson, f))
        for lesson in content.lessons
        for f in ("concepts", "equations", "worked_examples", "flashcards", "clozes", "questions", "visuals")
    )
    click.echo(
        f"ok: {len(content.lessons)} lessons, {count} items, {len(project.recipes)} recipes in {project.root}"
    )
    from ..content.card_rules import card_rule_warnings

    advice = [*card_rule_warnings(content, project.root), *project.warnings]
    for warning in advice:  # teaching advice; exit code stays 0
        click.echo(str(warning), err=True)
    from ..content.drafts import drafts

    waiting = drafts(content)
    if waiting:  # written by paperdeck import: build leaves them out until the author has read them
        click.echo(
            f"{len(waiting)} drafts to review (build leaves them out, build --drafts keeps them):", err=True
        )
        for lesson, field, item in waiting:
            click.echo(f"  content/lessons/{lesson}.yaml: {field}: {item}", err=True)
    from ..grounding.check import report_grounding

    report_grounding(project.root, content, strict)


def _every_mistake(session: Session) -> list[Finding]:
    """Every mistake of a project that does not open, at once: the content as far as it builds,
    then its recipes against what built and its own problem types, each run once (opening
    the project stops at the first stage that fails, a recipe checked against content that
    did not load would report what is not there)."""
    from .. import problems
    from ..content.loader import read_content
    from ..content.recipes import load_recipes
    from ..errors import ContentError
    from ..problems.audit import type_warnings
    from ..project import find_root
    from ..project.kinds import recipe_classes

    root = find_root(session.project_dir)
    content, found, unbuilt = read_content(root)
    try:
        own_types = problems.load_project_types(root / "problems")
    except ContentError:  # reported by read_content; the types it would register are unknown
        own_types = None
    if content is not None and (root / "decks").is_dir():
        try:
            load_recipes(root, content, recipe_classes(), unbuilt)
        except ContentError as error:
            found += [
                p
                for p in error.problems
                if own_types is not None or not p.message.startswith("unknown problem type")
            ]
    if own_types is not None:
        try:
            type_warnings(own_types)
        except ContentError as error:  # (a failure a worked example met already names its line)
            named = " ".join(f.message for f in found)
            found += [p for p in error.problems if f"({p.path}:{p.line})" not in named]
    return found
