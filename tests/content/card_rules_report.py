"""Count cards that break the flashcard rules, to compare content before and after a rewrite.

    .venv/bin/python tests/content/card_rules_report.py [-v]

The last three counts are the warnings of ``generator.content.card_rules`` (what
``paperdeck check`` prints). The first two are heuristics on the wording of
flashcards, for a person to read with ``-v`` rather than a rule to enforce:

- *list cards* ask for three or more items: the front names a count of three or
  more or asks to list or describe steps, or the back's first sentence is a
  series of three or more items (two or more commas or semicolons outside math);
- *double questions* ask two things at once: two question marks, or ``and`` /
  ``or`` followed by a second question word or a second case (``and for``,
  ``and in``, ``base and big``, ``encoder … and … decoder``).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from generator.content import load  # noqa: E402
from generator.content.card_rules import _contains, _normal, card_rule_warnings, plain_text  # noqa: E402

COUNT_WORDS = r"\b(three|four|five|six|seven|eight|nine|list|steps|in order)\b"
SECOND_QUESTION = re.compile(
    r"\?.*\?|\b(and|or)\s+(how|what|why|which|where|when|to what|on what|with what|"
    r"for|in its|in|on|its|their|vice versa|and)\b|\bbase and (for )?(the )?big\b|"
    r"\b(base|encoder)\b.*\band\b.*\b(big|decoder)\b",
    re.I,
)
STOP = {"the", "and", "of", "in", "a", "an", "with", "for", "to", "on", "by"}


def _outside_math(text: str) -> str:
    return re.sub(r"\\\(.*?\\\)|\\\[.*?\\\]", "X", text, flags=re.S)


def is_list_card(front: str, back: str) -> bool:
    if re.search(COUNT_WORDS, front, re.I):
        return True
    first = re.split(r"(?<=[a-z0-9)])\.\s", _outside_math(back))[0]
    return len(re.findall(r"[,;]", first)) >= 2 and re.search(r"\band\b|;", first) is not None


def is_double_question(front: str) -> bool:
    return SECOND_QUESTION.search(_outside_math(front)) is not None


def partly_revealing(term: str, definition: str) -> bool:
    """Some content word (4+ letters) of the term occurs in the definition."""
    words = [w for w in re.findall(r"[a-z][a-z-]{3,}", _normal(term)) if w not in STOP]
    definition = _normal(definition)
    return any(_contains(definition, w) for w in words)


def report(verbose: bool = False) -> dict[str, int]:
    content = load(ROOT)
    cards = [f for lesson in content.lessons for f in lesson.flashcards]
    lists = [f.id for f in cards if is_list_card(f.front, f.back)]
    doubles = [f.id for f in cards if is_double_question(f.front)]
    long_backs = [f.id for f in cards if len(plain_text(f.back)) > 170]
    warnings = card_rule_warnings(content, ROOT)
    reverse = [str(w) for w in warnings if w.field.startswith("concepts")]
    clozes = [str(w) for w in warnings if w.field.startswith("clozes")]
    partly = [
        c.id
        for lesson in content.lessons
        for c in lesson.concepts
        if c.reverse and partly_revealing(c.term, c.definition)
    ]
    counts = {
        "flashcards": len(cards),
        "list cards (heuristic)": len(lists),
        "double questions (heuristic)": len(doubles),
        "backs over 170 characters (plain text, the check's rule)": len(long_backs),
        "backs over 170 characters (raw YAML string)": sum(len(f.back) > 170 for f in cards),
        "self-revealing reverse concepts (check warning)": len(reverse),
        "reverse concepts sharing a term word (partly)": len(partly),
        "self-revealing clozes": len(clozes),
    }
    for name, value in counts.items():
        print(f"{value:4d}  {name}")
    if verbose:
        for name, ids in (
            ("list", lists),
            ("double", doubles),
            ("long", long_backs),
            ("partly", partly),
            ("warnings", reverse + clozes),
        ):
            print(f"\n{name}:")
            for item in ids:
                print(f"  {item}")
    return counts


if __name__ == "__main__":
    report("-v" in sys.argv)
