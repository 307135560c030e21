"""An exam date becomes a plan: the pace's arithmetic, the shipped deck with an exam 30 days out
imported into the real Anki library (the pace arrives only with "Import any deck presets"), and
every search the plan prints run through the library's ``find_cards``."""

from __future__ import annotations

import dataclasses
import re
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest

from generator.documents import items
from generator.documents.plan import IMPORT_PRESETS, buffer_days, make_plan
from generator.errors import PaperdeckError
from generator.exporters import ExportOptions, anki
from generator.project import open_project

PROJECT = Path(__file__).resolve().parents[2]
STAMP = 1_796_000_000  # 2026-11-30, the build's day
TODAY = datetime.fromtimestamp(STAMP, UTC).date()


def test_the_pace_finishes_the_new_cards_before_the_sweep() -> None:
    plan = make_plan("Deck", [("01 A", 30), ("02 B", 40), ("03 C", 20)], date(2027, 1, 1), date(2027, 1, 31))
    assert buffer_days(30) == 7 and plan.sweep == date(2027, 1, 24)
    assert plan.new_cards == 90 and plan.new_per_day == 4  # ceil(90 / (30 - 7))
    assert [(s.name, s.start.day, s.end.day) for s in plan.lessons] == [
        ("01 A", 1, 8),
        ("02 B", 8, 18),
        ("03 C", 18, 23),
    ]
    assert plan.lessons[-1].end < plan.sweep
    # The calendar's days: every day to the exam, the new cards and lessons of each.
    assert [d.day for d in plan.days] == [date(2027, 1, 1) + timedelta(days=n) for n in range(31)]
    assert [d.new_cards for d in plan.days[:24]] == [4] * 22 + [2, 0]
    assert [d.kind for d in plan.days[21:]] == ["learn", "learn"] + ["sweep"] * 7 + ["exam"]
    assert plan.days[7].lessons == (0, 1) and plan.days[8].lessons == (1,) and plan.days[21].lessons == (2,)
    assert sum(d.new_cards for d in plan.days) == plan.new_cards
    few = make_plan("D", [("A", 3), ("B", 2)], date(2027, 1, 1), date(2027, 1, 31))  # a card a day
    assert [(d.new_cards, d.lessons, d.kind) for d in few.days[2:6]] == [
        (1, (0,), "learn"),
        (1, (1,), "learn"),
        (1, (1,), "learn"),
        (0, (), "review"),
    ]
    assert make_plan("D", [("A", 5)], date(2027, 1, 1), date(2027, 1, 3)).new_per_day == 3  # no sweep
    for exam in (date(2027, 1, 1), date(2026, 12, 1)):
        with pytest.raises(PaperdeckError, match="is not after today"):
            make_plan("D", [("A", 5)], date(2027, 1, 1), exam)


def test_the_calendar_prints_the_plan_as_the_text_file_does(shipped) -> None:
    """The PDF beside the deck, read back: each lesson begins in the calendar's cell of the day
    the text file gives it; the pace, the sweep, the exam and every search are printed."""
    from tests.pdf_text import pages_text

    path, _ = shipped
    text = path.with_name("aiayn-plan.txt").read_text(encoding="utf-8")
    pages = pages_text(path.with_name("aiayn-plan.pdf"))
    assert len(pages) == 2
    printed = " ".join(" ".join(pages).split())
    assert f"Your plan to the exam on {TODAY + timedelta(days=30):%a %d %b %Y}" in printed
    assert "652 new cards, 29 a day from Mon 30 Nov" in printed and "652 new cards, 29 a day" in text
    assert 'tick "Import any deck presets"' in printed
    assert "Tools > Create Filtered Deck" in printed and "Reschedule cards based on my answers" in printed
    searches = [
        line.strip().split("   (")[0] for line in text.splitlines() if line.strip().startswith('deck:"')
    ]
    assert len(searches) == 4 and all(search in printed for search in searches)
    # The text file's lessons: "  Mon 30 Nov – Tue 01 Dec  01 Why Attention? … (55 cards)".
    lessons = [line.split("  ")[1:3] for line in text.splitlines() if line.endswith(" cards)")]
    assert len(lessons) == 13
    for n, (days, name) in enumerate(lessons, 1):
        assert f"L{n} {name.rsplit(' (', 1)[0]} {days}" in printed, name
    # The calendar's cells as read back: a day of the month on its own line, then what it holds.
    calendar = pages[0].split("Sun", 1)[1].split("“Begin L2”", 1)[0]
    cells: list[tuple[int, list[str]]] = []
    for line in calendar.splitlines():
        if match := re.fullmatch(r"(\d{1,2})( [A-Z][a-z]{2})?", line.strip()):
            cells.append((int(match[1]), []))
        elif cells:
            cells[-1][1].extend(line.split())
    assert [day for day, _ in cells] == [30, *range(1, 31)]
    begins = {int(words[i + 1][1:]): day for day, words in cells for i, w in enumerate(words) if w == "Begin"}
    assert begins == {n: int(days.split()[1]) for n, (days, _) in enumerate(lessons, 1)}
    assert [" ".join(words) for _, words in cells[-8:]] == ["Sweep: filtered decks"] * 7 + ["Exam"]


def _import(col: Collection, path: Path, presets: bool) -> None:
    options = ImportAnkiPackageOptions(with_scheduling=True, with_deck_configs=presets)
    col.import_anki_package(ImportAnkiPackageRequest(package_path=str(path), options=options))


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, items.Deck]:
    """The shipped deck recipe with an exam 30 days after the build's day, exported."""
    project = open_project(PROJECT)
    recipe = dataclasses.replace(project.recipes["aiayn"], exam=(TODAY + timedelta(days=30)).isoformat())
    deck = items.build_deck(project.content, recipe, 11)
    path = tmp_path_factory.mktemp("plan") / "aiayn.apkg"
    written = anki.export(deck, path, ExportOptions(build_time=STAMP))
    assert written == [path, path.with_name("aiayn-plan.txt"), path.with_name("aiayn-plan.pdf")]
    return path, deck


@pytest.mark.parametrize("presets", [False, True])
def test_the_shipped_deck_carries_its_pace_when_presets_are_imported(
    shipped, tmp_path: Path, presets: bool
) -> None:
    path, deck = shipped
    text = path.with_name("aiayn-plan.txt").read_text(encoding="utf-8")
    assert IMPORT_PRESETS in text
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        _import(col, path, presets)
        cards = len(col.find_cards(""))
        per_day = -(-cards // 23)  # 30 days less a week's sweep
        assert f"{cards} new cards, {per_day} a day" in text
        decks = [d for d in col.decks.all_names_and_ids() if d.name.startswith(deck.title)]
        assert len(decks) > 10
        for d in decks:
            config = col.decks.config_dict_for_deck_id(d.id)
            assert config["new"]["perDay"] == (per_day if presets else 20), d.name
        for line in text.splitlines():
            if 'deck:"' in line:
                search = line.strip().split("   (")[0]
                found = col.find_cards(search)  # raises if the library cannot parse it
                assert len(found) == (cards if "is:new" in search else 0), search
    finally:
        col.close()


def test_a_recipes_exam_date_is_checked_and_a_build_writes_the_plan(tmp_path: Path, capsys) -> None:
    from generator.cli import main

    project = tmp_path / "p"
    assert main(["new", str(project), "--title", "Layer Norm"]) == 0
    recipe = project / "decks" / "exam.yaml"
    recipe.write_text("kind: deck\ntitle: Layer Norm\nexam: 15/01/2027\n")
    assert main(["--project", str(project), "check"]) == 2
    err = capsys.readouterr().err
    assert "decks/exam.yaml:3: exam: expected a date like 2027-01-15, got '15/01/2027'" in err
    assert "Traceback" not in err
    recipe.write_text("kind: deck\ntitle: Layer Norm\nexam: 2099-01-15\n")
    assert main(["--project", str(project), "build", "--seed", "3"]) == 0
    plan = (project / "out" / "exam-plan.txt").read_text(encoding="utf-8")
    assert plan.startswith("Exam on Thu 15 Jan 2099: ") and IMPORT_PRESETS in plan
    assert "Exam on Thu 15 Jan 2099: " in capsys.readouterr().err

    recipe.write_text("kind: deck\ntitle: Layer Norm\n")
    site = project / "decks" / "site.yaml"
    site.write_text("kind: site\ntitle: Layer Norm\nexam: 30/02/2098\n")
    assert main(["--project", str(project), "check"]) == 2
    assert (
        "decks/site.yaml:3: exam: expected a date like 2027-01-15, got '30/02/2098'"
        in capsys.readouterr().err
    )
    site.write_text("kind: site\ntitle: Layer Norm\n")
    assert main(["--project", str(project), "build", "--exam", "2098-12-31"]) == 0
    plan = (project / "out" / "exam-plan.txt").read_text(encoding="utf-8")
    assert plan.startswith("Exam on Wed 31 Dec 2098: ")
    assert 'data-exam="2098-12-31"' in (project / "out" / "site" / "review.html").read_text(encoding="utf-8")
    assert main(["--project", str(project), "build", "--exam", "31/12/2098"]) == 2


def test_each_search_of_the_plan_selects_the_intended_cards_on_a_seeded_review_log(
    shipped, tmp_path: Path
) -> None:
    """Two cards failed and two passed today, one reviewed a month ago with a day's stability
    (retrievability far below 0.9), one lapsed three times but strong: each search of the plan,
    as printed, selects exactly its cards."""
    from anki.cards import FSRSMemoryState

    path, deck = shipped
    printed = [
        line.strip().split("   (")[0]
        for line in path.with_name("aiayn-plan.txt").read_text(encoding="utf-8").splitlines()
        if line.strip().startswith('deck:"')
    ]
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        _import(col, path, presets=True)
        col.set_config("fsrs", True)
        ids = sorted(col.find_cards(""))
        for cid, ease in zip(ids[:4], (1, 3, 1, 3), strict=True):
            card = col.get_card(cid)
            card.start_timer()
            col.sched.answerCard(card, ease)
        weak, lapsed = ids[10], ids[11]
        for cid, stability in ((weak, 1.0), (lapsed, 400.0)):
            card = col.get_card(cid)
            card.type = card.queue = 2
            card.ivl, card.due = (1, col.sched.today - 30) if cid == weak else (330, col.sched.today + 300)
            card.lapses = 3 if cid == lapsed else 0
            card.memory_state = FSRSMemoryState(stability=stability, difficulty=5.0)
            card.last_review_time = int(time.time()) - 31 * 86400
            col.update_card(card)
        found = {search.rsplit(" ", 1)[-1]: set(col.find_cards(search)) for search in printed}
        assert found == {
            "prop:r<0.9": {weak},
            "rated:7:1": {ids[0], ids[2]},
            "prop:lapses>=3": {lapsed},
            "is:new": set(ids) - {*ids[:4], weak, lapsed},
        }
    finally:
        col.close()


def test_a_students_own_pace_survives_a_reimport_with_presets(shipped, tmp_path: Path) -> None:
    """The student raises the preset's new cards a day; a later build, imported with "Import any
    deck presets" ticked again, leaves the student's value (as Anki 26.9.3 does: pinned)."""
    path, deck = shipped
    later = tmp_path / "aiayn.apkg"
    anki.export(deck, later, ExportOptions(build_time=STAMP + 86400))
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        _import(col, path, presets=True)
        did = col.decks.id_for_name(deck.title)
        config = col.decks.config_dict_for_deck_id(did)
        assert config["name"] == f"{deck.title} (exam {deck.exam})" and config["new"]["perDay"] != 50
        config["new"]["perDay"] = 50
        col.decks.update_config(config)
        _import(col, later, presets=True)
        assert col.decks.config_dict_for_deck_id(did)["new"]["perDay"] == 50
    finally:
        col.close()


def _own_retention(col: Collection, did: int) -> float | None:
    """A deck's own desired retention as Anki keeps it (None: the preset's)."""
    normal = col._backend.get_deck(did).normal
    return round(normal.desired_retention, 4) if normal.HasField("desired_retention") else None


@pytest.mark.parametrize("presets", [False, True])
def test_a_desired_retention_arrives_with_the_deck_and_a_students_own_survives(
    shipped, tmp_path: Path, presets: bool
) -> None:
    """``retention: 0.85`` is every deck's own desired retention after an import with Anki's
    default options (and the preset's, with "Import any deck presets"); a deck without it has
    none. The student sets 0.92 on the top deck; a later build with 0.80, imported again,
    changes no deck that exists (Anki 26.9.3, pinned): the student's 0.92 and the subdecks'
    0.85 stay."""
    path, deck = shipped
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        _import(col, path, presets)  # no retention: the student's preset decides
        titled = [d.id for d in col.decks.all_names_and_ids() if d.name.startswith(deck.title)]
        assert {_own_retention(col, did) for did in titled} == {None}
    finally:
        col.close()
    col = Collection(str(tmp_path / "retained.anki2"))
    try:
        first, later = tmp_path / "first.apkg", tmp_path / "later.apkg"
        anki.export(dataclasses.replace(deck, retention=0.85), first, ExportOptions(build_time=STAMP))
        anki.export(dataclasses.replace(deck, retention=0.8), later, ExportOptions(build_time=STAMP + 86400))
        _import(col, first, presets)
        top = col.decks.id_for_name(deck.title)
        titled = [d.id for d in col.decks.all_names_and_ids() if d.name.startswith(deck.title)]
        assert len(titled) > 10 and {_own_retention(col, did) for did in titled} == {0.85}
        assert col.decks.config_dict_for_deck_id(top)["desiredRetention"] == pytest.approx(
            0.85 if presets else 0.9
        )
        own = col.decks.get(top)
        own["desiredRetention"] = 92  # as the deck options screen's "This deck" retention writes it
        col.decks.save(own)
        _import(col, later, presets)
        assert _own_retention(col, top) == 0.92
        assert {_own_retention(col, did) for did in titled if did != top} == {0.85}
    finally:
        col.close()


def test_a_retention_is_checked_in_the_recipe_and_the_option(tmp_path: Path, capsys) -> None:
    from generator.cli import main

    project = tmp_path / "p"
    assert main(["new", str(project), "--title", "Layer Norm"]) == 0
    recipe = project / "decks" / "kept.yaml"
    recipe.write_text("kind: deck\ntitle: Layer Norm\nretention: 0.855\n")
    assert main(["--project", str(project), "check"]) == 2
    err = capsys.readouterr().err
    assert "decks/kept.yaml:3: retention: expected a desired retention from 0.70 to 0.99 in hundredths" in err
    recipe.write_text("kind: deck\ntitle: Layer Norm\n")
    assert main(["--project", str(project), "build", "--retention", "0.5"]) == 2
    assert "'--retention': expected a desired retention from 0.70 to 0.99" in capsys.readouterr().err
    assert main(["--project", str(project), "build", "--retention", "0.85"]) == 0
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        _import(col, project / "out" / "kept.apkg", presets=False)
        assert _own_retention(col, col.decks.id_for_name("Layer Norm")) == 0.85
    finally:
        col.close()
