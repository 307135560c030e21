"""Rewrite the ``# expect:`` lines of the broken-content corpus from what paperdeck says now.

Run after changing a message on purpose, then read the diff:

    .venv/bin/python tests/content/pin_messages.py

A case file is the broken YAML under its ``# expect:`` lines (for ``warnings/``,
a valid lesson under the card-rule warnings it gives); lists of problem
types are pinned up to ``choose from …`` so that adding a type changes nothing.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from generator.content import load  # noqa: E402
from generator.content.card_rules import card_rule_warnings  # noqa: E402
from generator.errors import ContentError  # noqa: E402
from tests.content.test_broken_corpus import CASES, load_all, make_project  # noqa: E402
from tests.content.test_card_rules import WARNING_CASES  # noqa: E402


def messages(kind: str, text: str) -> list[str]:
    with tempfile.TemporaryDirectory() as tmp:
        root = make_project(
            Path(tmp),
            lesson=text if kind == "lessons" else None,
            paper=text if kind == "papers" else None,
            recipe=text if kind == "recipes" else None,
        )
        try:
            load_all(root)
        except ContentError as error:
            return [str(p) for p in error.problems]
    return []


def warnings(kind: str, text: str) -> list[str]:
    """The card-rule warnings of a valid lesson (the ``warnings/`` corpus)."""
    with tempfile.TemporaryDirectory() as tmp:
        root = make_project(Path(tmp), lesson=text)
        return [str(w) for w in card_rule_warnings(load(root), root)]


def pinned(message: str) -> str:
    if "; choose from" in message:
        return message.split("; choose from")[0] + "; choose from …"
    return message


def header(found: list[str]) -> str:
    return "".join(f"# expect: {pinned(m)}\n" for m in found)


def main() -> None:
    for case in CASES + WARNING_CASES:
        body = "".join(
            line for line in case.read_text().splitlines(keepends=True) if not line.startswith("# expect: ")
        )
        kind = case.parent.name
        find = warnings if kind == "warnings" else messages
        # Twice: the header's own lines shift the line numbers it states.
        first = header(find(kind, body))
        expect = header(find(kind, first + body))
        case.write_text(expect + body)
        if not expect:
            print(f"{case}: loads without error; it gives no message", file=sys.stderr)


if __name__ == "__main__":
    main()
