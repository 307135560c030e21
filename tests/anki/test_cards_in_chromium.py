"""Cards as a learner sees them: Anki's reviewer page and MathJax in headless Chromium.

Decks are imported into the real Anki library, which renders each card's HTML;
``reviewer.Reviewer`` shows it with Anki desktop's own ``reviewer.js``. Problem
cards rotate through their problems by date: the tests set the day, and show the
answer side both on the same page (Anki desktop) and on a fresh page (AnkiDroid,
AnkiMobile).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator import problems
from generator.content.recipes import ProblemSet
from generator.documents import items
from generator.exporters.plain_text import prose

from .conftest import TITLE, make_content
from .reviewer import Reviewer

DAY_MS = 86_400_000
NOON = 1_780_000_000_000 // DAY_MS * DAY_MS + DAY_MS // 2  # a day in 2026, at noon UTC


@pytest.fixture(scope="module")
def reviewer(tmp_path_factory) -> Reviewer:
    shown = Reviewer(tmp_path_factory.mktemp("reviewer"))
    yield shown
    shown.close()


@pytest.fixture(scope="module")
def practice_cards(tmp_path_factory, figure_cache):
    """One medium problem of every type, imported into Anki: (item, question html, answer html)."""
    from anki.collection import Collection

    from generator.exporters import ExportOptions, anki

    sets = [ProblemSet(type_id, 1, "medium") for type_id in sorted(problems.all_types())]
    deck = items.build_practice(make_content(), sets, seed=11)
    folder = tmp_path_factory.mktemp("practice")
    path = folder / "practice.apkg"
    anki.export(deck, path, ExportOptions(build_time=1_700_000_000, figures=figure_cache))
    col = Collection(str(folder / "collection.anki2"))
    from .conftest import _import_package

    _import_package(col, path)
    cards = []
    for item in deck.items:
        (nid,) = col.find_notes(f'"Id:{item.key}"')
        card = col.get_note(nid).cards()[0]
        cards.append((item, card.question(), card.answer()))
    col.close()
    return cards


def _days(reviewer: Reviewer, question: str, answer: str, days: range, phone_every: int) -> list[dict]:
    shown = []
    for day in days:
        reviewer.set_day(NOON + day * DAY_MS)
        reviewer.show("question", question)
        front = reviewer.state()
        reviewer.show("answer", answer)
        back = reviewer.state()
        phone = None
        if day % phone_every == 0:
            reviewer.reload(clear_storage=True)  # a phone: a new page, nothing kept
            reviewer.set_day(NOON + day * DAY_MS)
            reviewer.show("answer", answer)
            phone = reviewer.state()
        shown.append({"front": front, "back": back, "phone": phone})
    return shown


def test_every_problem_card_shows_a_new_problem_each_day_and_its_back_agrees(reviewer, practice_cards):
    for item, question, answer in practice_cards:
        many = item.body.type in ("sdpa", "softmax")
        shown = _days(reviewer, question, answer, range(30 if many else 6), phone_every=5 if many else 3)
        seeds = {v.seed: v for v in item.variants}
        for day in shown:
            front, back, phone = day["front"], day["back"], day["phone"]
            assert front["seed"] == back["seed"] and front["expected"] == back["expected"], item.key
            assert phone is None or (phone["seed"], phone["expected"]) == (front["seed"], front["expected"])
            assert int(front["seed"]) in seeds, "the card shows one of its note's problems"
            assert front["math"] > 0 and not front["rawMath"] and not back["rawMath"], "MathJax typeset it"
            variant = seeds[int(front["seed"])]
            regenerated = problems.generate_one(item.body.type, variant.seed, item.body.difficulty)
            assert regenerated.answer == variant.answer, "the seed on the card regenerates its problem"
        distinct = {day["front"]["seed"] for day in shown}
        assert len(distinct) == len(shown), f"{item.key}: a problem repeated within {len(shown)} days"


def test_the_typed_answer_is_checked_against_the_problem_shown(reviewer, practice_cards):
    item, question, answer = next(c for c in practice_cards if c[0].body.type == "sdpa")
    for phone in (False, True):
        for day, kind in ((3, "right"), (4, "mistake"), (5, "wrong")):
            reviewer.reload()
            reviewer.set_day(NOON + day * DAY_MS)
            reviewer.show("question", question)
            variant = item.variants[int(reviewer.state()["variant"])]
            output = [x for row in variant.answer["output"] for x in row]
            if kind == "right":
                typed = " ".join(f"{x:.3f}" for x in output)
            elif kind == "mistake":
                mistake = variant.distractors[0]
                typed = " ".join(f"{x:.4f}" for row in mistake.answer["output"] for x in row)
            else:
                typed = " ".join(f"{x + 0.5:.3f}" for x in output)
            reviewer.type_answer(typed)
            if phone:
                reviewer.reload()  # a new page; the typed answer waits in sessionStorage
                reviewer.set_day(NOON + day * DAY_MS)
            reviewer.show("answer", answer)
            state = reviewer.state()
            assert state["seed"] == str(variant.seed)
            if kind == "right":
                assert state["verdict"] == "pd-verdict pd-right", state
            else:
                assert state["verdict"] == "pd-verdict pd-wrong", state
                assert state["hit"] == (prose(mistake.mistake) if kind == "mistake" else None), state


def test_every_note_type_fits_a_phone_in_day_and_night(reviewer, tmp_path, figure_cache):
    """Every card of the shipped deck's lessons and of one problem of each type, at 360 px."""
    from anki.collection import Collection

    from generator.exporters import ExportOptions, anki
    from generator.project import open_project

    project = open_project(Path(__file__).resolve().parents[2])
    recipe = project.deck_recipe(None)
    deck = items.build_deck(project.content, recipe, seed=3)
    path = tmp_path / "deck.apkg"
    anki.export(deck, path, ExportOptions(build_time=1_700_000_000, figures=figure_cache))
    col = Collection(str(tmp_path / "collection.anki2"))
    from .conftest import _import_package

    _import_package(col, path)
    too_wide = []
    checked: set[str] = set()
    for cid in col.find_cards(f'"deck:{TITLE}*"'):
        card = col.get_card(cid)
        note_type = card.note_type()["name"]
        kind = f"{note_type}/{card.ord}"
        # Every worked example (their vectors are the widest), one card of every other kind.
        if kind in checked and note_type != "paperdeck Worked Example":
            continue
        checked.add(kind)
        for night in (False, True):
            reviewer.show("question", card.question(), night)
            reviewer.show("answer", card.answer(), night)
            for element in reviewer.overflow():
                too_wide.append(f"{card.note()['Id']} ({kind}, {'night' if night else 'day'}): {element}")
    col.close()
    assert len(checked) >= 9
    assert not too_wide, "\n".join(too_wide[:20])
