"""A practice sheet as PDF, laid out like a textbook's exercises: the problems of a Deck
first, several to a page (no boxes to work in), then their worked solutions."""

from __future__ import annotations

import math
from pathlib import Path

from ..atomic import write_bytes
from ..errors import UsageError
from ..items import Deck
from ..presentation import build_time
from ..quiz import ProblemItem, exponentials
from . import ExportOptions
from .print_items import item, problem_tag, solution
from .typst import escape
from .typst.compile import compile_pdf, preamble


def practice_source(deck: Deck, paper: str = "a4", calculator: bool = False) -> str:
    """The Typst source of a practice sheet: the problems, then their solutions."""
    found = [study_item for study_item in deck.items if study_item.kind == "problem"]
    if len(found) != len(deck.items):
        kinds = sorted({study_item.kind for study_item in deck.items if study_item.kind != "problem"})
        raise UsageError(f"a practice sheet prints problems only, not {', '.join(kinds)}")
    title = f"{deck.title}: practice"
    out = [preamble(paper, title, f"[{escape(f'{len(found)} problems')}]")]
    note = "[A calculator is allowed.]" if calculator else "[Exponentials are given where needed.]"
    out.append(f"#front(title: [{escape(title)}], subtitle: [], name: true, points: none, minutes: none,"
               f" calculator: {note}, instructions: [Worked answers are at the end.])\n")
    for n, study_item in enumerate(found, 1):
        problem = study_item.body
        pairs = () if calculator else exponentials(problem)
        out.append(item(ProblemItem(n, math.nan, problem, pairs), tag=True, work_space=False))
    out.append("#pagebreak()\n#section-title([Solutions], [])\n")
    for n, study_item in enumerate(found, 1):
        problem = study_item.body
        body = f"#text(size: 8pt)[{problem_tag(problem)}]\n\n" + solution(problem)
        out.append(f"#key-block({n}, none, [{body}])\n")
    return "".join(out)


def export(deck: Deck, path: Path, options: ExportOptions) -> list[Path]:
    """Write a practice sheet of the problems of ``deck`` to ``path``."""
    write_bytes(path, compile_pdf(practice_source(deck, options.paper), build_time(options.build_time)))
    return [path]
