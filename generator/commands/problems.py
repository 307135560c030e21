"""``paperdeck problems``: randomized problems of one type with their keys, printed."""

from __future__ import annotations

import sys
from typing import Any

import click
from click.core import ParameterSource

from ..errors import UsageError
from .options import Session, common_options, difficulty_option, pass_session, seed_option


class _ListsTypes(click.Command):
    """``--help`` ends with the problem types TYPE can be (the project's own too)."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from .. import problems
        from ..project import find_root

        session = ctx.find_object(Session)
        try:
            problems.load_project_types(find_root(session.project_dir if session else None) / "problems")
        except Exception:  # noqa: BLE001 - help lists what loads; `check` reports the rest
            pass
        with formatter.section("Problem types"):
            formatter.write_dl([(type_id, t.description) for type_id, t in problems.all_types().items()])
        super().format_epilog(ctx, formatter)


@click.command(name="problems", cls=_ListsTypes)
@click.argument("type_id", metavar="TYPE")
@click.option(
    "-n", "count", type=click.IntRange(min=1), default=5, show_default=True, help="How many problems."
)
@seed_option
@difficulty_option
@click.option(
    "--format", "fmt", type=click.Choice(["text", "markdown", "json"]), default="text", show_default=True
)
@click.option(
    "--problem-seed",
    type=click.IntRange(min=0),
    help="Regenerate the one problem that carries this seed; give its -d as its card, sheet or key shows it.",
)
@common_options
@pass_session
@click.pass_context
def command(
    ctx: click.Context,
    session: Session,
    type_id: str,
    count: int,
    seed: int | None,
    difficulty: str,
    fmt: str,
    problem_seed: int | None,
) -> None:
    """Print randomized problems of TYPE with their keys.

    \b
    Example:
      paperdeck problems sdpa -n 3 --seed 42 --format json
      paperdeck problems sdpa --problem-seed 3797811947 -d medium
    """
    from .. import problems
    from ..exporters.problem_text import as_markdown, json_stream, text_stream
    from ..project import find_root

    problems.load_project_types(find_root(session.project_dir) / "problems")
    problems.get(type_id)
    if problem_seed is not None:
        _check_problem_seed(ctx, problem_seed, type_id, count)
        generated: Any = iter([problems.generate_one(type_id, problem_seed, difficulty)])
    else:
        generated = problems.generate(type_id, count, session.seed(seed), difficulty)
    if fmt == "markdown":
        for problem in generated:
            click.echo(as_markdown(problem))
        return
    for chunk in (json_stream if fmt == "json" else text_stream)(generated):
        sys.stdout.write(chunk)


def _check_problem_seed(ctx: click.Context, problem_seed: int, type_id: str, count: int) -> None:
    """A problem seed names one problem only with its difficulty, and is one problem."""
    given = {
        name
        for name in ("count", "seed", "difficulty")
        if ctx.get_parameter_source(name) not in (ParameterSource.DEFAULT, None)
    }
    if count == 1:
        given.discard("count")  # -n 1 asks for the one problem the seed names
    if "count" in given or "seed" in given:
        option = "-n" if "count" in given else "--seed"
        raise UsageError(
            f"--problem-seed regenerates one problem; {option} is for a set of them "
            f"(drop {option}, or drop --problem-seed)"
        )
    if "difficulty" not in given:
        # The seed does not say its difficulty: easy, medium and hard draw other problems from it.
        raise UsageError(
            f"--problem-seed {problem_seed} needs the problem's difficulty, as its card,"
            f" sheet or key shows it: paperdeck problems {type_id} --problem-seed"
            f" {problem_seed} -d easy|medium|hard"
        )
