"""Build one recipe of a project into files: its kind names its document and exporter."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import exporters
from ..content.recipes import Recipe
from ..files.issued import existing_key
from ..project import Project
from . import items, quiz


@dataclass(frozen=True)
class BuildOptions:
    """Choices shared by every recipe of one build."""

    seed: int
    """Seed of every randomized problem in this build."""
    paper: str | None = None
    """Paper size of printed documents: a4 or letter; None means each recipe's (else a4)."""
    secret: bytes = b""
    """The teacher's secret quiz form seeds derive from."""


# recipe kind -> (the document it describes, its exporter, where it goes under out/)
_KINDS: dict[str, tuple[Callable[[Project, Any, BuildOptions], Any], str, str]] = {
    "deck": (lambda p, recipe, options: items.build_deck(p.content, recipe, options.seed), "anki", "{}.apkg"),
    "guide": (lambda p, recipe, options: items.build_guide(p.content, recipe), "guide", "{}.pdf"),
    "site": (lambda p, recipe, options: items.build_site(p.content, recipe, options.seed), "site", "{}"),
    "quiz": (
        lambda p, recipe, options: quiz.build_quiz(
            p.content, recipe, options.seed, recipe.versions, options.secret
        ),
        "quiz",
        "{}",
    ),
}


def build_recipe(
    project: Project,
    recipe: Recipe,
    out: Path,
    options: BuildOptions,
    note: Callable[[str], None] = lambda _: None,
) -> list[Path]:
    """Build one recipe; returns the files written. A quiz issued by ``paperdeck quiz`` is
    left alone (``note`` says so): only ``paperdeck quiz --replace`` replaces it."""
    document, exporter, target = _KINDS[recipe.kind]
    if recipe.kind == "quiz":
        found = existing_key(out / target.format(recipe.id), recipe.id)
        if found is not None and found.issued:
            note(
                f"left {found.path.parent} alone: it holds an issued quiz ({found.describe()}); "
                f"paperdeck quiz {recipe.id} --replace replaces it"
            )
            return []
    export_options = exporters.ExportOptions(paper=project.paper(options.paper, recipe))
    return exporters.get(exporter).export(
        document(project, recipe, options), out / target.format(recipe.id), export_options
    )
