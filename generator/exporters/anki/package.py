"""Write an ``.apkg``: a schema-11 collection (genanki's schema and ``col`` row) and media, zipped.

genanki's own ``Package.write_to_file`` stamps wall-clock times into the zip entries
and numbers notes from the clock, so two builds never match. This writer uses
genanki's collection pieces but writes every row itself, from one build timestamp:
note and card ids count up from it, every ``mod`` is it, and every zip entry carries
it as its date. The database is built in memory and serialized, so the same inputs
and timestamp give the same bytes.
"""

from __future__ import annotations

import json
import sqlite3
import time
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

from genanki.apkg_col import APKG_COL
from genanki.apkg_schema import APKG_SCHEMA

from .notetypes import NoteType


@dataclass(frozen=True)
class DeckRow:
    """One Anki deck of the package."""

    id: int
    name: str
    description: str = ""


@dataclass(frozen=True)
class NoteRow:
    """One note and its cards, ready to write."""

    guid: str
    note_type: NoteType
    fields: Sequence[str]
    tags: Sequence[str]
    deck_id: int
    cards: Sequence[int]
    due: int
    """Position of its new cards: the order Anki introduces them in."""


@dataclass(frozen=True)
class Preset:
    """The deck options every deck of the package uses (an exam's pace, ``documents/plan.py``):
    Anki's defaults but for the new cards a day. Anki takes a package's presets only when the
    student ticks "Import any deck presets"."""

    id: int
    name: str
    new_per_day: int


def _deck_json(deck: DeckRow, mod: int, conf: int = 1, retention: float | None = None) -> dict[str, object]:
    # A deck's own desired retention (Anki 25.09 and later, FSRS only) is kept in schema 11 as
    # whole percent: 85 is 0.85 (a fraction such as 0.85 is read as none).
    own = {} if retention is None else {"desiredRetention": round(retention * 100)}
    return own | {
        "id": deck.id,
        "name": deck.name,
        "desc": deck.description,
        "mod": mod,
        "usn": -1,
        "collapsed": False,
        "browserCollapsed": False,
        "conf": conf,
        "dyn": 0,
        "extendNew": 0,
        "extendRev": 0,
        "newToday": [0, 0],
        "revToday": [0, 0],
        "lrnToday": [0, 0],
        "timeToday": [0, 0],
    }


def collection_bytes(
    decks: Iterable[DeckRow],
    note_types: Iterable[NoteType],
    notes: Sequence[NoteRow],
    stamp: int,
    main_deck_id: int,
    preset: Preset | None = None,
    retention: float | None = None,
) -> bytes:
    """The ``collection.anki2`` database for these decks, note types and notes; with a
    ``preset``, every deck uses it; with a desired ``retention``, every deck has it as its own
    (and the preset as its)."""
    db = sqlite3.connect(":memory:")
    try:
        # Fields run to kilobytes; large pages keep them off overflow chains, which makes
        # the database a quarter smaller and faster to build and to deflate.
        db.execute("PRAGMA page_size = 65536")
        db.executescript(APKG_SCHEMA)
        db.executescript(APKG_COL)
        models = {str(nt.id): nt.to_json(stamp, main_deck_id) for nt in note_types}
        deck_json = json.loads(db.execute("SELECT decks FROM col").fetchone()[0])
        deck_json.update(
            {str(d.id): _deck_json(d, stamp, preset.id if preset else 1, retention) for d in decks}
        )
        db.execute(
            "UPDATE col SET models = ?, decks = ?, mod = ?",
            (json.dumps(models, sort_keys=True), json.dumps(deck_json, sort_keys=True), stamp * 1000),
        )
        if preset is not None:
            options = json.loads(db.execute("SELECT dconf FROM col").fetchone()[0])
            default = options["1"]
            options[str(preset.id)] = dict(
                default,
                id=preset.id,
                name=preset.name,
                mod=stamp,
                usn=-1,
                new=dict(default["new"], perDay=preset.new_per_day),
            )
            if retention is not None:  # a fraction here, as Anki's presets keep it
                options[str(preset.id)]["desiredRetention"] = retention
            db.execute("UPDATE col SET dconf = ?", (json.dumps(options, sort_keys=True),))
        note_rows, card_rows = [], []
        # Ids are creation times in milliseconds in Anki; counting up from the build time
        # keeps them unique and ordered. The importer matches notes by GUID, not by id.
        next_id = stamp * 1000
        for note in notes:
            note_id = next_id
            next_id += 1
            # The sort field and its checksum are caches that Anki recomputes from the
            # fields when it imports a note (as genanki relies on too), so none is written.
            note_rows.append(
                (
                    note_id,
                    note.guid,
                    note.note_type.id,
                    stamp,
                    -1,
                    " " + " ".join(note.tags) + " " if note.tags else "",
                    "\x1f".join(note.fields),
                    "",
                    0,
                    0,
                    "",
                )
            )
            for ordinal in note.cards:
                card_rows.append(
                    (
                        next_id,
                        note_id,
                        note.deck_id,
                        ordinal,
                        stamp,
                        -1,
                        0,
                        0,
                        note.due,
                        0,
                        0,
                        0,
                        0,
                        0,
                        0,
                        0,
                        0,
                        "",
                    )
                )
                next_id += 1
        db.executemany("INSERT INTO notes VALUES (?,?,?,?,?,?,?,?,?,?,?)", note_rows)
        db.executemany("INSERT INTO cards VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", card_rows)
        db.commit()
        return db.serialize()
    finally:
        db.close()


_ZIP_EPOCH = 315532800  # 1980-01-01, the earliest date a zip entry can hold


# Level 3 deflates a practice collection to about 1/14 of its size at less than half
# the time of the default level 6, which would add a third to the export time.
_DEFLATE_LEVEL = 3


def _entry(name: str, stamp: int, compress: int) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=time.gmtime(max(stamp, _ZIP_EPOCH))[:6])
    info.compress_type = compress
    if compress == zipfile.ZIP_DEFLATED:
        # ZipInfo takes no level before Python 3.13 (compress_level); writestr reads this one.
        setattr(
            info, "compress_level" if hasattr(info, "compress_level") else "_compresslevel", _DEFLATE_LEVEL
        )
    info.create_system = 3  # the default depends on the building OS
    info.external_attr = 0o644 << 16
    return info


def package_bytes(collection: bytes, media: Sequence[Path], stamp: int) -> bytes:
    """The zip Anki imports: the collection, the ``media`` map and numbered media files."""
    buffer = BytesIO()
    with zipfile.ZipFile(buffer, "w") as package:
        package.writestr(_entry("collection.anki2", stamp, zipfile.ZIP_DEFLATED), collection)
        package.writestr(
            _entry("media", stamp, zipfile.ZIP_DEFLATED),
            json.dumps({str(i): path.name for i, path in enumerate(media)}),
        )
        for i, path in enumerate(media):
            # PNGs are compressed already.
            package.writestr(_entry(str(i), stamp, zipfile.ZIP_STORED), path.read_bytes())
    return buffer.getvalue()
