"""Content that cites a table states only that table's values (``paper_tables.py``).

For every item whose ``source`` is a table label (``S6.T2``, ``S6.T3``, ``S6.T4``),
every decimal number in its text (and ``a \\cdot 10^{b}`` training costs) must be
a cell of that table, a number computed from its cells (``DERIVED``, checked
against the computation) or a listed non-cell value (``OTHER``, with its reason).
Whole numbers (parameter counts, layer counts, years, ``1/4``) are too common to
check this way. In the other direction every cell must be in the text of a lesson
citing its table (the guide prints the tables in full; cards ask only the numbers
worth knowing and comparisons).
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from generator.content import load
from tests.content.paper_tables import DERIVED, OTHER, TABLES

ROOT = Path(__file__).resolve().parents[2]
TABLE_LABEL = re.compile(r"^S\d+\.(T\d+)$")
SCIENTIFIC = re.compile(r"(\d+(?:\.\d+)?)\s*\\cdot\s*10\^\{?(-?\d+)\}?")
DECIMAL = re.compile(r"(?<![\w.])\d+\.\d+(?!\d|\.\d)")
SECTION = re.compile(r"\b(?:Sections?|S)\s?\d+(?:\.\d+)*")
"""Section numbers (``Section 6.1``, ``S5.4``) are not values."""


def texts(item: object) -> list[str]:
    """Every piece of text an item shows (its id and source excluded)."""
    found: list[str] = []
    for field in dataclasses.fields(item):  # type: ignore[arg-type]
        if field.name in ("id", "source", "tolerance"):
            continue
        value = getattr(item, field.name)
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            found.append(repr(value))
        elif isinstance(value, tuple):
            found += [t for v in value if dataclasses.is_dataclass(v) for t in texts(v)]
            found += [v for v in value if isinstance(v, str)]
    return found


def numbers(text: str) -> list[tuple[float, int]]:
    """The decimal numbers in ``text`` with their count of decimals; costs as plain numbers."""
    found = [(float(m.group(1)) * 10 ** int(m.group(2)), -1) for m in SCIENTIFIC.finditer(text)]
    rest = SECTION.sub(" ", SCIENTIFIC.sub(" ", text))
    found += [(float(m.group()), len(m.group().split(".")[1])) for m in DECIMAL.finditer(rest)]
    return found


def cited_items() -> dict[str, list[tuple[str, str]]]:
    """Table -> [(item id, its text)] for every item citing that table."""
    content = load(ROOT)
    by_table: dict[str, list[tuple[str, str]]] = {}
    for lesson in content.lessons:
        for kind in ("concepts", "flashcards", "clozes", "questions", "visuals", "worked_examples"):
            for item in getattr(lesson, kind):
                match = TABLE_LABEL.match(getattr(item, "source", ""))
                if match and match.group(1) in {t for t, _, _, _ in TABLES}:
                    by_table.setdefault(match.group(1), []).append((item.id, "\n".join(texts(item))))
    return by_table


def lesson_texts() -> dict[str, list[tuple[str, str]]]:
    """Table -> [(lesson id, its text)] for every lesson that lists the table in its sources."""
    content = load(ROOT)
    by_table: dict[str, list[tuple[str, str]]] = {}
    for lesson in content.lessons:
        for source in lesson.sources:
            match = TABLE_LABEL.match(source)
            if match and match.group(1) in {t for t, _, _, _ in TABLES}:
                by_table.setdefault(match.group(1), []).append((lesson.id, lesson.text))
    return by_table


def close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def unexplained(table: str, value: float, decimals: int) -> bool:
    if any(close(value, v) for t, _, _, v in TABLES if t == table):
        return False
    for stated, (_, computed) in DERIVED.get(table, {}).items():
        if close(value, stated):
            assert close(round(computed, max(decimals, 0)), stated), (
                f"{table}: derived {stated} does not match its computation {computed}"
            )
            return False
    return not any(close(value, v) for v in OTHER.get(table, {}))


def check_numbers(by_table: dict[str, list[tuple[str, str]]]) -> list[str]:
    return [
        f"{item_id} ({table}): {value:g} is not in Table {table[1:]}"
        for table, items in by_table.items()
        for item_id, text in items
        for value, decimals in numbers(text)
        if unexplained(table, value, decimals)
    ]


def forms(value: float) -> list[str]:
    """How content may write a cell."""
    if float(value).is_integer() and abs(value) < 1e6:
        whole = int(value)
        variants = [str(whole), f"{whole:,}", f"{whole}M"]
        if whole >= 1000 and whole % 1000 == 0:
            variants.append(f"{whole // 1000}K")
        return variants
    return []


def uncovered(by_table: dict[str, list[tuple[str, str]]]) -> list[str]:
    missing = []
    for table, row, column, value in TABLES:
        items = by_table.get(table, [])
        stated = {v for _, text in items for v, _ in numbers(text)}
        if any(close(value, v) for v in stated):
            continue
        pattern = "|".join(re.escape(f) for f in forms(value))
        if pattern and any(re.search(rf"(?<![\w.])(?:{pattern})(?![\w]|\.\d)", text) for _, text in items):
            continue
        missing.append(f"{table} {row} / {column} = {value:g}")
    return missing


def test_numbers_parse() -> None:
    assert numbers(r"BLEU {{c1::28.4}}, cost \(2.3 \cdot 10^{19}\) FLOPs, 1/4, 213M") == [
        (2.3e19, -1),
        (28.4, 1),
    ]
    assert numbers("4.5M pairs, Section 6.1 and S5.4, 0.19") == [(4.5, 1), (0.19, 2)]


def test_every_number_cited_to_a_table_is_in_it() -> None:
    assert check_numbers(cited_items()) == []


def test_every_cell_is_in_the_text_of_a_lesson_citing_its_table() -> None:
    assert uncovered(lesson_texts()) == []


def test_a_wrong_number_is_caught() -> None:
    by_table = cited_items()
    item_id, text = next((i, t) for i, t in by_table["T2"] if "28.4" in t)
    by_table["T2"] = [(i, t.replace("28.4", "28.7") if i == item_id else t) for i, t in by_table["T2"]]
    assert check_numbers(by_table) == [f"{item_id} (T2): 28.7 is not in Table 2"]
    texts = lesson_texts()
    texts["T2"] = [(i, t.replace("23.75", "23.57")) for i, t in texts["T2"]]
    assert uncovered(texts) == ["T2 ByteNet / BLEU EN-DE = 23.75"]


@pytest.mark.parametrize("table", ["T2", "T3", "T4"])
def test_every_table_is_cited(table: str) -> None:
    assert cited_items().get(table)
