"""A practice sheet as PDF, laid out like a textbook's exercises: the problems of a Deck
first, several to a page (no boxes to work in), then their worked solutions."""

from __future__ import annotations

import math
from pathlib import Path

from .. import problems
from ..documents.items import Deck, item_errors
from ..documents.quiz import ProblemItem, exponentials
from ..errors import UsageError
from ..files.atomic import write_bytes
from ..presentation import build_time
from . import ExportOptions
from .print_items import item, problem_tag, solution
from .typst import escape
from .typst.compile import compile_pdf, preamble


def calculator_note(type_ids: list[str]) -> str:
    """What the sheet says about a calculator for problems of these types (each once)."""
    needing = sorted({t for t in type_ids if problems.get(t).needs_calculator})
    if not needing:
        return "No calculator is needed: exponentials are given where needed."
    if len(needing) == len(set(type_ids)):
        return f"A calculator is needed ({', '.join(needing)} take powers, roots or sines)."
    return (
        f"A calculator is needed for {', '.join(needing)} (powers, roots or sines);"
        " for the others exponentials are given where needed."
    )


def practice_source(deck: Deck, paper: str = "a4") -> str:
    """The Typst source of a practice sheet: the problems, then their solutions.

    Exponentials are printed under each problem with a softmax, so that only the
    types that need one (``needs_calculator``) need a calculator; the front says which.
    """
    found = [study_item for study_item in deck.items if study_item.kind == "problem"]
    if len(found) != len(deck.items):
        kinds = sorted({study_item.kind for study_item in deck.items if study_item.kind != "problem"})
        raise UsageError(f"a practice sheet prints problems only, not {', '.join(kinds)}")
    title = f"{deck.title}: practice"
    out = [preamble(paper, title, f"[{escape(f'{len(found)} problems')}]")]
    note = escape(calculator_note([study_item.body.type for study_item in found]))
    out.append(
        f"#front(title: [{escape(title)}], subtitle: [], name: true, points: none, minutes: none,"
        f" calculator: [{note}], instructions: [Worked answers are at the end.])\n"
    )
    for n, study_item in enumerate(found, 1):
        problem = study_item.body
        with item_errors(study_item):
            out.append(
                item(ProblemItem(n, math.nan, problem, exponentials(problem)), tag=True, work_space=False)
            )
    out.append("#pagebreak()\n#section-title([Solutions], [])\n")
    for n, study_item in enumerate(found, 1):
        with item_errors(study_item):
            body = f"#text(size: 8pt)[{problem_tag(study_item.body)}]\n\n" + solution(study_item.body)
        out.append(f"#key-block({n}, none, [{body}])\n")
    return "".join(out)


def export(deck: Deck, path: Path, options: ExportOptions) -> list[Path]:
    """Write a practice sheet of the problems of ``deck`` to ``path``."""
    write_bytes(path, compile_pdf(practice_source(deck, options.paper), build_time(options.build_time)))
    return [path]
