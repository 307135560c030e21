"""A remedial deck for a student who already has the full deck: its import adds the fresh
problems and updates the lesson cards they have, so nothing shows as new. Every note of it
carries the quiz's review tag, which a filtered deck gathers (the search the feedback prints):
imported into the real Anki library."""

from __future__ import annotations

import json
from pathlib import Path

from anki.collection import Collection

from generator.documents import items
from generator.exporters import ExportOptions, anki, graded
from generator.exporters.feedback import feedback_source
from generator.exporters.graded import _TEMPLATE
from generator.grading import grade_quiz
from generator.grading.remedial import review_search
from generator.project import open_project

from ..anki.conftest import _import_package
from .classroom import ROOT, make_class, write_key, write_responses


def test_the_notes_to_practise_are_tagged_and_the_feedback_says_how_to_gather_them(tmp_path: Path) -> None:
    project = open_project(ROOT)
    figures = tmp_path / "figures"
    full = items.build_deck(project.content, project.deck_recipe("aiayn"), 1)
    anki.export(full, tmp_path / "full.apkg", ExportOptions(build_time=1_700_000_000, figures=figures))
    key_path = write_key(tmp_path / "quiz-key.json")
    made = {s.name: s for s in make_class(json.loads(key_path.read_text(encoding="utf-8")))}
    responses = write_responses(tmp_path / "answers.csv", [made["Mistaken A 0"]])
    grading = grade_quiz(key_path, responses, project.content, remedial_seed=1)
    written = graded.export(
        grading, tmp_path / "graded", ExportOptions(build_time=1_700_000_050, figures=figures)
    )
    (deck,) = [p for p in written if p.suffix == ".apkg"]
    search = review_search("aiayn", "quiz-attention")
    assert search == "tag:aiayn::review::quiz-attention"

    (tmp_path / "collection").mkdir()
    col = Collection(str(tmp_path / "collection" / "collection.anki2"))
    try:
        _import_package(col, tmp_path / "full.apkg")
        before = set(col.find_notes(""))
        assert col.find_notes(search) == []
        _import_package(col, deck)
        tagged = set(col.find_notes(search))
        added = set(col.find_notes("")) - before
        assert len(added) == 9 and added <= tagged  # the fresh problems
        lesson_cards = tagged - added
        remedial_items = grading.remedial[0][2].items
        assert len(lesson_cards) == len([i for i in remedial_items if not i.key.startswith("review/")]) > 0
        assert len(tagged) < len(before) + len(added), "only the cards to practise are gathered"
    finally:
        col.close()

    source = feedback_source(grading, grading.results[0], f"remedial/{deck.name}", "a4", _TEMPLATE)
    assert f'#raw("{search}")' in source and "Create Filtered Deck" in source
