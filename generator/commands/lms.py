"""``paperdeck lms``: a quiz recipe for a learning management system (QTI 2.1 package, Moodle XML)."""

from __future__ import annotations

from pathlib import Path

import click

from .options import Session, common_options, pass_session, seed_option

_FILES = {
    "qti": ("{}-qti.zip", ".zip", "a QTI 2.1 package"),
    "moodle": ("{}-moodle.xml", ".xml", "Moodle XML"),
}


@click.command(name="lms")
@click.argument("recipe", required=False)
@click.option(
    "--format",
    "formats",
    type=click.Choice(["qti", "moodle", "both"]),
    default="both",
    show_default=True,
    help="qti: a QTI 2.1 package (OpenOlat, ONYX, Inspera, Blackboard); "
    "moodle: Moodle XML for its question bank.",
)
@click.option(
    "--variants",
    type=click.IntRange(1, 100),
    default=None,
    help="Pre-generated variants of each randomized problem, one drawn per attempt (default 5).",
)
@seed_option
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    help="Folder to write into (default: out/): RECIPE-qti.zip, RECIPE-moodle.xml.",
)
@common_options
@pass_session
def command(
    session: Session,
    recipe: str | None,
    formats: str,
    variants: int | None,
    seed: int | None,
    out: Path | None,
) -> None:
    """Export a quiz for an LMS: every question of each section's pool (the LMS draws the
    recipe's count per attempt) and VARIANTS variants of each problem (it draws one).

    Both files hold every answer: keep them from students. The problems' seeds are in the
    QTI manifest's metadata. See docs/lms.md for importing into Moodle, OpenOlat,
    Blackboard and Inspera.

    \b
    Example:
      paperdeck lms quiz-attention
      paperdeck lms quiz-attention --format qti --variants 8 --seed 11
    """
    from .. import exporters
    from ..documents.lms import DEFAULT_VARIANTS, build_lms_quiz
    from .outputs import output_file

    project = session.project()
    chosen = project.quiz_recipe(recipe)
    named = out is not None
    folder = out or project.out
    wanted = ["qti", "moodle"] if formats == "both" else [formats]
    targets = {}
    for name in wanted:
        pattern, suffix, what = _FILES[name]
        targets[name] = output_file(
            folder / pattern.format(chosen.id), {suffix: what}, session.note, named=named
        )
    built = build_lms_quiz(
        project.content,
        chosen,
        session.seed(seed),
        variants or DEFAULT_VARIANTS,
        project.secret(session.note),
    )
    for name, target in targets.items():
        exporter = {"qti": exporters.to_qti, "moodle": exporters.to_moodle}[name]
        for path in exporter.export(built, target, exporters.ExportOptions()):
            session.say(f"wrote {path}")
    session.note(
        f"{len(built.questions)} questions and {len(built.problems)} problem variants "
        f"({built.variants} per problem); see docs/lms.md to import them"
    )
