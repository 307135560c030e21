"""Remedial decks of ``paperdeck grade --remedial`` imported into the real Anki library:
one deck per student, fresh problems of the types they missed and the cards of the
lessons their mistakes come from; grading the next quiz and importing again updates
the same notes instead of adding new ones."""

from __future__ import annotations

import json
from pathlib import Path

from generator.documents import items
from generator.exporters import ExportOptions, graded
from generator.grading import grade_quiz
from generator.project import open_project

from ..grading.classroom import Student, make_class, write_key, write_responses

ROOT = Path(__file__).parents[2]


def _grade(
    tmp_path: Path, name: str, seed: int, students: list[str], remedial_seed: int, stamp: int, figures: Path
) -> tuple[dict[str, Path], dict[str, Student]]:
    key_path = write_key(tmp_path / f"{name}-key.json", seed=seed)
    made = {s.name: s for s in make_class(json.loads(key_path.read_text(encoding="utf-8")))}
    chosen = [made[s] for s in students]
    responses = write_responses(tmp_path / f"{name}.csv", chosen)
    content = open_project(ROOT).content
    grading = grade_quiz(key_path, responses, content, remedial_seed)
    written = graded.export(
        grading, tmp_path / f"{name}-graded", ExportOptions(build_time=stamp, figures=figures)
    )
    return {p.stem: p for p in written if p.suffix == ".apkg"}, {s.name: s for s in chosen}


def _notes(col) -> dict[str, dict[str, str]]:
    found = {}
    for nid in col.find_notes(""):
        note = col.get_note(nid)
        found[note["Id"]] = dict(note.items())
    return found


def test_a_deck_per_student_who_lost_points(tmp_path: Path, figure_cache: Path) -> None:
    decks, _ = _grade(
        tmp_path, "quiz1", 11, ["Right A", "Mistaken A 0", "Noisy B"], 1, 1_700_000_000, figure_cache
    )
    assert sorted(decks) == ["mistaken-a-0", "noisy-b"]


def test_remedial_deck_imports_and_a_second_quiz_updates_it(
    col, import_package, tmp_path: Path, figure_cache: Path
) -> None:
    first, students = _grade(tmp_path, "quiz1", 11, ["Mistaken A 0"], 1, 1_700_000_000, figure_cache)
    import_package(col, first["mistaken-a-0"])
    notes = _notes(col)
    problems = {key: fields for key, fields in notes.items() if key.startswith("review/")}
    # quiz-attention's problem sections: softmax, sdpa, dot-variance; three fresh problems each
    assert sorted(problems) == [
        f"review/mistaken a 0/{t}/{i}" for t in ("dot-variance", "sdpa", "softmax") for i in (1, 2, 3)
    ]
    lessons = {key for key in notes if not key.startswith("review/")}
    # The student lost points on every question of form A: the lessons of its questions, and
    # lesson 3, whose worked examples use the three problem types.
    content = open_project(ROOT).content
    lesson_of = {q.id: lesson.id for lesson in content.lessons for q in lesson.questions}
    form_a = json.loads((tmp_path / "quiz1-key.json").read_text(encoding="utf-8"))["form_keys"][0]
    taught = {lesson_of[q["id"]] for q in form_a["questions"] if "id" in q} | {"scaled-dot-product-attention"}
    assert lessons == {item.key for item in items.lesson_items(content, taught)}
    decks = {d.name for d in col.decks.all_names_and_ids()}
    assert "Attention Is All You Need (review)::Practice" in decks
    assert any(name.startswith("Attention Is All You Need (review)::03 ") for name in decks)

    second, _ = _grade(tmp_path, "quiz2", 12, ["Mistaken A 0"], 2, 1_700_000_100, figure_cache)
    import_package(col, second["mistaken-a-0"])
    again = _notes(col)
    assert len(again) == len(set(again)), "no duplicate notes"
    assert {k for k in again if k.startswith("review/")} == set(problems), "same slots, updated in place"
    changed = [k for k in problems if again[k] != notes[k]]
    assert changed, "the second grading's fresh problems replaced the first's numbers"
    assert len(col.find_notes("")) == len(again)
    assert lessons <= set(again)


def test_lesson_cards_are_the_full_decks_notes(
    col, import_package, write, tmp_path: Path, figure_cache: Path
) -> None:
    from generator.exporters import anki

    content = open_project(ROOT).content
    full = items.build_deck(content, open_project(ROOT).deck_recipe("aiayn"), 1)
    path = tmp_path / "full.apkg"
    anki.export(full, path, ExportOptions(build_time=1_700_000_000, figures=figure_cache))
    import_package(col, path)
    before = len(col.find_notes(""))
    decks, _ = _grade(tmp_path, "quiz1", 11, ["Mistaken A 0"], 1, 1_700_000_050, figure_cache)
    import_package(col, decks["mistaken-a-0"])
    added = len(col.find_notes("")) - before
    assert added == 9, "only the nine fresh problems are new; the lesson cards were there already"
