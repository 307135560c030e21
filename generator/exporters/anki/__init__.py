"""The Anki exporter: a ``Deck`` of study items to an ``.apkg`` file.

One top-level deck (``deck.title``) with a subdeck per item group, new cards in
teaching order, hierarchical tags, and a small fixed set of note types
(``notetypes``). Identity never depends on field text:

- deck ids come from the deck's full name, note-type ids from ``paperdeck/<Name>/v1``;
- a note's GUID comes from the paper id and ``item.key`` (a content id, or a problem's
  slot), so a rebuild with new numbers updates the same notes and keeps their
  review history;
- every note, card, note type and deck is stamped with the build time, because Anki
  applies an update only when the incoming modification time (whole seconds) is
  newer. ``SOURCE_DATE_EPOCH``, when set, is that time, and then two builds of the
  same deck are byte-identical.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime
from pathlib import Path

from ... import visuals
from ...documents.items import Deck, item_errors
from ...documents.plan import Plan, make_plan, plan_text
from ...files.atomic import write_bytes
from ...identity import anki_id, note_guid
from ...presentation import build_time
from .. import ExportOptions
from . import notetypes
from .markup import block
from .notes import BUILDERS, BuiltNote, Figures, build_note
from .package import DeckRow, NoteRow, Preset, collection_bytes, package_bytes

__all__ = ["BUILDERS", "build_package", "deck_id", "export", "note_guid"]


def deck_id(name: str) -> int:
    """The id of the Anki deck with this full name (``Title::Group``)."""
    return anki_id("deck", name)


def _deck_rows(deck: Deck) -> tuple[list[DeckRow], dict[str, int]]:
    """Every deck and parent deck, with its id; lessons' decks describe the lesson."""
    rows: dict[str, DeckRow] = {deck.title: DeckRow(deck_id(deck.title), deck.title, "Built by paperdeck.")}
    for item in deck.items:
        parts = item.group.split("::")
        for depth in range(1, len(parts) + 1):
            name = "::".join([deck.title, *parts[:depth]])
            if name not in rows:
                text = block(item.lesson.text) if item.lesson is not None and depth == len(parts) else ""
                rows[name] = DeckRow(deck_id(name), name, text)
    return list(rows.values()), {name: row.id for name, row in rows.items()}


def deck_plan(deck: Deck, notes: Sequence[NoteRow], stamp: int) -> Plan | None:
    """The plan of a deck with an exam date, from the build's day (UTC); its new cards are its
    notes' cards, per lesson in teaching order."""
    if not deck.exam:
        return None
    cards: dict[str, int] = {}
    for item, note in zip(deck.items, notes, strict=True):
        cards[item.group] = cards.get(item.group, 0) + len(note.cards)
    today = datetime.fromtimestamp(stamp, UTC).date()
    return make_plan(deck.title, list(cards.items()), today, date.fromisoformat(deck.exam))


def build_package(deck: Deck, options: ExportOptions) -> bytes:
    """The ``.apkg`` bytes of ``deck``."""
    return _package(deck, options)[0]


def _package(deck: Deck, options: ExportOptions) -> tuple[bytes, Plan | None]:
    """The ``.apkg`` bytes of ``deck`` and its plan (None without an exam date)."""
    stamp = build_time(options.build_time)
    figures = Figures(options.figures or visuals.default_cache_dir())
    decks, ids = _deck_rows(deck)
    notes: list[NoteRow] = []
    media: dict[str, Path] = {}
    for position, item in enumerate(deck.items, 1):
        with item_errors(item):
            built: BuiltNote = build_note(item, figures)
        for path in built.media:
            media.setdefault(path.name, path)
        tags = tuple(tag.replace(" ", "_") for tag in item.tags)
        notes.append(
            NoteRow(
                note_guid(deck.paper_id, item.key),
                built.note_type,
                built.fields,
                tags,
                ids[f"{deck.title}::{item.group}"],
                built.cards,
                position,
            )
        )
    used = {note.note_type.id: note.note_type for note in notes}
    note_types = [nt for nt in notetypes.ALL if nt.id in used]
    plan = deck_plan(deck, notes, stamp)
    preset = Preset(ids[deck.title], f"{deck.title} (exam {deck.exam})", plan.new_per_day) if plan else None
    collection = collection_bytes(decks, note_types, notes, stamp, ids[deck.title], preset, deck.retention)
    return package_bytes(collection, [media[name] for name in sorted(media)], stamp), plan


def export(deck: Deck, path: Path, options: ExportOptions) -> list[Path]:
    """Write ``deck`` as an Anki package at ``path``, atomically; a deck with an exam date gets
    its plan beside it (``documents/plan.py``) as text and as a calendar to print
    (``<name>-plan.txt``, ``<name>-plan.pdf``)."""
    data, plan = _package(deck, options)
    write_bytes(path, data)
    if plan is None:
        return [path]
    from ..plan_calendar import calendar_pdf  # Typst only for a deck with a plan

    text, calendar = path.with_name(f"{path.stem}-plan.txt"), path.with_name(f"{path.stem}-plan.pdf")
    write_bytes(text, (plan_text(plan) + "\n").encode("utf-8"))
    write_bytes(calendar, calendar_pdf(plan, options.paper, build_time(options.build_time)))
    return [path, text, calendar]
