"""The source index: what ``paperdeck check`` grounds cards in, without the paper's text.

Built once from LaTeXML's XML of the paper (``build_index``), kept in the project as
``content/source-index.json``, read by ``check`` and ``build``, which never need LaTeXML.
Per label it holds the label's numbers, its words as hashes of normalized word runs
(``numbers.shingles``: a phrase can be found, the text cannot be read back), the cells of
a table by row and column, its parent label and the bibliography entries it cites.

Labels are paperdeck's (``S3.2.1``, not LaTeXML's ``S3.SS2.SSS1``):

- a numbered section, subsection or subsubsection: ``S`` and its number (``S3``, ``S3.2.1``);
  a paragraph (``\\paragraph``) belongs to the section it is in;
- a lettered appendix (``\\appendix`` then ``\\section``): ``S`` and its letter, its
  subsections ``SA.1``; an unnumbered section after the bibliography is an appendix too,
  lettered after the others (the Transformer's "Attention Visualizations" is ``SA``);
- another unnumbered section (Acknowledgements, Limitations): ``SU1``, ``SU2`` … in order;
- the front matter (title, authors and their notes, abstract): ``S0``;
- a numbered equation, table or figure: its section's label, then ``.E``, ``.T`` or ``.F``
  and LaTeXML's number (``S3.E1``, ``S6.T2``, ``SA.F3``); an unnumbered equation belongs
  to its section;
- a footnote belongs to the label whose text holds its mark.

The bibliography is kept per entry (its key, its number as printed, its numbers and
hashed words), so a card may state what a cited work says (its year, its title).
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..content.text import outside_math
from ..errors import PaperdeckError
from . import numbers

VERSION = 1
"""The index file format's version: a reader refuses another one and says to rebuild."""
FORMAT = "paperdeck-source-index"
INDEX_FILE = "source-index.json"
"""Where a project keeps its index, under ``content/``."""

_LTX = "{http://dlmf.nist.gov/LaTeXML}"
_XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
_SECTIONS = {"section", "subsection", "subsubsection", "appendix", "chapter", "part"}
_MERGED = {"paragraph", "subparagraph"}
_FLOAT_ID = re.compile(r"^(?:(.*)\.)?([ETF])(\d+)$")
"""A numbered float's id: ``S3.E1``, ``A1.T5``, or ``F1`` for one outside every section."""
_SKIPPED = {"tags", "toccaption", "resource", "pagination", "tag", "ERROR", "break"}
"""Elements whose text is no label's: numbering tags, the table of contents' captions, what
LaTeXML could not read."""


class IndexError_(PaperdeckError):
    """A source index cannot be read or built."""


@dataclass(frozen=True)
class Cell:
    """One cell of a table, on the table's grid (spans expanded, 0-based)."""

    row: int
    column: int
    text: str
    """The cell's text (math as TeX): tables are data, and a card names a cell by it."""
    numbers: tuple[str, ...]
    """Its numbers, canonical (``numbers.canonical``)."""
    rowspan: int = 1
    colspan: int = 1


@dataclass(frozen=True)
class Entry:
    """What the index knows of one label (or one bibliography entry)."""

    label: str
    kind: str
    """``front``, ``section``, ``equation``, ``table``, ``figure`` or ``bibitem``."""
    title: str = ""
    """A section's title or a float's number as the paper prints it (``Table 2``)."""
    parent: str = ""
    """The label this one is in (``S3.2`` for ``S3.2.1``, ``S3.2.1`` for ``S3.E1``); '' at the top."""
    numbers: tuple[str, ...] = ()
    """Every number in the label's own text (not in the labels inside it), canonical, sorted."""
    shingles: frozenset[str] = frozenset()
    """Hashes of every run of 1-3 normalized words of its own text (``numbers.shingles``)."""
    cites: tuple[str, ...] = ()
    """Keys of the bibliography entries its own text cites, in order of first citation."""
    cells: tuple[Cell, ...] = ()
    """A table's cells, row by row."""

    def has_phrase(self, phrase: str) -> bool:
        """Whether ``phrase`` (as normalized words) occurs in this label's own text."""
        phrase_words = numbers.words(phrase)
        return bool(phrase_words) and numbers.phrase_shingles(phrase_words) <= self.shingles


@dataclass(frozen=True)
class SourceIndex:
    """A paper's labels and bibliography, as ``check`` needs them."""

    labels: dict[str, Entry]
    """Label -> entry, in the paper's order."""
    bibliography: dict[str, Entry] = field(default_factory=dict)
    """Citation key -> entry; an entry's ``title`` is its number as printed (``[12]``)."""
    title: str = ""
    """The paper's title."""

    def ancestors(self, label: str) -> list[str]:
        """``label`` and the labels it is in, innermost first."""
        chain = []
        while label and label in self.labels and label not in chain:
            chain.append(label)
            label = self.labels[label].parent
        return chain

    def descendants(self, label: str) -> list[str]:
        """The labels inside ``label`` (at any depth), in the paper's order."""
        inside = {label}
        found = []
        for name, entry in self.labels.items():  # parents come before their children
            if entry.parent in inside:
                inside.add(name)
                found.append(name)
        return found


# --- reading LaTeXML's XML -------------------------------------------------------------


def _local(tag: str) -> str:
    return tag[len(_LTX) :] if tag.startswith(_LTX) else tag


def _own_tags(element: ET.Element) -> dict[str, str]:
    """The element's own numbering tags by role (``refnum``, ``number``), not its children's."""
    found = {}
    tags = element.find(_LTX + "tags")
    if tags is not None:
        for tag in tags.findall(_LTX + "tag"):
            found[tag.get("role") or ""] = "".join(tag.itertext()).strip()
    return found


class _Builder:
    def __init__(self) -> None:
        self.text: dict[str, list[str]] = {}
        self.entries: dict[str, dict[str, Any]] = {}
        self.ids: dict[str, str] = {}  # LaTeXML section id -> paperdeck label
        self.cites: dict[str, list[str]] = {}
        self.cells: dict[str, list[Cell]] = {}
        self.bibliography: dict[str, Entry] = {}
        self.appendix_letters = 0
        self.unnumbered = 0
        self.after_bibliography = False
        self.refs: dict[str, str] = {}  # LaTeX \label -> its number as printed, for \ref

    def collect_refs(self, root: ET.Element) -> None:
        for element in root.iter():
            refnum = _own_tags(element).get("refnum", "").replace("§", "").strip()
            for name in (element.get("labels") or "").split():
                self.refs[name] = refnum

    def add(self, label: str, text: str | None) -> None:
        if text and label:
            self.text.setdefault(label, []).append(text)

    def open(self, label: str, kind: str, title: str, parent: str) -> None:
        if label not in self.entries:
            self.entries[label] = {"kind": kind, "title": title, "parent": parent}
            self.text.setdefault(label, [])

    def section_label(self, element: ET.Element, tag: str, parent: str) -> str:
        refnum = _own_tags(element).get("refnum", "")
        if refnum:
            if tag == "appendix" and re.fullmatch(r"[A-Z]", refnum):
                self.appendix_letters = max(self.appendix_letters, ord(refnum) - ord("A") + 1)
            return "S" + refnum.replace("§", "").strip()
        if self.after_bibliography and (not parent or parent == "S0"):
            letter = chr(ord("A") + self.appendix_letters)
            self.appendix_letters += 1
            return "S" + letter
        if parent and parent != "S0":  # an unnumbered subsection: part of its section
            return parent
        self.unnumbered += 1
        return f"SU{self.unnumbered}"

    def visit(self, element: ET.Element, label: str) -> None:
        tag = _local(element.tag)
        xml_id = element.get(_XML_ID, "")
        if tag in _SKIPPED:
            return
        if tag == "bibliography":
            self.bibliography_entries(element)
            self.after_bibliography = True
            return
        if tag == "Math":
            tex = element.get("tex", "")
            self.add(label, f" \\({tex}\\) ")
            return
        if tag == "ref":
            self.add(label, f" {self.refs.get(element.get('labelref', ''), '')} ")
            return
        if tag in ("cite", "bibref"):
            for key in (element.get("bibrefs") or "").split(","):
                if key.strip() and label:
                    self.cites.setdefault(label, [])
                    if key.strip() not in self.cites[label]:
                        self.cites[label].append(key.strip())
            for child in element:
                self.visit(child, label)
            return
        inner = label
        if tag in _SECTIONS:
            inner = self.section_label(element, tag, label)
            if xml_id:
                self.ids[xml_id] = inner
            if inner != label:
                title = element.find(_LTX + "title")
                self.open(inner, "section", _title_text(title), label if label != "S0" else "")
        elif tag in _MERGED and xml_id:
            self.ids[xml_id] = label
        elif tag in ("equation", "table", "figure"):
            inner = self.float_label(element, tag, xml_id, label)
        if tag in ("table", "figure") and inner != label:
            caption = element.find(_LTX + "caption")
            if caption is not None:
                self.visit_children(caption, inner)
            for tabular in element.iter(_LTX + "tabular"):
                self.table(tabular, inner)
                break
            for child in element:
                if _local(child.tag) not in ("caption", "tabular") and child is not caption:
                    self.visit(child, inner)
            return
        if tag == "tabular":  # a table outside a numbered float: its text is its section's
            self.add(label, " ".join(c.text for c in self.read_table(element)))
            return
        self.add(inner, element.text)
        for child in element:
            self.visit(child, inner)
            self.add(inner, child.tail)

    def visit_children(self, element: ET.Element, label: str) -> None:
        self.add(label, element.text)
        for child in element:
            self.visit(child, label)
            self.add(label, child.tail)

    def float_label(self, element: ET.Element, tag: str, xml_id: str, label: str) -> str:
        found = _FLOAT_ID.match(xml_id)
        if found is None or (tag == "equation" and not _own_tags(element).get("refnum")):
            return label  # unnumbered: part of its section
        owner, letter, number = found.groups()
        section = self.ids.get(owner or "", label) or "S0"
        name = f"{section}.{letter}{number}"
        printed = {"E": f"({number})", "T": f"Table {number}", "F": f"Figure {number}"}[letter]
        kind = {"E": "equation", "T": "table", "F": "figure"}[letter]
        if name in self.entries:  # a subfigure inside its figure
            return name
        self.open(name, kind, printed, label)
        return name

    def read_table(self, tabular: ET.Element) -> list[Cell]:
        cells: list[Cell] = []
        taken: set[tuple[int, int]] = set()
        for row, tr in enumerate(tabular.iter(_LTX + "tr")):
            column = 0
            for td in tr.findall(_LTX + "td"):
                while (row, column) in taken:
                    column += 1
                rowspan = int(td.get("rowspan", "1") or 1)
                colspan = int(td.get("colspan", "1") or 1)
                text = " ".join(_cell_text(td).split())
                values = tuple(n.value for n in numbers.numbers(text))
                cells.append(Cell(row, column, text, values, rowspan, colspan))
                for r in range(row, row + rowspan):
                    for c in range(column, column + colspan):
                        taken.add((r, c))
                column += colspan
        return cells

    def table(self, tabular: ET.Element, label: str) -> None:
        cells = self.read_table(tabular)
        self.cells[label] = cells
        self.add(label, " ".join(c.text for c in cells))

    def bibliography_entries(self, element: ET.Element) -> None:
        for item in element.iter(_LTX + "bibitem"):
            key = item.get("key", "")
            tags = _own_tags(item)
            printed = tags.get("refnum") or tags.get("number", "")
            pieces: list[str] = []
            for block in item.findall(_LTX + "bibblock"):
                pieces.append(_cell_text(block))
            text = " ".join(pieces)
            self.bibliography[key] = Entry(key, "bibitem", printed, "", _numbers_of(text), _shingles_of(text))

    def index(self, title: str) -> SourceIndex:
        labels = {}
        for label, info in self.entries.items():
            text = " ".join(self.text.get(label, []))
            labels[label] = Entry(
                label,
                info["kind"],
                info["title"],
                info["parent"],
                _numbers_of(text),
                _shingles_of(text),
                tuple(self.cites.get(label, [])),
                tuple(self.cells.get(label, [])),
            )
        return SourceIndex(labels, self.bibliography, title)


def _title_text(title: ET.Element | None) -> str:
    if title is None:
        return ""
    return " ".join(_cell_text(title).split())


def _cell_text(element: ET.Element) -> str:
    """An element's text with its math as ``\\( TeX \\)`` and without numbering tags."""
    parts = [element.text or ""]
    for child in element:
        tag = _local(child.tag)
        if tag == "Math":
            parts.append(f" \\({child.get('tex', '')}\\) ")
        elif tag not in ("tag", "tags"):
            parts.append(_cell_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


def _numbers_of(text: str) -> tuple[str, ...]:
    found = {n.value for n in numbers.numbers(text)}
    found.update(numbers.number_words(outside_math(text)))
    return tuple(sorted(found, key=lambda v: (float(v), v)))


def _shingles_of(text: str) -> frozenset[str]:
    return frozenset(numbers.shingles(numbers.words(text)))


def build_index(latexml_xml_path: Path | str) -> SourceIndex:
    """The source index of the paper LaTeXML converted to ``latexml_xml_path`` (the XML of
    ``latexml --dest=paper.xml main.tex``, before or after ``latexmlpost``)."""
    path = Path(latexml_xml_path)
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as error:
        raise IndexError_(f"{path}: cannot read LaTeXML's XML: {error}") from error
    builder = _Builder()
    title = root.find(_LTX + "title")
    builder.collect_refs(root)
    builder.open("S0", "front", "Front matter", "")
    builder.visit_children(root, "S0")
    return builder.index(_title_text(title))


# --- the file ------------------------------------------------------------------------------


def to_json(index: SourceIndex) -> dict[str, Any]:
    """The index as JSON-plain data (the file's format, version ``VERSION``)."""

    def entry(e: Entry) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": e.kind}
        if e.title:
            data["title"] = e.title
        if e.parent:
            data["parent"] = e.parent
        data["numbers"] = list(e.numbers)
        if e.cites:
            data["cites"] = list(e.cites)
        if e.cells:
            data["cells"] = [
                [c.row, c.column, c.rowspan, c.colspan, c.text, list(c.numbers)] for c in e.cells
            ]
        data["shingles"] = " ".join(sorted(e.shingles))
        return data

    return {
        "format": FORMAT,
        "version": VERSION,
        "title": index.title,
        "shingles": {"sizes": list(numbers.SHINGLE_SIZES), "hash": "blake2b-40, keyed"},
        "labels": {label: entry(e) for label, e in index.labels.items()},
        "bibliography": {key: entry(e) for key, e in index.bibliography.items()},
    }


def from_json(data: Any, shown: str = INDEX_FILE) -> SourceIndex:
    """The index in JSON-plain ``data``; ``IndexError_`` naming ``shown`` when it is not one."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise IndexError_(f"{shown}: not a paperdeck source index")
    if data.get("version") != VERSION:
        raise IndexError_(
            f"{shown}: source index version {data.get('version')!r}, this paperdeck "
            f"reads version {VERSION}: rebuild it with `paperdeck import`"
        )

    def entry(label: str, d: dict[str, Any]) -> Entry:
        cells = tuple(
            Cell(int(r), int(c), str(t), tuple(str(v) for v in vs), int(rs), int(cs))
            for r, c, rs, cs, t, vs in d.get("cells", [])
        )
        return Entry(
            label,
            str(d["kind"]),
            str(d.get("title", "")),
            str(d.get("parent", "")),
            tuple(str(v) for v in d.get("numbers", [])),
            frozenset(str(d.get("shingles", "")).split()),
            tuple(str(k) for k in d.get("cites", [])),
            cells,
        )

    try:
        labels = {str(k): entry(str(k), v) for k, v in data["labels"].items()}
        bibliography = {str(k): entry(str(k), v) for k, v in data.get("bibliography", {}).items()}
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise IndexError_(f"{shown}: damaged source index ({error!r})") from error
    return SourceIndex(labels, bibliography, str(data.get("title", "")))


def write_index(index: SourceIndex, path: Path | str) -> None:
    """Write ``index`` to ``path`` as JSON (stable: the same paper gives the same bytes)."""
    from ..files.atomic import write_bytes

    text = json.dumps(to_json(index), ensure_ascii=False, indent=1) + "\n"
    write_bytes(Path(path), text.encode("utf-8"))


def read_index(path: Path | str) -> SourceIndex:
    """The index in the file at ``path``."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise IndexError_(f"{path}: cannot read the source index: {error}") from error
    return from_json(data, str(path))


def main(argv: list[str] | None = None) -> None:
    """``python -m generator.grounding.index PAPER.xml OUT.json``: write the index of LaTeXML's
    XML (how the shipped ``content/source-index.json`` is made; docs/grounding.md)."""
    import sys

    xml_path, out = (argv if argv is not None else sys.argv[1:])[:2]
    write_index(build_index(xml_path), out)


if __name__ == "__main__":
    main()
