"""Identity: every id, GUID and slot that a learner's history or an issued quiz hangs on.

Anki finds a note type by its id, a deck by its id and a note by its GUID; a
rebuild that changed one of them would make new notes with no review history
(or a note type Anki calls "conflicting"). So each is derived here, once, from
stable names only, never from field text or from Python's string hashing:

- ``anki_id("Concept", "v1")``: a note type's id; ``anki_id("deck", name)``: a deck's;
- ``note_guid(paper_id, key)``: a note's GUID from its item key;
- ``problem_slot`` and ``remedial_slot``: the item key of a generated problem, so a
  rebuild with new numbers fills the same note;
- ``name_digest``: 64 bits of a name, for seeds keyed by a name (a student, an item);
- ``option_order``: the order a multiple-choice question shows its options in, on a card
  and on the site alike.

Problem seeds are ``problems.problem_seed``'s; quiz form seeds are keyed by the
teacher's secret in ``quiz``. ``tests/test_identity_golden.py`` pins stored
values of all of them: a change that would orphan review history fails there.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import TypeVar

from genanki.util import guid_for

__all__ = [
    "anki_id",
    "name_digest",
    "note_guid",
    "option_order",
    "problem_slot",
    "remedial_slot",
    "site_store",
    "student_key",
]

_Option = TypeVar("_Option")


def anki_id(*names: str) -> int:
    """A positive id below 2**53 (exact in JavaScript) from ``paperdeck/<names joined by />``."""
    digest = hashlib.sha256("/".join(("paperdeck", *names)).encode()).digest()
    return (1 << 40) + int.from_bytes(digest[:8], "big") % (1 << 52)


def note_guid(paper_id: str, key: str) -> str:
    """The GUID of the note of the item with this key; never depends on its text."""
    return str(guid_for("paperdeck", paper_id, key))


def name_digest(name: str) -> int:
    """The first 64 bits of SHA-256 of ``name`` (UTF-8), big-endian."""
    return int.from_bytes(hashlib.sha256(name.encode("utf-8")).digest()[:8], "big")


def option_order(key: str, options: Sequence[_Option]) -> list[_Option]:
    """A multiple-choice question's options (the answer, then the distractors as the content
    lists them) in the order every output shows them: shuffled by a seed from the item's key
    alone, so an edited option keeps its letter's neighbours and a card and the site agree."""
    shown = list(options)
    random.Random(name_digest(f"options/{key}")).shuffle(shown)
    return shown


def site_store(paper_id: str, arxiv: str, recipe: str) -> str:
    """The name of a study site's progress in the browser's storage, which every ``file://``
    page shares: 64 bits of its paper (id and arXiv id, so two papers a scaffold gave one id
    stay apart) and its recipe, never its text. Copies of one site share their progress."""
    return "paperdeck:site:" + hashlib.sha256("/".join((paper_id, arxiv, recipe)).encode()).hexdigest()[:16]


def problem_slot(prefix: str, type_id: str, difficulty: str, index: int) -> str:
    """The key of problem ``index`` (from 1) of a set: ``aiayn/sdpa/easy/1``."""
    return f"{prefix}/{type_id}/{difficulty}/{index}"


def student_key(student: str) -> str:
    """The student as slot keys name them: spaces collapsed, case folded."""
    return " ".join(student.split()).casefold()


def remedial_slot(student: str, type_id: str, index: int) -> str:
    """The key of a student's remedial problem: the student and the type, never the quiz."""
    return f"review/{student_key(student)}/{type_id}/{index}"
