"""Nothing issued is lost: when a run may replace a quiz's key JSON, and what it keeps.

A quiz's key JSON (``<quiz>-key.json``) is what grades the forms printed from it;
without it (or the secret and the exact options of the run) printed forms cannot
be graded. The rule (docs/quiz-key.md, "Nothing issued is lost"):

- A key made by ``paperdeck quiz`` (its ``made_by`` is ``quiz``; a key without
  ``made_by``, written before this rule, counts as one) is an issued quiz. ``build``
  leaves its folder alone and says so; ``paperdeck quiz`` replaces it only with
  ``--replace``.
- A key made by ``build`` may be replaced by any run, and is not kept: nobody issued it
  (each build draws new seeds, so keeping them piled up a dated copy per quiz per build).
- Whatever replaces an issued key keeps the old one beside it, readable by its owner only,
  as ``<quiz>-key.replaced-<UTC time>.json``, unless the new key is the same bytes.
  The copy is staged with the new set, so it appears exactly when the new key does.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

from ..errors import UsageError

MADE_BY_QUIZ = "quiz"
MADE_BY_BUILD = "build"


@dataclass(frozen=True)
class IssuedKey:
    """A key JSON found where a run is about to write its quiz."""

    path: Path
    data: bytes
    made_by: str
    """``quiz`` or ``build``; ``quiz`` for a key that does not say."""
    forms: int
    students: int
    """Forms printed for a named student (a roster)."""

    @property
    def issued(self) -> bool:
        """Whether only an explicit ``paperdeck quiz --replace`` may replace it."""
        return self.made_by != MADE_BY_BUILD

    def describe(self) -> str:
        roster = f" for a roster of {self.students}" if self.students else ""
        return f"{self.forms} form{'s' if self.forms != 1 else ''}{roster}, made by paperdeck {self.made_by}"


def key_path(folder: Path, quiz: str) -> Path:
    return Path(folder) / f"{quiz}-key.json"


def existing_key(folder: Path, quiz: str) -> IssuedKey | None:
    """The key JSON of ``quiz`` in ``folder``, if there is one (even one that cannot be read)."""
    path = key_path(folder, quiz)
    if not path.is_file():
        return None
    data = path.read_bytes()
    made_by, forms, students = MADE_BY_QUIZ, 0, 0
    try:
        head = json.loads(data)
    except ValueError:
        head = None  # not readable JSON: still someone's file; treat it as issued
    if isinstance(head, dict):
        made_by = str(head.get("made_by") or MADE_BY_QUIZ)
        form_keys = head.get("form_keys")
        if isinstance(form_keys, list):
            forms = len(form_keys)
            students = sum(1 for form in form_keys if isinstance(form, dict) and form.get("student"))
    return IssuedKey(path, data, made_by, forms, students)


def refuse_unasked(found: IssuedKey | None, replace: bool) -> None:
    """``paperdeck quiz``: an issued quiz is replaced only when the user asks (``--replace``)."""
    if found is not None and found.issued and not replace:
        raise UsageError(
            f"{found.path} is the key of an issued quiz ({found.describe()}); its printed forms "
            "need it to be graded. Give --replace to make a new quiz there (the old key is kept "
            "beside it, dated), or --out another folder"
        )


def kept_when_replaced(found: IssuedKey, new: bytes) -> bool:
    """Whether the key ``found`` is kept beside the one replacing it (``new``): an issued key
    that ``new`` does not repeat byte for byte."""
    return found.issued and new != found.data


def replaced_name(found: IssuedKey, now: float | None = None) -> str:
    """The name the key about to be replaced is kept under beside it: dated (UTC), new there."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(time.time() if now is None else now))
    stem = found.path.name.removesuffix(".json")
    name, n = f"{stem}.replaced-{stamp}.json", 2
    while (found.path.parent / name).exists():
        name, n = f"{stem}.replaced-{stamp}-{n}.json", n + 1
    return name
