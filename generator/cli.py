"""The ``paperdeck`` command line: a click group that loads each command on use.

Each command lives in its own module under ``generator.commands`` and is
imported only when it runs (as pip's ``commands_dict`` does), so ``paperdeck
problems`` never loads Typst, genanki or matplotlib. User mistakes
(``PaperdeckError``, bad options) end with a one-line message per problem on
stderr and exit code 2; anything else is a bug and exits 1.
"""

from __future__ import annotations

import importlib
import keyword
import sys

import click

from .commands.options import Session, chatter_options, project_option
from .errors import PaperdeckError, report

COMMANDS = {
    "build": "Build every recipe in decks/ into the output folder.",
    "check": "Validate the content and the recipes; report every problem.",
    "list": "Show the lessons, problem types, visual kinds and recipes.",
    "problems": "Print randomized problems of TYPE with their keys.",
    "deck": "Write the Anki deck of RECIPE.",
    "quiz": "Print the forms of a quiz (or one per student), their keys and the key JSON.",
    "practice": "Regenerate randomized practice as an Anki set or a printable sheet.",
    "new": "Write a minimal project to start a new paper from.",
    "lms": "Export a quiz for an LMS: a QTI 2.1 package and Moodle XML, problems as pools of variants.",
    "stress": "Make N forms of a quiz and check every invariant (answerable, keys, mistakes).",
    "scan": "Read scanned answer sheets into the responses CSV grade reads, and a review file.",
    "grade": "Grade a class's answers against a quiz key: scores, named mistakes, report, remedial decks.",
    "import": "Make a project from a paper's LaTeX source (LaTeX converted in a sandbox), with drafts.",
}
"""Every command, in the order ``--help`` lists them, with its one-line summary;
its code is ``generator.commands.<name>.command``."""


class LazyGroup(click.Group):
    """A group whose commands are imported from ``generator.commands`` when used."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module = f"{cmd_name}_" if keyword.iskeyword(cmd_name) else cmd_name  # import -> import_.py
        command: click.Command = importlib.import_module(f"generator.commands.{module}").command
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # The summaries from the table: help does not import every command.
        with formatter.section("Commands"):
            formatter.write_dl(list(COMMANDS.items()))


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="paperdeck")
@project_option
@chatter_options
def cli() -> None:
    """Turn a research paper into Anki decks, printable quizzes and practice.

    \b
    Example:
      paperdeck build --out out/
    """


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    try:
        cli.main(args=argv, prog_name="paperdeck", standalone_mode=False, obj=Session())
    except PaperdeckError as error:
        for line in report(error):
            click.echo(f"paperdeck: {line}", err=True)
        return 2
    except click.exceptions.Abort:
        click.echo("paperdeck: interrupted", err=True)
        return 1
    except click.ClickException as error:
        error.show()
        return 2
    return 0


__all__ = ["COMMANDS", "cli", "main"]

if __name__ == "__main__":
    sys.exit(main())
