"""Build every recipe of a project into an output folder."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from . import exporters, items, quiz
from .exporters import pdf
from .project import Project
from .recipes import DeckRecipe, QuizRecipe, Recipe


@dataclass(frozen=True)
class BuildOptions:
    """Choices shared by every recipe of one build."""

    seed: int
    """Seed of every randomized problem in this build."""
    paper: str = "a4"
    """Paper size of printed quizzes: a4 or letter."""


def build_recipe(project: Project, recipe: Recipe, out: Path, options: BuildOptions) -> list[Path]:
    """Build one recipe; returns the files written."""
    if isinstance(recipe, DeckRecipe):
        deck = items.build_deck(project.content, recipe, options.seed)
        path = out / f"{recipe.id}.apkg"
        exporters.get(path).export(deck, path)
        return [path]
    assert isinstance(recipe, QuizRecipe)
    forms = quiz.build_quiz(project.content, recipe, options.seed, recipe.versions)
    return pdf.export_quiz(forms, out / recipe.id, options.paper)


def build_all(
    project: Project, out: Path, options: BuildOptions,
    announce: Callable[[str], None] = lambda message: None,
) -> list[Path]:
    """Build every recipe in ``decks/``; returns every file written."""
    written: list[Path] = []
    for recipe in project.recipes.values():
        announce(f"building {recipe.kind} {recipe.id}")
        written += build_recipe(project, recipe, out, options)
    return written
