""" "Did you mean …?" for a mistyped name: one rule for keys, problem types and ids."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def closest(word: str, choices: Iterable[str]) -> str | None:
    """The choice ``word`` was most likely meant to be (a typo away), or None."""
    found = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.75)
    return found[0] if found else None


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'softmax'?)`` for a close choice, else an empty string."""
    match = closest(word, choices)
    return f" (did you mean {match!r}?)" if match else ""
