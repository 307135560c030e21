"""The ``paperdeck`` command: thin click commands over library functions.

User mistakes (``PaperdeckError``, bad options) end with a one-line message per
problem on stderr and exit code 2; anything else is a bug and exits 1.
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import click

from . import exporters, items, problems
from .content.card_rules import card_rule_warnings
from .errors import PaperdeckError, UsageError
from .exporters.problem_text import as_markdown, as_text, json_stream
from .project import Project, open_project
from .recipes import Difficulty, ProblemSet

PROGRESS_FROM = 200
"""Iterations from which a progress bar is shown (about a second of work)."""
SEED_HELP = "Seed of the randomized problems; omitted means a fresh one, printed so you can repeat it."


class Session:
    """What every command needs: where the project is and how chatty to be."""

    def __init__(self, project: Path | None, quiet: bool, verbose: bool):
        self.project_dir = project
        self.quiet = quiet
        self.verbose = verbose

    def project(self) -> Project:
        return open_project(self.project_dir)

    def say(self, message: str) -> None:
        """A line for --verbose."""
        if self.verbose:
            click.echo(message, err=True)

    def note(self, message: str) -> None:
        """A line shown unless --quiet."""
        if not self.quiet:
            click.echo(message, err=True)

    def track(self, iterator: Iterator[Any], count: int, label: str,
              shortest: int = PROGRESS_FROM) -> Iterable[Any]:
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


pass_session = click.make_pass_decorator(Session)


def _set_flag(name: str) -> Callable[[click.Context, click.Parameter, bool], None]:
    def callback(ctx: click.Context, param: click.Parameter, value: bool) -> None:
        if value:
            setattr(ctx.find_object(Session), name, True)
    return callback


def chatter_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """--quiet and --verbose after the command name too (``paperdeck build -v``)."""
    f = click.option("--quiet", "-q", is_flag=True, expose_value=False, callback=_set_flag("quiet"),
                     help="Print only errors; no progress bar.")(f)
    return click.option("--verbose", "-v", is_flag=True, expose_value=False, callback=_set_flag("verbose"),
                        help="Say what is being built.")(f)


def seed_option(f: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--seed", type=click.IntRange(min=0), help=SEED_HELP)(f)


def paper_option(f: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4",
                        show_default=True, help="Paper size of the PDFs.")(f)


def difficulty_option(f: Callable[..., Any]) -> Callable[..., Any]:
    # The choice passes only these names: commands may take it as a recipes.Difficulty.
    return click.option("--difficulty", "-d", type=click.Choice(problems.DIFFICULTIES),
                        default="easy", show_default=True, help="Sizes and number ranges.")(f)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="paperdeck")
@click.option("--project", type=click.Path(file_okay=False, path_type=Path),
              help="Project folder with content/ and decks/ (default: here, else the bundled paper).")
@click.option("--quiet", "-q", is_flag=True, help="Print only errors.")
@click.option("--verbose", "-v", is_flag=True, help="Say what is being built.")
@click.pass_context
def cli(ctx: click.Context, project: Path | None, quiet: bool, verbose: bool) -> None:
    """Turn a research paper into Anki decks, printable quizzes and practice.

    \b
    Example:
      paperdeck build --out out/
    """
    ctx.obj = Session(project, quiet, verbose)


@cli.command()
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (default: out/ in the project, or here for the bundled paper).")
@seed_option
@paper_option
@chatter_options
@pass_session
def build(session: Session, out: Path | None, seed: int | None, paper: str) -> None:
    """Build every recipe in decks/ into the output folder.

    \b
    Example:
      paperdeck build --out out/ --seed 7
    """
    from .build import BuildOptions, build_recipe  # loads every exporter

    project = session.project()
    out = out or project.out
    options = BuildOptions(session.seed(seed), paper)
    recipes = iter(project.recipes.values())
    written = 0
    for recipe in session.track(recipes, len(project.recipes), "building", shortest=1):
        session.say(f"building {recipe.kind} {recipe.id}")
        for path in build_recipe(project, recipe, out, options):
            session.say(f"wrote {path}")
            written += 1
    session.note(f"built {len(project.recipes)} recipes into {out} ({written} files)")


@cli.command()
@pass_session
def check(session: Session) -> None:
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
    for warning in card_rule_warnings(content, project.root):  # teaching advice; exit code stays 0
        click.echo(str(warning), err=True)


@cli.command(name="list")
@pass_session
def list_(session: Session) -> None:
    """Show the lessons in teaching order, problem types, visual kinds and recipes.

    \b
    Example:
      paperdeck list
    """
    project = session.project()
    click.echo(f"{project.content.paper.title} ({project.content.paper.year})")
    click.echo("\nLessons:")
    for number, lesson in enumerate(project.content.lessons, 1):
        click.echo(f"  {number:2d}. {lesson.title}  [{lesson.id}; {', '.join(lesson.sources)}]")
    click.echo("\nProblem types:")
    types = problems.all_types()
    width = max(map(len, types))
    for type_id, problem_type in types.items():
        click.echo(f"  {type_id:<{width}}  {problem_type.description}")
    click.echo("\nVisual kinds:")
    from . import visuals  # matplotlib is slow to import; only list needs it here

    for kind, description in visuals.kinds().items():
        click.echo(f"  {kind:<{width}}  {description}")
    click.echo("\nRecipes:")
    for recipe_id, recipe in project.recipes.items():
        click.echo(f"  {recipe_id}  ({recipe.kind}: {recipe.title})")


@cli.command(name="problems")
@click.argument("type_id", metavar="TYPE")
@click.option("-n", "count", type=click.IntRange(min=0), default=5, show_default=True,
              help="How many problems.")
@seed_option
@difficulty_option
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json"]), default="text",
              show_default=True)
@click.option("--problem-seed", type=click.IntRange(min=0),
              help="Regenerate the one problem that carries this seed.")
@pass_session
def problems_(session: Session, type_id: str, count: int, seed: int | None, difficulty: str,
              fmt: str, problem_seed: int | None) -> None:
    """Print randomized problems of TYPE with their keys.

    \b
    Example:
      paperdeck problems sdpa -n 3 --seed 42 --format json
    """
    problems.get(type_id)
    if problem_seed is not None:
        generated: Any = iter([problems.generate_one(type_id, problem_seed, difficulty)])
    else:
        generated = problems.generate(type_id, count, session.seed(seed), difficulty)
    if fmt == "json":
        for chunk in json_stream(generated):
            sys.stdout.write(chunk)
        return
    render = as_text if fmt == "text" else as_markdown
    for problem in generated:
        click.echo(render(problem))


@cli.command()
@click.argument("recipe", required=False)
@click.option("-o", "output", type=click.Path(dir_okay=False, path_type=Path),
              help="The .apkg to write (default: out/RECIPE.apkg).")
@seed_option
@chatter_options
@pass_session
def deck(session: Session, recipe: str | None, output: Path | None, seed: int | None) -> None:
    """Write the Anki deck of RECIPE (default: the first deck recipe).

    \b
    Example:
      paperdeck deck aiayn -o attention.apkg --seed 3
    """
    project = session.project()
    chosen = project.deck_recipe(recipe)
    output = output or project.out / f"{chosen.id}.apkg"
    built = items.build_deck(project.content, chosen, session.seed(seed))
    exporters.get(output).export(built, output)
    session.note(f"wrote {output} ({len(built.items)} notes)")


@cli.command(name="quiz")
@click.argument("recipe", required=False)
@click.option("--versions", "-k", type=click.IntRange(1, 26), help="Forms A, B, … (default: the recipe's).")
@seed_option
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Output folder (default: out/RECIPE/).")
@paper_option
@chatter_options
@pass_session
def quiz_(session: Session, recipe: str | None, versions: int | None, seed: int | None,
          out: Path | None, paper: str) -> None:
    """Print K forms of a quiz and its answer key as PDFs.

    \b
    Example:
      paperdeck quiz quiz-attention --versions 3 --seed 11 --paper letter
    """
    from . import quiz
    from .exporters import pdf

    project = session.project()
    chosen = project.quiz_recipe(recipe)
    out = out or project.out / chosen.id
    forms = quiz.build_quiz(project.content, chosen, session.seed(seed), versions or chosen.versions)
    for path in pdf.export_quiz(forms, out, paper):
        session.note(f"wrote {path}")


@cli.command()
@click.argument("types", metavar="TYPE...", nargs=-1, required=True)
@click.option("-n", "count", type=click.IntRange(min=1), default=5, show_default=True,
              help="Problems of each type.")
@seed_option
@difficulty_option
@click.option("-o", "output", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="FILE.apkg (an Anki practice set) or FILE.pdf (a printable sheet).")
@click.option("--new-set", "set_name", metavar="NAME",
              help="Start a separate practice set beside the old one instead of refreshing it.")
@chatter_options
@pass_session
def practice(session: Session, types: tuple[str, ...], count: int, seed: int | None,
             difficulty: Difficulty, output: Path, set_name: str | None) -> None:
    """Regenerate randomized practice as an Anki set or a printable sheet.

    By default the Anki set keeps its slots: re-importing it gives the same notes
    new numbers and keeps your review history.

    \b
    Example:
      paperdeck practice sdpa softmax -n 10 -o practice.apkg
    """
    exporter = exporters.get(output)
    for type_id in types:
        problems.get(type_id)
    if len(set(types)) < len(types):
        raise UsageError("each problem type once, please: a type named twice would fill the same notes")
    project = session.project()
    sets = [ProblemSet(type_id, count, difficulty) for type_id in types]
    built = items.build_practice(project.content, sets, session.seed(seed), set_name or "practice",
                                 session.track)
    exporter.export(built, output)
    session.note(f"wrote {output} ({len(built.items)} problems)")


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    try:
        cli.main(args=argv, prog_name="paperdeck", standalone_mode=False)
    except PaperdeckError as error:
        for line in str(error).splitlines():
            click.echo(f"paperdeck: {line}", err=True)
        return 2
    except click.exceptions.Abort:
        click.echo("paperdeck: interrupted", err=True)
        return 1
    except click.ClickException as error:
        error.show()
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
