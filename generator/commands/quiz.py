"""``paperdeck quiz``: the forms of a quiz recipe, their keys and the key JSON."""

from __future__ import annotations

from pathlib import Path

import click

from .options import Session, common_options, paper_option, pass_session, seed_option


@click.command(name="quiz")
@click.argument("recipe", required=False)
@click.option(
    "--versions",
    "--forms",
    "-k",
    "versions",
    type=click.IntRange(1, 1000),
    help="How many forms: A … Z, AA, AB, … (default: the recipe's; at most 1000).",
)
@click.option(
    "--roster",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    help="A CSV of students (name, optionally id): one form each, named on every page.",
)
@seed_option
@click.option("--out", type=click.Path(path_type=Path), help="Output folder (default: out/RECIPE/).")
@paper_option
@click.option(
    "--replace",
    is_flag=True,
    help="Replace a quiz issued before in the output folder; its key is kept beside, dated.",
)
@click.option(
    "--worked-keys",
    is_flag=True,
    help="Also write each form's worked key (steps, named mistakes, seeds) beside the booklet.",
)
@common_options
@pass_session
def command(
    session: Session,
    recipe: str | None,
    versions: int | None,
    roster: Path | None,
    seed: int | None,
    out: Path | None,
    paper: str | None,
    replace: bool,
    worked_keys: bool,
) -> None:
    """Print the forms of a quiz, its answer-key booklet, one print file and the key JSON.

    The booklet (RECIPE-key.pdf) has every form's answers, several forms to a
    page; RECIPE-print.pdf has every form, each from an odd page (duplex).
    Form seeds derive from your secret (.paperdeck-secret, made on first use):
    forms print only their label and a code, the key JSON and worked keys the seeds.
    A quiz issued before in the output folder is replaced only with --replace.

    \b
    Example:
      paperdeck quiz quiz-attention --versions 30 --seed 11 --paper letter
      paperdeck quiz quiz-attention --roster class.csv
      paperdeck quiz quiz-attention --versions 4 --worked-keys
    """
    from .. import exporters
    from ..documents import quiz
    from ..documents.roster import read_roster
    from ..errors import UsageError
    from ..files.issued import existing_key, refuse_unasked
    from .outputs import output_folder

    if roster is not None and versions is not None:
        raise UsageError("give --roster (one form per student) or --versions, not both")
    project = session.project()
    chosen = project.quiz_recipe(recipe)
    students = read_roster(roster) if roster is not None else ()
    named = out is not None
    out = out or project.out / chosen.id
    refuse_unasked(existing_key(out, chosen.id), replace)
    secret = project.secret(session.note)
    out = output_folder(out, session.note, named=named)
    built = quiz.build_quiz(
        project.content, chosen, session.seed(seed), versions or chosen.versions, secret, students
    )
    options = exporters.ExportOptions(
        paper=project.paper(paper, chosen), made_by="quiz", replace=replace, worked_keys=worked_keys
    )
    written = exporters.to_quiz.export(built, out, options)
    for path in written:
        session.say(f"wrote {path}")
        if ".replaced-" in path.name:
            session.note(f"kept the replaced key as {path}")
    keys = "their worked keys, " if worked_keys or chosen.worked_keys else ""
    session.note(
        f"wrote {built.count} forms, {keys}the key booklet {chosen.id}-key.pdf, the print file "
        f"{chosen.id}-print.pdf and {chosen.id}-key.json into {out}"
    )
