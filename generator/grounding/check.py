"""Ground every number and quoted phrase of the loaded content in the paper's source index.

A number on an item passes when it is

- **cited**: in the text of the label the item cites, of the sections and equations inside
  it, of the sections it is in, or of the bibliography entries those cite. A table's
  values count only through a named cell (below), its caption and headers always; a
  lesson's text counts every cell of the tables its ``sources`` list (it shows them);
- **cell**: in a table cell the item names (``cells: ["Transformer (big) / EN-DE"]``);
- **declared**: an exercise's invented input (a worked example's ``given``, an item's
  ``given``), or a paper constant of ``content/paper.yaml`` (``constants``) whose symbol
  the item writes;
- **trivial**: 0 and 1;
- **derived**: a worked example's result (recomputed when content loads) or a lone number
  in a chain of equal values that checks (``arithmetic.derived``).

A quoted phrase ("…" or “…”) passes when the label the item cites (or a label inside it)
holds it, word for word after normalization (``numbers.words``). Anything else is a
``Finding``, a warning that ``paperdeck check --strict`` makes an error.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from ..content import yamlsource
from ..content.model import Content
from ..errors import Finding
from . import arithmetic, numbers
from .index import INDEX_FILE, Cell, SourceIndex, read_index

KINDS = ("cited", "cell", "declared", "derived", "trivial")
_TRIVIAL = {"0", "1"}
"""Zero and one, the identities of arithmetic (a masked weight is 0, ``e^0 = 1``): never a
fact of the paper, always grounded (kind ``trivial``)."""
_QUOTE = re.compile(r"\"([^\"\n]{2,}?)\"|“([^”]{2,}?)”")
_ELLIPSIS = re.compile(r"\s*(?:…|\.\.\.|\[\.\.\.\])\s*")
_CLOZE = re.compile(r"\{\{c\d+::(.*?)(?:::[^}]*)?\}\}", re.S)


@dataclass
class Grounding:
    """What ``ground`` found: counts by kind and the findings."""

    counts: Counter[str] = field(default_factory=Counter)
    """Numbers grounded per kind (``KINDS``), and ``quotes`` grounded."""
    findings: list[Finding] = field(default_factory=list)
    """One per ungrounded number or quote, as a warning."""
    checked: int = 0
    """Numbers checked."""
    quotes: int = 0
    """Quoted phrases checked."""


@dataclass(frozen=True)
class _Text:
    """One field of one item: where it is and what grounds it."""

    path: str
    line: int
    field: str
    item: str
    text: str
    labels: tuple[str, ...]
    whole_tables: bool = False
    cells: tuple[str, ...] = ()
    given: tuple[Any, ...] = ()
    results: tuple[Any, ...] = ()
    item_text: str = ""
    """Every text of the item, where a constant's symbol is looked for."""


def load_index(project: Path) -> SourceIndex | None:
    """The project's source index (``content/source-index.json``), or None when it has none."""
    path = Path(project) / "content" / INDEX_FILE
    return read_index(path) if path.is_file() else None


def _flat(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        for v in value.values():
            yield from _flat(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _flat(v)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield value


def _close(written: numbers.Number, value: float) -> bool:
    """Whether ``written`` states ``value`` to its own precision (half a unit of its last digit)."""
    digits = written.value
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    shown = Decimal(written.value)
    return abs(float(shown) - abs(value)) <= 0.5 * 10.0 ** -decimals + 1e-12


def symbol_key(latex: str) -> str:
    """A symbol as compared with a card's text: font commands, braces, backslashes and spaces
    dropped (``d_{\\text{model}}`` → ``d_model``)."""
    latex = re.sub(r"\\(?:text|mathrm|mathit|mathbf|operatorname)\s*", "", latex)
    return re.sub(r"[{}\\\s]", "", latex)


def _mentions(text: str, symbol: str) -> bool:
    squeezed = re.sub(r"[{}\\]", "", re.sub(r"\\(?:text|mathrm|mathit|mathbf|operatorname)\s*", "", text))
    return re.search(r"(?<![A-Za-z])" + re.escape(symbol) + r"(?![A-Za-z_])", squeezed) is not None


class _Lines:
    """Lines of fields in the content's YAML files."""

    def __init__(self, root: Path | None):
        self.root = root
        self.files: dict[str, Any] = {}

    def data(self, path: str) -> Any:
        if path not in self.files:
            try:
                self.files[path] = yamlsource.load(self.root / path, path) if self.root else None
            except Exception:  # noqa: BLE001 - lines are a nicety; content was validated already
                self.files[path] = None
        return self.files[path]

    def line(self, path: str, field_path: str) -> int:
        node = self.data(path)
        line = 0
        for part in re.findall(r"[^.\[\]]+|\[\d+\]", field_path):
            if isinstance(node, yamlsource.LineDict) and part in node:
                line = node.key_lines.get(part, line)
                node = node[part]
            elif isinstance(node, yamlsource.LineList) and part.startswith("["):
                index = int(part[1:-1])
                if index >= len(node):
                    break
                line = node.item_lines[index]
                node = node[index]
            else:
                break
        return line


def _texts(content: Content, lines: _Lines) -> Iterator[_Text]:
    for lesson in content.lessons:
        path = f"content/lessons/{lesson.id}.yaml"

        def text(field_path: str, value: Any, item: str, labels: tuple[str, ...], path: str = path,
                 **extra: Any) -> _Text:
            shown = value if isinstance(value, str) else str(value)
            return _Text(path, lines.line(path, field_path), field_path, item, shown, labels, **extra)

        yield text("text", lesson.text, f"lesson {lesson.id!r}", lesson.sources, whole_tables=True,
                   item_text=lesson.text)
        kinds: list[tuple[str, tuple[Any, ...], tuple[str, ...]]] = [
            ("concepts", lesson.concepts, ("term", "definition")),
            ("equations", lesson.equations, ("name", "latex", "deep_dive")),
            ("worked_examples", lesson.worked_examples, ("title", "task", "steps")),
            ("flashcards", lesson.flashcards, ("front", "back", "explanation")),
            ("clozes", lesson.clozes, ("text", "extra")),
            ("questions", lesson.questions, ("prompt", "answer", "distractors", "explanation", "unit")),
            ("visuals", lesson.visuals, ("caption",)),
        ]
        for kind, items, fields in kinds:
            for i, item in enumerate(items):
                label = str(getattr(item, "source", None) or getattr(item, "label", ""))
                name = f"{kind[:-1].replace('_', ' ')} {item.id!r}"
                parts: list[tuple[str, Any]] = []
                for f in fields:
                    value = getattr(item, f)
                    if f == "steps" or (f == "distractors"):
                        for j, v in enumerate(value):
                            parts.append((f"{f}[{j}]" + (".text" if f == "distractors" else ""),
                                          v.text if f == "distractors" else v))
                            if f == "distractors":
                                parts.append((f"{f}[{j}].mistake", v.mistake))
                    elif isinstance(value, bool) or value is None or value == "":
                        continue
                    else:
                        parts.append((f, value))
                if kind == "equations":
                    for j, variable in enumerate(item.variables):
                        parts.append((f"variables[{j}].meaning", variable.meaning))
                        parts.append((f"variables[{j}].shape", variable.shape))
                whole = " ".join(str(v) for _, v in parts)
                given = tuple(_flat(getattr(item, "given", ())))
                results = tuple(_flat(getattr(item, "result", ())))
                if kind == "worked_examples":
                    given, results = _worked(item.problem, item.given, given, results)
                for f, value in parts:
                    if kind == "questions" and f == "answer" and not isinstance(value, str):
                        value = repr(value) if not isinstance(value, bool) else ""
                    yield text(f"{kind}[{i}].{f}", value, name, (label,),
                               cells=tuple(getattr(item, "cells", ())), given=given, results=results,
                               item_text=whole)


def _worked(problem: str, inputs: dict[str, Any], given: tuple[Any, ...],
            results: tuple[Any, ...]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """A worked example's declared inputs (values and the sizes of its matrices) and derived
    values (every value its problem type computes from them, steps included)."""
    import numpy as np

    from .. import problems

    sizes = [d for v in inputs.values() if isinstance(v, list) for d in np.shape(v)]
    try:
        solution = problems.get(problem).solve(inputs)
    except Exception:  # noqa: BLE001 - the loader reported it already
        return given + tuple(sizes), results
    computed = list(_flat(solution.answer))
    for step in solution.steps:
        computed += [float(n.value) for n in numbers.numbers(step.latex)]
    return given + tuple(sizes), results + tuple(computed)


def _cell_named(reference: str, labels: tuple[str, ...], index: SourceIndex) -> tuple[str, list[Cell], str]:
    """(table label, the cells matching ``reference``, a problem or '')."""
    label = labels[0] if labels else ""
    found = re.match(r"\s*(S\S+\.T\d+)\s*[:,]?\s*(.*)$", reference)
    if found:
        label, reference = found.group(1), found.group(2)
    entry = index.labels.get(label)
    if entry is None or not entry.cells:
        return label, [], f"cell {reference!r}: {label} is not a table of the index"
    row_part, _, column_part = reference.partition("/")
    row_words, column_words = set(numbers.words(row_part)), set(numbers.words(column_part))
    rows: dict[int, set[str]] = {}
    columns: dict[int, set[str]] = {}
    for cell in entry.cells:
        cell_words = set(numbers.words(cell.text))
        for r in range(cell.row, cell.row + cell.rowspan):
            rows.setdefault(r, set()).update(cell_words)
        for c in range(cell.column, cell.column + cell.colspan):
            columns.setdefault(c, set()).update(cell_words)
    matching = [cell for cell in entry.cells
                if row_words <= rows.get(cell.row, set()) and column_words <= columns.get(cell.column, set())
                and cell.numbers]
    if len(matching) != 1:
        how = "no cell" if not matching else f"{len(matching)} cells"
        return label, [], (f"cell {reference!r}: {how} of {label} with a number in a row holding "
                           f"{' '.join(sorted(row_words)) or '(any)'} and a column holding "
                           f"{' '.join(sorted(column_words)) or '(any)'}")
    return label, matching, ""


def _constants(content: Content, index: SourceIndex,
               lines: _Lines) -> tuple[list[tuple[str, str]], list[Finding]]:
    """The paper's constants as (symbol key, canonical value), and a finding for each the index
    does not hold at its label."""
    constants = []
    findings = []
    for i, constant in enumerate(content.paper.constants):
        field_path = f"constants[{i}]"
        value = numbers.canonical(Decimal(repr(float(constant.value))))
        if value not in _scope((constant.source,), index, whole_tables=True):
            findings.append(Finding(
                "content/paper.yaml", lines.line("content/paper.yaml", field_path), field_path + ".value",
                f"warning: constant {constant.symbol} = {constant.value} is not in {constant.source} "
                "of the source index"))
        constants.append((symbol_key(constant.symbol), value))
    return constants, findings


def ground(content: Content, index: SourceIndex, project: Path | None = None) -> Grounding:
    """Ground every number and quoted phrase of ``content`` in ``index`` (see the module docstring)."""
    result = Grounding()
    lines = _Lines(project)
    constants, result.findings = _constants(content, index, lines)
    scopes: dict[tuple[tuple[str, ...], bool], set[str]] = {}
    for text in _texts(content, lines):
        key = (text.labels, text.whole_tables)
        if key not in scopes:
            scopes[key] = _scope(text.labels, index, text.whole_tables)
        scope = scopes[key]
        cell_numbers: set[str] = set()
        for j, reference in enumerate(text.cells):
            _, cells, problem = _cell_named(reference, text.labels, index)
            if problem and text.field.endswith((".front", ".text", ".prompt", ".term", ".caption")):
                item_path = text.field.rsplit(".", 1)[0]
                result.findings.append(Finding(text.path, lines.line(text.path, f"{item_path}.cells[{j}]"),
                                               f"{item_path}.cells[{j}]", f"warning: {text.item}: {problem}"))
            for cell in cells:
                cell_numbers.update(cell.numbers)
        derived_spans = [(d.start, d.end) for d in arithmetic.derived(text.text)]
        for number in numbers.numbers(text.text):
            result.checked += 1
            kind = _kind(number, text, scope, cell_numbers, derived_spans, constants)
            if kind:
                result.counts[kind] += 1
                continue
            line = text.line
            if "\n" in text.text and text.field == "text":
                line += 1 + text.text[:number.start].count("\n")
            result.findings.append(Finding(
                text.path, line, text.field,
                f"warning: {text.item}: {number.written.strip()} is not in "
                f"{', '.join(text.labels) or 'its source'} (nor declared, nor derived)"))
        for quote in _quotes(text.text):
            result.quotes += 1
            if _quote_found(quote, text.labels, index):
                result.counts["quotes"] += 1
                continue
            result.findings.append(Finding(
                text.path, text.line, text.field,
                f"warning: {text.item}: the quote \"{quote}\" is not in {', '.join(text.labels)}"))
    return result


def _kind(number: numbers.Number, text: _Text, scope: set[str], cells: set[str],
          derived: list[tuple[int, int]], constants: list[tuple[str, str]]) -> str:
    if number.value in cells:
        return "cell"
    if number.value in scope:
        return "cited"
    if any(s <= number.start and number.end <= e for s, e in derived):
        return "derived"
    if any(_close(number, float(v)) for v in text.results):
        return "derived"
    if any(_close(number, float(v)) for v in text.given):
        return "declared"
    for symbol, value in constants:
        if number.value == value and _mentions(text.item_text, symbol):
            return "declared"
    if number.value in _TRIVIAL:
        return "trivial"
    return ""


def _scope(labels: tuple[str, ...], index: SourceIndex, whole_tables: bool) -> set[str]:
    """The numbers a text citing ``labels`` may state without naming a cell."""
    found: set[str] = set()
    cites: set[str] = set()
    for label in labels:
        names = [*index.descendants(label), *index.ancestors(label)]
        for name in names:
            entry = index.labels[name]
            cites.update(entry.cites)
            if entry.cells and not whole_tables:
                in_cells = {v for c in entry.cells for v in c.numbers}
                headers = {v for c in entry.cells if not _value_cell(c) for v in c.numbers}
                found.update(v for v in entry.numbers if v not in in_cells or v in headers)
            else:
                found.update(entry.numbers)
    for key in cites:
        if key in index.bibliography:
            found.update(index.bibliography[key].numbers)
    return found


def _value_cell(cell: Cell) -> bool:
    """A cell that holds a value (a number, a complexity), not a heading."""
    return cell.row > 0 and cell.column > 0


def _quotes(text: str) -> list[str]:
    found = []
    for m in _QUOTE.finditer(_CLOZE.sub(lambda c: c.group(1), text)):
        found.append((m.group(1) or m.group(2)).strip())
    return [q for q in found if numbers.words(q)]


def _quote_found(quote: str, labels: tuple[str, ...], index: SourceIndex) -> bool:
    for label in labels:
        names = [label, *index.descendants(label)] if label in index.labels else []
        for fragment in _ELLIPSIS.split(quote):
            if not numbers.words(fragment):
                continue
            if not any(index.labels[n].has_phrase(fragment) for n in names):
                break
        else:
            if names:
                return True
    return False


def report_grounding(project: Path, content: Content, strict: bool = False) -> Grounding | None:
    """``paperdeck check``'s grounding: one summary line, every finding as a warning on stderr,
    or (``strict``) as errors. Nothing without a source index."""
    import click

    from ..errors import ContentError

    index = load_index(project)
    if index is None:
        return None
    result = ground(content, index, project)
    kinds = ", ".join(f"{kind} {result.counts[kind]}" for kind in KINDS)
    click.echo(f"grounding: {result.checked} numbers ({kinds}), {result.quotes} quotes "
               f"({result.counts['quotes']} found); {len(result.findings)} not grounded in "
               f"content/{INDEX_FILE}")
    if strict and result.findings:
        raise ContentError([Finding(f.path, f.line, f.field, f.message.removeprefix("warning: "))
                            for f in result.findings])
    for finding in result.findings:
        click.echo(str(finding), err=True)
    return result
