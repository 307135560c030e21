"""Ground every number and quoted phrase of the loaded content in the paper's source index.

A number on an item (a lesson's text, a declaration) passes when it is

- **cited**: in the text of the label the item cites or names in ``also``, of the sections
  and equations inside it, of the sections it is in, or of the bibliography entries those
  cite. A table's values count only through a named cell (below), its caption and headers
  always; a lesson's text counts every cell of the tables its ``sources`` and ``also`` list;
- **cell**: in a table cell the item names (``cells: ["Transformer (big) / BLEU EN-DE"]``);
- **declared**: an item's ``given``, a worked example's ``given`` (and the sizes of its
  matrices), a visual's parameters, or a paper constant of ``content/paper.yaml``
  (``constants``) whose symbol the item writes;
- **derived**: a lone number in a chain of equal values that checks anywhere on the item
  (``arithmetic.derived``; ``derived`` declarations are such chains), or a value a worked
  example's problem type computes from its ``given``;
- **trivial**: 0 and 1 written as integers.

A quoted phrase ("…" or “…”) passes when the label the item cites (or a label inside it, the
section a cited float is in, a work they cite, a cited figure's declared ``figure_text``)
holds it, word for word after normalization (``numbers.words``); a quote followed by its
place (``"…" (Section 5.4)``) is looked for there. Anything else is a ``Finding``, a warning
that ``paperdeck check --strict`` makes an error. docs/grounding.md is the author's guide.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from ..content import yamlsource
from ..content.model import Content
from ..content.text import CLOZE
from ..errors import Finding
from . import arithmetic, numbers
from .index import INDEX_FILE, Cell, SourceIndex, read_index

KINDS = ("cited", "cell", "declared", "derived", "trivial")
_TRIVIAL = {"0", "1"}
"""Zero and one written as integers, the identities of arithmetic (a masked weight is 0,
``e^0 = 1``): never a fact of the paper, always grounded (kind ``trivial``); ``0.0`` is a
value and is checked."""
_QUOTE = re.compile(r"\"([^\"\n]{2,}?)\"|“([^”]{2,}?)”")
_ELLIPSIS = re.compile(r"\s*(?:…|\.\.\.|\[[^\]]*\])\s*")
_PAIR = re.compile(r"([^\s=/]+)\s*=\s*([^\s=/]+)")
"""``h=16`` in a cell's row: the row whose cell under a column headed ``h`` holds 16."""
_QUOTE_LABEL = re.compile(
    r"\s*[,(]?\s*(?:(?:[Ss]ection|§)\s*(\d+(?:\.\d+)*)|(S(?:\d+|[A-Z])(?:\.\d+)*(?:\.[ETF]\d+)?)"
    r"|((?:Table|Figure) \d+))\b"
)


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
    """The label the item cites, then those of its ``also``."""
    whole_tables: bool = False
    cells: tuple[str, ...] = ()
    given: tuple[float, ...] = ()
    results: tuple[tuple[float, int | None], ...] = ()
    """Values computed for the item (a worked example's, a ``derived`` declaration's), each with
    the decimals it was written with (None: exact)."""
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


def _close(written: numbers.Number, value: float, decimals: int | None = None) -> bool:
    """Whether ``written`` states ``value`` to its own precision (half a unit of its last digit);
    a ``value`` known only to ``decimals`` places cannot confirm more places than that."""
    if decimals is not None and written.decimals > decimals:
        return False
    if written.value != written.unscaled:  # 65M: precision in millions
        return float(written.value) == abs(value)
    return abs(float(written.value) - abs(value)) <= 0.5 * 10.0**-written.decimals + 1e-12


def symbol_key(latex: str) -> str:
    """A symbol as compared with a card's text: font commands, braces, backslashes and spaces
    dropped (``d_{\\text{model}}`` → ``d_model``)."""
    latex = re.sub(r"\\(?:text|mathrm|mathit|mathbf|operatorname)\s*", "", latex)
    return re.sub(r"[{}\\\s]", "", latex)


def _mentions(text: str, symbol: str) -> bool:
    squeezed = re.sub(r"\\(?:text|mathrm|mathit|mathbf|operatorname)\s*\{([^{}]*)\}", r"\1", text)
    for _ in range(3):  # d_{model} is d_model; a subscript's group glues to its letter
        squeezed = re.sub(r"([_^])\{([^{}]*)\}", r"\1\2", squeezed)
    squeezed = re.sub(r"\\([A-Za-z]+)", r" \1", squeezed)
    squeezed = re.sub(r"[{}]", " ", squeezed).replace("\\", "")
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


_FIELDS: dict[str, tuple[str, ...]] = {
    "concepts": ("term", "definition"),
    "equations": ("name", "latex", "deep_dive"),
    "worked_examples": ("title", "task", "steps"),
    "flashcards": ("front", "back", "explanation"),
    "clozes": ("text", "extra"),
    "questions": ("prompt", "answer", "distractors", "explanation", "unit"),
    "visuals": ("caption",),
}
"""The fields of each kind of item that hold what a learner reads."""


def _parts(kind: str, item: Any) -> list[tuple[str, str]]:
    parts: list[tuple[str, str]] = []
    for f in _FIELDS[kind]:
        value = getattr(item, f)
        if f == "steps":
            parts += [(f"steps[{j}]", v) for j, v in enumerate(value)]
        elif f == "distractors":
            for j, v in enumerate(value):
                parts += [(f"distractors[{j}].text", v.text), (f"distractors[{j}].mistake", v.mistake)]
        elif isinstance(value, bool) or value is None or value == "":
            continue
        elif isinstance(value, (int, float)):  # a numeric answer, written out in full (1e-06 is 0.000001)
            parts.append((f, numbers.canonical(Decimal(repr(value)))))
        else:
            parts.append((f, value if isinstance(value, str) else repr(value)))
    if kind == "equations":
        for j, variable in enumerate(item.variables):
            parts += [
                (f"variables[{j}].meaning", variable.meaning),
                (f"variables[{j}].shape", variable.shape),
            ]
    parts += [(f"derived[{j}]", d) for j, d in enumerate(getattr(item, "derived", ()))]
    return parts


def _texts(content: Content, lines: _Lines) -> Iterator[_Text]:
    examples = {e.id: e for lesson in content.lessons for e in lesson.worked_examples}
    for lesson in content.lessons:
        path = f"content/lessons/{lesson.id}.yaml"
        lesson_results = tuple(
            (float(d.value), d.decimals)
            for expression in lesson.derived
            for d in arithmetic.derived(expression)
        )
        yield _Text(
            path,
            lines.line(path, "text"),
            "text",
            f"lesson {lesson.id!r}",
            lesson.text,
            (*lesson.sources, *lesson.also),
            whole_tables=True,
            results=lesson_results,
            item_text=lesson.text,
        )
        for j, expression in enumerate(lesson.derived):
            yield _Text(
                path,
                lines.line(path, f"derived[{j}]"),
                f"derived[{j}]",
                f"lesson {lesson.id!r}",
                expression,
                (*lesson.sources, *lesson.also),
                whole_tables=True,
                results=lesson_results,
                item_text=lesson.text,
            )
        for kind in _FIELDS:
            for i, item in enumerate(getattr(lesson, kind)):
                label = str(getattr(item, "source", None) or getattr(item, "label", ""))
                labels = (label, *getattr(item, "also", ()))
                name = f"{kind[:-1].replace('_', ' ')} {item.id!r}"
                parts = _parts(kind, item)
                given: tuple[float, ...] = tuple(_flat(getattr(item, "given", ())))
                results: tuple[tuple[float, int | None], ...] = tuple(
                    (v, None) for v in _flat(getattr(item, "result", ()))
                )
                if kind == "worked_examples":
                    given, results = _worked(item.problem, item.given, given, results)
                if kind == "visuals":  # what a figure is drawn with is its own input
                    params = dict(item.params or {})
                    example = examples.get(str(params.pop("example", "")))
                    given += tuple(_flat(params))
                    if example is not None:
                        given, results = _worked(example.problem, example.given, given, results)
                # A value worked out in one field (an explanation) is derived in all (the answer).
                for _, value in parts:
                    results += tuple((float(d.value), d.decimals) for d in arithmetic.derived(value))
                whole = " ".join(v for _, v in parts)
                for f, value in parts:
                    yield _Text(
                        path,
                        lines.line(path, f"{kind}[{i}].{f}"),
                        f"{kind}[{i}].{f}",
                        name,
                        value,
                        labels,
                        cells=tuple(getattr(item, "cells", ())),
                        given=given,
                        results=results,
                        item_text=whole,
                    )


def _worked(
    problem: str,
    inputs: dict[str, Any],
    given: tuple[float, ...],
    results: tuple[tuple[float, int | None], ...],
) -> tuple[tuple[float, ...], tuple[tuple[float, int | None], ...]]:
    """A worked example's declared inputs (values and the sizes of its matrices) and derived
    values (every value its problem type computes from them, its steps' values to the
    decimals they are written with)."""
    import numpy as np

    from .. import problems

    sizes = tuple(float(d) for v in inputs.values() if isinstance(v, list) for d in np.shape(v))
    try:
        solution = problems.get(problem).solve(inputs)
    except Exception:  # noqa: BLE001 - the loader reported it already
        return given + sizes, results
    problem_type = problems.get(problem)
    computed: list[tuple[float, int | None]] = [(v, None) for v in _flat(solution.answer)]
    for step in solution.steps:
        computed += [(float(n.value), n.decimals) for n in numbers.numbers(step.latex)]
    if problem_type.softmax_inputs is not None:  # a softmax's exponentials and their sum, per row
        for vector in problem_type.softmax_inputs(inputs):
            for row in np.atleast_2d(np.asarray(vector, dtype=float)):
                exps = [math.exp(v) for v in row if math.isfinite(v)]
                computed += [(v, None) for v in exps] + [(math.fsum(exps), None)]
                computed += [(v, None) for v in row if math.isfinite(v)]
    return given + sizes, results + tuple(computed)


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
    pairs = _PAIR.findall(row_part)
    row_words = set(numbers.words(_PAIR.sub(" ", row_part)))
    column_words = set(numbers.words(column_part))
    rows, columns, values = _table_words(entry.cells)

    def pinned(row: int) -> bool:  # every ``header=value`` of the reference holds in the row
        for header, value in pairs:
            wanted = {n.value for n in numbers.numbers(value)}
            header_words = set(numbers.words(header))
            if not any(
                header_words <= words and wanted & set(values.get((row, c), ()))
                for c, words in columns.items()
            ):
                return False
        return True

    matching = [
        cell
        for cell in entry.cells
        if row_words <= rows.get(cell.row, set())
        and column_words <= columns.get(cell.column, set())
        and cell.numbers
        and pinned(cell.row)
    ]
    if len(matching) != 1:
        how = "no cell" if not matching else f"{len(matching)} cells"
        return (
            label,
            [],
            (
                f"cell {reference!r}: {how} of {label} with a number in a row holding "
                f"{' '.join(sorted(row_words)) or '(any)'} and a column holding "
                f"{' '.join(sorted(column_words)) or '(any)'}"
            ),
        )
    return label, matching, ""


_TableWords = tuple[dict[int, set[str]], dict[int, set[str]], dict[tuple[int, int], tuple[str, ...]]]
_TABLES: dict[int, tuple[tuple[Cell, ...], _TableWords]] = {}
"""``_table_words`` of each table read, by the identity of its cells (kept with them)."""


def _table_words(cells: tuple[Cell, ...]) -> _TableWords:
    """A table's words by row and by column (spans counted in each), and its numbers by grid place."""
    kept = _TABLES.get(id(cells))
    if kept is not None and kept[0] is cells:
        return kept[1]
    rows: dict[int, set[str]] = {}
    columns: dict[int, set[str]] = {}
    values: dict[tuple[int, int], tuple[str, ...]] = {}
    for cell in cells:
        cell_words = set(numbers.words(cell.text))
        for r in range(cell.row, cell.row + cell.rowspan):
            rows.setdefault(r, set()).update(cell_words)
            for c in range(cell.column, cell.column + cell.colspan):
                values[(r, c)] = cell.numbers
        for c in range(cell.column, cell.column + cell.colspan):
            columns.setdefault(c, set()).update(cell_words)
    _TABLES[id(cells)] = (cells, (rows, columns, values))
    return rows, columns, values


def _constants(
    content: Content, index: SourceIndex, lines: _Lines
) -> tuple[list[tuple[str, str]], list[Finding]]:
    """The paper's constants as (symbol key, canonical value), and a finding for each the index
    does not hold at its label."""
    constants = []
    findings = []
    for i, constant in enumerate(content.paper.constants):
        field_path = f"constants[{i}]"
        value = numbers.canonical(Decimal(repr(float(constant.value))))
        if value not in _scope((constant.source,), index, whole_tables=True):
            findings.append(
                Finding(
                    "content/paper.yaml",
                    lines.line("content/paper.yaml", field_path),
                    field_path + ".value",
                    f"warning: constant {constant.symbol} = {constant.value} is not in {constant.source} "
                    "of the source index",
                )
            )
        constants.append((symbol_key(constant.symbol), value))
    return constants, findings


def ground(content: Content, index: SourceIndex, project: Path | None = None) -> Grounding:
    """Ground every number and quoted phrase of ``content`` in ``index`` (see the module docstring)."""
    result = Grounding()
    lines = _Lines(project)
    constants, result.findings = _constants(content, index, lines)
    figure_text: dict[str, list[list[str]]] = {}
    for figure in content.paper.figure_text:
        figure_text.setdefault(figure.source, []).extend(numbers.words(t) for t in figure.text)
    scopes: dict[tuple[tuple[str, ...], bool], set[str]] = {}
    reported: set[tuple[str, str, int]] = set()
    reported_labels: set[tuple[str, str]] = set()
    for text in _texts(content, lines):
        key = (text.labels, text.whole_tables)
        if key not in scopes:
            scopes[key] = _scope(text.labels, index, text.whole_tables)
            for label in text.labels:
                for name in [label, *index.descendants(label)]:
                    scopes[key].update(
                        n.value
                        for words in figure_text.get(name, [])
                        for n in numbers.numbers(" ".join(words))
                    )
        scope = scopes[key]
        unknown = [label for label in text.labels if label not in index.labels]
        if unknown and (text.path, text.item) not in reported_labels:
            reported_labels.add((text.path, text.item))
            result.findings.append(
                Finding(
                    text.path,
                    text.line,
                    text.field,
                    f"warning: {text.item}: the source index has no {', '.join(unknown)}",
                )
            )
        if text.field.rsplit(".", 1)[-1].startswith("derived[") and not arithmetic.derived(text.text):
            result.findings.append(
                Finding(
                    text.path, text.line, text.field, f"warning: {text.item}: {text.text!r} does not check"
                )
            )
        cell_numbers: set[str] = set()
        for j, reference in enumerate(text.cells):
            _, cells, problem = _cell_named(reference, text.labels, index)
            item_path = re.sub(r"\.[^.\[\]]+(?:\[\d+\])?(?:\.\w+)?$", "", text.field)
            if problem and (text.path, item_path, j) not in reported:
                reported.add((text.path, item_path, j))
                result.findings.append(
                    Finding(
                        text.path,
                        lines.line(text.path, f"{item_path}.cells[{j}]"),
                        f"{item_path}.cells[{j}]",
                        f"warning: {text.item}: {problem}",
                    )
                )
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
                line += 1 + text.text[: number.start].count("\n")
            result.findings.append(
                Finding(
                    text.path,
                    line,
                    text.field,
                    f"warning: {text.item}: {number.written.strip()} is not in "
                    f"{', '.join(text.labels) or 'its source'} (nor declared, nor derived)",
                )
            )
        for quote, named in _quotes(text.text):
            result.quotes += 1
            if _quote_found(quote, (named,) if named else text.labels, index, figure_text):
                result.counts["quotes"] += 1
                continue
            result.findings.append(
                Finding(
                    text.path,
                    text.line,
                    text.field,
                    f'warning: {text.item}: the quote "{quote}" is not in {named or ", ".join(text.labels)}',
                )
            )
    return result


def _kind(
    number: numbers.Number,
    text: _Text,
    scope: set[str],
    cells: set[str],
    derived: list[tuple[int, int]],
    constants: list[tuple[str, str]],
) -> str:
    if number.value in cells or number.unscaled in cells:
        return "cell"
    if number.value in scope or number.unscaled in scope:
        return "cited"
    if any(s <= number.start and number.end <= e for s, e in derived):
        return "derived"
    if any(_close(number, value, decimals) for value, decimals in text.results):
        return "derived"
    if any(_close(number, value) for value in text.given):
        return "declared"
    for symbol, value in constants:
        if number.value == value and _mentions(text.item_text, symbol):
            return "declared"
    if number.value in _TRIVIAL and number.decimals == 0:
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


def _quotes(text: str) -> list[tuple[str, str]]:
    """Each quoted phrase of ``text`` and the label written right after it, if any
    (``"…" (Section 5.4)``, ``"…", S5.4``): a quote from another part of the paper than the
    item's source says where it is from."""
    found = []
    text = CLOZE.sub(lambda c: c.group(2), text)
    for m in _QUOTE.finditer(text):
        quote = (m.group(1) or m.group(2)).strip()
        if not numbers.words(quote):
            continue
        where = _QUOTE_LABEL.match(text, m.end())
        named = ""
        if where:
            named = where.group(2) or where.group(3) or "S" + where.group(1)
        found.append((quote, named))
    return found


def _quote_found(
    quote: str, labels: tuple[str, ...], index: SourceIndex, figure_text: dict[str, list[list[str]]]
) -> bool:
    """Whether each part of ``quote`` (split at an ellipsis or an editor's ``[…]``) is in a
    label the item cites or one inside it, the section a cited float is in, a work they cite,
    or the declared text of a cited figure."""
    fragments = [numbers.words(f) for f in _ELLIPSIS.split(quote) if numbers.words(f)]
    printed = {e.title: name for name, e in index.labels.items() if e.kind in ("table", "figure")}
    for label in labels:
        label = printed.get(label, label)
        if label not in index.labels:
            continue
        names = [label, *index.descendants(label)]
        if index.labels[label].kind in ("equation", "table", "figure") and index.labels[label].parent:
            names.append(index.labels[label].parent)
        entries = [index.labels[n] for n in names]
        entries += [index.bibliography[k] for e in list(entries) for k in e.cites if k in index.bibliography]
        shown = [phrase for n in names for phrase in figure_text.get(n, [])]
        if fragments and all(
            any(e.has_phrase(" ".join(f)) for e in entries) or _within(f, shown) for f in fragments
        ):
            return True
    return False


def _within(words: list[str], phrases: list[list[str]]) -> bool:
    return any(
        phrase[i : i + len(words)] == words for phrase in phrases for i in range(len(phrase) - len(words) + 1)
    )


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
    click.echo(
        f"grounding: {result.checked} numbers ({kinds}), {result.quotes} quotes "
        f"({result.counts['quotes']} found); {len(result.findings)} not grounded in "
        f"content/{INDEX_FILE}"
    )
    if strict and result.findings:
        raise ContentError(
            [Finding(f.path, f.line, f.field, f.message.removeprefix("warning: ")) for f in result.findings]
        )
    for finding in result.findings:
        click.echo(str(finding), err=True)
    return result
