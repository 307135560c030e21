"""What every command shares: the session (project, chattiness) and the options
defined once for all commands."""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from ..project import Project

PROGRESS_FROM = 200
"""Iterations from which a progress bar is shown (about a second of work)."""
SEED_HELP = "Seed of the randomized problems; omitted means a fresh one, printed so you can repeat it."


class Session:
    """What every command needs: where the project is and how chatty to be."""

    def __init__(self, project: Path | None = None, quiet: bool = False, verbose: bool = False):
        self.project_dir = project
        self.quiet = quiet
        self.verbose = verbose

    def project(self) -> Project:
        """The project the command works on, named on stderr."""
        from ..project import open_project

        opened = open_project(self.project_dir)
        self.note(opened.describe())
        return opened

    def say(self, message: str) -> None:
        """A line for --verbose."""
        if self.verbose:
            click.echo(message, err=True)

    def note(self, message: str) -> None:
        """A line shown unless --quiet."""
        if not self.quiet:
            click.echo(message, err=True)

    def track(
        self, iterator: Iterator[Any], count: int, label: str, shortest: int = PROGRESS_FROM
    ) -> Iterable[Any]:
        """``iterator`` behind a progress bar on a terminal when it is long enough to wait for.

        No bar with --quiet, nor with --verbose, whose lines say what is going on.
        """
        if self.quiet or self.verbose or count < shortest or not sys.stderr.isatty():
            return iterator
        return _progress(iterator, count, label)

    def seed(self, seed: int | None) -> int:
        """``seed``, or a fresh one that is printed so the output can be made again."""
        if seed is None:
            seed = secrets.randbelow(2**32)
            self.note(f"seed {seed}")
        return seed


def _progress(iterator: Iterator[Any], count: int, label: str) -> Iterator[Any]:
    with click.progressbar(iterator, length=count, label=label, file=sys.stderr) as bar:
        yield from bar


pass_session = click.make_pass_decorator(Session, ensure=True)


def _set(name: str) -> Callable[[click.Context, click.Parameter, Any], None]:
    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> None:
        if value:
            setattr(ctx.ensure_object(Session), name, value)

    return callback


def project_option(f: Callable[..., Any]) -> Callable[..., Any]:
    """--project, before or after the command name."""
    return click.option(
        "--project",
        type=click.Path(path_type=Path),
        expose_value=False,
        callback=_set("project_dir"),
        is_eager=True,
        help="Project folder (default: the nearest folder above here with "
        "content/paper.yaml, else the bundled paper).",
    )(f)


def chatter_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """--quiet and --verbose, before or after the command name."""
    f = click.option(
        "--quiet",
        "-q",
        is_flag=True,
        expose_value=False,
        callback=_set("quiet"),
        is_eager=True,
        help="Print only errors; no progress bar.",
    )(f)
    return click.option(
        "--verbose",
        "-v",
        is_flag=True,
        expose_value=False,
        callback=_set("verbose"),
        is_eager=True,
        help="Say what is being built.",
    )(f)


def common_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """The options every command takes after its name."""
    return project_option(chatter_options(f))


def seed_option(f: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--seed", type=click.IntRange(min=0), help=SEED_HELP)(f)


def paper_option(f: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--paper",
        type=click.Choice(["a4", "letter"]),
        default=None,
        help="Paper size of the PDFs (default: the recipe's paper, else a4).",
    )(f)


def difficulty_option(f: Callable[..., Any]) -> Callable[..., Any]:
    from ..problems import DIFFICULTIES

    # The choice passes only these names: commands may take it as a recipes.Difficulty.
    return click.option(
        "--difficulty",
        "-d",
        type=click.Choice(DIFFICULTIES),
        default="easy",
        show_default=True,
        help="Sizes and number ranges.",
    )(f)
