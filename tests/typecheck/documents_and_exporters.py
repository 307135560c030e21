"""What ``mypy --strict`` refuses about documents and exporters: the line after each comment
``# E: text`` must give an error holding that text, and no other line may give one (the rest
are the right ways, so a check that refused everything would fail too). Never imported, only
type checked."""

from __future__ import annotations

from pathlib import Path

from generator import exporters
from generator.content.model import Content
from generator.content.recipes import DeckRecipe, GuideRecipe
from generator.documents.items import Deck, Guide
from generator.exporters import Exporter, ExportOptions, exporter
from generator.project.kinds import BuildOptions, RecipeKind, kind


def hand_over(deck: Deck, guide: Guide, target: Path) -> None:
    exporters.to_anki.export(deck, target, ExportOptions())
    exporters.to_guide.export(guide, target, ExportOptions())
    # E: incompatible type "Guide"; expected "Deck"
    exporters.to_anki.export(guide, target, ExportOptions())
    # E: incompatible type "Deck"; expected "Site"
    exporters.to_site.export(deck, target, ExportOptions())


@exporter("deck-as-guide")
def to_deck_as_guide() -> Exporter[Guide]:
    from generator.exporters import anki

    # E: Incompatible return value type (got Module, expected "Exporter[Guide]")
    return anki


@exporter("guide-as-guide")
def to_guide_again() -> Exporter[Guide]:
    from generator.exporters import guide

    return guide


def deck(content: Content, recipe: DeckRecipe, options: BuildOptions) -> Deck:
    raise NotImplementedError


def guide(content: Content, recipe: GuideRecipe, options: BuildOptions) -> Guide:
    raise NotImplementedError


kind("deck", RecipeKind(DeckRecipe, deck, exporters.to_anki, "{}.apkg", ""))
kind("guide", RecipeKind(GuideRecipe, guide, exporters.to_guide, "{}.pdf", ""))
# E: expected "Callable[[Content, DeckRecipe, BuildOptions], Guide]"
kind("x", RecipeKind(DeckRecipe, deck, exporters.to_guide, "", ""))
# E: expected "Callable[[Content, GuideRecipe, BuildOptions], Deck]"
kind("y", RecipeKind(GuideRecipe, deck, exporters.to_anki, "", ""))
