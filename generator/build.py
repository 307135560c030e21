"""Build one recipe of a project into files."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import exporters, items, quiz, visuals
from .exporters import guide, pdf
from .project import Project
from .recipes import DeckRecipe, GuideRecipe, QuizRecipe, Recipe


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
    if isinstance(recipe, GuideRecipe):
        lessons = items.lesson_items(project.content, recipe.lessons)
        path = out / f"{recipe.id}.pdf"
        guide.export_guide(project.content.paper, recipe.title, lessons, path, visuals.default_cache_dir(),
                           options.paper)
        return [path]
    assert isinstance(recipe, QuizRecipe)
    forms = quiz.build_quiz(project.content, recipe, options.seed, recipe.versions)
    return pdf.export_quiz(forms, out / recipe.id, options.paper)

