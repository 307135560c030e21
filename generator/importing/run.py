"""``paperdeck import``: the steps in order, and what they report."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from . import latexml, sources
from .paper import Paper, read
from .project import Rasteriser, Written, write_project

SHOWN_MESSAGES = 20
"""LaTeXML messages shown one a line; the rest are counted."""


@dataclass(frozen=True)
class Imported:
    """What an import did."""

    paper: Paper
    written: Written
    conversion: latexml.Conversion
    source: sources.Source
    seconds: float


def import_paper(
    source: Path, folder: Path, *, main: str | None = None, say: Callable[[str], None] = print
) -> Imported:
    """Convert ``source`` with LaTeXML (sandboxed) and write the project in ``folder``."""
    from ..grounding.index import INDEX_FILE, build_index, write_index

    started = time.monotonic()
    latexml.find_tools()  # before any work: one line on how to install what is missing
    with tempfile.TemporaryDirectory(prefix="paperdeck-import-") as scratch:
        prepared = sources.prepare(source, Path(scratch), main)
        say(
            f"main file: {prepared.main}"
            + (f" (arXiv {prepared.arxiv})" if prepared.arxiv else "")
            + (f"; {prepared.pictures} TikZ/pgfplots pictures left undrawn" if prepared.pictures else "")
        )
        rasteriser = Rasteriser(Path(scratch) / "rasterised")
        rasteriser.start_ahead(prepared.folder)  # the PDF figures, on the core LaTeXML leaves free
        try:
            conversion = latexml.convert(prepared.folder, prepared.main, Path(scratch) / "out")
        finally:
            rasteriser.stop()
        paper = read(conversion.xml)
        folder.mkdir(parents=True, exist_ok=True)
        written = write_project(
            paper, folder, arxiv=prepared.arxiv, source=prepared.folder, rasteriser=rasteriser
        )
        index_path = folder / "content" / INDEX_FILE
        write_index(build_index(conversion.xml), index_path)
    for line in report(paper, conversion, written):
        say(line)
    return Imported(paper, written, conversion, prepared, time.monotonic() - started)


def report(paper: Paper, conversion: latexml.Conversion, written: Written) -> list[str]:
    """What the import found and wrote, and what LaTeXML could not convert, in lines."""
    sections = sum(1 for s in paper.sections for _ in s.labels())
    numbered = [e for e in paper.equations if e.number]
    cells = sum(1 for t in paper.tables for row in t.rows for c in row if c.text)
    errors = conversion.count("error") + conversion.count("fatal")
    lines = [
        f"LaTeXML: {conversion.seconds:.1f} s ({conversion.cpu_seconds:.1f} s of CPU), {errors} errors, "
        f"{conversion.count('warning')} warnings"
    ]
    for message in conversion.messages[:SHOWN_MESSAGES]:
        lines.append(f"  {message}")
    if len(conversion.messages) > SHOWN_MESSAGES:
        lines.append(f"  … and {len(conversion.messages) - SHOWN_MESSAGES} more")
    lines.append(
        f"found: {len(paper.sections)} sections ({sections} with subsections), "
        f"{len(paper.equations)} displayed equations ({len(numbered)} numbered), "
        f"{len(paper.tables)} tables ({cells} cells), {len(paper.figures)} figures, "
        f"{len(paper.footnotes)} footnotes, {len(paper.references)} references"
    )
    for equation in paper.equations:
        if equation.problem:
            number = f" ({equation.number})" if equation.number else ""
            lines.append(
                f"  equation {equation.label}{number}: kept in paper/equations.yaml, "
                f"not made a card: {equation.problem}"
            )
    if paper.bibliography_files:
        lines.append(
            f"  the bibliography: no .bbl beside the main file, so {paper.bibliography_files}.bib "
            f"was not read; run bibtex once (arXiv's source has the .bbl) and import again"
        )
    missing = [f.label for f in paper.figures if not f.images]
    if missing:
        lines.append(f"  figures without an image file (drawn in TikZ, or missing): {', '.join(missing)}")
    lines.append(
        f"wrote {len(written.files)} files, {written.lessons} lessons, {written.drafts} drafts to review"
    )
    if written.kept:
        lines.append(
            f"kept as they were (yours): {', '.join(written.kept[:8])}"
            + (f" and {len(written.kept) - 8} more" if len(written.kept) > 8 else "")
        )
    return lines


__all__ = ["Imported", "import_paper", "report"]
