"""File names made from people's names: safe on every file system, bounded, unique.

``safe_stem`` is the one helper that turns a student's name into the stem of a file
name (remedial decks ``remedial/<stem>.apkg``, feedback ``feedback/<stem>.pdf``):
letters and digits of any script are kept (a Chinese name stays readable), every
other run of characters becomes one ``-``, and the stem is at most
``MAX_STEM_BYTES`` bytes of UTF-8, so with any suffix it stays far below the 255
bytes most file systems allow for a name. A name cut short ends in 8 characters of
its SHA-256, so two long names that share a beginning get different stems. Names
that mean a device on Windows (``con``, ``nul``, ``com1`` …) get a ``-`` after them.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

MAX_STEM_BYTES = 80
"""Longest stem, in bytes of UTF-8 (26 CJK characters, 80 Latin letters)."""
_NOT_WORD = re.compile(r"[\W_]+", re.UNICODE)
_WINDOWS_DEVICES = frozenset(
    {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}
)


def safe_stem(name: str, fallback: str = "student") -> str:
    """A file-name stem for ``name`` (lower case; ``fallback`` when nothing is left)."""
    cleaned = unicodedata.normalize("NFC", name).casefold()
    stem = _NOT_WORD.sub("-", cleaned).strip("-") or fallback
    if len(stem.encode("utf-8")) > MAX_STEM_BYTES:
        digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:8]
        budget = MAX_STEM_BYTES - len(digest) - 1
        cut = stem.encode("utf-8")[:budget].decode("utf-8", errors="ignore").rstrip("-")
        stem = f"{cut}-{digest}"
    if stem.split(".")[0] in _WINDOWS_DEVICES:
        stem += "-"
    return stem


def unique_name(name: str, suffix: str, taken: set[str]) -> str:
    """``safe_stem(name) + suffix``, with ``-2``, ``-3`` … before the suffix if ``taken`` has it;
    the name returned is added to ``taken``."""
    stem = safe_stem(name)
    candidate, n = f"{stem}{suffix}", 2
    while candidate in taken:
        candidate, n = f"{stem}-{n}{suffix}", n + 1
    taken.add(candidate)
    return candidate
