"""LaTeXML's XML of a paper, read into a small model of what the import writes.

Sections with their labels and titles, displayed equations with their numbers and
macro-expanded LaTeX (LaTeXML's ``tex`` attribute: the author's macros expanded),
tables cell by cell with their spans, figures with their captions and images,
footnotes, and the bibliography in the paper's order. Labels come from
``labels.label_for``. Text is Markdown with the paper's inline math as ``\\( … \\)``
when paperdeck's LaTeX parser reads it, else as a code span, so whatever the
import writes passes ``paperdeck check``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..latex import latex_problems
from .labels import FRONT_MATTER, Labels

NS = "{http://dlmf.nist.gov/LaTeXML}"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
SECTIONS = ("section", "appendix", "subsection", "subsubsection")
_SKIPPED = {f"{NS}{tag}" for tag in ("tags", "tag", "indexmark", "ERROR", "note", "bibliography", "toctitle")}
_SPACES = re.compile(r"\s+")
_TEX_LINE_END = re.compile(r"(?<!\\)%[^\n]*\n\s*")
"""A comment to the end of a line in LaTeXML's ``tex`` of a formula (it keeps the source's ``%``)."""
_DISPLAYSTYLE = re.compile(r"\\displaystyle(?![A-Za-z])\s*")


@dataclass(frozen=True)
class Section:
    """A section, subsection or appendix of the paper."""

    label: str
    """Its source label (``S3.2.1``, ``SA``, ``Sx1``)."""
    number: str
    """The number the paper prints (``3.2.1``, ``A``), '' when unnumbered."""
    title: str
    """Its title, Markdown."""
    level: int
    """1 for a section or appendix, 2 for a subsection, 3 below."""
    children: tuple[Section, ...] = ()
    """Its subsections, in order."""

    def labels(self) -> Iterator[str]:
        """Its label and its subsections', in order."""
        yield self.label
        for child in self.children:
            yield from child.labels()


@dataclass(frozen=True)
class Equation:
    """A displayed equation."""

    label: str
    """``S3.E1`` when numbered, else the label of its section."""
    number: str
    """The number the paper prints (``1``), '' when unnumbered."""
    tex: str
    """Its LaTeX, the author's macros expanded (rows of an alignment joined with ``\\\\``)."""
    problem: str
    """Why paperdeck's LaTeX parser cannot read ``tex``, '' when it can."""
    context: str
    """The plain text of the paragraphs around it, where its symbols are defined."""


@dataclass(frozen=True)
class Cell:
    """One cell of a table."""

    text: str
    """Its content, Markdown."""
    rowspan: int = 1
    colspan: int = 1
    header: bool = False
    """A heading cell (LaTeXML's ``thead``)."""


@dataclass(frozen=True)
class Table:
    """A table of the paper, cell by cell."""

    label: str
    """``S6.T2``."""
    number: str
    caption: str
    rows: tuple[tuple[Cell, ...], ...]


@dataclass(frozen=True)
class Figure:
    """A figure: caption and the image files the source names."""

    label: str
    number: str
    caption: str
    images: tuple[str, ...]
    """The images' files, relative to the source folder, as LaTeXML found them."""


@dataclass(frozen=True)
class Footnote:
    """A footnote, or a note on the title or an author (``\\thanks``)."""

    mark: str
    """The mark the paper prints (``1``, ``*``, '' for an unmarked note)."""
    text: str
    label: str
    """The section it is in (``S0`` for the front matter)."""


@dataclass(frozen=True)
class Reference:
    """An entry of the bibliography."""

    number: int
    """Its number in the paper's order (1-based)."""
    key: str
    """Its BibTeX key."""
    text: str


@dataclass(frozen=True)
class Paper:
    """What the import takes from a paper."""

    title: str
    authors: tuple[str, ...]
    abstract: str
    year: int
    """The year of the paper when its date says it, else 0."""
    sections: tuple[Section, ...]
    equations: tuple[Equation, ...]
    tables: tuple[Table, ...]
    figures: tuple[Figure, ...]
    footnotes: tuple[Footnote, ...]
    references: tuple[Reference, ...]
    bibliography_files: str = ""
    """The ``.bib`` files a ``\\bibliography`` names when the source had no ``.bbl`` (LaTeXML
    then leaves the bibliography empty), else ''."""


def read(path: Path) -> Paper:
    """The paper in LaTeXML's XML file ``path``."""
    root = ET.parse(path).getroot()
    parents = {child: parent for parent in root.iter() for child in parent}
    labels = Labels(root)
    for cite in root.iter(f"{NS}cite"):
        # Citations are left out of the text: LaTeXML fills them in only later, and a reference's
        # number is not a number of the paper (a card's grounding would look for it in the text).
        for child in list(cite):
            cite.remove(child)
        cite.text = ""
    title_element = root.find(f"{NS}title")
    authors = tuple(
        name
        for creator in root.iter(f"{NS}creator")
        if creator.get("role") == "author"
        for p in creator.iter(f"{NS}personname")
        for name in _names(p)
    )
    abstract = root.find(f"{NS}abstract")
    date = root.find(f"{NS}date")
    year = re.search(r"\b(19|20)\d\d\b", _plain(date)) if date is not None else None
    return Paper(
        title=_clean(_markdown(title_element)) if title_element is not None else "",
        authors=tuple(a for a in authors if a),
        abstract=_paragraphs(abstract) if abstract is not None else "",
        year=int(year.group()) if year else 0,
        sections=tuple(_sections(root, labels)),
        equations=tuple(_equations(root, parents, labels)),
        tables=tuple(_tables(root, labels)),
        figures=tuple(_figures(root, labels, parents)),
        footnotes=tuple(_footnotes(root, parents, labels)),
        references=tuple(_references(root)),
        bibliography_files=next(
            (
                b.get("files", "")
                for b in root.iter(f"{NS}bibliography")
                if b.get("files") and b.find(f"{NS}biblist") is None
            ),
            "",
        ),
    )


def _names(personname: ET.Element) -> Iterator[str]:
    # One personname may hold several authors (a style's \\And that LaTeXML did not know,
    # as "&") and each one's affiliation and address on the lines after the name.
    lines: list[str] = []

    def walk(node: ET.Element) -> None:
        if node is not personname and node.tag in (f"{NS}note", f"{NS}ERROR"):
            if node.tag == f"{NS}ERROR" and (node.text or "").strip().lower() == "\\and":
                lines.append("&")  # a style's \\And that LaTeXML did not know: the next author
            lines.append(node.tail or "")
            return
        if node.tag == f"{NS}break":
            lines.append("\n")
        lines.append(node.text or "")
        for child in node:
            walk(child)
        if node is not personname:
            lines.append(node.tail or "")

    walk(personname)
    for person in "".join(lines).split("&"):
        name = next((_clean(line) for line in person.splitlines() if _clean(line)), "")
        if name:
            yield name


def _local(element: ET.Element) -> str:
    return element.tag[len(NS) :] if element.tag.startswith(NS) else element.tag


def _refnum(element: ET.Element) -> str:
    tags = element.find(f"{NS}tags")
    if tags is not None:
        for tag in tags.findall(f"{NS}tag"):
            if tag.get("role") == "refnum":
                return _clean(_plain(tag))
    title_tag = element.find(f"{NS}title/{NS}tag")
    return _clean(_plain(title_tag)) if title_tag is not None else ""


def _sections(parent: ET.Element, labels: Labels, level: int = 1, holder: str = "") -> Iterator[Section]:
    for element in parent:
        if _local(element) not in SECTIONS:
            continue
        label = labels.label_for(element.get(XML_ID, ""))
        if label is None:
            continue
        if label == holder:  # an unnumbered subsection is part of its section
            continue
        title = element.find(f"{NS}title")
        yield Section(
            label,
            _refnum(element),
            _clean(_markdown(title)) if title is not None else "",
            level,
            tuple(_sections(element, labels, level + 1, label)),
        )


def _equations(root: ET.Element, parents: dict[ET.Element, ET.Element], labels: Labels) -> Iterator[Equation]:
    def whole(group: ET.Element) -> bool:
        # One display: numbered as a whole, or no row numbered (align*); else each row is one.
        return bool(_refnum(group)) or not any(_refnum(e) for e in group.iter(f"{NS}equation"))

    for element in root.iter():
        name = _local(element)
        parent = parents.get(element)
        if parent is not None and _local(parent) == "equationgroup" and whole(parent):
            continue  # read with its group
        if name == "equationgroup" and whole(element):
            rows = [_math_tex(e) for e in element.iter(f"{NS}equation")]
            yield _equation(element, " \\\\ ".join(r for r in rows if r), parents, labels)
        elif name == "equation":
            yield _equation(element, _math_tex(element), parents, labels)


def _math_tex(equation: ET.Element) -> str:
    # A row of an alignment holds its whole formula (in a MathFork) and each cell's again
    # (in its MathBranch): the whole one, once.
    maths: list[ET.Element] = []

    def walk(node: ET.Element) -> None:
        for child in node:
            if child.tag == f"{NS}Math":
                maths.append(child)
            elif child.tag != f"{NS}MathBranch":
                walk(child)

    walk(equation)
    parts = [_DISPLAYSTYLE.sub("", _TEX_LINE_END.sub("", m.get("tex", ""))) for m in maths]
    return " ".join(p.strip() for p in parts if p.strip())


def _equation(
    element: ET.Element, tex: str, parents: dict[ET.Element, ET.Element], labels: Labels
) -> Equation:
    number = _refnum(element)
    xml_id = element.get(XML_ID, "")
    first_row = next(element.iter(f"{NS}equation"), None)
    if not number and first_row is not None:  # LaTeXML names a group of rows by another section
        xml_id = first_row.get(XML_ID, xml_id)
    label = (labels.label_for(xml_id) if number else labels.section_of(xml_id)) or FRONT_MATTER
    problem = "; ".join(latex_problems(tex)) if tex else "LaTeXML gave no LaTeX for it"
    return Equation(label, number, tex, problem, _context(element, parents))


def _context(element: ET.Element, parents: dict[ET.Element, ET.Element]) -> str:
    # The paragraph that holds the equation, and the one after it: "where d_k is ..." sentences.
    para = element
    while para in parents and _local(para) != "para":
        para = parents[para]
    holder = parents.get(para)
    if holder is None:
        return _clean(_markdown(para))
    siblings = list(holder)
    index = siblings.index(para)
    around = siblings[max(0, index - 1) : index + 2]
    return " ".join(_clean(_markdown(p)) for p in around if _local(p) == "para")


def _tables(root: ET.Element, labels: Labels) -> Iterator[Table]:
    for element in root.iter(f"{NS}table"):
        label = labels.label_for(element.get(XML_ID, ""))
        tabular = next(element.iter(f"{NS}tabular"), None)
        if label is None or tabular is None:
            continue
        rows = []
        for tr in tabular.iter(f"{NS}tr"):
            header = any(_local(g) == "thead" for g in tabular if tr in list(g.iter(f"{NS}tr")))
            cells = tuple(
                Cell(
                    _clean(_markdown(td)),
                    int(td.get("rowspan", "1")),
                    int(td.get("colspan", "1")),
                    header or "thead" in (td.get("thead") or ""),
                )
                for td in tr.findall(f"{NS}td")
            )
            rows.append(cells)
        yield Table(label, _refnum(element), _caption(element), tuple(rows))


def _caption(element: ET.Element) -> str:
    caption = element.find(f"{NS}caption")
    if caption is None:
        return ""
    text = _clean(_markdown(caption))
    return re.sub(r"^(Table|Figure|Fig\.)\s+[A-Z]?\d+[.:]?\s*", "", text)


def _figures(root: ET.Element, labels: Labels, parents: dict[ET.Element, ET.Element]) -> Iterator[Figure]:
    for element in root.iter(f"{NS}figure"):
        label = labels.label_for(element.get(XML_ID, ""))
        if label is None or ".F" not in label or label.rsplit(".", 1)[1] != f"F{_refnum(element)}":
            continue  # subfigures fold into their figure
        graphics = list(element.iter(f"{NS}graphics"))
        holder = parents.get(element)
        if not graphics and holder is not None and _local(holder) in ("inline-para", "inline-block"):
            # \captionof: the image beside the caption, in the box that holds both
            graphics = [
                g
                for g in holder.iter(f"{NS}graphics")
                if not any(g in list(f.iter()) for f in holder.iter(f"{NS}figure"))
            ]
        images = tuple(g.get("candidates", "").split(",")[0] or g.get("graphic", "") for g in graphics)
        yield Figure(label, _refnum(element), _caption(element), tuple(i for i in images if i))


def _footnotes(root: ET.Element, parents: dict[ET.Element, ET.Element], labels: Labels) -> Iterator[Footnote]:
    for element in root.iter(f"{NS}note"):
        if element.get("role") not in ("footnote", "thanks"):
            continue
        holder = element
        label = None
        while holder in parents and label is None:
            holder = parents[holder]
            label = labels.label_for(holder.get(XML_ID, "")) if holder.get(XML_ID) else None
        text = _clean(_paragraphs(element))
        if text:
            yield Footnote(element.get("mark", ""), text, label or FRONT_MATTER)
    for contact in root.iter(f"{NS}contact"):  # \thanks on the title or an author
        text = _clean(_markdown(contact)) if contact.get("role") == "thanks" else ""
        if text:
            yield Footnote("*", text, FRONT_MATTER)


def _references(root: ET.Element) -> Iterator[Reference]:
    for number, item in enumerate(root.iter(f"{NS}bibitem"), start=1):
        blocks = item.findall(f"{NS}bibblock")
        text = " ".join(_clean(_markdown(b)) for b in blocks) or _clean(_markdown(item))
        yield Reference(number, item.get("key", ""), text)


def _paragraphs(element: ET.Element) -> str:
    paragraphs = [_clean(_markdown(p)) for p in element.iter(f"{NS}p")]
    return "\n\n".join(p for p in paragraphs if p) or _clean(_markdown(element))


def _clean(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


def _plain(element: ET.Element | None) -> str:
    """The element's text, math as LaTeXML's text of it, notes and tags left out."""
    if element is None:
        return ""
    out: list[str] = []

    def walk(node: ET.Element) -> None:
        if node is not element and node.tag in _SKIPPED:
            out.append(node.tail or "")
            return
        if node.tag == f"{NS}Math":
            out.append(node.get("tex", ""))
            out.append(node.tail or "")
            return
        out.append(node.text or "")
        for child in node:
            walk(child)
        if node is not element:
            out.append(node.tail or "")

    walk(element)
    return " ".join("".join(out).split())


def _markdown(element: ET.Element) -> str:
    """The element's text as Markdown: math as ``\\( … \\)`` when paperdeck reads it, else as code."""
    out: list[str] = []

    def walk(node: ET.Element) -> None:
        if node is not element and (
            node.tag in _SKIPPED or node.tag == f"{NS}Math" and node.get("mode") == "display"
        ):
            out.append(_escape(node.tail or ""))
            return
        if node.tag == f"{NS}Math":
            out.append(inline_math(node.get("tex", "")))
            out.append(_escape(node.tail or ""))
            return
        if node.tag == f"{NS}break":
            out.append(" ")
        out.append(_escape(node.text or ""))
        for child in node:
            walk(child)
        if node is not element:
            out.append(_escape(node.tail or ""))

    walk(element)
    return "".join(out)


def inline_math(tex: str) -> str:
    """``tex`` as inline math paperdeck reads, or as a code span when its parser cannot."""
    tex = tex.strip()
    if not tex:
        return ""
    if not latex_problems(tex):
        return f"\\({tex}\\)"
    return "`" + tex.replace("`", "'") + "`"


def _escape(text: str) -> str:
    # Text a card shows as Markdown: a dollar is never math, a backslash is never a command.
    return text.replace("\\", "\\\\").replace("$", "\\$").replace("`", "'")


__all__ = [
    "Cell",
    "Equation",
    "Figure",
    "Footnote",
    "Paper",
    "Reference",
    "Section",
    "Table",
    "inline_math",
    "read",
]
