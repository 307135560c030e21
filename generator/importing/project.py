"""The project ``paperdeck import`` writes from a paper, never over what the author wrote.

A new project gets what ``paperdeck new`` writes (recipes, ``.gitignore``, the authoring
reference) with the paper's own content: ``content/paper.yaml`` (title, authors, year,
arXiv id), a lesson per top-level section in the paper's order whose sources are the
section's labels, and drafts where nothing is guessed (an Equation note per numbered
equation paperdeck's LaTeX parser reads, a card per captioned figure). The paper itself,
as data for the author to write cards from, goes to ``paper/``: every displayed
equation (those the parser cannot read listed with their label), the tables cell by
cell, the figures' captions and images, the footnotes and the bibliography. Re-importing
into a project refreshes ``paper/`` and the source index and leaves ``content/`` and
``decks/`` as they are.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..content.text import outside_math
from ..project.scaffold import AUTHORING, GITIGNORE, paper_id
from .paper import Equation, Paper, Section, Table

PAPER_FOLDER = "paper"
"""Where the paper's equations, tables, figures, footnotes and bibliography go, as data."""
_WHERE = re.compile(r"\bwhere\b(.*?)(?:\.\s|\.$|$)", re.I | re.S)
_PIECES = re.compile(r",\s*(?:and\s+)?|;\s*|\s+and\s+(?=\\\(|`)")
_SYMBOL_MEANING = re.compile(
    r"^\s*(\\\((.*?)\\\)|`([^`]+)`)\s+(?:is|are|denotes|denote|represents|stands for)\s+(.+?)\s*$", re.S
)


@dataclass(frozen=True)
class Written:
    """What the import wrote."""

    files: tuple[str, ...]
    """Paths written, relative to the project."""
    kept: tuple[str, ...]
    """Paths left alone because the author's were there."""
    lessons: int
    drafts: int


def _dump(data: Any) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


def lesson_id(section: Section, index: int) -> str:
    """A lesson's id from its section: its number and the first words of its title."""
    words = re.findall(r"[a-z0-9]+", outside_math(section.title).lower())
    return "-".join([f"{index:02d}", *words[:4]])


def _symbols(context: str) -> list[dict[str, str]]:
    # "where d_k is the dimension of the keys": the symbols the sentences define, as written.
    found = []
    seen = set()
    match = _WHERE.search(context)
    for piece in _PIECES.split(match.group(1) if match else ""):
        defined = _SYMBOL_MEANING.match(piece)
        if defined is None:
            continue
        latex = (defined.group(2) or "").strip()
        if not latex or latex in seen:  # a symbol our parser cannot read stays in the text
            continue
        seen.add(latex)
        found.append({"symbol": latex, "shape": "?", "meaning": defined.group(4).strip()})
    return found


def _section_of(label: str, top: tuple[Section, ...]) -> Section | None:
    owner = label.split(".E")[0].split(".T")[0].split(".F")[0]
    for section in top:
        if owner in set(section.labels()):
            return section
    return None


def _equation_item(equation: Equation, paper: str) -> dict[str, Any]:
    left = equation.tex.split("=", 1)[0].strip() if "=" in equation.tex else ""
    variables = _symbols(equation.context) or [
        {
            "symbol": left or equation.tex,
            "shape": "scalar",
            "meaning": "to write: what this side of the equation and each of its symbols stand for",
        }
    ]
    return {
        "id": f"{paper}-eq-{equation.number}",
        "name": f"Equation ({equation.number})",
        "label": equation.label,
        "latex": equation.tex,
        "variables": variables,
        "draft": True,
    }


def table_markdown(table: Table) -> str:
    """``table`` as a Markdown table under its caption, for the lesson text (the guide and the
    site show it): a spanned cell's text in its first row and column, the rest left empty."""
    grid: dict[tuple[int, int], str] = {}
    width = 0
    for r, row in enumerate(table.rows):
        c = 0
        for cell in row:
            while (r, c) in grid:
                c += 1
            for dr in range(cell.rowspan):
                for dc in range(cell.colspan):
                    grid[(r + dr, c + dc)] = _cell(cell.text) if dr == dc == 0 else ""
            c += cell.colspan
        width = max(width, c)
    height = len(table.rows)
    lines = ["| " + " | ".join(grid.get((r, c), "") for c in range(width)) + " |" for r in range(height)]
    if not lines or width == 0:
        return ""
    lines.insert(1, "|" + "---|" * width)
    caption = (
        f"**Table {table.number}** ({table.label}): {table.caption}"
        if table.caption
        else f"**Table {table.number}** ({table.label})"
    )
    return caption + "\n\n" + "\n".join(lines)


def _cell(text: str) -> str:
    # A bar would end the cell: inside math it is \vert, elsewhere a divides sign that looks the same.
    parts = re.split(r"(\\\(.*?\\\))", text)
    return (
        "".join(p.replace("|", "\\vert ") if p.startswith("\\(") else p.replace("|", "\u2223") for p in parts)
        or " "
    )


def _figure_card(number: str, caption: str, label: str, paper: str) -> dict[str, Any]:
    # The caption's first sentence on the back, the rest under it: a back holds one idea.
    first, _, rest = caption.partition(". ")
    card = {
        "id": f"{paper}-figure-{number}",
        "front": f"What does Figure {number} of the paper show?",
        "back": first if rest else caption,
        "source": label,
        "draft": True,
    }
    if rest:
        card["back"] = first + "."
        card["explanation"] = rest
    return card


def lessons(
    paper: Paper, paper_key: str, images: dict[str, str] | None = None
) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each top-level section as a lesson (id, YAML data), in the paper's order; ``images``
    maps a figure's label to its image under ``content/`` (a draft visual shows it)."""
    images = images or {}
    top = paper.sections
    for index, section in enumerate(top, start=1):
        tables = [table_markdown(t) for t in paper.tables if _section_of(t.label, top) is section]
        lesson: dict[str, Any] = {
            "id": lesson_id(section, index),
            "title": section.title or f"Section {section.number}",
            "sources": list(dict.fromkeys(section.labels())),
            "text": "\n\n".join(
                [
                    f"Section {section.number or section.label[1:]} of the paper"
                    f"{': ' + section.title if section.title else ''}. Write this lesson from it; "
                    f"the paper's equations, tables and figures are in `{PAPER_FOLDER}/`.",
                    *(t for t in tables if t),
                ]
            )
            + "\n",
        }
        equations = [
            _equation_item(e, paper_key)
            for e in paper.equations
            if e.number and not e.problem and _section_of(e.label, top) is section
        ]
        figures = [
            _figure_card(f.number, f.caption, f.label, paper_key)
            for f in paper.figures
            if f.caption and _section_of(f.label, top) is section
        ]
        if equations:
            lesson["equations"] = equations
        visuals = [
            {
                "id": f"{paper_key}-figure-{f.number}-image",
                "kind": "image",
                "caption": f.caption,
                "source": f.label,
                "params": {"file": images[f.label]},
                "draft": True,
            }
            for f in paper.figures
            if f.caption and f.label in images and _section_of(f.label, top) is section
        ]
        if figures:
            lesson["flashcards"] = figures
        if visuals:
            lesson["visuals"] = visuals
        yield lesson["id"], lesson


def paper_files(paper: Paper) -> dict[str, Any]:
    """The paper as data, by file name under ``paper/``."""
    return {
        "equations.yaml": [
            {
                "label": e.label,
                "number": e.number,
                "latex": e.tex,
                **({"unreadable": e.problem} if e.problem else {}),
            }
            for e in paper.equations
        ],
        "tables.yaml": [
            {
                "label": t.label,
                "number": t.number,
                "caption": t.caption,
                "rows": [
                    [
                        {
                            "text": c.text,
                            **({"rowspan": c.rowspan} if c.rowspan > 1 else {}),
                            **({"colspan": c.colspan} if c.colspan > 1 else {}),
                            **({"header": True} if c.header else {}),
                        }
                        for c in row
                    ]
                    for row in t.rows
                ],
            }
            for t in paper.tables
        ],
        "figures.yaml": [
            {"label": f.label, "number": f.number, "caption": f.caption, "images": list(f.images)}
            for f in paper.figures
        ],
        "footnotes.yaml": [{"mark": n.mark, "label": n.label, "text": n.text} for n in paper.footnotes],
        "bibliography.yaml": [{"number": r.number, "key": r.key, "text": r.text} for r in paper.references],
        "sections.yaml": [_section_data(s) for s in paper.sections],
    }


def _section_data(section: Section) -> dict[str, Any]:
    data: dict[str, Any] = {"label": section.label, "number": section.number, "title": section.title}
    if section.children:
        data["sections"] = [_section_data(c) for c in section.children]
    return data


def copy_images(paper: Paper, source: Path, target: Path, rasteriser: Rasteriser | None = None) -> list[str]:
    """The figures' images under ``target`` (PNG and JPEG copied, PDF rasterised); their names."""
    if rasteriser is None:
        with tempfile.TemporaryDirectory(prefix="paperdeck-figures-") as scratch:
            return copy_images(paper, source, target, Rasteriser(Path(scratch)))
    written = []
    root = source.resolve()
    for figure in paper.figures:
        for i, image in enumerate(figure.images, start=1):
            path = (source / image).resolve()
            if not path.is_relative_to(root) or not path.is_file():
                continue
            name = f"{figure.label}-{i}"
            suffix = path.suffix.lower()
            target.mkdir(parents=True, exist_ok=True)
            if suffix in (".png", ".jpg", ".jpeg"):
                shutil.copyfile(path, target / f"{name}{suffix}")
                written.append(f"{name}{suffix}")
            elif suffix == ".pdf":
                png = rasteriser.png(path)
                if png is not None:
                    shutil.copyfile(png, target / f"{name}.png")
                    written.append(f"{name}.png")
    return written


class Rasteriser:
    """PDF files rasterised to PNG in a scratch folder, each once.

    ``start_ahead`` rasterises a source's PDF files on a thread of their own while LaTeXML
    runs on another core, those whose names the ``.tex`` files mention first, so the
    figures are ready when the import copies them: the Transformer's take 0.8 s of CPU,
    off the import's critical path of about 14 s. pdfium is not thread-safe, so one PDF is
    rasterised at a time.
    """

    def __init__(self, scratch: Path) -> None:
        self._scratch = scratch
        self._done: dict[Path, Path | None] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start_ahead(self, source: Path) -> None:
        """Rasterise the PDF files under ``source`` in the background, until ``stop``."""
        if (os.cpu_count() or 1) < 2:  # on one core the thread would slow LaTeXML down
            return
        root = source.resolve()
        files = [p for p in root.rglob("*") if p.is_file()]
        tex = " ".join(p.read_text("utf-8", "replace") for p in files if p.suffix.lower() == ".tex")
        pdfs = sorted((p for p in files if p.suffix.lower() == ".pdf"), key=lambda p: (p.stem not in tex, p))
        self._thread = threading.Thread(target=self._ahead, args=(pdfs,), daemon=True)
        self._thread.start()

    def _ahead(self, pdfs: list[Path]) -> None:
        for pdf in pdfs:
            if self._stop.is_set():
                return
            self.png(pdf)

    def stop(self) -> None:
        """Stop rasterising ahead (after the PDF in hand)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def png(self, pdf: Path) -> Path | None:
        """``pdf`` (a resolved path) as a PNG in the scratch folder; None when it cannot be read."""
        with self._lock:
            if pdf not in self._done:
                self._scratch.mkdir(parents=True, exist_ok=True)
                png = self._scratch / f"{len(self._done)}.png"
                self._done[pdf] = png if _rasterise(pdf, png) else None
            return self._done[pdf]


def _rasterise(pdf: Path, png: Path) -> bool:
    import pypdfium2

    try:
        document = pypdfium2.PdfDocument(str(pdf))
        try:
            page = document[0]
            width = page.get_width() or 1.0
            bitmap = page.render(scale=min(4.0, 1600 / width))
            # zlib level 3, not Pillow's 6: the Transformer's PDF figures encode in half the
            # time (0.26 s of CPU instead of 0.51 s) into PNGs 1.4 % larger, the same pixels.
            bitmap.to_pil().save(png, compress_level=3)
        finally:
            document.close()
    except Exception:  # a damaged PDF figure: the caption is still imported
        return False
    return True


def _content_images(paper: Paper, copied: list[str], figures: Path, content: Path) -> dict[str, str]:
    # A figure's first image, under content/ where the image visual kind reads it.
    found = {}
    for figure in paper.figures:
        name = next((n for n in copied if n.startswith(f"{figure.label}-1.")), None)
        if name is None or not figure.caption:
            continue
        file = f"figures/figure-{figure.number}{Path(name).suffix.lower()}"
        (content / "figures").mkdir(parents=True, exist_ok=True)
        shutil.copyfile(figures / name, content / file)
        found[figure.label] = file
    return found


def write_project(
    paper: Paper, folder: Path, *, arxiv: str, source: Path, rasteriser: Rasteriser | None = None
) -> Written:
    """Write the project for ``paper`` into ``folder``: a new one, or the paper's data and
    index refreshed in an existing one (``content/`` and ``decks/`` left as they are).
    ``rasteriser`` holds the PDF figures rasterised while LaTeXML ran, if any."""
    written: list[str] = []
    kept: list[str] = []
    key = paper_id(paper.title or "paper")
    files: dict[str, str] = {}
    drafts = 0
    lesson_ids = []
    existing = (folder / "content" / "paper.yaml").is_file()
    data_folder = folder / PAPER_FOLDER
    copied = copy_images(paper, source, data_folder / "figures", rasteriser)
    images = {} if existing else _content_images(paper, copied, data_folder / "figures", folder / "content")
    for lesson, data in lessons(paper, key, images):
        lesson_ids.append(lesson)
        drafts += sum(len(data.get(name, [])) for name in ("equations", "flashcards", "visuals"))
        files[f"content/lessons/{lesson}.yaml"] = _dump(data)
    year = paper.year or (2000 + int(arxiv[:2]) if arxiv else 0)
    files["content/paper.yaml"] = _dump(
        {
            "id": key,
            "title": paper.title or "Untitled",
            "authors": list(paper.authors) or ["Unknown"],
            "year": year,
            "arxiv": arxiv or "unknown",
            "lessons": lesson_ids,
        }
    )
    title = paper.title or "Untitled"
    files[f"decks/{key}.yaml"] = _dump({"kind": "deck", "title": title})
    files[f"decks/{key}-guide.yaml"] = _dump({"kind": "guide", "title": f"{title}: a study guide"})
    files[".gitignore"] = GITIGNORE
    from ..project.reference import render

    files[AUTHORING] = render()
    for relative, text in files.items():
        path = folder / relative
        if existing and (relative.startswith(("content/", "decks/")) or path.exists()):
            kept.append(relative)
            continue
        if path.exists():
            kept.append(relative)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(relative)
    data_folder.mkdir(parents=True, exist_ok=True)
    for name, data in paper_files(paper).items():
        (data_folder / name).write_text(_dump(data), encoding="utf-8")
        written.append(f"{PAPER_FOLDER}/{name}")
    written += [f"{PAPER_FOLDER}/figures/{name}" for name in copied]
    written += [f"content/{file}" for file in images.values()]
    return Written(tuple(written), tuple(kept), len(lesson_ids), drafts if not existing else 0)


__all__ = ["PAPER_FOLDER", "Rasteriser", "Written", "lesson_id", "lessons", "paper_files", "write_project"]
