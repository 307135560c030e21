"""The study site: a ``Site`` to a folder of static web pages that work offline.

``index.html`` lists the paper's lessons in teaching order with the progress kept
on this device; each lesson has a page (``01-why-attention.html``, …) with its
text, concepts, equations and their symbols, worked examples step by step,
figures, flip cards, clozes, label-the-part figures, questions that answer on the
spot and practice blocks with fresh numbers; problems no lesson teaches get
``practice.html``. Math is MathML written by the project's LaTeX parser, figures
are files in ``figures/`` (diagrams as SVG), the CSS and scripts are files in
``assets/`` read from this package (``page.html``, ``site.css``, ``site.js``, the math
font, and the scripts cards run too: the answer rule ``generator/answers.js`` and the day's
problem ``generator/today.js``), a page's practice problems a script in
``problems/``, so the site opens from ``file://`` or any static host and makes no request
outside itself. The folder is written beside its target and swapped in as one change
(``atomic.file_set``), replacing only what the last build wrote there (listed in ``RECORD``):
a ``.git/``, ``CNAME`` or notes a user put in the folder stay.
"""

from __future__ import annotations

import re
import shutil
from importlib import resources
from pathlib import Path
from string import Template
from typing import Any

from ... import SHARED_SCRIPTS, shared_script, visuals
from ...content.model import Lesson
from ...documents.items import Site, StudyItem
from ...files.atomic import file_set
from ...identity import site_store
from .. import ExportOptions
from . import review
from .markup import attribute, inline, script_json, text, url
from .pages import RENDERERS, Context, lesson_body, resources_html

_ASSETS = ("site.css", "site.js", "noscript.css")
_FONTS = ("NotoSansMath-Regular.woff2", "NotoSansMath-OFL.txt")
"""The math font and its licence (SIL Open Font License), copied beside the CSS."""
PRACTICE_PAGE = "practice.html"
RECORD = ".paperdeck-site"
"""The list of the files the last build wrote into the site's folder: the next build replaces
those and leaves everything else there alone."""
PROBLEMS = "problems"
"""The folder of each page's practice problems, a script beside the page's HTML: its bytes are
read and compiled apart from the page (off the page's main thread), not parsed as the page."""


def _site_file(relative: Path) -> bool:
    """Whether a path in a site's folder that has no ``RECORD`` (built before there was one)
    is one a build writes: the pages and the ``assets/``, ``figures/`` and ``problems/`` folders."""
    top = relative.parts[0]
    return top in ("assets", "figures", PROBLEMS, "index.html", PRACTICE_PAGE) or (
        len(relative.parts) == 1 and re.fullmatch(r"\d\d-[^/]+\.html", top) is not None
    )


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def page_name(number: int, lesson: Lesson) -> str:
    """The file of a lesson's page: ``03-scaled-dot-product-attention.html``."""
    return f"{number:02d}-{lesson.id}.html"


def _groups(site: Site) -> list[tuple[str, Lesson | None, list[StudyItem]]]:
    groups: dict[str, list[StudyItem]] = {}
    for item in site.items:
        groups.setdefault(item.group, []).append(item)
    out = []
    for group, group_items in groups.items():
        lesson = next((i.lesson for i in group_items if i.lesson is not None), None)
        out.append((group, lesson, group_items))
    return out


def _counts(group_items: list[StudyItem]) -> tuple[int, int]:
    """Cards one can mark as known, and questions and practice blocks one can answer."""
    label_figures = {i.body.visual.id for i in group_items if i.kind == "label"}
    cards = sum(i.kind in ("concept", "flashcard", "cloze") for i in group_items) + len(label_figures)
    return cards, sum(i.kind in ("question", "problem") for i in group_items)


def export(site: Site, folder: Path, options: ExportOptions) -> list[Path]:
    """Write the site into ``folder`` (replacing the site there); returns the files written."""
    unknown = {i.kind for i in site.items} - set(RENDERERS)
    if unknown:
        raise ValueError(f"the site has no layout for item kinds {sorted(unknown)}")
    figures = options.figures or visuals.default_cache_dir()
    figures.mkdir(parents=True, exist_ok=True)
    ctx = Context(site.paper, figures)
    template = Template(_asset("page.html"))
    paper = site.paper
    site_id = f"{paper.id}/{folder.name}"  # the name of its progress before site_store (site.js)
    store = site_store(paper.id, paper.arxiv or "", folder.name)
    groups = _groups(site)
    pages: list[tuple[str, str, str]] = []  # file, title (HTML), menu label
    for number, (group, lesson, _) in enumerate(groups, 1):
        if lesson is None:
            pages.append((PRACTICE_PAGE, "Practice", "Practice"))
        else:
            pages.append((page_name(number, lesson), inline(lesson.title), inline(group)))
    nav = (
        '<nav class="pd-nav" aria-label="Lessons"><details><summary>Lessons</summary><ol>'
        + "".join(f'<li><a href="{name}">{label}</a></li>' for name, _, label in pages)
        + "</ol></details></nav>"
    )
    paper_line = f"{text(paper.title)} ({text(', '.join(paper.authors))}, {paper.year})"

    def render(title: str, heading: str, body: str, pager: str, current: str = "", problems: str = "") -> str:
        here = nav.replace(f'<a href="{current}">', f'<a href="{current}" aria-current="page">')
        return template.substitute(
            site=attribute(site_id),
            store=attribute(store),
            title=title,
            site_title=text(site.title),
            nav=here,
            heading=heading,
            body=body,
            pager=pager,
            paper=paper_line,
            problems=problems,
        )

    out: dict[str, str] = {}  # file under the site's folder → its text
    problem_files: dict[str, str] = {}  # a lesson page → the file of its practice problems
    for index, ((group, lesson, group_items), (name, title, _)) in enumerate(zip(groups, pages, strict=True)):
        links = []
        if index > 0:
            links.append(f'<a rel="prev" href="{pages[index - 1][0]}">← {pages[index - 1][2]}</a>')
        links.append('<a href="index.html">All lessons</a>')
        if index + 1 < len(pages):
            links.append(f'<a rel="next" href="{pages[index + 1][0]}">{pages[index + 1][2]} →</a>')
        pager = f'<nav class="pd-pager" aria-label="Next and previous lesson">{" ".join(links)}</nav>'
        ctx.problems = {}
        body = lesson_body(lesson, group_items, ctx)
        problems = ""
        if ctx.problems:
            script = f"{PROBLEMS}/{name.removesuffix('.html')}.js"
            out[script] = _problems_script(ctx.problems)
            problems = f'<script src="{script}"></script>'
            problem_files[name] = script
        out[name] = render(f"{text(group)} · {text(site.title)}", title, body, pager, name, problems)
    out["index.html"] = render(text(site.title), text(site.title), _index(site, groups, pages), "")
    # The review page: every lesson's cards, scheduled by FSRS (review.py); its problems' numbers
    # are the lesson pages' files, loaded when a problem's card comes up.
    review_body = review.body(groups, pages, ctx, site.exam, problem_files)
    out[review.PAGE] = render(
        f"Review · {text(site.title)}", "Review", review_body, "", review.PAGE, review.scripts()
    )
    written: list[Path] = []
    with file_set(folder, _site_file, record=RECORD) as staging:
        (staging / "assets").mkdir()
        (staging / "figures").mkdir()
        (staging / PROBLEMS).mkdir()
        for name, content in out.items():
            (staging / name).write_text(content, encoding="utf-8")
            written.append(folder / name)
        for name in _ASSETS:
            (staging / "assets" / name).write_text(_asset(name), encoding="utf-8")
            written.append(folder / "assets" / name)
        for name in _FONTS:
            font = resources.files(__package__).joinpath("fonts", name).read_bytes()
            (staging / "assets" / name).write_bytes(font)
            written.append(folder / "assets" / name)
        for name in SHARED_SCRIPTS:
            (staging / "assets" / name).write_text(shared_script(name), encoding="utf-8")
            written.append(folder / "assets" / name)
        written += [folder / "assets" / p.name for p in review.write_assets(staging / "assets")]
        for name, path in sorted(ctx.used_figures.items()):
            shutil.copyfile(path, staging / "figures" / name)
            written.append(folder / "figures" / name)
    return written


def _problems_script(problems: dict[str, list[dict[str, Any]]]) -> str:
    """A page's practice problems as a classic script: added to ``paperdeckProblems``, not put in
    its place, since the review page loads the files of several lessons, one after the other."""
    return (
        "(function (all, more) { for (var key in more) { all[key] = more[key]; } })"
        f"(window.paperdeckProblems = window.paperdeckProblems || {{}}, {script_json(problems)});\n"
    )


def _index(
    site: Site, groups: list[tuple[str, Lesson | None, list[StudyItem]]], pages: list[tuple[str, str, str]]
) -> str:
    paper = site.paper
    arxiv = url(f"https://arxiv.org/abs/{paper.arxiv}") if paper.arxiv else None
    link = f' · <a href="{arxiv}">arXiv:{text(paper.arxiv)}</a>' if arxiv else ""
    rows = []
    for (_, lesson, group_items), (name, title, _) in zip(groups, pages, strict=True):
        cards, questions = _counts(group_items)
        lesson_id = lesson.id if lesson else "practice"
        sources = (
            f' <span class="pd-sources-short">{text(", ".join(lesson.sources))}</span>' if lesson else ""
        )
        rows.append(
            f'<li><a href="{name}">{title}</a>{sources}'
            f'<span class="pd-progress" data-lesson="{attribute(lesson_id)}" data-cards="{cards}" '
            f'data-questions="{questions}">{cards} cards, {questions} questions and problems'
            "</span></li>"
        )
    more = (
        (
            f'<section aria-labelledby="h-paper-resources"><h2 id="h-paper-resources">Read and watch</h2>'
            f"{resources_html(paper.resources)}</section>"
        )
        if paper.resources
        else ""
    )
    return (
        f'<p class="pd-paper">{text(paper.title)} · {text(", ".join(paper.authors))} ({paper.year})'
        f"{link}</p>"
        "<p>The paper's lessons in teaching order: read each lesson, then flip its cards, reveal its"
        " blanks, answer its questions and practise with fresh numbers. Cards you mark as known and"
        " your answers are kept in this browser only.</p>"
        '<p class="pd-review-link"><a href="review.html">Review the cards that are due</a>: every'
        " lesson's cards on one page, scheduled for you (FSRS) in this browser, apart from Anki.</p>"
        f'<section aria-labelledby="h-lessons"><h2 id="h-lessons">Lessons</h2>'
        f'<ol class="pd-lessons">{"".join(rows)}</ol></section>{more}'
        '<section aria-labelledby="h-progress"><h2 id="h-progress">Your progress</h2>'
        '<p class="pd-total" role="status"></p>'
        '<div class="pd-actions"><button type="button" class="pd-reset">Reset progress on this device'
        '</button><button type="button" class="pd-reset-confirm" hidden>Yes, erase my progress</button>'
        '<button type="button" class="pd-reset-cancel" hidden>Keep it</button></div></section>'
    )
