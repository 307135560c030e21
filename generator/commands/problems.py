"""``paperdeck problems``: randomized problems of one type with their keys, printed."""

from __future__ import annotations

import sys
from typing import Any

import click

from .options import Session, common_options, difficulty_option, pass_session, seed_option


@click.command(name="problems")
@click.argument("type_id", metavar="TYPE")
@click.option("-n", "count", type=click.IntRange(min=0), default=5, show_default=True,
              help="How many problems.")
@seed_option
@difficulty_option
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json"]), default="text",
              show_default=True)
@click.option("--problem-seed", type=click.IntRange(min=0),
              help="Regenerate the one problem that carries this seed.")
@common_options
@pass_session
def command(session: Session, type_id: str, count: int, seed: int | None, difficulty: str,
            fmt: str, problem_seed: int | None) -> None:
    """Print randomized problems of TYPE with their keys.

    \b
    Example:
      paperdeck problems sdpa -n 3 --seed 42 --format json
    """
    from .. import problems
    from ..exporters.problem_text import as_markdown, json_stream, text_stream
    from ..project import find_root

    problems.load_project_types(find_root(session.project_dir) / "problems")
    problems.get(type_id)
    if problem_seed is not None:
        generated: Any = iter([problems.generate_one(type_id, problem_seed, difficulty)])
    else:
        generated = problems.generate(type_id, count, session.seed(seed), difficulty)
    if fmt == "markdown":
        for problem in generated:
            click.echo(as_markdown(problem))
        return
    for chunk in (json_stream if fmt == "json" else text_stream)(generated):
        sys.stdout.write(chunk)
