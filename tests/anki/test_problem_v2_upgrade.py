"""Upgrading from release 1, whose Problem note type had no Variants field.

``data/release-1.apkg`` is the small test deck (``conftest.make_deck(1)``) as the
first release wrote it. A learner imported it and studied; now they import this
release's build of the same deck. Problem notes moved to note type version 2 (a
new id, one field more), so Anki needs "merge note types" to move them.
"""

from __future__ import annotations

from pathlib import Path

from anki.collection import ImportAnkiPackageOptions, ImportAnkiPackageRequest
from anki.import_export_pb2 import ImportAnkiPackageUpdateCondition

from generator.exporters.anki import notetypes

RELEASE_1 = Path(__file__).parent / "data" / "release-1.apkg"
IF_NEWER = ImportAnkiPackageUpdateCondition.IMPORT_ANKI_PACKAGE_UPDATE_CONDITION_IF_NEWER


def _import(col, path: Path, merge: bool):
    options = ImportAnkiPackageOptions(
        with_scheduling=True, update_notes=IF_NEWER, update_notetypes=IF_NEWER, merge_notetypes=merge
    )
    return col.import_anki_package(ImportAnkiPackageRequest(package_path=str(path), options=options))


def _study(col) -> int:
    col.decks.select(col.decks.id_for_name("Attention Is All You Need::Practice"))
    for _ in range(3):
        col.sched.answerCard(col.sched.getCard(), 3)
    return col.db.scalar("select count() from revlog")


def _only_label_notes_are_new(col, before: list[int], result) -> None:
    """Every note is still there; the new ones are content this release added (its figures and
    label cards), never a second copy of a note: no Id appears twice."""
    after = set(col.find_notes(""))
    assert set(before) <= after, "no note lost"
    added = after - set(before)
    assert len(added) == len(result.log.new)
    assert {col.get_note(nid).note_type()["name"] for nid in added} <= {"paperdeck Label", "paperdeck Figure"}
    ids = [col.get_note(nid)["Id"] for nid in after]
    assert len(ids) == len(set(ids)), "no silent duplicates"


def _problem_notes(col) -> list[int]:
    return sorted(col.find_notes('"Id:aiayn/*"'))


def test_with_merge_note_types_problems_move_to_version_2_and_keep_their_reviews(col, write, make_deck):
    _import(col, RELEASE_1, merge=False)
    reviews = _study(col)
    notes, problems = sorted(col.find_notes("")), _problem_notes(col)
    result = _import(col, write(make_deck(seed=2), stamp=1_800_000_000), merge=True)
    assert not result.log.duplicate and not result.log.conflicting
    _only_label_notes_are_new(col, notes, result)
    assert col.db.scalar("select count() from revlog") == reviews, "no review lost"
    for nid in problems:
        note = col.get_note(nid)
        assert note.mid == notetypes.PROBLEM.id and note["Variants"].startswith("[{")
    names = [nt.name for nt in col.models.all_names_and_ids()]
    assert "paperdeck Problem v2" in names and "paperdeck Problem" not in names


def test_without_merge_nothing_is_lost_or_doubled_and_problems_stay_as_they_were(col, write, make_deck):
    _import(col, RELEASE_1, merge=False)
    reviews = _study(col)
    notes, problems = sorted(col.find_notes("")), _problem_notes(col)
    before = {nid: col.get_note(nid)["Expected"] for nid in problems}
    result = _import(col, write(make_deck(seed=2), stamp=1_800_000_000), merge=False)
    assert not result.log.duplicate
    assert len(result.log.conflicting) == len(problems), "Anki reports each problem note it left alone"
    _only_label_notes_are_new(col, notes, result)
    assert col.db.scalar("select count() from revlog") == reviews
    assert {nid: col.get_note(nid)["Expected"] for nid in problems} == before
