"""Cards as a learner sees them: Anki's reviewer page and MathJax in headless Chromium.

Decks are imported into the real Anki library, which renders each card's HTML;
``reviewer.Reviewer`` shows it with Anki desktop's own ``reviewer.js``. Problem
cards rotate through their problems by date: the tests set the day, and show the
answer side both on the same page (Anki desktop) and on a fresh page (AnkiDroid,
AnkiMobile). Each problem card's days: test_problem_cards_each_day*.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.documents import items
from generator.exporters.plain_text import prose

from .conftest import TITLE
from .problem_cards import DAY_MS, NOON, practice_cards


@pytest.fixture(scope="module")
def sdpa_card(tmp_path_factory, figure_cache):
    return practice_cards(tmp_path_factory.mktemp("practice"), figure_cache, ["sdpa"])["sdpa"]


def test_the_typed_answer_is_checked_against_the_problem_shown(reviewer, sdpa_card):
    item, question, answer = sdpa_card
    for phone in (False, True):
        for day, kind in ((3, "right"), (4, "mistake"), (5, "wrong")):
            reviewer.reload()
            shown = reviewer.show("question", question, day=NOON + day * DAY_MS)
            variant = item.variants[int(shown["variant"])]
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
            state = reviewer.show("answer", answer, day=NOON + day * DAY_MS)
            assert state["seed"] == str(variant.seed)
            if kind == "right":
                assert state["verdict"] == "pd-verdict pd-right", state
            else:
                assert state["verdict"] == "pd-verdict pd-wrong", state
                assert state["hit"] == (prose(mistake.mistake) if kind == "mistake" else None), state


SYMBOLS_FIT = """var card = document.querySelector('.pd').getBoundingClientRect(), out = [];
    var tables = document.querySelectorAll('.pd-symbols');
    for (var i = 0; i < tables.length; i++) {
      var t = tables[i];
      if (t.scrollWidth > t.clientWidth + 1) {
        out.push('the table scrolls: ' + t.scrollWidth + ' > ' + t.clientWidth); }
      var cells = t.querySelectorAll('td');
      for (var j = 0; j < cells.length; j++) {
        var r = cells[j].getBoundingClientRect();
        if (r.width && r.right > card.right + 0.5) {
          out.push('cell ' + j + ' ends at ' + Math.round(r.right)); }
      }
    }
    return [tables.length, out];"""
"""On an Equation card: how many symbol tables, and what of them runs off the card or scrolls."""


def test_every_equations_symbols_fit_a_phone(reviewer, tmp_path, figure_cache):
    """At 360 px every Equation card's symbols, Meaning included, lie within the card: a wide
    symbol (MultiHead(Q, K, V), 226 px of math) made the table 459 px wide in a 336 px card, its
    Meaning column out of sight in a box that scrolled."""
    from anki.collection import Collection

    from generator.exporters import ExportOptions, anki
    from generator.project import open_project

    project = open_project(Path(__file__).resolve().parents[2])
    deck = items.build_deck(project.content, project.deck_recipe(None), seed=3)
    path = tmp_path / "deck.apkg"
    anki.export(deck, path, ExportOptions(build_time=1_700_000_000, figures=figure_cache))
    col = Collection(str(tmp_path / "collection.anki2"))
    from .conftest import _import_package

    _import_package(col, path)
    tables, off = 0, []
    for cid in col.find_cards(f'"deck:{TITLE}*" "note:paperdeck Equation"'):
        card = col.get_card(cid)
        reviewer.show("question", card.question())
        reviewer.show("answer", card.answer())
        count, found = reviewer.run(SYMBOLS_FIT)
        tables += count
        off += [f"{card.note()['Id']}/{card.ord}: {f}" for f in found]
    col.close()
    assert tables > 10
    assert off == []


def test_every_note_type_fits_a_phone_in_day_and_night(reviewer, tmp_path, figure_cache):
    """At 360 px, day and night: every worked example of the shipped deck (their vectors are the
    widest) and one card of every other note type and side, problems of each type included."""
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
