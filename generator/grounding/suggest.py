"""What an author could declare for each number ``check`` cannot ground: the table cells that
hold it (named as ``cells`` takes them) and the labels whose text holds it (for ``also``).

``python -m generator.grounding.suggest [PROJECT]`` prints one line per ungrounded number.
Nothing is written: whether the card means that cell is the author's call.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from ..content import load
from . import numbers
from .check import _cell_named, ground, load_index
from .index import Cell, SourceIndex


def cell_name(index: SourceIndex, table: str, cell: Cell) -> str:
    """A name for ``cell`` of ``table`` that ``cells`` resolves to it alone, or ''."""
    cells = index.labels[table].cells
    first_data = min((c.row for c in cells if _pure(c) and c.column > 0), default=1)

    def header(column: int) -> str:
        return " ".join(
            c.text
            for c in cells
            if c.row < first_data
            and c.column <= column < c.column + c.colspan
            and re.search("[A-Za-z]", c.text)
        )

    row_cells = [c for c in cells if c.row <= cell.row < c.row + c.rowspan and c.column < cell.column]
    lead = " ".join(c.text for c in row_cells if not _pure(c) and c.text)
    candidates = [lead] + [
        f"{lead} {_short(header(c.column))}={c.text}"
        for c in row_cells
        if _pure(c) and _short(header(c.column))
    ]
    for row in candidates:
        column = header(cell.column)
        column = _short(column) if "\\(" in column else column
        name = f"{table} {row} / {column}".replace("  ", " ")
        _, found, problem = _cell_named(name, (table,), index)
        if not problem and found == [cell]:
            return name
    return ""


def _pure(cell: Cell) -> bool:
    """A cell that is only a value (``25.8``, ``100K``, ``\\(2.3\\cdot 10^{19}\\)``)."""
    return bool(cell.numbers) and not re.search(r"[A-Za-z]{2,}", re.sub(r"\\[A-Za-z]+", "", cell.text))


def _short(header: str) -> str:
    """A column header as one token for ``header=value`` (``\\(d_{k}\\)`` → ``d_k``)."""
    words = numbers.words(header)
    return "_".join(words[-2:]) if words and len(words) <= 3 else ""


def suggestions(project: Path) -> list[str]:
    """One line per ungrounded number of the project's content, with what could ground it."""
    index = load_index(project)
    if index is None:
        return [f"{project}: no content/source-index.json"]
    content = load(project)
    lines = []
    for finding in ground(content, index, project).findings:
        found = re.search(r": (\S.*?) is not in", finding.message)
        if not found:
            continue
        values = {n.value for n in numbers.numbers(found.group(1))}
        cells = [
            cell_name(index, label, c)
            for label, e in index.labels.items()
            for c in e.cells
            if values & set(c.numbers)
        ]
        labels = [label for label, e in index.labels.items() if values & set(e.numbers) and not e.cells]
        hint = (
            "; ".join(
                filter(
                    None,
                    [
                        "cells: " + " | ".join(c or "(no unique name)" for c in cells[:4]) if cells else "",
                        "also: " + ", ".join(labels[:5]) if labels else "",
                    ],
                )
            )
            or "given or derived"
        )
        lines.append(f"{finding.path}:{finding.line}: {finding.field}: {found.group(1)}: {hint}")
    return lines


if __name__ == "__main__":
    for line in suggestions(Path(sys.argv[1] if len(sys.argv) > 1 else ".")):
        print(line)
