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

from pathlib import Path

from ... import visuals
from ...documents.items import Deck
from ...errors import about
from ...files.atomic import write_bytes
from ...identity import anki_id, note_guid
from ...presentation import build_time
from .. import ExportOptions
from . import notetypes
from .markup import block
from .notes import BUILDERS, BuiltNote, Figures, build_note
from .package import DeckRow, NoteRow, collection_bytes, package_bytes

__all__ = ["BUILDERS", "build_package", "deck_id", "export", "note_guid"]


def deck_id(name: str) -> int:
    """The id of the Anki deck with this full name (``Title::Group``)."""
    return anki_id("deck", name)


def _deck_rows(deck: Deck) -> tuple[list[DeckRow], dict[str, int]]:
    """Every deck and parent deck, with its id; lessons' decks describe the lesson."""
    rows: dict[str, DeckRow] = {deck.title: DeckRow(deck_id(deck.title), deck.title,
                                                    "Built by paperdeck.")}
    for item in deck.items:
        parts = item.group.split("::")
        for depth in range(1, len(parts) + 1):
            name = "::".join([deck.title, *parts[:depth]])
            if name not in rows:
                text = block(item.lesson.text) if item.lesson is not None and depth == len(parts) else ""
                rows[name] = DeckRow(deck_id(name), name, text)
    return list(rows.values()), {name: row.id for name, row in rows.items()}


def build_package(deck: Deck, options: ExportOptions) -> bytes:
    """The ``.apkg`` bytes of ``deck``."""
    stamp = build_time(options.build_time)
    figures = Figures(options.figures or visuals.default_cache_dir())
    decks, ids = _deck_rows(deck)
    notes: list[NoteRow] = []
    media: dict[str, Path] = {}
    for position, item in enumerate(deck.items, 1):
        with about(f"building the Anki note of {item.kind} {item.key!r}"):
            built: BuiltNote = build_note(item, figures)
        for path in built.media:
            media.setdefault(path.name, path)
        tags = tuple(tag.replace(" ", "_") for tag in item.tags)
        notes.append(NoteRow(note_guid(deck.paper_id, item.key), built.note_type, built.fields, tags,
                             ids[f"{deck.title}::{item.group}"], built.cards, position))
    used = {note.note_type.id: note.note_type for note in notes}
    note_types = [nt for nt in notetypes.ALL if nt.id in used]
    collection = collection_bytes(decks, note_types, notes, stamp, ids[deck.title])
    return package_bytes(collection, [media[name] for name in sorted(media)], stamp)


def export(deck: Deck, path: Path, options: ExportOptions) -> list[Path]:
    """Write ``deck`` as an Anki package at ``path``, atomically."""
    write_bytes(path, build_package(deck, options))
    return [path]
