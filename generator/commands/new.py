"""``paperdeck new``: a minimal project to start a new paper from."""

from __future__ import annotations

from pathlib import Path

import click

from .options import Session, common_options, pass_session


@click.command(name="new")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--title", required=True, help="The paper's title.")
@click.option(
    "--id",
    "paper_id",
    metavar="ID",
    help="The paper's short id, the root of every tag (default: from the title).",
)
@common_options
@pass_session
def command(session: Session, folder: Path, title: str, paper_id: str | None) -> None:
    """Write a minimal project into FOLDER: a paper, one lesson with an item of
    every kind, a deck recipe and a quiz recipe. FOLDER must be new or empty.

    \b
    Example:
      paperdeck new layernorm --title "Layer Normalization"
      cd layernorm && paperdeck check && paperdeck build
    """
    from ..content.loader import ITEM_ID
    from ..errors import UsageError
    from ..project.scaffold import AUTHORING, project_files
    from ..project.scaffold import paper_id as id_from_title

    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder} is a file; name a new or empty folder")
    if folder.exists() and any(folder.iterdir()):
        raise UsageError(f"{folder} is not empty; paperdeck new writes only into a new or empty folder")
    if paper_id is not None and not ITEM_ID.match(paper_id):
        raise UsageError(f"--id {paper_id!r}: use lowercase letters, digits and hyphens")
    for parent in folder.parents:
        if parent.exists():
            if not parent.is_dir():
                raise UsageError(f"cannot write into {folder}: {parent} is a file")
            break
    files = project_files(title, paper_id or id_from_title(title))
    for relative, text in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    session.note(f"wrote a new project in {folder}: " + ", ".join(files))
    session.note(
        f"next: cd {folder} && paperdeck check && paperdeck build ({folder / AUTHORING} lists every field)"
    )
