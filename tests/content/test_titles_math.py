"""Titles and headings carry their math inside \\( \\), so every PDF and card typesets it:
no bare TeX (``d_k``, ``x^2``, ``\\sqrt``) outside math in any title of content or recipes."""

from __future__ import annotations

import re

from generator.content.recipes import QuizRecipe
from generator.project import open_project

MATH = re.compile(r"\\\(.*?\\\)|\\\[.*?\\\]", re.S)
BARE_TEX = re.compile(r"[A-Za-z]_[A-Za-z0-9{]|\^|\\[a-zA-Z]+")


def _titles():
    project = open_project()
    for lesson in project.content.lessons:
        yield lesson.id, lesson.title
        for example in lesson.worked_examples:
            yield example.id, example.title
    for recipe in project.recipes.values():
        yield recipe.id, recipe.title
        if isinstance(recipe, QuizRecipe):
            yield recipe.id, recipe.instructions
            for section in recipe.sections:
                yield recipe.id, section.title


def test_no_bare_tex_in_titles() -> None:
    bare = [(where, text) for where, text in _titles() if BARE_TEX.search(MATH.sub("", text))]
    assert bare == []
