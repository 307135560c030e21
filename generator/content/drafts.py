"""Drafts: items ``paperdeck import`` wrote for the author to review (``draft: true``).

``check`` lists them; ``build`` leaves them out unless asked (``build --drafts``), so
nothing a person has not read reaches a learner.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .model import Content, Lesson

ITEM_LISTS = ("concepts", "equations", "worked_examples", "flashcards", "clozes", "questions", "visuals")
"""The lists of a lesson whose items may be drafts."""


def drafts(content: Content) -> list[tuple[str, str, str]]:
    """Every draft as (lesson id, list name, item id), in teaching order."""
    return [
        (lesson.id, name, item.id)
        for lesson in content.lessons
        for name in ITEM_LISTS
        for item in getattr(lesson, name)
        if getattr(item, "draft", False)
    ]


def without_drafts(content: Content) -> Content:
    """``content`` with every draft left out."""

    def kept(lesson: Lesson) -> Lesson:
        kept_items: dict[str, Any] = {
            name: tuple(item for item in getattr(lesson, name) if not getattr(item, "draft", False))
            for name in ITEM_LISTS
        }
        return replace(lesson, **kept_items)

    return replace(content, lessons=tuple(kept(lesson) for lesson in content.lessons))


__all__ = ["ITEM_LISTS", "drafts", "without_drafts"]
