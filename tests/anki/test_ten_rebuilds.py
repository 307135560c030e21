"""Months of use, compressed: ten builds of the shipped deck, each imported after study."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.cli import main

pytestmark = pytest.mark.long  # handed out to a worker early: tests/conftest.py

PROJECT = Path(__file__).resolve().parents[2]
START = 1_700_000_000


def test_ten_rebuild_and_import_cycles_lose_no_review_and_duplicate_nothing(
    col, import_package, tmp_path, monkeypatch
):
    def build_deck(out: Path, seed: int, stamp: int) -> Path:
        """``paperdeck deck`` at time ``stamp``, in this process (no interpreter start per build)."""
        path = out / f"aiayn-{seed}.apkg"
        monkeypatch.setenv("SOURCE_DATE_EPOCH", str(stamp))
        assert main(["--project", str(PROJECT), "--quiet", "deck", "-o", str(path), "--seed", str(seed)]) == 0
        return path

    import_package(col, build_deck(tmp_path, 0, START))
    notes = sorted(col.find_notes(""))
    cards = col.card_count()
    note_types = sorted(nt.id for nt in col.models.all_names_and_ids())
    reviews = 0
    expected_before = None
    for cycle in range(1, 11):
        # Study a few cards of the first lesson and of the practice problems.
        for deck in (
            "Attention Is All You Need::01 Why Attention? Recurrence, Convolution and the Transformer",
            "Attention Is All You Need::Practice",
        ):
            col.decks.select(col.decks.id_for_name(deck))
            for _ in range(2):
                card = col.sched.getCard()
                if card is not None:
                    col.sched.answerCard(card, 3)
                    reviews += 1
        revlog = col.db.all("select id, cid, ease from revlog order by id")
        schedule = col.db.all("select id, nid, did, type, queue, due, ivl, reps from cards order by id")
        practice = col.find_notes('"deck:Attention Is All You Need::Practice"')
        expected_before = [col.get_note(n)["Expected"] for n in practice]

        result = import_package(col, build_deck(tmp_path, cycle, START + 60 * cycle))

        assert not result.log.new and not result.log.duplicate and not result.log.conflicting
        assert sorted(col.find_notes("")) == notes, f"cycle {cycle}: notes added or lost"
        assert col.card_count() == cards
        assert sorted(nt.id for nt in col.models.all_names_and_ids()) == note_types
        assert col.db.all("select id, cid, ease from revlog order by id") == revlog
        assert len(revlog) == reviews
        assert (
            col.db.all("select id, nid, did, type, queue, due, ivl, reps from cards order by id") == schedule
        ), f"cycle {cycle}: scheduling changed"
        after = [col.get_note(n)["Expected"] for n in practice]
        assert after != expected_before, f"cycle {cycle}: practice problems kept their numbers"
    assert reviews >= 30
