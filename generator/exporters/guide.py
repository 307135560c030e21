"""The study guide: every lesson in teaching order as one PDF, with its figures.

A lesson's text, concepts, equations (with their symbols), worked examples and
figures are laid out for reading; flashcards, clozes, questions and label cards
are practised in Anki and in quizzes, so the guide lists only how many each lesson
has (label cards only where a figure asks for them). Built
from study items like every exporter; figures are drawn by ``generator.visuals``
into ``figures`` and included from there.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from .. import visuals
from ..content.model import Concept, Equation, Visual, WorkedExample
from ..documents.items import Guide, StudyItem, item_errors
from ..files.atomic import write_bytes
from ..presentation import build_time, name_symbol, value_latex
from . import ExportOptions
from .typst import display_math, escape, inline_math, markdown, string
from .typst.compile import PAPERS, USE_TEMPLATE, compiler, pdf_bytes, staged_root


def _concept(item: StudyItem, figures: Path) -> str:
    concept: Concept = item.body
    return f"#block(below: 0.7em)[*{markdown(concept.term)}* — {markdown(concept.definition)}]\n"


def _equation(item: StudyItem, figures: Path) -> str:
    eq: Equation = item.body
    rows = ", ".join(
        f"[{inline_math(v.symbol)}], [{'scalar' if v.scalar else inline_math(v.shape)}],"
        f" [{markdown(v.meaning)}]"
        for v in eq.variables
    )
    deep = f"\n#block(inset: (left: 1em))[{markdown(eq.deep_dive)}]" if eq.deep_dive else ""
    return (
        f"#block(breakable: false, below: 1em)[*{markdown(eq.name)}* ({escape(eq.label)})\n"
        f"{display_math(eq.latex)}\n"
        f"#table(columns: (auto, auto, 1fr), inset: 4pt, [*Symbol*], [*Shape*], [*Meaning*], {rows})]"
        f"{deep}\n"
    )


def _worked_example(item: StudyItem, figures: Path) -> str:
    example: WorkedExample = item.body
    steps = ", ".join(f"[{markdown(step)}]" for step in example.steps)
    # Each result named as the cards name it (presentation.name_symbol): d_k as math, a word as words.
    result = ", ".join(
        inline_math(f"{symbol} = {value_latex(value)}")
        if (symbol := name_symbol(name)) is not None
        else f"{escape(name.replace('_', ' '))} {inline_math('= ' + value_latex(value))}"
        for name, value in example.result.items()
    )
    task = f"{markdown(example.task)}\n" if example.task else ""
    return (
        f"#block(below: 1em)[*{markdown(example.title)}* ({escape(example.source)})\n"
        f"{task}#enum({steps})\n"
        f"Result: {result}]\n"
    )


_PAPER_FIGURE = re.compile(r"\.F(\d+)$")
"""A source label naming one of the paper's figures (``S3.F2``, ``SA.F4``) and its number."""


def _figure_label(visual: Visual) -> str:
    """How the guide numbers a figure: the paper's figures by the paper's number ("Figure 2"),
    the guide's own plots and drawings apart ("Illustration 1"), so that no number the guide
    prints clashes with the paper's while the text says "(Figure 2, right)"."""
    paper = _PAPER_FIGURE.search(visual.source)
    if paper:
        return f"supplement: [Figure], numbering: (..n) => {string(paper.group(1))}"
    return 'kind: "illustration", supplement: [Illustration]'


_FIGURES_USED = re.compile(r'#figure\(image\("/([^"/\\]+)"')
"""The figures a guide's source shows (``_visual`` writes them so)."""


def _visual(item: StudyItem, figures: Path) -> str:
    visual: Visual = item.body
    path = visuals.render(visual.kind, visual.params, figures)
    # A diagram's SVG prints at its natural size (1 px = 0.75 pt), where its words are
    # 10.5 pt like the text around it; plots fill the column.
    size = "" if path.suffix == ".svg" else ", width: 100%"
    return (
        f"#figure(image({string('/' + path.name)}{size}), {_figure_label(visual)},"
        f" caption: [{markdown(visual.caption)} ({escape(visual.source)})])\n"
    )


_PRACTISED = ("flashcard", "cloze", "question", "label")
"""Kinds practised elsewhere; the guide counts them instead of printing them."""
_NAMES = {"label": "label cards"}

_RENDER: dict[str, Callable[[StudyItem, Path], str] | None] = {
    "concept": _concept,
    "equation": _equation,
    "worked_example": _worked_example,
    "visual": _visual,
    "flashcard": None,
    "cloze": None,
    "question": None,
    "label": None,
}
_HEADINGS = {
    "concept": "Concepts",
    "equation": "Equations",
    "worked_example": "Worked examples",
    "visual": "Figures",
}


def _lesson(group: str, items: list[StudyItem], figures: Path) -> str:
    lesson = items[0].lesson
    assert lesson is not None
    out = [
        f"#pagebreak(weak: true)\n= {markdown(group)}\n",
        f"#text(size: 9pt)[Sources: {escape(', '.join(lesson.sources))}]\n\n",
        markdown(lesson.text),
        "\n",
    ]
    for kind, heading in _HEADINGS.items():
        render = _RENDER[kind]
        chosen = [i for i in items if i.kind == kind]
        if chosen and render is not None:
            out.append(f"== {heading}\n")
            for i in chosen:
                with item_errors(i):
                    out.append(render(i, figures))
    # Label cards are counted only where a figure asks for them.
    counts = [
        f"{n} {_NAMES.get(k, k.replace('_', ' ') + 's')}"
        for k in _PRACTISED
        if (n := sum(i.kind == k for i in items)) or k not in _NAMES
    ]
    out.append(f"#text(size: 9pt)[To practise in Anki and quizzes: {escape(', '.join(counts))}.]\n")
    if lesson.resources:
        out.append(
            "== Resources\n#list("
            + ", ".join(
                f"[#link({string(r.url)})[{escape(r.title)}]"
                + (f" — {markdown(r.note)}" if r.note else "")
                + "]"
                for r in lesson.resources
            )
            + ")\n"
        )
    return "".join(out)


def guide_source(guide: Guide, figures: Path, paper_size: str = "a4") -> str:
    """The Typst source of the guide (lesson items, in teaching order)."""
    unknown = {i.kind for i in guide.items} - set(_RENDER)
    if unknown:
        raise ValueError(f"the guide has no layout for item kinds {sorted(unknown)}")
    groups: dict[str, list[StudyItem]] = {}
    for item in guide.items:
        groups.setdefault(item.group, []).append(item)
    paper, title = guide.paper, guide.title
    running = f"[{escape(paper.title)}]"
    out = [
        USE_TEMPLATE,
        f"#show: sheet.with(paper: {string(PAPERS[paper_size])}, title: {string(title)},"
        f" running: {running})\n",
        "#set heading(numbering: none)\n#show heading.where(level: 1): set text(size: 16pt)\n",
        f'#align(center, text(size: 20pt, weight: "bold")[{escape(title)}])\n',
        f"#align(center)[{escape(', '.join(paper.authors))} ({paper.year}) · "
        f"#link({string(f'https://arxiv.org/abs/{paper.arxiv}')})[arXiv:{escape(paper.arxiv)}]]\n",
        "#outline(title: [Lessons], depth: 1)\n",
    ]
    out.extend(_lesson(group, group_items, figures) for group, group_items in groups.items())
    return "".join(out)


def export(guide: Guide, path: Path, options: ExportOptions) -> list[Path]:
    """Write the guide PDF atomically; figures are drawn (or reused) in the figure cache."""
    figures = options.figures or visuals.default_cache_dir()
    figures.mkdir(parents=True, exist_ok=True)
    source = guide_source(guide, figures, options.paper)
    # The root holds copies of the figures this guide shows, not the whole figure cache.
    used = sorted({figures / name for name in _FIGURES_USED.findall(source)})
    with staged_root(used) as root:
        write_bytes(path, pdf_bytes(compiler(root), source, build_time(options.build_time)))
    return [path]
