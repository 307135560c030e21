"""Identity across rebuilds: notes update in place, history stays, note types never change."""

from __future__ import annotations

import hashlib
import json

from generator import identity
from generator.exporters import ExportOptions, anki
from generator.exporters.anki import notetypes

TITLE = "Attention Is All You Need"
STAMP = 1_700_000_000


def _snapshot(col):
    """Per GUID: note id, note type and fields."""
    out = {}
    for nid in col.find_notes(""):
        note = col.get_note(nid)
        out[note.guid] = (nid, note.mid, dict(note.items()))
    return out


def _study(col, deck_name, answers):
    """Answer the first ``answers`` cards of a deck with Easy; returns their ids."""
    col.decks.select(col.decks.id_for_name(deck_name))
    studied = []
    for _ in range(answers):
        card = col.sched.getCard()
        assert card is not None
        col.sched.answerCard(card, 4)
        studied.append(card.id)
    return studied


def _schedule(col, card_ids):
    out = {}
    for cid in card_ids:
        card = col.get_card(cid)
        out[cid] = (card.nid, card.type, card.queue, card.ivl, card.due, card.reps, card.did)
    return out


def test_rebuilds_with_new_numbers_update_in_place_and_keep_history(col, write, make_deck, import_package):
    import_package(col, write(make_deck(seed=1), STAMP))
    first = _snapshot(col)
    notetype_ids = sorted(nt.id for nt in col.models.all_names_and_ids())
    card_count = col.card_count()
    studied = _study(col, f"{TITLE}::Practice", 3) + _study(col, f"{TITLE}::01 Why Attention", 2)
    schedule = _schedule(col, studied)
    assert all(s[1] == 2 and s[3] > 0 for s in schedule.values()), "answered Easy: review cards"
    revlog = col.db.all("select id, cid, ease, ivl from revlog order by id")
    assert len(revlog) == 5

    for rebuild, seed in enumerate((2, 3, 4), 1):
        result = import_package(col, write(make_deck(seed=seed), STAMP + rebuild * 60, f"deck{seed}.apkg"))
        assert not result.log.new and not result.log.conflicting and not result.log.duplicate
        assert len(result.log.updated) == len(first)
        now = _snapshot(col)
        assert now.keys() == first.keys(), "no note added or lost"
        assert col.note_count() == len(first) and col.card_count() == card_count
        assert sorted(nt.id for nt in col.models.all_names_and_ids()) == notetype_ids, "no new note type"
        for guid, (nid, mid, _) in now.items():
            assert (nid, mid) == first[guid][:2], "same note, same note type"
        assert _schedule(col, studied) == schedule, "intervals and due dates kept"
        assert col.db.all("select id, cid, ease, ivl from revlog order by id") == revlog

    problems = [guid for guid, (_, _, fields) in first.items() if fields.get("Seed")]
    assert problems
    changed = [g for g in problems if now[g][2]["Expected"] != first[g][2]["Expected"]]
    assert len(changed) == len(problems), "every problem got new numbers in place"
    assert all(now[g][2]["Seed"] != first[g][2]["Seed"] for g in problems)


def test_a_reworded_concept_updates_in_place(col, write, make_deck, import_package):
    import_package(col, write(make_deck(), STAMP))
    (nid,) = col.find_notes('"Id:attention-function"')
    before = col.get_note(nid)
    reworded = make_deck(definition="A *new* wording of the definition.")
    import_package(col, write(reworded, STAMP + 1, "b.apkg"))
    (again,) = col.find_notes('"Id:attention-function"')
    after = col.get_note(again)
    assert again == nid and after.guid == before.guid
    assert after["Back"] == "A <em>new</em> wording of the definition."


def test_an_older_or_equal_build_never_overwrites(col, write, make_deck, import_package):
    """Why every build is stamped: Anki skips notes whose time is not newer (whole seconds)."""
    import_package(col, write(make_deck(), STAMP))
    result = import_package(col, write(make_deck(definition="Changed."), STAMP, "same-second.apkg"))
    assert not result.log.updated and len(result.log.duplicate) == col.note_count()
    (nid,) = col.find_notes('"Id:attention-function"')
    assert col.get_note(nid)["Back"] != "Changed."


def test_practice_sets_keep_their_slots_and_new_sets_get_new_ones(col, write, make_practice, import_package):
    import_package(col, write(make_practice(seed=1), STAMP, "p1.apkg"))
    first = _snapshot(col)
    result = import_package(col, write(make_practice(seed=2), STAMP + 1, "p2.apkg"))
    assert len(result.log.updated) == len(first) and not result.log.new
    assert _snapshot(col).keys() == first.keys()
    names = {d.name for d in col.decks.all_names_and_ids()}
    assert f"{TITLE}::Practice" in names
    result = import_package(col, write(make_practice(seed=2, set_name="exam"), STAMP + 2, "p3.apkg"))
    assert len(result.log.new) == len(first) and not result.log.updated, "a new set is new notes"
    assert col.note_count() == 2 * len(first)
    assert f"{TITLE}::Practice::exam" in {d.name for d in col.decks.all_names_and_ids()}


def _pin(note_type: notetypes.NoteType) -> str:
    data = {
        "id": note_type.id,
        "name": note_type.anki_name,
        "cloze": note_type.cloze,
        "fields": note_type.fields,
        "sort": note_type.sort_field,
        "templates": [[t.name, t.front, t.back] for t in note_type.templates],
        "css": notetypes.STYLE,
    }
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


# Changing a note type (fields, templates, CSS) changes these; if the change is meant,
# schema changes (fields, template names) need a new version (a new id) and a note in
# the release notes, and template/CSS changes need only the new hash here.
PINNED = {  # (the CSS: an equation's symbols a list on a phone; math and its stop held together)
    "Concept": "0e19e9a20c4b7c5d",
    "Cloze": "53efc2993d0c8127",
    "Equation": "0061e09e0be6c32b",
    "Worked Example": "7b2f647a1083d4f7",
    "Question": "5c73c7f1b8bca6b9",  # the one answer rule and verdict (answers.js) ahead of check.js
    "Problem": "e249b227b1851893",  # the same, and the day's problem (today.js) ahead of variant.js,
    # which passes it the questions, so that no two days in a row ask the same one
    "Figure": "b0c32edb550d021c",
    "Label": "3a01e3b70fcff358",
}
# What Anki compares to accept updates (field and template names, in order): never
# change these within a version.
SCHEMA = {
    "Concept": (("Front", "Back", "Reverse", "Extra", "Source", "Id"), ("Forward", "Reverse")),
    "Cloze": (("Text", "Extra", "Source", "Id"), ("Cloze",)),
    "Equation": (
        ("Name", "Formula", "Symbols", "DeepDive", "Source", "Id"),
        ("Name to formula", "Formula to symbols"),
    ),
    "Worked Example": (("Title", "Task", "Given", "Steps", "Result", "Source", "Id"), ("Work it",)),
    "Question": (
        (
            "Prompt",
            "Format",
            "Options",
            "OptionsKey",
            "Answer",
            "Explanation",
            "AnswerName",
            "Expected",
            "TolAbs",
            "TolRel",
            "Source",
            "Id",
        ),
        ("Question",),
    ),
    "Problem": (
        (
            "Prompt",
            "Given",
            "AnswerName",
            "Expected",
            "TolAbs",
            "TolRel",
            "Tolerance",
            "Answer",
            "Steps",
            "Mistakes",
            "Figure",
            "ProblemType",
            "Difficulty",
            "Seed",
            "Source",
            "Id",
            "Variants",
        ),
        ("Solve",),
    ),
    "Figure": (("Figure", "Caption", "Source", "Id"), ("Read the figure",)),
    "Label": (
        ("Id", "Figure", "Which", "Mask", "Covers", "Answer", "Note", "Caption", "Parts", "Source"),
        ("Name the part",),
    ),
}


def test_note_type_schemas_are_pinned():
    assert {nt.name: (nt.fields, tuple(t.name for t in nt.templates)) for nt in notetypes.ALL} == SCHEMA


def test_note_types_are_pinned():
    assert {nt.name: _pin(nt) for nt in notetypes.ALL} == PINNED


def test_note_type_ids_come_from_stable_names():
    ids = {nt.name: nt.id for nt in notetypes.ALL}
    assert len(set(ids.values())) == len(ids)
    assert ids["Concept"] == identity.anki_id("Concept", "v1")
    # Version 2 added the Variants field; Anki imports it over version 1 with "merge note types".
    assert ids["Problem"] == identity.anki_id("Problem", "v2")
    assert ids["Label"] == identity.anki_id("Label", "v1")
    assert all(0 < i < 2**53 for i in ids.values())
    assert anki.deck_id(f"{TITLE}::Practice") == identity.anki_id("deck", f"{TITLE}::Practice")


def test_builds_with_source_date_epoch_are_byte_identical(tmp_path, monkeypatch, make_deck, figure_cache):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000123")
    options = ExportOptions(figures=figure_cache)
    first, second = tmp_path / "a.apkg", tmp_path / "b.apkg"
    anki.export(make_deck(seed=5), first, options)
    anki.export(make_deck(seed=5), second, options)
    assert first.read_bytes() == second.read_bytes()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000124")
    anki.export(make_deck(seed=5), second, options)
    assert first.read_bytes() != second.read_bytes(), "the stamp is in the package"


def test_paperdeck_practice_command_refreshes_its_slots(tmp_path, monkeypatch, col, import_package):
    from generator.cli import main

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = tmp_path / "practice.apkg"

    def practice(seed: int, stamp: int, *extra: str) -> None:
        monkeypatch.setenv("SOURCE_DATE_EPOCH", str(stamp))
        assert (
            main(
                ["-q", "practice", "softmax", "sdpa", "-n", "2", "--seed", str(seed), "-o", str(path), *extra]
            )
            == 0
        )

    practice(1, STAMP)
    assert len(import_package(col, path).log.new) == 4
    practice(2, STAMP + 1)
    result = import_package(col, path)
    assert len(result.log.updated) == 4 and not result.log.new
    practice(2, STAMP + 2, "--new-set", "exam")
    assert len(import_package(col, path).log.new) == 4
    assert col.note_count() == 8
