"""Problem cards imported into the real Anki library and shown in Anki's reviewer page,
shared by the tests of cards in Chromium (each test file makes its own, so that
pytest-xdist can run the files side by side)."""

from __future__ import annotations

from pathlib import Path

from generator import problems
from generator.content.recipes import ProblemSet
from generator.documents import items

from .conftest import _import_package, make_content
from .reviewer import Reviewer

DAY_MS = 86_400_000
NOON = 1_780_000_000_000 // DAY_MS * DAY_MS + DAY_MS // 2  # a day in 2026, at noon UTC
MANY_DAYS = ("sdpa", "softmax")
"""Problem types whose cards are shown for 30 days (the others for 6)."""


def practice_cards(folder: Path, figure_cache: Path, types: list[str]) -> dict[str, tuple]:
    """One medium problem of each of ``types``, imported into Anki, by type: (item, question html,
    answer html)."""
    from anki.collection import Collection

    from generator.exporters import ExportOptions, anki

    sets = [ProblemSet(type_id, 1, "medium") for type_id in types]
    deck = items.build_practice(make_content(), sets, seed=11)
    path = folder / "practice.apkg"
    anki.export(deck, path, ExportOptions(build_time=1_700_000_000, figures=figure_cache))
    col = Collection(str(folder / "collection.anki2"))
    _import_package(col, path)
    cards = {}
    for item in deck.items:
        (nid,) = col.find_notes(f'"Id:{item.key}"')
        card = col.get_note(nid).cards()[0]
        cards[item.body.type] = (item, card.question(), card.answer())
    col.close()
    return cards


def _days(reviewer: Reviewer, question: str, answer: str, days: range, phone_every: int) -> list[dict]:
    shown = []
    for day in days:
        front = reviewer.show("question", question, day=NOON + day * DAY_MS)
        back = reviewer.show("answer", answer)
        phone = None
        if day % phone_every == 0:
            reviewer.reload(clear_storage=True)  # a phone: a new page, nothing kept
            phone = reviewer.show("answer", answer, day=NOON + day * DAY_MS)
        shown.append({"front": front, "back": back, "phone": phone})
    return shown


def check_a_new_problem_each_day(reviewer: Reviewer, card: tuple) -> None:
    """The card shows one of its note's problems, a different one each day, and its back (on the
    same page, and on a phone's fresh page) agrees with its front."""
    item, question, answer = card
    many = item.body.type in MANY_DAYS
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
