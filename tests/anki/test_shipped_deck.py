"""The default deck of the shipped content, imported into the real Anki library."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator import visuals
from generator.documents.items import KINDS, build_deck, lesson_group
from generator.exporters import ExportOptions, anki
from generator.project import open_project

PROJECT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    project = open_project(PROJECT)
    recipe = project.recipes["aiayn"]
    deck = build_deck(project.content, recipe, seed=11)
    path = tmp_path_factory.mktemp("shipped") / "aiayn.apkg"
    anki.export(deck, path, ExportOptions(build_time=1_700_000_000))
    return project, deck, path


def test_every_lesson_item_is_a_note_in_its_lesson_subdeck_in_teaching_order(
    shipped, col, import_package
) -> None:
    project, deck, path = shipped
    import_package(col, path)
    content = project.content
    assert col.note_count() == len(deck.items)
    lesson_items = sum(
        len(getattr(lesson, field))
        for lesson in content.lessons
        for field in (
            "concepts",
            "equations",
            "clozes",
            "flashcards",
            "worked_examples",
            "questions",
            "visuals",
        )
    )
    label_cards = sum(
        part.ask
        for lesson in content.lessons
        for v in lesson.visuals
        if v.label_cards
        for part in visuals.parts(v.kind, v.params)
    )
    assert label_cards >= 20
    assert sum(item.kind not in ("problem", "label") for item in deck.items) == lesson_items
    assert sum(item.kind == "label" for item in deck.items) == label_cards
    names = [f"{deck.title}::{lesson_group(n, lesson)}" for n, lesson in enumerate(content.lessons, 1)]
    existing = {d.name for d in col.decks.all_names_and_ids()}
    assert set(names) | {f"{deck.title}::Practice", deck.title} <= existing
    first_due = []
    for name in names:
        cids = col.find_cards(f'"deck:{name}" -"deck:{name}::*"')
        lesson_notes = {col.get_card(c).nid for c in cids}
        assert lesson_notes, name
        first_due.append(min(col.get_card(c).due for c in cids))
    assert first_due == sorted(first_due), "new cards come in teaching order"
    kinds = {item.kind for item in deck.items}
    assert kinds == set(KINDS)


def test_every_card_of_the_shipped_deck_renders(shipped, col, import_package, balanced_math) -> None:
    _, _, path = shipped
    import_package(col, path)
    for cid in col.find_cards(""):
        card = col.get_card(cid)
        question, answer = card.question(), card.answer()
        for side in (question, answer):
            assert side.strip()
            markup = re.sub(r"<script.*?</script>", "", side, flags=re.S)
            assert "{{" not in markup, card.note()["Id"]
            assert "template error" not in side.lower() and "unknown field" not in side.lower()
            assert balanced_math(side), card.note()["Id"]


def test_every_shipped_figure_travels_in_the_package(shipped, col, import_package) -> None:
    project, _, path = shipped
    import_package(col, path)
    media = set(Path(col.media.dir()).iterdir())
    visuals = [v for lesson in project.content.lessons for v in lesson.visuals]
    figures = [col.get_note(n)["Figure"] for n in col.find_notes('"note:paperdeck Figure"')]
    assert len(figures) == len(visuals)
    for figure in figures:
        name = figure.split('src="')[1].split('"')[0]
        assert any(m.name == name for m in media), name


def test_the_readme_states_the_counts_of_the_shipped_deck(shipped, col, import_package) -> None:
    project, deck, path = shipped
    import_package(col, path)
    readme = (PROJECT / "README.md").read_text()
    paragraph = " ".join(readme.split("The default deck holds ", 1)[1].split("\n\n", 1)[0].split())
    stated = re.match(
        r"(\d+) notes \((\d+) cards\): (\d+) from the twelve lessons \((\d+) concepts, "
        r"(\d+) equations, (\d+) clozes, (\d+) flashcards, (\d+) worked examples, "
        r"(\d+) questions, (\d+) figures and (\d+) label cards.*?\) "
        r"and (\d+) practice problems",
        paragraph,
    )
    assert stated, paragraph[:200]
    lessons = project.content.lessons
    kinds = ("concepts", "equations", "clozes", "flashcards", "worked_examples", "questions", "visuals")
    per_kind = [sum(len(getattr(lesson, kind)) for lesson in lessons) for kind in kinds]
    labels = sum(item.kind == "label" for item in deck.items)
    problems = sum(item.kind == "problem" for item in deck.items)
    assert [int(n) for n in stated.groups()] == [
        col.note_count(),
        col.card_count(),
        len(deck.items) - problems,
        *per_kind,
        labels,
        problems,
    ]
